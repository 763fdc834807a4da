"""Reference semantics of the `nn` dialect: vectorised NumPy, dtype-faithful.

Each result has exactly the result type's shape and NumPy dtype. Integer
arithmetic wraps. Float ops other than the correctly rounded basic ones
(`+ - * /`, max, min, comparisons, casts) are evaluated in double precision
and rounded once to the result's float type: transcendentals, matmul,
convolution, reductions and normalisations. So an f32 reference is at least
as accurate as any f32 implementation; compare against it with tolerances.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from irkit.dialects import nn
from irkit.dtypes import convert, dense_to_array, is_float_dtype, numpy_dtype
from irkit.interpreter.arith import saturated
from irkit.interpreter.core import Interpreter, interpretation_error, register
from irkit.interpreter.special import erf

Values = tuple[Any, ...]

_SQRT_HALF = np.sqrt(0.5)
_SQRT_TWO_OVER_PI = np.sqrt(2.0 / np.pi)


def _result(op: Operation, value: Any) -> Values:
    """`value` as `op`'s result: its exact dtype and shape, C-contiguous, writeable."""
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    dtype = numpy_dtype(result_type.get_element_type())
    array = np.asarray(value)
    if array.dtype != dtype:
        array = convert(array, dtype)
    if not (array.flags.c_contiguous and array.flags.writeable):
        array = array.copy(order="C")
    if array.shape != tuple(result_type.get_shape()):
        raise interpretation_error(
            op, f"produced shape {array.shape}, expected {result_type}"
        )
    return (array,)


def _wide(array: np.ndarray) -> np.ndarray:
    """Floats as f64 (ints stay as they are) for once-rounded evaluation."""
    if is_float_dtype(array.dtype):
        return array.astype(np.float64)
    return array


# --- constant ---------------------------------------------------------------


@register("nn.constant")
def constant(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.ConstantOp)
    return _result(op, dense_to_array(op.value))


# --- elementwise binary -----------------------------------------------------


