"""`linalg-tile-for-gpu` keeps meaning: random programs, bufferized, vs their
block/thread-mapped forall nests (run sequentially on the host).

Tile sizes are small and do not divide the drawn shapes (up to 5), so
partial block and thread tiles, and whole-range tiles, all occur.
"""

from __future__ import annotations

from irkit.testing import check_pass, linalg_programs, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.linalg_tile_for_gpu import LinalgTileForGpuPass

FRONT_END = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,bufferize"
)
PASS = LinalgTileForGpuPass(
    matmul_block=(3, 4, 2), matmul_thread=(2, 3), elementwise_block=3
)


def test_tiles_for_gpu_keep_meaning_on_nn_programs() -> None:
    check_pass(PASS, lowered(nn_programs(max_ops=3, max_dim=5), FRONT_END))


def test_tiles_for_gpu_keep_meaning_on_linalg_programs() -> None:
    check_pass(PASS, lowered(linalg_programs(max_ops=2, max_dim=5), FRONT_END))


def test_matmul_tiles_keep_meaning() -> None:
    # Matmuls (batched too) are rare among all ops: draw them on purpose.
    matmuls = nn_programs(max_ops=2, ops={"nn.matmul", "nn.relu"}, max_dim=5)
    check_pass(PASS, lowered(matmuls, FRONT_END))
