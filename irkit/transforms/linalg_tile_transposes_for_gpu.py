"""`linalg-tile-transposes-for-gpu`: transposes through workgroup memory.

`linalg-tile-for-gpu` gives an elementwise op one thread per output element,
consecutive threads along the output's innermost dimension. For a transpose
(`out[j, i] = in[i, j]`) the reads are then strided: each thread of a warp
reads its own 32-byte sector, and a 4096^2 f32 transpose took 159 us on the
H100 against 55 us for a copy. This pass gives such an op the classic tiled
kernel instead (NVIDIA's `transposeCoalesced`; what Triton and Inductor do
with a block's `tl.trans` in shared memory): a block reads a `T x T` tile
coalesced along the input's innermost dimension into workgroup memory, waits
at a barrier, and writes it coalesced along the output's innermost one.

```mlir
scf.forall (%j0, %i0) = (0, 0) to (J, I) step (T, T) {   // (+ batch on z)
  %tile = memref.alloc() : memref<T x (T + pad) x f32, #gpu.address_space<workgroup>>
  scf.forall (%ty, %tx) in (R, T) {          // read: tx along the input's rows
    // k = 0 .. T/R - 1, r = ty + R k:      (under scf.if where T divides no extent)
    %v = memref.load %in[..., i0 + r, ..., j0 + tx]
    memref.store %v, %tile[r, tx]
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  scf.forall (%ty, %tx) in (R, T) {          // write: tx along the output's rows
    %e = memref.load %tile[tx, r]             // a column: rows T + pad apart
    ... the op's body on %e (a scale, a cast, other operands loaded) ...
    memref.store %y, %out[..., j0 + r, ..., i0 + tx]
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
} {mapping = [#gpu.block<y>, #gpu.block<x>]}
```

`convert-parallel-loops-to-gpu` puts the barrier between the two thread
foralls. Rows are padded so that the write phase's column reads (`tile[tx,
r]`, one row a thread) fall in distinct banks: by one element for 4- and
8-byte elements (rows 33 words apart at T = 32; 8-byte ones conflict-free
per half warp), by 4 / bytes for narrower ones, so that a row is an odd
number of 4-byte words.

Contract
--------
Input: linalg on memrefs with static shapes (after `bufferize`), before
`linalg-tile-for-gpu` (which leaves ops in mapped foralls alone). An op is a
*transpose* when it is a `linalg.generic` (or a `linalg.transpose`,
generalized first) whose loops are all parallel, with one output read and
written through a permutation of all loops, and at least one input read
through a permutation of all loops whose innermost loop `j` is not the
output's innermost loop `i` (a *staged* input; all of them share `j`). Every
other input is a scalar or a memref read through a projected permutation
that ends in `i` or does not use `i` (a residual, a per-row scale: read in
the write phase, coalesced or broadcast). A staged input must not alias
the output (`irkit.analysis.aliasing.may_alias`: one block's writes would
reach another's reads). The body may be any scalar computation (a cast, a
scale, `linalg.index`). Both extents `I` and `J` are at least 2. Left
alone: anything else, an op inside a mapped forall, a contraction's
fusable epilogue or staged producer (which `linalg-tile-for-gpu` runs
inside the contraction's kernel), ops whose tiles would not fit
`max-shared-bytes`, and grids past CUDA's limits (more than 65535 tiles
along `j` or batch elements).

Output: per transpose, one block forall over `ceil(J/T) x ceil(I/T)` tiles
(blocks y, x) and the product of the other loops (blocks z, split back
into them), holding one workgroup tile per staged input and the two thread
foralls above (`R x T` threads, `T/R` elements a thread per phase). Where
`T` does not divide `I` or `J`, each element's load and store runs under an
`scf.if` on its indices (ragged edge tiles, predicated).

Preserves: the value of every output element (each is computed once, by
the op's own body, from the same operand elements); no element outside the
output is written. Options: `tile` (T, 32: a warp's width) and `rows` (R, 8)
must be positive, `rows` must divide `tile` and `tile x rows` threads fit
`max-threads-per-block` (1024); `max-shared-bytes` non-negative; else the
pass fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import may_alias
from irkit.analysis.contraction_fusion import (
    fusable_epilogue,
    fusable_staged_producers,
)
from irkit.analysis.gpu_mapping import in_gpu_loops
from irkit.analysis.memory import DEFAULT_MAX_SHARED_BYTES, element_bytes
from irkit.analysis.structured import is_contraction
from irkit.dialects import memref
from irkit.dialects.gpu import BlockMappingAttr, DimensionEnum, ThreadMappingAttr
from irkit.dialects.scf import ForallOp, IfOp, InParallelOp
from irkit.transforms.utils.builders import workgroup_alloc
from irkit.transforms.utils.generalization import generalize_named_op

PASS_NAME = "linalg-tile-transposes-for-gpu"

# CUDA's limit on grid y and z.
MAX_GRID_YZ = 65535
# Every NVIDIA GPU since Kepler: a block's default limit, which
# `lower-to-cuda` replaces by the device's (`max-threads-per-block`).
MAX_THREADS_PER_BLOCK = 1024
# Shared memory banks are 4 bytes wide (every NVIDIA GPU since Maxwell).
BANK_BYTES = 4


def row_padding(element_type: Attribute) -> int:
    """Elements a tile's rows are padded by: one for 4- and 8-byte elements,
    4 / bytes for narrower ones, so that rows start an odd number of banks
    apart and a warp's column reads fall in distinct banks."""
    size = element_bytes(element_type) or BANK_BYTES
    return max(1, BANK_BYTES // size)


# --------------------------------------------------------------------------
# Which ops are transposes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TransposePlan:
    """One transpose: its loops' extents, the output's innermost loop `inner`
    (threads x when writing), the staged inputs' innermost loop `staged_inner`
    (threads x when reading), the staged input positions and the other
    loops (`batch`, outermost first)."""

    op: GenericOp
    extents: tuple[int, ...]
    inner: int
    staged_inner: int
    staged: tuple[int, ...]
    batch: tuple[int, ...]

    @property
    def batch_count(self) -> int:
        return prod(self.extents[loop] for loop in self.batch)


def _loops_of(indexing_map: AffineMap) -> list[int] | None:
    """The loops a map's results are, when each is a bare loop, at most once."""
    loops = [e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    if len(loops) != len(indexing_map.results) or len(set(loops)) != len(loops):
        return None
    return loops


def _static_buffer(value: SSAValue) -> MemRefType[Attribute] | None:
    memref_type = value.type
    if (
        isinstance(memref_type, MemRefType)
        and memref_type.has_static_shape()
        and memref_type.memory_space == NoneAttr()
    ):
        return memref_type
    return None


def _element_type(buffer: SSAValue) -> Attribute:
    return cast(MemRefType[Attribute], buffer.type).get_element_type()


def _staged_inputs(op: GenericOp, inner: int) -> dict[int, int] | None:
    """Per staged input position of `op`, its innermost loop (`inner`: the
    output's); None when an input is neither staged, a scalar, nor read
    along the output's rows or across them."""
    maps = [attr.data for attr in op.indexing_maps]
    count = len(op.iterator_types)
    staged: dict[int, int] = {}
    for position, operand in enumerate(op.inputs):
        if not isinstance(operand.type, MemRefType):
            continue  # a scalar
        loops = _loops_of(maps[position])
        if _static_buffer(operand) is None or loops is None:
            return None
        if len(loops) == count and loops[-1] != inner:
            if may_alias(operand, op.outputs[0]):
                return None  # other blocks' tiles may overwrite what it reads
            staged[position] = loops[-1]
        elif loops and inner in loops and loops[-1] != inner:
            return None  # read strided along the written rows
    return staged


def _tile_bytes(op: GenericOp, staged: Sequence[int], tile: int) -> int | None:
    """The workgroup bytes of the staged inputs' padded tiles."""
    total = 0
    for position in staged:
        element = _element_type(op.inputs[position])
        size = element_bytes(element)
        if size is None:
            return None
        total += tile * (tile + row_padding(element)) * size
    return total


def match_transpose(
    op: GenericOp, tile: int, max_shared_bytes: int
) -> TransposePlan | None:
    """The plan of `op` when it is a transpose this pass tiles (see the
    module docstring), within `max_shared_bytes` of `tile`-square tiles."""
    count = len(op.iterator_types)
    if count < 2 or len(op.outputs) != 1 or in_gpu_loops(op):
        return None
    if any(kind.data != IteratorType.PARALLEL for kind in op.get_iterator_types()):
        return None
    output_type = _static_buffer(op.outputs[0])
    output_loops = _loops_of(op.indexing_maps.data[-1].data)
    if output_type is None or output_loops is None or len(output_loops) != count:
        return None
    extents = [0] * count
    for loop, extent in zip(output_loops, output_type.get_shape(), strict=True):
        extents[loop] = extent
    inner = output_loops[-1]
    staged = _staged_inputs(op, inner)
    if staged is None or len(set(staged.values())) != 1:
        return None
    j = next(iter(staged.values()))
    if extents[inner] < 2 or extents[j] < 2:
        return None
    batch = tuple(loop for loop in range(count) if loop not in (inner, j))
    plan = TransposePlan(op, tuple(extents), inner, j, tuple(staged), batch)
    if -(-extents[j] // tile) > MAX_GRID_YZ or plan.batch_count > MAX_GRID_YZ:
        return None
    shared = _tile_bytes(op, plan.staged, tile)
    return plan if shared is not None and shared <= max_shared_bytes else None


def fused_elsewhere(module: ModuleOp) -> set[Operation]:
    """The ops `linalg-tile-for-gpu` runs inside a contraction's kernel (its
    epilogue, its staged operand producers): left to it."""
    fused: set[Operation] = set()
    for op in module.walk():
        if not isinstance(op, GenericOp) or not is_contraction(op):
            continue
        epilogue = fusable_epilogue(op)
        if epilogue is not None:
            fused.add(epilogue)
        fused.update(
            staged.producer for staged in fusable_staged_producers(op).values()
        )
    return fused


# --------------------------------------------------------------------------
# Building the kernel
# --------------------------------------------------------------------------


class _Builder:
    """Appends ops before an insertion point; index constants and arithmetic."""

    def __init__(self, at: InsertPoint) -> None:
        self.at = at
        self._constants: dict[int, SSAValue] = {}

    def add(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.at)
        return op

    def const(self, value: int) -> SSAValue:
        if value not in self._constants:
            constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self._constants[value] = self.add(constant).results[0]
        return self._constants[value]

    def binary(
        self, kind: type[arith.SignlessIntegerBinaryOperation], a: SSAValue, b: SSAValue
    ) -> SSAValue:
        return self.add(kind(a, b)).results[0]

    def offset(self, base: SSAValue, value: SSAValue | int) -> SSAValue:
        if isinstance(value, int):
            if value == 0:
                return base
            value = self.const(value)
        return self.binary(arith.AddiOp, base, value)

    def below(self, value: SSAValue, bound: int) -> SSAValue:
        return self.add(arith.CmpiOp(value, self.const(bound), "ult")).results[0]


def _forall(
    uppers: Sequence[int],
    steps: Sequence[int],
    mapping: Sequence[Attribute],
    hints: Sequence[str],
) -> tuple[ForallOp, InsertPoint]:
    block = Block(arg_types=[IndexType()] * len(uppers))
    for arg, hint in zip(block.args, hints, strict=True):
        arg.name_hint = hint
    terminator = InParallelOp()
    block.add_op(terminator)
    forall = ForallOp(
        [0] * len(uppers),
        list(uppers),
        list(steps),
        Region(block),
        (),
        ArrayAttr(mapping),
    )
    return forall, InsertPoint.before(terminator)


def _thread_forall(tile: int, rows: int) -> tuple[ForallOp, InsertPoint]:
    return _forall(
        [rows, tile],
        [1, 1],
        [ThreadMappingAttr(DimensionEnum.Y), ThreadMappingAttr(DimensionEnum.X)],
        ["ty", "tx"],
    )


@dataclass
class _TransposeKernel:
    """Builds one transpose's block forall (see the module docstring)."""

    plan: TransposePlan
    tile: int
    rows: int

    def build(self) -> ForallOp:
        plan, tile = self.plan, self.tile
        extents = plan.extents
        uppers = [extents[plan.staged_inner], extents[plan.inner]]
        steps = [tile, tile]
        mapping: list[Attribute] = [
            BlockMappingAttr(DimensionEnum.Y),
            BlockMappingAttr(DimensionEnum.X),
        ]
        hints = ["j0", "i0"]
        if plan.batch:
            uppers.insert(0, plan.batch_count)
            steps.insert(0, 1)
            mapping.insert(0, BlockMappingAttr(DimensionEnum.Z))
            hints.insert(0, "batch")
        grid, at = _forall(uppers, steps, mapping, hints)
        builder = _Builder(at)
        *batch_index, j0, i0 = grid.body.block.args
        tiles = {
            position: workgroup_alloc(
                element,
                [tile, tile + row_padding(element)],
                "tile",
                at,
            )
            for position in plan.staged
            for element in [_element_type(plan.op.inputs[position])]
        }
        loop_values = self._batch_values(builder, batch_index)
        # Two thread foralls: convert-parallel-loops-to-gpu puts the barrier
        # between them (every tile element written before any is read).
        reading = _thread_forall(self.tile, self.rows)
        writing = _thread_forall(self.tile, self.rows)
        builder.add(reading[0])
        builder.add(writing[0])
        self._read_phase(reading, tiles, loop_values, i0, j0)
        self._write_phase(writing, tiles, loop_values, i0, j0)
        return grid

    def _batch_values(
        self, builder: _Builder, batch_index: Sequence[SSAValue]
    ) -> dict[int, SSAValue]:
        """The batch loops' values from the linear block index z (innermost
        loop fastest)."""
        if not batch_index:
            return {}
        (linear,) = batch_index
        values: dict[int, SSAValue] = {}
        remaining = linear
        for position, loop in enumerate(reversed(self.plan.batch)):
            extent = self.plan.extents[loop]
            last = position == len(self.plan.batch) - 1
            if last:
                values[loop] = remaining
                break
            values[loop] = builder.binary(
                arith.RemUIOp, remaining, builder.const(extent)
            )
            remaining = builder.binary(arith.DivUIOp, remaining, builder.const(extent))
        return values

    def _inside(
        self, builder: _Builder, value: SSAValue, bound: int
    ) -> SSAValue | None:
        """`value < bound`, or None where the tile divides `bound` (no
        ragged edge: every index is inside)."""
        return None if bound % self.tile == 0 else builder.below(value, bound)

    @staticmethod
    def _guarded(builder: _Builder, conditions: Sequence[SSAValue | None]) -> _Builder:
        """A builder inside an `scf.if` on all `conditions` (the builder
        itself when there are none)."""
        inside: SSAValue | None = None
        for condition in conditions:
            if condition is not None:
                inside = (
                    condition
                    if inside is None
                    else builder.binary(arith.AndIOp, inside, condition)
                )
        if inside is None:
            return builder
        then = Block()
        terminator = YieldOp()
        then.add_op(terminator)
        builder.add(IfOp(inside, [], Region(then)))
        return _Builder(InsertPoint.before(terminator))

    def _indices(
        self, position: int, loop_values: dict[int, SSAValue]
    ) -> list[SSAValue]:
        indexing_map = self.plan.op.indexing_maps.data[position].data
        loops = _loops_of(indexing_map)
        assert loops is not None
        return [loop_values[loop] for loop in loops]

    def _read_phase(
        self,
        threads_forall: tuple[ForallOp, InsertPoint],
        tiles: dict[int, SSAValue],
        batch_values: dict[int, SSAValue],
        i0: SSAValue,
        j0: SSAValue,
    ) -> None:
        """Threads x along the staged inputs' rows (loop j): `tile[r, tx] =
        in[i0 + r, j0 + tx]`, r = ty + R k."""
        plan = self.plan
        forall, at = threads_forall
        ty, tx = forall.body.block.args
        threads = _Builder(at)
        j = threads.offset(j0, tx)
        j_inside = self._inside(threads, j, plan.extents[plan.staged_inner])
        for k in range(self.tile // self.rows):
            r = threads.offset(ty, self.rows * k)
            i = threads.offset(i0, r)
            values = {**batch_values, plan.inner: i, plan.staged_inner: j}
            i_inside = self._inside(threads, i, plan.extents[plan.inner])
            inner = self._guarded(threads, [i_inside, j_inside])
            for position, tile in tiles.items():
                load = memref.LoadOp.get(
                    plan.op.inputs[position], self._indices(position, values)
                )
                inner.add(load)
                inner.add(memref.StoreOp.get(load.res, tile, [r, tx]))

    def _write_phase(
        self,
        threads_forall: tuple[ForallOp, InsertPoint],
        tiles: dict[int, SSAValue],
        batch_values: dict[int, SSAValue],
        i0: SSAValue,
        j0: SSAValue,
    ) -> None:
        """Threads x along the output's rows (loop i): the op's body on
        `tile[tx, r]` (and the other operands), stored to `out[j0 + r, i0 +
        tx]`."""
        plan = self.plan
        forall, at = threads_forall
        ty, tx = forall.body.block.args
        threads = _Builder(at)
        i = threads.offset(i0, tx)
        i_inside = self._inside(threads, i, plan.extents[plan.inner])
        for k in range(self.tile // self.rows):
            r = threads.offset(ty, self.rows * k)
            j = threads.offset(j0, r)
            values = {**batch_values, plan.inner: i, plan.staged_inner: j}
            j_inside = self._inside(threads, j, plan.extents[plan.staged_inner])
            inner = self._guarded(threads, [i_inside, j_inside])
            self._body(inner, tiles, values, [tx, r])

    def _body(
        self,
        builder: _Builder,
        tiles: dict[int, SSAValue],
        loop_values: dict[int, SSAValue],
        tile_indices: list[SSAValue],
    ) -> None:
        """The op's body for one element: staged operands from their tiles,
        the others loaded (or taken as scalars), the result stored."""
        op = self.plan.op
        block = op.body.block
        values: dict[SSAValue, SSAValue] = {}
        for position, (operand, argument) in enumerate(
            zip(op.operands, block.args, strict=True)
        ):
            if not argument.uses:
                continue
            if position in tiles:
                load = memref.LoadOp.get(tiles[position], tile_indices)
            elif isinstance(operand.type, MemRefType):
                load = memref.LoadOp.get(operand, self._indices(position, loop_values))
            else:
                values[argument] = operand
                continue
            builder.add(load)
            values[argument] = load.res
        output = op.outputs[0]
        for body_op in block.ops:
            if isinstance(body_op, LinalgYieldOp):
                (result,) = body_op.operands
                builder.add(
                    memref.StoreOp.get(
                        values.get(result, result),
                        output,
                        self._indices(len(op.inputs), loop_values),
                    )
                )
            elif isinstance(body_op, IndexOp):
                values[body_op.result] = loop_values[body_op.dim.value.data]
            else:
                builder.add(body_op.clone(value_mapper=values))


def tile_transpose(plan: TransposePlan, tile: int, rows: int) -> ForallOp:
    """Replace `plan`'s op with its tiled kernel (inserted in its place)."""
    grid = _TransposeKernel(plan, tile, rows).build()
    Rewriter.replace_op(plan.op, grid, [])
    return grid


# --------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------


def _transpose_candidates(
    module: ModuleOp,
) -> list[tuple[GenericOp, Operation | None]]:
    """The module's generics, and its `linalg.transpose`s on buffers as
    generics inserted before them (the form `match_transpose` reads), each
    with the named op it stands for."""
    candidates: list[tuple[GenericOp, Operation | None]] = []
    for op in list(module.walk()):
        if isinstance(op, GenericOp):
            candidates.append((op, None))
        elif op.name == "linalg.transpose" and all(
            isinstance(operand.type, MemRefType) for operand in op.operands
        ):
            generic = generalize_named_op(op)
            Rewriter.insert_op(generic, InsertPoint.before(op))
            candidates.append((generic, op))
    return candidates


@dataclass(frozen=True)
class LinalgTileTransposesForGpuPass(ModulePass):
    """Transposes as coalesced tiled kernels through workgroup memory (see
    the module docstring). Options: `tile` (T: a tile's side and threads x,
    32), `rows` (R: threads y, 8), `max-shared-bytes` (48 KiB) and
    `max-threads-per-block` (1024), the device's facts."""

    name = "linalg-tile-transposes-for-gpu"

    tile: int = 32
    rows: int = 8
    max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES
    max_threads_per_block: int = MAX_THREADS_PER_BLOCK

    def _check_options(self) -> None:
        if self.tile < 1 or self.rows < 1 or self.tile % self.rows:
            raise PassFailedException(
                f"{PASS_NAME}: rows ({self.rows}) must be positive and divide "
                f"tile ({self.tile})"
            )
        if self.tile * self.rows > self.max_threads_per_block:
            raise PassFailedException(
                f"{PASS_NAME}: tile x rows = {self.tile * self.rows} threads, more "
                f"than {self.max_threads_per_block}"
            )
        if self.max_shared_bytes < 0:
            raise PassFailedException(f"{PASS_NAME}: max-shared-bytes must be >= 0")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self._check_options()
        fused = fused_elsewhere(op)
        for generic, named in _transpose_candidates(op):
            plan = (
                None
                if generic in fused
                else match_transpose(generic, self.tile, self.max_shared_bytes)
            )
            if named is not None:
                # The named op stays where it is not tiled here.
                Rewriter.erase_op(generic if plan is None else named)
            if plan is not None:
                tile_transpose(plan, self.tile, self.rows)
