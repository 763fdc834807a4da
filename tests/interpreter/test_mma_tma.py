"""`mma.tma_load` and the mbarriers on the grid emulator.

Thread 0 of each block expects a box's bytes on an mbarrier and starts the
copy of rows of 64 f16 (128 bytes); every thread waits for the phase, a
barrier follows, and each thread copies one element of the tile back out,
reading its swizzled place as written out here (chunk `c` of row `r` at
`c ^ (r % 8)`, apart from the dialect's definition). The box lands only at
the wait that completes its phase, past the source it lands as zeros, and a
wait for a phase that cannot complete is reported (on the GPU it would
never return).
"""

from __future__ import annotations

import numpy as np
import pytest

from irkit.interpreter import InterpretationError, interpret
from irkit.parsing import parse_module

WG = "#gpu.address_space<workgroup>"


def _program(rows: int, origin: int, expected_bytes: int, parity: int = 0) -> str:
    """@main(%src: 32x64 f16, %out: 16x64 f16): a 16x64 box of `src` from
    row `origin` (rows past 31 outside it) into a tile, then out; the
    mbarrier expects `expected_bytes`, the wait is for phase `parity`."""
    return f"""
func.func @main(%src: memref<{rows}x64xf16>, %out: memref<16x64xf16> {{irkit.output}}) {{
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
      workgroup(%tile : memref<16x64xf16, {WG}>, %bars : memref<1xi64, {WG}>) {{
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %origin = arith.constant {origin} : index
    %parity = arith.constant {parity} : index
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {{
      mma.mbarrier_init %bars[%c0] {{count = 1 : i64}} : memref<1xi64, {WG}>
    }}
    gpu.barrier
    scf.if %first {{
      mma.mbarrier_arrive_expect_tx %bars[%c0] {{bytes = {expected_bytes} : i64}}
          : memref<1xi64, {WG}>
      mma.tma_load %src[%origin, %c0], %tile[%c0, %c0], %bars[%c0]
          {{box = array<i64: 16, 64>}}
          : memref<{rows}x64xf16>, memref<16x64xf16, {WG}>, memref<1xi64, {WG}>
    }}
    mma.mbarrier_wait %bars[%c0], %parity : memref<1xi64, {WG}>
    gpu.barrier
    %c1024 = arith.constant 1024 : index
    scf.for %e = %tx to %c1024 step %c128 {{
      %r = arith.divui %e, %c64 : index
      %col = arith.remui %e, %c64 : index
      %chunk = arith.divui %col, %c8 : index
      %within = arith.remui %col, %c8 : index
      %permute = arith.remui %r, %c8 : index
      %stored = arith.xori %chunk, %permute : index
      %base = arith.muli %stored, %c8 : index
      %at = arith.addi %base, %within : index
      %v = memref.load %tile[%r, %at] : memref<16x64xf16, {WG}>
      memref.store %v, %out[%r, %col] : memref<16x64xf16>
    }}
    gpu.terminator
  }}
  return
}}
"""


def _run(text: str, source: np.ndarray) -> np.ndarray:
    (out,) = interpret(parse_module(text), "main", source)
    return np.asarray(out)


def test_a_box_lands_in_the_swizzled_layout_at_its_wait() -> None:
    source = np.arange(32 * 64, dtype=np.float16).reshape(32, 64)
    out = _run(_program(32, 8, 16 * 64 * 2), source)
    np.testing.assert_array_equal(out, source[8:24])


def test_rows_past_the_source_land_as_zeros() -> None:
    source = np.arange(1, 32 * 64 + 1, dtype=np.float16).reshape(32, 64)
    out = _run(_program(32, 24, 16 * 64 * 2), source)
    np.testing.assert_array_equal(out[:8], source[24:])
    np.testing.assert_array_equal(out[8:], np.zeros((8, 64), np.float16))


def test_a_phase_expecting_other_bytes_never_completes() -> None:
    source = np.ones((32, 64), np.float16)
    with pytest.raises(InterpretationError, match="never completes"):
        _run(_program(32, 0, 16 * 64 * 2 + 2), source)


def test_a_wait_for_the_next_phase_never_completes() -> None:
    # Phase 0 completes; waiting for parity 1 passes at once (it did), so
    # the next phase must be the one waited for to be an error: the tile
    # would be read before its box landed.
    source = np.ones((32, 64), np.float16)
    with pytest.raises(InterpretationError, match="nothing wrote"):
        _run(_program(32, 0, 16 * 64 * 2, parity=1), source)
