"""The CPU runtime: calling compiled C with NumPy arrays, and `irkit.compile`.

The first half drives hand-written C units through the printer interface
(`CTranslationUnit`), so the calling convention (docs/abi.md) is tested on its
own: input checks, output allocation and poison, `out=`, strided layouts,
scalars, assertion statuses. The second half compiles loop-level IR end to end
and compares with NumPy and the interpreter.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.func import FuncOp

import irkit
from irkit.dtypes import BFLOAT16
from irkit.runtime import AssertionFailure, CompiledFunction, CompileError
from irkit.runtime.cpu import load_function
from irkit.targets.c import CArgument, CFunction, CTranslationUnit
from irkit.testing.compare import compare_arrays

F32 = np.dtype(np.float32)


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One cache for the whole module (fast), never the user's own.
    directory = tmp_path_factory.getbasetemp() / "irkit-cache"
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(directory))


def dense(
    name: str, shape: tuple[int, ...], dtype: np.dtype = F32, *, output: bool = False
) -> CArgument:
    strides = tuple(int(np.prod(shape[i + 1 :])) for i in range(len(shape)))
    return CArgument(name, np.dtype(dtype), shape, strides, 0, output)


def unit_of(source: str, *functions: CFunction) -> CTranslationUnit:
    header = "#include <stdbool.h>\n#include <stdint.h>\n"
    return CTranslationUnit(header + source, {f.symbol: f for f in functions})


# out[i][j] = a[i][j] + b[j]; fails assertion 1 when a[0][0] > 100.
ADD_SOURCE = """
int add_bias(const float *restrict a, const float *restrict b, float *restrict out) {
  if (a[0] > 100.0f) return 1;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 8; ++j)
      out[i * 8 + j] = a[i * 8 + j] + b[j];
  return 0;
}
"""
ADD = CFunction(
    "add_bias",
    "add_bias",
    (dense("a", (4, 8)), dense("b", (8,)), dense("out", (4, 8), output=True)),
    ("a[0, 0] must be at most 100",),
)


@pytest.fixture(scope="module")
def add_bias(tmp_path_factory: pytest.TempPathFactory) -> CompiledFunction:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(
            "IRKIT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "irkit-cache")
        )
        return load_function(unit_of(ADD_SOURCE, ADD), "add_bias")


def inputs(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (4, 8)).astype(F32), rng.uniform(-1, 1, 8).astype(F32)


def test_results_match_numpy(add_bias: CompiledFunction) -> None:
    a, b = inputs()
    (out,) = add_bias(a, b)
    assert out.dtype == F32
    np.testing.assert_array_equal(out, a + b)
    assert add_bias.library_path.suffix == ".so"
    assert "int add_bias(" in add_bias.source
    assert add_bias.function is ADD


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((np.zeros((4, 8), F32),), r"@add_bias takes 2 input\(s\), 1 given"),
        (
            (np.ones((8, 4), np.float64), np.ones(8, F32)),
            r"argument 0 \(a\): expected shape \(4, 8\) float32, got \(8, 4\) float64",
        ),
        (
            (np.ones((4, 8), F32), np.ones(8, np.float64)),
            r"argument 1 \(b\): expected shape \(8,\) float32, got \(8,\) float64",
        ),
        ((np.ones((4, 8), F32), [1.0] * 7), r"argument 1 \(b\): .* got \(7,\)"),
    ],
)
def test_bad_inputs_are_refused_before_running(
    add_bias: CompiledFunction, args: tuple[object, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        add_bias(*args)


def test_non_contiguous_and_python_inputs_are_accepted(
    add_bias: CompiledFunction,
) -> None:
    a, b = inputs(1)
    wide = np.zeros((4, 16), F32)
    wide[:, ::2] = a
    (out,) = add_bias(np.asfortranarray(a), b)
    np.testing.assert_array_equal(out, a + b)
    (out,) = add_bias(wide[:, ::2], b.tolist())
    np.testing.assert_array_equal(out, a + b)


def test_out_arrays_are_filled_and_returned(add_bias: CompiledFunction) -> None:
    a, b = inputs(2)
    out = np.empty((4, 8), F32)
    (result,) = add_bias(a, b, out=out)
    assert result is out
    np.testing.assert_array_equal(out, a + b)
    (result,) = add_bias(a, b, out=[out])
    assert result is out


@pytest.mark.parametrize(
    ("make_out", "message"),
    [
        (lambda a: a, "shares memory with input argument 0"),
        (lambda a: np.empty((4, 8), np.float64), "expected shape"),
        (lambda a: np.empty((8, 4), F32).T, "C-contiguous"),
    ],
)
def test_bad_out_arrays_are_refused(
    add_bias: CompiledFunction, make_out: object, message: str
) -> None:
    a, b = inputs(3)
    out = make_out(a)  # type: ignore[operator]
    with pytest.raises(ValueError, match=message):
        add_bias(a, b, out=out)


def test_read_only_out_is_refused(add_bias: CompiledFunction) -> None:
    a, b = inputs(4)
    out = np.empty((4, 8), F32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        add_bias(a, b, out=out)


def test_failed_assertion_raises_its_message(add_bias: CompiledFunction) -> None:
    a, b = inputs(5)
    a[0, 0] = 200.0
    with pytest.raises(
        AssertionFailure,
        match=r"@add_bias: assertion failed: a\[0, 0\] must be at most 100",
    ):
        add_bias(a, b)
    assert isinstance(AssertionFailure("x"), RuntimeError)


# Two outputs; the second is written only at even positions.
SPLIT_SOURCE = """
int split(const int32_t *restrict x, int32_t *restrict doubled, int32_t *restrict evens) {
  for (int64_t i = 0; i < 6; ++i) {
    doubled[i] = 2 * x[i];
    if (i % 2 == 0) evens[i] = x[i];
  }
  return 7;
}
"""
SPLIT = CFunction(
    "split",
    "split",
    (
        dense("x", (6,), np.dtype(np.int32)),
        dense("doubled", (6,), np.dtype(np.int32), output=True),
        dense("evens", (6,), np.dtype(np.int32), output=True),
    ),
    (),
)
SPLIT_OK = CFunction(SPLIT.symbol + "_ok", "split_ok", SPLIT.arguments, ())


def test_checked_mode_shows_unwritten_output_elements_and_outputs_may_not_alias() -> (
    None
):
    source = SPLIT_SOURCE + SPLIT_SOURCE.replace("split(", "split_ok(").replace(
        "return 7", "return 0"
    )
    unit = unit_of(source, SPLIT, SPLIT_OK)
    split_ok = load_function(unit, "split_ok", checked=True)
    x = np.arange(1, 7, dtype=np.int32)
    int_min = np.iinfo(np.int32).min
    given = np.full(6, 99, np.int32)
    for out in (None, (np.full(6, 99, np.int32), given)):
        # Poisoned before every call, outputs given as out= too.
        doubled, evens = split_ok(x, out=out)
        np.testing.assert_array_equal(doubled, 2 * x)
        np.testing.assert_array_equal(evens, [1, int_min, 3, int_min, 5, int_min])
    assert evens is given
    # Unchecked (the default), a call writes what the code writes, no more:
    # a given out= keeps the elements the code leaves alone.
    fast = load_function(unit, "split_ok")
    kept = np.full(6, 99, np.int32)
    fast(x, out=(np.empty(6, np.int32), kept))
    np.testing.assert_array_equal(kept, [1, 99, 3, 99, 5, 99])
    shared = np.empty(12, np.int32)
    with pytest.raises(ValueError, match="shares memory with out= for argument 1"):
        split_ok(x, out=(shared[:6], shared[5:11]))
    with pytest.raises(AssertionFailure, match="unknown status 7"):
        load_function(unit, "split")(x)
    with pytest.raises(
        irkit.IRKitError,
        match=r"no compiled function '@nope' \(functions: @split, @split_ok\)",
    ):
        load_function(unit, "nope")


# Strided memrefs: x is memref<2x3xf32, strided<[4, 1], offset: 1>>, out is
# memref<3x2xf32, strided<[1, 3]>> (column-major); out = transpose(x) * 2.
STRIDED_SOURCE = """
int strided(const float *restrict x, float *restrict out) {
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j)
      out[i * 1 + j * 3] = 2.0f * x[1 + j * 4 + i];
  return 0;
}
"""
STRIDED = CFunction(
    "strided",
    "strided",
    (
        CArgument("x", F32, (2, 3), (4, 1), 1, False),
        CArgument("out", F32, (3, 2), (1, 3), 0, True),
    ),
    (),
)


def test_strided_layouts_are_laid_out_by_the_runtime() -> None:
    fn = load_function(unit_of(STRIDED_SOURCE, STRIDED), "strided")
    x = np.arange(6, dtype=F32).reshape(2, 3) + 1
    (out,) = fn(x)
    np.testing.assert_array_equal(out, 2 * x.T)
    given_out = np.zeros((3, 2), F32)
    (result,) = fn(x, out=given_out)
    assert result is given_out
    np.testing.assert_array_equal(given_out, 2 * x.T)


SCALE_IR = """
func.func @scale(%x: memref<4xf64>, %factor: f64, %out: memref<4xf64> {irkit.output}) {
  return
}
"""
SCALE_SOURCE = """
int scale(const double *restrict x, double factor, double *restrict out) {
  for (int64_t i = 0; i < 4; ++i) out[i] = x[i] * factor;
  return 0;
}
"""
SCALE = CFunction(
    "scale",
    "scale",
    (
        dense("x", (4,), np.dtype(np.float64)),
        CArgument("factor", np.dtype(np.float64), (), (), 0, False, is_scalar=True),
        dense("out", (4,), np.dtype(np.float64), output=True),
    ),
    (),
)


def test_scalar_arguments_are_passed_by_value() -> None:
    func = next(op for op in irkit.parse(SCALE_IR).walk() if isinstance(op, FuncOp))
    fn = load_function(unit_of(SCALE_SOURCE, SCALE), "scale", func)
    (out,) = fn(np.arange(4.0), 2.5)
    np.testing.assert_array_equal(out, np.arange(4.0) * 2.5)
    with pytest.raises(ValueError, match=r"argument 0 \(%x\)"):
        fn(np.arange(3.0), 2.5)


def test_compile_error_is_an_irkit_error() -> None:
    broken = CFunction("broken", "broken", (), ())
    with pytest.raises(CompileError) as caught:
        load_function(
            unit_of("int broken(void) { return undefined_name; }\n", broken), "broken"
        )
    assert isinstance(caught.value, irkit.IRKitError)
    assert "undefined_name" in str(caught.value)
    assert "Traceback" not in str(caught.value)


# --- irkit.compile, end to end -------------------------------------------------

LOOPS = """
func.func @add_bias(%a: memref<4x8xf32>, %b: memref<8xf32>, %out: memref<4x8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      %y = memref.load %b[%j] : memref<8xf32>
      %z = arith.addf %x, %y : f32
      %e = math.exp %z : f32
      memref.store %e, %out[%i, %j] : memref<4x8xf32>
    }
  }
  return
}

