"""convert-nn-to-linalg: lower irkit's `nn` dialect to upstream MLIR on tensors.

Contract:

- Input: any module. Its `nn` ops (verified, so every tensor has a static
  shape) must use tensor types without an encoding; an `nn` op with an encoded
  tensor type is rejected with a located error naming the op.
- Output: the same module with every `nn` op replaced by ops of exactly this
  set: `linalg.generic` (+ `linalg.yield`), `linalg.fill`, `linalg.matmul`,
  `linalg.batch_matmul`, `linalg.conv_2d_nchw_fchw`, `linalg.pooling_nchw_max`,
  `linalg.pooling_nchw_sum`, `tensor.empty`, `tensor.extract_slice`,
  `tensor.insert_slice`, `tensor.pad`, `tensor.expand_shape`,
  `tensor.collapse_shape`, `arith.constant` (scalar or dense) and scalar
  `arith`/`math` ops inside bodies. No `nn` op remains.
- Preserves: every other op, function signatures, and nn's semantics in the
  element type (f32 stays f32, integers wrap, integer division truncates).
  Floats are evaluated in the element type, where nn's reference evaluates
  transcendentals and sums in f64 and rounds once: results agree within
  per-dtype tolerances, not bit for bit. Every new op outside a body carries
  the location of the `nn` op it replaces.

Conventions of the output:

- An elementwise op (with NumPy broadcasting) is one all-parallel
  `linalg.generic` whose init is a `tensor.empty`; broadcasting lives in the
  indexing maps: missing leading dims are dropped, a size-1 dim broadcast
  against a larger one reads index `0` (`affine_map<(d0, d1) -> (0, d1)>`).
- A reduction fills its init with the combiner's identity (0, -inf/+inf for
  floats, INT_MIN/INT_MAX for integers) and accumulates in the element type.
  `keepdims` is expressed by the init's map: a reduced dim maps to `0`, as
  torch-mlir does, so no reshape is needed.
- Scalar constants are `arith.constant`s placed before the op that uses them
  (torch-mlir's style); bodies refer to them.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    TensorType,
    f32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from irkit.diagnostics import op_error
from irkit.dialects import linalg, nn, tensor
from irkit.dialects.tensor import reassociation
from irkit.transforms.utils.builders import i64_vector, pad_op

PASS_NAME = "convert-nn-to-linalg"

_OpT = TypeVar("_OpT", bound=Operation)
Shape = tuple[int, ...]
ScalarFn = Callable[[Sequence[SSAValue]], SSAValue]

# ---------------------------------------------------------------------------
# Types and indexing maps
# ---------------------------------------------------------------------------


def _tensor_type(value: SSAValue) -> TensorType[Attribute]:
    assert isinstance(value.type, TensorType)
    return cast(TensorType[Attribute], value.type)


def _shape(value: SSAValue) -> Shape:
    return tuple(_tensor_type(value).get_shape())


def _element(value: SSAValue) -> Attribute:
    return _tensor_type(value).get_element_type()


def _is_float(element_type: Attribute) -> bool:
    return isinstance(
        element_type, Float16Type | BFloat16Type | Float32Type | Float64Type
    )


def _is_bool(element_type: Attribute) -> bool:
    return isinstance(element_type, IntegerType) and element_type.width.data == 1


def _bitwidth(element_type: Attribute) -> int:
    if isinstance(element_type, IntegerType):
        return element_type.width.data
    return cast(AnyFloat, element_type).bitwidth


def _dims(positions: Sequence[int]) -> list[AffineExpr]:
    return [AffineDimExpr(position) for position in positions]


def _map(loops: int, exprs: Sequence[AffineExpr]) -> AffineMap:
    return AffineMap(loops, 0, tuple(exprs))


def _identity(rank: int) -> AffineMap:
    return _map(rank, _dims(range(rank)))


def _broadcast_exprs(
    shape: Sequence[int], target: Sequence[int], first_loop: int = 0
) -> list[AffineExpr]:
    """How an operand of `shape` is read at the loops of `target` (NumPy rules).

    `target` occupies loops `first_loop, first_loop + 1, ...`; the operand's
    dims align with its trailing ones. A size-1 dim broadcast against a larger
    one always reads index 0.
    """
    offset = first_loop + len(target) - len(shape)
    exprs: list[AffineExpr] = []
    for dim, size in enumerate(shape):
        loop = offset + dim
        broadcast = size == 1 and target[loop - first_loop] != 1
        exprs.append(AffineConstantExpr(0) if broadcast else AffineDimExpr(loop))
    return exprs


def _broadcast_map(shape: Sequence[int], target: Sequence[int]) -> AffineMap:
    return _map(len(target), _broadcast_exprs(shape, target))


def _iterators(rank: int, reduced: Sequence[int] = ()) -> list[Attribute]:
    return [
        IteratorTypeAttr(
            IteratorType.REDUCTION if loop in reduced else IteratorType.PARALLEL
        )
        for loop in range(rank)
    ]


# ---------------------------------------------------------------------------
# Scalar ops for bodies (float or integer by the operand's type)
# ---------------------------------------------------------------------------


def _pick(
    float_op: Callable[[SSAValue, SSAValue], Operation],
    int_op: Callable[[SSAValue, SSAValue], Operation],
) -> Callable[[SSAValue, SSAValue], SSAValue]:
    def build(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        op = float_op(lhs, rhs) if _is_float(lhs.type) else int_op(lhs, rhs)
        return op.results[0]

    return build


_add = _pick(arith.AddfOp, arith.AddiOp)
_sub = _pick(arith.SubfOp, arith.SubiOp)
_mul = _pick(arith.MulfOp, arith.MuliOp)
# Integer division truncates toward zero in nn, as arith.divsi does.
_div = _pick(arith.DivfOp, arith.DivSIOp)
# NaN-propagating on floats, as nn's max/min and reductions are.
_max = _pick(arith.MaximumfOp, arith.MaxSIOp)
_min = _pick(arith.MinimumfOp, arith.MinSIOp)


def _single(
    op: Callable[[SSAValue, SSAValue], Operation],
) -> Callable[[SSAValue, SSAValue], SSAValue]:
    """An op that exists for one class of element types only."""

    def build(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return op(lhs, rhs).results[0]

    return build


_BINARY: dict[str, Callable[[SSAValue, SSAValue], SSAValue]] = {
    "nn.add": _add,
    "nn.sub": _sub,
    "nn.mul": _mul,
    "nn.div": _div,
    "nn.max": _max,
    "nn.min": _min,
    "nn.pow": _single(math.PowFOp),
    "nn.and": _single(arith.AndIOp),
    "nn.or": _single(arith.OrIOp),
    "nn.xor": _single(arith.XOrIOp),
}


# ---------------------------------------------------------------------------
# Emitting ops in front of the nn op being replaced
# ---------------------------------------------------------------------------


@dataclass
class _Emitter:
    """Inserts new ops before `anchor` (the nn op) and gives them its location."""

    rewriter: PatternRewriter
    anchor: Operation

    def emit(self, op: _OpT) -> _OpT:
        op.location = self.anchor.location
        self.rewriter.insert(op, InsertPoint.before(self.anchor))
        return op

    def scalar(self, value: float, element_type: Attribute) -> SSAValue:
        """An `arith.constant` of `element_type` (floats, integers, i1)."""
        attr: Attribute
        if _is_float(element_type):
            attr = FloatAttr(float(value), cast(Float32Type, element_type))
        elif _is_bool(element_type):
            attr = IntegerAttr(1 if value else 0, cast(IntegerType, element_type))
        else:
            attr = IntegerAttr(int(value), cast(IntegerType, element_type))
        return self.emit(arith.ConstantOp(attr)).result

    def empty(self, shape: Sequence[int], element_type: Attribute) -> SSAValue:
        # irkit's `tensor.empty` (the op the parser builds), not xDSL's base
        # class: the reshape folds of the passes after this one match it.
        return self.emit(tensor.EmptyOp([], TensorType(element_type, shape))).tensor

    def filled(
        self, shape: Sequence[int], element_type: Attribute, value: float
    ) -> SSAValue:
        """A tensor of `shape` holding `value` everywhere: empty + linalg.fill."""
        scalar = self.scalar(value, element_type)
        init = self.empty(shape, element_type)
        return self.emit(linalg.FillOp([scalar], [init], [init.type])).results[0]

    def generic(
        self,
        inputs: Sequence[tuple[SSAValue, AffineMap]],
        init: SSAValue,
        init_map: AffineMap,
        reduced: Sequence[int],
        body: ScalarFn,
    ) -> SSAValue:
        """A `linalg.generic` with one init; `body` maps the block's scalars
        (inputs, then the init's element) to the yielded one."""
        block = Block(arg_types=[_element(v) for v, _ in inputs] + [_element(init)])
        for arg in block.args:
            arg.name_hint = "in"
        block.args[-1].name_hint = "out"
        with ImplicitBuilder(block):
            linalg.YieldOp(body(block.args))
        maps = [amap for _, amap in inputs] + [init_map]
        op = linalg.GenericOp(
            [value for value, _ in inputs],
            [init],
            Region(block),
            [AffineMapAttr(amap) for amap in maps],
            _iterators(init_map.num_dims, reduced),
            [init.type],
        )
        return self.emit(op).results[0]

    def elementwise(
        self,
        inputs: Sequence[SSAValue],
        shape: Sequence[int],
        element_type: Attribute,
        body: ScalarFn,
    ) -> SSAValue:
        """One all-parallel generic over `shape`, inputs broadcast by NumPy rules."""
        return self.generic(
            [(value, _broadcast_map(_shape(value), shape)) for value in inputs],
            self.empty(shape, element_type),
            _identity(len(shape)),
            (),
            body,
        )

    def reduce(
        self,
        inputs: Sequence[tuple[SSAValue, AffineMap]],
        shape: Sequence[int],
        axes: Sequence[int],
        element_type: Attribute,
        identity: float,
        body: ScalarFn,
    ) -> SSAValue:
        """A reduction over loops `axes` of `shape` into a tensor of the other
        dims (the init's map drops the reduced loops)."""
        kept = [loop for loop in range(len(shape)) if loop not in axes]
        init = self.filled([shape[loop] for loop in kept], element_type, identity)
        return self.generic(inputs, init, _map(len(shape), _dims(kept)), axes, body)

    def pad(
        self, value: SSAValue, low: Sequence[int], high: Sequence[int], fill: float
    ) -> SSAValue:
        """`value` padded with the constant `fill` (unchanged if nothing to pad)."""
        if not any(low) and not any(high):
            return value
        padding = self.scalar(fill, _element(value))
        op = pad_op(value, low, high, padding)
        return self.emit(op).result


def _lowest(element_type: Attribute) -> float:
    if _is_float(element_type):
        return -pymath.inf
    return -(2 ** (_bitwidth(element_type) - 1))


def _highest(element_type: Attribute) -> float:
    if _is_float(element_type):
        return pymath.inf
    return 2 ** (_bitwidth(element_type) - 1) - 1


def _replace(rewriter: PatternRewriter, op: Operation, value: SSAValue) -> None:
    rewriter.replace(op, [], [value])


# ---------------------------------------------------------------------------
# Patterns: constants and elementwise ops
# ---------------------------------------------------------------------------


class LowerConstant(RewritePattern):
    """`nn.constant` -> `arith.constant` with the same dense attribute."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.ConstantOp, rewriter: PatternRewriter) -> None:
        constant = arith.ConstantOp(op.value)
        constant.location = op.location
        rewriter.replace(op, constant)


class LowerElementwiseBinary(RewritePattern):
    """`nn.add/sub/mul/div/max/min/pow/and/or/xor` -> one broadcasting generic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: nn.ElementwiseBinaryOp, rewriter: PatternRewriter
    ) -> None:
        combine = _BINARY[op.name]
        result = _Emitter(rewriter, op).elementwise(
            [op.lhs, op.rhs],
            _shape(op.result),
            _element(op.result),
            lambda args: combine(args[0], args[1]),
        )
        _replace(rewriter, op, result)


