"""`linalg-pack-operands` keeps meaning: matmuls of random shapes (most of
which no cache or register tile divides, so every peeled region is drawn),
plain or with a transposed rhs, and batch matmuls (the batch at any
position, or not read by the lhs, as a convolution's weights), packed with
small drawn tiles and checked on the interpreter; and random shapes through
`lower-to-c` (batch, transposed weights, a bias-and-ReLU epilogue) on
AVX-512's facts, built with the C compiler, against the interpreter, with
the vectorised micro-kernels asserted to be there."""

from __future__ import annotations

import itertools
import operator
from math import prod
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

import irkit
from irkit.analysis.structured import REGISTER_TILE_ATTR
from irkit.context import make_context
from irkit.dialects import memref
from irkit.dialects.linalg import GenericOp
from irkit.dialects.scf import ForOp, ParallelOp
from irkit.dialects.vector import FMAOp
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import check_pass
from irkit.transforms.linalg_pack_operands import (
    LinalgPackOperandsPass,
    _in_parallel_loop,
    _run_bound,
    _split_index,
    segments,
)
from irkit.transforms.pipelines import LowerToCPipeline

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


def batch_matmul_text(
    batch: int, m: int, n: int, k: int, layout: str, shared_lhs: bool
) -> str:
    """A batch matmul `out[b, i, j] += lhs[b, i, l] * rhs[...]`: `layout`
    "leading" (rhs `[b, l, j]`) or "middle" (rhs `[l, b, j]`, as LLaMA's
    values are read); `shared_lhs`: the lhs has no batch dimension."""
    lhs_map, lhs = (
        ("(d1, d3)", f"{m}x{k}") if shared_lhs else ("(d0, d1, d3)", f"{batch}x{m}x{k}")
    )
    if layout == "leading":
        rhs_map, rhs = "(d0, d3, d2)", f"{batch}x{k}x{n}"
    else:
        rhs_map, rhs = "(d3, d0, d2)", f"{k}x{batch}x{n}"
    out = f"{batch}x{m}x{n}"
    return f"""
func.func @main(%a: tensor<{lhs}xf32>, %b: tensor<{rhs}xf32>) -> tensor<{out}xf32> {{
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<{out}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<{out}xf32>) -> tensor<{out}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> {lhs_map}>,
      affine_map<(d0, d1, d2, d3) -> {rhs_map}>,
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}}
      ins(%a, %b : tensor<{lhs}xf32>, tensor<{rhs}xf32>) outs(%init : tensor<{out}xf32>) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> tensor<{out}xf32>
  return %r : tensor<{out}xf32>
}}"""


@st.composite
def batch_matmuls_on_buffers(draw: st.DrawFn) -> ModuleOp:
    text = batch_matmul_text(
        draw(st.sampled_from([2, 9])),  # a loop over matrices; one per thread
        draw(st.integers(2, 7)),
        draw(st.integers(8, 19)),
        draw(st.integers(1, 6)),
        draw(st.sampled_from(["leading", "middle"])),
        draw(st.booleans()),
    )
    module = parse_module(text)
    Pipeline.parse(ON_BUFFERS).run(make_context(), module)
    return module


def test_packing_batch_matmuls_keeps_meaning() -> None:
    packing = LinalgPackOperandsPass(
        cache_tile_sizes=(4, 16, 3), vector_bits=128, vector_registers=7
    )
    reach = check_pass(packing, batch_matmuls_on_buffers(), min_fired=5)
    assert reach.changed >= reach.examples // 2


def linear_text(
    batch: int, rows: int, inner: int, outer: int, transposed: bool, epilogue: bool
) -> str:
    """`relu(x @ w^T + bias)` as nn.Linear writes it (`transposed`: `w` is
    `outer x inner`, read through a transpose), or a batch of `x @ w`."""
    if batch > 1:
        return batch_matmul_text(batch, rows, outer, inner, "leading", False)
    w = f"{outer}x{inner}" if transposed else f"{inner}x{outer}"
    weight = "%wt" if transposed else "%w"
    transpose = (
        f"""
  %wt_init = tensor.empty() : tensor<{inner}x{outer}xf32>
  %wt = linalg.transpose ins(%w : tensor<{w}xf32>) outs(%wt_init : tensor<{inner}x{outer}xf32>) permutation = [1, 0]"""
        if transposed
        else ""
    )
    out = f"tensor<{rows}x{outer}xf32>"
    result = "%r"
    tail = ""
    if epilogue:
        result = "%act"
        tail = f"""
  %act = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}}
      ins(%r, %bias : {out}, tensor<{outer}xf32>) outs(%empty : {out}) {{
  ^bb0(%v: f32, %c: f32, %o: f32):
    %sum = arith.addf %v, %c : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }} -> {out}"""
    return f"""
func.func @main(%x: tensor<{rows}x{inner}xf32>, %w: tensor<{w}xf32>, %bias: tensor<{outer}xf32>) -> {out} {{
  %zero = arith.constant 0.0 : f32{transpose}
  %empty = tensor.empty() : {out}
  %init = linalg.fill ins(%zero : f32) outs(%empty : {out}) -> {out}
  %r = linalg.matmul ins(%x, {weight} : tensor<{rows}x{inner}xf32>, tensor<{inner}x{outer}xf32>) outs(%init : {out}) -> {out}{tail}
  return {result} : {out}
}}"""


