"""`linalg-tile-and-fuse`: tile linalg ops on memrefs and fuse their neighbours.

In the spirit of MLIR's `scf::tileConsumerAndFuseProducersUsingSCF`
(`mlir/lib/Dialect/SCF/Transforms/TileUsingInterface.cpp`), on buffers, where
irkit's pipelines tile: `linalg-tile-and-fuse{tile-sizes=32,32 parallel=forall}`.

Contract
--------
Input: linalg on memrefs, as `bufferize` leaves it (`docs/abi.md`), with the
indexing maps `linalg-tile` accepts (projected permutations, constant-0
results); anything else is rejected as `linalg-tile` rejects it.

Output: every linalg op is tiled as `linalg-tile` tiles it (`tile-sizes` per
loop, `parallel=parallel|forall`), and some of its neighbours move into its
tile loop. The roots are taken in turn, ops with a reduction loop first, each
group in reverse program order; an op already fused is no root. Into the
innermost body of a root `R`'s tile loop move:

- epilogues (only when every tiled loop of `R` is concurrent, so the body
  completes `R`'s output tile): the first op after `R` that touches `R`'s
  output (then the first after it that touches its output, and so on) when it
  is an all-parallel `linalg.generic` with a permutation output map that
  reads that output only at the tile just computed;
- producers: an all-parallel `linalg.generic` with a permutation output map
  and an unused output block argument that writes a `memref.alloc` buffer
  `B` whose other users are fused ops and `memref.dealloc`s, all of which
  access the same tile of `B` (which must depend on a tiled loop). When `R`
  has sequential tile loops, a buffer that a fused op writes gets no
  producer (it would be recomputed once per reduction tile).

Each fused op is cloned onto the tiles of its operands, through its maps from
the root's tile (loops that the tile does not determine run whole), producers
before `R`, epilogues after it, in program order. A fused producer's buffer,
and the output buffer of a fused op whose other users are fused ops and
deallocs and whose writer does not read it, becomes a tile-sized buffer made
in the tile body: `memref.alloca` of the full tile (a subview of it for a
partial tile) when it fits in 64 KiB, else `memref.alloc` and
`memref.dealloc`; the original `alloc` and its `dealloc`s go.

Legality: an op moves only if no op it passes over (and no op of the group)
writes what it reads, or reads or writes what it writes, with buffers
compared by their allocation (`memref.alloc`, argument, global), since
distinct allocations and ABI arguments never alias. Deallocs a producer passes
over sink below the tile loop; constants and allocs an epilogue uses move
above it. A candidate that fails any condition stays where it is, unfused,
and is tiled as a root of its own. Ops on tensors are tiled as `linalg-tile`
tiles them, without fusion.

Preserves: the value of every output element, and the order in which each
receives its updates (as `linalg-tile`). Fused producers are recomputed for
every tile that reads them (a matmul's A producer once per column tile).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    ModuleOp,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import VIEW_OPS, root_buffer
from irkit.analysis.memory import MAX_STACK_BYTES, element_bytes
from irkit.analysis.structured import StructuredComputation, is_tileable_map
from irkit.diagnostics import op_error
from irkit.dialects import memref
from irkit.transforms.utils.builders import subview_type
from irkit.transforms.utils.generalization import (
    generalize_named_op,
    is_named_linalg_op,
)
from irkit.transforms.utils.tiling import (
    PARALLEL_LOOP_KINDS,
    MemrefTiling,
    Tile,
    effective_tile_sizes,
    offset_indices,
    tile_linalg_op,
    tile_loop_order,
    tile_subview,
)

PASS_NAME = "linalg-tile-and-fuse"


# The tile of one buffer dimension: the tile of a root loop, or all of it.
FULL = -1
Box = tuple[int, ...]


# --------------------------------------------------------------------------
# Buffers and memory effects
# --------------------------------------------------------------------------

_NO_MEMORY_EFFECT = (
    *VIEW_OPS,
    "memref.alloc",
    "memref.alloca",
    "memref.get_global",
    "memref.dim",
)


@dataclass
class _Effects:
    reads: set[SSAValue] = field(default_factory=set)
    writes: set[SSAValue] = field(default_factory=set)

    def touches(self, buffers: set[SSAValue]) -> bool:
        return bool((self.reads | self.writes) & buffers)


def _memrefs(values: Sequence[SSAValue]) -> set[SSAValue]:
    return {root_buffer(v) for v in values if isinstance(v.type, MemRefType)}


def memory_effects(op: Operation) -> _Effects:
    """The buffers `op` reads and writes; unknown ops read and write all theirs."""
    if isinstance(op, GenericOp) or is_named_linalg_op(op):
        outputs = _memrefs(op.operands[len(op.operands) - _output_count(op) :])
        return _Effects(_memrefs(op.operands), outputs)
    if op.name in _NO_MEMORY_EFFECT:
        return _Effects()
    if op.name == "memref.load":
        return _Effects(_memrefs(op.operands))
    if op.name in ("memref.store", "memref.dealloc"):
        return _Effects(set(), _memrefs(op.operands))
    if op.name == "memref.copy":
        return _Effects(_memrefs(op.operands[:1]), _memrefs(op.operands[1:]))
    nested = [operand for inner in op.walk() for operand in inner.operands]
    touched = _memrefs(nested)
    return _Effects(touched, set(touched))


def _output_count(op: Operation) -> int:
    outputs = getattr(op, "outputs", ())
    return len(outputs)


# --------------------------------------------------------------------------
# Fusion groups: which ops move, on which tile
# --------------------------------------------------------------------------


def _static_ranges(generic: GenericOp) -> list[int] | None:
    """Each loop's range from static memref shapes (None if one is unknown)."""
    computation = StructuredComputation.of(generic)
    ranges: list[int | None] = [None] * computation.num_loops
    for operand, indexing_map in zip(
        computation.operands, computation.indexing_maps, strict=True
    ):
        if not isinstance(operand.type, MemRefType):
            continue
        for size, expr in zip(
            operand.type.get_shape(), indexing_map.results, strict=True
        ):
            if isinstance(expr, AffineDimExpr) and size != DYNAMIC_INDEX:
                ranges[expr.position] = size
    if any(size is None for size in ranges):
        return None
    return [size for size in ranges if size is not None]


