"""Reshapes of tensors between linalg ops: building them, and the patterns
that fold them away.

`linalg-collapse-dims` and `linalg-fold-unit-extent-dims` change the shapes
linalg ops iterate over and put `tensor.collapse_shape` before and
`tensor.expand_shape` after the ops they rewrite; these patterns cancel the
reshapes that meet (MLIR's `ComposeCollapseOfExpandOp`,
`ComposeReassociativeReshapeOps`, and the folds of reshapes of
`tensor.empty` and of fills):

- `collapse_op`, `expand_op`, `collapsed_type`: building reshapes (their
  groups read back with `irkit.dialects.tensor.reassociation_groups`);
- `fill_like`: a fill (`linalg.fill`, or a generic that
  `irkit.analysis.structured.is_fill`) over another shape;
- `RESHAPE_FOLDS`: `ComposeReshapes`, `CollapseEmpty`, `CollapseFill`,
  `SliceBeforeExpand`.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from irkit.analysis.structured import is_fill
from irkit.dialects import linalg, tensor
from irkit.dialects.linalg import GenericOp
from irkit.dialects.tensor import reassociation


def collapsed_type(
    type_: TensorType[Attribute], groups: list[list[int]]
) -> TensorType[Attribute]:
    """`type_` with each group of dimensions collapsed into one."""
    shape = type_.get_shape()
    sizes = []
    for group in groups:
        size = 1
        for dim in group:
            size *= shape[dim]
        sizes.append(size)
    return TensorType(type_.get_element_type(), sizes)


def collapse_op(
    value: SSAValue, groups: list[list[int]], result_type: TensorType[Attribute]
) -> tensor.CollapseShapeOp:
    """`tensor.collapse_shape %value groups` (not inserted)."""
    return tensor.CollapseShapeOp.build(
        operands=[value],
        result_types=[result_type],
        properties={"reassociation": tensor.reassociation_attr(groups)},
    )


def expand_op(
    value: SSAValue, groups: list[list[int]], result_type: TensorType[Attribute]
) -> tensor.ExpandShapeOp:
    """`tensor.expand_shape %value groups` to the static `result_type`."""
    return tensor.ExpandShapeOp(
        value,
        [],
        tensor.reassociation_attr(groups),
        list(result_type.get_shape()),
        result_type,
    )


class ComposeReshapes(RewritePattern):
    """A reshape of a reshape is one reshape of the first's source, or that
    source itself when the shapes agree (MLIR's `ComposeCollapseOfExpandOp`
    and `ComposeReassociativeReshapeOps`): every reshape keeps row-major
    order, so two compose into whichever one goes from the source's shape to
    the result's, when one does."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: tensor.CollapseShapeOp | tensor.ExpandShapeOp,
        rewriter: PatternRewriter,
    ) -> None:
        inner = op.src.owner
        if not isinstance(inner, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            return
        source = inner.src
        source_type = cast(TensorType[Attribute], source.type)
        result_type = op.result.type
        before, after = source_type.get_shape(), result_type.get_shape()
        if source_type == result_type:
            rewriter.replace(op, [], [source])
        elif len(after) < len(before):
            groups = reassociation(before, after)
            if groups is not None:
                rewriter.replace(op, collapse_op(source, groups, result_type))
        elif len(after) > len(before):
            groups = reassociation(after, before)
            if groups is not None:
                rewriter.replace(op, expand_op(source, groups, result_type))


class CollapseEmpty(RewritePattern):
    """`collapse_shape(tensor.empty)` is an empty tensor of the collapsed type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.CollapseShapeOp, rewriter: PatternRewriter
    ) -> None:
        source = op.src.owner
        if not isinstance(source, tensor.EmptyOp) or source.dynamic_sizes:
            return
        rewriter.replace(op, tensor.EmptyOp([], op.result.type))


class CollapseFill(RewritePattern):
    """`collapse_shape(fill)` is the fill over the collapsed shape (a fill of
    its own for each collapse of it: writing a value costs no more than
    reading it), so the fill has the shape its reader wants. A fill is a
    `linalg.fill` or a generic that reads no tensor (`is_fill`), of a
    `tensor.empty`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.CollapseShapeOp, rewriter: PatternRewriter
    ) -> None:
        fill = op.src.owner
        if isinstance(fill, linalg.FillOp):
            init_value = fill.outputs[0]
        elif isinstance(fill, GenericOp) and is_fill(fill) and len(fill.res) == 1:
            init_value = fill.outputs[0]
        else:
            return
        init = init_value.owner
        if not isinstance(init, tensor.EmptyOp) or init.dynamic_sizes:
            return
        result_type = op.result.type
        empty = tensor.EmptyOp([], result_type)
        rewriter.replace(op, [empty, fill_like(fill, empty.tensor, result_type)])
        if not fill.results[0].uses:
            rewriter.erase(fill)
            if not init.tensor.uses:
                rewriter.erase(init)


