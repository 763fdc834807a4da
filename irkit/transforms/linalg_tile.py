"""`linalg-tile`: tile linalg ops on memrefs into loops over `memref.subview` tiles.

Mirrors MLIR's `linalg::tileLinalgOp` (`mlir/lib/Dialect/Linalg/Transforms/
Tiling.cpp`) for buffers: `linalg-tile{tile-sizes=8,16,0 parallel=parallel}`.

Contract
--------
Input: linalg on memrefs, as `bufferize` leaves it (`docs/abi.md`): every
linalg op has memref (or scalar) operands and no results. Named ops are first
turned into their `linalg.generic` form (`linalg-generalize-named-ops`). Every
indexing map must be a projected permutation whose results may also be the
constant 0 (broadcast of a unit dimension); any other map (a convolution
window `d0 + d2`) is rejected, as are ops on tensors.

Output: each linalg op becomes, in place, with `t_d` the tile size of loop
`d` (missing sizes are 0, extra ones ignored, 0 means "not tiled", and a size
at least a static dimension leaves that loop untiled since one tile covers
it):

- one `scf.parallel` (or `scf.forall` with `parallel=forall`) over the tile
  origins of the tiled parallel loops whose variable every output indexes
  alone (their tiles write disjoint elements), step `t_d`;
- inside it, one `scf.for` over the tile origins of every other tiled loop:
  such parallel loops first, then the reductions, each group in loop order;
- in the innermost body, a `memref.subview` of each operand that a tiled loop
  indexes, at offsets given by the loop variables; its size along loop `d` is
  `t_d` when `t_d` divides a static range, otherwise
  `affine.min(t_d, N_d - iv)` (dynamic ranges come from `memref.dim`); then a
  clone of the `linalg.generic` on the tiles, with the same maps, iterator
  types and body, where each `linalg.index` of a tiled loop is offset by the
  tile origin.

Tiling the result again (multi-level tiling) works: the inner op's dynamic
sizes become `memref.dim`s of its tiles.

Preserves: the value of every output element. Each element receives its
updates in the original order when at most one reduction loop is tiled; with
several tiled reductions the order of floating-point accumulation changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.scf import YieldOp as ScfYieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.diagnostics import op_error
from irkit.dialects import affine, memref
from irkit.dialects.scf import ForallOp, ForOp, InParallelOp, ParallelOp, ReduceOp
from irkit.transforms.convert_linalg_to_loops import (
    StructuredComputation,
    parallel_loop_dims,
)
from irkit.transforms.linalg_generalize_named_ops import (
    generalize_named_op,
    is_named_linalg_op,
)

PASS_NAME = "linalg-tile"
PARALLEL_LOOP_KINDS = ("parallel", "forall")

# A loop range or tile size: a static integer or an SSA `index` value.
_Size = int | SSAValue


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------


def _is_tileable_map(indexing_map: AffineMap) -> bool:
    """A projected permutation whose results may also be the constant 0."""
    seen: set[int] = set()
    for expr in indexing_map.results:
        if isinstance(expr, AffineConstantExpr) and expr.value == 0:
            continue
        if not isinstance(expr, AffineDimExpr) or expr.position in seen:
            return False
        seen.add(expr.position)
    return indexing_map.num_symbols == 0


def _require_tileable(op: Operation, generic: GenericOp) -> None:
    """Reject what this pass cannot tile; errors point at `op`, the source op."""
    if op.results or any(isinstance(v.type, TensorType) for v in op.operands):
        raise op_error(
            op, f"{PASS_NAME} requires linalg on memrefs: run bufferize first"
        )
    if not all(_is_tileable_map(attr.data) for attr in generic.indexing_maps):
        raise op_error(op, f"{PASS_NAME} supports projected-permutation indexing maps")


# --------------------------------------------------------------------------
# Helpers: index constants, loop ranges, strided layouts
# --------------------------------------------------------------------------


class _IndexValues:
    """Loop-invariant `index` values (constants, `memref.dim`s) before `anchor`."""

    def __init__(self, anchor: Operation) -> None:
        self._anchor = anchor
        self._constants: dict[int, SSAValue] = {}

    def constant(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            op.result.name_hint = f"c{value}"
            self.insert(op)
            self._constants[value] = op.result
        return self._constants[value]

    def value(self, size: _Size) -> SSAValue:
        return self.constant(size) if isinstance(size, int) else size

    def insert(self, op: Operation) -> None:
        Rewriter.insert_op(op, InsertPoint.before(self._anchor))


def loop_ranges(
    op: Operation, computation: StructuredComputation, values: _IndexValues
) -> list[_Size]:
    """Each loop's range, from the first memref dimension that it indexes alone.

    Static sizes stay integers; dynamic ones become `memref.dim` before `op`.
    """
    ranges: list[_Size | None] = [None] * computation.num_loops
    for operand, indexing_map in zip(
        computation.operands, computation.indexing_maps, strict=True
    ):
        if not isinstance(operand.type, MemRefType):
            continue
        shape = operand.type.get_shape()
        for position, expr in enumerate(indexing_map.results):
            if not isinstance(expr, AffineDimExpr) or ranges[expr.position] is not None:
                continue
            if shape[position] != DYNAMIC_INDEX:
                ranges[expr.position] = shape[position]
                continue
            dim = memref.DimOp(operand, values.constant(position))
            dim.result.name_hint = "dim"
            values.insert(dim)
            ranges[expr.position] = dim.result
    missing = [f"d{loop}" for loop, size in enumerate(ranges) if size is None]
    if missing:
        raise op_error(
            op,
            f"{PASS_NAME} needs a memref dimension indexed by "
            f"{', '.join(missing)} alone to know its range",
        )
    return [size for size in ranges if size is not None]


def memref_strides(memref_type: MemRefType) -> tuple[list[int | None], int | None]:
    """The strides and offset of `memref_type` (None where dynamic)."""
    layout = memref_type.layout
    if isinstance(layout, StridedLayoutAttr):
        return list(layout.get_strides()), layout.get_offset()
    strides: list[int | None] = []
    running: int | None = 1
    for size in reversed(memref_type.get_shape()):
        strides.insert(0, running)
        running = None if running is None or size == DYNAMIC_INDEX else running * size
    return strides, 0


def subview_type(
    source: MemRefType, offsets: Sequence[_Size], sizes: Sequence[_Size]
) -> MemRefType:
    """MLIR's inferred type of a unit-stride subview: static where known."""
    strides, offset = memref_strides(source)
    for start, stride in zip(offsets, strides, strict=True):
        if offset is None or not isinstance(start, int) or stride is None:
            offset = None
        else:
            offset += start * stride
    shape = [size if isinstance(size, int) else DYNAMIC_INDEX for size in sizes]
    return MemRefType(
        source.get_element_type(), shape, StridedLayoutAttr(strides, offset)
    )


