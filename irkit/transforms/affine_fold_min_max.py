"""`affine-fold-min-max`: fold `affine.min` / `affine.max` that loop ranges decide.

MLIR folds these with `affine::simplifyConstrainedMinMaxOp` and the
`SimplifyAffineMinMaxOp` canonicalisations (`mlir/lib/Dialect/Affine/...`).
After tiling, each partial tile's size is an `affine.min`:

```mlir
scf.for %t = %c0 to %c96 step %c32 {
  %size = affine.min affine_map<(d0) -> (32, -d0 + 100)>(%t)
```

`%t` is 0, 32 or 64, so `100 - %t >= 36 > 32` and `%size` is the constant 32;
with `to %c100` (`%t` up to 96) it stays, since the last tile has 4 elements.

Contract
--------
Input: any IR. For each `affine.min` / `affine.max`:

1. Operands defined by `arith.constant` are substituted into the map, and an
   SSA value passed twice becomes one dimension (or symbol).
2. Every operand gets a range `[lo, hi]` (bounds may be unknown) from
   `irkit.analysis.ranges.value_range`: constants; induction variables of
   `scf.for`, `scf.parallel` and `scf.forall` get `[lo(lb), hi(ub) - 1]`,
   tightened to the last point of the step lattice `lb + k * step` when `lb`
   and `step` are constants; the results of `affine.apply` / `affine.min` /
   `affine.max` and of `arith.addi` / `subi` / `muli` get the interval of
   their expression, and `memref.dim` a static size (or a subview's size
   operand's range), up to a fixed depth; anything else is unbounded.
3. A result `e_j` of a min is dropped when another remaining result `e_k`
   satisfies `hi(e_k - e_j) <= 0` (of a max: `lo(e_k - e_j) >= 0`). The
   difference is simplified first (so `32 - (100 - d0)` is `d0 - 68`), and
   the interval of an expression is computed bottom-up: sums and constant
   multiples of distinct operands are exact, `floordiv` / `ceildiv` / `mod`
   by a positive constant are sound over-approximations.
4. One result left: the op becomes that expression: an `arith.constant`, the
   operand itself, or an `affine.apply` (MLIR folds a single-result min/max
   to its result too). Several left but fewer than before, or constants
   substituted: a smaller `affine.min` / `affine.max` with only the operands
   it still uses.

A map with a `floordiv`, `ceildiv` or `mod` by anything but a positive
constant is rejected with an error at the op (MLIR leaves it undefined).

`affine.apply` with constant operands is folded the same way (to a constant,
an operand, or a smaller apply).

Preserves: the value of every folded op on every execution (a range is only
used where the op is inside the loop that bounds it, where every value it can
see lies in the range); ops that cannot be decided stay as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
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

from irkit.analysis.ranges import Interval, expr_range, value_range
from irkit.diagnostics import op_error
from irkit.dialects import affine
from irkit.dialects.static_values import constant_int

PASS_NAME = "affine-fold-min-max"


# --------------------------------------------------------------------------
# Canonical form of a map: constants substituted, repeated operands merged
# --------------------------------------------------------------------------


def _require_positive_divisors(op: Operation, expr: AffineExpr) -> None:
    """MLIR leaves `floordiv`, `ceildiv` and `mod` by a non-positive value
    undefined: such a map has no value to fold to."""
    for e in expr.dfs():
        if (
            isinstance(e, AffineBinaryOpExpr)
            and e.kind not in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
            and not (isinstance(e.rhs, AffineConstantExpr) and e.rhs.value > 0)
        ):
            raise op_error(
                op, f"{PASS_NAME} needs a positive constant divisor in '{e}'"
            )


def _simplified(expr: AffineExpr, num_dims: int, num_symbols: int) -> AffineExpr:
    """`expr` flattened when it is a sum of products (xDSL's simplifier would
    spell `x mod 3` as `x - (x floordiv 3) * 3` in the output)."""
    if all(
        not isinstance(e, AffineBinaryOpExpr)
        or e.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
        for e in expr.dfs()
    ):
        return expr.simplify(num_dims, num_symbols)
    return expr


@dataclass
class _CanonicalMap:
    """A map's results over distinct non-constant operands (dims, then symbols)."""

    results: list[AffineExpr]
    dims: list[SSAValue]
    symbols: list[SSAValue]
    changed: bool  # constants were substituted or operands merged

    @staticmethod
    def of(
        op: Operation, affine_map: AffineMap, operands: Sequence[SSAValue]
    ) -> _CanonicalMap:
        for expr in affine_map.results:
            _require_positive_divisors(op, expr)
        dims: list[SSAValue] = []
        symbols: list[SSAValue] = []

        def canonical(
            value: SSAValue, into: list[SSAValue], is_dim: bool
        ) -> AffineExpr:
            constant = constant_int(value)
            if constant is not None:
                return AffineExpr.constant(constant)
            if value not in into:
                into.append(value)
            position = into.index(value)
            return (
                AffineExpr.dimension(position)
                if is_dim
                else AffineExpr.symbol(position)
            )

        num_dims = affine_map.num_dims
        new_dims = [canonical(v, dims, True) for v in operands[:num_dims]]
        new_symbols = [canonical(v, symbols, False) for v in operands[num_dims:]]
        results = [
            _simplified(
                expr.replace_dims_and_symbols(new_dims, new_symbols),
                len(dims),
                len(symbols),
            )
            for expr in affine_map.results
        ]
        changed = len(dims) + len(symbols) != len(operands)
        return _CanonicalMap(results, dims, symbols, changed)

    def difference_range(self, minuend: AffineExpr, subtrahend: AffineExpr) -> Interval:
        difference = (minuend - subtrahend).simplify(len(self.dims), len(self.symbols))
        return expr_range(
            difference,
            [value_range(v) for v in self.dims],
            [value_range(v) for v in self.symbols],
        )

    def build(
        self, results: Sequence[AffineExpr]
    ) -> tuple[AffineMapAttr, list[SSAValue]]:
        """A map of `results` over only the operands they use, and those operands."""
        used_dims = sorted(
            {
                e.position
                for r in results
                for e in r.dfs()
                if isinstance(e, AffineDimExpr)
            }
        )
        used_symbols = sorted(
            {
                e.position
                for r in results
                for e in r.dfs()
                if isinstance(e, AffineSymExpr)
            }
        )
        dims = [AffineExpr.dimension(0)] * len(self.dims)
        for new, old in enumerate(used_dims):
            dims[old] = AffineExpr.dimension(new)
        symbols = [AffineExpr.symbol(0)] * len(self.symbols)
        for new, old in enumerate(used_symbols):
            symbols[old] = AffineExpr.symbol(new)
        renumbered = tuple(r.replace_dims_and_symbols(dims, symbols) for r in results)
        affine_map = AffineMap(len(used_dims), len(used_symbols), renumbered)
        operands = [self.dims[i] for i in used_dims] + [
            self.symbols[i] for i in used_symbols
        ]
        return AffineMapAttr(affine_map), operands


