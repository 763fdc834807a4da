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
`K` with constant bounds that runs at least once is pipelined when its body
starts with its *staging*: copies, ops free of effects without regions and
`gpu.barrier`s, up to the last of those barriers before any other op, with
at least one copy. A *copy* is a perfect nest of `scf.for`s, each from 0 by
1 to a constant without loop-carried values, whose innermost body holds ops
free of effects without regions, one `memref.load` or more from memory that
is not workgroup or private memory, and one `memref.store` into workgroup
memory (of any value they compute: an im2col gather's predicated select,
`linalg-tile-for-gpu{fuse-producers}`); a nest not marked `irkit.unroll`
counts when it stages at most `max-staged-elements` values. Nothing in the
launch may store to memory that may alias what a copy reads
(`irkit.analysis.aliasing.may_alias`) and no op of the launch may write
memory otherwise (declared effects; `gpu.barrier`, `cf.assert` write none),
and every op of `K` is a load, a store, an `scf` op, `gpu.barrier` or free
of effects. With `registers-per-block` (0: no budget), copies are taken in
order while their stages fit a thread's share of the register file at
`min-blocks-per-sm` blocks (at most `max-registers-per-thread`), less
`_RESERVED_REGISTERS`, the launch's private attributions and every copy's
K-invariant indices (below; 64-bit for `index`).

Output: per copy, a `private` attribution of its nest's shape; the nest,
cloned with `k` for the first step, runs before `K` and, guarded by
`k + step < ub`, after the staging's last barrier for the next step,
storing the value it stored into workgroup memory into the attribution; in
`K` the copy stores the attribution's elements. The index computations a
copy uses from `K`'s body are cloned with `k` replaced. Every loop of a
pipelined nest is marked `irkit.unroll`. With `table-indices`, each integer
value of a copy's innermost body that its stored value needs, that depends
on the nest's counters and on nothing `k` or a load gives, that divides (or
takes a remainder of) a value varying with the nest, directly or through
such values, and that a value varying with `k` reads (an im2col gather's
output-pixel row and column) gets a `private` table over the counters it
depends on: the first step's nest stores it, the later steps' read it.

Preserves: every value stored into workgroup memory (the same elements of
the same global memory, which nothing writes while the launch runs, are read
one step earlier; a tabled value is the same at every step) and every other
operation and its order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType, ModuleOp, UnitAttr
from xdsl.dialects.memref import LoadOp, StoreOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
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
# Integer divisions: the index math worth a register to compute once.
_DIVISIONS = frozenset(
    {
        "arith.divui",
        "arith.divsi",
        "arith.remui",
        "arith.remsi",
        "arith.floordivsi",
        "arith.ceildivsi",
    }
)
_DIVIDING_KINDS = frozenset(
    {AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv, AffineBinaryOpKind.Mod}
)
# A rolled copy nest of at most this many elements a thread is unrolled and
# pipelined: the im2col gather of a ResNet convolution stages 16 (a K step
# of 16 rows by 128 pixels over 128 threads), a 4096^3 matmul's copies 8
# each.
DEFAULT_MAX_STAGED_ELEMENTS = 64
# Every NVIDIA GPU since Kepler: the most registers a thread may have.
DEFAULT_MAX_REGISTERS_PER_THREAD = 255
# Registers a K loop's kernel needs besides the values held across steps
# (accumulators, stages, K-invariant indices): addresses, counters, the
# products' operands. Measured with nvcc 13 for sm_90: the 4096^3 SGEMM
# kernel (64 accumulators, two stages of 8) takes 127 of its 128; ResNet-18's
# stage-2 implicit GEMMs (blocks of 256 threads, 128 registers; 64
# accumulators, 32 for the gather's 64-bit pixel rows and columns) take 124
# to 128 unpipelined and spill 84 bytes or more with a stage of 8.
_RESERVED_REGISTERS = 48


@dataclass
class _Copy:
    """A nest of counted loops (outermost first) whose innermost body reads
    global memory and stores one value into workgroup memory."""

    nest: list[ForOp]
    store: StoreOp
    loads: list[LoadOp]
    shape: list[int]
    # The K-invariant index values computed once into tables, each with the
    # depths of the nest's counters it depends on (`_invariant_indices`).
    tabled: list[tuple[SSAValue, tuple[int, ...]]] = field(
        default_factory=list[tuple[SSAValue, tuple[int, ...]]]
    )

    @property
    def loop(self) -> ForOp:
        return self.nest[0]

    @property
    def count(self) -> int:
        return math.prod(self.shape)

    @property
    def unrolled(self) -> bool:
        return all(UNROLL_ATTRIBUTE in loop.attributes for loop in self.nest)

    def counters(self, mapping: dict[SSAValue, SSAValue]) -> list[SSAValue]:
        """The nest's counters, or their clones under `mapping`."""
        return [
            mapping.get(loop.body.block.args[0], loop.body.block.args[0])
            for loop in self.nest
        ]


