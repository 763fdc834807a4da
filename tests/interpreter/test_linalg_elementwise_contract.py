"""`linalg.elementwise` and `linalg.contract` against independent references.

The references do not go through `irkit.interpreter`: each element kind is
Python's `math` (or integer arithmetic with explicit wrapping) applied one
element at a time, and contractions are `np.einsum` over the maps' letters
(in float64, or Python integers for integer accumulators). Every program also
runs after `linalg-generalize-named-ops`, on tensors and on memrefs, so the
`linalg.generic` the pipelines lower computes the same thing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import irkit
from irkit.testing import assert_pass_preserves_semantics
from irkit.transforms.linalg_generalize_named_ops import LinalgGeneralizeNamedOpsPass

EXAMPLES = settings()
SHAPE = (3, 5)


def run(text: str, *arrays: Any) -> tuple[np.ndarray, ...]:
    return irkit.interpret(text, "main", *arrays)


def _erf(x: float) -> float:
    return math.erf(x)


def _round_half_away(x: float) -> float:
    return math.copysign(math.floor(abs(x) + 0.5), x)


# kind -> (reference on one Python float, the domain its inputs are drawn from)
UNARY: dict[str, tuple[Callable[[float], float], tuple[float, float]]] = {
    "exp": (math.exp, (-5.0, 5.0)),
    "log": (math.log, (0.01, 100.0)),
    "abs": (abs, (-10.0, 10.0)),
    "ceil": (math.ceil, (-10.0, 10.0)),
    "floor": (math.floor, (-10.0, 10.0)),
    "negf": (lambda x: -x, (-10.0, 10.0)),
    "reciprocal": (lambda x: 1.0 / x, (0.5, 10.0)),
    "round": (_round_half_away, (-10.0, 10.0)),
    "sqrt": (math.sqrt, (0.0, 100.0)),
    "rsqrt": (lambda x: 1.0 / math.sqrt(x), (0.01, 100.0)),
    "square": (lambda x: x * x, (-10.0, 10.0)),
    "tanh": (math.tanh, (-5.0, 5.0)),
    "erf": (_erf, (-3.0, 3.0)),
    "sin": (math.sin, (-3.0, 3.0)),
    "cos": (math.cos, (-3.0, 3.0)),
    "tan": (math.tan, (-1.0, 1.0)),
    "acos": (math.acos, (-0.9, 0.9)),
    "acosh": (math.acosh, (1.0, 10.0)),
    "asin": (math.asin, (-0.9, 0.9)),
    "asinh": (math.asinh, (-10.0, 10.0)),
    "atan": (math.atan, (-10.0, 10.0)),
    "atanh": (math.atanh, (-0.9, 0.9)),
    "log10": (math.log10, (0.01, 100.0)),
    "log1p": (math.log1p, (-0.5, 100.0)),
    "log2": (math.log2, (0.01, 100.0)),
}

FLOAT_BINARY: dict[str, Callable[[float, float], float]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "max_signed": max,
    "min_signed": min,
    "powf": lambda a, b: a**b,
}


def _wrap32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _u32(value: int) -> int:
    return value & 0xFFFFFFFF


def _trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b >= 0) else -quotient


INT_BINARY: dict[str, Callable[[int, int], int]] = {
    "add": lambda a, b: _wrap32(a + b),
    "sub": lambda a, b: _wrap32(a - b),
    "mul": lambda a, b: _wrap32(a * b),
    "div": lambda a, b: _wrap32(_trunc_div(a, b)),
    "div_unsigned": lambda a, b: _wrap32(_u32(a) // _u32(b)),
    "max_signed": max,
    "min_signed": min,
    "max_unsigned": lambda a, b: _wrap32(max(_u32(a), _u32(b))),
    "min_unsigned": lambda a, b: _wrap32(min(_u32(a), _u32(b))),
}


def _elementwise(kind: str, element: str, arity: int) -> str:
    tensor = f"tensor<3x5x{element}>"
    args = ", ".join(f"%x{i}: {tensor}" for i in range(arity))
    ins = ", ".join(f"%x{i}" for i in range(arity))
    types = ", ".join([tensor] * arity)
    return f"""
    func.func @main({args}) -> {tensor} {{
      %init = tensor.empty() : {tensor}
      %r = linalg.elementwise <{kind}> ins({ins} : {types}) outs(%init : {tensor}) -> {tensor}
      return %r : {tensor}
    }}
    """


def _check_generalized(text: str, *arrays: Any) -> None:
    """The generic `linalg-generalize-named-ops` makes computes the same."""
    assert_pass_preserves_semantics(
        LinalgGeneralizeNamedOpsPass(), text, inputs=[list(arrays)], rtol=0, atol=0
    )


@pytest.mark.parametrize("kind", sorted(UNARY))
def test_unary_kinds_match_math(kind: str) -> None:
    reference, (low, high) = UNARY[kind]
    x = np.random.default_rng(0).uniform(low, high, SHAPE).astype(np.float32)
    text = _elementwise(kind, "f32", 1)
    (got,) = run(text, x)
    want = np.vectorize(lambda v: reference(float(v)))(x.astype(np.float64))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=2e-6, atol=1e-6)
    _check_generalized(text, x)


@EXAMPLES
@given(
    kind=st.sampled_from(sorted(FLOAT_BINARY)),
    a=hnp.arrays(np.float32, SHAPE, elements=st.floats(0.5, 4.0, width=32)),
    b=hnp.arrays(np.float32, SHAPE, elements=st.floats(-3.0, 3.0, width=32)),
)
def test_float_binary_kinds_match_python(
    kind: str, a: np.ndarray, b: np.ndarray
) -> None:
    b = np.where(b == 0, np.float32(1), b)
    (got,) = run(_elementwise(kind, "f32", 2), a, b)
    reference = FLOAT_BINARY[kind]
    want = np.vectorize(lambda x, y: reference(float(x), float(y)))(a, b)
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=2e-6, atol=1e-6)


@EXAMPLES
@given(
    kind=st.sampled_from(sorted(INT_BINARY)),
    a=hnp.arrays(np.int32, SHAPE),
    b=hnp.arrays(np.int32, SHAPE),
)
def test_integer_binary_kinds_wrap_and_truncate(
    kind: str, a: np.ndarray, b: np.ndarray
) -> None:
    # Division by zero and INT_MIN / -1 are undefined in MLIR: not drawn.
    b = np.where((b == 0) | (b == -1), np.int32(7), b)
    (got,) = run(_elementwise(kind, "i32", 2), a, b)
    reference = INT_BINARY[kind]
    want = np.array(
        [
            [reference(int(x), int(y)) for x, y in zip(ra, rb, strict=True)]
            for ra, rb in zip(a, b, strict=True)
        ],
        dtype=np.int32,
    )
    np.testing.assert_array_equal(got, want)
    _check_generalized(_elementwise(kind, "i32", 2), a, b)


def test_i1_add_is_or_and_mul_is_and() -> None:
    a = np.array([[False, False, True, True]])
    b = np.array([[False, True, False, True]])
    tensor = "tensor<1x4xi1>"
    for kind, want in (("add", a | b), ("mul", a & b)):
        text = _elementwise(kind, "i1", 2).replace("tensor<3x5xi1>", tensor)
        (got,) = run(text, a, b)
        np.testing.assert_array_equal(got, want)


def test_select_picks_by_condition() -> None:
    rng = np.random.default_rng(1)
    cond = rng.random(SHAPE) > 0.5
    a, b = rng.standard_normal((2, *SHAPE)).astype(np.float32)
    text = """
    func.func @main(%c: tensor<3x5xi1>, %a: tensor<3x5xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
      %init = tensor.empty() : tensor<3x5xf32>
      %r = linalg.elementwise <select> ins(%c, %a, %b : tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) outs(%init : tensor<3x5xf32>) -> tensor<3x5xf32>
      return %r : tensor<3x5xf32>
    }
    """
    (got,) = run(text, cond, a, b)
    want = [
        [x if c else y for c, x, y in zip(*rows, strict=True)]
        for rows in zip(cond, a, b, strict=True)
    ]
    np.testing.assert_array_equal(got, np.array(want, dtype=np.float32))
    _check_generalized(text, cond, a, b)


# What `iree-opt --linalg-specialize-generic-ops` writes for torch-mlir's
# broadcasts: a row, a scalar, a kept unit dimension; and a transposed output.
MAPS_PROGRAM = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<3x5xf32>, %row: tensor<5xf32>, %s: f32, %col: tensor<3x1xf32>) -> tensor<5x3xf32> {
  %init = tensor.empty() : tensor<3x5xf32>
  %a = linalg.elementwise <add> indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id] ins(%x, %row : tensor<3x5xf32>, tensor<5xf32>) outs(%init : tensor<3x5xf32>) -> tensor<3x5xf32>
  %b = linalg.elementwise <mul> indexing_maps = [#id, affine_map<(d0, d1) -> ()>, #id] ins(%a, %s : tensor<3x5xf32>, f32) outs(%init : tensor<3x5xf32>) -> tensor<3x5xf32>
  %c = linalg.elementwise <sub> indexing_maps = [#id, affine_map<(d0, d1) -> (d0, 0)>, #id] ins(%b, %col : tensor<3x5xf32>, tensor<3x1xf32>) outs(%init : tensor<3x5xf32>) -> tensor<3x5xf32>
  %tinit = tensor.empty() : tensor<5x3xf32>
  %t = linalg.elementwise <negf> indexing_maps = [#id, affine_map<(d0, d1) -> (d1, d0)>] ins(%c : tensor<3x5xf32>) outs(%tinit : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %t : tensor<5x3xf32>
}
"""


