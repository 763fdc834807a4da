"""`linalg-pack-operands`: a matmul as packed panels and register micro-kernels.

The CPU GEMM of BLIS and OpenBLAS (Goto's algorithm), built from linalg ops
the way MLIR's `linalg.pack` and IREE's data tiling (`linalg.mmt4d`) build
it. A static matmul-class `linalg.generic` on memrefs,

```mlir
linalg.generic {(i, k), (k, j) -> (i, j)} ins(%a, %b) outs(%c)   // M x N x K
```

is split by peeling into regions whose sizes are all static: the part of
each of M and N that whole blocks (MC rows, NC columns) cover, then the
rest that whole register tiles (MR rows, NR columns) cover, then a tail of
fewer than MR rows (run by micro-kernels of its rows) or NR columns (run by
micro-kernels of its columns where they are whole vectors; one no vector
divides is split into the most columns vectors do and the rest, left a
plain contraction: `vector_tail`); each region over the whole K. Each packed region is
BLIS's loop nest with both operands packed once, into one 64-byte aligned
heap buffer:

```mlir
%packed = memref.alloc() {alignment = 64} : memref<...xf32>
linalg.generic ins(expand(%a)) outs(%lhs)    // lhs[m0, k, m1] = a[m0 * MR + m1, k]
scf.for %jc = 0 to N step NC {               // (no loop for one block)
  linalg.generic ins(expand(%b[:, jc])) outs(%rhs)
      // rhs[n0, k, n1] = b[k, jc + n0 * NR + n1]
  scf.parallel (%ic, %cc) = (0, 0) to (M, NC) step (MC, NC / chunks) {
    scf.for %pc = 0 to K step KC {           // then the K remainder
      scf.parallel (%n0, %m0) = ... {        // the micro-kernels
        linalg.generic {irkit.register_tile}
            ins(%lhs[ic / MR + m0, pc:KC, :] : 1xKCxMR,
                %rhs[cc / NR + n0, pc:KC, :] : 1xKCxNR)
            outs(expand(%c)[...] : 1xMRx1xNR)
      }
    }
  }
}
memref.dealloc %packed
```

The packing copies' panel loops are `scf.parallel` too. A matmul of fewer
than `RHS_PACK_MIN_ROW_TILES` register tiles of rows reads B in place
(`[K, N0, NR]`) when B's rows are contiguous. The micro-kernels read A's
micro-panel (KC x MR) and B's (KC x NR) with unit stride, and their MR x NR
output stays in vector registers across the K loop:
`linalg-vectorize-micro-kernels` (next in `lower-to-c`) makes them vector
code, or, without it, `linalg-promote-accumulator` moves the output to the
stack. The register tile is sized from the vector unit (NR = two vectors of
the accumulator's element type, MR as many rows as leave room for the two
rhs vectors and one broadcast lhs element: `register_tile_shape`, 6 x 16
for f32 on AVX2, 14 x 32 on AVX-512), the blocks from the caches
(`cache_tile_shape`: KC x NR in half of L1, MC x KC in half of L2, K x NC
in half of L3) unless `cache-tile-sizes` gives them, and the column chunks
so that the parallel loop has `PARALLEL_ITERATIONS` iterations.

A matmul inside a parallel loop (`scf.parallel`, `scf.forall`: the tile
products of `linalg-fuse-attention{cpu}`) runs on that loop's thread: its
loops are sequential and its buffer is a `memref.alloca` of the iteration
(a heap buffer's failure return would keep the C target from running the
enclosing loop in parallel); one whose buffer would pass `MAX_STACK_BYTES`
is left alone.

A batch matmul (the output's loops before its last two, each read by an
input or by none, as a convolution's shared weights) runs its matrices one
per parallel iteration (at least `PARALLEL_ITERATIONS / 2` of them: each
with its own part of the buffer, its loops inside sequential) or one after
the other (fewer), each on rank-reducing views of the operands. An A that
no batch loop reads (a convolution's weights) is packed once, before the
batch loop, into a part of the buffer every matrix reads
(`_pack_lhs_rows`); each matrix packs only its B.

An operand of a batch matmul run one matrix per parallel iteration that a
gather computes (`batch_producer`: a generic with no inputs, all parallel,
writing a whole allocation through the identity map, whose leading loops
are the batch, read by nothing but the matmul, possibly through a
`memref.collapse_shape` that merges batch loops, with nothing between it
and the matmul that may write what it loads) is computed there too: each
iteration runs the gather on its matrix's part (its `linalg.index` of a
batch loop offset by the iteration's index, a merged index split back
row-major), right before packing, so the part is read back from cache (the
row-tiled im2col of `linalg-conv-to-im2col{column-tile-bytes}`: an
implicit GEMM). Deallocations of what the gather loads that lay between
move after the matmul. The gather's allocation (the whole batch's
columns: 58 MB for a ResNet stage-1 convolution at batch 8, mapped and
faulted in on every call) is replaced by slots, one matrix's part for
each of at most `PARALLEL_ITERATIONS` workers: the batch loop becomes
`scf.parallel` over the workers, each running a contiguous run of the
matrices (`w * M / W` to `(w + 1) * M / W`) in an `scf.for`, gathering
each into its own slot, which stays in cache from one matrix to the next:

```mlir
%slots = memref.alloc() {alignment = 64} : memref<W x 1 x K x Q x f32>
scf.parallel (%w) = (0) to (W) step (1) {
  scf.for %b = w * M / W to (w + 1) * M / W {   // (no loop when W = M)
    %slot = memref.subview %slots[%w, 0, 0, 0] [1, 1, K, Q]
    linalg.generic outs(%slot) { the gather, its indices offset to %b's }
    ... the matrix %b's micro-kernels, reading B from %slot ...
  }
}
memref.dealloc %slots
```

Contract
--------
Input: linalg on memrefs (`bufferize`d), named ops generalized. The pass
looks at contractions (`irkit.analysis.structured.is_contraction`) and
ignores every other op; a contraction on tensors is rejected with a located
error. It rewrites a contraction that has one reduction loop K, two memref
inputs of one element type and a memref output, static shapes, no
`linalg.index`, each indexing map a projection with each loop at most
once, whose output's last loop is the column loop (read by one input with
K, in either order: the rhs) and an earlier output loop the row loop (read
by the other input with K and not by the rhs: the lhs; the last such),
any other output loop parallel, wherever it lies (a batch loop, read by an
input or not: a row-tiled convolution's tiles lie between its rows and
columns), an output that cannot alias an input
(`irkit.analysis.aliasing.may_alias`), and at least MR rows and NR columns.
Anything else is left as it is.

Output: as above; the micro-kernels carry the unit attribute
`irkit.register_tile` (`irkit.analysis.structured.REGISTER_TILE_ATTR`),
which tells the tiling passes that they are already register tiles and
`linalg-promote-accumulator` that their output fits the registers.

Preserves: every value. Each output element is accumulated in the same
order (K ascending: the KC steps in order, then the K remainder), with the
same operations, so results are bit-identical; a gather moved into the
batch loop writes the same elements from the same reads, each matrix's
into its worker's slot right before that matrix reads them (no other
iteration writes that slot).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from math import prod
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    UnitAttr,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.scf import YieldOp as ScfYieldOp
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import VIEW_OPS, may_alias, root_buffer
from irkit.analysis.memory import (
    DEFAULT_CACHE_BYTES,
    MAX_STACK_BYTES,
    element_bytes,
    memref_strides,
)
from irkit.analysis.structured import (
    REGISTER_TILE_ATTR,
    is_contraction,
    require_buffers,
)
from irkit.dialects import linalg, memref
from irkit.dialects.scf import ForallOp, ForOp, ParallelOp, ReduceOp
from irkit.transforms.utils.builders import index_constant, strided_view
from irkit.transforms.utils.tiling import (
    cache_tile_shape,
    offset_indices,
    register_tile_shape,
    tile_generic,
    vector_lanes,
)

PASS_NAME = "linalg-pack-operands"

# Packed panels start on a cache line (and a 512-bit vector) boundary.
PACK_ALIGNMENT = 64


# --------------------------------------------------------------------------
# Which ops: a matmul and its orientation
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Operand:
    """One operand of the matmul: its position among the generic's operands,
    and whether its map lists the row (or column) loop before the other."""

    index: int
    outer_first: bool


@dataclass(frozen=True)
class Matmul:
    """A contraction this pass packs: its loops, operands and extents."""

    generic: GenericOp
    row_loop: int
    column_loop: int
    reduction_loop: int
    lhs: _Operand  # indexed by (row, reduction)
    rhs: _Operand  # indexed by (column, reduction)
    out: _Operand  # indexed by (row, column)
    rows: int
    columns: int
    depth: int
    # Loops indexing every operand's leading dimensions, in one order: the
    # batch of a batch matmul (none for a plain matmul).
    batch_loops: tuple[int, ...] = ()


def _map_loops(indexing_map: AffineMap) -> list[int] | None:
    loops = [e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    return loops if len(loops) == len(indexing_map.results) else None


def _operand_roles(
    maps: Sequence[Sequence[int]], reduction: int
) -> tuple[_Operand, _Operand] | None:
    """The lhs (read by the output's row loop and K) and the rhs (by its
    column loop and K) among the two inputs, from their loops without the
    batch (`maps`: the inputs', then the output's)."""
    out_loops = maps[2]
    if reduction in out_loops:
        return None
    lhs = rhs = None
    for index in (0, 1):
        loops = maps[index]
        if reduction not in loops:
            return None
        other = loops[1 - loops.index(reduction)]
        operand = _Operand(index, loops[0] == other)
        if other == out_loops[0] and lhs is None:
            lhs = operand
        elif other == out_loops[1] and rhs is None:
            rhs = operand
    if lhs is None or rhs is None:
        return None
    return lhs, rhs


def match_matmul(generic: GenericOp) -> Matmul | None:
    """The matmul `generic` is, in the terms of the contract, or None."""
    if not is_contraction(generic):
        return None
    require_buffers(generic, PASS_NAME)
    kinds = [kind.data for kind in generic.get_iterator_types()]
    if len(kinds) < 3 or kinds.count(IteratorType.REDUCTION) != 1:
        return None
    batch_count = len(kinds) - 3
    if len(generic.inputs) != 2 or any(
        isinstance(op, IndexOp) for op in generic.body.walk()
    ):
        return None
    operands = [*generic.inputs, *generic.outputs]
    types = [value.type for value in operands]
    memref_types = [t for t in types if isinstance(t, MemRefType)]
    if len(memref_types) != 3 or not all(t.has_static_shape() for t in memref_types):
        return None
    # Both packed panels share one buffer, of the inputs' element type.
    if memref_types[0].get_element_type() != memref_types[1].get_element_type():
        return None
    found_maps = [_map_loops(attr.data) for attr in generic.indexing_maps]
    all_maps = [loops for loops in found_maps if loops is not None]
    if len(all_maps) != 3 or any(len(set(m)) != len(m) for m in all_maps):
        return None
    # The columns: the output's last loop, which one input reads (the rhs);
    # the rows: the last output loop before them that only the other input
    # reads. The batch: every other output loop, wherever it lies (a
    # row-tiled convolution writes N x F x T x Q: the tiles T between the
    # rows F and the columns Q), which an input reads too or not at all (a
    # convolution's weights, shared by its batch).
    out_all = all_maps[2]
    column = out_all[-1]
    readers = [index for index in (0, 1) if column in all_maps[index]]
    if len(readers) != 1:
        return None
    rhs_loops, lhs_loops = all_maps[readers[0]], all_maps[1 - readers[0]]
    rows = [x for x in out_all[:-1] if x in lhs_loops and x not in rhs_loops]
    if not rows:
        return None
    batch = tuple(x for x in out_all if x not in (rows[-1], column))
    if len(batch) != batch_count or any(
        kinds[loop] != IteratorType.PARALLEL for loop in batch
    ):
        return None
    maps = [[x for x in loops if x not in batch] for loops in all_maps]
    if any(len(loops) != 2 for loops in maps):
        return None
    reduction = kinds.index(IteratorType.REDUCTION)
    out_loops = maps[2]
    roles = _operand_roles(maps, reduction)
    if roles is None:
        return None
    lhs, rhs = roles
    output = generic.outputs[0]
    if any(may_alias(value, output) for value in generic.inputs):
        return None
    out_shape, lhs_shape = (
        [
            size
            for x, size in zip(all_maps[i], memref_types[i].get_shape())
            if x not in batch
        ]
        for i in (2, lhs.index)
    )
    return Matmul(
        generic,
        row_loop=out_loops[0],
        column_loop=out_loops[1],
        reduction_loop=reduction,
        lhs=lhs,
        rhs=rhs,
        out=_Operand(2, True),
        rows=out_shape[0],
        columns=out_shape[1],
        depth=lhs_shape[1] if lhs.outer_first else lhs_shape[0],
        batch_loops=batch,
    )


# --------------------------------------------------------------------------
# Peeling: static regions
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """A range of one loop: `tile` is its cache tile size, 0 for a tail that
    no register tile covers."""

    offset: int
    size: int
    tile: int


def segments(extent: int, cache_tile: int, register_tile: int) -> list[Segment]:
    """`[0, extent)` as full cache tiles, whole register tiles, then a tail."""
    full = extent // cache_tile * cache_tile
    rest = extent - full
    whole = rest // register_tile * register_tile
    found = [
        Segment(0, full, cache_tile),
        Segment(full, whole, whole),
        Segment(full + whole, rest - whole, 0),
    ]
    return [segment for segment in found if segment.size]


def vector_tail(
    found: Sequence[Segment], vector_unit: tuple[int, int]
) -> list[Segment]:
    """`found` with a tail that no vector divides split into the most
    columns that vectors do and the rest (a 7 x 7 convolution's 49 pixels:
    32, then 16 in vectors, then 1 plain), so that only the rest is left to
    a plain contraction; `vector_unit` is (vector bits, element bits)."""
    split: list[Segment] = []
    for segment in found:
        if segment.tile or vector_lanes(segment.size, *vector_unit):
            split.append(segment)
            continue
        whole = next(
            (
                size
                for size in range(segment.size - 1, 0, -1)
                if vector_lanes(size, *vector_unit)
            ),
            0,
        )
        if whole:
            split.append(Segment(segment.offset, whole, 0))
        split.append(Segment(segment.offset + whole, segment.size - whole, 0))
    return split


def _region_view(
    value: SSAValue, loops: Sequence[int], ranges: dict[int, Segment], at: InsertPoint
) -> SSAValue:
    """The part of `value` (indexed by `loops`) that the region's loops touch."""
    value_type = value.type
    assert isinstance(value_type, MemRefType)
    shape = value_type.get_shape()
    offsets = [ranges[loop].offset for loop in loops]
    sizes = [ranges[loop].size for loop in loops]
    if offsets == [0] * len(loops) and list(shape) == sizes:
        return value
    return strided_view(value, offsets, sizes, [1] * len(sizes), at)