func.func @row_sums(%a: memref<4x8xi32>, %out: memref<4xi32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  scf.for %i = %c0 to %c4 step %c1 {
    %sum = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i32) {
      %x = memref.load %a[%i, %j] : memref<4x8xi32>
      %next = arith.addi %acc, %x : i32
      scf.yield %next : i32
    }
    memref.store %sum, %out[%i] : memref<4xi32>
  }
  return
}
"""


def test_compile_loop_level_ir_matches_numpy_and_the_interpreter() -> None:
    a, b = inputs(6)
    compiled = irkit.compile(LOOPS, entry="add_bias")
    (out,) = compiled(a, b)
    assert compare_arrays(np.exp(a + b), out) is None
    (reference,) = irkit.interpret(LOOPS, "add_bias", a, b)
    assert compare_arrays(reference, out) is None

    ints = np.random.default_rng(7).integers(-10, 11, (4, 8)).astype(np.int32)
    (sums,) = irkit.compile(LOOPS, entry="row_sums")(ints)
    np.testing.assert_array_equal(sums, ints.sum(axis=1))
    np.testing.assert_array_equal(sums, irkit.interpret(LOOPS, "row_sums", ints)[0])


def test_compile_leaves_its_module_unchanged_and_reuses_the_cache() -> None:
    module = irkit.parse(LOOPS)
    before = str(module)
    first = irkit.compile(module, entry="row_sums")
    assert str(module) == before
    second = irkit.compile(module, entry="row_sums")
    assert first.library_path == second.library_path


def test_compile_reports_located_parse_errors_and_unknown_targets() -> None:
    with pytest.raises(
        irkit.DiagnosticError, match=r"<string>:3:1: error: operand expected"
    ):
        irkit.compile("func.func @f() {\n  %x = arith.addi\n}\n")
    with pytest.raises(irkit.IRKitError, match="unknown target 'gpu'"):
        irkit.compile(LOOPS, target="gpu", entry="row_sums")


def test_compile_needs_an_entry_when_several_functions_are_public() -> None:
    with pytest.raises(irkit.DiagnosticError, match="cannot choose an entry function"):
        irkit.compile(LOOPS)


@settings(deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 9), seed=st.integers(0, 2**16))
def test_elementwise_loops_match_numpy_for_any_shape(
    rows: int, cols: int, seed: int
) -> None:
    t = f"memref<{rows}x{cols}xf32>"
    program = f"""
