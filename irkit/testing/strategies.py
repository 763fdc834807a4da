"""Hypothesis strategies for random, well-typed, verifying programs.

- `nn_programs(max_ops=6)`: a `func.func @main` whose body is a random DAG of
  `nn` ops over the whole op set (elementwise with broadcasting, matmul,
  reductions, softmax, layer_norm, shape ops, conv2d and pooling), with one or
  two results.
- `linalg_programs(max_ops=4)`: chains of `linalg.generic` ops on tensors with
  random projected-permutation indexing maps, parallel and reduction
  iterators, and bodies of `arith`/`math` ops; plus named ops.

Programs are domain-safe for the inputs `irkit.testing.inputs` draws (floats
in [-1, 1)): an op with a restricted domain gets a guarded operand
(`log(exp(tanh(x)))`, divisors `exp(tanh(y))`), so values stay finite and
bounded. Every choice is a Hypothesis draw, so a failing program shrinks to a
few ops on small shapes.

`check_pass(pass_, programs)` runs the semantic checker on drawn programs; it
is meant to be the whole body of a pytest test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, cast

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    FunctionType,
    ModuleOp,
    TensorType,
    f32,
    f64,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from irkit import parsing
from irkit.context import make_context
from irkit.dialects import nn
from irkit.pass_manager import Pipeline
from irkit.testing.checker import PassLike, assert_pass_preserves_semantics

# `check_pass`'s property names it `parse_module`, and Hypothesis's
# derandomised ci profile seeds its examples from that function's source:
# the name stays, the program the checker parsed is cloned rather than
# parsed again.
from irkit.testing.checker import parse_program as parse_module
from irkit.testing.printing import IRText
from irkit.verification import verify_module

Draw = Callable[[st.SearchStrategy[Any]], Any]

# The element types random programs may compute in, by MLIR name (f32 is the
# default; the half types test the f16 and bf16 paths).
FLOAT_ELEMENTS: dict[str, Attribute] = {
    "f16": Float16Type(),
    "bf16": BFloat16Type(),
    "f32": f32,
}


@dataclass
class _Builder:
    """The function being drawn: its block, its inputs and the values so far."""

    draw: Draw
    block: Block = field(default_factory=Block)
    values: list[SSAValue] = field(default_factory=list)
    # The float type the program computes in (`nn_programs(element=...)`).
    element: Attribute = f32

    def input(self, shape: Sequence[int]) -> SSAValue:
        element = self.element
        arg = self.block.insert_arg(TensorType(element, shape), len(self.block.args))
        self.values.append(arg)
        return arg

    def flows(self, value: SSAValue) -> bool:
        """Whether `value` is a tensor of the program's element type."""
        return (
            isinstance(value.type, TensorType)
            and value.type.get_element_type() == self.element
        )

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        self.values.append(op.results[0])
        return op.results[0]

    def pick(self, accept: Callable[[SSAValue], bool] = lambda _: True) -> SSAValue:
        # Only values of the element type flow on (a cast's f64 or a cmp's
        # i1 is used locally).
        candidates = [v for v in self.values if self.flows(v) and accept(v)]
        # Recent values first: shrinking toward index 0 keeps programs chained.
        return self.draw(st.sampled_from(candidates[::-1]))

    def positive(self, value: SSAValue) -> SSAValue:
        """exp(tanh(x)): in [0.36, 2.8], a safe operand for log, sqrt, division."""
        return self.add(nn.ExpOp(self.add(nn.TanhOp(value))))


def _shape(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, TensorType)
    return tuple(value.type.get_shape())


def _broadcasts(a: SSAValue, b: SSAValue) -> bool:
    return nn.broadcast_shapes(_shape(a), _shape(b)) is not None