def _pure(op: Operation) -> bool:
    return not op.regions and is_side_effect_free(op)


def _space(value: SSAValue) -> gpu.AddressSpace | None:
    return gpu.address_space_of(value.type)


def _trip_count(op: Operation) -> int | None:
    """The trip count of an `scf.for` from 0 by 1 to a constant of at least
    one, without loop-carried values; None for any other op."""
    if not isinstance(op, ForOp) or op.iter_args:
        return None
    bounds = [constant_int(v) for v in (op.lb, op.ub, op.step)]
    if bounds[0] != 0 or bounds[2] != 1 or bounds[1] is None or bounds[1] < 1:
        return None
    return bounds[1]


def _as_copy(op: Operation) -> _Copy | None:
    nest: list[ForOp] = []
    shape: list[int] = []
    current = op
    while True:
        count = _trip_count(current)
        if count is None:
            return None
        assert isinstance(current, ForOp)
        nest.append(current)
        shape.append(count)
        inner = [o for o in current.body.block.ops if not isinstance(o, YieldOp)]
        if len(inner) == 1 and isinstance(inner[0], ForOp):
            current = inner[0]
            continue
        break
    body = list(nest[-1].body.block.ops)
    loads = [o for o in body if isinstance(o, LoadOp)]
    stores = [o for o in body if isinstance(o, StoreOp)]
    others = [
        o
        for o in body
        if not isinstance(o, LoadOp | StoreOp | YieldOp) and not _pure(o)
    ]
    if not loads or len(stores) != 1 or others:
        return None
    if any(
        _space(load.memref) in (gpu.AddressSpace.WORKGROUP, gpu.AddressSpace.PRIVATE)
        for load in loads
    ):
        return None
    (store,) = stores
    if _space(store.memref) != gpu.AddressSpace.WORKGROUP:
        return None
    return _Copy(nest, store, loads, shape)


def _is_computed(copy: _Copy) -> bool:
    """Whether `copy` stores a value computed from its loads (an implicit
    GEMM's predicated gather) rather than a loaded one."""
    return not isinstance(copy.store.value.owner, LoadOp)


def _prologue(
    loop: ForOp, max_staged: int, computed: bool = True
) -> tuple[list[_Copy], list[Operation], Operation] | None:
    """The copies of `loop`'s staging (its body's leading copies, effect-free
    ops and barriers, up to the last of those barriers), the effect-free ops
    among them, and that barrier. A rolled copy counts when it stages at
    most `max_staged` elements; a computed one (`_is_computed`) only with
    `computed`."""
    copies: list[_Copy] = []
    pending: list[_Copy] = []
    pure: list[Operation] = []
    barrier: Operation | None = None
    for op in loop.body.block.ops:
        if op.name == "gpu.barrier":
            copies += pending
            pending = []
            barrier = op
            continue
        copy = _as_copy(op)
        if copy is not None and not computed and _is_computed(copy):
            copy = None
        if copy is not None and (copy.unrolled or copy.count <= max_staged):
            pending.append(copy)
        elif _pure(op):
            pure.append(op)
        else:
            break
    if not copies or barrier is None:
        return None
    return copies, pure, barrier


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
    sources = [load.memref for copy in copies for load in copy.loads]
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


def _affine_operand(op: affine.ApplyOp, expr: AffineExpr) -> SSAValue | None:
    """The operand of `op` a dimension or symbol expression names."""
    if isinstance(expr, AffineDimExpr):
        return op.mapOperands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return op.mapOperands[op.map.data.num_dims + expr.position]
    return None


def _dividends(op: Operation) -> list[SSAValue]:
    """The operands `op` divides (or takes a remainder of): an integer
    division's dividend, those inside an `affine.apply`'s floordiv, ceildiv
    or mod."""
    if op.name in _DIVISIONS:
        return [op.operands[0]]
    if not isinstance(op, affine.ApplyOp):
        return []
    dividends: list[SSAValue] = []
    pending: list[tuple[AffineExpr, bool]] = [
        (expr, False) for expr in op.map.data.results
    ]
    while pending:
        expr, divided = pending.pop()
        if isinstance(expr, AffineBinaryOpExpr):
            inside = divided or expr.kind in _DIVIDING_KINDS
            pending += [(expr.lhs, inside), (expr.rhs, inside)]
        elif divided and (operand := _affine_operand(op, expr)) is not None:
            dividends.append(operand)
    return dividends