def _divide(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Floats: IEEE division. Integers: truncation toward zero, like C.

    Integer division by zero is undefined in nn; here it yields 0.
    """
    if is_float_dtype(lhs.dtype):
        return np.divide(lhs, rhs)
    quotient = np.floor_divide(lhs, rhs)
    remainder = np.remainder(lhs, rhs)
    # Floor and truncation differ when the remainder is non-zero and the
    # operands' signs differ: round the quotient up by one.
    adjust = (remainder != 0) & ((lhs < 0) != (rhs < 0))
    return quotient + adjust.astype(quotient.dtype)


def _power(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    return np.power(_wide(lhs), _wide(rhs))


_BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "nn.add": np.add,
    "nn.sub": np.subtract,
    "nn.mul": np.multiply,
    "nn.div": _divide,
    "nn.max": np.maximum,
    "nn.min": np.minimum,
    "nn.pow": _power,
    "nn.and": np.bitwise_and,
    "nn.or": np.bitwise_or,
    "nn.xor": np.bitwise_xor,
}


@register(*_BINARY)
def binary(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = args
    return _result(op, _BINARY[op.name](lhs, rhs))


# --- elementwise unary ------------------------------------------------------


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, x.dtype.type(0))


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(_wide(x))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-_wide(x)))


def _erf(x: np.ndarray) -> np.ndarray:
    return erf(_wide(x))


def _wide_ufunc(ufunc: np.ufunc) -> Callable[[np.ndarray], np.ndarray]:
    def apply(x: np.ndarray) -> np.ndarray:
        return ufunc(_wide(x))

    return apply


_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "nn.neg": np.negative,
    "nn.abs": np.abs,
    "nn.relu": _relu,
    "nn.not": np.invert,
    "nn.exp": _wide_ufunc(np.exp),
    "nn.log": _wide_ufunc(np.log),
    "nn.sqrt": _wide_ufunc(np.sqrt),
    "nn.tanh": _wide_ufunc(np.tanh),
    "nn.rsqrt": _rsqrt,
    "nn.sigmoid": _sigmoid,
    "nn.erf": _erf,
}


@register(*_UNARY)
def unary(interp: Interpreter, op: Operation, args: Values) -> Values:
    (x,) = args
    return _result(op, _UNARY[op.name](x))


def gelu_exact(x: np.ndarray) -> np.ndarray:
    """`x * (1 + erf(x / sqrt 2)) / 2` in f64."""
    wide = _wide(x)
    return 0.5 * wide * (1.0 + erf(wide * _SQRT_HALF))


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """`x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))) / 2` in f64."""
    wide = _wide(x)
    inner = _SQRT_TWO_OVER_PI * (wide + 0.044715 * wide**3)
    return 0.5 * wide * (1.0 + np.tanh(inner))


@register("nn.gelu")
def gelu(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.GeluOp)
    (x,) = args
    if op.approximate.data == nn.GeluApproximation.TANH:
        return _result(op, gelu_tanh(x))
    return _result(op, gelu_exact(x))


# --- cast, cmp, select ------------------------------------------------------


def cast_array(x: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    """nn.cast: to i1 is `x != 0`; float to integer truncates toward zero and
    saturates (NaN gives 0), as `arith.fptosi`, which it lowers to, does;
    integers narrow by wrapping.
    """
    if dtype == np.bool_:
        return x != 0
    if is_float_dtype(x.dtype) and np.issubdtype(dtype, np.integer):
        return saturated(x, dtype)
    return convert(x, dtype)


@register("nn.cast")
def cast(interp: Interpreter, op: Operation, args: Values) -> Values:
    (x,) = args
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    return _result(op, cast_array(x, numpy_dtype(result_type.get_element_type())))


_COMPARISONS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    nn.CmpPredicate.EQ: np.equal,
    nn.CmpPredicate.NE: np.not_equal,
    nn.CmpPredicate.LT: np.less,
    nn.CmpPredicate.LE: np.less_equal,
    nn.CmpPredicate.GT: np.greater,
    nn.CmpPredicate.GE: np.greater_equal,
}


@register("nn.cmp")
def cmp(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.CmpOp)
    lhs, rhs = args
    return _result(op, _COMPARISONS[op.predicate.data](lhs, rhs))


@register("nn.select")
def select(interp: Interpreter, op: Operation, args: Values) -> Values:
    condition, true_value, false_value = args
    return _result(op, np.where(condition, true_value, false_value))


# --- shapes and layout ------------------------------------------------------


@register("nn.matmul")
def matmul(interp: Interpreter, op: Operation, args: Values) -> Values:
    lhs, rhs = args
    return _result(op, np.matmul(_wide(lhs), _wide(rhs)))


@register("nn.transpose")
def transpose(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.TransposeOp)
    (x,) = args
    return _result(op, np.transpose(x, op.perm.get_values()))


@register("nn.broadcast_to", "nn.reshape")
def reshape(interp: Interpreter, op: Operation, args: Values) -> Values:
    (x,) = args
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    shape = result_type.get_shape()
    if op.name == "nn.reshape":
        return _result(op, x.reshape(shape))
    return _result(op, np.broadcast_to(x, shape))


@register("nn.concat")
def concat(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.ConcatOp)
    return _result(op, np.concatenate(args, axis=op.axis_value))


@register("nn.slice")
def slice_(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.SliceOp)
    (x,) = args
    index = tuple(
        slice(first, end, step)
        for first, end, step in zip(
            op.start.get_values(),
            op.limit.get_values(),
            op.stride.get_values(),
            strict=True,
        )
    )
    return _result(op, x[index])


# --- reductions and normalisations -----------------------------------------


@register("nn.reduce_sum", "nn.reduce_max", "nn.reduce_min", "nn.reduce_mean")
def reduce(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.ReductionOp)
    (x,) = args
    axes = op.axes_values
    keepdims = op.keepdims is not None
    if op.name == "nn.reduce_max":
        return _result(op, np.max(x, axis=axes, keepdims=keepdims))
    if op.name == "nn.reduce_min":
        return _result(op, np.min(x, axis=axes, keepdims=keepdims))
    if op.name == "nn.reduce_mean":
        return _result(op, np.mean(_wide(x), axis=axes, keepdims=keepdims))
    if np.issubdtype(x.dtype, np.integer):
        # Accumulate in the element type: wraps like the element type does.
        return _result(op, np.sum(x, axis=axes, keepdims=keepdims, dtype=x.dtype))
    return _result(op, np.sum(_wide(x), axis=axes, keepdims=keepdims))


def softmax_array(x: np.ndarray, axis: int) -> np.ndarray:
    """Softmax along `axis` in f64."""
    shifted = _wide(x) - np.max(_wide(x), axis=axis, keepdims=True)
    exps = np.exp(shifted)
    return exps / np.sum(exps, axis=axis, keepdims=True)


def log_softmax_array(x: np.ndarray, axis: int) -> np.ndarray:
    """Log-softmax along `axis` in f64."""
    shifted = _wide(x) - np.max(_wide(x), axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


@register("nn.softmax", "nn.log_softmax")
def softmax(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.AxisOp)
    (x,) = args
    if op.name == "nn.softmax":
        return _result(op, softmax_array(x, op.axis_value))
    return _result(op, log_softmax_array(x, op.axis_value))


@register("nn.layer_norm")
def layer_norm(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.LayerNormOp)
    x = _wide(args[0])
    axes = op.axes_values
    mean = np.mean(x, axis=axes, keepdims=True)
    centered = x - mean
    variance = np.mean(centered * centered, axis=axes, keepdims=True)
    y = centered / np.sqrt(variance + op.eps.value.data)
    position = 1
    if op.scale is not None:
        y = y * _wide(args[position])
        position += 1
    if op.bias is not None:
        y = y + _wide(args[position])
    return _result(op, y)


# --- convolution and pooling -------------------------------------------------


def _windows(
    padded: np.ndarray,
    kernel: tuple[int, ...],
    stride: tuple[int, ...],
    dilation: tuple[int, ...],
) -> np.ndarray:
    """(N, C, OH, OW, KH, KW) views of the windows of an NCHW array."""
    extent = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation, strict=True))
    views = sliding_window_view(padded, extent, axis=(2, 3))
    return views[:, :, :: stride[0], :: stride[1], :: dilation[0], :: dilation[1]]


def _pad_spatial(x: np.ndarray, padding: tuple[int, ...], value: Any) -> np.ndarray:
    ph, pw = padding
    widths = ((0, 0), (0, 0), (ph, ph), (pw, pw))
    return np.pad(x, widths, constant_values=value)


@register("nn.conv2d")
def conv2d(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.Conv2dOp)
    x, weight = _wide(args[0]), _wide(args[1])
    padded = _pad_spatial(x, op.padding.get_values(), 0.0)
    windows = _windows(
        padded, weight.shape[2:], op.stride.get_values(), op.dilation.get_values()
    )
    # (N, OH, OW, F): contract channels and the kernel window.
    out = np.tensordot(windows, weight, axes=([1, 4, 5], [1, 2, 3]))
    out = np.transpose(out, (0, 3, 1, 2))
    if op.bias is not None:
        out = out + _wide(args[2]).reshape(1, -1, 1, 1)
    return _result(op, out)


@register("nn.max_pool2d")
def max_pool2d(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.MaxPool2dOp)
    (x,) = args
    if is_float_dtype(x.dtype):
        lowest: Any = -np.inf
    else:
        lowest = np.iinfo(x.dtype).min
    padded = _pad_spatial(x, op.padding.get_values(), lowest)
    windows = _windows(padded, op.kernel.get_values(), op.stride.get_values(), (1, 1))
    return _result(op, np.max(windows, axis=(4, 5)))


@register("nn.avg_pool2d")
def avg_pool2d(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, nn.AvgPool2dOp)
    x = _wide(args[0])
    kernel = op.kernel.get_values()
    padded = _pad_spatial(x, op.padding.get_values(), 0.0)
    windows = _windows(padded, kernel, op.stride.get_values(), (1, 1))
    # count_include_pad: padded zeros count, the divisor is always kh * kw.
    return _result(op, np.sum(windows, axis=(4, 5)) / (kernel[0] * kernel[1]))
