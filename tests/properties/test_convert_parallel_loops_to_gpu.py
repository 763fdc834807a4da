"""`convert-parallel-loops-to-gpu` keeps meaning: random programs lowered to
mapped forall nests, run sequentially before the pass and on the grid
emulator (`irkit/interpreter/gpu.py`: masks, barriers, race checks) after it.
"""

from __future__ import annotations

import pytest

from irkit.testing import check_pass, linalg_programs, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.convert_parallel_loops_to_gpu import (
    ConvertParallelLoopsToGpuPass,
)

PASS = ConvertParallelLoopsToGpuPass()
# Blocked and cyclic (`matmul-cyclic`: threads own every n-th row and column,
# idle threads of partial tiles are guarded) thread tiles.
CYCLIC = pytest.mark.parametrize("cyclic", [False, True], ids=["blocked", "cyclic"])


def up_to_pass(cyclic: bool) -> str:
    """The stages before the pass; small tiles that do not divide the shapes
    give partial blocks and idle lanes."""
    return (
        "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,"
        "bufferize,"
        "linalg-tile-for-gpu{matmul-block=3,4,2 matmul-thread=2,3 elementwise-block=3 "
        f"matmul-cyclic={str(cyclic).lower()}}},"
        "convert-linalg-to-loops,fold-memref-alias-ops"
    )


@CYCLIC
def test_launches_keep_meaning_on_nn_programs(cyclic: bool) -> None:
    programs = nn_programs(max_ops=3, max_dim=5)
    check_pass(PASS, lowered(programs, up_to_pass(cyclic)))


@CYCLIC
def test_launches_keep_meaning_on_linalg_programs(cyclic: bool) -> None:
    programs = linalg_programs(max_ops=2, max_dim=5)
    check_pass(PASS, lowered(programs, up_to_pass(cyclic)))


@CYCLIC
def test_matmul_tiles_keep_meaning(cyclic: bool) -> None:
    # Matmuls (batched too) are rare among all ops: draw them on purpose.
    matmuls = nn_programs(max_ops=2, ops={"nn.matmul", "nn.relu"}, max_dim=5)
    check_pass(PASS, lowered(matmuls, up_to_pass(cyclic)))
