"""`linalg-tile-for-gpu` keeps meaning: random programs, bufferized, vs their
block/thread-mapped forall nests (run sequentially on the host).

Tile sizes are small and do not divide the drawn shapes (up to 5), so
partial block and thread tiles, and whole-range tiles, all occur. Every
property runs with blocked and with cyclic (`matmul-cyclic`) thread tiles;
with BM=3, TM=2 and BN=4, TN=3 the cyclic threads of one tile own different
numbers of rows and columns even in full block tiles.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.passes import ModulePass

from irkit.analysis.structured import StructuredComputation
from irkit.dialects import memref
from irkit.dialects.scf import ForallOp
from irkit.testing import (
    assert_pass_preserves_semantics,
    check_pass,
    linalg_programs,
    nn_programs,
)
from irkit.testing.strategies import lowered
from irkit.transforms.linalg_tile_for_gpu import (
    GpuTilingPlan,
    LinalgTileForGpuPass,
    fill_the_grid,
    static_loop_ranges,
    tile_generic_for_gpu,
)

FRONT_END = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,bufferize"
)
PASSES = {
    cyclic: LinalgTileForGpuPass(
        matmul_block=(3, 4, 2),
        matmul_thread=(2, 3),
        elementwise_block=3,
        matmul_cyclic=cyclic,
    )
    for cyclic in (False, True)
}
CYCLIC = pytest.mark.parametrize("cyclic", [False, True], ids=["blocked", "cyclic"])


@CYCLIC
def test_tiles_for_gpu_keep_meaning_on_nn_programs(cyclic: bool) -> None:
    check_pass(PASSES[cyclic], lowered(nn_programs(max_ops=3, max_dim=5), FRONT_END))


@CYCLIC
def test_tiles_for_gpu_keep_meaning_on_linalg_programs(cyclic: bool) -> None:
    programs = lowered(linalg_programs(max_ops=2, max_dim=5), FRONT_END)
    check_pass(PASSES[cyclic], programs)


@CYCLIC
def test_matmul_tiles_keep_meaning(cyclic: bool) -> None:
    # Matmuls (batched too) are rare among all ops: draw them on purpose.
    matmuls = nn_programs(max_ops=2, ops={"nn.matmul", "nn.relu"}, max_dim=5)
    check_pass(PASSES[cyclic], lowered(matmuls, FRONT_END))


MATMUL = """
func.func @main(%a: memref<8x6xf32>, %b: memref<6x8xf32>, %c: memref<8x8xf32> {irkit.output}) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<8x8xf32>)
  linalg.matmul ins(%a, %b : memref<8x6xf32>, memref<6x8xf32>) outs(%c : memref<8x8xf32>)
  return
}
"""


def _thread_foralls(module: ModuleOp) -> list[ForallOp]:
    return [
        op
        for op in module.walk()
        if isinstance(op, ForallOp) and "thread" in str(op.mapping)
    ]


def _thread_subview_strides(forall: ForallOp) -> list[tuple[int, ...]]:
    return [
        tuple(op.static_strides.get_values())
        for op in forall.walk()
        if isinstance(op, memref.SubviewOp)
    ]


def test_cyclic_thread_tiles_are_strided() -> None:
    # Dividing tiles: 2x2 threads per 4x4 block tile, each owning rows t0,
    # t0 + 2 and columns t1, t1 + 2: A's rows, B's columns and both of C's
    # dimensions step by 2 (the blocked tiles step by 1).
    cyclic = assert_pass_preserves_semantics(
        LinalgTileForGpuPass((4, 4, 2), (2, 2), matmul_cyclic=True), MATMUL, trials=1
    )
    # The last thread forall is the matmul's (the fill's comes first).
    matmul = _thread_foralls(cyclic)[-1]
    assert _thread_subview_strides(matmul) == [(2, 1), (1, 2), (2, 2)]
    assert matmul.mixed_bounds()[1:] == ([2, 2], [1, 1])
    blocked = assert_pass_preserves_semantics(
        LinalgTileForGpuPass((4, 4, 2), (2, 2)), MATMUL, trials=1
    )
    assert _thread_subview_strides(_thread_foralls(blocked)[-1]) == [(1, 1)] * 3


INDEXED = """
func.func @main(%a: memref<7x10xf32>, %c: memref<7x10xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<7x10xf32>) outs(%c : memref<7x10xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %j : index
    %l = arith.addi %k, %i : index
    %n = arith.index_cast %l : index to i32
    %f = arith.sitofp %n : i32 to f32
    %y = arith.addf %x, %f : f32
    linalg.yield %y : f32
  }
  return
}
"""


@dataclass(frozen=True)
class _CyclicPlanPass(ModulePass):
    """Every generic with a cyclic plan: 3x4 block tiles (partial on both
    loops), 2x2 cyclic threads."""

    name = "test-cyclic-plan"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, GenericOp)]:
            computation = StructuredComputation.of(generic)
            ranges = static_loop_ranges(generic, computation)
            plan = GpuTilingPlan((3, 4), (0, 0), (2, 2), cyclic=True)
            tile_generic_for_gpu(generic, computation, ranges, plan)


def test_cyclic_tiles_count_linalg_index_from_the_origin() -> None:
    # Matmul-class bodies hold no linalg.index, so the cyclic index math is
    # reached through a plan: element (local r, c) of thread (t0, t1) in
    # block (b0, b1) is (b0 + t0 + 2 r, b1 + t1 + 2 c).
    tiled = assert_pass_preserves_semantics(_CyclicPlanPass(), INDEXED, trials=2)
    (forall,) = _thread_foralls(tiled)
    assert _thread_subview_strides(forall) == [(2, 2), (2, 2)]


@CYCLIC
@given(
    m=st.integers(1, 72),
    n=st.integers(1, 72),
    k=st.integers(1, 4),
    batch=st.integers(1, 2),
    multiprocessors=st.integers(1, 48),
)
def test_grid_filling_tiles_keep_meaning(
    cyclic: bool, m: int, n: int, k: int, batch: int, multiprocessors: int
) -> None:
    """With `multiprocessors`, a matmul whose grid is too small gets smaller
    block and thread tiles (`fill_the_grid`); the tiles it picks must still
    compute the same product, and the block foralls must step by them.
    64x64 blocks of 8x8 thread tiles (64 threads) can halve BN to 32 with TN
    4, then BM; outputs up to 72x72 make the grid short for most counts."""
    block, thread = (64, 64, 2), (8, 8)
    tiling = LinalgTileForGpuPass(
        matmul_block=block,
        matmul_thread=thread,
        matmul_cyclic=cyclic,
        multiprocessors=multiprocessors,
    )
    text = f"""