def _box(indexing_map: AffineMap, assignment: Sequence[int]) -> Box:
    """The tile of an operand: per dimension, the root loop it follows or FULL."""
    return tuple(
        assignment[expr.position] if isinstance(expr, AffineDimExpr) else FULL
        for expr in indexing_map.results
    )


def _is_permutation(indexing_map: AffineMap) -> bool:
    positions = [
        expr.position
        for expr in indexing_map.results
        if isinstance(expr, AffineDimExpr)
    ]
    return len(positions) == len(indexing_map.results) and sorted(positions) == list(
        range(indexing_map.num_dims)
    )


def _is_fusable_elementwise(op: Operation) -> bool:
    """An all-parallel generic with one output written through a permutation."""
    if not isinstance(op, GenericOp) or len(op.outputs) != 1 or op.results:
        return False
    maps = [attr.data for attr in op.indexing_maps]
    return (
        all(kind.data == IteratorType.PARALLEL for kind in op.iterator_types)
        and all(is_tileable_map(m) for m in maps)
        and _is_permutation(maps[-1])
        and _static_ranges(op) is not None
    )


@dataclass
class _Member:
    """A fused op and, per loop, the root loop whose tile it follows (or FULL)."""

    op: GenericOp
    assignment: list[int]
    # Operand-free definitions it uses that must move above the tile loop.
    hoisted: list[Operation] = field(default_factory=list)

    def boxes(self) -> list[tuple[SSAValue, Box]]:
        return [
            (operand, _box(attr.data, self.assignment))
            for operand, attr in zip(
                self.op.operands, self.op.indexing_maps, strict=True
            )
            if isinstance(operand.type, MemRefType)
        ]


@dataclass
class FusionGroup:
    """A root, the ops fused into its tile loop, and the buffers made tile-sized."""

    root: _Member
    epilogues: list[_Member] = field(default_factory=list)
    producers: list[_Member] = field(default_factory=list)
    # Buffers replaced by a tile-sized buffer, with the tile every member uses.
    private: dict[SSAValue, Box] = field(default_factory=dict)

    @property
    def members(self) -> list[_Member]:
        return [self.root, *self.epilogues, *self.producers]

    def ops(self) -> set[Operation]:
        return {member.op for member in self.members}

    def writes(self) -> set[SSAValue]:
        return set().union(*(memory_effects(m.op).writes for m in self.members))

    def reads(self) -> set[SSAValue]:
        return set().union(*(memory_effects(m.op).reads for m in self.members))

    def accesses(self, buffer: SSAValue) -> set[Box]:
        return {
            box
            for member in self.members
            for operand, box in member.boxes()
            if operand is buffer
        }


