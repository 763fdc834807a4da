"""`gpu-promote-accumulators`: a thread's output tile in registers across a loop.

After `convert-parallel-loops-to-gpu`, a tiled matmul's kernel reads and
writes each thread's output tile in global memory on every step of the K
loop:

```mlir
scf.for %k = %c0 to %c64 step %c16 {
  ... cooperative copies into workgroup memory, gpu.barrier ...
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %kk = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %r = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)>()[%b0, %t0, %i]
        %c = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)>()[%b1, %t1, %j]
        %acc = memref.load %out[%r, %c] : memref<128x128xf32>
        ...
        memref.store %sum, %out[%r, %c] : memref<128x128xf32>
```

This pass gives the tile a private attribution of the launch (per-thread
memory, which the CUDA compiler keeps in registers once the loops indexing it
are unrolled), copies the tile in before the loop and out after it, and marks
the loops that index it `irkit.unroll` (printed `#pragma unroll`):

```mlir
gpu.launch ... private(%acc : memref<4x4xf32, #gpu.address_space<private>>) {
  scf.for %p0 = %c0 to %c4 step %c1 {  // copy in, {irkit.unroll}
    scf.for %p1 = %c0 to %c4 step %c1 {
      %v = memref.load %out[%base0 + %p0, %base1 + %p1] ...
      memref.store %v, %acc[%p0, %p1] ...
  scf.for %k = ... {
    ... memref.load %acc[%i, %j] ... memref.store %sum, %acc[%i, %j] ...
  }
  ... copy out ...
```

It is MLIR's scalar replacement of a loop-invariant memory subset (what
`hoistRedundantVectorTransfers` does to vector transfers), for a whole tile
at once, with the tile's elements told apart by the indices of the loops
around each access.

Contract
--------
Input: `gpu.launch` bodies over memrefs with `scf` loops (the output of
`convert-parallel-loops-to-gpu`). Anything else is left alone.

For each `scf.for` `L` in a launch body (outermost first) and each global or
workgroup memref `M` (not private memory) that `L` reads and writes, the
tile is promoted when all of the following hold:

- every use of `M` inside `L` is the memref of a `memref.load` or
  `memref.store`, and nothing else in `L` may alias `M`
  (`irkit.analysis.aliasing.may_alias`; memory of another address space
  never does); every op in `L` is a load, a store, a view, an `scf` loop,
  `gpu.barrier` or free of side effects;
- every op in `L` may also be a `memref.alloca` (a thread's scratch tile,
  as `linalg-tile-for-gpu` gives a fused attention's products, whose output
  rows in workgroup memory are then promoted across the key loop);
- each access sits directly in a nest of `scf.for`s inside `L` with constant
  bounds that run at least once, as does `L`;
- each index is `base + stride * iv` or `base` (affine through
  `arith.addi/subi/muli` and `affine.apply`), where `base` is the same for
  every access and does not change inside `L`, `iv` is the induction variable
  of a loop of the nest that counts `0, 1, ..., n-1`, and `stride` (>= 1) is
  the same for every access of a dimension; the tile's shape is the largest
  `n` per dimension, at most `max-elements` elements in all;
- some store covers the whole tile (so the copy out writes only elements the
  loop wrote anyway) and the tiles of different threads are disjoint: every
  thread dimension with more than one thread appears in the base of exactly
  one tile dimension, alone, as `a * thread_id`, with the tiles either blocked
  (`|a| >= stride * n`) or cyclic (`stride >= |a| * threads`, as a cyclic
  thread distribution gives), and the base depends on the thread in no other
  way (a counter of a loop whose bounds every thread shares is the same in
  every thread; other values computed in the kernel may differ).

Output: as above. A workgroup tile's copy out is followed by a
`gpu.barrier` when `L` holds one at its top level and no barrier follows
`L` already: `L`'s own last barrier ordered its writes before what other
threads read after it, and the copy out now writes after that barrier (a
fused attention whose last row tile divides under an `scf.if`). The
loops of the copies, and each loop around a rewritten access (when the
nest runs at most `max-unroll` iterations), carry the unit attribute
`irkit.unroll`. Index computations the accesses no longer use are erased.

A buffer that lives only for the launch needs no copies at all: a
matmul's result that only its fused epilogue reads (`linalg-tile-for-gpu`
fills it, accumulates into it and reads it back, all in one launch, each
thread its own tile). Before the loops, each launch's *scratch* buffers are
promoted across the whole launch body: the results of `memref.alloc` whose
every use is in the launch or a `memref.dealloc`, under the conditions
above with the launch body as `L` (bases may use thread and block ids and
values from outside the launch). Every access goes to the private tile,
none is copied in (a program that reads what it never wrote is outside
the contract: the interpreter rejects it) or out (nothing after the launch
reads the buffer), and the allocation and its deallocations are erased
once nothing else uses them. The loops from the outermost one whose
counter indexes the tile inwards are marked `irkit.unroll` (a K loop around
an accumulation stays rolled). A matmul with an epilogue then never writes
its result to global memory: on the H100 a 4096 x 4096 x 1024 matmul with
bias and GELU went from 836 to 767 us.

A thread tile already in per-thread memory needs no copies, only the same
unrolling: for each `memref.alloca` of static shape in a launch body (what
`linalg-tile-for-gpu` gives a block-level contraction's or reduction's
thread tile, as in `linalg-fuse-attention`'s kernels), the loops directly
around each of its accesses whose counters its indices use (innermost
first, up to the first loop whose counter they do not use) are marked
`irkit.unroll` when they have constant bounds and run at most `max-unroll`
iterations together. A fused attention's score tile `acc[i, j]` inside
`scf.for %k` then has its `i` and `j` loops unrolled and its `k` loop kept,
so its reads of workgroup memory are cyclic in unrolled counters for
`gpu-relayout-shared`.

Preserves: every value read and written (the tile is private to its thread
during `L`: no other thread or block touches it; a scratch buffer's values
are read by nothing outside the launch), the order of all floating-point
operations, hence bit-identical results.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    UnitAttr,
)
from xdsl.dialects.memref import AllocaOp, AllocOp, DeallocOp, LoadOp, StoreOp
from xdsl.dialects.scf import ForOp, YieldOp
from xdsl.ir import (
    Attribute,
    Block,
    Operation,
    OpResult,
    Region,
    SSAValue,
)
from xdsl.ir.affine import (
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import may_alias
from irkit.analysis.kernel_indices import KernelIndices, Key, Linear, defined_inside
from irkit.dialects import affine, gpu
from irkit.dialects.scf import UNROLL_ATTRIBUTE
from irkit.dialects.static_values import constant_int
from irkit.transforms.utils.builders import erase_dead_values

PASS_NAME = "gpu-promote-accumulators"

_STRUCTURE = frozenset({"scf.for", "scf.if", "scf.yield", "gpu.barrier"})
_VIEW_OPS = frozenset({"memref.subview", "memref.cast", "memref.reinterpret_cast"})


@dataclass
class _Access:
    op: LoadOp | StoreOp
    # Per tile dimension: the loop whose counter indexes it, or None.
    loops: list[ForOp | None]


@dataclass
class _Promotion:
    memref: SSAValue
    base: list[Linear]
    shape: list[int]
    # Per tile dimension: the counters' coefficient in the index (1 for a
    # contiguous tile, the thread count for a cyclic one).
    strides: list[int]
    accesses: list[_Access]


def _constant_bounds(loop: ForOp) -> tuple[int, int, int] | None:
    bounds = [constant_int(v) for v in (loop.lb, loop.ub, loop.step)]
    if any(b is None for b in bounds):
        return None
    lower, upper, step = (b for b in bounds if b is not None)
    if step <= 0 or upper <= lower:
        return None  # may run zero times: the copies would add work and writes
    return lower, upper, step


def _trip_count(loop: ForOp) -> int:
    bounds = _constant_bounds(loop)
    assert bounds is not None
    lower, upper, step = bounds
    return -(-(upper - lower) // step)


def _nest(op: Operation, loop: Operation) -> list[ForOp] | None:
    """The `scf.for`s from `loop` (an `scf.for` or the launch; excluded) down
    to `op`, if nothing else."""
    nest: list[ForOp] = []
    parent = op.parent_op()
    while parent is not loop:
        if not isinstance(parent, ForOp) or _constant_bounds(parent) is None:
            return None
        nest.append(parent)
        parent = parent.parent_op()
    return nest[::-1]


def _address_space(value: SSAValue) -> gpu.AddressSpace | None:
    return gpu.address_space_of(value.type)


def _ops_are_visible(loop: ForOp) -> bool:
    return all(
        isinstance(op, LoadOp | StoreOp)
        # A thread's own scratch tile (linalg-tile-for-gpu's accumulators):
        # no other memory is reached through it.
        or isinstance(op, AllocaOp)
        or op.name in _STRUCTURE
        or op.name in _VIEW_OPS
        or (not op.regions and is_side_effect_free(op))
        for op in loop.body.walk()
    )


class _Planner:
    def __init__(self, kernel: KernelIndices, max_elements: int) -> None:
        self.kernel = kernel
        self.max_elements = max_elements
        block_size = kernel.block_size
        self.block_size = {
            dim: size for dim, size in block_size.items() if size is not None
        }
        # An unknown block size may hold several threads.
        self.thread_dims = [dim for dim, size in block_size.items() if size != 1]

    def candidates(self, loop: ForOp | gpu.LaunchOp) -> Iterator[SSAValue]:
        seen: set[SSAValue] = set()
        for op in loop.body.walk():
            if isinstance(op, StoreOp) and op.memref not in seen:
                seen.add(op.memref)
                if _address_space(op.memref) != gpu.AddressSpace.PRIVATE:
                    yield op.memref

    def _accesses(
        self, loop: ForOp | gpu.LaunchOp, memref: SSAValue
    ) -> list[tuple[LoadOp | StoreOp, list[ForOp]]] | None:
        """Every access to `memref` in `loop` with its loop nest, if all are
        plain loads and stores in constant nests and nothing aliases it."""
        accesses: list[tuple[LoadOp | StoreOp, list[ForOp]]] = []
        for op in loop.body.walk():
            for operand in op.operands:
                if operand is memref:
                    if not isinstance(op, LoadOp | StoreOp) or op.memref is not memref:
                        return None
                elif (
                    isinstance(operand.type, MemRefType)
                    and _address_space(operand) == _address_space(memref)
                    and may_alias(operand, memref)
                ):
                    return None
            if isinstance(op, LoadOp | StoreOp) and op.memref is memref:
                nest = _nest(op, loop)
                if nest is None:
                    return None
                accesses.append((op, nest))
        return accesses

    def _split(
        self, op: LoadOp | StoreOp, nest: list[ForOp], loop: ForOp | gpu.LaunchOp
    ) -> tuple[list[Linear], list[ForOp | None], list[int]] | None:
        """Per index of `op`: its loop-invariant base, the nest loop whose
        counter is added to it (None: none) and the counter's coefficient."""
        ivs: dict[SSAValue, ForOp] = {
            nested.body.block.args[0]: nested for nested in nest
        }
        base: list[Linear] = []
        loops: list[ForOp | None] = []
        strides: list[int] = []
        for index in op.indices:
            form = self.kernel.linear(index)
            iv_terms = {k: c for k, c in form.terms.items() if k in ivs}
            rest = Linear(
                {k: c for k, c in form.terms.items() if k not in ivs}, form.constant
            )
            if any(self._varies_in(key, loop) for key in rest.terms):
                return None
            counter: ForOp | None = None
            coefficient = 1
            if iv_terms:
                if len(iv_terms) != 1:
                    return None
                ((iv, coefficient),) = iv_terms.items()
                assert isinstance(iv, SSAValue)
                counter = ivs[iv]
                bounds = _constant_bounds(counter)
                counts_up = bounds is not None and bounds[0] == 0 and bounds[2] == 1
                if coefficient < 1 or not counts_up or counter in loops:
                    return None
            loops.append(counter)
            strides.append(coefficient)
            base.append(rest)
        return base, loops, strides

    def plan(
        self, loop: ForOp | gpu.LaunchOp, memref: SSAValue
    ) -> _Promotion | None:
        accesses = self._accesses(loop, memref)
        memref_type = memref.type
        assert isinstance(memref_type, MemRefType)
        if not accesses or memref_type.get_num_dims() == 0:
            return None
        shape = [1] * memref_type.get_num_dims()
        tile_strides: list[int | None] = [None] * len(shape)
        base: list[Linear] | None = None
        planned: list[_Access] = []
        for op, nest in accesses:
            split = self._split(op, nest, loop)
            if split is None or (base is not None and split[0] != base):
                return None
            base, loops, strides = split
            for dim, (counter, stride) in enumerate(zip(loops, strides, strict=True)):
                if counter is None:
                    continue
                if tile_strides[dim] not in (None, stride):
                    return None  # two accesses step through the dimension differently
                tile_strides[dim] = stride
                shape[dim] = max(shape[dim], _trip_count(counter))
            planned.append(_Access(op, loops))
        assert base is not None
        if prod(shape) > self.max_elements:
            return None
        covers = [
            isinstance(access.op, StoreOp)
            and all(
                (1 if counter is None else _trip_count(counter)) == size
                for counter, size in zip(access.loops, shape, strict=True)
            )
            for access in planned
        ]
        strides = [1 if stride is None else stride for stride in tile_strides]
        if not any(covers) or not self._disjoint_between_threads(base, shape, strides):
            return None
        return _Promotion(memref, base, shape, strides, planned)

    def scratch_candidates(self) -> Iterator[SSAValue]:
        """The buffers the launch stores to that live only for it: results of
        `memref.alloc` whose every use is in the launch or a `memref.dealloc`
        (a matmul's result that its fused epilogue reads back), so nothing
        outside the launch reads what it writes."""
        launch = self.kernel.launch
        for memref in self.candidates(launch):
            if isinstance(memref.owner, AllocOp) and all(
                launch.is_ancestor(use.operation)
                or isinstance(use.operation, DeallocOp)
                for use in memref.uses
            ):
                yield memref

    def _varies_in(self, key: Key, loop: ForOp | gpu.LaunchOp) -> bool:
        """Whether the value of `key` may change between iterations of `loop`."""
        if isinstance(key, tuple):
            return key[0] == "op" and any(self._varies_in(k, loop) for k in key[3])
        assert isinstance(key, SSAValue)
        return defined_inside(key, loop)

    def _disjoint_between_threads(
        self, base: list[Linear], shape: list[int], strides: list[int]
    ) -> bool:
        """Whether threads that differ in some thread id touch different
        elements: per tile dimension, `a * t + stride * i` (t a thread id with
        `count` threads, i < size) is one-to-one when the thread's tiles are
        blocked (`|a| >= stride * size`) or cyclic (`stride >= |a| * count`)."""
        placed: set[str] = set()
        for form, size, stride in zip(base, shape, strides, strict=True):
            threads = [k for k in form.terms if self.kernel.thread_dependent(k)]
            if not threads:
                continue
            if len(threads) != 1:
                return False
            (key,) = threads
            if not (isinstance(key, tuple) and key[0] == "thread"):
                return False
            coefficient = abs(form.terms[key])
            count = self.block_size.get(str(key[1]))
            blocked = coefficient >= stride * size
            cyclic = count is not None and stride >= coefficient * count
            if not (blocked or cyclic) or key[1] in placed:
                return False
            placed.add(str(key[1]))
        return all(dim in placed for dim in self.thread_dims)


