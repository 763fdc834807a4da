"""The interpreter's values: conversions between MLIR types/attributes and
NumPy, the model of memory behind memrefs, and the calling convention.

Tensors are NumPy arrays, scalars NumPy scalars (`index` a Python int), and a
memref is a `MemRefValue`: a strided view (element offset, sizes, strides) of
a `Buffer`, one flat array per allocation that every view of it shares, with
a mask of the elements something wrote and a flag set when it is freed. See
`docs/interpreter-memory.md`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    MemRefType,
    TensorType,
    VectorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from irkit.abi import input_argument_indices, output_argument_indices

# Re-exported: their home is irkit.dtypes (irkit.diagnostics for InputError);
# importers outside the interpreter still name them here.
from irkit.diagnostics import InputError as InputError
from irkit.diagnostics import location_of
from irkit.dtypes import convert, numpy_dtype, poison
from irkit.dtypes import dense_resource_to_array as dense_resource_to_array
from irkit.dtypes import dense_to_array as dense_to_array
from irkit.dtypes import type_of_value_text as type_of_value_text
from irkit.interpreter.core import (
    InterpretationError,
    UnlocatedOpError,
    interpretation_error,
)


def scalar(value: Any, element_type: Attribute) -> Any:
    """`value` as the interpreter's scalar of MLIR type `element_type`."""
    if isinstance(element_type, IndexType):
        return int(value)
    return convert(value, numpy_dtype(element_type))[()]


def describe(value: Any) -> str:
    """A short `shape x dtype` text for error messages."""
    array = np.asarray(value)
    dims = "x".join(str(d) for d in array.shape)
    element = type_of_value_text(array.dtype)
    return f"tensor<{dims}x{element}>" if dims else f"tensor<{element}>"


def _shape_matches(shape: tuple[int, ...], expected: Sequence[int]) -> bool:
    """Whether `shape` fits `expected`, whose dynamic sizes match anything."""
    return len(shape) == len(expected) and all(
        want in (DYNAMIC_INDEX, got) for got, want in zip(shape, expected, strict=True)
    )


def coerce_arguments(func: FuncOp, args: Sequence[Any]) -> list[Any]:
    """Check a caller's `args` against `func`'s inputs and convert them to values.

    A caller supplies the input arguments only (`irkit.abi`): output buffers
    are allocated by the interpreter. Tensors and memrefs are given as arrays
    (memrefs stay arrays here; `bind_arguments` copies them into buffers).
    Raises `InputError` (one clear line) on a wrong count, shape or dtype.
    """
    types = func.function_type.inputs.data
    positions = input_argument_indices(func)
    name = func.sym_name.data
    if len(args) != len(positions):
        outputs = len(types) - len(positions)
        note = (
            f" (its {outputs} output buffer(s) are allocated by the interpreter)"
            if outputs
            else ""
        )
        raise InputError(
            f"@{name} takes {len(positions)} argument(s){note}, {len(args)} given"
        )
    values: list[Any] = []
    for index, arg in zip(positions, args, strict=True):
        expected = types[index]
        if isinstance(expected, TensorType | MemRefType):
            shaped = cast(TensorType[Attribute], expected)
            array = np.asarray(arg)
            dtype = numpy_dtype(shaped.get_element_type())
            if not _shape_matches(array.shape, shaped.get_shape()) or (
                array.dtype != dtype
            ):
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
            try:
                values.append(scalar(arg, expected))
            except (TypeError, ValueError):  # None, a string, an object
                raise InputError(
                    f"argument #{index} of @{name} must be a scalar {expected}, "
                    f"got {type(arg).__name__} {arg!r:.40}"
                ) from None
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
        array = np.asarray(value)
        return array if array.dtype == dtype else convert(array, dtype)
    if isinstance(value, MemRefValue):
        return value
    if isinstance(mlir_type, VectorType):
        dtype = numpy_dtype(mlir_type.get_element_type())
        array = np.asarray(value)
        return array if array.dtype == dtype else convert(array, dtype)
    if isinstance(mlir_type, IndexType):
        if np.ndim(value) == 0:
            return int(value)
        return np.asarray(value).astype(np.int64, copy=False)
    dtype = numpy_dtype(mlir_type)
    array = np.asarray(value)
    if array.dtype != dtype:
        array = convert(array, dtype)
    return array[()] if array.ndim == 0 else array


# --------------------------------------------------------------------------
# Memory: buffers and the memref views of them
# --------------------------------------------------------------------------


