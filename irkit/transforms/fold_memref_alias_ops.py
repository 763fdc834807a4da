"""`fold-memref-alias-ops`: access memory through the original memref, not views.

Mirrors MLIR's pass of that name (`mlir/lib/Dialect/MemRef/Transforms/
FoldMemRefAliasOps.cpp`). After `linalg-tile` and `convert-linalg-to-loops`
the loops read and write tiles:

```mlir
%tile = memref.subview %a[%t0, %t1] [4, 8] [1, 1]
    : memref<8x16xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
%x = memref.load %tile[%i, %j] : memref<4x8xf32, strided<[16, 1], offset: ?>>
```

and afterwards they index the original memref (the emitted C then indexes the
function's own pointers, which gcc vectorises and alias-analyses better):

```mlir
%r = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%t0, %i]
%c = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%t1, %j]
%x = memref.load %a[%r, %c] : memref<8x16xf32>
```

Contract
--------
Input: any IR. Output:

- `memref.load` / `memref.store` through a `memref.subview` access the
  subview's source at `offset + index * stride` per source dimension (a
  dimension a rank-reducing subview drops is accessed at its offset);
- through a `memref.expand_shape`: the source index of each reassociation
  group is the row-major linearisation of the group's indices;
- through a `memref.collapse_shape`: each source index of a group is
  `(index floordiv inner) mod size`, the delinearisation of the group's index;
- a `memref.subview` of a `memref.subview` becomes one subview of the first
  source (offsets `offset1 + offset2 * stride1`, strides multiplied);
- `memref.dim` of a subview is its size, of a static dimension a constant,
  so views used only to ask their sizes die too;
- alias ops left without uses are erased.

Index arithmetic is one `affine.apply` per index, over symbols only (MLIR's
composed form), with constants folded in and the `affine.apply`s the pass made
before composed into it: a load through two levels of views gets one apply per
index. Accesses are left as they are (nothing is wrong with them) where the
index math would not be exact or affine: a rank-reducing subview whose dropped
dimensions the static sizes do not determine, dynamic strides, and a reshape
group whose inner sizes are dynamic.

A load or store at a constant index outside the static size of the view it
goes through is rejected with an error at the access: folded, it would
silently touch another element of the source.

Preserves: the element every access touches, and the result types of all ops
that stay (a composed subview keeps the outer subview's type).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.diagnostics import op_error
from irkit.dialects import affine, memref
from irkit.dialects.static_values import constant_int

PASS_NAME = "fold-memref-alias-ops"

_ALIAS_OPS = (memref.SubviewOp, memref.ExpandShapeOp, memref.CollapseShapeOp)

# --------------------------------------------------------------------------
# Index arithmetic: affine expressions over symbols, composed and folded
# --------------------------------------------------------------------------


def has_positive_divisors(expr: AffineExpr) -> bool:
    """Whether every `floordiv`, `ceildiv` and `mod` in `expr` is by a positive
    constant (MLIR leaves the others undefined; xDSL cannot simplify them)."""
    return all(
        not isinstance(e, AffineBinaryOpExpr)
        or e.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
        or (isinstance(e.rhs, AffineConstantExpr) and e.rhs.value > 0)
        for e in expr.dfs()
    )


@dataclass
class IndexBuilder:
    """Builds index expressions whose symbols stand for SSA values.

    `value(v)` is the expression of `v`: a constant, the composed expression
    of a single-result `affine.apply`, or a fresh symbol. `materialize` emits
    the simplest op computing an expression at an insertion point.
    """

    operands: list[SSAValue] = field(default_factory=list)

    def symbol(self, value: SSAValue) -> AffineExpr:
        if value not in self.operands:
            self.operands.append(value)
        return AffineExpr.symbol(self.operands.index(value))

    def value(self, value: SSAValue | int) -> AffineExpr:
        if isinstance(value, int):
            return AffineExpr.constant(value)
        constant = constant_int(value)
        if constant is not None:
            return AffineExpr.constant(constant)
        apply = value.owner
        if (
            isinstance(apply, affine.ApplyOp)
            and len(apply.map.data.results) == 1
            and has_positive_divisors(apply.map.data.results[0])
        ):
            affine_map = apply.map.data
            operands = [self.value(operand) for operand in apply.mapOperands]
            return affine_map.results[0].replace_dims_and_symbols(
                operands[: affine_map.num_dims], operands[affine_map.num_dims :]
            )
        return self.symbol(value)

    def materialize(self, expr: AffineExpr, insertion: InsertPoint) -> SSAValue:
        # xDSL's simplifier spells `x mod 3` as `x - (x floordiv 3) * 3`:
        # only sums and products are worth its flattening.
        if all(
            not isinstance(e, AffineBinaryOpExpr)
            or e.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
            for e in expr.dfs()
        ):
            expr = expr.simplify(0, len(self.operands))
        if isinstance(expr, AffineConstantExpr):
            op: Operation = arith.ConstantOp(IntegerAttr(expr.value, IndexType()))
            cast(arith.ConstantOp, op).result.name_hint = f"c{expr.value}"
        elif isinstance(expr, AffineSymExpr):
            return self.operands[expr.position]
        else:
            used = sorted(
                {e.position for e in expr.dfs() if isinstance(e, AffineSymExpr)}
            )
            renumbered = [AffineExpr.symbol(0)] * len(self.operands)
            for new, old in enumerate(used):
                renumbered[old] = AffineExpr.symbol(new)
            expr = expr.replace_dims_and_symbols((), renumbered)
            op = affine.ApplyOp(
                [self.operands[old] for old in used],
                AffineMapAttr(AffineMap(0, len(used), (expr,))),
            )
        Rewriter.insert_op(op, insertion)
        return op.results[0]


# --------------------------------------------------------------------------
# Helpers: what each alias op does to an index
# --------------------------------------------------------------------------


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    pending = iter(dynamic)
    return [next(pending) if v == DYNAMIC_INDEX else v for v in static]


def _shape(value: SSAValue) -> tuple[int, ...]:
    return cast(MemRefType[Attribute], value.type).get_shape()


def dropped_dims(subview: memref.SubviewOp) -> set[int] | None:
    """The source dimensions a rank-reducing `subview` drops; None if the
    static sizes leave the choice open."""
    sizes = subview.static_sizes.get_values()
    dropped = len(sizes) - len(_shape(subview.result))
    if dropped == 0:
        return set()
    units = {dim for dim, size in enumerate(sizes) if size == 1}
    return units if len(units) == dropped else None


def _subview_source_indices(
    subview: memref.SubviewOp, indices: Sequence[SSAValue], builder: IndexBuilder
) -> list[AffineExpr] | None:
    dropped = dropped_dims(subview)
    if dropped is None or subview.strides:
        return None
    offsets = _mixed(subview.static_offsets.get_values(), subview.offsets)
    strides = subview.static_strides.get_values()
    pending = iter(indices)
    result: list[AffineExpr] = []
    for dim, (offset, stride) in enumerate(zip(offsets, strides, strict=True)):
        start = builder.value(offset)
        result.append(
            start if dim in dropped else start + builder.value(next(pending)) * stride
        )
    return result


def _reassociation(
    op: memref.ExpandShapeOp | memref.CollapseShapeOp,
) -> list[list[int]]:
    return [[dim.value.data for dim in group] for group in op.reassociation.data]


def _inner_strides(sizes: Sequence[int]) -> list[int] | None:
    """Row-major strides of a group of dimensions (None if an inner size is dynamic)."""
    strides: list[int] = []
    running = 1
    for size in reversed(sizes):
        strides.insert(0, running)
        if size == DYNAMIC_INDEX:
            running = DYNAMIC_INDEX
        elif running != DYNAMIC_INDEX:
            running *= size
    return None if DYNAMIC_INDEX in strides else strides


def _expand_source_indices(
    expand: memref.ExpandShapeOp, indices: Sequence[SSAValue], builder: IndexBuilder
) -> list[AffineExpr] | None:
    shape = _shape(expand.result)
    result: list[AffineExpr] = []
    for group in _reassociation(expand):
        strides = _inner_strides([shape[dim] for dim in group])
        if strides is None:
            return None
        linear = AffineExpr.constant(0)
        for dim, stride in zip(group, strides, strict=True):
            linear = linear + builder.value(indices[dim]) * stride
        result.append(linear)
    return result


def _collapse_source_indices(
    collapse: memref.CollapseShapeOp,
    indices: Sequence[SSAValue],
    builder: IndexBuilder,
) -> list[AffineExpr] | None:
    shape = _shape(collapse.src)
    result: list[AffineExpr] = []
    for index, group in zip(indices, _reassociation(collapse), strict=True):
        strides = _inner_strides([shape[dim] for dim in group])
        if strides is None:
            return None
        linear = builder.value(index)
        for position, (dim, stride) in enumerate(zip(group, strides, strict=True)):
            part = linear // stride if stride != 1 else linear
            result.append(part if position == 0 else part % shape[dim])
    return result


def source_indices(
    alias: Operation, indices: Sequence[SSAValue], builder: IndexBuilder
) -> list[AffineExpr] | None:
    """The indices into `alias`'s source of element `indices` of its result,
    or None where this pass does not fold `alias`."""
    if isinstance(alias, memref.SubviewOp):
        return _subview_source_indices(alias, indices, builder)
    if isinstance(alias, memref.ExpandShapeOp):
        return _expand_source_indices(alias, indices, builder)
    if isinstance(alias, memref.CollapseShapeOp):
        return _collapse_source_indices(alias, indices, builder)
    return None


def _require_static_indices_in_bounds(
    op: Operation, view: SSAValue, indices: Sequence[SSAValue]
) -> None:
    """A constant index outside a view's static size would, once folded,
    silently touch a neighbouring element of the source: reject it."""
    for dim, (index, size) in enumerate(zip(indices, _shape(view), strict=True)):
        constant = constant_int(index)
        if constant is None or size == DYNAMIC_INDEX:
            continue
        if not 0 <= constant < size:
            raise op_error(
                op,
                f"{PASS_NAME} refuses index {constant}, out of bounds of "
                f"dimension {dim} (size {size}) of the view it accesses",
            )


def _fold_access(
    op: Operation, memref_value: SSAValue, indices: Sequence[SSAValue]
) -> tuple[SSAValue, list[SSAValue]] | None:
    """The source memref and indices to access instead of `memref_value`."""
    alias = memref_value.owner
    if not isinstance(alias, _ALIAS_OPS):
        return None
    _require_static_indices_in_bounds(op, memref_value, indices)
    builder = IndexBuilder()
    exprs = source_indices(alias, indices, builder)
    if exprs is None:
        return None
    insertion = InsertPoint.before(op)
    source = alias.operands[0]
    return source, [builder.materialize(expr, insertion) for expr in exprs]


# --------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------


class FoldLoadOfAlias(RewritePattern):
    """`memref.load` through a view loads from the view's source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter) -> None:
        folded = _fold_access(op, op.memref, op.indices)
        if folded is None:
            return
        source, indices = folded
        load = memref.LoadOp.get(source, indices)
        load.res.name_hint = op.res.name_hint
        rewriter.replace(op, load)