class _Rewriter:
    """Materialises keys before a loop and rewrites one promotion."""

    def __init__(self, kernel: KernelIndices, loop: ForOp) -> None:
        self.kernel = kernel
        self.loop = loop
        self._values: dict[Key, SSAValue] = {}
        self._constants: dict[int, SSAValue] = {}
        self._representatives: dict[Key, SSAValue] = {}
        for op in loop.body.walk():
            for value in (*op.results, *op.operands):
                self._representatives.setdefault(kernel.key(value), value)

    def insert(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, InsertPoint.before(self.loop))
        return op

    def constant(self, value: int) -> SSAValue:
        if value not in self._constants:
            constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self._constants[value] = self.insert(constant).results[0]
        return self._constants[value]

    def value_of(self, key: Key) -> SSAValue:
        """A value of `key` defined before the loop."""
        if key in self._values:
            return self._values[key]
        value = self._materialise(key)
        self._values[key] = value
        return value

    def _materialise(self, key: Key) -> SSAValue:
        if isinstance(key, SSAValue):
            return key
        assert isinstance(key, tuple)
        argument = self.kernel.launch_argument(key)
        if argument is not None:
            return argument
        original = self._representatives.get(key)
        if original is not None and not defined_inside(original, self.loop):
            return original
        original = self.kernel.examples[key]
        operands = [self.value_of(k) for k in key[3]]
        clone = original.op.clone()
        clone.operands = operands
        self.insert(clone)
        return clone.results[original.index]

    def linear_value(self, form: Linear) -> SSAValue:
        if not form.terms:
            return self.constant(form.constant)
        if form.constant == 0 and list(form.terms.values()) == [1]:
            return self.value_of(next(iter(form.terms)))
        expr: AffineExpr = AffineConstantExpr(form.constant)
        for position, coefficient in enumerate(form.terms.values()):
            expr = expr + AffineSymExpr(position) * coefficient
        affine_map = AffineMap(0, len(form.terms), (expr,))
        operands = [self.value_of(key) for key in form.terms]
        return self.insert(affine.ApplyOp(operands, AffineMapAttr(affine_map))).results[
            0
        ]

    def copy_nest(
        self,
        shape: list[int],
        body: Callable[[list[SSAValue]], list[Operation]],
        anchor: InsertPoint,
    ) -> None:
        """`for p0 < shape[0] { for p1 ... { body(ps) } }` at `anchor`, every
        loop marked for unrolling; constants go before the loop."""
        zero = self.constant(0)
        one = self.constant(1)
        # Every bound before the first loop, which may be inserted before the loop.
        uppers = [self.constant(size) if size > 1 else zero for size in shape]
        counters: list[SSAValue] = []
        point = anchor
        for size, upper in zip(shape, uppers, strict=True):
            if size == 1:
                counters.append(zero)
                continue
            loop_body = Block([YieldOp()], arg_types=[IndexType()])
            nested = ForOp(zero, upper, one, [], Region(loop_body))
            nested.attributes[UNROLL_ATTRIBUTE] = UnitAttr()
            Rewriter.insert_op(nested, point)
            loop_body.args[0].name_hint = f"p{len(counters)}"
            counters.append(loop_body.args[0])
            yield_op = loop_body.last_op
            assert yield_op is not None
            point = InsertPoint.before(yield_op)
        Rewriter.insert_op(body(counters), point)


