"""Tiling linalg ops into loops over tiles: `linalg-tile`'s machinery.

MLIR's `linalg::tileLinalgOp` (`Dialect/Linalg/Transforms/Tiling.cpp`) on
buffers and `scf::tileUsingSCF` with an `scf.forall` on tensors, shared by
`linalg-tile`, `linalg-tile-contractions` and `linalg-tile-and-fuse`. The
contract (which loops, subviews and slices are built) is `linalg-tile`'s,
in `irkit/transforms/linalg_tile.py`; errors name that pass, whose
restrictions they state.

- `tile_linalg_op(op, tile_sizes, parallel_kind)`: tile one op in place
  (named ops through their generic form); on memrefs it returns a
  `MemrefTiling` (the loops, each loop's `Tile`, the tiled clone);
- `tile_loop_order`, `effective_tile_sizes`: which loops a tiling makes
  concurrent or sequential, and the sizes it actually uses;
- `tile_subview`, `box_subview`, `offset_indices`: the pieces a fusion or a
  GPU tiling rebuilds ops with;
- `register_tile_shape`: the rows and columns of a CPU register tile for a
  vector unit; `cache_tile_shape`: the packed blocks around it, from the
  caches; `vector_lanes`: the vectors a micro-kernel's columns take.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.scf import YieldOp as ScfYieldOp
from xdsl.dialects.tensor import DimOp as TensorDimOp
from xdsl.dialects.utils.dynamic_index_list import split_dynamic_index_list
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.analysis.structured import (
    StructuredComputation,
    is_on_tensors,
    is_tileable_map,
    loop_dimensions,
    parallel_loop_dims,
)
from irkit.diagnostics import op_error
from irkit.dialects import affine, memref
from irkit.dialects.scf import ForallOp, ForOp, InParallelOp, ParallelOp, ReduceOp
from irkit.dialects.tensor import ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp
from irkit.transforms.utils.builders import subview_type
from irkit.transforms.utils.generalization import generalize_named_op

# The pass whose contract this module implements: its errors name it.
_ERRORS_NAME = "linalg-tile"

# How the concurrent tile loops are built: `scf.parallel` or `scf.forall`.
PARALLEL_LOOP_KINDS = ("parallel", "forall")

# A loop range or tile size: a static integer or an SSA `index` value.
_Size = int | SSAValue


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------


def _require_tileable(op: Operation, generic: GenericOp) -> None:
    """Reject what `linalg-tile` cannot tile; errors point at `op`, the source op.

    (The linalg verifier already rejects an op mixing memrefs and tensors.)
    """
    if not all(is_tileable_map(attr.data) for attr in generic.indexing_maps):
        raise op_error(
            op, f"{_ERRORS_NAME} supports projected-permutation indexing maps"
        )


# --------------------------------------------------------------------------
# Helpers: index constants, loop ranges
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
    """Each loop's range, from the first shaped dimension that it indexes alone.

    Static sizes stay integers; dynamic ones become `memref.dim` (or
    `tensor.dim`) before `op`.
    """
    ranges: list[_Size | None] = [None] * computation.num_loops
    for dimension in loop_dimensions(computation):
        if dimension.size != DYNAMIC_INDEX:
            ranges[dimension.loop] = dimension.size
            continue
        operand, position = dimension.operand, dimension.position
        dim: Operation = (
            memref.DimOp(operand, values.constant(position))
            if isinstance(operand.type, MemRefType)
            else TensorDimOp(operand, values.constant(position))
        )
        dim.results[0].name_hint = "dim"
        values.insert(dim)
        ranges[dimension.loop] = dim.results[0]
    missing = [f"d{loop}" for loop, size in enumerate(ranges) if size is None]
    if missing:
        raise op_error(
            op,
            f"{_ERRORS_NAME} needs a shaped dimension indexed by "
            f"{', '.join(missing)} alone to know its range",
        )
    return [size for size in ranges if size is not None]


# --------------------------------------------------------------------------
# The tiling
# --------------------------------------------------------------------------


@dataclass
class Tile:
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


def tile_loop_order(
    computation: StructuredComputation, tile_sizes: Sequence[int]
) -> tuple[list[int], list[int]]:
    """The tiled loops that run concurrently, and the others in nesting order.

    Concurrent: tiled parallel loops that every output indexes alone (their
    tiles write disjoint elements). Sequential: the other tiled parallel
    loops, then the tiled reductions, each group in loop order.
    """
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
    return concurrent, sequential


def _build_tile_loops(
    computation: StructuredComputation,
    ranges: Sequence[_Size],
    tile_sizes: Sequence[int],
    parallel_kind: str,
    values: _IndexValues,
) -> _LoopNest:
    concurrent, sequential = tile_loop_order(computation, tile_sizes)
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


def offset_indices(body: Block, tile_origins: dict[int, SSAValue]) -> None:
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


def effective_tile_sizes(
    computation: StructuredComputation,
    ranges: Sequence[_Size],
    tile_sizes: Sequence[int],
) -> list[int]:
    """One size per loop: missing ones 0, and 0 where one tile covers the range."""
    padded = [*tile_sizes[: computation.num_loops], *[0] * computation.num_loops]
    return [
        0 if isinstance(n, int) and size >= n else size
        for size, n in zip(padded, ranges, strict=False)
    ]


@dataclass
class MemrefTiling:
    """What tiling one op on memrefs built: its loops, tiles and tiled clone."""

    root: Operation
    tiled: GenericOp
    tiles: list[Tile]
    tile_origins: dict[int, SSAValue]
    sequential_loops: list[int]


def tile_generic(
    generic: GenericOp, tile_sizes: Sequence[int], parallel_kind: str = "parallel"
) -> MemrefTiling | None:
    """Tile `generic` (checked by `_require_tileable`) in place; see the module doc.

    Returns what was built on memrefs (None on tensors or when nothing is tiled).
    """
    computation = StructuredComputation.of(generic)
    values = _IndexValues(generic)
    ranges = loop_ranges(generic, computation, values)
    sizes = effective_tile_sizes(computation, ranges, tile_sizes)
    if not any(sizes):
        return None
    if is_on_tensors(generic):
        _tile_on_tensors(generic, computation, ranges, sizes, values)
        return None
    return _tile_on_memrefs(generic, computation, ranges, sizes, parallel_kind, values)


def _loop_tiles(
    ranges: Sequence[_Size],
    sizes: Sequence[int],
    tile_origins: dict[int, SSAValue],
    insertion: InsertPoint,
) -> list[Tile]:
    """Each loop's tile: whole for an untiled loop, else from its tile origin."""
    tiles: list[Tile] = []
    for loop, loop_range in enumerate(ranges):
        if loop not in tile_origins:
            tiles.append(Tile(0, loop_range))
            continue
        origin = tile_origins[loop]
        size, minimum = _tile_size(origin, sizes[loop], loop_range)
        if minimum is not None:
            Rewriter.insert_op(minimum, insertion)
        tiles.append(Tile(origin, size))
    return tiles