# Unary ops that are one `math` op on floats.
_MATH_UNARY: dict[str, Callable[[SSAValue], Operation]] = {
    "nn.exp": math.ExpOp,
    "nn.log": math.LogOp,
    "nn.sqrt": math.SqrtOp,
    "nn.rsqrt": math.RsqrtOp,
    "nn.tanh": math.TanhOp,
    "nn.erf": math.ErfOp,
}


def _unary_body(emit: _Emitter, op: nn.ElementwiseUnaryOp) -> ScalarFn:
    """The scalar function of a unary op; its constants are emitted first."""
    element_type = _element(op.result)
    is_float = _is_float(element_type)
    if op.name in _MATH_UNARY:
        math_op = _MATH_UNARY[op.name]
        return lambda args: math_op(args[0]).results[0]
    match op.name:
        case "nn.neg" if is_float:
            return lambda args: arith.NegfOp(args[0]).result
        case "nn.neg":
            # arith has no integer negation: 0 - x (wraps at INT_MIN, like nn).
            zero = emit.scalar(0, element_type)
            return lambda args: arith.SubiOp(zero, args[0]).result
        case "nn.abs" if is_float:
            return lambda args: math.AbsFOp(args[0]).result
        case "nn.abs":
            return lambda args: math.AbsIOp(args[0]).result
        case "nn.relu":
            zero = emit.scalar(0, element_type)
            return lambda args: _max(args[0], zero)
        case "nn.not":
            # Bitwise not is xor with all ones (true for i1).
            ones = emit.scalar(-1, element_type)
            return lambda args: arith.XOrIOp(args[0], ones).result
        case "nn.sigmoid":
            one = emit.scalar(1.0, element_type)

            def sigmoid(args: Sequence[SSAValue]) -> SSAValue:
                exp = math.ExpOp(arith.NegfOp(args[0])).result
                return arith.DivfOp(one, arith.AddfOp(one, exp)).result

            return sigmoid
        case "nn.gelu":
            return _gelu_body(emit, cast(nn.GeluOp, op), element_type)
    raise op_error(op, f"has no lowering in {PASS_NAME}")


