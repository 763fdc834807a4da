"""Reference semantics of upstream arith/math/linalg/tensor against NumPy.

The references are written independently of `irkit.interpreter`: Python
integers for wrapping and truncating integer arithmetic, `math.erf`, and
plain loops for convolutions, pooling and reductions. Programs are built as
text and run with `irkit.interpret`, once on scalars and once vectorised in
a `linalg.generic` body where that matters.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import irkit
from irkit.dtypes import BFLOAT16
from irkit.interpreter.special import erf

# Example counts come from the Hypothesis profile (tests/conftest.py).
EXAMPLES = settings()

NAMES = {
    np.dtype(np.float16): "f16",
    BFLOAT16: "bf16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.bool_): "i1",
}


def ttype(shape: tuple[int, ...], dtype: Any) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{NAMES[np.dtype(dtype)]}>"


def run(text: str, *arrays: Any) -> tuple[np.ndarray, ...]:
    return irkit.interpret(text, "main", *arrays)


def wrap(value: int, dtype: Any) -> int:
    bits = np.dtype(dtype).itemsize * 8
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def unsigned(value: int, dtype: Any) -> int:
    return value & ((1 << (np.dtype(dtype).itemsize * 8)) - 1)


def int_arrays(dtype: Any, shape: tuple[int, ...]) -> st.SearchStrategy:
    info = np.iinfo(dtype)
    edge = st.sampled_from([info.min, info.max, 0, 1, -1])
    return hnp.arrays(
        np.dtype(dtype),
        shape,
        elements=st.one_of(st.integers(info.min, info.max), edge),
    )


def elementwise_program(op: str, dtype: Any, shape: tuple[int, ...], arity: int) -> str:
    """`@main` applying scalar `op` (`%r = OP %x0, %x1 : T`) in a generic body."""
    t = ttype(shape, dtype)
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    params = ", ".join(f"%a{i}: {t}" for i in range(arity))
    ins = ", ".join(f"%a{i}" for i in range(arity))
    block = ", ".join(f"%x{i}: {NAMES[np.dtype(dtype)]}" for i in range(arity))
    maps = ", ".join([ident] * (arity + 1))
    iterators = ", ".join(['"parallel"'] * rank)
    element = NAMES[np.dtype(dtype)]
    return f"""
func.func @main({params}) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}}
      ins({ins} : {", ".join([t] * arity)}) outs(%e : {t}) {{
  ^bb0({block}, %o: {element}):
    %v = {op}
    linalg.yield %v : {element}
  }} -> {t}
  return %r : {t}
}}
"""


def scalar_program(op: str, dtype: Any, arity: int) -> str:
    element = NAMES[np.dtype(dtype)]
    params = ", ".join(f"%x{i}: {element}" for i in range(arity))
    return f"""
func.func @main({params}) -> {element} {{
  %v = {op}
  return %v : {element}
}}
"""


# --- special functions ----------------------------------------------------


def test_erf_matches_math_erf() -> None:
    xs = np.concatenate([np.linspace(-7, 7, 20001), [0.0, -0.0, 1e-300, -1e-30]])
    expected = np.array([math.erf(x) for x in xs])
    got = erf(xs)
    assert got.dtype == np.float64
    relative = np.abs(got - expected) / np.maximum(np.abs(expected), 1e-300)
    assert float(relative.max()) < 1e-7
    assert erf(np.float32(0.5)).dtype == np.float32
    assert erf(np.arange(3, dtype=np.float16)).dtype == np.float16
    special = erf(np.array([np.inf, -np.inf, np.nan]))
    assert special[0] == 1.0
    assert special[1] == -1.0
    assert np.isnan(special[2])


# --- arith: integers ------------------------------------------------------


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


INT_REFERENCES = {
    "arith.addi": lambda a, b, t: wrap(a + b, t),
    "arith.subi": lambda a, b, t: wrap(a - b, t),
    "arith.muli": lambda a, b, t: wrap(a * b, t),
    "arith.divsi": lambda a, b, t: 0 if b == 0 else wrap(_trunc_div(a, b), t),
    "arith.remsi": lambda a, b, t: 0 if b == 0 else wrap(a - b * _trunc_div(a, b), t),
    "arith.floordivsi": lambda a, b, t: 0 if b == 0 else wrap(a // b, t),
    "arith.ceildivsi": lambda a, b, t: 0 if b == 0 else wrap(-(-a // b), t),
    "arith.divui": lambda a, b, t: (
        0 if b == 0 else wrap(unsigned(a, t) // unsigned(b, t), t)
    ),
    "arith.remui": lambda a, b, t: (
        0 if b == 0 else wrap(unsigned(a, t) % unsigned(b, t), t)
    ),
    "arith.maxsi": lambda a, b, t: max(a, b),
    "arith.minui": lambda a, b, t: wrap(min(unsigned(a, t), unsigned(b, t)), t),
    "arith.andi": lambda a, b, t: a & b,
    "arith.xori": lambda a, b, t: a ^ b,
    "arith.shli": lambda a, b, t: (
        0
        if unsigned(b, t) >= 8 * np.dtype(t).itemsize
        else wrap(a << unsigned(b, t), t)
    ),
    "arith.shrsi": lambda a, b, t: (
        a >> min(unsigned(b, t), 8 * np.dtype(t).itemsize - 1)
    ),
    "arith.shrui": lambda a, b, t: (
        0
        if unsigned(b, t) >= 8 * np.dtype(t).itemsize
        else wrap(unsigned(a, t) >> unsigned(b, t), t)
    ),
}


@EXAMPLES
@given(
    data=st.data(),
    name=st.sampled_from(sorted(INT_REFERENCES)),
    dtype=st.sampled_from([np.int8, np.int32, np.int64]),
)
def test_integer_ops_wrap_and_truncate(
    data: st.DataObject, name: str, dtype: Any
) -> None:
    a = data.draw(int_arrays(dtype, (6,)))
    b = data.draw(int_arrays(dtype, (6,)))
    if name.startswith("arith.sh"):
        b = data.draw(hnp.arrays(np.dtype(dtype), (6,), elements=st.integers(0, 70)))
    element = NAMES[np.dtype(dtype)]
    op = f"{name} %x0, %x1 : {element}"
    expected = np.array(
        [
            INT_REFERENCES[name](int(x), int(y), dtype)
            for x, y in zip(a, b, strict=True)
        ],
        dtype=dtype,
    )
    (vectorised,) = run(elementwise_program(op, dtype, (6,), 2), a, b)
    np.testing.assert_array_equal(vectorised, expected)
    (scalar,) = run(scalar_program(op, dtype, 2), a[0], b[0])
    assert scalar.dtype == np.dtype(dtype)
    assert int(scalar) == int(expected[0])


CMPI = {
    "eq": lambda a, b, t: a == b,
    "ne": lambda a, b, t: a != b,
    "slt": lambda a, b, t: a < b,
    "sge": lambda a, b, t: a >= b,
    "ult": lambda a, b, t: unsigned(a, t) < unsigned(b, t),
    "uge": lambda a, b, t: unsigned(a, t) >= unsigned(b, t),
    "ugt": lambda a, b, t: unsigned(a, t) > unsigned(b, t),
}


@EXAMPLES
@given(data=st.data(), predicate=st.sampled_from(sorted(CMPI)))
def test_cmpi_signed_and_unsigned(data: st.DataObject, predicate: str) -> None:
    a = data.draw(int_arrays(np.int32, (5,)))
    b = data.draw(int_arrays(np.int32, (5,)))
    text = f"""
