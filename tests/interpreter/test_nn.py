"""Reference semantics of the nn dialect against independent NumPy references.

Each test draws shapes and values with Hypothesis, builds a one-op `@main`
for them, runs it on the interpreter and checks the result's shape, dtype and
values (per-dtype tolerances; integers exactly). The references are written
differently from `irkit.interpreter.nn`: Python integers for wrapping integer
arithmetic, `math.erf`, and plain loops for convolution and pooling.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import irkit
from irkit.interpreter.special import erf

# Example counts come from the Hypothesis profile (tests/conftest.py).
EXAMPLES = settings()

TYPE_NAMES = {
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.bool_): "i1",
}
FLOATS = [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)]
INTS = [np.dtype(np.int32), np.dtype(np.int64)]
RTOL = {np.float16: 1e-2, np.float32: 1e-5, np.float64: 1e-12}


# --- building and running programs ----------------------------------------


def tensor_type(shape: tuple[int, ...], dtype: Any) -> str:
    dims = "".join(f"{dim}x" for dim in shape)
    return f"tensor<{dims}{TYPE_NAMES[np.dtype(dtype)]}>"


def run_op(
    op: str,
    arrays: list[np.ndarray],
    shape: tuple[int, ...],
    dtype: Any,
    signature: str | None = None,
) -> np.ndarray:
    """Run `%r = <op> %a0, ... : <signature>` and check the result's type.

    `op` names its operands `%a0`, `%a1`, ...; `signature` defaults to the
    full `T0, T1 -> R` form.
    """
    types = [tensor_type(a.shape, a.dtype) for a in arrays]
    result = tensor_type(shape, dtype)
    if signature is None:
        signature = f"{', '.join(types)} -> {result}"
    params = ", ".join(f"%a{index}: {t}" for index, t in enumerate(types))
    text = (
        f"func.func @main({params}) -> {result} {{\n"
        f"  %r = {op} : {signature}\n"
        f"  return %r : {result}\n"
        "}\n"
    )
    (out,) = irkit.interpret(text, "main", *arrays)
    assert out.shape == tuple(shape), text
    assert out.dtype == np.dtype(dtype), text
    return out


def assert_matches(actual: np.ndarray, expected: Any) -> None:
    """Floats within the dtype's tolerance of `expected`; others exactly."""
    expected = np.asarray(expected)
    if np.issubdtype(actual.dtype, np.floating):
        rtol = RTOL[actual.dtype.type]
        wide = expected.astype(np.float64)
        finite = wide[np.isfinite(wide)]
        scale = max(1.0, float(np.max(np.abs(finite), initial=0.0)))
        np.testing.assert_allclose(
            actual.astype(np.float64), wide, rtol=rtol, atol=rtol * scale
        )
    else:
        np.testing.assert_array_equal(actual, expected.astype(actual.dtype))


def wrap(values: Any, dtype: Any) -> np.ndarray:
    """Python integers wrapped to `dtype`'s two's complement range."""
    bits = np.dtype(dtype).itemsize * 8
    half = 1 << (bits - 1)
    flat = [((int(v) + half) % (2 * half)) - half for v in np.ravel(values)]
    return np.array(flat, dtype=dtype).reshape(np.shape(values))


def as_objects(array: np.ndarray) -> np.ndarray:
    """An object array of Python ints (exact, unbounded integer arithmetic)."""
    return np.array([int(v) for v in array.ravel()], dtype=object).reshape(array.shape)


# --- strategies -------------------------------------------------------------


def elements(dtype: Any, low: float = -10.0, high: float = 10.0) -> st.SearchStrategy:
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return st.booleans()
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return st.integers(max(int(low), info.min), min(int(high), info.max))
    # Bounds rounded to the dtype (Hypothesis requires representable ones).
    return st.floats(
        float(dtype.type(low)),
        float(dtype.type(high)),
        width=dtype.itemsize * 8,
        allow_nan=False,
        allow_infinity=False,
        allow_subnormal=False,
    )


def away_from_zero(dtype: Any, low: float, high: float) -> st.SearchStrategy:
    magnitude = elements(dtype, low, high)
    return st.one_of(magnitude, magnitude.map(lambda v: -v))


def arrays(
    dtype: Any, shape: tuple[int, ...], values: st.SearchStrategy | None = None
) -> st.SearchStrategy:
    """Arrays of `dtype` with not all elements zero."""
    strategy = hnp.arrays(
        np.dtype(dtype), shape, elements=elements(dtype) if values is None else values
    )
    return strategy.filter(lambda a: a.size == 0 or bool(np.any(a != 0)))


