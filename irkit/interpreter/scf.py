"""Reference semantics of the `scf` dialect.

Loops and conditionals run their regions on the interpreter, each execution
of a region in a fresh `interp.nested_scope()`, so a body sees the values
defined around its op and keeps its own. Rules:

- `scf.for` runs `lb, lb + step, ...` while below `ub` (signed); no
  iteration when `lb >= ub`. Integer-typed induction variables (`: i32`) are
  NumPy scalars of that type. A step <= 0 is an error (MLIR requires a
  positive step; the loop would not terminate).
- `scf.parallel` and `scf.forall` run their iterations in reverse
  lexicographic order, on purpose not in source order, so a program that
  depends on the order of parallel iterations shows it. `scf.parallel`
  starts each reduction from its init value and combines the `scf.reduce`
  operand of every iteration into it with the reduction region
  (`combine(accumulated, value)`).
- `scf.forall` with `shared_outs`: each output starts as its init tensor; the
  block argument reads that initial value, and the
  `tensor.parallel_insert_slice` ops of `scf.forall.in_parallel` write their
  slices into the result after each iteration.
- `scf.if`, `scf.index_switch`, `scf.execute_region` (single block),
  `scf.while` / `scf.condition` as in MLIR.

A condition must be a scalar here, except inside a GPU kernel (`gpu.py`):
there a condition or loop bound may hold one lane per thread, and the region
runs under a mask of the lanes that take it (`_divergent_if`,
`_divergent_for`, `_divergent_while`). scf ops do not run vectorised inside
a `linalg.generic` body.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, MutableMapping, Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Operation, Region, SSAValue

from irkit.dialects.scf import ForallOp, InParallelOp
from irkit.interpreter.core import (
    Interpreter,
    interpretation_error,
    register,
    register_terminator,
)
from irkit.interpreter.values import MemRefValue, to_value

Values = tuple[Any, ...]

register_terminator(
    "scf.yield",
    "scf.condition",
    "scf.reduce",
    "scf.reduce.return",
    "scf.forall.in_parallel",
)


def run_region(
    interp: Interpreter, region: Region, args: Sequence[Any] = ()
) -> tuple[Values, MutableMapping[SSAValue, Any]]:
    """Run the single block of `region` in a fresh nested scope.

    Returns the terminator's operands and the scope (in which the values the
    block defined stay readable, for terminators with regions of their own).
    """
    block = region.blocks.first
    if block is None or len(region.blocks) != 1:
        op = region.parent_op()
        assert op is not None
        raise interpretation_error(op, "runs only single-block regions")
    scope = interp.nested_scope()
    return interp.run_block(block, args, scope), scope


def _scalar_condition(op: Operation, value: Any) -> bool:
    if np.ndim(value) != 0:
        raise interpretation_error(op, "a vector of conditions is not supported")
    return bool(value)


def _is_per_lane(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.ndim > 0


def _merge(op: Operation, taken: np.ndarray, first: Values, second: Values) -> Values:
    """Per lane, `first` where `taken` holds and `second` elsewhere."""
    merged: list[Any] = []
    for result, a, b in zip(op.results, first, second, strict=True):
        if isinstance(a, MemRefValue) or isinstance(b, MemRefValue):
            if a is not b:
                raise interpretation_error(
                    op, "yields memrefs that differ between threads"
                )
            merged.append(a)
            continue
        merged.append(to_value(np.where(taken, a, b), result.type))
    return tuple(merged)


def _loop_values(op: Operation, lower: int, upper: int, step: int) -> range:
    """The induction values of one loop dimension, checking its step."""
    if step <= 0:
        raise interpretation_error(op, f"step must be positive, got {step}")
    return range(lower, upper, step)


def iteration_space(
    op: Operation, lowers: Sequence[Any], uppers: Sequence[Any], steps: Sequence[Any]
) -> Iterator[tuple[int, ...]]:
    """Every point of a parallel loop nest, in reverse lexicographic order."""
    dims = [
        _loop_values(op, int(lo), int(hi), int(st))
        for lo, hi, st in zip(lowers, uppers, steps, strict=True)
    ]
    points = list(itertools.product(*dims))
    return reversed(points)


# --------------------------------------------------------------------------
# Sequential loops and conditionals
# --------------------------------------------------------------------------


@register("scf.for")
def for_(interp: Interpreter, op: Operation, args: Values) -> Values:
    for_op = cast(scf.ForOp, op)
    lower, upper, step, *carried = args
    if _is_per_lane(lower) or _is_per_lane(upper) or _is_per_lane(step):
        return _divergent_for(interp, for_op, lower, upper, step, carried)
    iv_type = for_op.body.block.args[0].type
    for iv in _loop_values(op, int(lower), int(upper), int(step)):
        carried = list(
            run_region(interp, for_op.body, [to_value(iv, iv_type), *carried])[0]
        )
    return tuple(carried)


def _divergent_for(
    interp: Interpreter,
    op: scf.ForOp,
    lower: Any,
    upper: Any,
    step: Any,
    carried: list[Any],
) -> Values:
    """A loop whose bounds differ between threads: each lane iterates on its
    own, and the loop runs while any active lane has iterations left."""
    grid = interp.grid
    if grid is None:
        raise interpretation_error(op, "a vector of loop bounds is not supported")
    iv = np.broadcast_to(np.asarray(lower, np.int64), (grid.lane_count,))
    if np.any(grid.take(np.broadcast_to(np.asarray(step), iv.shape)) <= 0):
        raise interpretation_error(op, "step must be positive in every thread")
    iv_type = op.body.block.args[0].type
    while True:
        running = iv < upper
        with grid.restricted(running) as any_running:
            if not any_running:
                return tuple(carried)
            results = run_region(interp, op.body, [to_value(iv, iv_type), *carried])[0]
        carried = list(_merge(op, running, results, tuple(carried)))
        iv = iv + step


def _divergent_if(interp: Interpreter, op: scf.IfOp, condition: np.ndarray) -> Values:
    """Each lane runs the region its condition picks; lanes that pick no
    region, or whose region is empty, are masked off."""
    grid = interp.grid
    if grid is None:
        raise interpretation_error(op, "a vector of conditions is not supported")
    taken = np.asarray(condition, np.bool_)
    outcomes: list[Values | None] = []
    for region, mask in ((op.true_region, taken), (op.false_region, ~taken)):
        with grid.restricted(mask) as any_active:
            ran = any_active and bool(region.blocks)
            outcomes.append(run_region(interp, region)[0] if ran else None)
    then_values, else_values = outcomes
    if not op.results:
        return ()
    if then_values is None or else_values is None:
        # Only one side ran: its values are the ones any active lane sees.
        chosen = then_values if then_values is not None else else_values
        return chosen if chosen is not None else tuple(0 for _ in op.results)
    return _merge(op, taken, then_values, else_values)


@register("scf.if")
def if_(interp: Interpreter, op: Operation, args: Values) -> Values:
    if_op = cast(scf.IfOp, op)
    if _is_per_lane(args[0]):
        return _divergent_if(interp, if_op, args[0])
    region = if_op.true_region if _scalar_condition(op, args[0]) else if_op.false_region
    if not region.blocks:
        return ()
    return run_region(interp, region)[0]


@register("scf.index_switch")
def index_switch(interp: Interpreter, op: Operation, args: Values) -> Values:
    switch = cast(scf.IndexSwitchOp, op)
    value = int(args[0])
    for case, region in zip(
        switch.cases.get_values(), switch.case_regions, strict=True
    ):
        if case == value:
            return run_region(interp, region)[0]
    return run_region(interp, switch.default_region)[0]


@register("scf.execute_region")
def execute_region(interp: Interpreter, op: Operation, args: Values) -> Values:
    return run_region(interp, cast(scf.ExecuteRegionOp, op).region)[0]


@register("scf.while")
def while_(interp: Interpreter, op: Operation, args: Values) -> Values:
    while_op = cast(scf.WhileOp, op)
    carried: Values = args
    while True:
        condition, *forwarded = run_region(interp, while_op.before_region, carried)[0]
        if _is_per_lane(condition) and interp.grid is not None:
            return _divergent_while(interp, while_op, condition, tuple(forwarded))
        if not _scalar_condition(op, condition):
            return tuple(forwarded)
        carried = run_region(interp, while_op.after_region, forwarded)[0]


def _divergent_while(
    interp: Interpreter, op: scf.WhileOp, condition: Any, forwarded: Values
) -> Values:
    """Go on with a loop whose condition came out different between threads.

    A lane leaves when its condition is false, with the values it forwarded
    then; the loop ends when no active lane is left in it.
    """
    grid = interp.grid
    assert grid is not None
    staying = np.ones(grid.lane_count, np.bool_)
    final = forwarded
    while True:
        going_on = np.broadcast_to(np.asarray(condition, np.bool_), staying.shape)
        final = _merge(op, staying & ~going_on, forwarded, final)
        staying = staying & going_on
        with grid.restricted(staying) as any_staying:
            if not any_staying:
                return final
            carried = run_region(interp, op.after_region, forwarded)[0]
            condition, *rest = run_region(interp, op.before_region, carried)[0]
            forwarded = tuple(rest)


# --------------------------------------------------------------------------
# Parallel loops
# --------------------------------------------------------------------------


def _combine(interp: Interpreter, region: Region, accumulated: Any, value: Any) -> Any:
    (combined,) = run_region(interp, region, [accumulated, value])[0]
    return combined


@register("scf.parallel")
def parallel(interp: Interpreter, op: Operation, args: Values) -> Values:
    parallel_op = cast(scf.ParallelOp, op)
    rank = len(parallel_op.lowerBound)
    lowers, uppers, steps = (
        args[:rank],
        args[rank : 2 * rank],
        args[2 * rank : 3 * rank],
    )
    accumulated = list(args[3 * rank :])
    reduce = parallel_op.body.block.last_op
    assert isinstance(reduce, scf.ReduceOp)
    for point in iteration_space(op, lowers, uppers, steps):
        values = run_region(interp, parallel_op.body, point)[0]
        accumulated = [
            _combine(interp, region, acc, value)
            for region, acc, value in zip(
                reduce.reductions, accumulated, values, strict=True
            )
        ]
    return tuple(accumulated)


def _mixed(static: Sequence[int], dynamic: Iterator[Any]) -> list[int]:
    return [int(next(dynamic)) if v == DYNAMIC_INDEX else v for v in static]


def _parallel_insert(
    op: Operation,
    scope: MutableMapping[SSAValue, Any],
    outputs: dict[SSAValue, np.ndarray],
) -> None:
    """Write the slice of one `tensor.parallel_insert_slice` into its output."""
    insert = cast(Any, op)
    dest = cast(SSAValue, insert.dest)
    if dest not in outputs:
        raise interpretation_error(op, "may only insert into a shared_outs argument")
    source = np.asarray(scope[insert.source])
    dynamic = iter(scope[v] for v in (*insert.offsets, *insert.sizes, *insert.strides))
    offsets = _mixed(insert.static_offsets.get_values(), dynamic)
    sizes = _mixed(insert.static_sizes.get_values(), dynamic)
    strides = _mixed(insert.static_strides.get_values(), dynamic)
    result = outputs[dest]
    index: list[slice] = []
    for dim, (extent, offset, size, stride) in enumerate(
        zip(result.shape, offsets, sizes, strides, strict=True)
    ):
        if size and (
            offset < 0 or stride < 1 or offset + (size - 1) * stride >= extent
        ):
            raise interpretation_error(
                op,
                f"slice out of bounds in dimension {dim}: offset {offset}, size "
                f"{size}, stride {stride}, extent {extent}",
            )
        index.append(slice(offset, offset + size * stride, stride))
    result[tuple(index)] = source.reshape(sizes)


@register("scf.forall")
def forall(interp: Interpreter, op: Operation, args: Values) -> Values:
    forall_op = cast(ForallOp, op)
    dynamic = iter(args)
    lowers = _mixed(forall_op.staticLowerBound.get_values(), dynamic)
    uppers = _mixed(forall_op.staticUpperBound.get_values(), dynamic)
    steps = _mixed(forall_op.staticStep.get_values(), dynamic)
    inits = list(dynamic)
    # Tensors are values: every iteration reads the initial contents, and
    # the inserts of all iterations go into one fresh copy per output.
    outputs: dict[SSAValue, np.ndarray] = {
        arg: np.array(init, copy=True)
        for arg, init in zip(forall_op.region_out_args, inits, strict=True)
    }
    terminator = forall_op.body.block.last_op
    assert isinstance(terminator, InParallelOp)
    for point in iteration_space(op, lowers, uppers, steps):
        _, scope = run_region(interp, forall_op.body, [*point, *inits])
        for insert in terminator.region.block.ops:
            _parallel_insert(insert, scope, outputs)
    return tuple(outputs.values())
