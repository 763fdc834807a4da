"""`linalg-promote-accumulator` keeps meaning: random linalg chains on
buffers, their contractions register-tiled by drawn sizes, promoted, and
lowered with the reduction loops outermost."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from irkit.testing import assert_pass_preserves_semantics
from irkit.testing.strategies import linalg_programs, lowered
from irkit.transforms.convert_linalg_to_loops import ConvertLinalgToLoopsPass
from irkit.transforms.linalg_promote_accumulator import LinalgPromoteAccumulatorPass
from irkit.transforms.linalg_tile_contractions import LinalgTileContractionsPass

ON_BUFFERS = "linalg-generalize-named-ops,bufferize"


@given(
    program=lowered(linalg_programs(max_ops=2, max_dim=4), ON_BUFFERS).map(str),
    tile_sizes=st.lists(st.integers(0, 4), min_size=3, max_size=3).map(tuple),
    max_elements=st.sampled_from([1, 4, 16, 64]),
)
def test_promotion_keeps_meaning(
    program: str, tile_sizes: tuple[int, ...], max_elements: int
) -> None:
    passes = [
        LinalgTileContractionsPass(tile_sizes=tile_sizes),
        LinalgPromoteAccumulatorPass(max_elements=max_elements),
        ConvertLinalgToLoopsPass(),
    ]
    assert_pass_preserves_semantics(passes, program, trials=1)
