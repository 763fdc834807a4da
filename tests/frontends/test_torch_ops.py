"""Every ATen converter of the PyTorch frontend against PyTorch itself.

Each case is a small function of tensors whose shapes (and for plain
elementwise ops and matmuls, dtypes: f32, f16, bf16) Hypothesis draws; it is
exported with `torch.export`, decomposed to core ATen, imported, run on the
reference interpreter and compared with PyTorch's eager result under
irkit.testing's per-dtype tolerances (integers and booleans exactly). Each
case names the ATen ops it exercises and checks they are in its graph;
`test_every_converter_is_exercised` checks the cases cover the whole op
table, so a new converter comes with a case.

Converters of ops that only a graph not decomposed to core ATen holds (the
training IR `torch.export.export` returns: `aten.silu`, `aten.dropout`, ...)
run with `decompose=False`.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
F = torch.nn.functional

import irkit  # noqa: E402
from irkit.frontends.torch import (  # noqa: E402
    TorchImportError,
    UnsupportedOperatorError,
    import_exported_program,
)
from irkit.frontends.torch.aten import CONVERTERS  # noqa: E402
from irkit.frontends.torch.compiler import export  # noqa: E402
from irkit.frontends.torch.emitter import target_name  # noqa: E402
from irkit.runtime.frameworks import as_host_array  # noqa: E402
from irkit.testing import compare_arrays  # noqa: E402

Tensor = Any
Maker = Callable[[st.DataObject], tuple[Callable[..., Any], tuple[Tensor, ...]]]
HALVES = (torch.float16, torch.bfloat16)
FLOATS = (torch.float32, *HALVES)
# Per example: an export, an import and an interpretation, about 0.2 s.
EXAMPLES = 3


@dataclass(frozen=True)
class Case:
    """A function of tensors, what it is drawn from, and the ops it covers."""

    name: str
    make: Maker
    ops: frozenset[str]
    decompose: bool = True
    tolerance: dict[str, float] = field(default_factory=dict)


CASES: list[Case] = []


def case(
    *ops: str, decompose: bool = True, name: str = "", **tolerance: float
) -> Callable[[Maker], Maker]:
    """Register a case; generated makers are named after their first op."""

    def register(make: Maker) -> Maker:
        label = name or make.__name__
        if label == "make":
            label = ops[0].split(".")[1]
        taken = {c.name for c in CASES}
        unique = next(
            f"{label}{suffix}"
            for suffix in ("", *map(str, range(2, 9)))
            if f"{label}{suffix}" not in taken
        )
        CASES.append(Case(unique, make, frozenset(ops), decompose, tolerance))
        return make

    return register


# -- drawing inputs -------------------------------------------------------------


def shape(data: st.DataObject, min_rank: int = 1, max_rank: int = 3) -> list[int]:
    rank = data.draw(st.integers(min_rank, max_rank), label="rank")
    return data.draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank))


def broadcast_partner(data: st.DataObject, full: Sequence[int]) -> list[int]:
    """A shape NumPy broadcasts against `full`: a suffix, some dims 1."""
    keep = data.draw(st.integers(0, len(full)), label="partner rank")
    suffix = list(full[len(full) - keep :])
    return [data.draw(st.sampled_from([size, 1])) for size in suffix]


def generator(data: st.DataObject) -> Any:
    seed = data.draw(st.integers(0, 2**16), label="seed")
    return torch.Generator().manual_seed(seed)


def randn(data: st.DataObject, dims: Sequence[int], dtype: Any = None) -> Tensor:
    values = torch.randn(list(dims), generator=generator(data))
    return values.to(dtype or torch.float32)


def positive(data: st.DataObject, dims: Sequence[int], dtype: Any = None) -> Tensor:
    return (randn(data, dims).abs() + 0.5).to(dtype or torch.float32)


def float_dtype(data: st.DataObject) -> Any:
    return data.draw(st.sampled_from(FLOATS), label="dtype")


# -- elementwise arithmetic -----------------------------------------------------


def _binary_case(function: Callable[[Tensor, Tensor], Tensor]) -> Maker:
    def make(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
        dtype = float_dtype(data)
        full = shape(data)
        lhs, rhs = randn(data, full, dtype), randn(data, broadcast_partner(data, full))
        return function, (lhs, rhs.to(dtype))

    return make


case("aten.add.Tensor")(_binary_case(operator.add))
case("aten.sub.Tensor")(_binary_case(operator.sub))
case("aten.mul.Tensor")(_binary_case(operator.mul))
case("aten.maximum.default")(_binary_case(torch.maximum))
case("aten.minimum.default")(_binary_case(torch.minimum))


@case("aten.div.Tensor")
def divide(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dtype, full = float_dtype(data), shape(data)
    return operator.truediv, (randn(data, full, dtype), positive(data, full, dtype))


@case("aten.add.Tensor", "aten.mul.Tensor", "aten.sub.Tensor", "aten.div.Tensor")
def scalars(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    """Python scalars on either side, alpha, and int/float promotion."""

    def function(x: Tensor, n: Tensor) -> Tensor:
        return torch.add(x * 2.5, n, alpha=3) - 1 / (1.5 + x * x) + n / 2

    dims = shape(data)
    integers = torch.randint(-5, 5, dims, generator=generator(data))
    return function, (randn(data, dims), integers)


@case("aten.add.Tensor", "aten.mul.Tensor")
def integer_arithmetic(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data)
    values = torch.randint(-50, 50, dims, generator=generator(data))
    return (lambda a: a * 3 + a), (values.to(torch.int32),)


@case("aten.div.Tensor_mode")
def truncating_division(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data)
    values = torch.randint(-50, 50, dims, generator=generator(data))
    return (lambda a: torch.div(a, 7, rounding_mode="trunc")), (values,)


@case("aten.rsub.Scalar", "aten.rsub.Tensor", decompose=False)
def reverse_subtract(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor, y: Tensor) -> tuple[Tensor, ...]:
        return torch.rsub(x, 2.0), torch.rsub(x, y, alpha=2)

    dims = shape(data)
    return function, (randn(data, dims), randn(data, dims))


@case(
    "aten.add.Scalar",
    "aten.sub.Scalar",
    "aten.mul.Scalar",
    "aten.div.Scalar",
    decompose=False,
)
def scalar_overloads(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    aten = torch.ops.aten

    def function(x: Tensor) -> Tensor:
        scaled = aten.mul.Scalar(aten.add.Scalar(x, 1.5, alpha=2), 3)
        return aten.div.Scalar(aten.sub.Scalar(scaled, 0.5), 4)

    return function, (randn(data, shape(data)),)


@case("aten.pow.Tensor_Scalar")
def small_powers(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor) -> Tensor:
        return x**2 + x**1 + x**0.5 + x**-0.5 + x**3 + x**1.7

    return function, (positive(data, shape(data), float_dtype(data)),)


@case("aten.pow.Tensor_Tensor")
def tensor_power(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data)
    return torch.pow, (positive(data, dims), randn(data, dims))


@case("aten.pow.Scalar")
def scalar_base_power(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    return (lambda x: torch.pow(2.0, x)), (randn(data, shape(data)),)


def _unary_case(
    function: Callable[[Tensor], Tensor], domain: Callable[..., Tensor] = randn
) -> Maker:
    def make(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
        return function, (domain(data, shape(data), float_dtype(data)),)

    return make


case("aten.neg.default")(_unary_case(torch.neg))
case("aten.abs.default")(_unary_case(torch.abs))
case("aten.relu.default")(_unary_case(torch.relu))
case("aten.exp.default")(_unary_case(torch.exp))
case("aten.log.default")(_unary_case(torch.log, positive))
case("aten.sqrt.default")(_unary_case(torch.sqrt, positive))
case("aten.rsqrt.default")(_unary_case(torch.rsqrt, positive))
case("aten.tanh.default")(_unary_case(torch.tanh))
case("aten.sigmoid.default")(_unary_case(torch.sigmoid))
case("aten.erf.default")(_unary_case(torch.erf))
case("aten.reciprocal.default")(_unary_case(torch.reciprocal, positive))
case("aten.gelu.default")(_unary_case(F.gelu))
case("aten.gelu.default", name="gelu_tanh")(
    _unary_case(lambda x: F.gelu(x, approximate="tanh"))
)
case("aten.silu.default", decompose=False)(_unary_case(F.silu))
case("aten.sigmoid.default", "aten.mul.Tensor", name="silu_decomposed")(
    _unary_case(F.silu)
)
case("aten.leaky_relu.default")(_unary_case(lambda x: F.leaky_relu(x, 0.2)))
case("aten.clamp.default")(_unary_case(lambda x: torch.clamp(x, -0.5, 0.7)))
case("aten.hardtanh.default", decompose=False)(_unary_case(F.hardtanh))
case("aten.clamp_min.default", decompose=False)(
    _unary_case(lambda x: torch.clamp_min(x, 0.1))
)
case("aten.clamp_max.default", decompose=False)(
    _unary_case(lambda x: torch.clamp_max(x, 0.1))
)


# -- comparisons, logic, selection ------------------------------------------------


@case(*(f"aten.{p}.Tensor" for p in ("eq", "ne", "lt", "le", "gt", "ge")))
def compare_tensors(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(a: Tensor, b: Tensor) -> tuple[Tensor, ...]:
        return a == b, a != b, a < b, a <= b, a > b, a >= b

    dims = shape(data)
    values = torch.randint(-2, 2, dims, generator=generator(data))
    return function, (values.float(), values.flip(-1).float())


@case(*(f"aten.{p}.Scalar" for p in ("eq", "ne", "lt", "le", "gt", "ge")))
def compare_scalars(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(a: Tensor) -> tuple[Tensor, ...]:
        return a == 1, a != 1, a < 0, a <= 0, a > 0.5, a >= 1

    values = torch.randint(-2, 3, shape(data), generator=generator(data))
    return function, (values,)


@case(
    "aten.logical_and.default",
    "aten.logical_or.default",
    "aten.logical_xor.default",
    "aten.logical_not.default",
    "aten.bitwise_not.default",
    "aten.bitwise_and.Tensor",
    "aten.bitwise_and.Scalar",
    "aten.bitwise_or.Tensor",
    "aten.bitwise_or.Scalar",
    "aten.bitwise_xor.Tensor",
    "aten.bitwise_xor.Scalar",
)
def logic(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(a: Tensor, b: Tensor, i: Tensor) -> tuple[Tensor, ...]:
        return (
            torch.logical_and(a, b),
            torch.logical_or(a, i),
            torch.logical_xor(a, b),
            torch.logical_not(i),
            ~a,
            ~i,
            (i & 6) | (i ^ 3),
            (i | 1) ^ i,
            a & b,
        )

    dims = shape(data)
    a = torch.randint(0, 2, dims, generator=generator(data)).bool()
    b = torch.randint(0, 2, dims, generator=generator(data)).bool()
    i = torch.randint(-8, 8, dims, generator=generator(data))
    return function, (a, b, i)


@case("aten.where.self")
def select(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor, y: Tensor) -> tuple[Tensor, ...]:
        return torch.where(x > y, x, y), x.masked_fill(y > 0, float("-inf"))

    dims = shape(data)
    return function, (randn(data, dims), randn(data, broadcast_partner(data, dims)))


@case(
    "aten.where.ScalarOther",
    "aten.where.ScalarSelf",
    "aten.where.Scalar",
    decompose=False,
)
def where_scalars(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor) -> tuple[Tensor, ...]:
        positive = x > 0
        return (
            torch.where(positive, x, 0.0),
            torch.where(positive, -1.0, x),
            torch.where(positive, 2.0, 3.0),
        )

    return function, (randn(data, shape(data)),)


@case("aten.masked_fill.Tensor", "aten.masked_fill.Scalar", decompose=False)
def masked_fill(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor, value: Tensor) -> tuple[Tensor, ...]:
        return x.masked_fill(x > 0, value), x.masked_fill(x < 0, -1.5)

    return function, (randn(data, shape(data)), torch.tensor(2.0))


# -- contractions ----------------------------------------------------------------


@case("aten.mm.default")
def matrix_product(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dtype = float_dtype(data)
    rows, inner, columns = (data.draw(st.integers(1, 9)) for _ in range(3))
    lhs, rhs = randn(data, [rows, inner], dtype), randn(data, [inner, columns], dtype)
    return torch.mm, (lhs, rhs)


@case("aten.view.default", "aten.mm.default")
def batched_by_matrix(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    """A 3-D @ 2-D product: a view, an mm, an _unsafe_view back."""
    batch, rows, inner, columns = (data.draw(st.integers(1, 5)) for _ in range(4))
    dtype = float_dtype(data)
    lhs, rhs = randn(data, [batch, rows, inner], dtype), randn(data, [inner, columns])
    return torch.matmul, (lhs, rhs.to(dtype))


@case("aten.bmm.default")
def batched_product(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    """matmul with broadcast batch dims decomposes to expand, view and bmm."""
    dtype = float_dtype(data)
    batch, rows, inner, columns = (data.draw(st.integers(1, 5)) for _ in range(4))
    lhs = randn(data, [batch, 1, rows, inner], dtype)
    rhs = randn(data, [3, inner, columns], dtype)
    return torch.matmul, (lhs, rhs)


@case("aten.addmm.default", "aten.permute.default")
def linear(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dtype = float_dtype(data)
    rows, inputs, outputs = (data.draw(st.integers(1, 9)) for _ in range(3))
    x, weight = (
        randn(data, [rows, inputs], dtype),
        randn(data, [outputs, inputs], dtype),
    )
    return F.linear, (x, weight, randn(data, [outputs], dtype))


@case("aten.addmm.default")
def scaled_addmm(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(bias: Tensor, a: Tensor, b: Tensor) -> Tensor:
        return torch.addmm(bias, a, b, beta=0.5, alpha=2.0)

    return function, (randn(data, [3]), randn(data, [2, 4]), randn(data, [4, 3]))


@case("aten.convolution.default")
def convolution(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    groups = data.draw(st.sampled_from([1, 2]), label="groups")
    stride, padding, dilation = (data.draw(st.integers(1, 2)) for _ in range(3))
    padding -= 1
    size = data.draw(st.integers(5, 8), label="size")
    x = randn(data, [2, 2 * groups, size, size + 1])
    weight = randn(data, [2 * groups, 2, 3, 2])

    def function(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
        return F.conv2d(x, weight, bias, stride, padding, dilation, groups)

    return function, (x, weight, randn(data, [2 * groups]))


@case("aten.convolution.default")
def grouped_convolution(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    """Groups of one channel and one filter (depthwise: MobileNet's 3x3) and
    the general grouped form (ResNeXt's), halves among them."""
    dtype = float_dtype(data)
    groups = data.draw(st.integers(2, 4), label="groups")
    per_group = data.draw(st.sampled_from([1, 2]), label="channels per group")
    multiplier = data.draw(st.sampled_from([1, 2]), label="filters per group")
    stride, padding, dilation = (data.draw(st.integers(1, 2)) for _ in range(3))
    padding -= 1
    size = data.draw(st.integers(5, 8), label="size")
    x = randn(data, [2, groups * per_group, size, size + 1], dtype)
    weight = randn(data, [groups * multiplier, per_group, 3, 2], dtype)
    bias = randn(data, [groups * multiplier], dtype)
    with_bias = data.draw(st.booleans(), label="bias")

    def function(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
        used = bias if with_bias else None
        return F.conv2d(x, weight, used, stride, padding, dilation, groups)

    return function, (x, weight, bias)


# -- reductions, normalisation ----------------------------------------------------


def _reduce_case(
    reduce: Callable[[Tensor, list[int], bool], Tensor], dtypes: Sequence[Any] = FLOATS
) -> Maker:
    def make(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
        dims = shape(data)
        axes = data.draw(st.sets(st.integers(-len(dims), len(dims) - 1), min_size=1))
        axes_list = sorted({axis % len(dims) for axis in axes})
        keepdim = data.draw(st.booleans(), label="keepdim")
        dtype = data.draw(st.sampled_from(dtypes))
        return (lambda x: reduce(x, axes_list, keepdim)), (randn(data, dims, dtype),)

    return make


case("aten.sum.dim_IntList")(_reduce_case(lambda x, d, k: x.sum(d, keepdim=k)))
case("aten.mean.dim")(_reduce_case(lambda x, d, k: x.mean(d, keepdim=k)))
case("aten.amax.default")(_reduce_case(lambda x, d, k: x.amax(d, keepdim=k)))
case("aten.amin.default")(_reduce_case(lambda x, d, k: x.amin(d, keepdim=k)))
case("aten.var.correction")(
    _reduce_case(lambda x, d, k: x.var(d, keepdim=k), [torch.float32])
)
case("aten.var.correction")(
    _reduce_case(lambda x, d, k: x.var(d, keepdim=k, correction=0), [torch.float32])
)
case("aten.any.dims", "aten.any.dim")(
    _reduce_case(
        lambda x, d, k: ((x > 0.5).any(d[0], keepdim=k), (x > 0).any(d, keepdim=k)),
        [torch.float32],
    )
)
case("aten.all.dims", "aten.all.dim", decompose=False)(
    _reduce_case(
        lambda x, d, k: ((x > -0.5).all(d[0], keepdim=k), (x > 0).all(d, keepdim=k)),
        [torch.float32],
    )
)


@case(
    "aten.sum.default",
    "aten.mean.default",
    "aten.any.default",
    "aten.all.default",
    decompose=False,
)
def full_reductions(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor) -> tuple[Tensor, ...]:
        return x.sum(), x.mean(), (x > 1).any(), (x > -3).all(), (x > 0).sum()

    return function, (randn(data, shape(data)),)


@case("aten.var_mean.correction")
def variance_and_mean(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = [*shape(data, 1, 2), 3]
    return (lambda x: torch.var_mean(x, -1, keepdim=True)), (randn(data, dims),)


@case("aten._softmax.default", "aten._log_softmax.default")
def softmax(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data)
    axis = data.draw(st.integers(-len(dims), len(dims) - 1), label="axis")

    def function(x: Tensor) -> tuple[Tensor, ...]:
        return F.softmax(x, axis), F.log_softmax(x, axis)

    return function, (randn(data, dims, float_dtype(data)) * 3,)


@case("aten.native_layer_norm.default")
def layer_norm(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data, 2, 3)
    trailing = dims[-data.draw(st.integers(1, len(dims) - 1)) :]
    dtype = float_dtype(data)

    def function(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
        return F.layer_norm(x, trailing, weight, bias, 1e-5)

    return function, (
        randn(data, dims, dtype),
        randn(data, trailing, dtype),
        randn(data, trailing, dtype),
    )


@case("aten.native_layer_norm.default", "_operator.getitem")
def layer_norm_statistics(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    """The mean and rstd results, which only a graph that reads them builds."""
    dims = shape(data, 2, 3)

    def function(x: Tensor) -> tuple[Tensor, ...]:
        return torch.ops.aten.native_layer_norm(x, dims[-1:], None, None, 1e-5)

    return function, (randn(data, dims),)


@case("aten._native_batch_norm_legit_no_training.default")
def batch_norm(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    channels = data.draw(st.integers(1, 4), label="channels")
    x = randn(data, [2, channels, 3, 2])
    mean, weight, bias = (randn(data, [channels]) for _ in range(3))
    variance = positive(data, [channels])

    def function(x: Tensor, m: Tensor, v: Tensor, w: Tensor, b: Tensor) -> Tensor:
        return F.batch_norm(x, m, v, w, b, training=False, eps=1e-3)

    return function, (x, mean, variance, weight, bias)


# -- pooling ------------------------------------------------------------------------


@case("aten.max_pool2d_with_indices.default", "aten.avg_pool2d.default")
def pooling(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    kernel = data.draw(st.integers(1, 3), label="kernel")
    stride = data.draw(st.integers(1, 2), label="stride")
    padding = data.draw(st.integers(0, kernel // 2), label="padding")
    size = data.draw(st.integers(kernel, 7), label="size")

    def function(x: Tensor) -> tuple[Tensor, ...]:
        return (
            F.max_pool2d(x, kernel, stride, padding),
            F.avg_pool2d(x, kernel, stride, padding),
        )

    return function, (randn(data, [2, 3, size, size + 1]),)


@case("aten._adaptive_avg_pool2d.default")
def adaptive_pooling(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(x, (2, 3))

    return function, (randn(data, [2, 3, 4, 6]),)


@case("aten.max_pool2d.default", "aten.adaptive_avg_pool2d.default", decompose=False)
def pooling_before_decomposition(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor) -> tuple[Tensor, ...]:
        return F.max_pool2d(x, 2), F.adaptive_avg_pool2d(x, 1)

    return function, (randn(data, [1, 2, 4, 6]),)


# -- shapes and views -----------------------------------------------------------------


@case(
    "aten.view.default",
    "aten.permute.default",
    "aten.unsqueeze.default",
    "aten.squeeze.dims",
    "aten.expand.default",
    "aten.clone.default",
)
def views(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data, 2, 3)
    perm = data.draw(st.permutations(range(len(dims))), label="perm")

    def function(x: Tensor) -> tuple[Tensor, ...]:
        moved = x.permute(*perm).contiguous()
        widened = x.unsqueeze(1).expand(dims[0], 3, *dims[1:]).contiguous()
        return moved.reshape(-1), widened, x.unsqueeze(0).squeeze(0).view(-1, dims[-1])

    return function, (randn(data, dims, float_dtype(data)),)


@case("aten.t.default", "aten.transpose.int", decompose=False)
def transposes(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(m: Tensor, x: Tensor) -> tuple[Tensor, ...]:
        return m.t() + 1, x.transpose(0, -1) * 2

    return function, (randn(data, [2, 3]), randn(data, shape(data, 2, 3)))


@case(
    "aten.reshape.default",
    "aten.squeeze.dim",
    "aten.flatten.using_ints",
    "aten.to.dtype",
    "aten.type_as.default",
    "aten.dropout.default",
    "aten.split.Tensor",
    "aten.concat.default",
    decompose=False,
)
def training_ir_views(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    """Ops the training IR holds before decomposition."""

    def function(x: Tensor, n: Tensor) -> tuple[Tensor, ...]:
        first, *rest = x.flatten(1).split(2, dim=1)
        return (
            x.reshape(-1).contiguous(),
            x.unsqueeze(1).squeeze(1).to(torch.float16),
            n.type_as(x) + F.dropout(x, 0.5, training=False),
            torch.concat([first, *rest], 1),
        )

    dims = [2, 3, 2]
    return function, (randn(data, dims), torch.ones(dims, dtype=torch.int64))


@case("aten.squeeze.default", decompose=False)
def squeeze_all(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    return (lambda x: x.squeeze() * 2), (randn(data, [1, 3, 1, 2]),)


@case("aten.slice.Tensor", "aten.select.int", "aten.split_with_sizes.default")
def slicing(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = [size + 1 for size in shape(data, 2, 3)]
    first = data.draw(st.integers(1, dims[-1] - 1), label="start")
    first = first if data.draw(st.booleans(), label="from the end") else -first
    step = data.draw(st.integers(1, 2), label="step")
    index = data.draw(st.integers(-dims[0], dims[0] - 1), label="index")

    def function(x: Tensor) -> tuple[Tensor, ...]:
        first_rows, other_rows = x.split([1, dims[0] - 1])
        return x[..., first::step] + 0, x[index] * 1, first_rows * 1, other_rows * 1

    return function, (randn(data, dims),)


@case("aten.unbind.int", "aten.cat.default", decompose=False)
def unbind_and_cat(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data, 2, 3)
    axis = data.draw(st.integers(0, len(dims) - 1), label="axis")

    def function(x: Tensor, y: Tensor) -> tuple[Tensor, ...]:
        pieces = [piece.reshape(-1) for piece in x.unbind(axis)]
        return torch.cat([*pieces, y]), torch.cat([x, x * 2], axis)

    return function, (randn(data, dims), randn(data, [3]))


@case(
    "aten.lift_fresh_copy.default",
    "aten.detach.default",
    "aten.detach_.default",
    "aten._assert_tensor_metadata.default",
    "aten._unsafe_view.default",
    decompose=False,
)
def training_ir_copies(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor) -> tuple[Tensor, ...]:
        flat = torch.ops.aten._unsafe_view(x * 2, [6])
        return x.detach() + torch.tensor([1.0, 2.0]), x.to(torch.float16), flat

    return function, (randn(data, [3, 2]),)


@case("aten._to_copy.default")
def conversions(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    def function(x: Tensor) -> tuple[Tensor, ...]:
        return x.to(torch.bfloat16), x.to(torch.int32), (x > 0).float(), x.half()

    return function, (randn(data, shape(data)) * 4,)


# -- attention ------------------------------------------------------------------


def _attention_inputs(
    data: st.DataObject, batch_rank: tuple[int, int] = (0, 2), flash: bool = False
) -> tuple[Tensor, Tensor, Tensor, bool, float | None]:
    """q, k, v of a drawn float dtype (`batch_rank` batch dims, rows, keys,
    head dims: one for q, k and v if `flash`), causal or not, a scale or
    None."""
    dtype = float_dtype(data)
    batch = shape(data, *batch_rank)
    rows, keys = (data.draw(st.integers(1, 6), label=what) for what in "LS")
    width, value_width = (data.draw(st.integers(1, 8), label=w) for w in "EV")
    value_width = width if flash else value_width
    query = randn(data, [*batch, rows, width], dtype)
    key = randn(data, [*batch, keys, width], dtype)
    value = randn(data, [*batch, keys, value_width], dtype)
    causal = data.draw(st.booleans(), label="causal")
    scale = data.draw(st.sampled_from([None, 0.3]), label="scale")
    return query, key, value, causal, scale


@case("aten.scaled_dot_product_attention.default", decompose=False)
def attention(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    """No mask, causal, a boolean mask or a float one (rows masked everywhere
    included: PyTorch's kernels give 0 there)."""
    query, key, value, causal, scale = _attention_inputs(data)
    kind = data.draw(st.sampled_from(["none", "bool", "float"]), label="mask")
    if kind == "none" or causal:
        plain = partial(F.scaled_dot_product_attention, is_causal=causal, scale=scale)
        return plain, (query, key, value)
    scores = [*query.shape[:-1], key.shape[-2]]
    mask = randn(data, broadcast_partner(data, scores)) > 0
    if kind == "float":
        mask = torch.zeros(mask.shape).masked_fill(~mask, float("-inf"))
        mask = mask.to(query.dtype)

    def function(q: Tensor, k: Tensor, v: Tensor, m: Tensor) -> Tensor:
        return F.scaled_dot_product_attention(q, k, v, m, scale=scale)

    return function, (query, key, value, mask)


@case("aten._scaled_dot_product_flash_attention_for_cpu.default", decompose=False)
def cpu_flash_attention(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    query, key, value, causal, scale = _attention_inputs(data, (2, 2), flash=True)
    operator_ = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default

    def function(q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        return operator_(q, k, v, 0.0, causal, scale=scale)[0]

    return function, (query, key, value)


# -- factories and gathers --------------------------------------------------------------


@case(
    "aten.full.default",
    "aten.arange.start_step",
    "aten.scalar_tensor.default",
    "aten.full_like.default",
)
def factories(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data)

    def function(x: Tensor) -> tuple[Tensor, ...]:
        count = x.shape[-1]
        return (
            x + torch.full(dims, 2.5),
            torch.arange(count) * 2,
            x + torch.arange(1.0, 1.0 + count * 0.5, 0.5),
            torch.arange(count).unsqueeze(0) <= torch.arange(count).unsqueeze(1),
            torch.ones(count, count).tril() + torch.zeros(count) + x.sum(),
            torch.full_like(x, 7),
        )

    return function, (randn(data, dims),)


@case(
    "aten.zeros.default",
    "aten.ones.default",
    "aten.zeros_like.default",
    "aten.ones_like.default",
    "aten.new_zeros.default",
    "aten.new_ones.default",
    "aten.new_full.default",
    "aten.arange.default",
    "aten.arange.start",
    decompose=False,
)
def training_ir_factories(
    data: st.DataObject,
) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    dims = shape(data)

    def function(x: Tensor) -> tuple[Tensor, ...]:
        return (
            x + torch.zeros(dims) + torch.ones(dims),
            torch.zeros_like(x) + torch.ones_like(x),
            x.new_zeros(dims) + x.new_ones(dims) + x.new_full(dims, 3.0),
            torch.arange(dims[-1]) + torch.arange(1, dims[-1] + 1),
        )

    return function, (randn(data, dims),)


@case("aten.embedding.default", "aten.index_select.default")
def gathers(data: st.DataObject) -> tuple[Callable[..., Any], tuple[Tensor, ...]]:
    rows = data.draw(st.integers(1, 6), label="rows")
    indices = torch.randint(0, rows, shape(data, 1, 2), generator=generator(data))

    def function(table: Tensor, indices: Tensor) -> tuple[Tensor, ...]:
        flat = indices.reshape(-1)
        return F.embedding(indices, table), table.index_select(0, flat)

    return function, (randn(data, [rows, 3]), indices)


# ---------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------


def _run(case_: Case, function: Callable[..., Any], inputs: tuple[Tensor, ...]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's own deprecation notes
        program = export(function, inputs)
        if case_.decompose:
            program = program.run_decompositions(torch.export.default_decompositions())
    seen = {target_name(node) for node in program.graph.nodes}
    assert case_.ops <= seen, f"{case_.name} does not exercise {case_.ops - seen}"
    imported = import_exported_program(program, decompose=False)
    expected = function(*inputs)
    expected = expected if isinstance(expected, tuple | list) else (expected,)
    arguments = [as_host_array(t) for t in (*inputs, *imported.parameters)]
    results = irkit.interpret(imported.module, "main", *arguments)
    assert len(results) == len(expected)
    for index, (want, got) in enumerate(zip(expected, results, strict=True)):
        difference = compare_arrays(as_host_array(want), got, **case_.tolerance)
        assert difference is None, f"result {index}: {difference.describe()}"


@pytest.mark.parametrize("case_", CASES, ids=[c.name for c in CASES])
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_converter_matches_pytorch(case_: Case, data: st.DataObject) -> None:
    function, inputs = case_.make(data)
    _run(case_, function, inputs)


def test_every_converter_is_exercised() -> None:
    covered = set().union(*(c.ops for c in CASES))
    assert set(CONVERTERS) - covered == set(), "converters without a test case"


class CumulativeSum(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        return torch.cumsum(x, 0)  # the line the error points at


def test_unsupported_op_names_the_op_and_the_line() -> None:
    program = export(CumulativeSum(), (torch.ones(3),))
    with pytest.raises(UnsupportedOperatorError) as raised:
        import_exported_program(program)
    error = raised.value
    assert error.operator == "aten.cumsum.default"
    assert error.location is not None
    assert error.location.file == __file__
    assert "torch.cumsum(x, 0)" in error.format()
    assert "unsupported PyTorch operator 'aten.cumsum.default'" in error.format()


def test_unsupported_dtype_is_a_located_error() -> None:
    program = export(lambda x: x + 1, (torch.ones(3, dtype=torch.uint8),))
    with pytest.raises(TorchImportError, match="dtype uint8 is not supported"):
        import_exported_program(program)


def test_unsupported_arguments_are_refused() -> None:
    program = export(
        lambda x: F.max_pool2d(x, 2, ceil_mode=True), (torch.ones(1, 1, 5, 5),)
    )
    with pytest.raises(UnsupportedOperatorError, match="ceil_mode=True"):
        import_exported_program(program)


def test_parameters_follow_the_inputs_in_signature_order() -> None:
    """Weights are arguments after the inputs, named by their state-dict keys;
    a small lifted constant is inlined."""

    class Model(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.first = torch.nn.Linear(4, 3)
            self.register_buffer("shift", torch.full((3,), 0.5))

        def forward(self, x: Tensor, y: Tensor) -> Tensor:
            return self.first(x) + self.shift + y + torch.tensor([1.0, 2.0, 3.0])

    model = Model()
    inputs = (torch.randn(2, 4), torch.randn(3))
    imported = import_exported_program(export(model, inputs))
    assert imported.input_names == ("x", "y")
    assert imported.parameter_names == ("first.weight", "first.bias", "shift")
    function = imported.module.body.block.first_op
    assert function is not None
    arguments = [argument.name_hint for argument in function.regions[0].block.args]
    assert arguments == ["x", "y", "first_weight", "first_bias", "shift"]
    tensors = [as_host_array(t) for t in (*inputs, *imported.parameters)]
    (result,) = irkit.interpret(imported.module, "main", *tensors)
    np.testing.assert_allclose(result, model(*inputs).detach().numpy(), rtol=1e-5)


def test_parameters_as_constants() -> None:
    model = torch.nn.Linear(3, 2)
    x = torch.randn(4, 3)
    imported = import_exported_program(
        export(model, (x,)), parameters_as_constants=True
    )
    assert imported.parameter_names == ()
    (result,) = irkit.interpret(imported.module, "main", x.numpy())
    np.testing.assert_allclose(result, model(x).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_unlowered_import_keeps_nn_ops() -> None:
    imported = import_exported_program(
        export(torch.tanh, (torch.ones(2),)), lower=False
    )
    assert "nn.tanh" in str(imported.module)


def test_docs_list_every_operator() -> None:
    """docs/frontends.md's coverage table names every converted operator."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "frontends.md").read_text()
    missing = [name for name in CONVERTERS if f"`{name.split('.')[1]}" not in text]
    assert missing == []