func.func @main(%a: tensor<5xi32>, %b: tensor<5xi32>) -> tensor<5xi1> {{
  %e = tensor.empty() : tensor<5xi1>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}}
      ins(%a, %b : tensor<5xi32>, tensor<5xi32>) outs(%e : tensor<5xi1>) {{
  ^bb0(%x: i32, %y: i32, %o: i1):
    %c = arith.cmpi {predicate}, %x, %y : i32
    linalg.yield %c : i1
  }} -> tensor<5xi1>
  return %r : tensor<5xi1>
}}
"""
    (got,) = run(text, a, b)
    expected = [
        CMPI[predicate](int(x), int(y), np.int32) for x, y in zip(a, b, strict=True)
    ]
    np.testing.assert_array_equal(got, np.array(expected))


def test_i1_arithmetic_is_modulo_two() -> None:
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    (add,) = run(
        elementwise_program("arith.addi %x0, %x1 : i1", np.bool_, (4,), 2), a, b
    )
    np.testing.assert_array_equal(add, a ^ b)
    (mul,) = run(
        elementwise_program("arith.muli %x0, %x1 : i1", np.bool_, (4,), 2), a, b
    )
    np.testing.assert_array_equal(mul, a & b)


# --- arith: floats and casts ----------------------------------------------


def test_nan_semantics_of_min_max() -> None:
    a = np.array([np.nan, 1.0, 2.0, np.nan], np.float32)
    b = np.array([1.0, np.nan, 3.0, np.nan], np.float32)
    programs = {
        "arith.maximumf": np.array([np.nan, np.nan, 3.0, np.nan]),
        "arith.minimumf": np.array([np.nan, np.nan, 2.0, np.nan]),
        "arith.maxnumf": np.array([1.0, 1.0, 3.0, np.nan]),
        "arith.minnumf": np.array([1.0, 1.0, 2.0, np.nan]),
    }
    for name, expected in programs.items():
        text = elementwise_program(f"{name} %x0, %x1 : f32", np.float32, (4,), 2)
        (got,) = run(text, a, b)
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, expected.astype(np.float32))


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ("oeq", [False, False, True, False]),
        ("ueq", [True, True, True, False]),
        ("one", [False, False, False, True]),
        ("une", [True, True, False, True]),
        ("olt", [False, False, False, True]),
        ("ult", [True, True, False, True]),
        ("ord", [False, False, True, True]),
        ("uno", [True, True, False, False]),
        ("true", [True, True, True, True]),
        ("false", [False, False, False, False]),
    ],
)
def test_cmpf_ordered_and_unordered(predicate: str, expected: list[bool]) -> None:
    a = np.array([np.nan, 1.0, 2.0, 1.0], np.float32)
    b = np.array([1.0, np.nan, 2.0, 5.0], np.float32)
    text = f"""
func.func @main(%a: f32, %b: f32) -> i1 {{
  %c = arith.cmpf {predicate}, %a, %b : f32
  return %c : i1
}}
"""
    got = [bool(run(text, x, y)[0]) for x, y in zip(a, b, strict=True)]
    assert got == expected


def test_float_arithmetic_stays_in_f32() -> None:
    a = np.array([1.0000001, 3.0, -7.5, 1e20], np.float32)
    b = np.array([3.0, 7.0, 2.0, 1e10], np.float32)
    for name, function in [
        ("arith.divf", np.divide),
        ("arith.mulf", np.multiply),
        ("arith.remf", np.fmod),
        ("arith.subf", np.subtract),
    ]:
        text = elementwise_program(f"{name} %x0, %x1 : f32", np.float32, (4,), 2)
        (got,) = run(text, a, b)
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, function(a, b))


def test_casts() -> None:
    text = """