AVX512_C = "lower-to-c{vector-bits=512 vector-registers=32}"


@settings(max_examples=6)
@given(
    batch=st.sampled_from([1, 1, 3, 9]),
    rows=st.integers(14, 45),
    inner=st.integers(2, 70),
    outer=st.integers(32, 80),
    transposed=st.booleans(),
    epilogue=st.booleans(),
)
def test_lower_to_c_runs_packed_micro_kernels(
    batch: int, rows: int, inner: int, outer: int, transposed: bool, epilogue: bool
) -> None:
    # Shapes no register tile (14 x 32) divides, tails of rows and columns,
    # in C against the interpreter: the packed, vectorised kernels fire.
    program = linear_text(batch, rows, inner, outer, transposed, epilogue)
    lowered = parse_module(program)
    Pipeline.parse(AVX512_C).run(make_context(), lowered)
    fmas = [op for op in lowered.walk() if isinstance(op, FMAOp)]
    assert fmas, "no vectorised micro-kernel"
    assert not any(REGISTER_TILE_ATTR in op.attributes for op in lowered.walk())
    compiled = irkit.compile(program, target="c", pipeline=AVX512_C)
    rng = np.random.default_rng(batch * rows * inner * outer)
    module = parse_module(program)
    arguments = []
    for argument in module.ops.first.body.block.args:  # type: ignore[union-attr]
        shape = argument.type.get_shape()
        arguments.append(rng.uniform(-1, 1, shape).astype(np.float32))
    (result,) = compiled(*arguments)
    (expected,) = irkit.interpret(program, *arguments)
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5 * max(inner, 1))


def test_segments_cover_the_range_in_order() -> None:
    for extent in range(1, 60):
        found = segments(extent, 12, 6)
        assert sum(segment.size for segment in found) == extent
        assert [s.offset for s in found] == sorted(s.offset for s in found)
        assert all(s.tile == 0 or s.size % s.tile == 0 for s in found)
        assert all(s.tile == 0 or s.tile % 6 == 0 for s in found)
        assert all(s.tile or s.size < 6 for s in found)


def _index_value(value: SSAValue, arguments: dict[SSAValue, int]) -> int:
    """The integer the index arithmetic computing `value` gives (constants,
    `arith.muli`, `divui`, `remui`, `addi`) for its block arguments'
    values `arguments`."""
    if value in arguments:
        return arguments[value]
    op = value.owner
    assert isinstance(op, Operation)
    if isinstance(op, arith.ConstantOp):
        return cast(IntegerAttr[Any], op.value).value.data
    left, right = (_index_value(operand, arguments) for operand in op.operands)
    combine = {
        arith.MuliOp: operator.mul,
        arith.DivUIOp: operator.floordiv,
        arith.RemUIOp: operator.mod,
        arith.AddiOp: operator.add,
    }
    return combine[type(op)](left, right)


def test_split_index_is_row_major() -> None:
    # Every linear index of every shape below 64 matrices (extents of 1
    # anywhere): the indices NumPy's unravel_index gives.
    for rank in (1, 2, 3):
        for extents in itertools.product((1, 2, 3, 4), repeat=rank):
            block = Block(arg_types=[IndexType()])
            indices = _split_index(block.args[0], extents, InsertPoint.at_end(block))
            for linear in range(prod(extents)):
                found = [_index_value(i, {block.args[0]: linear}) for i in indices]
                assert found == [int(i) for i in np.unravel_index(linear, extents)]


