"""Reference semantics of the `mma` dialect on the grid emulator.

The ops are warp-synchronous (`irkit.dialects.mma`): every thread of a warp
runs them together, and what a thread receives depends on the addresses and
fragments of the other threads of its warp. The emulator runs all threads of
a grid at once (`irkit.interpreter.gpu`), so each op gathers the warp's
operands from their lanes, computes, and scatters each lane's share:

- `mma.ldmatrix` reads the 8 elements of the row each lane names and hands
  every lane the two elements of each 8x8 matrix its fragment layout gives
  it (transposed or not);
- `mma.sync` rebuilds the warp's 16x16 `A`, 16x8 `B` and 16x8 `C` from the
  fragments (with `tf32`: 16x8 `A`, 8x8 `B`, each element rounded to TF32
  as `cvt.rna.tf32.f32` rounds, `irkit.dtypes.to_tf32`), computes `C + A B`
  with exact products summed in float64 and rounded once to f32, and hands
  each lane its elements back;
- `mma.cp_async` reads its bytes (16, or the 4 or 8 it names; with
  `valid_bytes`, that many, zeros for the rest, its source address checked
  inside the operand even when it reads nothing) when issued but writes
  them only when a `mma.cp_async_wait` of the same thread
  completes its group, so reading a copy's destination before the wait
  (or before the barrier after it, in another thread) reads what was there
  before: poison, or a race that the
  emulator's workgroup-memory checks report. For those checks the write
  counts from the issue (`Grid.reserve`), since the bytes may land any
  time before the wait: a copy into a buffer another thread read since the
  last barrier is a race too.

- `mma.warpgroup_mma` is asynchronous as on the hardware: issuing it only
  records the product in the thread's open group; the
  `mma.warpgroup_wait` that retires the group reads the operands from
  workgroup memory then (through the 128-byte swizzle,
  `irkit.dialects.mma.swizzled_chunk`), rebuilds each warpgroup's 64xN `D`
  from its 128 threads' accumulators by the PTX ISA's fragment layout,
  computes `D + A B` as `mma.sync` does (with `tf32`, m64nNk8 over f32
  operands each truncated to TF32 as the tensor cores read them,
  `irkit.dtypes.truncate_to_tf32`) and hands each thread its elements
  back. A tile overwritten before the wait, or accumulators read before
  it, show as wrong results.

A warp (a warpgroup, for the warpgroup ops) whose threads do not all run one
of these ops is an error, as on the hardware (`.sync.aligned`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.ir import Operation

from irkit.dialects import mma
from irkit.dtypes import to_tf32, truncate_to_tf32
from irkit.interpreter.core import Interpreter, interpretation_error, register
from irkit.interpreter.gpu import WARP_SIZE, Grid, current_grid
from irkit.interpreter.values import MemRefValue

# What a group of asynchronous work holds: a copy, or a product.
Work = TypeVar("Work")

Values = tuple[Any, ...]

# Where lane l's fragment elements sit in the warp's matrices (mma dialect
# doc): rows and columns of A (m x k), B (k x n) and C (m x n), per element
# index e, as arrays over (e, l).
_LANE = np.arange(WARP_SIZE)
_G, _C = _LANE // 4, _LANE % 4
Positions = tuple[np.ndarray, np.ndarray]


def _fragment_positions(count: int, kind: str, tf32: bool) -> Positions:
    e = np.arange(count)[:, None]
    if kind == "a" and tf32:
        rows = _G + 8 * (e % 2)
        cols = _C + 4 * (e // 2)
    elif kind == "a":
        rows = _G + 8 * ((e // 2) % 2)
        cols = 2 * _C + e % 2 + 8 * (e // 4)
    elif kind == "b" and tf32:
        rows = _C + 4 * e
        cols = np.broadcast_to(_G, (count, WARP_SIZE))
    elif kind == "b":
        rows = 2 * _C + e % 2 + 8 * (e // 2)
        cols = np.broadcast_to(_G, (count, WARP_SIZE))
    else:
        rows = _G + 8 * (e // 2)
        cols = 2 * _C + e % 2
    return np.broadcast_to(rows, (count, WARP_SIZE)), np.broadcast_to(
        cols, (count, WARP_SIZE)
    )


def _layouts(tf32: bool) -> tuple[Positions, Positions, Positions]:
    """The positions of A's, B's and C's fragment elements for one shape."""
    shape = mma.TF32_MMA_SHAPE if tf32 else mma.MMA_SHAPE
    sizes = mma.fragment_sizes(shape)
    a, b, c = (
        _fragment_positions(count, kind, tf32)
        for count, kind in zip(sizes, "abc", strict=True)
    )
    return a, b, c


