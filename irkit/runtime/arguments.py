"""How a compiled function's caller-facing arguments are described and checked.

Both runtimes (`cpu.py`, `cuda.py`) call functions that follow `docs/abi.md`:
the caller passes the inputs, the runtime provides the `{irkit.output}`
buffers (or checks the ones given as `out=`). Everything about validating
those arguments lives here, so both targets reject the same mistakes with the
same `InputError` (a `ValueError`) before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.func import FuncOp

from irkit.diagnostics import InputError
from irkit.dtypes import convert, poison

if TYPE_CHECKING:
    from irkit.targets.c import CArgument


def row_major_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """The element strides of a dense, row-major array of `shape`."""
    strides: list[int] = []
    step = 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


@dataclass(frozen=True)
class Parameter:
    """One argument of a compiled function, as the caller sees it.

    Its derived facts are computed once (`cached_property`): every call of
    a compiled function checks its arguments against them."""

    position: int
    display_name: str  # `%b`: the IR's name, for messages
    argument: CArgument
    is_buffer: bool  # a memref (pointer) rather than a scalar by value

    @cached_property
    def dtype(self) -> np.dtype[Any]:
        return np.dtype(self.argument.element_type)

    @cached_property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.argument.shape)

    @cached_property
    def is_dense(self) -> bool:
        """Whether the layout is row-major with offset 0 (what NumPy passes)."""
        if self.argument.offset != 0:
            return False
        dense = row_major_strides(self.shape)
        return all(
            size == 1 or stride == expected
            for size, stride, expected in zip(
                self.shape, self.argument.strides, dense, strict=True
            )
        )

    @cached_property
    def buffer_elements(self) -> int:
        """How many elements the buffer behind a strided memref spans."""
        if any(size == 0 for size in self.shape):
            return 0
        span = sum(
            (size - 1) * stride
            for size, stride in zip(self.shape, self.argument.strides, strict=True)
        )
        return self.argument.offset + span + 1

    @cached_property
    def buffer_bytes(self) -> int:
        return self.buffer_elements * self.dtype.itemsize

    def describe(self) -> str:
        return f"shape {self.shape} {self.dtype.name}"

    def label(self) -> str:
        return f"argument {self.position} ({self.display_name})"


def argument_names(func: FuncOp) -> tuple[str, ...]:
    """The IR names of `func`'s arguments, as messages show them (`%b`)."""
    return tuple(
        f"%{arg.name_hint}" if arg.name_hint else f"%arg{i}"
        for i, arg in enumerate(func.body.blocks[0].args)
    )


def describe_parameters(
    arguments: Sequence[CArgument],
    func: FuncOp | None = None,
    names: Sequence[str] | None = None,
) -> tuple[Parameter, ...]:
    """The parameters of a printed function with `arguments`; `func`, the
    `func.func` it was printed from, or its `argument_names`, give them
    their IR names (`%b`)."""
    if func is not None:
        names = argument_names(func)
    if names is None:
        names = [argument.name for argument in arguments]
    return tuple(
        Parameter(position, names[position], argument, not argument.is_scalar)
        for position, argument in enumerate(arguments)
    )


def check_input_count(symbol: str, inputs: Sequence[Any], expected: int) -> None:
    if len(inputs) != expected:
        raise InputError(f"@{symbol} takes {expected} input(s), {len(inputs)} given")


def coerce_host_input(parameter: Parameter, value: Any, symbol: str) -> np.ndarray:
    """`value` as a NumPy array of `parameter`'s exact dtype and shape.

    NumPy arrays must already have the dtype; plain Python values (lists,
    numbers) are converted when the conversion keeps their kind.
    """
    array = np.asarray(value)
    if (
        not isinstance(value, np.ndarray | np.generic)
        and array.dtype != parameter.dtype
    ):
        if np.can_cast(array.dtype, parameter.dtype, casting="same_kind"):
            array = convert(array, parameter.dtype)
    check_shape_and_dtype(
        parameter, array.shape, array.dtype, f"@{symbol}: {parameter.label()}"
    )
    return array


