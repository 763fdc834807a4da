"""`linalg-tile-for-gpu`: tile linalg on memrefs into GPU-mapped `scf.forall`s.

The loop nests MLIR's transform-dialect GPU path builds
(`transform.structured.tile_using_forall` with `#gpu.block` and then
`#gpu.thread` mappings, `mlir/lib/Dialect/Linalg/TransformOps/`), chosen per
kind of op: `linalg-tile-for-gpu{matmul-block=64,64,16 matmul-thread=4,4
elementwise-block=256 matmul-cyclic=false}`.

Contract
--------
Input: linalg on memrefs with static shapes, as `bufferize` leaves it
(`docs/abi.md`), plus host-level `memref.copy`. Named ops go through their
`linalg.generic` form. Indexing maps may be any affine maps; a loop that some
map uses inside a compound expression (a convolution window `d2 + d5`) is not
tiled.

Output: every `memref.copy` first becomes an identity `linalg.generic`, so
that all work is in kernels (a copy out of a `memref.expand_shape` into a
buffer of identity layout copies the expansion's source into that buffer
collapsed the same way: a padded product's corner is then read as itself,
and the copy can be its epilogue). A contraction whose fill prologue and
accumulation write a `memref.collapse_shape` view merging dimensions (a
convolution's product that `bufferize` placed in its output) accumulates
into a buffer of its own instead, copied into the view by an epilogue
(`accumulate_apart_from_merged_views`): through the view, each access
would need `floordiv`/`mod` indices, and the thread tiles could not stay in
registers. Every linalg op then becomes, in place:

```mlir
scf.forall (%i, %j) = (0, 0) to (M, N) step (BM, BN) {        // the grid
  %m = affine.min ...                       // partial block tiles only
  scf.for %k = %c0 to %cK step %cBK {       // reduction tiles (matmul class)
    %a = memref.subview ...                 // block tiles
    scf.forall (%ti, %tj) = (0, 0) to (%m, BN) step (TM, TN) {  // the threads
      %ta = memref.subview %a[...]          // thread tiles of the block tiles
      linalg.generic ... ins(%ta, ...) outs(...)
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  }
} {mapping = [#gpu.block<y>, #gpu.block<x>]}
```

by kind:

- matmul class (`is_contraction`: reductions, one output, `out + a * b`):
  the last two concurrent loops (i, j) get BMxBN block tiles on blocks y, x
  and TMxTN thread tiles on threads y, x; the innermost reduction loop a BK
  tile in an `scf.for` between the two foralls; the concurrent loop before
  i (a batch) a block tile of 1 on blocks z.
- every other op: its innermost concurrent loop (the one that indexes the
  output's last dimension, if concurrent) gets `elementwise-block` elements
  per block on blocks x, one per thread on threads x; the next two
  concurrent loops outward a block tile of 1 (more when the loop would need
  over 65535 blocks) on blocks y and z. When the innermost loop is shorter
  than `elementwise-block`, the next loop outward gets as many rows per
  block as fill it, one per thread on threads y (a `96x256x64` fill runs
  blocks of 4x64 threads, not of 64). Reductions are not tiled: each thread
  runs its elements' reductions sequentially.
- an op without concurrent loops: one block of one thread (foralls over 1).

With `matmul-cyclic=true` a matmul's thread tiles are cyclic instead of
blocked: the thread forall runs `(0, 0) to (NY, NX) step (1, 1)` (NY =
ceildiv(BM, TM), NX = ceildiv(BN, TN)), and thread (t0, t1) owns rows t0,
t0 + NY, ... and columns t1, t1 + NX, ... of the block tile: subviews with
offsets [t0, t1] and strides [NY, NX] on i and j, sizes TM (when NY * TM is
the block tile's size) or `(S - t0) ceildiv NY` for a block tile of size S.
A partial block tile's forall runs to `min(NY, S)`, so every thread that
runs owns at least one row. Neighbouring threads then touch neighbouring
elements of B and C (no shared-memory bank conflicts, coalesced stores).

"Concurrent" loops are the parallel loops that every output indexes alone
(`parallel_loop_dims`), so different tiles write different elements. Tile
sizes are clamped to the loop ranges; a loop whose range a tile does not
divide gets `affine.min` tile sizes (a thread forall's upper bound is then
the block tile's size). Loops not named above stay whole and run inside the
innermost `linalg.generic`, the per-thread work. Each `linalg.index` counts
from the whole op's origin again (`origin + NY * index` for cyclic tiles).

With `fuse-neighbours=true` (the default) a contraction's *prologue* (a fill
of its output) and *epilogue* (an elementwise op reading its output: bias,
activation, residual), as `irkit.analysis.contraction_fusion` allows them,
run in its grid: the prologue in a thread forall before the reduction loop,
the epilogue in one after it, each built with the contraction's plan, so
every thread touches exactly the output elements it owns in the
contraction. Both are erased; allocations, views and constants between the
contraction and its epilogue move before the grid.

A *block-level* op, inside a block-mapped forall but in no thread forall (as
`linalg-fuse-attention` leaves a kernel's ops), is spread over the block's
threads only: no block tiles, its two innermost concurrent loops longer
than 1 cyclic over the threads x and y the block forall asks for
(`irkit.block_threads = [y, x]`, else `elementwise-block / 16` x 16)
(`plan_block_level`); a
contraction accumulates each thread's tile (up to 64 elements) in a
`memref.alloca`, copied in before and out after, which
`convert-linalg-to-loops` keeps live across the whole reduction (registers).
Other linalg ops already inside a GPU-mapped forall
are left alone, so the pass can run twice. Dynamic shapes are rejected
with an error at the op.

Preserves: the value of every output element; each element's reduction runs
in its original order except that a tiled reduction loop (BK) is split into
chunks that run in order, so accumulation order is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.scf import YieldOp as ScfYieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.contraction_fusion import (
    StagedProducer,
    fusable_epilogue,
    fusable_prologue,
    fusable_staged_producers,
    has_gathered_operand,
)
from irkit.analysis.contraction_fusion import output_loops as output_loops_of
from irkit.analysis.gpu_mapping import block_threads, in_gpu_loops, is_block_level
from irkit.analysis.memory import DEFAULT_MAX_SHARED_BYTES, element_bytes
from irkit.analysis.structured import (
    StructuredComputation,
    is_contraction,
    operand_loop_ranges,
    parallel_loop_dims,
    require_buffers,
)
from irkit.diagnostics import op_error
from irkit.dialects import affine, memref
from irkit.dialects.gpu import (
    BlockMappingAttr,
    DimensionEnum,
    ThreadMappingAttr,
    workgroup_memory_space,
)
from irkit.dialects.scf import ForallOp, ForOp, InParallelOp
from irkit.dialects.tensor import reassociation_groups
from irkit.transforms.utils.builders import (
    hoist_to_contraction,
    identity_copy,
    strided_view,
)
from irkit.transforms.utils.generalization import (
    generalize_named_op,
    is_named_linalg_op,
)
from irkit.transforms.utils.tiling import Tile, box_subview

PASS_NAME = "linalg-tile-for-gpu"

# CUDA's limits: grid y and z, threads per block.
MAX_GRID_YZ = 65535
MAX_THREADS_PER_BLOCK = 1024

# Grid (and block) dimensions, innermost loop first.
_DIMENSIONS = ("x", "y", "z")

_Size = int | SSAValue


# --------------------------------------------------------------------------
# Which loops go where
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class GpuTilingOptions:
    """Tile sizes per kind of op (see the module docstring); `matmul_cyclic`
    deals matmul thread tiles round-robin (strided) instead of in blocks.

    These defaults are the pass's own when run alone. `lower-to-cuda` passes
    its tuned tiles (`irkit.transforms.pipelines.GPU_MATMUL_BLOCK`, `_THREAD`,
    `_CYCLIC`: 128x128x16, 8x8, cyclic) explicitly.
    """

    matmul_block: tuple[int, int, int] = (64, 64, 16)
    matmul_thread: tuple[int, int] = (4, 4)
    elementwise_block: int = 256
    matmul_cyclic: bool = False
    # The target's limit (`GpuHardware.max_threads_per_block`).
    max_threads_per_block: int = MAX_THREADS_PER_BLOCK
    # The device's multiprocessors (`GpuHardware.multiprocessors`); 0: keep
    # `matmul_block` for every matmul. Otherwise a matmul whose grid would
    # leave multiprocessors idle gets smaller block tiles (`fill_the_grid`).
    multiprocessors: int = 0
    # Run a contraction's fill and elementwise epilogue in its kernel.
    fuse_neighbours: bool = True
    # Run the producer of a contraction's operand (an im2col gather) while
    # staging the operand's tiles in workgroup memory, in at most
    # `max_shared_bytes` of it (`_stage_producer`).
    fuse_producers: bool = True
    max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES
    # The tiles of a contraction whose operand a gather produces (an
    # implicit GEMM's im2col, staged by `fuse_producers`): (0, 0, 0) and
    # (0, 0) take `matmul_block` and `matmul_thread`. Their K steps load
    # scattered pixels, so smaller tiles, more blocks a multiprocessor and
    # the pixel count dividing the tile win (`lower-to-cuda{conv-block}`).
    gather_block: tuple[int, int, int] = (0, 0, 0)
    gather_thread: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class GpuTilingPlan:
    """Per loop: its block tile, reduction (`scf.for`) tile and thread tile.

    0 means "not tiled at this level". Block- and thread-tiled loops are
    listed outer to inner; the last one maps to x. `cyclic` deals each
    thread-tiled loop's elements round-robin (thread `t` of `n` owns `t`,
    `t + n`, ...) instead of in contiguous runs of `thread[loop]`.
    """

    block: tuple[int, ...]
    sequential: tuple[int, ...]
    thread: tuple[int, ...]
    cyclic: bool = False

    @property
    def block_loops(self) -> list[int]:
        return [loop for loop, size in enumerate(self.block) if size]

    @property
    def sequential_loops(self) -> list[int]:
        return [loop for loop, size in enumerate(self.sequential) if size]

    @property
    def thread_loops(self) -> list[int]:
        return [loop for loop, size in enumerate(self.thread) if size]


def box_tileable_loops(computation: StructuredComputation) -> list[int]:
    """Loops that every map uses only as a plain result (so a tile is a box)."""
    return [
        loop
        for loop in range(computation.num_loops)
        if not any(
            loop in expr.used_dims() and not isinstance(expr, AffineDimExpr)
            for indexing_map in computation.indexing_maps
            for expr in indexing_map.results
        )
    ]


def static_loop_ranges(op: Operation, computation: StructuredComputation) -> list[int]:
    """Each loop's range, from the first operand dimension it indexes alone."""
    ranges = operand_loop_ranges(computation)
    if ranges is None:
        raise op_error(op, f"{PASS_NAME} requires static shapes")
    missing = [f"d{loop}" for loop, size in enumerate(ranges) if size is None]
    if missing:
        raise op_error(
            op,
            f"{PASS_NAME} needs an operand dimension indexed by "
            f"{', '.join(missing)} alone to know its range",
        )
    return [size for size in ranges if size is not None]