func.func @main(%f: f32, %i: i32, %b: i1, %x: index, %big: f64) -> (f64, f32, i8, i64, i64, index, i16, f32, f32, i32, i32) {
  %0 = arith.extf %f : f32 to f64
  %1 = arith.truncf %big : f64 to f32
  %2 = arith.trunci %i : i32 to i8
  %3 = arith.extsi %i : i32 to i64
  %4 = arith.extui %i : i32 to i64
  %5 = arith.index_cast %i : i32 to index
  %6 = arith.index_cast %x : index to i16
  %7 = arith.sitofp %b : i1 to f32
  %8 = arith.uitofp %i : i32 to f32
  %9 = arith.fptosi %f : f32 to i32
  %10 = arith.fptoui %big : f64 to i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : f64, f32, i8, i64, i64, index, i16, f32, f32, i32, i32
}
"""
    results = run(
        text,
        np.float32(-2.75),
        np.int32(-300),
        np.bool_(True),
        70000,
        np.float64(1e10 / 3),
    )
    expected: list[tuple[Any, Any]] = [
        (np.float64(np.float32(-2.75)), np.float64),
        (np.float32(1e10 / 3), np.float32),
        (wrap(-300, np.int8), np.int8),
        (-300, np.int64),
        (2**32 - 300, np.int64),
        (-300, np.int64),
        (wrap(70000, np.int16), np.int16),
        (-1.0, np.float32),
        (np.float32(2**32 - 300), np.float32),
        (-2, np.int32),
        (wrap(3333333333, np.int32), np.int32),
    ]
    for got, (value, dtype) in zip(results, expected, strict=True):
        assert got.dtype == np.dtype(dtype), (got, value)
        assert got == value, (got, value)


FLOAT_TO_INTEGER = [
    (name, source, target)
    for name in ("fptosi", "fptoui")
    for source in (np.float16, BFLOAT16, np.float32, np.float64)
    for target in (np.bool_, np.int8, np.int16, np.int32, np.int64)
]


def saturated(x: float, name: str, target: Any) -> Any:
    """`x` truncated into `target`'s signed or unsigned range, clamped there,
    NaN to 0: irkit's choice where MLIR says poison (docs/targets.md)."""
    bits = 1 if target == np.bool_ else np.dtype(target).itemsize * 8
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    if name == "fptoui":
        low, high = 0, 2**bits - 1
    if math.isnan(x):
        value = 0
    elif math.isinf(x):
        value = high if x > 0 else low
    else:
        value = min(max(math.trunc(x), low), high)
    return value != 0 if target == np.bool_ else wrap(value, target)