# Inputs have rank >= 1: `coerce_arguments` turns a rank-0 argument into rank 1
# (np.ascontiguousarray); rank-0 results are covered by the reductions.
shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)
nonscalar_shapes = shapes
pairs = hnp.mutually_broadcastable_shapes(
    num_shapes=2, min_dims=1, max_dims=3, max_side=4
)
triples = hnp.mutually_broadcastable_shapes(
    num_shapes=3, min_dims=1, max_dims=3, max_side=4
)
float_dtypes = st.sampled_from(FLOATS)
int_dtypes = st.sampled_from(INTS)


# --- constant ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("attribute", "dtype", "expected"),
    [
        ("dense<[1.5, -2.0, 3.25]> : tensor<3xf32>", np.float32, [1.5, -2.0, 3.25]),
        ("dense<[[1, -2], [3, 4]]> : tensor<2x2xi64>", np.int64, [[1, -2], [3, 4]]),
        ("dense<[true, false]> : tensor<2xi1>", np.bool_, [True, False]),
        ("dense<0.5> : tensor<2x3xf16>", np.float16, np.full((2, 3), 0.5)),
        ("dense<-7> : tensor<i32>", np.int32, -7),
        ("dense<2.0> : tensor<2xf64>", np.float64, [2.0, 2.0]),
    ],
)
def test_constant(attribute: str, dtype: Any, expected: Any) -> None:
    result = attribute.rsplit(" : ", 1)[1]
    text = (
        f"func.func @main() -> {result} {{\n"
        f"  %c = nn.constant {attribute}\n"
        f"  return %c : {result}\n}}\n"
    )
    (out,) = irkit.interpret(text, "main")
    assert out.dtype == np.dtype(dtype)
    assert out.shape == np.shape(expected)
    np.testing.assert_array_equal(out, np.asarray(expected, dtype=dtype))


# --- elementwise binary -------------------------------------------------------


@EXAMPLES
@given(
    data=st.data(),
    op=st.sampled_from(["add", "sub", "mul", "div", "max", "min", "pow"]),
    dtype=float_dtypes,
    shapes=pairs,
)
def test_binary_float(data: st.DataObject, op: str, dtype: Any, shapes: Any) -> None:
    lhs_shape, rhs_shape = shapes.input_shapes
    if op == "pow":
        lhs = data.draw(arrays(dtype, lhs_shape, elements(dtype, 0.1, 4.0)))
        rhs = data.draw(arrays(dtype, rhs_shape, elements(dtype, -3.0, 3.0)))
    elif op == "div":
        lhs = data.draw(arrays(dtype, lhs_shape))
        rhs = data.draw(arrays(dtype, rhs_shape, away_from_zero(dtype, 0.5, 10.0)))
    else:
        lhs = data.draw(arrays(dtype, lhs_shape))
        rhs = data.draw(arrays(dtype, rhs_shape))
    out = run_op(f"nn.{op} %a0, %a1", [lhs, rhs], shapes.result_shape, dtype)
    a, b = lhs.astype(np.float64), rhs.astype(np.float64)
    reference = {
        "add": lambda: a + b,
        "sub": lambda: a - b,
        "mul": lambda: a * b,
        "div": lambda: a / b,
        "max": lambda: np.where(a >= b, a, b),
        "min": lambda: np.where(a <= b, a, b),
        "pow": lambda: np.exp(b * np.log(a)),
    }[op]()
    assert_matches(out, np.broadcast_to(reference, shapes.result_shape))


def _truncating_division(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


_INT_REFERENCES = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": _truncating_division,
    "max": max,
    "min": min,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}


@EXAMPLES
@given(
    data=st.data(),
    op=st.sampled_from(sorted(_INT_REFERENCES)),
    dtype=int_dtypes,
    shapes=pairs,
)
def test_binary_int(data: st.DataObject, op: str, dtype: Any, shapes: Any) -> None:
    """Full-range integers: add/sub/mul wrap, div truncates toward zero."""
    info = np.iinfo(dtype)
    lhs_shape, rhs_shape = shapes.input_shapes
    full = elements(dtype, info.min, info.max)
    divisor = st.integers(info.min, info.max).filter(lambda v: v != 0)
    lhs = data.draw(arrays(dtype, lhs_shape, full))
    rhs = data.draw(arrays(dtype, rhs_shape, divisor if op == "div" else full))
    out = run_op(f"nn.{op} %a0, %a1", [lhs, rhs], shapes.result_shape, dtype)
    a, b = np.broadcast_arrays(as_objects(lhs), as_objects(rhs))
    reference = [_INT_REFERENCES[op](x, y) for x, y in zip(a.ravel(), b.ravel())]
    expected = wrap(np.array(reference, dtype=object).reshape(a.shape), dtype)
    assert_matches(out, expected)