# m16n8k16 (f16, bf16) and m16n8k8 (tf32), by `tf32`.
_POSITIONS = {False: _layouts(False), True: _layouts(True)}


def _full(value: Any, grid: Grid) -> np.ndarray:
    """A per-lane array of `value` (a uniform scalar is broadcast)."""
    return np.broadcast_to(np.asarray(value), (grid.lane_count,))


def _shifted(indices: list[Any], offset: int) -> list[Any]:
    """`indices` with `offset` added to the last one."""
    return [*indices[:-1], indices[-1] + offset]


def _warp_lanes(
    op: Operation, grid: Grid, size: int = WARP_SIZE, what: str = "warp"
) -> np.ndarray:
    """The lanes of the warps (groups of `size` threads) running `op`, as
    (warps, size); every thread of such a warp must be active."""
    if grid.threads_per_block % size:
        raise interpretation_error(
            op,
            f"needs whole {what}s, but blocks have {grid.threads_per_block} threads",
        )
    active = grid.active.reshape(-1, size)
    running = active.any(axis=1)
    partial = running & ~active.all(axis=1)
    if partial.any():
        warp = int(np.flatnonzero(partial)[0])
        lane = warp * size + int(np.flatnonzero(~active[warp])[0])
        raise interpretation_error(
            op,
            f"is run by part of a {what} only: {grid.describe_lane(lane)} does not "
            "run it",
        )
    return grid.lane.reshape(-1, size)[running]


def _read_run(
    op: Operation, grid: Grid, memref: MemRefValue, indices: list[Any], count: int
) -> np.ndarray:
    """(count, lanes): the `count` elements from each lane's index on."""
    return np.stack(
        [_full(grid.load(op, memref, _shifted(indices, k)), grid) for k in range(count)]
    )


def _write_run(
    op: Operation,
    grid: Grid,
    memref: MemRefValue,
    indices: list[Any],
    values: np.ndarray,
) -> None:
    for k in range(values.shape[0]):
        grid.store(op, memref, _shifted(indices, k), values[k])


def _split_operands(op: Operation, args: Values) -> list[tuple[MemRefValue, list[Any]]]:
    """The (memref, indices) pairs of `op`'s operands, in order."""
    pairs: list[tuple[MemRefValue, list[Any]]] = []
    position = 0
    while position < len(args):
        memref = args[position]
        assert isinstance(memref, MemRefValue)
        rank = len(memref.shape)
        pairs.append((memref, list(args[position + 1 : position + 1 + rank])))
        position += 1 + rank
    return pairs


@register("mma.ldmatrix")
def ldmatrix(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, mma.LdMatrixOp)
    grid = current_grid(interp, op)
    (source, source_indices), (fragment, fragment_indices) = _split_operands(op, args)
    _warp_lanes(op, grid)
    lane_in_warp = grid.thread_of_lane % WARP_SIZE
    # Only lanes 8t + r name rows (PTX ignores the other lanes' addresses).
    with grid.restricted(lane_in_warp < 8 * op.tile_count):
        rows = _read_run(op, grid, source, source_indices, 8)  # (8, lanes)
    warp_base = grid.lane - lane_in_warp
    received = np.zeros((2 * op.tile_count, grid.lane_count), rows.dtype)
    for tile in range(op.tile_count):
        for half in range(2):
            if op.transposed:
                source_lane = warp_base + 8 * tile + 2 * (lane_in_warp % 4) + half
                column = lane_in_warp // 4
            else:
                source_lane = warp_base + 8 * tile + lane_in_warp // 4
                column = 2 * (lane_in_warp % 4) + half
            received[2 * tile + half] = rows[column, source_lane]
    _write_run(op, grid, fragment, fragment_indices, received)
    return ()