def _tile_on_memrefs(
    generic: GenericOp,
    computation: StructuredComputation,
    ranges: Sequence[_Size],
    sizes: Sequence[int],
    parallel_kind: str,
    values: _IndexValues,
) -> MemrefTiling:
    loops = _build_tile_loops(computation, ranges, sizes, parallel_kind, values)
    assert loops.root is not None
    assert loops.insertion is not None
    insertion = loops.insertion
    tiles = _loop_tiles(ranges, sizes, loops.tile_origins, insertion)
    tiled_operands = [
        tile_subview(operand, indexing_map, tiles, insertion)
        for operand, indexing_map in zip(
            computation.operands, computation.indexing_maps, strict=True
        )
    ]
    tiled = generic.clone()
    tiled.operands = tiled_operands
    offset_indices(tiled.body.block, loops.tile_origins)
    Rewriter.insert_op(tiled, insertion)
    Rewriter.insert_op(loops.root, InsertPoint.before(generic))
    Rewriter.erase_op(generic)
    _, sequential = tile_loop_order(computation, sizes)
    return MemrefTiling(loops.root, tiled, tiles, loops.tile_origins, sequential)


# --------------------------------------------------------------------------
# Tiling on tensors
# --------------------------------------------------------------------------


def _slice_box(
    indexing_map: AffineMap, tiles: Sequence[Tile], extents: Sequence[_Size]
) -> tuple[list[_Size], list[_Size]] | None:
    """Offsets and sizes of the part of an operand the tiles touch.

    None when that part is the whole operand (every tile spans its extent).
    """
    offsets: list[_Size] = []
    sizes: list[_Size] = []
    whole = True
    for expr in indexing_map.results:
        if isinstance(expr, AffineDimExpr):
            tile = tiles[expr.position]
            offsets.append(tile.offset)
            sizes.append(tile.size)
            whole = whole and tile.offset == 0 and tile.size == extents[expr.position]
        else:  # the constant 0: a broadcast unit dimension
            offsets.append(0)
            sizes.append(1)
    return None if whole else (offsets, sizes)