def test_integer_division_truncates_and_add_wraps() -> None:
    lhs = np.array([7, -7, 7, -7, 2**31 - 1], dtype=np.int32)
    rhs = np.array([2, 2, -2, -2, 1], dtype=np.int32)
    div = run_op("nn.div %a0, %a1", [lhs, rhs], (5,), np.int32)
    np.testing.assert_array_equal(div, [3, -3, -3, 3, 2**31 - 1])
    add = run_op("nn.add %a0, %a1", [lhs, rhs], (5,), np.int32)
    assert add[-1] == -(2**31)


@EXAMPLES
@given(data=st.data(), op=st.sampled_from(["and", "or", "xor"]), shapes=pairs)
def test_logical(data: st.DataObject, op: str, shapes: Any) -> None:
    lhs = data.draw(arrays(np.bool_, shapes.input_shapes[0]))
    rhs = data.draw(arrays(np.bool_, shapes.input_shapes[1]))
    out = run_op(f"nn.{op} %a0, %a1", [lhs, rhs], shapes.result_shape, np.bool_)
    a, b = np.broadcast_arrays(lhs, rhs)
    reference = {"and": a & b, "or": a | b, "xor": a != b}[op]
    assert_matches(out, reference)


# --- elementwise unary --------------------------------------------------------


def _erf_reference(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[np.float64])(x)


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)

# op -> (domain, reference on float64)
_UNARY_FLOAT = {
    "neg": ((-10, 10), lambda x: -x),
    "abs": ((-10, 10), np.abs),
    "relu": ((-10, 10), lambda x: np.where(x > 0, x, 0.0)),
    "exp": ((-10, 10), np.exp),
    "log": ((0.01, 100), np.log),
    "sqrt": ((0.01, 100), np.sqrt),
    "rsqrt": ((0.01, 100), lambda x: 1 / np.sqrt(x)),
    "tanh": ((-10, 10), np.tanh),
    "sigmoid": ((-10, 10), lambda x: np.exp(x) / (1 + np.exp(x))),
    "erf": ((-5, 5), _erf_reference),
    "gelu": ((-5, 5), lambda x: x * (1 + _erf_reference(x / math.sqrt(2))) / 2),
    "gelu approximate tanh": (
        (-5, 5),
        lambda x: x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x**3))) / 2,
    ),
}


@EXAMPLES
@given(
    data=st.data(),
    op=st.sampled_from(sorted(_UNARY_FLOAT)),
    dtype=float_dtypes,
    shape=shapes,
)
def test_unary_float(data: st.DataObject, op: str, dtype: Any, shape: Any) -> None:
    (low, high), reference = _UNARY_FLOAT[op]
    x = data.draw(arrays(dtype, shape, elements(dtype, low, high)))
    name, _, option = op.partition(" ")
    out = run_op(
        f"nn.{name} %a0 {option}", [x], shape, dtype, tensor_type(shape, dtype)
    )
    assert_matches(out, reference(x.astype(np.float64)))


@EXAMPLES
@given(
    data=st.data(),
    op=st.sampled_from(["neg", "abs", "relu", "not"]),
    dtype=int_dtypes,
    shape=shapes,
)
def test_unary_int(data: st.DataObject, op: str, dtype: Any, shape: Any) -> None:
    info = np.iinfo(dtype)
    x = data.draw(arrays(dtype, shape, elements(dtype, info.min, info.max)))
    out = run_op(f"nn.{op} %a0", [x], shape, dtype, tensor_type(shape, dtype))
    values = as_objects(x)
    reference = {
        "neg": lambda v: -v,
        "abs": abs,
        "relu": lambda v: max(v, 0),
        "not": lambda v: -v - 1,
    }[op]
    expected = np.array([reference(v) for v in values.ravel()], dtype=object)
    assert_matches(out, wrap(expected.reshape(shape), dtype))


def test_not_on_i1() -> None:
    x = np.array([True, False, True])
    out = run_op("nn.not %a0", [x], (3,), np.bool_, "tensor<3xi1>")
    np.testing.assert_array_equal(out, [False, True, False])


