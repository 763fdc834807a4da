"""`gpu-shuffle-reductions`: the last five steps of a workgroup reduction tree
as warp shuffles.

`linalg-tile-rows-for-gpu` combines a row's per-thread partials pairwise in
workgroup memory, one step per halving, and `convert-parallel-loops-to-gpu`
turns each step into a guarded block with a barrier after it:

```mlir
scf.if %t_lt_16 {                                  // {irkit.reduction_step = 16}
  %mine = memref.load %partial[%t]
  %theirs = memref.load %partial[%t + 16]
  %sum = arith.addf %theirs, %mine : f32
  memref.store %sum, %partial[%t]
} {irkit.reduction_step = 16 : i64}
gpu.barrier
... 8, 4, 2, 1 ...
```

The steps for 16, 8, 4, 2 and 1 only combine values of the first 32 threads,
one warp: they become register exchanges within that warp, with one barrier
after them instead of five, as CUDA reductions end (MLIR's
`gpu.subgroup_reduce` lowered to `gpu.shuffle`):

```mlir
scf.if %t_lt_32 {
  %v = memref.load %partial[%t]
  %s16, %ok16 = gpu.shuffle xor %v, %c16_i32, %c32_i32 : f32
  %v16 = arith.addf %s16, %v : f32                  // the step's own combiner
  ... 8, 4, 2, 1 ...
  scf.if %t_eq_0 { memref.store %v1, %partial[%c0] }
}
gpu.barrier
```

Lane `t < h` of a `xor h` exchange receives lane `t + h`'s value, exactly the
operand the tree step reads from `partial[t + h]`, so lane 0 ends with the
tree's `partial[0]`, bit for bit (same combiner, same operand order).

Contract
--------
Input: `gpu.launch` bodies (after `convert-parallel-loops-to-gpu`). A run of
five `scf.if`s marked `irkit.reduction_step` 16, 8, 4, 2, 1, each followed by
a `gpu.barrier` except possibly the last, is rewritten when each step is
`partial[t] = combine(partial[t + h], partial[t])` (either operand order) on
one workgroup buffer with the same combiner, `t` the x thread id, the element
type one `gpu.shuffle` takes (i32, i64, f32, f64), and the launch's block is
a whole number of warps along x only (x a multiple of 32, y = z = 1). Other
code is left alone.

Output: as above; the barrier after the last step stays. Preserves every
value (bit-identical).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, i32
from xdsl.dialects.memref import LoadOp, StoreOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import PassFailedException

from irkit.dialects import gpu
from irkit.dialects.scf import REDUCTION_STEP_ATTRIBUTE, IfOp
from irkit.dialects.static_values import constant_int
from irkit.transforms.utils.builders import erase_dead_values

PASS_NAME = "gpu-shuffle-reductions"

# A warp of NVIDIA GPUs; the target's `GpuHardware.warp_size` reaches the
# pass as its `warp-size` option (lower-to-cuda fills it in).
WARP = 32


def tree_halves(warp_size: int) -> tuple[int, ...]:
    """The tree steps one warp finishes: warp_size / 2, ..., 2, 1."""
    halves: list[int] = []
    half = warp_size // 2
    while half >= 1:
        halves.append(half)
        half //= 2
    return tuple(halves)


@dataclass(frozen=True)
class _Step:
    guard: IfOp
    buffer: SSAValue
    combiner: Operation
    theirs_position: int  # which combiner operand is partial[t + half]
    rest: tuple[SSAValue, ...]  # the indices after the thread's


def _is_thread_x(value: SSAValue, launch: gpu.LaunchOp) -> bool:
    if isinstance(value, BlockArgument):
        return value is launch.thread_ids[0]
    owner = value.owner
    return isinstance(owner, gpu.ThreadIdOp) and owner.dimension == "x"


def _step(op: Operation, half: int, launch: gpu.LaunchOp) -> _Step | None:
    """`op` as the tree step for `half`, if it is one this pass understands."""
    marker = op.attributes.get(REDUCTION_STEP_ATTRIBUTE)
    if not isinstance(op, IfOp) or not isinstance(marker, IntegerAttr):
        return None
    if marker.value.data != half or op.results:
        return None
    stores = [o for o in op.true_region.walk() if isinstance(o, StoreOp)]
    if len(stores) != 1:
        return None
    (store,) = stores
    combiner = store.value.owner
    if not isinstance(combiner, Operation) or len(combiner.operands) != 2:
        return None
    if not gpu.is_workgroup_memref(store.memref.type):
        return None
    if store.value.type not in gpu.ShuffleOp.SHUFFLE_TYPES:
        return None
    thread, *rest = store.indices
    if not _is_thread_x(thread, launch):
        return None
    loads = [operand.owner for operand in combiner.operands]
    if not all(isinstance(load, LoadOp) for load in loads):
        return None
    positions = []
    for position, load in enumerate(loads):
        assert isinstance(load, LoadOp)
        first, *others = load.indices
        if load.memref is not store.memref or list(others) != list(rest):
            return None
        if first is thread:
            continue
        adding = first.owner
        if not (
            isinstance(adding, arith.AddiOp)
            and adding.lhs is thread
            and constant_int(adding.rhs) == half
        ):
            return None
        positions.append(position)
    if len(positions) != 1 or any(constant_int(index) != 0 for index in rest):
        return None
    return _Step(op, store.memref, combiner, positions[0], tuple(rest))


def _run_at(
    ops: Sequence[Operation], start: int, launch: gpu.LaunchOp, warp_size: int
) -> list[_Step] | None:
    """The steps of one warp's share of a tree (five for a warp of 32)
    starting at `ops[start]`, barriers between them."""
    steps: list[_Step] = []
    index = start
    halves = tree_halves(warp_size)
    for number, half in enumerate(halves):
        if index >= len(ops):
            return None
        step = _step(ops[index], half, launch)
        if step is None:
            return None
        if steps and (
            step.buffer is not steps[0].buffer
            or step.combiner.name != steps[0].combiner.name
            or step.theirs_position != steps[0].theirs_position
        ):
            return None
        steps.append(step)
        index += 1
        if number < len(halves) - 1:
            if index >= len(ops) or not isinstance(ops[index], gpu.BarrierOp):
                return None
            index += 1
            # The next step's guard: its thread id and bound.
            while index < len(ops) and _is_pure(ops[index]):
                index += 1
    return steps


def _is_pure(op: Operation) -> bool:
    return not op.regions and is_side_effect_free(op)


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _shuffled(steps: list[_Step], warp_size: int) -> list[Operation]:
    """The warp-shuffle replacement of `steps` (see the module doc)."""
    first = steps[0]
    thread = gpu.ThreadIdOp("x")
    warp = _index(warp_size)
    in_warp = arith.CmpiOp(thread.result, warp.result, "slt")
    zero = _index(0)
    rest = [_index(0) for _ in first.rest]
    body: list[Operation] = [zero, *rest]
    load = LoadOp.get(first.buffer, [thread.result, *(r.result for r in rest)])
    body.append(load)
    value: SSAValue = load.res
    width = arith.ConstantOp(IntegerAttr(warp_size, i32))
    body.append(width)
    for half in tree_halves(warp_size):
        offset = arith.ConstantOp(IntegerAttr(half, i32))
        shuffle = gpu.ShuffleOp(value, offset.result, width.result, "xor")
        combined = first.combiner.clone()
        operands = [value, value]
        operands[first.theirs_position] = shuffle.result
        combined.operands = operands
        body += [offset, shuffle, combined]
        value = combined.results[0]
    is_first = arith.CmpiOp(thread.result, zero.result, "eq")
    write = StoreOp.get(value, first.buffer, [zero.result, *(r.result for r in rest)])
    body += [is_first, IfOp(is_first.result, [], Region(Block([write, YieldOp()])))]
    body.append(YieldOp())
    return [thread, warp, in_warp, IfOp(in_warp.result, [], Region(Block(body)))]


def _rewrite(steps: list[_Step], warp_size: int) -> None:
    first = steps[0].guard
    Rewriter.insert_op(_shuffled(steps, warp_size), InsertPoint.before(first))
    for step in steps:
        following = step.guard.next_op
        if step is not steps[-1]:
            assert isinstance(following, gpu.BarrierOp)
            Rewriter.erase_op(following)
        condition = step.guard.cond
        Rewriter.erase_op(step.guard)
        erase_dead_values([condition])


def _whole_warps(launch: gpu.LaunchOp, warp_size: int) -> bool:
    x, y, z = (constant_int(size) for size in launch.block_size)
    return x is not None and x % warp_size == 0 and y == 1 and z == 1


def shuffle_reductions(module: ModuleOp, warp_size: int = WARP) -> None:
    """Rewrite every eligible run of tree steps in `module` (see the module
    doc), for warps of `warp_size` threads (a power of two)."""
    if warp_size < 2 or warp_size & (warp_size - 1):
        raise PassFailedException(
            f"{PASS_NAME}: warp-size must be a power of two of at least 2, "
            f"not {warp_size}"
        )
    for launch in [op for op in module.walk() if isinstance(op, gpu.LaunchOp)]:
        if not _whole_warps(launch, warp_size):
            continue
        for region_op in [launch, *launch.body.walk()]:
            for region in region_op.regions:
                for block in region.blocks:
                    ops = list(block.ops)
                    start = 0
                    while start < len(ops):
                        steps = _run_at(ops, start, launch, warp_size)
                        if steps is None:
                            start += 1
                            continue
                        _rewrite(steps, warp_size)
                        ops = list(block.ops)
                        start = 0


@dataclass(frozen=True)
class GpuShuffleReductionsPass(ModulePass):
    """A reduction tree's last five workgroup steps become warp shuffles."""

    name = PASS_NAME

    # Threads per warp: the target's (`GpuHardware.warp_size`).
    warp_size: int = WARP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        shuffle_reductions(op, self.warp_size)
