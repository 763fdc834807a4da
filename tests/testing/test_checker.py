"""The semantic checker: quiet on correct passes, precise on wrong ones."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)

from irkit.interpreter import Interpreter, run_function
from irkit.parsing import parse_module
from irkit.testing import (
    SemanticsMismatch,
    assert_pass_preserves_semantics,
    check_semantics_between,
    checker,
    compare_arrays,
    random_arguments,
)
from tests.testing.mutants import SwapSubOperandsPass


def run_opt(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from irkit.tools.irkit_opt import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False
    )


PROGRAM = """\
func.func @main(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %x = arith.subf %a, %b : tensor<4x3xf32>
  %y = arith.subf %a, %b : tensor<4x3xf32>
  %z = arith.mulf %x, %y : tensor<4x3xf32>
  %w = arith.subf %z, %a : tensor<4x3xf32>
  return %w : tensor<4x3xf32>
}
"""


def test_correct_pipeline_passes() -> None:
    result = assert_pass_preserves_semantics("canonicalize,cse", PROGRAM)
    assert str(result).count("arith.subf") == 2  # cse merged the duplicate


def test_wrong_pass_is_named_with_figures(tmp_path: Path) -> None:
    with pytest.raises(SemanticsMismatch) as caught:
        assert_pass_preserves_semantics(SwapSubOperandsPass(), PROGRAM, seed=7)
    error = caught.value
    message = str(error)
    assert message.startswith(
        "pass 'test-swap-sub-operands' changed the semantics of @main: result #0: "
    )
    assert "max abs error" in message
    assert "input seed 7" in message
    assert error.seed == 7
    assert "arith.subf %a, %b" in error.before
    assert "arith.subf %b, %a" in error.after
    path = error.write_reproducer(tmp_path / "repro.mlir")
    assert "before the pass" in path.read_text()
    saved = np.load(tmp_path / "repro.mlir.inputs.npz")
    np.testing.assert_array_equal(saved["arg0"], error.inputs[0])


def test_wrong_pass_in_pipeline_is_blamed() -> None:
    with pytest.raises(SemanticsMismatch) as caught:
        assert_pass_preserves_semantics(
            [CommonSubexpressionElimination(), SwapSubOperandsPass()],
            PROGRAM,
        )
    assert caught.value.pass_name == "test-swap-sub-operands"


def test_each_stage_of_a_pipeline_is_interpreted_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The module after one pass is the one before the next: two passes, two
    # input sets, so 3 x 2 runs, not 2 x 2 x 2. A wrong last pass is still
    # caught, compared with the kept runs of the pass before it.
    calls: list[str] = []

    def counted(interp: Interpreter, name: str, inputs: Sequence[Any]) -> Any:
        calls.append(name)
        return run_function(interp, name, inputs)

    monkeypatch.setattr(checker, "run_function", counted)
    assert_pass_preserves_semantics("canonicalize,cse", PROGRAM, trials=2)
    assert len(calls) == 6
    calls.clear()
    with pytest.raises(SemanticsMismatch, match="test-swap-sub-operands"):
        assert_pass_preserves_semantics(
            [CommonSubexpressionElimination(), SwapSubOperandsPass()],
            PROGRAM,
            trials=2,
        )
    # cse: before and after it on both sets; the swap: after it, on the
    # first set, which differs.
    assert len(calls) == 5


def test_kept_runs_of_other_inputs_are_not_taken() -> None:
    before = parse_module(PROGRAM)
    wrong: checker.Runs = {
        ("main", 0): ([np.ones((4, 3), np.float32)] * 2, (np.zeros((4, 3)),))
    }
    # Were the kept zeros taken as @main's results on seed 0's inputs, the
    # comparison with the real results after the (identity) pass would fail.
    check_semantics_between(before, before.clone(), "identity", trials=1, reuse=wrong)
    assert wrong[("main", 0)][0][0].sum() != 12  # replaced by seed 0's inputs
    # On seed 0's very inputs they are taken: the zeros differ from @main's
    # results after the pass.
    func = Interpreter(before).function("main")
    seed_0 = random_arguments(func, np.random.default_rng(0))
    taken: checker.Runs = {("main", 0): (seed_0, (np.zeros((4, 3), np.float32),))}
    with pytest.raises(SemanticsMismatch):
        check_semantics_between(
            before, before.clone(), "identity", trials=1, reuse=taken
        )


def test_explicit_inputs() -> None:
    difference = """\