def _gelu_body(emit: _Emitter, op: nn.GeluOp, element_type: Attribute) -> ScalarFn:
    """Exact: `x * (1 + erf(x / sqrt 2)) / 2`; tanh: PyTorch's approximation."""
    half = emit.scalar(0.5, element_type)
    one = emit.scalar(1.0, element_type)
    if op.approximate.data != nn.GeluApproximation.TANH:
        sqrt_half = emit.scalar(pymath.sqrt(0.5), element_type)

        def exact(args: Sequence[SSAValue]) -> SSAValue:
            x = args[0]
            cdf = arith.AddfOp(one, math.ErfOp(arith.MulfOp(x, sqrt_half)))
            return arith.MulfOp(arith.MulfOp(half, x), cdf).result

        return exact
    scale = emit.scalar(pymath.sqrt(2.0 / pymath.pi), element_type)
    cubic = emit.scalar(0.044715, element_type)

    def tanh_approximation(args: Sequence[SSAValue]) -> SSAValue:
        x = args[0]
        cube = arith.MulfOp(arith.MulfOp(x, x), x)
        inner = arith.MulfOp(scale, arith.AddfOp(x, arith.MulfOp(cubic, cube)))
        cdf = arith.AddfOp(one, math.TanhOp(inner))
        return arith.MulfOp(arith.MulfOp(half, x), cdf).result

    return tanh_approximation