class FoldStoreOfAlias(RewritePattern):
    """`memref.store` through a view stores into the view's source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter) -> None:
        folded = _fold_access(op, op.memref, op.indices)
        if folded is None:
            return
        source, indices = folded
        rewriter.replace(op, memref.StoreOp.get(op.value, source, indices))


class ComposeSubviews(RewritePattern):
    """A subview of a (non rank-reducing, unit-or-static-stride) subview is one
    subview of the first source, with the outer subview's result type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.SubviewOp, rewriter: PatternRewriter
    ) -> None:
        inner = op.source.owner
        if not isinstance(inner, memref.SubviewOp) or dropped_dims(inner) != set():
            return
        if inner.strides or op.strides:
            return
        inner_strides = inner.static_strides.get_values()
        offsets: list[int | SSAValue] = []
        for inner_offset, outer_offset, stride in zip(
            _mixed(inner.static_offsets.get_values(), inner.offsets),
            _mixed(op.static_offsets.get_values(), op.offsets),
            inner_strides,
            strict=True,
        ):
            if isinstance(inner_offset, int) and isinstance(outer_offset, int):
                offsets.append(inner_offset + outer_offset * stride)
                continue
            builder = IndexBuilder()
            expr = builder.value(inner_offset) + builder.value(outer_offset) * stride
            offsets.append(builder.materialize(expr, InsertPoint.before(op)))
        strides = [
            a * b
            for a, b in zip(inner_strides, op.static_strides.get_values(), strict=True)
        ]
        composed = memref.SubviewOp.get(
            inner.source,
            offsets,
            _mixed(op.static_sizes.get_values(), op.sizes),
            strides,
            op.result.type,
        )
        composed.result.name_hint = op.result.name_hint
        rewriter.replace(op, composed)


