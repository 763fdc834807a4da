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

from irkit.analysis.structured import is_fill
from irkit.context import make_context
from irkit.dialects.linalg import Conv2DNchwFchwOp, GenericOp
from irkit.interpreter import Interpreter, run_function
from irkit.parsing import parse_module
from irkit.runtime import lower
from irkit.testing import compare_arrays, random_arguments
from irkit.transforms.linalg_conv_to_im2col import LinalgConvToIm2colPass, conv_shape
from tests.properties.test_linalg_conv_to_im2col import convolutions

# Block tiles of 4 filters by 4 pixels, K steps of 3, 2x2 threads: partial
# tiles along every loop for most drawn shapes.
TILES = "matmul-block=4,4,3 matmul-thread=2,2 elementwise-block=8"
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
        pixel_multiple=4, reduction_multiple=3, filter_multiple=4
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
        op for op in parse_module(text).walk() if isinstance(op, Conv2DNchwFchwOp)
    ]
    shape = conv_shape(conv)
    assert shape is not None
    extents = (shape.filters, shape.pixels, shape.reduction)
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
