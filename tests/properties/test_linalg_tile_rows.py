"""`linalg-tile-rows` keeps meaning exactly: random programs of row
reductions and elementwise ops, bufferized, before and after the pass on the
interpreter (comparison at the dtype's tolerance; the pass does not reorder
any arithmetic), and through the whole `lower-to-c` pipeline."""

from __future__ import annotations

from test_linalg_tile_rows_for_gpu import (
    ADJACENT_LAYER_NORMS,
    FRONT_END,
    ROW_OPS,
    SOFTMAX,
    row_programs,
)

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import assert_pass_preserves_semantics, check_pass, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.linalg_tile_rows import LinalgTileRowsPass
from tests.properties.row_reductions import REFUSED_COMBINERS, row_reductions

PASS = LinalgTileRowsPass()


def test_row_groups_keep_meaning() -> None:
    programs = nn_programs(max_ops=3, ops=ROW_OPS, max_dim=5)
    check_pass(PASS, lowered(programs, FRONT_END))


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
