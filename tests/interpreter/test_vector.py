"""Reference semantics of the `vector` ops irkit emits.

Hand-written programs run with `irkit.interpret`: `vector.load` and
`vector.store` against NumPy slicing at drawn positions, `vector.broadcast`
against `np.full`, `vector.fma` against the C library's `fmaf`/`fma` (one
rounding, IEEE's fusedMultiplyAdd) on drawn values, including values where
rounding the f64 sum to f32 would round twice; misuses the interpreter
reports, by their messages.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import irkit
from irkit.interpreter import InterpretationError
from irkit.interpreter.special import fused_multiply_add

_LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
_LIBM.fmaf.restype = ctypes.c_float
_LIBM.fmaf.argtypes = [ctypes.c_float] * 3
_LIBM.fma.restype = ctypes.c_double
_LIBM.fma.argtypes = [ctypes.c_double] * 3


def libm_fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    function = _LIBM.fmaf if a.dtype == np.float32 else _LIBM.fma
    return np.array(
        [
            function(float(x), float(y), float(z))
            for x, y, z in zip(a, b, c, strict=True)
        ],
        a.dtype,
    )


def run(text: str, *inputs: Any) -> tuple[np.ndarray, ...]:
    return irkit.interpret(text, "main", *inputs)


MOVE = """
func.func @main(%a: memref<4x32xf32>, %i: index, %j: index, %k: index, %l: index) -> memref<4x32xf32> {
  %out = memref.alloc() : memref<4x32xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<4x32xf32>)
  %v = vector.load %a[%i, %j] : memref<4x32xf32>, vector<8xf32>
  vector.store %v, %out[%k, %l] : memref<4x32xf32>, vector<8xf32>
  return %out : memref<4x32xf32>
}
"""


@given(st.integers(0, 3), st.integers(0, 24), st.integers(0, 3), st.integers(0, 24))
def test_load_and_store_move_consecutive_elements(
    row: int, column: int, to_row: int, to_column: int
) -> None:
    a = np.arange(128, dtype=np.float32).reshape(4, 32)
    (out,) = run(MOVE, a, row, column, to_row, to_column)
    expected = np.zeros((4, 32), np.float32)
    expected[to_row, to_column : to_column + 8] = a[row, column : column + 8]
    np.testing.assert_array_equal(out, expected)


@given(st.floats(width=32, allow_nan=True))
def test_broadcast_repeats_the_scalar_exactly(value: float) -> None:
    (out,) = run(
        """
    func.func @main(%s: f32) -> memref<16xf32> {
      %c0 = arith.constant 0 : index
      %out = memref.alloc() : memref<16xf32>
      %b = vector.broadcast %s : f32 to vector<16xf32>
      vector.store %b, %out[%c0] : memref<16xf32>, vector<16xf32>
      return %out : memref<16xf32>
    }
    """,
        np.float32(value),
    )
    expected = np.full(16, np.float32(value))
    np.testing.assert_array_equal(out.view(np.int32), expected.view(np.int32))


def _fma_program(element: str, lanes: int) -> str:
    memref, vector = f"memref<{lanes}x{element}>", f"vector<{lanes}x{element}>"
    return f"""
    func.func @main(%a: {memref}, %b: {memref}, %c: {memref}) -> {memref} {{
      %c0 = arith.constant 0 : index
      %out = memref.alloc() : {memref}
      %x = vector.load %a[%c0] : {memref}, {vector}
      %y = vector.load %b[%c0] : {memref}, {vector}
      %z = vector.load %c[%c0] : {memref}, {vector}
      %r = vector.fma %x, %y, %z : {vector}
      vector.store %r, %out[%c0] : {memref}, {vector}
      return %out : {memref}
    }}"""


@pytest.mark.parametrize(
    ("dtype", "element"), [(np.float32, "f32"), (np.float64, "f64")]
)
@given(data=st.data())
def test_fma_rounds_once_like_libm(
    dtype: type, element: str, data: st.DataObject
) -> None:
    values = hnp.arrays(
        dtype, 8, elements=hnp.from_dtype(np.dtype(dtype), allow_nan=False)
    )
    a, b = data.draw(values), data.draw(values)
    # Half the lanes cancel the product almost exactly: the sum's rounding
    # is then all that is left.
    with np.errstate(all="ignore"):
        near = -(a.astype(np.float64) * b.astype(np.float64)).astype(dtype)
    c = np.where(np.arange(8) % 2 == 0, data.draw(values), near)
    (out,) = run(_fma_program(element, 8), a, b, c)
    expected = libm_fma(a, b, c)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, expected)


def test_fma_is_not_the_f64_sum_rounded_to_f32() -> None:
    # (1 + 2^-12)^2 + 2^-60 = 1 + 2^-11 + 2^-24 + 2^-60: the f64 sum drops
    # 2^-60 and leaves a tie, which f32 rounds down; the exact value rounds up.
    a = np.full(4, 1 + 2.0**-12, np.float32)
    c = np.full(4, 2.0**-60, np.float32)
    (out,) = run(_fma_program("f32", 4), a, a, c)
    assert out[0] == np.float32(1 + 2.0**-11 + 2.0**-23)
    assert out[0] == libm_fma(a, a, c)[0]
    twice = np.float32(np.float64(a[0]) * np.float64(a[0]) + np.float64(c[0]))
    assert out[0] != twice


def test_fused_multiply_add_signs_and_specials() -> None:
    negative_zero = fused_multiply_add(
        np.float32(-0.0), np.float32(1.0), np.float32(-0.0)
    )
    assert np.signbit(negative_zero)
    assert np.isnan(fused_multiply_add(np.inf, 0.0, 1.0))
    # The exact value is finite although the f64 product overflows.
    assert fused_multiply_add(1e308, 10.0, -np.inf) == -np.inf
    assert fused_multiply_add(
        np.float64(1.5e308), np.float64(1.2), np.float64(-1.7e308)
    ) == pytest.approx(1e307)


def test_out_of_bounds_and_unwritten_loads_are_reported() -> None:
    with pytest.raises(InterpretationError) as caught:
        run(MOVE, np.zeros((4, 32), np.float32), 0, 25, 0, 0)
    assert "accesses [8] elements at [0, 25], outside the memref's shape [4, 32]" in (
        caught.value.message
    )
    with pytest.raises(InterpretationError) as caught:
        run(
            """
        func.func @main() -> memref<16xf32> {
          %c0 = arith.constant 0 : index
          %c3 = arith.constant 3 : index
          %m = memref.alloc() : memref<16xf32>
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %m[%c0] : memref<16xf32>
          %v = vector.load %m[%c0] : memref<16xf32>, vector<4xf32>
          vector.store %v, %m[%c3] : memref<16xf32>, vector<4xf32>
          return %m : memref<16xf32>
        }
        """
        )
    assert "reads element [1] of a buffer nothing wrote" in caught.value.message
