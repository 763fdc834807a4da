"""`linalg-convert-to-nhwc`: a conv net in NCHW as NHWC, transposed at its edges.

torch-mlir writes convolutions, pooling and the batch-norm / ReLU /
residual ops between them over NCHW tensors. Channels-last (NHWC) puts a
pixel's channels side by side, which an implicit GEMM reads as its
reduction rows. This pass converts each NCHW window op to its NHWC form
between transposes, then moves the transposes out of the net and cancels
them in pairs:

```mlir
// before
%p = tensor.pad %x low[0, 0, 1, 1] ...
%c = linalg.conv_2d_nchw_fchw ins(%p, %w) outs(%zeros)
%y = linalg.generic {(d0, d1, d2, d3) -> (d1, 0, 0)} ins(%c, %scale) ...
// after
%xt = linalg.transpose ins(%x) permutation = [0, 2, 3, 1]
%wt = linalg.transpose ins(%w) permutation = [2, 3, 1, 0]
%p = tensor.pad %xt low[0, 1, 1, 0] ...
%c = linalg.conv_2d_nhwc_hwcf ins(%p, %wt) outs(%zeros_nhwc)
%r = linalg.generic {(d0, d1, d2, d3) -> (d3, 0, 0)} ins(%c, %scale) ...
%y = linalg.transpose ins(%r) permutation = [0, 3, 1, 2]
```

**Contract.** On tensors with static shapes:

- `linalg.conv_2d_nchw_fchw` (any stride and dilation) becomes
  `linalg.conv_2d_nhwc_hwcf` between transposes (input NCHW -> NHWC, filter
  FCHW -> HWCF, result NHWC -> NCHW); `linalg.depthwise_conv_2d_nchw_chw`
  becomes `linalg.depthwise_conv_2d_nhwc_hwc` (filter CHW -> HWC);
  `linalg.pooling_nchw_max` / `_sum` become `linalg.pooling_nhwc_max` /
  `_sum`. An init that is a `tensor.empty` or a `linalg.fill` of one is
  rebuilt in the new shape rather than transposed. Grouped convolutions
  (`ngchw`) and every other op are left as they are.
- A transpose to NCHW (`permutation = [0, 3, 1, 2]`) moves below its users
  where it can: through an elementwise `linalg.generic` (every loop
  parallel, every output read through the identity, reading the transpose
  through the identity) whose loops are renamed so that it runs over NHWC:
  every map is composed with the renaming (a per-channel operand read
  `(d1, 0, 0)` is read `(d3, 0, 0)`), `linalg.index` follows its loop, an
  operand read through the identity is transposed to NHWC (which cancels
  against a producer transposing to NCHW), and the results are transposed
  back; and through a `tensor.pad` by a value that does not depend on the
  position (its low and high sizes permuted).
- A transpose to NHWC (`[0, 2, 3, 1]`) moves above a `tensor.pad` that
  only it reads, so that the net's input is transposed before its padding.
- A transpose of a transpose is one transpose by the composed permutation,
  or, where that is the identity, the first one's source; two transposes of
  one value by one permutation in a block are one.

So inside a net whose ops are these, activations stay NHWC and transposes
remain only at its edges: function arguments (the input, and every filter:
filters are user inputs, so each call transposes them by a
`linalg.transpose`), the results, and the inputs and outputs of ops the
pass does not move through (a reduction, a reshape, a matmul). Dead
`linalg.transpose`, `tensor.empty`, `linalg.fill` and `tensor.pad` ops are
erased when anything was converted. Preserves every result up to the
order of a convolution's sum: the NHWC forms sum over the window's taps,
then the channels innermost (MLIR's loop order for them), where the NCHW
ones sum over the channels outermost; floating-point results may differ by
that reassociation (a few ulps), integer ones not at all. Pooling and the
elementwise ops compute each element from the same values by the same ops
in the same order. Dynamic shapes are left alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.hints import isa

from irkit.dialects import linalg, tensor

PASS_NAME = "linalg-convert-to-nhwc"

# `linalg.transpose`'s permutation: `dim(result, i) = dim(source, perm[i])`.
TO_NHWC = (0, 2, 3, 1)
TO_NCHW = (0, 3, 1, 2)
FCHW_TO_HWCF = (2, 3, 1, 0)
CHW_TO_HWC = (1, 2, 0)


def _static_tensor(value: SSAValue) -> TensorType[Attribute] | None:
    type_ = value.type
    if isa(type_, TensorType[Attribute]) and type_.has_static_shape():
        return type_
    return None


def _permuted(shape: Sequence[int], permutation: Sequence[int]) -> list[int]:
    return [shape[p] for p in permutation]


def _permutation(op: linalg.TransposeOp) -> tuple[int, ...]:
    return tuple(op.permutation.get_values())


def _transposing_to(value: SSAValue, permutation: Sequence[int]) -> SSAValue | None:
    """The source of `value` when it is a transpose by `permutation`."""
    owner = value.owner
    if isinstance(owner, linalg.TransposeOp) and _permutation(owner) == tuple(
        permutation
    ):
        return owner.inputs[0]
    return None


def _composed(outer: Sequence[int], inner: Sequence[int]) -> tuple[int, ...]:
    """The one permutation of transposing by `inner`, then by `outer`: the
    result's dim i is the source's `inner[outer[i]]`."""
    return tuple(inner[p] for p in outer)


def _is_identity(permutation: Sequence[int]) -> bool:
    return tuple(permutation) == tuple(range(len(permutation)))


class _Emitter:
    """Inserts ops before one op, folding the transposes it builds."""

    def __init__(self, rewriter: PatternRewriter, before: Operation) -> None:
        self.rewriter = rewriter
        self.point = InsertPoint.before(before)

    def emit(self, op: Operation) -> Operation:
        self.rewriter.insert(op, self.point)
        return op

    def empty(self, shape: Sequence[int], element: Attribute) -> SSAValue:
        return self.emit(tensor.EmptyOp([], TensorType(element, shape))).results[0]

    def transposed(self, value: SSAValue, permutation: Sequence[int]) -> SSAValue:
        """`value` transposed by `permutation`: the source of a transpose
        that this undoes, an empty or zero-filled tensor rebuilt in the new
        shape, else a `linalg.transpose`."""
        type_ = _static_tensor(value)
        assert type_ is not None
        element = type_.get_element_type()
        shape = _permuted(type_.get_shape(), permutation)
        owner = value.owner
        if isinstance(owner, linalg.TransposeOp) and _is_identity(
            _composed(permutation, _permutation(owner))
        ):
            return owner.inputs[0]
        if isinstance(owner, tensor.EmptyOp):
            return self.empty(shape, element)
        if isinstance(owner, linalg.FillOp) and isinstance(
            owner.outputs[0].owner, tensor.EmptyOp
        ):
            target = self.empty(shape, element)
            fill = linalg.FillOp(list(owner.inputs), [target], [target.type])
            return self.emit(fill).results[0]
        transpose = linalg.TransposeOp(
            value,
            self.empty(shape, element),
            DenseArrayBase.from_list(i64, permutation),
        )
        return self.emit(transpose).results[0]


def _all_static(values: Sequence[SSAValue]) -> bool:
    return all(_static_tensor(value) is not None for value in values)


# --------------------------------------------------------------------------
# NCHW window ops -> NHWC between transposes
# --------------------------------------------------------------------------

# NCHW op -> (its NHWC form, the permutation of its second operand).
_WINDOW_OPS: dict[
    type[Operation], tuple[Callable[..., Operation], tuple[int, ...] | None]
] = {
    linalg.Conv2DNchwFchwOp: (linalg.Conv2DNhwcHwcfOp, FCHW_TO_HWCF),
    linalg.DepthwiseConv2DNchwChwOp: (linalg.DepthwiseConv2DNhwcHwcOp, CHW_TO_HWC),
    # A pooling's second operand is the window, which has no layout.
    linalg.PoolingNchwMaxOp: (linalg.PoolingNhwcMaxOp, None),
    linalg.PoolingNchwSumOp: (linalg.PoolingNhwcSumOp, None),
}


def _window_attribute(op: Operation, name: str) -> Attribute | None:
    """A window op's `strides` or `dilations` (xDSL keeps them as a property
    or an attribute)."""
    return op.properties.get(name) or op.attributes.get(name)


def _convertible(op: Operation) -> bool:
    """An NCHW window op on tensors of static shapes."""
    return (
        type(op) in _WINDOW_OPS
        and _window_attribute(op, "strides") is not None
        and _window_attribute(op, "dilations") is not None
        and len(op.operands) == 3
        and len(op.results) == 1
        and _all_static([*op.operands, op.results[0]])
    )


class ConvertWindowOp(RewritePattern):
    """A convolution or pooling over NCHW as its NHWC form, its input, second
    operand and init transposed in and its result transposed out."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _convertible(op):
            return
        nhwc_op, second_permutation = _WINDOW_OPS[type(op)]
        source, second, init = op.operands
        emit = _Emitter(rewriter, op)
        inputs = [
            emit.transposed(source, TO_NHWC),
            second
            if second_permutation is None
            else emit.transposed(second, second_permutation),
        ]
        new_init = emit.transposed(init, TO_NHWC)
        new = nhwc_op(
            inputs,
            [new_init],
            [new_init.type],
            strides=_window_attribute(op, "strides"),
            dilations=_window_attribute(op, "dilations"),
        )
        emit.emit(new)
        rewriter.replace(op, [], [emit.transposed(new.results[0], TO_NCHW)])


