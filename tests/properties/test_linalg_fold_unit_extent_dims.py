"""`linalg-fold-unit-extent-dims` keeps meaning, bit for bit, and leaves no
loop of extent 1 behind.

Hypothesis draws `nn` programs over small shapes (sizes 1 come often), and
matmuls and batch matmuls whose batch, row, column or reduction extents are
1, with an elementwise op after them that uses `linalg.index`, as a frontend
writes a one-row linear layer. Results must not change at all (a unit loop
runs once, at 0), the pass must fire, and afterwards no generic has a loop
of extent 1 unless all its loops are.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from irkit.context import make_context
from irkit.dialects.linalg import GenericOp
from irkit.parsing import parse_module
from irkit.testing import check_pass, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.linalg_fold_unit_extent_dims import (
    LinalgFoldUnitExtentDimsPass,
    unit_loops,
)
from irkit.transforms.linalg_generalize_named_ops import LinalgGeneralizeNamedOpsPass

PASS = LinalgFoldUnitExtentDimsPass()
GENERALIZED = "convert-nn-to-linalg,linalg-generalize-named-ops"


def test_fold_keeps_meaning_on_nn_programs() -> None:
    programs = lowered(nn_programs(max_ops=4, max_dim=3), GENERALIZED)
    check_pass(PASS, programs, rtol=0.0, atol=0.0)


def _shape(dims: list[int]) -> str:
    return "x".join(str(d) for d in dims)


@st.composite
def unit_matmuls(draw: st.DrawFn) -> str:
    """A matmul or batch matmul with some extents 1, then an elementwise op
    reading its result with `linalg.index` of every loop."""
    m, n, k = (draw(st.sampled_from([1, 1, 2, 3])) for _ in range(3))
    batch = [draw(st.sampled_from([1, 2]))] if draw(st.booleans()) else []
    out = [*batch, m, n]
    out_type = f"tensor<{_shape(out)}xf32>"
    named = "linalg.batch_matmul" if batch else "linalg.matmul"
    rank = len(out)
    space = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({space}) -> ({space})>"
    index = draw(st.integers(0, rank - 1))
    kinds = ", ".join(['"parallel"'] * rank)
    return f"""
func.func @main(%a: tensor<{_shape([*batch, m, k])}xf32>, %b: tensor<{_shape([*batch, k, n])}xf32>, %acc: {out_type}) -> {out_type} {{
  %p = {named} ins(%a, %b : tensor<{_shape([*batch, m, k])}xf32>, tensor<{_shape([*batch, k, n])}xf32>) outs(%acc : {out_type}) -> {out_type}
  %e = tensor.empty() : {out_type}
  %r = linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{kinds}]}} ins(%p : {out_type}) outs(%e : {out_type}) {{
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index {index} : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %y = arith.addf %x, %f : f32
    linalg.yield %y : f32
  }} -> {out_type}
  return %r : {out_type}
}}
"""


def test_fold_keeps_meaning_on_unit_matmuls() -> None:
    programs = lowered(unit_matmuls().map(parse_module), "linalg-generalize-named-ops")
    check_pass(PASS, programs, rtol=0.0, atol=0.0)


@given(unit_matmuls())
def test_no_unit_loop_is_left(text: str) -> None:
    module = parse_module(text)
    LinalgGeneralizeNamedOpsPass().apply(make_context(), module)
    PASS.apply(make_context(), module)
    for op in module.walk():
        if isinstance(op, GenericOp):
            assert not unit_loops(op), str(module)
