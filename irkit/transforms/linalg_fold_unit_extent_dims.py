"""`linalg-fold-unit-extent-dims`: drop the loops of extent 1 from linalg ops.

Mirrors MLIR's `-linalg-fold-unit-extent-dims` (`DropUnitDims.cpp`, with
reshapes, not rank-reducing slices). torch-mlir writes a linear layer over a
single row as a matmul over `1x1024` and `4096x1024`; its loop `i` has
extent 1, so the op is a matrix-vector product in disguise:

```mlir
%y = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d2),
                                      (d0, d1, d2) -> (d1, d2),
                                      (d0, d1, d2) -> (d0, d1)],
                     iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x, %w : tensor<1x1024xf32>, tensor<4096x1024xf32>)
    outs(%acc : tensor<1x4096xf32>)
```

becomes

```mlir
%x1 = tensor.collapse_shape %x [[0, 1]] : tensor<1x1024xf32> into tensor<1024xf32>
%acc1 = tensor.collapse_shape %acc [[0, 1]] : ... into tensor<4096xf32>
%y1 = linalg.generic {indexing_maps = [(d0, d1) -> (d1), (d0, d1) -> (d0, d1),
                                       (d0, d1) -> (d0)],
                      iterator_types = ["parallel", "reduction"]}
    ins(%x1, %w ...) outs(%acc1 ...)
%y = tensor.expand_shape %y1 [[0, 1]] output_shape [1, 4096] : ...
```

which the row-group passes run as a row reduction per output element (a
GEMV: a block per row, its threads splitting the 1024 products), with the
fill before it and the bias and activation after it in the same kernel.

Contract
--------
Input: any IR. A `linalg.generic` on tensors with static shapes is
rewritten when some of its loops have extent 1 (the size of an operand
dimension that loop indexes alone) and others do not, or when an operand
has a dimension of size 1 indexed by the constant 0 (a reduction's
`keepdims` output, `(d0, d1, d2) -> (d0, d1, 0)`, which must lose that
dimension as its readers do); named ops are not considered (run
`linalg-generalize-named-ops` first).

Output: the same op without its unit loops. Each unit loop is 0 in every
map that used it (and `linalg.index` of it is the constant 0). An operand
dimension of size 1 that a unit loop or the constant 0 indexes is dropped
by a `tensor.collapse_shape` (into a neighbouring dimension; an operand
keeps its last dimension when all would go); each result is expanded back
to its type by a `tensor.expand_shape`. Then reshapes that meet fold
(`irkit.transforms.utils.reshapes.RESHAPE_FOLDS`): a collapse of the expand
of the op before gives that op's result back, a collapse of `tensor.empty`
or of a fill is an empty tensor or a fill of the collapsed shape.

Preserves: every result bit for bit: a unit loop runs once, at 0, so the
body sees the same elements in the same order. Nothing is rejected: an op
without unit loops, or with only unit loops, is left as it is, and so is an
op where a compound index would become a bare loop whose range is not the
size of the dimension it indexes (a padded pooling window `d2 * 2 + d4`
with unit `d2`: `d4` alone would have to span the padded input, which is
longer than the window).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as upstream
from xdsl.ir import Attribute, SSAValue
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

from irkit.analysis.structured import StructuredComputation, loop_dimensions
from irkit.dialects.linalg import GenericOp
from irkit.transforms.utils.reshapes import (
    RESHAPE_FOLDS,
    collapse_op,
    collapsed_type,
    expand_op,
)


def _static_tensors(op: GenericOp) -> bool:
    return len(op.res) == len(op.outputs) and all(
        isinstance(value.type, TensorType) and value.type.has_static_shape()
        for value in op.operands
        if isinstance(value.type, ShapedType)
    )


def unit_loops(op: GenericOp) -> list[int] | None:
    """The loops of `op` of extent 1 (maybe none), or None when `op` is no
    generic on static tensors, has only such loops, or cannot drop them (a
    compound index would become a bare loop of another range)."""
    if not _static_tensors(op):
        return None
    computation = StructuredComputation.of(op)
    dimensions = loop_dimensions(computation)
    units = {dimension.loop for dimension in dimensions if dimension.size == 1}
    if len(units) == computation.num_loops:
        return None
    ranges = {dimension.loop: dimension.size for dimension in dimensions}
    for operand, map_ in zip(
        computation.operands, computation.indexing_maps, strict=True
    ):
        shape = operand.type.get_shape() if isinstance(operand.type, ShapedType) else ()
        for position, expr in enumerate(map_.results):
            bare = _becomes_bare(expr, units)
            if bare is not None and ranges.get(bare) != shape[position]:
                # A window `d2 * 2 + d4` with unit `d2` would read its
                # dimension as `d4` alone, which would then have to span it:
                # a padded pooling input is longer than its window.
                return []
    return sorted(units)


def _becomes_bare(expr: AffineExpr, units: set[int]) -> int | None:
    """The loop compound `expr` is alone once the unit loops are 0, if any."""
    if isinstance(expr, AffineDimExpr | AffineConstantExpr):
        return None
    used = expr.used_dims()
    if not used & units:
        return None
    dims = [
        AffineExpr.constant(0) if loop in units else AffineExpr.dimension(loop)
        for loop in range(max(used) + 1)
    ]
    substituted = expr.replace_dims_and_symbols(dims, [])
    return substituted.position if isinstance(substituted, AffineDimExpr) else None


def _dropped_positions(
    map_: AffineMap, shape: tuple[int, ...], units: set[int]
) -> list[int]:
    """The operand dimensions to drop: size 1, indexed by a unit loop or 0.
    The last one stays when every dimension would go."""
    dropped = [
        position
        for position, expr in enumerate(map_.results)
        if shape[position] == 1
        and (
            (isinstance(expr, AffineDimExpr) and expr.position in units)
            or (isinstance(expr, AffineConstantExpr) and expr.value == 0)
        )
    ]
    if shape and len(dropped) == len(shape):
        dropped.pop()
    return dropped


def _groups(rank: int, dropped: list[int]) -> list[list[int]]:
    """Reassociation keeping the other dimensions: each dropped one joins the
    next kept dimension's group (the last group, after the last kept)."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for position in range(rank):
        pending.append(position)
        if position not in dropped:
            groups.append(pending)
            pending = []
    if pending:
        groups[-1] += pending
    return groups


