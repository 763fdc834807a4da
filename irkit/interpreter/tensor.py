"""Reference semantics of the `tensor` dialect (value semantics).

No op writes into an operand: `tensor.insert`/`insert_slice` copy their
destination first; reshapes and slices may return read-only views of their
source, which nothing writes to.

`tensor.empty` has undefined contents in MLIR; irkit poisons them (NaN for
floats, the most negative value for integers, false for i1) so that a read of
an unwritten element shows in the results.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.tensor import (
    ConcatOp,
    DimOp,
    EmptyOp,
    ExtractSliceOp,
    InsertSliceOp,
    PadOp,
    ReshapeOp,
    SplatOp,
)
from xdsl.ir import Attribute, Operation

from irkit.dtypes import numpy_dtype, poison
from irkit.interpreter.core import (
    Interpreter,
    interpretation_error,
    register,
    register_terminator,
)
from irkit.interpreter.linalg import body_scope, run_body

Values = tuple[Any, ...]

register_terminator("tensor.yield")


def _tensor_type(value_type: Attribute) -> TensorType[Attribute]:
    return cast(TensorType[Attribute], value_type)


def _dtype(value_type: Attribute) -> np.dtype[Any]:
    return numpy_dtype(_tensor_type(value_type).get_element_type())


def _static_or_dynamic(static: tuple[int, ...], dynamic: list[Any]) -> list[int]:
    """Merge a static list (DYNAMIC_INDEX placeholders) with dynamic values."""
    values = iter(dynamic)
    return [int(next(values)) if size == DYNAMIC_INDEX else size for size in static]


@register("tensor.empty")
def empty(interp: Interpreter, op: Operation, args: Values) -> Values:
    result_type = _tensor_type(cast(EmptyOp, op).tensor.type)
    shape = _static_or_dynamic(result_type.get_shape(), list(args))
    return (poison(tuple(shape), _dtype(result_type)),)


@register("tensor.cast")
def cast_(interp: Interpreter, op: Operation, args: Values) -> Values:
    return (args[0],)


@register("tensor.dim")
def dim(interp: Interpreter, op: Operation, args: Values) -> Values:
    source, index = args
    rank = np.ndim(source)
    if not 0 <= index < rank:
        raise interpretation_error(
            cast(DimOp, op), f"dimension {index} out of rank {rank}"
        )
    return (int(np.shape(source)[index]),)


@register("tensor.collapse_shape", "tensor.expand_shape")
def reshape_like(interp: Interpreter, op: Operation, args: Values) -> Values:
    source = np.asarray(args[0])
    return (source.reshape(_result_shape(op, source.size)),)


def _result_shape(op: Operation, size: int) -> tuple[int, ...]:
    shape = _tensor_type(op.results[0].type).get_shape()
    known = int(np.prod([s for s in shape if s != DYNAMIC_INDEX]))
    return tuple(size // max(known, 1) if s == DYNAMIC_INDEX else s for s in shape)


@register("tensor.reshape")
def reshape(interp: Interpreter, op: Operation, args: Values) -> Values:
    source, shape = args
    _ = cast(ReshapeOp, op)
    return (np.asarray(source).reshape(tuple(int(s) for s in np.asarray(shape))),)


@register("tensor.concat")
def concat(interp: Interpreter, op: Operation, args: Values) -> Values:
    axis = cast(ConcatOp, op).dim.value.data
    return (np.concatenate([np.asarray(arg) for arg in args], axis=axis),)


def _check_indices(op: Operation, shape: tuple[int, ...], indices: Values) -> None:
    for dim_index, (extent, index) in enumerate(zip(shape, indices, strict=True)):
        if np.any((np.asarray(index) < 0) | (np.asarray(index) >= extent)):
            raise interpretation_error(
                op, f"index out of bounds in dimension {dim_index} (extent {extent})"
            )


@register("tensor.extract")
def extract(interp: Interpreter, op: Operation, args: Values) -> Values:
    source = np.asarray(args[0])
    indices = args[1:]
    _check_indices(op, source.shape, indices)
    value = source[tuple(indices)] if indices else source[()]
    return (value,)


@register("tensor.insert")
def insert(interp: Interpreter, op: Operation, args: Values) -> Values:
    scalar, dest = args[0], np.asarray(args[1])
    indices = args[2:]
    _check_indices(op, dest.shape, indices)
    if any(np.ndim(index) for index in indices) or np.ndim(scalar):
        raise interpretation_error(op, "vectorised insertion is not supported")
    result = dest.copy()
    result[tuple(int(i) for i in indices)] = scalar
    return (result,)


@register("tensor.from_elements")
def from_elements(interp: Interpreter, op: Operation, args: Values) -> Values:
    result_type = _tensor_type(op.results[0].type)
    array = np.array([np.asarray(arg) for arg in args], dtype=_dtype(result_type))
    return (array.reshape(result_type.get_shape()),)


@register("tensor.splat")
def splat(interp: Interpreter, op: Operation, args: Values) -> Values:
    splat_op = cast(SplatOp, op)
    result_type = _tensor_type(splat_op.result.type)
    shape = _static_or_dynamic(result_type.get_shape(), list(args[1:]))
    return (np.full(shape, args[0], _dtype(result_type)),)


def _slices(
    op: ExtractSliceOp | InsertSliceOp, dynamic: Values
) -> tuple[list[int], list[int], list[int]]:
    """The offsets, sizes and strides of a slice op, with dynamic values."""
    values = list(dynamic)
    count_offsets = len(op.offsets)
    count_sizes = len(op.sizes)
    offsets = _static_or_dynamic(op.static_offsets.get_values(), values[:count_offsets])
    sizes = _static_or_dynamic(
        op.static_sizes.get_values(),
        values[count_offsets : count_offsets + count_sizes],
    )
    strides = _static_or_dynamic(
        op.static_strides.get_values(), values[count_offsets + count_sizes :]
    )
    return offsets, sizes, strides


def _slice_index(
    op: Operation,
    shape: tuple[int, ...],
    offsets: list[int],
    sizes: list[int],
    strides: list[int],
) -> tuple[slice, ...]:
    index: list[slice] = []
    for dim_index, (extent, offset, size, stride) in enumerate(
        zip(shape, offsets, sizes, strides, strict=True)
    ):
        if size and (
            offset < 0 or stride < 1 or offset + (size - 1) * stride >= extent
        ):
            raise interpretation_error(
                op,
                f"slice out of bounds in dimension {dim_index}: offset {offset}, "
                f"size {size}, stride {stride}, extent {extent}",
            )
        index.append(slice(offset, offset + size * stride, stride))
    return tuple(index)


@register("tensor.extract_slice")
def extract_slice(interp: Interpreter, op: Operation, args: Values) -> Values:
    slice_op = cast(ExtractSliceOp, op)
    source = np.asarray(args[0])
    offsets, sizes, strides = _slices(slice_op, args[1:])
    piece = source[_slice_index(op, source.shape, offsets, sizes, strides)]
    if len(_tensor_type(op.results[0].type).get_shape()) == len(sizes):
        # Not rank-reducing: the sizes are the shape, however many are dynamic.
        return (piece.reshape(sizes),)
    # A rank-reduced result drops unit dimensions: a row-major reshape.
    return (piece.reshape(_result_shape(op, piece.size)),)


@register("tensor.insert_slice")
def insert_slice(interp: Interpreter, op: Operation, args: Values) -> Values:
    slice_op = cast(InsertSliceOp, op)
    source, dest = np.asarray(args[0]), np.asarray(args[1])
    offsets, sizes, strides = _slices(slice_op, args[2:])
    result = dest.copy()
    index = _slice_index(op, dest.shape, offsets, sizes, strides)
    result[index] = source.reshape(sizes)
    return (result,)


@register("tensor.pad")
def pad(interp: Interpreter, op: Operation, args: Values) -> Values:
    pad_op = cast(PadOp, op)
    source = np.asarray(args[0])
    dynamic = list(args[1:])
    low = _static_or_dynamic(pad_op.static_low.get_values(), dynamic[: len(pad_op.low)])
    high = _static_or_dynamic(
        pad_op.static_high.get_values(), dynamic[len(pad_op.low) :]
    )
    if any(amount < 0 for amount in (*low, *high)):
        raise interpretation_error(op, "negative padding is not supported")
    shape = tuple(
        size + before + after
        for size, before, after in zip(source.shape, low, high, strict=True)
    )
    # The body yields the padding value of each index: evaluate it once over
    # the whole result, with the block arguments bound to broadcast aranges.
    rank = len(shape)
    grid = [
        np.arange(extent, dtype=np.int64).reshape(
            [extent if d == axis else 1 for d in range(rank)]
        )
        for axis, extent in enumerate(shape)
    ]
    scope = body_scope(interp)
    (value,) = run_body(interp, pad_op.region.block, grid, scope)
    result = np.broadcast_to(np.asarray(value, dtype=source.dtype), shape).copy()
    interior = tuple(
        slice(before, before + size)
        for size, before in zip(source.shape, low, strict=True)
    )
    result[interior] = source
    return (result,)
