"""convert-nn-to-linalg keeps the meaning of every nn op.

For each op Hypothesis draws shapes (broadcasting and size-1 dims included),
element types and attributes, builds a one-op function, lowers it and compares
the interpreter's results before and after on inputs drawn from the op's
domain. The lowering evaluates floats in the element type where the nn
reference uses f64, so f16 sums and contractions get a tolerance that grows
with the number of terms.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.abstract_ops import NamedOperation

from irkit.context import make_context
from irkit.testing import assert_pass_preserves_semantics
from irkit.transforms.convert_nn_to_linalg import ConvertNnToLinalgPass

FLOATS = ("f16", "f32", "f64")
INTEGERS = ("i32", "i64")
NUMBERS = FLOATS + INTEGERS
ANY = (*NUMBERS, "i1")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def tensor_type(shape: Sequence[int], element: str) -> str:
    return "tensor<" + "".join(f"{size}x" for size in shape) + element + ">"


DTYPES = {
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i32": np.int32,
    "i64": np.int64,
    "i1": np.bool_,
}


def draw_values(
    rng: np.random.Generator, shape: Sequence[int], element: str, domain: str = "any"
) -> np.ndarray:
    """Values of `element` in `domain`: any, positive or nonzero (never all 0)."""
    dtype = np.dtype(DTYPES[element])
    size = tuple(shape)
    values: np.ndarray[Any, Any]
    if dtype == np.bool_:
        values = rng.random(size) < 0.5
    elif np.issubdtype(dtype, np.integer):
        values = rng.integers(-10, 11, size=size)
        if domain != "any":
            values = np.where(values == 0, 3, values)
        if domain == "positive":
            values = np.abs(values)
    else:
        values = rng.uniform(-1.0, 1.0, size=size)
        if domain == "positive":
            values = np.abs(values) * 2 + 0.1
        elif domain == "nonzero":
            values = np.sign(values + 1e-9) * (np.abs(values) + 0.5)
    array = np.asarray(values).astype(dtype)
    if array.size and not array.any():
        array.reshape(-1)[0] = 1
    return array


def check(
    body: str,
    arguments: Sequence[tuple[str, np.ndarray]],
    results: str | Sequence[tuple[str, str]],
    *,
    rtol: float | None = None,
    atol: float | None = None,
) -> None:
    """Lower `func @main(%a0, %a1, ...) { body; return results }` and compare
    before and after. `results` is `%r`'s type, or (name, type) pairs."""
    if isinstance(results, str):
        results = [("%r", results)]
    params = ", ".join(
        f"%a{index}: {type_}" for index, (type_, _) in enumerate(arguments)
    )
    names = ", ".join(name for name, _ in results)
    types = ", ".join(type_ for _, type_ in results)
    text = (
        f"func.func @main({params}) -> ({types}) {{\n  {body}\n"
        f"  func.return {names} : {types}\n}}\n"
    )
    lowered = assert_pass_preserves_semantics(
        ConvertNnToLinalgPass(),
        text,
        inputs=[[value for _, value in arguments]],
        rtol=rtol,
        atol=atol,
    )
    assert not [op.name for op in lowered.walk() if op.dialect_name() == "nn"]
    assert_parser_classes(lowered)


def assert_parser_classes(module: ModuleOp) -> None:
    """Every op the pass builds is of the class irkit's context registers for
    its name, the one the parser builds: the passes after it match those
    classes (a `tensor.empty` of xDSL's base class escaped the reshape folds
    of linalg-collapse-dims). The bodies that xDSL's named linalg ops build
    for themselves (`linalg.yield` in a `linalg.fill`) are the parser's too."""
    context = make_context()
    strays = [
        f"{op.name} ({type(op).__module__}.{type(op).__name__})"
        for op in module.walk()
        if type(op) is not context.get_optional_op(op.name)
        and not isinstance(op.parent_op(), NamedOperation)
    ]
    assert not strays, f"ops the parser would not build: {strays}"


def sum_tolerance(element: str, terms: int) -> dict[str, float | None]:
    """f16 accumulates rounding per term; other types keep their defaults."""
    if element == "f16":
        return {"rtol": 1e-2, "atol": 2e-3 * max(terms, 1)}
    if element == "f32":
        return {"rtol": 1e-4, "atol": 1e-5 * max(terms, 1)}
    return {"rtol": None, "atol": None}


