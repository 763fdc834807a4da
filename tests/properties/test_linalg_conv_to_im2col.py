"""`linalg-conv-to-im2col` keeps meaning and fires on every convolution.

Hypothesis draws `linalg.conv_2d_nchw_fchw` on tensors as torch-mlir writes
them: batch, channels, filters, a kernel of 1 to 3 taps each way (not
square), strides and dilations of 1 or 2 each way, output sizes of 1 to 4,
the input sized to fit exactly (sometimes a `tensor.pad` of a smaller
source by a constant, which the gather folds), f32 or half-precision
operands into an f32 accumulator, and an init that is an argument or a zero
fill. The rewrite
(an im2col gather and a batch of matmuls) must change every program and
give the same results: each output is the same sum of the same products in
the same order. A planted wrong tap, stride or dilation shows as a wrong
element. Then the rewritten program goes through `lower-to-cuda` on the
grid emulator, the path the pass was built for. The row-tiled form
(`column-tile-bytes`, `lower-to-c`'s) on the same convolutions: the same
results, taken exactly where `rows_per_tile` finds tiles.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.attrs import IteratorType

from irkit.context import make_context
from irkit.dialects.linalg import Conv2DNchwFchwOp, Conv2DNhwcHwcfOp, GenericOp
from irkit.dialects.tensor import PadOp
from irkit.parsing import parse_module
from irkit.testing import check_pass
from irkit.transforms.linalg_conv_to_im2col import (
    LinalgConvToIm2colPass,
    conv_shape,
    rows_per_tile,
)

PASS = LinalgConvToIm2colPass()
# f32 sums in the same order: exact; half operands widened exactly.
TOLERANCE = {"rtol": 1e-6, "atol": 1e-6}


@st.composite
def convolutions(draw: st.DrawFn, layout: str = "nchw") -> str:
    """A convolution as torch-mlir writes it (`layout` "nchw":
    `linalg.conv_2d_nchw_fchw`), or as `linalg-convert-to-nhwc` leaves it
    ("nhwc": `linalg.conv_2d_nhwc_hwcf`, the padding of dimensions 1, 2)."""
    n = draw(st.integers(1, 2))
    c = draw(st.integers(1, 3))
    f = draw(st.integers(1, 3))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    oh, ow = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    h, w = (oh - 1) * sh + (kh - 1) * dh + 1, (ow - 1) * sw + (kw - 1) * dw + 1
    element = draw(st.sampled_from(["f32", "f16", "bf16"]))
    nhwc = layout == "nhwc"

    def image(rows: int, columns: int, channels: int, dtype: str) -> str:
        dims = (n, rows, columns, channels) if nhwc else (n, channels, rows, columns)
        return f"tensor<{'x'.join(map(str, dims))}x{dtype}>"

    x_type = image(h, w, c, element)
    filter_dims = (kh, kw, c, f) if nhwc else (f, c, kh, kw)
    w_type = f"tensor<{'x'.join(map(str, filter_dims))}x{element}>"
    out_type = image(oh, ow, f, "f32")
    lines = []
    # Padded as torch-mlir pads (`tensor.pad` of the rows and columns by a
    # constant), up to 2 on each side, the source no smaller than 1x1.
    pads = [draw(st.integers(0, min(2, size - 1))) for size in (h, h, w, w)]
    low_h, high_h, low_w, high_w = pads
    if draw(st.booleans()) and any(pads) and low_h + high_h < h and low_w + high_w < w:
        source_type = image(h - low_h - high_h, w - low_w - high_w, c, element)
        low, high = (
            ([0, low_h, low_w, 0], [0, high_h, high_w, 0])
            if nhwc
            else ([0, 0, low_h, low_w], [0, 0, high_h, high_w])
        )
        value = draw(st.sampled_from(["0.0", "-1.5"]))
        args = [f"%source: {source_type}", f"%w: {w_type}"]
        lines += [
            f"%pad_value = arith.constant {value} : {element}",
            f"%x = tensor.pad %source low{low} high{high} {{\n^bb0(%i: index, "
            f"%j: index, %k: index, %l: index):\n  tensor.yield %pad_value : "
            f"{element}\n}} : {source_type} to {x_type}",
        ]
    else:
        args = [f"%x: {x_type}", f"%w: {w_type}"]
    if draw(st.booleans()):
        lines += [
            "%zero = arith.constant 0.0 : f32",
            f"%e = tensor.empty() : {out_type}",
            f"%init = linalg.fill ins(%zero : f32) outs(%e : {out_type}) -> {out_type}",
        ]
    else:
        args.append(f"%init: {out_type}")
    name = "conv_2d_nhwc_hwcf" if nhwc else "conv_2d_nchw_fchw"
    lines.append(
        f"%y = linalg.{name} {{dilations = dense<"
        f"[{dh}, {dw}]> : vector<2xi64>, strides = dense<[{sh}, {sw}]> : "
        f"vector<2xi64>}} ins(%x, %w : {x_type}, {w_type}) outs(%init : {out_type})"
        f" -> {out_type}"
    )
    body = "\n  ".join(lines)
    return (
        f"func.func @main({', '.join(args)}) -> {out_type} {{\n  {body}\n"
        f"  return %y : {out_type}\n}}\n"
    )


def test_convolutions_become_gathers_and_matmuls() -> None:
    reach = check_pass(PASS, convolutions().map(parse_module), **TOLERANCE)
    assert reach.changed == reach.examples


@given(convolutions())
def test_no_convolution_is_left(text: str) -> None:
    module = parse_module(text)
    (conv,) = [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]
    shape = conv_shape(conv)
    assert shape is not None
    pointwise = shape.is_pointwise and "tensor.pad" not in text
    PASS.apply(make_context(), module)
    names = [op.name for op in module.walk()]
    assert "linalg.conv_2d_nchw_fchw" not in names
    # A pointwise convolution's columns are its input, reshaped: no gather.
    assert names.count("linalg.generic") == (1 if pointwise else 2)
    assert ("tensor.extract" in names) == (not pointwise)
    # A padded input is read through the gather's predicate: no copy left.
    assert "tensor.pad" not in names
    assert ("arith.select" in names) == ("tensor.pad" in text)


def test_lowered_for_cuda_on_the_grid_emulator() -> None:
    """`lower-to-cuda` (which runs the pass), small tiles so that partial
    ones occur, every stage checked on its own, the kernels on the grid
    emulator."""
    check_pass(
        "lower-to-cuda{matmul-block=4,2,3 matmul-thread=2,2 elementwise-block=4}",
        convolutions().map(parse_module),
        rtol=1e-4,
        atol=1e-4,
    )


# The row-tiled form (`column-tile-bytes`, what `lower-to-c` runs) with a
# register tile of 2 filters x 4 pixels (`vector-bits=64
# vector-registers=8`), so that the drawn convolutions of 2 or 3 filters
# and 4 or more output pixels take it; one tile at least.
ROW_TILED = LinalgConvToIm2colPass(
    column_tile_bytes=1 << 20, min_row_tiles=1, vector_bits=64, vector_registers=8
)


def _row_tiled(module: ModuleOp) -> bool:
    """Whether `module` holds the row-tiled gather: a generic of 7 loops
    computing its indices with no division."""
    gathers = [
        op
        for op in module.walk()
        if isinstance(op, GenericOp) and len(op.get_iterator_types()) == 7
    ]
    names = {op.name for op in module.walk()}
    return bool(gathers) and not names & {"arith.divui", "arith.remui"}


def _takes_row_tiles(module: ModuleOp) -> bool:
    (conv,) = [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]
    shape = conv_shape(conv)
    assert shape is not None
    pointwise = shape.is_pointwise and not any(
        isinstance(op, PadOp) for op in module.walk()
    )
    return not pointwise and rows_per_tile(shape, 4, 1 << 20, 1, (2, 4)) is not None


def test_row_tiled_convolutions_keep_meaning() -> None:
    programs = convolutions().map(parse_module).filter(_takes_row_tiles)
    reach = check_pass(ROW_TILED, programs, **TOLERANCE)
    assert reach.changed == reach.examples


@given(convolutions())
def test_row_tiles_are_taken_where_they_fit(text: str) -> None:
    module = parse_module(text)
    expected = _takes_row_tiles(module)
    ROW_TILED.apply(make_context(), module)
    assert "linalg.conv_2d_nchw_fchw" not in {op.name for op in module.walk()}
    assert _row_tiled(module) == expected


# NHWC (`linalg.conv_2d_nhwc_hwcf`, `linalg-convert-to-nhwc`'s convolutions):
# the gather `col[m, k]` over every image's pixels and one matmul
# `(N * P) x K @ K x F`; padded to multiples (the GPU's); and the CPU's form
# (`column-tile-bytes`), the gather over the window's loops.
NHWC_PADDED = LinalgConvToIm2colPass(
    pixel_multiple=4, reduction_multiple=4, filter_multiple=2, max_growth_percent=400
)
NHWC_WINDOW = LinalgConvToIm2colPass(column_tile_bytes=1 << 20)


def _nhwc_rewritten(module: ModuleOp) -> bool:
    """No NHWC convolution left, and a product over every image's pixels:
    a generic of 3 loops (m, f, k), one of them a reduction."""
    names = [op.name for op in module.walk()]
    products = [
        op
        for op in module.walk()
        if isinstance(op, GenericOp)
        and [kind.data for kind in op.iterator_types]
        == [IteratorType.PARALLEL, IteratorType.PARALLEL, IteratorType.REDUCTION]
    ]
    return "linalg.conv_2d_nhwc_hwcf" not in names and len(products) == 1


def test_nhwc_convolutions_become_gathers_and_matmuls() -> None:
    for rewrite in (PASS, NHWC_PADDED, NHWC_WINDOW):
        reach = check_pass(rewrite, convolutions("nhwc").map(parse_module), **TOLERANCE)
        assert reach.changed == reach.examples


@given(convolutions("nhwc"), st.sampled_from([PASS, NHWC_PADDED, NHWC_WINDOW]))
def test_no_nhwc_convolution_is_left(
    text: str, rewrite: LinalgConvToIm2colPass
) -> None:
    module = parse_module(text)
    (conv,) = [op for op in module.walk() if isinstance(op, Conv2DNhwcHwcfOp)]
    shape = conv_shape(conv)
    assert shape is not None
    rewrite.apply(make_context(), module)
    assert _nhwc_rewritten(module), str(module)
    names = [op.name for op in module.walk()]
    # A padded input is read through the gather's predicate: no copy left.
    assert "tensor.pad" not in names or rewrite is NHWC_PADDED
    if rewrite is PASS:
        # Unpadded: a pointwise convolution's columns are its input reshaped.
        pointwise = shape.is_pointwise and "tensor.pad" not in text
        assert ("tensor.extract" in names) == (not pointwise)
        assert names.count("linalg.generic") == (1 if pointwise else 2)
    if rewrite is NHWC_WINDOW:
        # The window's loops index the input: no division.
        assert not {"arith.divui", "arith.remui"} & set(names)


def test_nhwc_lowered_for_cuda_on_the_grid_emulator() -> None:
    """NHWC convolutions through `lower-to-cuda` (small tiles, partial ones),
    every stage checked, the kernels on the grid emulator."""
    check_pass(
        "lower-to-cuda{matmul-block=4,2,3 matmul-thread=2,2 elementwise-block=4}",
        convolutions("nhwc").map(parse_module),
        rtol=1e-4,
        atol=1e-4,
    )