def _maps_reference(
    x: np.ndarray, row: np.ndarray, s: np.float32, col: np.ndarray
) -> np.ndarray:
    out = np.empty((5, 3), np.float32)
    for i in range(3):
        for j in range(5):
            out[j, i] = -((x[i, j] + row[j]) * s - col[i, 0])
    return out


def test_indexing_maps_broadcast_scalars_and_transpose() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    row = rng.standard_normal(5).astype(np.float32)
    s = np.float32(1.5)
    col = rng.standard_normal((3, 1)).astype(np.float32)
    (got,) = run(MAPS_PROGRAM, x, row, s, col)
    np.testing.assert_allclose(got, _maps_reference(x, row, s, col), rtol=1e-6)
    _check_generalized(MAPS_PROGRAM, x, row, s, col)


def test_elementwise_and_contract_on_memrefs() -> None:
    text = """
    #id = affine_map<(d0, d1) -> (d0, d1)>
    func.func @main(%x: tensor<3x5xf32>, %row: tensor<5xf32>, %w: tensor<5x4xf32>) -> (memref<3x5xf32>, memref<3x4xf32>) {
      %xm = bufferization.to_buffer %x : tensor<3x5xf32> to memref<3x5xf32>
      %rm = bufferization.to_buffer %row : tensor<5xf32> to memref<5xf32>
      %wm = bufferization.to_buffer %w : tensor<5x4xf32> to memref<5x4xf32>
      %sum = memref.alloc() : memref<3x5xf32>
      linalg.elementwise <add> indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id] ins(%xm, %rm : memref<3x5xf32>, memref<5xf32>) outs(%sum : memref<3x5xf32>)
      %acc = memref.alloc() : memref<3x4xf32>
      %zero = arith.constant 0.0 : f32
      linalg.fill ins(%zero : f32) outs(%acc : memref<3x4xf32>)
      linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%sum, %wm : memref<3x5xf32>, memref<5x4xf32>) outs(%acc : memref<3x4xf32>)
      return %sum, %acc : memref<3x5xf32>, memref<3x4xf32>
    }
    """
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    row = rng.standard_normal(5).astype(np.float32)
    w = rng.standard_normal((5, 4)).astype(np.float32)
    total, product = run(text, x, row, w)
    want_total = x.astype(np.float64) + row
    np.testing.assert_allclose(total, want_total, rtol=1e-6)
    np.testing.assert_allclose(product, want_total @ w, rtol=1e-5, atol=1e-6)
    _check_generalized(text, x, row, w)


