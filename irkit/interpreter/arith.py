"""Reference semantics of the `arith` dialect.

Every implementation works on NumPy scalars and, elementwise, on arrays (the
bodies of `linalg.generic` run vectorised). Results have the exact MLIR type:
f32 stays f32, integers wrap in two's complement, `index` is a Python int (or
an int64 array).

Where MLIR leaves a result undefined (poison or UB), irkit picks one
deterministic value, documented per op:
- division or remainder by zero (`divsi`, `divui`, `remsi`, `remui`,
  `floordivsi`, `ceildivsi`, `ceildivui`) gives 0;
- shifts by an amount >= the bit width give 0 (`shli`, `shrui`) or the sign
  fill, 0 or -1 (`shrsi`);
- `fptosi`/`fptoui` truncate toward zero and saturate: a value beyond the
  result type's range gives its minimum or maximum, NaN gives 0 (what CUDA's
  `cvt.rzi.sat` and LLVM's `fptosi.sat` do; the C and CUDA targets print the
  same); to i1, `fptosi` is true for x <= -1 (i1 is -1 or 0 signed) and
  `fptoui` for x >= 1;
- the signed overflow of `divsi(INT_MIN, -1)` wraps to INT_MIN.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation

from irkit.dtypes import (
    convert,
    dense_resource_to_array,
    dense_to_array,
    numpy_dtype,
)
from irkit.interpreter.core import Interpreter, interpretation_error, register
from irkit.interpreter.values import (
    to_value,
    unsigned_dtype,
    wrap_integer,
)

Values = tuple[Any, ...]


def _element_type(mlir_type: Attribute) -> Attribute:
    if isinstance(mlir_type, TensorType):
        return mlir_type.get_element_type()
    return mlir_type


def _dtype(mlir_type: Attribute) -> np.dtype[Any]:
    return numpy_dtype(_element_type(mlir_type))


def _result(op: Operation, value: Any) -> Values:
    return (to_value(value, op.results[0].type),)


def _array(value: Any, mlir_type: Attribute) -> np.ndarray:
    """`value` as an array of `mlir_type`'s element dtype (index: int64)."""
    return np.asarray(value, dtype=_dtype(mlir_type))


def _unsigned(value: Any, mlir_type: Attribute) -> np.ndarray:
    """The bits of `value` read as an unsigned integer of the same width."""
    array = _array(value, mlir_type)
    return array.view(unsigned_dtype(array.dtype))


def _signed_from_i1(array: np.ndarray) -> np.ndarray:
    """i1 read as a signed integer: true is -1."""
    return np.where(array, np.int8(-1), np.int8(0))


# --------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------