# --------------------------------------------------------------------------
# The tiling
# --------------------------------------------------------------------------


@dataclass
class _Tile:
    """Where one loop's tile starts and how long it is, inside the tile loops."""

    offset: _Size
    size: _Size


@dataclass
class _LoopNest:
    """The (detached) tile loops, their root, and where the tile body goes."""

    root: Operation | None = None
    insertion: InsertPoint | None = None
    tile_origins: dict[int, SSAValue] = field(default_factory=dict)

    def nest(self, loop_op: Operation, block: Block, terminator: Operation) -> None:
        block.add_op(terminator)
        if self.insertion is None:
            self.root = loop_op
        else:
            Rewriter.insert_op(loop_op, self.insertion)
        self.insertion = InsertPoint.before(terminator)


def _build_tile_loops(
    computation: StructuredComputation,
    ranges: Sequence[_Size],
    tile_sizes: Sequence[int],
    parallel_kind: str,
    values: _IndexValues,
) -> _LoopNest:
    tiled = [loop for loop, size in enumerate(tile_sizes) if size]
    concurrent = [loop for loop in parallel_loop_dims(computation) if loop in tiled]
    reduction = [
        loop
        for loop in tiled
        if computation.iterator_types[loop] != IteratorType.PARALLEL
    ]
    sequential = [
        *(loop for loop in tiled if loop not in concurrent and loop not in reduction),
        *reduction,
    ]
    loops = _LoopNest()
    if concurrent:
        block = Block(arg_types=[IndexType()] * len(concurrent))
        lower = [0] * len(concurrent)
        upper = [ranges[loop] for loop in concurrent]
        steps = [tile_sizes[loop] for loop in concurrent]
        if parallel_kind == "forall":
            loops.nest(
                ForallOp(lower, upper, steps, Region(block)), block, InParallelOp()
            )
        else:
            parallel = ParallelOp(
                [values.value(v) for v in lower],
                [values.value(v) for v in upper],
                [values.value(v) for v in steps],
                Region(block),
            )
            loops.nest(parallel, block, ReduceOp())
        for loop, origin in zip(concurrent, block.args, strict=True):
            loops.tile_origins[loop] = origin
    for loop in sequential:
        block = Block(arg_types=[IndexType()])
        loops.tile_origins[loop] = block.args[0]
        for_op = ForOp(
            values.constant(0),
            values.value(ranges[loop]),
            values.constant(tile_sizes[loop]),
            [],
            Region(block),
        )
        loops.nest(for_op, block, ScfYieldOp())
    for loop, origin_value in loops.tile_origins.items():
        origin_value.name_hint = f"t{loop}"
    return loops