# (maps as einsum letters a, b -> out, loop letters) for linalg.contract.
CONTRACTIONS = [
    ("mk,kn->mn", "mnk"),  # matmul
    ("mk,nk->mn", "mnk"),  # B transposed
    ("km,kn->mn", "mnk"),  # A transposed
    ("mk,kn->nm", "mnk"),  # transposed output
    ("bmk,bkn->bmn", "bmnk"),  # batch matmul
    ("mk,k->m", "mk"),  # matvec
    ("k,k->", "k"),  # dot
    ("m,n->mn", "mn"),  # outer product
    ("mk,kn->mnb", "mnkb"),  # output broadcast along a loop only it uses
]


def _affine_map(loops: str, operand: str) -> str:
    dims = ", ".join(f"d{loops.index(c)}" for c in operand)
    names = ", ".join(f"d{i}" for i in range(len(loops)))
    return f"affine_map<({names}) -> ({dims})>"


def _contract_program(
    spec: str, loops: str, sizes: dict[str, int], types: tuple[str, str, str], cast: str
) -> str:
    inputs, out = spec.split("->")
    a, b = inputs.split(",")

    def ttype(operand: str, element: str) -> str:
        return "tensor<" + "".join(f"{sizes[c]}x" for c in operand) + f"{element}>"

    ta, tb, tc = ttype(a, types[0]), ttype(b, types[1]), ttype(out, types[2])
    maps = ", ".join(_affine_map(loops, operand) for operand in (a, b, out))
    attrs = f" {{cast = #linalg.type_fn<{cast}>}}" if cast else ""
    return f"""
    func.func @main(%a: {ta}, %b: {tb}, %c: {tc}) -> {tc} {{
      %r = linalg.contract indexing_maps = [{maps}]{attrs} ins(%a, %b : {ta}, {tb}) outs(%c : {tc}) -> {tc}
      return %r : {tc}
    }}
    """


