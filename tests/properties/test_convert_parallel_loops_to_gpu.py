"""`convert-parallel-loops-to-gpu` keeps meaning: random programs lowered to
mapped forall nests, run sequentially before the pass and on the grid
emulator (`irkit/interpreter/gpu.py`: masks, barriers, race checks) after it.
"""

from __future__ import annotations

from irkit.testing import check_pass, linalg_programs, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.convert_parallel_loops_to_gpu import (
    ConvertParallelLoopsToGpuPass,
)

# Small tiles that do not divide the shapes: partial blocks, idle lanes.
UP_TO_PASS = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,"
    "bufferize,"
    "linalg-tile-for-gpu{matmul-block=3,4,2 matmul-thread=2,3 elementwise-block=3},"
    "convert-linalg-to-loops,fold-memref-alias-ops"
)
PASS = ConvertParallelLoopsToGpuPass()


def test_launches_keep_meaning_on_nn_programs() -> None:
    check_pass(PASS, lowered(nn_programs(max_ops=3, max_dim=5), UP_TO_PASS))


def test_launches_keep_meaning_on_linalg_programs() -> None:
    check_pass(PASS, lowered(linalg_programs(max_ops=2, max_dim=5), UP_TO_PASS))


def test_matmul_tiles_keep_meaning() -> None:
    # Matmuls (batched too) are rare among all ops: draw them on purpose.
    matmuls = nn_programs(max_ops=2, ops={"nn.matmul", "nn.relu"}, max_dim=5)
    check_pass(PASS, lowered(matmuls, UP_TO_PASS))