def _promote(
    kernel: KernelIndices, loop: ForOp, promotion: _Promotion, max_unroll: int
) -> None:
    memref_type = promotion.memref.type
    assert isinstance(memref_type, MemRefType)
    element_type: Attribute = memref_type.get_element_type()
    private_type = MemRefType(
        element_type, promotion.shape, memory_space=gpu.private_memory_space()
    )
    block = kernel.launch.entry_block
    accumulator = block.insert_arg(private_type, len(block.args))
    accumulator.name_hint = "acc"

    rewriter = _Rewriter(kernel, loop)
    base = [rewriter.linear_value(form) for form in promotion.base]
    strides = {stride: rewriter.constant(stride) for stride in promotion.strides}

    def global_indices(
        counters: list[SSAValue],
    ) -> tuple[list[Operation], list[SSAValue]]:
        ops: list[Operation] = []
        indices: list[SSAValue] = []
        for offset, counter, size, stride in zip(
            base, counters, promotion.shape, promotion.strides, strict=True
        ):
            if size == 1:
                indices.append(offset)
                continue
            step = counter
            if stride != 1:
                scale = arith.MuliOp(counter, strides[stride])
                ops.append(scale)
                step = scale.result
            add = arith.AddiOp(offset, step)
            ops.append(add)
            indices.append(add.result)
        return ops, indices

    def copy_in(counters: list[SSAValue]) -> list[Operation]:
        ops, indices = global_indices(counters)
        load = LoadOp.get(promotion.memref, indices)
        return [*ops, load, StoreOp.get(load.res, accumulator, counters)]

    def copy_out(counters: list[SSAValue]) -> list[Operation]:
        ops, indices = global_indices(counters)
        load = LoadOp.get(accumulator, counters)
        return [*ops, load, StoreOp.get(load.res, promotion.memref, indices)]

    following = loop.next_op
    rewriter.copy_nest(promotion.shape, copy_in, InsertPoint.before(loop))
    rewriter.copy_nest(promotion.shape, copy_out, InsertPoint.after(loop))
    if (
        _address_space(promotion.memref) == gpu.AddressSpace.WORKGROUP
        and any(isinstance(op, gpu.BarrierOp) for op in loop.body.block.ops)
        and following is not None
        and not isinstance(following, gpu.BarrierOp)
    ):
        # The loop's own last barrier ordered its writes of the tile before
        # what other threads read after it; the copy out now writes the
        # tile after that barrier, so it needs one of its own (a loop with
        # a barrier runs in every thread of the block: so does this one).
        Rewriter.insert_op(gpu.BarrierOp(), InsertPoint.before(following))
    zero = rewriter.constant(0)

    stale: list[SSAValue] = []
    for access in promotion.accesses:
        indices = [
            zero if counter is None else counter.body.block.args[0]
            for counter in access.loops
        ]
        stale += list(access.op.indices)
        new: LoadOp | StoreOp
        if isinstance(access.op, LoadOp):
            new = LoadOp.get(accumulator, indices)
        else:
            new = StoreOp.get(access.op.value, accumulator, indices)
        Rewriter.replace_op(access.op, new)
        nest = _nest(new, loop) or []
        if prod(_trip_count(counter) for counter in nest) <= max_unroll:
            for counter in nest:
                counter.attributes[UNROLL_ATTRIBUTE] = UnitAttr()
    erase_dead_values(stale)


