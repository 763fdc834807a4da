"""Convolutions as implicit GEMMs on the GPU (issue 18, item 1).

`linalg-conv-to-im2col` makes a convolution an im2col gather and a batch of
matmuls; `linalg-tile-for-gpu{fuse-producers}` then runs the gather (and
the zero-padded weights' op) while each K step's column (weight) tile is
staged in workgroup memory, so the columns never reach global memory.

Hypothesis draws f32 convolutions as `tests/properties/
test_linalg_conv_to_im2col.py` does (batch, channels, filters, kernels of 1
to 3 taps each way, strides and dilations of 1 or 2 each way, a constant
`tensor.pad` of the input or none, a fill or an argument init), lowered with
`lower-to-cuda` in small tiles (partial block tiles, columns and K padded
to the tiles), and checks:

- the rewrite fires: every gather (and weights' padding) is gone from the
  launch plan, `fuse-producers=false` launching that many kernels more;
- the kernels on the grid emulator give the interpreter's results on the
  original program (f32 sums in the same order, but the emulator's f32
  products may round apart from NumPy's: 1e-4).
"""

from __future__ import annotations

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.analysis.contraction_fusion import has_gathered_operand
from irkit.analysis.structured import is_contraction, is_fill
from irkit.context import make_context
from irkit.dialects.linalg import Conv2DNchwFchwOp, Conv2DNhwcHwcfOp, GenericOp
from irkit.interpreter import Interpreter, run_function
from irkit.parsing import parse_module
from irkit.runtime import lower
from irkit.testing import compare_arrays, random_arguments
from irkit.transforms.linalg_conv_to_im2col import LinalgConvToIm2colPass, conv_shape
from irkit.transforms.pipelines import LowerToCudaPipeline
from tests.properties.test_linalg_conv_to_im2col import convolutions

# Block tiles of 4 filters by 4 pixels, K steps of 3, 2x2 threads, for the
# implicit GEMMs too (`conv-block`, which they are padded to): partial tiles
# along every loop for most drawn shapes.
TILES = (
    "matmul-block=4,4,3 matmul-thread=2,2 conv-block=4,4,3 conv-thread=2,2 "
    "elementwise-block=8"
)
# With a device of 16 multiprocessors, a short grid splits its matmul's
# reduction into parts (`linalg-split-reduction{min-block=4}`), which read
# the columns through an `expand_shape`.
SPLIT = "multiprocessors=16 split-block=4"


def _launches(text: str, pipeline: str) -> tuple[ModuleOp, int]:
    module = parse_module(text)
    lower(module, pipeline, target="cuda")
    return module, sum(op.name == "gpu.launch_func" for op in module.walk())


def _producers(text: str) -> int:
    """The elementwise ops `linalg-conv-to-im2col` (with the pipeline's
    multiples) puts before the matmul: the gather, unless the convolution is
    pointwise, and the weights' padding, if K or F grow."""
    module = parse_module(text)
    LinalgConvToIm2colPass(
        pixel_multiple=4,
        reduction_multiple=3,
        filter_multiple=4,
        gather_multiples=(4, 4, 3),
    ).apply(make_context(), module)
    generics = [op for op in module.walk() if isinstance(op, GenericOp)]
    producers = [op for op in generics if not is_fill(op) and not op.inputs]
    return len(producers)


def _is_f32_matmul(text: str) -> bool:
    """An f32 convolution whose product stays a matmul once its unit loops
    are dropped: two filters, two pixels and a reduction of two at least
    (with one filter or pixel it is a row reduction, with K = 1 an outer
    product)."""
    (conv,) = [
        op
        for op in parse_module(text).walk()
        if isinstance(op, Conv2DNchwFchwOp | Conv2DNhwcHwcfOp)
    ]
    shape = conv_shape(conv)
    assert shape is not None
    # NHWC: one matmul over every image's pixels.
    pixels = shape.pixels * (shape.batch if isinstance(conv, Conv2DNhwcHwcfOp) else 1)
    extents = (shape.filters, pixels, shape.reduction)
    return "f16>" not in text and min(extents) > 1


def _check(text: str, options: str) -> int:
    """`text` lowered with `options` launches its producers' kernels fewer
    than with `fuse-producers=false`, and keeps its results on the emulator;
    returns how many producers were fused."""
    fused, launches = _launches(text, f"lower-to-cuda{{{options}}}")
    _, apart = _launches(text, f"lower-to-cuda{{{options} fuse-producers=false}}")
    producers = _producers(text)
    assert launches == apart - producers, text
    original = Interpreter(parse_module(text))
    args = random_arguments(original.function("main"), np.random.default_rng(0))
    (expected,) = run_function(original, "main", [a.copy() for a in args])
    (got,) = run_function(Interpreter(fused), "main", [a.copy() for a in args])
    difference = compare_arrays(
        np.asarray(expected), np.asarray(got), rtol=1e-4, atol=1e-4
    )
    assert difference is None, difference.describe()
    return producers