_UNARY: dict[str, type[nn.ElementwiseUnaryOp]] = {
    "nn.neg": nn.NegOp,
    "nn.abs": nn.AbsOp,
    "nn.relu": nn.ReluOp,
    "nn.tanh": nn.TanhOp,
    "nn.sigmoid": nn.SigmoidOp,
    "nn.erf": nn.ErfOp,
}
# Ops defined on positive numbers get an operand guarded by `positive`.
_POSITIVE_UNARY: dict[str, type[nn.ElementwiseUnaryOp]] = {
    "nn.log": nn.LogOp,
    "nn.sqrt": nn.SqrtOp,
    "nn.rsqrt": nn.RsqrtOp,
}
_BINARY: dict[str, type[nn.ElementwiseBinaryOp]] = {
    "nn.add": nn.AddOp,
    "nn.sub": nn.SubOp,
    "nn.mul": nn.MulOp,
    "nn.max": nn.MaxOp,
    "nn.min": nn.MinOp,
}
_REDUCTIONS: dict[str, type[nn.ReductionOp]] = {
    "nn.reduce_sum": nn.ReduceSumOp,
    "nn.reduce_max": nn.ReduceMaxOp,
    "nn.reduce_min": nn.ReduceMinOp,
    "nn.reduce_mean": nn.ReduceMeanOp,
}


def _unary(builder: _Builder, kind: str) -> SSAValue | None:
    x = builder.pick()
    if kind in _UNARY:
        return builder.add(_UNARY[kind](x))
    if kind in _POSITIVE_UNARY:
        return builder.add(_POSITIVE_UNARY[kind](builder.positive(x)))
    if kind == "nn.gelu":
        approximation = builder.draw(st.sampled_from(list(nn.GeluApproximation)))
        return builder.add(nn.GeluOp(x, approximation))
    if kind == "nn.exp":
        return builder.add(nn.ExpOp(builder.add(nn.TanhOp(x))))
    assert kind == "nn.cast"
    wide = builder.add(nn.CastOp(x, f64))
    return builder.add(nn.CastOp(wide, builder.element))


def _binary(builder: _Builder, kind: str) -> SSAValue | None:
    lhs = builder.pick()
    rhs = builder.pick(lambda v: _broadcasts(lhs, v))
    if kind in _BINARY:
        return builder.add(_BINARY[kind](lhs, rhs))
    if kind == "nn.div":
        return builder.add(nn.DivOp(lhs, builder.positive(rhs)))
    if kind == "nn.pow":
        exponent = builder.add(nn.TanhOp(rhs))
        return builder.add(nn.PowOp(builder.positive(lhs), exponent))
    assert kind == "nn.select"
    predicate = builder.draw(st.sampled_from(list(nn.CmpPredicate)))
    condition = builder.add(nn.CmpOp(predicate, lhs, rhs))
    return builder.add(nn.SelectOp(condition, lhs, rhs))


def _matmul(builder: _Builder, kind: str) -> SSAValue | None:
    lhs = builder.pick()
    shape = _shape(lhs)
    if len(shape) < 2:
        # A fresh 2-D left operand, with a 1-D value's length as its
        # columns (a 0-D value has no length to lend: drawn).
        rows = builder.draw(st.integers(1, 4))
        length = shape[0] if shape else builder.draw(st.integers(1, 4))
        lhs = builder.input((rows, length))
        shape = _shape(lhs)
    n = builder.draw(st.integers(1, 4))
    batched = len(shape) > 2 and builder.draw(st.booleans())
    rhs_shape = (*shape[:-2], shape[-1], n) if batched else (shape[-1], n)
    return builder.add(nn.MatmulOp(lhs, builder.input(rhs_shape)))


def _axes(builder: _Builder, rank: int) -> list[int]:
    return sorted(
        builder.draw(st.sets(st.integers(0, rank - 1), min_size=1, max_size=rank))
    )


def _reduction(builder: _Builder, kind: str) -> SSAValue | None:
    x = builder.pick(lambda v: len(_shape(v)) > 0)
    axes = _axes(builder, len(_shape(x)))
    keepdims = builder.draw(st.booleans())
    return builder.add(_REDUCTIONS[kind](x, axes, keepdims=keepdims))


def _normalisation(builder: _Builder, kind: str) -> SSAValue | None:
    x = builder.pick(lambda v: len(_shape(v)) > 0)
    shape = _shape(x)
    axis = builder.draw(st.integers(0, len(shape) - 1))
    if kind == "nn.softmax":
        return builder.add(nn.SoftmaxOp(x, axis))
    if kind == "nn.log_softmax":
        return builder.add(nn.LogSoftmaxOp(x, axis))
    assert kind == "nn.layer_norm"
    normalised = list(range(axis, len(shape)))
    affine = builder.draw(st.booleans())
    scale = builder.input(shape[axis:]) if affine else None
    bias = builder.input(shape[axis:]) if affine else None
    return builder.add(nn.LayerNormOp(x, normalised, scale, bias))


