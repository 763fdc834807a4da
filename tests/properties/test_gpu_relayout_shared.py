"""`gpu-relayout-shared` keeps meaning: matmuls (some with an epilogue) tiled
with cyclic thread tiles and lowered to `gpu.launch` with promoted
accumulators, run on the grid emulator before and after the pass. With 2x2
threads and 4x4 cyclic tiles, each thread reads four rows of A and four
columns of B per K step (one 16-byte chunk each); shapes that the tiles do not
divide are left alone, and appear too."""

from __future__ import annotations

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import check_pass
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_relayout_shared import GpuRelayoutSharedPass
from tests.properties.gpu_matmuls import matmul_module, matmul_programs, up_to
from tests.properties.test_linalg_fuse_attention import (
    ATOL,
    RTOL,
    attention_programs,
)

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


# A fused attention kernel (`linalg-fuse-attention`): its scores and output
# products accumulate in thread tiles that linalg-tile-for-gpu already keeps
# per thread (`memref.alloca`); gpu-promote-accumulators marks the loops
# indexing them for unrolling, so the reads of q, the keys and the values are
# cyclic in unrolled counters (2 x 2 threads, 8 rows and 8 keys a block: four
# rows and keys a thread) and the pass lays them out in chunks. One batch of
# 8 rows and 8 keys, the shapes where chunks fit, keeps the emulator's runs
# short.
ATTENTION_UP_TO = (
    "linalg-generalize-named-ops,bufferize,"
    "linalg-fuse-attention{block-rows=8 block-keys=8 threads=4 threads-x=2 "
    "min-block=1},linalg-tile-for-gpu{elementwise-block=16},gpu-promote-shared,"
    "convert-linalg-to-loops,fold-memref-alias-ops,convert-parallel-loops-to-gpu,"
    "gpu-promote-accumulators"
)


def test_fused_attention_tiles_are_relaid_and_keep_meaning() -> None:
    drawn = attention_programs(batches=(1,), row_counts=(8,), key_counts=(8,))
    programs = lowered(drawn.map(parse_module), ATTENTION_UP_TO)
    check_pass(PASS, programs, rtol=RTOL, atol=ATOL)
