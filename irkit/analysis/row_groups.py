"""Row groups: runs of linalg ops that a row at a time can compute.

A row group is what `linalg-tile-rows-for-gpu` turns into one kernel (a
block per row) and `linalg-tile-rows` into one parallel loop (a row per
iteration): a maximal run of `linalg.generic`s on memrefs with static shapes
in one block, with only `arith.constant`, `memref.alloc`, `memref.dealloc`
and views (`memref.collapse_shape`, `expand_shape`, `subview`) between
them, where

- every op's loop 0 is parallel and walks the same rows: every operand is a
  *row operand* (dimension 0 indexed by loop 0 alone, no other dimension by
  it) or a read-only operand that does not use loop 0;
- every operand's root is an allocation, a GPU attribution or a function
  argument (`irkit.analysis.aliasing.has_known_root`);
- each op is elementwise (every output element written once) or a *row
  reduction*: it has reduction loops, and every loop but the row loop
  reduces into one element per row,
  combined by `arith.addf/mulf/maximumf/minimumf/maxnumf/minnumf` or
  `arith.addi/muli/maxsi/minsi/andi/ori/xori` with the output's value;
- no op reads, outside its own row, what an earlier op of the group writes,
  nor writes what an earlier op reads outside its row (rows then run
  independently);
- ops with `linalg.index`, or whose innermost loop appears in a compound
  index, end a group; a group holds at least one reduction.

- `row_groups(block)`: the groups of a block, in order;
- `private_buffers(group, budget)`: allocations only the group uses, only as
  row operands, so that each row's part is private to whoever computes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from irkit.analysis.aliasing import has_known_root, may_alias, root_buffer
from irkit.analysis.memory import element_bytes
from irkit.analysis.structured import StructuredComputation

_FLOAT_IDENTITIES: dict[str, float] = {
    # -0.0, not 0.0: -0.0 + x is x for every x, -0.0 included.
    "arith.addf": -0.0,
    "arith.mulf": 1.0,
    "arith.maximumf": float("-inf"),
    "arith.maxnumf": float("-inf"),
    "arith.minimumf": float("inf"),
    "arith.minnumf": float("inf"),
}
_INTEGER_IDENTITIES = {
    "arith.addi": lambda width: 0,
    "arith.ori": lambda width: 0,
    "arith.xori": lambda width: 0,
    "arith.muli": lambda width: 1,
    "arith.andi": lambda width: -1,
    "arith.maxsi": lambda width: -(1 << (width - 1)),
    "arith.minsi": lambda width: (1 << (width - 1)) - 1,
}
# Ops between a group's ops that move with it: allocations before the
# kernel, deallocations after it, and views (pure: a view computed earlier
# is the same view) before it, in their order.
_VIEWS = frozenset({"memref.collapse_shape", "memref.expand_shape", "memref.subview"})
_MOVABLE = frozenset({"arith.constant", "memref.alloc", "memref.dealloc"}) | _VIEWS


@dataclass
class RowReduction:
    """How a row reduction folds one element into its output: the combiner op
    of its body, and the identity its partial results start from."""

    combiner: Operation
    # Which operand of the combiner is the output's running value.
    accumulator_position: int

    def identity(self, element_type: Attribute) -> FloatAttr | IntegerAttr:
        name = self.combiner.name
        if isinstance(element_type, AnyFloat):
            return FloatAttr(_FLOAT_IDENTITIES[name], element_type)
        assert isinstance(element_type, IntegerType)
        width = element_type.width.data
        return IntegerAttr(_INTEGER_IDENTITIES[name](width), element_type)


@dataclass
class RowOp:
    """A `linalg.generic` of a row group: `rows` rows, each computed from row
    `r` of its row operands (and whole read-only operands)."""

    op: GenericOp
    computation: StructuredComputation
    rows: int
    # The loop spread over the threads (the innermost), None for an op that
    # has only the row loop.
    distributed: int | None
    reduction: RowReduction | None


@dataclass
class RowGroup:
    """Consecutive row ops of one block, and the ops between them that move
    with the group (`arith.constant`, `memref.alloc` / `dealloc`, views)."""

    ops: list[RowOp] = field(default_factory=list)
    movable: list[Operation] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return self.ops[0].rows


def _uses_row(indexing_map: AffineMap) -> bool:
    return any(0 in expr.used_dims() for expr in indexing_map.results)


def is_row_operand(indexing_map: AffineMap) -> bool:
    """Whether an operand's map indexes dimension 0 by loop 0 alone and no
    other dimension by it: row `r` of the loop is row `r` of the operand."""
    results = indexing_map.results
    return (
        bool(results)
        and isinstance(results[0], AffineDimExpr)
        and results[0].position == 0
        and not any(0 in expr.used_dims() for expr in results[1:])
    )


def _reduction_of(computation: StructuredComputation) -> RowReduction | None:
    """The combiner of a reduction whose output is the running value, if
    every non-row loop reduces into one element per row."""
    kinds = computation.iterator_types
    if (
        len(computation.outputs) != 1
        or len(kinds) < 2
        or any(k != IteratorType.REDUCTION for k in kinds[1:])
    ):
        # Without a reduction loop (a reduction over one element, its loop
        # dropped by `linalg-fold-unit-extent-dims`) an op that combines
        # with its output is elementwise: each row's element, updated once.
        return None
    # One element per row: `(d0)`, or `(d0, 0, ...)` as `keepdims` writes it.
    first, *rest = computation.output_maps[0].results or (None,)
    if first != AffineDimExpr(0) or any(expr != AffineConstantExpr(0) for expr in rest):
        return None
    body = computation.body
    accumulator = body.args[-1]
    yield_op = body.last_op
    if not isinstance(yield_op, LinalgYieldOp) or len(list(accumulator.uses)) != 1:
        return None
    (use,) = accumulator.uses
    combiner = use.operation
    element_type = accumulator.type
    known = (
        _FLOAT_IDENTITIES
        if isinstance(element_type, AnyFloat)
        else _INTEGER_IDENTITIES
        if isinstance(element_type, IntegerType)
        else {}
    )
    if (
        combiner.name not in known
        or len(combiner.operands) != 2
        or combiner.operands[0] is combiner.operands[1]
        or yield_op.operands[0] is not combiner.results[0]
        or len(list(combiner.results[0].uses)) != 1
    ):
        return None
    return RowReduction(combiner, use.index)


def _row_count(
    computation: StructuredComputation, distributed: int | None
) -> int | None:
    """The rows, if every operand is a row operand or a read-only one that
    does not use the row loop, and `distributed` indexes operands plainly."""
    rows: int | None = None
    for position, (operand, indexing_map) in enumerate(
        zip(computation.operands, computation.indexing_maps, strict=True)
    ):
        is_input = position < len(computation.inputs)
        if not isinstance(operand.type, MemRefType):
            if not is_input:
                return None
            continue
        if not operand.type.has_static_shape() or not has_known_root(operand):
            return None
        if distributed is not None:
            uses = [distributed in expr.used_dims() for expr in indexing_map.results]
            plain = [
                isinstance(expr, AffineDimExpr) and expr.position == distributed
                for expr in indexing_map.results
            ]
            if sum(uses) > 1 or uses != plain:
                return None
        if is_row_operand(indexing_map):
            rows = operand.type.get_shape()[0]
        elif _uses_row(indexing_map) or not is_input:
            return None
    return rows


def _row_op(op: Operation) -> RowOp | None:
    if not isinstance(op, GenericOp) or op.results:
        return None
    computation = StructuredComputation.of(op)
    kinds = computation.iterator_types
    if not kinds or kinds[0] != IteratorType.PARALLEL:
        return None
    if any(isinstance(body_op, IndexOp) for body_op in computation.body.ops):
        return None
    distributed = len(kinds) - 1 if len(kinds) > 1 else None
    rows = _row_count(computation, distributed)
    if rows is None:
        return None
    reduction = _reduction_of(computation)
    if reduction is None and any(k != IteratorType.PARALLEL for k in kinds):
        return None
    if reduction is None:
        # Elementwise: each output element written once, by one iteration.
        for output_map in computation.output_maps:
            positions = {
                expr.position
                for expr in output_map.results
                if isinstance(expr, AffineDimExpr)
            }
            if positions != set(range(len(kinds))):
                return None
    return RowOp(op, computation, rows, distributed, reduction)


def _written(row_op: RowOp) -> list[SSAValue]:
    return list(row_op.computation.outputs)


def _broadcast_reads(row_op: RowOp) -> list[SSAValue]:
    computation = row_op.computation
    return [
        operand
        for operand, indexing_map in zip(
            computation.inputs, computation.indexing_maps, strict=False
        )
        if isinstance(operand.type, MemRefType) and not is_row_operand(indexing_map)
    ]


def _joins(group: RowGroup, candidate: RowOp) -> bool:
    """Whether `candidate` may run in the group's kernel after its ops: blocks
    run rows independently, so nothing one row writes may be read by another."""
    if candidate.rows != group.rows:
        return False
    written = [value for row_op in group.ops for value in _written(row_op)]
    read = [value for row_op in group.ops for value in _broadcast_reads(row_op)]
    return not any(
        may_alias(a, b) for a in _broadcast_reads(candidate) for b in written
    ) and not any(may_alias(a, b) for a in _written(candidate) for b in read)


def row_groups(block: Block) -> list[RowGroup]:
    """The row groups of `block`, each with at least one reduction, in order."""
    groups: list[RowGroup] = []
    current = RowGroup()
    pending: list[Operation] = []

    def close() -> None:
        nonlocal current
        if any(row_op.reduction is not None for row_op in current.ops):
            used = {
                value
                for row_op in current.ops
                for operand in row_op.computation.operands
                for value in (operand, root_buffer(operand))
            }
            # A dealloc moves with the group only if it frees a buffer the
            # group uses. Others stay where they are, after the kernel once the
            # group's ops are gone: one that frees a buffer an earlier group
            # made private is erased when that group is built, and moving it
            # again crashed (`Cannot detach a toplevel operation`).
            current.movable = [
                op
                for op in current.movable
                if op.name != "memref.dealloc" or op.operands[0] in used
            ]
            groups.append(current)
        current = RowGroup()

    for op in block.ops:
        if op.name in _MOVABLE and all(
            not isinstance(r.type, MemRefType) or r.type.has_static_shape()
            for r in op.results
        ):
            pending.append(op)
            continue
        row_op = _row_op(op)
        if row_op is not None and current.ops and _joins(current, row_op):
            current.ops.append(row_op)
            current.movable += pending
        else:
            close()
            if row_op is not None:
                current.ops.append(row_op)
                # Allocations just before the group may be private to it.
                current.movable = list(pending)
        pending = []
    close()
    return groups


def private_buffers(group: RowGroup, budget_bytes: int) -> list[SSAValue]:
    """Allocations moved with `group` that only its ops use, and only as row
    operands: each row's part is private to whoever computes that row. Taken
    in order while their rows fit in `budget_bytes`."""
    members = {id(row_op.op) for row_op in group.ops}
    chosen: list[SSAValue] = []
    for op in group.movable:
        if op.name != "memref.alloc":
            continue
        buffer = op.results[0]
        buffer_type = buffer.type
        assert isinstance(buffer_type, MemRefType)
        if not all(
            use.operation.name == "memref.dealloc"
            or (id(use.operation) in members and is_row_use(use.operation, use.index))
            for use in buffer.uses
        ):
            continue
        # Float and integer rows only: what the targets' row buffers hold.
        element_type = buffer_type.get_element_type()
        element_size = element_bytes(element_type)
        if not isinstance(element_type, AnyFloat | IntegerType) or not element_size:
            continue
        size = prod(buffer_type.get_shape()[1:]) * element_size
        if size <= budget_bytes:
            budget_bytes -= size
            chosen.append(buffer)
    return chosen


def is_row_use(op: Operation, index: int) -> bool:
    """Whether operand `index` of generic `op` is a row operand."""
    assert isinstance(op, GenericOp)
    return is_row_operand(op.get_indexing_maps().data[index].data)