class LowerElementwiseUnary(RewritePattern):
    """`nn.neg/abs/relu/not/exp/log/sqrt/rsqrt/tanh/sigmoid/erf/gelu` -> one
    generic with the scalar function (composites expanded in the body)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: nn.ElementwiseUnaryOp, rewriter: PatternRewriter
    ) -> None:
        emit = _Emitter(rewriter, op)
        body = _unary_body(emit, op)
        result = emit.elementwise(
            [op.input], _shape(op.result), _element(op.result), body
        )
        _replace(rewriter, op, result)


def _cast_scalar(
    emit: _Emitter, source: Attribute, target: Attribute
) -> Callable[[SSAValue], SSAValue]:
    """nn.cast of one element (see docs/nn.md); constants emitted first."""
    if _is_bool(target):
        # Any number to i1 is `x != 0`; `une` makes NaN true, as nn does.
        zero = emit.scalar(0, source)
        if _is_float(source):
            return lambda x: arith.CmpfOp(x, zero, "une").result
        return lambda x: arith.CmpiOp(x, zero, "ne").result
    if _is_bool(source):
        # i1 is 0 or 1 (unsigned), never -1.
        if _is_float(target):
            return lambda x: arith.UIToFPOp(x, cast(AnyFloat, target)).result
        return lambda x: arith.ExtUIOp(x, cast(IntegerType, target)).result
    if _is_float(source) and _is_float(target):
        if _bitwidth(target) == _bitwidth(source):
            # f16 <-> bf16: MLIR's extf/truncf change the width, so through
            # f32 (exact from either), then one rounding.
            return lambda x: arith.TruncFOp(arith.ExtFOp(x, f32), target).result
        widen = _bitwidth(target) > _bitwidth(source)
        return lambda x: (arith.ExtFOp if widen else arith.TruncFOp)(x, target).result
    if _is_float(source):
        return lambda x: arith.FPToSIOp(x, cast(IntegerType, target)).result
    if _is_float(target):
        return lambda x: arith.SIToFPOp(x, cast(AnyFloat, target)).result
    integer = cast(IntegerType, target)
    if _bitwidth(target) > _bitwidth(source):
        return lambda x: arith.ExtSIOp(x, integer).result
    return lambda x: arith.TruncIOp(x, integer).result


class LowerCast(RewritePattern):
    """`nn.cast` -> one generic with the matching arith conversion."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.CastOp, rewriter: PatternRewriter) -> None:
        source, target = _element(op.input), _element(op.result)
        if source == target:
            _replace(rewriter, op, op.input)
            return
        emit = _Emitter(rewriter, op)
        convert = _cast_scalar(emit, source, target)
        result = emit.elementwise(
            [op.input], _shape(op.result), target, lambda args: convert(args[0])
        )
        _replace(rewriter, op, result)


# Floats: ordered, except `ne` (true if either is NaN), as in C and NumPy.
_FLOAT_PREDICATES = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole"}
_FLOAT_PREDICATES |= {"gt": "ogt", "ge": "oge"}
_SIGNED_PREDICATES = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle"}
_SIGNED_PREDICATES |= {"gt": "sgt", "ge": "sge"}
# i1 compares as 0 < 1: unsigned (signed i1 would read true as -1).
_UNSIGNED_PREDICATES = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule"}
_UNSIGNED_PREDICATES |= {"gt": "ugt", "ge": "uge"}