def _gather_matrix(
    fragments: np.ndarray,
    positions: tuple[np.ndarray, np.ndarray],
    shape: tuple[int, int],
    warps: np.ndarray,
) -> np.ndarray:
    """(warps, rows, cols) from each lane's fragment elements (e, lanes)."""
    rows, cols = positions
    matrix = np.zeros((len(warps), *shape), np.float64)
    per_warp = fragments[:, warps].astype(np.float64)  # (e, warps, 32)
    for e in range(fragments.shape[0]):
        matrix[:, rows[e], cols[e]] = per_warp[e]
    return matrix


@register("mma.sync")
def sync(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, mma.SyncOp)
    grid = current_grid(interp, op)
    (a, a_at), (b, b_at), (c, c_at) = _split_operands(op, args)
    warps = _warp_lanes(op, grid)
    m, n, k = op.shape
    a_count, b_count, c_count = op.fragments
    a_positions, b_positions, c_positions = _POSITIONS[op.rounds_to_tf32]
    a_fragments = _read_run(op, grid, a, a_at, a_count)
    b_fragments = _read_run(op, grid, b, b_at, b_count)
    if op.rounds_to_tf32:
        # What `cvt.rna.tf32.f32` hands the tensor cores; TF32 products are
        # exact in float64 too.
        a_fragments, b_fragments = to_tf32(a_fragments), to_tf32(b_fragments)
    a_matrix = _gather_matrix(a_fragments, a_positions, (m, k), warps)
    b_matrix = _gather_matrix(b_fragments, b_positions, (k, n), warps)
    c_fragments = _read_run(op, grid, c, c_at, c_count)
    c_matrix = _gather_matrix(c_fragments, c_positions, (m, n), warps)
    product = (c_matrix + a_matrix @ b_matrix).astype(np.float32)
    result = c_fragments.astype(np.float32)
    rows, cols = c_positions
    for e in range(c_count):
        result[e][warps] = product[:, rows[e], cols[e]]
    _write_run(op, grid, c, c_at, result)
    return ()


# --------------------------------------------------------------------------
# Asynchronous copies
# --------------------------------------------------------------------------


@dataclass
class _Pending(Generic[Work]):
    work: Work
    lanes: np.ndarray  # bool per lane: the lanes that issued it and have not waited
    group: np.ndarray  # per lane: the group it belongs to


@dataclass
class _AsyncGroups(Generic[Work]):
    """The asynchronous work (cp.async copies, warpgroup products) each
    thread of a grid has issued in commit groups and not yet waited for."""

    committed: np.ndarray  # per lane: groups committed so far
    pending: list[_Pending[Work]] = field(default_factory=list)

    @classmethod
    def of(
        cls, states: WeakKeyDictionary[Grid, _AsyncGroups[Work]], grid: Grid
    ) -> _AsyncGroups[Work]:
        """The grid's state in `states`, made on first use."""
        state = states.get(grid)
        if state is None:
            state = cls(np.zeros(grid.lane_count, np.int64))
            states[grid] = state
        return state

    def issue(self, work: Work, grid: Grid) -> None:
        """The active lanes issue `work` into their open group."""
        self.pending.append(_Pending(work, grid.active.copy(), self.committed.copy()))

    def commit(self, grid: Grid) -> None:
        """The active lanes close their open group."""
        self.committed[grid.active] += 1

    def wait(
        self, grid: Grid, pending_groups: int, complete: Callable[[Work], None]
    ) -> None:
        """Completes, in issue order and in each active lane, the work of
        every group but the newest `pending_groups` committed ones (work not
        yet committed stays): `complete` runs restricted to those lanes."""
        limit = self.committed - pending_groups
        remaining: list[_Pending[Work]] = []
        for item in self.pending:
            done = item.lanes & grid.active & (item.group < limit)
            if done.any():
                with grid.restricted(done):
                    complete(item.work)
                item.lanes = item.lanes & ~done
            if item.lanes.any():
                remaining.append(item)
        self.pending = remaining


