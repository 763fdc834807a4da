"""`affine-fold-min-max` keeps meaning: the tile sizes of tiled, lowered
linalg programs, and random `affine.min` / `affine.max` of loop variables
(over scf.for and scf.parallel with random bounds and steps) whose value at
every iteration is stored, before and after folding."""

from __future__ import annotations

from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.parsing import parse_module
from irkit.testing import check_pass, linalg_programs
from irkit.testing.strategies import lowered
from irkit.transforms.affine_fold_min_max import AffineFoldMinMaxPass

PASS = AffineFoldMinMaxPass()
SPAN = 12


def _tiled(sizes: list[int]) -> st.SearchStrategy[ModuleOp]:
    tile = f"linalg-tile{{tile-sizes={','.join(map(str, sizes))}}}"
    return lowered(
        linalg_programs(max_ops=2),
        f"bufferize,{tile},convert-linalg-to-loops,fold-memref-alias-ops",
    )


def test_folding_tile_sizes_keeps_meaning() -> None:
    """One level of `linalg-tile` leaves only partial-tile sizes, which the
    loop ranges never decide (a dividing size is static already), so nothing
    here may fold: this checks that the pass folds no min it cannot prove
    (`min_fired=0`; `check_pass` found it never fired). The folds themselves
    are reached by `test_folding_loop_extrema_keeps_meaning` below."""
    sizes = st.lists(st.integers(0, 5), min_size=3, max_size=3)
    reach = check_pass(PASS, sizes.flatmap(_tiled), min_fired=0)
    assert reach.examples > 0


terms = st.sampled_from(["d0", "-d0", "d0 * 2", "d0 floordiv 3", "d0 mod 4", "s0"])


@st.composite
def extremum_programs(draw: st.DrawFn) -> str:
    """A loop storing `min`/`max` of random expressions of its variable at
    element `iv` of the output (every element written first)."""
    lower = draw(st.integers(0, SPAN - 1))
    upper = draw(st.integers(lower, SPAN))
    step = draw(st.integers(1, 5))
    if draw(st.booleans()):
        # A partial-tile size, `min(step, upper - d0)`, with both near the
        # edge where it stops being constant: the folds an off-by-one breaks.
        results = [
            f"{step + draw(st.integers(-1, 1))}",
            f"-d0 + {upper + draw(st.integers(-2, 2))}",
        ]
    else:
        results = [
            f"{draw(terms)} + {draw(st.integers(-SPAN, SPAN))}"
            for _ in range(draw(st.integers(1, 3)))
        ]
    kind = draw(st.sampled_from(["affine.min", "affine.max"]))
    # An operand that is the constant 5 (substituted) or a nested min.
    symbol = draw(st.sampled_from(["%c5", "%inner"]))
    parallel = draw(st.booleans())
    if parallel:
        head = "scf.parallel (%t) = (%lb) to (%ub) step (%st) {"
        tail = "scf.reduce\n  }"
    else:
        head = "scf.for %t = %lb to %ub step %st {"
        tail = "}"
    return f"""
func.func @main(%o: memref<{SPAN}xf32> {{irkit.output}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %span = arith.constant {SPAN} : index
  %lb = arith.constant {lower} : index
  %ub = arith.constant {upper} : index
  %st = arith.constant {step} : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %span step %c1 {{
    memref.store %zero, %o[%i] : memref<{SPAN}xf32>
  }}
  {head}
    %inner = affine.min affine_map<(d0) -> (d0 + 1, 7)>(%t)
    %v = {kind} affine_map<(d0)[s0] -> ({", ".join(results)})>(%t)[{symbol}]
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    memref.store %vf, %o[%t] : memref<{SPAN}xf32>
  {tail}
  return
}}
"""


def test_folding_loop_extrema_keeps_meaning() -> None:
    # `check_pass` also fails if no drawn min/max was folded (min_fired).
    check_pass(PASS, extremum_programs().map(parse_module))