def _region(matmul: Matmul, ranges: dict[int, Segment]) -> GenericOp:
    """A clone of the matmul on the region `ranges`, inserted before it."""
    generic = matmul.generic
    at = InsertPoint.before(generic)
    region = generic.clone()
    operands = [*generic.inputs, *generic.outputs]
    views = []
    for value, attr in zip(operands, generic.indexing_maps, strict=True):
        loops = _map_loops(attr.data)
        assert loops is not None
        views.append(_region_view(value, loops, ranges, at))
    region.operands = views
    Rewriter.insert_op(region, at)
    return region


# --------------------------------------------------------------------------
# Packing
# --------------------------------------------------------------------------


def _expand(
    value: SSAValue, groups: list[list[int]], shape: list[int], at: InsertPoint
) -> SSAValue:
    """`memref.expand_shape` of a strided `value` into the static `shape`
    (MLIR's `computeExpandedLayoutMap`: each dimension's stride goes to the
    innermost dimension of its group), inserted at `at`."""
    source = value.type
    assert isinstance(source, MemRefType)
    strides, offset = memref_strides(source)
    expanded: list[int] = [0] * len(shape)
    for source_dim, group in enumerate(groups):
        running = strides[source_dim]
        assert running is not None
        for dim in reversed(group):
            expanded[dim] = running
            running *= shape[dim]
    result_type = MemRefType(
        source.get_element_type(),
        shape,
        StridedLayoutAttr(list[int | None](expanded), offset),
    )
    reassociation = ArrayAttr(
        [ArrayAttr([IntegerAttr(dim, i64) for dim in group]) for group in groups]
    )
    expand = memref.ExpandShapeOp.build(
        operands=[value, []],
        result_types=[result_type],
        properties={
            "reassociation": reassociation,
            "static_output_shape": DenseArrayBase.from_list(i64, shape),
        },
    )
    Rewriter.insert_op(expand, at)
    return expand.results[0]


