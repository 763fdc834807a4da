"""`linalg-tile-rows-for-gpu`: row reductions and their neighbours, a block per row.

`linalg-tile-for-gpu` gives a reduction one thread per output element, so a
row softmax reads each row from one thread (uncoalesced) and runs as six
kernels with its intermediates in global memory. This pass tiles a *row
group* instead, as one kernel: consecutive `linalg.generic`s on memrefs
whose first loop walks the same rows and which touch, for row `r`, only row
`r` of what they write (a softmax, a layer_norm, a reduction with its fill and
its elementwise neighbours). It is MLIR's reduction strategy for GPUs
(`tileReductionUsingForall` and a workgroup tree, as IREE's warp-reduction
pipeline does) applied to a fused group:

```mlir
scf.forall (%r) in (32768) {                        // a block per row
  %e = memref.alloc() : memref<1x4096xf32, #gpu.address_space<workgroup>>
  %partial = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
  scf.forall (%t) in (256) {                        // a row's partial max
    memref.store %neg_inf, %partial[%t]
    %x_t = memref.subview %x_row[0, %t] [1, 16] [1, 256]  // every 256th element
    linalg.generic ... ins(%x_t) outs(%partial_t)   // the op's own body
  } {mapping = [#gpu.thread<x>]}
  scf.forall (%t) in (128) { partial[t] = max(partial[t], partial[t + 128]) }
  ...                                               // down to one value
  scf.forall (%t) in (1) { m[0] = max(m[0], partial[0]) }
  scf.forall (%t) in (256) { exp(x - m) into %e, strided as above }
  ...
} {mapping = [#gpu.block<x>]}
```

- Elementwise ops of the group spread their innermost loop over the block's
  threads cyclically (thread `t` takes elements `t, t + T, ...`: neighbouring
  threads touch neighbouring elements); an op with only the row loop runs in
  thread 0.
- A reduction (every loop but the row loop reduces, into one element per
  row, combined by `arith.addf/mulf/maximumf/minimumf/maxnumf/minnumf` or
  `arith.addi/muli/maxsi/minsi/andi/ori/xori` with the output's value) starts
  each thread's partial at the combiner's identity, reduces the thread's
  elements with the op's own body, combines the partials pairwise in
  workgroup memory (T a power of two) and finally combines the result with
  the output's initial value.
- A buffer allocated before the group and used only by the group's ops (and
  its dealloc) is private to its row: it becomes a workgroup buffer of one
  row (`memref<1x...>`) while the block's buffers fit in `max-shared-bytes`,
  so a softmax's `exp(x - max)` never goes to global memory.

Contract
--------
Input: linalg on memrefs with static shapes (after `bufferize`), before
`linalg-tile-for-gpu` (which leaves ops in mapped foralls alone). A group is
a maximal run of such generics in one block, with only `arith.constant`,
`memref.alloc` and `memref.dealloc` between them (moved before / after the
kernel), all with the same row count, where every operand either indexes
dimension 0 by loop 0 alone and no other dimension by it (a row operand), or
does not use loop 0 (read only, never written by the group), every operand's
root is an allocation or a function argument, and the group holds at least
one reduction. Ops with `linalg.index`, or whose innermost loop appears in a
compound index, end a group (`irkit.analysis.row_groups` finds the groups;
`linalg-tile-rows` runs the same groups on the CPU). Other ops are left
alone.

Output: one `scf.forall` over the rows mapped to `#gpu.block<x>`, holding
per op the thread-mapped (`#gpu.thread<x>`) foralls above, for
`convert-parallel-loops-to-gpu`, which adds the barriers between them.

Preserves: every value up to the reassociation of the reductions (partials
combined in a tree: results agree within floating-point tolerance, exactly
for integers and for max/min). `reduction-block` must be a power of two in
1..1024, or 0: per group, the power of two that gives each thread about 8
elements of its longest row (32 to 1024 threads; 512 for rows of 4096, the
fastest for softmax and layer_norm on the H100). `max-shared-bytes` must be
non-negative, or the pass fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import (
    Attribute,
    Block,
    Region,
    SSAValue,
)
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.memory import DEFAULT_MAX_SHARED_BYTES
from irkit.analysis.row_groups import (
    RowGroup,
    RowOp,
    RowReduction,
    is_row_operand,
    private_buffers,
    row_groups,
)
from irkit.dialects import affine, memref
from irkit.dialects.gpu import (
    BlockMappingAttr,
    DimensionEnum,
    ThreadMappingAttr,
)
from irkit.dialects.scf import REDUCTION_STEP_ATTRIBUTE, ForallOp, InParallelOp
from irkit.transforms.utils.builders import (
    index_constant,
    strided_view,
    workgroup_alloc,
)
from irkit.transforms.utils.row_groups import finish_group, hoist_movable

PASS_NAME = "linalg-tile-rows-for-gpu"

# `reduction-block=0`: about this many elements of a row per thread.
ELEMENTS_PER_THREAD = 8


# --------------------------------------------------------------------------
# Building the kernel
# --------------------------------------------------------------------------


def _forall(count: int, mapping: Attribute, hint: str) -> tuple[ForallOp, InsertPoint]:
    block = Block(arg_types=[IndexType()])
    block.args[0].name_hint = hint
    terminator = InParallelOp()
    block.add_op(terminator)
    forall = ForallOp([0], [count], [1], Region(block), (), ArrayAttr([mapping]))
    return forall, InsertPoint.before(terminator)


def _thread_share(
    extent: int, threads: int, thread: SSAValue, at: InsertPoint
) -> int | SSAValue:
    """How many of `extent` elements thread `thread` takes, cyclically."""
    if extent % threads == 0:
        return extent // threads
    d0 = AffineExpr.dimension(0)
    share = AffineMap(
        1, 0, ((AffineExpr.constant(extent + threads - 1) - d0) // threads,)
    )
    apply = affine.ApplyOp([thread], AffineMapAttr(share))
    apply.result.name_hint = "share"
    Rewriter.insert_op(apply, at)
    return apply.result


def _zeros(partial: SSAValue, at: InsertPoint) -> list[SSAValue]:
    """Index 0 for each unit dimension after the first of `partial`."""
    partial_type = partial.type
    assert isinstance(partial_type, MemRefType)
    return [index_constant(0, at) for _ in range(partial_type.get_num_dims() - 1)]


def _thread_start(
    extent: int, threads: int, thread: SSAValue, at: InsertPoint
) -> SSAValue:
    """Where thread `thread`'s elements start: the thread itself, kept inside
    the dimension for threads that get none (a view must stay in its buffer)."""
    if threads <= extent:
        return thread
    last = AffineMap(1, 0, (AffineExpr.dimension(0), AffineExpr.constant(extent - 1)))
    minimum = affine.MinOp([thread], AffineMapAttr(last))
    minimum.result.name_hint = "start"
    Rewriter.insert_op(minimum, at)
    return minimum.result


class _KernelBuilder:
    def __init__(self, group: RowGroup, threads: int, max_shared_bytes: int) -> None:
        self.group = group
        self.threads = threads
        first = group.ops[0].op
        hoist_movable(group)
        self.private = self._private_buffers(max_shared_bytes)
        self.grid, self.body = _forall(
            group.rows, BlockMappingAttr(DimensionEnum("x")), "row"
        )
        Rewriter.insert_op(self.grid, InsertPoint.before(first))
        self.row = self.grid.body.block.args[0]
        self.views: dict[SSAValue, SSAValue] = {}
        self.workgroup: list[SSAValue] = []
        for buffer in self.private:
            buffer_type = buffer.type
            assert isinstance(buffer_type, MemRefType)
            shape = [1, *buffer_type.get_shape()[1:]]
            self.views[buffer] = self._alloc(
                buffer_type.get_element_type(), shape, "row"
            )

    def _private_buffers(self, max_shared_bytes: int) -> list[SSAValue]:
        partials = sum(
            self.threads * 8 for row_op in self.group.ops if row_op.reduction
        )
        return private_buffers(self.group, max_shared_bytes - partials)

    def _alloc(
        self, element_type: Attribute, shape: Sequence[int], hint: str
    ) -> SSAValue:
        buffer = workgroup_alloc(element_type, shape, hint, self.body)
        self.workgroup.append(buffer)
        return buffer

    def row_view(self, operand: SSAValue, indexing_map: AffineMap) -> SSAValue:
        """What one row's block sees of `operand`."""
        if not isinstance(operand.type, MemRefType) or not is_row_operand(indexing_map):
            return operand
        if operand in self.views:
            return self.views[operand]
        shape = operand.type.get_shape()
        view = strided_view(
            operand,
            [self.row, *[0] * (len(shape) - 1)],
            [1, *shape[1:]],
            [1] * len(shape),
            self.body,
        )
        view.name_hint = "row"
        self.views[operand] = view
        return view

    def thread_views(
        self,
        row_op: RowOp,
        views: Sequence[SSAValue],
        thread: SSAValue,
        at: InsertPoint,
    ) -> list[SSAValue]:
        """Every `threads`-th element along the distributed loop, from `thread`."""
        loop = row_op.distributed
        if loop is None:
            return list(views)
        result: list[SSAValue] = []
        share: int | SSAValue | None = None
        maps = row_op.computation.indexing_maps[: len(views)]
        for view, indexing_map in zip(views, maps, strict=True):
            view_type = view.type
            positions = [
                p
                for p, expr in enumerate(indexing_map.results)
                if isinstance(expr, AffineDimExpr) and expr.position == loop
            ]
            if not isinstance(view_type, MemRefType) or not positions:
                result.append(view)
                continue
            shape = list(view_type.get_shape())
            (position,) = positions
            if share is None:
                share = _thread_share(shape[position], self.threads, thread, at)
                start = _thread_start(shape[position], self.threads, thread, at)
            offsets: list[int | SSAValue] = [0] * len(shape)
            sizes: list[int | SSAValue] = list(shape)
            strides = [1] * len(shape)
            offsets[position], sizes[position] = start, share
            strides[position] = self.threads
            result.append(strided_view(view, offsets, sizes, strides, at))
        return result

    def elementwise(self, row_op: RowOp, views: list[SSAValue]) -> None:
        count = self.threads if row_op.distributed is not None else 1
        threads, at = _forall(count, ThreadMappingAttr(DimensionEnum("x")), "t")
        Rewriter.insert_op(threads, self.body)
        operands = self.thread_views(row_op, views, threads.body.block.args[0], at)
        tiled = row_op.op.clone()
        tiled.operands = operands
        Rewriter.insert_op(tiled, at)

    def reduction(self, row_op: RowOp, views: list[SSAValue]) -> None:
        reduction = row_op.reduction
        assert reduction is not None
        output = views[-1]
        output_type = output.type
        assert isinstance(output_type, MemRefType)
        element_type = output_type.get_element_type()
        # Shaped like the output (`keepdims` adds unit dimensions), one row per thread.
        units = [1] * (output_type.get_num_dims() - 1)
        partial = self._alloc(element_type, [self.threads, *units], "partial")

        threads, at = _forall(self.threads, ThreadMappingAttr(DimensionEnum("x")), "t")
        Rewriter.insert_op(threads, self.body)
        thread = threads.body.block.args[0]
        identity = arith.ConstantOp(reduction.identity(element_type))
        zeros = [index_constant(0, at) for _ in units]
        store = memref.StoreOp.get(identity.result, partial, [thread, *zeros])
        Rewriter.insert_op([identity, store], at)
        operands = self.thread_views(row_op, views[:-1], thread, at)
        own = strided_view(
            partial, [thread, *[0] * len(units)], [1, *units], [1, *units], at
        )
        tiled = row_op.op.clone()
        tiled.operands = [*operands, own]
        Rewriter.insert_op(tiled, at)

        half = self.threads // 2
        while half >= 1:
            self._combine(reduction, partial, half)
            half //= 2
        self._finish(reduction, partial, output)

    def _combined(
        self,
        reduction: RowReduction,
        value: SSAValue,
        running: SSAValue,
        at: InsertPoint,
    ) -> SSAValue:
        combiner = reduction.combiner.clone()
        operands = (
            [running, value]
            if reduction.accumulator_position == 0
            else [value, running]
        )
        combiner.operands = operands
        Rewriter.insert_op(combiner, at)
        return combiner.results[0]

    def _combine(self, reduction: RowReduction, partial: SSAValue, half: int) -> None:
        """`partial[t] = partial[t] (op) partial[t + half]` for t < half."""
        threads, at = _forall(half, ThreadMappingAttr(DimensionEnum("x")), "t")
        # Marks the step for gpu-shuffle-reductions (through the thread guard
        # convert-parallel-loops-to-gpu makes of this forall).
        threads.attributes[REDUCTION_STEP_ATTRIBUTE] = IntegerAttr(half, 64)
        Rewriter.insert_op(threads, self.body)
        thread = threads.body.block.args[0]
        other = arith.AddiOp(thread, index_constant(half, at))
        Rewriter.insert_op(other, at)
        zeros = _zeros(partial, at)
        mine = memref.LoadOp.get(partial, [thread, *zeros])
        theirs = memref.LoadOp.get(partial, [other.result, *zeros])
        Rewriter.insert_op([mine, theirs], at)
        total = self._combined(reduction, theirs.res, mine.res, at)
        Rewriter.insert_op(memref.StoreOp.get(total, partial, [thread, *zeros]), at)

    def _finish(
        self, reduction: RowReduction, partial: SSAValue, output: SSAValue
    ) -> None:
        """The row's output (its initial value) combined with the partials' total."""
        threads, at = _forall(1, ThreadMappingAttr(DimensionEnum("x")), "t")
        Rewriter.insert_op(threads, self.body)
        zero = index_constant(0, at)
        zeros = _zeros(partial, at)
        total = memref.LoadOp.get(partial, [zero, *zeros])
        initial = memref.LoadOp.get(output, [zero, *zeros])
        Rewriter.insert_op([total, initial], at)
        result = self._combined(reduction, total.res, initial.res, at)
        Rewriter.insert_op(memref.StoreOp.get(result, output, [zero, *zeros]), at)

    def build(self) -> None:
        for row_op in self.group.ops:
            computation = row_op.computation
            views = [
                self.row_view(operand, indexing_map)
                for operand, indexing_map in zip(
                    computation.operands, computation.indexing_maps, strict=True
                )
            ]
            if row_op.reduction is None:
                self.elementwise(row_op, views)
            else:
                self.reduction(row_op, views)
        for buffer in self.workgroup:
            Rewriter.insert_op(memref.DeallocOp.get(buffer), self.body)
        finish_group(self.group, self.grid, self.private)