@dataclass(eq=False)
class Buffer:
    """One allocation: the flat storage every view of it shares.

    `written` marks the elements something stored to; reading any other one is
    reported. `origin` names the buffer in messages ("memref.alloc at
    f.mlir:3:8", "output #0 of @f"). A `constant` buffer (a constant
    `memref.global`) may not be written; only a `heap` buffer (`memref.alloc`)
    may be freed, once, and a freed buffer may not be used.

    Inside a GPU kernel one allocation may stand for `copies` of itself, one
    per block (workgroup memory) or per thread (private memory), laid end to
    end; a view then never reaches past its own copy of `instance_size`
    elements.
    """

    data: np.ndarray
    written: np.ndarray
    origin: str
    constant: bool = False
    heap: bool = False
    freed: bool = False
    copies: int = 1

    @property
    def instance_size(self) -> int:
        return self.data.size // self.copies

    @classmethod
    def poisoned(
        cls,
        size: int,
        dtype: np.dtype[Any],
        origin: str,
        copies: int = 1,
        **flags: bool,
    ) -> Buffer:
        return cls(
            poison((size,), dtype),
            np.zeros(size, np.bool_),
            origin,
            copies=copies,
            **flags,
        )


@dataclass(frozen=True, eq=False)
class MemRefValue:
    """A memref: a strided view of a `Buffer`, in elements.

    Element `[i0, ..., in]` lives at `buffer.data[offset + sum(ik * strides[k])]`.
    Views made by subview, reshapes and casts share the buffer (and its
    `written` mask), so a store through one is seen through all.

    Inside a GPU kernel a view may differ from thread to thread: `lanes`
    then holds one extra element offset per thread of the grid (its block's
    copy of workgroup memory, its own copy of private memory, a subview at a
    thread-dependent offset). Such a view is accessed only element by element
    (`irkit.interpreter.gpu`); `array()` refuses it.
    """

    buffer: Buffer
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    lanes: np.ndarray | None = None

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.buffer.data.dtype

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def fits(self) -> bool:
        """Whether every element of the view lies inside its buffer."""
        extent = self.buffer.instance_size
        if self.size == 0:
            return 0 <= self.offset <= extent
        low = self.offset + sum(
            (n - 1) * s for n, s in zip(self.shape, self.strides, strict=True) if s < 0
        )
        high = self.offset + sum(
            (n - 1) * s for n, s in zip(self.shape, self.strides, strict=True) if s > 0
        )
        return 0 <= low and high < extent

    def view(
        self, offset: int, shape: Sequence[int], strides: Sequence[int]
    ) -> MemRefValue:
        """Another view of the same buffer (check `fits()` on the result)."""
        return MemRefValue(
            self.buffer, offset, tuple(shape), tuple(strides), self.lanes
        )

    def _strided(self, flat: np.ndarray) -> np.ndarray:
        # The base starts at `offset`; `fits()` keeps negative strides inside.
        if self.lanes is not None or self.buffer.copies != 1:
            raise UnlocatedOpError(
                "accesses a per-block or per-thread memref as a whole; in a "
                "GPU kernel only memref.load and memref.store reach it"
            )
        itemsize = flat.itemsize
        return np.lib.stride_tricks.as_strided(
            flat[self.offset :] if self.size else flat[:0],
            shape=self.shape,
            strides=tuple(stride * itemsize for stride in self.strides),
        )

    def array(self) -> np.ndarray:
        """The elements as a writeable ndarray view of the buffer."""
        return self._strided(self.buffer.data)

    def written_mask(self) -> np.ndarray:
        """Which elements something wrote, as a writeable view of the mask."""
        return self._strided(self.buffer.written)

    def element(self, index: Sequence[int]) -> int:
        """The position in the buffer of element `index` (assumed in bounds)."""
        return self.offset + sum(
            int(i) * s for i, s in zip(index, self.strides, strict=True)
        )


def _layout(memref_type: MemRefType[Attribute]) -> tuple[int, tuple[int, ...]] | None:
    """The static offset and strides of `memref_type`'s layout, if it has them."""
    strides = memref_type.get_strides()
    offset = memref_type.get_offset()
    if strides is None or offset is None or any(s is None for s in strides):
        return None
    static = tuple(cast(int, s) for s in strides)
    if any(s < 0 for s in static) or offset < 0:
        return None
    return offset, static


def allocate(
    memref_type: MemRefType[Attribute],
    origin: str,
    shape: Sequence[int] | None = None,
    **flags: bool,
) -> MemRefValue:
    """A fresh poisoned, unwritten buffer viewed as `memref_type` says.

    `shape` gives the dynamic sizes' values (defaults to the static shape). A
    static strided layout is honoured (the buffer is as large as the furthest
    element); any other layout is the identity.
    """
    sizes = tuple(shape) if shape is not None else tuple(memref_type.get_shape())
    layout = _layout(memref_type)
    if layout is None or len(layout[1]) != len(sizes):
        offset, strides = 0, _row_major_strides(sizes)
    else:
        offset, strides = layout
    if all(n > 0 for n in sizes):
        extent = offset + sum((n - 1) * s for n, s in zip(sizes, strides, strict=True))
        count = extent + 1
    else:
        count = offset
    dtype = numpy_dtype(memref_type.get_element_type())
    buffer = Buffer.poisoned(count, dtype, origin, **flags)
    return MemRefValue(buffer, offset, sizes, strides)


