"""Moving a row group into the loop that runs it a row at a time.

What `linalg-tile-rows` and `linalg-tile-rows-for-gpu` both do around the
loop they build over a group's rows (`irkit.analysis.row_groups`):
`hoist_movable` before building it, `finish_group` after; and, on the CPU,
`split_into_lanes`: a row's max (any reduction exact in any order) as one
vector of partials.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.analysis.memory import memref_strides
from irkit.analysis.row_groups import RowGroup, RowReduction
from irkit.dialects import memref
from irkit.dialects.tensor import reassociation_attr
from irkit.transforms.utils.builders import strided_view


def hoist_movable(group: RowGroup) -> None:
    """Constants and allocations between the group's ops go before its first."""
    first = group.ops[0].op
    for op in group.movable:
        if op.name != "memref.dealloc":
            op.detach()
            Rewriter.insert_op(op, InsertPoint.before(first))


def finish_group(group: RowGroup, loop: Operation, private: list[SSAValue]) -> None:
    """Erase the group's ops (now inside `loop`), move its deallocations after
    `loop`, and drop the buffers made private per row."""
    for row_op in group.ops:
        Rewriter.erase_op(row_op.op)
    anchor: Operation = loop
    for op in group.movable:
        if op.name == "memref.dealloc":
            op.detach()
            Rewriter.insert_op(op, InsertPoint.after(anchor))
            anchor = op
    for buffer in private:
        for use in list(buffer.uses):
            if use.operation.name == "memref.dealloc":
                Rewriter.erase_op(use.operation)
        owner = buffer.owner
        assert isinstance(owner, Operation)
        Rewriter.erase_op(owner)


# Combiners whose result is the same in any order, bit for bit: a row
# reduction with one of them may fold its elements lane by lane. Float sums
# and products round differently when reordered; `maxnumf`/`minnumf` may
# pick either zero of `max(-0, +0)`.
EXACT_IN_ANY_ORDER = frozenset(
    {
        "arith.maximumf",
        "arith.minimumf",
        "arith.addi",
        "arith.muli",
        "arith.andi",
        "arith.ori",
        "arith.xori",
        "arith.maxsi",
        "arith.minsi",
    }
)