def fill_like(
    fill: GenericOp | linalg.FillOp, init: SSAValue, result_type: TensorType[Attribute]
) -> Operation:
    """`fill` writing into `init` of `result_type` instead."""
    if isinstance(fill, linalg.FillOp):
        return linalg.FillOp(list(fill.inputs), [init], [result_type])
    rank = len(result_type.get_shape())
    collapsed = GenericOp(
        list(fill.inputs),
        [init],
        fill.body.clone(),
        [AffineMapAttr(AffineMap(rank, 0, ())) for _ in fill.inputs]
        + [AffineMapAttr(AffineMap.identity(rank))],
        ArrayAttr([fill.iterator_types.data[0]] * rank),
        [result_type],
        fill.doc,
        fill.library_call,
    )
    collapsed.location = fill.location
    return collapsed


class SliceBeforeExpand(RewritePattern):
    """`extract_slice(expand_shape(x))` is `expand_shape(extract_slice(x))`
    when the slice leaves every split group whole (MLIR's
    `BubbleUpExpandShapeThroughExtractSlice`, for the groups it slices not):
    a dimension the expand leaves alone is sliced on `x`. With the slice
    first, the expand meets the reshapes after it, and they compose. A
    convolution's padded product (`linalg-conv-to-im2col`) is sliced to the
    output's pixels; with a batch of one, `linalg-fold-unit-extent-dims`
    puts an expand of the batch before that slice, which kept the expands
    and collapses around it apart, and a strided view collapsed needed a
    copy (a kernel per convolution of ResNet-18 at batch 1)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter
    ) -> None:
        expand = op.source.owner
        if not isinstance(expand, tensor.ExpandShapeOp) or op.offsets or op.sizes:
            return
        if op.strides:
            return
        source_type = cast(TensorType[Attribute], expand.src.type)
        expanded = expand.result.type.get_shape()
        sizes = list(op.static_sizes.get_values())
        if len(op.result.type.get_shape()) != len(expanded):
            return  # rank-reducing
        offsets = list(op.static_offsets.get_values())
        strides = list(op.static_strides.get_values())
        groups = tensor.reassociation_groups(expand.reassociation)
        new_offsets: list[int] = []
        new_sizes: list[int] = []
        new_strides: list[int] = []
        for source_dim, group in enumerate(groups):
            if len(group) == 1:
                (dim,) = group
                new_offsets.append(offsets[dim])
                new_sizes.append(sizes[dim])
                new_strides.append(strides[dim])
                continue
            if any(
                offsets[dim] != 0 or strides[dim] != 1 or sizes[dim] != expanded[dim]
                for dim in group
            ):
                return
            new_offsets.append(0)
            new_sizes.append(source_type.get_shape()[source_dim])
            new_strides.append(1)
        sliced_type = TensorType(source_type.get_element_type(), new_sizes)
        slice_op = tensor.ExtractSliceOp(
            expand.src, new_offsets, new_sizes, new_strides, sliced_type
        )
        result_type = cast(TensorType[Attribute], op.result.type)
        rewriter.replace(
            op, [slice_op, expand_op(slice_op.result, groups, result_type)]
        )


# The folds both reshaping passes run with their own patterns.
RESHAPE_FOLDS: tuple[RewritePattern, ...] = (
    ComposeReshapes(),
    CollapseEmpty(),
    CollapseFill(),
    SliceBeforeExpand(),
)
