"""The ATen op table: one converter per core ATen operator.

`CONVERTERS` maps an operator's name (`aten.add.Tensor`, as `str()` of its
`OpOverload` prints it) to a function of the `Emitter` that reads the node's
arguments (`emit.argument`) and PyTorch's record of its result
(`emit.meta`: shape and dtype, the authority for type promotion) and returns
the converted value: an `SSAValue`, a tuple of them for multi-result ops, or
None. Adding an op is one function under `@converts(...)`; a test walks the
table to show coverage. Converters refuse arguments they do not handle with
`emit.fail(why)`, which names the op and the user's source line.

Conventions that follow PyTorch's CPU and CUDA kernels:

- operands are cast to the result's dtype before elementwise arithmetic
  (comparisons: to the operands' promoted dtype), so `int + float` and
  `bool * float` compute what PyTorch does; Python scalars become rank-0
  constants of that dtype;
- f16/bf16 reductions, softmax, log_softmax, norms, matmuls and convolutions
  compute in f32 and round once (PyTorch's accumulation type for halves);
  elementwise ops stay in the half type;
- results PyTorch computes but inference never reads (layer norm's mean and
  rstd, max pooling's indices) are built only when the graph reads them, or
  refused when irkit cannot compute them.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float32Type,
    IndexType,
    IntegerType,
    TensorType,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.dialects.tensor import ExtractOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from irkit.dialects import linalg, nn
from irkit.dialects.nn import window_output_size
from irkit.frontends.torch.emitter import (
    HALF_TYPES,
    Emitter,
    element_of,
    element_type_of,
    is_bool,
    is_float,
    scalar_attr,
    shape_of,
    target_name,
)
from irkit.transforms.utils.builders import i64_vector, pad_op
from irkit.transforms.utils.reshapes import collapse_op, expand_op

Converter = Callable[[Emitter], Any]

CONVERTERS: dict[str, Converter] = {}


def converts(*names: str) -> Callable[[Converter], Converter]:
    """Register a converter for the ATen operators `names`."""

    def register(converter: Converter) -> Converter:
        for name in names:
            assert name not in CONVERTERS, f"two converters for {name}"
            CONVERTERS[name] = converter
        return converter

    return register


class Unavailable:
    """A result of a multi-result op that irkit does not compute; reading it
    (through `getitem`) fails with `why`."""

    def __init__(self, why: str) -> None:
        self.why = why


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _axes(dims: Any, rank: int) -> list[int]:
    """A reduction's dims (None or [] is every axis), normalised."""
    if dims is None or (isinstance(dims, list | tuple) and not dims):
        return list(range(rank))
    if isinstance(dims, int):
        dims = [dims]
    return sorted({dim % rank for dim in dims}) if rank else []


def _pair(value: Any) -> list[int]:
    """A 2-D pooling/convolution parameter: an int or a list of one or two."""
    if isinstance(value, int):
        return [value, value]
    values = [int(item) for item in value]
    return values * 2 if len(values) == 1 else values


def _promoted(emit: Emitter, *indices_names: tuple[int, str]) -> Attribute:
    """The element type PyTorch promotes the given arguments to."""
    import torch
    from torch.fx import Node

    node = emit.current
    result: Any = None
    for index, name in indices_names:
        raw = node.args[index] if index < len(node.args) else node.kwargs.get(name)
        operand = raw.meta["val"] if isinstance(raw, Node) else raw
        result = operand if result is None else _result_type(torch, result, operand)
    if isinstance(result, bool | int | float):
        return element_type_of(torch.tensor(result).dtype, node)
    if hasattr(result, "dtype"):
        return element_type_of(result.dtype, node)
    return element_type_of(result, node)


def _result_type(torch: Any, first: Any, second: Any) -> Any:
    """torch.result_type of two operands (tensors, scalars or dtypes)."""
    if not isinstance(first, torch.Tensor | bool | int | float):
        first = torch.empty((), dtype=first)  # an already promoted dtype
    return torch.result_type(first, second)


def _binary(emit: Emitter, op: type[nn.ElementwiseBinaryOp]) -> SSAValue:
    """`op` on the first two arguments, both cast to the result's dtype."""
    element = emit.result_element()
    lhs = emit.tensor(emit.argument(0, "self"), element)
    rhs = emit.tensor(emit.argument(1, "other"), element)
    return emit.add(op(lhs, rhs)).result


def _unary(emit: Emitter, op: type[nn.ElementwiseUnaryOp]) -> SSAValue:
    """`op` on the first argument cast to the result's dtype (exp of an int
    tensor is a float tensor)."""
    value = emit.tensor(emit.argument(0, "self"), emit.result_element())
    return emit.add(op(value)).result


def _scaled(emit: Emitter, value: SSAValue, factor: Any) -> SSAValue:
    """`value * factor` unless factor is 1."""
    if factor is None or factor == 1:
        return value
    scale = emit.tensor(factor, element_of(value))
    return emit.add(nn.MulOp(value, scale)).result


def _channels_view(emit: Emitter, value: Any, rank: int, element: Attribute) -> Any:
    """A per-channel vector (C,) shaped (C, 1, ..., 1) to broadcast against
    an N C ... tensor of `rank`; None stays None."""
    if value is None:
        return None
    vector = emit.cast(value, element)
    return emit.reshape(vector, (shape_of(vector)[0], *[1] * (rank - 2)))


def _read_results(emit: Emitter) -> set[int]:
    """Which results of the current multi-result node the graph reads."""
    return {
        int(cast(int, user.args[1]))
        for user in emit.current.users
        if user.target is operator.getitem
    }


# ---------------------------------------------------------------------------
# Elementwise arithmetic
# ---------------------------------------------------------------------------


@converts("aten.add.Tensor", "aten.add.Scalar")
def convert_add(emit: Emitter) -> SSAValue:
    element = emit.result_element()
    lhs = emit.tensor(emit.argument(0, "self"), element)
    rhs = emit.tensor(emit.argument(1, "other"), element)
    rhs = _scaled(emit, rhs, emit.argument(2, "alpha", 1))
    return emit.add(nn.AddOp(lhs, rhs)).result


@converts("aten.sub.Tensor", "aten.sub.Scalar")
def convert_sub(emit: Emitter) -> SSAValue:
    element = emit.result_element()
    lhs = emit.tensor(emit.argument(0, "self"), element)
    rhs = emit.tensor(emit.argument(1, "other"), element)
    rhs = _scaled(emit, rhs, emit.argument(2, "alpha", 1))
    return emit.add(nn.SubOp(lhs, rhs)).result


