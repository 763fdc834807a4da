"""`linalg-collapse-dims`: collapse runs of loops that every operand reads
together into one loop.

Mirrors MLIR's `linalg::collapseOpIterationDims` (the collapsing half of
`ElementwiseOpFusion.cpp`, which IREE's `CollapseDimensions` drives over
whole dispatches). torch-mlir writes a layer norm over `8x128x768` as
generics with three loops whose first two are always read together as
`(d0, d1)`; after this pass they are generics over `1024x768`, so
row-group tiling, which maps one row loop to the grid, sees a layer norm:

```mlir
%s = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d1, d2),
                                      (d0, d1, d2) -> (d0, d1, 0)],
                     iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%x : tensor<8x128x768xf32>) outs(%acc : tensor<8x128x1xf32>)
```

becomes

```mlir
%x2 = tensor.collapse_shape %x [[0, 1], [2]] : ... into tensor<1024x768xf32>
%acc2 = tensor.collapse_shape %acc [[0, 1], [2]] : ... into tensor<1024x1xf32>
%s2 = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0, 0)],
                      iterator_types = ["parallel", "reduction"]}
    ins(%x2 ...) outs(%acc2 ...)
%s = tensor.expand_shape %s2 [[0, 1], [2]] output_shape [8, 128, 1] : ...
```

and the reshapes between two collapsed ops cancel.

A run of consecutive loops `l, l+1, ..., m` of a `linalg.generic` on
tensors with static shapes collapses into one loop when

- the loops have the same iterator type;
- every indexing map either reads none of them, or reads all of them as
  consecutive results `dl, dl+1, ..., dm` in that order (bare dimensions);
- no map of the op reads a loop inside a compound expression (`d0 + d1`) or
  twice (a diagonal `(d0, d0)`), and the body has no `linalg.index` (its
  value would have to be delinearised).

Each operand is collapsed with a `tensor.collapse_shape` along the map's
runs (an operand whose shape does not change is used as it is), each result
expanded back with a `tensor.expand_shape`. The collapsed loops run in the
same order (row-major), so the body sees the same elements in the same
order: reductions fold in the same order and results are bit-identical.

Then, until nothing changes: `tensor.collapse_shape` of a
`tensor.expand_shape` with the same reassociation is the expand's source,
and `tensor.collapse_shape` of a `tensor.empty` is an empty tensor of the
collapsed type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    ModuleOp,
    TensorType,
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

from irkit.analysis.structured import StructuredComputation, is_fill, shaped_inputs
from irkit.dialects import tensor
from irkit.dialects.linalg import GenericOp
from irkit.dialects.tensor import reassociation_groups
from irkit.transforms.utils.reshapes import (
    RESHAPE_FOLDS,
    collapse_op,
    collapsed_type,
    expand_op,
)

# --------------------------------------------------------------------------
# Which loops collapse
# --------------------------------------------------------------------------


def _maps(op: GenericOp) -> Sequence[AffineMap]:
    return StructuredComputation.of(op).indexing_maps


def _static_tensor(value: SSAValue) -> bool:
    type_ = value.type
    return isinstance(type_, TensorType) and all(
        size >= 0 for size in type_.get_shape()
    )


def _eligible(op: GenericOp) -> bool:
    """A generic on static tensors whose maps hold only bare dimensions and
    constants, and whose body does not ask for loop indices. Fills are left
    to `CollapseFill`, which gives them the shape their reader wants."""
    if len(op.res) != len(op.outputs) or is_fill(op):
        return False
    if not all(_static_tensor(value) for value in (*shaped_inputs(op), *op.outputs)):
        return False
    if any(isinstance(nested, upstream.IndexOp) for nested in op.body.walk()):
        return False
    return all(_plain_map(map_) for map_ in _maps(op))


def _plain_map(map_: AffineMap) -> bool:
    """Bare dimensions, each at most once (a diagonal `(d0, d0)` is not), and
    constants."""
    dims = [e.position for e in map_.results if isinstance(e, AffineDimExpr)]
    return (
        map_.num_symbols == 0
        and all(isinstance(e, AffineDimExpr | AffineConstantExpr) for e in map_.results)
        and len(dims) == len(set(dims))
    )


def _adjacent(map_: AffineMap, loop: int) -> bool:
    """Whether `map_` reads loops `loop` and `loop + 1` both or neither, and
    when both, as consecutive results in that order."""
    positions = {
        expr.position: index
        for index, expr in enumerate(map_.results)
        if isinstance(expr, AffineDimExpr)
    }
    first, second = positions.get(loop), positions.get(loop + 1)
    if first is None and second is None:
        return True
    return first is not None and second is not None and second == first + 1


def _joinable(op: GenericOp, loop: int) -> bool:
    """Whether loops `loop` and `loop + 1` of an eligible `op` may become one."""
    kinds = op.iterator_types.data
    return kinds[loop].data == kinds[loop + 1].data and all(
        _adjacent(map_, loop) for map_ in _maps(op)
    )


def _runs(loops: int, joined: set[int]) -> list[list[int]]:
    """Loops `0..loops-1` as runs, `l` and `l + 1` together when `l` is in
    `joined`."""
    runs: list[list[int]] = [[0]] if loops else []
    for loop in range(loops - 1):
        if loop in joined:
            runs[-1].append(loop + 1)
        else:
            runs.append([loop + 1])
    return runs


def maximal_runs(op: GenericOp) -> list[list[int]]:
    """`op`'s loops as the longest runs that may each become one loop;
    `[[0], [1], ...]` when nothing collapses or `op` is not eligible (see
    the module docstring)."""
    loops = len(op.iterator_types)
    if not _eligible(op):
        return _runs(loops, set())
    return _runs(loops, {loop for loop in range(loops - 1) if _joinable(op, loop)})


def runs_for_reshape(
    op: GenericOp,
    map_: AffineMap,
    shape: Sequence[int],
    groups: Sequence[Sequence[int]],
) -> list[list[int]] | None:
    """The runs that make the operand of `shape` that `op` reads or writes
    through `map_` collapse by `groups` (a reshape's reassociation of that
    operand), or None when a group's loops are not a run of joinable loops
    read in order. A group may hold size-1 dimensions read at index 0 (the
    `keepdims` of a reduction): they need no loop."""
    if not _eligible(op):
        return None
    joined: set[int] = set()
    for group in groups:
        loops: list[int] = []
        for dim in group:
            expr = map_.results[dim]
            if isinstance(expr, AffineDimExpr):
                loops.append(expr.position)
            elif not (expr == AffineConstantExpr(0) and shape[dim] == 1):
                return None
        if loops and loops != list(range(loops[0], loops[0] + len(loops))):
            return None
        for loop in loops[:-1]:
            if not _joinable(op, loop):
                return None
            joined.add(loop)
    if not joined:
        return None
    return _runs(len(op.iterator_types), joined)


# --------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------


def _collapse_map(
    map_: AffineMap, run_of: dict[int, int], runs: Sequence[Sequence[int]]
) -> tuple[AffineMap, list[list[int]]]:
    """`map_` over the collapsed loops, and the reassociation of its operand
    (which of the operand's dimensions become one)."""
    results: list[AffineExpr] = []
    reassociation: list[list[int]] = []
    index = 0
    exprs = map_.results
    while index < len(exprs):
        expr = exprs[index]
        if isinstance(expr, AffineDimExpr):
            run = run_of[expr.position]
            length = len(runs[run])
            results.append(AffineDimExpr(run))
            reassociation.append(list(range(index, index + length)))
            index += length
        else:
            results.append(expr)
            reassociation.append([index])
            index += 1
    return AffineMap(len(runs), 0, tuple(results)), reassociation


def _is_identity(groups: list[list[int]]) -> bool:
    return all(len(group) == 1 for group in groups)


def collapse_generic(
    op: GenericOp, runs: Sequence[Sequence[int]], rewriter: PatternRewriter
) -> bool:
    """Replace `op` by a generic with one loop per run of `runs` (runs of
    joinable loops, see `maximal_runs`); False if every run is one loop."""
    if all(len(run) == 1 for run in runs):
        return False
    run_of = {loop: index for index, run in enumerate(runs) for loop in run}
    new_maps: list[AffineMap] = []
    operands: list[SSAValue] = []
    output_groups: list[list[list[int]]] = []
    for position, (value, map_) in enumerate(
        zip((*op.inputs, *op.outputs), _maps(op), strict=True)
    ):
        new_map, groups = _collapse_map(map_, run_of, runs)
        new_maps.append(new_map)
        if position >= len(op.inputs):
            output_groups.append(groups)
        if _is_identity(groups):
            operands.append(value)
            continue
        assert isinstance(value.type, TensorType)
        collapse = collapse_op(value, groups, collapsed_type(value.type, groups))
        rewriter.insert(collapse, InsertPoint.before(op))
        operands.append(collapse.result)

    inputs, outputs = operands[: len(op.inputs)], operands[len(op.inputs) :]
    collapsed = GenericOp(
        inputs,
        outputs,
        rewriter.move_region_contents_to_new_regions(op.body),
        [AffineMapAttr(map_) for map_ in new_maps],
        ArrayAttr([op.iterator_types.data[run[0]] for run in runs]),
        [value.type for value in outputs],
        op.doc,
        op.library_call,
    )
    collapsed.location = op.location
    rewriter.insert(collapsed, InsertPoint.before(op))

    replacements: list[SSAValue] = []
    for result, new_result, groups in zip(
        op.res, collapsed.res, output_groups, strict=True
    ):
        if _is_identity(groups):
            replacements.append(new_result)
            continue
        assert isinstance(result.type, TensorType)
        expand = expand_op(new_result, groups, result.type)
        rewriter.insert(expand, InsertPoint.before(op))
        replacements.append(expand.result)
    rewriter.replace(op, [], replacements)
    return True


class CollapseReductionDims(RewritePattern):
    """Collapse every run of a `linalg.generic` with a reduction loop: a
    reduction fixes which loops are rows (its reshaped neighbours follow it,
    `CollapseToProducerReshape` and `CollapseToConsumerReshape`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not StructuredComputation.of(op).all_parallel:
            collapse_generic(op, maximal_runs(op), rewriter)


class CollapseToProducerReshape(RewritePattern):
    """An elementwise generic reading `tensor.expand_shape(x)` collapses the
    loops that expand split, so it reads `x` (MLIR's
    `FoldWithProducerReshapeOpByCollapsing`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not StructuredComputation.of(op).all_parallel:
            return
        for value, map_ in zip(op.inputs, _maps(op), strict=False):
            expand = value.owner
            if not isinstance(expand, tensor.ExpandShapeOp):
                continue
            shape = cast(TensorType[Attribute], value.type).get_shape()
            runs = runs_for_reshape(
                op, map_, shape, reassociation_groups(expand.reassociation)
            )
            if runs is not None and collapse_generic(op, runs, rewriter):
                return


class CollapseToConsumerReshape(RewritePattern):
    """An elementwise generic whose result is collapsed by a
    `tensor.collapse_shape` collapses the same loops itself, so the reshape
    cancels (MLIR's `FoldReshapeWithGenericOpByCollapsing`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.CollapseShapeOp, rewriter: PatternRewriter
    ) -> None:
        producer = op.src.owner
        if (
            not isinstance(producer, GenericOp)
            or not StructuredComputation.of(producer).all_parallel
        ):
            return
        if is_fill(producer) or len(producer.res) != len(producer.outputs):
            return
        result_index = producer.res.index(op.src)
        map_ = _maps(producer)[len(producer.inputs) + result_index]
        shape = cast(TensorType[Attribute], op.src.type).get_shape()
        runs = runs_for_reshape(
            producer, map_, shape, reassociation_groups(op.reassociation)
        )
        if runs is not None:
            collapse_generic(producer, runs, rewriter)


def collapse_dims(module: ModuleOp) -> None:
    """Collapse every collapsible generic in `module` and fold the reshapes
    that cancel, until nothing changes."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [
                CollapseReductionDims(),
                CollapseToProducerReshape(),
                CollapseToConsumerReshape(),
                *RESHAPE_FOLDS,
            ]
        )
    ).rewrite_module(module)


@dataclass(frozen=True)
class LinalgCollapseDimsPass(ModulePass):
    """Collapse runs of loops that every operand reads together.

    Input: any IR; only `linalg.generic` ops on tensors with static shapes are
    considered (run `linalg-generalize-named-ops` first to include named
    ops). Nothing is rejected: an op with no collapsible run, a compound
    index expression on the run's loops, or `linalg.index` is left alone.

    Output: each such generic has one loop per maximal run of consecutive
    loops of one iterator type that every map reads together in order (or
    not at all); its operands go through `tensor.collapse_shape`, its results
    through `tensor.expand_shape`. A collapse of an expand with the same
    reassociation is folded to the expand's source, a collapse of
    `tensor.empty` to an empty tensor.

    Preserves: every result bit for bit (the collapsed loops visit elements
    in the same order); ops other than generics; locations.
    """

    name = "linalg-collapse-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        collapse_dims(op)
