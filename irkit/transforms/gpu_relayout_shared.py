"""`gpu-relayout-shared`: workgroup buffers laid out for 16-byte thread reads.

A matmul tiled with cyclic thread tiles (`linalg-tile-for-gpu{matmul-cyclic}`)
reads its shared B tile as `B[k, tx + 16 * j]` for `j < 8`, in a loop nest
`gpu-promote-accumulators` marked for unrolling: eight scalar loads 64 bytes
apart. Laid out so that thread `tx`'s columns come in runs of four,

    column  tx + 16 * j   at   (j floordiv 4) * 64 + tx * 4 + j mod 4,

the same reads are two runs of four adjacent floats, which the CUDA compiler
merges into two 16-byte loads (`ld.shared.v4.f32`, `LDS.128`). The A tile,
read as `A[ty + 16 * i, k]`, gets the same interleaving of its rows and is
transposed so that they are the buffer's innermost dimension. This is the
layout hand-written SGEMM kernels stage their tiles in (A transposed, each
thread's fragment contiguous); MLIR reaches it with vector transfers and
`nvgpu-optimize-shared-memory`.

Contract
--------
Input: `gpu.launch` bodies (after `gpu-promote-accumulators`). A workgroup
attribution `W` of static shape whose element size `e` divides 16 (`V = 16 /
e >= 2` elements make a chunk) is rewritten when:

- every use of `W` is the memref of a `memref.load` or `memref.store`;
- some load of `W` is *cyclic* in a dimension `p`: its index there is
  `t + s * d`, where `t` is a thread id whose block dimension has the
  constant size `s > 1` and `d` the counter of an `scf.for` from 0 by 1 to a
  constant `n` (a multiple of `V`) marked `irkit.unroll` (so the loads of
  one chunk end up side by side); all cyclic loads agree on `p` and `s`, and
  `L = s * n` for the largest such `n`;
- every access's index in `p` provably lies in `0 .. L - 1` (intervals of
  thread ids, loop counters and their affine combinations);
- the launch's workgroup memory still fits in `max-shared-bytes`, or, for
  a launch that already needs more (a kernel built for the opt-in to
  dynamic shared memory, such as `linalg-fuse-attention`'s), in
  `max-dynamic-shared-bytes` (by default the same).

Output: `W` becomes a buffer whose innermost dimension is `p`, `L + V`
elements long when there are other dimensions (the `V` elements of padding
keep every row 16-byte aligned and shift rows `V` banks apart) and `L`
otherwise; the other dimensions keep their order and sizes. Every access
indexes it with `p` last, through the bijection of `0 .. L - 1`

    pi(x) = (x floordiv (V * s)) * (V * s) + (x mod s) * V + (x floordiv s) mod V.

Where `x = s * H + Lo` with `Lo` provably in `0 .. s - 1` (a cyclic read:
`Lo = t`, `H = d`), `pi(x)` is built from `H` and `Lo` directly
(`(H floordiv V) * V * s + Lo * V + H mod V`), so an unrolled read indexes
with `t * V` plus a constant; otherwise from `x`.

Preserves: every value stored and loaded (`pi` is one-to-one on the indices
used and `W` is reached only through the rewritten accesses); the order of
every operation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, ModuleOp
from xdsl.dialects.memref import LoadOp, StoreOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.kernel_indices import KernelIndices, Key, Linear
from irkit.analysis.memory import (
    DEFAULT_MAX_SHARED_BYTES,
    element_bytes,
    workgroup_layout,
)
from irkit.analysis.ranges import Interval, value_range
from irkit.dialects import affine, gpu
from irkit.dialects.scf import UNROLL_ATTRIBUTE, ForOp
from irkit.dialects.static_values import constant_int
from irkit.transforms.utils.builders import erase_dead_values

PASS_NAME = "gpu-relayout-shared"

# The widest load a thread issues: 16 bytes (`ld.shared.v4.f32`).
CHUNK_BYTES = 16


@dataclass(frozen=True)
class _Layout:
    dim: int  # the buffer dimension the cyclic reads step through
    threads: int  # s: the thread id's block size
    extent: int  # L = s * n: the indices used in `dim`
    chunk: int  # V elements make 16 bytes

    def pi(self, x: AffineExpr) -> AffineExpr:
        """The new position of index `x` of `dim` (one-to-one on 0 .. L - 1)."""
        block = self.chunk * self.threads
        return (
            (x // block) * block
            + (x % self.threads) * self.chunk
            + (x // self.threads) % self.chunk
        )

    def pi_of_parts(self, high: AffineExpr, low: AffineExpr) -> AffineExpr:
        """`pi(s * high + low)` for `low` in `0 .. s - 1`."""
        return (
            (high // self.chunk) * (self.chunk * self.threads)
            + low * self.chunk
            + high % self.chunk
        )


class _Ranges:
    """Intervals of index values in a launch body: `value_range`'s loop
    counters and affine combinations, with thread ids bounded by the block
    size."""

    def __init__(self, kernel: KernelIndices) -> None:
        self.kernel = kernel
        self.block_size = kernel.block_size

    def _thread(self, value: SSAValue) -> Interval | None:
        key = self.kernel.key(value)
        if not (isinstance(key, tuple) and key[0] == "thread"):
            return None
        size = self.block_size.get(str(key[1]))
        return Interval(0, None if size is None else size - 1)

    def of_key(self, key: Key) -> Interval:
        argument = self.kernel.launch_argument(key)
        if isinstance(key, tuple) and key[0] == "thread" and argument is not None:
            value: SSAValue = argument
        elif isinstance(key, tuple):
            value = self.kernel.examples[key]
        else:
            assert isinstance(key, SSAValue)
            value = key
        return value_range(value, known=self._thread)

    def of_linear(self, form: Linear) -> Interval:
        total = Interval.point(form.constant)
        for key, coefficient in form.terms.items():
            total = total + self.of_key(key).scale(coefficient)
        return total


def _within(interval: Interval, lo: int, hi: int) -> bool:
    return (
        interval.lo is not None
        and interval.hi is not None
        and lo <= interval.lo
        and interval.hi <= hi
    )


def _unrolled_counter(kernel: KernelIndices, key: Key) -> int | None:
    """The trip count of the `irkit.unroll` loop `0 .. n step 1` that `key`
    counts, if it is one."""
    if not isinstance(key, BlockArgument) or key.index != 0:
        return None
    loop = key.block.parent_op()
    if not isinstance(loop, ForOp) or UNROLL_ATTRIBUTE not in loop.attributes:
        return None
    bounds = [constant_int(v) for v in (loop.lb, loop.ub, loop.step)]
    if bounds[0] != 0 or bounds[2] != 1 or bounds[1] is None:
        return None
    return bounds[1]


class _Planner:
    def __init__(self, kernel: KernelIndices, ranges: _Ranges) -> None:
        self.kernel = kernel
        self.ranges = ranges

    def cyclic(
        self, form: Linear, chunk: int
    ) -> tuple[int, int] | None:  # (threads s, trip count n)
        if form.constant != 0 or len(form.terms) != 2:
            return None
        threads = [k for k in form.terms if isinstance(k, tuple) and k[0] == "thread"]
        if len(threads) != 1 or form.terms[threads[0]] != 1:
            return None
        size = self.ranges.block_size.get(str(threads[0][1]))
        (counter,) = [k for k in form.terms if k is not threads[0]]
        count = _unrolled_counter(self.kernel, counter)
        if size is None or size < 2 or count is None or count % chunk:
            return None
        if form.terms[counter] != size:
            return None
        return size, count

    def plan(self, buffer: BlockArgument) -> _Layout | None:
        memref_type = buffer.type
        assert isinstance(memref_type, MemRefType)
        shape = memref_type.get_shape()
        size = element_bytes(memref_type.get_element_type())
        if size is None or not shape or any(d < 0 for d in shape):
            return None
        if CHUNK_BYTES % size:
            return None
        chunk = CHUNK_BYTES // size
        if chunk < 2:
            return None
        accesses: list[LoadOp | StoreOp] = []
        for use in buffer.uses:
            op = use.operation
            if not isinstance(op, LoadOp | StoreOp) or op.memref is not buffer:
                return None
            accesses.append(op)
        found: tuple[int, int] | None = None  # (dimension, threads)
        count = 0
        for op in accesses:
            if not isinstance(op, LoadOp):
                continue
            for dim, index in enumerate(op.indices):
                cyclic = self.cyclic(self.kernel.linear(index), chunk)
                if cyclic is None:
                    continue
                if found not in (None, (dim, cyclic[0])):
                    return None
                found = (dim, cyclic[0])
                count = max(count, cyclic[1])
        if found is None:
            return None
        layout = _Layout(found[0], found[1], found[1] * count, chunk)
        for op in accesses:
            form = self.kernel.linear(op.indices[layout.dim])
            if not _within(self.ranges.of_linear(form), 0, layout.extent - 1):
                return None
        return layout


def _new_type(old: MemRefType, layout: _Layout) -> MemRefType:
    shape = list(old.get_shape())
    others = [size for dim, size in enumerate(shape) if dim != layout.dim]
    inner = layout.extent + (layout.chunk if others else 0)
    return MemRefType(
        old.get_element_type(), [*others, inner], memory_space=old.memory_space
    )


def _values_by_key(kernel: KernelIndices, value: SSAValue) -> dict[Key, SSAValue]:
    """Every value in `value`'s index computation (itself included), by key."""
    found: dict[Key, SSAValue] = {}
    pending = [value]
    while pending:
        current = pending.pop()
        key = kernel.key(current)
        if key in found:
            continue
        found[key] = current
        if isinstance(current, OpResult) and isinstance(
            current.op, arith.AddiOp | arith.SubiOp | arith.MuliOp | affine.ApplyOp
        ):
            pending += current.op.operands
    return found