@EXAMPLES
@given(
    st.sampled_from(FLOAT_TO_INTEGER),
    st.lists(
        st.one_of(
            st.floats(),
            st.integers(-(2**65), 2**65).map(float),
            st.sampled_from([0.5, -0.5, -1.0, 1.0, 127.5, 255.5, 32767.5]),
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_float_to_integer_saturates(
    conversion: tuple[str, Any, Any], values: list[float]
) -> None:
    name, source, target = conversion
    with np.errstate(over="ignore"):  # beyond f16's or f32's range: infinities
        x = np.array(values, source)
    src, dst = NAMES[np.dtype(source)], NAMES[np.dtype(target)]
    shape = (len(values),)
    text = f"""
func.func @main(%x: {ttype(shape, source)}) -> {ttype(shape, target)} {{
  %e = tensor.empty() : {ttype(shape, target)}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%x : {ttype(shape, source)}) outs(%e : {ttype(shape, target)}) {{
  ^bb0(%in: {src}, %out: {dst}):
    %c = arith.{name} %in : {src} to {dst}
    linalg.yield %c : {dst}
  }} -> {ttype(shape, target)}
  return %r : {ttype(shape, target)}
}}
"""
    (got,) = run(text, x)
    assert got.dtype == np.dtype(target)
    assert got.tolist() == [saturated(float(v), name, target) for v in x]


def test_hex_dense_literals_are_bit_patterns() -> None:
    text = """
func.func @main() -> (tensor<2xf32>, tensor<2xf64>, tensor<2xf16>, tensor<2xf32>) {
  %a = arith.constant dense<0xFF800000> : tensor<2xf32>
  %b = arith.constant dense<0xFFF0000000000000> : tensor<2xf64>
  %c = arith.constant dense<0xFC00> : tensor<2xf16>
  %d = arith.constant dense<[0x7FC00000, 0x3F800000]> : tensor<2xf32>
  return %a, %b, %c, %d : tensor<2xf32>, tensor<2xf64>, tensor<2xf16>, tensor<2xf32>
}
"""
    a, b, c, d = run(text)
    for array, dtype in ((a, np.float32), (b, np.float64), (c, np.float16)):
        assert array.dtype == dtype
        np.testing.assert_array_equal(array, [-np.inf, -np.inf])
    assert np.isnan(d[0])
    assert d[1] == 1.0


# --- math ---------------------------------------------------------------------

MATH = {
    "math.exp": np.exp,
    "math.log": np.log,
    "math.tanh": np.tanh,
    "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x),
    "math.erf": lambda x: np.array([math.erf(v) for v in x]),
    "math.floor": np.floor,
    "math.round": lambda x: np.array(
        [math.copysign(math.floor(abs(v) + 0.5), v) for v in x]
    ),
}


@EXAMPLES
@given(
    name=st.sampled_from(sorted(MATH)),
    x=hnp.arrays(
        np.float32,
        (8,),
        elements=st.floats(0.125, 8.0, width=32).flatmap(
            lambda v: st.sampled_from([v, -v, 0.5, 2.5, -2.5])
        ),
    ),
)
def test_math_in_f32(name: str, x: np.ndarray) -> None:
    if name in ("math.log", "math.sqrt", "math.rsqrt"):
        x = np.abs(x) + np.float32(0.01)
    (got,) = run(elementwise_program(f"{name} %x0 : f32", np.float32, (8,), 1), x)
    assert got.dtype == np.float32
    expected = MATH[name](x.astype(np.float64))
    np.testing.assert_allclose(got, expected, rtol=2e-7, atol=1e-7)


def test_fpowi_and_ipowi() -> None:
    x = np.array([1.5, -2.0, 0.5], np.float32)
    text = """
func.func @main(%x: f32, %n: i64, %b: i32, %e: i32) -> (f32, i32) {
  %p = math.fpowi %x, %n : f32, i64
  %q = math.ipowi %b, %e : i32
  return %p, %q : f32, i32
}
"""
    for value in x:
        p, _ = run(text, value, np.int64(3), np.int32(2), np.int32(5))
        assert p.dtype == np.float32
        assert p == np.float32(value) ** 3
    cases = [(2, 10, 1024), (-1, -3, -1), (1, -5, 1), (2, -1, 0), (3, 0, 1)]
    for base, exponent, expected in cases:
        _, q = run(text, x[0], np.int64(1), np.int32(base), np.int32(exponent))
        assert int(q) == expected


# --- linalg.generic -------------------------------------------------------


@EXAMPLES
@given(
    x=hnp.arrays(
        np.float32,
        st.tuples(st.integers(1, 5), st.integers(1, 6), st.integers(1, 4)),
        elements=st.floats(-10, 10, width=32),
    ),
    kind=st.sampled_from(["addf", "maximumf", "minimumf", "mulf"]),
)
def test_generic_reductions(x: np.ndarray, kind: str) -> None:
    """Reduce dims 0 and 2 into a keepdim result with a constant map result."""
    a, b, c = x.shape
    init = {"addf": 0.0, "mulf": 1.0, "maximumf": -np.inf, "minimumf": np.inf}[kind]
    text = f"""
func.func @main(%x: tensor<{a}x{b}x{c}xf32>, %i: tensor<1x{b}xf32>) -> tensor<1x{b}xf32> {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
      affine_map<(d0, d1, d2) -> (0, d1)>],
      iterator_types = ["reduction", "parallel", "reduction"]}}
      ins(%x : tensor<{a}x{b}x{c}xf32>) outs(%i : tensor<1x{b}xf32>) {{
  ^bb0(%in: f32, %out: f32):
    %v = arith.{kind} %out, %in : f32
    linalg.yield %v : f32
  }} -> tensor<1x{b}xf32>
  return %r : tensor<1x{b}xf32>
}}
"""
    (got,) = run(text, x, np.full((1, b), init, np.float32))
    function = {
        "addf": np.sum,
        "mulf": np.prod,
        "maximumf": np.max,
        "minimumf": np.min,
    }[kind]
    expected = function(x.astype(np.float64), axis=(0, 2))[None, :]
    assert got.dtype == np.float32
    np.testing.assert_allclose(
        got, expected, rtol=1e-5, atol=1e-5 * max(1, np.abs(expected).max())
    )


@EXAMPLES
@given(
    x=hnp.arrays(
        np.float32,
        st.tuples(st.integers(1, 5), st.integers(1, 8)),
        elements=st.sampled_from([-1.0, 0.0, 2.0, 3.5, 7.0]),
    ),
)
def test_argmax_uses_the_sequential_fallback(x: np.ndarray) -> None:
    rows, cols = x.shape
    text = f"""
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<{rows}x{cols}xf32>, %m: tensor<{rows}xf32>, %i: tensor<{rows}xi64>)
    -> (tensor<{rows}xf32>, tensor<{rows}xi64>) {{
  %r:2 = linalg.generic {{indexing_maps = [#id, #row, #row],
      iterator_types = ["parallel", "reduction"]}}
      ins(%x : tensor<{rows}x{cols}xf32>) outs(%m, %i : tensor<{rows}xf32>, tensor<{rows}xi64>) {{
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %max = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ji, %out_i : i64
    linalg.yield %max, %sel : f32, i64
  }} -> (tensor<{rows}xf32>, tensor<{rows}xi64>)
  return %r#0, %r#1 : tensor<{rows}xf32>, tensor<{rows}xi64>
}}
"""
    m, i = run(text, x, np.full(rows, -np.inf, np.float32), np.zeros(rows, np.int64))
    np.testing.assert_array_equal(m, x.max(axis=1))
    np.testing.assert_array_equal(i, x.argmax(axis=1))


def test_generic_affine_maps_sums_constants_and_permuted_outputs() -> None:
    """A 1-D convolution `y[i] += x[2i + k] * w[k]`, and a permuted output."""
    x = np.arange(11, dtype=np.float32)
    w = np.array([1.0, -2.0, 0.5], np.float32)
    text = """
func.func @main(%x: tensor<11xf32>, %w: tensor<3xf32>, %y: tensor<5xf32>, %m: tensor<3x4xf32>)
    -> (tensor<5xf32>, tensor<4x3xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 2 + d1)>,
      affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<11xf32>, tensor<3xf32>) outs(%y : tensor<5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %j : index
    %f = arith.index_cast %k : index to i32
    %g = arith.sitofp %f : i32 to f32
    %h = arith.addf %a, %g : f32
    linalg.yield %h : f32
  } -> tensor<4x3xf32>
  return %r, %t : tensor<5xf32>, tensor<4x3xf32>
}
"""
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    y, t = run(text, x, w, np.ones(5, np.float32), m)
    expected = [1.0 + sum(x[2 * i + k] * w[k] for k in range(3)) for i in range(5)]
    np.testing.assert_allclose(y, expected)
    index_product = np.arange(3)[:, None] * np.arange(4)[None, :]
    np.testing.assert_array_equal(t, (m + index_product).T)


# --- named linalg ops -----------------------------------------------------


def test_matmul_family() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 6)).astype(np.float32)
    b = rng.standard_normal((6, 5)).astype(np.float32)
    c = rng.standard_normal((4, 5)).astype(np.float32)
    x = rng.standard_normal((2, 4, 6)).astype(np.float32)
    y = rng.standard_normal((2, 6, 5)).astype(np.float32)
    z = rng.standard_normal((2, 4, 5)).astype(np.float32)
    v = rng.standard_normal(6).astype(np.float32)
    text = """
func.func @main(%a: tensor<4x6xf32>, %b: tensor<6x5xf32>, %c: tensor<4x5xf32>, %bt: tensor<5x6xf32>,
    %x: tensor<2x4x6xf32>, %y: tensor<2x6x5xf32>, %z: tensor<2x4x5xf32>, %v: tensor<6xf32>,
    %w: tensor<4xf32>, %s: tensor<f32>)
    -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<2x4x5xf32>, tensor<4xf32>, tensor<f32>) {
  %mm = linalg.matmul ins(%a, %b : tensor<4x6xf32>, tensor<6x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %mt = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
      affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %bt : tensor<4x6xf32>, tensor<5x6xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %bm = linalg.batch_matmul ins(%x, %y : tensor<2x4x6xf32>, tensor<2x6x5xf32>) outs(%z : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  %mv = linalg.matvec ins(%a, %v : tensor<4x6xf32>, tensor<6xf32>) outs(%w : tensor<4xf32>) -> tensor<4xf32>
  %d = linalg.dot ins(%v, %v : tensor<6xf32>, tensor<6xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %mm, %mt, %bm, %mv, %d : tensor<4x5xf32>, tensor<4x5xf32>, tensor<2x4x5xf32>, tensor<4xf32>, tensor<f32>
}
"""
    w = np.ones(4, np.float32)
    s = np.ones((), np.float32)
    mm, mt, bm, mv, d = irkit.interpret(
        text, "main", a, b, c, np.ascontiguousarray(b.T), x, y, z, v, w, s
    )
    wide = np.float64
    np.testing.assert_allclose(mm, c + a.astype(wide) @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mt, c + a.astype(wide) @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(bm, z + x.astype(wide) @ y, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mv, 1 + a.astype(wide) @ v, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(d, 1 + v.astype(wide) @ v, rtol=1e-5, atol=1e-5)
    assert all(r.dtype == np.float32 for r in (mm, mt, bm, mv, d))


def _conv_reference(
    x: np.ndarray, w: np.ndarray, init: np.ndarray, s: int, d: int
) -> np.ndarray:
    out = init.astype(np.float64)
    n, f, oh, ow = out.shape
    for b, o, i, j in itertools.product(range(n), range(f), range(oh), range(ow)):
        for c, kh, kw in itertools.product(*(range(e) for e in w.shape[1:])):
            out[b, o, i, j] += x[b, c, i * s + kh * d, j * s + kw * d] * w[o, c, kh, kw]
    return out


@settings(max_examples=max(8, settings.default.max_examples // 3))
@given(
    stride=st.integers(1, 2),
    dilation=st.integers(1, 2),
    channels=st.integers(1, 3),
    seed=st.integers(0, 2**16),
)
def test_conv_2d_nchw_fchw(
    stride: int, dilation: int, channels: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, channels, 9, 8)).astype(np.float32)
    w = rng.standard_normal((3, channels, 3, 2)).astype(np.float32)
    oh = (9 - dilation * 2 - 1) // stride + 1
    ow = (8 - dilation * 1 - 1) // stride + 1
    init = rng.standard_normal((2, 3, oh, ow)).astype(np.float32)
    text = f"""
func.func @main(%x: {ttype(x.shape, x.dtype)}, %w: {ttype(w.shape, w.dtype)},
    %o: {ttype(init.shape, init.dtype)}) -> {ttype(init.shape, init.dtype)} {{
  %r = linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}> : vector<2xi64>,
      strides = dense<{stride}> : vector<2xi64>}}
      ins(%x, %w : {ttype(x.shape, x.dtype)}, {ttype(w.shape, w.dtype)})
      outs(%o : {ttype(init.shape, init.dtype)}) -> {ttype(init.shape, init.dtype)}
  return %r : {ttype(init.shape, init.dtype)}
}}
"""
    (got,) = run(text, x, w, init)
    np.testing.assert_allclose(
        got, _conv_reference(x, w, init, stride, dilation), rtol=1e-5, atol=1e-5
    )


def test_pooling_and_depthwise() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2, 6, 6)).astype(np.float32)
    dw = rng.standard_normal((2, 3, 3)).astype(np.float32)
    nhwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    text = """
func.func @main(%x: tensor<1x2x6x6xf32>, %dw: tensor<2x3x3xf32>, %n: tensor<1x6x6x2xf32>)
    -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>) {
  %k = tensor.empty() : tensor<2x2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %max = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %k : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs(%fm : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %k : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs(%fz : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %dwc = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %dw : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%f2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e3 = tensor.empty() : tensor<1x3x3x2xf32>
  %f3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %nmax = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%n, %k : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%f3 : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  return %max, %sum, %dwc, %nmax : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>
}
"""
    mx, sm, dwc, nmax = run(text, x, dw, nhwc)
    windows = x.reshape(1, 2, 3, 2, 3, 2)
    np.testing.assert_array_equal(mx, windows.max(axis=(3, 5)))
    np.testing.assert_allclose(sm, windows.sum(axis=(3, 5)), rtol=1e-6)
    np.testing.assert_array_equal(nmax, mx.transpose(0, 2, 3, 1))
    expected = np.zeros((1, 2, 4, 4))
    for c, i, j in itertools.product(range(2), range(4), range(4)):
        expected[0, c, i, j] = np.sum(x[0, c, i : i + 3, j : j + 3] * dw[c])
    np.testing.assert_allclose(dwc, expected, rtol=1e-5, atol=1e-6)


def test_shape_ops_reduce_map_fill() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    text = """
func.func @main(%x: tensor<2x3xf32>, %b: tensor<4xf32>, %c: i32)
    -> (tensor<3x2xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf64>) {
  %t = tensor.empty() : tensor<3x2xf32>
  %tr = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%t : tensor<3x2xf32>) permutation = [1, 0]
  %bo = tensor.empty() : tensor<2x4xf32>
  %br = linalg.broadcast ins(%b : tensor<4xf32>) outs(%bo : tensor<2x4xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %r0 = tensor.empty() : tensor<2xf32>
  %r = linalg.fill ins(%zero : f32) outs(%r0 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %init, %in : f32
      linalg.yield %0 : f32
    }
  %max = linalg.reduce { arith.maximumf } ins(%x : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
  %m0 = tensor.empty() : tensor<2x3xf32>
  %map = linalg.map { arith.mulf } ins(%x, %x : tensor<2x3xf32>, tensor<2x3xf32>) outs(%m0 : tensor<2x3xf32>)
  %d0 = tensor.empty() : tensor<2x3xf64>
  %fill = linalg.fill ins(%c : i32) outs(%d0 : tensor<2x3xf64>) -> tensor<2x3xf64>
  return %tr, %br, %sum, %max, %map, %fill : tensor<3x2xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf64>
}
"""
    tr, br, sm, mx, mp, fill = run(text, x, b, np.int32(-7))
    np.testing.assert_array_equal(tr, x.T)
    np.testing.assert_array_equal(br, np.broadcast_to(b, (2, 4)))
    np.testing.assert_array_equal(sm, x.sum(axis=1))
    np.testing.assert_array_equal(mx, x.max(axis=1))
    np.testing.assert_array_equal(mp, x * x)
    assert fill.dtype == np.float64
    np.testing.assert_array_equal(fill, np.full((2, 3), -7.0))


# --- tensor -------------------------------------------------------------------


def test_tensor_ops_have_value_semantics() -> None:
    t = np.arange(21, dtype=np.float32).reshape(3, 7)
    s = -np.ones((3, 2), np.float32)
    original = t.copy()
    text = """
func.func @main(%t: tensor<3x7xf32>, %s: tensor<3x2xf32>, %i: index)
    -> (tensor<3x2xf32>, tensor<7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x9xf32>, f32, tensor<2xf32>) {
  %a = tensor.extract_slice %t[0, 1] [3, 2] [1, 2] : tensor<3x7xf32> to tensor<3x2xf32>
  %b = tensor.extract_slice %t[%i, 0] [1, 7] [1, 1] : tensor<3x7xf32> to tensor<7xf32>
  %c = tensor.insert_slice %s into %t[0, 1] [3, 2] [1, 2] : tensor<3x2xf32> into tensor<3x7xf32>
  %cst = arith.constant 5.0 : f32
  %p = tensor.pad %t low[0, 1] high[0, 1] {
  ^bb0(%p0: index, %p1: index):
    tensor.yield %cst : f32
  } : tensor<3x7xf32> to tensor<3x9xf32>
  %flat = tensor.collapse_shape %t [[0, 1]] : tensor<3x7xf32> into tensor<21xf32>
  %back = tensor.expand_shape %flat [[0, 1]] output_shape [3, 7] : tensor<21xf32> into tensor<3x7xf32>
  %x = tensor.extract %back[%i, %i] : tensor<3x7xf32>
  %v = tensor.from_elements %x, %cst : tensor<2xf32>
  return %a, %b, %c, %back, %p, %x, %v : tensor<3x2xf32>, tensor<7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x9xf32>, f32, tensor<2xf32>
}
"""
    a, b, c, back, p, x, v = run(text, t, s, 2)
    np.testing.assert_array_equal(t, original)
    np.testing.assert_array_equal(a, t[:, 1:5:2])
    np.testing.assert_array_equal(b, t[2])
    expected = t.copy()
    expected[:, 1:5:2] = s
    np.testing.assert_array_equal(c, expected)
    np.testing.assert_array_equal(back, t)
    np.testing.assert_array_equal(p, np.pad(t, ((0, 0), (1, 1)), constant_values=5.0))
    assert x == t[2, 2]
    np.testing.assert_array_equal(v, [t[2, 2], 5.0])


def test_concat_and_gather_through_extract() -> None:
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    ids = np.array([[3, 0], [1, 1]], np.int64)
    text = """
func.func @main(%ids: tensor<2x2xi64>, %a: tensor<2x3xf32>, %b: tensor<2x1xf32>)
    -> (tensor<2x2x3xf32>, tensor<2x4xf32>) {
  %table = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
  %e = tensor.empty() : tensor<2x2x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>,
      affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<2x2xi64>) outs(%e : tensor<2x2x3xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %table[%row, %col] : tensor<4x3xf32>
    linalg.yield %v : f32
  } -> tensor<2x2x3xf32>
  %c = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %g, %c : tensor<2x2x3xf32>, tensor<2x4xf32>
}
"""
    a = np.ones((2, 3), np.float32)
    b = np.zeros((2, 1), np.float32)
    g, c = run(text, ids, a, b)
    np.testing.assert_array_equal(g, table[ids])
    np.testing.assert_array_equal(c, np.concatenate([a, b], axis=1))


def test_empty_is_poisoned() -> None:
    text = """
func.func @main() -> (tensor<2xf32>, tensor<2xi32>) {
  %a = tensor.empty() : tensor<2xf32>
  %b = tensor.empty() : tensor<2xi32>
  return %a, %b : tensor<2xf32>, tensor<2xi32>
}
"""
    a, b = run(text)
    assert np.all(np.isnan(a))
    assert np.all(b == np.iinfo(np.int32).min)


# --- speed --------------------------------------------------------------------


TEN_OPS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %c = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %c, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x1xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64x1xf32>) -> tensor<64x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%relu : tensor<64x64xf32>) outs(%m0 : tensor<64x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %o : f32
    linalg.yield %m : f32
  } -> tensor<64x1xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%relu, %max : tensor<64x64xf32>, tensor<64x1xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    %x1 = math.exp %d : f32
    linalg.yield %x1 : f32
  } -> tensor<64x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x1xf32>) -> tensor<64x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x64xf32>) outs(%s0 : tensor<64x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %in, %o : f32
    linalg.yield %a : f32
  } -> tensor<64x1xf32>
  %soft = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x64xf32>, tensor<64x1xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x64xf32>
  %t = linalg.transpose ins(%soft : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) permutation = [1, 0]
  return %t : tensor<64x64xf32>
}
"""


def test_ten_op_program_on_64x64() -> None:
    # Speed is measured in benchmarks/interpreter.py, not asserted here.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    w = rng.standard_normal((64, 64)).astype(np.float32)
    module = irkit.parse(TEN_OPS)
    (got,) = irkit.interpret(module, "main", x, w)
    relu = np.maximum(x.astype(np.float64) @ w, 0)
    exp = np.exp(relu - relu.max(axis=1, keepdims=True))
    expected = (exp / exp.sum(axis=1, keepdims=True)).T
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_generic_non_linear_maps_use_advanced_indexing() -> None:
    x = np.arange(6, dtype=np.int32)
    text = """