def _generic(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    body: Region,
    maps: Sequence[AffineMap],
    kinds: Sequence[IteratorType],
) -> GenericOp:
    return GenericOp(
        list(inputs),
        list(outputs),
        body,
        [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr(kind) for kind in kinds],
    )


def _panel_view(
    packed: SSAValue, offset: SSAValue | int, shape: list[int], at: InsertPoint
) -> SSAValue:
    """The `shape` (row-major) part of the 1-D buffer `packed` at `offset`."""
    size = shape[0] * shape[1] * shape[2]
    flat = strided_view(packed, [offset], [size], [1], at)
    return _expand(flat, [[0, 1, 2]], shape, at)


def _copy_into_panels(
    tile: SSAValue, outer_first: bool, micro: int, panels: SSAValue, at: InsertPoint
) -> GenericOp:
    """Copy `tile` (X x K, or K x X when not `outer_first`) into `panels`
    (`[X / micro, K, micro]`): micro-panels of `micro` rows (or columns),
    each K-major, so that a micro-kernel's step reads consecutive addresses."""
    tile_type = tile.type
    assert isinstance(tile_type, MemRefType)
    shape = list(tile_type.get_shape())
    extent, depth = (shape[0], shape[1]) if outer_first else (shape[1], shape[0])
    count = extent // micro
    if outer_first:
        groups, expanded_shape = [[0, 1], [2]], [count, micro, depth]
    else:
        groups, expanded_shape = [[0], [1, 2]], [depth, count, micro]
    expanded = _expand(tile, groups, expanded_shape, at)
    element = tile_type.get_element_type()
    d0, d1, d2 = (AffineMap.identity(3).results[i] for i in range(3))
    # Loops (panel, k, within the panel): the packed buffer in order.
    read = (d0, d2, d1) if outer_first else (d1, d0, d2)
    body = Block(arg_types=[element, element])
    body.args[0].name_hint, body.args[1].name_hint = "in", "out"
    body.add_op(LinalgYieldOp(body.args[0]))
    copy = _generic(
        [expanded],
        [panels],
        Region(body),
        [AffineMap(3, 0, read), AffineMap.identity(3)],
        [IteratorType.PARALLEL] * 3,
    )
    Rewriter.insert_op(copy, at)
    return copy