@register("arith.constant")
def constant(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = op.properties["value"]
    result_type = op.results[0].type
    if isinstance(value, DenseIntOrFPElementsAttr):
        return (dense_to_array(value),)
    if isinstance(value, DenseResourceAttr):
        return (dense_resource_to_array(value),)
    if isinstance(value, IntegerAttr):
        if isinstance(result_type, IndexType):
            return (int(value.value.data),)
        return (wrap_integer(int(value.value.data), numpy_dtype(result_type)),)
    if isinstance(value, FloatAttr):
        return (convert(value.value.data, numpy_dtype(result_type))[()],)
    raise interpretation_error(op, f"unsupported constant {value}")


# --------------------------------------------------------------------------
# Integer arithmetic
# --------------------------------------------------------------------------


def _integer_binary(
    name: str, function: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> None:
    """Register `name` as `function` on two integers, wrapping (i1 mod 2)."""

    @register(name)
    def impl(interp: Interpreter, op: Operation, args: Values) -> Values:
        lhs_type = op.operands[0].type
        lhs = _array(args[0], lhs_type)
        rhs = _array(args[1], lhs_type)
        if lhs.dtype == np.bool_:
            wide = function(lhs.astype(np.int8), rhs.astype(np.int8))
            return _result(op, (wide & 1).astype(np.bool_))
        return _result(op, function(lhs, rhs))


_integer_binary("arith.addi", np.add)
_integer_binary("arith.subi", np.subtract)
_integer_binary("arith.muli", np.multiply)
_integer_binary("arith.andi", np.bitwise_and)
_integer_binary("arith.ori", np.bitwise_or)
_integer_binary("arith.xori", np.bitwise_xor)


def _safe_divisor(rhs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The divisor with zeros replaced by 1, and where it was zero."""
    zero = rhs == 0
    return np.where(zero, np.ones_like(rhs), rhs), zero


def _signed_operands(op: Operation, args: Values) -> tuple[np.ndarray, np.ndarray]:
    lhs = _array(args[0], op.operands[0].type)
    rhs = _array(args[1], op.operands[1].type)
    if lhs.dtype == np.bool_:
        return _signed_from_i1(lhs), _signed_from_i1(rhs)
    return lhs, rhs


def _truncating_divide(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Integer division rounding toward zero (C semantics), rhs != 0."""
    quotient = lhs // rhs
    remainder = lhs - quotient * rhs
    adjust = (remainder != 0) & ((lhs < 0) != (rhs < 0))
    return quotient + adjust.astype(quotient.dtype)


@register("arith.divsi")
def divsi(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _signed_operands(op, args)
    divisor, zero = _safe_divisor(rhs)
    quotient = _truncating_divide(lhs, divisor)
    return _result(op, np.where(zero, 0, quotient).astype(lhs.dtype))


@register("arith.remsi")
def remsi(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _signed_operands(op, args)
    divisor, zero = _safe_divisor(rhs)
    remainder = lhs - _truncating_divide(lhs, divisor) * divisor
    return _result(op, np.where(zero, 0, remainder).astype(lhs.dtype))


@register("arith.floordivsi")
def floordivsi(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _signed_operands(op, args)
    divisor, zero = _safe_divisor(rhs)
    return _result(op, np.where(zero, 0, lhs // divisor).astype(lhs.dtype))


@register("arith.ceildivsi")
def ceildivsi(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _signed_operands(op, args)
    divisor, zero = _safe_divisor(rhs)
    floor = lhs // divisor
    quotient = floor + (lhs - floor * divisor != 0).astype(floor.dtype)
    return _result(op, np.where(zero, 0, quotient).astype(lhs.dtype))


def _unsigned_operands(op: Operation, args: Values) -> tuple[np.ndarray, np.ndarray]:
    lhs = _unsigned(args[0], op.operands[0].type)
    rhs = _unsigned(args[1], op.operands[1].type)
    if lhs.dtype == np.bool_:
        return lhs.astype(np.uint8), rhs.astype(np.uint8)
    return lhs, rhs


def _from_unsigned(op: Operation, value: np.ndarray) -> Values:
    dtype = _dtype(op.results[0].type)
    if dtype == np.bool_:
        return _result(op, (value & 1).astype(np.bool_))
    return _result(op, np.asarray(value).astype(unsigned_dtype(dtype)).view(dtype))


@register("arith.divui")
def divui(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _unsigned_operands(op, args)
    divisor, zero = _safe_divisor(rhs)
    return _from_unsigned(op, np.where(zero, 0, lhs // divisor).astype(lhs.dtype))


@register("arith.remui")
def remui(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _unsigned_operands(op, args)
    divisor, zero = _safe_divisor(rhs)
    return _from_unsigned(op, np.where(zero, 0, lhs % divisor).astype(lhs.dtype))


@register("arith.ceildivui")
def ceildivui(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _unsigned_operands(op, args)
    divisor, zero = _safe_divisor(rhs)
    quotient = lhs // divisor + (lhs % divisor != 0).astype(lhs.dtype)
    return _from_unsigned(op, np.where(zero, 0, quotient).astype(lhs.dtype))


@register("arith.maxsi")
def maxsi(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _signed_operands(op, args)
    result = np.maximum(lhs, rhs)
    if _dtype(op.results[0].type) == np.bool_:
        return _result(op, result != 0)
    return _result(op, result)


@register("arith.minsi")
def minsi(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _signed_operands(op, args)
    result = np.minimum(lhs, rhs)
    if _dtype(op.results[0].type) == np.bool_:
        return _result(op, result != 0)
    return _result(op, result)


@register("arith.maxui")
def maxui(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _unsigned_operands(op, args)
    return _from_unsigned(op, np.maximum(lhs, rhs))


@register("arith.minui")
def minui(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = _unsigned_operands(op, args)
    return _from_unsigned(op, np.minimum(lhs, rhs))


def _shift_amounts(op: Operation, args: Values) -> tuple[np.ndarray, np.ndarray, int]:
    """The shifted value, the shift amount (unsigned, clipped), and the width."""
    value = _array(args[0], op.operands[0].type)
    width = 1 if value.dtype == np.bool_ else 8 * value.dtype.itemsize
    amount = _unsigned(args[1], op.operands[1].type).astype(np.uint64)
    return value, amount, width


@register("arith.shli")
def shli(interp: Interpreter, op: Operation, args: Values) -> Values:
    value, amount, width = _shift_amounts(op, args)
    if value.dtype == np.bool_:
        return _result(op, value & (amount == 0))
    clipped = np.minimum(amount, width - 1).astype(value.dtype)
    shifted = np.left_shift(value, clipped)
    return _result(op, np.where(amount >= width, 0, shifted).astype(value.dtype))


@register("arith.shrui")
def shrui(interp: Interpreter, op: Operation, args: Values) -> Values:
    value, amount, width = _shift_amounts(op, args)
    if value.dtype == np.bool_:
        return _result(op, value & (amount == 0))
    bits = value.view(unsigned_dtype(value.dtype))
    clipped = np.minimum(amount, width - 1).astype(bits.dtype)
    shifted = np.right_shift(bits, clipped)
    shifted = np.where(amount >= width, 0, shifted).astype(bits.dtype)
    return _result(op, shifted.view(value.dtype))


@register("arith.shrsi")
def shrsi(interp: Interpreter, op: Operation, args: Values) -> Values:
    value, amount, width = _shift_amounts(op, args)
    if value.dtype == np.bool_:
        return _result(op, value)
    clipped = np.minimum(amount, width - 1).astype(value.dtype)
    return _result(op, np.right_shift(value, clipped))


_CMPI: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "eq": np.equal,
    "ne": np.not_equal,
    "slt": np.less,
    "sle": np.less_equal,
    "sgt": np.greater,
    "sge": np.greater_equal,
    "ult": np.less,
    "ule": np.less_equal,
    "ugt": np.greater,
    "uge": np.greater_equal,
}
_CMPI_NAMES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


@register("arith.cmpi")
def cmpi(interp: Interpreter, op: Operation, args: Values) -> Values:
    predicate = _CMPI_NAMES[op.properties["predicate"].value.data]  # type: ignore[attr-defined]
    operand_type = op.operands[0].type
    if predicate.startswith("u"):
        lhs = _unsigned(args[0], operand_type)
        rhs = _unsigned(args[1], operand_type)
    elif _dtype(operand_type) == np.bool_ and predicate[0] == "s":
        lhs = _signed_from_i1(_array(args[0], operand_type))
        rhs = _signed_from_i1(_array(args[1], operand_type))
    else:
        lhs = _array(args[0], operand_type)
        rhs = _array(args[1], operand_type)
    return _result(op, _CMPI[predicate](lhs, rhs))


# --------------------------------------------------------------------------
# Floating-point arithmetic
# --------------------------------------------------------------------------


def _float_binary(
    name: str, function: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> None:
    """Register `name` as `function` on two floats, in their precision."""

    @register(name)
    def impl(interp: Interpreter, op: Operation, args: Values) -> Values:
        operand_type = op.operands[0].type
        return _result(
            op, function(_array(args[0], operand_type), _array(args[1], operand_type))
        )


_float_binary("arith.addf", np.add)
_float_binary("arith.subf", np.subtract)
_float_binary("arith.mulf", np.multiply)
_float_binary("arith.divf", np.divide)
_float_binary("arith.remf", np.fmod)
# maximumf/minimumf propagate NaN; maxnumf/minnumf return the non-NaN operand.
_float_binary("arith.maximumf", np.maximum)
_float_binary("arith.minimumf", np.minimum)
_float_binary("arith.maxnumf", np.fmax)
_float_binary("arith.minnumf", np.fmin)


@register("arith.negf")
def negf(interp: Interpreter, op: Operation, args: Values) -> Values:
    return _result(op, np.negative(_array(args[0], op.operands[0].type)))


_CMPF_NAMES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip
_ORDERED: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "eq": np.equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "lt": np.less,
    "le": np.less_equal,
    "ne": np.not_equal,
}


@register("arith.cmpf")
def cmpf(interp: Interpreter, op: Operation, args: Values) -> Values:
    predicate = _CMPF_NAMES[op.properties["predicate"].value.data]  # type: ignore[attr-defined]
    operand_type = op.operands[0].type
    lhs = _array(args[0], operand_type)
    rhs = _array(args[1], operand_type)
    unordered = np.isnan(lhs) | np.isnan(rhs)
    if predicate == "false":
        result = np.zeros(np.broadcast_shapes(lhs.shape, rhs.shape), np.bool_)
    elif predicate == "true":
        result = np.ones(np.broadcast_shapes(lhs.shape, rhs.shape), np.bool_)
    elif predicate == "ord":
        result = ~unordered
    elif predicate == "uno":
        result = unordered
    elif predicate[0] == "o":
        # NumPy comparisons with NaN are false, as ordered predicates require,
        # except `!=`, which is true.
        result = _ORDERED[predicate[1:]](lhs, rhs) & ~unordered
    else:
        result = _ORDERED[predicate[1:]](lhs, rhs) | unordered
    return _result(op, result)


# --------------------------------------------------------------------------
# Selection and casts
# --------------------------------------------------------------------------


@register("arith.select")
def select(interp: Interpreter, op: Operation, args: Values) -> Values:
    condition, on_true, on_false = args
    return _result(
        op, np.where(np.asarray(condition, dtype=np.bool_), on_true, on_false)
    )


@register("arith.extf", "arith.truncf")
def float_cast(interp: Interpreter, op: Operation, args: Values) -> Values:
    return _result(op, _array(args[0], op.operands[0].type))


@register("arith.extsi")
def extsi(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _array(args[0], op.operands[0].type)
    if value.dtype == np.bool_:
        value = _signed_from_i1(value)
    return _result(op, value)


@register("arith.extui")
def extui(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _unsigned(args[0], op.operands[0].type)
    wide = value.astype(unsigned_dtype(_dtype(op.results[0].type)))
    return _result(op, wide.view(_dtype(op.results[0].type)))


@register("arith.trunci")
def trunci(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _array(args[0], op.operands[0].type)
    if _dtype(op.results[0].type) == np.bool_:
        return _result(op, (value & 1).astype(np.bool_))
    return _result(op, value.astype(_dtype(op.results[0].type)))


@register("arith.sitofp")
def sitofp(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _array(args[0], op.operands[0].type)
    if value.dtype == np.bool_:
        value = _signed_from_i1(value)
    return _result(op, value)


@register("arith.uitofp")
def uitofp(interp: Interpreter, op: Operation, args: Values) -> Values:
    return _result(op, _unsigned(args[0], op.operands[0].type))


def saturated(value: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    """`value` truncated toward zero into integer `dtype` (signed or unsigned),
    beyond its range clamped to its minimum or maximum, NaN to 0 (`fptosi`,
    `fptoui` and `nn.cast`).

    Compared as float64 against the range's bounds, which are powers of two
    (exact), as the C helper compares: clipping to `iinfo.max` instead would
    round 2**63 - 1 up to 2**63, itself out of range."""
    info = np.iinfo(dtype)
    x = np.trunc(value.astype(np.float64))
    low, high = float(info.min), float(info.max) + 1.0
    inside = (x >= low) & (x < high)  # false for NaN
    result = np.where(inside, x, 0.0).astype(dtype)
    result = np.where(x >= high, info.max, result)
    return np.where(x < low, info.min, result).astype(dtype)


@register("arith.fptosi")
def fptosi(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _array(args[0], op.operands[0].type)
    dtype = _dtype(op.results[0].type)
    if dtype == np.bool_:
        # Signed i1 holds -1 (true) and 0: saturating, only x <= -1 is true.
        return _result(op, value <= -1)
    return _result(op, saturated(value, dtype))


@register("arith.fptoui")
def fptoui(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _array(args[0], op.operands[0].type)
    dtype = _dtype(op.results[0].type)
    if dtype == np.bool_:
        # Unsigned i1 holds 0 and 1 (true): saturating, x >= 1 is true.
        return _result(op, value >= 1)
    return _result(op, saturated(value, unsigned_dtype(dtype)).view(dtype))


@register("arith.index_cast")
def index_cast(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _array(args[0], op.operands[0].type)
    if value.dtype == np.bool_:
        value = _signed_from_i1(value)
    target = _dtype(op.results[0].type)
    if target == np.bool_:
        return _result(op, (value & 1).astype(np.bool_))
    return _result(op, value.astype(target))


@register("arith.index_castui")
def index_castui(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _unsigned(args[0], op.operands[0].type)
    target = _dtype(op.results[0].type)
    if target == np.bool_:
        return _result(op, (value & 1).astype(np.bool_))
    return _result(op, value.astype(unsigned_dtype(target)).view(target))


@register("arith.bitcast")
def bitcast(interp: Interpreter, op: Operation, args: Values) -> Values:
    value = _array(args[0], op.operands[0].type)
    target = _dtype(op.results[0].type)
    if value.dtype == np.bool_ or target == np.bool_:
        return _result(op, value.astype(target))
    return _result(op, value.view(target))