func.func @main(%a: {t}, %b: {t}, %out: {t} {{irkit.output}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant {rows} : index
  %cols = arith.constant {cols} : index
  scf.for %i = %c0 to %rows step %c1 {{
    scf.for %j = %c0 to %cols step %c1 {{
      %x = memref.load %a[%i, %j] : {t}
      %y = memref.load %b[%i, %j] : {t}
      %p = arith.mulf %x, %y : f32
      %s = arith.subf %p, %x : f32
      memref.store %s, %out[%i, %j] : {t}
    }}
  }}
  return
}}
"""
    rng = np.random.default_rng(seed)
    a, b = (rng.uniform(-1, 1, (rows, cols)).astype(F32) for _ in range(2))
    (out,) = irkit.compile(program)(a, b)
    assert compare_arrays(a * b - a, out) is None


# --- bf16: NumPy (ml_dtypes) and PyTorch bfloat16 in, the same out ----------

BF16_PROGRAM = """
func.func @scale(%x: tensor<4x8xbf16>, %s: bf16) -> (tensor<4x8xbf16>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xbf16>
  %w = tensor.empty() : tensor<4x8xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xbf16>) outs(%e, %w : tensor<4x8xbf16>, tensor<4x8xf32>) {
  ^bb0(%a: bf16, %o: bf16, %ow: f32):
    %m = arith.mulf %a, %s : bf16
    %t = math.tanh %m : bf16
    %f = arith.extf %t : bf16 to f32
    linalg.yield %t, %f : bf16, f32
  } -> (tensor<4x8xbf16>, tensor<4x8xf32>)
  return %r#0, %r#1 : tensor<4x8xbf16>, tensor<4x8xf32>
}
"""


def _bf16_inputs() -> tuple[np.ndarray, np.generic]:
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, (4, 8)).astype(BFLOAT16)
    return x, BFLOAT16.type(1.5)


def test_bf16_numpy_arrays_in_bf16_arrays_out() -> None:
    """bf16 is `ml_dtypes.bfloat16` on the host; a bf16 scalar argument is
    passed by its bits (C holds bf16 as uint16_t)."""
    x, s = _bf16_inputs()
    got = irkit.compile(BF16_PROGRAM)(x, s)
    want = irkit.interpret(BF16_PROGRAM, "scale", x, s)
    assert [g.dtype for g in got] == [BFLOAT16, np.dtype(np.float32)]
    for g, w in zip(got, want, strict=True):
        assert compare_arrays(w, g) is None
    # Each op rounds to bf16 as the interpreter's does: bit for bit here.
    assert got[0].view(np.uint16).tolist() == want[0].view(np.uint16).tolist()


def test_bf16_python_values_and_wrong_dtypes() -> None:
    compiled = irkit.compile(BF16_PROGRAM)
    x, _ = _bf16_inputs()
    (first, _) = compiled(x.astype(np.float64).tolist(), 1.5)
    assert first.dtype == BFLOAT16
    with pytest.raises(irkit.InputError, match="bfloat16"):
        compiled(x.astype(np.float16), 1.5)


def test_bf16_pytorch_cpu_tensors_in_tensors_out() -> None:
    torch = pytest.importorskip("torch")
    x, s = _bf16_inputs()
    tensor = torch.from_numpy(x.view(np.int16)).view(torch.bfloat16)
    compiled = irkit.compile(BF16_PROGRAM)
    got, wide = compiled(tensor, s)
    assert isinstance(got, torch.Tensor)
    assert got.dtype == torch.bfloat16
    assert wide.dtype == torch.float32
    want = irkit.interpret(BF16_PROGRAM, "scale", x, s)
    bits = got.view(torch.int16).numpy()
    assert compare_arrays(want[0], bits.view(BFLOAT16)) is None
    out = torch.empty(4, 8, dtype=torch.bfloat16), torch.empty(4, 8)
    written = compiled(tensor, s, out=out)
    assert written[0] is out[0]
    assert torch.equal(out[0], got)