def test_worker_runs_cover_the_batch_in_order() -> None:
    # The runs `w * M / W` to `(w + 1) * M / W` of W <= M workers: each one
    # matrix or more, together [0, M), contiguous and in order.
    for matrices in range(1, 70):
        for workers in range(1, min(matrices, 16) + 1):
            block = Block(arg_types=[IndexType()])
            at = InsertPoint.at_end(block)
            bounds = [
                _run_bound(block.args[0], end, matrices, workers, at) for end in (0, 1)
            ]
            runs = [
                [_index_value(b, {block.args[0]: worker}) for b in bounds]
                for worker in range(workers)
            ]
            assert runs[0][0] == 0
            assert runs[-1][1] == matrices
            assert all(first < last for first, last in runs)
            assert all(a[1] == b[0] for a, b in itertools.pairwise(runs))


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


@st.composite
def row_tiled_convolutions(
    draw: st.DrawFn,
    out_rows: st.SearchStrategy[int] = st.sampled_from([8, 9, 16]),
    out_columns: st.SearchStrategy[int] = st.integers(4, 6),
    batch: st.SearchStrategy[int] = st.integers(1, 2),
) -> str:
    """A convolution as torch-mlir writes it (sometimes a padded input, a
    fill or an argument init) with output rows enough for 8 row tiles, so
    that `linalg-conv-to-im2col{column-tile-bytes}` takes the row-tiled form
    and its batch of matmuls is packed one matrix per parallel iteration."""
    n, c, f = draw(batch), draw(st.integers(1, 3)), draw(st.integers(2, 4))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    if (kh, kw, sh, sw) == (1, 1, 1, 1):
        kw = 2  # a pointwise convolution needs no gather
    oh, ow = draw(out_rows), draw(out_columns)
    h, w = (oh - 1) * sh + (kh - 1) * dh + 1, (ow - 1) * sw + (kw - 1) * dw + 1
    x_type = f"tensor<{n}x{c}x{h}x{w}xf32>"
    w_type = f"tensor<{f}x{c}x{kh}x{kw}xf32>"
    out_type = f"tensor<{n}x{f}x{oh}x{ow}xf32>"
    args, lines = [f"%w: {w_type}"], []
    if draw(st.booleans()) and h > 2 and w > 2:
        source_type = f"tensor<{n}x{c}x{h - 2}x{w - 2}xf32>"
        args.insert(0, f"%source: {source_type}")
        lines += [
            "%pad_value = arith.constant 0.0 : f32",
            f"%x = tensor.pad %source low[0, 0, 1, 1] high[0, 0, 1, 1] {{\n"
            "^bb0(%i: index, %j: index, %k: index, %l: index):\n"
            f"  tensor.yield %pad_value : f32\n}} : {source_type} to {x_type}",
        ]
    else:
        args.insert(0, f"%x: {x_type}")
    if draw(st.booleans()):
        lines += [
            "%zero = arith.constant 0.0 : f32",
            f"%e = tensor.empty() : {out_type}",
            f"%init = linalg.fill ins(%zero : f32) outs(%e : {out_type}) -> {out_type}",
        ]
    else:
        args.append(f"%init: {out_type}")
    lines.append(
        "%y = linalg.conv_2d_nchw_fchw {dilations = dense<"
        f"[{dh}, {dw}]> : vector<2xi64>, strides = dense<[{sh}, {sw}]> : "
        f"vector<2xi64>}} ins(%x, %w : {x_type}, {w_type}) outs(%init : {out_type})"
        f" -> {out_type}"
    )
    body = "\n  ".join(lines)
    return (
        f"func.func @main({', '.join(args)}) -> {out_type} {{\n  {body}\n"
        f"  return %y : {out_type}\n}}\n"
    )


# A register tile of 2 filters x 4 pixels (64-bit vectors, 8 registers):
# the drawn convolutions' products hold several.
SMALL_VECTORS = "vector-bits=64 vector-registers=8"
ROW_TILED_PACKED = (
    "convert-nn-to-linalg,"
    f"linalg-conv-to-im2col{{column-tile-bytes=1048576 {SMALL_VECTORS}}},"
    f"linalg-generalize-named-ops,bufferize,linalg-pack-operands{{{SMALL_VECTORS}}}"
)


def _gathers_in_parallel_loops(module: ModuleOp) -> tuple[int, int]:
    """The im2col gathers (generics reading no operand, loading from
    memory) of `module`: how many there are, and how many run inside an
    `scf.parallel`."""
    gathers = [
        op
        for op in module.walk()
        if isinstance(op, GenericOp)
        and not op.inputs
        and any(isinstance(inner, memref.LoadOp) for inner in op.body.walk())
    ]
    inside = [op for op in gathers if _in_parallel_loop(op)]
    return len(gathers), len(inside)


def _fused(module: ModuleOp) -> bool:
    count, inside = _gathers_in_parallel_loops(module)
    return count == inside == 1