class LowerCmp(RewritePattern):
    """`nn.cmp` -> one broadcasting generic with `arith.cmpf`/`cmpi`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.CmpOp, rewriter: PatternRewriter) -> None:
        operand_type = _element(op.lhs)
        predicate = op.predicate.data.value

        def compare(args: Sequence[SSAValue]) -> SSAValue:
            if _is_float(operand_type):
                return arith.CmpfOp(
                    args[0], args[1], _FLOAT_PREDICATES[predicate]
                ).result
            table = (
                _UNSIGNED_PREDICATES if _is_bool(operand_type) else _SIGNED_PREDICATES
            )
            return arith.CmpiOp(args[0], args[1], table[predicate]).result

        result = _Emitter(rewriter, op).elementwise(
            [op.lhs, op.rhs], _shape(op.result), _element(op.result), compare
        )
        _replace(rewriter, op, result)


class LowerSelect(RewritePattern):
    """`nn.select` -> one broadcasting generic with `arith.select`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.SelectOp, rewriter: PatternRewriter) -> None:
        result = _Emitter(rewriter, op).elementwise(
            [op.condition, op.true_value, op.false_value],
            _shape(op.result),
            _element(op.result),
            lambda args: arith.SelectOp(args[0], args[1], args[2]).result,
        )
        _replace(rewriter, op, result)


class LowerBroadcastTo(RewritePattern):
    """`nn.broadcast_to` -> a generic that copies through a broadcasting map."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: nn.BroadcastToOp, rewriter: PatternRewriter
    ) -> None:
        result = _Emitter(rewriter, op).elementwise(
            [op.input], _shape(op.result), _element(op.result), lambda args: args[0]
        )
        _replace(rewriter, op, result)


class LowerTranspose(RewritePattern):
    """`nn.transpose` -> a generic reading the input through the permutation."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.TransposeOp, rewriter: PatternRewriter) -> None:
        perm = op.perm.get_values()
        rank = len(perm)
        # Loops are the result's dims; operand dim perm[i] is read by loop i.
        loop_of = {operand_dim: loop for loop, operand_dim in enumerate(perm)}
        input_map = _map(rank, _dims([loop_of[dim] for dim in range(rank)]))
        emit = _Emitter(rewriter, op)
        result = emit.generic(
            [(op.input, input_map)],
            emit.empty(_shape(op.result), _element(op.result)),
            _identity(rank),
            (),
            lambda args: args[0],
        )
        _replace(rewriter, op, result)


# ---------------------------------------------------------------------------
# Patterns: layout (reshape, concat, slice)
# ---------------------------------------------------------------------------


def _collapse(emit: _Emitter, value: SSAValue, shape: Sequence[int]) -> SSAValue:
    groups = reassociation(_shape(value), shape)
    assert groups is not None
    op = tensor.CollapseShapeOp.build(
        operands=[value],
        result_types=[TensorType(_element(value), shape)],
        properties={"reassociation": tensor.reassociation_attr(groups)},
    )
    return emit.emit(op).result


def _expand(emit: _Emitter, value: SSAValue, shape: Sequence[int]) -> SSAValue:
    groups = reassociation(shape, _shape(value))
    assert groups is not None
    op = tensor.ExpandShapeOp(
        value,
        [],
        tensor.reassociation_attr(groups),
        list(shape),
        TensorType(_element(value), shape),
    )
    return emit.emit(op).result


def _reshape(emit: _Emitter, value: SSAValue, shape: Sequence[int]) -> SSAValue:
    """`value` with `shape` (same element count): one collapse or expand when
    the reshape is one, else a collapse to 1-D followed by an expand."""
    source = _shape(value)
    if tuple(shape) == source:
        return value
    if len(shape) < len(source) and reassociation(source, shape) is not None:
        return _collapse(emit, value, shape)
    if len(shape) > len(source) and reassociation(shape, source) is not None:
        return _expand(emit, value, shape)
    count = pymath.prod(source)
    flat = value if len(source) == 1 else _collapse(emit, value, [count])
    return flat if len(shape) == 1 else _expand(emit, flat, shape)


class LowerReshape(RewritePattern):
    """`nn.reshape` -> `tensor.collapse_shape` and/or `tensor.expand_shape`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.ReshapeOp, rewriter: PatternRewriter) -> None:
        result = _reshape(_Emitter(rewriter, op), op.input, _shape(op.result))
        _replace(rewriter, op, result)


class LowerConcat(RewritePattern):
    """`nn.concat` -> `tensor.empty` and one `tensor.insert_slice` per operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.ConcatOp, rewriter: PatternRewriter) -> None:
        axis = op.axis_value
        emit = _Emitter(rewriter, op)
        result = emit.empty(_shape(op.result), _element(op.result))
        offset = 0
        for value in op.inputs:
            sizes = _shape(value)
            offsets = [offset if dim == axis else 0 for dim in range(len(sizes))]
            offset += sizes[axis]
            insert = tensor.InsertSliceOp.build(
                operands=[value, result, [], [], []],
                result_types=[result.type],
                properties={
                    "static_offsets": _i64_array(offsets),
                    "static_sizes": _i64_array(sizes),
                    "static_strides": _i64_array([1] * len(sizes)),
                },
            )
            result = emit.emit(insert).result
        _replace(rewriter, op, result)


def _i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


