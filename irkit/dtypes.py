"""Element types and arrays: what the interpreter, the targets and the
runtime share about MLIR types as NumPy sees them.

MLIR scalar types map to NumPy dtypes (`numpy_dtype`; integers are signless
in MLIR and stored as signed two's complement, `i1` as bool; `bf16` is
`ml_dtypes.bfloat16`, NumPy having no bfloat16 of its own); an element
takes `element_bytes` in memory (from the dialects' verifiers up); dense
attributes become arrays (`dense_to_array`, `dense_resource_to_array`); and
`poison` is irkit's picture of memory nothing wrote: NaN for floats, the most
negative integer, false. The interpreter fills `tensor.empty` and new memrefs
with it, and the runtimes' checked mode fills outputs with it.
"""

from __future__ import annotations

from typing import Any, cast

import ml_dtypes
import numpy as np
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    BFloat16Type,
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
from xdsl.ir import Attribute

from irkit.diagnostics import IRKitError

_INT_DTYPES = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}

# bf16's dtype. ml_dtypes registers it with NumPy as a user type: its `kind`
# is "V", not "f", and `np.issubdtype(..., np.floating)` is false, so code
# asking "is this a float?" asks `is_float_dtype`.
BFLOAT16: np.dtype[Any] = np.dtype(ml_dtypes.bfloat16)


def is_float_dtype(dtype: np.dtype[Any]) -> bool:
    """Whether `dtype` holds floating-point values (bf16 included)."""
    dtype = np.dtype(dtype)
    return dtype.kind == "f" or dtype == BFLOAT16


def to_bfloat16(value: Any) -> np.ndarray:
    """`value` rounded once to bf16, to nearest even (NaN stays NaN).

    ml_dtypes converts f64 and integers to bf16 through f32, rounding twice
    (1 + 2**-8 + 2**-40 becomes 1, not 1 + 2**-7). Rounding to odd into f32
    first (toward zero, the last bit set when inexact) keeps the one
    rounding to bf16 correct, as MLIR's `arith.truncf` and CUDA's
    `__double2bfloat16` round. Integers go through f64: exact up to 2**53.
    """
    array = np.asarray(value)
    if array.dtype == BFLOAT16 or array.dtype in (np.float32, np.float16, np.bool_):
        return array.astype(BFLOAT16)
    wide = array.astype(np.float64)
    single = wide.astype(np.float32)
    with np.errstate(invalid="ignore"):
        inexact = np.isfinite(single) & (single.astype(np.float64) != wide)
        away = np.abs(single.astype(np.float64)) > np.abs(wide)
    bits = single.view(np.uint32)
    odd = (bits - away.astype(np.uint32)) | np.uint32(1)
    return np.where(inexact, odd, bits).view(np.float32).astype(BFLOAT16)


# TF32 (the tensor cores' f32 operand format): f32's 8 exponent bits and
# the top 10 of its 23 mantissa bits.
TF32_DROPPED_BITS = 13


def to_tf32(value: Any) -> np.ndarray:
    """`value` (f32) rounded to TF32 as PTX's `cvt.rna.tf32.f32` rounds: to
    the nearest, ties away from zero, kept as f32 with the low 13 mantissa
    bits zero. Adding half a unit of TF32's last place to the magnitude's
    bits and clearing the rest rounds ties away (f32 is sign-magnitude);
    a carry out of the mantissa steps the exponent, up to infinity. NaN
    stays NaN, infinities stay."""
    single = np.asarray(value, dtype=np.float32)
    bits = single.view(np.uint32)
    half = np.uint32(1 << (TF32_DROPPED_BITS - 1))
    low = np.uint32((1 << TF32_DROPPED_BITS) - 1)
    rounded = ((bits + half) & ~low).view(np.float32)
    return np.where(np.isnan(single), single, rounded).astype(np.float32)


def truncate_to_tf32(value: Any) -> np.ndarray:
    """`value` (f32) as the tensor cores read an f32 operand straight from
    shared memory as TF32 (PTX ISA, `wgmma.mma_async`: "will truncate lower
    13 bits of the 32-bit input data"): toward zero, kept as f32 with the
    low 13 mantissa bits cleared. NaN stays NaN (a NaN whose payload is
    only in those bits would otherwise read as infinity), infinities stay."""
    single = np.asarray(value, dtype=np.float32)
    low = np.uint32((1 << TF32_DROPPED_BITS) - 1)
    truncated = (single.view(np.uint32) & ~low).view(np.float32)
    return np.where(np.isnan(single), single, truncated).astype(np.float32)


def convert(value: Any, dtype: np.dtype[Any]) -> np.ndarray:
    """`value` as an array of `dtype`, each element rounded once (NumPy's
    `astype`, but bf16 from f64 or an integer through `to_bfloat16`)."""
    if np.dtype(dtype) == BFLOAT16:
        return to_bfloat16(value)
    return np.asarray(value).astype(dtype)


def loaded_array(array: np.ndarray) -> np.ndarray:
    """An array read back from a `.npy`/`.npz` file, bf16 restored.

    NumPy's file format has no name for ml_dtypes' types: `np.save` writes a
    bf16 array as raw 2-byte records (`|V2`), which irkit reads back as the
    bf16 it was (no other irkit type is saved so)."""
    if array.dtype == np.dtype("V2"):
        return array.view(BFLOAT16)
    return array


def element_bytes(element_type: Attribute) -> int | None:
    """The bytes one element of `element_type` takes: 8 for `index`, an
    integer's or float's width rounded up to whole bytes (`i1` takes one);
    None for a type without a known width."""
    if isinstance(element_type, IndexType):
        return 8
    width = getattr(element_type, "bitwidth", None)
    if not isinstance(width, int):
        return None
    return max(1, -(-width // 8))


_SIMPLE_DTYPES: dict[type[Attribute], np.dtype[Any]] = {
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
    Float16Type: np.dtype(np.float16),
    BFloat16Type: BFLOAT16,
    IndexType: np.dtype(np.int64),
}
_INT_NUMPY_DTYPES = {width: np.dtype(kind) for width, kind in _INT_DTYPES.items()}


def numpy_dtype(element_type: Attribute) -> np.dtype[Any]:
    """The NumPy dtype that holds values of the MLIR scalar type `element_type`.

    Integers are signless in MLIR; irkit stores them as signed two's complement
    (`i1` as bool) and unsigned ops reinterpret the bits.
    """
    # The interpreter asks this for every scalar op it runs: the exact
    # parameterless types by one dict probe, then the general checks.
    simple = _SIMPLE_DTYPES.get(type(element_type))
    if simple is not None:
        return simple
    if type(element_type) is IntegerType:
        integer = _INT_NUMPY_DTYPES.get(element_type.width.data)
        if integer is not None:
            return integer
    if isinstance(element_type, Float32Type):
        return np.dtype(np.float32)
    if isinstance(element_type, Float64Type):
        return np.dtype(np.float64)
    if isinstance(element_type, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element_type, BFloat16Type):
        return BFLOAT16
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
        "bfloat16": "bf16",
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


def poison(shape: tuple[int, ...], dtype: np.dtype[Any]) -> np.ndarray:
    """Contents nothing wrote: NaN for floats, the most negative integer, false."""
    if is_float_dtype(dtype):
        return np.full(shape, np.nan, dtype)
    if dtype == np.bool_:
        return np.zeros(shape, dtype)
    return np.full(shape, np.iinfo(dtype).min, dtype)


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
