"""`gpu-pipeline-copies` keeps meaning: matmuls (some with an epilogue) tiled
for the GPU, their accumulators promoted and shared tiles relaid, run on the
grid emulator before and after the pass; K extents of one, two and three
steps (the prefetch after the last step must not run), and shapes the tiles
do not divide (their copies are guarded: left alone). Implicit GEMMs
(random convolutions through `lower-to-cuda`): the im2col gather's staging
nest, predicated, and the weights' are pipelined, the gather's output-pixel
coordinates computed once into a table, and the kernels run on the grid
emulator give the interpreter's results."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.dialects import gpu
from irkit.interpreter import Interpreter, run_function
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.runtime import lower
from irkit.testing import check_pass, compare_arrays, random_arguments
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_pipeline_copies import GpuPipelineCopiesPass
from tests.properties.gpu_matmuls import matmul_module, matmul_programs, up_to

PASS = GpuPipelineCopiesPass()
UP_TO_PASS = up_to(
    "matmul-block=8,8,2 matmul-thread=4,4 matmul-cyclic=true elementwise-block=4",
    "gpu-promote-accumulators",
    "gpu-relayout-shared",
)
MATMULS = matmul_programs([8, 16, 12], [8, 16, 6], [2, 4, 6, 3])


def test_pipelined_copies_keep_meaning() -> None:
    check_pass(PASS, lowered(MATMULS, UP_TO_PASS))


def test_dividing_tiles_are_pipelined() -> None:
    # Not vacuous: both copies get a private stage, loaded before the K loop
    # and, guarded, after its first barrier.
    module = matmul_module(16, 16, 6)
    Pipeline.parse(UP_TO_PASS).run(make_context(), module)
    before = str(module)
    Pipeline([PASS]).run(make_context(), module)
    after = str(module)
    assert "%stage" not in before
    private = "memref<4xf32, #gpu.address_space<private>>"
    assert f"%stage : {private}, %stage_1 : {private}" in after
    assert after.count("memref.load %stage") == 2  # in the loop, one per stage
    assert "scf.if" in after


# Implicit GEMMs: K steps of 2 over 2x2 threads, so that every staging nest
# (the gather's, the weights') divides evenly over the threads and is
# pipelined (`pipeline-gathers`, off by default); columns, K and filters
# padded to the block tile.
CONV_PIPELINE = (
    "lower-to-cuda{matmul-block=4,4,2 matmul-thread=2,2 conv-block=4,4,2 "
    "conv-thread=2,2 elementwise-block=8 pipeline-gathers=true}"
)
RESNET_LIKE = """
func.func @main(%x: tensor<2x3x6x6xf32>, %w: tensor<5x3x3x3xf32>)
    -> tensor<2x5x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x3x6x6xf32> to tensor<2x3x8x8xf32>
  %e = tensor.empty() : tensor<2x5x6x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x6x6xf32>)
      -> tensor<2x5x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
      strides = dense<1> : vector<2xi64>}
      ins(%padded, %w : tensor<2x3x8x8xf32>, tensor<5x3x3x3xf32>)
      outs(%init : tensor<2x5x6x6xf32>) -> tensor<2x5x6x6xf32>
  return %y : tensor<2x5x6x6xf32>
}
"""


def _private_names(module: ModuleOp) -> list[str]:
    return [
        argument.name_hint or ""
        for func in module.walk()
        if isinstance(func, gpu.FuncOp)
        for argument in func.private_attributions
    ]


@st.composite
def staged_convolutions(draw: st.DrawFn) -> str:
    """f32 convolutions whose block tiles `CONV_PIPELINE` fills (filters,
    output pixels and taps times channels multiples of the tile's 4, 4 and
    2), in two K steps or more, through a gather: 1 to 3 taps each way, strides and
    dilations of 1 or 2, a zero `tensor.pad` of up to one on each side or
    none, a fill or an argument init."""
    n, c, f = (
        draw(st.integers(1, 2)),
        draw(st.integers(1, 4)),
        draw(st.sampled_from([4, 8])),
    )
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    assume(c * kh * kw > 2 and c * kh * kw % 2 == 0)
    sh, sw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    oh, ow = draw(st.sampled_from([(2, 2), (1, 4), (4, 1), (2, 4), (4, 2), (3, 4)]))
    h, w = (oh - 1) * sh + (kh - 1) * dh + 1, (ow - 1) * sw + (kw - 1) * dw + 1
    pads = [draw(st.integers(0, 1)) for _ in range(4)]
    low_h, high_h, low_w, high_w = pads
    assume(h - low_h - high_h >= 1 and w - low_w - high_w >= 1)
    # A pointwise convolution reads its columns in place: no gather.
    assume(kh * kw > 1 or sh * sw > 1 or any(pads))
    x_type = f"tensor<{n}x{c}x{h}x{w}xf32>"
    w_type = f"tensor<{f}x{c}x{kh}x{kw}xf32>"
    out = f"tensor<{n}x{f}x{oh}x{ow}xf32>"
    args = [f"%w: {w_type}"]
    lines = ["%zero = arith.constant 0.0 : f32"]
    if any(pads):
        source = f"tensor<{n}x{c}x{h - low_h - high_h}x{w - low_w - high_w}xf32>"
        args.insert(0, f"%source: {source}")
        lines.append(
            f"%x = tensor.pad %source low[0, 0, {low_h}, {low_w}] high[0, 0, "
            f"{high_h}, {high_w}] {{\n^bb0(%i: index, %j: index, %k: index, "
            f"%l: index):\n  tensor.yield %zero : f32\n}} : {source} to {x_type}"
        )
    else:
        args.insert(0, f"%x: {x_type}")
    if draw(st.booleans()):
        lines += [
            f"%e = tensor.empty() : {out}",
            f"%init = linalg.fill ins(%zero : f32) outs(%e : {out}) -> {out}",
        ]
    else:
        args.append(f"%init: {out}")
    lines.append(
        f"%y = linalg.conv_2d_nchw_fchw {{dilations = dense<[{dh}, {dw}]> : "
        f"vector<2xi64>, strides = dense<[{sh}, {sw}]> : vector<2xi64>}} "
        f"ins(%x, %w : {x_type}, {w_type}) outs(%init : {out}) -> {out}"
    )
    body = "\n  ".join(lines)
    return (
        f"func.func @main({', '.join(args)}) -> {out} {{\n  {body}\n"
        f"  return %y : {out}\n}}\n"
    )


def _results(module: ModuleOp, text: str) -> tuple[np.ndarray, np.ndarray]:
    """The interpreter's result of `text` and the emulator's of `module`."""
    original = Interpreter(parse_module(text))
    args = random_arguments(original.function("main"), np.random.default_rng(0))
    (expected,) = run_function(original, "main", [a.copy() for a in args])
    (got,) = run_function(Interpreter(module), "main", [a.copy() for a in args])
    return np.asarray(expected), np.asarray(got)


@settings(max_examples=10)
@given(staged_convolutions())
def test_pipelined_convolutions_keep_meaning(text: str) -> None:
    """The gather's (or, pointwise, the input's) and the weights' staging
    are pipelined, and the kernels keep the program's results. (Grouped and
    depthwise convolutions take no im2col, so no staging.)"""
    module = parse_module(text)
    lower(module, CONV_PIPELINE, target="cuda")
    names = _private_names(module)
    assert any(name.startswith("stage") for name in names), text
    event("pixel indices tabled" if "indices" in names else "nothing to table")
    expected, got = _results(module, text)
    difference = compare_arrays(expected, got, rtol=1e-4, atol=1e-4)
    assert difference is None, difference.describe()


def test_a_padded_convolution_tables_its_pixel_indices() -> None:
    """A 3x3 convolution padded by one (a ResNet layer's): both stagings get
    a stage, the gather's output-pixel coordinates a table, and the results
    are those of the unpipelined kernel, bit for bit."""
    module = parse_module(RESNET_LIKE)
    lower(module, CONV_PIPELINE, target="cuda")
    names = _private_names(module)
    assert sum(name.startswith("stage") for name in names) == 2
    assert sum(name.startswith("indices") for name in names) == 2
    unpipelined = parse_module(RESNET_LIKE)
    lower(
        unpipelined,
        CONV_PIPELINE.replace("{", "{pipeline-copies=false "),
        target="cuda",
    )
    assert not any(name.startswith("stage") for name in _private_names(unpipelined))
    _, pipelined_result = _results(module, RESNET_LIKE)
    expected, plain_result = _results(unpipelined, RESNET_LIKE)
    assert np.array_equal(pipelined_result, plain_result)
    difference = compare_arrays(expected, plain_result, rtol=1e-4, atol=1e-4)
    assert difference is None, difference.describe()