class LowerSlice(RewritePattern):
    """`nn.slice` -> `tensor.extract_slice` (nn's strides become its strides)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.SliceOp, rewriter: PatternRewriter) -> None:
        piece = tensor.ExtractSliceOp(
            op.input,
            op.start.get_values(),
            _shape(op.result),
            op.stride.get_values(),
            op.result.type,
        )
        piece.location = op.location
        rewriter.replace(op, piece)


# ---------------------------------------------------------------------------
# Patterns: reductions and normalisations
# ---------------------------------------------------------------------------

_COMBINERS: dict[str, Callable[[SSAValue, SSAValue], SSAValue]] = {
    "nn.reduce_sum": _add,
    "nn.reduce_mean": _add,
    "nn.reduce_max": _max,
    "nn.reduce_min": _min,
}


def _reduction_identity(name: str, element_type: Attribute) -> float:
    if name == "nn.reduce_max":
        return _lowest(element_type)
    if name == "nn.reduce_min":
        return _highest(element_type)
    return 0


class LowerReduction(RewritePattern):
    """`nn.reduce_sum/max/min/mean` -> fill with the identity, then a generic
    with reduction loops; the mean divides in a second generic.

    With `keepdims` the init's map reads index 0 at each reduced dim.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.ReductionOp, rewriter: PatternRewriter) -> None:
        emit = _Emitter(rewriter, op)
        shape, axes = _shape(op.input), op.axes_values
        keepdims = op.keepdims is not None
        element_type = _element(op.result)
        result_shape = _shape(op.result)
        exprs: list[AffineExpr] = []
        for loop in range(len(shape)):
            if loop not in axes:
                exprs.append(AffineDimExpr(loop))
            elif keepdims:
                exprs.append(AffineConstantExpr(0))
        combine = _COMBINERS[op.name]
        init = emit.filled(
            result_shape, element_type, _reduction_identity(op.name, element_type)
        )
        result = emit.generic(
            [(op.input, _identity(len(shape)))],
            init,
            _map(len(shape), exprs),
            axes,
            lambda args: combine(args[0], args[1]),
        )
        if op.name == "nn.reduce_mean":
            count = emit.scalar(pymath.prod(shape[axis] for axis in axes), element_type)
            result = emit.elementwise(
                [result],
                result_shape,
                element_type,
                lambda args: arith.DivfOp(args[0], count).result,
            )
        _replace(rewriter, op, result)


class LowerSoftmax(RewritePattern):
    """`nn.softmax` / `nn.log_softmax` along `axis`, numerically stable:

    - `m = max(x)`; softmax: `e = exp(x - m)`, `s = sum(e)`, `e / s`;
    - log_softmax: `s = sum(exp(x - m))`, `(x - m) - log(s)`.

    The reduced tensors drop the axis; the maps broadcast them back.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.AxisOp, rewriter: PatternRewriter) -> None:
        emit = _Emitter(rewriter, op)
        shape, axis = _shape(op.input), op.axis_value
        element_type = _element(op.result)
        rank = len(shape)
        full = _identity(rank)
        reduced = _map(rank, _dims([loop for loop in range(rank) if loop != axis]))
        x = op.input
        peak = emit.reduce(
            [(x, full)],
            shape,
            [axis],
            element_type,
            -pymath.inf,
            lambda args: arith.MaximumfOp(args[0], args[1]).result,
        )

        def shifted_exp(args: Sequence[SSAValue]) -> SSAValue:
            return math.ExpOp(arith.SubfOp(args[0], args[1])).result

        if op.name == "nn.softmax":
            exps = emit.generic(
                [(x, full), (peak, reduced)],
                emit.empty(shape, element_type),
                full,
                (),
                shifted_exp,
            )
            total = emit.reduce(
                [(exps, full)],
                shape,
                [axis],
                element_type,
                0.0,
                lambda args: arith.AddfOp(args[0], args[1]).result,
            )
            result = emit.generic(
                [(exps, full), (total, reduced)],
                emit.empty(shape, element_type),
                full,
                (),
                lambda args: arith.DivfOp(args[0], args[1]).result,
            )
        else:
            total = emit.reduce(
                [(x, full), (peak, reduced)],
                shape,
                [axis],
                element_type,
                0.0,
                lambda args: arith.AddfOp(shifted_exp(args), args[2]).result,
            )

            def log_softmax(args: Sequence[SSAValue]) -> SSAValue:
                shifted = arith.SubfOp(args[0], args[1])
                return arith.SubfOp(shifted, math.LogOp(args[2])).result

            result = emit.generic(
                [(x, full), (peak, reduced), (total, reduced)],
                emit.empty(shape, element_type),
                full,
                (),
                log_softmax,
            )
        _replace(rewriter, op, result)


class LowerLayerNorm(RewritePattern):
    """`nn.layer_norm` over the trailing axes, two-pass like the reference:

    `mean = sum(x) / n`; `std = sqrt(sum((x - mean)^2) / n + eps)`;
    `y = (x - mean) / std`, then `* scale`, `+ bias` (read through maps of
    the trailing loops).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.LayerNormOp, rewriter: PatternRewriter) -> None:
        emit = _Emitter(rewriter, op)
        shape, axes = _shape(op.input), op.axes_values
        element_type = _element(op.result)
        rank, leading = len(shape), len(shape) - len(axes)
        full = _identity(rank)
        per_row = _map(rank, _dims(range(leading)))
        trailing = _map(rank, _dims(range(leading, rank)))
        row_shape = shape[:leading]
        x = op.input
        count = emit.scalar(pymath.prod(shape[leading:]), element_type)
        eps = emit.scalar(op.eps.value.data, element_type)

        total = emit.reduce(
            [(x, full)],
            shape,
            axes,
            element_type,
            0.0,
            lambda args: arith.AddfOp(args[0], args[1]).result,
        )
        mean = emit.elementwise(
            [total],
            row_shape,
            element_type,
            lambda args: arith.DivfOp(args[0], count).result,
        )

        def add_square(args: Sequence[SSAValue]) -> SSAValue:
            centered = arith.SubfOp(args[0], args[1])
            return arith.AddfOp(arith.MulfOp(centered, centered), args[2]).result

        squares = emit.reduce(
            [(x, full), (mean, per_row)], shape, axes, element_type, 0.0, add_square
        )

        def deviation(args: Sequence[SSAValue]) -> SSAValue:
            variance = arith.DivfOp(args[0], count)
            return math.SqrtOp(arith.AddfOp(variance, eps)).result

        std = emit.elementwise([squares], row_shape, element_type, deviation)

        inputs = [(x, full), (mean, per_row), (std, per_row)]
        inputs += [(value, trailing) for value in (op.scale, op.bias) if value]
        has_scale, has_bias = op.scale is not None, op.bias is not None

        def normalise(args: Sequence[SSAValue]) -> SSAValue:
            y = arith.DivfOp(arith.SubfOp(args[0], args[1]), args[2]).result
            if has_scale:
                y = arith.MulfOp(y, args[3]).result
            if has_bias:
                y = arith.AddfOp(y, args[3 + has_scale]).result
            return y

        result = emit.generic(
            inputs, emit.empty(shape, element_type), full, (), normalise
        )
        _replace(rewriter, op, result)