func.func @main(%a: memref<{batch}x{m}x{k}xf32>, %b: memref<{batch}x{k}x{n}xf32>,
                %c: memref<{batch}x{m}x{n}xf32> {{irkit.output}}) {{
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<{batch}x{m}x{n}xf32>)
  linalg.batch_matmul ins(%a, %b : memref<{batch}x{m}x{k}xf32>, memref<{batch}x{k}x{n}xf32>)
      outs(%c : memref<{batch}x{m}x{n}xf32>)
  return
}}
"""
    after = assert_pass_preserves_semantics(tiling, text)
    chosen, _ = fill_the_grid(block[:2], thread, (m, n), batch, multiprocessors)
    (matmul_blocks,) = [
        op
        for op in after.walk()
        if isinstance(op, ForallOp)
        and "block" in str(op.mapping)
        and any(
            isinstance(inner, GenericOp) and "reduction" in str(inner.iterator_types)
            for inner in op.walk()
        )
    ]
    steps = tuple(matmul_blocks.staticStep.get_values())[-2:]
    assert steps == tuple(min(size, extent) for size, extent in zip(chosen, (m, n)))


def test_fill_the_grid_shrinks_tiles_while_the_grid_is_short() -> None:
    def fill(extents: tuple[int, int], batches: int = 1) -> object:
        return fill_the_grid((128, 128), (8, 8), extents, batches, 132)

    # The GPT-2 block's 1024x768 projections on the H100: 48 blocks of
    # 128x128, 192 of 64x64 with 8x4 thread tiles (128 threads).
    assert fill((1024, 768)) == ((64, 64), (8, 4))
    # 1024x2304: 144 blocks, under 1.5 per multiprocessor; 288 of 128x64.
    assert fill((1024, 2304)) == ((128, 64), (8, 8))
    # Enough blocks already, or no multiprocessor count: unchanged.
    assert fill((2048, 2048)) == ((128, 128), (8, 8))
    assert fill_the_grid((128, 128), (8, 8), (1024, 768), 1, 0) == (
        (128, 128),
        (8, 8),
    )
    # A batch counts: 96 heads of 128x128 scores, 96 blocks, then 384.
    assert fill((128, 128), 96) == ((64, 64), (8, 4))
    # Thread tiles stop at 4 wide and blocks at four warps.
    assert fill((64, 1024)) == ((128, 64), (8, 4))
    # Whole tiles stay whole (a partial one keeps its accumulators in
    # memory): 96 columns, one tile, never 64 + 32; the rows halve instead.
    assert fill((1024, 96)) == ((64, 128), (8, 4))


# A contraction's fill and elementwise epilogue run in its grid
# (`irkit.analysis.contraction_fusion`): random matmuls and batch matmuls
# (and the same loops summing x + y, a reduction tiled as elementwise ops are)
# (B read plain or transposed, as a folded nn.Linear weight is), filled with
# a random constant, then an epilogue reading the product with a bias, a
# residual and `linalg.index`, writing a new output or the product in place.


@st.composite
def contractions_with_neighbours(draw: st.DrawFn) -> str:
    m, n, k = (draw(st.integers(1, 5)) for _ in range(3))
    batch = [draw(st.integers(1, 2))] if draw(st.booleans()) else []
    transposed = draw(st.booleans())
    in_place = draw(st.booleans())
    fill = draw(st.sampled_from(["0.0", "0.5", "-1.25"]))

    def memref(*dims: int) -> str:
        return "memref<" + "".join(f"{d}x" for d in dims) + "f32>"

    loops = [f"d{i}" for i in range(len(batch) + 3)]
    *outer, i, j, kk = loops
    space = ", ".join(loops)
    a_type = memref(*batch, m, k)
    b_type = memref(*batch, n, k) if transposed else memref(*batch, k, n)
    c_type = memref(*batch, m, n)
    b_map = [*outer, j, kk] if transposed else [*outer, kk, j]
    maps = [[*outer, i, kk], b_map, [*outer, i, j]]
    matmul_maps = ", ".join(f"affine_map<({space}) -> ({', '.join(r)})>" for r in maps)
    kinds = ", ".join(['"parallel"'] * (len(loops) - 1) + ['"reduction"'])
    rank = len(batch) + 2
    e_space = ", ".join(f"d{x}" for x in range(rank))
    identity = f"affine_map<({e_space}) -> ({e_space})>"
    bias_map = f"affine_map<({e_space}) -> (d{rank - 1})>"
    e_kinds = ", ".join(['"parallel"'] * rank)
    activation = draw(st.sampled_from(["math.tanh", "arith.negf", "math.absf"]))
    index_dim = draw(st.integers(0, rank - 1))
    # In place: the product is the function's output, else a temporary.
    out = "%c" if in_place else "%d"
    output = f"{out}: {c_type} {{irkit.output}}"
    temporary = "" if in_place else f"%c = memref.alloc() : {c_type}"
    between = draw(st.sampled_from(["", "%two = arith.constant 2.0 : f32"]))
    # A matmul, or a reduction that is no contraction (a sum of x + y): any
    # reduction's neighbours run in its grid, whatever plan tiles it.
    combine = draw(st.sampled_from(["arith.mulf", "arith.addf"]))
    return f"""