def test_erf_accuracy() -> None:
    """The shared erf against math.erf: relative error below 1e-13 in f64."""
    points = np.concatenate(
        [
            np.linspace(-7, 7, 2801),
            np.geomspace(1e-300, 1e-3, 50),
            -np.geomspace(1e-300, 1e-3, 50),
            [0.0, 5.9999, 6.0, 6.0001, 30.0, -30.0],
        ]
    )
    exact = _erf_reference(points)
    got = erf(points)
    relative = np.abs(got - exact) / np.maximum(np.abs(exact), 1e-300)
    assert got.dtype == np.float64
    assert float(np.max(relative)) < 1e-13
    # f32: the correctly rounded value (evaluated in f64, rounded once).
    narrow = points.astype(np.float32)
    single = erf(narrow)
    assert single.dtype == np.float32
    exact_single = _erf_reference(narrow.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(single, exact_single)


# --- cast, cmp, select --------------------------------------------------------

_ALL_DTYPES = [*FLOATS, *INTS, np.dtype(np.bool_)]


def _cast_reference(value: Any, source: np.dtype, target: np.dtype) -> Any:
    if target == np.bool_:
        return bool(value != 0)
    if source == np.bool_:
        return int(value)
    if np.issubdtype(target, np.integer):
        return math.trunc(float(value)) if source.kind == "f" else int(value)
    return float(value) if source.kind == "f" else float(int(value))


@EXAMPLES
@given(
    data=st.data(),
    source=st.sampled_from(_ALL_DTYPES),
    target=st.sampled_from(_ALL_DTYPES),
    shape=shapes,
)
def test_cast(data: st.DataObject, source: Any, target: Any, shape: Any) -> None:
    """In-range values: float to int truncates, to i1 is != 0, ints wrap."""
    values = elements(source, -100.0, 100.0)
    if np.issubdtype(source, np.integer) and np.issubdtype(target, np.integer):
        values = elements(source, -(2**40), 2**40)
    x = data.draw(arrays(source, shape, values))
    out = run_op("nn.cast %a0", [x], shape, target)
    flat = [_cast_reference(v, source, target) for v in x.ravel().tolist()]
    if np.issubdtype(target, np.integer):
        expected = wrap(np.array(flat, dtype=object).reshape(shape), target)
    else:
        expected = np.array(flat, dtype=np.float64 if target.kind == "f" else bool)
        expected = expected.astype(target).reshape(shape)
    np.testing.assert_array_equal(out, expected)


def test_cast_truncates_toward_zero() -> None:
    x = np.array([2.7, -2.7, 0.5, -0.5, 0.0], dtype=np.float32)
    out = run_op("nn.cast %a0", [x], (5,), np.int32)
    np.testing.assert_array_equal(out, [2, -2, 0, 0, 0])
    flags = run_op("nn.cast %a0", [x], (5,), np.bool_)
    np.testing.assert_array_equal(flags, [True, True, True, True, False])


_PREDICATES = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}


@EXAMPLES
@given(
    data=st.data(),
    predicate=st.sampled_from(sorted(_PREDICATES)),
    dtype=st.sampled_from(_ALL_DTYPES),
    shapes=pairs,
)
def test_cmp(data: st.DataObject, predicate: str, dtype: Any, shapes: Any) -> None:
    # Few distinct values, so that equal elements are common.
    values = elements(dtype, -3, 3).map(lambda v: v if dtype == np.bool_ else round(v))
    lhs = data.draw(arrays(dtype, shapes.input_shapes[0], values))
    rhs = data.draw(arrays(dtype, shapes.input_shapes[1], values))
    out = run_op(
        f"nn.cmp {predicate}, %a0, %a1", [lhs, rhs], shapes.result_shape, np.bool_
    )
    a, b = np.broadcast_arrays(lhs, rhs)
    expected = [
        _PREDICATES[predicate](x, y)
        for x, y in zip(a.ravel().tolist(), b.ravel().tolist())
    ]
    assert_matches(out, np.array(expected, dtype=bool).reshape(shapes.result_shape))


def test_cmp_nan() -> None:
    nan = np.array([np.nan, 1.0], dtype=np.float32)
    one = np.array([1.0, 1.0], dtype=np.float32)
    for predicate, expected in [("eq", [0, 1]), ("ne", [1, 0]), ("lt", [0, 0])]:
        out = run_op(f"nn.cmp {predicate}, %a0, %a1", [nan, one], (2,), np.bool_)
        np.testing.assert_array_equal(out, np.array(expected, dtype=bool))


@EXAMPLES
@given(data=st.data(), dtype=st.sampled_from(_ALL_DTYPES), shapes=triples)
def test_select(data: st.DataObject, dtype: Any, shapes: Any) -> None:
    condition_shape, true_shape, false_shape = shapes.input_shapes
    condition = data.draw(hnp.arrays(np.bool_, condition_shape))
    on_true = data.draw(arrays(dtype, true_shape))
    on_false = data.draw(arrays(dtype, false_shape))
    out = run_op(
        "nn.select %a0, %a1, %a2",
        [condition, on_true, on_false],
        shapes.result_shape,
        dtype,
    )
    c, t, f = np.broadcast_arrays(condition, on_true, on_false)
    expected = [x if pick else y for pick, x, y in zip(c.ravel(), t.ravel(), f.ravel())]
    assert_matches(out, np.array(expected, dtype=dtype).reshape(shapes.result_shape))