@dataclass
class _NestIndices:
    """Which values of a copy's nest vary with `loop`'s counter, and with
    which of the nest's counters (by depth)."""

    copy: _Copy
    loop: ForOp
    _invariant: dict[SSAValue, bool] = field(default_factory=dict[SSAValue, bool])
    _depths: dict[SSAValue, frozenset[int]] = field(
        default_factory=dict[SSAValue, frozenset[int]]
    )

    def is_invariant(self, value: SSAValue) -> bool:
        """Whether `value` is the same at every step of `loop`: defined
        outside it, a counter of the nest, or computed by effect-free ops
        from such values."""
        if value not in self._invariant:
            owner = value.owner
            if isinstance(value, BlockArgument):
                result = value.owner is not self.loop.body.block
            else:
                assert isinstance(owner, Operation)
                result = not self.loop.is_ancestor(owner) or (
                    _pure(owner) and all(self.is_invariant(v) for v in owner.operands)
                )
            self._invariant[value] = result
        return self._invariant[value]

    def depths(self, value: SSAValue) -> frozenset[int]:
        """The depths of the nest's counters `value` depends on."""
        if value not in self._depths:
            counters = self.copy.counters({})
            owner = value.owner
            if value in counters:
                result = frozenset({counters.index(value)})
            elif isinstance(owner, Operation) and self.copy.loop.is_ancestor(owner):
                result = frozenset().union(*(self.depths(v) for v in owner.operands))
            else:
                result = frozenset()
            self._depths[value] = result
        return self._depths[value]

    def divides_per_iteration(self, op: Operation) -> bool:
        """Whether `op`, or an invariant op of the nest it reads, divides a
        value that differs between the nest's iterations."""
        if any(self.depths(v) for v in _dividends(op)):
            return True
        return any(
            isinstance(v.owner, Operation)
            and self.copy.loop.is_ancestor(v.owner)
            and self.is_invariant(v)
            and self.divides_per_iteration(v.owner)
            for v in op.operands
        )


def _computation(copy: _Copy) -> set[Operation]:
    """The ops of `copy`'s nest that compute its stored value."""
    needed: set[Operation] = set()
    pending: list[SSAValue] = [copy.store.value]
    while pending:
        owner = pending.pop().owner
        if isinstance(owner, Operation) and copy.loop.is_ancestor(owner):
            if owner not in needed:
                needed.add(owner)
                pending += owner.operands
    return needed


def _invariant_indices(
    copy: _Copy, loop: ForOp
) -> list[tuple[SSAValue, tuple[int, ...]]]:
    """The integer values of `copy`'s innermost body that its stored value
    needs, that differ between the nest's iterations but not between `loop`'s
    steps, that divide such a value (directly or through other such values)
    and that a value differing between `loop`'s steps reads, each with the
    depths of the nest's counters it depends on: the output-pixel
    coordinates of an im2col gather, which every K step would otherwise
    divide out again."""
    indices = _NestIndices(copy, loop)
    needed = _computation(copy)
    tabled: list[tuple[SSAValue, tuple[int, ...]]] = []
    for op in copy.nest[-1].body.block.ops:
        if op not in needed or not _pure(op) or len(op.results) != 1:
            continue
        (value,) = op.results
        if not isinstance(value.type, IndexType | IntegerType):
            continue
        depths = indices.depths(value)
        if not (
            depths and indices.is_invariant(value) and indices.divides_per_iteration(op)
        ):
            continue
        readers = (use.operation for use in value.uses if use.operation in needed)
        if any(
            isinstance(reader, LoadOp)
            or not all(indices.is_invariant(r) for r in reader.results)
            for reader in readers
        ):
            tabled.append((value, tuple(sorted(depths))))
    return tabled