def _row_major_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        running *= max(size, 1)
    return tuple(reversed(strides))


def memref_holding(
    array: np.ndarray, memref_type: MemRefType[Attribute], origin: str, **flags: bool
) -> MemRefValue:
    """A fresh buffer laid out as `memref_type`, holding a copy of `array`."""
    value = allocate(memref_type, origin, array.shape, **flags)
    value.array()[...] = array
    value.written_mask()[...] = True
    return value


def format_index(index: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(i)) for i in index) + "]"


def first_unwritten(mask: np.ndarray) -> tuple[int, ...]:
    """The first index (row-major) where `mask` is false."""
    return tuple(int(i) for i in np.argwhere(~mask)[0])


def check_live(op: Operation, memref: MemRefValue) -> None:
    """Reject a use of a freed buffer."""
    if memref.buffer.freed:
        raise interpretation_error(
            op, f"uses a buffer that was freed ({memref.buffer.origin})"
        )


def check_writable(op: Operation, memref: MemRefValue) -> None:
    """Reject a write to a freed buffer or a constant global."""
    check_live(op, memref)
    if memref.buffer.constant:
        raise interpretation_error(
            op, f"writes to a constant buffer ({memref.buffer.origin})"
        )


def unwritten_read(
    op: Operation, memref: MemRefValue, index: Sequence[int]
) -> InterpretationError:
    """The error for reading element `index` of `memref` that nothing wrote."""
    return interpretation_error(
        op,
        f"reads element {format_index(index)} of a buffer nothing wrote "
        f"({memref.buffer.origin})",
    )


def read_memref(op: Operation, memref: MemRefValue) -> np.ndarray:
    """All elements of `memref`, as a new array; each must have been written."""
    check_live(op, memref)
    mask = memref.written_mask()
    if not mask.all():
        raise unwritten_read(op, memref, first_unwritten(mask))
    return memref.array().copy()


def write_memref(op: Operation, memref: MemRefValue, values: Any) -> None:
    """Store `values` (broadcast to the view's shape) into every element."""
    check_writable(op, memref)
    memref.array()[...] = values
    memref.written_mask()[...] = True


# --------------------------------------------------------------------------
# The calling convention (`irkit.abi`): inputs in, results and outputs out
# --------------------------------------------------------------------------


def bind_arguments(func: FuncOp, inputs: Sequence[Any]) -> list[Any]:
    """Every argument of `func`, from the caller's coerced `inputs`.

    A memref input is copied into a fresh buffer, all written; each
    `irkit.output` argument gets a fresh poisoned buffer nothing wrote.
    """
    types = func.function_type.inputs.data
    name = func.sym_name.data
    args: list[Any] = [None] * len(types)
    for index, value in zip(input_argument_indices(func), inputs, strict=True):
        expected = types[index]
        if isinstance(expected, MemRefType):
            origin = f"argument #{index} of @{name}"
            args[index] = memref_holding(np.asarray(value), expected, origin)
        else:
            args[index] = value
    for number, index in enumerate(output_argument_indices(func)):
        expected = types[index]
        if not isinstance(expected, MemRefType) or any(
            size == DYNAMIC_INDEX for size in expected.get_shape()
        ):
            raise InputError(
                f"output #{number} of @{name} must be a statically shaped memref, "
                f"not {expected}"
            )
        args[index] = allocate(expected, f"output #{number} of @{name}")
    return args


def _returned_array(func: FuncOp, what: str, value: Any) -> np.ndarray:
    if not isinstance(value, MemRefValue):
        return np.asarray(value)
    where = location_of(func)
    if value.buffer.freed:
        raise InterpretationError(f"{what} is a buffer that was freed", where)
    mask = value.written_mask()
    if not mask.all():
        missing = mask.size - int(np.count_nonzero(mask))
        raise InterpretationError(
            f"{what}: {missing} of {mask.size} elements were never written, "
            f"first at {format_index(first_unwritten(mask))}",
            where,
        )
    return value.array().copy()


def collect_results(
    func: FuncOp, results: Sequence[Any], args: Sequence[Any]
) -> tuple[np.ndarray, ...]:
    """What a call of `func` gives back: its results, then its output buffers,
    as arrays. A memref element nothing wrote is an error.
    """
    name = func.sym_name.data
    arrays = [
        _returned_array(func, f"result #{number} of @{name}", value)
        for number, value in enumerate(results)
    ]
    for number, index in enumerate(output_argument_indices(func)):
        arrays.append(
            _returned_array(func, f"output #{number} of @{name}", args[index])
        )
    return tuple(arrays)