class FoldDimOfAlias(RewritePattern):
    """`memref.dim` of a static dimension is a constant; of a subview, its size."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        dim = constant_int(op.index)
        if dim is None or not isinstance(op.source.type, MemRefType):
            return
        shape = op.source.type.get_shape()
        if not 0 <= dim < len(shape):
            return
        if shape[dim] != DYNAMIC_INDEX:
            constant = arith.ConstantOp(IntegerAttr(shape[dim], IndexType()))
            constant.result.name_hint = f"c{shape[dim]}"
            rewriter.replace(op, constant)
            return
        subview = op.source.owner
        if not isinstance(subview, memref.SubviewOp):
            return
        dropped = dropped_dims(subview)
        if dropped is None:
            return
        kept = [
            size
            for position, size in enumerate(
                _mixed(subview.static_sizes.get_values(), subview.sizes)
            )
            if position not in dropped
        ]
        size = kept[dim]
        assert isinstance(size, SSAValue)  # the result dimension is dynamic
        rewriter.replace(op, (), [size])


class EraseDeadAlias(RewritePattern):
    """Views (and index arithmetic) nothing uses any more go away."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, (*_ALIAS_OPS, affine.ApplyOp)) and not op.results[0].uses:
            rewriter.erase(op)


def fold_memref_alias_ops(module: ModuleOp) -> None:
    """Fold loads, stores, dims and subviews through views in `module`."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [
                ComposeSubviews(),
                FoldLoadOfAlias(),
                FoldStoreOfAlias(),
                FoldDimOfAlias(),
                EraseDeadAlias(),
            ]
        )
    ).rewrite_module(module)


@dataclass(frozen=True)
class FoldMemrefAliasOpsPass(ModulePass):
    """Make loads, stores and subviews address the source of views directly;
    see the module docstring for the contract."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_memref_alias_ops(op)
