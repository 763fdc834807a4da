"""Tensor programs through `lower-to-c`, compiled and run natively.

Every `nn` op (random programs focused on it) and every torch-mlir corpus
program is lowered with the `lower-to-c` pipeline, compiled with the system C
compiler, run, and compared with the reference interpreter on the original
program (and, for the corpus, with PyTorch's results), with per-dtype
tolerances. Outputs are poisoned by the runtime, so an element the C code
never writes shows up as a mismatch.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

import irkit
from irkit.testing import compare_arrays, random_arguments
from irkit.testing.strategies import NN_OPS, nn_programs

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "torch_mlir"
CASES = sorted(
    path.stem for path in CORPUS.glob("*.mlir") if path.with_suffix(".npz").exists()
)
# The IR computes gelu(tanh) with torch-mlir's rounded constant (see
# tests/interpreter/test_torch_mlir_corpus.py).
PYTORCH_TOLERANCE = {"gelu_tanh": {"rtol": 1e-4, "atol": 1e-4}}

# Each example is a C compile: a few per op in CI, more under `thorough`.
EXAMPLES_PER_OP = max(2, settings.default.max_examples // 8)


def _assert_same(got: tuple[np.ndarray, ...], want: tuple[np.ndarray, ...]) -> None:
    assert len(got) == len(want)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.shape == w.shape, f"result {index}"
        assert g.dtype == w.dtype, f"result {index}"
        difference = compare_arrays(w, g)
        assert difference is None, f"result {index}: {difference.describe()}"


@pytest.mark.parametrize("op", sorted(NN_OPS))
def test_every_nn_op_runs_as_c(op: str) -> None:
    @settings(max_examples=EXAMPLES_PER_OP, deadline=None)
    @given(nn_programs(max_ops=2, ops={op}).map(str))
    def lowered_c_matches_interpreter(program: str) -> None:
        check_program_on_target(program, "c")

    lowered_c_matches_interpreter()


def check_program_on_target(program: str, target: str) -> None:
    """`@main` of `program` compiled for `target` matches the interpreter on
    random inputs."""
    module = irkit.parse(program)
    main = module.body.block.first_op
    assert isinstance(main, FuncOp)
    inputs = random_arguments(main, np.random.default_rng(0))
    compiled = irkit.compile(program, target=target)
    _assert_same(compiled(*inputs), irkit.interpret(module, "main", *inputs))


def _load(case: str) -> tuple[str, str, list[np.ndarray], list[np.ndarray]]:
    text = (CORPUS / f"{case}.mlir").read_text()
    entry = re.search(r"func\.func @([\w$.]+)", text)
    assert entry is not None
    data = np.load(CORPUS / f"{case}.npz")
    count_args = sum(k.startswith("arg") for k in data.files)
    count_results = sum(k.startswith("result") for k in data.files)
    args = [data[f"arg{i}"] for i in range(count_args)]
    results = [data[f"result{i}"] for i in range(count_results)]
    return text, entry.group(1), args, results


@pytest.mark.parametrize("case", CASES)
def test_corpus_runs_as_c(case: str) -> None:
    check_corpus_case_on_target(case, "c")


def check_corpus_case_on_target(case: str, target: str) -> None:
    """Corpus program `case` compiled for `target` matches the interpreter and
    PyTorch's saved results."""
    text, entry, args, pytorch = _load(case)
    compiled = irkit.compile(text, target=target, entry=entry)
    got = compiled(*args)
    module: ModuleOp = irkit.parse(text)
    _assert_same(got, irkit.interpret(module, entry, *args))
    tolerance = PYTORCH_TOLERANCE.get(case, {"rtol": 1e-4, "atol": 1e-5})
    for index, (g, want) in enumerate(zip(got, pytorch, strict=True)):
        assert g.dtype == want.dtype
        if np.issubdtype(want.dtype, np.floating):
            np.testing.assert_allclose(g, want, err_msg=f"result{index}", **tolerance)
        else:
            np.testing.assert_array_equal(g, want, err_msg=f"result{index}")


TILED_PIPELINE = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,bufferize,"
    "linalg-tile{tile-sizes=8,16,4},linalg-tile{tile-sizes=2,4,0},"
    "convert-linalg-to-loops"
)


def test_two_level_tiled_matmul_with_partial_tiles_runs_as_c() -> None:
    program = """
func.func @main(%a: tensor<37x29xf32>, %b: tensor<29x23xf32>) -> tensor<37x23xf32> {
  %c = nn.matmul %a, %b : tensor<37x29xf32>, tensor<29x23xf32> -> tensor<37x23xf32>
  return %c : tensor<37x23xf32>
}"""
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (37, 29)).astype(np.float32)
    b = rng.uniform(-1, 1, (29, 23)).astype(np.float32)
    compiled = irkit.compile(program, target="c", pipeline=TILED_PIPELINE)
    _assert_same(compiled(a, b), irkit.interpret(irkit.parse(program), "main", a, b))