# ---------------------------------------------------------------------------
# Patterns: contractions, convolution, pooling
# ---------------------------------------------------------------------------


def _multiply_add(args: Sequence[SSAValue]) -> SSAValue:
    return _add(args[2], _mul(args[0], args[1]))


class LowerMatmul(RewritePattern):
    """`nn.matmul`, accumulating in the element type on a zero-filled init:

    - 2-D: `linalg.matmul`;
    - equal batch dims: collapsed to one, `linalg.batch_matmul`, expanded back;
    - broadcast batch dims: a `linalg.generic` contraction whose maps
      broadcast the batch dims (no copy is materialised).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.MatmulOp, rewriter: PatternRewriter) -> None:
        emit = _Emitter(rewriter, op)
        lhs, rhs = op.lhs, op.rhs
        lhs_shape, rhs_shape = _shape(lhs), _shape(rhs)
        result_shape, element_type = _shape(op.result), _element(op.result)
        rows, columns = lhs_shape[-2], rhs_shape[-1]
        batch = result_shape[:-2]
        if not batch:
            init = emit.filled(result_shape, element_type, 0)
            matmul = linalg.MatmulOp([lhs, rhs], [init], [init.type])
            _replace(rewriter, op, emit.emit(matmul).results[0])
            return
        if lhs_shape[:-2] == batch and rhs_shape[:-2] == batch:
            count = pymath.prod(batch)
            lhs3 = _reshape(emit, lhs, (count, *lhs_shape[-2:]))
            rhs3 = _reshape(emit, rhs, (count, *rhs_shape[-2:]))
            init = emit.filled((count, rows, columns), element_type, 0)
            product = emit.emit(
                linalg.BatchMatmulOp([lhs3, rhs3], [init], [init.type])
            ).results[0]
            _replace(rewriter, op, _reshape(emit, product, result_shape))
            return
        nb = len(batch)
        loops = nb + 3
        i, j, k = (AffineDimExpr(nb + offset) for offset in range(3))
        lhs_map = _map(loops, [*_broadcast_exprs(lhs_shape[:-2], batch), i, k])
        rhs_map = _map(loops, [*_broadcast_exprs(rhs_shape[:-2], batch), k, j])
        out_map = _map(loops, [*_dims(range(nb)), i, j])
        result = emit.generic(
            [(lhs, lhs_map), (rhs, rhs_map)],
            emit.filled(result_shape, element_type, 0),
            out_map,
            [nb + 2],
            _multiply_add,
        )
        _replace(rewriter, op, result)


class LowerConv2d(RewritePattern):
    """`nn.conv2d` -> `tensor.pad` (zeros), `linalg.conv_2d_nchw_fchw` on a
    zero-filled init, then the bias added through a generic reading `bias[f]`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.Conv2dOp, rewriter: PatternRewriter) -> None:
        emit = _Emitter(rewriter, op)
        shape, element_type = _shape(op.result), _element(op.result)
        ph, pw = op.padding.get_values()
        padded = emit.pad(op.input, (0, 0, ph, pw), (0, 0, ph, pw), 0.0)
        init = emit.filled(shape, element_type, 0.0)
        conv = linalg.Conv2DNchwFchwOp(
            [padded, op.weight],
            [init],
            [init.type],
            strides=i64_vector(op.stride.get_values()),
            dilations=i64_vector(op.dilation.get_values()),
        )
        result: SSAValue = emit.emit(conv).results[0]
        if op.bias is not None:
            result = emit.generic(
                [(result, _identity(4)), (op.bias, _map(4, _dims([1])))],
                emit.empty(shape, element_type),
                _identity(4),
                (),
                lambda args: arith.AddfOp(args[0], args[1]).result,
            )
        _replace(rewriter, op, result)


