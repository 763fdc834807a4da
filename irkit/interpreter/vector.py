"""Reference semantics of the `vector` dialect's ops that irkit emits.

A vector value is a NumPy array of the vector type's shape and element
dtype. `vector.load` reads, and `vector.store` writes, the block of
consecutive elements the vector's shape covers in the memref's innermost
dimensions, starting at the indices (MLIR's semantics); a block that leaves
the memref is reported (MLIR leaves out-of-bounds accesses to the target),
as is a load of an element nothing wrote. `vector.broadcast` repeats its
source; `vector.fma` is `lhs * rhs + acc` rounded once per element (IEEE's
fusedMultiplyAdd, `irkit.interpreter.special.fused_multiply_add`). Vector
ops are not run inside an emulated GPU kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Operation

from irkit.dtypes import numpy_dtype
from irkit.interpreter.core import Interpreter, interpretation_error, register
from irkit.interpreter.memref import as_memref
from irkit.interpreter.special import fused_multiply_add
from irkit.interpreter.values import (
    MemRefValue,
    check_live,
    check_writable,
    first_unwritten,
    format_index,
    to_value,
    unwritten_read,
)

Values = tuple[Any, ...]


def _vector_type(value_type: Attribute) -> VectorType[Attribute]:
    return cast(VectorType[Attribute], value_type)


def _block(
    interp: Interpreter,
    op: Operation,
    memref: MemRefValue,
    indices: Sequence[Any],
    shape: Sequence[int],
) -> tuple[Any, ...]:
    """The NumPy index of the block of `shape` at `indices` (in bounds)."""
    if interp.grid is not None:
        raise interpretation_error(op, "vector ops are not run inside a GPU kernel")
    start = [int(i) for i in indices]
    lead = len(start) - len(shape)
    sizes = [*([1] * lead), *shape]
    if any(
        i < 0 or i + size > extent
        for i, size, extent in zip(start, sizes, memref.shape, strict=True)
    ):
        raise interpretation_error(
            op,
            f"accesses {list(shape)} elements at {format_index(start)}, outside "
            f"the memref's shape {list(memref.shape)}",
        )
    block = (slice(i, i + n) for i, n in zip(start[lead:], shape, strict=True))
    return (*start[:lead], *block)


@register("vector.load")
def load(interp: Interpreter, op: Operation, args: Values) -> Values:
    memref = as_memref(op, args[0])
    check_live(op, memref)
    result_type = _vector_type(op.results[0].type)
    key = _block(interp, op, memref, args[1:], result_type.get_shape())
    written = np.asarray(memref.written_mask()[key])
    if not written.all():
        # The first unwritten element, as an index of the memref.
        first = [int(i) for i in args[1:]]
        lead = len(first) - written.ndim
        for dim, offset in enumerate(first_unwritten(written)):
            first[lead + dim] += offset
        raise unwritten_read(op, memref, first)
    return (to_value(np.array(memref.array()[key]), result_type),)


@register("vector.store")
def store(interp: Interpreter, op: Operation, args: Values) -> Values:
    value, memref_value, *indices = args
    memref = as_memref(op, memref_value)
    check_writable(op, memref)
    vector_type = _vector_type(op.operands[0].type)
    key = _block(interp, op, memref, indices, vector_type.get_shape())
    memref.array()[key] = value
    memref.written_mask()[key] = True
    return ()


@register("vector.broadcast")
def broadcast(interp: Interpreter, op: Operation, args: Values) -> Values:
    result_type = _vector_type(op.results[0].type)
    dtype = numpy_dtype(result_type.get_element_type())
    source = np.asarray(args[0], dtype=dtype)
    return (np.array(np.broadcast_to(source, result_type.get_shape())),)


@register("vector.fma")
def fma(interp: Interpreter, op: Operation, args: Values) -> Values:
    result_type = op.results[0].type
    return (to_value(fused_multiply_add(*args), result_type),)
