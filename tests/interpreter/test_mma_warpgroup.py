"""`mma.warpgroup_mma` on the grid emulator: the swizzle and the D layout.

One warpgroup multiplies a 64x64 A by a 64xN B in four m64nNk16 products:
each thread stores its share of A and B into workgroup tiles of 128-byte
rows at the swizzled chunk the PTX ISA gives (chunk `c` of row `r` at `c ^
(r % 8)`; B stored n-major as N rows of K, or k-major in panels of 64
columns), the products run, and each thread stores its accumulators where
the PTX ISA's m64nNk16 D layout puts them (element `i` of thread `t`: row
`16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2)`, column `8 (i / 4) + 2 (t %
4) + i % 2`). The indices are written out here, apart from the dialect's
definitions, so the result is A @ B only if the emulator reads and writes
as the hardware does.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irkit.dtypes import BFLOAT16
from irkit.interpreter import InterpretationError, interpret
from irkit.parsing import parse_module

WG = "#gpu.address_space<workgroup>"
PR = "#gpu.address_space<private>"


def _program(
    element: str,
    n: int,
    k_major: bool,
    threads: int = 128,
    wait: bool = True,
    uniform: bool = True,
) -> str:
    """The warpgroup's product of `A` (64xK) and `B` ((k, n) if `k_major`,
    else (n, k)) into `C` (64 x n): K one 128-byte row (64 16-bit
    elements; 32 f32 ones, multiplied as TF32 in products 8 deep)."""
    tf32 = element == "f32"
    kdim = 32 if tf32 else 64
    chunk = 4 if tf32 else 8
    depth = 8 if tf32 else 16
    b_type = f"memref<64x{n}x{element}>" if k_major else f"memref<{n}x{kdim}x{element}>"
    panels = n // 64
    b_tile = (
        f"memref<{panels}x64x64x{element}, {WG}>"
        if k_major
        else f"memref<{n}x{kdim}x{element}, {WG}>"
    )
    a_tile = f"memref<64x{kdim}x{element}, {WG}>"
    acc = f"memref<{n // 2}xf32, {PR}>"
    if k_major:
        # B's element (k, col) in panel col / 64, row k, swizzled by k.
        store_b = """
      %bk = arith.divui %e, %cn : index
      %bn = arith.remui %e, %cn : index
      %bv = memref.load %B[%bk, %bn] : BTYPE
      %panel = arith.divui %bn, %c64 : index
      %bcol = arith.remui %bn, %c64 : index
      %bchunk = arith.divui %bcol, %c8 : index
      %bperm = arith.remui %bk, %c8 : index
      %bswz = arith.xori %bchunk, %bperm : index
      %bbase = arith.muli %bswz, %c8 : index
      %bin = arith.remui %bcol, %c8 : index
      %bphys = arith.addi %bbase, %bin : index
      memref.store %bv, %bt[%panel, %bk, %bphys] : BTILE"""
        b_at = "%bt[%c0, %kk, %c0]"
    else:
        store_b = """
      %bn = arith.divui %e, %ck : index
      %bk = arith.remui %e, %ck : index
      %bv = memref.load %B[%bn, %bk] : BTYPE
      %bchunk = arith.divui %bk, %cchunk : index
      %bperm = arith.remui %bn, %c8 : index
      %bswz = arith.xori %bchunk, %bperm : index
      %bbase = arith.muli %bswz, %cchunk : index
      %bin = arith.remui %bk, %cchunk : index
      %bphys = arith.addi %bbase, %bin : index
      memref.store %bv, %bt[%bn, %bphys] : BTILE"""
        b_at = "%bt[%c0, %kk]"
    store_b = store_b.replace("BTYPE", b_type).replace("BTILE", b_tile)
    # A thread outside the first warp naming another row of A breaks the
    # warpgroup's agreement on its operands.
    a_row = "%c0" if uniform else "%wrow"
    flags = ", transpose_b" if k_major else ", tf32" if tf32 else ""
    products = "\n".join(
        f"""    %kk{step} = arith.constant {depth * step} : index
    mma.warpgroup_mma %at[{a_row}, %kk{step}], {b_at.replace("%kk", f"%kk{step}")}, %acc[%c0] {{n = {n} : i64{flags}}} : {a_tile}, {b_tile}, {acc}"""
        for step in range(kdim // depth)
    )
    wait_line = f"mma.warpgroup_wait %acc {{pending = 0 : i64}} : {acc}" if wait else ""
    return f"""
