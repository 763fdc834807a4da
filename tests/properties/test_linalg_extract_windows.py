"""`linalg-extract-windows` keeps meaning and fires on every windowed op.

Hypothesis draws what torch-mlir and irkit's PyTorch frontend write for
pooling and depthwise convolutions: `linalg.pooling_nchw_max`,
`pooling_nchw_sum` and `depthwise_conv_2d_nchw_chw` on tensors, kernels of
1 to 3 taps each way, strides and dilations of 1 or 2, outputs of 1 to 4
each way, the input sized to fit. Generalized, each reads its input through
a window map; the pass must move every such read into the body (fires on
every draw) with results unchanged (the same elements in the same order;
the interpreter may sum a plain generic pairwise, so sums are compared to
f32 rounding). Then `lower-to-cuda` on the grid emulator: with the windows
extracted, the output rows and columns tile over threads.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from xdsl.ir import Operation

from irkit.context import make_context
from irkit.dialects.linalg import GenericOp
from irkit.parsing import parse_module
from irkit.testing import check_pass
from irkit.transforms.linalg_extract_windows import LinalgExtractWindowsPass
from irkit.transforms.linalg_generalize_named_ops import LinalgGeneralizeNamedOpsPass

PASS = LinalgExtractWindowsPass()
F32_ROUNDING = {"rtol": 1e-6, "atol": 1e-6}


@st.composite
def windowed_ops(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["max", "sum", "depthwise"]))
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    oh, ow = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    h, w = (oh - 1) * sh + (kh - 1) * dh + 1, (ow - 1) * sw + (kw - 1) * dw + 1
    x_type = f"tensor<{n}x{c}x{h}x{w}xf32>"
    out_type = f"tensor<{n}x{c}x{oh}x{ow}xf32>"
    window = (
        "dilations = dense<"
        f"[{dh}, {dw}]> : vector<2xi64>, strides = dense<[{sh}, {sw}]> : vector<2xi64>"
    )
    args = [f"%x: {x_type}", f"%init: {out_type}"]
    if kind == "depthwise":
        w_type = f"tensor<{c}x{kh}x{kw}xf32>"
        args.append(f"%w: {w_type}")
        lines = [
            f"%y = linalg.depthwise_conv_2d_nchw_chw {{{window}}} ins(%x, %w : "
            f"{x_type}, {w_type}) outs(%init : {out_type}) -> {out_type}"
        ]
    else:
        win_type = f"tensor<{kh}x{kw}xf32>"
        lines = [
            f"%win = tensor.empty() : {win_type}",
            f"%y = linalg.pooling_nchw_{kind} {{{window}}} ins(%x, %win : "
            f"{x_type}, {win_type}) outs(%init : {out_type}) -> {out_type}",
        ]
    body = "\n  ".join(lines)
    return (
        f"func.func @main({', '.join(args)}) -> {out_type} {{\n  {body}\n"
        f"  return %y : {out_type}\n}}\n"
    )


def _generalized(text: str) -> object:
    module = parse_module(text)
    LinalgGeneralizeNamedOpsPass().apply(make_context(), module)
    return module


def test_windows_move_into_the_body() -> None:
    reach = check_pass(PASS, windowed_ops().map(_generalized), **F32_ROUNDING)
    assert reach.changed == reach.examples


@given(windowed_ops())
def test_no_window_map_is_left(text: str) -> None:
    module = parse_module(text)
    LinalgGeneralizeNamedOpsPass().apply(make_context(), module)
    PASS.apply(make_context(), module)
    generics: list[Operation] = [
        op for op in module.walk() if isinstance(op, GenericOp)
    ]
    (generic,) = generics
    assert isinstance(generic, GenericOp)
    for attr in generic.indexing_maps:
        assert all(
            type(expr).__name__ == "AffineDimExpr" for expr in attr.data.results
        ), str(module)
    assert any(op.name == "tensor.extract" for op in generic.body.walk())


def test_lowered_for_cuda_on_the_grid_emulator() -> None:
    check_pass(
        "lower-to-cuda{matmul-block=4,2,3 matmul-thread=2,2 elementwise-block=4}",
        windowed_ops().map(parse_module),
        rtol=1e-5,
        atol=1e-5,
    )