@converts("aten.rsub.Scalar", "aten.rsub.Tensor")
def convert_rsub(emit: Emitter) -> SSAValue:
    element = emit.result_element()
    lhs = emit.tensor(emit.argument(0, "self"), element)
    rhs = emit.tensor(emit.argument(1, "other"), element)
    lhs = _scaled(emit, lhs, emit.argument(2, "alpha", 1))
    return emit.add(nn.SubOp(rhs, lhs)).result


@converts("aten.mul.Tensor", "aten.mul.Scalar")
def convert_mul(emit: Emitter) -> SSAValue:
    return _binary(emit, nn.MulOp)


@converts("aten.div.Tensor", "aten.div.Scalar", "aten.div.Tensor_mode")
def convert_div(emit: Emitter) -> SSAValue:
    mode = emit.argument(2, "rounding_mode")
    element = emit.result_element()
    if mode is not None and not (mode == "trunc" and not is_float(element)):
        raise emit.fail(f"rounding_mode={mode!r} on {element} is not supported yet")
    return _binary(emit, nn.DivOp)


@converts("aten.maximum.default")
def convert_maximum(emit: Emitter) -> SSAValue:
    return _binary(emit, nn.MaxOp)


@converts("aten.minimum.default")
def convert_minimum(emit: Emitter) -> SSAValue:
    return _binary(emit, nn.MinOp)


@converts("aten.pow.Tensor_Scalar")
def convert_pow_scalar(emit: Emitter) -> SSAValue:
    """Small exponents as products (x ** 2 is exactly x * x in PyTorch too)."""
    element = emit.result_element()
    base = emit.tensor(emit.argument(0, "self"), element)
    exponent = emit.argument(1, "exponent")
    if exponent == 1:
        return base
    if exponent == 2:
        return _square(emit, base)
    if exponent == 0.5 and is_float(element):
        return emit.add(nn.SqrtOp(base)).result
    if exponent == -0.5 and is_float(element):
        return emit.add(nn.RsqrtOp(base)).result
    if not is_float(element):
        raise emit.fail("integer powers other than 1 and 2 are not supported yet")
    return emit.add(nn.PowOp(base, emit.tensor(exponent, element))).result


def _square(emit: Emitter, base: SSAValue) -> SSAValue:
    """`base * base` reading `base` once: a generic with one operand (as
    torch-mlir's `powf(x, 2)`), not `nn.mul(x, x)`, whose two operands stay
    two loads of each element once fused into a reduction (RMSNorm's sum of
    squares)."""
    element = element_of(base)
    shape = shape_of(base)

    def body(arguments: Sequence[SSAValue]) -> SSAValue:
        if is_float(element):
            return arith.MulfOp(arguments[0], arguments[0]).result
        return arith.MuliOp(arguments[0], arguments[0]).result

    return emit.generic([(base, AffineMap.identity(len(shape)))], shape, element, body)


@converts("aten.pow.Tensor_Tensor", "aten.pow.Scalar")
def convert_pow(emit: Emitter) -> SSAValue:
    element = emit.result_element()
    if not is_float(element):
        raise emit.fail("integer powers are not supported yet")
    base = emit.tensor(emit.argument(0, "self"), element)
    exponent = emit.tensor(emit.argument(1, "exponent"), element)
    return emit.add(nn.PowOp(base, exponent)).result


@converts("aten.neg.default")
def convert_neg(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.NegOp)


@converts("aten.abs.default")
def convert_abs(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.AbsOp)


@converts("aten.relu.default")
def convert_relu(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.ReluOp)


@converts("aten.exp.default")
def convert_exp(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.ExpOp)


@converts("aten.log.default")
def convert_log(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.LogOp)


@converts("aten.sqrt.default")
def convert_sqrt(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.SqrtOp)


@converts("aten.rsqrt.default")
def convert_rsqrt(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.RsqrtOp)


@converts("aten.tanh.default")
def convert_tanh(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.TanhOp)


@converts("aten.sigmoid.default")
def convert_sigmoid(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.SigmoidOp)


@converts("aten.erf.default")
def convert_erf(emit: Emitter) -> SSAValue:
    return _unary(emit, nn.ErfOp)


@converts("aten.reciprocal.default")
def convert_reciprocal(emit: Emitter) -> SSAValue:
    element = emit.result_element()
    value = emit.tensor(emit.argument(0, "self"), element)
    return emit.add(nn.DivOp(emit.tensor(1.0, element), value)).result