def check_shape_and_dtype(
    parameter: Parameter, shape: tuple[int, ...], dtype: np.dtype[Any], where: str
) -> None:
    if shape != parameter.shape or dtype != parameter.dtype:
        raise InputError(
            f"{where}: expected {parameter.describe()}, got {shape} {dtype.name}"
        )


def output_where(parameter: Parameter, symbol: str) -> str:
    """How messages about an `out=` array name it."""
    return f"@{symbol}: out= for {parameter.label()}"


def check_host_output(parameter: Parameter, array: Any, symbol: str) -> np.ndarray:
    """`array` if it can receive `parameter`'s result in place."""
    where = output_where(parameter, symbol)
    if not isinstance(array, np.ndarray):
        raise InputError(f"{where}: expected a NumPy array, got {type(array).__name__}")
    check_shape_and_dtype(parameter, array.shape, array.dtype, where)
    if not array.flags.c_contiguous or not array.flags.aligned:
        raise InputError(f"{where}: must be C-contiguous and aligned")
    if not array.flags.writeable:
        raise InputError(f"{where}: is read-only")
    return array


def split_out(out: Any, outputs: Sequence[Parameter], symbol: str) -> list[Any]:
    """`out=` as one object per output: a list or tuple gives them in order,
    anything else is the single output's array."""
    given = list(out) if isinstance(out, list | tuple) else [out]
    if len(given) != len(outputs):
        raise InputError(
            f"@{symbol} has {len(outputs)} output(s), out= gives {len(given)}"
        )
    return given


def check_output_aliasing(
    symbol: str,
    outputs: Sequence[Parameter],
    given: Sequence[Any],
    inputs: Sequence[Parameter],
    values: Sequence[Any],
    shares_memory: Callable[[Any, Any], bool],
) -> None:
    """Refuse an `out=` array that overlaps an input or an earlier output.

    The compiled code marks every pointer `restrict` (C) or reads inputs while
    writing outputs (CUDA), so any overlap would be undefined behaviour.
    `shares_memory(a, b)` decides overlap for the runtime's kind of memory.
    """
    for index, array in enumerate(given):
        label = outputs[index].label()
        for parameter, value in zip(inputs, values, strict=True):
            if shares_memory(array, value):
                raise InputError(
                    f"@{symbol}: out= for {label} shares memory with input "
                    f"{parameter.label()}"
                )
        for other in range(index):
            if shares_memory(array, given[other]):
                raise InputError(
                    f"@{symbol}: out= for {label} shares memory with out= for "
                    f"{outputs[other].label()}"
                )


def host_arrays_share_memory(a: Any, b: Any) -> bool:
    return (
        isinstance(a, np.ndarray)
        and isinstance(b, np.ndarray)
        and bool(np.shares_memory(a, b))
    )


def strided_view(buffer: np.ndarray, parameter: Parameter) -> np.ndarray:
    """The memref's elements inside its backing `buffer`, as a NumPy view."""
    itemsize = buffer.dtype.itemsize
    return np.lib.stride_tricks.as_strided(
        buffer[parameter.argument.offset :],
        shape=parameter.shape,
        strides=tuple(s * itemsize for s in parameter.argument.strides),
    )


def host_buffer_for(
    parameter: Parameter,
    array: np.ndarray,
    write_back: list[tuple[np.ndarray, np.ndarray]],
) -> np.ndarray:
    """The contiguous host memory that holds `array` in `parameter`'s layout.

    Dense parameters use `array` itself (copied only when it is not
    C-contiguous); a strided memref is laid out in a poisoned backing buffer of
    the size its layout spans, and for outputs `(array, view)` is recorded in
    `write_back` so the caller copies the results back after the call.
    """
    if parameter.is_dense:
        if parameter.argument.is_output:
            return array  # checked or freshly allocated: contiguous
        return np.require(array, requirements=["C", "A"])
    buffer = poison((parameter.buffer_elements,), parameter.dtype)
    view = strided_view(buffer, parameter)
    view[...] = array
    if parameter.argument.is_output:
        write_back.append((array, view))
    return buffer