@dataclass
class _PendingCopy:
    op: Operation
    destination: MemRefValue
    indices: list[Any]
    values: np.ndarray  # (elements, lanes), read when issued


_COPIES: WeakKeyDictionary[Grid, _AsyncGroups[_PendingCopy]] = WeakKeyDictionary()


@register("mma.cp_async")
def cp_async(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, mma.CpAsyncOp)
    grid = current_grid(interp, op)
    has_valid = op.valid_bytes is not None
    operands = args[:-1] if has_valid else args
    (source, source_at), (destination, destination_at) = _split_operands(op, operands)
    if has_valid:
        values = _read_valid_run(op, grid, source, source_at, args[-1])
    else:
        values = _read_run(op, grid, source, source_at, op.element_count)
    # The copy may land any time before its wait: from now on its bytes
    # are this thread's writes for the race checks.
    for k in range(op.element_count):
        grid.reserve(op, destination, _shifted(destination_at, k))
    copy = _PendingCopy(
        op, destination, [np.array(_full(i, grid)) for i in destination_at], values
    )
    _AsyncGroups.of(_COPIES, grid).issue(copy, grid)
    return ()


def _read_valid_run(
    op: mma.CpAsyncOp,
    grid: Grid,
    source: MemRefValue,
    source_at: list[Any],
    valid_bytes: Any,
) -> np.ndarray:
    """(elements, lanes): what a zero-filling copy writes, each lane's
    first `valid_bytes` read from its index on and zeros after them. Every
    lane's source address must be a valid one (inside the operand), even
    one that reads nothing, as the hardware's must."""
    count = op.element_count
    size = op.copy_bytes // count
    valid = _full(np.asarray(valid_bytes, np.int64), grid)
    wrong = grid.active & ((valid < 0) | (valid > op.copy_bytes) | (valid % size != 0))
    if wrong.any():
        lane = int(np.flatnonzero(wrong)[0])
        raise interpretation_error(
            op,
            f"copies {int(valid[lane])} valid bytes of {op.copy_bytes} (whole "
            f"elements of {size} bytes) in {grid.describe_lane(lane)}",
        )
    grid.load(op, source, source_at)  # the address, checked
    elements = valid // size
    runs = []
    for k in range(count):
        with grid.restricted(elements > k):
            runs.append(_full(grid.load(op, source, _shifted(source_at, k)), grid))
    values = np.stack(runs)
    return np.where(elements[None, :] > np.arange(count)[:, None], values, 0).astype(
        values.dtype
    )


@register("mma.cp_async_commit")
def cp_async_commit(interp: Interpreter, op: Operation, args: Values) -> Values:
    grid = current_grid(interp, op)
    _AsyncGroups.of(_COPIES, grid).commit(grid)
    return ()


@register("mma.cp_async_wait")
def cp_async_wait(interp: Interpreter, op: Operation, args: Values) -> Values:
    """Completes, in each waiting thread, the copies of every group but its
    newest `pending` committed ones (a copy not yet committed stays)."""
    assert isinstance(op, mma.CpAsyncWaitOp)
    grid = current_grid(interp, op)

    def land(copy: _PendingCopy) -> None:
        _write_run(copy.op, grid, copy.destination, copy.indices, copy.values)

    _AsyncGroups.of(_COPIES, grid).wait(grid, op.pending_groups, land)
    return ()


# --------------------------------------------------------------------------
# Tensor Memory Accelerator copies and mbarriers
# --------------------------------------------------------------------------


@dataclass
class _PendingTma:
    destination: MemRefValue
    positions: np.ndarray  # in the destination's buffer
    values: np.ndarray  # read when issued (zeros outside the source)


