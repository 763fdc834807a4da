"""`linalg-split-reduction` keeps meaning up to reassociation, and splits.

Hypothesis draws f32 matmuls (B plain or transposed, the init a zero fill
or an argument) small enough that, with small options (64
multiprocessors, 4x4 blocks, K steps of 2), the grid is short and the
reduction splits; results are compared on the interpreter with a tolerance
for the reordered sums, and through `bufferize`, `linalg-tile-for-gpu` and
the GPU lowering on the grid emulator, where the parts' sum runs the fill
and the epilogue in its kernel.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from irkit.context import make_context
from irkit.dialects.linalg import GenericOp
from irkit.parsing import parse_module
from irkit.testing import check_pass
from irkit.transforms.linalg_split_reduction import (
    LinalgSplitReductionPass,
    SplitOptions,
    split_count,
)

SPLIT = "linalg-split-reduction{multiprocessors=64 min-block=4 k-step=2 min-steps=1}"
PASS = LinalgSplitReductionPass(multiprocessors=64, min_block=4, k_step=2, min_steps=1)
# Each part sums up to a dozen products: f32 rounding differs by a few ulps.
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}


@st.composite
def short_grid_matmuls(draw: st.DrawFn) -> str:
    m, n = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    k = draw(st.sampled_from([4, 8, 12, 16, 24]))
    transposed = draw(st.booleans())
    filled = draw(st.booleans())
    epilogue = draw(st.booleans())
    b_type = f"tensor<{n}x{k}xf32>" if transposed else f"tensor<{k}x{n}xf32>"
    b_map = "(d0, d1, d2) -> (d1, d2)" if transposed else "(d0, d1, d2) -> (d2, d1)"
    out = f"tensor<{m}x{n}xf32>"
    args = [f"%x: tensor<{m}x{k}xf32>", f"%w: {b_type}", f"%bias: tensor<{n}xf32>"]
    lines = []
    if filled:
        lines += [
            "%zero = arith.constant 0.0 : f32",
            f"%e = tensor.empty() : {out}",
            f"%init = linalg.fill ins(%zero : f32) outs(%e : {out}) -> {out}",
        ]
    else:
        args.append(f"%init: {out}")
    lines.append(
        "%r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
        f"affine_map<{b_map}>, affine_map<(d0, d1, d2) -> (d0, d1)>], "
        'iterator_types = ["parallel", "parallel", "reduction"]} '
        f"ins(%x, %w : tensor<{m}x{k}xf32>, {b_type}) outs(%init : {out}) {{\n"
        "  ^bb0(%a: f32, %b: f32, %c: f32):\n"
        "    %p = arith.mulf %a, %b : f32\n"
        "    %s = arith.addf %c, %p : f32\n"
        "    linalg.yield %s : f32\n"
        f"  }} -> {out}"
    )
    result = "%r"
    if epilogue:
        lines += [
            f"%e2 = tensor.empty() : {out}",
            "%y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
            "affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], "
            'iterator_types = ["parallel", "parallel"]} '
            f"ins(%r, %bias : {out}, tensor<{n}xf32>) outs(%e2 : {out}) {{\n"
            "  ^bb0(%v: f32, %bv: f32, %o: f32):\n"
            "    %t = arith.addf %v, %bv : f32\n"
            "    %u = math.tanh %t : f32\n"
            "    linalg.yield %u : f32\n"
            f"  }} -> {out}",
        ]
        result = "%y"
    body = "\n  ".join(lines)
    return (
        f"func.func @main({', '.join(args)}) -> {out} {{\n  {body}\n"
        f"  return {result} : {out}\n}}\n"
    )


def test_split_keeps_meaning() -> None:
    reach = check_pass(PASS, short_grid_matmuls().map(parse_module), **TOLERANCE)
    assert reach.changed == reach.examples


def test_split_keeps_meaning_on_the_grid_emulator() -> None:
    tiling = "matmul-block=4,4,2 matmul-thread=2,2 elementwise-block=4"
    pipeline = (
        f"{SPLIT},bufferize,linalg-tile-for-gpu{{{tiling}}},gpu-promote-shared,"
        "convert-linalg-to-loops,fold-memref-alias-ops,convert-parallel-loops-to-gpu"
    )
    check_pass(pipeline, short_grid_matmuls().map(parse_module), **TOLERANCE)


@given(short_grid_matmuls())
def test_parts_run_whole_k_steps(text: str) -> None:
    module = parse_module(text)
    PASS.apply(make_context(), module)
    generics = [op for op in module.walk() if isinstance(op, GenericOp)]
    partial = next(op for op in generics if len(op.iterator_types) == 4)
    parts, *_ = partial.res[0].type.get_shape()
    # %x expanded along k into (parts, k / parts): whole K steps of 2 each.
    _, expanded_parts, per_part = partial.inputs[0].type.get_shape()
    assert parts > 1
    assert expanded_parts == parts
    assert per_part % 2 == 0


def test_split_count_stops_at_a_full_grid() -> None:
    options = SplitOptions(multiprocessors=132, min_block=64, k_step=16, min_steps=4)
    assert split_count(64, 4096, 1024, options) == 4  # 64 blocks -> 256
    assert split_count(64, 1024, 4096, options) == 16  # 16 blocks -> 256
    assert split_count(1024, 768, 3072, options) == 1  # 192 blocks: full
    assert split_count(64, 64, 128, options) == 2  # 1 block, K=128: 2 of 64
    assert split_count(64, 4096, 1024, SplitOptions()) == 1  # off