def _between(
    block_ops: list[Operation], first: Operation, last: Operation
) -> list[Operation]:
    start, end = block_ops.index(first), block_ops.index(last)
    low, high = min(start, end), max(start, end)
    return block_ops[low + 1 : high]


def _passes_over(
    op: GenericOp, ops_between: Sequence[Operation], group: FusionGroup
) -> bool:
    """Whether moving `op` over `ops_between` (into the group) keeps every value."""
    effects = memory_effects(op)
    own = group.ops()
    for other in ops_between:
        # A dealloc passed over sinks below the tile loop (`_sink_deallocs`);
        # one of a buffer an epilogue uses would be a use after free.
        if other in own or isinstance(other, memref.DeallocOp):
            continue
        between = memory_effects(other)
        if between.writes & effects.reads or between.touches(effects.writes):
            return False
    return True


def _epilogue_of(
    group: FusionGroup,
    current: _Member,
    block_ops: list[Operation],
    consumed: set[Operation],
) -> _Member | None:
    """The op after `current` that reads its output tile, if it may fuse."""
    produced = root_buffer(current.op.outputs[0])
    output_box = _box(current.op.indexing_maps.data[-1].data, current.assignment)
    start = block_ops.index(current.op)
    candidate = next(
        (
            op
            for op in block_ops[start + 1 :]
            if produced in memory_effects(op).reads | memory_effects(op).writes
        ),
        None,
    )
    if candidate is None or candidate in consumed:
        return None
    if not _is_fusable_elementwise(candidate):
        return None
    assert isinstance(candidate, GenericOp)
    maps = [attr.data for attr in candidate.indexing_maps]
    reads = [
        index
        for index, operand in enumerate(candidate.inputs)
        if root_buffer(operand) is produced
    ]
    if not reads or root_buffer(candidate.outputs[0]) is produced:
        return None
    # The candidate's loops follow the root loops through the tile it reads.
    assignment = [FULL] * maps[0].num_dims
    for expr, tile in zip(maps[reads[0]].results, output_box, strict=True):
        if isinstance(expr, AffineDimExpr):
            assignment[expr.position] = tile
    member = _Member(candidate, assignment)
    written = {root_buffer(m.op.outputs[0]): m for m in group.members}
    for operand, box in member.boxes():
        buffer = root_buffer(operand)
        if buffer in written:
            writer = written[buffer]
            expected = _box(writer.op.indexing_maps.data[-1].data, writer.assignment)
            if operand is not buffer or box != expected:
                return None
    if all(loop == FULL for loop in assignment):
        return None
    effects = memory_effects(candidate)
    if effects.writes & group.reads() or (effects.reads - written.keys()) & (
        group.writes()
    ):
        return None
    ops_between = _between(block_ops, group.root.op, candidate)
    if not _passes_over(candidate, ops_between, group):
        return None
    hoisted = _definitions_to_hoist(candidate, set(ops_between))
    if hoisted is None:
        return None
    member.hoisted = hoisted
    return member


# What an epilogue may use that is defined between the root and it: such a
# definition moves above the tile loop, which is safe for these (no operands,
# no memory effect on existing buffers).
_HOISTABLE = ("arith.constant", "memref.alloc", "memref.get_global")


def _definitions_to_hoist(
    op: GenericOp, ops_between: set[Operation]
) -> list[Operation] | None:
    """The definitions in `ops_between` that `op` uses, if all can move up."""
    used = [operand for inner in op.walk() for operand in inner.operands]
    hoisted: list[Operation] = []
    for value in used:
        owner = value.owner
        if not isinstance(owner, Operation) or owner not in ops_between:
            continue
        if owner.name not in _HOISTABLE or owner.operands or owner.regions:
            return None
        if owner not in hoisted:
            hoisted.append(owner)
    return hoisted


