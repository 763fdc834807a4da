"""The `mma` dialect on the grid emulator: fragment layouts and checks.

One warp multiplies a 16x16 A by a 16x8 B as PTX lays the fragments out
(`irkit/dialects/mma.py`): A and B are copied to workgroup memory with
`mma.cp_async`, loaded with `mma.ldmatrix` (B k-major, so transposed) and
multiplied with `mma.sync`; each thread stores its four accumulators where
the C fragment layout says they belong. The result must be A @ B, which
holds only if the emulator's ldmatrix, mma.sync and copy layouts agree
with each other and with the PTX layouts the kernel's indices encode.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irkit.dtypes import BFLOAT16, to_tf32
from irkit.interpreter import InterpretationError, interpret
from irkit.parsing import parse_module

WG = "#gpu.address_space<workgroup>"
PR = "#gpu.address_space<private>"


def _warp_program(element: str, threads: int = 32, wait: bool = True) -> str:
    wait_line = "mma.cp_async_wait {pending = 0 : i64}" if wait else ""
    return f"""
func.func @main(%A: memref<16x16x{element}>, %B: memref<16x8x{element}>, %C: memref<16x8xf32> {{irkit.output}}) {{
  %c1 = arith.constant 1 : index
  %nt = arith.constant {threads} : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %nt, %sy = %c1, %sz = %c1) workgroup(%as : memref<16x24x{element}, {WG}>, %bs : memref<16x8x{element}, {WG}>) private(%a : memref<8x{element}, {PR}>, %b : memref<4x{element}, {PR}>, %acc : memref<4xf32, {PR}>) {{
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %in_a = arith.cmpi ult, %tx, %c32 : index
    scf.if %in_a {{
      %row = arith.divui %tx, %c2 : index
      %chunk = arith.remui %tx, %c2 : index
      %col = arith.muli %chunk, %c8 : index
      mma.cp_async %A[%row, %col], %as[%row, %col] : memref<16x16x{element}>, memref<16x24x{element}, {WG}>
    }}
    %in_b = arith.cmpi ult, %tx, %c16 : index
    scf.if %in_b {{
      mma.cp_async %B[%tx, %c0], %bs[%tx, %c0] : memref<16x8x{element}>, memref<16x8x{element}, {WG}>
    }}
    mma.cp_async_commit
    {wait_line}
    gpu.barrier
    %r = arith.remui %tx, %c16 : index
    %upper = arith.divui %tx, %c16 : index
    %upper2 = arith.remui %upper, %c2 : index
    %ac = arith.muli %upper2, %c8 : index
    mma.ldmatrix %as[%r, %ac], %a[%c0] {{tiles = 4 : i64}} : memref<16x24x{element}, {WG}>, memref<8x{element}, {PR}>
    mma.ldmatrix %bs[%r, %c0], %b[%c0] {{tiles = 2 : i64, transpose}} : memref<16x8x{element}, {WG}>, memref<4x{element}, {PR}>
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %acc[%c0] : memref<4xf32, {PR}>
    memref.store %zero, %acc[%c1] : memref<4xf32, {PR}>
    memref.store %zero, %acc[%c2] : memref<4xf32, {PR}>
    memref.store %zero, %acc[%c3] : memref<4xf32, {PR}>
    mma.sync %a[%c0], %b[%c0], %acc[%c0] : memref<8x{element}, {PR}>, memref<4x{element}, {PR}>, memref<4xf32, {PR}>
    %lane = arith.remui %tx, %c32 : index
    %g = arith.divui %lane, %c4 : index
    %cc = arith.remui %lane, %c4 : index
    %col0 = arith.muli %cc, %c2 : index
    %col1 = arith.addi %col0, %c1 : index
    %g8 = arith.addi %g, %c8 : index
    %first = arith.cmpi ult, %tx, %c32 : index
    scf.if %first {{
      %v0 = memref.load %acc[%c0] : memref<4xf32, {PR}>
      %v1 = memref.load %acc[%c1] : memref<4xf32, {PR}>
      %v2 = memref.load %acc[%c2] : memref<4xf32, {PR}>
      %v3 = memref.load %acc[%c3] : memref<4xf32, {PR}>
      memref.store %v0, %C[%g, %col0] : memref<16x8xf32>
      memref.store %v1, %C[%g, %col1] : memref<16x8xf32>
      memref.store %v2, %C[%g8, %col0] : memref<16x8xf32>
      memref.store %v3, %C[%g8, %col1] : memref<16x8xf32>
    }}
    gpu.terminator
  }}
  return
}}
"""


@given(st.sampled_from(["f16", "bf16"]), st.integers(0, 2**16))
def test_one_warp_multiplies_as_ptx_lays_fragments_out(element: str, seed: int) -> None:
    dtype = np.dtype(np.float16) if element == "f16" else BFLOAT16
    rng = np.random.default_rng(seed)
    a = rng.uniform(-2, 2, (16, 16)).astype(dtype)
    b = rng.uniform(-2, 2, (16, 8)).astype(dtype)
    (c,) = interpret(parse_module(_warp_program(element)), "main", a, b)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, expected, rtol=1e-6, atol=1e-6)


def test_two_warps_each_multiply_their_own_fragments() -> None:
    """The second warp runs the same product on the same tiles; the first
    stores. Fragments are gathered per warp, never across warps."""
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (16, 16)).astype(np.float16)
    b = rng.uniform(-1, 1, (16, 8)).astype(np.float16)
    (c,) = interpret(parse_module(_warp_program("f16", threads=64)), "main", a, b)
    np.testing.assert_allclose(
        c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-6
    )


def test_reading_a_copy_before_its_wait_reads_what_was_there() -> None:
    """Without the wait, the copies have not landed when ldmatrix reads."""
    a = np.ones((16, 16), np.float16)
    b = np.ones((16, 8), np.float16)
    program = parse_module(_warp_program("f16", wait=False))
    with pytest.raises(InterpretationError, match="nothing wrote"):
        interpret(program, "main", a, b)


def test_a_partial_warp_is_an_error() -> None:
    """48 threads: the second warp has 16 threads (blocks must be whole
    warps for warp-level ops)."""
    a = np.ones((16, 16), np.float16)
    b = np.ones((16, 8), np.float16)
    program = parse_module(_warp_program("f16", threads=48))
    with pytest.raises(InterpretationError, match="needs whole warps"):
        interpret(program, "main", a, b)


def _tf32_warp_program() -> str:
    """One warp's m16n8k8 TF32 product, each thread loading its fragment
    elements from global memory where the PTX layout puts them: A's element
    e at (g + 8 (e % 2), c + 4 (e / 2)), B's at (c + 4 e, g)."""
    a_loads = []
    for e in range(4):
        a_loads.append(
            f"%ar{e} = arith.addi %g, %c{8 * (e % 2)} : index\n"
            f"    %ac{e} = arith.addi %cc, %c{4 * (e // 2)} : index\n"
            f"    %av{e} = memref.load %A[%ar{e}, %ac{e}] : memref<16x8xf32>\n"
            f"    memref.store %av{e}, %a[%c{e}] : memref<4xf32, {PR}>"
        )
    b_loads = []
    for e in range(2):
        b_loads.append(
            f"%bk{e} = arith.addi %cc, %c{4 * e} : index\n"
            f"    %bv{e} = memref.load %B[%bk{e}, %g] : memref<8x8xf32>\n"
            f"    memref.store %bv{e}, %b[%c{e}] : memref<2xf32, {PR}>"
        )
    loads = "\n    ".join([*a_loads, *b_loads])
    return f"""
func.func @main(%A: memref<16x8xf32>, %B: memref<8x8xf32>, %C: memref<16x8xf32> {{irkit.output}}) {{
  %c1 = arith.constant 1 : index
  %nt = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %nt, %sy = %c1, %sz = %c1) private(%a : memref<4xf32, {PR}>, %b : memref<2xf32, {PR}>, %acc : memref<4xf32, {PR}>) {{
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %g = arith.divui %tx, %c4 : index
    %cc = arith.remui %tx, %c4 : index
    {loads}
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %acc[%c0] : memref<4xf32, {PR}>
    memref.store %zero, %acc[%c1] : memref<4xf32, {PR}>
    memref.store %zero, %acc[%c2] : memref<4xf32, {PR}>
    memref.store %zero, %acc[%c3] : memref<4xf32, {PR}>
    mma.sync %a[%c0], %b[%c0], %acc[%c0] {{tf32}} : memref<4xf32, {PR}>, memref<2xf32, {PR}>, memref<4xf32, {PR}>
    %col0 = arith.muli %cc, %c2 : index
    %col1 = arith.addi %col0, %c1 : index
    %g8 = arith.addi %g, %c8 : index
    %v0 = memref.load %acc[%c0] : memref<4xf32, {PR}>
    %v1 = memref.load %acc[%c1] : memref<4xf32, {PR}>
    %v2 = memref.load %acc[%c2] : memref<4xf32, {PR}>
    %v3 = memref.load %acc[%c3] : memref<4xf32, {PR}>
    memref.store %v0, %C[%g, %col0] : memref<16x8xf32>
    memref.store %v1, %C[%g, %col1] : memref<16x8xf32>
    memref.store %v2, %C[%g8, %col0] : memref<16x8xf32>
    memref.store %v3, %C[%g8, %col1] : memref<16x8xf32>
    gpu.terminator
  }}
  return
}}
"""


