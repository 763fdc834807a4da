"""`linalg-vectorize-micro-kernels` keeps meaning: packed matmuls of random
shapes (f32 and f64, plain or with a transposed rhs) vectorised with small
vectors and checked on the interpreter; and random shapes no tile divides
through `lower-to-c` with AVX-512's facts, built with the C compiler, against
the interpreter, the vectorised micro-kernel asserted in the C."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

import irkit
from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import check_pass, compare_arrays
from irkit.transforms.linalg_vectorize_micro_kernels import (
    LinalgVectorizeMicroKernelsPass,
)


def matmul_text(m: int, n: int, k: int, transposed: bool, element: str = "f32") -> str:
    """`a @ b` (`b` given as n x k and transposed when `transposed`)."""
    a, c = f"tensor<{m}x{k}x{element}>", f"tensor<{m}x{n}x{element}>"
    rhs_map = "(d1, d2)" if transposed else "(d2, d1)"
    b = f"tensor<{n}x{k}x{element}>" if transposed else f"tensor<{k}x{n}x{element}>"
    return f"""
func.func @main(%a: {a}, %b: {b}) -> {c} {{
  %zero = arith.constant 0.0 : {element}
  %empty = tensor.empty() : {c}
  %init = linalg.fill ins(%zero : {element}) outs(%empty : {c}) -> {c}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
      affine_map<(d0, d1, d2) -> {rhs_map}>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %b : {a}, {b}) outs(%init : {c}) {{
  ^bb0(%x: {element}, %y: {element}, %acc: {element}):
    %p = arith.mulf %x, %y : {element}
    %s = arith.addf %acc, %p : {element}
    linalg.yield %s : {element}
  }} -> {c}
  return %r : {c}
}}"""


# 128-bit vectors and 7 registers: 2x8 f32 (2x4 f64) register tiles of 2 x 2
# accumulators, so that small shapes, fast on the interpreter, hold several.
PACKED = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,bufferize,"
    "linalg-pack-operands{cache-tile-sizes=4,16,3 vector-bits=128 vector-registers=7}"
)


@st.composite
def packed_matmuls(draw: st.DrawFn) -> ModuleOp:
    """Half the draws hold a whole register tile (2 rows, 8 columns): the
    pass then fires whatever Hypothesis's bias to small values draws (7 of
    25 random draws fired under the dev profile at times without it)."""
    if draw(st.booleans()):
        m, n = draw(st.integers(2, 9)), draw(st.integers(8, 27))
    else:
        m, n = draw(st.integers(1, 9)), draw(st.integers(2, 27))
    k = draw(st.integers(1, 8))
    element = draw(st.sampled_from(["f32", "f64"]))
    module = parse_module(matmul_text(m, n, k, draw(st.booleans()), element))
    Pipeline.parse(PACKED).run(make_context(), module)
    return module


def test_vectorizing_keeps_meaning_on_random_shapes() -> None:
    vectorizing = LinalgVectorizeMicroKernelsPass(vector_bits=128, vector_registers=7)
    reach = check_pass(vectorizing, packed_matmuls(), min_fired=5)
    assert reach.changed >= reach.examples // 4


# Small cache tiles (two 14-row, one 32-column register tile each), so that
# shapes of a few dozen rows and columns take full tiles and every peeled
# region, and the C stays small enough to build quickly.
AVX512_PIPELINE = (
    "lower-to-c{vector-bits=512 vector-registers=32 pack-tile-sizes=28,64,16}"
)


@settings(max_examples=5)
@given(
    m=st.integers(14, 45),
    n=st.integers(32, 80),
    k=st.integers(2, 35),  # K = 1 folds away: an elementwise product
    transposed=st.booleans(),
)
def test_vectorized_matmuls_run_in_c(m: int, n: int, k: int, transposed: bool) -> None:
    program = matmul_text(m, n, k, transposed)
    # AVX-512's facts whatever the host: the vector code is portable C.
    compiled = irkit.compile(program, target="c", pipeline=AVX512_PIPELINE)
    assert "typedef float irkit_v16f32" in compiled.source
    assert "fmaf(" in compiled.source
    rng = np.random.default_rng(m * n * k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, k) if transposed else (k, n)).astype(np.float32)
    (result,) = compiled(a, b)
    (expected,) = irkit.interpret(program, a, b)
    difference = compare_arrays(expected, result)
    assert difference is None, difference.describe()