func.func @main(%a: {a_type}, %b: {b_type}, %bias: {memref(n)}, %r: {c_type}, {output}) {{
  {temporary}
  %z = arith.constant {fill} : f32
  linalg.fill ins(%z : f32) outs(%c : {c_type})
  linalg.generic {{indexing_maps = [{matmul_maps}], iterator_types = [{kinds}]}} ins(%a, %b : {a_type}, {b_type}) outs(%c : {c_type}) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = {combine} %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }}
  {between}
  linalg.generic {{indexing_maps = [{identity}, {bias_map}, {identity}, {identity}], iterator_types = [{e_kinds}]}} ins(%c, %bias, %r : {c_type}, {memref(n)}, {c_type}) outs({out} : {c_type}) {{
  ^bb0(%v: f32, %bv: f32, %rv: f32, %o: f32):
    %t = arith.addf %v, %bv : f32
    %u = {activation} %t : f32
    %w = arith.addf %u, %rv : f32
    %q = linalg.index {index_dim} : index
    %qi = arith.index_cast %q : index to i32
    %qf = arith.sitofp %qi : i32 to f32
    %y = arith.addf %w, %qf : f32
    linalg.yield %y : f32
  }}
  return
}}
"""


def _block_foralls(module: ModuleOp) -> list[ForallOp]:
    return [
        op
        for op in module.walk()
        if isinstance(op, ForallOp) and "block" in str(op.mapping)
    ]


@CYCLIC
@given(contractions_with_neighbours())
def test_fill_and_epilogue_run_in_the_contraction_grid(cyclic: bool, text: str) -> None:
    tiled = assert_pass_preserves_semantics(PASSES[cyclic], text, trials=2)
    # Fused: one grid for the three ops, holding three thread nests.
    (grid,) = _block_foralls(tiled)
    threads = [op for op in grid.walk() if op in _thread_foralls(tiled)]
    assert len(threads) == 3, str(tiled)


@given(contractions_with_neighbours())
def test_fuse_neighbours_false_keeps_three_grids(text: str) -> None:
    unfused = LinalgTileForGpuPass(
        matmul_block=(3, 4, 2), matmul_thread=(2, 3), fuse_neighbours=False
    )
    tiled = assert_pass_preserves_semantics(unfused, text, trials=1)
    assert len(_block_foralls(tiled)) == 3


@CYCLIC
@given(
    m=st.integers(1, 7),
    n=st.integers(1, 7),
    k=st.integers(1, 5),
    widened=st.sampled_from(["f16", "i8"]),
)
def test_mixed_precision_matmuls_tile_as_matmuls(
    cyclic: bool, m: int, n: int, k: int, widened: str
) -> None:
    """f16 (or i8) operands widened into an f32 (or i32) accumulator in the
    body, as MLIR's mixed-precision matmul is: a contraction, tiled with
    the matmul plan (a K loop between the block and thread foralls)."""
    acc = "f32" if widened == "f16" else "i32"
    zero = "0.0" if acc == "f32" else "0"
    ext = "arith.extf" if widened == "f16" else "arith.extsi"
    mul, add = (
        ("arith.mulf", "arith.addf") if acc == "f32" else ("arith.muli", "arith.addi")
    )
    text = f"""
func.func @main(%a: memref<{m}x{k}x{widened}>, %b: memref<{k}x{n}x{widened}>,
                %c: memref<{m}x{n}x{acc}> {{irkit.output}}) {{
  %init = arith.constant {zero} : {acc}
  linalg.fill ins(%init : {acc}) outs(%c : memref<{m}x{n}x{acc}>)
  linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a, %b : memref<{m}x{k}x{widened}>, memref<{k}x{n}x{widened}>) outs(%c : memref<{m}x{n}x{acc}>) {{
  ^bb0(%x: {widened}, %y: {widened}, %o: {acc}):
    %xw = {ext} %x : {widened} to {acc}
    %yw = {ext} %y : {widened} to {acc}
    %p = {mul} %xw, %yw : {acc}
    %s = {add} %o, %p : {acc}
    linalg.yield %s : {acc}
  }}
  return
}}
"""
    tiled = assert_pass_preserves_semantics(PASSES[cyclic], text, trials=1)
    if k > 2:  # BK = 2 divides the reduction into steps
        assert "scf.for" in str(tiled)
    assert _thread_foralls(tiled)