def _row_length(row_op: RowOp) -> int:
    """The static extent of the loop `row_op` spreads over threads (1 if none
    or dynamic)."""
    loop = row_op.distributed
    computation = row_op.computation
    for operand, indexing_map in zip(
        computation.operands, computation.indexing_maps, strict=True
    ):
        if loop is None or not isinstance(operand.type, MemRefType):
            continue
        for position, expr in enumerate(indexing_map.results):
            if isinstance(expr, AffineDimExpr) and expr.position == loop:
                size = operand.type.get_shape()[position]
                if size > 0:
                    return size
    return 1


def threads_for(group: RowGroup) -> int:
    """`reduction-block=0`: a power of two giving each thread about
    `ELEMENTS_PER_THREAD` elements of the longest row, from a warp to 1024."""
    length = max(_row_length(row_op) for row_op in group.ops)
    threads = 32
    while threads < 1024 and threads * 2 * ELEMENTS_PER_THREAD <= length:
        threads *= 2
    return threads


def tile_rows_for_gpu(module: ModuleOp, threads: int, max_shared_bytes: int) -> None:
    """Tile every row group of `module`'s functions (see the module doc)."""
    if threads < 0 or threads > 1024 or threads & (threads - 1):
        raise PassFailedException(
            f"{PASS_NAME}: reduction-block must be 0 (chosen per row length) "
            "or a power of two in 1..1024"
        )
    if max_shared_bytes < 0:
        raise PassFailedException(f"{PASS_NAME}: max-shared-bytes must be >= 0")
    for function in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        for block in function.body.blocks:
            for group in row_groups(block):
                count = threads or threads_for(group)
                _KernelBuilder(group, count, max_shared_bytes).build()


@dataclass(frozen=True)
class LinalgTileRowsForGpuPass(ModulePass):
    """Row groups with reductions become one block-per-row kernel."""

    name = PASS_NAME

    reduction_block: int = 256
    # CUDA's static shared-memory limit per block.
    max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_rows_for_gpu(op, self.reduction_block, self.max_shared_bytes)