func.func @main(%A: memref<64x{kdim}x{element}>, %B: {b_type}, %C: memref<64x{n}xf32> {{irkit.output}}) {{
  %c1 = arith.constant 1 : index
  %nt = arith.constant {threads} : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %nt, %sy = %c1, %sz = %c1) workgroup(%at : {a_tile}, %bt : {b_tile}) private(%acc : {acc}) {{
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %cn = arith.constant {n} : index
    %ck = arith.constant {kdim} : index
    %cchunk = arith.constant {chunk} : index
    %a_count = arith.constant {64 * kdim} : index
    %b_count = arith.constant {kdim * n} : index
    %wrow = arith.divui %tx, %c32 : index
    scf.for %i = %tx to %a_count step %nt {{
      %e = arith.addi %i, %c0 : index
      %ar = arith.divui %e, %ck : index
      %ac = arith.remui %e, %ck : index
      %av = memref.load %A[%ar, %ac] : memref<64x{kdim}x{element}>
      %achunk = arith.divui %ac, %cchunk : index
      %aperm = arith.remui %ar, %c8 : index
      %aswz = arith.xori %achunk, %aperm : index
      %abase = arith.muli %aswz, %cchunk : index
      %ain = arith.remui %ac, %cchunk : index
      %aphys = arith.addi %abase, %ain : index
      memref.store %av, %at[%ar, %aphys] : {a_tile}
    }}
    scf.for %i = %tx to %b_count step %nt {{
      %e = arith.addi %i, %c0 : index
{store_b}
    }}
    %zero = arith.constant 0.0 : f32
    %acc_count = arith.constant {n // 2} : index
    scf.for %i = %c0 to %acc_count step %c1 {{
      memref.store %zero, %acc[%i] : {acc}
    }}
    mma.fence_proxy_async
    gpu.barrier
    mma.warpgroup_fence
{products}
    mma.warpgroup_commit
    {wait_line}
    %t = arith.remui %tx, %c128 : index
    %w = arith.divui %t, %c32 : index
    %lane = arith.remui %t, %c32 : index
    %g = arith.divui %lane, %c4 : index
    %c = arith.remui %lane, %c4 : index
    %w16 = arith.muli %w, %c16 : index
    %row0 = arith.addi %w16, %g : index
    %col0 = arith.muli %c, %c2 : index
    %first = arith.cmpi ult, %tx, %c128 : index
    scf.if %first {{
      scf.for %i = %c0 to %acc_count step %c1 {{
        %v = memref.load %acc[%i] : {acc}
        %half = arith.divui %i, %c2 : index
        %upper = arith.remui %half, %c2 : index
        %dr = arith.muli %upper, %c8 : index
        %row = arith.addi %row0, %dr : index
        %block = arith.divui %i, %c4 : index
        %dc = arith.muli %block, %c8 : index
        %odd = arith.remui %i, %c2 : index
        %col1 = arith.addi %col0, %dc : index
        %col = arith.addi %col1, %odd : index
        memref.store %v, %C[%row, %col] : memref<64x{n}xf32>
      }}
    }}
    gpu.terminator
  }}
  return
}}
"""


def _operands(
    element: str, n: int, k_major: bool, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A, B as stored, and B as (k, n)."""
    dtype = np.dtype(np.float16) if element == "f16" else BFLOAT16
    rng = np.random.default_rng(seed)
    a = rng.uniform(-2, 2, (64, 64)).astype(dtype)
    b = rng.uniform(-2, 2, (64, n) if k_major else (n, 64)).astype(dtype)
    return a, b, b if k_major else b.T


@given(
    st.sampled_from(["f16", "bf16"]),
    st.sampled_from([64, 128]),
    st.booleans(),
    st.integers(0, 2**16),
)
def test_one_warpgroup_multiplies_as_ptx_lays_it_out(
    element: str, n: int, k_major: bool, seed: int
) -> None:
    a, b, b_kn = _operands(element, n, k_major, seed)
    (c,) = interpret(parse_module(_program(element, n, k_major)), "main", a, b)
    expected = a.astype(np.float64) @ b_kn.astype(np.float64)
    np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-5)


def test_two_warpgroups_each_multiply_into_their_own_accumulators() -> None:
    """256 threads: the second warpgroup runs the same products; the first
    stores. D is gathered per warpgroup, never across them."""
    a, b, b_kn = _operands("f16", 64, False, 5)
    program = parse_module(_program("f16", 64, False, threads=256))
    (c,) = interpret(program, "main", a, b)
    expected = a.astype(np.float64) @ b_kn.astype(np.float64)
    np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-5)


def test_accumulators_read_before_the_wait_hold_what_was_there() -> None:
    """The products are asynchronous: without the wait their results have
    not reached the accumulators when the threads read them."""
    a, b, _ = _operands("f16", 64, False, 7)
    (c,) = interpret(parse_module(_program("f16", 64, False, wait=False)), "main", a, b)
    assert not c.any()


def test_operands_differing_within_a_warpgroup_are_an_error() -> None:
    a, b, _ = _operands("f16", 64, False, 1)
    program = parse_module(_program("f16", 64, False, uniform=False))
    with pytest.raises(InterpretationError, match="rest of its warpgroup"):
        interpret(program, "main", a, b)


def test_a_partial_warpgroup_is_an_error() -> None:
    a, b, _ = _operands("f16", 64, False, 1)
    program = parse_module(_program("f16", 64, False, threads=96))
    with pytest.raises(InterpretationError, match="needs whole warpgroups"):
        interpret(program, "main", a, b)


@given(st.sampled_from([64, 128]), st.integers(0, 2**16))
def test_tf32_products_truncate_their_operands(n: int, seed: int) -> None:
    """m64nNk8 over f32 tiles of 32-element rows (four 8-deep products, 32
    bytes apart): the tensor cores drop each operand's low 13 mantissa
    bits (PTX ISA, wgmma: "truncate"), so the result is the float64
    product of the truncated operands, within f32 sums; rounding them
    instead (as `cvt.rna` does for `mma.sync`) is off by ~1e-4."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-2, 2, (64, 32)).astype(np.float32)
    b = rng.uniform(-2, 2, (n, 32)).astype(np.float32)
    (c,) = interpret(parse_module(_program("f32", n, False)), "main", a, b)
    low = np.uint32((1 << 13) - 1)
    a_tf32, b_tf32 = ((x.view(np.uint32) & ~low).view(np.float32) for x in (a, b))
    expected = a_tf32.astype(np.float64) @ b_tf32.T.astype(np.float64)
    np.testing.assert_allclose(c, expected, rtol=1e-6, atol=1e-5)
