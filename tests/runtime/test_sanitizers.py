"""Emitted C under AddressSanitizer and UndefinedBehaviorSanitizer.

ctypes cannot load ASan-instrumented code into a plain Python, so each program
runs as its own executable (`build_test_executable`): every argument is an
exact-size heap allocation, so one element read or written past any buffer is
a report, and `-fno-sanitize-recover=all` makes any report fatal. Loop-level
programs run always; the torch-mlir corpus runs once `lower-to-c` can lower
it (cases it cannot lower yet are skipped with the pass's message).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp

import irkit
from irkit.pass_manager import PassFailure, PipelineError
from irkit.runtime import SanitizerError, lower
from irkit.runtime.cpu import build_test_executable
from irkit.targets.c import CArgument, CFunction, CTranslationUnit, emit_c
from irkit.testing.compare import compare_arrays

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "torch_mlir"
CORPUS_CASES = sorted(
    p.stem for p in CORPUS.glob("*.mlir") if p.with_suffix(".npz").exists()
)


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(tmp_path / "cache"))


def function_op(module: object, name: str) -> FuncOp:
    return next(
        op
        for op in module.walk()  # type: ignore[attr-defined]
        if isinstance(op, FuncOp) and op.sym_name.data == name
    )


STENCIL = """
func.func @stencil(%a: memref<16xf32>, %out: memref<14xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c14 = arith.constant 14 : index
  scf.for %i = %c0 to %c14 step %c1 {
    %x = memref.load %a[%i] : memref<16xf32>
    %i1 = arith.addi %i, %c1 : index
    %y = memref.load %a[%i1] : memref<16xf32>
    %i2 = arith.addi %i, %c2 : index
    %z = memref.load %a[%i2] : memref<16xf32>
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %z : f32
    memref.store %t, %out[%i] : memref<14xf32>
  }
  return
}

func.func @matmul(%a: memref<3x5xf32>, %b: memref<5x4xf32>, %out: memref<3x4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %sum = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<3x5xf32>
        %y = memref.load %b[%k, %j] : memref<5x4xf32>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      memref.store %sum, %out[%i, %j] : memref<3x4xf32>
    }
  }
  return
}
"""


def test_loop_programs_are_clean_under_sanitizers(tmp_path: Path) -> None:
    module = irkit.parse(STENCIL)
    unit = emit_c(module)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, 16).astype(np.float32)
    (out,) = build_test_executable(unit, "stencil", [a], tmp_path / "stencil")
    assert compare_arrays(a[:-2] + a[1:-1] + a[2:], out) is None

    x = rng.uniform(-1, 1, (3, 5)).astype(np.float32)
    y = rng.uniform(-1, 1, (5, 4)).astype(np.float32)
    func = function_op(module, "matmul")
    (product,) = build_test_executable(
        unit, "matmul", [x, y], tmp_path / "mm", func=func
    )
    assert compare_arrays(x @ y, product) is None


def test_an_out_of_bounds_read_is_reported(tmp_path: Path) -> None:
    # Hand-written, so the check itself is tested independently of the printer.
    source = (
        "#include <stdint.h>\n"
        "int shift(const float *restrict a, float *restrict out) {\n"
        "  for (int64_t i = 0; i < 4; ++i) out[i] = a[i + 1];\n"
        "  return 0;\n"
        "}\n"
    )
    f32 = np.dtype(np.float32)
    function = CFunction(
        "shift",
        "shift",
        (
            CArgument("a", f32, (4,), (1,), 0, False),
            CArgument("out", f32, (4,), (1,), 0, True),
        ),
        (),
    )
    unit = CTranslationUnit(source, {"shift": function})
    with pytest.raises(SanitizerError, match="heap-buffer-overflow"):
        build_test_executable(unit, "shift", [np.ones(4, f32)], tmp_path)


def test_signed_overflow_is_reported(tmp_path: Path) -> None:
    source = (
        "#include <stdint.h>\n"
        "int bump(const int32_t *restrict a, int32_t *restrict out) {\n"
        "  out[0] = a[0] + 1;\n"
        "  return 0;\n"
        "}\n"
    )
    i32 = np.dtype(np.int32)
    function = CFunction(
        "bump",
        "bump",
        (
            CArgument("a", i32, (1,), (1,), 0, False),
            CArgument("out", i32, (1,), (1,), 0, True),
        ),
        (),
    )
    unit = CTranslationUnit(source, {"bump": function})
    big = np.array([np.iinfo(np.int32).max], np.int32)
    with pytest.raises(SanitizerError, match="signed integer overflow"):
        build_test_executable(unit, "bump", [big], tmp_path)


@pytest.mark.parametrize("case", CORPUS_CASES)
def test_torch_mlir_corpus_is_clean_under_sanitizers(case: str, tmp_path: Path) -> None:
    text = (CORPUS / f"{case}.mlir").read_text()
    data = np.load(CORPUS / f"{case}.npz")
    inputs = [
        data[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in data.files))
    ]
    entry = re.search(r"func\.func @([\w$.]+)", text)
    assert entry is not None
    module = irkit.parse(text, filename=f"{case}.mlir")
    expected = irkit.interpret(module, entry.group(1), *inputs)
    try:
        lower(module, None)
        unit = emit_c(module)
    except (PassFailure, PipelineError, irkit.DiagnosticError) as error:
        pytest.skip(f"not lowered to C yet: {str(error).splitlines()[0]}")
    func = function_op(module, entry.group(1))
    results = build_test_executable(unit, entry.group(1), inputs, tmp_path, func=func)
    assert len(results) == len(expected)
    for index, (got, want) in enumerate(zip(results, expected, strict=True)):
        difference = compare_arrays(want, got)
        assert difference is None, f"result{index}: {difference.describe()}"