def _lane_view(buffer: SSAValue, lanes: int, at: InsertPoint) -> SSAValue:
    """`buffer` (1 x N, unit innermost stride) seen as 1 x N/lanes x lanes."""
    source = buffer.type
    assert isinstance(source, MemRefType)
    rows, length = source.get_shape()
    (row_stride, _), offset = memref_strides(source)
    shape = [rows, length // lanes, lanes]
    if isinstance(source.layout, NoneAttr):
        layout: Attribute = NoneAttr()
    else:
        assert row_stride is not None
        layout = StridedLayoutAttr([row_stride, lanes, 1], offset)
    view = memref.ExpandShapeOp.build(
        operands=[buffer, []],
        result_types=[
            MemRefType(
                source.get_element_type(),
                shape,
                layout,  # type: ignore[arg-type]
                source.memory_space,
            )
        ],
        properties={
            "reassociation": reassociation_attr([[0], [1, 2]]),
            "static_output_shape": DenseArrayBase.from_list(i64, shape),
        },
    )
    view.results[0].name_hint = "lanes"
    Rewriter.insert_op(view, at)
    return view.results[0]


def split_into_lanes(
    op: GenericOp, reduction: RowReduction, lanes: int, at: InsertPoint
) -> bool:
    """Run one row's reduction `op` (loops: the row, then the reduction over
    a 1 x N row) as `lanes` partial results, partial `p` folding elements
    `p, p + lanes, ...` with `op`'s body, then the partials into `op`'s
    output with its combiner: the loop over the lanes is innermost and reads
    consecutive elements, which the C compiler vectorises; a row max
    otherwise runs one element at a time; the last `N % lanes` elements
    follow one at a time, by `op` on their part of the row. Only for
    combiners in `EXACT_IN_ANY_ORDER` (the result is the same, bit for bit),
    rows of at least two vectors, and inputs read per element or per row.
    Returns whether `op` was replaced (its rewrite inserted at `at`, `op`
    erased)."""
    if reduction.combiner.name not in EXACT_IN_ANY_ORDER or lanes < 2:
        return False
    kinds = [attr.data for attr in op.iterator_types]
    if kinds != [IteratorType.PARALLEL, IteratorType.REDUCTION]:
        return False
    if len(op.outputs) != 1 or any(
        inner.name == "linalg.index" for inner in op.body.walk()
    ):
        return False
    d0, d1, d2 = (AffineExpr.dimension(i) for i in range(3))
    element_map = AffineMap(2, 0, (d0, d1))
    row_map = AffineMap(2, 0, (d0,))
    maps = [attr.data for attr in op.indexing_maps]
    if maps[-1] != row_map:
        return False
    length = None
    for operand, indexing_map in zip(op.inputs, maps, strict=False):
        operand_type = operand.type
        if indexing_map == element_map and isinstance(operand_type, MemRefType):
            strides, _ = memref_strides(operand_type)
            if strides[-1] != 1:
                return False
            length = operand_type.get_shape()[1]
        elif indexing_map not in (row_map, AffineMap(2, 0, ())):
            return False
    if length is None or length < 2 * lanes:
        return False
    whole = length - length % lanes  # the elements the lanes take

    def part(
        operand: SSAValue, indexing_map: AffineMap, start: int, size: int
    ) -> SSAValue:
        """An input's elements `start .. start + size` of the row."""
        if indexing_map != element_map or (start, size) == (0, length):
            return operand
        return strided_view(operand, [0, start], [1, size], [1, 1], at)

    output = op.outputs[0]
    output_type = output.type
    assert isinstance(output_type, MemRefType)
    element = output_type.get_element_type()
    partials = memref.AllocaOp.get(element, shape=[1, lanes])
    partials.memref.name_hint = "partials"
    Rewriter.insert_op(partials, at)
    identity = arith.ConstantOp(reduction.identity(element))
    Rewriter.insert_op(identity, at)
    fill_body = Block(arg_types=[element, element])
    fill_body.add_op(LinalgYieldOp(fill_body.args[0]))
    Rewriter.insert_op(
        GenericOp(
            [identity.result],
            [partials.memref],
            Region(fill_body),
            [AffineMapAttr(AffineMap(2, 0, ())), AffineMapAttr(AffineMap.identity(2))],
            ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * 2),
        ),
        at,
    )
    by_lane = {
        element_map: AffineMap.identity(3),
        row_map: AffineMap(3, 0, (d0,)),
        AffineMap(2, 0, ()): AffineMap(3, 0, ()),
    }
    inputs = [
        _lane_view(part(operand, indexing_map, 0, whole), lanes, at)
        if indexing_map == element_map
        else operand
        for operand, indexing_map in zip(op.inputs, maps, strict=False)
    ]
    parallel = IteratorTypeAttr(IteratorType.PARALLEL)
    reduce = IteratorTypeAttr(IteratorType.REDUCTION)
    Rewriter.insert_op(
        GenericOp(
            inputs,
            [partials.memref],
            op.body.clone(),
            [
                *(AffineMapAttr(by_lane[m]) for m in maps[:-1]),
                AffineMapAttr(AffineMap(3, 0, (d0, d2))),
            ],
            ArrayAttr([parallel, reduce, parallel]),
        ),
        at,
    )
    fold_body = Block(arg_types=[element, element])
    combined = reduction.combiner.clone()
    accumulator = reduction.accumulator_position
    combined.operands = (
        [fold_body.args[1], fold_body.args[0]]
        if accumulator == 0
        else [fold_body.args[0], fold_body.args[1]]
    )
    fold_body.add_ops([combined, LinalgYieldOp(combined.results[0])])
    Rewriter.insert_op(
        GenericOp(
            [partials.memref],
            [output],
            Region(fold_body),
            [AffineMapAttr(AffineMap.identity(2)), AffineMapAttr(row_map)],
            ArrayAttr([parallel, reduce]),
        ),
        at,
    )
    if whole < length:
        # The row's last `length % lanes` elements, one at a time, after.
        tail = op.clone()
        tail.operands = [
            *(
                part(operand, indexing_map, whole, length - whole)
                for operand, indexing_map in zip(op.inputs, maps, strict=False)
            ),
            output,
        ]
        Rewriter.insert_op(tail, at)
    Rewriter.erase_op(op)
    return True
