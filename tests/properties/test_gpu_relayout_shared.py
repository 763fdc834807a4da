"""`gpu-relayout-shared` keeps meaning: matmuls (some with an epilogue) tiled
with cyclic thread tiles and lowered to `gpu.launch` with promoted
accumulators, run on the grid emulator before and after the pass. With 2x2
threads and 4x4 cyclic tiles, each thread reads four rows of A and four
columns of B per K step (one 16-byte chunk each); shapes that the tiles do not
divide are left alone, and appear too."""

from __future__ import annotations

from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import check_pass
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_relayout_shared import GpuRelayoutSharedPass

PASS = GpuRelayoutSharedPass()
UP_TO_PASS = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,"
    "bufferize,"
    "linalg-tile-for-gpu{matmul-block=8,8,2 matmul-thread=4,4 matmul-cyclic=true "
    "elementwise-block=4},"
    "gpu-promote-shared,convert-linalg-to-loops,fold-memref-alias-ops,"
    "convert-parallel-loops-to-gpu,gpu-promote-accumulators"
)


def _matmul_text(m: int, n: int, k: int, relu: bool) -> str:
    a, b, c = (f"tensor<{x}x{y}xf32>" for x, y in ((m, k), (k, n), (m, n)))
    lines = [
        f"func.func @main(%a: {a}, %b: {b}) -> {c} {{",
        f"  %c = nn.matmul %a, %b : {a}, {b} -> {c}",
    ]
    result = "%c"
    if relu:
        lines.append(f"  %d = nn.relu %c : {c}")
        result = "%d"
    lines += [f"  return {result} : {c}", "}"]
    return "\n".join(lines)


@st.composite
def matmul_programs(draw: st.DrawFn) -> ModuleOp:
    m = draw(st.sampled_from([8, 16, 12]))
    n = draw(st.sampled_from([8, 16, 6]))
    k = draw(st.sampled_from([2, 4, 3]))
    return parse_module(_matmul_text(m, n, k, draw(st.booleans())), make_context())


def test_relayout_keeps_meaning() -> None:
    check_pass(PASS, lowered(matmul_programs(), UP_TO_PASS))


def test_dividing_tiles_are_relaid() -> None:
    # Not vacuous: both tiles change layout (A transposed, padded to 8 + 4),
    # and the reads index with `thread * 4` plus the counter's chunk.
    module = parse_module(_matmul_text(16, 16, 4, False), make_context())
    Pipeline.parse(UP_TO_PASS).run(make_context(), module)
    before = str(module)
    Pipeline([PASS]).run(make_context(), module)
    after = str(module)
    assert "chunked" not in before
    assert "%shared : memref<3x12xf32, #gpu.address_space<workgroup>>" in after
    assert "%shared_1 : memref<2x12xf32, #gpu.address_space<workgroup>>" in after
    assert "((s1 floordiv 4) * 8 + s0 * 4 + s1 mod 4)" in after