def test_row_tiled_gathers_run_per_matrix() -> None:
    """Each tile's gather moves into its matmul's parallel iteration (and
    the whole pipeline up to there keeps meaning, stage by stage)."""
    reach = check_pass(
        ROW_TILED_PACKED,
        row_tiled_convolutions().map(parse_module),
        rtol=1e-5,
        atol=1e-5,
    )
    assert reach.changed == reach.examples


@given(row_tiled_convolutions())
def test_every_row_tiled_gather_is_fused(text: str) -> None:
    module = parse_module(text)
    Pipeline.parse(ROW_TILED_PACKED).run(make_context(), module)
    assert _fused(module)


# Two images of 9 one-row tiles: 18 matrices, more than the 16 parallel
# iterations, so the columns go into 16 workers' slots.
MORE_MATRICES_THAN_WORKERS = row_tiled_convolutions(st.just(9), batch=st.just(2))


def _column_slots(module: ModuleOp) -> list[tuple[int, ...]]:
    """The shapes of the slots buffers that hold the gathers' columns."""
    return [
        tuple(cast(MemRefType[Attribute], op.memref.type).get_shape())
        for op in module.walk()
        if isinstance(op, memref.AllocOp) and op.memref.name_hint == "slots"
    ]


def test_row_tiled_columns_in_worker_slots_keep_meaning() -> None:
    reach = check_pass(
        ROW_TILED_PACKED,
        MORE_MATRICES_THAN_WORKERS.map(parse_module),
        rtol=1e-5,
        atol=1e-5,
    )
    assert reach.changed == reach.examples


@settings(max_examples=5)
@given(MORE_MATRICES_THAN_WORKERS)
def test_row_tiled_columns_take_one_slot_per_worker(text: str) -> None:
    """Each of the 16 workers gathers its run of matrices into its own
    slot, one after the other (an `scf.for` in the parallel loop): the
    columns' buffer holds 16 matrices, not the batch's 18."""
    module = parse_module(text)
    Pipeline.parse(ROW_TILED_PACKED).run(make_context(), module)
    assert _fused(module)
    slots = _column_slots(module)
    assert len(slots) == 1
    assert slots[0][:2] == (16, 1)
    # The slot is taken in a run (an `scf.for`) of a parallel iteration.
    (slot,) = [
        op
        for op in module.walk()
        if isinstance(op, memref.SubviewOp) and op.source.name_hint == "slots"
    ]
    run = slot.parent_op()
    assert isinstance(run, ForOp)
    assert isinstance(run.parent_op(), ParallelOp)
    assert not any(
        isinstance(op, memref.AllocOp)
        and cast(MemRefType[Attribute], op.memref.type).get_shape()[:2] == (2, 9)
        for op in module.walk()
    )


CONV_C = "lower-to-c{vector-bits=512 vector-registers=8}"


@pytest.mark.parametrize(
    ("images", "out_rows", "out_columns", "slots"), [(1, 16, 16, 8), (2, 9, 32, 16)]
)
@settings(max_examples=2)
@given(data=st.data())
def test_lower_to_c_runs_row_tiled_convolutions(
    images: int, out_rows: int, out_columns: int, slots: int, data: st.DataObject
) -> None:
    # 2 x 32 register tiles (AVX-512's lanes, 8 registers): 16 x 16 outputs
    # give 8 tiles of 2 rows an image, each gathered in its matmul's
    # iteration into its own slot; two images of 9 x 32 give 18 tiles of
    # one row, run on 16 workers (runs of 1 or 2 matrices in each worker's
    # slot); natively in C against the interpreter.
    text = data.draw(
        row_tiled_convolutions(
            st.just(out_rows), st.just(out_columns), batch=st.just(images)
        )
    )
    lowered = parse_module(text)
    stages = LowerToCPipeline(vector_bits=512, vector_registers=8).stages()
    packing = [stage.name for stage in stages].index("linalg-pack-operands")
    Pipeline(stages[: packing + 1]).run(make_context(), lowered)
    assert _fused(lowered)
    assert [shape[0] for shape in _column_slots(lowered)] == [slots]
    compiled = irkit.compile(text, target="c", pipeline=CONV_C)
    rng = np.random.default_rng(len(text))
    module = parse_module(text)
    arguments = [
        rng.uniform(-1, 1, argument.type.get_shape()).astype(np.float32)
        for argument in module.ops.first.body.block.args  # type: ignore[union-attr]
    ]
    (result,) = compiled(*arguments)
    (expected,) = irkit.interpret(text, *arguments)
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)