def _tensor_slice_type(source: Attribute, sizes: Sequence[_Size]) -> TensorType:
    assert isinstance(source, TensorType)
    shape = [size if isinstance(size, int) else DYNAMIC_INDEX for size in sizes]
    return TensorType(source.get_element_type(), shape)


def _insert_slice(
    source: SSAValue,
    dest: SSAValue,
    offsets: Sequence[_Size],
    sizes: Sequence[_Size],
) -> InsertSliceOp:
    """`tensor.insert_slice` of `source` into `dest` at a unit-stride box."""
    static_offsets, dynamic_offsets = split_dynamic_index_list(offsets, DYNAMIC_INDEX)
    static_sizes, dynamic_sizes = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
    return InsertSliceOp.build(
        operands=[source, dest, dynamic_offsets, dynamic_sizes, []],
        properties={
            "static_offsets": DenseArrayBase.from_list(i64, static_offsets),
            "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
            "static_strides": DenseArrayBase.from_list(i64, [1] * len(sizes)),
        },
        result_types=[dest.type],
    )


def _extract_slice(
    value: SSAValue,
    indexing_map: AffineMap,
    tiles: Sequence[Tile],
    extents: Sequence[_Size],
    insertion: InsertPoint,
) -> SSAValue:
    """The slice of tensor `value` the tiles touch (`value` itself if whole)."""
    box = _slice_box(indexing_map, tiles, extents)
    if not isinstance(value.type, TensorType) or box is None:
        return value
    offsets, sizes = box
    extract = ExtractSliceOp(
        value, offsets, sizes, [1] * len(sizes), _tensor_slice_type(value.type, sizes)
    )
    extract.result.name_hint = "tile"
    Rewriter.insert_op(extract, insertion)
    return extract.result


