"""Generalization: a named linalg op as the `linalg.generic` it stands for.

MLIR's `linalg::generalizeNamedOp` (`Dialect/Linalg/Transforms/
Generalization.cpp`), shared by `linalg-generalize-named-ops` and by every
pass that works on generics and meets a named op (`convert-linalg-to-loops`,
`linalg-tile`, `linalg-tile-and-fuse`, `linalg-tile-for-gpu`):

- `is_named_linalg_op(op)`: a `linalg` op other than `generic`, `yield` and
  `index` (registered or not), which must become a generic;
- `generalize_named_op(op)`: builds (without inserting) the generic with the
  op's operands, results, indexing maps, iterator types and body, plus the
  explicit `arith` casts where the named op converts implicitly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
    UnregisteredOp,
)
from xdsl.dialects.linalg import ops as upstream
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from irkit.diagnostics import DiagnosticError, location_of, op_error
from irkit.dialects import linalg

# linalg ops that are not named structured ops: left as they are.
_NOT_NAMED = frozenset({"linalg.generic", "linalg.yield", "linalg.index"})


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def _element_type(value: SSAValue) -> Attribute:
    if isinstance(value.type, TensorType | MemRefType):
        return value.type.get_element_type()
    return value.type


def _result_types(op: Operation) -> list[Attribute]:
    return [result.type for result in op.results]


def _parallel(loops: int) -> list[IteratorTypeAttr]:
    return [IteratorTypeAttr.parallel()] * loops


def _is_i1(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.width.data == 1


def _cast_op(op: Operation, value: SSAValue, target: Attribute) -> Operation:
    """The `arith` op converting `value` to `target` as MLIR's `cast_signed`
    does (i1 counts as unsigned, so `true` becomes 1, as in the interpreter)."""
    source = value.type
    integral = (IntegerType, IndexType)
    if _is_i1(target):
        # MLIR truncates to the low bit, the interpreter tests for non-zero:
        # neither may be chosen silently.
        pass
    elif isinstance(source, AnyFloat) and isinstance(target, AnyFloat):
        if source.bitwidth < target.bitwidth:
            return arith.ExtFOp(value, target)
        if source.bitwidth > target.bitwidth:
            return arith.TruncFOp(value, target)
    elif isinstance(source, IndexType) or isinstance(target, IndexType):
        if isinstance(source, integral) and isinstance(target, integral):
            return arith.IndexCastOp(value, target)
    elif isinstance(source, IntegerType) and isinstance(target, AnyFloat):
        if _is_i1(source):
            return arith.UIToFPOp(value, target)
        return arith.SIToFPOp(value, target)
    elif isinstance(source, AnyFloat) and isinstance(target, IntegerType):
        return arith.FPToSIOp(value, target)
    elif isinstance(source, IntegerType) and isinstance(target, IntegerType):
        if source.width.data > target.width.data:
            return arith.TruncIOp(value, target)
        if _is_i1(source):
            return arith.ExtUIOp(value, target)
        return arith.ExtSIOp(value, target)
    why = (
        " (to i1, MLIR keeps the low bit where irkit's interpreter tests for non-zero)"
        if _is_i1(target)
        else ""
    )
    raise op_error(
        op,
        f"cannot be generalized: it converts {source} to {target} implicitly{why}",
    )


def _cast_yields_to_outputs(
    op: Operation, block: Block, outputs: Sequence[SSAValue]
) -> None:
    """Make each yielded value have its output's element type, with a cast."""
    terminator = block.last_op
    assert isinstance(terminator, upstream.YieldOp)
    for index, (value, output) in enumerate(
        zip(terminator.operands, outputs, strict=True)
    ):
        target = _element_type(output)
        if value.type == target:
            continue
        cast_op = _cast_op(op, value, target)
        block.insert_op_before(cast_op, terminator)
        terminator.operands[index] = cast_op.results[0]


def _build_generic(
    op: Operation,
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    body: Region,
    maps: Sequence[AffineMap],
    iterators: Sequence[IteratorTypeAttr],
) -> linalg.GenericOp:
    _cast_yields_to_outputs(op, body.block, outputs)
    for index, arg in enumerate(body.block.args):
        if arg.name_hint is None:
            arg.name_hint = "in" if index < len(inputs) else "out"
    generic = linalg.GenericOp(
        inputs,
        outputs,
        body,
        [AffineMapAttr(map_) for map_ in maps],
        iterators,
        _result_types(op),
    )
    generic.location = op.location
    return generic