func.func @main(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %x = arith.subf %a, %b : tensor<4x3xf32>
  return %x : tensor<4x3xf32>
}
"""
    a = np.full((4, 3), 2.0, np.float32)
    # a == b makes a - b == b - a: the wrong pass goes unnoticed on these inputs,
    # and is caught on others.
    assert_pass_preserves_semantics(SwapSubOperandsPass(), difference, inputs=[[a, a]])
    with pytest.raises(SemanticsMismatch) as caught:
        assert_pass_preserves_semantics(
            SwapSubOperandsPass(), difference, inputs=[[a, a], [a, a + 1]]
        )
    assert caught.value.seed is None
    assert "(given inputs)" in str(caught.value)


@pytest.mark.parametrize(
    ("expected", "actual", "differs"),
    [
        (
            np.array([1.0, np.nan], np.float32),
            np.array([1.0, np.nan], np.float32),
            False,
        ),
        (np.array([np.inf], np.float32), np.array([np.inf], np.float32), False),
        (np.array([np.inf], np.float32), np.array([-np.inf], np.float32), True),
        (np.array([1.0], np.float32), np.array([1.00001], np.float32), False),
        (np.array([1.0], np.float32), np.array([1.001], np.float32), True),
        (np.array([1.0], np.float32), np.array([np.nan], np.float32), True),
        (np.array([3], np.int32), np.array([3], np.int32), False),
        (np.array([3], np.int32), np.array([4], np.int32), True),
        (np.array([1.0], np.float32), np.array([1.0], np.float64), True),
        (np.zeros((2, 2), np.float32), np.zeros((4,), np.float32), True),
    ],
)
def test_compare_arrays(
    expected: np.ndarray, actual: np.ndarray, differs: bool
) -> None:
    assert (compare_arrays(expected, actual) is not None) == differs


def test_compare_reports_worst_index() -> None:
    expected = np.zeros((3, 4), np.float32) + 1
    actual = expected.copy()
    actual[2, 1] = 5.0
    actual[0, 0] = 1.5
    difference = compare_arrays(expected, actual)
    assert difference is not None
    assert difference.worst_index == (2, 1)
    assert difference.mismatched == 2
    assert difference.max_abs_error == pytest.approx(4.0)


def test_opt_check_semantics_names_the_faulty_pass(tmp_path: Path) -> None:
    source = tmp_path / "program.mlir"
    source.write_text(PROGRAM)
    plugin = Path(__file__).with_name("mutants.py")
    result = run_opt(
        str(source),
        "--load-pass-plugin",
        str(plugin),
        "-p",
        "cse,test-swap-sub-operands,canonicalize",
        "--check-semantics=2",
    )
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(
        "error: pass 'test-swap-sub-operands' changed the semantics of @main"
    )
    reproducer = Path(
        result.stderr.split("reproducer (IR before and after the pass): ")[1].split(
            ";"
        )[0]
    )
    assert "arith.subf %a, %b" in reproducer.read_text()
    reproducer.unlink()
    Path(f"{reproducer}.inputs.npz").unlink()


def test_opt_check_semantics_quiet_on_correct_pipeline(tmp_path: Path) -> None:
    source = tmp_path / "program.mlir"
    source.write_text(PROGRAM)
    plain = run_opt(str(source), "-p", "cse,canonicalize")
    checked = run_opt(str(source), "-p", "cse,canonicalize", "--check-semantics")
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr == ""
    assert checked.stdout == plain.stdout