def fold_unit_loops(op: GenericOp, rewriter: PatternRewriter) -> bool:
    """Replace `op` by a generic without its unit loops and its operands'
    unit dimensions (see the module docstring); False when it has neither."""
    units = unit_loops(op)
    if units is None:
        return False
    unit_set = set(units)
    computation = StructuredComputation.of(op)
    if not units and not any(
        isinstance(value.type, TensorType)
        and _dropped_positions(map_, value.type.get_shape(), unit_set)
        for value, map_ in zip(
            computation.operands, computation.indexing_maps, strict=True
        )
    ):
        return False
    kept_loops = [loop for loop in range(computation.num_loops) if loop not in unit_set]
    # Old loops in terms of the new ones: a unit loop is 0.
    substitution: list[AffineExpr] = []
    for loop in range(computation.num_loops):
        if loop in unit_set:
            substitution.append(AffineExpr.constant(0))
        else:
            substitution.append(AffineExpr.dimension(kept_loops.index(loop)))
    to_old = AffineMap(len(kept_loops), 0, tuple(substitution))

    new_maps: list[AffineMap] = []
    operands: list[SSAValue] = []
    output_groups: list[list[list[int]] | None] = []
    for position, (value, map_) in enumerate(
        zip(computation.operands, computation.indexing_maps, strict=True)
    ):
        substituted = map_.compose(to_old)
        groups: list[list[int]] | None = None
        if isinstance(value.type, TensorType):
            shape = value.type.get_shape()
            dropped = _dropped_positions(map_, shape, unit_set)
            if dropped:
                groups = _groups(len(shape), dropped)
                substituted = substituted.drop_results(
                    [p in dropped for p in range(len(shape))]
                )
                collapse = collapse_op(
                    value, groups, collapsed_type(value.type, groups)
                )
                rewriter.insert(collapse, InsertPoint.before(op))
                value = collapse.result
        new_maps.append(substituted)
        operands.append(value)
        if position >= len(op.inputs):
            output_groups.append(groups)

    body = rewriter.move_region_contents_to_new_regions(op.body)
    for nested in list(body.walk()):
        if not isinstance(nested, upstream.IndexOp):
            continue
        loop = nested.dim.value.data
        if loop in unit_set:
            zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
            rewriter.replace(nested, zero)
        else:
            nested.properties["dim"] = IntegerAttr(kept_loops.index(loop), i64)

    inputs, outputs = operands[: len(op.inputs)], operands[len(op.inputs) :]
    folded = GenericOp(
        inputs,
        outputs,
        body,
        [AffineMapAttr(map_) for map_ in new_maps],
        ArrayAttr([op.iterator_types.data[loop] for loop in kept_loops]),
        [value.type for value in outputs],
        op.doc,
        op.library_call,
    )
    folded.location = op.location
    rewriter.insert(folded, InsertPoint.before(op))
    replacements: list[SSAValue] = []
    for result, new_result, groups in zip(
        op.res, folded.res, output_groups, strict=True
    ):
        if groups is None:
            replacements.append(new_result)
            continue
        result_type = result.type
        assert isinstance(result_type, TensorType)
        typed: TensorType[Attribute] = result_type
        expand = expand_op(new_result, groups, typed)
        rewriter.insert(expand, InsertPoint.before(op))
        replacements.append(expand.result)
    rewriter.replace(op, [], replacements)
    return True


class FoldUnitExtentDims(RewritePattern):
    """Drop the unit loops of a `linalg.generic` on static tensors."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        fold_unit_loops(op, rewriter)


def fold_unit_extent_dims(module: ModuleOp) -> None:
    """Drop every generic's unit loops in `module`, and fold the reshapes
    that meet, until nothing changes."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier([FoldUnitExtentDims(), *RESHAPE_FOLDS])
    ).rewrite_module(module)


@dataclass(frozen=True)
class LinalgFoldUnitExtentDimsPass(ModulePass):
    """Drop the loops of extent 1 from `linalg.generic`s on static tensors.

    Input: any IR; only `linalg.generic` ops on tensors with static shapes
    and some loops of extent 1 and some not are rewritten. Nothing is
    rejected.

    Output: each such op without those loops, its operands' unit dimensions
    collapsed away and its results expanded back (see the module
    docstring); reshapes that meet are folded.

    Preserves: every result bit for bit; other ops; locations.
    """

    name = "linalg-fold-unit-extent-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_unit_extent_dims(op)
