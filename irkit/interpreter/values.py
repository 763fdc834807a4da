"""Conversions between MLIR types/attributes and the interpreter's NumPy values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    Builtin,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
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
        "float16": "f16",
        "float32": "f32",
        "float64": "f64",
        "bool": "i1",
        "int8": "i8",
        "int16": "i16",
        "int32": "i32",
        "int64": "i64",
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
        raise InputError(f"@{name} takes {len(inputs)} argument(s), {len(args)} given")
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
            values.append(array if array.flags.c_contiguous else array.copy())
        else:
            dtype_ok = np.ndim(arg) == 0
            if not dtype_ok:
                raise InputError(
                    f"argument #{index} of @{name} must be a scalar {expected}, "
                    f"got an array of shape {np.shape(arg)}"
                )
            values.append(scalar(arg, expected))
    return values


def is_index(mlir_type: Attribute) -> bool:
    """Whether `mlir_type` is `index` (held as a Python int, or int64 arrays)."""
    return isinstance(mlir_type, IndexType)


def unsigned_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The unsigned dtype of the same width (bool stays bool)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_ or dtype.kind == "u":
        return dtype
    return np.dtype(f"u{dtype.itemsize}")


def wrap_integer(value: int, dtype: np.dtype[Any]) -> Any:
    """The Python int `value` wrapped to `dtype` (two's complement), as a scalar.

    MLIR's signless constants may be written in the unsigned range (`255 : i8`).
    """
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.bool_(value & 1)
    bits = 8 * dtype.itemsize
    value &= (1 << bits) - 1
    if value >= 1 << (bits - 1):
        value -= 1 << bits
    return dtype.type(value)


def to_value(value: Any, mlir_type: Attribute) -> Any:
    """`value` as the interpreter's value of `mlir_type`, of its exact width.

    Tensors become arrays of the element dtype; `index` a Python int (or an
    int64 array inside vectorised bodies); other scalars NumPy scalars (or
    arrays of that dtype inside vectorised bodies).
    """
    if isinstance(mlir_type, TensorType):
        dtype = numpy_dtype(mlir_type.get_element_type())
        return np.asarray(value).astype(dtype, copy=False)
    if isinstance(mlir_type, IndexType):
        if np.ndim(value) == 0:
            return int(value)
        return np.asarray(value).astype(np.int64, copy=False)
    dtype = numpy_dtype(mlir_type)
    array = np.asarray(value)
    if array.dtype != dtype:
        array = array.astype(dtype)
    return array[()] if array.ndim == 0 else array


def dense_resource_to_array(attr: DenseResourceAttr) -> np.ndarray:
    """The values of a `dense_resource<key>` attribute, from the module's
    `{-# dialect_resources: { builtin: { key: "0x..." } } #-}` section.

    A blob is MLIR's: a 4-byte little-endian alignment, then the raw
    little-endian elements (one byte per i1). Raises `IRKitError` when the
    parsed input carried no data for `key`.
    """
    key = attr.resource_handle.data
    interface = Builtin.get_interface(OpAsmDialectInterface)
    blob = interface.lookup(key) if interface is not None else None
    if not blob:
        raise IRKitError(f"dense_resource<{key}> has no data in the input")
    raw = bytes.fromhex(blob[2:])[4:]
    shaped = cast(TensorType[Attribute], attr.type)
    dtype = numpy_dtype(shaped.get_element_type())
    shape = tuple(shaped.get_shape())
    if dtype == np.bool_:
        flat = np.frombuffer(raw, dtype=np.uint8) != 0
    else:
        flat = np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype)
    count = int(np.prod(shape))
    if flat.size == 1 and count != 1:
        return np.full(shape, flat[0], dtype=dtype)
    if flat.size != count:
        raise IRKitError(
            f"dense_resource<{key}> holds {flat.size} elements, its type {count}"
        )
    return flat.reshape(shape).copy()
