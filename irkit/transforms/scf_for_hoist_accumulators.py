"""`scf-for-hoist-accumulators`: carry a loop's read-modify-write element in registers.

Scalar replacement of a loop-invariant memory element, as MLIR's
`loop-invariant-subset-hoisting` does for tensor subsets and
`hoistRedundantVectorTransfers` for vector transfers on memrefs. A reduction
that `convert-linalg-to-loops` accumulates through memory,

```mlir
scf.for %j = %c0 to %c8 step %c1 {
  %acc = memref.load %sum[%i] : memref<4xf32>
  %x = memref.load %in[%i, %j] : memref<4x8xf32>
  %next = arith.addf %x, %acc : f32
  memref.store %next, %sum[%i] : memref<4xf32>
}
```

becomes a loop-carried value, loaded once before the loop and stored once
after it:

```mlir
%init = memref.load %sum[%i] : memref<4xf32>
%last = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (f32) {
  %x = memref.load %in[%i, %j] : memref<4x8xf32>
  %next = arith.addf %x, %acc : f32
  scf.yield %next : f32
}
memref.store %last, %sum[%i] : memref<4xf32>
```

so the C compiler keeps the accumulator in a register instead of storing and
reloading it every iteration (which also blocks vectorisation of the loop).

Contract
--------
Input: loops over memrefs (`scf.for`, `scf.parallel`, `scf.if`), as
`convert-linalg-to-loops` leaves them. An `scf.for` carrying tensors is
rejected: subsets of tensors are not memory this pass reasons about.

Output: every `scf.for` (innermost first, so an element climbs out of a whole
nest) that satisfies all of the following is rewritten as above:

- its body block holds, at top level (executed on every iteration), a
  `memref.load %m[%idx]` and later a `memref.store %v, %m[%idx]` on the same
  memref value and the same index values, all defined outside the loop;
- nothing else in the loop (nested regions included) touches a memref that
  may alias `%m` (`irkit.analysis.aliasing.may_alias`): memrefs with the
  same root (through views) may alias, as may two function arguments neither
  of which is an `{irkit.output}` buffer (`docs/abi.md`: outputs alias
  nothing) and any memref whose root is not an allocation, a GPU workgroup
  or private attribution, or a function argument;
- every op in the loop is a load, a store, a view, an `scf` loop or `if`, or
  free of memory effects (`arith`, `math`, `index`); a call or a copy could
  read or write the element unseen;
- the loop runs at least once (constant bounds): a loop that may run zero
  times must not gain a store.

Preserves: the value of every memory element after the loop and every value
read inside it; floating-point operations and their order are unchanged, so
results are bit-identical.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.dialects.memref import LoadOp, StoreOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.analysis.aliasing import VIEW_OPS, may_alias
from irkit.diagnostics import op_error
from irkit.dialects.scf import ForOp
from irkit.dialects.static_values import constant_int

PASS_NAME = "scf-for-hoist-accumulators"

_STRUCTURED_OPS = frozenset(
    {
        "scf.for",
        "scf.parallel",
        "scf.if",
        "scf.yield",
        "scf.reduce",
        "scf.reduce.return",
    }
)
_PURE_DIALECTS = ("arith.", "math.", "index.")


# --------------------------------------------------------------------------
# Helpers: loop invariance, memory effects
# --------------------------------------------------------------------------


def _is_inside(op: Operation, loop: Operation) -> bool:
    ancestor: Operation | None = op
    while ancestor is not None:
        if ancestor is loop:
            return True
        ancestor = ancestor.parent_op()
    return False


def _defined_outside(value: SSAValue, loop: Operation) -> bool:
    if isinstance(value, OpResult):
        return not _is_inside(value.op, loop)
    assert isinstance(value, BlockArgument)
    owner = value.block.parent_op()
    return owner is None or not _is_inside(owner, loop)


def _memory_is_visible(op: Operation) -> bool:
    """Whether every memory access of `op` is a load or store this pass sees."""
    return (
        isinstance(op, LoadOp | StoreOp)
        or op.name in VIEW_OPS
        or op.name in _STRUCTURED_OPS
        or op.name.startswith(_PURE_DIALECTS)
    )


def _memref_uses(op: Operation) -> Iterator[SSAValue]:
    return (v for v in op.operands if isinstance(v.type, MemRefType))


def _runs_at_least_once(loop: ForOp) -> bool:
    lower, upper = constant_int(loop.lb), constant_int(loop.ub)
    return lower is not None and upper is not None and lower < upper


# --------------------------------------------------------------------------
# Finding the accumulators of one loop
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Accumulator:
    """A load/store pair of one loop-invariant element, hoistable out of `loop`."""

    load: LoadOp
    store: StoreOp


def _same_element(load: LoadOp, store: StoreOp) -> bool:
    return load.memref is store.memref and tuple(load.indices) == tuple(store.indices)


def find_accumulators(loop: ForOp) -> list[Accumulator]:
    """The load/store pairs of `loop` that the module doc allows to hoist."""
    if not _runs_at_least_once(loop):
        return []
    inner = [op for op in loop.body.walk() if op is not loop]
    if not all(_memory_is_visible(op) for op in inner):
        return []
    body = loop.body.block
    found: list[Accumulator] = []
    for store in body.ops:
        if not isinstance(store, StoreOp):
            continue
        invariant = [store.memref, *store.indices]
        if not all(_defined_outside(v, loop) for v in invariant):
            continue
        loads = [
            op for op in body.ops if isinstance(op, LoadOp) and _same_element(op, store)
        ]
        if len(loads) != 1 or not loads[0].is_before_in_block(store):
            continue
        (load,) = loads
        others = [
            op
            for op in inner
            if op is not load
            and op is not store
            and any(may_alias(v, store.memref) for v in _memref_uses(op))
        ]
        if not others:
            found.append(Accumulator(load, store))
    return found


# --------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------


def hoist_accumulators(loop: ForOp, accumulators: list[Accumulator]) -> ForOp:
    """Carry each accumulator in `iter_args` of a new loop that replaces `loop`."""
    body = loop.body.block
    yield_op = body.last_op
    assert isinstance(yield_op, YieldOp)
    initial: list[SSAValue] = []
    for accumulator in accumulators:
        before = accumulator.load.clone()
        Rewriter.insert_op(before, InsertPoint.before(loop))
        initial.append(before.res)
        carried = body.insert_arg(accumulator.load.res.type, len(body.args))
        carried.name_hint = accumulator.load.res.name_hint
        accumulator.load.res.replace_all_uses_with(carried)
        Rewriter.erase_op(accumulator.load)
    yielded = [*yield_op.operands, *(a.store.value for a in accumulators)]
    Rewriter.replace_op(yield_op, YieldOp(*yielded))
    region = loop.detach_region(loop.body)
    new_loop = ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, *initial], region)
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))
    kept = len(loop.results)
    for old, new in zip(loop.results, new_loop.results[:kept], strict=True):
        old.replace_all_uses_with(new)
    for accumulator, final in zip(accumulators, new_loop.results[kept:], strict=True):
        store = accumulator.store
        Rewriter.insert_op(
            StoreOp.get(final, store.memref, list(store.indices)),
            InsertPoint.after(new_loop),
        )
        Rewriter.erase_op(store)
    Rewriter.erase_op(loop)
    return new_loop


def _require_memref_loop(loop: ForOp) -> None:
    if any(isinstance(v.type, TensorType) for v in loop.iter_args):
        raise op_error(
            loop, f"{PASS_NAME} works on loops over memrefs: run bufferize first"
        )


def _loops_innermost_first(block: Block) -> Iterator[ForOp]:
    for op in block.ops:
        for region in op.regions:
            for inner in region.blocks:
                yield from _loops_innermost_first(inner)
        if isinstance(op, ForOp):
            yield op


def hoist_loop_accumulators(module: ModuleOp) -> None:
    """Apply the rewrite to every `scf.for` of `module`, innermost loops first."""
    for loop in list(_loops_innermost_first(module.body.block)):
        _require_memref_loop(loop)
    # A hoisted load/store lands in the enclosing loop's body, where the next
    # (outer) loop of the walk may hoist it again.
    for loop in list(_loops_innermost_first(module.body.block)):
        accumulators = find_accumulators(loop)
        if accumulators:
            hoist_accumulators(loop, accumulators)


@dataclass(frozen=True)
class ScfForHoistAccumulatorsPass(ModulePass):
    """Carry loop-invariant load/store pairs of `scf.for` bodies in `iter_args`."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hoist_loop_accumulators(op)
