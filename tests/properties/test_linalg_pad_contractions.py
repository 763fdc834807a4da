"""`linalg-pad-contractions` keeps meaning: random matmuls (f32 and i32, some
followed by an elementwise op, some whose extents the multiples divide in
some dimensions) on the interpreter before and after the pass; and through
the whole lowering to `gpu.launch` on the grid emulator, where the padded
matmul's tiles are all full."""

from __future__ import annotations

from hypothesis import given
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
    # The zero fill of A's padded buffer, relu into its corner, then the
    # product's fill, the matmul and the bias in one, with tanh (B needs no
    # padding) computed as B's tiles are staged (`fuse-producers`).
    grids = str(tiled).count("#gpu.block<x>]}")
    assert grids == 3, str(tiled)


# --------------------------------------------------------------------------
# Reductions that are not sums of products
# --------------------------------------------------------------------------

# Per element type: the ops a body may combine two input elements with, and
# the ops it may fold them into the accumulator with. Zero padding adds
# `0 * 0 = 0` to a sum, and only to a sum is that nothing: `max(acc, 0)`,
# `acc * 0` or `min(acc, 0)` would change the result, so only `mulf`/`addf`
# (`muli`/`addi`) bodies may be padded.
PRODUCTS = {
    "f32": ("arith.mulf", "arith.addf", "arith.maximumf"),
    "i32": ("arith.muli", "arith.addi", "arith.maxsi"),
}
COMBINERS = {
    "f32": ("arith.addf", "arith.maximumf", "arith.minimumf", "arith.mulf"),
    "i32": ("arith.addi", "arith.maxsi", "arith.minsi", "arith.muli"),
}
SUMS_OF_PRODUCTS = {("arith.mulf", "arith.addf"), ("arith.muli", "arith.addi")}


def reduction_text(
    m: int, n: int, k: int, element: str, product: str, combiner: str
) -> str:
    """`out[i, j] = combiner(out[i, j], product(a[i, k], b[k, j]))` over k, on
    memrefs, from an output that starts as a copy of `%c` (not the
    combiner's identity, so a padded step of `combiner(acc, 0)` shows)."""
    a, b, c = (f"memref<{x}x{y}x{element}>" for x, y in ((m, k), (k, n), (m, n)))
    maps = (
        "affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
        "affine_map<(d0, d1, d2) -> (d0, d1)>"
    )
    return f"""
func.func @main(%a: {a}, %b: {b}, %c: {c}, %out: {c} {{irkit.output}}) {{
  memref.copy %c, %out : {c} to {c}
  linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a, %b : {a}, {b}) outs(%out : {c}) {{
  ^bb0(%x: {element}, %y: {element}, %acc: {element}):
    %p = {product} %x, %y : {element}
    %s = {combiner} %acc, %p : {element}
    linalg.yield %s : {element}
  }}
  return
}}
"""


@st.composite
def reductions(draw: st.DrawFn) -> tuple[str, bool]:
    """A contraction-shaped reduction, and whether it is a sum of products.
    Sums of products half the time, so both sides are drawn often."""
    element = draw(st.sampled_from(sorted(PRODUCTS)))
    m, n = draw(st.sampled_from([3, 4, 5])), draw(st.sampled_from([2, 4, 7]))
    k = draw(st.sampled_from([1, 2, 3]))
    if draw(st.booleans()):
        product, combiner = PRODUCTS[element][0], COMBINERS[element][0]
    else:
        product = draw(st.sampled_from(PRODUCTS[element]))
        combiner = draw(st.sampled_from(COMBINERS[element][1:]))
    text = reduction_text(m, n, k, element, product, combiner)
    return text, (product, combiner) in SUMS_OF_PRODUCTS


def test_only_sums_of_products_are_padded() -> None:
    padded = {True: 0, False: 0}

    @given(reductions(), st.integers(0, 2**16))
    def check(reduction: tuple[str, bool], seed: int) -> None:
        text, is_sum = reduction
        after = assert_pass_preserves_semantics(PASS, text, trials=1, seed=seed)
        changed = str(after) != str(parse_module(text))
        assert is_sum or not changed, "a reduction other than a sum was padded"
        padded[is_sum] += changed

    check()
    assert padded[True] > 0  # not vacuous: sums of products were padded
