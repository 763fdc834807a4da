"""Conversions between MLIR types/attributes and the interpreter's NumPy values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from irkit.diagnostics import IRKitError

_INT_DTYPES = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


class InputError(IRKitError, ValueError):
    """Arguments that do not match a function's signature."""


def numpy_dtype(element_type: Attribute) -> np.dtype[Any]:
    """The NumPy dtype that holds values of the MLIR scalar type `element_type`.

    Integers are signless in MLIR; irkit stores them as signed two's complement
    (`i1` as bool) and unsigned ops reinterpret the bits.
    """
    if isinstance(element_type, Float32Type):
        return np.dtype(np.float32)
    if isinstance(element_type, Float64Type):
        return np.dtype(np.float64)
    if isinstance(element_type, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    if isinstance(element_type, IntegerType):
        width = element_type.width.data
        if width in _INT_DTYPES:
            return np.dtype(_INT_DTYPES[width])
    raise IRKitError(f"type {element_type} has no NumPy equivalent in irkit")


def type_of_value_text(dtype: np.dtype[Any]) -> str:
    """The MLIR spelling of the element type NumPy `dtype` maps to."""
    names = {
        "float16": "f16", "float32": "f32", "float64": "f64", "bool": "i1",
        "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    }
    return names.get(np.dtype(dtype).name, np.dtype(dtype).name)


def dense_to_array(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The values of a dense elements attribute as an array of its type."""
    element_type = attr.get_element_type()
    dtype = numpy_dtype(element_type)
    raw = attr.data.data
    if dtype == np.bool_:
        flat = np.frombuffer(raw, dtype=np.uint8) != 0
    else:
        flat = np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype)
    shape = attr.get_shape()
    if flat.size == 1 and int(np.prod(shape)) != 1:
        return np.full(shape, flat[0], dtype=dtype)
    return flat.reshape(shape).copy()


def scalar(value: Any, element_type: Attribute) -> Any:
    """`value` as the interpreter's scalar of MLIR type `element_type`."""
    if isinstance(element_type, IndexType):
        return int(value)
    return numpy_dtype(element_type).type(value)


def describe(value: Any) -> str:
    """A short `shape x dtype` text for error messages."""
    array = np.asarray(value)
    dims = "x".join(str(d) for d in array.shape)
    element = type_of_value_text(array.dtype)
    return f"tensor<{dims}x{element}>" if dims else f"tensor<{element}>"


def coerce_arguments(func: FuncOp, args: Sequence[Any]) -> list[Any]:
    """Check `args` against `func`'s signature and convert them to values.

    Raises `InputError` (one clear line) on a wrong count, shape or dtype.
    """
    inputs = func.function_type.inputs.data
    name = func.sym_name.data
    if len(args) != len(inputs):
        raise InputError(
            f"@{name} takes {len(inputs)} argument(s), {len(args)} given"
        )
    values: list[Any] = []
    for index, (arg, expected) in enumerate(zip(args, inputs, strict=True)):
        if isinstance(expected, TensorType):
            array = np.asarray(arg)
            dtype = numpy_dtype(expected.get_element_type())
            shape = tuple(expected.get_shape())
            if array.shape != shape or array.dtype != dtype:
                raise InputError(
                    f"argument #{index} of @{name} must be {expected}, "
                    f"got {describe(array)}"
                )
            values.append(np.ascontiguousarray(array))
        else:
            dtype_ok = np.ndim(arg) == 0
            if not dtype_ok:
                raise InputError(
                    f"argument #{index} of @{name} must be a scalar {expected}, "
                    f"got an array of shape {np.shape(arg)}"
                )
            values.append(scalar(arg, expected))
    return values