def _tile_on_tensors(
    generic: GenericOp,
    computation: StructuredComputation,
    ranges: Sequence[_Size],
    sizes: Sequence[int],
    values: _IndexValues,
) -> None:
    concurrent, sequential = tile_loop_order(computation, sizes)
    output_maps = computation.output_maps
    # Loop-carried tensors: the outputs, then their tiles inside the forall.
    carried: list[SSAValue] = list(computation.outputs)
    tile_origins: dict[int, SSAValue] = {}
    root: Operation | None = None
    insertion: InsertPoint | None = None
    forall: ForallOp | None = None
    forall_tiles: list[Tile] = []
    if concurrent:
        block = Block(
            arg_types=[IndexType()] * len(concurrent) + [v.type for v in carried]
        )
        forall = ForallOp(
            [0] * len(concurrent),
            [ranges[loop] for loop in concurrent],
            [sizes[loop] for loop in concurrent],
            Region(block),
            carried,
        )
        in_parallel = InParallelOp()
        block.add_op(in_parallel)
        root, insertion = forall, InsertPoint.before(in_parallel)
        for loop, origin in zip(concurrent, block.args, strict=False):
            tile_origins[loop] = origin
        forall_tiles = _loop_tiles(ranges, sizes, tile_origins, insertion)
        shared = block.args[len(concurrent) :]
        for shared_out in shared:
            shared_out.name_hint = "shared"
        carried = [
            _extract_slice(shared_out, output_map, forall_tiles, ranges, insertion)
            for shared_out, output_map in zip(shared, output_maps, strict=True)
        ]
    for_ops: list[ForOp] = []
    for loop in sequential:
        block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
        for_op = ForOp(
            values.constant(0),
            values.value(ranges[loop]),
            values.constant(sizes[loop]),
            carried,
            Region(block),
        )
        if insertion is None:
            root = for_op
        else:
            Rewriter.insert_op(for_op, insertion)
        insertion = InsertPoint.at_end(block)
        tile_origins[loop] = block.args[0]
        for iter_arg in block.args[1:]:
            iter_arg.name_hint = "acc"
        carried = list(block.args[1:])
        for_ops.append(for_op)
    for loop, tile_origin in tile_origins.items():
        tile_origin.name_hint = f"t{loop}"
    assert root is not None
    assert insertion is not None

    tiles = _loop_tiles(
        ranges,
        sizes,
        {loop: tile_origins[loop] for loop in sequential},
        insertion,
    )
    for loop in concurrent:
        tiles[loop] = forall_tiles[loop]
    # Offsets into a carried tile: the forall's loops start it at 0.
    within = [
        Tile(0, tile.size) if loop in concurrent else tile
        for loop, tile in enumerate(tiles)
    ]
    extents = [
        tile.size if loop in concurrent else ranges[loop]
        for loop, tile in enumerate(tiles)
    ]
    inputs = [
        _extract_slice(operand, indexing_map, tiles, ranges, insertion)
        for operand, indexing_map in zip(
            computation.inputs, computation.indexing_maps, strict=False
        )
    ]
    outputs = [
        _extract_slice(tensor, output_map, within, extents, insertion)
        for tensor, output_map in zip(carried, output_maps, strict=True)
    ]
    tiled = GenericOp(
        inputs,
        outputs,
        generic.body.clone(),
        generic.indexing_maps,
        generic.iterator_types,
        [tensor.type for tensor in outputs],
        generic.doc,
        generic.library_call,
    )
    offset_indices(tiled.body.block, tile_origins)
    Rewriter.insert_op(tiled, insertion)

    results: list[SSAValue] = []
    for result, tensor, output_map in zip(
        tiled.results, carried, output_maps, strict=True
    ):
        box = _slice_box(output_map, within, extents)
        if box is None:
            results.append(result)
            continue
        insert = _insert_slice(result, tensor, *box)
        Rewriter.insert_op(insert, insertion)
        results.append(insert.results[0])
    for for_op in reversed(for_ops):
        for_op.body.block.add_op(ScfYieldOp(*results))
        results = list(for_op.results)
    if forall is not None:
        terminator = forall.body.block.last_op
        assert isinstance(terminator, InParallelOp)
        for tile_result, shared_out, output_map in zip(
            results, forall.region_out_args, output_maps, strict=True
        ):
            box = _slice_box(output_map, forall_tiles, ranges)
            assert box is not None
            offsets, box_sizes = box
            terminator.region.block.add_op(
                ParallelInsertSliceOp(
                    tile_result, shared_out, offsets, box_sizes, [1] * len(box_sizes)
                )
            )
        results = list(forall.results)
    Rewriter.insert_op(root, InsertPoint.before(generic))
    for old, new in zip(list(generic.results), results, strict=True):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(generic)


def tile_subview(
    operand: SSAValue,
    indexing_map: AffineMap,
    tiles: Sequence[Tile],
    insertion: InsertPoint,
) -> SSAValue:
    """The tile of `operand` that the loops' tiles touch (the operand if whole).

    A loop whose tile starts at the literal 0 and spans the loop is untiled.
    """
    source = operand.type
    tiled_loops = {
        expr.position
        for expr in indexing_map.results
        if isinstance(expr, AffineDimExpr)
        and not isinstance(tiles[expr.position].offset, int)
    }
    if not isinstance(source, MemRefType) or not tiled_loops:
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