func.func @main(%x: tensor<6xi32>) -> (tensor<6xi32>, tensor<3x2xi32>) {
  %e = tensor.empty() : tensor<6xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 2 + (d0 mod 2) * 3)>,
      affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%a: i32, %o: i32):
    linalg.yield %a : i32
  } -> tensor<6xi32>
  %z = arith.constant dense<0> : tensor<3x2xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)>], iterator_types = ["parallel"]}
      ins(%x : tensor<6xi32>) outs(%z : tensor<3x2xi32>) {
  ^bb0(%a: i32, %o: i32):
    linalg.yield %a : i32
  } -> tensor<3x2xi32>
  return %r, %s : tensor<6xi32>, tensor<3x2xi32>
}
"""
    r, s = run(text, x)
    np.testing.assert_array_equal(r, [x[i // 2 + (i % 2) * 3] for i in range(6)])
    np.testing.assert_array_equal(s, x.reshape(3, 2))


def test_out_of_bounds_extract_is_a_located_error() -> None:
    text = """
func.func @main(%t: tensor<3xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<3xf32>
  return %x : f32
}
"""
    with pytest.raises(irkit.DiagnosticError, match="index out of bounds"):
        run(text, np.zeros(3, np.float32), 3)


def test_dense_resource_constants() -> None:
    text = """
