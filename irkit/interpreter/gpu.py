"""Reference semantics of the `gpu` dialect: a lockstep grid emulator.

A kernel (the body of `gpu.launch`, or a `gpu.func` called by
`gpu.launch_func`) runs once for the whole grid, SIMT-style: every op is
executed by all threads together, and a value that differs between threads
is a NumPy array with one lane per thread of the grid (lane
`block * threads_per_block + thread`, both linearised x-fastest as in CUDA).
Values every thread shares stay scalars, so host-level semantics are
untouched and uniform code costs what it costs on the host.

- `gpu.thread_id`, `block_id`, `global_id`, `lane_id` are per-lane arrays
  (a dimension of size 1 gives the scalar 0); `block_dim`, `grid_dim` are
  ints.
- Control flow that differs between threads (`scf.if` on a per-lane
  condition, `scf.for` with per-lane bounds, `scf.while` with a per-lane
  condition; `scf.py`) runs its regions under an active-lane mask: only
  active lanes load, store, shuffle or reach a barrier, and the op's results
  take each lane's value from the region that lane ran.
- `memref.load`/`memref.store` gather and scatter one element per active
  lane (`Grid.load`, `Grid.store`); a load whose memref and indices are the
  same in every thread reads once and stays a scalar.
- Workgroup attributions get one fresh poisoned buffer per block, private
  attributions (and `memref.alloca` in a kernel) one per thread.
- Lockstep makes every schedule look like one in which each op finishes in
  all threads before the next starts, which would hide a missing barrier.
  So workgroup memory records, per element and per barrier epoch of its
  block, the thread that last wrote it and up to two threads that read it;
  a read of an element another thread wrote in the same epoch, or a write of
  one another thread wrote or read in it, is a data race and reported. Two
  threads writing one element of global memory in one launch are reported
  too. A `gpu.barrier` reached by some but not all threads of a block is an
  error.
- `gpu.shuffle` exchanges values within a warp of 32 lanes (lane = linear
  thread id % 32): lane `k` reads lane `k ^ offset` (xor), `k + offset`
  (down), `k - offset` (up) or `offset` (idx); `valid` is true when `k` and
  the source lane are both below `width`, and then the source lane must be
  active. An invalid lane keeps its own value.

See `docs/interpreter-gpu.md`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Block, Operation

from irkit.diagnostics import location_of
from irkit.dtypes import numpy_dtype
from irkit.interpreter.core import (
    InterpretationError,
    Interpreter,
    UnlocatedOpError,
    interpretation_error,
    register,
    register_terminator,
)
from irkit.interpreter.memref import load_element
from irkit.interpreter.values import (
    Buffer,
    MemRefValue,
    check_live,
    check_writable,
    format_index,
    to_value,
)

Values = tuple[Any, ...]

WARP_SIZE = 32
_DIMENSIONS = ("x", "y", "z")
# The entry block of gpu.launch: block ids, thread ids, grid and block sizes.
_LAUNCH_BLOCK_ARGS = 12

register_terminator("gpu.terminator", "gpu.return", "gpu.yield")


# --------------------------------------------------------------------------
# Race detection in workgroup memory
# --------------------------------------------------------------------------


class _WorkgroupAccesses:
    """Who touched each element of a workgroup buffer in its block's epoch.

    An epoch of a block runs from one `gpu.barrier` to the next. For each
    element: the epoch and thread of its last write, and the epoch and up to
    two distinct threads that read it (two are enough to know whether some
    thread other than a given writer read it).
    """

    def __init__(self, size: int) -> None:
        self.write_epoch = np.full(size, -1, np.int64)
        self.writer = np.full(size, -1, np.int64)
        self.read_epoch = np.full(size, -1, np.int64)
        self.reader = np.full(size, -1, np.int64)
        self.other_reader = np.full(size, -1, np.int64)


class Grid:
    """The threads of one kernel launch and the state of their execution."""

    def __init__(self, grid_size: Sequence[int], block_size: Sequence[int]) -> None:
        self.grid_size = tuple(grid_size)
        self.block_size = tuple(block_size)
        self.blocks = int(np.prod(self.grid_size))
        self.threads_per_block = int(np.prod(self.block_size))
        self.lane_count = self.blocks * self.threads_per_block
        lane = np.arange(self.lane_count, dtype=np.int64)
        self.block_of_lane = lane // self.threads_per_block
        self.thread_of_lane = lane % self.threads_per_block
        self.lane = lane
        self.thread_ids = _unravel(self.thread_of_lane, self.block_size)
        self.block_ids = _unravel(self.block_of_lane, self.grid_size)
        self.active = np.ones(self.lane_count, np.bool_)
        # The numbers of the active lanes; None while all are active, so that
        # the common, non-divergent case selects nothing.
        self.active_lanes: np.ndarray | None = None
        self.epoch = np.zeros(self.blocks, np.int64)
        # Buffers private to a block or a thread; workgroup ones map to
        # their race records, private ones to None. Others are global.
        self.scoped: dict[Buffer, _WorkgroupAccesses | None] = {}
        self.global_writers: dict[Buffer, np.ndarray] = {}

    # -- lanes ---------------------------------------------------------------

    @contextmanager
    def restricted(self, mask: Any) -> Iterator[bool]:
        """Run the body with only the active lanes where `mask` holds.

        Yields whether any lane is left active.
        """
        saved = self.active, self.active_lanes
        self.active = saved[0] & np.asarray(mask, np.bool_)
        self.active_lanes = None if self.active.all() else np.flatnonzero(self.active)
        try:
            yield self.active_lanes is None or self.active_lanes.size > 0
        finally:
            self.active, self.active_lanes = saved

    def take(self, value: Any) -> Any:
        """`value` at the active lanes (a uniform scalar stays itself)."""
        if not isinstance(value, np.ndarray) or value.ndim == 0:
            return value
        if self.active_lanes is None:
            return value
        return value[self.active_lanes]

    def active_lane_numbers(self) -> np.ndarray:
        return self.lane if self.active_lanes is None else self.active_lanes

    def spread(self, values: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
        """Per-active-lane `values` as a per-lane array (zeros elsewhere)."""
        if self.active_lanes is None:
            return values
        result = np.zeros(self.lane_count, dtype)
        result[self.active_lanes] = values
        return result

    def describe_lane(self, lane: int) -> str:
        thread = ",".join(str(int(ids[lane])) for ids in self.thread_ids)
        block = ",".join(str(int(ids[lane])) for ids in self.block_ids)
        return f"thread ({thread}) of block ({block})"

    def describe_thread(self, lane: int) -> str:
        return _thread_label(int(self.thread_of_lane[lane]), self.block_size)

    # -- memory ----------------------------------------------------------------

    def scoped_memref(
        self, memref_type: MemRefType[Attribute], origin: str, per_thread: bool
    ) -> MemRefValue:
        """A fresh poisoned buffer per block (workgroup) or per thread."""
        shape = tuple(memref_type.get_shape())
        if any(size < 0 for size in shape):
            raise UnlocatedOpError(f"makes a dynamically shaped {origin}")
        size = int(np.prod(shape, dtype=np.int64))
        copies = self.lane_count if per_thread else self.blocks
        dtype = numpy_dtype(memref_type.get_element_type())
        buffer = Buffer.poisoned(size * copies, dtype, origin, copies=copies)
        owner = self.lane if per_thread else self.block_of_lane
        self.scoped[buffer] = (
            None if per_thread else _WorkgroupAccesses(buffer.data.size)
        )
        strides = _row_major(shape)
        return MemRefValue(buffer, 0, shape, strides, owner * size)

    def positions(
        self, op: Operation, memref: MemRefValue, indices: Sequence[Any]
    ) -> tuple[np.ndarray, np.ndarray, list[Any]]:
        """The buffer position each active lane's access names, bounds-checked.

        Returns the positions, the lanes they belong to, and the indices at
        those lanes (arrays, or scalars shared by all).
        """
        lanes = self.active_lane_numbers()
        taken = [self.take(np.asarray(i, np.int64)) for i in indices]
        positions = np.full(lanes.shape, memref.offset, np.int64)
        if memref.lanes is not None:
            positions += self.take(memref.lanes)
        for dim, (index, extent, stride) in enumerate(
            zip(taken, memref.shape, memref.strides, strict=True)
        ):
            outside = (index < 0) | (index >= extent)
            if np.any(outside):
                k = int(np.flatnonzero(np.broadcast_to(outside, lanes.shape))[0])
                dims = "x".join(str(n) for n in memref.shape)
                raise interpretation_error(
                    op,
                    f"index {format_index(_index_at(taken, k))} (dimension {dim}) "
                    f"is out of bounds of a {dims} memref in "
                    f"{self.describe_lane(int(lanes[k]))}",
                )
            positions += index * stride
        return positions, lanes, taken

    def load(self, op: Operation, memref: MemRefValue, indices: Sequence[Any]) -> Any:
        """The element each active lane reads (a scalar if all read one)."""
        check_live(op, memref)
        buffer = memref.buffer
        if memref.lanes is None and not any(
            isinstance(i, np.ndarray) and i.ndim for i in indices
        ):
            return load_element(op, memref, indices)
        positions, lanes, taken = self.positions(op, memref, indices)
        self._check_written(op, buffer, positions, lanes, taken)
        accesses = self.scoped.get(buffer)
        if accesses is not None:
            self._record_reads(op, accesses, positions, lanes, taken)
        return self.spread(buffer.data[positions], buffer.data.dtype)

    def _check_written(
        self,
        op: Operation,
        buffer: Buffer,
        positions: np.ndarray,
        lanes: np.ndarray,
        taken: list[Any],
    ) -> None:
        written = buffer.written[positions]
        if not written.all():
            k = int(np.flatnonzero(~written)[0])
            thread = self.describe_lane(int(lanes[k]))
            raise interpretation_error(
                op,
                f"reads element {format_index(_index_at(taken, k))} of a buffer "
                f"nothing wrote ({buffer.origin}) in {thread}",
            )

    def atomic(
        self,
        op: Operation,
        memref: MemRefValue,
        indices: Sequence[Any],
        value: Any,
        combine: Callable[[Any, Any], Any],
    ) -> Any:
        """Each active lane in turn stores `combine(old, value)`; returns
        every lane's `old`. Atomics never race, so they leave no records."""
        check_writable(op, memref)
        buffer = memref.buffer
        positions, lanes, taken = self.positions(op, memref, indices)
        self._check_written(op, buffer, positions, lanes, taken)
        dtype = buffer.data.dtype
        values = np.broadcast_to(np.asarray(self.take(value)), positions.shape)
        old = np.empty(positions.shape, dtype)
        data = buffer.data
        # One lane after another, in lane order: lanes may share an element.
        for k, position in enumerate(positions.tolist()):
            old[k] = data[position]
            data[position] = np.asarray(combine(data[position], values[k])).astype(
                dtype
            )
        return self.spread(old, dtype)

    def store(
        self, op: Operation, memref: MemRefValue, indices: Sequence[Any], value: Any
    ) -> None:
        """Each active lane writes its `value` to the element it names."""
        check_writable(op, memref)
        buffer = memref.buffer
        positions, lanes, taken = self.positions(op, memref, indices)
        if buffer in self.scoped:
            accesses = self.scoped[buffer]
            if accesses is not None:
                self._record_writes(op, accesses, positions, lanes, taken)
        else:
            self._check_global_writes(op, buffer, positions, lanes, taken)
        buffer.data[positions] = self.take(value)
        buffer.written[positions] = True

    def reserve(
        self, op: Operation, memref: MemRefValue, indices: Sequence[Any]
    ) -> None:
        """Records, for the race checks, that each active lane will write the
        element it names at some time from now on (an asynchronous copy's
        destination: it may land before the wait that completes it), without
        writing it: another thread's access of it before a barrier is then a
        race, as on the hardware."""
        check_writable(op, memref)
        accesses = self.scoped.get(memref.buffer)
        if accesses is None:
            return
        positions, lanes, taken = self.positions(op, memref, indices)
        self._record_writes(op, accesses, positions, lanes, taken)

    def reserve_positions(
        self,
        op: Operation,
        memref: MemRefValue,
        positions: np.ndarray,
        lanes: np.ndarray,
        taken: list[np.ndarray],
    ) -> None:
        """`reserve` for many elements of each lane at once: `positions` in
        `memref`'s buffer (bounds already checked), the lane writing each and
        its indices (`taken`, for messages)."""
        check_writable(op, memref)
        accesses = self.scoped.get(memref.buffer)
        if accesses is not None:
            self._record_writes(op, accesses, positions, lanes, taken)

    def _race(
        self, op: Operation, lane: int, verb: str, index: str, other: int, what: str
    ) -> InterpretationError:
        return interpretation_error(
            op,
            f"data race on workgroup memory: {self.describe_lane(lane)} {verb} "
            f"element {index} that {_thread_label(other, self.block_size)} "
            f"{what} with no gpu.barrier in between",
        )

    def _record_reads(
        self,
        op: Operation,
        accesses: _WorkgroupAccesses,
        positions: np.ndarray,
        lanes: np.ndarray,
        taken: list[Any],
    ) -> None:
        threads = self.thread_of_lane[lanes]
        epochs = self.epoch[self.block_of_lane[lanes]]
        writers = accesses.writer[positions]
        raw = (accesses.write_epoch[positions] == epochs) & (writers != threads)
        if raw.any():
            k = int(np.flatnonzero(raw)[0])
            raise self._race(
                op,
                int(lanes[k]),
                "reads",
                format_index(_index_at(taken, k)),
                int(writers[k]),
                "wrote",
            )
        # Many lanes may read one element: keep its first reader of the epoch
        # and one other, combining this op's readers with earlier ones.
        order = np.lexsort((threads, positions))
        sorted_positions = positions[order]
        sorted_threads = threads[order]
        starts = np.flatnonzero(
            np.concatenate(([True], sorted_positions[1:] != sorted_positions[:-1]))
        )
        ends = np.concatenate((starts[1:], [sorted_positions.size])) - 1
        unique = sorted_positions[starts]
        epoch = epochs[order][starts]
        first, last = sorted_threads[starts], sorted_threads[ends]
        current = accesses.read_epoch[unique] == epoch
        earlier = np.where(current, accesses.reader[unique], -1)
        earlier_other = np.where(current, accesses.other_reader[unique], -1)
        reader = np.where(earlier >= 0, earlier, first)
        other = np.where(
            earlier_other >= 0,
            earlier_other,
            np.where(first != reader, first, np.where(last != reader, last, -1)),
        )
        accesses.reader[unique] = reader
        accesses.other_reader[unique] = other
        accesses.read_epoch[unique] = epoch

    def _record_writes(
        self,
        op: Operation,
        accesses: _WorkgroupAccesses,
        positions: np.ndarray,
        lanes: np.ndarray,
        taken: list[Any],
    ) -> None:
        threads = self.thread_of_lane[lanes]
        epochs = self.epoch[self.block_of_lane[lanes]]
        writers = accesses.writer[positions]
        waw = (accesses.write_epoch[positions] == epochs) & (writers != threads)
        readers = accesses.reader[positions]
        other_readers = np.where(
            readers != threads, readers, accesses.other_reader[positions]
        )
        war = (accesses.read_epoch[positions] == epochs) & (other_readers >= 0)
        for conflict, others, what in (
            (waw, writers, "wrote"),
            (war, other_readers, "read"),
        ):
            if conflict.any():
                k = int(np.flatnonzero(conflict)[0])
                raise self._race(
                    op,
                    int(lanes[k]),
                    "writes",
                    format_index(_index_at(taken, k)),
                    int(others[k]),
                    what,
                )
        twice = _first_duplicate(positions)
        if twice is not None:
            first, second = twice
            raise self._race(
                op,
                int(lanes[second]),
                "writes",
                format_index(_index_at(taken, second)),
                int(threads[first]),
                "writes too",
            )
        accesses.writer[positions] = threads
        accesses.write_epoch[positions] = epochs

    def _check_global_writes(
        self,
        op: Operation,
        buffer: Buffer,
        positions: np.ndarray,
        lanes: np.ndarray,
        taken: list[Any],
    ) -> None:
        writers = self.global_writers.get(buffer)
        if writers is None:
            writers = np.full(buffer.data.size, -1, np.int64)
            self.global_writers[buffer] = writers
        previous = writers[positions]
        clash = (previous >= 0) & (previous != lanes)
        other: int | None = None
        k = 0
        if clash.any():
            k = int(np.flatnonzero(clash)[0])
            other = int(previous[k])
        else:
            twice = _first_duplicate(positions)
            if twice is not None:
                other, k = int(lanes[twice[0]]), twice[1]
        if other is not None:
            raise interpretation_error(
                op,
                f"data race on global memory: {self.describe_lane(int(lanes[k]))} "
                f"writes element {format_index(_index_at(taken, k))} "
                f"({buffer.origin}) that {self.describe_lane(other)} also writes "
                "in this launch",
            )
        writers[positions] = lanes

    # -- synchronisation -----------------------------------------------------

    def barrier(self, op: Operation) -> None:
        """Every block whose threads are all here enters a new epoch."""
        per_block = self.active.reshape(self.blocks, self.threads_per_block)
        arrived = per_block.sum(axis=1)
        partial = np.flatnonzero((arrived > 0) & (arrived < self.threads_per_block))
        if partial.size:
            block = int(partial[0])
            row = per_block[block]
            base = block * self.threads_per_block
            here = base + int(np.flatnonzero(row)[0])
            missing = base + int(np.flatnonzero(~row)[0])
            raise interpretation_error(
                op,
                f"is reached by {self.describe_lane(here)} but not by "
                f"{self.describe_thread(missing)} of the same block (a "
                "gpu.barrier under control flow that differs between threads)",
            )
        self.epoch[arrived == self.threads_per_block] += 1

    def shuffle(
        self, op: Operation, mode: str, value: Any, offset: Any, width: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        """The shuffled value and `valid` flag of every lane."""
        value = np.broadcast_to(np.asarray(value), (self.lane_count,))
        warp_lane = self.thread_of_lane % WARP_SIZE
        offset = np.asarray(offset, np.int64)
        width = np.asarray(width, np.int64)
        if mode == "xor":
            source = warp_lane ^ offset
        elif mode == "down":
            source = warp_lane + offset
        elif mode == "up":
            source = warp_lane - offset
        elif mode == "idx":
            source = np.broadcast_to(offset, warp_lane.shape)
        else:
            raise interpretation_error(op, f"has an unknown shuffle mode '{mode}'")
        source_thread = self.thread_of_lane - warp_lane + source
        valid = (
            (warp_lane < width)
            & (source >= 0)
            & (source < width)
            & (source < WARP_SIZE)
            & (source_thread < self.threads_per_block)
        )
        source_lane = np.where(valid, self.lane - warp_lane + source, self.lane)
        reading = valid & self.active
        idle = reading & ~self.active[source_lane]
        if idle.any():
            k = int(np.flatnonzero(idle)[0])
            raise interpretation_error(
                op,
                f"in {self.describe_lane(k)} reads the value of "
                f"{self.describe_thread(int(source_lane[k]))}, which does not run "
                "it (its lane is inactive)",
            )
        return value[source_lane], valid


def _unravel(linear: np.ndarray, sizes: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """x, y, z coordinates of linear ids, x fastest."""
    x = linear % sizes[0]
    y = (linear // sizes[0]) % sizes[1]
    z = linear // (sizes[0] * sizes[1])
    return x, y, z


def _thread_label(thread: int, sizes: tuple[int, ...]) -> str:
    """`thread (x,y,z)` for the linear id `thread` within its block."""
    coords = _unravel(np.array([thread], np.int64), sizes)
    return "thread (" + ",".join(str(int(c[0])) for c in coords) + ")"


def _row_major(shape: Sequence[int]) -> tuple[int, ...]:
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        running *= max(size, 1)
    return tuple(reversed(strides))


def _index_at(taken: Sequence[Any], k: int) -> list[int]:
    return [int(i[k]) if np.ndim(i) else int(i) for i in taken]


def _first_duplicate(positions: np.ndarray) -> tuple[int, int] | None:
    """Two entries (in input order) naming one position, if any do."""
    if positions.size < 2:
        return None
    order = np.argsort(positions, kind="stable")
    same = positions[order][1:] == positions[order][:-1]
    if not same.any():
        return None
    k = int(np.flatnonzero(same)[0])
    return int(order[k]), int(order[k + 1])


# --------------------------------------------------------------------------
# Reading the ops (by name and position, as MLIR defines them)
# --------------------------------------------------------------------------


def _operand_groups(op: Operation, args: Values) -> list[Values]:
    """The operands of an op with `operandSegmentSizes`, group by group."""
    sizes_attr = op.properties.get("operandSegmentSizes") or op.attributes.get(
        "operandSegmentSizes"
    )
    if not isinstance(sizes_attr, DenseArrayBase):
        raise interpretation_error(op, "has no operandSegmentSizes")
    groups: list[Values] = []
    start = 0
    for size in sizes_attr.get_values():
        groups.append(args[start : start + int(size)])
        start += int(size)
    return groups


def _sizes(op: Operation, groups: Sequence[Values]) -> tuple[list[int], list[int]]:
    sizes = [int(value) for group in groups[1:7] for value in group]
    if len(sizes) != 6:
        raise interpretation_error(op, "needs three grid and three block sizes")
    if any(size < 1 for size in sizes):
        raise interpretation_error(
            op, f"launches an empty grid: grid {sizes[:3]}, block {sizes[3:]}"
        )
    return sizes[:3], sizes[3:]


def _attribute(op: Operation, name: str) -> Attribute | None:
    return op.properties.get(name) or op.attributes.get(name)


def _enum_text(op: Operation, name: str) -> str:
    attr = _attribute(op, name)
    if attr is None:
        raise interpretation_error(op, f"has no '{name}'")
    data = getattr(attr, "data", attr)
    return str(getattr(data, "value", data))


def _is_workgroup(memref_type: Attribute) -> bool:
    space = getattr(memref_type, "memory_space", None)
    if isinstance(space, IntegerAttr):
        return space.value.data == 3
    return "workgroup" in str(space)


def _attributions(
    op: Operation, block: Block, first: int
) -> tuple[list[MemRefType[Attribute]], list[MemRefType[Attribute]]]:
    """The types of `op`'s workgroup and private attributions.

    They follow the first `first` block arguments; `workgroup_attributions`
    counts the workgroup ones (MLIR's attribute); without it each is told by
    its memory space.
    """
    extra = [cast(MemRefType[Attribute], arg.type) for arg in block.args[first:]]
    for memref_type in extra:
        if not isinstance(memref_type, MemRefType):
            raise interpretation_error(
                op, f"has a non-memref attribution {memref_type}"
            )
    count = _attribute(op, "workgroup_attributions")
    if isinstance(count, IntegerAttr):
        workgroup = int(count.value.data)
    else:
        workgroup = 0
        while workgroup < len(extra) and _is_workgroup(extra[workgroup]):
            workgroup += 1
    return extra[:workgroup], extra[workgroup:]


def _run_kernel(
    interp: Interpreter,
    op: Operation,
    block: Block,
    leading: list[Any],
    grid: Grid,
) -> None:
    """Run `block` on every thread of `grid`, its attributions made fresh."""
    if interp.grid is not None:
        raise interpretation_error(op, "launches a kernel from inside a kernel")
    workgroup, private = _attributions(op, block, len(leading))
    where = location_of(op)
    name = f"{op.name} at {where}" if where is not None else op.name
    attributions: list[Any] = []
    for number, memref_type in enumerate(workgroup):
        origin = f"workgroup attribution #{number} of {name}"
        attributions.append(grid.scoped_memref(memref_type, origin, False))
    for number, memref_type in enumerate(private):
        origin = f"private attribution #{number} of {name}"
        attributions.append(grid.scoped_memref(memref_type, origin, True))
    interp.grid = grid
    try:
        with np.errstate(all="ignore"):
            interp.run_block(block, [*leading, *attributions], interp.nested_scope())
    finally:
        interp.grid = None


def _single_block(op: Operation) -> Block:
    region = op.regions[0]
    block = region.blocks.first
    if block is None or len(region.blocks) != 1:
        raise interpretation_error(op, "runs only single-block kernels")
    return block


def current_grid(interp: Interpreter, op: Operation) -> Grid:
    if interp.grid is None:
        raise interpretation_error(op, "is only meaningful inside a GPU kernel")
    return interp.grid


# --------------------------------------------------------------------------
# Launches
# --------------------------------------------------------------------------


@register("gpu.launch")
def launch(interp: Interpreter, op: Operation, args: Values) -> Values:
    grid_size, block_size = _sizes(op, _operand_groups(op, args))
    grid = Grid(grid_size, block_size)
    block = _single_block(op)
    if len(block.args) < _LAUNCH_BLOCK_ARGS:
        raise interpretation_error(op, "needs 12 index block arguments")
    ids = [
        *(_uniform_if_single(ids, n) for ids, n in zip(grid.block_ids, grid_size)),
        *(_uniform_if_single(ids, n) for ids, n in zip(grid.thread_ids, block_size)),
        *grid_size,
        *block_size,
    ]
    _run_kernel(interp, op, block, ids, grid)
    return tuple(None for _ in op.results)  # the async token, if any


def _kernel(interp: Interpreter, op: Operation) -> Operation:
    """The `gpu.func` that `gpu.launch_func`'s `@module::@kernel` names."""
    ref = _attribute(op, "kernel")
    if not isinstance(ref, SymbolRefAttr) or len(ref.nested_references.data) != 1:
        raise interpretation_error(op, "needs a kernel reference @module::@kernel")
    module_name = ref.root_reference.data
    kernel_name = ref.nested_references.data[0].data
    for candidate in interp.module.walk():
        if candidate.name != "gpu.module" or _symbol(candidate) != module_name:
            continue
        for func in candidate.walk():
            if func.name == "gpu.func" and _symbol(func) == kernel_name:
                # MLIR marks kernels with `gpu.kernel`; xDSL's class, `kernel`.
                if not {"gpu.kernel", "kernel"} & (
                    func.attributes.keys() | func.properties.keys()
                ):
                    raise interpretation_error(
                        op, f"launches @{module_name}::@{kernel_name}, not a kernel"
                    )
                return func
    raise interpretation_error(
        op, f"refers to no gpu.func @{module_name}::@{kernel_name}"
    )


def _symbol(op: Operation) -> str | None:
    name = _attribute(op, "sym_name")
    return name.data if isinstance(name, StringAttr) else None


@register("gpu.launch_func")
def launch_func(interp: Interpreter, op: Operation, args: Values) -> Values:
    groups = _operand_groups(op, args)
    grid_size, block_size = _sizes(op, groups)
    kernel = _kernel(interp, op)
    block = _single_block(kernel)
    operands = list(groups[11]) if len(groups) > 11 else []
    inputs = getattr(_attribute(kernel, "function_type"), "inputs", None)
    if inputs is None or len(inputs.data) != len(operands):
        raise interpretation_error(
            op,
            f"passes {len(operands)} arguments to a kernel that takes another number",
        )
    _run_kernel(interp, kernel, block, operands, Grid(grid_size, block_size))
    return tuple(None for _ in op.results)


def _uniform_if_single(ids: np.ndarray, size: int) -> Any:
    """A dimension of size 1 has id 0 in every thread: keep it a scalar."""
    return 0 if size == 1 else ids


# --------------------------------------------------------------------------
# Ids and sizes
# --------------------------------------------------------------------------


def _dimension(op: Operation) -> int:
    text = _enum_text(op, "dimension")
    if text not in _DIMENSIONS:
        raise interpretation_error(op, f"has an unknown dimension '{text}'")
    return _DIMENSIONS.index(text)


@register("gpu.thread_id")
def thread_id(interp: Interpreter, op: Operation, args: Values) -> Values:
    grid, dim = current_grid(interp, op), _dimension(op)
    return (_uniform_if_single(grid.thread_ids[dim], grid.block_size[dim]),)


@register("gpu.block_id")
def block_id(interp: Interpreter, op: Operation, args: Values) -> Values:
    grid, dim = current_grid(interp, op), _dimension(op)
    return (_uniform_if_single(grid.block_ids[dim], grid.grid_size[dim]),)


@register("gpu.global_id")
def global_id(interp: Interpreter, op: Operation, args: Values) -> Values:
    grid, dim = current_grid(interp, op), _dimension(op)
    ids = grid.block_ids[dim] * grid.block_size[dim] + grid.thread_ids[dim]
    size = grid.block_size[dim] * grid.grid_size[dim]
    return (_uniform_if_single(ids, size),)


@register("gpu.block_dim")
def block_dim(interp: Interpreter, op: Operation, args: Values) -> Values:
    return (current_grid(interp, op).block_size[_dimension(op)],)


@register("gpu.grid_dim")
def grid_dim(interp: Interpreter, op: Operation, args: Values) -> Values:
    return (current_grid(interp, op).grid_size[_dimension(op)],)


@register("gpu.lane_id")
def lane_id(interp: Interpreter, op: Operation, args: Values) -> Values:
    grid = current_grid(interp, op)
    return (
        _uniform_if_single(grid.thread_of_lane % WARP_SIZE, grid.threads_per_block),
    )


# --------------------------------------------------------------------------
# Synchronisation and exchange
# --------------------------------------------------------------------------


@register("gpu.barrier")
def barrier(interp: Interpreter, op: Operation, args: Values) -> Values:
    current_grid(interp, op).barrier(op)
    return ()


@register("gpu.shuffle")
def shuffle(interp: Interpreter, op: Operation, args: Values) -> Values:
    grid = current_grid(interp, op)
    value, offset, width = args
    result, valid = grid.shuffle(op, _enum_text(op, "mode"), value, offset, width)
    return (to_value(result, op.results[0].type), valid)