def _shape_op(builder: _Builder, kind: str) -> SSAValue | None:
    x = builder.pick()
    shape = _shape(x)
    if kind == "nn.transpose":
        perm = builder.draw(st.permutations(range(len(shape))))
        return builder.add(nn.TransposeOp(x, perm))
    if kind == "nn.reshape":
        size = 1
        for dim in shape:
            size *= dim
        target = builder.draw(
            st.sampled_from([(size,), (1, *shape), tuple(reversed(shape))])
        )
        return builder.add(nn.ReshapeOp(x, target))
    if kind == "nn.broadcast_to":
        extra = builder.draw(st.integers(1, 3))
        return builder.add(nn.BroadcastToOp(x, (extra, *shape)))
    if not shape:
        return None
    axis = builder.draw(st.integers(0, len(shape) - 1))
    if kind == "nn.concat":
        other = builder.pick(lambda v: _shape(v) == shape)
        return builder.add(nn.ConcatOp([x, other], axis))
    assert kind == "nn.slice"
    start = [builder.draw(st.integers(0, d - 1)) for d in shape]
    limit = [builder.draw(st.integers(s + 1, d)) for s, d in zip(start, shape)]
    stride = [builder.draw(st.integers(1, 2)) for _ in shape]
    return builder.add(nn.SliceOp(x, start, limit, stride))


