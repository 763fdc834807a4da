"""A convolution is one kernel: its epilogue runs in its matmul's kernel
(issue 18, item 2), and its im2col gather in the matmul's staging of the
column tiles (item 1, `linalg-tile-for-gpu{fuse-producers}`).

Hypothesis draws a `linalg.conv_2d_nchw_fchw` as torch-mlir writes a ResNet
layer (batch, 2 or 3 channels, 2 to 5 filters, kernels of 1 or 3 taps,
strides 1 or 2, a 3x3 kernel's dilation 1 or 2, a zero `tensor.pad` of the
input or none, a zero-filled init) followed by an
epilogue in torch-mlir's form, 4-D generics over NCHW reading per-channel
vectors expanded to `F x 1 x 1` through `(d1, 0, 0)`: any of a bias, a
folded batch norm (`(x - mean) * (1 / sqrt(var + eps)) * weight + bias`,
its scale computed per call from the variance, with torch-mlir's assert),
a ReLU and a residual add. Lowered with `lower-to-cuda` in small tiles (so
the matmul's columns and reduction are padded, `linalg-conv-to-im2col`,
and blocks fall wholly in the padding, `linalg-tile-for-gpu`):

- the convolution with its epilogue is one kernel: the matmul, its fill
  and epilogue in its grid, the gather and the weights' padding (where the
  convolution alone, before, needed them) in its K steps;
- the kernels on the grid emulator give the interpreter's results on the
  original program.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.analysis.structured import is_fill
from irkit.context import make_context
from irkit.dialects.linalg import GenericOp
from irkit.interpreter import Interpreter, run_function
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.runtime import lower
from irkit.testing import compare_arrays, random_arguments
from irkit.transforms.linalg_conv_to_im2col import LinalgConvToIm2colPass

# Block tiles of 8 filters by 8 pixels (the convolutions' own too), K steps of 4: columns and rows
# padded where the drawn extents are not multiples; 4 threads a block.
PIPELINE = (
    "lower-to-cuda{matmul-block=8,8,4 matmul-thread=4,4 conv-block=8,8,4 "
    "conv-thread=4,4 elementwise-block=32 matmul-cyclic=false merge-images=false}"
)
# The same tiles with small images convolved side by side (`merge-images`,
# below 4 x 8 pixels: every drawn image at batch 2).
MERGED = PIPELINE.replace("merge-images=false", "merge-images=true")
# Columns padded to multiples of 12 pixels, blocks of 8 (as `fill_the_grid`
# shrinks the blocks of a short grid on the GPU below the multiple the
# columns were padded to): a product padded from 16 pixels to 24 has a block
# wholly in the padding, whose epilogue tile is empty. Cyclic thread tiles.
WIDE_PADDING = (
    "linalg-conv-to-im2col{pixel-multiple=12 reduction-multiple=4},"
    "lower-to-cuda{matmul-block=8,8,4 matmul-thread=2,2 conv-block=8,8,4 "
    "conv-thread=2,2 elementwise-block=32 matmul-cyclic=true merge-images=false}"
)
FOUR_BY_FOUR = """
func.func @main(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>,
                %b: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x3x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x3x4x4xf32>)
      -> tensor<1x3x4x4xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
      strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>)
      outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %bc = tensor.expand_shape %b [[0, 1, 2]] output_shape [3, 1, 1]
      : tensor<3xf32> into tensor<3x1x1xf32>
  %r = linalg.generic {indexing_maps = [
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
      affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>,
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bc : tensor<1x3x4x4xf32>, tensor<3x1x1xf32>)
      outs(%empty : tensor<1x3x4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}
"""
EPILOGUES = ("bias", "batch_norm", "relu", "residual")
CHANNEL_MAP = "affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>"
IDENTITY = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
PARALLEL4 = '["parallel", "parallel", "parallel", "parallel"]'


def _elementwise(
    result: str, ins: list[tuple[str, str, str]], body: str, out: str
) -> str:
    """A 4-D generic over `out` reading (value, type, map) `ins`, whose body
    computes `%r` from the block arguments `%a0`, `%a1`, ..."""
    values = ", ".join(value for value, _, _ in ins)
    types = ", ".join(type_ for _, type_, _ in ins)
    maps = ", ".join([map_ for _, _, map_ in ins] + [IDENTITY])
    args = ", ".join(f"%a{i}: f32" for i in range(len(ins)))
    return (
        f"%{result} = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
        f"{PARALLEL4}}} ins({values} : {types}) outs(%empty : {out}) {{\n"
        f"  ^bb0({args}, %o: f32):\n    {body}\n    linalg.yield %r : f32\n"
        f"  }} -> {out}"
    )


@st.composite
def conv_layers(draw: st.DrawFn) -> tuple[str, str]:
    """(the layer with its epilogue, the convolution alone)."""
    n = draw(st.integers(1, 2))
    # Two channels and filters at least: a 1x1 convolution of one channel
    # into one filter is no matmul once its unit loops are dropped.
    c = draw(st.integers(2, 3))
    f = draw(st.integers(2, 5))
    k = draw(st.sampled_from([1, 3]))
    stride = draw(st.integers(1, 2))
    pad = draw(st.integers(0, 1)) if k == 3 else 0
    dilation = draw(st.integers(1, 2)) if k == 3 else 1
    oh, ow = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    window = (k - 1) * dilation + 1
    h, w = (oh - 1) * stride + window - 2 * pad, (ow - 1) * stride + window - 2 * pad
    # At least one epilogue op (alone, a padded product's corner is copied
    # into the result: a kernel the epilogue otherwise is).
    chosen = draw(st.sets(st.sampled_from(EPILOGUES), min_size=1))
    epilogue = [e for e in EPILOGUES if e in chosen]
    x_type = f"tensor<{n}x{c}x{h}x{w}xf32>"
    padded_type = f"tensor<{n}x{c}x{h + 2 * pad}x{w + 2 * pad}xf32>"
    w_type = f"tensor<{f}x{c}x{k}x{k}xf32>"
    out = f"tensor<{n}x{f}x{oh}x{ow}xf32>"
    vector, column = f"tensor<{f}xf32>", f"tensor<{f}x1x1xf32>"
    args = [f"%x: {x_type}", f"%w: {w_type}"]
    lines = [
        "%zero = arith.constant 0.0 : f32",
        f"%empty = tensor.empty() : {out}",
        f"%init = linalg.fill ins(%zero : f32) outs(%empty : {out}) -> {out}",
    ]
    source = "%x"
    if pad:
        lines.append(
            f"%padded = tensor.pad %x low[0, 0, {pad}, {pad}] high[0, 0, {pad}, "
            f"{pad}] {{\n^bb0(%i: index, %j: index, %k: index, %l: index):\n"
            f"  tensor.yield %zero : f32\n}} : {x_type} to {padded_type}"
        )
        source = "%padded"
    lines.append(
        f"%y0 = linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}> : "
        "vector<2xi64>, "
        f"strides = dense<{stride}> : vector<2xi64>}} ins({source}, %w : "
        f"{padded_type if pad else x_type}, {w_type}) outs(%init : {out}) -> {out}"
    )
    conv_only = (
        f"func.func @main({', '.join(args)}) -> {out} {{\n  "
        + "\n  ".join(lines)
        + f"\n  return %y0 : {out}\n}}\n"
    )
    current = "%y0"
    for step, kind in enumerate(epilogue):
        result = f"y{step + 1}"
        if kind in ("bias", "batch_norm"):
            names = ["bias"] if kind == "bias" else ["mean", "var", "gamma", "beta"]
            for name in names:
                args.append(f"%{name}{step}: {vector}")
                lines.append(
                    f"%{name}{step}_c = tensor.expand_shape %{name}{step} "
                    f"[[0, 1, 2]] output_shape [{f}, 1, 1] : {vector} into {column}"
                )
        if kind == "bias":
            lines.append(
                _elementwise(
                    result,
                    [(current, out, IDENTITY), (f"%bias{step}_c", column, CHANNEL_MAP)],
                    "%r = arith.addf %a0, %a1 : f32",
                    out,
                )
            )
        elif kind == "batch_norm":
            lines += [
                "%eps = arith.constant 1.0e-05 : f32",
                "%one = arith.constant 1.0 : f32",
                f"%e{step} = tensor.empty() : {vector}",
                f"%scale{step} = linalg.generic {{indexing_maps = [affine_map<(d0) "
                f"-> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = "
                f'["parallel"]}} ins(%var{step} : {vector}) outs(%e{step} : '
                f"{vector}) {{\n  ^bb0(%v: f32, %o: f32):\n"
                "    %va = math.absf %v : f32\n"
                "    %s = arith.addf %va, %eps : f32\n"
                "    %q = math.sqrt %s : f32\n"
                "    %nz = arith.cmpf one, %q, %zero : f32\n"
                '    cf.assert %nz, "unimplemented: tensor with zero element"\n'
                "    %r = arith.divf %one, %q : f32\n"
                f"    linalg.yield %r : f32\n  }} -> {vector}",
                f"%scale{step}_c = tensor.expand_shape %scale{step} [[0, 1, 2]] "
                f"output_shape [{f}, 1, 1] : {vector} into {column}",
                _elementwise(
                    f"{result}_n",
                    [
                        (current, out, IDENTITY),
                        (f"%mean{step}_c", column, CHANNEL_MAP),
                        (f"%scale{step}_c", column, CHANNEL_MAP),
                    ],
                    "%d = arith.subf %a0, %a1 : f32\n    %r = arith.mulf %d, %a2 : f32",
                    out,
                ),
                _elementwise(
                    result,
                    [
                        (f"%{result}_n", out, IDENTITY),
                        (f"%gamma{step}_c", column, CHANNEL_MAP),
                        (f"%beta{step}_c", column, CHANNEL_MAP),
                    ],
                    "%g = arith.mulf %a0, %a1 : f32\n    %r = arith.addf %g, %a2 : f32",
                    out,
                ),
            ]
        elif kind == "relu":
            lines.append(
                _elementwise(
                    result,
                    [(current, out, IDENTITY)],
                    "%p = arith.cmpf ugt, %a0, %zero : f32\n"
                    "    %r = arith.select %p, %a0, %zero : f32",
                    out,
                )
            )
        else:
            args.append(f"%skip{step}: {out}")
            lines.append(
                _elementwise(
                    result,
                    [(current, out, IDENTITY), (f"%skip{step}", out, IDENTITY)],
                    "%r = arith.addf %a0, %a1 : f32",
                    out,
                )
            )
        current = f"%{result}"
    layer = (
        f"func.func @main({', '.join(args)}) -> {out} {{\n  "
        + "\n  ".join(lines)
        + f"\n  return {current} : {out}\n}}\n"
    )
    return layer, conv_only


def _launches(text: str, pipeline: str) -> tuple[ModuleOp, int]:
    module = parse_module(text)
    lower(module, pipeline, target="cuda")
    count = sum(op.name == "gpu.launch_func" for op in module.walk())
    return module, count


def _check_on_the_emulator(text: str, pipeline: str) -> None:
    layer, _ = _launches(text, pipeline)
    original = Interpreter(parse_module(text))
    lowered = Interpreter(layer)
    args = random_arguments(original.function("main"), np.random.default_rng(0))
    (expected,) = run_function(original, "main", [a.copy() for a in args])
    got = run_function(lowered, "main", [a.copy() for a in args])
    difference = compare_arrays(
        np.asarray(expected), np.asarray(got[0]), rtol=1e-4, atol=1e-4
    )
    assert difference is None, difference.describe()


def _kernels_of_the_convolution(conv_only: str) -> int:
    """The kernels a convolution needs apart (`fuse-producers=false`): the
    ops `linalg-conv-to-im2col` makes of it (with the pipeline's multiples)
    other than fills, which run in the matmul's grid: the gather (unless
    pointwise), the weights' padding (if K grows), the matmul."""
    module = parse_module(conv_only)
    im2col = LinalgConvToIm2colPass(
        pixel_multiple=8, reduction_multiple=4, filter_multiple=8
    )
    im2col.apply(make_context(), module)
    return sum(isinstance(op, GenericOp) and not is_fill(op) for op in module.walk())


# Each example lowers two programs and runs one on the grid emulator.
@settings(max_examples=15)
@given(conv_layers())
def test_the_epilogue_runs_in_the_matmul_kernel(layers: tuple[str, str]) -> None:
    layer, conv_only = layers
    _, launches = _launches(layer, PIPELINE)
    assert launches == 1, layer
    event(f"{_kernels_of_the_convolution(conv_only) - 1} producer(s) fused")
    _check_on_the_emulator(layer, PIPELINE)


def _merges_images(conv_only: str) -> bool:
    """Whether `linalg-conv-to-im2col` convolves the images of `conv_only`
    side by side with `MERGED`'s options: a 2-D product (no batch loop)."""
    module = parse_module(conv_only)
    im2col = LinalgConvToIm2colPass(
        pixel_multiple=8,
        reduction_multiple=4,
        filter_multiple=8,
        gather_multiples=(8, 8, 4),
        merge_images_below=32,
    )
    im2col.apply(make_context(), module)
    return any(
        isinstance(op, GenericOp)
        and len(op.iterator_types) == 3
        and "reduction" in str(op.iterator_types)
        for op in module.walk()
    )


@settings(max_examples=15)
@given(conv_layers())
def test_images_convolved_side_by_side_keep_meaning(layers: tuple[str, str]) -> None:
    """Small images at batch 2 are one matmul over both images' columns,
    reordered into the result (`merge-images`); the layer, epilogue and all,
    computes the same on the grid emulator. Batch 1 and 1x1 stride-1
    convolutions keep the batched form (the event tells them apart)."""
    layer, conv_only = layers
    merged = _merges_images(conv_only)
    event("images side by side" if merged else "a batch of matmuls")
    _check_on_the_emulator(layer, MERGED)


def test_images_side_by_side_are_reached() -> None:
    """Two 4x4 images, a 3x3 convolution: merged (the property's events
    count how often; this one always)."""
    two_images = FOUR_BY_FOUR.replace("1x2x6x6", "2x2x6x6").replace(
        "1x3x4x4", "2x3x4x4"
    )
    conv_only = two_images.split("%bc =")[0] + "  return %y : tensor<2x3x4x4xf32>\n}\n"
    assert _merges_images(conv_only)
    _check_on_the_emulator(two_images, MERGED)


def _has_empty_epilogue_tiles(text: str) -> bool:
    """Whether `linalg-tile-for-gpu` gave some epilogue block an empty tile
    (`affine.max(0, ...)`) when lowering `text` with `WIDE_PADDING`."""
    module = parse_module(text)
    for stage in Pipeline.parse(WIDE_PADDING).passes:
        stage.apply(make_context(), module)
        if stage.name == "linalg-tile-for-gpu":
            break
    return any(op.name == "affine.max" for op in module.walk())


@settings(max_examples=15)
@given(conv_layers())
def test_blocks_past_the_pixels_skip_the_epilogue(layers: tuple[str, str]) -> None:
    layer, _ = layers
    _check_on_the_emulator(layer, WIDE_PADDING)
    wide = _has_empty_epilogue_tiles(layer)
    event("a block wholly in the padding" if wide else "no block in the padding")


def test_a_block_wholly_in_the_padding_is_reached() -> None:
    """4x4 outputs (16 pixels) padded to 24 columns in blocks of 8."""
    assert _has_empty_epilogue_tiles(FOUR_BY_FOUR)
    _check_on_the_emulator(FOUR_BY_FOUR, WIDE_PADDING)


HALF_CONVOLUTION = """
func.func @main(%x: tensor<1x16x8x8xf16>, %w: tensor<64x16x3x3xf16>,
                %b: tensor<64xf32>) -> tensor<1x64x8x8xf16> {
  %zero = arith.constant 0.0 : f32
  %hzero = arith.constant 0.0 : f16
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %hzero : f16
  } : tensor<1x16x8x8xf16> to tensor<1x16x10x10xf16>
  %empty = tensor.empty() : tensor<1x64x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x64x8x8xf32>)
      -> tensor<1x64x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
      strides = dense<1> : vector<2xi64>}
      ins(%padded, %w : tensor<1x16x10x10xf16>, tensor<64x16x3x3xf16>)
      outs(%init : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %bc = tensor.expand_shape %b [[0, 1, 2]] output_shape [64, 1, 1]
      : tensor<64xf32> into tensor<64x1x1xf32>
  %eh = tensor.empty() : tensor<1x64x8x8xf16>
  %r = linalg.generic {indexing_maps = [
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
      affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>,
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bc : tensor<1x64x8x8xf32>, tensor<64x1x1xf32>)
      outs(%eh : tensor<1x64x8x8xf16>) {
  ^bb0(%a: f32, %c: f32, %o: f16):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x64x8x8xf16>
  return %r : tensor<1x64x8x8xf16>
}
"""


@pytest.mark.parametrize(
    ("wgmma", "product", "kernels"),
    [(False, "mma.sync", 2), (True, "mma.warpgroup_mma", 3)],
    ids=["mma.sync", "wgmma"],
)
def test_a_half_convolution_runs_on_tensor_cores(
    wgmma: bool, product: str, kernels: int
) -> None:
    """f16 operands into f32: the columns are the matmul's B (`K x P`), the
    weights its A, so `convert-linalg-to-mma` takes it (it ran on the SIMT
    tiles while the columns came first), with its epilogue (bias, ReLU, the
    cast to f16) on the accumulators. Kernels: the gather and the tensor-core
    matmul with its epilogue; with warpgroup products K (144) is padded to
    their K step (192), the weights by one small kernel of their own."""
    pipeline = f"lower-to-cuda{{wgmma={str(wgmma).lower()}}}"
    module, launches = _launches(HALF_CONVOLUTION, pipeline)
    assert any(op.name == product for op in module.walk())
    assert launches == kernels
    original = Interpreter(parse_module(HALF_CONVOLUTION))
    args = random_arguments(original.function("main"), np.random.default_rng(0))
    (expected,) = run_function(original, "main", [a.copy() for a in args])
    (got,) = run_function(Interpreter(module), "main", [a.copy() for a in args])
    difference = compare_arrays(
        np.asarray(expected), np.asarray(got), rtol=4e-3, atol=4e-3
    )
    assert difference is None, difference.describe()
