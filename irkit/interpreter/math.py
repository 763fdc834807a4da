"""Reference semantics of the `math` dialect.

Elementwise on NumPy scalars and arrays, in the operand's precision: an f32
function is evaluated by NumPy's float32 kernel (or in f64 and rounded once to
f32 where NumPy has none, like `erf`). `math.ipowi` with a negative exponent
gives 0 unless the base is 1 or -1 (integer division semantics);
`math.ctlz`/`cttz` of 0 give the bit width.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation

from irkit.dtypes import numpy_dtype
from irkit.interpreter.core import Interpreter, register
from irkit.interpreter.special import erf, fused_multiply_add
from irkit.interpreter.values import to_value, unsigned_dtype

Values = tuple[Any, ...]


def _array(op: Operation, index: int, value: Any) -> np.ndarray:
    return np.asarray(value, dtype=numpy_dtype(op.operands[index].type))


def _result(op: Operation, value: Any) -> Values:
    return (to_value(value, op.results[0].type),)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    truncated = np.trunc(x)
    half = np.abs(x - truncated) == 0.5
    return np.where(half, truncated + np.sign(x), np.round(x))


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return np.ones_like(x) / np.sqrt(x)


def _erf(x: np.ndarray) -> np.ndarray:
    return erf(x)


_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "math.absf": np.abs,
    "math.absi": np.abs,
    "math.acos": np.arccos,
    "math.acosh": np.arccosh,
    "math.asin": np.arcsin,
    "math.asinh": np.arcsinh,
    "math.atan": np.arctan,
    "math.atanh": np.arctanh,
    "math.cbrt": np.cbrt,
    "math.ceil": np.ceil,
    "math.cos": np.cos,
    "math.cosh": np.cosh,
    "math.erf": _erf,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.floor": np.floor,
    "math.log": np.log,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.log2": np.log2,
    "math.round": _round_half_away,
    "math.roundeven": np.rint,
    "math.rsqrt": _rsqrt,
    "math.sin": np.sin,
    "math.sinh": np.sinh,
    "math.sqrt": np.sqrt,
    "math.tan": np.tan,
    "math.tanh": np.tanh,
    "math.trunc": np.trunc,
}


def _register_unary(name: str, function: Callable[[np.ndarray], np.ndarray]) -> None:
    @register(name)
    def impl(interp: Interpreter, op: Operation, args: Values) -> Values:
        return _result(op, function(_array(op, 0, args[0])))


for _name, _function in _UNARY.items():
    _register_unary(_name, _function)


_BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "math.atan2": np.arctan2,
    "math.copysign": np.copysign,
    "math.powf": np.power,
}


def _register_binary(
    name: str, function: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> None:
    @register(name)
    def impl(interp: Interpreter, op: Operation, args: Values) -> Values:
        return _result(op, function(_array(op, 0, args[0]), _array(op, 1, args[1])))


for _name, _binary in _BINARY.items():
    _register_binary(_name, _binary)


@register("math.fpowi")
def fpowi(interp: Interpreter, op: Operation, args: Values) -> Values:
    base = _array(op, 0, args[0])
    exponent = _array(op, 1, args[1])
    if base.dtype.itemsize == 2:
        # f16 and bf16 compute in f32, where an i16 exponent is exact (in the
        # half type it would round, and change an odd power's sign).
        base = base.astype(np.float32)
    return _result(op, np.power(base, exponent.astype(base.dtype)))


@register("math.ipowi")
def ipowi(interp: Interpreter, op: Operation, args: Values) -> Values:
    base = _array(op, 0, args[0])
    exponent = _array(op, 1, args[1])
    negative = exponent < 0
    positive_power = np.power(base, np.where(negative, 0, exponent))
    # b ** -n is 1 / b ** n: 1 for b = 1, +-1 for b = -1, 0 otherwise.
    odd = (exponent & 1).astype(np.bool_)
    reciprocal = np.where(
        base == 1, 1, np.where(base == -1, np.where(odd, -1, 1), 0)
    ).astype(base.dtype)
    return _result(op, np.where(negative, reciprocal, positive_power))


@register("math.fma")
def fma(interp: Interpreter, op: Operation, args: Values) -> Values:
    a, b, c = (_array(op, index, arg) for index, arg in enumerate(args))
    return _result(op, fused_multiply_add(a, b, c))


def _bits(op: Operation, value: Any) -> tuple[np.ndarray, int]:
    array = _array(op, 0, value)
    width = 1 if array.dtype == np.bool_ else 8 * array.dtype.itemsize
    unsigned = (
        array.astype(np.uint8)
        if width == 1
        else array.view(unsigned_dtype(array.dtype))
    )
    return unsigned.astype(np.uint64), width


@register("math.ctpop")
def ctpop(interp: Interpreter, op: Operation, args: Values) -> Values:
    bits, width = _bits(op, args[0])
    count = np.zeros(bits.shape, np.uint64)
    for position in range(width):
        count += (bits >> np.uint64(position)) & np.uint64(1)
    return _result(op, count)


@register("math.ctlz")
def ctlz(interp: Interpreter, op: Operation, args: Values) -> Values:
    bits, width = _bits(op, args[0])
    count = np.full(bits.shape, width, np.int64)
    for position in range(width):
        is_set = ((bits >> np.uint64(position)) & np.uint64(1)) == 1
        count = np.where(is_set, width - 1 - position, count)
    return _result(op, count)


@register("math.cttz")
def cttz(interp: Interpreter, op: Operation, args: Values) -> Values:
    bits, width = _bits(op, args[0])
    count = np.full(bits.shape, width, np.int64)
    for position in reversed(range(width)):
        is_set = ((bits >> np.uint64(position)) & np.uint64(1)) == 1
        count = np.where(is_set, position, count)
    return _result(op, count)
