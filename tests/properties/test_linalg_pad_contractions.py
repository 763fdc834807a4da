"""`linalg-pad-contractions` keeps meaning: random matmuls (f32 and i32, some
followed by an elementwise op, some whose extents the multiples divide in
some dimensions) on the interpreter before and after the pass; and through
the whole lowering to `gpu.launch` on the grid emulator, where the padded
matmul's tiles are all full."""

from __future__ import annotations

from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import assert_pass_preserves_semantics, check_pass
from irkit.testing.strategies import lowered
from irkit.transforms.linalg_pad_contractions import LinalgPadContractionsPass
from tests.properties.gpu_matmuls import FRONT_END, matmul_programs, up_to

PASS = LinalgPadContractionsPass(multiples=(4, 4, 2), max_growth_percent=1000)


@st.composite
def integer_matmuls(draw: st.DrawFn) -> ModuleOp:
    m, n, k = (draw(st.integers(1, 6)) for _ in range(3))
    a, b, c = (f"tensor<{x}x{y}xi32>" for x, y in ((m, k), (k, n), (m, n)))
    text = (
        f"func.func @main(%a: {a}, %b: {b}) -> {c} {{\n"
        f"  %c = nn.matmul %a, %b : {a}, {b} -> {c}\n"
        f"  return %c : {c}\n}}"
    )
    return parse_module(text, make_context())


def test_padding_keeps_meaning() -> None:
    check_pass(
        PASS, lowered(matmul_programs([3, 4, 5, 8], [2, 4, 7], [1, 2, 3]), FRONT_END)
    )
    check_pass(PASS, lowered(integer_matmuls(), FRONT_END))


def test_padded_matmuls_keep_meaning_on_the_grid_emulator() -> None:
    # The padded matmul, its copies and fills all become kernels.
    tiling = "matmul-block=4,4,2 matmul-thread=2,2 elementwise-block=4"
    programs = lowered(matmul_programs([5, 8], [6, 8], [3, 4]), FRONT_END)
    check_pass(
        "linalg-pad-contractions{multiples=4,4,2 max-growth-percent=1000},"
        + up_to(tiling).removeprefix(FRONT_END + ","),
        programs,
    )


def test_partial_matmuls_are_padded() -> None:
    # Not vacuous: a 5x6x3 matmul runs on 8x8x4 buffers (adding to C's 1.5s).
    text = """
    func.func @main(%a: memref<5x3xf32>, %b: memref<3x6xf32>, %c: memref<5x6xf32> {irkit.output}) {
      %z = arith.constant 1.5 : f32
      linalg.fill ins(%z : f32) outs(%c : memref<5x6xf32>)
      linalg.matmul ins(%a, %b : memref<5x3xf32>, memref<3x6xf32>) outs(%c : memref<5x6xf32>)
      return
    }
    """
    module = parse_module(text, make_context())
    Pipeline.parse("linalg-generalize-named-ops").run(make_context(), module)
    Pipeline([PASS]).run(make_context(), module)
    after = str(module)
    assert "outs(%padded_2 : memref<8x8xf32>)" in after
    assert_pass_preserves_semantics(
        "linalg-generalize-named-ops,linalg-pad-contractions"
        "{multiples=4,4,2 max-growth-percent=1000}",
        text,
        trials=3,
    )


@st.composite
def computed_operand_matmuls(draw: st.DrawFn) -> ModuleOp:
    """`relu(a) @ tanh(b)`, maybe `+ bias`: both operands, and the product
    when an epilogue reads it, are allocations that padding takes over
    where only their leading dimension grows."""
    # Rows always padded by the multiples (4, 4, 2) below; columns and the
    # reduction sometimes (then those operands are copied, not padded in
    # place: an inner dimension's padding would move the strides).
    m = draw(st.sampled_from([5, 6, 7]))
    n = draw(st.sampled_from([4, 6, 8]))
    k = draw(st.sampled_from([2, 3, 4]))
    a, b, c = (f"tensor<{x}x{y}xf32>" for x, y in ((m, k), (k, n), (m, n)))
    lines = [
        f"func.func @main(%a: {a}, %b: {b}, %bias: {c}) -> {c} {{",
        f"  %ra = nn.relu %a : {a}",
        f"  %tb = nn.tanh %b : {b}",
        f"  %c = nn.matmul %ra, %tb : {a}, {b} -> {c}",
    ]
    result = "%c"
    if draw(st.booleans()):
        lines.append(f"  %d = nn.add %c, %bias : {c}, {c} -> {c}")
        result = "%d"
    lines += [f"  return {result} : {c}", "}"]
    return parse_module("\n".join(lines), make_context())


PAD = "linalg-pad-contractions{multiples=4,4,2 max-growth-percent=1000}"


def test_allocations_are_padded_in_place() -> None:
    """Allocated operands become the corners of padded allocations: no copy
    in or out of the padded buffers, on the interpreter and through the
    whole lowering on the grid emulator (where the epilogue reads the
    padded product's corner in the matmul's kernel)."""
    programs = lowered(computed_operand_matmuls(), FRONT_END)
    reach = check_pass(PAD, programs)
    assert reach.changed == reach.examples
    tiling = "matmul-block=4,4,2 matmul-thread=2,2 elementwise-block=4"
    check_pass(PAD + "," + up_to(tiling).removeprefix(FRONT_END + ","), programs)


def test_in_place_padding_leaves_no_copy() -> None:
    text = """
    func.func @main(%a: tensor<5x4xf32>, %b: tensor<4x8xf32>, %bias: tensor<5x8xf32>) -> tensor<5x8xf32> {
      %ra = nn.relu %a : tensor<5x4xf32>
      %tb = nn.tanh %b : tensor<4x8xf32>
      %c = nn.matmul %ra, %tb : tensor<5x4xf32>, tensor<4x8xf32> -> tensor<5x8xf32>
      %d = nn.add %c, %bias : tensor<5x8xf32>, tensor<5x8xf32> -> tensor<5x8xf32>
      return %d : tensor<5x8xf32>
    }
    """
    module = parse_module(text, make_context())
    Pipeline.parse(FRONT_END + "," + PAD).run(make_context(), module)
    after = str(module)
    assert "memref.copy" not in after, after
    assert after.count("memref.alloc() : memref<8x4xf32>") == 1, after
    tiled = parse_module(after, make_context())
    Pipeline.parse("linalg-tile-for-gpu{matmul-block=4,4,2 matmul-thread=2,2}").run(
        make_context(), tiled
    )
    # The zero fill of A's padded buffer, relu into its corner, tanh (B needs
    # no padding), then the product's fill, the matmul and the bias in one.
    grids = str(tiled).count("#gpu.block<x>]}")
    assert grids == 4, str(tiled)
