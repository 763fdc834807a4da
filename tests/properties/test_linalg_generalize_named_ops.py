"""`linalg-generalize-named-ops` keeps meaning, op family by op family.

Hypothesis draws one named op at a time with random shapes, element types
and (for convolutions and pooling) strides and dilations; the function is
interpreted before and after the pass on random inputs, and no named op may
be left. `tests/properties/test_linalg_fuse_elementwise.py` runs the
torch-mlir corpus through this pass too.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from irkit.testing import assert_pass_preserves_semantics, check_pass
from irkit.testing.strategies import linalg_programs
from irkit.transforms.linalg_generalize_named_ops import LinalgGeneralizeNamedOpsPass
from irkit.transforms.utils.generalization import is_named_linalg_op

_FLOAT_BINARY = ["add", "sub", "mul", "div", "max", "min", "powf"]
_INT_BINARY = ["add", "sub", "mul", "div", "div_unsigned", "max", "min"]
_FLOAT_UNARY = [
    "exp",
    "log",
    "sqrt",
    "rsqrt",
    "abs",
    "ceil",
    "floor",
    "negf",
    "reciprocal",
    "round",
    "square",
    "tanh",
    "erf",
]
_FLOATS = ["f16", "f32", "f64"]
_INTS = ["i8", "i32", "i64"]

# name: (input layout, filter/window layout, output layout); letters are
# n batch, g group, c input channel, f output channel, h/w spatial (input
# extent, kernel extent or output extent by position).
_WINDOWED = {
    "conv_2d_nchw_fchw": ("nchw", "fchw", "nfhw"),
    "conv_2d_nhwc_hwcf": ("nhwc", "hwcf", "nhwf"),
    "conv_2d_nhwc_fhwc": ("nhwc", "fhwc", "nhwf"),
    "conv_2d_ngchw_fgchw": ("ngchw", "fgchw", "ngfhw"),
    "conv_2d_ngchw_gfchw": ("ngchw", "gfchw", "ngfhw"),
    "conv_2d_nhwgc_gfhwc": ("nhwgc", "gfhwc", "nhwgf"),
    "depthwise_conv_2d_nchw_chw": ("nchw", "chw", "nchw"),
    "depthwise_conv_2d_nhwc_hwc": ("nhwc", "hwc", "nhwc"),
    "pooling_nchw_max": ("nchw", "hw", "nchw"),
    "pooling_nchw_sum": ("nchw", "hw", "nchw"),
    "pooling_nhwc_max": ("nhwc", "hw", "nhwc"),
    "pooling_nhwc_min": ("nhwc", "hw", "nhwc"),
    "pooling_nhwc_sum": ("nhwc", "hw", "nhwc"),
}


def _tensor(shape: Sequence[int], element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element}>"


def _function(args: Sequence[tuple[str, str]], op_line: str, result_type: str) -> str:
    signature = ", ".join(f"{name}: {type_}" for name, type_ in args)
    return (
        f"func.func @main({signature}) -> {result_type} {{\n"
        f"  %r = {op_line}\n"
        f"  return %r : {result_type}\n}}\n"
    )


def _check(text: str) -> None:
    generalized = assert_pass_preserves_semantics(
        LinalgGeneralizeNamedOpsPass(), text, trials=2
    )
    assert not any(is_named_linalg_op(op) for op in generalized.walk())


shapes = st.lists(st.integers(1, 4), min_size=0, max_size=3)


@st.composite
def elementwise_ops(draw: st.DrawFn) -> str:
    shape = draw(shapes)
    if draw(st.booleans()):
        element = draw(st.sampled_from(_FLOATS))
        name = draw(st.sampled_from(_FLOAT_BINARY + _FLOAT_UNARY + ["select"]))
    else:
        element = draw(st.sampled_from(_INTS))
        name = draw(st.sampled_from([*_INT_BINARY, "square", "select"]))
    type_ = _tensor(shape, element)
    if name == "select":
        args = [("%c", _tensor(shape, "i1")), ("%a", type_), ("%b", type_)]
    elif name in _FLOAT_UNARY:
        args = [("%a", type_)]
    else:
        args = [("%a", type_), ("%b", type_)]
    args.append(("%init", type_))
    ins = ", ".join(name for name, _ in args[:-1])
    in_types = ", ".join(type_ for _, type_ in args[:-1])
    line = f"linalg.{name} ins({ins} : {in_types}) outs(%init : {type_}) -> {type_}"
    return _function(args, line, type_)


@settings(deadline=None)
@given(elementwise_ops())
def test_elementwise_ops(text: str) -> None:
    _check(text)


# Conversions the named ops perform implicitly (never into i1: rejected).
_CONVERSIONS = st.sampled_from(
    [
        ("f32", "f32"),
        ("f64", "f32"),
        ("f16", "f32"),
        ("f32", "f64"),
        ("i32", "f32"),
        ("i1", "f32"),
        ("f32", "i32"),
        ("i8", "i32"),
        ("i1", "i32"),
        ("i64", "i32"),
        ("i32", "i64"),
    ]
)


@st.composite
def fill_and_copy(draw: st.DrawFn) -> str:
    shape = draw(shapes)
    source, target = draw(_CONVERSIONS)
    out = _tensor(shape, target)
    if draw(st.booleans()):
        line = f"linalg.fill ins(%x : {source}) outs(%init : {out}) -> {out}"
        return _function([("%x", source), ("%init", out)], line, out)
    src = _tensor(shape, source)
    line = f"linalg.copy ins(%x : {src}) outs(%init : {out}) -> {out}"
    return _function([("%x", src), ("%init", out)], line, out)


@settings(deadline=None)
@given(fill_and_copy())
def test_fill_and_copy(text: str) -> None:
    _check(text)


@st.composite
def shape_ops(draw: st.DrawFn) -> str:
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    rank = len(shape)
    element = draw(st.sampled_from(["f32", "i32"]))
    full = _tensor(shape, element)
    kind = draw(st.sampled_from(["transpose", "broadcast", "reduce", "map"]))
    if kind == "transpose":
        perm = draw(st.permutations(range(rank)))
        out = _tensor([shape[p] for p in perm], element)
        line = (
            f"linalg.transpose ins(%x : {full}) outs(%init : {out}) "
            f"permutation = [{', '.join(map(str, perm))}]"
        )
        return _function([("%x", full), ("%init", out)], line, out)
    dims = sorted(draw(st.sets(st.integers(0, rank - 1), max_size=rank)))
    part = _tensor([d for i, d in enumerate(shape) if i not in dims], element)
    dims_text = ", ".join(map(str, dims))
    if kind == "broadcast":
        line = (
            f"linalg.broadcast ins(%x : {part}) outs(%init : {full}) "
            f"dimensions = [{dims_text}]"
        )
        return _function([("%x", part), ("%init", full)], line, full)
    is_float = element == "f32"
    if kind == "reduce":
        combiner = draw(
            st.sampled_from(
                ["arith.addf", "arith.maximumf", "arith.mulf"]
                if is_float
                else ["arith.addi", "arith.maxsi", "arith.muli"]
            )
        )
        line = (
            f"linalg.reduce {{ {combiner} }} ins(%x : {full}) outs(%init : {part}) "
            f"dimensions = [{dims_text}]"
        )
        return _function([("%x", full), ("%init", part)], line, part)
    combiner = "arith.subf" if is_float else "arith.subi"
    line = (
        f"linalg.map {{ {combiner} }} ins(%x, %y : {full}, {full}) outs(%init : {full})"
    )
    return _function([("%x", full), ("%y", full), ("%init", full)], line, full)


@settings(deadline=None)
@given(shape_ops())
def test_shape_ops(text: str) -> None:
    _check(text)


@st.composite
def contractions(draw: st.DrawFn) -> str:
    b, m, n, k = (draw(st.integers(1, 4)) for _ in range(4))
    name = draw(
        st.sampled_from(
            ["matmul", "batch_matmul", "matvec", "vecmat", "dot", "quantized_matmul"]
        )
    )
    if name == "quantized_matmul":
        lhs, rhs, out = (
            _tensor([m, k], "i8"),
            _tensor([k, n], "i8"),
            _tensor([m, n], "i32"),
        )
        line = (
            f"linalg.quantized_matmul ins(%a, %b, %za, %zb : {lhs}, {rhs}, i32, i32) "
            f"outs(%init : {out}) -> {out}"
        )
        args = [("%a", lhs), ("%b", rhs), ("%za", "i32"), ("%zb", "i32")]
        return _function([*args, ("%init", out)], line, out)
    # matmul's body has no extensions; irkit's other contractions do.
    mixed = name != "matmul" and draw(st.booleans())
    element, acc = (
        ("i8", "i32") if mixed else (draw(st.sampled_from(["f32", "i32"])),) * 2
    )
    lhs_shape, rhs_shape, out_shape = {
        "matmul": ([m, k], [k, n], [m, n]),
        "batch_matmul": ([b, m, k], [b, k, n], [b, m, n]),
        "matvec": ([m, k], [k], [m]),
        "vecmat": ([k], [k, n], [n]),
        "dot": ([k], [k], []),
    }[name]
    maps = ""
    if name == "matmul" and draw(st.booleans()):  # B transposed
        rhs_shape = [n, k]
        maps = (
            "indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
            "affine_map<(d0, d1, d2) -> (d1, d2)>, "
            "affine_map<(d0, d1, d2) -> (d0, d1)>] "
        )
    lhs, rhs = _tensor(lhs_shape, element), _tensor(rhs_shape, element)
    out = _tensor(out_shape, acc)
    line = (
        f"linalg.{name} {maps}ins(%a, %b : {lhs}, {rhs}) outs(%init : {out}) -> {out}"
    )
    return _function([("%a", lhs), ("%b", rhs), ("%init", out)], line, out)


@settings(deadline=None)
@given(contractions())
def test_contractions(text: str) -> None:
    _check(text)


@st.composite
def windowed_ops(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(sorted(_WINDOWED)))
    in_layout, filter_layout, out_layout = _WINDOWED[name]
    strides = [draw(st.integers(1, 2)) for _ in range(2)]
    dilations = [draw(st.integers(1, 2)) for _ in range(2)]
    kernel = [draw(st.integers(1, 3)) for _ in range(2)]
    output = [draw(st.integers(1, 3)) for _ in range(2)]
    spatial_in = [
        (o - 1) * s + (k - 1) * d + 1 + draw(st.integers(0, 1))
        for o, s, k, d in zip(output, strides, kernel, dilations, strict=True)
    ]
    extents = {letter: draw(st.integers(1, 2)) for letter in "ngcf"}

    def shape(layout: str, spatial: Sequence[int]) -> list[int]:
        spatial_dims = iter(spatial)
        return [next(spatial_dims) if c in "hw" else extents[c] for c in layout]

    element = draw(st.sampled_from(["f32", "i32"]))
    x = _tensor(shape(in_layout, spatial_in), element)
    w = _tensor(shape(filter_layout, kernel), element)
    out = _tensor(shape(out_layout, output), element)
    attrs = (
        f"{{dilations = dense<[{dilations[0]}, {dilations[1]}]> : vector<2xi64>, "
        f"strides = dense<[{strides[0]}, {strides[1]}]> : vector<2xi64>}}"
    )
    line = f"linalg.{name} {attrs} ins(%x, %w : {x}, {w}) outs(%init : {out}) -> {out}"
    return _function([("%x", x), ("%w", w), ("%init", out)], line, out)


@settings(deadline=None)
@given(windowed_ops())
def test_windowed_ops(text: str) -> None:
    _check(text)


def test_random_linalg_chains_with_named_ops_keep_meaning() -> None:
    check_pass(LinalgGeneralizeNamedOpsPass(), linalg_programs(max_ops=3))