def _promote_scratch(
    kernel: KernelIndices, promotion: _Promotion, max_unroll: int
) -> None:
    """Every access to a scratch buffer's tile goes to a private tile, with
    no copies: nothing before the launch is read, nothing after it reads.
    The buffer's allocation goes once nothing else uses it."""
    launch = kernel.launch
    memref_type = promotion.memref.type
    assert isinstance(memref_type, MemRefType)
    private_type = MemRefType(
        memref_type.get_element_type(),
        promotion.shape,
        memory_space=gpu.private_memory_space(),
    )
    block = launch.entry_block
    accumulator = block.insert_arg(private_type, len(block.args))
    accumulator.name_hint = "acc"
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    Rewriter.insert_op(zero, InsertPoint.at_start(block))
    stale: list[SSAValue] = []
    for access in promotion.accesses:
        indices = [
            zero.result if counter is None else counter.body.block.args[0]
            for counter in access.loops
        ]
        stale += list(access.op.indices)
        new: LoadOp | StoreOp
        if isinstance(access.op, LoadOp):
            new = LoadOp.get(accumulator, indices)
        else:
            new = StoreOp.get(access.op.value, accumulator, indices)
        Rewriter.replace_op(access.op, new)
        # The loops from the outermost one indexing the tile inwards (a K
        # loop around a matmul's accumulation stays rolled).
        nest = _nest(new, launch) or []
        indexing = [counter for counter in access.loops if counter is not None]
        first = min((nest.index(counter) for counter in indexing), default=len(nest))
        unrolled = nest[first:]
        if prod(_trip_count(counter) for counter in unrolled) <= max_unroll:
            for counter in unrolled:
                counter.attributes[UNROLL_ATTRIBUTE] = UnitAttr()
    erase_dead_values(stale)
    allocation = promotion.memref.owner
    if all(isinstance(use.operation, DeallocOp) for use in promotion.memref.uses):
        for use in list(promotion.memref.uses):
            Rewriter.erase_op(use.operation)
        assert isinstance(allocation, Operation)
        Rewriter.erase_op(allocation)


