"""`gpu-pipeline-copies`: load the next K step's tiles while this one computes.

After `gpu-promote-shared`, each step of a tiled matmul's K loop starts with
cooperative copies (global memory into workgroup memory), waits at a
barrier, computes, and waits again:

```mlir
scf.for %k = %c0 to %c4096 step %c16 {
  scf.for %r = %c0 to %c8 step %c1 {          // a copy, {irkit.unroll}
    %e = memref.load %a[... %k ...] : memref<4096x4096xf32>
    memref.store %e, %shared[...] : memref<..., #gpu.address_space<workgroup>>
  } {irkit.unroll}
  gpu.barrier
  ... compute from %shared ...
  gpu.barrier
}
```

Every step waits for its global loads before computing. This pass
software-pipelines the copy through registers (MLIR's `scf` loop pipelining
with a prefetch distance of one, the register double buffering of hand-written
SGEMM kernels): the loads for step `k + step` are issued right after step
`k`'s barrier, into a `private` attribution, and land while step `k`
computes; step `k + step` then only stores them into workgroup memory.

```mlir
scf.for %r ... { %e = memref.load %a[... %c0 ...]; memref.store %e, %stage[%r] }
scf.for %k = %c0 to %c4096 step %c16 {
  scf.for %r ... { %e = memref.load %stage[%r]; memref.store %e, %shared[...] }
  gpu.barrier
  %next = arith.addi %k, %c16 : index
  %more = arith.cmpi slt, %next, %c4096 : index
  scf.if %more {
    scf.for %r ... { %e = memref.load %a[... %next ...]; memref.store %e, %stage[%r] }
  }
  ... compute from %shared ...
  gpu.barrier
}
```

Contract
--------
Input: `gpu.launch` bodies (after `gpu-promote-accumulators`). An `scf.for`
`K` with constant bounds that runs at least once is pipelined when the ops of
its body before its first top-level `gpu.barrier` are copies and ops free of
effects without regions, with at least one copy. A *copy* is an `scf.for`
from 0 by 1 to a constant `n`, marked `irkit.unroll`, whose body holds ops
free of effects without regions, one `memref.load` from memory that is not
workgroup or private memory, and one `memref.store` of exactly that value
into workgroup memory. Nothing in the launch may store to memory that may
alias what a copy reads (`irkit.analysis.aliasing.may_alias`) and no op of
the launch may write memory otherwise (declared effects; `gpu.barrier`,
`cf.assert` write none), and every op of `K` is a load, a store, an `scf`
op, `gpu.barrier` or free of effects.

Output: per copy, a `private` attribution `memref<n x T>`; its loads run
before `K` for the first step and, guarded by `k + step < ub`, after the
barrier for the next step, storing into the attribution; in `K` the copy
stores the attribution's elements. The index computations a copy uses from
`K`'s body are cloned with `k` replaced. Loops keep `irkit.unroll`.

Preserves: every value stored into workgroup memory (the same elements of
the same global memory, which nothing writes while the launch runs, are read
one step earlier) and every other operation and its order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.memref import LoadOp, StoreOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free

from irkit.analysis.aliasing import may_alias
from irkit.dialects import gpu
from irkit.dialects.scf import UNROLL_ATTRIBUTE, ForOp, IfOp
from irkit.dialects.static_values import constant_int
from irkit.transforms.utils.builders import erase_dead_values

PASS_NAME = "gpu-pipeline-copies"

_STRUCTURE = frozenset({"scf.for", "scf.if", "scf.yield", "gpu.barrier"})
# Ops without declared effects that write no memory.
_NO_WRITES = frozenset({"gpu.barrier", "gpu.terminator", "scf.yield", "cf.assert"})


@dataclass
class _Copy:
    loop: ForOp
    load: LoadOp
    store: StoreOp
    count: int


def _pure(op: Operation) -> bool:
    return not op.regions and is_side_effect_free(op)


def _space(value: SSAValue) -> gpu.AddressSpace | None:
    return gpu.address_space_of(value.type)


def _as_copy(op: Operation) -> _Copy | None:
    if not isinstance(op, ForOp) or UNROLL_ATTRIBUTE not in op.attributes:
        return None
    bounds = [constant_int(v) for v in (op.lb, op.ub, op.step)]
    if bounds[0] != 0 or bounds[2] != 1 or bounds[1] is None or bounds[1] < 1:
        return None
    loads = [o for o in op.body.block.ops if isinstance(o, LoadOp)]
    stores = [o for o in op.body.block.ops if isinstance(o, StoreOp)]
    others = [
        o
        for o in op.body.block.ops
        if not isinstance(o, LoadOp | StoreOp | YieldOp) and not _pure(o)
    ]
    if len(loads) != 1 or len(stores) != 1 or others:
        return None
    (load,), (store,) = loads, stores
    if _space(load.memref) in (gpu.AddressSpace.WORKGROUP, gpu.AddressSpace.PRIVATE):
        return None
    if _space(store.memref) != gpu.AddressSpace.WORKGROUP:
        return None
    if store.value is not load.res or not load.res.has_one_use():
        return None
    return _Copy(op, load, store, bounds[1])


def _prologue(loop: ForOp) -> tuple[list[_Copy], list[Operation], Operation] | None:
    """The copies before `loop`'s first barrier, the effect-free ops among
    them, and the barrier."""
    copies: list[_Copy] = []
    pure: list[Operation] = []
    for op in loop.body.block.ops:
        if op.name == "gpu.barrier":
            return (copies, pure, op) if copies else None
        copy = _as_copy(op)
        if copy is not None:
            copies.append(copy)
        elif _pure(op):
            pure.append(op)
        else:
            return None
    return None


def _slice(copy: _Copy, pure: Sequence[Operation]) -> list[Operation]:
    """The ops among `pure` (the K loop's, before its barrier) that `copy`
    uses, in order."""
    needed: set[Operation] = set()
    pending = [
        operand
        for op in copy.loop.walk()
        for operand in op.operands
        if isinstance(operand.owner, Operation)
        and not copy.loop.is_ancestor(operand.owner)
    ]
    while pending:
        owner = pending.pop().owner
        if isinstance(owner, Operation) and owner in pure and owner not in needed:
            needed.add(owner)
            pending += owner.operands
    return [op for op in pure if op in needed]


def _is_pipelinable(loop: ForOp, launch: gpu.LaunchOp, copies: list[_Copy]) -> bool:
    lower, upper, step = (constant_int(v) for v in (loop.lb, loop.ub, loop.step))
    if lower is None or upper is None or step is None:
        return False
    if step <= 0 or upper <= lower:
        return False
    for op in loop.body.walk():
        if not (isinstance(op, LoadOp | StoreOp) or op.name in _STRUCTURE or _pure(op)):
            return False
    sources = [copy.load.memref for copy in copies]
    for op in launch.body.walk():
        if isinstance(op, StoreOp) and any(may_alias(op.memref, s) for s in sources):
            return False
        if _writes_unseen(op):
            return False
    return True


def _writes_unseen(op: Operation) -> bool:
    """Whether `op` may write memory other than as a `memref.store` (ops
    with regions are judged by the ops inside them)."""
    if op.regions or op.name in _NO_WRITES or isinstance(op, StoreOp):
        return False
    effects = get_effects(op)
    return effects is None or any(
        effect.kind == MemoryEffectKind.WRITE for effect in effects
    )


def _staged_loads(
    copy: _Copy,
    slice_ops: Sequence[Operation],
    counter: SSAValue,
    stage: SSAValue,
    point: InsertPoint,
) -> None:
    """Clones of `slice_ops` and of the copy's loads with `counter` for the K
    loop's, storing into `stage` instead of workgroup memory."""
    loop_counter = copy.loop.parent_op()
    assert isinstance(loop_counter, ForOp)
    mapping: dict[SSAValue, SSAValue] = {loop_counter.body.block.args[0]: counter}
    for op in slice_ops:
        Rewriter.insert_op(op.clone(value_mapper=mapping), point)
    clone = copy.loop.clone(value_mapper=mapping)
    Rewriter.insert_op(clone, point)
    store = next(op for op in clone.body.block.ops if isinstance(op, StoreOp))
    stale = list(store.indices)
    Rewriter.replace_op(
        store, StoreOp.get(store.value, stage, [clone.body.block.args[0]])
    )
    erase_dead_values(stale)


def _pipeline(
    launch: gpu.LaunchOp,
    loop: ForOp,
    copies: list[_Copy],
    pure: list[Operation],
    barrier: Operation,
) -> None:
    block = launch.entry_block
    slices = [_slice(copy, pure) for copy in copies]
    stages: list[BlockArgument] = []
    for copy in copies:
        element = copy.load.res.type
        stage_type = MemRefType(
            element, [copy.count], memory_space=gpu.private_memory_space()
        )
        stage = block.insert_arg(stage_type, len(block.args))
        stage.name_hint = "stage"
        stages.append(stage)

    # The first step's loads, before the loop.
    for copy, slice_ops, stage in zip(copies, slices, stages, strict=True):
        _staged_loads(copy, slice_ops, loop.lb, stage, InsertPoint.before(loop))

    # The next step's loads, after this step's barrier, if there is one.
    step_sum = arith.AddiOp(loop.body.block.args[0], loop.step)
    step_sum.result.name_hint = "next"
    more = arith.CmpiOp(step_sum.result, loop.ub, "slt")
    body = Block()
    body.add_op(YieldOp())
    prefetch = IfOp(more.result, [], Region(body))
    Rewriter.insert_op([step_sum, more, prefetch], InsertPoint.after(barrier))
    assert body.last_op is not None
    for copy, slice_ops, stage in zip(copies, slices, stages, strict=True):
        _staged_loads(
            copy, slice_ops, step_sum.result, stage, InsertPoint.before(body.last_op)
        )

    # This step stores what the previous one (or the prologue) loaded.
    for copy, stage in zip(copies, stages, strict=True):
        stale = list(copy.load.indices)
        staged = LoadOp.get(stage, [copy.loop.body.block.args[0]])
        staged.res.name_hint = "staged"
        Rewriter.replace_op(copy.load, staged)
        erase_dead_values(stale)


def pipeline_copies(module: ModuleOp) -> None:
    for launch in [op for op in module.walk() if isinstance(op, gpu.LaunchOp)]:
        for loop in [op for op in launch.body.walk() if isinstance(op, ForOp)]:
            found = _prologue(loop)
            if found is None:
                continue
            copies, pure, barrier = found
            if _is_pipelinable(loop, launch, copies):
                _pipeline(launch, loop, copies, pure, barrier)


@dataclass(frozen=True)
class GpuPipelineCopiesPass(ModulePass):
    """A K loop's global loads for the next step overlap this step's compute."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pipeline_copies(op)