@given(st.integers(0, 2**16))
def test_one_warp_multiplies_tf32_as_ptx_lays_fragments_out(seed: int) -> None:
    """The m16n8k8 TF32 layouts, and operands rounded as cvt.rna rounds:
    the result is the product of the rounded operands (exact products,
    one rounding of the sum), not the f32 product."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-2, 2, (16, 8)).astype(np.float32)
    b = rng.uniform(-2, 2, (8, 8)).astype(np.float32)
    (c,) = interpret(parse_module(_tf32_warp_program()), "main", a, b)
    rounded = to_tf32(a).astype(np.float64) @ to_tf32(b).astype(np.float64)
    np.testing.assert_allclose(c, rounded, rtol=1e-6, atol=1e-6)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(c - exact).max() > 1e-5  # TF32's rounding shows


def test_tf32_rounds_to_nearest_ties_away() -> None:
    """cvt.rna.tf32.f32: 13 low mantissa bits dropped, a tie rounded away
    from zero (not to even), NaN and infinities kept."""
    ulp = 2.0**-10  # TF32's unit in the last place at 1
    values = np.array(
        [1 + ulp / 2, 1 + 3 * ulp / 2, -(1 + ulp / 2), 1 + ulp / 4, np.inf, np.nan],
        np.float32,
    )
    rounded = to_tf32(values)
    np.testing.assert_array_equal(
        rounded[:5], np.array([1 + ulp, 1 + 2 * ulp, -(1 + ulp), 1, np.inf], np.float32)
    )
    assert np.isnan(rounded[5])
    assert not (to_tf32(np.float32(np.pi)).view(np.uint32) & 0x1FFF)


def _zero_fill_program(valid: str, row: str) -> str:
    """8 threads each copy 16 bytes (4 f32) of row `%src` of a 4x4 A into
    row `%tx` of a workgroup tile, reading `%valid` bytes (`valid` and
    `row` are the ops defining them from `%tx`), and store the tile to C."""
    return f"""