@dataclass(frozen=True)
class Blocking:
    """One matmul's tiles, each a whole number of register tiles: the
    register tile (MR x NR); MC, the rows of one parallel iteration; NC, the
    columns of B packed at once (for the whole K); KC, the K step of the
    micro-kernels; `chunks`, how many parallel column ranges each NC block
    splits into (so that few rows still give the threads work)."""

    mr: int
    nr: int
    mc: int
    nc: int
    kc: int
    chunks: int = 1
    # False: the micro-kernels read B where it is (K x N, rows contiguous),
    # for matmuls of too few rows to repay packing it (`RHS_PACK_MIN_ROW_TILES`).
    pack_rhs: bool = True

    def buffer_elements(self, rows: int, depth: int) -> tuple[int, int]:
        """Elements of the packed A (all its rows, the whole K) and B (NC
        columns, the whole K; none unless `pack_rhs`), each a whole number
        of `PACK_ALIGNMENT` lines (`PACK_ALIGNMENT` elements: whole lines
        for elements of any size)."""
        line = PACK_ALIGNMENT
        lhs = -(-rows * depth // line) * line
        rhs = -(-self.nc * depth // line) * line if self.pack_rhs else 0
        return lhs, rhs


def _loop(
    extent: int, step: int, at: InsertPoint, hint: str
) -> tuple[SSAValue | int, InsertPoint]:
    """An `scf.for` over `[0, extent)` by `step` at `at`: its induction
    variable and the point inside its body; no loop (offset 0) for one step."""
    if extent <= step:
        return 0, at
    body = Block(arg_types=[IndexType()])
    body.args[0].name_hint = hint
    body.add_op(ScfYieldOp())
    loop = ForOp(
        index_constant(0, at),
        index_constant(extent, at),
        index_constant(step, at),
        [],
        Region(body),
    )
    Rewriter.insert_op(loop, at)
    terminator = body.last_op
    assert terminator is not None
    return body.args[0], InsertPoint.before(terminator)


def _tile_loops(
    extents: Sequence[int], steps: Sequence[int], parallel: bool, at: InsertPoint
) -> tuple[list[SSAValue | int], InsertPoint]:
    """Loops over `extents` by `steps`: one `scf.parallel` (OpenMP) over
    those with more than one step, or nested `scf.for`s."""
    looped = [i for i, (n, step) in enumerate(zip(extents, steps)) if n > step]
    offsets: list[SSAValue | int] = [0] * len(extents)
    if not parallel or not looped:
        for i in looped:
            offsets[i], at = _loop(extents[i], steps[i], at, "t")
        return offsets, at
    block = Block(arg_types=[IndexType()] * len(looped))
    block.add_op(ReduceOp())
    loop = ParallelOp(
        [index_constant(0, at) for _ in looped],
        [index_constant(extents[i], at) for i in looped],
        [index_constant(steps[i], at) for i in looped],
        Region(block),
    )
    Rewriter.insert_op(loop, at)
    for i, arg in zip(looped, block.args, strict=True):
        arg.name_hint = "t"
        offsets[i] = arg
    terminator = block.last_op
    assert terminator is not None
    return offsets, InsertPoint.before(terminator)


def _block(
    value: SSAValue,
    offsets: Sequence[SSAValue | int],
    sizes: Sequence[int],
    at: InsertPoint,
) -> SSAValue:
    """The `sizes` block of the rank-2 `value` at `offsets` (itself if whole)."""
    value_type = value.type
    assert isinstance(value_type, MemRefType)
    if list(offsets) == [0, 0] and list(value_type.get_shape()) == list(sizes):
        return value
    return strided_view(value, offsets, sizes, [1, 1], at)


def _operand_block(
    value: SSAValue,
    operand: _Operand,
    outer: tuple[SSAValue | int, int],
    depth: tuple[SSAValue | int, int],
    at: InsertPoint,
) -> SSAValue:
    """The block of an operand indexed by (outer, K), in its orientation."""
    first, second = (outer, depth) if operand.outer_first else (depth, outer)
    return _block(value, [first[0], second[0]], [first[1], second[1]], at)


def _scaled(value: SSAValue | int, factor: int, at: InsertPoint) -> SSAValue | int:
    """`value * factor` (an `arith.muli` for a value known at run time)."""
    if isinstance(value, int):
        return value * factor
    product = arith.MuliOp(value, index_constant(factor, at))
    Rewriter.insert_op(product, at)
    return product.result


def _micro_kernels(
    matmul: Matmul,
    body: Region,
    lhs: SSAValue,
    rhs: SSAValue,
    out: SSAValue,
    blocking: Blocking,
    at: InsertPoint,
) -> None:
    """The block's product over packed `lhs` (`[M0, K, MR]`) and `rhs`
    (`[N0, K, NR]` packed, or `[K, N0, NR]` in place) into `out` (M0 * MR x
    N0 * NR), as MR x NR micro-kernels marked `irkit.register_tile`."""
    mr, nr = blocking.mr, blocking.nr
    out_type = out.type
    assert isinstance(out_type, MemRefType)
    rows, columns = out_type.get_shape()
    out_view = _expand(out, [[0, 1], [2, 3]], [rows // mr, mr, columns // nr, nr], at)
    # Loops (n0, m0, m1, n1, k): the micro-kernels' columns of panels
    # outermost, so that one rhs micro-panel stays in L1 while every lhs
    # micro-panel of the block streams past it (BLIS's jr/ir order).
    n0, m0, m1, n1, k = (AffineMap.identity(5).results[i] for i in range(5))
    maps: list[AffineMap] = [AffineMap(5, 0, ())] * 3
    maps[matmul.lhs.index] = AffineMap(5, 0, (m0, k, m1))
    rhs_loops = (n0, k, n1) if blocking.pack_rhs else (k, n0, n1)
    maps[matmul.rhs.index] = AffineMap(5, 0, rhs_loops)
    maps[2] = AffineMap(5, 0, (m0, m1, n0, n1))
    inputs = [lhs, rhs] if matmul.lhs.index == 0 else [rhs, lhs]
    compute = _generic(
        inputs,
        [out_view],
        body.clone(),
        maps,
        [IteratorType.PARALLEL] * 4 + [IteratorType.REDUCTION],
    )
    Rewriter.insert_op(compute, at)
    tiling = tile_generic(compute, [1, 1, 0, 0, 0])
    kernel = compute if tiling is None else tiling.tiled
    kernel.attributes[REGISTER_TILE_ATTR] = UnitAttr()


def _pack_region(
    matmul: Matmul,
    region: GenericOp,
    tiles: tuple[int, int],
    blocking: Blocking,
    buffers: tuple[SSAValue, SSAValue | None],
    parallel: bool,
    rhs_packed: bool = False,
    lhs_packed: bool = False,
) -> None:
    """Replace `region` (static, its rows a multiple of `tiles[0]`, its
    columns of `tiles[1]`) by BLIS's loops with both operands packed once:
    A's rows for the whole K into `buffers[0]`; over NC columns, B's block
    for the whole K into `buffers[1]` (None: B read in place; `rhs_packed`:
    already there, for a region of one NC block); over MC rows and column
    chunks, in parallel, and over KC steps, the micro-kernels (`lhs_packed`:
    A's panels are in `buffers[0]` already). `parallel`:
    those loops and the packing copies are `scf.parallel`."""
    mc, nc = tiles
    mr, nr = blocking.mr, blocking.nr
    lhs_buffer, rhs_buffer = buffers
    at = InsertPoint.before(region)
    operands = [*region.inputs, *region.outputs]
    out_type = region.outputs[0].type
    assert isinstance(out_type, MemRefType)
    rows, columns = out_type.get_shape()
    lhs_type = operands[matmul.lhs.index].type
    assert isinstance(lhs_type, MemRefType)
    depth = lhs_type.get_shape()[1 if matmul.lhs.outer_first else 0]
    chunk = nc // _largest_divisor(nc // nr, blocking.chunks)

    copies = []
    if not lhs_packed:
        lhs_panels = _panel_view(lhs_buffer, 0, [rows // mr, depth, mr], at)
        lhs = operands[matmul.lhs.index]
        copies.append(
            _copy_into_panels(lhs, matmul.lhs.outer_first, mr, lhs_panels, at)
        )
    jc, at = _loop(columns, nc, at, "jc")
    rhs_block = _operand_block(
        operands[matmul.rhs.index], matmul.rhs, (jc, nc), (0, depth), at
    )
    if rhs_buffer is not None and not rhs_packed:
        rhs = _panel_view(rhs_buffer, 0, [nc // nr, depth, nr], at)
        copies.append(_copy_into_panels(rhs_block, matmul.rhs.outer_first, nr, rhs, at))
    if parallel:
        for copy in copies:
            tile_generic(copy, [1, 0, 0])
    out_columns = _block(operands[2], [0, jc], [rows, nc], at)
    (ic, cc), at = _tile_loops([rows, nc], [mc, chunk], parallel, at)
    # A's micro-panels of these rows: `[MC / MR, K, MR]` from panel ic / MR.
    lhs_rows = _panel_view(
        lhs_buffer, _scaled(ic, depth, at), [mc // mr, depth, mr], at
    )
    if rhs_buffer is not None:
        # B's micro-panels of this chunk: `[chunk / NR, K, NR]` from panel
        # cc / NR.
        chunk_rhs = _panel_view(
            rhs_buffer, _scaled(cc, depth, at), [chunk // nr, depth, nr], at
        )
    else:
        # B's K x chunk columns in place, as `[K, chunk / NR, NR]`.
        in_place = _block(rhs_block, [0, cc], [depth, chunk], at)
        chunk_rhs = _expand(in_place, [[0], [1, 2]], [depth, chunk // nr, nr], at)
    out = _block(out_columns, [ic, cc], [mc, chunk], at)
    full = depth // blocking.kc * blocking.kc
    steps = [(0, full, blocking.kc), (full, depth - full, depth - full)]
    for start, extent, kc in steps:
        if not extent:
            continue
        pc, inside = _loop(extent, kc, at, "pc")
        if start:
            pc = start if isinstance(pc, int) else pc
        lhs_step = strided_view(
            lhs_rows, [0, pc, 0], [mc // mr, kc, mr], [1, 1, 1], inside
        )
        if rhs_buffer is not None:
            offsets, sizes = [0, pc, 0], [chunk // nr, kc, nr]
        else:
            offsets, sizes = [pc, 0, 0], [kc, chunk // nr, nr]
        rhs_step = strided_view(chunk_rhs, offsets, sizes, [1, 1, 1], inside)
        _micro_kernels(matmul, region.body, lhs_step, rhs_step, out, blocking, inside)
    Rewriter.erase_op(region)


# --------------------------------------------------------------------------
# Blocking: the cache tiles
# --------------------------------------------------------------------------


# Parallel iterations (row blocks x column chunks) each packed matmul aims
# for, so that every thread of a many-core host gets several: a matmul of
# few rows splits its columns into chunks (OpenMP's static schedule then
# gives each thread a contiguous run).
PARALLEL_ITERATIONS = 16
# Matmuls of fewer rows than this many register tiles read B in place
# instead of packing it (when B's rows are contiguous).
RHS_PACK_MIN_ROW_TILES = 16
# The most a batch's packed matrices, one part per parallel iteration, may
# take; a larger batch packs one matrix at a time.
PER_MATRIX_BUFFER_BYTES = 64 * 1024 * 1024


def _largest_divisor(value: int, at_most: int) -> int:
    return max(d for d in range(1, max(min(value, at_most), 1) + 1) if value % d == 0)


def blocking_for(
    matmul: Matmul,
    mr: int,
    nr: int,
    cache_tiles: Sequence[int],
    cache_bytes: Sequence[int],
    element: int,
) -> Blocking:
    """The matmul's blocking: `cache_tiles` (MC, NC, KC) where given, else
    from the caches (`cache_tile_shape`, NC with B's block over the whole
    K in half of L3), clamped to the matmul's whole register tiles, with
    the column chunks that make `PARALLEL_ITERATIONS`."""
    if cache_tiles:
        mc, nc, kc = cache_tiles
    else:
        mc, nc, kc = cache_tile_shape(mr, nr, element, *cache_bytes)
        nc = max(cache_bytes[2] // 2 // (matmul.depth * element) // nr, 1) * nr
    kc = max(min(kc, matmul.depth), 1)
    tiles = max(matmul.rows // mr, 1)
    groups = max(min(mc // mr, tiles), 1)
    # Row blocks that divide the rows' register tiles, unless that would
    # halve them (a remainder block then runs as a region of its own).
    divisor = _largest_divisor(tiles, groups)
    mc = (divisor if 2 * divisor > groups else groups) * mr
    nc = max(min(nc, matmul.columns) // nr, 1) * nr
    row_blocks = max(matmul.rows // mc, 1)
    wanted = -(-PARALLEL_ITERATIONS // row_blocks)
    chunks = _largest_divisor(nc // nr, wanted)
    return Blocking(mr, nr, mc, nc, kc, chunks)


# --------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------


def pack_matmul_2d(
    matmul: Matmul,
    blocking: Blocking,
    buffers: tuple[SSAValue, SSAValue | None],
    parallel: bool,
    vector_unit: tuple[int, int],
    lhs_packed: bool = False,
) -> None:
    """Rewrite one matched rank-2 matmul (see the module doc) with
    `buffers` (`blocking.buffer_elements`) holding the packed A and B (None
    when `blocking.pack_rhs` is off); `lhs_packed`: A is already in
    `buffers[0]`, as `_pack_lhs_rows` packs it. A tail of fewer than MR
    rows runs micro-kernels of its rows; a tail of fewer than NR columns,
    when it is whole vectors (`vector_lanes` of `vector_unit` = vector
    bits, element bits: narrower ones too), of its columns; other tails
    stay plain."""
    row, column, reduction = (
        matmul.row_loop,
        matmul.column_loop,
        matmul.reduction_loop,
    )
    whole_depth = Segment(0, matmul.depth, 0)
    rhs_buffer = buffers[1]
    for columns in vector_tail(
        segments(matmul.columns, blocking.nc, blocking.nr), vector_unit
    ):
        columns_tile = columns.tile or (
            columns.size if vector_lanes(columns.size, *vector_unit) else 0
        )
        nr = blocking.nr if columns.tile else columns.size
        # Columns of one NC block: B packed once for every row region.
        shared = rhs_buffer is not None and columns_tile == columns.size
        if shared:
            assert rhs_buffer is not None
            _pack_rhs_columns(matmul, columns, nr, rhs_buffer, parallel)
        for rows in segments(matmul.rows, blocking.mc, blocking.mr):
            ranges = {row: rows, column: columns, reduction: whole_depth}
            region = _region(matmul, ranges)
            if not columns_tile:
                continue
            local = replace(blocking, mr=blocking.mr if rows.tile else rows.size, nr=nr)
            tiles = (rows.tile or rows.size, columns_tile)
            region_buffers = buffers
            if lhs_packed:
                # This segment's panels, where `_pack_lhs_rows` put them.
                panels = strided_view(
                    buffers[0],
                    [rows.offset * matmul.depth],
                    [rows.size * matmul.depth],
                    [1],
                    InsertPoint.before(region),
                )
                region_buffers = (panels, rhs_buffer)
            _pack_region(
                matmul,
                region,
                tiles,
                local,
                region_buffers,
                parallel,
                shared,
                lhs_packed,
            )
    Rewriter.erase_op(matmul.generic)


def _pack_rhs_columns(
    matmul: Matmul, columns: Segment, nr: int, buffer: SSAValue, parallel: bool
) -> None:
    """B's `columns` over the whole K packed into `buffer` as `[columns /
    NR, K, NR]`, before the matmul."""
    generic = matmul.generic
    at = InsertPoint.before(generic)
    rhs = generic.inputs[matmul.rhs.index]
    loops = _map_loops(generic.indexing_maps.data[matmul.rhs.index].data)
    assert loops is not None
    ranges = {
        matmul.column_loop: columns,
        matmul.reduction_loop: Segment(0, matmul.depth, 0),
    }
    block = _region_view(rhs, loops, ranges, at)
    panels = _panel_view(buffer, 0, [columns.size // nr, matmul.depth, nr], at)
    copy = _copy_into_panels(block, matmul.rhs.outer_first, nr, panels, at)
    if parallel:
        tile_generic(copy, [1, 0, 0])


def _batch_slice(
    value: SSAValue,
    loops: Sequence[int],
    batch: dict[int, SSAValue],
    at: InsertPoint,
) -> SSAValue:
    """The matrix of `value` (indexed by `loops`) at the batch indices
    `batch` (loop -> index), as a rank-2 view (a rank-reducing subview)."""
    value_type = value.type
    assert isinstance(value_type, MemRefType)
    shape = list(value_type.get_shape())
    strides, _ = memref_strides(value_type)
    kept = [dim for dim, loop in enumerate(loops) if loop not in batch]
    result_type = MemRefType(
        value_type.get_element_type(),
        [shape[dim] for dim in kept],
        StridedLayoutAttr(list[int | None]([strides[dim] for dim in kept]), None),
    )
    offsets: list[SSAValue | int] = [batch.get(loop, 0) for loop in loops]
    sizes = [1 if loop in batch else size for loop, size in zip(loops, shape)]
    view = memref.SubviewOp.get(value, offsets, sizes, [1] * len(shape), result_type)
    view.result.name_hint = "matrix"
    Rewriter.insert_op(view, at)
    return view.result


def _batch_loop(
    extents: Sequence[int], parallel: bool, at: InsertPoint
) -> tuple[list[SSAValue], InsertPoint]:
    """The loops over the batch: one `scf.parallel` or nested `scf.for`s."""
    if parallel:
        block = Block(arg_types=[IndexType()] * len(extents))
        block.add_op(ReduceOp())
        loop = ParallelOp(
            [index_constant(0, at) for _ in extents],
            [index_constant(extent, at) for extent in extents],
            [index_constant(1, at) for _ in extents],
            Region(block),
        )
        Rewriter.insert_op(loop, at)
        terminator = block.last_op
        assert terminator is not None
        for arg in block.args:
            arg.name_hint = "b"
        return list(block.args), InsertPoint.before(terminator)
    indices: list[SSAValue] = []
    for extent in extents:
        index, at = _loop(extent, 1, at, "b")
        assert not isinstance(index, int) or extent == 1
        indices.append(index_constant(0, at) if isinstance(index, int) else index)
    return indices, at


def _per_matrix(
    matmul: Matmul,
    batch: Sequence[SSAValue],
    replaced: dict[int, SSAValue],
    at: InsertPoint,
) -> Matmul:
    """The batch matmul's product of one batch element (`batch`: the batch
    loops' indices): a rank-2 matmul on rank-reducing views, at `at`; an
    operand in `replaced` is read from the value there instead, the
    element's matrix alone (its batch dimensions of size 1)."""
    generic = matmul.generic
    kinds = generic.get_iterator_types().data
    at_batch = dict(zip(matmul.batch_loops, batch, strict=True))
    inner = [loop for loop in range(len(kinds)) if loop not in at_batch]
    renumber = {loop: AffineExpr.dimension(i) for i, loop in enumerate(inner)}
    maps: list[AffineMap] = []
    operands: list[SSAValue] = []
    for value, attr in zip(
        [*generic.inputs, *generic.outputs], generic.indexing_maps, strict=True
    ):
        loops = _map_loops(attr.data)
        assert loops is not None
        kept = tuple(renumber[x] for x in loops if x not in at_batch)
        maps.append(AffineMap(3, 0, kept))
        index = len(operands)
        if index in replaced:
            zero = index_constant(0, at)
            origin = dict.fromkeys(at_batch, zero)
            operands.append(_batch_slice(replaced[index], loops, origin, at))
        else:
            operands.append(_batch_slice(value, loops, at_batch, at))
    inner_kinds = [kinds[loop].data for loop in inner]
    matrix = _generic(
        operands[:2], operands[2:], generic.body.clone(), maps, inner_kinds
    )
    Rewriter.insert_op(matrix, at)
    found = match_matmul(matrix)
    assert found is not None
    return found


def _linear_index(
    indices: Sequence[SSAValue], extents: Sequence[int], at: InsertPoint
) -> SSAValue | int:
    """`indices` in row-major order over `extents`, as one index."""
    linear: SSAValue | int = 0
    for index, extent in zip(indices, extents, strict=True):
        scaled = _scaled(linear, extent, at)
        if isinstance(scaled, int) and scaled == 0:
            linear = index
            continue
        assert not isinstance(scaled, int)
        total = arith.AddiOp(scaled, index)
        Rewriter.insert_op(total, at)
        linear = total.result
    return linear


def pack_matmul(
    matmul: Matmul,
    cache_tiles: Sequence[int],
    cache_bytes: Sequence[int],
    vector_bits: int,
    vector_registers: int,
) -> bool:
    """Rewrite one matched matmul (see the module doc); False if too small
    (or, inside a parallel loop, its buffer too large for the stack)."""
    generic = matmul.generic
    out_type = generic.outputs[0].type
    assert isinstance(out_type, MemRefType)
    bits = 8 * (element_bytes(out_type.get_element_type()) or 4)
    mr, nr = register_tile_shape(bits, vector_bits, vector_registers)
    if matmul.rows < mr or matmul.columns < nr:
        return False
    input_type = cast(MemRefType[Attribute], generic.inputs[0].type)
    packed_type = input_type.get_element_type()
    element = element_bytes(packed_type) or 4
    out_loops = _map_loops(generic.indexing_maps.data[2].data) or []
    batch_extents = [
        size
        for loop, size in zip(out_loops, out_type.get_shape(), strict=True)
        if loop in matmul.batch_loops
    ]
    # B is read in place (its rows contiguous) by matmuls of few rows: each
    # of its elements is used by few micro-kernels, and packing it would
    # cost as much as the product.
    pack_rhs = matmul.rhs.outer_first or matmul.rows >= RHS_PACK_MIN_ROW_TILES * mr
    blocking = replace(
        blocking_for(matmul, mr, nr, cache_tiles, cache_bytes, element),
        pack_rhs=pack_rhs,
    )
    lhs_elements, rhs_elements = blocking.buffer_elements(matmul.rows, matmul.depth)
    # An A that no batch loop reads (a convolution's weights) is packed once
    # for the whole batch, before its loop; each matrix packs only its B.
    lhs_loops = _map_loops(generic.indexing_maps.data[matmul.lhs.index].data) or []
    shared_lhs = bool(matmul.batch_loops) and not set(lhs_loops) & set(
        matmul.batch_loops
    )
    per_copy = rhs_elements + (0 if shared_lhs else lhs_elements)
    # A batch of enough matrices runs a matrix per parallel iteration, each
    # with its own part of the buffer, while those parts stay within
    # `PER_MATRIX_BUFFER_BYTES` (a batch of 32 images of a late ResNet stage
    # would take 300 MB); others share the threads, one matrix at a time.
    matrices = prod(batch_extents)
    per_matrix = (
        matrices >= PARALLEL_ITERATIONS // 2
        and matrices * per_copy * element <= PER_MATRIX_BUFFER_BYTES
    )
    # A matmul inside a parallel loop (the tile products of a fused
    # attention) runs on that iteration's thread: its loops are sequential
    # and its buffer is on that iteration's stack. A heap buffer would keep
    # the parallel loop serial (`malloc` may fail there): a matmul whose
    # buffer does not fit the stack is left to `linalg-tile-contractions`.
    nested = _in_parallel_loop(generic)
    # Operands computed per batch element (the im2col gather of a
    # row-tiled convolution) in its parallel iteration, right before it.
    producers = [
        producer
        for producer in (batch_producer(matmul, operand) for operand in (0, 1))
        if producer is not None and per_matrix and not nested
    ]
    # With producers the matrices run on `workers` parallel iterations, each
    # its matrices one after the other in one slot of the buffers (its
    # packed B, its producers' parts): the buffers hold as many matrices as
    # run at once, not the whole batch (`_worker_loops`).
    workers = min(matrices, PARALLEL_ITERATIONS) if producers else matrices
    copies = workers if per_matrix else 1
    elements = (lhs_elements if shared_lhs else 0) + copies * per_copy
    if nested and elements * element > MAX_STACK_BYTES:
        return False
    at = InsertPoint.before(generic)
    packed: memref.AllocaOp | memref.AllocOp
    if nested:
        packed = memref.AllocaOp.get(
            packed_type, alignment=PACK_ALIGNMENT, shape=[elements]
        )
        Rewriter.insert_op(packed, at)
    else:
        packed = memref.AllocOp.get(
            packed_type, alignment=PACK_ALIGNMENT, shape=[elements]
        )
        Rewriter.insert_op(packed, at)
        Rewriter.insert_op(
            memref.DeallocOp.get(packed.memref), InsertPoint.after(generic)
        )
    packed.memref.name_hint = "packed"
    for producer in producers:
        # What it loads is read inside the matmul's loop now: freed after it.
        for deallocation in producer.deallocations:
            deallocation.detach()
            Rewriter.insert_op(deallocation, InsertPoint.after(generic))
    slots = [_column_slots(matmul, producer, workers, at) for producer in producers]
    lhs_buffer: SSAValue | None = None
    shared_base = 0
    if shared_lhs:
        lhs_buffer = strided_view(packed.memref, [0], [lhs_elements], [1], at)
        _pack_lhs_rows(matmul, blocking, lhs_buffer, not nested, at)
        shared_base = lhs_elements
    batch: list[SSAValue] = []
    base: SSAValue | int = shared_base
    replaced: dict[int, SSAValue] = {}
    if matmul.batch_loops:
        if producers:
            worker, batch, at = _worker_loops(batch_extents, workers, at)
            slot: SSAValue | int = worker
            for producer, producer_slots in zip(producers, slots, strict=True):
                replaced[producer.operand] = _slot_matrix(
                    producer, producer_slots, worker, batch, at
                )
        else:
            batch, at = _batch_loop(batch_extents, per_matrix, at)
            slot = _linear_index(batch, batch_extents, at) if per_matrix else 0
        if per_matrix and per_copy:
            base = _plus(_scaled(slot, per_copy, at), shared_base, at)
    if lhs_buffer is None:
        lhs_buffer = strided_view(packed.memref, [base], [lhs_elements], [1], at)
        base = _plus(base, lhs_elements, at)
    rhs_buffer = None
    if pack_rhs:
        rhs_buffer = strided_view(packed.memref, [base], [rhs_elements], [1], at)
    matrix = _per_matrix(matmul, batch, replaced, at) if matmul.batch_loops else matmul
    pack_matmul_2d(
        matrix,
        blocking,
        (lhs_buffer, rhs_buffer),
        not per_matrix and not nested,
        (vector_bits, bits),
        lhs_packed=shared_lhs,
    )
    if matrix is not matmul:
        Rewriter.erase_op(generic)
    for producer in producers:
        Rewriter.erase_op(producer.generic)
        _erase_columns(producer)
    return True


def _pack_lhs_rows(
    matmul: Matmul,
    blocking: Blocking,
    buffer: SSAValue,
    parallel: bool,
    at: InsertPoint,
) -> None:
    """A's rows over the whole K packed into `buffer` at `at`, each row
    segment of `pack_matmul_2d` (`segments`) at its first row times K, in
    its micro-panels (`[rows / MR, K, MR]`, MR the segment's): what every
    region of every matrix reads when A is shared by the batch."""
    generic = matmul.generic
    lhs = generic.inputs[matmul.lhs.index]
    lhs_type = lhs.type
    assert isinstance(lhs_type, MemRefType)
    assert lhs_type.get_num_dims() == 2
    for rows in segments(matmul.rows, blocking.mc, blocking.mr):
        mr = blocking.mr if rows.tile else rows.size
        block = _operand_block(
            lhs, matmul.lhs, (rows.offset, rows.size), (0, matmul.depth), at
        )
        panels = _panel_view(
            buffer, rows.offset * matmul.depth, [rows.size // mr, matmul.depth, mr], at
        )
        copy = _copy_into_panels(block, matmul.lhs.outer_first, mr, panels, at)
        if parallel:
            tile_generic(copy, [1, 0, 0])


def _worker_loops(
    extents: Sequence[int], workers: int, at: InsertPoint
) -> tuple[SSAValue, list[SSAValue], InsertPoint]:
    """The batch (`extents`, row-major) over `workers` parallel iterations,
    each running a contiguous run of the matrices (`w * M / W` to `(w + 1) *
    M / W`) one after the other: the worker's index (its slot), the batch
    loops' indices and the point inside."""
    matrices = prod(extents)
    block = Block(arg_types=[IndexType()])
    block.add_op(ReduceOp())
    loop = ParallelOp(
        [index_constant(0, at)],
        [index_constant(workers, at)],
        [index_constant(1, at)],
        Region(block),
    )
    Rewriter.insert_op(loop, at)
    worker = block.args[0]
    worker.name_hint = "w"
    terminator = block.last_op
    assert terminator is not None
    at = InsertPoint.before(terminator)
    linear: SSAValue = worker
    if workers != matrices:
        first, last = (
            _run_bound(worker, offset, matrices, workers, at) for offset in (0, 1)
        )
        body = Block(arg_types=[IndexType()])
        body.add_op(ScfYieldOp())
        run = ForOp(first, last, index_constant(1, at), [], Region(body))
        Rewriter.insert_op(run, at)
        linear = body.args[0]
        linear.name_hint = "b"
        inner = body.last_op
        assert inner is not None
        at = InsertPoint.before(inner)
    return worker, _split_index(linear, extents, at), at


def _run_bound(
    worker: SSAValue, offset: int, matrices: int, workers: int, at: InsertPoint
) -> SSAValue:
    """`(worker + offset) * matrices / workers`: where a worker's run of
    matrices starts (offset 0) or ends (1)."""
    shifted = worker if not offset else _added(worker, offset, at)
    scaled = _scaled(shifted, matrices, at)
    assert not isinstance(scaled, int)
    quotient = arith.DivUIOp(scaled, index_constant(workers, at))
    Rewriter.insert_op(quotient, at)
    return quotient.result


def _split_index(
    linear: SSAValue, extents: Sequence[int], at: InsertPoint
) -> list[SSAValue]:
    """`linear` (below the extents' product) split row-major into indices
    over `extents`: 0 for an extent of 1, what is left of `linear` for the
    outermost extent above 1."""
    indices: list[SSAValue] = []
    rest = linear
    for position, extent in enumerate(reversed(extents)):
        if extent == 1:
            indices.append(index_constant(0, at))
            continue
        if prod(extents[: len(extents) - 1 - position]) == 1:
            indices.append(rest)
            continue
        bound = index_constant(extent, at)
        remainder = arith.RemUIOp(rest, bound)
        quotient = arith.DivUIOp(rest, bound)
        Rewriter.insert_op([remainder, quotient], at)
        indices.append(remainder.result)
        rest = quotient.result
    return indices[::-1]


def _column_slots(
    matmul: Matmul, producer: BatchProducer, workers: int, at: InsertPoint
) -> SSAValue:
    """The buffer replacing `producer`'s allocation: one matrix's part of
    the operand it computes for each worker (`[W, 1, ..., rest]`), at `at`,
    freed after the matmul."""
    operand_type = matmul.generic.inputs[producer.operand].type
    assert isinstance(operand_type, MemRefType)
    batch = len(matmul.batch_loops)
    shape = list(operand_type.get_shape())
    slots = memref.AllocOp.get(
        operand_type.get_element_type(),
        alignment=PACK_ALIGNMENT,
        shape=[workers] + [1] * (batch - 1) + shape[batch:],
    )
    slots.memref.name_hint = "slots"
    Rewriter.insert_op(slots, at)
    Rewriter.insert_op(
        memref.DeallocOp.get(slots.memref), InsertPoint.after(matmul.generic)
    )
    return slots.memref


def _slot_matrix(
    producer: BatchProducer,
    slots: SSAValue,
    slot: SSAValue,
    batch: Sequence[SSAValue],
    at: InsertPoint,
) -> SSAValue:
    """The producer run for the matrix at `batch` into the worker's slot of
    `slots`, at `at`: returns the slot as the matmul reads it (the batch
    dimensions of size 1)."""
    slots_type = slots.type
    assert isinstance(slots_type, MemRefType)
    shape = list(slots_type.get_shape())
    matrix = strided_view(
        slots, [slot] + [0] * (len(shape) - 1), [1, *shape[1:]], [1] * len(shape), at
    )
    target = matrix
    if producer.reshape is not None:
        written = producer.generic.outputs[0].type
        assert isinstance(written, MemRefType)
        groups = [
            [cast(IntegerAttr[Any], dim).value.data for dim in group.data]
            for group in producer.reshape.reassociation.data
        ]
        leading = sum(len(dims) for dims in producer.batch_dims)
        target = _expand(
            matrix, groups, [1] * leading + list(written.get_shape())[leading:], at
        )
    _producer_slice(producer, batch, at, target)
    return matrix


def _erase_columns(producer: BatchProducer) -> None:
    """The producer's allocation (and the reshape the matmul read it
    through), which its slots replaced, once nothing else reads them."""
    if producer.reshape is not None and not producer.reshape.result.uses:
        Rewriter.erase_op(producer.reshape)
    allocation = producer.allocation
    for use in list(allocation.memref.uses):
        if isinstance(use.operation, memref.DeallocOp):
            Rewriter.erase_op(use.operation)
    if not allocation.memref.uses:
        Rewriter.erase_op(allocation)


def _loaded_buffers(generic: GenericOp) -> list[SSAValue]:
    """The memrefs `generic`'s body loads from (besides its operands)."""
    return [
        op.operands[0] for op in generic.body.walk() if isinstance(op, memref.LoadOp)
    ]


def _writes_to_any(op: Operation, buffers: Sequence[SSAValue]) -> bool:
    """Whether `op` may write memory that one of `buffers` may hold: a view,
    an allocation or an op without effects writes nothing; a generic or
    fill writes its outputs, a `memref.copy` its target (an argument init
    copied into the output); any other op may write anything."""
    if op.name in VIEW_OPS or isinstance(op, memref.AllocOp | memref.AllocaOp):
        return False
    if not op.regions and is_side_effect_free(op):
        return False
    written: list[SSAValue]
    if isinstance(op, GenericOp | linalg.FillOp):
        written = list(op.outputs)
    elif isinstance(op, memref.CopyOp):
        written = [op.destination]
    else:
        return True
    return any(may_alias(value, buffer) for value in written for buffer in buffers)


@dataclass(frozen=True)
class BatchProducer:
    """A generic that `batch_producer` found, and the deallocations of what
    it loads that lie between it and the matmul (moved after the matmul
    when the producer moves into it)."""

    generic: GenericOp
    deallocations: tuple[Operation, ...]
    # The producer's leading loops each batch loop of the matmul stands
    # for (several where a reshape merged them), in order.
    batch_dims: tuple[tuple[int, ...], ...]
    # The matmul's input it computes, the reshape between (None: none) and
    # the allocation it writes (its slots replace it: `_column_slots`).
    operand: int
    reshape: memref.CollapseShapeOp | None
    allocation: memref.AllocOp


def batch_producer(matmul: Matmul, operand: int) -> BatchProducer | None:
    """The generic computing input `operand` of a batch matmul that may run
    one batch element at a time, right before that element's product (in
    its parallel iteration, so its part is still in cache when read): a
    generic with no inputs (its body computes each element from its
    indices and loads: the im2col gather), all parallel, writing a whole
    allocation through the identity map, which the matmul reads (through a
    `memref.collapse_shape` leaving the batch dimensions alone) and nothing
    else does, whose leading dimensions are the batch in the matmul's
    order, in the same block before it with nothing between that may write
    what it loads."""
    generic = matmul.generic
    value = generic.inputs[operand]
    loops = _map_loops(generic.indexing_maps.data[operand].data)
    batch = len(matmul.batch_loops)
    if loops is None or tuple(loops[:batch]) != matmul.batch_loops:
        return None
    reshape = value.owner
    batch_dims: list[tuple[int, ...]] = [(dim,) for dim in range(batch)]
    if isinstance(reshape, memref.CollapseShapeOp):
        groups = [
            tuple(cast(IntegerAttr[Any], dim).value.data for dim in group.data)
            for group in reshape.reassociation.data
        ]
        batch_dims = groups[:batch]
        merged = [dim for group in batch_dims for dim in group]
        if merged != list(range(len(merged))) or value.uses.get_length() != 1:
            return None
        value = reshape.src
    if not (isinstance(value, OpResult) and isinstance(value.op, memref.AllocOp)):
        return None
    allocation = value.op
    writers = [
        use.operation
        for use in value.uses
        if use.operation is not reshape
        and not isinstance(use.operation, memref.DeallocOp)
        and use.operation is not generic
    ]
    if len(writers) != 1 or not isinstance(writers[0], GenericOp):
        return None
    producer = writers[0]
    kinds = [kind.data for kind in producer.get_iterator_types()]
    rank = len(kinds)
    if (
        producer.inputs
        or list(producer.outputs) != [value]
        or producer.results
        or any(kind != IteratorType.PARALLEL for kind in kinds)
        or producer.indexing_maps.data[0].data != AffineMap.identity(rank)
        or producer.parent_block() is not generic.parent_block()
    ):
        return None
    loaded = _loaded_buffers(producer)
    deallocations: list[Operation] = []
    between = producer.next_op
    while between is not None and between is not generic:
        if isinstance(between, memref.DeallocOp) and any(
            root_buffer(buffer) is root_buffer(between.memref) for buffer in loaded
        ):
            deallocations.append(between)
        elif _writes_to_any(between, loaded):
            return None
        between = between.next_op
    if between is not generic:
        return None
    return BatchProducer(
        producer,
        tuple(deallocations),
        tuple(batch_dims),
        operand,
        reshape if isinstance(reshape, memref.CollapseShapeOp) else None,
        allocation,
    )


def _producer_slice(
    producer: BatchProducer,
    batch: Sequence[SSAValue],
    at: InsertPoint,
    target: SSAValue,
) -> None:
    """The producer restricted to the batch element `batch` (the matmul's
    batch loops' indices), at `at`: a clone writing `target` (that
    element's part of its output, `[1, ..., 1, rest]`), its `linalg.index`
    of a batch loop the element's index there (a merged batch loop's index
    split back, row-major, into the producer's loops)."""
    output = producer.generic.outputs[0]
    output_type = output.type
    assert isinstance(output_type, MemRefType)
    shape = list(output_type.get_shape())
    origins: dict[int, SSAValue] = {}
    for index, dims in zip(batch, producer.batch_dims, strict=True):
        rest: SSAValue = index
        for position, dim in enumerate(reversed(dims)):
            if position == len(dims) - 1:
                origins[dim] = rest
                break
            extent = index_constant(shape[dim], at)
            remainder = arith.RemUIOp(rest, extent)
            quotient = arith.DivUIOp(rest, extent)
            Rewriter.insert_op([remainder, quotient], at)
            origins[dim] = remainder.result
            rest = quotient.result
    element = producer.generic.clone()
    element.operands = [target]
    offset_indices(element.body.block, origins)
    Rewriter.insert_op(element, at)


def _in_parallel_loop(op: GenericOp) -> bool:
    """Whether `op` runs inside an `scf.parallel` or `scf.forall`."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, (ParallelOp, ForallOp)):
            return True
        parent = parent.parent_op()
    return False


def _plus(value: SSAValue | int, constant: int, at: InsertPoint) -> SSAValue | int:
    """`value + constant` (no op for a value known now or a constant 0)."""
    if isinstance(value, int):
        return value + constant
    return _added(value, constant, at) if constant else value


def _added(value: SSAValue, constant: int, at: InsertPoint) -> SSAValue:
    total = arith.AddiOp(value, index_constant(constant, at))
    Rewriter.insert_op(total, at)
    return total.result


def pack_operands(
    module: ModuleOp,
    cache_tile_sizes: Sequence[int],
    cache_bytes: Sequence[int],
    vector_bits: int,
    vector_registers: int,
) -> None:
    """Pack every matmul of `module` that the contract accepts."""
    if cache_tile_sizes and (
        len(cache_tile_sizes) != 3 or any(size < 1 for size in cache_tile_sizes)
    ):
        raise PassFailedException(
            f"{PASS_NAME}: cache-tile-sizes takes 3 sizes >= 1 (MC, NC, KC)"
        )
    if len(cache_bytes) != 3 or any(size < 1024 for size in cache_bytes):
        raise PassFailedException(
            f"{PASS_NAME}: cache-bytes takes 3 sizes >= 1024 (L1, L2, L3)"
        )
    if vector_bits < 8 or vector_registers < 4:
        raise PassFailedException(
            f"{PASS_NAME}: vector-bits must be >= 8 and vector-registers >= 4"
        )
    for op in list(module.walk()):
        if not isinstance(op, GenericOp):
            continue
        matmul = match_matmul(op)
        if matmul is not None:
            pack_matmul(
                matmul, cache_tile_sizes, cache_bytes, vector_bits, vector_registers
            )


@dataclass(frozen=True)
class LinalgPackOperandsPass(ModulePass):
    """Matmuls as packed operand panels and register micro-kernels."""

    name = PASS_NAME

    # (MC, NC, KC): rows of A's packed block, columns of B's and their K
    # step; empty (the default): from the caches (`cache_tile_shape`).
    cache_tile_sizes: tuple[int, ...] = ()
    # (L1 data, L2, L3) bytes: the target's `CpuHardware` (its defaults).
    cache_bytes: tuple[int, ...] = DEFAULT_CACHE_BYTES
    # The vector unit (the target's `CpuHardware`; AVX2 by default).
    vector_bits: int = 256
    vector_registers: int = 16

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pack_operands(
            op,
            self.cache_tile_sizes,
            self.cache_bytes,
            self.vector_bits,
            self.vector_registers,
        )
