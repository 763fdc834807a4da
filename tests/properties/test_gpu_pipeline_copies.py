"""`gpu-pipeline-copies` keeps meaning: matmuls (some with an epilogue) tiled
for the GPU, their accumulators promoted and shared tiles relaid, run on the
grid emulator before and after the pass; K extents of one, two and three
steps (the prefetch after the last step must not run), and shapes the tiles
do not divide (their copies are guarded: left alone)."""

from __future__ import annotations

from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import check_pass
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_pipeline_copies import GpuPipelineCopiesPass

PASS = GpuPipelineCopiesPass()
UP_TO_PASS = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,"
    "bufferize,"
    "linalg-tile-for-gpu{matmul-block=8,8,2 matmul-thread=4,4 matmul-cyclic=true "
    "elementwise-block=4},"
    "gpu-promote-shared,convert-linalg-to-loops,fold-memref-alias-ops,"
    "convert-parallel-loops-to-gpu,gpu-promote-accumulators,gpu-relayout-shared"
)


def _matmul_text(m: int, n: int, k: int, add: bool) -> str:
    a, b, c = (f"tensor<{x}x{y}xf32>" for x, y in ((m, k), (k, n), (m, n)))
    lines = [
        f"func.func @main(%a: {a}, %b: {b}, %bias: {c}) -> {c} {{",
        f"  %c = nn.matmul %a, %b : {a}, {b} -> {c}",
    ]
    result = "%c"
    if add:
        lines.append(f"  %d = nn.add %c, %bias : {c}, {c} -> {c}")
        result = "%d"
    lines += [f"  return {result} : {c}", "}"]
    return "\n".join(lines)


@st.composite
def matmul_programs(draw: st.DrawFn) -> ModuleOp:
    m = draw(st.sampled_from([8, 16, 12]))
    n = draw(st.sampled_from([8, 16, 6]))
    k = draw(st.sampled_from([2, 4, 6, 3]))
    return parse_module(_matmul_text(m, n, k, draw(st.booleans())), make_context())


def test_pipelined_copies_keep_meaning() -> None:
    check_pass(PASS, lowered(matmul_programs(), UP_TO_PASS))


def test_dividing_tiles_are_pipelined() -> None:
    # Not vacuous: both copies get a private stage, loaded before the K loop
    # and, guarded, after its first barrier.
    module = parse_module(_matmul_text(16, 16, 6, False), make_context())
    Pipeline.parse(UP_TO_PASS).run(make_context(), module)
    before = str(module)
    Pipeline([PASS]).run(make_context(), module)
    after = str(module)
    assert "%stage" not in before
    private = "memref<4xf32, #gpu.address_space<private>>"
    assert f"%stage : {private}, %stage_1 : {private}" in after
    assert after.count("memref.load %stage") == 2  # in the loop, one per stage
    assert "scf.if" in after
