"""`linalg-tile-rows-for-gpu` keeps meaning: random programs of row
reductions (softmax, log_softmax, layer_norm, reduce_*) and elementwise ops,
bufferized, before and after the pass (sequential foralls on the
interpreter); and through the whole GPU lowering on the grid emulator, which
checks the barriers between the reduction tree's steps and races on the
workgroup buffers. Thread counts of 4 and 2 with rows of up to 5 elements
give threads with no elements and cyclic shares that do not divide."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import PassFailure, Pipeline
from irkit.testing import assert_pass_preserves_semantics, check_pass, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.linalg_tile_rows_for_gpu import LinalgTileRowsForGpuPass
from tests.properties.row_reductions import (
    REFUSED_COMBINERS,
    ROW_COMBINERS,
    row_reductions,
)

FRONT_END = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,bufferize"
)
ROW_OPS = {
    "nn.softmax",
    "nn.log_softmax",
    "nn.layer_norm",
    "nn.reduce_sum",
    "nn.reduce_max",
    "nn.reduce_min",
    "nn.reduce_mean",
    "nn.exp",
    "nn.add",
    "nn.mul",
    "nn.relu",
}
AFTER = (
    "linalg-tile-for-gpu{matmul-block=4,4,2 matmul-thread=2,2 elementwise-block=4},"
    "gpu-promote-shared,convert-linalg-to-loops,fold-memref-alias-ops,"
    "convert-parallel-loops-to-gpu"
)


def test_row_groups_keep_meaning() -> None:
    programs = nn_programs(max_ops=3, ops=ROW_OPS, max_dim=5)
    check_pass(
        LinalgTileRowsForGpuPass(reduction_block=4), lowered(programs, FRONT_END)
    )


@st.composite
def row_programs(draw: st.DrawFn) -> ModuleOp:
    """A row reduction over the last axis (every one forms a group), then
    maybe an elementwise op on its result."""
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 9))
    element = draw(st.sampled_from(["f32", "i32"]))
    t = f"tensor<{rows}x{cols}x{element}>"
    r = f"tensor<{rows}x1x{element}>"
    choices = [
        f"%y = nn.reduce_sum %x axes [1] keepdims : {t} -> {r}",
        f"%y = nn.reduce_max %x axes [1] keepdims : {t} -> {r}",
        f"%y = nn.reduce_min %x axes [1] keepdims : {t} -> {r}",
    ]
    if element == "f32":
        choices += [
            f"%y = nn.softmax %x axis 1 : {t}",
            f"%y = nn.log_softmax %x axis 1 : {t}",
            f"%y = nn.reduce_mean %x axes [1] keepdims : {t} -> {r}",
        ]
    line = draw(st.sampled_from(choices))
    result = t if "softmax" in line else r
    body = [line]
    if draw(st.booleans()):
        body.append(f"%z = nn.add %y, %y : {result}, {result} -> {result}")
    last = "%z" if len(body) == 2 else "%y"
    text = "\n".join(
        [
            f"func.func @main(%x: {t}) -> {result} {{",
            *body,
            f"return {last} : {result}",
            "}",
        ]
    )
    module = parse_module(text, make_context())
    Pipeline.parse(FRONT_END).run(make_context(), module)
    return module


def test_row_reductions_keep_meaning() -> None:
    for threads in (1, 4, 8, 0):  # 0: chosen per row length
        check_pass(LinalgTileRowsForGpuPass(reduction_block=threads), row_programs())


EVERY_COMBINER = [
    (element, combiner)
    for element, combiners in ROW_COMBINERS.items()
    for combiner in combiners
]
REFUSED = [
    (element, combiner)
    for element, combiners in REFUSED_COMBINERS.items()
    for combiner in combiners
]


@pytest.mark.parametrize(("element", "combiner"), EVERY_COMBINER)
def test_every_reduction_kind_keeps_meaning(element: str, combiner: str) -> None:
    # Each kind on its own, so that each one's identity is reached: the
    # partials start from it, and a wrong one (maxnumf from +inf) shows on
    # every row. Every drawn program is a row group, so each must change.
    programs = row_reductions({element: (combiner,)})
    for threads in (4, 1):
        reach = check_pass(LinalgTileRowsForGpuPass(reduction_block=threads), programs)
        assert reach.changed == reach.examples


@pytest.mark.parametrize(("element", "combiner"), REFUSED)
def test_unknown_reduction_kinds_are_left_alone(element: str, combiner: str) -> None:
    # No identity to start partials from (or no reassociation): not a row
    # reduction, and nothing else in the program makes a group.
    reach = check_pass(
        LinalgTileRowsForGpuPass(reduction_block=4),
        row_reductions({element: (combiner,)}),
        min_fired=0,
    )
    assert reach.changed == 0


def test_row_groups_keep_meaning_on_the_grid_emulator() -> None:
    programs = nn_programs(max_ops=2, ops=ROW_OPS, max_dim=5)
    check_pass(
        f"linalg-tile-rows-for-gpu{{reduction-block=2}},{AFTER}",
        lowered(programs, FRONT_END),
    )


SOFTMAX = """
func.func @main(%x: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %y = nn.softmax %x axis 1 : tensor<6x5xf32>
  return %y : tensor<6x5xf32>
}
"""


def test_softmax_is_one_kernel_with_a_private_row() -> None:
    # The property tests must not pass vacuously: a softmax becomes one
    # block-per-row forall whose exp(x - max) row lives in workgroup memory.
    module = parse_module(SOFTMAX, make_context())
    Pipeline.parse(FRONT_END).run(make_context(), module)
    Pipeline([LinalgTileRowsForGpuPass(reduction_block=4)]).run(make_context(), module)
    text = str(module)
    assert text.count("mapping = [#gpu.block<x>]") == 1
    assert "memref<1x5xf32, #gpu.address_space<workgroup>>" in text
    assert "memref.alloc() : memref<6x5xf32>" not in text
    assert_pass_preserves_semantics(
        f"{FRONT_END},linalg-tile-rows-for-gpu{{reduction-block=4}},{AFTER}",
        SOFTMAX,
        trials=2,
    )


# Two row groups side by side (1 and 2 rows), the program the default profile
# shrank a crash to about one run in two (issue 23): the first group's
# private rows were freed between the groups, and the second group moved
# that erased dealloc again.
ADJACENT_LAYER_NORMS = """
func.func @main(%x: tensor<1x3xf32>, %z: tensor<2x3xf32>) -> (tensor<1x3xf32>, tensor<2x3xf32>) {
  %a = nn.layer_norm %x axes [1] : tensor<1x3xf32> -> tensor<1x3xf32>
  %b = nn.layer_norm %z axes [1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %a, %b : tensor<1x3xf32>, tensor<2x3xf32>
}
"""


def test_adjacent_row_groups_keep_meaning() -> None:
    assert_pass_preserves_semantics(
        f"{FRONT_END},linalg-tile-rows-for-gpu{{reduction-block=4}},{AFTER}",
        ADJACENT_LAYER_NORMS,
        trials=2,
    )


def test_shuffled_reduction_trees_keep_meaning() -> None:
    # 64 threads per row: the tree has a workgroup step (32) and the five
    # warp steps gpu-shuffle-reductions turns into shuffles, on the emulator.
    from irkit.transforms.gpu_shuffle_reductions import GpuShuffleReductionsPass

    up_to = f"linalg-tile-rows-for-gpu{{reduction-block=64}},{AFTER}"
    check_pass(GpuShuffleReductionsPass(), lowered(row_programs(), up_to))
    module = parse_module(SOFTMAX, make_context())
    Pipeline.parse(f"{FRONT_END},{up_to},gpu-shuffle-reductions").run(
        make_context(), module
    )
    text = str(module)
    assert text.count("gpu.shuffle xor") == 10  # five per reduction, two of them
    assert "irkit.reduction_step = 16" not in text
    assert "irkit.reduction_step = 32" in text


def test_the_warp_size_comes_from_the_option() -> None:
    # A 16-lane warp (what a target with narrower warps would pass through
    # lower-to-cuda's warp-size): four shuffle steps, 16 left to the
    # workgroup tree; still the same results on the emulator.
    from irkit.transforms.gpu_shuffle_reductions import GpuShuffleReductionsPass

    up_to = f"linalg-tile-rows-for-gpu{{reduction-block=64}},{AFTER}"
    check_pass(GpuShuffleReductionsPass(warp_size=16), lowered(row_programs(), up_to))
    module = parse_module(SOFTMAX, make_context())
    Pipeline.parse(f"{FRONT_END},{up_to},gpu-shuffle-reductions{{warp-size=16}}").run(
        make_context(), module
    )
    text = str(module)
    assert text.count("gpu.shuffle xor") == 8  # four per reduction, two of them
    assert "irkit.reduction_step = 16" in text
    assert "irkit.reduction_step = 8" not in text
    with pytest.raises(PassFailure, match="warp-size must be a power of two"):
        Pipeline.parse("gpu-shuffle-reductions{warp-size=12}").run(
            make_context(), parse_module(SOFTMAX, make_context())
        )
