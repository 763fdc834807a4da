"""`linalg-convert-to-nhwc` keeps meaning, fires on every net, and leaves
transposes at the net's edges only.

Hypothesis draws small conv nets over NCHW as torch-mlir writes them: an
input of 1 or 2 images, 1 to 3 channels, 3 to 6 pixels a side (sometimes an
argument in another layout transposed to NCHW by a random permutation, as a
torch `permute` is), then a chain
of 1 to 5 steps, each a convolution (`linalg.conv_2d_nchw_fchw`, its filter
an argument, a kernel of 1 to 3 taps each way, strides and dilations of 1
or 2, sometimes a zero `tensor.pad` of the rows and columns first), a
depthwise convolution, a max or sum pooling (its -inf or zero fill), a
batch-norm-like scale by a per-channel argument (read `(d1)`, or through
`tensor.expand_shape` as `(d1, 0, 0)` as torch-mlir does), a ReLU, a
residual add of an earlier value of the same shape, or a generic that reads
its channel's `linalg.index`. The pass must change every program (each
starts with a convolution) and give the same results within f32's
per-dtype tolerance: the NHWC convolution sums its channels innermost, the
NCHW one outermost; everything else is the same ops on the same values in
the same order. A per-channel
operand read through the wrong loop, a `linalg.index` not renamed or a
cancelled pair of transposes that are not inverses shows as a wrong
element. Every transpose left must be at an edge: it reads a function
argument, or only the function's return reads it.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from xdsl.ir import BlockArgument

import irkit
from irkit.context import make_context
from irkit.dialects import linalg, tensor
from irkit.parsing import parse_module
from irkit.runtime import lower
from irkit.testing import check_pass, compare_arrays
from irkit.transforms.linalg_convert_to_nhwc import LinalgConvertToNhwcPass

PASS = LinalgConvertToNhwcPass()
NCHW_OPS = {
    "linalg.conv_2d_nchw_fchw",
    "linalg.depthwise_conv_2d_nchw_chw",
    "linalg.pooling_nchw_max",
    "linalg.pooling_nchw_sum",
}


def _tensor(shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


class _Net:
    """The function being drawn: arguments, lines, the values so far."""

    def __init__(self, shape: tuple[int, int, int, int]) -> None:
        self.args = [f"%x: {_tensor(shape)}"]
        self.lines: list[str] = []
        self.values: list[tuple[str, tuple[int, int, int, int]]] = [("%x", shape)]
        self.count = 0

    def name(self, stem: str) -> str:
        self.count += 1
        return f"%{stem}{self.count}"

    def arg(self, shape: tuple[int, ...]) -> str:
        name = f"%a{len(self.args)}"
        self.args.append(f"{name}: {_tensor(shape)}")
        return name

    def filled(self, shape: tuple[int, ...], value: str) -> str:
        empty, fill, scalar = self.name("e"), self.name("f"), self.name("c")
        self.lines += [
            f"{scalar} = arith.constant {value} : f32",
            f"{empty} = tensor.empty() : {_tensor(shape)}",
            f"{fill} = linalg.fill ins({scalar} : f32) outs({empty} : "
            f"{_tensor(shape)}) -> {_tensor(shape)}",
        ]
        return fill

    def padded(self, value: str, shape: tuple[int, ...], pads: list[int]) -> str:
        low_h, high_h, low_w, high_w = pads
        n, c, h, w = shape
        out = (n, c, h + low_h + high_h, w + low_w + high_w)
        name, zero = self.name("p"), self.name("c")
        self.lines += [
            f"{zero} = arith.constant 0.0 : f32",
            f"{name} = tensor.pad {value} low[0, 0, {low_h}, {low_w}] high[0, 0, "
            f"{high_h}, {high_w}] {{\n^bb0(%i: index, %j: index, %k: index, %l: "
            f"index):\n  tensor.yield {zero} : f32\n}} : {_tensor(shape)} to "
            f"{_tensor(out)}",
        ]
        return name

    def generic(
        self,
        inputs: list[tuple[str, str, str]],
        shape: tuple[int, ...],
        body: list[str],
    ) -> str:
        """An elementwise generic over `shape`: `inputs` are (value, type,
        map results); `body` computes `%r` from `%in0`, `%in1`, ..."""
        empty, name = self.name("e"), self.name("g")
        dims = "(d0, d1, d2, d3)"
        maps = [f"affine_map<{dims} -> ({m})>" for _, _, m in inputs]
        maps.append(f"affine_map<{dims} -> (d0, d1, d2, d3)>")
        args = ", ".join(f"%in{i}: f32" for i in range(len(inputs)))
        lines = "\n  ".join(body)
        self.lines += [
            f"{empty} = tensor.empty() : {_tensor(shape)}",
            f"{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
            'iterator_types = ["parallel", "parallel", "parallel", "parallel"]} '
            f"ins({', '.join(v for v, _, _ in inputs)} : "
            f"{', '.join(t for _, t, _ in inputs)}) outs({empty} : {_tensor(shape)}) "
            f"{{\n^bb0({args}, %out: f32):\n  {lines}\n  linalg.yield %r : f32\n}}"
            f" -> {_tensor(shape)}",
        ]
        return name


def _window(draw: st.DrawFn, size: int) -> tuple[int, int, int, int]:
    """(kernel, stride, dilation, output size) along a side of `size`: a
    kernel no wider than the side, dilated only where it still fits."""
    k = min(draw(st.integers(1, 3)), size)
    s, d = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    if (k - 1) * d + 1 > size:
        d = 1
    return k, s, d, (size - (k - 1) * d - 1) // s + 1


def _conv(draw: st.DrawFn, net: _Net, depthwise: bool) -> None:
    value, shape = net.values[-1]
    if draw(st.booleans()):
        pads = [draw(st.integers(0, 1)) for _ in range(4)]
        value = net.padded(value, shape, pads)
        shape = (
            shape[0],
            shape[1],
            shape[2] + pads[0] + pads[1],
            shape[3] + pads[2] + pads[3],
        )
    n, c, h, w = shape
    (kh, sh, dh, oh), (kw, sw, dw, ow) = _window(draw, h), _window(draw, w)
    f = c if depthwise else draw(st.integers(1, 3))
    out = (n, f, oh, ow)
    filter_shape = (c, kh, kw) if depthwise else (f, c, kh, kw)
    weights = net.arg(filter_shape)
    init = net.filled(out, "0.0")
    name = net.name("conv")
    op = "depthwise_conv_2d_nchw_chw" if depthwise else "conv_2d_nchw_fchw"
    net.lines.append(
        f"{name} = linalg.{op} {{dilations = dense<[{dh}, {dw}]> : vector<2xi64>, "
        f"strides = dense<[{sh}, {sw}]> : vector<2xi64>}} ins({value}, {weights} : "
        f"{_tensor(shape)}, {_tensor(filter_shape)}) outs({init} : {_tensor(out)}) "
        f"-> {_tensor(out)}"
    )
    net.values.append((name, out))


def _pool(draw: st.DrawFn, net: _Net) -> None:
    value, shape = net.values[-1]
    n, c, h, w = shape
    (kh, sh, dh, oh), (kw, sw, dw, ow) = _window(draw, h), _window(draw, w)
    is_max = draw(st.booleans())
    out = (n, c, oh, ow)
    init = net.filled(out, "0xFF800000" if is_max else "0.0")
    window = net.name("win")
    name = net.name("pool")
    net.lines += [
        f"{window} = tensor.empty() : {_tensor((kh, kw))}",
        f"{name} = linalg.pooling_nchw_{'max' if is_max else 'sum'} {{dilations = "
        f"dense<[{dh}, {dw}]> : vector<2xi64>, strides = dense<[{sh}, {sw}]> : "
        f"vector<2xi64>}} ins({value}, {window} : {_tensor(shape)}, "
        f"{_tensor((kh, kw))}) outs({init} : {_tensor(out)}) -> {_tensor(out)}",
    ]
    net.values.append((name, out))


def _elementwise(draw: st.DrawFn, net: _Net, kind: str) -> None:
    value, shape = net.values[-1]
    typed = (value, _tensor(shape), "d0, d1, d2, d3")
    if kind == "scale":
        channels = net.arg((shape[1],))
        if draw(st.booleans()):
            expanded = net.name("x")
            net.lines.append(
                f"{expanded} = tensor.expand_shape {channels} [[0, 1, 2]] "
                f"output_shape [{shape[1]}, 1, 1] : {_tensor((shape[1],))} into "
                f"{_tensor((shape[1], 1, 1))}"
            )
            per_channel = (expanded, _tensor((shape[1], 1, 1)), "d1, 0, 0")
        else:
            per_channel = (channels, _tensor((shape[1],)), "d1")
        inputs, body = [typed, per_channel], ["%r = arith.mulf %in0, %in1 : f32"]
    elif kind == "relu":
        inputs = [typed]
        body = [
            "%zero = arith.constant 0.0 : f32",
            "%r = arith.maximumf %in0, %zero : f32",
        ]
    elif kind == "residual":
        same = [v for v, s in net.values if s == shape]
        other = draw(st.sampled_from(same))
        inputs = [typed, (other, _tensor(shape), "d0, d1, d2, d3")]
        body = ["%r = arith.addf %in0, %in1 : f32"]
    else:  # a generic reading its channel's index
        inputs = [typed]
        body = [
            "%ch = linalg.index 1 : index",
            "%row = linalg.index 2 : index",
            "%sum = arith.addi %ch, %row : index",
            "%int = arith.index_cast %sum : index to i64",
            "%float = arith.sitofp %int : i64 to f32",
            "%r = arith.addf %in0, %float : f32",
        ]
    net.values.append((net.generic(inputs, shape, body), shape))


@st.composite
def conv_nets(draw: st.DrawFn) -> str:
    shape = (
        draw(st.integers(1, 2)),
        draw(st.integers(1, 3)),
        draw(st.integers(3, 6)),
        draw(st.integers(3, 6)),
    )
    net = _Net(shape)
    permutation = draw(st.permutations(range(4)))
    if draw(st.booleans()) and permutation != [0, 1, 2, 3]:
        # The input given in another layout and transposed to NCHW (a
        # torch `permute`): the pass's transposes meet it, and cancel only
        # where they are its inverse.
        source = [0] * 4
        for index, p in enumerate(permutation):
            source[p] = shape[index]
        net.args[0] = f"%x: {_tensor(tuple(source))}"
        net.lines += [
            f"%xe = tensor.empty() : {_tensor(shape)}",
            f"%xt = linalg.transpose ins(%x : {_tensor(tuple(source))}) outs(%xe : "
            f"{_tensor(shape)}) permutation = {permutation}",
        ]
        net.values = [("%xt", shape)]
    _conv(draw, net, depthwise=False)
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(
            st.sampled_from(
                ["conv", "depthwise", "pool", "scale", "relu", "residual", "index"]
            )
        )
        if kind in ("conv", "depthwise"):
            _conv(draw, net, depthwise=kind == "depthwise")
        elif kind == "pool":
            _pool(draw, net)
        else:
            _elementwise(draw, net, kind)
    result, result_shape = net.values[-1]
    body = "\n  ".join(net.lines)
    return (
        f"func.func @main({', '.join(net.args)}) -> {_tensor(result_shape)} {{\n"
        f"  {body}\n  return {result} : {_tensor(result_shape)}\n}}\n"
    )


def test_conv_nets_keep_meaning_and_every_one_converts() -> None:
    reach = check_pass(PASS, conv_nets().map(parse_module))
    assert reach.changed == reach.examples


@given(conv_nets())
def test_only_edge_transposes_remain(text: str) -> None:
    module = parse_module(text)
    PASS.apply(make_context(), module)
    names = {op.name for op in module.walk()}
    assert not names & NCHW_OPS
    transposes = [op for op in module.walk() if isinstance(op, linalg.TransposeOp)]
    for transpose in transposes:
        # An input's edge may pad it first: a transpose to NCHW sinks below a
        # pad, one to NHWC rises above it, and an input the program itself
        # transposed composes with them into either.
        read = transpose.inputs[0]
        while isinstance(read.owner, tensor.PadOp):
            read = read.owner.source
        reads_argument = isinstance(read, BlockArgument)
        returned = all(
            use.operation.name == "func.return" for use in transpose.results[0].uses
        )
        assert reads_argument or returned, f"an inner transpose:\n{module}"


def test_lowered_for_cuda_on_the_grid_emulator() -> None:
    """One small conv block (conv, per-channel scale, ReLU, conv, residual)
    through `lower-to-cuda{nhwc=true}` on the grid emulator, against the
    interpreter on the NCHW program."""
    net = (
        "func.func @main(%x: tensor<1x2x5x5xf32>, %w: tensor<2x2x3x3xf32>, "
        "%s: tensor<2xf32>, %v: tensor<2x2x3x3xf32>) -> tensor<1x2x5x5xf32> {\n"
        "  %zero = arith.constant 0.0 : f32\n"
        "  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {\n"
        "  ^bb0(%i: index, %j: index, %k: index, %l: index):\n"
        "    tensor.yield %zero : f32\n"
        "  } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>\n"
        "  %e = tensor.empty() : tensor<1x2x5x5xf32>\n"
        "  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x5x5xf32>) "
        "-> tensor<1x2x5x5xf32>\n"
        "  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, "
        "strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x7x7xf32>, "
        "tensor<2x2x3x3xf32>) outs(%f : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>\n"
        "  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> "
        "(d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, "
        "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = "
        '["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s : '
        "tensor<1x2x5x5xf32>, tensor<2xf32>) outs(%e : tensor<1x2x5x5xf32>) {\n"
        "  ^bb0(%in: f32, %sc: f32, %out: f32):\n"
        "    %m = arith.mulf %in, %sc : f32\n"
        "    %r = arith.maximumf %m, %zero : f32\n"
        "    linalg.yield %r : f32\n"
        "  } -> tensor<1x2x5x5xf32>\n"
        "  %p2 = tensor.pad %b low[0, 0, 1, 1] high[0, 0, 1, 1] {\n"
        "  ^bb0(%i: index, %j: index, %k: index, %l: index):\n"
        "    tensor.yield %zero : f32\n"
        "  } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>\n"
        "  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, "
        "strides = dense<1> : vector<2xi64>} ins(%p2, %v : tensor<1x2x7x7xf32>, "
        "tensor<2x2x3x3xf32>) outs(%f : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>\n"
        "  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> "
        "(d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, "
        "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = "
        '["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %x : '
        "tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) {\n"
        "  ^bb0(%in: f32, %res: f32, %out: f32):\n"
        "    %r = arith.addf %in, %res : f32\n"
        "    linalg.yield %r : f32\n"
        "  } -> tensor<1x2x5x5xf32>\n"
        "  return %y : tensor<1x2x5x5xf32>\n"
        "}\n"
    )
    rng = np.random.default_rng(0)
    args = [
        rng.standard_normal(shape).astype(np.float32)
        for shape in ((1, 2, 5, 5), (2, 2, 3, 3), (2,), (2, 2, 3, 3))
    ]
    (want,) = irkit.interpret(irkit.parse(net), "main", *args)
    lowered = irkit.parse(net)
    PASS.apply(make_context(), lowered)
    assert "linalg.conv_2d_nhwc_hwcf" in str(lowered)
    lowered = irkit.parse(net)
    lower(
        lowered,
        "lower-to-cuda{nhwc=true matmul-block=4,2,3 matmul-thread=2,2 "
        "elementwise-block=4}",
        target="cuda",
    )
    assert "gpu.launch" in str(lowered)
    (got,) = irkit.interpret(lowered, "main", *args)
    difference = compare_arrays(want, got, rtol=1e-5, atol=1e-5)
    assert difference is None, difference.describe()