# --- matmul and layout ----------------------------------------------------------


@st.composite
def matmul_shapes(draw: st.DrawFn) -> tuple[tuple[int, ...], ...]:
    batch = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3)
    )
    m, k, n = draw(st.tuples(*[st.integers(1, 5)] * 3))
    lhs = (*batch.input_shapes[0], m, k)
    rhs = (*batch.input_shapes[1], k, n)
    return lhs, rhs, (*batch.result_shape, m, n)


def _reference_matmul(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Batched matmul by explicit loops over broadcast batch indices."""
    batch = np.broadcast_shapes(lhs.shape[:-2], rhs.shape[:-2])
    a = np.broadcast_to(lhs, (*batch, *lhs.shape[-2:]))
    b = np.broadcast_to(rhs, (*batch, *rhs.shape[-2:]))
    out = np.empty((*batch, lhs.shape[-2], rhs.shape[-1]), dtype=object)
    for index in itertools.product(*(range(d) for d in batch)):
        x, y = a[index], b[index]
        for i, j in itertools.product(range(x.shape[0]), range(y.shape[1])):
            out[(*index, i, j)] = sum(x[i, p] * y[p, j] for p in range(x.shape[1]))
    return out


@EXAMPLES
@given(data=st.data(), dtype=st.sampled_from([*FLOATS, *INTS]), shapes=matmul_shapes())
def test_matmul(data: st.DataObject, dtype: Any, shapes: Any) -> None:
    """Batch dims broadcast like np.matmul; integers wrap."""
    lhs_shape, rhs_shape, result_shape = shapes
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        values = elements(dtype, info.min, info.max)
        lhs = data.draw(arrays(dtype, lhs_shape, values))
        rhs = data.draw(arrays(dtype, rhs_shape, values))
        expected = wrap(_reference_matmul(as_objects(lhs), as_objects(rhs)), dtype)
    else:
        lhs = data.draw(arrays(dtype, lhs_shape))
        rhs = data.draw(arrays(dtype, rhs_shape))
        expected = _reference_matmul(lhs.astype(np.float64), rhs.astype(np.float64))
        expected = expected.astype(np.float64)
    out = run_op("nn.matmul %a0, %a1", [lhs, rhs], result_shape, dtype)
    assert_matches(out, expected)


@EXAMPLES
@given(data=st.data(), dtype=st.sampled_from(_ALL_DTYPES), shape=shapes)
def test_transpose(data: st.DataObject, dtype: Any, shape: Any) -> None:
    x = data.draw(arrays(dtype, shape))
    perm = data.draw(st.permutations(range(len(shape))))
    result_shape = tuple(shape[axis] for axis in perm)
    out = run_op(f"nn.transpose %a0 perm {list(perm)}", [x], result_shape, dtype)
    for index in itertools.product(*(range(d) for d in result_shape)):
        source = [0] * len(shape)
        for position, axis in enumerate(perm):
            source[axis] = index[position]
        assert out[index] == x[tuple(source)]


@EXAMPLES
@given(data=st.data(), dtype=st.sampled_from(_ALL_DTYPES), shapes=pairs)
def test_broadcast_to(data: st.DataObject, dtype: Any, shapes: Any) -> None:
    shape = shapes.input_shapes[0]
    target = shapes.result_shape
    x = data.draw(arrays(dtype, shape))
    out = run_op("nn.broadcast_to %a0", [x], target, dtype)
    offset = len(target) - len(shape)
    for index in itertools.product(*(range(d) for d in target)):
        source = tuple(
            0 if size == 1 else index[offset + axis] for axis, size in enumerate(shape)
        )
        assert out[index] == x[source]


@EXAMPLES
@given(data=st.data(), dtype=st.sampled_from(_ALL_DTYPES), shape=shapes)
def test_reshape(data: st.DataObject, dtype: Any, shape: Any) -> None:
    x = data.draw(arrays(dtype, shape))
    size = int(np.prod(shape))
    divisors = [d for d in range(1, size + 1) if size % d == 0]
    first = data.draw(st.sampled_from(divisors))
    target = (first, 1, size // first)
    out = run_op("nn.reshape %a0", [x], target, dtype)
    assert out.ravel().tolist() == x.ravel().tolist()


@EXAMPLES
@given(
    data=st.data(),
    dtype=st.sampled_from(_ALL_DTYPES),
    shape=nonscalar_shapes,
    count=st.integers(1, 3),
)
def test_concat(data: st.DataObject, dtype: Any, shape: Any, count: int) -> None:
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    normalized = axis % len(shape)
    pieces = []
    for _ in range(count):
        size = data.draw(st.integers(1, 3))
        piece_shape = tuple(size if d == normalized else s for d, s in enumerate(shape))
        pieces.append(data.draw(arrays(dtype, piece_shape)))
    result_shape = list(shape)
    result_shape[normalized] = sum(p.shape[normalized] for p in pieces)
    operands = ", ".join(f"%a{i}" for i in range(count))
    out = run_op(
        f"nn.concat {operands} axis {axis}", pieces, tuple(result_shape), dtype
    )
    start = 0
    for piece in pieces:
        index = [slice(None)] * len(shape)
        index[normalized] = slice(start, start + piece.shape[normalized])
        np.testing.assert_array_equal(out[tuple(index)], piece)
        start += piece.shape[normalized]


@EXAMPLES
@given(data=st.data(), dtype=st.sampled_from(_ALL_DTYPES), shape=nonscalar_shapes)
def test_slice(data: st.DataObject, dtype: Any, shape: Any) -> None:
    x = data.draw(arrays(dtype, shape))
    start, limit, stride = [], [], []
    for size in shape:
        first = data.draw(st.integers(0, size))
        start.append(first)
        limit.append(data.draw(st.integers(first, size)))
        stride.append(data.draw(st.integers(1, 3)))
    result_shape = tuple(
        len(range(a, b, s)) for a, b, s in zip(start, limit, stride, strict=True)
    )
    out = run_op(
        f"nn.slice %a0 start {start} limit {limit} stride {stride}",
        [x],
        result_shape,
        dtype,
    )
    ranges = [range(a, b, s) for a, b, s in zip(start, limit, stride, strict=True)]
    for index in itertools.product(*(range(d) for d in result_shape)):
        source = tuple(r[i] for r, i in zip(ranges, index, strict=True))
        assert out[index] == x[source]


# --- reductions and normalisations --------------------------------------------


def _reduce_reference(x: np.ndarray, axes: tuple[int, ...], op: str) -> np.ndarray:
    """Reduce by iterating over the kept index space (keepdims shape)."""
    kept = tuple(1 if d in axes else s for d, s in enumerate(x.shape))
    out = np.empty(kept, dtype=object)
    for index in itertools.product(*(range(d) for d in kept)):
        window = tuple(slice(None) if d in axes else i for d, i in enumerate(index))
        values = x[window].ravel().tolist()
        if op == "sum":
            out[index] = math.fsum(values) if x.dtype.kind == "f" else sum(values)
        elif op == "max":
            out[index] = max(values)
        elif op == "min":
            out[index] = min(values)
        else:
            out[index] = math.fsum(values) / len(values)
    return out


@EXAMPLES
@given(
    data=st.data(),
    op=st.sampled_from(["sum", "max", "min", "mean"]),
    dtype=st.sampled_from([*FLOATS, *INTS]),
    shape=nonscalar_shapes,
    keepdims=st.booleans(),
)
def test_reductions(
    data: st.DataObject, op: str, dtype: Any, shape: Any, keepdims: bool
) -> None:
    assume(not (op == "mean" and np.issubdtype(dtype, np.integer)))
    rank = len(shape)
    axes = data.draw(st.lists(st.integers(0, rank - 1), min_size=1, unique=True))
    written = [data.draw(st.sampled_from([a, a - rank])) for a in axes]
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        x = data.draw(arrays(dtype, shape, elements(dtype, info.min, info.max)))
    else:
        x = data.draw(arrays(dtype, shape))
    reference = _reduce_reference(
        as_objects(x) if x.dtype.kind == "i" else x, tuple(axes), op
    )
    if not keepdims:
        reference = reference.reshape(
            tuple(s for d, s in enumerate(shape) if d not in axes)
        )
    flag = " keepdims" if keepdims else ""
    out = run_op(
        f"nn.reduce_{op} %a0 axes {written}{flag}", [x], reference.shape, dtype
    )
    if np.issubdtype(dtype, np.integer):
        assert_matches(out, wrap(reference, dtype))
    else:
        assert_matches(out, reference.astype(np.float64))


def _softmax_reference(x: np.ndarray, axis: int, log: bool) -> np.ndarray:
    moved = np.moveaxis(x.astype(np.float64), axis, -1)
    out = np.empty_like(moved)
    for index in itertools.product(*(range(d) for d in moved.shape[:-1])):
        row = moved[index].tolist()
        top = max(row)
        total = math.fsum(math.exp(v - top) for v in row)
        if log:
            out[index] = [v - top - math.log(total) for v in row]
        else:
            out[index] = [math.exp(v - top) / total for v in row]
    return np.moveaxis(out, -1, axis)


@EXAMPLES
@given(
    data=st.data(),
    op=st.sampled_from(["softmax", "log_softmax"]),
    dtype=float_dtypes,
    shape=nonscalar_shapes,
)
def test_softmax(data: st.DataObject, op: str, dtype: Any, shape: Any) -> None:
    x = data.draw(arrays(dtype, shape))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    out = run_op(
        f"nn.{op} %a0 axis {axis}", [x], shape, dtype, tensor_type(shape, dtype)
    )
    assert_matches(out, _softmax_reference(x, axis % len(shape), op == "log_softmax"))


@EXAMPLES
@given(
    data=st.data(),
    dtype=float_dtypes,
    shape=nonscalar_shapes,
    with_scale=st.booleans(),
    with_bias=st.booleans(),
)
def test_layer_norm(
    data: st.DataObject, dtype: Any, shape: Any, with_scale: bool, with_bias: bool
) -> None:
    count = data.draw(st.integers(1, len(shape)))
    rank = len(shape)
    axes = [
        data.draw(st.sampled_from([a, a - rank])) for a in range(rank - count, rank)
    ]
    eps = data.draw(st.sampled_from([1e-5, 1e-3, 0.1]))
    normalized = shape[rank - count :]
    x = data.draw(arrays(dtype, shape))
    operands, keywords = [x], ""
    scale = bias = None
    if with_scale:
        scale = data.draw(arrays(dtype, normalized))
        operands.append(scale)
        keywords += f" scale %a{len(operands) - 1}"
    if with_bias:
        bias = data.draw(arrays(dtype, normalized))
        operands.append(bias)
        keywords += f" bias %a{len(operands) - 1}"
    out = run_op(
        f"nn.layer_norm %a0{keywords} axes {axes} eps {eps:.1e}", operands, shape, dtype
    )
    rows = x.astype(np.float64).reshape(-1, int(np.prod(normalized)))
    expected = np.empty_like(rows)
    for r, row in enumerate(rows):
        mean = math.fsum(row) / len(row)
        variance = math.fsum((v - mean) ** 2 for v in row) / len(row)
        expected[r] = (row - mean) / math.sqrt(variance + eps)
    expected = expected.reshape(shape)
    if scale is not None:
        expected = expected * scale.astype(np.float64)
    if bias is not None:
        expected = expected + bias.astype(np.float64)
    assert_matches(out, expected)


# --- convolution and pooling -----------------------------------------------------


@st.composite
def conv_cases(draw: st.DrawFn) -> dict[str, Any]:
    n, c, f = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    stride = [draw(st.integers(1, 2)), draw(st.integers(1, 2))]
    padding = [draw(st.integers(0, 2)), draw(st.integers(0, 2))]
    dilation = [draw(st.integers(1, 2)), draw(st.integers(1, 2))]
    extent_h, extent_w = dilation[0] * (kh - 1) + 1, dilation[1] * (kw - 1) + 1
    h = draw(st.integers(max(1, extent_h - 2 * padding[0]), 6))
    w = draw(st.integers(max(1, extent_w - 2 * padding[1]), 6))
    return {
        "input": (n, c, h, w),
        "weight": (f, c, kh, kw),
        "stride": stride,
        "padding": padding,
        "dilation": dilation,
        "bias": draw(st.booleans()),
    }


def _reference_conv2d(
    x: np.ndarray,
    weight: np.ndarray,
    bias: np.ndarray | None,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
) -> np.ndarray:
    n, c, h, w = x.shape
    f, _, kh, kw = weight.shape
    out_h = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    out_w = (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, f, out_h, out_w))
    for b, o, i, j in itertools.product(range(n), range(f), range(out_h), range(out_w)):
        total = 0.0 if bias is None else float(bias[o])
        for ch, p, q in itertools.product(range(c), range(kh), range(kw)):
            row = i * stride[0] - padding[0] + p * dilation[0]
            col = j * stride[1] - padding[1] + q * dilation[1]
            if 0 <= row < h and 0 <= col < w:
                total += float(x[b, ch, row, col]) * float(weight[o, ch, p, q])
        out[b, o, i, j] = total
    return out


@EXAMPLES
@given(data=st.data(), dtype=float_dtypes, case=conv_cases())
def test_conv2d(data: st.DataObject, dtype: Any, case: dict[str, Any]) -> None:
    x = data.draw(arrays(dtype, case["input"]))
    weight = data.draw(arrays(dtype, case["weight"]))
    operands = [x, weight]
    bias = None
    if case["bias"]:
        bias = data.draw(arrays(dtype, case["weight"][:1]))
        operands.append(bias)
    expected = _reference_conv2d(
        x, weight, bias, case["stride"], case["padding"], case["dilation"]
    )
    names = ", ".join(f"%a{i}" for i in range(len(operands)))
    op = (
        f"nn.conv2d {names} stride {case['stride']} padding {case['padding']} "
        f"dilation {case['dilation']}"
    )
    out = run_op(op, operands, expected.shape, dtype)
    assert_matches(out, expected)


@st.composite
def pool_cases(draw: st.DrawFn) -> dict[str, Any]:
    kernel = [draw(st.integers(1, 3)), draw(st.integers(1, 3))]
    stride = [draw(st.integers(1, 3)), draw(st.integers(1, 3))]
    padding = [draw(st.integers(0, k // 2)) for k in kernel]
    h = draw(st.integers(max(1, kernel[0] - 2 * padding[0]), 6))
    w = draw(st.integers(max(1, kernel[1] - 2 * padding[1]), 6))
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 3)), h, w)
    return {"input": shape, "kernel": kernel, "stride": stride, "padding": padding}


def _reference_pool2d(x: np.ndarray, case: dict[str, Any], op: str) -> np.ndarray:
    """Max ignores padded positions; avg divides by kh*kw (count_include_pad)."""
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (ph, pw) = case["kernel"], case["stride"], case["padding"]
    out_h = (h + 2 * ph - kh) // sh + 1
    out_w = (w + 2 * pw - kw) // sw + 1
    out = np.empty((n, c, out_h, out_w), dtype=object)
    for b, ch, i, j in itertools.product(
        range(n), range(c), range(out_h), range(out_w)
    ):
        values = []
        for p, q in itertools.product(range(kh), range(kw)):
            row, col = i * sh - ph + p, j * sw - pw + q
            if 0 <= row < h and 0 <= col < w:
                values.append(x[b, ch, row, col].item())
        if op == "max":
            out[b, ch, i, j] = max(values)
        else:
            out[b, ch, i, j] = math.fsum(values) / (kh * kw)
    return out


@EXAMPLES
@given(
    data=st.data(),
    op=st.sampled_from(["max", "avg"]),
    dtype=st.sampled_from([*FLOATS, *INTS]),
    case=pool_cases(),
)
def test_pool2d(data: st.DataObject, op: str, dtype: Any, case: dict[str, Any]) -> None:
    assume(not (op == "avg" and np.issubdtype(dtype, np.integer)))
    x = data.draw(arrays(dtype, case["input"]))
    expected = _reference_pool2d(x, case, op)
    out = run_op(
        f"nn.{op}_pool2d %a0 kernel {case['kernel']} stride {case['stride']} "
        f"padding {case['padding']}",
        [x],
        expected.shape,
        dtype,
    )
    if np.issubdtype(dtype, np.integer):
        assert_matches(out, expected.astype(dtype))
    else:
        assert_matches(out, expected.astype(np.float64))


def test_avg_pool_counts_padding() -> None:
    """A 3x3 window at a corner of a padded ones image averages 4/9."""
    x = np.ones((1, 1, 2, 2), dtype=np.float32)
    out = run_op(
        "nn.avg_pool2d %a0 kernel [3, 3] stride [1, 1] padding [1, 1]",
        [x],
        (1, 1, 2, 2),
        np.float32,
    )
    np.testing.assert_allclose(out, np.full((1, 1, 2, 2), 4 / 9, dtype=np.float32))


def test_example_mlp() -> None:
    """examples/mlp.mlir against the same network written in NumPy."""
    path = Path(__file__).resolve().parents[2] / "examples" / "mlp.mlir"
    rng = np.random.default_rng(0)
    shapes = [(4, 16), (16, 32), (32,), (32, 10), (10,)]
    x, w1, b1, w2, b2 = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    (probabilities,) = irkit.interpret(path.read_text(), "main", x, w1, b1, w2, b2)
    hidden = np.maximum(x.astype(np.float64) @ w1 + b1, 0.0)
    logits = hidden @ w2 + b2
    expected = np.exp(logits - logits.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    assert probabilities.shape == (4, 10)
    assert probabilities.dtype == np.float32
    assert_matches(probabilities, expected)
