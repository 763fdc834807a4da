"""Reference semantics of the `bufferization` dialect: tensors <-> buffers.

- `to_tensor` takes a snapshot of a memref's elements as a tensor. Elements
  nothing wrote come along as poison (NaN, INT_MIN, false), as in
  `tensor.empty`: at the tensor level they show in the results rather than
  being reported.
- `to_buffer` copies a tensor into a fresh buffer, all written (writing to it
  is allowed unless it is `read_only`).
- `alloc_tensor` is a poisoned tensor (or a copy of its `copy` operand),
  `clone` a fresh buffer with the source's elements and written mask that
  `memref.dealloc` may free, `materialize_in_destination` writes a tensor
  into a buffer (or returns it, for a tensor destination).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects.bufferization import AllocTensorOp, ToBufferOp
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, TensorType
from xdsl.ir import Attribute, Operation

from irkit.dtypes import numpy_dtype, poison
from irkit.interpreter.core import Interpreter, register
from irkit.interpreter.memref import (
    as_memref,
    check_view,
    memref_type_of,
    merge_static_dynamic,
    origin_of,
)
from irkit.interpreter.values import (
    allocate,
    check_live,
    memref_holding,
    write_memref,
)

Values = tuple[Any, ...]


@register("bufferization.to_tensor")
def to_tensor(interp: Interpreter, op: Operation, args: Values) -> Values:
    memref = as_memref(op, args[0])
    check_live(op, memref)
    return (memref.array().copy(),)


@register("bufferization.to_buffer")
def to_buffer(interp: Interpreter, op: Operation, args: Values) -> Values:
    read_only = cast(ToBufferOp, op).read_only is not None
    array = np.asarray(args[0])
    value = memref_holding(array, memref_type_of(op), origin_of(op), constant=read_only)
    check_view(op, value, op.results[0].type)
    return (value,)


@register("bufferization.alloc_tensor")
def alloc_tensor(interp: Interpreter, op: Operation, args: Values) -> Values:
    alloc_op = cast(AllocTensorOp, op)
    dynamic_count = len(alloc_op.dynamic_sizes)
    if alloc_op.copy is not None:
        return (np.array(args[dynamic_count]),)
    tensor_type = cast(TensorType[Attribute], alloc_op.tensor.type)
    static = tensor_type.get_shape()
    shape = merge_static_dynamic(static, args[:dynamic_count])
    dtype = numpy_dtype(tensor_type.get_element_type())
    return (poison(tuple(shape), dtype),)


@register("bufferization.clone")
def clone(interp: Interpreter, op: Operation, args: Values) -> Values:
    source = as_memref(op, args[0])
    check_live(op, source)
    result_type = memref_type_of(op)
    shape = [
        actual if static == DYNAMIC_INDEX else static
        for actual, static in zip(source.shape, result_type.get_shape(), strict=True)
    ]
    value = allocate(result_type, origin_of(op), shape, heap=True)
    value.array()[...] = source.array()
    value.written_mask()[...] = source.written_mask()
    return (value,)


@register("bufferization.materialize_in_destination")
def materialize_in_destination(
    interp: Interpreter, op: Operation, args: Values
) -> Values:
    source, dest = args
    if isinstance(op.operands[1].type, MemRefType):
        write_memref(op, as_memref(op, dest), np.asarray(source))
        return ()
    return (np.asarray(source),)
