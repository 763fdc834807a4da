"""`linalg-pack-operands`: a matmul as packed panels and register micro-kernels.

The CPU GEMM of BLIS and OpenBLAS (Goto's algorithm), built from linalg ops
the way MLIR's `linalg.pack` and IREE's data tiling (`linalg.mmt4d`) build
it. A static matmul-class `linalg.generic` on memrefs,

```mlir
linalg.generic {(i, k), (k, j) -> (i, j)} ins(%a, %b) outs(%c)   // M x N x K
```

is split by peeling into regions whose sizes are all static: the part of
each of M and N that full cache tiles (`cache-tile-sizes` = MC, NC, KC)
cover, then the rest of it that whole register tiles (MR rows, NR columns)
cover, then a tail of fewer than MR rows or NR columns; K into full KC steps
and the rest. Each region whose rows and columns are whole register tiles is
tiled into cache tiles (an `scf.parallel` over the MC x NC tiles, which
OpenMP runs, an `scf.for` over the K steps), and in each tile

```mlir
%lhs = memref.alloca() {alignment = 64} : memref<M0xKCxMRxf32>   // M0 = MC / MR
linalg.generic ins(expand(%a_tile)) outs(%lhs)   // lhs[m0, k, m1] = a[m0 * MR + m1, k]
%rhs = memref.alloca() {alignment = 64} : memref<N0xKCxNRxf32>
linalg.generic ins(expand(%b_tile)) outs(%rhs)   // rhs[n0, k, n1] = b[k, n0 * NR + n1]
scf.parallel (%n0, %m0) = ... step (1, 1) {      // the micro-kernels
  linalg.generic {irkit.register_tile}
      ins(%lhs[m0] : 1xKCxMR, %rhs[n0] : 1xKCxNR)
      outs(expand(%c_tile)[m0, :, n0, :] : 1xMRx1xNR)
}
```

so every micro-kernel reads both operands with unit stride from buffers
that stay in the caches (the rhs micro-panel, KC x NR, in L1; the lhs panel
in L2), and its MR x NR output is small enough to stay in vector registers
across the K loop: `linalg-vectorize-micro-kernels` (next in `lower-to-c`)
makes it vector code whose accumulators are vector values, or, without
it, `linalg-promote-accumulator` moves it to the stack.
The register tile is sized from the vector unit: NR = two vectors of the
accumulator's element type, MR = as many rows as leave room for the two
rhs vectors and one broadcast lhs element (`register_tile_shape`: 6 x 16 for
f32 on AVX2's sixteen 256-bit registers, 14 x 32 on AVX-512). Regions with
a tail of rows or columns, and matmuls this pass leaves, stay plain
contractions for `linalg-tile-contractions`.

Contract
--------
Input: linalg on memrefs (`bufferize`d), named ops generalized. The pass
looks at contractions (`irkit.analysis.structured.is_contraction`) and
ignores every other op; a contraction on tensors is rejected with a located
error. It rewrites a contraction that has three loops (two parallel, one
reduction), two rank-2 memref inputs, one indexed by the output's row loop
and the reduction (in either order), the other by the reduction and the
output's column loop (in either order), a rank-2 output indexed by both
parallel loops (in either order), static shapes, no `linalg.index`, an
output that cannot alias an input (`irkit.analysis.aliasing.may_alias`), and
at least MR rows and NR columns. Batch matmuls and anything else are left
as they are.

Output: as above; the micro-kernels carry the unit attribute
`irkit.register_tile` (`irkit.analysis.structured.REGISTER_TILE_ATTR`),
which tells the tiling passes that they are already register tiles and
`linalg-promote-accumulator` that their output fits the registers. The
packed buffers are `memref.alloca`s of at most `MAX_STACK_BYTES` each, 64-byte
aligned; cache tile sizes are rounded down to whole register tiles and
shrunk (KC first, then NC, then MC) until both fit.

Preserves: every value. Each output element is accumulated in the same
order (K ascending: the K regions run in order, each K step after the one
before), with the same operations, so results are bit-identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
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
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import may_alias
from irkit.analysis.memory import MAX_STACK_BYTES, element_bytes, memref_strides
from irkit.analysis.structured import (
    REGISTER_TILE_ATTR,
    is_contraction,
    require_buffers,
)
from irkit.dialects import memref
from irkit.transforms.utils.builders import strided_view
from irkit.transforms.utils.tiling import register_tile_shape, tile_generic

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


def _map_loops(indexing_map: AffineMap) -> list[int] | None:
    loops = [e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    return loops if len(loops) == len(indexing_map.results) else None


def match_matmul(generic: GenericOp) -> Matmul | None:
    """The matmul `generic` is, in the terms of the contract, or None."""
    if not is_contraction(generic):
        return None
    require_buffers(generic, PASS_NAME)
    kinds = [kind.data for kind in generic.get_iterator_types()]
    if len(kinds) != 3 or kinds.count(IteratorType.REDUCTION) != 1:
        return None
    if len(generic.inputs) != 2 or any(
        isinstance(op, IndexOp) for op in generic.body.walk()
    ):
        return None
    operands = [*generic.inputs, *generic.outputs]
    types = [value.type for value in operands]
    memref_types = [t for t in types if isinstance(t, MemRefType)]
    if len(memref_types) != 3 or not all(
        t.has_static_shape() and t.get_num_dims() == 2 for t in memref_types
    ):
        return None
    # Both packed panels share one buffer, of the inputs' element type.
    if memref_types[0].get_element_type() != memref_types[1].get_element_type():
        return None
    maps = [_map_loops(attr.data) for attr in generic.indexing_maps]
    if any(loops is None or len(set(loops)) != 2 for loops in maps):
        return None
    reduction = kinds.index(IteratorType.REDUCTION)
    out_loops = maps[2]
    assert out_loops is not None
    if reduction in out_loops:
        return None
    lhs = rhs = None
    for index in (0, 1):
        loops = maps[index]
        assert loops is not None
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
    output = generic.outputs[0]
    if any(may_alias(value, output) for value in generic.inputs):
        return None
    out_type = types[2]
    assert isinstance(out_type, MemRefType)
    lhs_type = types[lhs.index]
    assert isinstance(lhs_type, MemRefType)
    lhs_shape = lhs_type.get_shape()
    return Matmul(
        generic,
        row_loop=out_loops[0],
        column_loop=out_loops[1],
        reduction_loop=reduction,
        lhs=lhs,
        rhs=rhs,
        out=_Operand(2, True),
        rows=out_type.get_shape()[0],
        columns=out_type.get_shape()[1],
        depth=lhs_shape[1] if lhs.outer_first else lhs_shape[0],
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
    packed: SSAValue, offset: int, shape: list[int], at: InsertPoint
) -> SSAValue:
    """The `shape` (row-major) part of the 1-D buffer `packed` at `offset`."""
    size = shape[0] * shape[1] * shape[2]
    flat = strided_view(packed, [offset], [size], [1], at)
    return _expand(flat, [[0, 1, 2]], shape, at)


def _copy_into_panels(
    tile: SSAValue, outer_first: bool, micro: int, panels: SSAValue, at: InsertPoint
) -> None:
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


def _panel_shapes(
    matmul: Matmul, tiled: GenericOp, mr: int, nr: int
) -> tuple[list[int], list[int]]:
    """The packed lhs (`[M0, KC, MR]`) and rhs (`[N0, KC, NR]`) of a cache tile."""
    out_type = tiled.outputs[0].type
    assert isinstance(out_type, MemRefType)
    rows, columns = out_type.get_shape()
    lhs_type = tiled.inputs[matmul.lhs.index].type
    assert isinstance(lhs_type, MemRefType)
    depth = lhs_type.get_shape()[1 if matmul.lhs.outer_first else 0]
    return [rows // mr, depth, mr], [columns // nr, depth, nr]


def packed_elements(lhs: Sequence[int], rhs: Sequence[int], element: int) -> int:
    """Elements of the one buffer holding both panels, the rhs panel starting
    on a `PACK_ALIGNMENT` boundary."""
    line = max(PACK_ALIGNMENT // element, 1)
    lhs_size = -(-prod(lhs) // line) * line
    return lhs_size + prod(rhs)


def _pack_tile(matmul: Matmul, tiled: GenericOp, mr: int, nr: int) -> None:
    """Replace the cache-tile op `tiled` by packing and micro-kernels."""
    at = InsertPoint.before(tiled)
    operands = [*tiled.inputs, *tiled.outputs]
    lhs_shape, rhs_shape = _panel_shapes(matmul, tiled, mr, nr)
    element_type = cast(MemRefType[Attribute], tiled.inputs[0].type).get_element_type()
    element = element_bytes(element_type) or 4
    total = packed_elements(lhs_shape, rhs_shape, element)
    # Both panels in one stack buffer, so that one budget (MAX_STACK_BYTES)
    # bounds the cache tile and the rhs panel lies right after the lhs one.
    packed = memref.AllocaOp.get(element_type, alignment=PACK_ALIGNMENT, shape=[total])
    packed.memref.name_hint = "packed"
    Rewriter.insert_op(packed, at)
    lhs = _panel_view(packed.memref, 0, lhs_shape, at)
    rhs = _panel_view(packed.memref, total - prod(rhs_shape), rhs_shape, at)
    _copy_into_panels(operands[matmul.lhs.index], matmul.lhs.outer_first, mr, lhs, at)
    _copy_into_panels(operands[matmul.rhs.index], matmul.rhs.outer_first, nr, rhs, at)
    out = operands[2]
    rows, columns = lhs_shape[0] * mr, rhs_shape[0] * nr
    out_view = _expand(out, [[0, 1], [2, 3]], [rows // mr, mr, columns // nr, nr], at)
    # Loops (n0, m0, m1, n1, k): the micro-kernels' columns of panels
    # outermost, so that one rhs micro-panel stays in L1 while every lhs
    # micro-panel of the tile streams past it (BLIS's jr/ir order).
    n0, m0, m1, n1, k = (AffineMap.identity(5).results[i] for i in range(5))
    maps: list[AffineMap] = [AffineMap(5, 0, ())] * 3
    maps[matmul.lhs.index] = AffineMap(5, 0, (m0, k, m1))
    maps[matmul.rhs.index] = AffineMap(5, 0, (n0, k, n1))
    maps[2] = AffineMap(5, 0, (m0, m1, n0, n1))
    inputs = [lhs, rhs] if matmul.lhs.index == 0 else [rhs, lhs]
    compute = _generic(
        inputs,
        [out_view],
        tiled.body.clone(),
        maps,
        [IteratorType.PARALLEL] * 4 + [IteratorType.REDUCTION],
    )
    Rewriter.replace_op(tiled, compute)
    tiling = tile_generic(compute, [1, 1, 0, 0, 0])
    kernel = compute if tiling is None else tiling.tiled
    kernel.attributes[REGISTER_TILE_ATTR] = UnitAttr()


# --------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------


def _fit_cache_tiles(
    cache: Sequence[int], mr: int, nr: int, element: int
) -> tuple[int, int, int]:
    """(MC, NC, KC): whole register tiles, packed panels within the stack budget."""
    mc = max(cache[0] // mr, 1) * mr
    nc = max(cache[1] // nr, 1) * nr
    kc = max(cache[2], 1)
    while packed_elements([mc, kc], [nc, kc], element) * element > MAX_STACK_BYTES:
        if kc > 16:
            kc //= 2
        elif nc > nr:
            nc = max(nc // 2 // nr, 1) * nr
        elif mc > mr:
            mc = max(mc // 2 // mr, 1) * mr
        else:
            break
    return mc, nc, kc


def pack_matmul(
    matmul: Matmul, cache: Sequence[int], vector_bits: int, vector_registers: int
) -> bool:
    """Rewrite one matched matmul (see the module doc); False if too small."""
    out_type = matmul.generic.outputs[0].type
    assert isinstance(out_type, MemRefType)
    element_type = out_type.get_element_type()
    bits = 8 * (element_bytes(element_type) or 4)
    mr, nr = register_tile_shape(bits, vector_bits, vector_registers)
    if matmul.rows < mr or matmul.columns < nr:
        return False
    input_type = cast(MemRefType[Attribute], matmul.generic.inputs[0].type)
    packed_bytes = element_bytes(input_type.get_element_type()) or 4
    mc, nc, kc = _fit_cache_tiles(cache, mr, nr, packed_bytes)
    packed = packed_elements([mc, kc], [nc, kc], packed_bytes)
    if packed * packed_bytes > MAX_STACK_BYTES:
        return False
    row, column, reduction = (
        matmul.row_loop,
        matmul.column_loop,
        matmul.reduction_loop,
    )
    for rows in segments(matmul.rows, mc, mr):
        for columns in segments(matmul.columns, nc, nr):
            if not rows.tile or not columns.tile:
                whole_depth = Segment(0, matmul.depth, 0)
                _region(matmul, {row: rows, column: columns, reduction: whole_depth})
                continue
            for depth in segments(matmul.depth, kc, 1):
                region = _region(matmul, {row: rows, column: columns, reduction: depth})
                sizes = [0, 0, 0]
                sizes[row], sizes[column], sizes[reduction] = (
                    rows.tile,
                    columns.tile,
                    depth.tile,
                )
                tiling = tile_generic(region, sizes)
                _pack_tile(matmul, region if tiling is None else tiling.tiled, mr, nr)
    Rewriter.erase_op(matmul.generic)
    return True


def pack_operands(
    module: ModuleOp,
    cache_tile_sizes: Sequence[int],
    vector_bits: int,
    vector_registers: int,
) -> None:
    """Pack every matmul of `module` that the contract accepts."""
    if len(cache_tile_sizes) != 3 or any(size < 1 for size in cache_tile_sizes):
        raise PassFailedException(
            f"{PASS_NAME}: cache-tile-sizes takes 3 sizes >= 1 (MC, NC, KC)"
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
            pack_matmul(matmul, cache_tile_sizes, vector_bits, vector_registers)


@dataclass(frozen=True)
class LinalgPackOperandsPass(ModulePass):
    """Matmuls as packed operand panels and register micro-kernels."""

    name = PASS_NAME

    # (MC, NC, KC): rows and columns of a cache tile, and its K step. The
    # rhs panel (KC x NC) and the lhs panel (MC x KC) each stay within the
    # stack budget together (64 KiB: 112 x 64 + 64 x 128 f32, the fastest
    # within it for SGEMM 1024^3 on the AVX-512 VM, docs/benchmarks.md).
    cache_tile_sizes: tuple[int, ...] = (112, 128, 64)
    # The vector unit (the target's `CpuHardware`; AVX2 by default).
    vector_bits: int = 256
    vector_registers: int = 16

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pack_operands(
            op, self.cache_tile_sizes, self.vector_bits, self.vector_registers
        )