def _producer_of(
    group: FusionGroup,
    buffer: SSAValue,
    block_ops: list[Operation],
    consumed: set[Operation],
    sequential: bool,
) -> _Member | None:
    """The op writing `buffer` for the group, if it may fuse (see the module doc)."""
    if not isinstance(buffer.owner, memref.AllocOp) or buffer in group.private:
        return None
    own = group.ops()
    writers = [
        use.operation
        for use in buffer.uses
        if use.operation not in own and not isinstance(use.operation, memref.DeallocOp)
    ]
    if len(writers) != 1:
        return None
    producer = writers[0]
    if producer in consumed or producer not in block_ops:
        return None
    if not _is_fusable_elementwise(producer):
        return None
    assert isinstance(producer, GenericOp)
    if producer.outputs[0] is not buffer or producer.body.block.args[-1].uses:
        return None
    if sequential and buffer in group.writes():
        return None
    boxes = group.accesses(buffer)
    if len(boxes) != 1:
        return None
    (box,) = boxes
    if all(loop == FULL for loop in box):
        return None
    if block_ops.index(producer) > block_ops.index(group.root.op):
        return None
    output_map = producer.indexing_maps.data[-1].data
    assignment = [FULL] * output_map.num_dims
    for expr, tile in zip(output_map.results, box, strict=True):
        assert isinstance(expr, AffineDimExpr)
        assignment[expr.position] = tile
    member = _Member(producer, assignment)
    for operand, operand_box in member.boxes():
        if operand in group.private and group.private[operand] != operand_box:
            return None
    if memory_effects(producer).reads & (
        group.writes() - group.private.keys() - {buffer}
    ):
        return None
    ops_between = _between(block_ops, producer, group.root.op)
    if not _passes_over(producer, ops_between, group):
        return None
    return member


def _is_private(group: FusionGroup, buffer: SSAValue) -> bool:
    """Whether a written buffer can be tile-sized: only the group touches it."""
    if not isinstance(buffer.owner, memref.AllocOp):
        return False
    own = group.ops()
    if any(
        use.operation not in own and not isinstance(use.operation, memref.DeallocOp)
        for use in buffer.uses
    ):
        return False
    writer = next(m.op for m in group.members if m.op.outputs[0] is buffer)
    return len(group.accesses(buffer)) == 1 and not writer.body.block.args[-1].uses


def plan_fusion(
    root: GenericOp,
    sizes: Sequence[int],
    block_ops: list[Operation],
    consumed: set[Operation],
) -> FusionGroup:
    """Which neighbours of `root` fuse into its tile loop (see the module doc)."""
    computation = StructuredComputation.of(root)
    assignment = [loop if size else FULL for loop, size in enumerate(sizes)]
    group = FusionGroup(_Member(root, assignment))
    if _static_ranges(root) is None:
        return group
    _, sequential = tile_loop_order(computation, sizes)
    if not sequential and len(root.outputs) == 1:
        current = group.root
        while (epilogue := _epilogue_of(group, current, block_ops, consumed)) and (
            len(epilogue.op.outputs) == 1
        ):
            group.epilogues.append(epilogue)
            current = epilogue
    changed = True
    while changed:
        changed = False
        for member in group.members:
            for operand in member.op.operands:
                producer = _producer_of(
                    group, operand, block_ops, consumed, bool(sequential)
                )
                if producer is None:
                    continue
                group.producers.append(producer)
                group.private[operand] = next(iter(group.accesses(operand)))
                changed = True
    for member in [group.root, *group.epilogues]:
        buffer = member.op.outputs[0]
        if buffer not in group.private and _is_private(group, buffer):
            (group.private[buffer],) = group.accesses(buffer)
    return group


# --------------------------------------------------------------------------
# Building the fused tile body
# --------------------------------------------------------------------------


def _element_bytes(memref_type: MemRefType) -> int:
    # A type without a known width counts as 8 bytes, the widest scalar.
    return element_bytes(memref_type.get_element_type()) or 8