def _outer_block_tile(loop_range: int) -> int:
    """Rows per block along grid y or z: 1, unless that needs too many blocks."""
    return max(1, -(-loop_range // MAX_GRID_YZ))


def _innermost_output_loop(
    computation: StructuredComputation, candidates: Sequence[int]
) -> int:
    last = computation.output_maps[0].results[-1:] if computation.output_maps else ()
    for expr in last:
        if isinstance(expr, AffineDimExpr) and expr.position in candidates:
            return expr.position
    return candidates[-1]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# `fill_the_grid`: a shrunk matmul block keeps four warps (128 threads) and
# thread tiles at least 4 wide, as the fastest of the tiles tried on the
# GPT-2 block's matmuls on the H100 did (64x64 blocks of 8x4 thread tiles:
# 0.69 ms of kernels against 0.79 with 4x4 and 0.86 with 128x128 of 8x8).
FILL_MIN_THREADS = 128
FILL_MIN_THREAD_TILE = 4


def fill_the_grid(
    block: tuple[int, int],
    thread: tuple[int, int],
    extents: tuple[int, int],
    batches: int,
    multiprocessors: int,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """A matmul's block tile (BM, BN) and thread tile (TM, TN), shrunk while
    its grid has fewer than 1.5 blocks per multiprocessor (`multiprocessors`
    0: never): a grid that fills less than three quarters of the two blocks
    each multiprocessor runs at once leaves the rest idle. A 1024x768 output
    in 128x128 tiles is 48 blocks on the H100's 132 multiprocessors; in 64x64
    tiles of 8x4 thread tiles, 192.

    Each step halves one block side, BN first on ties, and keeps the tile as
    square as it can. When the block would then fall under
    `FILL_MIN_THREADS` threads (or under what it had, if fewer), TN halves
    too, never under `FILL_MIN_THREAD_TILE`. A step must add blocks and
    leave each side a multiple of its thread tile, and a side that divided
    its extent (or covered it) must still divide it."""

    def blocks(tile: tuple[int, int]) -> int:
        return _ceil_div(extents[0], tile[0]) * _ceil_div(extents[1], tile[1]) * batches

    def threads(tile: tuple[int, int], per_thread: tuple[int, int]) -> int:
        return prod(
            _ceil_div(min(size, extent), min(each, size, extent))
            for size, each, extent in zip(tile, per_thread, extents, strict=True)
        )

    def step(side: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
        tile = (block[0] // 2, block[1]) if side == 0 else (block[0], block[1] // 2)
        per_thread = thread
        floor = min(FILL_MIN_THREADS, threads(block, thread))
        if threads(tile, per_thread) < floor and thread[1] >= 2 * FILL_MIN_THREAD_TILE:
            per_thread = (thread[0], thread[1] // 2)
        fits = all(
            size >= each and size % each == 0
            for size, each in zip(tile, per_thread, strict=True)
        ) and all(
            # Whole tiles stay whole: a partial one would keep its
            # accumulators in memory (dynamic bounds).
            extent % min(old, extent) != 0 or extent % min(new, extent) == 0
            for old, new, extent in zip(block, tile, extents, strict=True)
        )
        if fits and threads(tile, per_thread) >= floor and blocks(tile) > blocks(block):
            return tile, per_thread
        return None

    target = _ceil_div(3 * multiprocessors, 2)
    while multiprocessors and blocks(block) < target:
        steps = [choice for choice in (step(1), step(0)) if choice is not None]
        if not steps:
            break
        block, thread = max(steps, key=lambda choice: min(choice[0]))
    return block, thread


def plan_tiling(
    generic: GenericOp,
    computation: StructuredComputation,
    ranges: Sequence[int],
    options: GpuTilingOptions,
) -> GpuTilingPlan:
    """The per-kind strategy of the module docstring."""
    count = computation.num_loops
    block, sequential, thread = [0] * count, [0] * count, [0] * count
    tileable = set(box_tileable_loops(computation))
    concurrent = [loop for loop in parallel_loop_dims(computation) if loop in tileable]
    reductions = [
        loop
        for loop, kind in enumerate(computation.iterator_types)
        if kind == IteratorType.REDUCTION and loop in tileable
    ]
    if len(concurrent) >= 2 and reductions and is_contraction(generic):
        block_m, block_n, block_k = options.matmul_block
        thread_m, thread_n = options.matmul_thread
        if (
            all(options.gather_block)
            and options.fuse_producers
            and has_gathered_operand(generic)
        ):
            block_m, block_n, block_k = options.gather_block
            thread_m, thread_n = options.gather_thread
        *batch, i, j = concurrent
        (block_m, block_n), (thread_m, thread_n) = fill_the_grid(
            (block_m, block_n),
            (thread_m, thread_n),
            (ranges[i], ranges[j]),
            ranges[batch[-1]] if batch else 1,
            options.multiprocessors,
        )
        block[i], block[j] = min(block_m, ranges[i]), min(block_n, ranges[j])
        thread[i], thread[j] = min(thread_m, block[i]), min(thread_n, block[j])
        if batch:
            block[batch[-1]] = 1
        k = reductions[-1]
        if block_k < ranges[k]:
            sequential[k] = block_k
        return GpuTilingPlan(
            tuple(block), tuple(sequential), tuple(thread), options.matmul_cyclic
        )
    if not concurrent:
        return GpuTilingPlan(tuple(block), tuple(sequential), tuple(thread))
    x = _innermost_output_loop(computation, concurrent)
    block[x] = min(options.elementwise_block, ranges[x])
    thread[x] = 1
    outer = [loop for loop in concurrent if loop != x][-2:]
    for loop in outer:
        block[loop] = _outer_block_tile(ranges[loop])
    if outer and block[x] < options.elementwise_block:
        # A short innermost loop (a head dimension of 64) leaves threads
        # over: the next loop outward gives the block its rows, one per
        # thread along y, so a block still runs `elementwise_block` threads.
        y = outer[-1]
        rows = min(ranges[y], options.elementwise_block // block[x])
        if rows > 1 and -(-ranges[y] // rows) <= MAX_GRID_YZ:
            block[y], thread[y] = rows, 1
    return GpuTilingPlan(tuple(block), tuple(sequential), tuple(thread))


# --------------------------------------------------------------------------
# Building the loops
# --------------------------------------------------------------------------


# A block-level op spreads its innermost loop over this many threads x (16
# consecutive elements: 64 bytes of f32 per half warp) and the next one over
# `elementwise-block / 16` threads y, unless its block forall says otherwise
# (`irkit.block_threads`).
BLOCK_LEVEL_X_THREADS = 16


def plan_block_level(
    computation: StructuredComputation,
    ranges: Sequence[int],
    threads: tuple[int, int],
) -> GpuTilingPlan:
    """Threads for an op a whole block runs (`is_block_level`): no block
    tiles; its innermost concurrent loop longer than 1 cyclic over up to
    `threads[1]` threads x, the next one over up to `threads[0]` threads y;
    reductions stay in each thread. Every op of the block then runs on the
    same threads x, and ops over the same tile give each thread the same
    elements."""
    count = computation.num_loops
    thread = [0] * count
    tileable = set(box_tileable_loops(computation))
    concurrent = [
        loop
        for loop in parallel_loop_dims(computation)
        if loop in tileable and ranges[loop] > 1
    ]
    if concurrent:
        x = _innermost_output_loop(computation, concurrent)
        rest = [loop for loop in concurrent if loop != x]
        thread[x] = _ceil_div(ranges[x], min(ranges[x], threads[1]))
        if rest:
            y = rest[-1]
            thread[y] = _ceil_div(ranges[y], min(ranges[y], threads[0]))
    return GpuTilingPlan((0,) * count, (0,) * count, tuple(thread), cyclic=True)


# The most elements a block-level contraction's thread tile keeps in
# registers (`_register_accumulator`).
MAX_REGISTER_ACCUMULATOR = 64


def _register_accumulator(
    tile: SSAValue, insertion: InsertPoint, initialised: bool
) -> SSAValue | None:
    """A thread's contraction output tile copied into a `memref.alloca` (at
    most `MAX_REGISTER_ACCUMULATOR` elements, static; not copied when a
    prologue `initialised` it), which `convert-linalg-to-loops` then
    accumulates into across the whole reduction (reduction loops outermost:
    registers, once unrolled); None when the tile is too big or not
    static."""
    tile_type = tile.type
    if not isinstance(tile_type, MemRefType) or not tile_type.has_static_shape():
        return None
    shape = tile_type.get_shape()
    if prod(shape) > MAX_REGISTER_ACCUMULATOR:
        return None
    alloca = memref.AllocaOp.get(tile_type.get_element_type(), shape=list(shape))
    alloca.memref.name_hint = "accumulator"
    _insert(alloca, insertion)
    if not initialised:
        _insert(identity_copy(tile, alloca.memref), insertion)
    return alloca.memref


def tile_block_level(
    checked: _CheckedOp, prologue: GenericOp | None = None
) -> ForallOp:
    """Spread a block-level op over the block's threads (its plan's thread
    nest, in its place); return the thread forall. A contraction accumulates
    its thread tile in registers (`_register_accumulator`). A `prologue`
    (`fusable_prologue`, without `linalg.index`) initialises each thread's
    output tile, or its accumulator, in the same forall, and is erased."""
    generic, computation = checked.generic, checked.computation
    ranges, plan = checked.ranges, checked.plan
    insertion = InsertPoint.before(generic)
    whole = [Tile(0, extent) for extent in ranges]
    nest = _thread_nest(plan, ranges, whole, insertion)
    operands = [
        box_subview(operand, indexing_map, nest.tiles, nest.insertion, nest.steps)
        for operand, indexing_map in zip(
            computation.operands, computation.indexing_maps, strict=True
        )
    ]
    tiled = generic.clone()
    accumulator = None
    if is_contraction(generic):
        accumulator = _register_accumulator(
            operands[-1], nest.insertion, initialised=prologue is not None
        )
    if accumulator is not None:
        tiled.operands = [*operands[:-1], accumulator]
    else:
        tiled.operands = operands
    if prologue is not None:
        initial = prologue.clone()
        initial.operands = [*prologue.inputs, tiled.operands[-1]]
        _insert(initial, nest.insertion)
        Rewriter.erase_op(prologue)
    _insert(tiled, nest.insertion)
    if accumulator is not None:
        _insert(identity_copy(accumulator, operands[-1]), nest.insertion)
    origins: dict[int, list[SSAValue]] = {
        loop: [origin]
        for loop, origin in zip(
            plan.thread_loops, nest.forall.body.block.args, strict=False
        )
    }
    _offset_indices(
        tiled.body.block,
        origins,
        InsertPoint.before(tiled),
        dict(enumerate(nest.steps)),
    )
    Rewriter.erase_op(generic)
    return nest.forall


def _mapping(kind: type[BlockMappingAttr | ThreadMappingAttr], rank: int) -> ArrayAttr:
    """`[#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]`, the last `rank` of them."""
    dims = list(reversed(_DIMENSIONS[:rank]))
    return ArrayAttr([kind(DimensionEnum(dim)) for dim in dims])


def _insert(op: Operation, insertion: InsertPoint) -> None:
    Rewriter.insert_op(op, insertion)


def _constant(value: int, insertion: InsertPoint) -> SSAValue:
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    constant.result.name_hint = f"c{value}"
    _insert(constant, insertion)
    return constant.result


def _tile_size(
    origin: SSAValue, tile_size: int, extent: _Size, insertion: InsertPoint
) -> _Size:
    """`tile_size`, or `affine.min(tile_size, extent - origin)` when it may not fit."""
    if tile_size == 1 or (isinstance(extent, int) and extent % tile_size == 0):
        return tile_size
    d0, tile = AffineExpr.dimension(0), AffineExpr.constant(tile_size)
    if isinstance(extent, int):
        bound = AffineMap(1, 0, (tile, AffineExpr.constant(extent) - d0))
        operands: list[SSAValue] = [origin]
    else:
        bound = AffineMap(1, 1, (tile, AffineExpr.symbol(0) - d0))
        operands = [origin, extent]
    minimum = affine.MinOp(operands, AffineMapAttr(bound))
    minimum.result.name_hint = "size"
    _insert(minimum, insertion)
    return minimum.result


def _thread_count(plan: GpuTilingPlan, ranges: Sequence[int], loop: int) -> int:
    """Threads along a thread-tiled loop: its (full) block tile over its thread tile."""
    extent = plan.block[loop] or ranges[loop]
    return -(-extent // plan.thread[loop])


def _cyclic_thread_bound(threads: int, extent: _Size, insertion: InsertPoint) -> _Size:
    """The threads that own elements of a block tile of `extent`: `threads`,
    or `min(threads, extent)` for a partial tile (the others get no guarded
    iteration, rather than an empty view past the tile's end)."""
    if isinstance(extent, int):
        return min(threads, extent)
    bound = AffineMap(1, 0, (AffineExpr.constant(threads), AffineExpr.dimension(0)))
    minimum = affine.MinOp([extent], AffineMapAttr(bound))
    minimum.result.name_hint = "threads"
    _insert(minimum, insertion)
    return minimum.result


def _cyclic_tile_size(
    origin: SSAValue, threads: int, extent: _Size, insertion: InsertPoint
) -> _Size:
    """Elements `origin`, `origin + threads`, ... below `extent`: how many.

    `(extent - origin) ceildiv threads` (at least 1, as `origin` < `extent`
    in the forall `_cyclic_thread_bound` gives); a constant when every thread
    gets the same number.
    """
    if threads == 1:
        return extent
    if isinstance(extent, int) and extent % threads == 0:
        return extent // threads
    d0 = AffineExpr.dimension(0)
    if isinstance(extent, int):
        count = AffineMap(1, 0, ((AffineExpr.constant(extent) - d0).ceil_div(threads),))
        operands: list[SSAValue] = [origin]
    else:
        count = AffineMap(1, 1, ((AffineExpr.symbol(0) - d0).ceil_div(threads),))
        operands = [origin, extent]
    apply = affine.ApplyOp(operands, AffineMapAttr(count))
    apply.result.name_hint = "size"
    _insert(apply, insertion)
    return apply.result


def _forall(
    uppers: Sequence[_Size],
    steps: Sequence[int],
    mapping: ArrayAttr,
    hint: str,
) -> tuple[ForallOp, InsertPoint]:
    block = Block(arg_types=[IndexType()] * len(uppers))
    for arg in block.args:
        arg.name_hint = hint
    terminator = InParallelOp()
    block.add_op(terminator)
    forall = ForallOp([0] * len(uppers), uppers, steps, Region(block), (), mapping)
    return forall, InsertPoint.before(terminator)


def _offset_indices(
    body: Block,
    origins: dict[int, list[SSAValue]],
    insertion: InsertPoint,
    steps: dict[int, int] | None = None,
) -> None:
    """Make each `linalg.index` of a tiled loop count from the op's origin again.

    A loop whose innermost tile takes every `steps[loop]`-th element (cyclic
    threads) counts `origin + step * index`.
    """
    totals: dict[int, SSAValue] = {}
    for body_op in list(body.ops):
        if not isinstance(body_op, IndexOp):
            continue
        loop = body_op.dim.value.data
        if not origins.get(loop):
            continue
        if loop not in totals:
            total, *rest = origins[loop]
            for part in rest:
                add = arith.AddiOp(total, part)
                _insert(add, insertion)
                total = add.result
            totals[loop] = total
        step = 1 if steps is None else steps.get(loop, 1)
        at = InsertPoint.after(body_op)
        local: SSAValue = body_op.result
        if step != 1:
            constant = arith.ConstantOp(IntegerAttr(step, IndexType()))
            scaled = arith.MuliOp(local, constant.result)
            Rewriter.insert_op([constant, scaled], at)
            at, local = InsertPoint.after(scaled), scaled.result
        shifted = arith.AddiOp(local, totals[loop])
        Rewriter.insert_op(shifted, at)
        # Every use but the one that starts the new count.
        user = local.owner if step != 1 else shifted
        body_op.result.replace_uses_with_if(
            shifted.result, lambda use: use.operation is not user
        )


def check_plan(
    op: Operation,
    plan: GpuTilingPlan,
    ranges: Sequence[int],
    max_threads_per_block: int = MAX_THREADS_PER_BLOCK,
) -> None:
    """Reject a plan the target cannot launch; errors point at `op`."""
    if len(plan.block_loops) > 3 or len(plan.thread_loops) > 3:
        raise op_error(op, f"{PASS_NAME} maps at most 3 loops to blocks or threads")
    threads = 1
    for loop in plan.thread_loops:
        threads *= _thread_count(plan, ranges, loop)
    if threads > max_threads_per_block:
        raise op_error(
            op,
            f"{PASS_NAME}: the tile sizes give {threads} threads per block, "
            f"more than {max_threads_per_block}",
        )


@dataclass
class _ThreadNest:
    """A thread forall over a block tile, with each loop's thread tile."""

    forall: ForallOp
    insertion: InsertPoint  # inside the forall, before its terminator
    tiles: list[Tile]  # per loop of the tiled op
    steps: list[int]  # per loop: 1, or the threads along it (cyclic)


def _thread_nest(
    plan: GpuTilingPlan,
    ranges: Sequence[int],
    block_tiles: Sequence[Tile],
    insertion: InsertPoint,
) -> _ThreadNest:
    """Insert the thread forall of `plan` over `block_tiles` at `insertion`.

    Cyclic: one forall iteration per thread, each taking every n-th element
    of the block tile (n = the threads on that loop), so that neighbouring
    threads touch neighbouring elements. Built the same way twice, it gives
    each thread the same elements, which is what lets a contraction's
    prologue and epilogue run in its kernel (`_fuse_neighbour`).
    """
    thread_loops = plan.thread_loops
    counts = {loop: _thread_count(plan, ranges, loop) for loop in thread_loops}
    steps = [1] * len(ranges)
    if plan.cyclic:
        for loop in thread_loops:
            steps[loop] = counts[loop]
        uppers = [
            _cyclic_thread_bound(counts[loop], block_tiles[loop].size, insertion)
            for loop in thread_loops
        ]
        thread_steps = [1] * len(thread_loops)
    else:
        uppers = [block_tiles[loop].size for loop in thread_loops]
        thread_steps = [plan.thread[loop] for loop in thread_loops]
    threads, thread_insertion = _forall(
        uppers or [1],
        thread_steps or [1],
        _mapping(ThreadMappingAttr, max(len(thread_loops), 1)),
        "thread",
    )
    _insert(threads, insertion)
    thread_tiles = [Tile(0, tile.size) for tile in block_tiles]
    for loop, origin in zip(thread_loops, threads.body.block.args, strict=False):
        origin.name_hint = f"t{loop}"
        if plan.cyclic:
            size = _cyclic_tile_size(
                origin, counts[loop], block_tiles[loop].size, thread_insertion
            )
        else:
            size = _tile_size(
                origin, plan.thread[loop], block_tiles[loop].size, thread_insertion
            )
        thread_tiles[loop] = Tile(origin, size)
    return _ThreadNest(threads, thread_insertion, thread_tiles, steps)


def _at_least_zero(size: _Size, insertion: InsertPoint) -> _Size:
    """`affine.max(0, size)`: an empty tile rather than a negative one."""
    if isinstance(size, int):
        return max(size, 0)
    bound = AffineMap(1, 0, (AffineExpr.constant(0), AffineExpr.dimension(0)))
    maximum = affine.MaxOp([size], AffineMapAttr(bound))
    maximum.result.name_hint = "size"
    _insert(maximum, insertion)
    return maximum.result


def _clamped_size(
    origin: SSAValue, tile_size: int, extent: int, insertion: InsertPoint
) -> SSAValue:
    """`affine.min(tile_size, extent - origin)`, whatever divides what."""
    d0 = AffineExpr.dimension(0)
    bound = AffineMap(
        1, 0, (AffineExpr.constant(tile_size), AffineExpr.constant(extent) - d0)
    )
    minimum = affine.MinOp([origin], AffineMapAttr(bound))
    minimum.result.name_hint = "size"
    _insert(minimum, insertion)
    return minimum.result


def _at_most(offset: SSAValue, bound: int, insertion: InsertPoint) -> SSAValue:
    """`affine.min(offset, bound)`."""
    map_ = AffineMap(1, 0, (AffineExpr.dimension(0), AffineExpr.constant(bound)))
    minimum = affine.MinOp([offset], AffineMapAttr(map_))
    minimum.result.name_hint = "offset"
    _insert(minimum, insertion)
    return minimum.result


def _fuse_neighbour(
    neighbour: GenericOp,
    output_loops: Sequence[int],
    plan: GpuTilingPlan,
    ranges: Sequence[int],
    block_tiles: Sequence[Tile],
    insertion: InsertPoint,
) -> None:
    """Run `neighbour` (a contraction's prologue or epilogue, over its output
    space: loop `l` is the contraction's loop `output_loops[l]`) in a thread
    nest of the contraction's plan at `insertion`, the grid's body: each
    thread takes the output elements it owns in the contraction.

    An epilogue over the leading corner of a padded product spans less than
    the contraction: its block tiles are clamped to its extents, so the
    threads keep their elements and skip the padding; a block wholly in the
    padding (smaller tiles than the padding's multiple, from
    `fill_the_grid`: a convolution's 784 pixels padded to 896 in blocks of
    64) gets an empty tile, `max(0, ...)`, and no epilogue iteration."""
    extents = static_loop_ranges(neighbour, StructuredComputation.of(neighbour))
    block_tiles = list(block_tiles)
    for position, loop in enumerate(output_loops):
        if extents[position] == ranges[loop]:
            continue
        tile = block_tiles[loop]
        if isinstance(tile.offset, int):  # one block spans the loop
            block_tiles[loop] = Tile(0, extents[position])
        else:
            offset: _Size = tile.offset
            if ranges[loop] - extents[position] >= plan.block[loop]:
                # Blocks past the corner: an empty tile at its last element,
                # not a view starting outside the buffer (even where the
                # block divides the corner: 16 pixels of 24 in blocks of 8).
                size = _at_least_zero(
                    _clamped_size(
                        tile.offset, plan.block[loop], extents[position], insertion
                    ),
                    insertion,
                )
                offset = _at_most(tile.offset, extents[position] - 1, insertion)
            else:
                size = _tile_size(
                    tile.offset, plan.block[loop], extents[position], insertion
                )
            block_tiles[loop] = Tile(offset, size)
    to_neighbour = AffineMap(
        len(ranges), 0, tuple(AffineExpr.dimension(loop) for loop in output_loops)
    )
    # The neighbour's maps, over the contraction's loops.
    lifted = [attr.data.compose(to_neighbour) for attr in neighbour.indexing_maps]
    block_views = [
        box_subview(operand, map_, block_tiles, insertion)
        for operand, map_ in zip(neighbour.operands, lifted, strict=True)
    ]
    nest = _thread_nest(plan, ranges, block_tiles, insertion)
    thread_operands = [
        box_subview(view, map_, nest.tiles, nest.insertion, nest.steps)
        for view, map_ in zip(block_views, lifted, strict=True)
    ]
    tiled = neighbour.clone()
    tiled.operands = thread_operands
    _insert(tiled, nest.insertion)
    origins: dict[int, list[SSAValue]] = {}
    for position, loop in enumerate(output_loops):
        origins[position] = [
            tile.offset
            for tile in (block_tiles[loop], nest.tiles[loop])
            if isinstance(tile.offset, SSAValue)
        ]
    _offset_indices(
        tiled.body.block,
        origins,
        InsertPoint.before(tiled),
        {position: nest.steps[loop] for position, loop in enumerate(output_loops)},
    )


def _staging_shape(
    plan: GpuTilingPlan, ranges: Sequence[int], operand_map: AffineMap
) -> list[int]:
    """The static bound of an operand's tiles in one K step: per result (a
    plain loop), its block tile, its K step or its whole range."""
    shape: list[int] = []
    for expr in operand_map.results:
        assert isinstance(expr, AffineDimExpr)
        loop = expr.position
        shape.append(plan.block[loop] or plan.sequential[loop] or ranges[loop])
    return shape


def staged_producers(
    generic: GenericOp,
    computation: StructuredComputation,
    ranges: Sequence[int],
    plan: GpuTilingPlan,
    max_shared_bytes: int,
) -> dict[int, StagedProducer]:
    """The producers (`fusable_staged_producers`) of a block- and
    thread-tiled contraction's inputs whose tiles fit in `max_shared_bytes`
    together, in input order."""
    if not (plan.block_loops and plan.thread_loops):
        return {}
    chosen: dict[int, StagedProducer] = {}
    used = 0
    for position, producer in fusable_staged_producers(generic).items():
        operand_type = computation.operands[position].type
        assert isinstance(operand_type, MemRefType)
        shape = _staging_shape(plan, ranges, computation.indexing_maps[position])
        element = element_bytes(operand_type.get_element_type())
        size = prod(shape) * (element or max_shared_bytes + 1)
        if used + size <= max_shared_bytes:
            used += size
            chosen[position] = producer
    return chosen


def _over_expanded_space(
    producer: GenericOp, reshape: memref.ExpandShapeOp
) -> GenericOp:
    """`producer` (without inputs) over the space of `reshape`, an
    `expand_shape` of its output: each `linalg.index d` becomes the
    linearisation of the indices of the group that expands dimension `d`
    (`[[0, 1], [2]]` into 4x144x3200: `index 0 * 144 + index 1`, `index 2`).
    The op is detached, its output `reshape`'s result; erase it after use."""
    groups = reassociation_groups(reshape.reassociation)
    result_type = reshape.result.type
    assert isinstance(result_type, MemRefType)
    shape = result_type.get_shape()
    body = producer.body.clone()
    block = body.block
    for index in [op for op in block.ops if isinstance(op, IndexOp)]:
        group = groups[index.dim.value.data]
        insertion = InsertPoint.before(index)
        total: SSAValue | None = None
        for dim in group:
            expanded = IndexOp(dim)
            _insert(expanded, insertion)
            value: SSAValue = expanded.result
            if total is not None:
                scaled = arith.MuliOp(total, _constant(shape[dim], insertion))
                _insert(scaled, insertion)
                added = arith.AddiOp(scaled.result, value)
                _insert(added, insertion)
                value = added.result
            total = value
        assert total is not None
        index.result.replace_all_uses_with(total)
        Rewriter.erase_op(index)
    rank = len(shape)
    return GenericOp(
        [],
        [reshape.result],
        body,
        ArrayAttr([AffineMapAttr(AffineMap.identity(rank))]),
        ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * rank),
    )


def _staging_buffers(
    staged: dict[int, StagedProducer],
    computation: StructuredComputation,
    plan: GpuTilingPlan,
    ranges: Sequence[int],
    insertion: InsertPoint,
) -> dict[int, SSAValue]:
    """Per staged input, a workgroup buffer of its K step's tile bound,
    allocated at `insertion` (the grid's body, before the K loop)."""
    workgroup: dict[int, SSAValue] = {}
    for position in staged:
        operand_type = computation.operands[position].type
        assert isinstance(operand_type, MemRefType)
        shape = _staging_shape(plan, ranges, computation.indexing_maps[position])
        alloc = memref.AllocOp.get(
            operand_type.get_element_type(),
            shape=shape,
            memory_space=workgroup_memory_space(),
        )
        alloc.memref.name_hint = "staged"
        _insert(alloc, insertion)
        workgroup[position] = alloc.memref
    return workgroup


def _erase_staged(found: StagedProducer) -> None:
    """Erase a staged producer, the reshape through which the contraction
    read its buffer, the buffer and its deallocations: read by nothing now."""
    Rewriter.erase_op(found.producer)
    if found.reshape is not None:
        Rewriter.erase_op(found.reshape)
    for use in list(found.buffer.uses):
        assert use.operation.name == "memref.dealloc"
        Rewriter.erase_op(use.operation)
    assert isinstance(found.buffer.owner, Operation)
    Rewriter.erase_op(found.buffer.owner)


def _stage_producer(
    found: StagedProducer,
    buffer: SSAValue,
    operand_map: AffineMap,
    block_tiles: Sequence[Tile],
    threads: tuple[int, int],
    insertion: InsertPoint,
) -> SSAValue:
    """Run `producer` over one K step's tile of the operand it writes (the
    tile `operand_map` reads at `block_tiles`), into the workgroup `buffer`,
    on the contraction's threads; return the view of `buffer` the
    contraction reads instead of the tile.

    The block's threads share the tile as a block-level op does
    (`plan_block_level` over `threads`, the contraction's (y, x)): its
    innermost loop cyclic over the threads x, so neighbouring threads
    compute neighbouring elements (an im2col gather: neighbouring output
    pixels, neighbouring input columns at stride 1). Each `linalg.index`
    counts from the tile's origin in the whole operand again. A producer
    the contraction reads through a reshape runs over the reshaped space
    (`_over_expanded_space`)."""
    producer = found.producer
    if found.reshape is not None:
        producer = _over_expanded_space(producer, found.reshape)
    loops = [
        expr.position for expr in operand_map.results if isinstance(expr, AffineDimExpr)
    ]
    assert len(loops) == len(operand_map.results)
    tiles = [block_tiles[loop] for loop in loops]
    sizes = [tile.size for tile in tiles]
    buffer_type = buffer.type
    assert isinstance(buffer_type, MemRefType)
    shape = list(buffer_type.get_shape())
    rank = len(shape)
    view = buffer
    if sizes != shape:  # a partial tile: its leading corner
        view = strided_view(buffer, [0] * rank, sizes, [1] * rank, insertion)
    computation = StructuredComputation.of(producer)
    maps = computation.indexing_maps
    block_inputs = [
        box_subview(value, map_, tiles, insertion)
        for value, map_ in zip(producer.inputs, maps, strict=False)
    ]
    plan = plan_block_level(computation, shape, threads)
    nest = _thread_nest(plan, shape, [Tile(0, size) for size in sizes], insertion)
    operands = [
        box_subview(value, map_, nest.tiles, nest.insertion, nest.steps)
        for value, map_ in zip(block_inputs, maps, strict=False)
    ]
    operands.append(box_subview(view, maps[-1], nest.tiles, nest.insertion, nest.steps))
    tiled = producer.clone()
    tiled.operands = operands
    _insert(tiled, nest.insertion)
    origins = {
        loop: [
            tile.offset
            for tile in (tiles[loop], nest.tiles[loop])
            if isinstance(tile.offset, SSAValue)
        ]
        for loop in range(rank)
    }
    _offset_indices(
        tiled.body.block,
        origins,
        InsertPoint.before(tiled),
        dict(enumerate(nest.steps)),
    )
    if producer is not found.producer:
        producer.erase()
    return view


def _contraction_threads(plan: GpuTilingPlan, ranges: Sequence[int]) -> tuple[int, int]:
    """The (y, x) threads of a contraction's thread forall."""
    counts = [_thread_count(plan, ranges, loop) for loop in plan.thread_loops]
    counts = [1, 1, *counts][-2:]
    return counts[0], counts[1]


def tile_generic_for_gpu(
    generic: GenericOp,
    computation: StructuredComputation,
    ranges: Sequence[int],
    plan: GpuTilingPlan,
    prologue: GenericOp | None = None,
    epilogue: GenericOp | None = None,
    staged: dict[int, StagedProducer] | None = None,
) -> ForallOp:
    """Replace `generic` by the block/thread forall nest of `plan`; return its root.

    A contraction's `prologue` and `epilogue` (`irkit.analysis.
    contraction_fusion`) run in the same grid, before and after its
    reduction loop, in thread nests like its own; both are erased. Each
    `staged` producer (by input position, `staged_producers`) runs in each
    K step into a workgroup buffer the contraction reads instead of that
    input (`_stage_producer`); it, its buffer and the buffer's deallocation
    are erased.
    """
    check_plan(generic, plan, ranges)
    staged = staged or {}
    for found in staged.values():
        # What the producer reads is freed after the contraction now.
        for free in found.frees:
            free.detach()
            Rewriter.insert_op(free, InsertPoint.after(generic))
    host = InsertPoint.before(generic)
    block_loops = plan.block_loops
    grid, insertion = _forall(
        [ranges[loop] for loop in block_loops] or [1],
        [plan.block[loop] for loop in block_loops] or [1],
        _mapping(BlockMappingAttr, max(len(block_loops), 1)),
        "block",
    )
    grid_insertion = insertion
    block_tiles = [Tile(0, loop_range) for loop_range in ranges]
    origins: dict[int, list[SSAValue]] = {}
    for loop, origin in zip(block_loops, grid.body.block.args, strict=False):
        origin.name_hint = f"b{loop}"
        size = _tile_size(origin, plan.block[loop], ranges[loop], insertion)
        block_tiles[loop] = Tile(origin, size)
        origins[loop] = [origin]
    # The neighbours' loops: the contraction's output loops (`fusable_*`
    # only accept a contraction whose output reads bare loops).
    output_loops = output_loops_of(generic)
    if prologue is not None:
        assert output_loops is not None
        _fuse_neighbour(prologue, output_loops, plan, ranges, block_tiles, insertion)
    workgroup = _staging_buffers(staged, computation, plan, ranges, insertion)
    for loop in plan.sequential_loops:
        body = Block(arg_types=[IndexType()])
        origin = body.args[0]
        origin.name_hint = f"k{loop}"
        yield_op = ScfYieldOp()
        body.add_op(yield_op)
        step = _constant(plan.sequential[loop], host)
        for_op = ForOp(
            _constant(0, host), _constant(ranges[loop], host), step, [], Region(body)
        )
        _insert(for_op, insertion)
        insertion = InsertPoint.before(yield_op)
        size = _tile_size(origin, plan.sequential[loop], ranges[loop], insertion)
        block_tiles[loop] = Tile(origin, size)
        origins[loop] = [origin]
    threads = _contraction_threads(plan, ranges)
    staged_views = {
        position: _stage_producer(
            found,
            workgroup[position],
            computation.indexing_maps[position],
            block_tiles,
            threads,
            insertion,
        )
        for position, found in staged.items()
    }
    block_operands = [
        staged_views[position]
        if position in staged_views
        else box_subview(operand, indexing_map, block_tiles, insertion)
        for position, (operand, indexing_map) in enumerate(
            zip(computation.operands, computation.indexing_maps, strict=True)
        )
    ]
    nest = _thread_nest(plan, ranges, block_tiles, insertion)
    for loop, origin in zip(
        plan.thread_loops, nest.forall.body.block.args, strict=False
    ):
        origins.setdefault(loop, []).append(origin)
    thread_operands = [
        box_subview(operand, indexing_map, nest.tiles, nest.insertion, nest.steps)
        for operand, indexing_map in zip(
            block_operands, computation.indexing_maps, strict=True
        )
    ]
    tiled = generic.clone()
    tiled.operands = thread_operands
    _insert(tiled, nest.insertion)
    _offset_indices(
        tiled.body.block,
        origins,
        InsertPoint.before(tiled),
        dict(enumerate(nest.steps)),
    )
    for buffer in workgroup.values():
        _insert(memref.DeallocOp.get(buffer), grid_insertion)
    if epilogue is not None:
        assert output_loops is not None
        # The epilogue's block tiles are the output's: the reduction loops'
        # tiles (the K loop's) do not index it.
        _fuse_neighbour(
            epilogue, output_loops, plan, ranges, block_tiles, grid_insertion
        )
    Rewriter.insert_op(grid, host)
    Rewriter.erase_op(generic)
    for neighbour in (prologue, epilogue):
        if neighbour is not None:
            Rewriter.erase_op(neighbour)
    for found in staged.values():
        _erase_staged(found)
    return grid


# --------------------------------------------------------------------------
# Entry points: host copies become linalg, then every linalg op is tiled
# --------------------------------------------------------------------------


def copy_as_generic(copy: memref.CopyOp) -> list[Operation]:
    """`memref.copy %a, %b` as the identity `linalg.generic` that does the
    same (after a reshape of `%b` it needs).

    A copy out of a `memref.expand_shape` into a buffer of identity layout
    (a padded product's corner, reshaped into the function's output, as
    `linalg-conv-to-im2col` leaves a convolution's) copies the expansion's
    source into the destination collapsed the same way: the same elements,
    one loop per dimension of the source, which reads the padded product's
    corner as itself, so the copy can be its epilogue
    (`fusable_epilogue`)."""
    source, destination = copy.source, copy.destination
    expand = source.owner
    reshapes: list[Operation] = []
    destination_type = destination.type
    if (
        isinstance(expand, memref.ExpandShapeOp)
        and isinstance(destination_type, MemRefType)
        and isinstance(destination_type.layout, NoneAttr)
        and all(size >= 0 for size in destination_type.get_shape())
    ):
        expand_source_type = cast(MemRefType[Attribute], expand.src.type)
        collapse = memref.CollapseShapeOp.build(
            operands=[destination],
            result_types=[
                MemRefType(
                    destination_type.element_type,
                    expand_source_type.get_shape(),
                    memory_space=destination_type.memory_space,
                )
            ],
            properties={"reassociation": expand.reassociation},
        )
        reshapes.append(collapse)
        source, destination = expand.src, collapse.results[0]
    generic = identity_copy(source, destination)
    generic.location = copy.location
    return [*reshapes, generic]


@dataclass(frozen=True)
class _CheckedOp:
    """A linalg op in its generic form, with the plan that tiles it."""

    generic: GenericOp
    computation: StructuredComputation
    ranges: Sequence[int]
    plan: GpuTilingPlan


def _checked(
    op: Operation, options: GpuTilingOptions, block_level: bool = False
) -> _CheckedOp:
    """`op` in its generic form, in its place, once its tiling is known to be
    possible: errors name the op as the user wrote it (`linalg.matmul`). The
    generic forms come first so that a named fill can be a prologue.
    `block_level`: a block runs `op` (`plan_block_level`)."""
    require_buffers(op, PASS_NAME)
    generic = op if isinstance(op, GenericOp) else generalize_named_op(op)
    computation = StructuredComputation.of(generic)
    ranges = static_loop_ranges(op, computation)
    if block_level:
        default = (
            max(1, options.elementwise_block // BLOCK_LEVEL_X_THREADS),
            BLOCK_LEVEL_X_THREADS,
        )
        plan = plan_block_level(computation, ranges, block_threads(op) or default)
    else:
        plan = plan_tiling(generic, computation, ranges, options)
    check_plan(op, plan, ranges, options.max_threads_per_block)
    if generic is not op:
        Rewriter.replace_op(op, generic)
    return _CheckedOp(generic, computation, ranges, plan)


def tile_linalg_op_for_gpu(op: Operation, options: GpuTilingOptions) -> ForallOp:
    """Tile one linalg op on memrefs (a named op through its generic form).

    With `options.fuse_neighbours`, a contraction's prologue and epilogue
    (`irkit.analysis.contraction_fusion`) are tiled into its grid and erased;
    the allocations, views and constants between it and its epilogue move
    before it.
    """
    checked = _checked(op, options)
    return _tile_checked(checked, options, _staged_producers_of(checked, options))


def _staged_producers_of(
    checked: _CheckedOp, options: GpuTilingOptions
) -> dict[int, StagedProducer]:
    """`staged_producers` of a checked contraction, if the options fuse them."""
    if not (options.fuse_producers and is_contraction(checked.generic)):
        return {}
    return staged_producers(
        checked.generic,
        checked.computation,
        checked.ranges,
        checked.plan,
        options.max_shared_bytes,
    )


def _tile_checked(
    checked: _CheckedOp, options: GpuTilingOptions, staged: dict[int, StagedProducer]
) -> ForallOp:
    generic, computation = checked.generic, checked.computation
    ranges, plan = checked.ranges, checked.plan
    prologue = epilogue = None
    if options.fuse_neighbours:
        prologue = fusable_prologue(generic)
        epilogue = fusable_epilogue(generic)
    if epilogue is not None:
        hoist_to_contraction(generic, epilogue)
    return tile_generic_for_gpu(
        generic,
        computation,
        ranges,
        plan,
        prologue=prologue,
        epilogue=epilogue,
        staged=staged,
    )


def _check_options(options: GpuTilingOptions) -> None:
    sizes = (*options.matmul_block, *options.matmul_thread, options.elementwise_block)
    if any(size <= 0 for size in sizes):
        raise PassFailedException(f"{PASS_NAME}: tile sizes must be positive")
    gather = (*options.gather_block, *options.gather_thread)
    if any(size < 0 for size in gather) or (any(gather) and not all(gather)):
        raise PassFailedException(
            f"{PASS_NAME}: gather-block and gather-thread are all positive, or "
            "all 0 (the matmul tiles)"
        )
    if options.multiprocessors < 0:
        raise PassFailedException(
            f"{PASS_NAME}: multiprocessors must be 0 (off) or positive, "
            f"not {options.multiprocessors}"
        )


def _tile_block_level_ops(
    block_level: Sequence[_CheckedOp], options: GpuTilingOptions
) -> None:
    """Tile block-level ops; a reduction's fill runs in its thread forall,
    each thread initialising the output elements it then accumulates."""
    prologues: dict[Operation, GenericOp] = {}
    if options.fuse_neighbours:
        for checked in block_level:
            prologue = fusable_prologue(checked.generic)
            if (
                prologue is not None
                and is_block_level(prologue)
                and not any(isinstance(o, IndexOp) for o in prologue.body.walk())
            ):
                prologues[checked.generic] = prologue
    initialisers = set(prologues.values())
    for checked in block_level:
        if checked.generic not in initialisers:
            tile_block_level(checked, prologues.get(checked.generic))


def _delinearizes(view: SSAValue) -> bool:
    """Whether `view` is a `memref.collapse_shape` merging some dimensions:
    an access to it becomes one to its source at `floordiv`/`mod` indices
    (`fold-memref-alias-ops`), which no thread tile in registers can take
    (`gpu-promote-accumulators` needs `base + stride * iv`)."""
    collapse = view.owner
    return isinstance(collapse, memref.CollapseShapeOp) and any(
        len(group) > 1 for group in reassociation_groups(collapse.reassociation)
    )


def accumulate_apart_from_merged_views(
    generic: GenericOp,
) -> tuple[GenericOp, GenericOp] | None:
    """Give a contraction that accumulates into a view merging dimensions of
    a buffer (`bufferize` places a product in the function's output so: a
    convolution's `N x F x P` product in its `N x F x OH x OW` result) a
    buffer of its own: its prologue fills it, it accumulates into it, and an
    identity copy after it writes the view (the contraction's epilogue,
    `fusable_epilogue`; the buffer is freed after it). The thread tiles
    then accumulate in registers (`gpu-promote-accumulators`) and write the
    view once, not on every K step. Only where a prologue initialises the
    whole output (`fusable_prologue`): otherwise the old values would have
    to be copied in. Returns the prologue and the copy, or None when nothing
    was rewritten."""
    if len(generic.outputs) != 1 or not is_contraction(generic):
        return None
    (view,) = generic.outputs
    view_type = view.type
    prologue = fusable_prologue(generic)
    if (
        prologue is None
        or not _delinearizes(view)
        or not isinstance(view_type, MemRefType)
        or any(size < 0 for size in view_type.get_shape())
    ):
        return None
    view_type = cast(MemRefType[Attribute], view_type)
    scratch = memref.AllocOp.get(view_type.element_type, shape=view_type.get_shape())
    Rewriter.insert_op(scratch, InsertPoint.before(prologue))
    for writer in (prologue, generic):
        operands = list(writer.operands)
        operands[len(writer.inputs)] = scratch.memref  # its one output
        writer.operands = operands
    epilogue = identity_copy(scratch.memref, view)
    epilogue.location = generic.location
    Rewriter.insert_op(
        [epilogue, memref.DeallocOp.get(scratch.memref)], InsertPoint.after(generic)
    )
    return prologue, epilogue


def _accumulated_apart(
    targets: list[_CheckedOp], options: GpuTilingOptions
) -> list[_CheckedOp]:
    """`targets` after `accumulate_apart_from_merged_views` on each
    contraction (every target is generic by now, fills included:
    `_checked`): the ops whose output moved checked again, the copies
    added."""
    moved: set[Operation] = set()
    copies: list[_CheckedOp] = []
    for target in targets:
        rewritten = accumulate_apart_from_merged_views(target.generic)
        if rewritten is not None:
            prologue, copy = rewritten
            moved |= {target.generic, prologue}
            copies.append(_checked(copy, options))
    checked = [
        _checked(target.generic, options) if target.generic in moved else target
        for target in targets
    ]
    return checked + copies


def _host_copies_as_generics(module: ModuleOp) -> None:
    """Every `memref.copy` outside GPU loops as a `linalg.generic`
    (`copy_as_generic`); an `expand_shape` it leaves unused is erased."""
    for copy in [op for op in module.walk() if isinstance(op, memref.CopyOp)]:
        if not in_gpu_loops(copy):
            expand = copy.source.owner
            Rewriter.replace_op(copy, copy_as_generic(copy))
            if isinstance(expand, memref.ExpandShapeOp) and not expand.result.uses:
                Rewriter.erase_op(expand)


def tile_for_gpu(module: ModuleOp, options: GpuTilingOptions) -> None:
    """Turn host copies into linalg, then tile every linalg op of `module`."""
    _check_options(options)
    _host_copies_as_generics(module)
    targets: list[_CheckedOp] = []
    block_level: list[_CheckedOp] = []
    for op in list(module.walk()):
        if not (is_named_linalg_op(op) or isinstance(op, GenericOp)):
            continue
        if is_block_level(op):
            block_level.append(_checked(op, options, block_level=True))
        elif not in_gpu_loops(op):
            targets.append(_checked(op, options))
    if options.fuse_neighbours:
        targets = _accumulated_apart(targets, options)
    _tile_block_level_ops(block_level, options)
    # A contraction's prologue and staged producers come before it: leave
    # them for the contraction. Which producers are staged is decided on the
    # untiled program (tiling the ops between a producer and its
    # contraction changes nothing they read or write).
    before: set[Operation] = set()
    # An op that is both a contraction's epilogue and another's staged
    # producer (bias and ReLU between two linear layers) stays the
    # epilogue: the product it reads is then never written.
    epilogues: set[Operation] = set()
    if options.fuse_neighbours:
        for target in targets:
            epilogue = fusable_epilogue(target.generic)
            if epilogue is not None:
                epilogues.add(epilogue)
    staged = {
        id(target): {
            position: found
            for position, found in _staged_producers_of(target, options).items()
            if found.producer not in epilogues
        }
        for target in targets
    }
    for target in targets:
        before.update(found.producer for found in staged[id(target)].values())
        if options.fuse_neighbours:
            prologue = fusable_prologue(target.generic)
            if prologue is not None:
                before.add(prologue)
    ordered = [t for t in targets if t.generic not in before]
    ordered += [t for t in targets if t.generic in before]
    for target in ordered:
        if target.generic.parent is None:
            continue  # fused into a contraction tiled before it, and erased
        _tile_checked(target, options, staged[id(target)])


@dataclass(frozen=True)
class LinalgTileForGpuPass(ModulePass):
    """Tile linalg on memrefs into block- and thread-mapped `scf.forall`s."""

    name = PASS_NAME

    matmul_block: tuple[int, ...] = GpuTilingOptions.matmul_block
    matmul_thread: tuple[int, ...] = GpuTilingOptions.matmul_thread
    elementwise_block: int = GpuTilingOptions.elementwise_block
    matmul_cyclic: bool = GpuTilingOptions.matmul_cyclic
    max_threads_per_block: int = GpuTilingOptions.max_threads_per_block
    multiprocessors: int = GpuTilingOptions.multiprocessors
    fuse_neighbours: bool = GpuTilingOptions.fuse_neighbours
    fuse_producers: bool = GpuTilingOptions.fuse_producers
    max_shared_bytes: int = GpuTilingOptions.max_shared_bytes
    gather_block: tuple[int, ...] = GpuTilingOptions.gather_block
    gather_thread: tuple[int, ...] = GpuTilingOptions.gather_thread

    def options(self) -> GpuTilingOptions:
        if len(self.matmul_block) != 3 or len(self.matmul_thread) != 2:
            raise PassFailedException(
                f"{PASS_NAME}: matmul-block takes 3 sizes (BM, BN, BK) and "
                "matmul-thread 2 (TM, TN)"
            )
        if len(self.gather_block) != 3 or len(self.gather_thread) != 2:
            raise PassFailedException(
                f"{PASS_NAME}: gather-block takes 3 sizes (BM, BN, BK) and "
                "gather-thread 2 (TM, TN)"
            )
        gather_m, gather_n, gather_k = self.gather_block
        gather_tm, gather_tn = self.gather_thread
        block_m, block_n, block_k = self.matmul_block
        thread_m, thread_n = self.matmul_thread
        return GpuTilingOptions(
            (block_m, block_n, block_k),
            (thread_m, thread_n),
            self.elementwise_block,
            self.matmul_cyclic,
            self.max_threads_per_block,
            self.multiprocessors,
            self.fuse_neighbours,
            self.fuse_producers,
            self.max_shared_bytes,
            (gather_m, gather_n, gather_k),
            (gather_tm, gather_tn),
        )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_for_gpu(op, self.options())