# --------------------------------------------------------------------------
# One builder per kind of named op
# --------------------------------------------------------------------------


def _generalize_structured(op: LinalgStructuredOperation) -> linalg.GenericOp:
    """Named ops with a hidden body: fill, copy, transpose, the elementwise
    ops, contractions, convolutions and pooling."""
    if isinstance(op, upstream.PoolingNchwMaxOp) and not isinstance(
        op, linalg.PoolingNchwMaxOp
    ):
        # Built with xDSL's class, whose body maximises over the window operand;
        # the interpreter runs irkit's body (accumulator and input) instead.
        body = linalg.PoolingNchwMaxOp.get_hidden_region(op.inputs, op.outputs)
    else:
        body = op.body.clone()
    return _build_generic(
        op,
        op.inputs,
        op.outputs,
        body,
        [attr.data for attr in op.get_indexing_maps()],
        list(op.get_iterator_types()),
    )


def _generalize_broadcast(op: upstream.BroadcastOp) -> linalg.GenericOp:
    """`dimensions` are the output's loops the input does not have."""
    rank = cast(ShapedType, op.init.type).get_num_dims()
    added = set(op.dimensions.get_values())
    input_map = AffineMap(
        rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in added)
    )
    body = Region(Block(arg_types=[_element_type(op.input), _element_type(op.init)]))
    body.block.add_op(upstream.YieldOp(body.block.args[0]))
    return _build_generic(
        op,
        [op.input],
        [op.init],
        body,
        [input_map, AffineMap.identity(rank)],
        _parallel(rank),
    )


def _generalize_reduce(op: upstream.ReduceOp) -> linalg.GenericOp:
    """The body's `(in, init)` arguments are already a generic's `(ins, outs)`."""
    rank = cast(ShapedType, op.input.type).get_num_dims()
    reduced = set(op.dimensions.get_values())
    output_map = AffineMap(
        rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in reduced)
    )
    iterators = [
        IteratorTypeAttr.reduction() if d in reduced else IteratorTypeAttr.parallel()
        for d in range(rank)
    ]
    return _build_generic(
        op,
        [op.input],
        [op.init],
        op.region.clone(),
        [AffineMap.identity(rank), output_map],
        iterators,
    )


def _generalize_map(op: linalg.MapOp) -> linalg.GenericOp:
    """A map's body takes only the inputs; a generic's also takes the init."""
    init = op.init[0]
    rank = cast(ShapedType, init.type).get_num_dims()
    body = op.mapper.clone()
    body.block.insert_arg(_element_type(init), len(body.block.args))
    return _build_generic(
        op,
        op.inputs,
        [init],
        body,
        [AffineMap.identity(rank)] * (len(op.inputs) + 1),
        _parallel(rank),
    )


def generalize_named_op(op: Operation) -> linalg.GenericOp:
    """Build (without inserting) the `linalg.generic` equivalent to named op `op`.

    Same operands, results, indexing maps, iterator types and body. `op` is
    left untouched. Raises a located `DiagnosticError` for an op that is not a
    named linalg op (including `linalg.generic` itself) or whose implicit
    element conversion has no `arith` cast.
    """
    if isinstance(op, upstream.BroadcastOp):
        return _generalize_broadcast(op)
    if isinstance(op, upstream.ReduceOp):
        return _generalize_reduce(op)
    if isinstance(op, linalg.MapOp):
        return _generalize_map(op)
    if isinstance(op, LinalgStructuredOperation) and op.name not in _NOT_NAMED:
        return _generalize_structured(op)
    name = _op_name(op)
    message = "cannot be generalized: not a named linalg op irkit knows"
    raise DiagnosticError(f"'{name}' op {message}", location_of(op))


def _op_name(op: Operation) -> str:
    """The name as written: an unregistered op's own, not `builtin.unregistered`."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def is_named_linalg_op(op: Operation) -> bool:
    """Whether `op` is a `linalg` op that must become a generic (every one
    but `linalg.generic`, `linalg.yield` and `linalg.index`)."""
    name = _op_name(op)
    return name.startswith("linalg.") and name not in _NOT_NAMED