module {
  func.func @main() -> (tensor<2xf32>, tensor<3xi1>) {
    %0 = arith.constant dense_resource<upstream_test_f32> : tensor<2xf32>
    %1 = arith.constant dense_resource<upstream_test_i1> : tensor<3xi1>
    return %0, %1 : tensor<2xf32>, tensor<3xi1>
  }
}
{-#
  dialect_resources: {
    builtin: {
      upstream_test_f32: "0x040000000000803F00000040",
      upstream_test_i1: "0x01000000010001"
    }
  }
#-}
"""
    floats, bools = run(text)
    np.testing.assert_array_equal(floats, np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(bools, [True, False, True])


# --- bf16 ---------------------------------------------------------------------
# The reference rounds exact values (Fractions) to bf16 by hand: neither
# ml_dtypes nor irkit.dtypes.to_bfloat16 is used to compute what is expected.

BF16_MAX_EXPONENT = 127
BF16_MIN_EXPONENT = -126
BF16_FRACTION_BITS = 7


def bf16_round(x: float | int | Fraction) -> float:
    """`x` rounded to nearest bf16, ties to even, from its exact value."""
    if isinstance(x, float) and not math.isfinite(x):
        return x
    exact = Fraction(x)
    if exact == 0:
        return math.copysign(0.0, x) if isinstance(x, float) else 0.0
    sign = -1.0 if exact < 0 else 1.0
    exact = abs(exact)
    exponent = exact.numerator.bit_length() - exact.denominator.bit_length()
    if Fraction(2) ** exponent > exact:
        exponent -= 1
    # Below the normal range the step is the subnormal one, 2**-133.
    exponent = max(exponent, BF16_MIN_EXPONENT)
    step = Fraction(2) ** (exponent - BF16_FRACTION_BITS)
    rounded = round(exact / step) * step  # round() on a Fraction: half to even
    if rounded >= Fraction(2) ** (BF16_MAX_EXPONENT + 1):
        return sign * math.inf
    return sign * float(rounded)


def bf16_values() -> st.SearchStrategy[float]:
    """Any bf16 value, NaN, infinities and subnormals included (by bits)."""
    return st.integers(0, 0xFFFF).map(
        lambda bits: float(np.array([bits], np.uint16).view(BFLOAT16)[0])
    )


def bf16_ulp(x: float) -> float:
    exponent = max(math.frexp(x)[1] - 1, BF16_MIN_EXPONENT) if x else BF16_MIN_EXPONENT
    return 2.0 ** (exponent - BF16_FRACTION_BITS)


def test_bf16_reference_rounds_as_the_format_says() -> None:
    assert bf16_round(1 + 2**-8) == 1.0  # a tie: to even
    assert bf16_round(1 + 3 * 2**-8) == 1 + 2**-6
    assert bf16_round(1 + 2**-8 + 2**-40) == 1 + 2**-7
    assert bf16_round(2.0**-134) == 0.0
    assert bf16_round(3 * 2.0**-134) == 2.0**-132
    assert bf16_round(3.4e38) == math.inf
    assert bf16_round(2**24 + 2**16 + 1) == 2**24 + 2**17


BF16_BINARY: dict[str, Callable[[Fraction, Fraction], Fraction]] = {
    "arith.addf": operator.add,
    "arith.subf": operator.sub,
    "arith.mulf": operator.mul,
    "arith.divf": operator.truediv,
}


@EXAMPLES
@given(
    st.sampled_from(sorted(BF16_BINARY)),
    st.lists(st.tuples(bf16_values(), bf16_values()), min_size=1, max_size=8),
)
def test_bf16_arithmetic_rounds_each_op_once(
    op: str, pairs: list[tuple[float, float]]
) -> None:
    """The exact result rounded once to bf16, for every finite, nonzero-
    divisor pair whose exact result is finite (IEEE's specials are NumPy's)."""
    lhs = np.array([a for a, _ in pairs], BFLOAT16)
    rhs = np.array([b for _, b in pairs], BFLOAT16)
    text = elementwise_program(f"{op} %x0, %x1 : bf16", BFLOAT16, lhs.shape, 2)
    with np.errstate(all="ignore"):
        (got,) = run(text, lhs, rhs)
    assert got.dtype == BFLOAT16
    for a, b, g in zip(lhs.tolist(), rhs.tolist(), got.tolist(), strict=True):
        if not (math.isfinite(a) and math.isfinite(b)) or (
            op == "arith.divf" and b == 0
        ):
            continue
        want = bf16_round(BF16_BINARY[op](Fraction(a), Fraction(b)))
        assert g == want or (g == 0 and want == 0), (op, a, b, g, want)


@EXAMPLES
@given(
    st.sampled_from(["math.exp", "math.tanh", "math.erf", "math.sqrt", "math.log"]),
    st.lists(st.floats(-8, 8, width=32), min_size=1, max_size=8),
)
def test_bf16_math_is_within_one_bf16_unit(op: str, values: list[float]) -> None:
    """Evaluated in f32 (f64 for erf) and rounded to bf16: at most one unit in
    bf16's last place from the correctly rounded result."""
    x = np.array([bf16_round(v) for v in values], BFLOAT16)
    if op in ("math.sqrt", "math.log"):
        x = np.abs(x) + BFLOAT16.type(0.5)
    (got,) = run(elementwise_program(f"{op} %x0 : bf16", BFLOAT16, x.shape, 1), x)
    assert got.dtype == BFLOAT16
    exact = {"math.exp": math.exp, "math.tanh": math.tanh, "math.erf": math.erf,
             "math.sqrt": math.sqrt, "math.log": math.log}[op]  # fmt: skip
    for v, g in zip(x.tolist(), got.tolist(), strict=True):
        want = bf16_round(exact(v))
        assert abs(g - want) <= bf16_ulp(want), (op, v, g, want)


@EXAMPLES
@given(
    st.sampled_from(["f32", "f64", "i32", "i64", "i16"]),
    st.lists(
        st.one_of(
            st.floats(allow_nan=False, width=64),
            st.integers(-(2**40), 2**40).map(float),
            st.sampled_from([1 + 2**-8, 1 + 2**-8 + 2**-40, 3.4e38, 2.0**-134]),
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_conversions_to_bf16_round_once(source: str, values: list[float]) -> None:
    """truncf from f32/f64 and sitofp from integers: the exact value rounded
    once (ml_dtypes alone goes through f32 and rounds twice)."""
    dtype = {"f32": np.float32, "f64": np.float64, "i32": np.int32,
             "i64": np.int64, "i16": np.int16}[source]  # fmt: skip
    if source.startswith("i"):
        info = np.iinfo(dtype)
        x = np.array(
            [int(min(max(v, info.min), info.max)) for v in values if math.isfinite(v)],
            dtype,
        )
        op = f"arith.sitofp %x0 : {source} to bf16"
    else:
        with np.errstate(over="ignore"):
            x = np.array(values, dtype)
        op = f"arith.truncf %x0 : {source} to bf16"
    if x.size == 0:
        return
    shape = x.shape
    text = f"""
func.func @main(%a: {ttype(shape, dtype)}) -> {ttype(shape, BFLOAT16)} {{
  %e = tensor.empty() : {ttype(shape, BFLOAT16)}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%a : {ttype(shape, dtype)}) outs(%e : {ttype(shape, BFLOAT16)}) {{
  ^bb0(%x0: {source}, %o: bf16):
    %v = {op}
    linalg.yield %v : bf16
  }} -> {ttype(shape, BFLOAT16)}
  return %r : {ttype(shape, BFLOAT16)}
}}
"""
    (got,) = run(text, x)
    assert got.dtype == BFLOAT16
    exact = [int(v) if source.startswith("i") else float(v) for v in x.tolist()]
    assert got.tolist() == [bf16_round(v) for v in exact]


def test_bf16_widens_exactly_and_hex_literals_are_bit_patterns() -> None:
    text = """
func.func @main() -> (tensor<3xbf16>, tensor<3xf32>, tensor<3xf64>) {
  %a = arith.constant dense<[0x3F81, 0xFF80, 0x0001]> : tensor<3xbf16>
  %e = tensor.empty() : tensor<3xf32>
  %f = tensor.empty() : tensor<3xf64>
  %w:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<3xbf16>) outs(%e, %f : tensor<3xf32>, tensor<3xf64>) {
  ^bb0(%x: bf16, %o: f32, %p: f64):
    %s = arith.extf %x : bf16 to f32
    %d = arith.extf %x : bf16 to f64
    linalg.yield %s, %d : f32, f64
  } -> (tensor<3xf32>, tensor<3xf64>)
  return %a, %w#0, %w#1 : tensor<3xbf16>, tensor<3xf32>, tensor<3xf64>
}
"""
    a, s, d = run(text)
    assert a.dtype == BFLOAT16
    assert a.view(np.uint16).tolist() == [0x3F81, 0xFF80, 0x0001]
    assert s.tolist() == d.tolist() == [1 + 2**-7, -math.inf, 2.0**-133]