# --------------------------------------------------------------------------
# Transposes to NCHW moved down, to NHWC moved up, pairs cancelled
# --------------------------------------------------------------------------


def _is_elementwise(op: linalg.GenericOp) -> bool:
    loops = len(op.iterator_types)
    maps = [attr.data for attr in op.indexing_maps]
    return (
        all(str(kind.data) == "parallel" for kind in op.iterator_types)
        and len(op.results) == len(op.outputs)
        and all(
            maps[len(op.inputs) + i] == AffineMap.identity(loops)
            for i in range(len(op.outputs))
        )
    )


def _renaming(permutation: Sequence[int]) -> AffineMap:
    """The loops of the old generic in terms of the new one's: old loop `i`
    is new loop `permutation[i]` (the new one runs in its transpose's source
    order)."""
    rank = len(permutation)
    return AffineMap(rank, 0, tuple(AffineDimExpr(p) for p in permutation))


class SinkTransposeThroughElementwise(RewritePattern):
    """`generic(transpose_to_nchw(x), ...)` -> `transpose_to_nchw(generic'(x, ...))`,
    the generic's loops renamed to run over NHWC."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: linalg.GenericOp, rewriter: PatternRewriter
    ) -> None:
        if not op.results or not _is_elementwise(op):
            return
        loops = len(op.iterator_types)
        if loops != len(TO_NCHW) or not _all_static([*op.outputs]):
            return
        maps = [attr.data for attr in op.indexing_maps]
        identity = AffineMap.identity(loops)
        if not any(
            indexing_map == identity and _transposing_to(value, TO_NCHW) is not None
            for value, indexing_map in zip(op.inputs, maps, strict=False)
        ):
            return
        renaming = _renaming(TO_NCHW)
        emit = _Emitter(rewriter, op)
        new_inputs: list[SSAValue] = []
        new_maps: list[AffineMap] = []
        for value, indexing_map in zip(op.inputs, maps, strict=False):
            if indexing_map == identity and _static_tensor(value) is not None:
                new_inputs.append(emit.transposed(value, TO_NHWC))
                new_maps.append(identity)
            else:
                new_inputs.append(value)
                new_maps.append(indexing_map.compose(renaming))
        body = rewriter.move_region_contents_to_new_regions(op.body)
        output_args = body.block.args[len(op.inputs) :]
        new_outputs = [
            emit.transposed(value, TO_NHWC)
            if arg.uses
            else emit.empty(
                _permuted(value.type.get_shape(), TO_NHWC),  # type: ignore[attr-defined]
                value.type.get_element_type(),  # type: ignore[attr-defined]
            )
            for value, arg in zip(op.outputs, output_args, strict=True)
        ]
        for index_op in [o for o in body.walk() if isinstance(o, IndexOp)]:
            index_op.dim = IntegerAttr(TO_NCHW[index_op.dim.value.data], i64)
        new = linalg.GenericOp(
            new_inputs,
            new_outputs,
            body,
            ArrayAttr(
                [AffineMapAttr(m) for m in (*new_maps, *[identity] * len(new_outputs))]
            ),
            op.iterator_types,
            [value.type for value in new_outputs],
        )
        emit.emit(new)
        rewriter.replace(
            op, [], [emit.transposed(result, TO_NCHW) for result in new.results]
        )


def _constant_pad(op: Operation) -> bool:
    """A `tensor.pad` with static sizes whose value is the same everywhere."""
    return (
        isinstance(op, tensor.PadOp)
        and not op.low
        and not op.high
        and all(not arg.uses for arg in op.region.block.args)
        and _static_tensor(op.result) is not None
    )


def _rebuilt_pad(
    pad: tensor.PadOp,
    source: SSAValue,
    permutation: Sequence[int],
    rewriter: PatternRewriter,
    emit: _Emitter,
) -> SSAValue:
    """`pad` of `source`, which is `pad`'s source transposed by
    `permutation`: the sizes permuted alike, the region moved."""
    low = _permuted(pad.static_low.get_values(), permutation)
    high = _permuted(pad.static_high.get_values(), permutation)
    result_type = pad.result.type
    shape = _permuted(result_type.get_shape(), permutation)
    new = tensor.PadOp(
        source,
        [],
        [],
        rewriter.move_region_contents_to_new_regions(pad.region),
        low,
        high,
        TensorType(result_type.get_element_type(), shape),
        pad.nofold,
    )
    emit.emit(new)
    return new.result


class FoldEmptyPad(RewritePattern):
    """A `tensor.pad` of no sizes (not `nofold`) is its source, so that a
    transpose before it is not kept from the edge."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.PadOp, rewriter: PatternRewriter) -> None:
        if op.nofold or not _constant_pad(op) or op.result.type != op.source.type:
            return
        sizes = [*op.static_low.get_values(), *op.static_high.get_values()]
        if any(size != 0 for size in sizes):
            return
        rewriter.replace(op, [], [op.source])


