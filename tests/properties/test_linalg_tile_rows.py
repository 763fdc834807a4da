"""`linalg-tile-rows` keeps meaning exactly: random programs of row
reductions and elementwise ops, bufferized, before and after the pass on the
interpreter (comparison at the dtype's tolerance; the pass does not reorder
any arithmetic), and through the whole `lower-to-c` pipeline."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from test_linalg_tile_rows_for_gpu import (
    ADJACENT_LAYER_NORMS,
    FRONT_END,
    ROW_OPS,
    SOFTMAX,
    row_programs,
)
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.linalg.ops import GenericOp

from irkit.context import make_context
from irkit.dialects.memref import ExpandShapeOp
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import assert_pass_preserves_semantics, check_pass, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.linalg_tile_rows import LinalgTileRowsPass
from irkit.transforms.utils.row_groups import EXACT_IN_ANY_ORDER
from tests.properties.row_reductions import (
    REFUSED_COMBINERS,
    ROW_COMBINERS,
    row_reduction_text,
    row_reductions,
)

PASS = LinalgTileRowsPass()


def test_row_groups_keep_meaning() -> None:
    # Random nn programs form a row group only now and then (a softmax over
    # a row that is not innermost is none): 1 to 8 of 25 under the dev
    # profile, 0 at times. Half the draws are row programs, which do.
    programs = nn_programs(max_ops=3, ops=ROW_OPS, max_dim=5)
    check_pass(PASS, st.one_of(lowered(programs, FRONT_END), row_programs()))


def test_row_reductions_keep_meaning() -> None:
    check_pass(PASS, row_programs())
    # No stack at all: the intermediates stay in their buffers.
    check_pass(LinalgTileRowsPass(max_stack_bytes=0), row_programs())


def test_every_reduction_kind_keeps_meaning() -> None:
    # Every combiner the row-group analysis knows forms a group (of two ops,
    # as this pass wants: the reduction and an elementwise op after it); the
    # ones it refuses (no identity, or not associative) leave the program as
    # it was.
    reach = check_pass(PASS, row_reductions(epilogue=True))
    assert reach.changed == reach.examples
    refused = check_pass(
        PASS, row_reductions(REFUSED_COMBINERS, epilogue=True), min_fired=0
    )
    assert refused.changed == 0


def test_softmax_runs_row_by_row_on_the_stack() -> None:
    module = parse_module(SOFTMAX, make_context())
    Pipeline.parse(FRONT_END).run(make_context(), module)
    Pipeline([PASS]).run(make_context(), module)
    text = str(module)
    assert text.count("scf.parallel") == 1
    assert "memref.alloca() : memref<1x5xf32>" in text
    assert "memref.alloc()" not in text
    assert_pass_preserves_semantics(
        f"{FRONT_END},linalg-tile-rows,convert-linalg-to-loops,"
        "scf-for-hoist-accumulators",
        SOFTMAX,
        trials=2,
    )


def test_adjacent_row_groups_keep_meaning() -> None:
    # See test_linalg_tile_rows_for_gpu.py: the row-group analysis is shared.
    assert_pass_preserves_semantics(
        f"{FRONT_END},linalg-tile-rows", ADJACENT_LAYER_NORMS, trials=2
    )


# Row sums of %x, then an op that reads those sums across rows (`%s[j]` in
# row `i`): it needs every row's sum, so it may not join the reduction's
# group (run a row at a time, row 0 would read sums not yet computed).
SUMS_READ_ACROSS_ROWS = """
func.func @main(%x: memref<4x4xf32>, %s: memref<4xf32> {irkit.output}, %y: memref<4x4xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x4xf32>, memref<4xf32>) outs(%y : memref<4x4xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %r = arith.subf %in, %sum : f32
    linalg.yield %r : f32
  }
  return
}
"""


@pytest.mark.parametrize(
    "pass_", ["linalg-tile-rows", "linalg-tile-rows-for-gpu{reduction-block=2}"]
)
def test_ops_reading_other_rows_results_stay_out_of_the_group(pass_: str) -> None:
    after = assert_pass_preserves_semantics(pass_, SUMS_READ_ACROSS_ROWS, trials=2)
    # The reduction alone is no group for linalg-tile-rows (it needs two
    # ops): untouched there; one kernel for the GPU pass. Either way the
    # reader stays a top-level op after it.
    block = next(op for op in after.walk() if op.name == "func.func").regions[0]
    top = [op.name for op in block.block.ops]
    assert top[-2] == "linalg.generic", top


# Two lanes of f32 or i32: rows of 4 or more elements take the lanes.
LANES = LinalgTileRowsPass(vector_bits=64)
# The combiners `split_into_lanes` takes (`EXACT_IN_ANY_ORDER`), per type.
EXACT_COMBINERS = {
    element: tuple(c for c in combiners if c in EXACT_IN_ANY_ORDER)
    for element, combiners in ROW_COMBINERS.items()
}


def test_reductions_in_lanes_keep_meaning_exactly() -> None:
    # Every combiner: the exact ones in lanes, compared bit for bit; the
    # others (float sums, maxnumf) left one element at a time.
    check_pass(LANES, row_reductions(max_cols=12, epilogue=True), rtol=0, atol=0)


def _bufferized_row_max(columns: int) -> ModuleOp:
    text = row_reduction_text("arith.maximumf", "f32", (3, columns), epilogue=True)
    module = parse_module(text, make_context())
    Pipeline.parse("bufferize").run(make_context(), module)
    return module


@given(row_reductions(EXACT_COMBINERS, max_cols=12, epilogue=True))
@example(_bufferized_row_max(8))  # reaches the split whatever is drawn
@example(_bufferized_row_max(7))  # 7 columns: 6 in 2 lanes, then a tail
def test_exact_reductions_of_whole_vectors_take_the_lanes(module: ModuleOp) -> None:
    """The split fires exactly on rows of one reduced dimension (no
    keepdims) of at least two vectors (odd ones with a one-element tail)."""
    (reduction,) = [
        op
        for op in module.walk()
        if isinstance(op, GenericOp) and "reduction" in str(op.iterator_types)
    ]
    source = reduction.inputs[0].type
    output = reduction.outputs[0].type
    assert isinstance(source, MemRefType)
    assert isinstance(output, MemRefType)
    shape = source.get_shape()
    expected = len(shape) == 2 and output.get_num_dims() == 1 and shape[1] >= 4
    LANES.apply(make_context(), module)
    split = any(isinstance(op, ExpandShapeOp) for op in module.walk())
    assert split == expected


def test_float_sums_keep_their_order() -> None:
    # f32: 1e8 + 1 is 1e8, so the row [1e8, 1, -1e8, 1] sums to 1 in order
    # and to 2 in two lanes ((1e8 - 1e8) + (1 + 1)): sums are never split.
    text = row_reduction_text("arith.addf", "f32", (1, 4), epilogue=True)
    row = np.array([[1e8, 1.0, -1e8, 1.0]], dtype=np.float32)
    assert_pass_preserves_semantics(
        "bufferize,linalg-tile-rows{vector-bits=64}",
        text,
        inputs=[[row]],
        rtol=0,
        atol=0,
    )


@pytest.mark.parametrize(
    ("element", "combiner"),
    [(e, c) for e, combiners in EXACT_COMBINERS.items() for c in combiners],
)
def test_every_exact_combiner_in_lanes_and_a_tail(element: str, combiner: str) -> None:
    # 9 elements in two lanes: 8 through the lanes, the last one after.
    text = row_reduction_text(combiner, element, (3, 9), init=None, epilogue=True)
    lowered = assert_pass_preserves_semantics(
        "bufferize,linalg-tile-rows{vector-bits=64}", text, rtol=0, atol=0
    )
    assert any(isinstance(op, ExpandShapeOp) for op in lowered.walk())
