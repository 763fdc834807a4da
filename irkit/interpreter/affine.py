"""Reference semantics of the `affine` dialect.

Affine maps are evaluated on Python ints (or, elementwise, int64 arrays) with
MLIR's rounding: `floordiv` rounds toward negative infinity, `ceildiv`
toward positive infinity, and `mod` is never negative
(`a mod b == a - (a floordiv b) * b`). MLIR requires a positive right-hand
side for all three; a non-positive one is reported as an error rather than
given a value.

- `affine.apply` / `affine.min` / `affine.max`: the map's single result, the
  minimum or the maximum of its results.
- `affine.for`: from the maximum of its lower-bound map's results to the
  minimum of its upper-bound map's, by its constant step, with `iter_args`.
- `affine.parallel` (generic form only; xDSL has no custom syntax for it) runs
  in reverse lexicographic order like `scf.parallel`; reductions are not
  supported yet.
- `affine.load` / `affine.store` access a memref at the map's results, with
  `irkit.interpreter.memref`'s checks.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects import affine
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from irkit.interpreter.core import (
    Interpreter,
    interpretation_error,
    register,
    register_terminator,
)
from irkit.interpreter.memref import as_memref, load_element, store_element
from irkit.interpreter.scf import iteration_space, run_region
from irkit.interpreter.values import scalar, to_value

Values = tuple[Any, ...]

register_terminator("affine.yield")


class AffineEvaluationError(ValueError):
    """An affine expression with no value (a non-positive divisor)."""


def floordiv(lhs: Any, rhs: Any) -> Any:
    """`lhs floordiv rhs`: rounds toward negative infinity."""
    return lhs // rhs


def ceildiv(lhs: Any, rhs: Any) -> Any:
    """`lhs ceildiv rhs`: rounds toward positive infinity."""
    return -(-lhs // rhs)


def mod(lhs: Any, rhs: Any) -> Any:
    """`lhs mod rhs`: in `[0, rhs)` for a positive `rhs`."""
    return lhs % rhs


_BINARY = {
    AffineBinaryOpKind.Add: lambda a, b: a + b,
    AffineBinaryOpKind.Mul: lambda a, b: a * b,
    AffineBinaryOpKind.FloorDiv: floordiv,
    AffineBinaryOpKind.CeilDiv: ceildiv,
    AffineBinaryOpKind.Mod: mod,
}


def evaluate_expr(expr: AffineExpr, dims: Sequence[Any], symbols: Sequence[Any]) -> Any:
    """The value of `expr` with its dimensions and symbols bound."""
    match expr:
        case AffineConstantExpr(value=value):
            return value
        case AffineDimExpr(position=position):
            return dims[position]
        case AffineSymExpr(position=position):
            return symbols[position]
        case AffineBinaryOpExpr(kind=kind, lhs=lhs, rhs=rhs):
            left = evaluate_expr(lhs, dims, symbols)
            right = evaluate_expr(rhs, dims, symbols)
            if kind not in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul) and np.any(
                np.asarray(right) <= 0
            ):
                raise AffineEvaluationError(
                    f"'{expr}' has a non-positive divisor {right}"
                )
            return _BINARY[kind](left, right)
    raise AffineEvaluationError(f"unknown affine expression {expr}")


def evaluate_map(
    op: Operation, affine_map: AffineMap, operands: Sequence[Any]
) -> list[Any]:
    """The results of `affine_map` on `operands` (its dimensions, then symbols)."""
    values = [v if np.ndim(v) else int(v) for v in operands]
    dims, symbols = values[: affine_map.num_dims], values[affine_map.num_dims :]
    try:
        return [evaluate_expr(expr, dims, symbols) for expr in affine_map.results]
    except AffineEvaluationError as error:
        raise interpretation_error(op, str(error)) from None


def _minimum(values: Sequence[Any]) -> Any:
    if all(np.ndim(v) == 0 for v in values):
        return min(values)
    return functools.reduce(np.minimum, values)


def _maximum(values: Sequence[Any]) -> Any:
    if all(np.ndim(v) == 0 for v in values):
        return max(values)
    return functools.reduce(np.maximum, values)


@register("affine.apply")
def apply(interp: Interpreter, op: Operation, args: Values) -> Values:
    (result,) = evaluate_map(op, cast(affine.ApplyOp, op).map.data, args)
    return (result,)


@register("affine.min")
def min_(interp: Interpreter, op: Operation, args: Values) -> Values:
    return (_minimum(evaluate_map(op, cast(affine.MinOp, op).map.data, args)),)


@register("affine.max")
def max_(interp: Interpreter, op: Operation, args: Values) -> Values:
    affine_map = cast(Any, op).map.data
    return (_maximum(evaluate_map(op, affine_map, args)),)


@register("affine.for")
def for_(interp: Interpreter, op: Operation, args: Values) -> Values:
    for_op = cast(affine.ForOp, op)
    lower_count = len(for_op.lowerBoundOperands)
    upper_count = len(for_op.upperBoundOperands)
    lower = _maximum(evaluate_map(op, for_op.lowerBoundMap.data, args[:lower_count]))
    upper = _minimum(
        evaluate_map(
            op,
            for_op.upperBoundMap.data,
            args[lower_count : lower_count + upper_count],
        )
    )
    carried = list(args[lower_count + upper_count :])
    step = for_op.step.value.data
    if step <= 0:
        raise interpretation_error(op, f"step must be positive, got {step}")
    for iv in range(int(lower), int(upper), step):
        carried = list(run_region(interp, for_op.body, [iv, *carried])[0])
    return tuple(carried)


def _grouped(
    op: Operation, affine_map: AffineMap, groups: Sequence[int], operands: Values
) -> list[list[Any]]:
    """The results of `affine_map`, split into one list per loop."""
    results = evaluate_map(op, affine_map, operands)
    grouped: list[list[Any]] = []
    start = 0
    for size in groups:
        grouped.append(results[start : start + size])
        start += size
    return grouped


@register("affine.parallel")
def parallel(interp: Interpreter, op: Operation, args: Values) -> Values:
    parallel_op = cast(affine.ParallelOp, op)
    if parallel_op.reductions.data:
        raise interpretation_error(op, "reductions are not supported yet")
    lower_map = parallel_op.lowerBoundsMap.data
    upper_map = parallel_op.upperBoundsMap.data
    lower_count = lower_map.num_dims + lower_map.num_symbols
    lowers = [
        _maximum(group)
        for group in _grouped(
            op,
            lower_map,
            parallel_op.lowerBoundsGroups.get_values(),
            args[:lower_count],
        )
    ]
    uppers = [
        _minimum(group)
        for group in _grouped(
            op,
            upper_map,
            parallel_op.upperBoundsGroups.get_values(),
            args[lower_count:],
        )
    ]
    steps = [step.value.data for step in parallel_op.steps.data]
    for point in iteration_space(op, lowers, uppers, steps):
        run_region(interp, parallel_op.body, point)
    return ()


@register("affine.load")
def load(interp: Interpreter, op: Operation, args: Values) -> Values:
    load_op = cast(affine.LoadOp, op)
    memref = as_memref(op, args[0])
    indices = evaluate_map(op, load_op.map.data, args[1:])
    if interp.grid is not None:
        # In a GPU kernel: one element per thread (`gpu.py`).
        return (to_value(interp.grid.load(op, memref, indices), load_op.result.type),)
    return (scalar(load_element(op, memref, indices), load_op.result.type),)


@register("affine.store")
def store(interp: Interpreter, op: Operation, args: Values) -> Values:
    store_op = cast(affine.StoreOp, op)
    value, memref, *operands = args
    indices = evaluate_map(op, store_op.map.data, operands)
    if interp.grid is not None:
        interp.grid.store(op, as_memref(op, memref), indices, value)
        return ()
    store_element(op, as_memref(op, memref), indices, value)
    return ()
