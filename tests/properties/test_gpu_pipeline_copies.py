"""`gpu-pipeline-copies` keeps meaning: matmuls (some with an epilogue) tiled
for the GPU, their accumulators promoted and shared tiles relaid, run on the
grid emulator before and after the pass; K extents of one, two and three
steps (the prefetch after the last step must not run), and shapes the tiles
do not divide (their copies are guarded: left alone)."""

from __future__ import annotations

from irkit.context import make_context
from irkit.pass_manager import Pipeline
from irkit.testing import check_pass
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_pipeline_copies import GpuPipelineCopiesPass
from tests.properties.gpu_matmuls import matmul_module, matmul_programs, up_to

PASS = GpuPipelineCopiesPass()
UP_TO_PASS = up_to(
    "matmul-block=8,8,2 matmul-thread=4,4 matmul-cyclic=true elementwise-block=4",
    "gpu-promote-accumulators",
    "gpu-relayout-shared",
)
MATMULS = matmul_programs([8, 16, 12], [8, 16, 6], [2, 4, 6, 3])


def test_pipelined_copies_keep_meaning() -> None:
    check_pass(PASS, lowered(MATMULS, UP_TO_PASS))


def test_dividing_tiles_are_pipelined() -> None:
    # Not vacuous: both copies get a private stage, loaded before the K loop
    # and, guarded, after its first barrier.
    module = matmul_module(16, 16, 6)
    Pipeline.parse(UP_TO_PASS).run(make_context(), module)
    before = str(module)
    Pipeline([PASS]).run(make_context(), module)
    after = str(module)
    assert "%stage" not in before
    private = "memref<4xf32, #gpu.address_space<private>>"
    assert f"%stage : {private}, %stage_1 : {private}" in after
    assert after.count("memref.load %stage") == 2  # in the loop, one per stage
    assert "scf.if" in after