def _tile_buffer(
    buffer: SSAValue,
    box: Box,
    tiling: MemrefTiling,
    sizes: Sequence[int],
    insertion: InsertPoint,
) -> tuple[SSAValue, Operation | None]:
    """A fresh buffer for the tile `box` of `buffer`, and its dealloc if any."""
    source = buffer.type
    assert isinstance(source, MemRefType)
    shape = source.get_shape()
    bound = [
        shape[dim] if loop == FULL else sizes[loop] for dim, loop in enumerate(box)
    ]
    actual = [
        shape[dim] if loop == FULL else tiling.tiles[loop].size
        for dim, loop in enumerate(box)
    ]
    count = 1
    for size in bound:
        count *= size
    element = source.get_element_type()
    allocation: Operation
    dealloc: Operation | None = None
    if count * _element_bytes(source) <= MAX_STACK_BYTES:
        allocation = memref.AllocaOp.get(element, shape=bound)
    else:
        allocation = memref.AllocOp.get(element, shape=bound)
        dealloc = memref.DeallocOp.get(allocation.results[0])
    allocation.results[0].name_hint = "tile_buffer"
    Rewriter.insert_op(allocation, insertion)
    whole = allocation.results[0]
    if all(isinstance(a, int) for a in actual) and actual == bound:
        return whole, dealloc
    whole_type = whole.type
    assert isinstance(whole_type, MemRefType)
    offsets = [0] * len(actual)
    view = memref.SubviewOp.get(
        whole,
        offsets,
        actual,
        [1] * len(actual),
        subview_type(whole_type, offsets, actual),
    )
    view.result.name_hint = "tile_buffer"
    Rewriter.insert_op(view, insertion)
    return view.result, dealloc


def _member_tiles(member: _Member, tiling: MemrefTiling) -> list[Tile]:
    ranges = _static_ranges(member.op)
    assert ranges is not None
    return [
        Tile(0, ranges[loop]) if root_loop == FULL else tiling.tiles[root_loop]
        for loop, root_loop in enumerate(member.assignment)
    ]


def _clone_onto_tile(
    member: _Member,
    tiling: MemrefTiling,
    tile_buffers: dict[SSAValue, SSAValue],
    insertion: InsertPoint,
) -> GenericOp:
    tiles = _member_tiles(member, tiling)
    operands = [
        tile_buffers[operand]
        if operand in tile_buffers
        else tile_subview(operand, attr.data, tiles, insertion)
        for operand, attr in zip(
            member.op.operands, member.op.indexing_maps, strict=True
        )
    ]
    clone = member.op.clone()
    clone.operands = operands
    offset_indices(
        clone.body.block,
        {
            loop: tiling.tile_origins[root_loop]
            for loop, root_loop in enumerate(member.assignment)
            if root_loop != FULL
        },
    )
    Rewriter.insert_op(clone, insertion)
    return clone


def _use_tile_buffers(
    tiled: GenericOp,
    original_operands: Sequence[SSAValue],
    tile_buffers: dict[SSAValue, SSAValue],
) -> None:
    """Point the tiled root at the tile buffers instead of subviews of the originals."""
    operands = list(tiled.operands)
    for index, original in enumerate(original_operands):
        if original not in tile_buffers:
            continue
        view = operands[index]
        operands[index] = tile_buffers[original]
        tiled.operands = operands
        if view is not original and not view.uses and isinstance(view.owner, Operation):
            Rewriter.erase_op(view.owner)


def _deallocs_passed_over(block: Block, group: FusionGroup) -> list[Operation]:
    """The deallocs between the first fused producer and the root, in order.

    They must run after the tile loop, which now does the producers' reads.
    """
    ops = list(block.ops)
    if not group.producers:
        return []
    first = min(ops.index(member.op) for member in group.producers)
    last = ops.index(group.root.op)
    return [
        op
        for op in ops[first + 1 : last]
        if isinstance(op, memref.DeallocOp) and op.operands[0] not in group.private
    ]


