"""`scf-for-unroll`: partial unrolling of `scf.for` by a factor.

Mirrors MLIR's `mlir::loopUnrollByFactor` (`mlir/lib/Dialect/SCF/Utils/
Utils.cpp`, the `-test-loop-unrolling` pass); xDSL's `scf-for-loop-unroll`
only unrolls fully. `scf-for-unroll{unroll-factor=4}` turns

```mlir
%r = scf.for %i = %lb to %ub step %s iter_args(%acc = %init) -> (f32) {
  ... body(%i, %acc) ...
  scf.yield %next : f32
}
```

into a main loop stepping by `4 * %s` whose body holds four copies of the body
at `%i`, `%i + %s`, `%i + 2 * %s`, `%i + 3 * %s`, each copy taking the
loop-carried values the previous one yielded, and an epilogue: the original
loop, now starting where the main loop stopped and carrying on from its
results, for the iterations that do not fill a group of four.

Contract
--------
Input: any IR. Loops considered are the `scf.for` ops with no `scf.for` nested
in their body (`innermost-only=true`, the default) or every `scf.for`
(`innermost-only=false`; inner loops are unrolled first and then copied with
their parent's body). Bounds and step may be `index` or signless integers,
static (`arith.constant`) or dynamic; a constant step must be positive (a loop
with step <= 0 never ends: rejected with an error at the loop); a dynamic
step is assumed positive, as `scf.for` requires.

Output, with `N` the unroll factor and `T` the trip count:

- static bounds and step: `T <= N` unrolls the loop fully (no loop is left,
  `T = 0` leaves just the init values); otherwise the main loop runs
  `T div N` groups (inlined when that is one group), and the `T mod N`
  remaining iterations stay in the epilogue loop (inlined when there is one,
  dropped when there are none);
- dynamic bounds or step: the main loop ends at
  `lb + ((ub - lb) divsi (N * step)) * (N * step)` (arith ops before the
  loop), the epilogue runs from there to `ub`. When `ub <= lb` both loops are
  empty.

`unroll-factor=1` leaves every loop as it is; a factor below 1 is an error.

Preserves: the iterations and their order (each copy runs exactly the
iteration it replaces, loop-carried values flow through the copies in order),
so results are bit-identical. Integer overflow of `lb + N * step` near the
type's limits is not guarded, as in MLIR.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.dialects.scf import ForOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.diagnostics import op_error
from irkit.dialects.static_values import constant_int

PASS_NAME = "scf-for-unroll"

# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


class _Emitter:
    """Builds ops right before `anchor` (the loop being unrolled), in order."""

    def __init__(self, anchor: Operation, value_type: Attribute) -> None:
        assert isinstance(value_type, IntegerType | IndexType)
        self._anchor = anchor
        self._type = value_type
        self._constants: dict[int, SSAValue] = {}

    def reuse(self, constants: dict[int, SSAValue]) -> None:
        """Take `constants` (defined before the anchor) for those values."""
        self._constants.update(constants)

    def emit(self, op: Operation) -> None:
        Rewriter.insert_op(op, InsertPoint.before(self._anchor))

    def value(self, op: Operation) -> SSAValue:
        """Emit `op` and return its (single) result."""
        self.emit(op)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp(IntegerAttr(value, self._type))
            op.result.name_hint = f"c{value}" if value >= 0 else f"c_{-value}"
            self._constants[value] = self.value(op)
        return self._constants[value]


def copy_body(
    body: Block,
    induction_value: SSAValue,
    carried: Sequence[SSAValue],
    insertion: InsertPoint,
) -> list[SSAValue]:
    """Clone `body` but its `scf.yield` at `insertion`, with the induction
    variable bound to `induction_value` and the loop-carried values to
    `carried`; return the values the copy yields."""
    induction_var, *iter_args = body.args
    mapper: dict[SSAValue, SSAValue] = {induction_var: induction_value}
    mapper.update(zip(iter_args, carried, strict=True))
    for op in body.ops:
        if isinstance(op, YieldOp):
            return [mapper.get(value, value) for value in op.arguments]
        Rewriter.insert_op(op.clone(mapper), insertion)
    raise AssertionError("scf.for body without scf.yield")


def _inline_iterations(
    loop: ForOp,
    emitter: _Emitter,
    induction_values: Sequence[int],
    carried: Sequence[SSAValue],
) -> list[SSAValue]:
    """Run the iterations at the static `induction_values` inline, before `loop`."""
    for value in induction_values:
        carried = copy_body(
            loop.body.block,
            emitter.constant(value),
            carried,
            InsertPoint.before(loop),
        )
    return list(carried)


def _build_main_loop(
    loop: ForOp,
    emitter: _Emitter,
    factor: int,
    upper: SSAValue,
    group_step: SSAValue,
    offsets: Sequence[SSAValue],
) -> ForOp:
    """The loop from `loop.lb` to `upper` by `group_step` whose body runs
    `factor` copies of `loop`'s body, copy `k` at the induction variable plus
    `offsets[k - 1]`."""
    old_body = loop.body.block
    body = Block(arg_types=[arg.type for arg in old_body.args])
    induction_var = body.args[0]
    induction_var.name_hint = old_body.args[0].name_hint
    for new_arg, old_arg in zip(body.args[1:], old_body.args[1:], strict=True):
        new_arg.name_hint = old_arg.name_hint
    terminator = YieldOp()
    body.add_op(terminator)
    insertion = InsertPoint.before(terminator)
    carried: list[SSAValue] = list(body.args[1:])
    for copy in range(factor):
        value: SSAValue = induction_var
        if copy:
            shifted = arith.AddiOp(induction_var, offsets[copy - 1])
            Rewriter.insert_op(shifted, insertion)
            value = shifted.result
            value.name_hint = f"{induction_var.name_hint or 'iv'}_{copy}"
        carried = copy_body(old_body, value, carried, insertion)
    Rewriter.replace_op(terminator, YieldOp(*carried))
    main = ForOp(loop.lb, upper, group_step, list(loop.iter_args), Region(body))
    emitter.emit(main)
    return main


def _finish(loop: ForOp, results: Sequence[SSAValue]) -> None:
    """Replace `loop` (no iterations left for it) by the values it would return."""
    for result, value in zip(loop.results, results, strict=True):
        result.replace_all_uses_with(value)
    Rewriter.erase_op(loop)


def _continue_from(loop: ForOp, start: SSAValue, carried: Sequence[SSAValue]) -> None:
    """Make `loop` the epilogue: start at `start`, carrying on from `carried`."""
    loop.operands = [start, loop.ub, loop.step, *carried]


# --------------------------------------------------------------------------
# Unrolling one loop
# --------------------------------------------------------------------------


def _unroll_static(loop: ForOp, factor: int, lower: int, upper: int, step: int) -> None:
    emitter = _Emitter(loop, loop.lb.type)
    # The loop's own constants serve again (the main loop often ends at `ub`).
    emitter.reuse({step: loop.step, lower: loop.lb, upper: loop.ub})
    trips = max(0, -(-(upper - lower) // step))
    iterations = [lower + k * step for k in range(trips)]
    inits = list(loop.iter_args)
    if trips <= factor:
        _finish(loop, _inline_iterations(loop, emitter, iterations, inits))
        return
    groups, remainder = divmod(trips, factor)
    main_end = lower + groups * factor * step
    if groups == 1:
        carried = _inline_iterations(loop, emitter, iterations[:factor], inits)
    else:
        offsets = [emitter.constant(k * step) for k in range(1, factor)]
        main = _build_main_loop(
            loop,
            emitter,
            factor,
            emitter.constant(main_end),
            emitter.constant(factor * step),
            offsets,
        )
        carried = list(main.results)
    if remainder == 0:
        _finish(loop, carried)
    elif remainder == 1:
        _finish(loop, _inline_iterations(loop, emitter, [main_end], carried))
    else:
        _continue_from(loop, emitter.constant(main_end), carried)


def _unroll_dynamic(loop: ForOp, factor: int) -> None:
    emitter = _Emitter(loop, loop.lb.type)
    step = constant_int(loop.step)
    if step is not None:
        group_step = emitter.constant(factor * step)
        offsets = [emitter.constant(k * step) for k in range(1, factor)]
    else:
        group_step = emitter.value(arith.MuliOp(loop.step, emitter.constant(factor)))
        offsets = [loop.step] + [
            emitter.value(arith.MuliOp(loop.step, emitter.constant(k)))
            for k in range(2, factor)
        ]
    group_step.name_hint = group_step.name_hint or "group_step"
    span = emitter.value(arith.SubiOp(loop.ub, loop.lb))
    groups = emitter.value(arith.DivSIOp(span, group_step))
    covered = emitter.value(arith.MuliOp(groups, group_step))
    main_end = emitter.value(arith.AddiOp(loop.lb, covered))
    main_end.name_hint = "unrolled_ub"
    main = _build_main_loop(loop, emitter, factor, main_end, group_step, offsets)
    _continue_from(loop, main_end, list(main.results))


def unroll_for_loop(loop: ForOp, factor: int) -> None:
    """Unroll `loop` by `factor` in place (see the module docstring)."""
    if factor < 1:
        raise PassFailedException(f"{PASS_NAME}: unroll-factor must be >= 1")
    if factor == 1:
        return
    bounds = [constant_int(value) for value in (loop.lb, loop.ub, loop.step)]
    lower, upper, step = bounds
    if step is not None and step <= 0:
        raise op_error(loop, f"{PASS_NAME} requires a positive step, got {step}")
    if lower is not None and upper is not None and step is not None:
        _unroll_static(loop, factor, lower, upper, step)
    else:
        _unroll_dynamic(loop, factor)


def _has_nested_for(loop: ForOp) -> bool:
    return any(isinstance(op, ForOp) for op in loop.body.walk() if op is not loop)


def unroll_for_loops(
    module: ModuleOp, factor: int, innermost_only: bool = True
) -> None:
    """Unroll the `scf.for` loops of `module` by `factor`, inner loops first."""
    if factor < 1:
        raise PassFailedException(f"{PASS_NAME}: unroll-factor must be >= 1")
    # A pre-order walk lists every loop before the loops inside it: reversed,
    # inner loops come first, so an outer loop copies already unrolled bodies.
    # Targets are chosen before any rewriting: unrolling an inner loop fully
    # must not turn its parent into an innermost loop.
    loops = [
        op
        for op in module.walk()
        if isinstance(op, ForOp) and not (innermost_only and _has_nested_for(op))
    ]
    for loop in reversed(loops):
        unroll_for_loop(loop, factor)


@dataclass(frozen=True)
class ScfForUnrollPass(ModulePass):
    """Unroll `scf.for` loops by `unroll-factor`, with an epilogue loop for the
    iterations left over; see the module docstring for the contract."""

    name = PASS_NAME

    unroll_factor: int = 4
    innermost_only: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        unroll_for_loops(op, self.unroll_factor, self.innermost_only)