func.func @main(%A: memref<4x4xf32>, %C: memref<8x4xf32> {{irkit.output}}) {{
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) workgroup(%tile : memref<8x4xf32, {WG}>) {{
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    {valid}
    {row}
    mma.cp_async %A[%src, %c0], %tile[%tx, %c0] valid_bytes %valid : memref<4x4xf32>, memref<8x4xf32, {WG}>
    mma.cp_async_commit
    mma.cp_async_wait {{pending = 0 : i64}}
    %v0 = memref.load %tile[%tx, %c0] : memref<8x4xf32, {WG}>
    %v1 = memref.load %tile[%tx, %c1] : memref<8x4xf32, {WG}>
    %v2 = memref.load %tile[%tx, %c2] : memref<8x4xf32, {WG}>
    %v3 = memref.load %tile[%tx, %c3] : memref<8x4xf32, {WG}>
    memref.store %v0, %C[%tx, %c0] : memref<8x4xf32>
    memref.store %v1, %C[%tx, %c1] : memref<8x4xf32>
    memref.store %v2, %C[%tx, %c2] : memref<8x4xf32>
    memref.store %v3, %C[%tx, %c3] : memref<8x4xf32>
    gpu.terminator
  }}
  return
}}
"""


CLAMPED_ROW = "%src = arith.minui %tx, %c3 : index"


def test_a_zero_filling_copy_reads_its_valid_bytes_and_zeros_the_rest() -> None:
    """Thread t reads row min(t, 3) of A with 4 (t mod 5) valid bytes (0 to
    16): its first t mod 5 elements are A's, the rest zeros, as PTX's
    src-size form writes them."""
    a = np.arange(1, 17, dtype=np.float32).reshape(4, 4)
    valid = (
        "%r5 = arith.remui %tx, %c5 : index\n    %valid = arith.muli %r5, %c4 : index"
    )
    (c,) = interpret(parse_module(_zero_fill_program(valid, CLAMPED_ROW)), "main", a)
    expected = np.zeros((8, 4), np.float32)
    for t in range(8):
        count = t % 5
        expected[t, :count] = a[min(t, 3), :count]
    np.testing.assert_array_equal(c, expected)


def test_a_zero_filling_copy_needs_a_valid_address() -> None:
    """A copy that reads nothing still names an address, which must lie in
    its operand: the kernels clamp it (here row t of a 4-row A, unclamped)."""
    program = _zero_fill_program(
        "%valid = arith.constant 0 : index", "%src = arith.addi %tx, %c0 : index"
    )
    with pytest.raises(InterpretationError, match="out of bounds"):
        interpret(parse_module(program), "main", np.ones((4, 4), np.float32))


def test_valid_bytes_past_the_copy_are_an_error() -> None:
    """A computed count is checked as it runs: 4 t bytes pass 16 at t = 5."""
    program = _zero_fill_program("%valid = arith.muli %tx, %c4 : index", CLAMPED_ROW)
    with pytest.raises(InterpretationError, match="copies 20 valid bytes of 16"):
        interpret(parse_module(program), "main", np.ones((4, 4), np.float32))