def _tile_size(
    origin: SSAValue, tile_size: int, loop_range: _Size
) -> tuple[_Size, Operation | None]:
    """The size of the tile starting at `origin`: `tile_size`, or less at the end."""
    if isinstance(loop_range, int) and loop_range % tile_size == 0:
        return tile_size, None
    d0, tile = AffineExpr.dimension(0), AffineExpr.constant(tile_size)
    if isinstance(loop_range, int):
        bound = AffineMap(1, 0, (tile, AffineExpr.constant(loop_range) - d0))
        operands: list[SSAValue] = [origin]
    else:
        bound = AffineMap(1, 1, (tile, AffineExpr.symbol(0) - d0))
        operands = [origin, loop_range]
    minimum = affine.MinOp(operands, AffineMapAttr(bound))
    minimum.result.name_hint = "size"
    return minimum.result, minimum


def _offset_indices(body: Block, tile_origins: dict[int, SSAValue]) -> None:
    """Make each `linalg.index` of a tiled loop count from 0 of the whole op again."""
    for body_op in list(body.ops):
        if not isinstance(body_op, IndexOp):
            continue
        loop = body_op.dim.value.data
        if loop not in tile_origins:
            continue
        shifted = arith.AddiOp(body_op.result, tile_origins[loop])
        body_op.result.replace_uses_with_if(
            shifted.result, lambda use: use.operation is not shifted
        )
        Rewriter.insert_op(shifted, InsertPoint.after(body_op))


