"""irkit-run's `--input` as the help shows it: several files after one flag,
`.npz` files (irkit-opt --check-semantics reproducers, irkit-run --output)
fed back, and clear errors for files NumPy cannot read."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

PROGRAM = """\
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = arith.subf %a, %b : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}
"""

# A pass that turns every arith.addf into arith.subf: wrong on purpose, so
# that --check-semantics writes a reproducer.
WRONG_PLUGIN = """\
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class AddToSub(ModulePass):
    name = "test-add-to-sub"

    def apply(self, ctx, op):
        for inner in list(op.walk()):
            if isinstance(inner, arith.AddfOp):
                new = arith.SubfOp(inner.lhs, inner.rhs)
                inner.parent_block().insert_op_before(new, inner)
                inner.results[0].replace_all_uses_with(new.results[0])
                inner.detach()
                inner.erase()
"""


def run_tool(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    code = f"from irkit.tools.{tool.replace('-', '_')} import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False
    )


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "sub.mlir"
    path.write_text(PROGRAM)
    return path


@pytest.fixture
def arrays(tmp_path: Path) -> tuple[Path, Path]:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", a * 3)
    return tmp_path / "a.npy", tmp_path / "b.npy"


def saved_result(path: Path) -> np.ndarray:
    with np.load(path) as saved:
        return np.asarray(saved["result0"])


def test_one_input_flag_takes_several_files(
    program: Path, arrays: tuple[Path, Path], tmp_path: Path
) -> None:
    a, b = arrays
    out = tmp_path / "out.npz"
    forms = [
        [str(program), "--input", str(a), str(b)],
        ["--input", str(a), "--input", str(b), str(program)],
        ["--input", str(a), str(b), "--", str(program)],
        ["--input", str(a), str(b), str(program)],
    ]
    for form in forms:
        result = run_tool("irkit-run", "--output", str(out), *form)
        assert result.returncode == 0, (form, result.stderr)
        np.testing.assert_array_equal(saved_result(out), np.load(a) - np.load(b))


def test_a_missing_file_gets_a_hint(arrays: tuple[Path, Path]) -> None:
    a, b = arrays
    result = run_tool("irkit-run", "--input", str(a), str(b))
    assert result.returncode == 1
    assert result.stderr == (
        "error: irkit-run: no input FILE given (--input takes every path after "
        "it: give FILE first, or end the list with --)\n"
    )


def test_an_empty_npy_file_is_a_user_error(program: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.npy"
    empty.write_bytes(b"")
    result = run_tool("irkit-run", str(program), "--input", str(empty), str(empty))
    assert result.returncode == 1
    assert result.stderr == f"error: cannot load input '{empty}': the file is empty\n"


@pytest.mark.parametrize("cut", [10, 60, 200])
def test_a_damaged_npz_is_a_user_error(program: Path, tmp_path: Path, cut: int) -> None:
    whole = tmp_path / "whole.npz"
    np.savez(whole, a=np.zeros((2, 3), np.float32), b=np.ones((2, 3), np.float32))
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(whole.read_bytes()[:cut])
    result = run_tool("irkit-run", str(program), "--input", str(damaged))
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith(f"error: cannot load input '{damaged}': ")
    assert "Traceback" not in result.stderr


def test_an_npz_holds_one_input_per_array(program: Path, tmp_path: Path) -> None:
    a = np.full((2, 3), 5, np.float32)
    b = np.full((2, 3), 2, np.float32)
    inputs = tmp_path / "inputs.npz"
    np.savez(inputs, arg0=a, arg1=b)
    out = tmp_path / "out.npz"
    result = run_tool(
        "irkit-run", str(program), "--input", str(inputs), "--output", str(out)
    )
    assert result.returncode == 0, result.stderr
    np.testing.assert_array_equal(saved_result(out), a - b)
    # irkit-run's own --output feeds back too (here as both arguments).
    again = tmp_path / "again.npz"
    result = run_tool(
        "irkit-run", str(program), "--input", str(out), str(out), "--output", str(again)
    )
    assert result.returncode == 0, result.stderr
    np.testing.assert_array_equal(saved_result(again), np.zeros((2, 3)))


def test_check_semantics_reproducer_feeds_back_into_irkit_run(tmp_path: Path) -> None:
    source = tmp_path / "add.mlir"
    source.write_text(
        "func.func @f(%a: tensor<3xf32>, %s: f32) -> tensor<3xf32> {\n"
        "  %b = arith.addf %a, %a : tensor<3xf32>\n"
        "  return %b : tensor<3xf32>\n}\n"
    )
    plugin = tmp_path / "wrong.py"
    plugin.write_text(WRONG_PLUGIN)
    result = run_tool(
        "irkit-opt",
        str(source),
        "--load-pass-plugin",
        str(plugin),
        "-p",
        "test-add-to-sub",
        "--check-semantics=1",
    )
    assert result.returncode == 1
    rerun = re.search(
        r"^rerun: irkit-run (\S+) --entry f --input (\S+) \(and with (\S+)\)$",
        result.stderr,
        re.M,
    )
    assert rerun is not None, result.stderr
    before, inputs, after = (Path(p) for p in rerun.groups())
    outputs = []
    for ir in (before, after):
        out = tmp_path / f"{ir.stem}.npz"
        run = run_tool(
            "irkit-run",
            str(ir),
            "--entry",
            "f",
            "--input",
            str(inputs),
            "--output",
            str(out),
        )
        assert run.returncode == 0, run.stderr
        outputs.append(saved_result(out))
    with np.load(inputs) as saved:
        a = saved["arg0"]
    np.testing.assert_array_equal(outputs[0], a + a)
    np.testing.assert_array_equal(outputs[1], np.zeros(3, np.float32))
    reproducer = before.with_suffix("").with_suffix(".mlir")
    for path in (before, after, inputs, reproducer):
        path.unlink()