@settings(max_examples=12)
@given(convolutions().filter(_is_f32_matmul), st.booleans())
def test_the_gather_runs_in_the_matmul_staging(text: str, split: bool) -> None:
    producers = _check(text, f"{TILES} {SPLIT}" if split else TILES)
    event(f"{producers} producer(s) fused")


SPLIT_CONVOLUTION = """
func.func @main(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x3x3xf32>)
    -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>)
      -> tensor<1x4x4x4xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
      strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>)
      outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}
"""


def test_split_parts_stage_their_gather() -> None:
    """72 taps into 4 filters of 16 pixels: a grid of 4 blocks, so the
    reduction splits into parts (3 kernels apart: the gather, the parts,
    their sum); the parts read the columns through an `expand_shape` and
    stage them, the gather's indices linearised from (part, tap)."""
    _, apart = _launches(
        SPLIT_CONVOLUTION, f"lower-to-cuda{{{TILES} {SPLIT} fuse-producers=false}}"
    )
    assert apart == 3
    assert _check(SPLIT_CONVOLUTION, f"{TILES} {SPLIT}") == 1


@settings(max_examples=6)
@given(convolutions("nhwc").filter(_is_f32_matmul))
def test_the_nhwc_gather_runs_in_the_matmul_staging(text: str) -> None:
    """NHWC convolutions (`linalg.conv_2d_nhwc_hwcf`): the gather over every
    image's pixels runs in the staging of the one matmul's row tiles."""
    producers = _check(text, TILES)
    event(f"{producers} producer(s) fused")


NHWC_BLOCK = """
func.func @main(%x: tensor<2x8x6x6xf32>, %w: tensor<4x8x3x3xf32>)
    -> tensor<2x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x8x6x6xf32> to tensor<2x8x8x8xf32>
  %e = tensor.empty() : tensor<2x4x6x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x6x6xf32>)
      -> tensor<2x4x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
      strides = dense<1> : vector<2xi64>}
      ins(%p, %w : tensor<2x8x8x8xf32>, tensor<4x8x3x3xf32>)
      outs(%init : tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32>
  %r = linalg.generic {indexing_maps = [
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x4x6x6xf32>) outs(%e : tensor<2x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x6x6xf32>
  return %r : tensor<2x4x6x6xf32>
}
"""


def test_nhwc_takes_the_implicit_gemm_tiles() -> None:
    """`lower-to-cuda{nhwc=true}` on a padded 3x3 convolution and its ReLU:
    right before `linalg-tile-for-gpu`, the product's columns are a gather
    that its staging computes (`has_gathered_operand`: the convolution's
    tiles, `conv-block`); after it, one kernel (gather, fill, product and
    ReLU) between the edge transposes, against the interpreter on the NCHW
    program."""
    pipeline = LowerToCudaPipeline(
        nhwc=True, matmul_block=(4, 4, 3), matmul_thread=(2, 2), elementwise_block=8
    )
    module = parse_module(NHWC_BLOCK)
    context = make_context()
    for stage in pipeline.stages():
        if stage.name == "linalg-tile-for-gpu":
            products = [
                op
                for op in module.walk()
                if isinstance(op, GenericOp) and is_contraction(op)
            ]
            assert len(products) == 1
            assert has_gathered_operand(products[0])
        stage.apply(context, module)
    original = Interpreter(parse_module(NHWC_BLOCK))
    args = random_arguments(original.function("main"), np.random.default_rng(0))
    (expected,) = run_function(original, "main", [a.copy() for a in args])
    (got,) = run_function(Interpreter(module), "main", [a.copy() for a in args])
    difference = compare_arrays(
        np.asarray(expected), np.asarray(got), rtol=1e-4, atol=1e-4
    )
    assert difference is None, difference.describe()
    # The input's and the result's transposes at the edges, the weights'
    # transpose, and the convolution with its ReLU.
    launches = sum(op.name == "gpu.launch_func" for op in module.walk())
    assert launches == 4


def test_nhwc_pads_rows_to_the_block() -> None:
    """`lower-to-cuda` pads the product's rows and columns to the matmul
    block's (an implicit GEMM's to `conv-block`'s): the rows are the filters
    in NCHW (`F x K @ K x P`) and the pixels in NHWC (`(N * P) x K @ K x
    F`), so `nhwc=true` swaps which multiple goes to which."""
    for nhwc, pixels, filters in ((False, 4, 8), (True, 8, 4)):
        pipeline = LowerToCudaPipeline(
            nhwc=nhwc, matmul_block=(8, 4, 3), conv_block=(16, 2, 5)
        )
        (im2col,) = [
            stage
            for stage in pipeline.stages()
            if stage.name == "linalg-conv-to-im2col"
        ]
        assert isinstance(im2col, LinalgConvToIm2colPass)
        assert (im2col.pixel_multiple, im2col.filter_multiple) == (pixels, filters)
        # `gather-multiples` (filters, pixels, K) from `conv-block` (rows,
        # columns, K) the same way.
        gather = (16, 2, 5) if not nhwc else (2, 16, 5)
        assert im2col.gather_multiples == gather