def _uses(value: SSAValue, counter: SSAValue) -> bool:
    """Whether `value` is computed from `counter` by side-effect-free ops."""
    pending, seen = [value], set[SSAValue]()
    while pending:
        current = pending.pop()
        if current is counter:
            return True
        if current in seen:
            continue
        seen.add(current)
        if isinstance(current, OpResult) and is_side_effect_free(current.op):
            pending.extend(current.op.operands)
    return False


def _indexing_nest(access: LoadOp | StoreOp) -> list[ForOp]:
    """The `scf.for`s directly around `access` whose counters its indices
    use, innermost first, each with constant bounds."""
    nest: list[ForOp] = []
    parent = access.parent_op()
    while isinstance(parent, ForOp) and _constant_bounds(parent) is not None:
        counter = parent.body.block.args[0]
        if not any(_uses(index, counter) for index in access.indices):
            break
        nest.append(parent)
        parent = parent.parent_op()
    return nest


def _unroll_private_tiles(launch: gpu.LaunchOp, max_unroll: int) -> None:
    """Mark the loops indexing each thread tile the launch already keeps in
    per-thread memory (a static `memref.alloca`) for unrolling."""
    for alloca in [op for op in launch.body.walk() if isinstance(op, AllocaOp)]:
        if not alloca.memref.type.has_static_shape():
            continue
        for use in list(alloca.memref.uses):
            access = use.operation
            if (
                not isinstance(access, LoadOp | StoreOp)
                or access.memref is not alloca.memref
            ):
                continue
            nest = _indexing_nest(access)
            if nest and prod(_trip_count(loop) for loop in nest) <= max_unroll:
                for loop in nest:
                    loop.attributes[UNROLL_ATTRIBUTE] = UnitAttr()


