"""`gpu-promote-accumulators` keeps meaning: matmuls (some with an elementwise
epilogue) tiled for the GPU and lowered to `gpu.launch`, run on the grid
emulator before and after the pass. Shapes are drawn so that some tiles
divide them (the accumulators are promoted) and some do not (partial tiles,
left alone)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import assert_pass_preserves_semantics, check_pass
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_promote_accumulators import GpuPromoteAccumulatorsPass
from irkit.transforms.pipelines import LowerToCudaPipeline
from tests.properties.gpu_matmuls import matmul_module, matmul_programs, up_to

PASS = GpuPromoteAccumulatorsPass()
UP_TO_PASS = up_to("matmul-block=4,4,2 matmul-thread=2,2 elementwise-block=4")
# Multiples of the 4x4 block and 2-deep K tiles, and sizes that are not.
MATMULS = matmul_programs([4, 8, 5], [4, 8, 6], [2, 4, 6, 3])


def test_promoted_accumulators_keep_meaning() -> None:
    check_pass(PASS, lowered(MATMULS, UP_TO_PASS))


def test_dividing_tiles_are_promoted() -> None:
    # The property above must not pass vacuously: on dividing tiles the pass
    # does rewrite the kernel.
    module = matmul_module(8, 8, 4, "relu")
    Pipeline.parse(UP_TO_PASS).run(make_context(), module)
    before = str(module)
    Pipeline([PASS]).run(make_context(), module)
    after = str(module)
    assert "#gpu.address_space<private>" not in before
    assert "private(%acc : memref<2x2xf32, #gpu.address_space<private>>)" in after
    assert "irkit.unroll" in after
    # The matmul's result, which only the fused epilogue reads, is a private
    # tile across the whole launch: its buffer is gone.
    assert "memref.alloc" in before
    assert "memref.alloc" not in after


SCRATCH_CASES = [
    case
    for case in (
        Path(__file__).parents[1] / "filecheck/transforms/gpu-promote-accumulators.mlir"
    )
    .read_text()
    .split("// -----")
    if "func.func @scratch_" in case
]


@pytest.mark.parametrize("program", SCRATCH_CASES, ids=lambda case: case[:0])
def test_scratch_cases_keep_meaning(program: str) -> None:
    # The FileCheck cases of buffers promoted across a launch (and of those
    # left alone: read by a later launch, or read before written), run on
    # the grid emulator.
    assert_pass_preserves_semantics(PASS, program, trials=2)


@pytest.mark.parametrize(
    ("max_elements", "tile"), [(1, None), (3, "1x2"), (4, "2x2"), (64, "2x2")]
)
def test_tiles_past_max_elements_are_left_alone(
    max_elements: int, tile: str | None
) -> None:
    # Each thread's whole tile is 2x2 = 4 elements, and one row of it 1x2
    # (promoted around the K loop inside the loop over the thread's rows):
    # under a budget of 3 only a row fits, under 1 nothing does; 4 takes the
    # whole tile (the limit is inclusive).
    module = matmul_module(8, 8, 4, "relu")
    Pipeline.parse(UP_TO_PASS).run(make_context(), module)
    before = str(module)
    pass_ = GpuPromoteAccumulatorsPass(max_elements=max_elements)
    after = str(assert_pass_preserves_semantics(pass_, module, trials=1))
    if tile is None:
        assert after == before
    else:
        assert f"private(%acc : memref<{tile}xf32, #gpu.address_space<private>>)" in (
            after
        )


def test_partial_tiles_are_left_alone() -> None:
    module = matmul_module(5, 6, 3)
    Pipeline.parse(UP_TO_PASS).run(make_context(), module)
    before = str(module)
    Pipeline([PASS]).run(make_context(), module)
    assert str(module) == before


CYCLIC_TILE = """
func.func @main(%a: memref<6xf32>, %out: memref<3x8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %first = memref.load %a[%c0] : memref<6xf32>
    scf.for %j = %c0 to %c2 step %c1 {
      %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%tx, %j)
      memref.store %first, %out[%bx, %col] : memref<3x8xf32>
    }
    scf.for %k = %c0 to %c6 step %c1 {
      %x = memref.load %a[%k] : memref<6xf32>
      scf.for %j = %c0 to %c2 step %c1 {
        %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%tx, %j)
        %acc = memref.load %out[%bx, %col] : memref<3x8xf32>
        %p = arith.mulf %x, %acc : f32
        %s = arith.addf %p, %x : f32
        memref.store %s, %out[%bx, %col] : memref<3x8xf32>
      }
    }
    gpu.terminator
  }
  return
}
"""


def test_cyclic_tiles_keep_meaning() -> None:
    # Thread tx owns columns tx and tx + 4 of its block's row: a cyclic tile.
    module = parse_module(CYCLIC_TILE, make_context())
    Pipeline([PASS]).run(make_context(), module)
    assert "private(%acc : memref<1x2xf32" in str(module)
    assert_pass_preserves_semantics(PASS, CYCLIC_TILE, trials=3)


ROWS_UP_TO_PASS = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,"
    "bufferize,linalg-tile-rows-for-gpu{reduction-block=4},"
    "linalg-tile-for-gpu{matmul-block=4,4,2 matmul-thread=2,2 elementwise-block=4},"
    "gpu-promote-shared,convert-linalg-to-loops,fold-memref-alias-ops,"
    "convert-parallel-loops-to-gpu"
)


@st.composite
def row_programs(draw: st.DrawFn) -> ModuleOp:
    """A softmax, layer_norm or row reduction, whose per-thread partials are
    accumulated in workgroup memory (and read other workgroup buffers, such
    as the row's max, inside the same loop). Partials are promoted where
    the row is a multiple of the 4 threads' reduction block (4 or 8 here),
    half of the draws; the others must be left meaning the same."""
    rows = draw(st.integers(1, 3))
    cols = draw(st.one_of(st.sampled_from([4, 8]), st.integers(1, 9)))
    t, v = f"tensor<{rows}x{cols}xf32>", f"tensor<{cols}xf32>"
    r = f"tensor<{rows}x1xf32>"
    op = draw(st.sampled_from(["softmax", "layer_norm", "reduce_max", "reduce_sum"]))
    if op == "softmax":
        line, result = f"%y = nn.softmax %x axis 1 : {t}", t
    elif op == "layer_norm":
        line = (
            f"%y = nn.layer_norm %x scale %g bias %b axes [-1] eps 1.0e-05 : "
            f"{t}, {v}, {v} -> {t}"
        )
        result = t
    else:
        line, result = f"%y = nn.{op} %x axes [1] keepdims : {t} -> {r}", r
    text = (
        f"func.func @main(%x: {t}, %g: {v}, %b: {v}) -> {result} {{\n"
        f"  {line}\n  return %y : {result}\n}}"
    )
    return parse_module(text, make_context())


def test_row_partials_keep_meaning() -> None:
    # Workgroup-memory partials: the grid emulator runs every thread of a
    # block, so a promotion that let one thread's register copy hide another
    # thread's write (or miss a barrier) shows as a difference or a race.
    # (It reached the rewrite by luck when any row length was as likely:
    # a derandomised seed of another source drew 25 it never fires on.)
    reach = check_pass(PASS, lowered(row_programs(), ROWS_UP_TO_PASS))
    assert reach.changed >= reach.examples // 4, reach.describe()


def test_row_partials_are_promoted() -> None:
    # Not vacuous: a layer_norm's two partial sums (the mean's, and the
    # variance's, whose loop also reads the mean from workgroup memory) are
    # both carried in private memory.
    text = (
        "func.func @main(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>)"
        " -> tensor<2x8xf32> {\n"
        "  %y = nn.layer_norm %x scale %g bias %b axes [-1] eps 1.0e-05 : "
        "tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x8xf32>\n"
        "  return %y : tensor<2x8xf32>\n}"
    )
    module = parse_module(text, make_context())
    Pipeline.parse(ROWS_UP_TO_PASS).run(make_context(), module)
    Pipeline([PASS]).run(make_context(), module)
    private = "memref<1xf32, #gpu.address_space<private>>"
    assert f"private(%acc : {private}, %acc_1 : {private})" in str(module)


# --------------------------------------------------------------------------
# Thread tiles: disjoint, overlapping, shared
# --------------------------------------------------------------------------


def thread_tile_text(threads: int, size: int, coefficient: int, stride: int) -> str:
    """A kernel of `threads` threads where thread `t` accumulates into
    `out[coefficient * t + stride * j]` for `j < size` over a K loop: blocked
    tiles (coefficient >= stride * size), cyclic ones (stride >= coefficient *
    threads), tiles that overlap (by one element at the edge, say) and a
    shared element (coefficient 0)."""
    extent = coefficient * (threads - 1) + stride * (size - 1) + 1
    out = f"memref<{extent}xf32>"
    return f"""
func.func @main(%a: memref<3xf32>, %out: {out} {{irkit.output}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %size = arith.constant {size} : index
  %threads = arith.constant {threads} : index
  %extent = arith.constant {extent} : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %extent step %c1 {{
    memref.store %zero, %out[%i] : {out}
  }}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %threads, %sy = %c1, %sz = %c1) {{
    scf.for %k = %c0 to %c3 step %c1 {{
      %x = memref.load %a[%k] : memref<3xf32>
      scf.for %j = %c0 to %size step %c1 {{
        %at = affine.apply affine_map<(d0, d1) -> (d0 * {coefficient} + d1 * {stride})>(%tx, %j)
        %acc = memref.load %out[%at] : {out}
        %s = arith.addf %x, %acc : f32
        memref.store %s, %out[%at] : {out}
      }}
    }}
    gpu.terminator
  }}
  return
}}
"""


def _disjoint(threads: int, size: int, coefficient: int, stride: int) -> bool:
    """Whether no two threads touch a common element (by enumeration)."""
    owners: dict[int, int] = {}
    for thread in range(threads):
        for j in range(size):
            element = coefficient * thread + stride * j
            if owners.setdefault(element, thread) != thread:
                return False
    return True


TILE_LAYOUTS = [
    (threads, size, coefficient, stride)
    for threads in (1, 2, 4)
    for size in (1, 2, 3)
    for coefficient in range(5)
    for stride in (1, 2, 3)
]


def test_thread_tiles_are_promoted_exactly_as_the_contract_says() -> None:
    # Every small layout: promoted when the tiles are blocked or cyclic,
    # never when two threads share an element; the edge cases (off by one
    # either way) are among them. (A thread id in the index must make the
    # tiles blocked or cyclic even when the block has one thread: the pass
    # does not use that the id is then always 0.)
    for threads, size, coefficient, stride in TILE_LAYOUTS:
        module = parse_module(
            thread_tile_text(threads, size, coefficient, stride), make_context()
        )
        Pipeline([PASS]).run(make_context(), module)
        promoted = "#gpu.address_space<private>" in str(module)
        blocked = coefficient >= stride * size
        cyclic = stride >= coefficient * threads
        expected = (blocked or cyclic) if coefficient else threads == 1
        layout = f"{threads=} {size=} {coefficient=} {stride=}"
        assert promoted == expected, layout
        assert not promoted or _disjoint(threads, size, coefficient, stride), layout


# Layouts whose threads share no element: the others race on global memory
# before the pass already (the grid emulator reports it), so only the
# structural test above can hold the pass to refusing them.
DISJOINT_LAYOUTS = [layout for layout in TILE_LAYOUTS if _disjoint(*layout)]


def test_disjoint_thread_tiles_keep_meaning() -> None:
    # On the grid emulator: promoted tiles (blocked, cyclic) and disjoint
    # tiles the pass refuses (neither, as thread t owning 2t and 2t + 3).
    layouts = st.sampled_from(DISJOINT_LAYOUTS)
    programs = layouts.map(lambda layout: parse_module(thread_tile_text(*layout)))
    reach = check_pass(PASS, programs, min_fired=5)
    assert reach.changed < reach.examples  # refused layouts were drawn too


def test_lower_to_cuda_promotes_whole_thread_tiles_of_any_size() -> None:
    # Thread tiles past the pass's default budget (8 x 16 = 128 accumulators,
    # each step's 8 x 16 x 16 nest) are still promoted and unrolled whole:
    # unpromoted, nvcc kept them in local memory (816 bytes of stack).
    pipeline = LowerToCudaPipeline(matmul_thread=(8, 16))
    (stage,) = [
        stage
        for stage in pipeline.stages()
        if isinstance(stage, GpuPromoteAccumulatorsPass)
    ]
    assert stage.max_elements == 8 * 16
    assert stage.max_unroll == 8 * 16 * pipeline.matmul_block[-1]
    (default,) = [
        stage
        for stage in LowerToCudaPipeline().stages()
        if isinstance(stage, GpuPromoteAccumulatorsPass)
    ]
    assert default == GpuPromoteAccumulatorsPass()