@converts("aten.gelu.default")
def convert_gelu(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    approximate = emit.argument(1, "approximate", "none")
    if approximate not in ("none", "tanh"):
        raise emit.fail(f"approximate={approximate!r}")
    return emit.add(nn.GeluOp(value, nn.GeluApproximation(approximate))).result


@converts("aten.silu.default")
def convert_silu(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    gate = emit.add(nn.SigmoidOp(value)).result
    return emit.add(nn.MulOp(value, gate)).result


@converts(
    "aten.clamp.default",
    "aten.clamp_min.default",
    "aten.clamp_max.default",
    "aten.hardtanh.default",
)
def convert_clamp(emit: Emitter) -> SSAValue:
    """clamp(x, min, max) as max then min; hardtanh's bounds default to ±1."""
    name = str(emit.current.target)
    element = emit.result_element()
    value = emit.tensor(emit.argument(0, "self"), element)
    if name.startswith("aten.hardtanh"):
        low, high = emit.argument(1, "min_val", -1.0), emit.argument(2, "max_val", 1.0)
    elif name.startswith("aten.clamp_max"):
        low, high = None, emit.argument(1, "max")
    else:
        low = emit.argument(1, "min")
        high = None if name.startswith("aten.clamp_min") else emit.argument(2, "max")
    if low is not None:
        value = emit.add(nn.MaxOp(value, emit.tensor(low, element))).result
    if high is not None:
        value = emit.add(nn.MinOp(value, emit.tensor(high, element))).result
    return value


@converts("aten.leaky_relu.default")
def convert_leaky_relu(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    element = element_of(value)
    slope = emit.tensor(emit.argument(1, "negative_slope", 0.01), element)
    positive = emit.add(nn.CmpOp(nn.CmpPredicate.GT, value, emit.tensor(0, element)))
    scaled = emit.add(nn.MulOp(value, slope)).result
    return emit.add(nn.SelectOp(positive.result, value, scaled)).result


# ---------------------------------------------------------------------------
# Comparisons, logic, selection
# ---------------------------------------------------------------------------


def _compare(emit: Emitter, predicate: nn.CmpPredicate) -> SSAValue:
    element = _promoted(emit, (0, "self"), (1, "other"))
    lhs = emit.tensor(emit.argument(0, "self"), element)
    rhs = emit.tensor(emit.argument(1, "other"), element)
    return emit.add(nn.CmpOp(predicate, lhs, rhs)).result


def _comparison(predicate: nn.CmpPredicate) -> Converter:
    def convert(emit: Emitter) -> SSAValue:
        return _compare(emit, predicate)

    convert.__name__ = f"convert_{predicate.value}"
    return convert


for _predicate in nn.CmpPredicate:
    converts(f"aten.{_predicate.value}.Tensor", f"aten.{_predicate.value}.Scalar")(
        _comparison(_predicate)
    )


def _as_bool(emit: Emitter, value: Any) -> SSAValue:
    return emit.tensor(value, i1)


@converts("aten.logical_not.default")
def convert_logical_not(emit: Emitter) -> SSAValue:
    return emit.add(nn.NotOp(_as_bool(emit, emit.argument(0, "self")))).result


def _logical(op: type[nn.ElementwiseBinaryOp]) -> Converter:
    def convert(emit: Emitter) -> SSAValue:
        lhs = _as_bool(emit, emit.argument(0, "self"))
        rhs = _as_bool(emit, emit.argument(1, "other"))
        return emit.add(op(lhs, rhs)).result

    return convert


converts("aten.logical_and.default")(_logical(nn.AndOp))
converts("aten.logical_or.default")(_logical(nn.OrOp))
converts("aten.logical_xor.default")(_logical(nn.XorOp))


@converts("aten.bitwise_not.default")
def convert_bitwise_not(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    if is_float(element_of(value)):
        raise emit.fail("bitwise_not of a float tensor")
    return emit.add(nn.NotOp(value)).result


converts("aten.bitwise_and.Tensor", "aten.bitwise_and.Scalar")(
    lambda emit: _binary(emit, nn.AndOp)
)
converts("aten.bitwise_or.Tensor", "aten.bitwise_or.Scalar")(
    lambda emit: _binary(emit, nn.OrOp)
)
converts("aten.bitwise_xor.Tensor", "aten.bitwise_xor.Scalar")(
    lambda emit: _binary(emit, nn.XorOp)
)


@converts(
    "aten.where.self",
    "aten.where.ScalarSelf",
    "aten.where.ScalarOther",
    "aten.where.Scalar",
)
def convert_where(emit: Emitter) -> SSAValue:
    element = emit.result_element()
    condition = _as_bool(emit, emit.argument(0, "condition"))
    chosen = emit.tensor(emit.argument(1, "self"), element)
    other = emit.tensor(emit.argument(2, "other"), element)
    return emit.add(nn.SelectOp(condition, chosen, other)).result


@converts("aten.masked_fill.Scalar", "aten.masked_fill.Tensor")
def convert_masked_fill(emit: Emitter) -> SSAValue:
    element = emit.result_element()
    value = emit.tensor(emit.argument(0, "self"), element)
    mask = _as_bool(emit, emit.argument(1, "mask"))
    fill = emit.tensor(emit.argument(2, "value"), element)
    return emit.add(nn.SelectOp(mask, fill, value)).result


# ---------------------------------------------------------------------------
# Contractions
# ---------------------------------------------------------------------------


@converts("aten.mm.default", "aten.bmm.default")
def convert_mm(emit: Emitter) -> SSAValue:
    lhs, rhs = emit.argument(0, "self"), emit.argument(1, "mat2")
    return emit.matmul(lhs, rhs, emit.result_element())


@converts("aten.addmm.default")
def convert_addmm(emit: Emitter) -> SSAValue:
    """`beta * bias + alpha * (m1 @ m2)`: nn.Linear's form."""
    element = emit.result_element()
    bias = emit.tensor(emit.argument(0, "self"), element)
    product = emit.matmul(emit.argument(1, "mat1"), emit.argument(2, "mat2"), element)
    product = _scaled(emit, product, emit.argument(4, "alpha", 1))
    bias = _scaled(emit, bias, emit.argument(3, "beta", 1))
    return emit.add(nn.AddOp(product, bias)).result


@converts("aten.convolution.default")
def convert_convolution(emit: Emitter) -> SSAValue:
    """2-D convolution (NCHW input, FCHW weight), as torch-mlir writes it.

    One group is `nn.conv2d`. More are one named grouped op on the input
    padded by `tensor.pad`: `linalg.depthwise_conv_2d_nchw_chw` when every
    group is one channel with one filter (MobileNet's depthwise), else
    `linalg.conv_2d_ngchw_gfchw` on the input, weight and init expanded into
    groups, its result collapsed back; a bias is a broadcast add. Halves
    compute in f32 and round once."""
    element = emit.result_element()
    value = emit.tensor(emit.argument(0, "input"), element)
    weight = emit.tensor(emit.argument(1, "weight"), element)
    bias = emit.argument(2, "bias")
    if len(shape_of(value)) != 4:
        raise emit.fail("only 2-D convolutions (NCHW input) are supported")
    if emit.argument(6, "transposed", False):
        raise emit.fail("transposed convolutions are not supported yet")
    stride = _pair(emit.argument(3, "stride", [1, 1]))
    padding = _pair(emit.argument(4, "padding", [0, 0]))
    dilation = _pair(emit.argument(5, "dilation", [1, 1]))
    groups = int(emit.argument(8, "groups", 1))
    compute = f32 if isinstance(element, HALF_TYPES) else element
    value, weight = emit.cast(value, compute), emit.cast(weight, compute)
    bias = None if bias is None else emit.tensor(bias, compute)
    if groups == 1:
        conv = nn.Conv2dOp(value, weight, bias, stride, padding, dilation)
        return emit.cast(emit.add(conv).result, element)
    result = _grouped_convolution(
        emit, value, weight, groups, stride, padding, dilation
    )
    if bias is not None:
        bias = emit.reshape(bias, (shape_of(bias)[0], 1, 1))
        result = emit.add(nn.AddOp(result, bias)).result
    return emit.cast(result, element)


def _grouped_convolution(
    emit: Emitter,
    value: SSAValue,
    weight: SSAValue,
    groups: int,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
) -> SSAValue:
    """The convolution of `groups` groups (no bias) as torch-mlir's named op."""
    element = element_of(value)
    batch, channels, height, width = shape_of(value)
    filters, per_group, kh, kw = shape_of(weight)
    out_h = window_output_size(height, kh, stride[0], padding[0], dilation[0], "height")
    out_w = window_output_size(width, kw, stride[1], padding[1], dilation[1], "width")
    if any(padding):
        zero = emit.add(arith.ConstantOp(scalar_attr(0.0, element))).result
        pads = [0, 0, *padding]
        value = emit.add(pad_op(value, pads, pads, zero)).result
    padded = shape_of(value)
    strides, dilations = i64_vector(stride), i64_vector(dilation)
    op: Operation
    if groups == channels == filters:
        weight = _reshaped(emit, weight, [[0, 1], [2], [3]], (filters, kh, kw))
        init = emit.filled((batch, filters, out_h, out_w), element, 0.0)
        op = linalg.DepthwiseConv2DNchwChwOp(
            [value, weight], [init], [init.type], strides=strides, dilations=dilations
        )
        return emit.add(op).results[0]
    filters_per_group = filters // groups
    grouped = (batch, groups, per_group, *padded[2:])
    value = _reshaped(emit, value, [[0], [1, 2], [3], [4]], grouped)
    weight = _reshaped(
        emit,
        weight,
        [[0, 1], [2], [3], [4]],
        (groups, filters_per_group, per_group, kh, kw),
    )
    init = emit.filled((batch, groups, filters_per_group, out_h, out_w), element, 0.0)
    op = linalg.Conv2DNgchwGfchwOp(
        [value, weight], [init], [init.type], strides=strides, dilations=dilations
    )
    result = emit.add(op).results[0]
    return _reshaped(
        emit, result, [[0], [1, 2], [3], [4]], (batch, filters, out_h, out_w)
    )


def _reshaped(
    emit: Emitter, value: SSAValue, groups: list[list[int]], shape: Sequence[int]
) -> SSAValue:
    """`value` collapsed or expanded (by `groups`) to `shape`."""
    result_type = TensorType(element_of(value), shape)
    if len(shape) < len(shape_of(value)):
        return emit.add(collapse_op(value, groups, result_type)).result
    return emit.add(expand_op(value, groups, result_type)).result


def _slice_axis(
    emit: Emitter, value: SSAValue, axis: int, start: int, length: int
) -> SSAValue:
    shape = shape_of(value)
    begin = [0] * len(shape)
    limit = list(shape)
    begin[axis], limit[axis] = start, start + length
    return emit.add(nn.SliceOp(value, begin, limit, [1] * len(shape))).result


# ---------------------------------------------------------------------------
# Reductions and normalisations
# ---------------------------------------------------------------------------


def _reduce(
    emit: Emitter, op: type[nn.ReductionOp], value: SSAValue, axes: list[int]
) -> SSAValue:
    """`op` over `axes` (keepdim read from the node); rank 0 is the identity."""
    keepdim = bool(emit.argument(2, "keepdim", False))
    if not axes:
        return value
    return emit.add(op(value, axes, keepdim)).result


@converts(
    "aten.sum.dim_IntList", "aten.sum.default", "aten.mean.dim", "aten.mean.default"
)
def convert_sum_mean(emit: Emitter) -> SSAValue:
    """Sums and means in the result's dtype (bools count as integers), halves
    accumulated in f32."""
    element = emit.result_element()
    value = emit.tensor(emit.argument(0, "self"), element)
    by_dims = str(emit.current.target).endswith(".default") is False
    axes = _axes(emit.argument(1, "dim") if by_dims else None, len(shape_of(value)))
    is_mean = str(emit.current.target).startswith("aten.mean")
    if is_mean and not is_float(element):
        raise emit.fail(f"mean of a {element} tensor")
    op = nn.ReduceMeanOp if is_mean else nn.ReduceSumOp
    keepdim = bool(emit.argument(2, "keepdim", False)) if by_dims else False
    if not axes:
        return value
    return emit.cast(emit.add(op(emit.wide(value), axes, keepdim)).result, element)


@converts("aten.amax.default", "aten.amin.default")
def convert_amax(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    axes = _axes(emit.argument(1, "dim"), len(shape_of(value)))
    op = (
        nn.ReduceMaxOp
        if str(emit.current.target).startswith("aten.amax")
        else nn.ReduceMinOp
    )
    if is_bool(element_of(value)):
        return emit.cast(_reduce(emit, op, emit.cast(value, i32), axes), i1)
    return _reduce(emit, op, value, axes)


@converts(
    "aten.any.dim",
    "aten.any.dims",
    "aten.any.default",
    "aten.all.dim",
    "aten.all.dims",
    "aten.all.default",
)
def convert_any_all(emit: Emitter) -> SSAValue:
    """any/all as the max/min of the values as 0/1 integers."""
    value = emit.cast(_as_bool(emit, emit.argument(0, "self")), i32)
    name = str(emit.current.target)
    rank = len(shape_of(value))
    axes = _axes(None if name.endswith(".default") else emit.argument(1, "dim"), rank)
    op = nn.ReduceMaxOp if name.startswith("aten.any") else nn.ReduceMinOp
    keepdim = (
        False if name.endswith(".default") else bool(emit.argument(2, "keepdim", False))
    )
    if axes:
        value = emit.add(op(value, axes, keepdim)).result
    return emit.cast(value, i1)


@converts("aten.var.correction", "aten.var_mean.correction")
def convert_var(emit: Emitter) -> Any:
    """sum((x - mean)^2) / (N - correction), in f32 for halves."""
    element = emit.result_element(0)
    value = emit.wide(emit.tensor(emit.argument(0, "self"), element))
    shape = shape_of(value)
    axes = _axes(emit.argument(1, "dim"), len(shape))
    correction = emit.argument(2, "correction")
    correction = 1 if correction is None else correction
    keepdim = bool(emit.current.kwargs.get("keepdim", False))
    if not axes:
        raise emit.fail("variance of a rank-0 tensor")
    count = math.prod(shape[axis] for axis in axes)
    mean = emit.add(nn.ReduceMeanOp(value, axes, True)).result
    centered = emit.add(nn.SubOp(value, mean)).result
    squares = emit.add(nn.MulOp(centered, centered)).result
    total = emit.add(nn.ReduceSumOp(squares, axes, keepdim)).result
    divisor = emit.tensor(float(max(count - correction, 0)), element_of(total))
    variance = emit.cast(emit.add(nn.DivOp(total, divisor)).result, element)
    if not str(emit.current.target).startswith("aten.var_mean"):
        return variance
    return variance, emit.cast(emit.reshape(mean, emit.result_shape(1)), element)


@converts("aten._softmax.default", "aten._log_softmax.default")
def convert_softmax(emit: Emitter) -> SSAValue:
    value = emit.wide(emit.tensor(emit.argument(0, "self")))
    dim = int(emit.argument(1, "dim"))
    if str(emit.current.target).startswith("aten._log_softmax"):
        result = emit.add(nn.LogSoftmaxOp(value, dim)).result
    else:
        result = emit.add(nn.SoftmaxOp(value, dim)).result
    return emit.cast(result, emit.result_element())


@converts("aten.native_layer_norm.default")
def convert_layer_norm(emit: Emitter) -> tuple[Any, ...]:
    """(normalised, mean, rstd) over the trailing `normalized_shape` axes; the
    mean and rstd only when the graph reads them."""
    element = emit.result_element(0)
    value = emit.wide(emit.tensor(emit.argument(0, "input")))
    compute = element_of(value)
    rank = len(shape_of(value))
    axes = list(range(rank - len(emit.argument(1, "normalized_shape")), rank))
    weight, bias = emit.argument(2, "weight"), emit.argument(3, "bias")
    weight = None if weight is None else emit.cast(weight, compute)
    bias = None if bias is None else emit.cast(bias, compute)
    eps = float(emit.argument(4, "eps"))
    normalised = emit.add(nn.LayerNormOp(value, axes, weight, bias, eps)).result
    results: list[Any] = [emit.cast(normalised, element)]
    read = _read_results(emit)
    if read & {1, 2}:
        mean = emit.add(nn.ReduceMeanOp(value, axes, True)).result
        centered = emit.add(nn.SubOp(value, mean)).result
        squares = emit.add(nn.MulOp(centered, centered)).result
        variance = emit.add(nn.ReduceMeanOp(squares, axes, True)).result
        shifted = emit.add(nn.AddOp(variance, emit.tensor(eps, compute))).result
        rstd = emit.add(nn.RsqrtOp(shifted)).result
        results += [
            emit.cast(emit.reshape(mean, emit.result_shape(1)), emit.result_element(1)),
            emit.cast(emit.reshape(rstd, emit.result_shape(2)), emit.result_element(2)),
        ]
    else:
        results += [Unavailable("not computed")] * 2
    return tuple(results)


@converts("aten._native_batch_norm_legit_no_training.default")
def convert_batch_norm(emit: Emitter) -> tuple[Any, ...]:
    """Inference batch norm: (x - mean) * rsqrt(var + eps) * weight + bias,
    with the running statistics, per channel (dim 1)."""
    element = emit.result_element(0)
    value = emit.wide(emit.tensor(emit.argument(0, "input")))
    compute, rank = element_of(value), len(shape_of(value))
    weight = _channels_view(emit, emit.argument(1, "weight"), rank, compute)
    bias = _channels_view(emit, emit.argument(2, "bias"), rank, compute)
    mean = _channels_view(emit, emit.argument(3, "running_mean"), rank, compute)
    variance = _channels_view(emit, emit.argument(4, "running_var"), rank, compute)
    if mean is None or variance is None:
        raise emit.fail("batch norm without running statistics")
    eps = float(emit.argument(6, "eps"))
    shifted = emit.add(nn.AddOp(variance, emit.tensor(eps, compute))).result
    scale = emit.add(nn.RsqrtOp(shifted)).result
    if weight is not None:
        scale = emit.add(nn.MulOp(scale, weight)).result
    result = emit.add(nn.MulOp(emit.add(nn.SubOp(value, mean)).result, scale)).result
    if bias is not None:
        result = emit.add(nn.AddOp(result, bias)).result
    unread = Unavailable("batch norm's saved statistics are training outputs")
    return emit.cast(result, element), unread, unread


# ---------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------

# The fused attention operators the importer keeps out of PyTorch's
# decomposition (when `attention_declined` accepts every one in a program)
# and converts to the spelled-out attention `linalg-fuse-attention` fuses.
ATTENTION_OPERATORS = (
    "aten.scaled_dot_product_attention.default",
    "aten._scaled_dot_product_flash_attention_for_cpu.default",
)
_KEYWORD = 1 << 20  # the position of a keyword-only argument: never positional
# Each operator's arguments: (name, position, default).
_ATTENTION_ARGUMENTS: dict[str, tuple[tuple[str, int, Any], ...]] = {
    ATTENTION_OPERATORS[0]: (
        ("query", 0, None),
        ("key", 1, None),
        ("value", 2, None),
        ("attn_mask", 3, None),
        ("dropout_p", 4, 0.0),
        ("is_causal", 5, False),
        ("scale", _KEYWORD, None),
        ("enable_gqa", _KEYWORD, False),
    ),
    ATTENTION_OPERATORS[1]: (
        ("query", 0, None),
        ("key", 1, None),
        ("value", 2, None),
        ("dropout_p", 3, 0.0),
        ("is_causal", 4, False),
        ("attn_mask", _KEYWORD, None),
        ("scale", _KEYWORD, None),
    ),
}


def _raw_attention_arguments(node: Any) -> dict[str, Any]:
    """An attention node's arguments by name (FX nodes unresolved)."""
    arguments: dict[str, Any] = {"enable_gqa": False}
    for name, position, default in _ATTENTION_ARGUMENTS[target_name(node)]:
        if position < len(node.args):
            arguments[name] = node.args[position]
        else:
            arguments[name] = node.kwargs.get(name, default)
    return arguments


def attention_declined(node: Any) -> str | None:
    """Why `convert_attention` does not take this attention node (the importer
    then lets PyTorch decompose it), or None when it does.

    Taken: q, k and v of one float dtype with the same batch dims (no
    grouped-query heads, no broadcasting), no mask, a causal one, or a
    boolean or same-dtype float mask that broadcasts to the scores. Dropout
    is taken, to be refused by the converter with its reason.
    """
    from torch.fx import Node

    arguments = _raw_attention_arguments(node)
    tensors = [arguments[name] for name in ("query", "key", "value")]
    if not all(isinstance(item, Node) for item in tensors):
        return "q, k and v must be tensors"
    query, key, value = (item.meta.get("val") for item in tensors)
    if any(not hasattr(item, "shape") for item in (query, key, value)):
        return "PyTorch recorded no metadata for q, k or v"
    if not query.dtype.is_floating_point or not query.dtype == key.dtype == value.dtype:
        return "q, k and v must have one floating-point dtype"
    rank = query.dim()
    if rank < 2 or key.dim() != rank or value.dim() != rank:
        return "q, k and v must have one rank, at least 2"
    if not query.shape[:-2] == key.shape[:-2] == value.shape[:-2]:
        return "q, k and v have different batch or head dims (grouped-query heads)"
    if query.shape[-1] != key.shape[-1] or key.shape[-2] != value.shape[-2]:
        return "q, k and v do not fit (head dims or key counts)"
    mask = arguments["attn_mask"]
    if mask is None:
        return None
    if arguments["is_causal"]:
        return "a mask and is_causal together"
    mask_value = mask.meta.get("val") if isinstance(mask, Node) else None
    if mask_value is None or not hasattr(mask_value, "shape"):
        return "the mask is not a tensor"
    if mask_value.dtype not in (query.dtype, _torch_bool()):
        return f"a mask of dtype {mask_value.dtype}"
    scores = (*query.shape[:-1], key.shape[-2])
    if mask_value.dim() > len(scores) or any(
        size not in (1, full)
        for size, full in zip(
            reversed(mask_value.shape), reversed(scores), strict=False
        )
    ):
        return f"a mask of shape {list(mask_value.shape)} for scores {list(scores)}"
    return None


def _torch_bool() -> Any:
    import torch

    return torch.bool


@converts(*ATTENTION_OPERATORS)
def convert_attention(emit: Emitter) -> Any:
    """`softmax(q @ k^T * scale [masked]) @ v` spelled out as torch-mlir
    writes the attention of `benchmarks/models/zoo.py` (a batched matmul of
    q and the transposed k, a multiplication by the scale, a causal mask of
    two aranges compared and selected with -inf, softmax, a batched matmul
    with v), the chain `linalg-fuse-attention` fuses into one kernel.
    PyTorch's decomposition (q and k each scaled by sqrt(scale), a -inf
    bias, a fix for fully masked rows over the scores, permutes and a
    clone) takes 6 kernels at 8x12x128x64 where this takes 2.

    Halves compute in f32 and round the output once, as PyTorch's CPU
    kernel accumulates; with an explicit mask, a row masked everywhere is
    0, as PyTorch's kernels give (a select on the output, from the mask).
    """
    why = attention_declined(emit.current)
    if why is not None:
        raise emit.fail(why)
    specs = _ATTENTION_ARGUMENTS[str(emit.current.target)]
    arguments = {
        name: emit.argument(position, name, default)
        for name, position, default in specs
    }
    if arguments["dropout_p"]:
        raise emit.fail(
            f"dropout_p={arguments['dropout_p']} (dropout is for training; "
            "pass dropout_p=0.0 for inference)"
        )
    multiple = str(emit.current.target) != ATTENTION_OPERATORS[0]
    element = emit.result_element(0 if multiple else None)
    compute = f32 if isinstance(element, HALF_TYPES) else element
    query, key, value = (
        emit.tensor(arguments[name]) for name in ("query", "key", "value")
    )
    shape = shape_of(query)
    rank, rows, keys = len(shape), shape[-2], shape_of(key)[-2]
    order = [*range(rank - 2), rank - 1, rank - 2]
    transposed = emit.add(nn.TransposeOp(key, order)).result
    scores = _batched_matmul(emit, query, transposed)
    scale = arguments["scale"]
    scale = 1.0 / math.sqrt(shape[-1]) if scale is None else float(scale)
    scores = _scaled(emit, scores, scale)
    mask = arguments["attn_mask"]
    negative = emit.tensor(float("-inf"), compute)
    if arguments["is_causal"]:
        # Key j is masked for query i where j - i > 0 (PyTorch's top-left
        # aligned causal mask, `tril` of the rows x keys ones).
        key_positions = emit.reshape(_arange(emit, 0, 1, keys, i64), (1, keys))
        row_positions = emit.reshape(_arange(emit, 0, 1, rows, i64), (rows, 1))
        offsets = emit.add(nn.SubOp(key_positions, row_positions)).result
        zero = emit.tensor(0, i64)
        above = emit.add(nn.CmpOp(nn.CmpPredicate.GT, offsets, zero)).result
        scores = emit.add(nn.SelectOp(above, negative, scores)).result
    elif mask is not None and is_bool(element_of(mask)):
        scores = emit.add(nn.SelectOp(mask, scores, negative)).result
    elif mask is not None:
        scores = emit.add(nn.AddOp(scores, emit.cast(mask, compute))).result
    probabilities = emit.add(nn.SoftmaxOp(scores, -1)).result
    result = _batched_matmul(emit, probabilities, value)
    if mask is not None and not arguments["is_causal"]:
        result = _zero_masked_rows(emit, result, mask, negative)
    result = emit.cast(result, element)
    if multiple:
        return result, Unavailable("the attention's logsumexp is not computed")
    return result


def _batched_matmul(emit: Emitter, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """`lhs @ rhs` over the last two dims, the leading ones (equal) collapsed
    into one batch: `linalg.batch_matmul` (2-D: `linalg.matmul`). A half
    operand is read as it is into an f32 product (the contraction widens
    each element), not converted by an op of its own."""
    lhs_shape, rhs_shape = shape_of(lhs), shape_of(rhs)
    leading = lhs_shape[:-2]
    batch = math.prod(leading)
    if leading:
        lhs = emit.reshape(lhs, (batch, *lhs_shape[-2:]))
        rhs = emit.reshape(rhs, (batch, *rhs_shape[-2:]))
    product: SSAValue
    if element_of(lhs) == element_of(rhs) and not isinstance(
        element_of(lhs), HALF_TYPES
    ):
        product = emit.add(nn.MatmulOp(lhs, rhs)).result
    else:
        shape = (*shape_of(lhs)[:-1], shape_of(rhs)[-1])
        init = emit.filled(shape, f32, 0.0)
        named = linalg.BatchMatmulOp if leading else linalg.MatmulOp
        product = emit.add(named([lhs, rhs], [init], [init.type])).results[0]
    return emit.reshape(product, (*leading, lhs_shape[-2], rhs_shape[-1]))


def _zero_masked_rows(
    emit: Emitter, result: SSAValue, mask: SSAValue, negative: SSAValue
) -> SSAValue:
    """`result` with the rows whose mask admits no key set to 0 (PyTorch's
    kernels; the softmax alone gives 0/0 = NaN there)."""
    if is_bool(element_of(mask)):
        admitted = mask
    else:
        bias = emit.cast(mask, element_of(negative))
        admitted = emit.add(nn.CmpOp(nn.CmpPredicate.NE, bias, negative)).result
    last = len(shape_of(admitted)) - 1
    counts = emit.cast(admitted, i32)
    any_key = emit.add(nn.ReduceMaxOp(counts, [last], True)).result
    zero = emit.tensor(0.0, element_of(result))
    return emit.add(nn.SelectOp(emit.cast(any_key, i1), result, zero)).result


# ---------------------------------------------------------------------------
# Shapes and views
# ---------------------------------------------------------------------------


@converts(
    "aten.view.default",
    "aten._unsafe_view.default",
    "aten.reshape.default",
    "aten.squeeze.dim",
    "aten.squeeze.dims",
    "aten.squeeze.default",
    "aten.unsqueeze.default",
    "aten.flatten.using_ints",
)
def convert_reshape(emit: Emitter) -> SSAValue:
    """Every reshape to the shape PyTorch recorded."""
    return emit.reshape(emit.tensor(emit.argument(0, "self")), emit.result_shape())


@converts(
    "aten.clone.default",
    "aten.detach.default",
    "aten.lift_fresh_copy.default",
    "aten.detach_.default",
    "aten._to_copy.default",
    "aten.to.dtype",
    "aten.type_as.default",
)
def convert_copy(emit: Emitter) -> SSAValue:
    """Copies and conversions: values are immutable, so only the dtype matters."""
    return emit.cast(emit.tensor(emit.argument(0, "self")), emit.result_element())


@converts("aten.permute.default")
def convert_permute(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    rank = len(shape_of(value))
    perm = [int(dim) % rank for dim in emit.argument(1, "dims")]
    if perm == list(range(rank)):
        return value
    return emit.add(nn.TransposeOp(value, perm)).result


@converts("aten.transpose.int", "aten.t.default")
def convert_transpose(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    rank = len(shape_of(value))
    if rank < 2:
        return value
    first, second = (emit.argument(1, "dim0", 0), emit.argument(2, "dim1", 1))
    perm = list(range(rank))
    perm[first % rank], perm[second % rank] = second % rank, first % rank
    if perm == list(range(rank)):
        return value
    return emit.add(nn.TransposeOp(value, perm)).result


@converts("aten.expand.default")
def convert_expand(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    shape = emit.result_shape()
    if shape_of(value) == shape:
        return value
    return emit.add(nn.BroadcastToOp(value, shape)).result


def _bounds(start: Any, end: Any, size: int) -> tuple[int, int]:
    """Python slice bounds (None, negative, past the end) on a dim of `size`."""
    first = 0 if start is None else int(start)
    last = size if end is None else int(end)
    first = first + size if first < 0 else first
    last = last + size if last < 0 else last
    first = min(max(first, 0), size)
    return first, min(max(last, first), size)


@converts("aten.slice.Tensor")
def convert_slice(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    shape = shape_of(value)
    axis = int(emit.argument(1, "dim", 0)) % len(shape)
    first, last = _bounds(
        emit.argument(2, "start"), emit.argument(3, "end"), shape[axis]
    )
    step = int(emit.argument(4, "step", 1))
    if (first, last, step) == (0, shape[axis], 1):
        return value
    start, limit, stride = [0] * len(shape), list(shape), [1] * len(shape)
    start[axis], limit[axis], stride[axis] = first, last, step
    return emit.add(nn.SliceOp(value, start, limit, stride)).result


def _select(emit: Emitter, value: SSAValue, axis: int, index: int) -> SSAValue:
    """`value[..., index, ...]` along `axis`, that dim dropped."""
    shape = shape_of(value)
    index = index + shape[axis] if index < 0 else index
    if not 0 <= index < shape[axis]:
        raise emit.fail(
            f"index {index} is out of range for a dim of size {shape[axis]}"
        )
    part = _slice_axis(emit, value, axis, index, 1)
    return emit.reshape(part, shape[:axis] + shape[axis + 1 :])


@converts("aten.select.int")
def convert_select(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    axis = int(emit.argument(1, "dim")) % len(shape_of(value))
    return _select(emit, value, axis, int(emit.argument(2, "index")))


@converts("aten.unbind.int")
def convert_unbind(emit: Emitter) -> tuple[SSAValue, ...]:
    value = emit.tensor(emit.argument(0, "self"))
    axis = int(emit.argument(1, "dim", 0)) % len(shape_of(value))
    return tuple(
        _select(emit, value, axis, index) for index in range(shape_of(value)[axis])
    )


@converts("aten.split_with_sizes.default", "aten.split.Tensor")
def convert_split(emit: Emitter) -> tuple[SSAValue, ...]:
    value = emit.tensor(emit.argument(0, "self"))
    shape = shape_of(value)
    axis = int(emit.argument(2, "dim", 0)) % len(shape)
    sizes = emit.argument(1, "split_sizes")
    if isinstance(sizes, int):  # split.Tensor: equal parts, a shorter last one
        sizes = [
            min(sizes, shape[axis] - start) for start in range(0, shape[axis], sizes)
        ]
    parts, start = [], 0
    for size in sizes:
        parts.append(_slice_axis(emit, value, axis, start, int(size)))
        start += int(size)
    return tuple(parts)


@converts("aten.cat.default", "aten.concat.default")
def convert_cat(emit: Emitter) -> SSAValue:
    element = emit.result_element()
    tensors = [emit.tensor(item, element) for item in emit.argument(0, "tensors")]
    # PyTorch skips legacy empty 1-D tensors in any position.
    tensors = [item for item in tensors if shape_of(item) != (0,)] or tensors[:1]
    if len(tensors) == 1:
        return tensors[0]
    axis = int(emit.argument(1, "dim", 0)) % len(shape_of(tensors[0]))
    return emit.add(nn.ConcatOp(tensors, axis)).result


# ---------------------------------------------------------------------------
# Tensor factories
# ---------------------------------------------------------------------------


@converts(
    "aten.full.default",
    "aten.full_like.default",
    "aten.new_full.default",
    "aten.scalar_tensor.default",
)
def convert_full(emit: Emitter) -> SSAValue:
    name = str(emit.current.target)
    position = {"aten.full.default": 1, "aten.scalar_tensor.default": 0}.get(name, 1)
    if name == "aten.new_full.default":
        position = 2
    value = emit.argument(position, "fill_value" if position else "s")
    if not isinstance(value, bool | int | float):
        raise emit.fail("the fill value must be a number")
    return emit.constant(value, emit.result_shape(), emit.result_element())


@converts(
    "aten.zeros.default",
    "aten.zeros_like.default",
    "aten.new_zeros.default",
)
def convert_zeros(emit: Emitter) -> SSAValue:
    """Tensors of zeros."""
    return emit.constant(0, emit.result_shape(), emit.result_element())


@converts("aten.ones.default", "aten.ones_like.default", "aten.new_ones.default")
def convert_ones(emit: Emitter) -> SSAValue:
    return emit.constant(1, emit.result_shape(), emit.result_element())


@converts("aten.arange.start_step", "aten.arange.start", "aten.arange.default")
def convert_arange(emit: Emitter) -> SSAValue:
    """`start + i * step` for each position i, from `linalg.index`."""
    if str(emit.current.target) == "aten.arange.default":
        start, step = 0, 1
    else:
        start, step = emit.argument(0, "start"), emit.argument(2, "step", 1)
    (length,) = emit.result_shape()
    return _arange(emit, start, step, length, emit.result_element())


def _arange(
    emit: Emitter, start: Any, step: Any, length: int, element: Attribute
) -> SSAValue:
    """`start + i * step` for i in [0, length) as a 1-D `element` tensor."""

    def body(_: Sequence[SSAValue]) -> SSAValue:
        position = linalg.IndexOp(0).result
        count = arith.IndexCastOp(position, i64).result
        if is_float(element):
            scale = arith.ConstantOp(scalar_attr(step, element)).result
            offset = arith.ConstantOp(scalar_attr(start, element)).result
            real = arith.SIToFPOp(count, cast(Float32Type, element)).result
            return arith.AddfOp(arith.MulfOp(real, scale), offset).result
        # No `* 1` and `+ 0` (as torch-mlir's canonicalised arange): a causal
        # mask of two aranges then stays within the few integer ops that
        # linalg-fuse-elementwise recomputes in its consumer (a generator)
        # instead of materialising the mask in a kernel of its own.
        value: SSAValue = count
        if step != 1:
            scale = arith.ConstantOp(scalar_attr(step, i64)).result
            value = arith.MuliOp(value, scale).result
        if start != 0:
            offset = arith.ConstantOp(scalar_attr(start, i64)).result
            value = arith.AddiOp(value, offset).result
        if element == i64:
            return value
        return arith.TruncIOp(value, cast(IntegerType, element)).result

    return emit.generic([], (length,), element, body)


# ---------------------------------------------------------------------------
# Gathers
# ---------------------------------------------------------------------------


def _gather(emit: Emitter, table: SSAValue, indices: SSAValue, axis: int) -> SSAValue:
    """`table` indexed along `axis` by every element of `indices`: the result
    has `indices`' dims in place of `axis` (a `linalg.generic` reading each
    index and extracting the element it names)."""
    table_shape, index_shape = shape_of(table), shape_of(indices)
    shape = (*table_shape[:axis], *index_shape, *table_shape[axis + 1 :])
    loops = len(shape)
    index_map = AffineMap(
        loops, 0, tuple(AffineDimExpr(axis + d) for d in range(len(index_shape)))
    )
    element = element_of(table)

    def body(arguments: Sequence[SSAValue]) -> SSAValue:
        chosen = arith.IndexCastOp(arguments[0], IndexType()).result
        before = [linalg.IndexOp(loop).result for loop in range(axis)]
        after = [
            linalg.IndexOp(axis + len(index_shape) + rest).result
            for rest in range(len(table_shape) - axis - 1)
        ]
        return ExtractOp(table, [*before, chosen, *after], element).result

    return emit.generic([(indices, index_map)], shape, element, body)


@converts("aten.embedding.default")
def convert_embedding(emit: Emitter) -> SSAValue:
    weight = emit.tensor(emit.argument(0, "weight"))
    indices = emit.tensor(emit.argument(1, "indices"))
    if is_float(element_of(indices)) or is_bool(element_of(indices)):
        raise emit.fail("embedding indices must be integers")
    return _gather(emit, weight, indices, 0)


@converts("aten.index_select.default")
def convert_index_select(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    axis = int(emit.argument(1, "dim")) % max(len(shape_of(value)), 1)
    indices = emit.tensor(emit.argument(2, "index"))
    return _gather(
        emit, value, emit.reshape(indices, (math.prod(shape_of(indices)),)), axis
    )


# ---------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------


def _pool_parameters(emit: Emitter) -> tuple[list[int], list[int], list[int]]:
    kernel = _pair(emit.argument(1, "kernel_size"))
    stride = _pair(emit.argument(2, "stride", []) or kernel)
    padding = _pair(emit.argument(3, "padding", 0))
    return kernel, stride, padding


@converts("aten.max_pool2d_with_indices.default", "aten.max_pool2d.default")
def convert_max_pool2d(emit: Emitter) -> Any:
    value = emit.tensor(emit.argument(0, "self"))
    kernel, stride, padding = _pool_parameters(emit)
    if _pair(emit.argument(4, "dilation", 1)) != [1, 1]:
        raise emit.fail("dilated max pooling is not supported yet")
    if emit.argument(5, "ceil_mode", False):
        raise emit.fail("ceil_mode=True is not supported yet")
    if len(shape_of(value)) != 4:
        raise emit.fail("only NCHW (batched) pooling is supported")
    pooled = emit.add(nn.MaxPool2dOp(value, kernel, stride, padding)).result
    if str(emit.current.target).endswith("with_indices.default"):
        return pooled, Unavailable("max pooling's indices are not computed")
    return pooled


@converts("aten.avg_pool2d.default")
def convert_avg_pool2d(emit: Emitter) -> SSAValue:
    value = emit.tensor(emit.argument(0, "self"))
    kernel, stride, padding = _pool_parameters(emit)
    if emit.argument(4, "ceil_mode", False):
        raise emit.fail("ceil_mode=True is not supported yet")
    if any(padding) and not emit.argument(5, "count_include_pad", True):
        raise emit.fail("count_include_pad=False with padding is not supported yet")
    if emit.argument(6, "divisor_override") is not None:
        raise emit.fail("divisor_override is not supported yet")
    if len(shape_of(value)) != 4:
        raise emit.fail("only NCHW (batched) pooling is supported")
    element = element_of(value)
    pooled = emit.add(nn.AvgPool2dOp(emit.wide(value), kernel, stride, padding))
    return emit.cast(pooled.result, element)


@converts("aten._adaptive_avg_pool2d.default", "aten.adaptive_avg_pool2d.default")
def convert_adaptive_avg_pool2d(emit: Emitter) -> SSAValue:
    """Adaptive average pooling where the output size divides the input's:
    a plain average pooling (1x1: a mean over H and W)."""
    value = emit.tensor(emit.argument(0, "self"))
    shape = shape_of(value)
    if len(shape) != 4:
        raise emit.fail("only NCHW (batched) pooling is supported")
    out_h, out_w = _pair(emit.argument(1, "output_size"))
    height, width = shape[2], shape[3]
    if height % out_h or width % out_w:
        raise emit.fail(
            f"output size {out_h}x{out_w} does not divide the input {height}x{width}"
        )
    element = element_of(value)
    wide = emit.wide(value)
    if (out_h, out_w) == (1, 1):
        pooled = emit.add(nn.ReduceMeanOp(wide, [2, 3], True)).result
    else:
        kernel = [height // out_h, width // out_w]
        pooled = emit.add(nn.AvgPool2dOp(wide, kernel, kernel)).result
    return emit.cast(pooled, element)


# ---------------------------------------------------------------------------
# Inference no-ops, tuples
# ---------------------------------------------------------------------------


@converts("aten.dropout.default")
def convert_dropout(emit: Emitter) -> Any:
    value = emit.tensor(emit.argument(0, "input"))
    if emit.argument(2, "train"):
        raise emit.fail("dropout in training mode (call module.eval() first)")
    return value


@converts("aten._assert_tensor_metadata.default")
def convert_assertion(emit: Emitter) -> None:
    """Checks PyTorch's tracer records; shapes are static here, so none."""
    return None


@converts("_operator.getitem")
def convert_getitem(emit: Emitter) -> Any:
    container, index = emit.argument(0, "container"), emit.argument(1, "index")
    if not isinstance(container, tuple | list):
        raise emit.fail("getitem of a value that is not a tuple")
    item = container[int(index)]
    if isinstance(item, Unavailable):
        if not emit.current.users:  # a result the graph takes but never reads
            return None
        raise emit.fail(f"result {index} is read: {item.why}")
    return item
