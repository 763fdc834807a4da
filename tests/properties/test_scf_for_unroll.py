"""`scf-for-unroll` keeps meaning: random loop nests with iter_args, and tiled
linalg programs lowered to loops, before and after unrolling.

Loop nests draw bounds that give 0, 1, a few or more iterations than the
unroll factor, steps 1-4, bounds that are constants or computed (`arith.addi`,
which the pass treats as dynamic), and factors from 1 up to past the trip
count. Each copy runs the iteration it replaces, so results match exactly.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from irkit.testing import assert_pass_preserves_semantics, check_pass, linalg_programs
from irkit.testing.strategies import lowered
from irkit.transforms.scf_for_unroll import ScfForUnrollPass

ROWS, COLS = 3, 9


@st.composite
def loop_nests(draw: st.DrawFn) -> str:
    """Rows of a matrix reduced by an inner loop carrying a sum and a max."""
    lower = draw(st.integers(0, COLS))
    upper = draw(st.integers(max(lower - 1, 0), COLS))
    step = draw(st.integers(1, 4))
    dynamic = draw(st.booleans())
    if dynamic:
        # ub = (ub - 1) + 1 through arith.addi: not a constant for the pass.
        bound = (
            f"%ub_part = arith.constant {upper - 1} : index\n"
            "  %ub = arith.addi %ub_part, %c1 : index"
        )
    else:
        bound = f"%ub = arith.constant {upper} : index"
    return f"""
func.func @main(%m: memref<{ROWS}x{COLS}xf32>, %o: memref<{ROWS}xf32> {{irkit.output}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant {ROWS} : index
  %lb = arith.constant {lower} : index
  %st = arith.constant {step} : index
  {bound}
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -2.0 : f32
  scf.for %i = %c0 to %rows step %c1 {{
    %r:2 = scf.for %j = %lb to %ub step %st iter_args(%sum = %zero, %max = %low) -> (f32, f32) {{
      %v = memref.load %m[%i, %j] : memref<{ROWS}x{COLS}xf32>
      %jj = arith.index_cast %j : index to i32
      %jf = arith.sitofp %jj : i32 to f32
      %w = arith.mulf %v, %jf : f32
      %s = arith.addf %sum, %w : f32
      %x = arith.maximumf %max, %v : f32
      scf.yield %s, %x : f32, f32
    }}
    %d = arith.subf %r#0, %r#1 : f32
    memref.store %d, %o[%i] : memref<{ROWS}xf32>
  }}
  return
}}
"""


@given(loop_nests(), st.integers(1, 12), st.booleans())
def test_unrolling_loop_nests_keeps_meaning(
    program: str, factor: int, innermost_only: bool
) -> None:
    pass_ = ScfForUnrollPass(unroll_factor=factor, innermost_only=innermost_only)
    assert_pass_preserves_semantics(pass_, program, trials=1)


def test_unrolling_tiled_linalg_keeps_meaning() -> None:
    programs = lowered(
        linalg_programs(max_ops=2),
        "bufferize,linalg-tile{tile-sizes=2,3,2},convert-linalg-to-loops",
    )
    check_pass(ScfForUnrollPass(unroll_factor=3), programs)