def fuse_into_tile_loop(
    group: FusionGroup, sizes: Sequence[int], parallel_kind: str
) -> None:
    """Tile the group's root and rebuild its fused ops inside the tile loop."""
    root = group.root.op
    for epilogue in group.epilogues:
        for definition in epilogue.hoisted:
            definition.detach()
            Rewriter.insert_op(definition, InsertPoint.before(root))
    block = root.parent_block()
    assert block is not None
    sunk = _deallocs_passed_over(block, group)
    original_operands = list(root.operands)
    tiling = tile_linalg_op(root, sizes, parallel_kind)
    assert tiling is not None
    body = tiling.tiled.parent_block()
    assert body is not None
    assert body.last_op is not None
    before_root = InsertPoint.before(tiling.tiled)
    at_end = InsertPoint.before(body.last_op)

    tile_buffers: dict[SSAValue, SSAValue] = {}
    deallocs: list[Operation] = []
    for buffer, box in group.private.items():
        tile_buffer, dealloc = _tile_buffer(buffer, box, tiling, sizes, before_root)
        tile_buffers[buffer] = tile_buffer
        if dealloc is not None:
            deallocs.append(dealloc)

    for dealloc in reversed(sunk):
        dealloc.detach()
        Rewriter.insert_op(dealloc, InsertPoint.after(tiling.root))
    order = {op: index for index, op in enumerate(block.ops)}
    for producer in sorted(group.producers, key=lambda m: order[m.op]):
        _clone_onto_tile(producer, tiling, tile_buffers, before_root)
    _use_tile_buffers(tiling.tiled, original_operands, tile_buffers)
    for epilogue in group.epilogues:
        _clone_onto_tile(epilogue, tiling, tile_buffers, at_end)
    for dealloc in deallocs:
        Rewriter.insert_op(dealloc, at_end)

    for member in [*group.epilogues, *group.producers]:
        Rewriter.erase_op(member.op)
    for buffer in group.private:
        for use in list(buffer.uses):
            Rewriter.erase_op(use.operation)
        assert isinstance(buffer.owner, Operation)
        Rewriter.erase_op(buffer.owner)


def tile_and_fuse(
    module: ModuleOp, tile_sizes: Sequence[int], parallel_kind: str = "parallel"
) -> None:
    """Tile every linalg op of `module`, fusing neighbours (see the module doc)."""
    if parallel_kind not in PARALLEL_LOOP_KINDS:
        raise PassFailedException(
            f"{PASS_NAME}: parallel={parallel_kind!r} is not one of "
            f"{', '.join(PARALLEL_LOOP_KINDS)}"
        )
    if any(size < 0 for size in tile_sizes):
        raise PassFailedException(f"{PASS_NAME}: tile sizes must be >= 0")
    for op in [op for op in module.walk() if is_linalg_op(op)]:
        generic = op if isinstance(op, GenericOp) else generalize_named_op(op)
        if not all(is_tileable_map(attr.data) for attr in generic.indexing_maps):
            raise op_error(
                op, f"{PASS_NAME} supports projected-permutation indexing maps"
            )
        if generic is not op:
            Rewriter.replace_op(op, generic)
    blocks: dict[Block, list[GenericOp]] = {}
    for op in module.walk():
        if isinstance(op, GenericOp) and (block := op.parent_block()) is not None:
            blocks.setdefault(block, []).append(op)
    for block, generics in blocks.items():
        _tile_and_fuse_block(block, generics, tile_sizes, parallel_kind)


def is_linalg_op(op: Operation) -> bool:
    return isinstance(op, GenericOp) or is_named_linalg_op(op)


def _has_reduction(op: GenericOp) -> bool:
    return any(kind.data != IteratorType.PARALLEL for kind in op.iterator_types)


def _tile_and_fuse_block(
    block: Block,
    generics: list[GenericOp],
    tile_sizes: Sequence[int],
    parallel_kind: str,
) -> None:
    roots = [
        *reversed([op for op in generics if _has_reduction(op)]),
        *reversed([op for op in generics if not _has_reduction(op)]),
    ]
    consumed: set[Operation] = set()
    for root in roots:
        if root in consumed:
            continue
        consumed.add(root)
        if root.results or _static_ranges(root) is None:
            tile_linalg_op(root, tile_sizes, parallel_kind)
            continue
        computation = StructuredComputation.of(root)
        ranges = _static_ranges(root)
        assert ranges is not None
        sizes = effective_tile_sizes(computation, ranges, tile_sizes)
        if not any(sizes):
            continue
        group = plan_fusion(root, sizes, list(block.ops), consumed)
        consumed |= group.ops()
        fuse_into_tile_loop(group, sizes, parallel_kind)


@dataclass(frozen=True)
class LinalgTileAndFusePass(ModulePass):
    """Tile linalg ops on memrefs and fuse producers and epilogues into the tiles."""

    name = PASS_NAME

    tile_sizes: tuple[int, ...] = ()
    parallel: str = "parallel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_and_fuse(op, self.tile_sizes, self.parallel)
