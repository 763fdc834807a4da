"""`linalg-tile-contractions` keeps meaning: random linalg chains (matmuls,
batch_matmuls and generic contractions among other ops) on buffers, tiled by
drawn sizes (1, dividing, not dividing, larger than the range), one or two
levels."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from irkit.testing import assert_pass_preserves_semantics
from irkit.testing.strategies import linalg_programs, lowered
from irkit.transforms.linalg_tile_contractions import LinalgTileContractionsPass

ON_BUFFERS = "linalg-generalize-named-ops,bufferize"
SIZES = st.lists(st.integers(0, 5), min_size=1, max_size=4).map(tuple)


@given(
    program=lowered(linalg_programs(max_ops=2, max_dim=4), ON_BUFFERS).map(str),
    levels=st.lists(SIZES, min_size=1, max_size=2),
)
def test_tiling_contractions_keeps_meaning(
    program: str, levels: list[tuple[int, ...]]
) -> None:
    passes = [LinalgTileContractionsPass(tile_sizes=sizes) for sizes in levels]
    assert_pass_preserves_semantics(passes, program, trials=1)
