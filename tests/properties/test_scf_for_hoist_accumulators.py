"""`scf-for-hoist-accumulators` keeps meaning: random programs lowered to
loops (reductions accumulating through memory), before and after hoisting."""

from __future__ import annotations

from irkit.testing import check_pass, nn_programs
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
