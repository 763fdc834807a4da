"""`gpu-relayout-shared` keeps meaning: matmuls (some with an epilogue) tiled
with cyclic thread tiles and lowered to `gpu.launch` with promoted
accumulators, run on the grid emulator before and after the pass. With 2x2
threads and 4x4 cyclic tiles, each thread reads four rows of A and four
columns of B per K step (one 16-byte chunk each); shapes that the tiles do not
divide are left alone, and appear too."""

from __future__ import annotations

from irkit.context import make_context
from irkit.pass_manager import Pipeline
from irkit.testing import check_pass
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_relayout_shared import GpuRelayoutSharedPass
from tests.properties.gpu_matmuls import matmul_module, matmul_programs, up_to

PASS = GpuRelayoutSharedPass()
UP_TO_PASS = up_to(
    "matmul-block=8,8,2 matmul-thread=4,4 matmul-cyclic=true elementwise-block=4",
    "gpu-promote-accumulators",
)
MATMULS = matmul_programs([8, 16, 12], [8, 16, 6], [2, 4, 3])


def test_relayout_keeps_meaning() -> None:
    check_pass(PASS, lowered(MATMULS, UP_TO_PASS))


def test_dividing_tiles_are_relaid() -> None:
    # Not vacuous: both tiles change layout (A transposed, padded to 8 + 4),
    # and the reads index with `thread * 4` plus the counter's chunk.
    module = matmul_module(16, 16, 4)
    Pipeline.parse(UP_TO_PASS).run(make_context(), module)
    before = str(module)
    Pipeline([PASS]).run(make_context(), module)
    after = str(module)
    assert "chunked" not in before
    assert "%shared : memref<3x12xf32, #gpu.address_space<workgroup>>" in after
    assert "%shared_1 : memref<2x12xf32, #gpu.address_space<workgroup>>" in after
    assert "((s1 floordiv 4) * 8 + s0 * 4 + s1 mod 4)" in after
