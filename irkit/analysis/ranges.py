"""Integer ranges of SSA values: the one bound analysis of irkit's passes.

`value_range(value)` is an interval `[lo, hi]` that an `index` or integer
value lies in on every execution of the code that can see it (a bound is
None where unknown). Each producer it looks through costs one level of
`depth` (`MAX_DEPTH` by default):

- `arith.constant`s (`irkit.dialects.static_values`): the point itself;
- induction variables of `scf.for`, `scf.parallel` and `scf.forall`:
  `[lo(lb), hi(ub) - 1]`, tightened to the last point of the step lattice
  `lb + k * step` when `lb` and `step` are constants (a loop that never runs
  gives its lower bound: no use of the variable executes);
- `affine.apply`, `affine.min`, `affine.max` and `arith.addi` / `subi` /
  `muli`: the interval of their expression over their operands' intervals
  (`expr_range`: exact for sums of constant multiples of distinct operands,
  sound for `floordiv` / `ceildiv` / `mod` by a positive constant);
- `memref.dim`: a static size is a point; a dynamic size of a
  `memref.subview` result is the range of the subview's size operand;
- anything else is unbounded, unless the caller's `known` (a `KnownRange`)
  gives a range: a GPU thread id bounded by its launch's block size.

Clients ask it different questions: `affine-fold-min-max` compares whole
intervals; `gpu-relayout-shared` checks that indices stay inside a buffer;
`convert-parallel-loops-to-gpu` and `gpu-promote-shared` size thread grids
and workgroup buffers with `upper_bound`, the `hi` end alone. (A tile size
`affine.min(BM, M - b)` is bounded by its constant `BM`.)

The ranges are only valid where the value is visible: a loop variable's range
holds inside its loop, which is the only place it can be used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.dialects.scf import ForOp, ParallelOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from irkit.dialects import affine, memref
from irkit.dialects.scf import ForallOp
from irkit.dialects.static_values import constant_int

# How many producers deep a range looks through (a tile size is an
# `affine.min` of a loop variable: two or three levels cover tiled code).
MAX_DEPTH = 6

# --------------------------------------------------------------------------
# Intervals
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """The integers `[lo, hi]`; None is an unknown (infinite) bound."""

    lo: int | None = None
    hi: int | None = None

    @staticmethod
    def point(value: int) -> Interval:
        return Interval(value, value)

    def __add__(self, other: Interval) -> Interval:
        return Interval(_add(self.lo, other.lo), _add(self.hi, other.hi))

    def scale(self, factor: int) -> Interval:
        if factor == 0:
            return Interval.point(0)
        lo, hi = _mul(self.lo, factor), _mul(self.hi, factor)
        return Interval(lo, hi) if factor > 0 else Interval(hi, lo)

    def times(self, other: Interval) -> Interval:
        if other.lo is not None and other.lo == other.hi:
            return self.scale(other.lo)
        if self.lo is not None and self.lo == self.hi:
            return other.scale(self.lo)
        return Interval()

    def divided(self, divisor: int, rounding: Callable[[int, int], int]) -> Interval:
        """`self` divided by a positive `divisor` (a monotone rounding)."""
        return Interval(
            None if self.lo is None else rounding(self.lo, divisor),
            None if self.hi is None else rounding(self.hi, divisor),
        )

    def modulo(self, divisor: int) -> Interval:
        """`self mod divisor` for a positive `divisor`: exact within one period."""
        if (
            self.lo is not None
            and self.hi is not None
            and self.lo // divisor == self.hi // divisor
        ):
            return Interval(self.lo % divisor, self.hi % divisor)
        return Interval(0, divisor - 1)


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _mul(a: int | None, b: int) -> int | None:
    return None if a is None else a * b


def _minimum(values: Sequence[int | None], unknown_wins: bool) -> int | None:
    """The least bound; an unknown one is -infinity when `unknown_wins`."""
    known = [v for v in values if v is not None]
    if not known or (unknown_wins and len(known) < len(values)):
        return None
    return min(known)


def _maximum(values: Sequence[int | None], unknown_wins: bool) -> int | None:
    known = [v for v in values if v is not None]
    if not known or (unknown_wins and len(known) < len(values)):
        return None
    return max(known)


def _floordiv(a: int, b: int) -> int:
    return a // b


def _ceildiv(a: int, b: int) -> int:
    return -(-a // b)


def expr_range(
    expr: AffineExpr, dims: Sequence[Interval], symbols: Sequence[Interval]
) -> Interval:
    """The interval of `expr` when its dimensions and symbols range over
    `dims` and `symbols` (exact for sums of constant multiples of distinct
    variables)."""
    if isinstance(expr, AffineConstantExpr):
        return Interval.point(expr.value)
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = expr_range(expr.lhs, dims, symbols)
    rhs = expr_range(expr.rhs, dims, symbols)
    if expr.kind == AffineBinaryOpKind.Add:
        return lhs + rhs
    if expr.kind == AffineBinaryOpKind.Mul:
        return lhs.times(rhs)
    divisor = rhs.lo if rhs.lo is not None and rhs.lo == rhs.hi else None
    if divisor is None or divisor <= 0:
        return Interval()
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        return lhs.divided(divisor, _floordiv)
    if expr.kind == AffineBinaryOpKind.CeilDiv:
        return lhs.divided(divisor, _ceildiv)
    return lhs.modulo(divisor)


# --------------------------------------------------------------------------
# Ranges of SSA values
# --------------------------------------------------------------------------


def _loop_variable_range(
    lower: Interval, upper: Interval, step: int | None
) -> Interval:
    """The values of `lb + k * step < ub` (for `step > 0`)."""
    last = None if upper.hi is None else upper.hi - 1
    if lower.lo is not None and lower.lo == lower.hi and step and last is not None:
        if last < lower.lo:  # the loop never runs: any range is true
            return Interval.point(lower.lo)
        last = lower.lo + (last - lower.lo) // step * step
    return Interval(lower.lo, last)


# Ranges a caller knows for values this module cannot bound (a GPU thread id
# from its launch's block size): None where it knows nothing.
KnownRange = Callable[[SSAValue], Interval | None]


def _bound(value: int | SSAValue, depth: int, known: KnownRange | None) -> Interval:
    if isinstance(value, int):
        return Interval.point(value)
    return value_range(value, depth, known)


def _step(value: int | SSAValue) -> int | None:
    step = constant_int(value)
    return step if step is not None and step > 0 else None


def _induction_variable_range(
    arg: BlockArgument, depth: int, known: KnownRange | None
) -> Interval:
    loop = arg.block.parent_op()
    bounds: tuple[int | SSAValue, int | SSAValue, int | SSAValue] | None = None
    if isinstance(loop, ForOp) and arg.index == 0:
        bounds = (loop.lb, loop.ub, loop.step)
    elif isinstance(loop, ParallelOp) and arg.index < len(loop.step):
        k = arg.index
        bounds = (loop.lowerBound[k], loop.upperBound[k], loop.step[k])
    elif isinstance(loop, ForallOp) and arg.index < loop.rank:
        lowers, uppers, steps = loop.mixed_bounds()
        k = arg.index
        bounds = (lowers[k], uppers[k], steps[k])
    if bounds is None:
        return Interval()
    lower, upper, step = bounds
    return _loop_variable_range(
        _bound(lower, depth, known), _bound(upper, depth, known), _step(step)
    )


def _map_ranges(
    affine_map: AffineMap,
    operands: Sequence[SSAValue],
    depth: int,
    known: KnownRange | None = None,
) -> list[Interval]:
    ranges = [value_range(operand, depth, known) for operand in operands]
    dims, symbols = ranges[: affine_map.num_dims], ranges[affine_map.num_dims :]
    return [expr_range(expr, dims, symbols) for expr in affine_map.results]


def value_range(
    value: SSAValue, depth: int = MAX_DEPTH, known: KnownRange | None = None
) -> Interval:
    """The interval `value` lies in, wherever it is visible (see the module doc).

    `known` gives the range of a value this function cannot bound itself (it
    is asked first, for every value on the way, after constants).
    """
    constant = constant_int(value)
    if constant is not None:
        return Interval.point(constant)
    if known is not None:
        given = known(value)
        if given is not None:
            return given
    if depth == 0:
        return Interval()
    if isinstance(value, BlockArgument):
        return _induction_variable_range(value, depth - 1, known)
    op = value.owner
    if isinstance(op, affine.ApplyOp):
        return _map_ranges(op.map.data, op.mapOperands, depth - 1, known)[0]
    if isinstance(op, affine.MinOp | affine.MaxOp):
        ranges = _map_ranges(op.map.data, op.arguments, depth - 1, known)
        lows, highs = [r.lo for r in ranges], [r.hi for r in ranges]
        if isinstance(op, affine.MinOp):
            return Interval(_minimum(lows, True), _minimum(highs, False))
        return Interval(_maximum(lows, False), _maximum(highs, True))
    if isinstance(op, arith.AddiOp | arith.SubiOp | arith.MuliOp):
        lhs = value_range(op.lhs, depth - 1, known)
        return _arith_range(op, lhs, value_range(op.rhs, depth - 1, known))
    if isinstance(op, memref.DimOp):
        return _dim_range(op, depth - 1, known)
    return Interval()


def _arith_range(
    op: arith.AddiOp | arith.SubiOp | arith.MuliOp, lhs: Interval, rhs: Interval
) -> Interval:
    """The interval of `op`'s result for operands in `lhs` and `rhs`."""
    if isinstance(op, arith.AddiOp):
        return lhs + rhs
    if isinstance(op, arith.SubiOp):
        return lhs + rhs.scale(-1)
    return lhs.times(rhs)


def _dim_range(op: memref.DimOp, depth: int, known: KnownRange | None) -> Interval:
    """A static size, or the size operand of the subview that made the view."""
    index = constant_int(op.index)
    source = op.source
    if index is None or not isinstance(source.type, MemRefType):
        return Interval()
    shape = source.type.get_shape()
    if not 0 <= index < len(shape):
        return Interval()
    if shape[index] != DYNAMIC_INDEX:
        return Interval.point(shape[index])
    view = source.owner
    if not isinstance(view, memref.SubviewOp):
        return Interval()
    pending = iter(view.sizes)
    sizes = [
        next(pending) if size == DYNAMIC_INDEX else size
        for size in view.static_sizes.get_values()
    ]
    return _bound(sizes[index], depth, known)


def upper_bound(value: int | SSAValue, known: KnownRange | None = None) -> int | None:
    """An integer no smaller than `value` on every execution, if one is visible.

    The `hi` end of `value_range`: what sizes a static shape or a thread grid
    from a dynamic extent (an `affine.min` with a constant result is bounded by
    that constant, a subview's dynamic size by its size operand's bound).
    """
    if isinstance(value, int):
        return value
    return value_range(value, known=known).hi
