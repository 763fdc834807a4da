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

A condition must be a scalar here: scf ops do not run vectorised inside a
`linalg.generic` body.
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
from irkit.interpreter.values import to_value

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
    iv_type = for_op.body.block.args[0].type
    for iv in _loop_values(op, int(lower), int(upper), int(step)):
        carried = list(
            run_region(interp, for_op.body, [to_value(iv, iv_type), *carried])[0]
        )
    return tuple(carried)


@register("scf.if")
def if_(interp: Interpreter, op: Operation, args: Values) -> Values:
    if_op = cast(scf.IfOp, op)
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
        if not _scalar_condition(op, condition):
            return tuple(forwarded)
        carried = run_region(interp, while_op.after_region, forwarded)[0]


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