def tile_generic(
    generic: GenericOp, tile_sizes: Sequence[int], parallel_kind: str = "parallel"
) -> None:
    """Tile `generic` (checked by `_require_tileable`) in place; see the module doc."""
    computation = StructuredComputation.of(generic)
    values = _IndexValues(generic)
    ranges = loop_ranges(generic, computation, values)
    sizes = [
        0 if isinstance(size, int) and isinstance(n, int) and size >= n else size
        for size, n in zip(
            [*tile_sizes[: computation.num_loops], *[0] * computation.num_loops],
            ranges,
            strict=False,
        )
    ]
    if not any(sizes):
        return
    loops = _build_tile_loops(computation, ranges, sizes, parallel_kind, values)
    assert loops.root is not None
    assert loops.insertion is not None
    insertion = loops.insertion

    tiles: list[_Tile] = []
    for loop, loop_range in enumerate(ranges):
        if loop not in loops.tile_origins:
            tiles.append(_Tile(0, loop_range))
            continue
        origin = loops.tile_origins[loop]
        size, minimum = _tile_size(origin, sizes[loop], loop_range)
        if minimum is not None:
            Rewriter.insert_op(minimum, insertion)
        tiles.append(_Tile(origin, size))

    tiled_operands: list[SSAValue] = []
    for operand, indexing_map in zip(
        computation.operands, computation.indexing_maps, strict=True
    ):
        tiled_operands.append(
            _subview(operand, indexing_map, tiles, loops.tile_origins, insertion)
        )

    tiled = generic.clone()
    tiled.operands = tiled_operands
    _offset_indices(tiled.body.block, loops.tile_origins)
    Rewriter.insert_op(tiled, insertion)
    Rewriter.insert_op(loops.root, InsertPoint.before(generic))
    Rewriter.erase_op(generic)


def _subview(
    operand: SSAValue,
    indexing_map: AffineMap,
    tiles: Sequence[_Tile],
    tile_origins: dict[int, SSAValue],
    insertion: InsertPoint,
) -> SSAValue:
    """The tile of `operand` that the loops' tiles touch (the operand if whole)."""
    source = operand.type
    touched = {
        expr.position
        for expr in indexing_map.results
        if isinstance(expr, AffineDimExpr)
    }
    if not isinstance(source, MemRefType) or not touched & tile_origins.keys():
        return operand
    offsets: list[_Size] = []
    sizes: list[_Size] = []
    for expr in indexing_map.results:
        if isinstance(expr, AffineDimExpr):
            offsets.append(tiles[expr.position].offset)
            sizes.append(tiles[expr.position].size)
        else:  # the constant 0: a broadcast unit dimension
            offsets.append(0)
            sizes.append(1)
    subview = memref.SubviewOp.get(
        operand,
        offsets,
        sizes,
        [1] * len(sizes),
        subview_type(source, offsets, sizes),
    )
    subview.result.name_hint = "tile"
    Rewriter.insert_op(subview, insertion)
    return subview.result


def tile_linalg_op(
    op: Operation, tile_sizes: Sequence[int], parallel_kind: str = "parallel"
) -> None:
    """Tile one linalg op on memrefs (a named op through its generic form)."""
    generic = op if isinstance(op, GenericOp) else generalize_named_op(op)
    _require_tileable(op, generic)
    if generic is not op:
        Rewriter.replace_op(op, generic)
    tile_generic(generic, tile_sizes, parallel_kind)


def tile_linalg_ops(
    module: ModuleOp, tile_sizes: Sequence[int], parallel_kind: str = "parallel"
) -> None:
    """Tile every linalg op of `module` once (the tiles themselves are not re-tiled)."""
    if parallel_kind not in PARALLEL_LOOP_KINDS:
        raise PassFailedException(
            f"{PASS_NAME}: parallel={parallel_kind!r} is not one of "
            f"{', '.join(PARALLEL_LOOP_KINDS)}"
        )
    if any(size < 0 for size in tile_sizes):
        raise PassFailedException(f"{PASS_NAME}: tile sizes must be >= 0")
    targets = [
        op
        for op in module.walk()
        if isinstance(op, GenericOp) or is_named_linalg_op(op)
    ]
    for op in targets:
        tile_linalg_op(op, tile_sizes, parallel_kind)


@dataclass(frozen=True)
class LinalgTilePass(ModulePass):
    """Tile linalg ops on memrefs into parallel/sequential loops over subviews."""

    name = PASS_NAME

    tile_sizes: tuple[int, ...] = ()
    parallel: str = "parallel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_linalg_ops(op, self.tile_sizes, self.parallel)
