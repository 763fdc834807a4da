"""`linalg-tile` on tensors keeps meaning: random linalg programs vs their tiles.

The tiled programs run `scf.forall` with `shared_outs`,
`tensor.parallel_insert_slice`, and `scf.for` carrying tensors on the
interpreter. Tile sizes are drawn per loop from 0 (untiled), 1, sizes that do
or do not divide the range, and sizes larger than it; some programs are tiled
twice (the second level sees dynamic tile shapes).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.testing import assert_pass_preserves_semantics
from irkit.testing.strategies import linalg_programs, lowered, nn_programs
from irkit.transforms.linalg_tile import LinalgTilePass

MAX_DIM = 5

# Ops whose linalg form has projected-permutation maps only (no windows).
TILEABLE_NN_OPS = {
    "nn.add",
    "nn.exp",
    "nn.matmul",
    "nn.reduce_sum",
    "nn.reduce_max",
    "nn.softmax",
    "nn.transpose",
    "nn.broadcast_to",
    "nn.relu",
}

# Small sizes most often, so that most loops are really tiled.
tile_size = st.one_of(st.integers(1, 3), st.just(0), st.integers(1, MAX_DIM + 2))
tile_sizes = st.tuples(tile_size, tile_size, tile_size, tile_size)


def _passes(sizes: list[tuple[int, ...]]) -> list[LinalgTilePass]:
    return [LinalgTilePass(tile_sizes=level) for level in sizes]


@given(
    linalg_programs(max_ops=2, max_dim=MAX_DIM),
    st.lists(tile_sizes, min_size=1, max_size=2),
)
def test_tiling_linalg_programs_on_tensors_keeps_meaning(
    program: ModuleOp, sizes: list[tuple[int, ...]]
) -> None:
    assert_pass_preserves_semantics(_passes(sizes), program, trials=1)


@given(
    lowered(
        nn_programs(max_ops=3, ops=TILEABLE_NN_OPS, max_dim=MAX_DIM),
        "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise",
    ),
    tile_sizes,
)
def test_tiling_nn_programs_on_tensors_keeps_meaning(
    program: ModuleOp, sizes: tuple[int, ...]
) -> None:
    assert_pass_preserves_semantics(LinalgTilePass(tile_sizes=sizes), program, trials=1)