def box_subview(
    operand: SSAValue,
    indexing_map: AffineMap,
    tiles: Sequence[Tile],
    insertion: InsertPoint,
    steps: Sequence[int] | None = None,
) -> SSAValue:
    """The part of `operand` the tiles touch; positions of untiled loops stay whole.

    A loop is tiled when its tile does not start at the literal 0. A position
    that is not a plain loop (a window `d0 + d2`, a broadcast 0) is whole.
    `steps` (per loop, 1 by default) is the distance between the elements a
    tile takes along that loop: a cyclic thread tile's every n-th row.
    """
    source = operand.type
    if not isinstance(source, MemRefType):
        return operand
    shape = source.get_shape()
    offsets: list[_Size] = []
    sizes: list[_Size] = []
    strides: list[int] = []
    tiled = False
    for position, expr in enumerate(indexing_map.results):
        if isinstance(expr, AffineDimExpr):
            tile = tiles[expr.position]
            tiled = tiled or not isinstance(tile.offset, int)
            offsets.append(tile.offset)
            sizes.append(tile.size)
            strides.append(1 if steps is None else steps[expr.position])
        else:
            offsets.append(0)
            sizes.append(shape[position])
            strides.append(1)
    if not tiled:
        return operand
    subview = memref.SubviewOp.get(
        operand,
        offsets,
        sizes,
        strides,
        subview_type(source, offsets, sizes, strides),
    )
    subview.result.name_hint = "tile"
    Rewriter.insert_op(subview, insertion)
    return subview.result


def tile_linalg_op(
    op: Operation, tile_sizes: Sequence[int], parallel_kind: str = "parallel"
) -> MemrefTiling | None:
    """Tile one linalg op (a named op through its generic form); see `tile_generic`."""
    generic = op if isinstance(op, GenericOp) else generalize_named_op(op)
    _require_tileable(op, generic)
    if generic is not op:
        Rewriter.replace_op(op, generic)
    return tile_generic(generic, tile_sizes, parallel_kind)


def register_tile_shape(
    element_bits: int, vector_bits: int, vector_registers: int
) -> tuple[int, int]:
    """(MR, NR): the output tile a matmul micro-kernel keeps in registers.

    NR is two vectors of the element type, so that each row's two
    accumulators and the two vectors of the rhs row they multiply hide the
    multiply-add latency (4 cycles on znver3 and Skylake, two pipes: eight
    independent chains are needed); MR is as many rows as fit beside the two
    rhs vectors and the one broadcast lhs element: 6 x 16 for f32 on AVX2's
    sixteen 256-bit registers (BLIS's and OpenBLAS' Haswell/Zen kernels),
    14 x 32 on AVX-512's thirty-two.
    """
    lanes = max(vector_bits // max(element_bits, 1), 1)
    return max((vector_registers - 3) // 2, 1), 2 * lanes


def cache_tile_shape(
    mr: int, nr: int, element_bytes: int, l1: int, l2: int, l3: int
) -> tuple[int, int, int]:
    """(MC, NC, KC): the packed blocks around an MR x NR micro-kernel, from
    the data caches (bytes), as BLIS's analytical model sizes them (Low et
    al., "Analytical modeling is enough for high-performance BLIS", 2016):

    - KC: the micro-kernel's B micro-panel (KC x NR) takes half of L1, so it
      stays there while A's micro-panels stream past it;
    - MC: A's packed block (MC x KC) takes half of one core's L2;
    - NC: B's packed block (KC x NC) half of L3.

    KC a multiple of 8 (at least 16), MC and NC whole register tiles. For
    f32 on AVX2's 6 x 16 tile with 32 KiB of L1 and 1 MiB of L2 this gives
    KC = 256, as BLIS's Haswell kernel has; on the Zen 5 VM (14 x 32, 48 KiB
    L1, 1 MiB L2) KC = 192, MC = 672.
    """
    kc = max(l1 // 2 // (nr * element_bytes) // 8 * 8, 16)
    mc = max(l2 // 2 // (kc * element_bytes) // mr, 1) * mr
    nc = max(l3 // 2 // (kc * element_bytes) // nr, 1) * nr
    return mc, nc, kc


# The narrowest vectors a micro-kernel takes: 128 bits (SSE's and NEON's,
# which every vector unit has).
MIN_VECTOR_BITS = 128


def vector_lanes(extent: int, vector_bits: int, element_bits: int) -> int | None:
    """VL for a vector loop of `extent`: the unit's lanes, or, when they do
    not divide it, the most lanes (a power of two, at least
    `MIN_VECTOR_BITS` wide) that do (a packed matmul's column tail: 8
    columns on AVX-512's 16 lanes); None when no such vector divides it."""
    lanes = vector_bits // element_bits
    narrowest = max(MIN_VECTOR_BITS // element_bits, 2)
    while lanes >= narrowest:
        if extent % lanes == 0:
            return lanes
        lanes //= 2
    return None