def _shape(operand: str, sizes: dict[str, int]) -> tuple[int, ...]:
    return tuple(sizes[c] for c in operand)


@pytest.mark.parametrize(("spec", "loops"), CONTRACTIONS)
def test_contract_matches_einsum(spec: str, loops: str) -> None:
    sizes = {"m": 3, "n": 4, "k": 5, "b": 2}
    inputs, out = spec.split("->")
    a_idx, b_idx = inputs.split(",")
    rng = np.random.default_rng(4)
    a = rng.standard_normal(_shape(a_idx, sizes)).astype(np.float32)
    b = rng.standard_normal(_shape(b_idx, sizes)).astype(np.float32)
    c = rng.standard_normal(_shape(out, sizes)).astype(np.float32)
    text = _contract_program(spec, loops, sizes, ("f32", "f32", "f32"), "")
    (got,) = run(text, a, b, c)
    # A loop only the output uses repeats the same sum along it.
    product = np.einsum(
        f"{a_idx},{b_idx}->{''.join(x for x in out if x in a_idx + b_idx)}",
        a.astype(np.float64),
        b.astype(np.float64),
    )
    only_out = [axis for axis, x in enumerate(out) if x not in a_idx + b_idx]
    for axis in only_out:
        product = np.expand_dims(product, axis)
    want = c + product
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-5, atol=1e-5)
    _check_generalized(text, a, b, c)


@pytest.mark.parametrize(
    ("cast", "convert"),
    [
        ("", lambda v: v.astype(np.int64)),
        ("cast_signed", lambda v: v.astype(np.int64)),
        ("cast_unsigned", lambda v: v.view(np.uint8).astype(np.int64)),
    ],
)
def test_contract_casts_i8_into_i32(
    cast: str, convert: Callable[[np.ndarray], np.ndarray]
) -> None:
    sizes = {"m": 3, "n": 4, "k": 5}
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (3, 5), dtype=np.int8)
    b = rng.integers(-128, 128, (5, 4), dtype=np.int8)
    c = rng.integers(-1000, 1000, (3, 4), dtype=np.int32)
    text = _contract_program("mk,kn->mn", "mnk", sizes, ("i8", "i8", "i32"), cast)
    (got,) = run(text, a, b, c)
    want = c.astype(np.int64) + convert(a) @ convert(b)
    np.testing.assert_array_equal(got, want.astype(np.int32))
    _check_generalized(text, a, b, c)


def test_contract_extends_f16_into_f32() -> None:
    sizes = {"m": 3, "n": 4, "k": 5}
    rng = np.random.default_rng(6)
    a = rng.standard_normal((3, 5)).astype(np.float16)
    b = rng.standard_normal((5, 4)).astype(np.float16)
    c = np.zeros((3, 4), np.float32)
    text = _contract_program("mk,kn->mn", "mnk", sizes, ("f16", "f16", "f32"), "")
    (got,) = run(text, a, b, c)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-5, atol=1e-5)