class SinkTransposeThroughPad(RewritePattern):
    """`pad(transpose_to_nchw(x))` -> `transpose_to_nchw(pad'(x))`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.PadOp, rewriter: PatternRewriter) -> None:
        source = _transposing_to(op.source, TO_NCHW)
        if source is None or not _constant_pad(op):
            return
        emit = _Emitter(rewriter, op)
        padded = _rebuilt_pad(op, source, TO_NHWC, rewriter, emit)
        rewriter.replace(op, [], [emit.transposed(padded, TO_NCHW)])


class HoistTransposeThroughPad(RewritePattern):
    """`transpose_p(pad(x))` -> `pad'(transpose_p(x))` where the transpose is
    the pad's only reader: to NHWC, or by any other permutation but to NCHW
    (an input in another layout, folded into one), so that the transpose
    reaches the edge."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: linalg.TransposeOp, rewriter: PatternRewriter
    ) -> None:
        pad = op.inputs[0].owner
        if (
            not op.results
            or not isinstance(pad, tensor.PadOp)
            or not _constant_pad(pad)
            or pad.result.uses.get_length() != 1
        ):
            return
        permutation = _permutation(op)
        if permutation == TO_NCHW:
            return  # those sink below pads (`SinkTransposeThroughPad`)
        emit = _Emitter(rewriter, op)
        source = emit.transposed(pad.source, permutation)
        padded = _rebuilt_pad(pad, source, permutation, rewriter, emit)
        rewriter.replace(op, [], [padded])
        rewriter.erase(pad)