def prune_results(canonical: _CanonicalMap, is_min: bool) -> list[AffineExpr]:
    """The results that can still be the min (max): each one that another
    remaining result never exceeds (never falls below) is dropped."""
    remaining: list[AffineExpr] = []
    for expr in canonical.results:
        if expr not in remaining:
            remaining.append(expr)
    index = 0
    while index < len(remaining) and len(remaining) > 1:
        candidate = remaining[index]
        dominated = False
        for other in remaining:
            if other is candidate:
                continue
            difference = canonical.difference_range(other, candidate)
            if (is_min and difference.hi is not None and difference.hi <= 0) or (
                not is_min and difference.lo is not None and difference.lo >= 0
            ):
                dominated = True
                break
        if dominated:
            remaining.pop(index)
        else:
            index += 1
    return remaining


# --------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------


def _replace_by_expression(
    op: Operation, canonical: _CanonicalMap, expr: AffineExpr, rewriter: PatternRewriter
) -> None:
    """Replace `op` by the value of the single expression `expr`."""
    if isinstance(expr, AffineConstantExpr):
        constant = arith.ConstantOp(IntegerAttr(expr.value, IndexType()))
        constant.result.name_hint = op.results[0].name_hint or f"c{expr.value}"
        rewriter.replace(op, constant)
        return
    if isinstance(expr, AffineDimExpr):
        rewriter.replace(op, (), [canonical.dims[expr.position]])
        return
    if isinstance(expr, AffineSymExpr):
        rewriter.replace(op, (), [canonical.symbols[expr.position]])
        return
    map_attr, operands = canonical.build([expr])
    apply = affine.ApplyOp(operands, map_attr)
    apply.result.name_hint = op.results[0].name_hint
    rewriter.replace(op, apply)


def fold_min_max(op: affine.MinOp | affine.MaxOp, rewriter: PatternRewriter) -> None:
    """Fold one `affine.min` / `affine.max` as the module docstring says."""
    canonical = _CanonicalMap.of(op, op.map.data, op.arguments)
    remaining = prune_results(canonical, isinstance(op, affine.MinOp))
    if len(remaining) == 1:
        _replace_by_expression(op, canonical, remaining[0], rewriter)
        return
    if len(remaining) == len(op.map.data.results) and not canonical.changed:
        return
    map_attr, operands = canonical.build(remaining)
    smaller = type(op)(operands, map_attr)
    smaller.result.name_hint = op.result.name_hint
    rewriter.replace(op, smaller)


class FoldAffineMin(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.MinOp, rewriter: PatternRewriter) -> None:
        fold_min_max(op, rewriter)


class FoldAffineMax(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.MaxOp, rewriter: PatternRewriter) -> None:
        fold_min_max(op, rewriter)


class FoldAffineApply(RewritePattern):
    """`affine.apply` with constant or repeated operands, or a bare-operand map."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ApplyOp, rewriter: PatternRewriter) -> None:
        canonical = _CanonicalMap.of(op, op.map.data, op.mapOperands)
        (expr,) = canonical.results
        trivial = isinstance(expr, AffineConstantExpr | AffineDimExpr | AffineSymExpr)
        if canonical.changed or trivial:
            _replace_by_expression(op, canonical, expr, rewriter)


def fold_affine_min_max(module: ModuleOp) -> None:
    """Fold every decidable `affine.min` / `affine.max` (and constant
    `affine.apply`) of `module`."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [FoldAffineMin(), FoldAffineMax(), FoldAffineApply()]
        )
    ).rewrite_module(module)


@dataclass(frozen=True)
class AffineFoldMinMaxPass(ModulePass):
    """Fold `affine.min` / `affine.max` whose result the enclosing loop ranges
    decide; see the module docstring for the contract and how ranges are found."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_affine_min_max(op)