def _spatial(builder: _Builder, kind: str) -> SSAValue | None:
    """conv2d and pooling on an NCHW value (a fresh input when none is 4-D)."""
    four_d = [v for v in builder.values if builder.flows(v) and len(_shape(v)) == 4]
    if four_d:
        x = builder.pick(lambda v: len(_shape(v)) == 4)
    else:
        dims = [builder.draw(st.integers(1, 2)), builder.draw(st.integers(1, 3))]
        dims += [builder.draw(st.integers(2, 5)) for _ in range(2)]
        x = builder.input(dims)
    _, channels, height, width = _shape(x)
    padding = [builder.draw(st.integers(0, 1)) for _ in range(2)]
    stride = [builder.draw(st.integers(1, 2)) for _ in range(2)]
    kernel = [
        builder.draw(st.integers(1, min(3, extent + 2 * pad)))
        for extent, pad in zip((height, width), padding)
    ]
    if kind == "nn.conv2d":
        dilation = [
            builder.draw(
                st.sampled_from([1, 2] if 2 * (k - 1) < extent + 2 * pad else [1])
            )
            for extent, pad, k in zip((height, width), padding, kernel)
        ]
        filters = builder.draw(st.integers(1, 3))
        weight = builder.input((filters, channels, *kernel))
        bias = builder.input((filters,)) if builder.draw(st.booleans()) else None
        return builder.add(nn.Conv2dOp(x, weight, bias, stride, padding, dilation))
    # Pooling windows must not start inside the padding only.
    padding = [min(p, k // 2) for p, k in zip(padding, kernel)]
    pool = nn.MaxPool2dOp if kind == "nn.max_pool2d" else nn.AvgPool2dOp
    return builder.add(pool(x, kernel, stride, padding))


_LOGICAL: dict[str, type[nn.ElementwiseBinaryOp]] = {
    "nn.and": nn.AndOp,
    "nn.or": nn.OrOp,
    "nn.xor": nn.XorOp,
}


def _logical(builder: _Builder, kind: str) -> SSAValue | None:
    """A mask from comparisons, combined logically, then used by a select."""
    lhs = builder.pick()
    rhs = builder.pick(lambda v: _broadcasts(lhs, v))
    predicates = st.sampled_from(list(nn.CmpPredicate))
    mask = builder.add(nn.CmpOp(builder.draw(predicates), lhs, rhs))
    if kind == "nn.not":
        mask = builder.add(nn.NotOp(mask))
    else:
        other = builder.add(nn.CmpOp(builder.draw(predicates), rhs, lhs))
        mask = builder.add(_LOGICAL[kind](mask, other))
    return builder.add(nn.SelectOp(mask, lhs, rhs))


def _constant(builder: _Builder, kind: str) -> SSAValue | None:
    """A dense constant of a live value's shape, combined with that value."""
    x = builder.pick()
    shape = _shape(x)
    size = 1
    for dim in shape:
        size *= dim
    elements = builder.draw(
        st.lists(
            st.floats(-1, 1, width=32).filter(lambda v: v != 0),
            min_size=size,
            max_size=size,
        )
    )
    element = cast(AnyFloat, builder.element)
    value = DenseIntOrFPElementsAttr.from_list(TensorType(element, shape), elements)
    constant = builder.add(nn.ConstantOp(value))
    return builder.add(nn.AddOp(x, constant))


Generator = Callable[[_Builder, str], SSAValue | None]

# Every nn op a program may contain, with the function that draws one.
NN_OPS: dict[str, Generator] = {
    **dict.fromkeys(
        [*_UNARY, *_POSITIVE_UNARY, "nn.gelu", "nn.exp", "nn.cast"], _unary
    ),
    **dict.fromkeys([*_BINARY, "nn.div", "nn.pow", "nn.select"], _binary),
    **dict.fromkeys([*_LOGICAL, "nn.not"], _logical),
    "nn.constant": _constant,
    "nn.matmul": _matmul,
    **dict.fromkeys(_REDUCTIONS, _reduction),
    **dict.fromkeys(["nn.softmax", "nn.log_softmax", "nn.layer_norm"], _normalisation),
    **dict.fromkeys(
        ["nn.transpose", "nn.reshape", "nn.broadcast_to", "nn.concat", "nn.slice"],
        _shape_op,
    ),
    **dict.fromkeys(["nn.conv2d", "nn.max_pool2d", "nn.avg_pool2d"], _spatial),
}


@st.composite
def _nn_op(draw: Draw, builder: _Builder, kinds: Sequence[str]) -> None:
    """One op and its operands, drawn as one unit: the shrinker deletes an op
    with all its draws, so a failing program loses the ops that do not matter
    wherever they are, not only at its end."""
    builder.draw = draw
    kind = draw(st.sampled_from(kinds))
    NN_OPS[kind](builder, kind)


@st.composite
def nn_programs(
    draw: Draw,
    max_ops: int = 6,
    *,
    ops: Collection[str] | None = None,
    max_rank: int = 3,
    max_dim: int = 4,
    element: Attribute = f32,
) -> ModuleOp:
    """A verified module: `@main` computing a random DAG of `nn` ops.

    `ops` restricts the drawn ops to some names of `NN_OPS` (guard ops such as
    the `exp(tanh(x))` before a `log` still appear), to focus on what a pass
    rewrites. `element` is the float type the program computes in (f32; f16
    or bf16 for the half-precision paths: compare with their tolerances).
    """
    if element not in FLOAT_ELEMENTS.values():
        raise ValueError(f"nn_programs computes in a float type, not {element}")
    kinds = sorted(ops) if ops is not None else list(NN_OPS)
    unknown = set(kinds) - set(NN_OPS)
    if unknown:
        raise ValueError(f"nn_programs cannot draw {sorted(unknown)}")
    builder = _Builder(draw, element=element)
    rank = draw(st.integers(1, max_rank))
    base = [draw(st.integers(1, max_dim)) for _ in range(rank)]
    builder.input(base)
    for _ in range(draw(st.integers(0, 2))):
        dropped = draw(st.integers(0, rank - 1))
        shape = [1 if draw(st.booleans()) else d for d in base[dropped:]]
        builder.input(shape)
    for _ in range(draw(st.integers(1, max_ops))):
        draw(_nn_op(builder, kinds))
    builder.draw = draw
    results = [builder.values[-1]]
    others = [
        v
        for v in builder.values
        if v is not results[0] and not _is_arg(v) and builder.flows(v)
    ]
    if others and draw(st.booleans()):
        results.append(draw(st.sampled_from(others)))
    return _finish(builder, results)


def _is_arg(value: SSAValue) -> bool:
    return isinstance(value, BlockArgument)


def _finish(builder: _Builder, results: Sequence[SSAValue]) -> ModuleOp:
    builder.block.add_op(ReturnOp(*results))
    inputs = [arg.type for arg in builder.block.args]
    signature = FunctionType.from_lists(inputs, [r.type for r in results])
    func = FuncOp("main", signature, Region(builder.block))
    module = ModuleOp([func])
    verify_module(module)
    return module


# --- linalg.generic programs -------------------------------------------------

_FLOAT_BODY_BINARY = [
    "arith.addf",
    "arith.subf",
    "arith.mulf",
    "arith.maximumf",
    "arith.minimumf",
]
_FLOAT_BODY_UNARY = ["math.tanh", "math.absf", "arith.negf", "math.exp", "math.erf"]


def _map(dims: int, results: Sequence[int]) -> str:
    names = ", ".join(f"d{i}" for i in range(dims))
    exprs = ", ".join(f"d{i}" for i in results)
    return f"affine_map<({names}) -> ({exprs})>"


def _tensor(shape: Sequence[int], element: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element}>"


@st.composite
def _generic_body(
    draw: Draw, inputs: int, reduce: bool, element: str = "f32"
) -> list[str]:
    """Body lines over block args %in0.., %acc; yields %r."""
    values = [f"%in{i}" for i in range(inputs)]
    lines: list[str] = []
    for step in range(draw(st.integers(1, 3))):
        name = f"%t{step}"
        if len(values) > 1 and draw(st.booleans()):
            op = draw(st.sampled_from(_FLOAT_BODY_BINARY))
            lhs, rhs = draw(st.sampled_from(values)), draw(st.sampled_from(values))
            lines.append(f"{name} = {op} {lhs}, {rhs} : {element}")
        else:
            op = draw(st.sampled_from(_FLOAT_BODY_UNARY))
            operand = draw(st.sampled_from(values))
            if op == "math.exp":
                lines.append(f"{name}_b = math.tanh {operand} : {element}")
                operand = f"{name}_b"
            lines.append(f"{name} = {op} {operand} : {element}")
        values.append(name)
    result = values[-1]
    if reduce:
        combiner = draw(st.sampled_from(["arith.addf", "arith.maximumf"]))
        lines.append(f"%r = {combiner} {result}, %acc : {element}")
        result = "%r"
    lines.append(f"linalg.yield {result} : {element}")
    return lines


_NAMED_BINARY = ["linalg.add", "linalg.sub", "linalg.mul", "linalg.max", "linalg.min"]
# Bounded on [-1, 1) inputs and on each other's results: no domain guards needed.
_NAMED_UNARY = ["linalg.abs", "linalg.negf", "linalg.tanh", "linalg.square"]


@dataclass
class _LinalgChain:
    """The `@main` being drawn by `linalg_programs`: arguments and body lines."""

    draw: Draw
    max_dim: int
    element: str = "f32"
    args: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    # The last result: its SSA name and static shape.
    previous: tuple[str, tuple[int, ...]] | None = None

    def argument(self, shape: Sequence[int]) -> str:
        name = f"%arg{len(self.args)}"
        self.args.append(f"{name}: {self.tensor(shape)}")
        return name

    def operand(self, shape: Sequence[int]) -> str:
        """The previous result when it has `shape` (half the time), else a fresh
        argument: chains stay connected without forcing every shape."""
        if self.previous is not None and self.previous[1] == tuple(shape):
            if self.draw(st.booleans()):
                return self.previous[0]
        return self.argument(shape)

    def tensor(self, shape: Sequence[int]) -> str:
        return _tensor(shape, self.element)

    def fresh_shape(self, rank: int) -> tuple[int, ...]:
        return tuple(self.draw(st.integers(1, self.max_dim)) for _ in range(rank))

    def previous_shape(self, rank: int) -> tuple[int, ...]:
        """The previous result's shape if it has `rank`, else a fresh one."""
        if self.previous is not None and len(self.previous[1]) == rank:
            return self.previous[1]
        return self.fresh_shape(rank)

    def init(self, index: int, shape: Sequence[int], zero: bool) -> str:
        out = self.tensor(shape)
        self.lines.append(f"%empty{index} = tensor.empty() : {out}")
        if not zero:
            return f"%empty{index}"
        self.lines.append(f"%zero{index} = arith.constant 0.0 : {self.element}")
        self.lines.append(
            f"%init{index} = linalg.fill ins(%zero{index} : {self.element}) "
            f"outs(%empty{index} : {out}) -> {out}"
        )
        return f"%init{index}"

    def named(
        self,
        index: int,
        op: str,
        ins: Sequence[tuple[str, Sequence[int]]],
        out_shape: Sequence[int],
        *,
        zero_init: bool = False,
        suffix: str = "",
    ) -> None:
        init = self.init(index, out_shape, zero_init)
        names = ", ".join(name for name, _ in ins)
        types = ", ".join(self.tensor(shape) for _, shape in ins)
        out = self.tensor(out_shape)
        result = f"%g{index}"
        if suffix:  # linalg.transpose: the result type is the init's
            self.lines.append(
                f"{result} = {op} ins({names} : {types}) outs({init} : {out}){suffix}"
            )
        else:
            self.lines.append(
                f"{result} = {op} ins({names} : {types}) outs({init} : {out}) -> {out}"
            )
        self.previous = (result, tuple(out_shape))


def _named_step(chain: _LinalgChain, index: int) -> None:
    """One named linalg op: elementwise, matmul, batch_matmul or transpose."""
    draw = chain.draw
    kind = draw(st.sampled_from(["unary", "binary", "matmul", "batch", "transpose"]))
    if kind in ("unary", "binary"):
        shape = chain.previous_shape(draw(st.integers(1, 3)))
        if kind == "unary":
            op = draw(st.sampled_from(_NAMED_UNARY))
            chain.named(index, op, [(chain.operand(shape), shape)], shape)
        else:
            op = draw(st.sampled_from(_NAMED_BINARY))
            lhs, rhs = chain.operand(shape), chain.operand(shape)
            chain.named(index, op, [(lhs, shape), (rhs, shape)], shape)
    elif kind in ("matmul", "batch"):
        batch = chain.previous_shape(3)[:1] if kind == "batch" else ()
        m, k = chain.previous_shape(len(batch) + 2)[len(batch) :]
        n = draw(st.integers(1, chain.max_dim))
        lhs_shape, rhs_shape = (*batch, m, k), (*batch, k, n)
        op = "linalg.batch_matmul" if batch else "linalg.matmul"
        ins = [
            (chain.operand(lhs_shape), lhs_shape),
            (chain.argument(rhs_shape), rhs_shape),
        ]
        chain.named(index, op, ins, (*batch, m, n), zero_init=True)
    else:
        source = chain.previous_shape(draw(st.integers(2, 3)))
        permutation = draw(st.permutations(range(len(source))))
        out_shape = tuple(source[d] for d in permutation)
        suffix = f" permutation = [{', '.join(map(str, permutation))}]"
        chain.named(
            index,
            "linalg.transpose",
            [(chain.operand(source), source)],
            out_shape,
            suffix=suffix,
        )


def _generic_step(chain: _LinalgChain, index: int) -> None:
    """One `linalg.generic` over 1-3 loops reading the previous result."""
    draw = chain.draw
    loops = draw(st.integers(1, 3))
    sizes = [draw(st.integers(1, chain.max_dim)) for _ in range(loops)]
    reductions = draw(st.sets(st.integers(0, loops - 1), max_size=loops - 1))
    iterators = [
        '"reduction"' if d in reductions else '"parallel"' for d in range(loops)
    ]
    output_dims = [d for d in range(loops) if d not in reductions]
    operands: list[tuple[str, list[int]]] = []
    if chain.previous is not None:
        # Read the previous result through a map onto loops of matching size.
        name, shape = chain.previous
        fitting = _permutations_fitting(sizes, shape)
        if fitting:
            operands.append((name, draw(st.sampled_from(fitting))))
    for _ in range(draw(st.integers(0 if operands else 1, 2))):
        rank = draw(st.integers(0, loops))
        dims = draw(st.permutations(range(loops)))[:rank]
        operands.append((chain.argument([sizes[d] for d in dims]), list(dims)))
    covered = set(output_dims).union(*(dims for _, dims in operands))
    if len(covered) < loops:
        # Every loop must be read by some operand (invertible maps).
        dims = draw(st.permutations(range(loops)))
        operands.append((chain.argument([sizes[d] for d in dims]), list(dims)))
    out_shape = [sizes[d] for d in output_dims]
    reduce = bool(reductions)
    body = draw(_generic_body(len(operands), reduce, chain.element))
    maps = [_map(loops, dims) for _, dims in operands] + [_map(loops, output_dims)]
    ins = ", ".join(name for name, _ in operands)
    in_types = ", ".join(chain.tensor([sizes[d] for d in dims]) for _, dims in operands)
    out = chain.tensor(out_shape)
    init = chain.init(index, out_shape, zero=reduce)
    block_args = ", ".join(f"%in{i}: {chain.element}" for i in range(len(operands)))
    result = f"%g{index}"
    chain.lines.append(
        f"{result} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
        f"iterator_types = [{', '.join(iterators)}]}} ins({ins} : {in_types}) "
        f"outs({init} : {out}) {{"
    )
    chain.lines.append(f"^bb0({block_args}, %acc: {chain.element}):")
    chain.lines.extend("  " + line for line in body)
    chain.lines.append(f"}} -> {out}")
    chain.previous = (result, tuple(out_shape))


@st.composite
def _linalg_step(draw: Draw, chain: _LinalgChain, index: int, named_ops: bool) -> None:
    """One step of `chain`, drawn as one unit (see `_nn_op`)."""
    chain.draw = draw
    if named_ops and draw(st.booleans()):
        _named_step(chain, index)
    else:
        _generic_step(chain, index)


@st.composite
def linalg_programs(
    draw: Draw,
    max_ops: int = 3,
    max_dim: int = 4,
    *,
    named_ops: bool = True,
    element: str = "f32",
) -> ModuleOp:
    """A verified module `@main` of a chain of `linalg` ops on tensors.

    Each step is a `linalg.generic` over 1-3 loops (some of them reductions)
    reading the previous result and fresh inputs through random projected
    permutations, or (with `named_ops`) a named op: elementwise
    add/sub/mul/max/min/abs/negf/tanh/square, matmul, batch_matmul or
    transpose, fed by the previous result when its shape fits. `element`
    names the float type it computes in (`FLOAT_ELEMENTS`: f32, f16, bf16).
    """
    if element not in FLOAT_ELEMENTS:
        raise ValueError(f"linalg_programs computes in f16, bf16 or f32, not {element}")
    chain = _LinalgChain(draw, max_dim, element)
    for index in range(draw(st.integers(1, max_ops))):
        draw(_linalg_step(chain, index, named_ops))
    chain.draw = draw
    assert chain.previous is not None
    name, shape = chain.previous
    text = (
        f"func.func @main({', '.join(chain.args)}) -> {chain.tensor(shape)} {{\n  "
        + "\n  ".join(chain.lines)
        + f"\n  func.return {name} : {chain.tensor(shape)}\n}}\n"
    )
    return parsing.parse_module(text, filename="<linalg_programs>")


def _permutations_fitting(
    sizes: Sequence[int], shape: Sequence[int]
) -> list[list[int]]:
    """Maps from loops of `sizes` onto a tensor of `shape` (distinct loops)."""
    found: list[list[int]] = []

    def extend(prefix: list[int]) -> None:
        if len(found) >= 8:
            return
        if len(prefix) == len(shape):
            found.append(prefix)
            return
        for loop, size in enumerate(sizes):
            if loop not in prefix and size == shape[len(prefix)]:
                extend([*prefix, loop])

    extend([])
    return found


@dataclass(frozen=True)
class Lowering:
    """`pipeline` run on a copy of a module, as `lowered` maps programs (a
    copy: a strategy may hand out one module twice, `st.just(module)`)."""

    pipeline: str

    def __call__(self, module: ModuleOp) -> ModuleOp:
        lowered = module.clone()
        Pipeline.parse(self.pipeline).run(make_context(), lowered)
        return lowered


def lowered(
    programs: st.SearchStrategy[ModuleOp], pipeline: str
) -> st.SearchStrategy[ModuleOp]:
    """`programs` run through `pipeline`: random programs at a lower level.

    `lowered(nn_programs(), "lower-to-c")` draws loop-level programs over
    memrefs, to test a pass that runs after the pipeline.
    """
    return programs.map(Lowering(pipeline))


def _as_text(module: ModuleOp) -> IRText:
    return IRText(str(module))


def _example_deadline() -> timedelta | None:
    """The active profile's deadline per example, or none under Hypothesis's
    stock 200 ms, which a whole program interpreted twice exceeds."""
    active = settings.default
    deadline = active.deadline if active is not None else None
    if deadline == settings.get_profile("default").deadline:
        return None
    return deadline


def database_key(
    pass_or_pipeline: PassLike, programs: st.SearchStrategy[ModuleOp], *options: object
) -> bytes:
    """What `check_pass` keys its saved failures by: the pass (with its
    options), the strategy and the checker's options (object addresses in
    their reprs left out: they differ from run to run)."""
    described = "\n".join(repr(part) for part in (pass_or_pipeline, programs, *options))
    return re.sub(r" at 0x[0-9a-fA-F]+", "", described).encode()


@dataclass
class PassReach:
    """How often `check_pass`'s pass changed the programs it was given."""

    examples: int = 0
    changed: int = 0

    def describe(self) -> str:
        return f"changed {self.changed} of the {self.examples} programs it was run on"


class PassNeverFired(AssertionError):
    """`check_pass` drew programs the pass never changed: the property never
    reached the rewrite it is meant to check."""


def check_pass(
    pass_or_pipeline: PassLike,
    programs: st.SearchStrategy[ModuleOp] | None = None,
    *,
    trials: int = 1,
    rtol: float | None = None,
    atol: float | None = None,
    min_fired: int = 1,
) -> PassReach:
    """Property: `pass_or_pipeline` keeps the meaning of every drawn program.

    Draws programs (default `nn_programs()`) and input seeds with Hypothesis,
    and runs `assert_pass_preserves_semantics` on each; a failure is shrunk
    and raised as `SemanticsMismatch`, its program printed as IR text. The
    example count and the deadline per example come from the active
    Hypothesis profile (`irkit.testing.profiles`). Use it as the body of a
    test:

        def test_my_pass_keeps_meaning():
            check_pass(MyPass(), nn_programs(max_ops=6))

    A property whose pass never changes a drawn program checks nothing: when
    the pass changed fewer than `min_fired` programs (default 1), it raises
    `PassNeverFired` saying how many it changed. Returns the counts
    (`PassReach`), so a test can ask for more.
    """
    strategy = programs if programs is not None else nn_programs()
    reach = PassReach()

    # Programs travel as IR text: Hypothesis then reports a falsifying example
    # as readable IR rather than as the repr of an xDSL object.
    # The explain phase re-runs a shrunk failure hundreds of times to say which
    # draws mattered; for whole programs that costs more than it tells.
    @settings(
        deadline=_example_deadline(),
        suppress_health_check=[HealthCheck.too_slow],
        phases=[phase for phase in Phase if phase is not Phase.explain],
    )
    @given(program=strategy.map(_as_text), seed=st.integers(0, 2**16))
    def keeps_meaning(program: str, seed: int) -> None:
        after = assert_pass_preserves_semantics(
            pass_or_pipeline, program, trials=trials, seed=seed, rtol=rtol, atol=atol
        )
        reach.examples += 1
        if changed_by_pass(after, parse_module(program)):
            reach.changed += 1

    # Hypothesis keys saved failures by the test function's source, which is
    # this same function for every call: without a key of its own, a failure
    # one test saves is replayed (and, passing there, deleted) by another.
    setattr(
        keeps_meaning.hypothesis.inner_test,  # type: ignore[attr-defined]
        "_hypothesis_internal_add_digest",
        database_key(pass_or_pipeline, strategy, trials, rtol, atol),
    )
    keeps_meaning()
    if reach.changed < min_fired:
        raise PassNeverFired(
            f"check_pass: {_pass_name(pass_or_pipeline)} {reach.describe()} "
            f"(at least {min_fired} wanted): the property never reached the "
            "rewrite it checks. Draw programs the pass applies to (a strategy "
            "of your own, or nn_programs(ops=...)); see docs/testing-passes.md"
        )
    return reach


def changed_by_pass(after: ModuleOp, before: ModuleOp) -> bool:
    """Whether the pass changed the program: `after` differs from `before`
    in structure (ops, operands, attributes, properties, block argument
    types) or, failing that, in its printed text. What `check_pass` counts.

    IR that differs in structure prints differently (short of an attribute
    moved into the properties that a custom syntax prints the same), and a
    structural comparison tells so at the first difference, without printing
    two whole modules (printing a lowered GPU program after the pass was
    most of what counting cost). xDSL's structural comparison leaves out
    result types, so structurally equal IR is told apart by its text.
    """
    return not after.is_structurally_equivalent(before) or str(after) != str(before)


def _pass_name(pass_or_pipeline: PassLike) -> str:
    if isinstance(pass_or_pipeline, str):
        return repr(pass_or_pipeline)
    name = getattr(pass_or_pipeline, "name", None)
    if isinstance(name, str):
        return repr(name)
    return "the pipeline"