class LowerPool2d(RewritePattern):
    """`nn.max_pool2d` / `nn.avg_pool2d` -> `tensor.pad`, then
    `linalg.pooling_nchw_max` / `_sum` with a `tensor.empty` window.

    Max pads and fills with the lowest value (-inf, INT_MIN), so padding never
    wins; avg pads with zeros and divides every window sum by `kh * kw`
    (nn's count_include_pad convention).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.Pool2dOp, rewriter: PatternRewriter) -> None:
        emit = _Emitter(rewriter, op)
        shape, element_type = _shape(op.result), _element(op.result)
        kh, kw = op.kernel.get_values()
        ph, pw = op.padding.get_values()
        is_max = op.name == "nn.max_pool2d"
        neutral = _lowest(element_type) if is_max else 0.0
        padded = emit.pad(op.input, (0, 0, ph, pw), (0, 0, ph, pw), neutral)
        init = emit.filled(shape, element_type, neutral)
        window = emit.empty((kh, kw), element_type)
        pooling = (linalg.PoolingNchwMaxOp if is_max else linalg.PoolingNchwSumOp)(
            [padded, window],
            [init],
            [init.type],
            strides=i64_vector(op.stride.get_values()),
            dilations=i64_vector([1, 1]),
        )
        result: SSAValue = emit.emit(pooling).results[0]
        if not is_max:
            divisor = emit.scalar(kh * kw, element_type)
            result = emit.elementwise(
                [result],
                shape,
                element_type,
                lambda args: arith.DivfOp(args[0], divisor).result,
            )
        _replace(rewriter, op, result)


# ---------------------------------------------------------------------------
# The conversion and the pass
# ---------------------------------------------------------------------------


def nn_to_linalg_patterns() -> list[RewritePattern]:
    """One pattern per nn op family; together they cover every nn op."""
    return [
        LowerConstant(),
        LowerElementwiseBinary(),
        LowerElementwiseUnary(),
        LowerCast(),
        LowerCmp(),
        LowerSelect(),
        LowerBroadcastTo(),
        LowerTranspose(),
        LowerReshape(),
        LowerConcat(),
        LowerSlice(),
        LowerReduction(),
        LowerSoftmax(),
        LowerLayerNorm(),
        LowerMatmul(),
        LowerConv2d(),
        LowerPool2d(),
    ]


def _nn_ops(module: ModuleOp) -> list[Operation]:
    return [op for op in module.walk() if op.dialect_name() == "nn"]


def _check_supported(op: Operation) -> None:
    """Reject tensor types with an encoding: the new tensors would drop it."""
    for kind, values in (("operand", op.operands), ("result", op.results)):
        for index, value in enumerate(values):
            value_type = value.type
            if isinstance(value_type, TensorType) and not isinstance(
                value_type.encoding, NoneAttr
            ):
                raise op_error(
                    op,
                    f"{kind} #{index} has type {value_type} with an encoding, "
                    f"which {PASS_NAME} does not support",
                )


def convert_nn_to_linalg(module: ModuleOp) -> None:
    """Lower every nn op of `module` in place (see the module docstring)."""
    for op in _nn_ops(module):
        _check_supported(op)
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier(nn_to_linalg_patterns()),
        apply_recursively=False,
    )
    walker.rewrite_module(module)
    for op in _nn_ops(module):
        raise op_error(op, f"was not lowered by {PASS_NAME}")


@dataclass(frozen=True)
class ConvertNnToLinalgPass(ModulePass):
    """Lower the nn dialect to linalg/tensor/arith/math on tensors.

    See the module docstring for the contract; `docs/passes/convert-nn-to-linalg.md`
    for the lowering of each op.
    """

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_nn_to_linalg(op)