def _words(element: Attribute) -> int:
    """32-bit registers one value of `element` takes (an `index` is 64-bit)."""
    if isinstance(element, IndexType):
        return 2
    width = getattr(element, "bitwidth", 32)
    return max(1, -(-int(width) // 32))


def _index_registers(copy: _Copy, loop: ForOp) -> int:
    """Registers `copy`'s K-invariant indices hold across `loop`'s steps,
    pipelined or not: tabled, or hoisted by the CUDA compiler's
    loop-invariant code motion (it hoists them once the nest is unrolled,
    and from plain copies)."""
    return sum(
        math.prod(copy.shape[d] for d in depths) * _words(value.type)
        for value, depths in _invariant_indices(copy, loop)
    )


def _register_budget(
    launch: gpu.LaunchOp, registers_per_block: int, min_blocks_per_sm: int, most: int
) -> int | None:
    """Registers a thread of `launch` may hold across a K loop: its share
    of `registers_per_block` at `min_blocks_per_sm` blocks (at most
    `most`), less `_RESERVED_REGISTERS` and its private attributions (the
    accumulators); None without a budget (`registers_per_block` 0) or
    with a dynamic block size."""
    if not registers_per_block:
        return None
    sizes = [
        constant_int(v)
        for v in (launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ)
    ]
    if any(size is None or size < 1 for size in sizes):
        return None
    threads = math.prod(size for size in sizes if size is not None)
    share = min(most, registers_per_block // (threads * max(1, min_blocks_per_sm)))
    private = 0
    for attribution in launch.private_attributions:
        memref = attribution.type
        assert isinstance(memref, MemRefType)
        private += math.prod(memref.get_shape()) * _words(memref.get_element_type())
    return share - _RESERVED_REGISTERS - private


def _staged_loads(
    copy: _Copy,
    slice_ops: Sequence[Operation],
    counter: SSAValue,
    stage: SSAValue,
    point: InsertPoint,
) -> dict[SSAValue, SSAValue]:
    """Clones of `slice_ops` and of the copy's nest with `counter` for the K
    loop's, storing the value into `stage` instead of workgroup memory;
    returns what each original value became."""
    loop_counter = copy.loop.parent_op()
    assert isinstance(loop_counter, ForOp)
    mapping: dict[SSAValue, SSAValue] = {loop_counter.body.block.args[0]: counter}
    for op in slice_ops:
        Rewriter.insert_op(op.clone(value_mapper=mapping), point)
    clone = copy.loop.clone(value_mapper=mapping)
    Rewriter.insert_op(clone, point)
    store = next(op for op in clone.walk() if isinstance(op, StoreOp))
    stale = list(store.indices)
    Rewriter.replace_op(store, StoreOp.get(store.value, stage, copy.counters(mapping)))
    erase_dead_values(stale)
    return mapping


def _table(
    copy: _Copy,
    value: SSAValue,
    depths: Sequence[int],
    table: SSAValue,
    first: dict[SSAValue, SSAValue],
    ahead: dict[SSAValue, SSAValue],
) -> None:
    """`value` stored into `table` where the first step's loads compute it,
    and read from it where the next step's loads did."""
    computed = first[value]
    assert isinstance(computed.owner, Operation)
    Rewriter.insert_op(
        StoreOp.get(computed, table, [copy.counters(first)[d] for d in depths]),
        InsertPoint.after(computed.owner),
    )
    recomputed = ahead[value]
    assert isinstance(recomputed.owner, Operation)
    read = LoadOp.get(table, [copy.counters(ahead)[d] for d in depths])
    read.res.name_hint = "tabled"
    Rewriter.insert_op(read, InsertPoint.before(recomputed.owner))
    recomputed.replace_all_uses_with(read.res)
    erase_dead_values([recomputed])


def _private(
    block: Block, element: Attribute, shape: Sequence[int], hint: str
) -> BlockArgument:
    argument = block.insert_arg(
        MemRefType(element, list(shape), memory_space=gpu.private_memory_space()),
        len(block.args),
    )
    argument.name_hint = hint
    return argument


def _pipeline(
    launch: gpu.LaunchOp,
    loop: ForOp,
    copies: list[_Copy],
    pure: list[Operation],
    barrier: Operation,
    table_indices: bool,
) -> None:
    block = launch.entry_block
    slices = [_slice(copy, pure) for copy in copies]
    for copy in copies:
        if table_indices:
            copy.tabled = _invariant_indices(copy, loop)
        for nested in copy.nest:
            nested.attributes[UNROLL_ATTRIBUTE] = UnitAttr()
    stages = [
        _private(block, copy.store.value.type, copy.shape, "stage") for copy in copies
    ]

    # The first step's loads, before the loop.
    firsts = [
        _staged_loads(copy, slice_ops, loop.lb, stage, InsertPoint.before(loop))
        for copy, slice_ops, stage in zip(copies, slices, stages, strict=True)
    ]

    # The next step's loads, after this step's barrier, if there is one.
    step_sum = arith.AddiOp(loop.body.block.args[0], loop.step)
    step_sum.result.name_hint = "next"
    more = arith.CmpiOp(step_sum.result, loop.ub, "slt")
    body = Block()
    body.add_op(YieldOp())
    prefetch = IfOp(more.result, [], Region(body))
    Rewriter.insert_op([step_sum, more, prefetch], InsertPoint.after(barrier))
    assert body.last_op is not None
    aheads = [
        _staged_loads(
            copy, slice_ops, step_sum.result, stage, InsertPoint.before(body.last_op)
        )
        for copy, slice_ops, stage in zip(copies, slices, stages, strict=True)
    ]

    # The K-invariant index values: computed by the first step's loads into a
    # table, read by the next steps'.
    for copy, first, ahead in zip(copies, firsts, aheads, strict=True):
        for value, depths in copy.tabled:
            shape = [copy.shape[d] for d in depths]
            table = _private(block, value.type, shape, "indices")
            _table(copy, value, depths, table, first, ahead)

    # This step stores what the previous one (or the prologue) loaded.
    for copy, stage in zip(copies, stages, strict=True):
        staged = LoadOp.get(stage, copy.counters({}))
        staged.res.name_hint = "staged"
        # Where the first load was: a plain copy keeps its order.
        Rewriter.insert_op(staged, InsertPoint.before(copy.loads[0]))
        computed = copy.store.value
        Rewriter.replace_op(
            copy.store,
            StoreOp.get(staged.res, copy.store.memref, list(copy.store.indices)),
        )
        erase_dead_values([computed])
        for load in copy.loads:
            if load.parent is not None and not load.res.uses:
                stale = list(load.indices)
                Rewriter.erase_op(load)
                erase_dead_values(stale)


@dataclass(frozen=True)
class PipelineOptions:
    """`gpu-pipeline-copies`' options (the pass's fields)."""

    max_staged_elements: int = DEFAULT_MAX_STAGED_ELEMENTS
    table_indices: bool = True
    registers_per_block: int = 0
    min_blocks_per_sm: int = 0
    max_registers_per_thread: int = DEFAULT_MAX_REGISTERS_PER_THREAD
    computed_copies: bool = True


def _within_budget(copies: list[_Copy], loop: ForOp, budget: int | None) -> list[_Copy]:
    """The copies, in order, whose stages fit `budget` together beside every
    copy's K-invariant indices."""
    if budget is None:
        return copies
    budget -= sum(_index_registers(copy, loop) for copy in copies)
    kept: list[_Copy] = []
    for copy in copies:
        stage = copy.count * _words(copy.store.value.type)
        if stage <= budget:
            kept.append(copy)
            budget -= stage
    return kept


def pipeline_copies(module: ModuleOp, options: PipelineOptions | None = None) -> None:
    options = options or PipelineOptions()
    for launch in [op for op in module.walk() if isinstance(op, gpu.LaunchOp)]:
        for loop in [op for op in launch.body.walk() if isinstance(op, ForOp)]:
            found = _prologue(
                loop, options.max_staged_elements, options.computed_copies
            )
            if found is None:
                continue
            copies, pure, barrier = found
            if not _is_pipelinable(loop, launch, copies):
                continue
            budget = _register_budget(
                launch,
                options.registers_per_block,
                options.min_blocks_per_sm,
                options.max_registers_per_thread,
            )
            copies = _within_budget(copies, loop, budget)
            if copies:
                _pipeline(launch, loop, copies, pure, barrier, options.table_indices)


@dataclass(frozen=True)
class GpuPipelineCopiesPass(ModulePass):
    """A K loop's global loads for the next step overlap this step's compute."""

    name = PASS_NAME

    # A rolled copy nest staging more elements a thread stays as it is.
    max_staged_elements: int = DEFAULT_MAX_STAGED_ELEMENTS
    # The next steps' K-invariant index values read from a table the first
    # step fills (false: recomputed by each step's loads).
    table_indices: bool = True
    # With the register file's size (0: no budget), copies are pipelined
    # while what they hold across steps fits a thread's share at
    # `min-blocks-per-sm` blocks (at most `max-registers-per-thread`).
    registers_per_block: int = 0
    min_blocks_per_sm: int = 0
    max_registers_per_thread: int = DEFAULT_MAX_REGISTERS_PER_THREAD
    # Copies of computed values (an implicit GEMM's predicated gather) are
    # pipelined too (false: a staging that opens with one is left alone).
    computed_copies: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pipeline_copies(
            op,
            PipelineOptions(
                self.max_staged_elements,
                self.table_indices,
                self.registers_per_block,
                self.min_blocks_per_sm,
                self.max_registers_per_thread,
                self.computed_copies,
            ),
        )
