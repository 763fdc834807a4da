"""`linalg-tile-rows`: a row group as one parallel loop over its rows (CPU).

A row group is what `linalg-tile-rows-for-gpu` turns into one GPU kernel:
consecutive `linalg.generic`s on memrefs that walk the same rows and touch,
for row `r`, only row `r` of what they write, with a row reduction among them
(a softmax, a layer_norm, a `reduce_*` with its fill and the elementwise ops
around it; `irkit.analysis.row_groups` finds them). On the CPU,
`lower-to-c` would run each op over the whole tensor in turn, so a 4096x1024
softmax streams its input and a full-size `exp(x - max)` through memory six
times. Tiled by rows and fused, every op runs on one row before the next row
starts, while the row is in the L1 cache:

```mlir
scf.parallel (%r) = (%c0) to (%c4096) step (%c1) {
  %e = memref.alloca() : memref<1x1024xf32>          // the row's exp(x - max)
  %x_row = memref.subview %x[%r, 0] [1, 1024] [1, 1]
  linalg.generic ... outs(%max_row)                   // fill
  linalg.generic ... ins(%x_row) outs(%max_row)       // max over the row
  linalg.generic ... ins(%x_row, %max_row) outs(%e)   // exp(x - max)
  ...
}
```

The C target runs the outermost `scf.parallel` with OpenMP, a row per
iteration. This is MLIR's tile-and-fuse of a chain of consumers along the
parallel row dimension (`tileConsumerAndFuseProducers` with tile size 1),
for the whole group at once.

Contract
--------
Input: linalg on memrefs with static shapes (after `bufferize`), the row
groups of `row_groups` with at least two ops. Other ops are left alone.

Output: per group, one `scf.parallel` over the rows (step 1) holding every op
of the group, in order, on `memref.subview`s of one row of each row operand
(operands that do not use the row loop are passed whole). An allocation only
the group uses, only as row operands, becomes a `memref.alloca` of one row in
the loop body while one row of all of them fits in `max-stack-bytes` (the C
target refuses larger stack buffers); its `memref.alloc`/`dealloc` go.
Constants and allocations between the group's ops move before the loop,
deallocations after it.

With `vector-bits` (0, the default: off; `lower-to-c` passes the host's),
a row reduction whose combiner gives the same result in any order
(`maximumf`, `minimumf`, integer ones: `EXACT_IN_ANY_ORDER`) over rows of at
least two vectors runs as one vector of partial results per row, partial `p`
folding elements `p, p + lanes, ...`, then the partials folded into the
row's result, then the last `N mod lanes` elements one at a time
(`split_into_lanes`): the innermost loop reads consecutive elements into
independent lanes, which the C compiler vectorises (the row max of a
softmax ran one element at a time, a chain of dependent maxima).

Preserves: every value, exactly: each op computes each row's elements with
its own loops in their order (reductions are not reassociated, but for
those whose combiner is exact in any order). `max-stack-bytes` or
`vector-bits` below 0 fail the pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, MemRefType, ModuleOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.memory import MAX_STACK_BYTES, element_bytes
from irkit.analysis.row_groups import (
    RowGroup,
    is_row_operand,
    private_buffers,
    row_groups,
)
from irkit.dialects import memref
from irkit.dialects.scf import ParallelOp, ReduceOp
from irkit.transforms.utils.builders import index_constant, strided_view
from irkit.transforms.utils.row_groups import (
    finish_group,
    hoist_movable,
    split_into_lanes,
)

PASS_NAME = "linalg-tile-rows"


def tile_row_group(
    group: RowGroup, max_stack_bytes: int, vector_bits: int = 0
) -> ParallelOp:
    """Replace `group` by one parallel loop over its rows (see the module
    doc); with `vector_bits`, its exact reductions in vectors of partials."""
    hoist_movable(group)
    private = private_buffers(group, max_stack_bytes)
    before_first = InsertPoint.before(group.ops[0].op)
    lower, upper, step = (index_constant(v, before_first) for v in (0, group.rows, 1))
    body = Block([ReduceOp()], arg_types=[IndexType()])
    row = body.args[0]
    row.name_hint = "row"
    loop = ParallelOp([lower], [upper], [step], Region(body))
    Rewriter.insert_op(loop, before_first)
    at = InsertPoint.before(body.last_op)  # type: ignore[arg-type]
    views: dict[SSAValue, SSAValue] = {}
    for buffer in private:
        buffer_type = buffer.type
        assert isinstance(buffer_type, MemRefType)
        alloca = memref.AllocaOp.get(
            buffer_type.get_element_type(), shape=[1, *buffer_type.get_shape()[1:]]
        )
        alloca.memref.name_hint = "row"
        Rewriter.insert_op(alloca, at)
        views[buffer] = alloca.memref
    for row_op in group.ops:
        computation = row_op.computation
        operands: list[SSAValue] = []
        for operand, indexing_map in zip(
            computation.operands, computation.indexing_maps, strict=True
        ):
            operand_type = operand.type
            if not isinstance(operand_type, MemRefType) or not is_row_operand(
                indexing_map
            ):
                operands.append(operand)
            elif operand not in views:
                shape = operand_type.get_shape()
                views[operand] = strided_view(
                    operand,
                    [row, *[0] * (len(shape) - 1)],
                    [1, *shape[1:]],
                    [1] * len(shape),
                    at,
                )
                views[operand].name_hint = "row"
                operands.append(views[operand])
            else:
                operands.append(views[operand])
        tiled = row_op.op.clone()
        tiled.operands = operands
        Rewriter.insert_op(tiled, at)
        if vector_bits and row_op.reduction is not None:
            output_type = tiled.outputs[0].type
            assert isinstance(output_type, MemRefType)
            bits = 8 * (element_bytes(output_type.get_element_type()) or 8)
            split_into_lanes(tiled, row_op.reduction, vector_bits // bits, at)
    finish_group(group, loop, private)
    return loop


def tile_rows(module: ModuleOp, max_stack_bytes: int, vector_bits: int = 0) -> None:
    """Tile every row group of two or more ops in `module`'s functions."""
    if max_stack_bytes < 0 or vector_bits < 0:
        raise PassFailedException(
            f"{PASS_NAME}: max-stack-bytes and vector-bits must be >= 0"
        )
    for function in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        for block in function.body.blocks:
            for group in row_groups(block):
                if len(group.ops) >= 2:
                    tile_row_group(group, max_stack_bytes, vector_bits)


@dataclass(frozen=True)
class LinalgTileRowsPass(ModulePass):
    """Row groups run row by row in one parallel loop, rows kept in cache."""

    name = PASS_NAME

    # Half of what the C target allows on the stack: each OpenMP thread runs
    # one row at a time, with room left for the register tiles' buffers.
    max_stack_bytes: int = MAX_STACK_BYTES // 2
    # The vector unit's width (0: off): reductions exact in any order (a
    # row max) run as one vector of partials per row (`split_into_lanes`).
    vector_bits: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_rows(op, self.max_stack_bytes, self.vector_bits)