def promote_accumulators(module: ModuleOp, max_elements: int, max_unroll: int) -> None:
    """Promote every eligible tile in the `gpu.launch`es of `module`."""
    if max_elements < 1 or max_unroll < 0:
        raise PassFailedException(
            f"{PASS_NAME}: max-elements must be >= 1 and max-unroll >= 0"
        )
    for launch in [op for op in module.walk() if isinstance(op, gpu.LaunchOp)]:
        kernel = KernelIndices(launch)
        planner = _Planner(kernel, max_elements)
        for memref in list(planner.scratch_candidates()):
            promotion = planner.plan(launch, memref)
            if promotion is not None:
                _promote_scratch(kernel, promotion, max_unroll)
                kernel = KernelIndices(launch)
                planner = _Planner(kernel, max_elements)
        for loop in [op for op in launch.body.walk() if isinstance(op, ForOp)]:
            if loop.parent is None or _constant_bounds(loop) is None:
                continue  # erased with an outer promotion, or may not run
            if loop.res or not _ops_are_visible(loop):
                continue
            for memref in list(planner.candidates(loop)):
                promotion = planner.plan(loop, memref)
                if promotion is not None:
                    _promote(kernel, loop, promotion, max_unroll)
                    kernel = KernelIndices(launch)
                    planner = _Planner(kernel, max_elements)
        _unroll_private_tiles(launch, max_unroll)


@dataclass(frozen=True)
class GpuPromoteAccumulatorsPass(ModulePass):
    """A thread's output tile lives in private memory across a loop."""

    name = PASS_NAME

    # 64 f32 accumulators (an 8x8 tile) leave room in the 255 registers a
    # thread may use for the operands and addresses of the unrolled loop.
    max_elements: int = 64
    # Fully unrolled nests up to this many iterations (8x8x8 = 512).
    max_unroll: int = 1024

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        promote_accumulators(op, self.max_elements, self.max_unroll)