class FoldTransposes(RewritePattern):
    """A transpose of a transpose is one transpose of the first's source by
    the composed permutation, or that source where they compose to the
    identity; an earlier transpose of the same value by the same
    permutation in the same block is reused."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: linalg.TransposeOp, rewriter: PatternRewriter
    ) -> None:
        if not op.results:
            return
        source = op.inputs[0]
        inner = source.owner
        if isinstance(inner, linalg.TransposeOp) and inner.results:
            composed = _composed(_permutation(op), _permutation(inner))
            if _is_identity(composed):
                rewriter.replace(op, [], [inner.inputs[0]])
                return
            transpose = linalg.TransposeOp(
                inner.inputs[0], op.outputs[0], DenseArrayBase.from_list(i64, composed)
            )
            rewriter.replace(op, transpose)
            return
        for use in source.uses:
            other = use.operation
            if (
                other is not op
                and isinstance(other, linalg.TransposeOp)
                and other.results
                and use.index == 0
                and _permutation(other) == _permutation(op)
                and other.parent_block() is op.parent_block()
                and other.is_before_in_block(op)
            ):
                rewriter.replace(op, [], [other.results[0]])
                return


def _erase_dead(module: ModuleOp) -> None:
    """Erases the transposes, empties, fills and pads left unread."""
    dead_kinds = (linalg.TransposeOp, tensor.EmptyOp, linalg.FillOp, tensor.PadOp)
    changed = True
    while changed:
        changed = False
        for op in reversed(list(module.walk())):
            if (
                isinstance(op, dead_kinds)
                and op.results
                and all(not result.uses for result in op.results)
            ):
                Rewriter.erase_op(op)
                changed = True


def convert_to_nhwc(module: ModuleOp) -> bool:
    """Runs the pass on `module`; whether any window op was converted."""
    if not any(_convertible(op) for op in module.walk()):
        return False
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [
                ConvertWindowOp(),
                SinkTransposeThroughElementwise(),
                FoldEmptyPad(),
                SinkTransposeThroughPad(),
                HoistTransposeThroughPad(),
                FoldTransposes(),
            ]
        )
    ).rewrite_module(module)
    _erase_dead(module)
    return True


@dataclass(frozen=True)
class LinalgConvertToNhwcPass(ModulePass):
    """NCHW convolutions and pooling as NHWC, transposes at the net's edges
    (see the module doc)."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_to_nhwc(op)