shapes = st.lists(st.integers(1, 4), min_size=0, max_size=3).map(tuple)
seeds = st.integers(0, 2**32 - 1)


@st.composite
def broadcast_shapes(
    draw: st.DrawFn, count: int
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """`count` operand shapes and their broadcast (for one operand: a shape it
    broadcasts to)."""
    target = draw(shapes)
    operands: list[tuple[int, ...]] = []
    for _ in range(count):
        dropped = draw(st.integers(0, len(target)))
        operand = [1 if draw(st.booleans()) else size for size in target[dropped:]]
        operands.append(tuple(operand))
    # What the operands broadcast to (size-1 dims of the target may vanish).
    result = target if count == 1 else tuple(np.broadcast_shapes(*operands))
    return result, operands


# --- elementwise --------------------------------------------------------------

BINARY = {
    "add": NUMBERS,
    "sub": NUMBERS,
    "mul": NUMBERS,
    "div": NUMBERS,
    "max": NUMBERS,
    "min": NUMBERS,
    "pow": FLOATS,
    "and": ("i1", *INTEGERS),
    "or": ("i1", *INTEGERS),
    "xor": ("i1", *INTEGERS),
}


@given(st.sampled_from((*NUMBERS, "i1")), broadcast_shapes(2), seeds)
def test_elementwise_binary(element: str, shapes_: Any, seed: int) -> None:
    """Every binary op of `element`'s class, one result each."""
    result, (lhs, rhs) = shapes_
    rng = np.random.default_rng(seed)
    lhs_type, rhs_type = tensor_type(lhs, element), tensor_type(rhs, element)
    result_type = tensor_type(result, element)
    # %a1 is nonzero (divisor), %a2 positive (pow's base).
    arguments = [
        (lhs_type, draw_values(rng, lhs, element)),
        (rhs_type, draw_values(rng, rhs, element, "nonzero")),
        (lhs_type, draw_values(rng, lhs, element, "positive")),
    ]
    names = [name for name in sorted(BINARY) if element in BINARY[name]]
    lines = [
        f"%{name} = nn.{name} %a{2 if name == 'pow' else 0}, %a1 "
        f": {lhs_type}, {rhs_type} -> {result_type}"
        for name in names
    ]
    check(
        "\n  ".join(lines),
        arguments,
        [(f"%{name}", result_type) for name in names],
    )


UNARY = {
    "neg": NUMBERS,
    "abs": NUMBERS,
    "relu": NUMBERS,
    "not": ("i1", *INTEGERS),
    "exp": FLOATS,
    "log": FLOATS,
    "sqrt": FLOATS,
    "rsqrt": FLOATS,
    "tanh": FLOATS,
    "sigmoid": FLOATS,
    "erf": FLOATS,
    "gelu": FLOATS,
    "gelu approximate tanh": FLOATS,
}


@given(st.sampled_from(ANY), shapes, seeds, st.booleans())
def test_elementwise_unary(
    element: str, shape: tuple[int, ...], seed: int, with_int_min: bool
) -> None:
    """Every unary op of `element`'s class, one result each."""
    type_ = tensor_type(shape, element)
    rng = np.random.default_rng(seed)
    values = draw_values(rng, shape, element)
    if element in INTEGERS and with_int_min and values.size:
        values.reshape(-1)[0] = np.iinfo(values.dtype).min  # wraps: -MIN = MIN
    # %a1 is positive: the domain of log, sqrt and rsqrt.
    arguments = [(type_, values), (type_, draw_values(rng, shape, element, "positive"))]
    names = [name for name in sorted(UNARY) if element in UNARY[name]]
    lines = []
    for index, name in enumerate(names):
        op, _, attribute = name.partition(" ")
        operand = "%a1" if op in ("log", "sqrt", "rsqrt") else "%a0"
        lines.append(f"%r{index} = nn.{op} {operand} {attribute} : {type_}")
    check("\n  ".join(lines), arguments, [(f"%r{i}", type_) for i in range(len(names))])


@given(shapes, seeds)
def test_cast(shape: tuple[int, ...], seed: int) -> None:
    """Every (source, target) pair of element types, one result each."""
    rng = np.random.default_rng(seed)
    arguments = []
    for source in ANY:
        values = draw_values(rng, shape, source)
        if source in FLOATS:
            # Scaled so that truncation toward zero and `x != 0` both matter.
            values = (values * 100).astype(values.dtype)
            values.reshape(-1)[: values.size // 3] = 0
            if values.size > 1:
                values.reshape(-1)[-1] = np.nan  # i1: NaN != 0 is true
        elif source in INTEGERS:
            # Large enough to wrap when narrowed to i32.
            values = (values.astype(np.int64) * 400_000_007).astype(values.dtype)
        arguments.append((tensor_type(shape, source), values))
    lines, results = [], []
    for index, source in enumerate(ANY):
        for target in ANY:
            name = f"%{source}_to_{target}"
            source_type, target_type = (
                tensor_type(shape, source),
                tensor_type(shape, target),
            )
            lines.append(f"{name} = nn.cast %a{index} : {source_type} -> {target_type}")
            results.append((name, target_type))
    check("\n  ".join(lines), arguments, results)


@given(broadcast_shapes(2), seeds)
def test_cmp(shapes_: Any, seed: int) -> None:
    """Every predicate on every element type, one result each; a NaN checks
    ordered vs unordered float predicates."""
    result, (lhs, rhs) = shapes_
    rng = np.random.default_rng(seed)
    result_type = tensor_type(result, "i1")
    arguments: list[tuple[str, np.ndarray]] = []
    lines: list[str] = []
    results: list[tuple[str, str]] = []
    for element in ANY:
        lhs_values = draw_values(rng, lhs, element)
        if element in FLOATS and lhs_values.size:
            lhs_values.reshape(-1)[0] = np.nan
        lhs_type, rhs_type = tensor_type(lhs, element), tensor_type(rhs, element)
        operands = f"%a{len(arguments)}, %a{len(arguments) + 1}"
        arguments += [
            (lhs_type, lhs_values),
            (rhs_type, draw_values(rng, rhs, element)),
        ]
        for p in ("eq", "ne", "lt", "le", "gt", "ge"):
            lines.append(
                f"%{p}_{element} = nn.cmp {p}, {operands} "
                f": {lhs_type}, {rhs_type} -> {result_type}"
            )
            results.append((f"%{p}_{element}", result_type))
    check("\n  ".join(lines), arguments, results)


@given(st.sampled_from(ANY), broadcast_shapes(3), seeds)
def test_select(element: str, shapes_: Any, seed: int) -> None:
    result, (condition, on_true, on_false) = shapes_
    rng = np.random.default_rng(seed)
    types = [
        tensor_type(condition, "i1"),
        tensor_type(on_true, element),
        tensor_type(on_false, element),
    ]
    result_type = tensor_type(result, element)
    check(
        f"%r = nn.select %a0, %a1, %a2 : {', '.join(types)} -> {result_type}",
        [
            (types[0], draw_values(rng, condition, "i1")),
            (types[1], draw_values(rng, on_true, element)),
            (types[2], draw_values(rng, on_false, element)),
        ],
        result_type,
    )


def dense_literal(values: np.ndarray) -> str:
    """The nested `dense<...>` literal of `values` (a scalar for rank 0)."""
    if values.ndim == 0:
        item = values[()]
        if values.dtype == np.bool_:
            return "true" if item else "false"
        return repr(float(item)) if values.dtype.kind == "f" else str(int(item))
    return "[" + ", ".join(dense_literal(row) for row in values) + "]"


@given(st.sampled_from(ANY), seeds, shapes)
def test_constant(element: str, seed: int, shape: tuple[int, ...]) -> None:
    constant = draw_values(np.random.default_rng(seed), shape, element)
    type_ = tensor_type(shape, element)
    combine = "xor" if element == "i1" else "add"
    check(
        f"%c = nn.constant dense<{dense_literal(constant)}> : {type_}\n"
        f"  %r = nn.{combine} %a0, %c : {type_}",
        [(type_, draw_values(np.random.default_rng(seed + 1), shape, element))],
        type_,
    )


# --- layout -------------------------------------------------------------------


@given(st.data(), st.sampled_from(ANY), seeds)
def test_broadcast_to(data: st.DataObject, element: str, seed: int) -> None:
    result, (operand,) = data.draw(broadcast_shapes(1))
    source, target = tensor_type(operand, element), tensor_type(result, element)
    check(
        f"%r = nn.broadcast_to %a0 : {source} -> {target}",
        [(source, draw_values(np.random.default_rng(seed), operand, element))],
        target,
    )


@given(
    st.data(),
    st.sampled_from(ANY),
    st.lists(st.integers(1, 4), min_size=1, max_size=4),
    seeds,
)
def test_transpose(
    data: st.DataObject, element: str, shape: list[int], seed: int
) -> None:
    perm = data.draw(st.permutations(range(len(shape))))
    result = [shape[axis] for axis in perm]
    source, target = tensor_type(shape, element), tensor_type(result, element)
    check(
        f"%r = nn.transpose %a0 perm {list(perm)} : {source} -> {target}",
        [(source, draw_values(np.random.default_rng(seed), shape, element))],
        target,
    )


@st.composite
def factorised(draw: st.DrawFn, count: int) -> tuple[int, ...]:
    """A shape with `count` elements (size-1 dims sprinkled in)."""
    dims: list[int] = []
    remaining = count
    for factor in (2, 3, 5):
        while remaining % factor == 0:
            remaining //= factor
            merge: bool = draw(st.booleans())
            if dims and merge:
                dims[-1] *= factor
            else:
                dims.append(factor)
    for _ in range(draw(st.integers(0, 2))):
        dims.insert(draw(st.integers(0, len(dims))), 1)
    return tuple(draw(st.permutations(dims)))


@given(st.data(), st.sampled_from([1, 2, 6, 12, 24, 30]), st.sampled_from(ANY), seeds)
def test_reshape(data: st.DataObject, count: int, element: str, seed: int) -> None:
    source_shape = data.draw(factorised(count))
    target_shape = data.draw(factorised(count))
    source, target = (
        tensor_type(source_shape, element),
        tensor_type(target_shape, element),
    )
    check(
        f"%r = nn.reshape %a0 : {source} -> {target}",
        [(source, draw_values(np.random.default_rng(seed), source_shape, element))],
        target,
    )


@given(
    st.data(),
    st.sampled_from(ANY),
    st.lists(st.integers(1, 3), min_size=1, max_size=3),
    seeds,
)
def test_concat(data: st.DataObject, element: str, shape: list[int], seed: int) -> None:
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    rng = np.random.default_rng(seed)
    arguments = []
    for size in sizes:
        operand = list(shape)
        operand[axis] = size
        arguments.append(
            (tensor_type(operand, element), draw_values(rng, operand, element))
        )
    result = list(shape)
    result[axis] = sum(sizes)
    names = ", ".join(f"%a{index}" for index in range(len(sizes)))
    types = ", ".join(type_ for type_, _ in arguments)
    result_type = tensor_type(result, element)
    check(
        f"%r = nn.concat {names} axis {axis} : {types} -> {result_type}",
        arguments,
        result_type,
    )


@given(
    st.data(),
    st.sampled_from(ANY),
    st.lists(st.integers(1, 6), min_size=1, max_size=3),
    seeds,
)
def test_slice(data: st.DataObject, element: str, shape: list[int], seed: int) -> None:
    start, limit, stride, result = [], [], [], []
    for size in shape:
        first = data.draw(st.integers(0, size - 1))
        end = data.draw(st.integers(first + 1, size))
        step = data.draw(st.integers(1, 3))
        start.append(first)
        limit.append(end)
        stride.append(step)
        result.append(-(-(end - first) // step))
    source, target = tensor_type(shape, element), tensor_type(result, element)
    check(
        f"%r = nn.slice %a0 start {start} limit {limit} stride {stride} "
        f": {source} -> {target}",
        [(source, draw_values(np.random.default_rng(seed), shape, element))],
        target,
    )


# --- reductions and normalisations ------------------------------------------


@given(
    st.data(),
    st.sampled_from(["sum", "max", "min", "mean"]),
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
    st.booleans(),
    seeds,
)
def test_reduction(
    data: st.DataObject, kind: str, shape: list[int], keepdims: bool, seed: int
) -> None:
    element = data.draw(st.sampled_from(FLOATS if kind == "mean" else NUMBERS))
    axes = data.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, unique=True))
    written = [axis - len(shape) if data.draw(st.booleans()) else axis for axis in axes]
    result = [
        1 if dim in axes else size
        for dim, size in enumerate(shape)
        if keepdims or dim not in axes
    ]
    source, target = tensor_type(shape, element), tensor_type(result, element)
    terms = math.prod(shape[axis] for axis in axes)
    check(
        f"%r = nn.reduce_{kind} %a0 axes {written} {'keepdims' if keepdims else ''} "
        f": {source} -> {target}",
        [(source, draw_values(np.random.default_rng(seed), shape, element))],
        target,
        **sum_tolerance(element, terms),
    )


@given(
    st.data(),
    st.sampled_from(["softmax", "log_softmax"]),
    st.sampled_from(FLOATS),
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
    seeds,
)
def test_softmax(
    data: st.DataObject, name: str, element: str, shape: list[int], seed: int
) -> None:
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    type_ = tensor_type(shape, element)
    values = draw_values(np.random.default_rng(seed), shape, element) * 10
    check(
        f"%r = nn.{name} %a0 axis {axis} : {type_}",
        [(type_, values.astype(values.dtype))],
        type_,
        **sum_tolerance(element, shape[axis]),
    )


@given(
    st.data(),
    st.sampled_from(FLOATS),
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
    seeds,
)
def test_layer_norm(
    data: st.DataObject, element: str, shape: list[int], seed: int
) -> None:
    """Without, with scale, with bias, with both: one result each."""
    count = data.draw(st.integers(1, len(shape)))
    axes = [axis - len(shape) for axis in range(len(shape) - count, len(shape))]
    eps = data.draw(st.sampled_from(["1.0e-05", "0.1", "0.0"]))
    rng = np.random.default_rng(seed)
    normalised = shape[len(shape) - count :]
    type_, trailing = tensor_type(shape, element), tensor_type(normalised, element)
    arguments = [
        (type_, draw_values(rng, shape, element)),
        (trailing, draw_values(rng, normalised, element)),
        (trailing, draw_values(rng, normalised, element)),
    ]
    variants = {
        "plain": ("", [type_]),
        "scaled": (" scale %a1", [type_, trailing]),
        "biased": (" bias %a2", [type_, trailing]),
        "affine": (" scale %a1 bias %a2", [type_, trailing, trailing]),
    }
    lines = [
        f"%{name} = nn.layer_norm %a0{operands} axes {axes} eps {eps} "
        f": {', '.join(types)} -> {type_}"
        for name, (operands, types) in variants.items()
    ]
    tolerance = sum_tolerance(element, math.prod(normalised) * 4)
    if tolerance["atol"] is not None:
        tolerance["atol"] *= layer_norm_condition(
            arguments[0][1], math.prod(normalised), float(eps)
        )
    check(
        "\n  ".join(lines),
        arguments,
        [(f"%{name}", type_) for name in variants],
        **tolerance,
    )


def layer_norm_condition(values: np.ndarray, row_size: int, eps: float) -> float:
    """How much layer norm amplifies rounding: max |x| / sqrt(var + eps) over
    the rows (at least 1). The rounding of a row's mean, about |x| ulp, is
    divided by the row's standard deviation, so two close values in f16 give
    a visibly different normalised result from any two evaluation orders."""
    rows = values.astype(np.float64).reshape(-1, row_size)
    spread = np.sqrt(rows.var(axis=1) + eps)
    magnitude = np.abs(rows).max(axis=1)
    with np.errstate(divide="ignore"):
        ratios = np.where(spread > 0, magnitude / spread, 1.0)
    return max(1.0, float(ratios.max()))


# --- contractions, convolution, pooling --------------------------------------


@given(
    st.data(),
    st.sampled_from(NUMBERS),
    st.integers(1, 4),
    st.integers(1, 4),
    st.integers(1, 4),
    seeds,
)
def test_matmul(
    data: st.DataObject, element: str, rows: int, inner: int, columns: int, seed: int
) -> None:
    batch, (lhs_batch, rhs_batch) = data.draw(broadcast_shapes(2))
    if data.draw(st.booleans()):
        lhs_batch = rhs_batch = batch  # equal batch dims: linalg.batch_matmul
    lhs = (*lhs_batch, rows, inner)
    rhs = (*rhs_batch, inner, columns)
    result_batch = np.broadcast_shapes(lhs_batch, rhs_batch)
    result = (*result_batch, rows, columns)
    rng = np.random.default_rng(seed)
    lhs_type, rhs_type = tensor_type(lhs, element), tensor_type(rhs, element)
    result_type = tensor_type(result, element)
    check(
        f"%r = nn.matmul %a0, %a1 : {lhs_type}, {rhs_type} -> {result_type}",
        [
            (lhs_type, draw_values(rng, lhs, element)),
            (rhs_type, draw_values(rng, rhs, element)),
        ],
        result_type,
        **sum_tolerance(element, inner),
    )


def window_size(size: int, window: int, stride: int, pad: int, dilation: int) -> int:
    return (size + 2 * pad - dilation * (window - 1) - 1) // stride + 1


@given(
    st.data(),
    st.sampled_from(FLOATS),
    st.tuples(st.integers(1, 2), st.integers(1, 3), st.integers(1, 3)),
    st.booleans(),
    seeds,
)
def test_conv2d(
    data: st.DataObject,
    element: str,
    counts: tuple[int, int, int],
    with_bias: bool,
    seed: int,
) -> None:
    batch, channels, filters = counts
    kernel = [data.draw(st.integers(1, 3)) for _ in range(2)]
    stride = [data.draw(st.integers(1, 2)) for _ in range(2)]
    padding = [data.draw(st.integers(0, 2)) for _ in range(2)]
    dilation = [data.draw(st.integers(1, 2)) for _ in range(2)]
    spatial = [
        data.draw(st.integers(max(1, d * (k - 1) + 1 - 2 * p), 6))
        for k, p, d in zip(kernel, padding, dilation, strict=True)
    ]
    out = [
        window_size(*args)
        for args in zip(spatial, kernel, stride, padding, dilation, strict=True)
    ]
    rng = np.random.default_rng(seed)
    input_shape = (batch, channels, *spatial)
    weight_shape = (filters, channels, *kernel)
    types = [tensor_type(input_shape, element), tensor_type(weight_shape, element)]
    arguments = [
        (types[0], draw_values(rng, input_shape, element)),
        (types[1], draw_values(rng, weight_shape, element)),
    ]
    operands = "%a0, %a1"
    if with_bias:
        types.append(tensor_type([filters], element))
        arguments.append((types[2], draw_values(rng, [filters], element)))
        operands += ", %a2"
    result_type = tensor_type((batch, filters, *out), element)
    check(
        f"%r = nn.conv2d {operands} stride {stride} padding {padding} "
        f"dilation {dilation} : {', '.join(types)} -> {result_type}",
        arguments,
        result_type,
        **sum_tolerance(element, channels * kernel[0] * kernel[1] + 1),
    )


@given(st.data(), st.sampled_from(["max", "avg"]), seeds)
def test_pool2d(data: st.DataObject, kind: str, seed: int) -> None:
    element = data.draw(st.sampled_from(NUMBERS if kind == "max" else FLOATS))
    kernel = [data.draw(st.integers(1, 3)) for _ in range(2)]
    stride = [data.draw(st.integers(1, 3)) for _ in range(2)]
    padding = [data.draw(st.integers(0, k // 2)) for k in kernel]
    spatial = [
        data.draw(st.integers(max(1, k - 2 * p), 6))
        for k, p in zip(kernel, padding, strict=True)
    ]
    channels = data.draw(st.integers(1, 3))
    out = [
        window_size(size, k, s, p, 1)
        for size, k, s, p in zip(spatial, kernel, stride, padding, strict=True)
    ]
    input_shape = (1, channels, *spatial)
    source = tensor_type(input_shape, element)
    target = tensor_type((1, channels, *out), element)
    check(
        f"%r = nn.{kind}_pool2d %a0 kernel {kernel} stride {stride} padding {padding} "
        f": {source} -> {target}",
        [(source, draw_values(np.random.default_rng(seed), input_shape, element))],
        target,
        **sum_tolerance(element, kernel[0] * kernel[1]),
    )


# --- a whole program ------------------------------------------------------------


def test_mlp_example() -> None:
    lowered = assert_pass_preserves_semantics(
        ConvertNnToLinalgPass(), (EXAMPLES / "mlp.mlir").read_text(), trials=3
    )
    assert not [op.name for op in lowered.walk() if op.dialect_name() == "nn"]