@dataclass
class _Mbarrier:
    """One mbarrier of one block: its phase and what the phase waits for."""

    count: int
    phase: int = 0
    arrived: int = 0
    expected_bytes: int = 0
    issued_bytes: int = 0
    copies: list[_PendingTma] = field(default_factory=list)

    def complete(self) -> bool:
        """Whether the open phase has every arrival and byte it waits for."""
        return self.arrived == self.count and self.issued_bytes == self.expected_bytes


_BARRIERS: WeakKeyDictionary[Grid, dict[tuple[int, int], _Mbarrier]] = (
    WeakKeyDictionary()
)


def _barrier_positions(
    op: Operation, grid: Grid, barriers: MemRefValue, indices: list[Any]
) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The (buffer, position) key of the mbarrier each active lane names, and
    those lanes."""
    positions, lanes, _ = grid.positions(op, barriers, indices)
    positions = np.broadcast_to(positions, lanes.shape)
    buffer = id(barriers.buffer)
    return [(buffer, int(p)) for p in positions], lanes


def _state(op: Operation, grid: Grid, key: tuple[int, int]) -> _Mbarrier:
    barrier = _BARRIERS.setdefault(grid, {}).get(key)
    if barrier is None:
        raise interpretation_error(op, "uses an mbarrier no mma.mbarrier_init made")
    return barrier


@register("mma.mbarrier_init")
def mbarrier_init(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, mma.MbarrierInitOp)
    grid = current_grid(interp, op)
    barriers, *indices = args
    keys, _ = _barrier_positions(op, grid, barriers, indices)
    states = _BARRIERS.setdefault(grid, {})
    for key in keys:
        states[key] = _Mbarrier(op.arrivals)
    return ()


@register("mma.mbarrier_arrive_expect_tx")
def mbarrier_arrive_expect_tx(
    interp: Interpreter, op: Operation, args: Values
) -> Values:
    assert isinstance(op, mma.MbarrierArriveExpectTxOp)
    grid = current_grid(interp, op)
    barriers, *indices = args
    keys, _ = _barrier_positions(op, grid, barriers, indices)
    for key in keys:
        barrier = _state(op, grid, key)
        if barrier.arrived == barrier.count:
            raise interpretation_error(
                op, "arrives on an mbarrier phase that has all its arrivals"
            )
        barrier.arrived += 1
        barrier.expected_bytes += op.expected_bytes
    return ()


@register("mma.mbarrier_wait")
def mbarrier_wait(interp: Interpreter, op: Operation, args: Values) -> Values:
    """In lockstep every arrival and copy a phase waits for was issued
    before the wait, so a phase that is not complete never will be (on the
    GPU, the threads would wait forever): an error. Completing a phase lands
    its copies."""
    assert isinstance(op, mma.MbarrierWaitOp)
    grid = current_grid(interp, op)
    barriers, *indices, parity = args
    keys, lanes = _barrier_positions(op, grid, barriers, indices)
    parities = np.broadcast_to(grid.take(np.asarray(parity, np.int64)), lanes.shape)
    for k, key in enumerate(keys):
        barrier = _state(op, grid, key)
        if barrier.phase % 2 != parities[k] % 2:
            continue  # that phase completed before
        if not barrier.complete():
            raise interpretation_error(
                op,
                f"waits in {grid.describe_lane(int(lanes[k]))} for an mbarrier "
                f"phase that never completes ({barrier.arrived} of "
                f"{barrier.count} arrivals, {barrier.issued_bytes} of "
                f"{barrier.expected_bytes} bytes)",
            )
        for copy in barrier.copies:
            buffer = copy.destination.buffer
            buffer.data[copy.positions] = copy.values
            buffer.written[copy.positions] = True
        barrier.copies = []
        barrier.phase += 1
        barrier.arrived = barrier.expected_bytes = barrier.issued_bytes = 0
    return ()


def _box_positions(
    memref: MemRefValue, grid: Grid, indices: list[Any], box: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """(lanes, box elements) positions of the box from each active lane's
    index in `memref`, and whether each lies inside it."""
    lanes = grid.active_lane_numbers()
    grids = np.meshgrid(*(np.arange(size) for size in box), indexing="ij")
    positions = np.full((lanes.size, grids[0].size), memref.offset, np.int64)
    if memref.lanes is not None:
        positions += grid.take(memref.lanes)[:, None]
    inside = np.ones(positions.shape, np.bool_)
    for index, extent, stride, offsets in zip(
        indices, memref.shape, memref.strides, grids, strict=True
    ):
        start = np.broadcast_to(grid.take(np.asarray(index, np.int64)), lanes.shape)
        at = start[:, None] + offsets.reshape(1, -1)
        inside &= (at >= 0) & (at < extent)
        positions += np.clip(at, 0, extent - 1) * stride
    return positions, inside


@register("mma.tma_load")
def tma_load(interp: Interpreter, op: Operation, args: Values) -> Values:
    """Reads the box when issued (zeros outside the source), reserves its
    destination for the race checks from now on (it may land any time
    before the wait), and lands it at the `mma.mbarrier_wait` that sees its
    phase complete."""
    assert isinstance(op, mma.TmaLoadOp)
    grid = current_grid(interp, op)
    (source, source_at), (tile, tile_at), (barriers, barrier_at) = _split_operands(
        op, args
    )
    box = op.box_shape
    read, inside = _box_positions(source, grid, source_at, box)
    unwritten = inside & ~source.buffer.written[read]
    if unwritten.any():
        raise interpretation_error(
            op, f"reads a box of a buffer nothing wrote ({source.buffer.origin})"
        )
    values = np.where(inside, source.buffer.data[read], 0).astype(source.dtype)
    # The box's rows land as the tile's rows from the named one on, each
    # 128-byte row swizzled by its row in the tile.
    rows, columns = box[-2], box[-1]
    chunk = mma.SWIZZLE_CHUNK_BYTES // tile.dtype.itemsize
    *leading, first_row, first_column = tile_at
    row = np.arange(rows)[:, None] + np.zeros((1, columns), np.int64)
    column = np.arange(columns)[None, :] + np.zeros((rows, 1), np.int64)
    lanes = grid.active_lane_numbers()
    start = np.broadcast_to(grid.take(np.asarray(first_row, np.int64)), lanes.shape)
    tile_row = start[:, None] + row.reshape(1, -1)
    stored = mma.swizzled_chunk(tile_row, column.reshape(1, -1) // chunk)
    tile_column = stored * chunk + column.reshape(1, -1) % chunk
    if np.any(np.asarray(first_column) != 0):
        raise interpretation_error(op, "must land at the first column of tile rows")
    if ((tile_row < 0) | (tile_row >= tile.shape[-2])).any():
        raise interpretation_error(op, "lands rows past the end of its tile")
    positions = np.full(tile_row.shape, tile.offset, np.int64)
    if tile.lanes is not None:
        positions += grid.take(tile.lanes)[:, None]
    taken: list[np.ndarray] = []
    for index, stride in zip(leading, tile.strides[:-2], strict=True):
        at = np.broadcast_to(grid.take(np.asarray(index, np.int64)), lanes.shape)
        positions += at[:, None] * stride
        taken.append(np.repeat(at, rows * columns))
    positions += tile_row * tile.strides[-2] + tile_column * tile.strides[-1]
    flat_lanes = np.repeat(lanes, rows * columns)
    grid.reserve_positions(
        op,
        tile,
        positions.reshape(-1),
        flat_lanes,
        [*taken, tile_row.reshape(-1), tile_column.reshape(-1)],
    )
    keys, _ = _barrier_positions(op, grid, barriers, barrier_at)
    for k, key in enumerate(keys):
        barrier = _state(op, grid, key)
        barrier.copies.append(_PendingTma(tile, positions[k], values[k]))
        barrier.issued_bytes += op.copy_bytes
    return ()


# --------------------------------------------------------------------------
# Warpgroup products
# --------------------------------------------------------------------------


def _warpgroup_accumulator_positions(n: int) -> Positions:
    """Rows and columns of the m64nN `D` that thread `t` of a warpgroup
    holds as its element `i` (PTX ISA, "Matrix Fragments for
    wgmma.mma_async.m64nNk16", accumulator D), as arrays over (i, t)."""
    thread = np.arange(mma.WARPGROUP_THREADS)
    warp, lane = thread // WARP_SIZE, thread % WARP_SIZE
    group, pair = lane // 4, lane % 4
    i = np.arange(mma.warpgroup_accumulator_count(n))[:, None]
    rows = 16 * warp + group + 8 * ((i // 2) % 2)
    cols = 8 * (i // 4) + 2 * pair + i % 2
    return rows, cols


@dataclass
class _PendingProduct:
    op: mma.WarpgroupMmaOp
    operands: list[tuple[MemRefValue, list[np.ndarray]]]  # a, b, d per lane


_PRODUCTS: WeakKeyDictionary[Grid, _AsyncGroups[_PendingProduct]] = WeakKeyDictionary()


def _check_uniform(
    op: Operation, grid: Grid, groups: np.ndarray, indices: list[np.ndarray]
) -> None:
    """Every thread of a warpgroup names the same operand."""
    for index in indices:
        per_group = index[groups]
        differs = (per_group != per_group[:, :1]).any(axis=1)
        if differs.any():
            group = int(np.flatnonzero(differs)[0])
            lane = int(
                groups[group][
                    np.flatnonzero(per_group[group] != per_group[group, 0])[0]
                ]
            )
            raise interpretation_error(
                op,
                f"names another operand in {grid.describe_lane(lane)} than in the "
                "rest of its warpgroup",
            )


def _read_swizzled(
    op: Operation,
    grid: Grid,
    tile: MemRefValue,
    at: list[np.ndarray],
    logical: Any,
    count: int,
) -> np.ndarray:
    """(lanes, count): element `p` of each warpgroup's operand, read by
    thread `p % 128` of the group at the tile index `logical(p)` gives
    (leading indices, row, logical column), the column through the
    swizzle."""
    chunk_elements = mma.SWIZZLE_CHUNK_BYTES // tile.buffer.data.dtype.itemsize
    thread = grid.thread_of_lane % mma.WARPGROUP_THREADS
    values = []
    for first in range(0, count, mma.WARPGROUP_THREADS):
        *leading, row, column = logical(at, first + thread)
        chunk = mma.swizzled_chunk(row, column // chunk_elements)
        physical = chunk * chunk_elements + column % chunk_elements
        values.append(_full(grid.load(op, tile, [*leading, row, physical]), grid))
    return np.stack(values, axis=1)  # (lanes, count / 128)


def _operand_matrix(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """(groups, elements) in `p` order from the per-lane reads of
    `_read_swizzled`: element `p` is column `p / 128` of thread `p % 128`."""
    per_group = values[groups].astype(np.float64)  # (groups, 128, count / 128)
    return per_group.transpose(0, 2, 1).reshape(len(groups), -1)


def _run_product(grid: Grid, product: _PendingProduct) -> None:
    op = product.op
    (a, a_at), (b, b_at), (d, d_at) = product.operands
    groups = _warp_lanes(op, grid, mma.WARPGROUP_THREADS, "warpgroup")
    m, k, n = mma.WARPGROUP_M, op.depth, op.columns

    def a_element(at: list[np.ndarray], p: np.ndarray) -> list[Any]:
        # A (i, kk) at p = k i + kk (k: 16, or 8 for tf32): the tile's
        # logical (r + i, c + kk).
        *leading, row, column = at
        return [*leading, row + p // k, column + p % k]

    a_matrix = _operand_matrix(
        _read_swizzled(op, grid, a, a_at, a_element, m * k), groups
    ).reshape(-1, m, k)
    if op.b_transposed:

        def b_element(at: list[np.ndarray], p: np.ndarray) -> list[Any]:
            # B (kk, j) at p = N kk + j: row r + kk of panel p0 + j / 64.
            *leading, panel, row, column = at
            j = column + p % n
            return [*leading, panel + j // 64, row + p // n, j % 64]

        b_matrix = _operand_matrix(
            _read_swizzled(op, grid, b, b_at, b_element, k * n), groups
        ).reshape(-1, k, n)
    else:

        def b_element(at: list[np.ndarray], p: np.ndarray) -> list[Any]:
            # B (kk, j) at p = k j + kk: the tile's logical (r + j, c + kk).
            *leading, row, column = at
            return [*leading, row + p // k, column + p % k]

        b_matrix = (
            _operand_matrix(_read_swizzled(op, grid, b, b_at, b_element, n * k), groups)
            .reshape(-1, n, k)
            .transpose(0, 2, 1)
        )
    if op.reads_tf32:
        # The tensor cores drop each f32 operand's low 13 mantissa bits;
        # TF32 products are exact in float64.
        a_matrix = truncate_to_tf32(a_matrix.astype(np.float32)).astype(np.float64)
        b_matrix = truncate_to_tf32(b_matrix.astype(np.float32)).astype(np.float64)
    count = mma.warpgroup_accumulator_count(n)
    fragments = _read_run(op, grid, d, d_at, count)  # (count, lanes)
    rows, cols = _warpgroup_accumulator_positions(n)
    d_matrix = np.zeros((len(groups), m, n), np.float64)
    per_group = fragments[:, groups].astype(np.float64)  # (count, groups, 128)
    for i in range(count):
        d_matrix[:, rows[i], cols[i]] = per_group[i]
    result_matrix = (d_matrix + a_matrix @ b_matrix).astype(np.float32)
    result = fragments.astype(np.float32)
    for i in range(count):
        result[i][groups] = result_matrix[:, rows[i], cols[i]]
    _write_run(op, grid, d, d_at, result)


@register("mma.warpgroup_mma")
def warpgroup_mma(interp: Interpreter, op: Operation, args: Values) -> Values:
    assert isinstance(op, mma.WarpgroupMmaOp)
    grid = current_grid(interp, op)
    groups = _warp_lanes(op, grid, mma.WARPGROUP_THREADS, "warpgroup")
    operands = [
        (memref, [np.array(_full(i, grid), np.int64) for i in indices])
        for memref, indices in _split_operands(op, args)
    ]
    for _, indices in operands[:2]:
        _check_uniform(op, grid, groups, indices)
    _AsyncGroups.of(_PRODUCTS, grid).issue(_PendingProduct(op, operands), grid)
    return ()


@register("mma.warpgroup_fence")
def warpgroup_fence(interp: Interpreter, op: Operation, args: Values) -> Values:
    _warp_lanes(op, current_grid(interp, op), mma.WARPGROUP_THREADS, "warpgroup")
    return ()


@register("mma.fence_proxy_async")
def fence_proxy_async(interp: Interpreter, op: Operation, args: Values) -> Values:
    # The emulator has one view of workgroup memory: nothing to order.
    return ()


@register("mma.warpgroup_commit")
def warpgroup_commit(interp: Interpreter, op: Operation, args: Values) -> Values:
    grid = current_grid(interp, op)
    _warp_lanes(op, grid, mma.WARPGROUP_THREADS, "warpgroup")
    _AsyncGroups.of(_PRODUCTS, grid).commit(grid)
    return ()


@register("mma.warpgroup_wait")
def warpgroup_wait(interp: Interpreter, op: Operation, args: Values) -> Values:
    """Runs, in issue order, each waiting warpgroup's products of every group
    but its newest `pending` committed ones."""
    assert isinstance(op, mma.WarpgroupWaitOp)
    grid = current_grid(interp, op)
    _warp_lanes(op, grid, mma.WARPGROUP_THREADS, "warpgroup")
    _AsyncGroups.of(_PRODUCTS, grid).wait(
        grid, op.pending_groups, lambda product: _run_product(grid, product)
    )
    return ()
