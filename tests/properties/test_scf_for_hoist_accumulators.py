"""`scf-for-hoist-accumulators` keeps meaning: random programs lowered to
loops (reductions accumulating through memory), before and after hoisting."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from irkit.testing import assert_pass_preserves_semantics, check_pass, nn_programs
from irkit.testing.strategies import linalg_programs, lowered
from irkit.transforms.scf_for_hoist_accumulators import ScfForHoistAccumulatorsPass

PASS = ScfForHoistAccumulatorsPass()
TO_LOOPS = "lower-to-c{hoist=false}"


def test_hoisting_keeps_meaning_on_nn_programs() -> None:
    programs = nn_programs(max_ops=3, max_rank=2, max_dim=3)
    check_pass(PASS, lowered(programs, TO_LOOPS))


def test_hoisting_keeps_meaning_on_reductions_and_matmuls() -> None:
    programs = linalg_programs(max_ops=2, max_dim=3)
    # Untiled: the reductions stay in plain loops, where hoisting applies most.
    check_pass(PASS, lowered(programs, "lower-to-c{hoist=false tile=false}"))


# --------------------------------------------------------------------------
# What else the loop does
# --------------------------------------------------------------------------

# Ops beside the accumulator `%s[0]` in its loop, and whether it may still be
# carried in registers: a load or store of another element of `%s` (same
# buffer: may alias), or any call or copy (memory effects the pass does not
# see, even on another buffer) keeps it in memory; a store to another output
# (outputs alias nothing) does not.
NEIGHBOURS: dict[str, tuple[bool, str]] = {
    "nothing": (True, ""),
    "store-other-output": (True, "memref.store %v, %t[%j] : memref<8xf32>"),
    "load-other-element": (False, "%w = memref.load %s[%c1] : memref<8xf32>"),
    "store-other-element": (False, "memref.store %v, %s[%c1] : memref<8xf32>"),
    "call-on-accumulator": (False, "func.call @touch(%s) : (memref<8xf32>) -> ()"),
    "call-on-other-output": (False, "func.call @touch(%t) : (memref<8xf32>) -> ()"),
    "copy-into-accumulator": (
        False,
        "memref.copy %x, %s : memref<8xf32> to memref<8xf32>",
    ),
    "copy-into-other-output": (
        False,
        "memref.copy %x, %t : memref<8xf32> to memref<8xf32>",
    ),
}


def accumulator_loop_text(neighbour: str, store_first: bool, trips: int) -> str:
    """A loop of `trips` iterations updating `%s[0]` with `NEIGHBOURS[neighbour]`
    in its body; with `store_first`, the element is stored before it is
    loaded (and the loaded value goes to `%t`): no accumulator, as the load
    reads this iteration's store, not the last one's."""
    extra = NEIGHBOURS[neighbour][1]
    if store_first:
        update = [
            "memref.store %v, %s[%c0] : memref<8xf32>",
            "%acc = memref.load %s[%c0] : memref<8xf32>",
            "%next = arith.mulf %acc, %v : f32",
            "memref.store %next, %t[%j] : memref<8xf32>",
        ]
    else:
        update = [
            "%acc = memref.load %s[%c0] : memref<8xf32>",
            "%next = arith.addf %v, %acc : f32",
            "memref.store %next, %s[%c0] : memref<8xf32>",
        ]
    body = "\n    ".join(["%v = memref.load %x[%j] : memref<8xf32>", extra, *update])
    return f"""
func.func private @touch(%m: memref<8xf32>) {{
  %c0 = arith.constant 0 : index
  %quarter = arith.constant 0.25 : f32
  memref.store %quarter, %m[%c0] : memref<8xf32>
  return
}}
func.func @main(%x: memref<8xf32>, %s: memref<8xf32> {{irkit.output}}, %t: memref<8xf32> {{irkit.output}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %trips = arith.constant {trips} : index
  memref.copy %x, %s : memref<8xf32> to memref<8xf32>
  memref.copy %x, %t : memref<8xf32> to memref<8xf32>
  scf.for %j = %c0 to %trips step %c1 {{
    {body}
  }}
  return
}}
"""


def test_accumulators_stay_in_memory_beside_unseen_effects() -> None:
    """Both sides of the legality check: hoisted beside a store to another
    output (counted), never beside a call, a copy, another element of the
    same buffer, nor when the store comes first; the same results always."""
    hoisted = {True: 0, False: 0}

    @given(
        neighbour=st.sampled_from(sorted(NEIGHBOURS)),
        store_first=st.booleans(),
        trips=st.integers(1, 8),
        seed=st.integers(0, 2**16),
    )
    def check(neighbour: str, store_first: bool, trips: int, seed: int) -> None:
        text = accumulator_loop_text(neighbour, store_first, trips)
        after = assert_pass_preserves_semantics(
            PASS, text, entry="main", trials=1, seed=seed
        )
        legal = NEIGHBOURS[neighbour][0] and not store_first
        carried = "iter_args" in str(after)
        assert legal or not carried, f"hoisted beside {neighbour} ({store_first=})"
        hoisted[legal] += carried

    check()
    assert hoisted[True] > 0