class _Rewriter:
    def __init__(self, kernel: KernelIndices, ranges: _Ranges, layout: _Layout) -> None:
        self.kernel = kernel
        self.ranges = ranges
        self.layout = layout

    def _value_of(self, key: Key, known: dict[Key, SSAValue]) -> SSAValue | None:
        if isinstance(key, tuple) and key[0] == "thread":
            return self.kernel.launch_argument(key)
        return known.get(key)

    def position(self, index: SSAValue, before: Operation) -> SSAValue:
        """`pi(index)`, computed right before `before`."""
        layout = self.layout
        form = self.kernel.linear(index)
        known = _values_by_key(self.kernel, index)
        operands: list[SSAValue] = []
        high: AffineExpr = AffineExpr.constant(form.constant // layout.threads)
        low: AffineExpr = AffineExpr.constant(form.constant % layout.threads)
        low_form = Linear({}, form.constant % layout.threads)
        for key, coefficient in form.terms.items():
            value = self._value_of(key, known)
            if value is None:
                break
            symbol = AffineExpr.symbol(len(operands))
            operands.append(value)
            if coefficient % layout.threads == 0:
                high = high + symbol * (coefficient // layout.threads)
            else:
                low = low + symbol * coefficient
                low_form = low_form.plus(Linear({key: coefficient}))
        else:
            if _within(self.ranges.of_linear(low_form), 0, layout.threads - 1):
                return self._apply(layout.pi_of_parts(high, low), operands, before)
        return self._apply(layout.pi(AffineExpr.symbol(0)), [index], before)

    @staticmethod
    def _apply(
        expr: AffineExpr, operands: Sequence[SSAValue], before: Operation
    ) -> SSAValue:
        apply = affine.ApplyOp(
            list(operands), AffineMapAttr(AffineMap(0, len(operands), (expr,)))
        )
        apply.result.name_hint = "chunked"
        Rewriter.insert_op(apply, InsertPoint.before(before))
        return apply.result


def _workgroup_bytes(launch: gpu.LaunchOp) -> int | None:
    """The launch's workgroup memory, None if an element size is unknown."""
    layout = workgroup_layout(launch.workgroup_attributions)
    return None if layout is None else layout[1]


def _rewrite(
    kernel: KernelIndices, ranges: _Ranges, buffer: BlockArgument, layout: _Layout
) -> BlockArgument:
    old_type = buffer.type
    assert isinstance(old_type, MemRefType)
    block = buffer.block
    new = block.insert_arg(_new_type(old_type, layout), buffer.index)
    new.name_hint = buffer.name_hint
    rewriter = _Rewriter(kernel, ranges, layout)
    stale: list[SSAValue] = []
    for use in list(buffer.uses):
        op = use.operation
        assert isinstance(op, LoadOp | StoreOp)
        indices = list(op.indices)
        others = [index for dim, index in enumerate(indices) if dim != layout.dim]
        position = rewriter.position(indices[layout.dim], op)
        replacement: LoadOp | StoreOp
        if isinstance(op, LoadOp):
            replacement = LoadOp.get(new, [*others, position])
        else:
            replacement = StoreOp.get(op.value, new, [*others, position])
        Rewriter.replace_op(op, replacement)
        stale.append(indices[layout.dim])
    block.erase_arg(buffer)
    erase_dead_values(stale)
    return new


def relayout_shared(
    module: ModuleOp, max_shared_bytes: int, max_dynamic_shared_bytes: int | None = None
) -> None:
    if max_dynamic_shared_bytes is None:
        max_dynamic_shared_bytes = max_shared_bytes
    if max_shared_bytes < 0:
        raise PassFailedException(f"{PASS_NAME}: max-shared-bytes must be >= 0")
    if max_dynamic_shared_bytes < 0:
        raise PassFailedException(
            f"{PASS_NAME}: max-dynamic-shared-bytes must be >= 0 (or -1: "
            "max-shared-bytes)"
        )
    for launch in [op for op in module.walk() if isinstance(op, gpu.LaunchOp)]:
        for position in range(len(launch.workgroup_attributions)):
            buffer = launch.workgroup_attributions[position]
            kernel = KernelIndices(launch)
            ranges = _Ranges(kernel)
            layout = _Planner(kernel, ranges).plan(buffer)
            if layout is None:
                continue
            old_type = buffer.type
            assert isinstance(old_type, MemRefType)
            size = element_bytes(old_type.get_element_type())
            assert size is not None  # `plan` checked it
            grown = (
                prod(_new_type(old_type, layout).get_shape())
                - prod(old_type.get_shape())
            ) * size
            used = _workgroup_bytes(launch)
            if used is None:
                continue
            # A launch past the static limit is already built for the opt-in.
            budget = (
                max_dynamic_shared_bytes
                if used > max_shared_bytes
                else max_shared_bytes
            )
            if used + grown > budget:
                continue
            _rewrite(kernel, ranges, buffer, layout)


@dataclass(frozen=True)
class GpuRelayoutSharedPass(ModulePass):
    """Workgroup buffers laid out so cyclic thread reads are 16-byte chunks."""

    name = PASS_NAME

    max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES
    # -1: `max-shared-bytes`.
    max_dynamic_shared_bytes: int = -1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        dynamic = self.max_dynamic_shared_bytes
        relayout_shared(op, self.max_shared_bytes, None if dynamic == -1 else dynamic)
