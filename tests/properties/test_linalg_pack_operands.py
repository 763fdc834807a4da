"""`linalg-pack-operands` keeps meaning: matmuls of random shapes (most of
which no cache or register tile divides, so every peeled region is drawn),
plain or with a transposed rhs, packed with small drawn tiles and checked on
the interpreter; and a few shapes through `lower-to-c` on the host's vector
unit, built with the C compiler, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

import irkit
from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import check_pass
from irkit.transforms.linalg_pack_operands import LinalgPackOperandsPass, segments

ON_BUFFERS = "convert-nn-to-linalg,linalg-generalize-named-ops,bufferize"


def matmul_text(m: int, n: int, k: int, transposed: bool) -> str:
    """`a @ b` (`b` given as n x k and transposed when `transposed`)."""
    a, c = f"tensor<{m}x{k}xf32>", f"tensor<{m}x{n}xf32>"
    rhs_map = "(d2, d1)" if not transposed else "(d1, d2)"
    b = f"tensor<{n}x{k}xf32>" if transposed else f"tensor<{k}x{n}xf32>"
    return f"""
func.func @main(%a: {a}, %b: {b}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : {c}
  %init = linalg.fill ins(%zero : f32) outs(%empty : {c}) -> {c}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
      affine_map<(d0, d1, d2) -> {rhs_map}>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %b : {a}, {b}) outs(%init : {c}) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> {c}
  return %r : {c}
}}"""


@st.composite
def matmuls_on_buffers(draw: st.DrawFn) -> ModuleOp:
    m, n, k = (
        draw(st.integers(1, 13)),
        draw(st.integers(4, 27)),
        draw(st.integers(1, 9)),
    )
    module = parse_module(matmul_text(m, n, k, draw(st.booleans())))
    Pipeline.parse(ON_BUFFERS).run(make_context(), module)
    return module


def test_packing_keeps_meaning_on_random_shapes() -> None:
    # 128-bit vectors, 7 registers: 2x8 register tiles, so small shapes
    # (fast on the interpreter) take every region: full cache tiles, whole
    # register tiles, tails of rows and columns, a K remainder.
    for cache in ((4, 16, 3), (2, 8, 8)):
        packing = LinalgPackOperandsPass(
            cache_tile_sizes=cache, vector_bits=128, vector_registers=7
        )
        reach = check_pass(packing, matmuls_on_buffers(), min_fired=5)
        assert reach.changed >= reach.examples // 3


def test_segments_cover_the_range_in_order() -> None:
    for extent in range(1, 60):
        found = segments(extent, 12, 6)
        assert sum(segment.size for segment in found) == extent
        assert [s.offset for s in found] == sorted(s.offset for s in found)
        assert all(s.tile == 0 or s.size % s.tile == 0 for s in found)
        assert all(s.tile == 0 or s.tile % 6 == 0 for s in found)
        assert all(s.tile or s.size < 6 for s in found)


@pytest.mark.parametrize(
    ("m", "n", "k", "transposed"),
    [(37, 45, 19, False), (130, 70, 129, True), (6, 16, 1, False)],
)
def test_packed_matmuls_run_in_c(m: int, n: int, k: int, transposed: bool) -> None:
    program = matmul_text(m, n, k, transposed)
    # AVX-512's facts, whatever the host: the packed path runs on any CPU
    # (the C is portable), and the pipeline packs only for wide vectors.
    compiled = irkit.compile(
        program, target="c", pipeline="lower-to-c{vector-bits=512 vector-registers=32}"
    )
    rng = np.random.default_rng(m * n * k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, k) if transposed else (k, n)).astype(np.float32)
    (result,) = compiled(a, b)
    expected = a.astype(np.float64) @ (b.T if transposed else b).astype(np.float64)
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5 * k)
