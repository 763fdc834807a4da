"""`linalg-fuse-attention`: attention as one kernel, with an online softmax.

torch-mlir's attention is eleven linalg ops (`irkit.analysis.attention`):
the scores `q k^T`, a modifier (scale, mask), a row softmax (max, `exp(x -
max)`, sum, divide) and `p v`. Lowered one by one, the scores (`rows x
keys`) go to global memory and back four times. This pass rewrites a chain
into one block-mapped `scf.forall` over tiles of `BR` query rows, each
walking the keys in tiles of `BC` with the online softmax of FlashAttention
(Milakov and Gimelshein 2018; Dao et al. 2022): a running max `m` and sum
`l` per row, and the output rescaled whenever the max grows, so the scores
of a tile live in workgroup memory only. It is what IREE's
`iree_linalg_ext.online_attention` decomposition builds, derived here from
the linalg ops themselves: each op of the chain runs on tiles, with its own
body, and only the rescaling is new.

```mlir
scf.forall (%tile) in (R / BR) {                       // a block per BR rows
  workgroup buffers: %q (the block's rows of q), %s (BR x BC scores), %out
  (the block's rows of o), %k and %v (one step's keys and values), %m,
  %prev, %l, %alpha, %safe (BR), %partials (BR x 16); rows padded against bank
  conflicts (q, k, v by one 4-byte bank: an f32, two f16; scores and output
  to a length `threads-x` banks apart from the next row)
  copy the block's rows of q into %q
  max fill (%m, %prev), sum fill (%l), output fill (%out): the chain's fills
  scf.for %j = %c0 to %cKeys step %cBC {
    copy keys and values %j..%j+BC into %k, %v (one op when their tiles match)
    score fill, scores (%q, %k), modifier (indices + the block's origins)
    row max of %s into %m                                // the running max
    %safe = (%m == -inf ? 0 : %m); %alpha = exp(%prev - %safe);
    %l = %l * %alpha; %prev = %m                         // one op
    exp(%s - %safe) into %s                              // the chain's body
    row sum of %s into %l
    %out = %out * %alpha; %out += %s %v
  }
  o = %out / %l                                         // the division's body
} {irkit.block_threads = [threads / threads-x, threads-x],
   mapping = [#gpu.block<x>]}
```

The row max and sum run in two steps: 16 partials per row over consecutive
keys, then the partials (`ROW_REDUCTION_PARTS`). The ops in the forall are
left at the block level, for `linalg-tile-for-gpu` to spread over the
block's threads (`irkit.block_threads`: along y, along x). `%safe` keeps a
row whose keys so far are all masked (`-inf`) at zero instead of
`exp(-inf + inf) = NaN`; a row masked everywhere still ends `0 / 0`, as the
unfused softmax does.

On the CPU (`cpu`, which `lower-to-c` sets) the same derivation builds the
kernel for OpenMP: the forall has no GPU mapping (the C target runs it as
`#pragma omp parallel for` over (batch x heads x row tiles)), every buffer
above is an unpadded, cache-line aligned `memref.alloca` of the iteration
(a thread's stack), sized together within `max-shared-bytes` (`lower-to-c`:
half the L2 cache) and each within `MAX_STACK_BYTES`, and the row max and
sum reduce into one vector of `vector-bits` partials per row, partial `p`
taking keys `p, p + P, ...`, so the loop over the partials is innermost,
reads consecutive keys and vectorises. The block-level ops are then the C
pipeline's: the two products take `linalg-pack-operands`' micro-kernels
where their tiles are large enough (packed into stack buffers of the
iteration), the rest become loops the C compiler vectorises.

Contract
--------
Input: linalg on memrefs with static shapes (after `bufferize`). Each chain
`irkit.analysis.attention.attention_chains` finds is rewritten when what
its softmax reads (the modifier's result, else the scores) and its
numerators share one element type (and so do its row max and sum), it has
at most
`max-keys` keys (0: any), and the tiles fit: `BR` is the largest power of
two up to `block-rows` that divides every op's innermost row loop, `BC` the
largest up to `block-keys` that divides the keys, halved (`BR` first) until
the workgroup buffers above fit `max-shared-bytes`, and both at least
`min-block`. When no such power of two is at least `min-block` (ViT's 197
tokens), the tile is *ragged*: the largest power of two up to the block
size and the extent. Ragged rows need every op's innermost row loop to hold
whole runs of the shortest one (`E`); each run takes `ceil(E / BR)` blocks,
the last moved back to start at `E - BR`, which writes only its own rows
(under an `scf.if`, uniform in the block). A ragged key step reads keys from
`min(key, keys - BC)` and masks the scores of the keys the step before took
to `-inf`. With `multiprocessors=P` (0, the default: off), block rows,
keys and threads are first halved together, while the grid would have
fewer than `P` blocks and the halves stay at least `min-block` (threads at
least `threads-x`): 96 heads of 128 rows in blocks of 128 rows leave 36 of
the H100's 132 multiprocessors idle. Then they are halved together again
while a ragged tile would compute over `max-ragged-waste-percent` (15)
percent more rows or keys than there are. Anything else is left alone, so the
unfused program still lowers.

Half precision (f16, bf16, as torch-mlir exports them: half operands,
f32 products; `docs/passes/linalg-fuse-attention.md`): q, k and v are
staged in their half type, the softmax's state and the output's
accumulator stay in the program's f32, and each element type of the score
tiles has a tile of its own (`AttentionChain.tile_element_types`: the f32
scores and softmax, the half rounded scores and probabilities). The
scores' rounding to half and the output's (`score_rounding`,
`output_rounding`) run where the program runs them, with their own
bodies; the output's follows the division in one op, into the half
output. The program's rounding of the probabilities `e / l` to half
cannot be kept (`l` is known after the last key step): the numerators
`exp(x - running max)` are rounded to half instead, before the product
with v, which reads them as the program reads `p`. A softmax in half
keeps its state in half (the program's type for it) beside the f32
accumulator: the rescaling and the final division widen the half factor
and sum.

Output: as above; the chain's ops and its intermediate buffers are erased
(with an output rounding, the values' f32 buffer too); the kernel runs in
the chain's last op's place, and deallocations between the chain's first
and last ops move after the forall.

Preserves: every output element up to floating-point reassociation: the
sums over keys run per tile and are rescaled (`exp(a - b) = exp(a - c)
exp(c - b)`), and the division by the row sum moves after the product with
`v` (`sum_j (e_j / l) v_j = (sum_j e_j v_j) / l`). Maxima are exact. With
rounded probabilities, up to the half type's rounding of each term of
`p v` (the numerators rounded in their place).
`block-rows`, `block-keys`, `threads`, `threads-x`, `min-block`,
`vector-bits` and `max-shared-bytes` must be positive and `max-keys`,
`multiprocessors` and `max-ragged-waste-percent` not negative, or the pass
fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from math import gcd, prod
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.scf import YieldOp as ScfYieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import VIEW_OPS
from irkit.analysis.attention import (
    MAXIMA as _MAXIMA,
)
from irkit.analysis.attention import (
    AttentionChain,
    attention_chains,
    loop_ranges,
)
from irkit.analysis.gpu_mapping import BLOCK_THREADS_ATTRIBUTE
from irkit.analysis.masks import masked_beyond_diagonal
from irkit.analysis.memory import (
    DEFAULT_MAX_SHARED_BYTES,
    MAX_STACK_BYTES,
    element_bytes,
    memref_strides,
)
from irkit.analysis.structured import takes_tensor_cores
from irkit.dialects import affine, memref
from irkit.dialects.gpu import BlockMappingAttr, DimensionEnum
from irkit.dialects.scf import ForallOp, ForOp, IfOp, InParallelOp
from irkit.dialects.tensor import reassociation_attr
from irkit.transforms.utils.builders import (
    identity_copy,
    index_constant,
    strided_view,
    workgroup_alloc,
)
from irkit.transforms.utils.tiling import Tile, box_subview, offset_indices

PASS_NAME = "linalg-fuse-attention"


# --------------------------------------------------------------------------
# Tile sizes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class AttentionTiles:
    """Query rows per block (`BR`) and keys per step (`BC`), and the
    extents they tile: the innermost row loop's (`row_extent`, the same in
    every op) and the keys'. A tile that does not divide its extent is
    *ragged*: the last tile is moved back to end at the extent (see the
    module doc)."""

    rows: int
    keys: int
    row_extent: int
    key_extent: int

    @property
    def ragged_rows(self) -> bool:
        return self.row_extent % self.rows != 0

    @property
    def ragged_keys(self) -> bool:
        return self.key_extent % self.keys != 0

    @property
    def row_tiles(self) -> int:
        """Row tiles per run of the innermost row loop."""
        return -(-self.row_extent // self.rows)


def _largest_power_of_two_dividing(value: int, limit: int) -> int:
    size = 1
    while size * 2 <= limit and value % (size * 2) == 0:
        size *= 2
    return size


def _tile_size(extent: int, limit: int, min_block: int, may_be_ragged: bool) -> int:
    """The largest power of two up to `limit` dividing `extent`; when that is
    under `min_block` and a ragged tile is allowed, the largest power of two
    up to `limit` and `extent` (the last tile then moves back)."""
    size = _largest_power_of_two_dividing(extent, limit)
    if size >= min_block or not may_be_ragged:
        return size
    size = 1
    while size * 2 <= min(limit, extent):
        size *= 2
    return size


def _element_bytes(value: SSAValue) -> int:
    memref_type = value.type
    assert isinstance(memref_type, MemRefType)
    return element_bytes(memref_type.get_element_type()) or 8


def _query_index(chain: AttentionChain) -> int:
    """Which input of the scores is `q` (it uses the innermost row loop)."""
    inner = chain.loops[chain.scores].rows[-1]
    q_map = chain.scores.indexing_maps.data[0].data
    used = {loop for expr in q_map.results for loop in expr.used_dims()}
    return 0 if inner in used else 1


def _block_shape(
    chain: AttentionChain, op: GenericOp, index: int, rows: int
) -> list[int]:
    """The shape of one block's part of `op`'s operand `index` (all keys)."""
    ranges = loop_ranges(op)
    indexing_map = op.indexing_maps.data[index].data
    inner = chain.loops[op].rows[-1]
    outer = set(chain.loops[op].rows[:-1])
    sizes = []
    for expr in indexing_map.results:
        (loop,) = expr.used_dims()
        sizes.append(rows if loop == inner else 1 if loop in outer else ranges[loop])
    return sizes


def conflict_free_row(length: int, x_threads: int) -> int:
    """A row length of at least `length` elements (4 bytes each) whose rows
    start `x_threads` banks apart: a warp spans 32 / `x_threads` rows, and
    its threads along x read neighbouring elements of each (or all the same
    one); the rows then fall on different banks of the 32."""
    if x_threads >= 32 or length < 2:
        return length
    return length + (x_threads - length) % 32


def _bank_pad(element_bytes: int) -> int:
    """The elements a row of workgroup memory is padded by so that the next
    row starts one 4-byte bank further: one f32, two f16 (one f16 would put
    two neighbouring rows in one bank word's halves, a 2-way conflict)."""
    return max(1, 4 // element_bytes)


def _padded(shape: Sequence[int], last: int) -> list[int]:
    return [*shape[:-1], last]


def choose_tiles(
    chain: AttentionChain,
    block_rows: int,
    block_keys: int,
    max_shared_bytes: int,
    x_threads: int = 16,
    min_block: int = 1,
    cpu: bool = False,
    reduction_parts: int = 0,
) -> AttentionTiles | None:
    """`BR` and `BC` (see the module doc), or None when nothing fits. With
    `cpu`, the buffers are unpadded stack arrays, each also within
    `MAX_STACK_BYTES`. `reduction_parts`: the row reductions' partials per
    row (0: `ROW_REDUCTION_PARTS`)."""
    inner_extents = chain.innermost_row_extents
    inner = 0
    for extent in inner_extents:
        inner = gcd(inner, extent)
    # Ragged row tiles stay in runs of the shortest innermost row loop
    # (`E`): every op's innermost row loop must be whole runs (collapsed
    # rows, `heads * E`, beside `E`).
    run = chain.shortest_innermost_rows
    whole_runs = all(extent % run == 0 for extent in inner_extents)
    rows = _tile_size(inner, block_rows, min_block, whole_runs)
    keys = _tile_size(chain.keys, block_keys, min_block, True)
    if rows >= min_block and inner % rows == 0:
        run = inner
    # One score-shaped tile per element type (f32 scores and a half tile
    # for the rounded scores and probabilities: `tile_element_types`).
    tile_bytes = sum(
        element_bytes(element) or 8 for element in chain.tile_element_types
    )
    row_bytes = _element_bytes(chain.row_max.outputs[0])

    q_index = _query_index(chain)
    q_bytes = _element_bytes(chain.scores.inputs[q_index])
    k_bytes = _element_bytes(chain.scores.inputs[1 - q_index])
    v_index = 1 - chain.operand_of(chain.values, chain.normalize.outputs[0])
    v_bytes = _element_bytes(chain.values.inputs[v_index])
    out_index = len(chain.values.inputs)
    head = _block_shape(chain, chain.scores, q_index, 1)[-1]  # q's per row
    out_bytes = _element_bytes(chain.values.outputs[0])

    q_pad, k_pad, v_pad = (
        (0, 0, 0)
        if cpu
        else (_bank_pad(q_bytes), _bank_pad(k_bytes), _bank_pad(v_bytes))
    )
    if cpu:
        x_threads = 32  # no bank padding (`conflict_free_row`)

    def buffers(tiles: AttentionTiles) -> list[int]:
        """The bytes of each buffer `_build` allocates, padded as it pads."""
        q_shape = _block_shape(chain, chain.scores, q_index, tiles.rows)
        out_shape = _block_shape(chain, chain.values, out_index, tiles.rows)
        parts = min(tiles.keys, reduction_parts or ROW_REDUCTION_PARTS)
        return [
            q_bytes * prod(_padded(q_shape, q_shape[-1] + q_pad)),
            tile_bytes * tiles.rows * conflict_free_row(tiles.keys, x_threads),
            5 * row_bytes * tiles.rows,  # max, previous max, sum, alpha, safe
            parts * row_bytes * tiles.rows,
            out_bytes
            * prod(_padded(out_shape, conflict_free_row(out_shape[-1], x_threads))),
            k_bytes * tiles.keys * (head + k_pad),
            v_bytes * tiles.keys * (head + v_pad),
        ]

    def fits(tiles: AttentionTiles) -> bool:
        sizes = buffers(tiles)
        return sum(sizes) <= max_shared_bytes and (
            not cpu or max(sizes) <= MAX_STACK_BYTES
        )

    tiles = AttentionTiles(rows, keys, run, chain.keys)
    while not fits(tiles):
        if tiles.rows > 1 and tiles.rows >= tiles.keys:
            tiles = replace(tiles, rows=tiles.rows // 2)
        elif tiles.keys > 1:
            tiles = replace(tiles, keys=tiles.keys // 2)
        else:
            return None
    return tiles


# --------------------------------------------------------------------------
# Building the kernel
# --------------------------------------------------------------------------


def _memref_type(value: SSAValue) -> MemRefType[Attribute]:
    memref_type = value.type
    assert isinstance(memref_type, MemRefType)
    return memref_type


def _parallel(count: int) -> ArrayAttr[IteratorTypeAttr]:
    return ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * count)


@dataclass
class _Kernel:
    """One chain's kernel while it is built."""

    chain: AttentionChain
    tiles: AttentionTiles
    tile: SSAValue  # the block forall's induction variable
    body: InsertPoint  # the block forall's body, before its terminator
    # The CPU's kernel: buffers are unpadded stack arrays of each iteration.
    cpu: bool = False
    workgroup: list[SSAValue] = field(default_factory=list)
    _applies: dict[tuple[int, int], SSAValue] = field(default_factory=dict)

    # The block's values ------------------------------------------------

    def alloc(
        self, element_type: Attribute, shape: Sequence[int], hint: str
    ) -> SSAValue:
        if self.cpu:
            alloca = memref.AllocaOp.get(
                element_type, alignment=CPU_ALIGNMENT, shape=list(shape)
            )
            alloca.memref.name_hint = hint
            Rewriter.insert_op(alloca, self.body)
            return alloca.memref
        buffer = workgroup_alloc(element_type, shape, hint, self.body)
        self.workgroup.append(buffer)
        return buffer

    def padded(
        self, element_type: Attribute, shape: Sequence[int], row: int, hint: str
    ) -> SSAValue:
        """A workgroup buffer of `shape` whose innermost rows hold `row`
        elements (padding against bank conflicts); its `shape` view."""
        if row == shape[-1] or self.cpu:
            return self.alloc(element_type, shape, hint)
        buffer = self.alloc(element_type, _padded(shape, row), hint)
        rank = len(shape)
        return strided_view(buffer, [0] * rank, list(shape), [1] * rank, self.body)

    def box(
        self, op: GenericOp, index: int, key: SSAValue | None, at: InsertPoint
    ) -> SSAValue:
        """The part of `op`'s operand `index` this block (and key step) reads."""
        return box_subview(
            op.operands[index],
            op.indexing_maps.data[index].data,
            self.op_tiles(op, key),
            at,
        )

    def staging(self, op: GenericOp, index: int, at: InsertPoint) -> SSAValue:
        """A workgroup buffer for one key step's part of `op`'s operand
        `index`, its innermost dimension padded by one bank (`_bank_pad`:
        neighbouring threads read neighbouring rows, on different banks); the
        unpadded view."""
        maps = op.indexing_maps.data[index].data
        tiles = self.op_tiles(op, None)
        key = self.chain.loops[op].key
        assert key is not None
        tiles[key] = Tile(0, self.tiles.keys)
        shape = _tile_shape_of(maps, tiles)
        element = _memref_type(op.operands[index]).get_element_type()
        pad = _bank_pad(element_bytes(element) or 8)
        return self.padded(element, shape, shape[-1] + pad, "staged")

    def row_origin(self, stride: int, extent: int) -> SSAValue:
        """Where a row loop of this extent, whose inner row loops span
        `stride` rows, starts: `((tile * BR) floordiv stride) mod extent`.
        With ragged rows, `T` tiles (`row_tiles`) cover each run of `E`
        rows (`row_extent`, the shortest innermost row loop; the others
        hold whole runs): the innermost starts at the run's start plus
        `min((tile mod T) * BR, E - BR)`, an outer one at
        `((tile floordiv T) floordiv (stride / E)) mod extent`."""
        key = (stride, extent)
        if key not in self._applies:
            d0 = AffineExpr.dimension(0)
            tiles = self.tiles
            origin: Operation
            if not tiles.ragged_rows:
                expr = ((d0 * tiles.rows) // stride) % extent
                origin = affine.ApplyOp(
                    [self.tile], AffineMapAttr(AffineMap(1, 0, (expr,)))
                )
            elif stride == 1:
                run = tiles.row_extent
                start = ((d0 // tiles.row_tiles) % (extent // run)) * run
                first = start + (d0 % tiles.row_tiles) * tiles.rows
                last = start + (run - tiles.rows)
                origin = affine.MinOp(
                    [self.tile], AffineMapAttr(AffineMap(1, 0, (first, last)))
                )
            else:
                runs = stride // tiles.row_extent
                expr = ((d0 // tiles.row_tiles) // runs) % extent
                origin = affine.ApplyOp(
                    [self.tile], AffineMapAttr(AffineMap(1, 0, (expr,)))
                )
            origin.results[0].name_hint = "row"
            Rewriter.insert_op(origin, self.body)
            self._applies[key] = origin.results[0]
        return self._applies[key]

    def op_tiles(self, op: GenericOp, key_origin: SSAValue | None) -> list[Tile]:
        """Each loop's tile of `op` in this block (and key step)."""
        ranges = loop_ranges(op)
        tiles = [Tile(0, extent) for extent in ranges]
        row_loops = self.chain.loops[op].rows
        extents = [ranges[loop] for loop in row_loops]
        for position, loop in enumerate(row_loops):
            stride = prod(extents[position + 1 :])
            size = self.tiles.rows if position == len(row_loops) - 1 else 1
            origin = self.row_origin(stride, extents[position])
            tiles[loop] = Tile(origin, size)
        key = self.chain.loops[op].key
        if key is not None and key_origin is not None:
            tiles[key] = Tile(key_origin, self.tiles.keys)
        return tiles


def _static_strides(memref_type: MemRefType[Attribute]) -> list[int]:
    strides, _ = memref_strides(memref_type)
    assert all(isinstance(stride, int) for stride in strides)
    return [stride for stride in strides if stride is not None]


def _view_type(
    source: MemRefType[Attribute], shape: Sequence[int], strides: Sequence[int]
) -> MemRefType[Attribute]:
    """A view of `source` (offset 0) with `shape` and `strides`: the identity
    layout when they are row-major."""
    row_major: list[int] = []
    running = 1
    for size in reversed(shape):
        row_major.insert(0, running)
        running *= size
    layout: Attribute = (
        NoneAttr()
        if list(strides) == row_major
        else StridedLayoutAttr(list(strides), 0)
    )
    return MemRefType(
        source.get_element_type(),
        list(shape),
        layout,  # type: ignore[arg-type]
        source.memory_space,
    )


def _view(buffer: SSAValue, shape: Sequence[int], at: InsertPoint) -> SSAValue:
    """`buffer` (BR or BRxBC) seen with unit dimensions in front."""
    source = _memref_type(buffer)
    source_shape = list(source.get_shape())
    if list(shape) == source_shape:
        return buffer
    leading = len(shape) - len(source_shape)
    assert leading > 0
    assert list(shape[leading:]) == source_shape
    assert all(size == 1 for size in shape[:leading])
    groups = [list(range(leading + 1))] + [
        [leading + 1 + i] for i in range(len(source_shape) - 1)
    ]
    strides = _static_strides(source)
    unit_stride = strides[0] * source_shape[0]
    result_type = _view_type(source, shape, [unit_stride] * leading + strides)
    return _expand(buffer, groups, result_type, at)


def _expand(
    buffer: SSAValue,
    groups: list[list[int]],
    result_type: MemRefType[Attribute],
    at: InsertPoint,
) -> SSAValue:
    """`memref.expand_shape buffer groups` to the static `result_type`."""
    view = memref.ExpandShapeOp.build(
        operands=[buffer, []],
        result_types=[result_type],
        properties={
            "reassociation": reassociation_attr(groups),
            "static_output_shape": DenseArrayBase.from_list(
                i64, list(result_type.get_shape())
            ),
        },
    )
    Rewriter.insert_op(view, at)
    return view.results[0]


def _tile_shape(op: GenericOp, index: int, tiles: Sequence[Tile]) -> list[int]:
    return _tile_shape_of(op.indexing_maps.data[index].data, tiles)


def _tile_shape_of(indexing_map: AffineMap, tiles: Sequence[Tile]) -> list[int]:
    shape = []
    for expr in indexing_map.results:
        (loop,) = expr.used_dims()
        size = tiles[loop].size
        assert isinstance(size, int)
        shape.append(size)
    return shape


def _clone_on(
    op: GenericOp,
    operands: Sequence[SSAValue],
    at: InsertPoint,
    tiles: Sequence[Tile] | None = None,
) -> GenericOp:
    """`op` on `operands`; `linalg.index` counts from the tiles' origins."""
    clone = op.clone()
    clone.operands = list(operands)
    Rewriter.insert_op(clone, at)
    if tiles is not None:
        origins = {
            loop: tile.offset
            for loop, tile in enumerate(tiles)
            if isinstance(tile.offset, SSAValue)
        }
        offset_indices(clone.body.block, origins)
    return clone


def _generic(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    maps: Sequence[AffineMap],
    loops: int,
    build: object,
    at: InsertPoint,
) -> GenericOp:
    """A parallel generic whose body `build(args) -> yielded values` makes."""
    types = [_memref_type(v).get_element_type() for v in (*inputs, *outputs)]
    block = Block(arg_types=types)
    yielded = build(block)  # type: ignore[operator]
    block.add_op(LinalgYieldOp(*yielded))
    generic = GenericOp(
        list(inputs),
        list(outputs),
        Region(block),
        [AffineMapAttr(m) for m in maps],
        _parallel(loops),
    )
    Rewriter.insert_op(generic, at)
    return generic


def _copy(source: SSAValue, destination: SSAValue, at: InsertPoint) -> None:
    Rewriter.insert_op(identity_copy(source, destination), at)


def _op_views(
    op: GenericOp,
    tiles: Sequence[Tile],
    replaced: dict[int, SSAValue],
    at: InsertPoint,
    views: dict[tuple[SSAValue, tuple[int, ...]], SSAValue],
) -> list[SSAValue]:
    """`op`'s operands in this block: `replaced` ones (workgroup buffers, seen
    in the op's tile shape, one view per buffer and shape in `views`, so
    that a fill and the reduction it starts write the same value), the
    others their box of the tiles."""
    operands: list[SSAValue] = []
    maps = [attr.data for attr in op.indexing_maps]
    for index, (operand, indexing_map) in enumerate(
        zip(op.operands, maps, strict=True)
    ):
        if index in replaced:
            key = (replaced[index], tuple(_tile_shape(op, index, tiles)))
            if key not in views:
                views[key] = _view(key[0], key[1], at)
            operands.append(views[key])
        else:
            operands.append(box_subview(operand, indexing_map, tiles, at))
    return operands


# A tile's row max and row sum run in two steps: `ROW_REDUCTION_PARTS`
# partial results per row, each over consecutive keys (a thread each), then
# the partials of each row: short chains of dependent steps, not one of
# `BC` per row.
ROW_REDUCTION_PARTS = 16
# On the CPU, stack tiles start on a cache line (whole vectors per row).
CPU_ALIGNMENT = 64


def _row_reduction(
    op: GenericOp,
    scores: SSAValue,
    partials: SSAValue,
    result: SSAValue,
    at: InsertPoint,
    lanes: bool = False,
    spread: int = 0,
) -> None:
    """`op` (a row max or sum: `combine(in, out)`) over `scores` (BR x BC)
    into `result` (BR), through `partials` (BR x P): the partials start at
    the combiner's identity and each reduces BC / P consecutive keys with
    `op`'s body, then `op`'s body folds them into `result`. With `lanes`
    (the CPU), partial `p` reduces keys `p, p + P, ...` instead: the loop
    over the partials is innermost and reads consecutive keys, one vector.
    With `spread`, the final step sees the rows as (BR / spread) x spread
    (`_spread_rows`)."""
    rows, keys = _memref_type(scores).get_shape()
    parts = _memref_type(partials).get_shape()[1]
    if lanes:
        chunks = _view_split(scores, rows, keys // parts, parts, at)
    else:
        chunks = _view_split(scores, rows, parts, keys // parts, at)
    element = _memref_type(partials).get_element_type()
    combiner = next(iter(op.body.block.ops))
    identity = float("-inf") if isinstance(combiner, _MAXIMA) else -0.0

    def start(block: Block) -> list[SSAValue]:
        constant = arith.ConstantOp(FloatAttr(identity, cast(AnyFloat, element)))
        Rewriter.insert_op(constant, InsertPoint.at_end(block))
        return [constant.result]

    _generic([], [partials], [AffineMap.identity(2)], 2, start, at)
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    reduction = IteratorTypeAttr(IteratorType.REDUCTION)
    parallel = IteratorTypeAttr(IteratorType.PARALLEL)
    d2 = AffineExpr.dimension(2)
    partial = GenericOp(
        [chunks],
        [partials],
        op.body.clone(),
        [
            AffineMapAttr(AffineMap.identity(3)),
            AffineMapAttr(AffineMap(3, 0, (d0, d2 if lanes else d1))),
        ],
        ArrayAttr(
            [parallel, reduction, parallel]
            if lanes
            else [parallel, parallel, reduction]
        ),
    )
    Rewriter.insert_op(partial, at)
    if spread:
        final = GenericOp(
            [_spread_rows(partials, spread, at)],
            [_spread_rows(result, spread, at)],
            op.body.clone(),
            [
                AffineMapAttr(AffineMap.identity(3)),
                AffineMapAttr(AffineMap(3, 0, (d0, d1))),
            ],
            ArrayAttr([parallel, parallel, reduction]),
        )
    else:
        final = GenericOp(
            [partials],
            [result],
            op.body.clone(),
            [
                AffineMapAttr(AffineMap.identity(2)),
                AffineMapAttr(AffineMap(2, 0, (d0,))),
            ],
            ArrayAttr([parallel, reduction]),
        )
    Rewriter.insert_op(final, at)


def _row_spread(rows: int, x_threads: int) -> int:
    """How a row-wise step spreads BR rows over the block (see
    `_spread_rows`): `x_threads` rows along x when it divides BR and is
    less; 0 (one row per thread x) otherwise."""
    return x_threads if rows > x_threads and rows % x_threads == 0 else 0


def _row_wise(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    spread: int,
    build: object,
    at: InsertPoint,
) -> None:
    """An elementwise op over BR-long row buffers (`build` makes its body),
    its rows spread over the block's threads y and x when `spread` is set."""
    buffers = [*inputs, *outputs]
    if spread:
        buffers = [_spread_rows(buffer, spread, at) for buffer in buffers]
    rank = 2 if spread else 1
    maps = [AffineMap.identity(rank)] * len(buffers)
    count = len(inputs)
    _generic(buffers[:count], buffers[count:], maps, rank, build, at)


def _spread_rows(buffer: SSAValue, spread: int, at: InsertPoint) -> SSAValue:
    """`buffer` (BR or BR x P) seen with its rows as (BR / spread) x spread:
    an op over it then has two concurrent loops, which `linalg-tile-for-gpu`
    maps on threads y and x, not one on threads x alone (16 of a block's 256
    threads running a row-wise step while the others wait at its barrier)."""
    source = _memref_type(buffer)
    shape = list(source.get_shape())
    strides = _static_strides(source)
    result_type = _view_type(
        source,
        [shape[0] // spread, spread, *shape[1:]],
        [strides[0] * spread, *strides],
    )
    groups = [[0, 1]] + [[i + 1] for i in range(1, len(shape))]
    return _expand(buffer, groups, result_type, at)


def _view_split(
    buffer: SSAValue, rows: int, parts: int, chunk: int, at: InsertPoint
) -> SSAValue:
    """`buffer` (rows x parts*chunk) seen as rows x parts x chunk."""
    source = _memref_type(buffer)
    row_stride, _ = _static_strides(source)
    result_type = _view_type(source, [rows, parts, chunk], [row_stride, chunk, 1])
    return _expand(buffer, [[0], [1, 2]], result_type, at)


def _keys_upper_bound(kernel: _Kernel, at: InsertPoint) -> SSAValue:
    """Where the block's key steps end: every key, or, when the modifier
    masks every key past `query + c` (`masked_beyond_diagonal`: a causal
    mask), the keys up to the block's last query row plus `c`. The steps
    after hold only `-inf` scores, which change no row max, sum or output.
    """
    chain, tiles = kernel.chain, kernel.tiles
    modifier = chain.modifier
    loops = None if modifier is None else chain.loops[modifier]
    if modifier is None or loops is None or loops.key is None:
        return index_constant(chain.keys, at)
    past = masked_beyond_diagonal(modifier, loops.rows[-1], loops.key)
    if past is None:
        return index_constant(chain.keys, at)
    # The block's rows in the modifier's innermost row loop start here.
    origin = kernel.row_origin(1, loop_ranges(modifier)[loops.rows[-1]])
    d0 = AffineExpr.dimension(0)
    bound = affine.MinOp(
        [origin],
        AffineMapAttr(
            AffineMap(1, 0, (d0 + (tiles.rows + past), AffineExpr.constant(chain.keys)))
        ),
    )
    bound.result.name_hint = "keys"
    Rewriter.insert_op(bound, at)
    return bound.result


def _constant_scale(chain: AttentionChain, q_element: Attribute) -> FloatAttr | None:
    """The constant `c` when the modifier is `s * c` alone (a scale of the
    scores, as torch-mlir writes `q k^T * head_dim ** -0.5`: one input, no
    `linalg.index`, `c` an `arith.constant` of the scores' type, in the body
    or outside it) and q has the scores' element type; else None."""
    modifier = chain.modifier
    if modifier is None or len(modifier.inputs) != 1:
        return None
    if chain.score_rounding is not None:
        # `round(s) * c` is not `round(q c) k`.
        return None
    ops = [op for op in modifier.body.block.ops if not isinstance(op, arith.ConstantOp)]
    if len(ops) != 2 or not isinstance(ops[0], arith.MulfOp):
        return None
    product, terminator = ops
    assert isinstance(product, arith.MulfOp)
    if list(terminator.operands) != [product.result]:
        return None
    score = modifier.body.block.args[0]
    operands = [product.lhs, product.rhs]
    if operands.count(score) != 1:
        return None
    constant = operands[1 - operands.index(score)].owner
    if not isinstance(constant, arith.ConstantOp):
        return None
    value = constant.value
    s_element = _memref_type(chain.scores.outputs[0]).get_element_type()
    if not isinstance(value, FloatAttr) or value.type != s_element:
        return None
    return value if q_element == s_element else None


def _stage_queries(
    q_box: SSAValue, q_shared: SSAValue, scale: FloatAttr | None, at: InsertPoint
) -> None:
    """Copy the block's rows of q into workgroup memory, times `scale` when
    the modifier is a constant scale: `s * c` is `(q * c) k`, so q is scaled
    once, as it is staged, and every key step skips a pass over the score
    tile (and its barrier)."""
    if scale is None:
        _copy(q_box, q_shared, at)
        return
    rank = len(_memref_type(q_box).get_shape())
    identity = AffineMap.identity(rank)

    def scaled(block: Block) -> list[SSAValue]:
        assert scale is not None
        factor = arith.ConstantOp(scale)
        product = arith.MulfOp(block.args[0], factor.result)
        Rewriter.insert_op([factor, product], InsertPoint.at_end(block))
        return [product.result]

    _generic([q_box], [q_shared], [identity] * 2, rank, scaled, at)


def _key_origin(
    key: SSAValue, tiles: AttentionTiles, at: InsertPoint
) -> tuple[SSAValue, SSAValue | None]:
    """Where step `key` (a multiple of `BC`) reads its keys, and how many of
    them earlier steps already took: with ragged keys the last step moves
    back to `min(key, keys - BC)`, and its first `key - origin` keys are
    masked (None when keys are not ragged)."""
    if not tiles.ragged_keys:
        return key, None
    d0 = AffineExpr.dimension(0)
    last = AffineExpr.constant(tiles.key_extent - tiles.keys)
    origin = affine.MinOp([key], AffineMapAttr(AffineMap(1, 0, (d0, last))))
    origin.result.name_hint = "key_origin"
    Rewriter.insert_op(origin, at)
    d1 = AffineExpr.dimension(1)
    taken = affine.ApplyOp(
        [key, origin.result], AffineMapAttr(AffineMap(2, 0, (d0 - d1,)))
    )
    taken.result.name_hint = "seen"
    Rewriter.insert_op(taken, at)
    return origin.result, taken.result


def _mask_seen_keys(scores: SSAValue, seen: SSAValue, at: InsertPoint) -> None:
    """Scores of the first `seen` keys of the step (BR x BC) to `-inf`:
    keys an earlier step already took, so they add nothing twice."""
    element = cast(AnyFloat, _memref_type(scores).get_element_type())

    def mask(block: Block) -> list[SSAValue]:
        (score,) = block.args
        index = IndexOp(1)
        earlier = arith.CmpiOp(index.result, seen, "ult")
        minus_infinity = arith.ConstantOp(FloatAttr(float("-inf"), element))
        masked = arith.SelectOp(earlier.result, minus_infinity.result, score)
        Rewriter.insert_op(
            [index, earlier, minus_infinity, masked], InsertPoint.at_end(block)
        )
        return [masked.result]

    _generic([], [scores], [AffineMap.identity(2)], 2, mask, at)


def _if_last_row_tile(
    kernel: _Kernel, at: InsertPoint
) -> tuple[InsertPoint, InsertPoint]:
    """`scf.if (tile mod T == T - 1)` in the block: where its then and else
    branches insert (the condition is the same for the whole block)."""
    d0 = AffineExpr.dimension(0)
    tiles = kernel.tiles
    position = affine.ApplyOp(
        [kernel.tile], AffineMapAttr(AffineMap(1, 0, (d0 % tiles.row_tiles,)))
    )
    last = index_constant(tiles.row_tiles - 1, at)
    Rewriter.insert_op(position, at)
    is_last = arith.CmpiOp(position.result, last, "eq")
    Rewriter.insert_op(is_last, at)
    then_yield, else_yield = ScfYieldOp(), ScfYieldOp()
    conditional = IfOp(
        is_last.result,
        [],
        Region(Block([then_yield])),
        Region(Block([else_yield])),
    )
    Rewriter.insert_op(conditional, at)
    return InsertPoint.before(then_yield), InsertPoint.before(else_yield)


def _build(
    chain: AttentionChain,
    tiles: AttentionTiles,
    threads: tuple[int, int],
    cpu_lanes: int = 0,
) -> ForallOp:
    """The block forall of the module doc, inserted before `chain.values`;
    with `cpu_lanes` (the vector's elements), the CPU's (see `cpu`)."""
    cpu = cpu_lanes > 0
    host = InsertPoint.before(chain.last)
    grid_block = Block(arg_types=[IndexType()])
    grid_block.args[0].name_hint = "tile"
    terminator = InParallelOp()
    grid_block.add_op(terminator)
    runs = chain.rows // tiles.row_extent  # of the innermost row loop
    grid = ForallOp(
        [0],
        [runs * tiles.row_tiles],
        [1],
        Region(grid_block),
        (),
        None if cpu else ArrayAttr([BlockMappingAttr(DimensionEnum("x"))]),
    )
    if not cpu:
        grid.attributes[BLOCK_THREADS_ATTRIBUTE] = ArrayAttr(
            [
                IntegerAttr(threads[0], IndexType()),
                IntegerAttr(threads[1], IndexType()),
            ]
        )
    body = InsertPoint.before(terminator)
    kernel = _Kernel(chain, tiles, grid_block.args[0], body, cpu)
    # Every row origin first, where each op's tiles, also those built in
    # the key loop, can see them.
    for op in chain.row_ops:
        kernel.op_tiles(op, None)

    scores, values = chain.scores, chain.values
    m_type = _memref_type(chain.row_max.outputs[0]).get_element_type()
    l_type = _memref_type(chain.row_sum.outputs[0]).get_element_type()
    q_index = _query_index(chain)

    # The block's tiles of q and o, and its workgroup buffers.
    score_tiles = kernel.op_tiles(scores, None)
    q_box = box_subview(
        scores.inputs[q_index],
        scores.indexing_maps.data[q_index].data,
        score_tiles,
        body,
    )
    q_shape = _memref_type(q_box).get_shape()
    # Rows of q are read whole by the threads along x: one bank more per
    # row puts neighbouring rows on neighbouring banks. Rows of scores and
    # of the output are read along x, `x_threads` banks apart.
    x_threads = threads[1]
    q_element = _memref_type(q_box).get_element_type()
    q_pad = _bank_pad(element_bytes(q_element) or 8)
    q_shared = kernel.padded(q_element, q_shape, q_shape[-1] + q_pad, "q")
    # A score-shaped tile per element type: each op of the chain on score
    # tiles reads the tile of its input's type and writes the one of its
    # output's (in place when they agree).
    tiles_by_type = {
        element: kernel.padded(
            element,
            [tiles.rows, tiles.keys],
            conflict_free_row(tiles.keys, x_threads),
            "scores",
        )
        for element in chain.tile_element_types
    }

    def tile_of(value: SSAValue) -> SSAValue:
        return tiles_by_type[_memref_type(value).get_element_type()]

    m_shared = kernel.alloc(m_type, [tiles.rows], "max")
    l_shared = kernel.alloc(l_type, [tiles.rows], "sum")
    alpha = kernel.alloc(m_type, [tiles.rows], "alpha")
    # Each step's row max before the step's keys: the rescaling writes it
    # for the next step, so no copy of `max` (and its barrier) opens a step.
    previous = kernel.alloc(m_type, [tiles.rows], "previous_max")
    safe = kernel.alloc(m_type, [tiles.rows], "safe_max")
    parts = min(tiles.keys, cpu_lanes or ROW_REDUCTION_PARTS)
    partials = kernel.alloc(m_type, [tiles.rows, parts], "partials")
    score_scale = _constant_scale(chain, q_element)
    _stage_queries(q_box, q_shared, score_scale, body)

    value_tiles = kernel.op_tiles(values, None)
    output_index = len(values.inputs)
    # The chain's output: the values' or, when it rounds them to half, the
    # rounding's (the same shape, read element for element).
    o_box = box_subview(
        chain.output,
        values.indexing_maps.data[output_index].data,
        value_tiles,
        body,
    )
    # Where the output's rows are: the values' innermost row loop.
    inner_row = chain.loops[values].rows[-1]
    output_map = values.indexing_maps.data[output_index].data
    output_rank = len(output_map.results)
    row_position = [e.used_dims() for e in output_map.results].index({inner_row})
    per_row = AffineMap(output_rank, 0, (AffineExpr.dimension(row_position),))
    identity = AffineMap.identity(output_rank)
    # The output's rows accumulate in workgroup memory, written out once,
    # in the values' element type (f32 for half operands).
    o_shape = _memref_type(o_box).get_shape()
    accumulated = kernel.padded(
        _memref_type(values.outputs[0]).get_element_type(),
        o_shape,
        conflict_free_row(o_shape[-1], x_threads),
        "out",
    )
    # Each step's keys and values, padded against bank conflicts.
    k_index = 1 - q_index
    v_index = 1 - chain.operand_of(values, chain.normalize.outputs[0])
    k_staged = kernel.staging(scores, k_index, body)
    v_staged = kernel.staging(values, v_index, body)

    for fill, buffer in (
        (chain.max_fill, m_shared),
        (chain.max_fill, previous),
        (chain.sum_fill, l_shared),
    ):
        fill_tiles = kernel.op_tiles(fill, None)
        _clone_on(
            fill,
            [*fill.inputs, _view(buffer, _tile_shape(fill, 1, fill_tiles), body)],
            body,
        )
    _clone_on(chain.output_fill, [*chain.output_fill.inputs, accumulated], body)

    # The loop over key tiles.
    loop_body = Block(arg_types=[IndexType()])
    key = loop_body.args[0]
    key.name_hint = "key"
    loop_yield = ScfYieldOp()
    loop_body.add_op(loop_yield)
    loop = ForOp(
        index_constant(0, host),
        _keys_upper_bound(kernel, body),
        index_constant(tiles.keys, host),
        [],
        Region(loop_body),
    )
    Rewriter.insert_op(loop, body)
    step = InsertPoint.before(loop_yield)
    key_origin, seen = _key_origin(key, tiles, step)

    step_views: dict[tuple[SSAValue, tuple[int, ...]], SSAValue] = {}

    def on_tiles(op: GenericOp, replaced: dict[int, SSAValue]) -> GenericOp:
        op_tiles = kernel.op_tiles(op, key_origin)
        operands = _op_views(op, op_tiles, replaced, step, step_views)
        return _clone_on(op, operands, step, op_tiles)

    def index_of(op: GenericOp, buffer: SSAValue) -> int:
        return chain.operand_of(op, buffer)

    # This step's keys and values, loaded together.
    k_box = kernel.box(scores, k_index, key_origin, step)
    v_box = kernel.box(values, v_index, key_origin, step)
    _stage_keys_and_values(k_box, v_box, k_staged, v_staged, step)
    s_value = scores.outputs[0]
    on_tiles(chain.score_fill, {1: tile_of(s_value)})
    on_tiles(scores, {q_index: q_shared, k_index: k_staged, 2: tile_of(s_value)})
    # The scores' rounding to half (element by element, as the program
    # rounds them) and the modifier, each from its input's tile to its
    # output's: what the softmax reads (a constant scale was folded into
    # q: the tile holds it already).
    for op in chain.score_modifiers:
        if op is not chain.modifier or score_scale is None:
            into = {index_of(op, s_value): tile_of(s_value)}
            on_tiles(op, {**into, len(op.inputs): tile_of(op.outputs[0])})
        s_value = op.outputs[0]
    x_value = s_value
    s_shared = tile_of(x_value)
    if seen is not None:
        _mask_seen_keys(s_shared, seen, step)
    # The running max, and each row's rescaling.
    spread = 0 if cpu else _row_spread(tiles.rows, threads[1])
    _row_reduction(chain.row_max, s_shared, partials, m_shared, step, cpu, spread)

    def rescale(block: Block) -> list[SSAValue]:
        new_max, _, _, old_sum, old_max = block.args
        at = InsertPoint.at_end(block)
        float_type = cast(AnyFloat, m_type)
        minus_infinity = arith.ConstantOp(FloatAttr(float("-inf"), float_type))
        zero = arith.ConstantOp(FloatAttr(0.0, float_type))
        Rewriter.insert_op([minus_infinity, zero], at)
        masked = arith.CmpfOp(new_max, minus_infinity.result, "oeq")
        chosen = arith.SelectOp(masked.result, zero.result, new_max)
        difference = arith.SubfOp(old_max, chosen.result)
        factor = math.ExpOp(difference.result)
        rescaled = arith.MulfOp(old_sum, factor.results[0])
        Rewriter.insert_op([masked, chosen, difference, factor, rescaled], at)
        return [chosen.result, factor.result, rescaled.result, new_max]

    # Each row's safe max, its factor, its rescaled sum and the max the next
    # step starts from, in one op.
    outputs = [safe, alpha, l_shared, previous]
    _row_wise([m_shared], outputs, spread, rescale, step)
    exp = chain.exp
    x_in = index_of(exp, x_value)
    m_in = 1 - x_in
    on_tiles(exp, {x_in: s_shared, m_in: safe, len(exp.inputs): s_shared})

    def scale(block: Block) -> list[SSAValue]:
        factor, accumulated = block.args
        at = InsertPoint.at_end(block)
        # A half softmax's factor scales an f32 accumulator.
        product = arith.MulfOp(accumulated, _converted(factor, accumulated.type, at))
        Rewriter.insert_op(product, at)
        return [product.result]

    _row_reduction(chain.row_sum, s_shared, partials, l_shared, step, cpu, spread)
    _generic([alpha], [accumulated], [per_row, identity], output_rank, scale, step)
    p_tile = _probabilities(chain, s_shared, tiles_by_type, step)
    p_in = index_of(values, chain.normalize.outputs[0])
    on_tiles(values, {p_in: p_tile, v_index: v_staged, output_index: accumulated})

    # o = o / l, with the division's own body (its quotient; the rounding
    # of the output to half after it, when the chain has one).
    normalize = chain.normalize
    e_in = index_of(normalize, exp.outputs[0])
    o_element = _memref_type(chain.output).get_element_type()

    def divide(out: SSAValue, sums: SSAValue, o: SSAValue, at: InsertPoint) -> None:
        inputs = [out, sums] if e_in == 0 else [sums, out]
        maps = [identity, per_row] if e_in == 0 else [per_row, identity]
        division = GenericOp(
            inputs,
            [o],
            _division_body(chain, inputs, o_element),
            [AffineMapAttr(m) for m in (*maps, identity)],
            _parallel(output_rank),
        )
        Rewriter.insert_op(division, at)

    if not tiles.ragged_rows:
        divide(accumulated, l_shared, o_box, body)
    else:
        # The last tile of a run moved back over rows the tile before it
        # writes: it writes only its own, the last `rem` rows (one writer
        # per element of o).
        last, rest = _if_last_row_tile(kernel, body)
        divide(accumulated, l_shared, o_box, rest)
        rem = tiles.row_extent - (tiles.row_tiles - 1) * tiles.rows
        skip = tiles.rows - rem
        o_rank = len(o_shape)
        offsets = [skip if d == row_position else 0 for d in range(o_rank)]
        sizes = [rem if d == row_position else n for d, n in enumerate(o_shape)]
        tail_out = strided_view(accumulated, offsets, sizes, [1] * o_rank, last)
        tail_sums = strided_view(l_shared, [skip], [rem], [1], last)
        tail_tiles = list(value_tiles)
        row_tile = tail_tiles[inner_row]
        assert isinstance(row_tile.offset, SSAValue)
        tail_origin = affine.ApplyOp(
            [row_tile.offset],
            AffineMapAttr(AffineMap(1, 0, (AffineExpr.dimension(0) + skip,))),
        )
        Rewriter.insert_op(tail_origin, last)
        tail_tiles[inner_row] = Tile(tail_origin.result, rem)
        tail_o = box_subview(chain.output, output_map, tail_tiles, last)
        divide(tail_out, tail_sums, tail_o, last)
    for buffer in kernel.workgroup:
        Rewriter.insert_op(memref.DeallocOp.get(buffer), body)
    Rewriter.insert_op(grid, host)
    return grid


def _stage_keys_and_values(
    k_box: SSAValue,
    v_box: SSAValue,
    k_staged: SSAValue,
    v_staged: SSAValue,
    at: InsertPoint,
) -> None:
    """Copy a key step's keys and values into their staging tiles: one op
    when their tiles match (one loop nest, one barrier), else two."""
    if _memref_type(k_box).get_shape() != _memref_type(v_box).get_shape():
        _copy(k_box, k_staged, at)
        _copy(v_box, v_staged, at)
        return
    rank = len(_memref_type(k_box).get_shape())
    same = AffineMap.identity(rank)
    _generic(
        [k_box, v_box],
        [k_staged, v_staged],
        [same] * 4,
        rank,
        lambda block: [block.args[0], block.args[1]],
        at,
    )


def _probabilities(
    chain: AttentionChain,
    numerators: SSAValue,
    tiles_by_type: dict[Attribute, SSAValue],
    at: InsertPoint,
) -> SSAValue:
    """The tile the product with v reads: the numerators' or, where the
    program rounds the probabilities `e / l` to half before the product,
    the numerators rounded to half (`l` is known only after the last key
    step, so `e` is rounded and divided by `l` after the product: the
    product reads half operands, as the program's does)."""
    if chain.probability_type is None:
        return numerators
    rounded = tiles_by_type[chain.probability_type]
    _round_tile(numerators, rounded, at)
    return rounded


def _converted(value: SSAValue, element: Attribute, at: InsertPoint) -> SSAValue:
    """`value` as a float of type `element`: itself, widened (`extf`) or
    rounded (`truncf`)."""
    if value.type == element:
        return value
    source_bytes = element_bytes(value.type) or 8
    target_bytes = element_bytes(element) or 8
    assert source_bytes != target_bytes, "f16 and bf16 do not convert directly"
    conversion: Operation = (
        arith.ExtFOp(value, element)
        if source_bytes < target_bytes
        else arith.TruncFOp(value, element)
    )
    Rewriter.insert_op(conversion, at)
    return conversion.results[0]


def _round_tile(source: SSAValue, target: SSAValue, at: InsertPoint) -> None:
    """`target = truncf(source)` over a score tile (BR x BC)."""
    element = _memref_type(target).get_element_type()

    def rounded(block: Block) -> list[SSAValue]:
        truncation = arith.TruncFOp(block.args[0], element)
        Rewriter.insert_op(truncation, InsertPoint.at_end(block))
        return [truncation.result]

    _generic([source], [target], [AffineMap.identity(2)] * 2, 2, rounded, at)


def _division_body(
    chain: AttentionChain, inputs: Sequence[SSAValue], o_element: Attribute
) -> Region:
    """`yield(a / b)` with the chain's division (its operand order and
    flags), then its output's rounding when it has one; not the division's
    own rounding of the probabilities (the product rounded them)."""
    types = [_memref_type(v).get_element_type() for v in inputs]
    block = Block(arg_types=[*types, o_element])
    for arg, original in zip(block.args, chain.normalize.body.block.args, strict=True):
        arg.name_hint = original.name_hint
    division = next(iter(chain.normalize.body.block.ops))
    assert isinstance(division, arith.DivfOp)
    # The inputs keep the division's positions (the numerator is `a` of `a
    # / b`, wherever it is).
    numerator, denominator = (
        block.args[cast(BlockArgument, operand).index] for operand in division.operands
    )
    quotient: Operation
    if numerator.type == division.lhs.type == denominator.type:
        quotient = division.clone()
        quotient.operands = [numerator, denominator]
    else:
        # A half softmax's sums divide the f32 accumulator, in f32.
        widened = _converted(denominator, numerator.type, InsertPoint.at_end(block))
        quotient = arith.DivfOp(numerator, widened, division.fastmath)
    block.add_op(quotient)
    result = quotient.results[0]
    if chain.output_rounding is not None:
        rounding = next(iter(chain.output_rounding.body.block.ops)).clone()
        rounding.operands = [result]
        block.add_op(rounding)
        result = rounding.results[0]
    block.add_op(LinalgYieldOp(result))
    return Region(block)


def _deallocations_within(chain: AttentionChain) -> list[Operation]:
    """The `memref.dealloc`s between the chain's first op and its last."""
    block = chain.values.parent_block()
    assert block is not None
    first = min(chain.ops, key=block.get_operation_index)
    found: list[Operation] = []
    current = first.next_op
    while current is not None and current is not chain.last:
        if current.name == "memref.dealloc":
            found.append(current)
        current = current.next_op
    return found


def _erase_chain(chain: AttentionChain) -> None:
    roots = chain.intermediates
    for op in chain.ops:
        Rewriter.erase_op(op)
    for root in roots:
        _erase_users(root)
        assert root.owner is not None
        Rewriter.erase_op(root.owner)  # type: ignore[arg-type]


def _erase_users(value: SSAValue) -> None:
    for use in list(value.uses):
        user = use.operation
        if user.name in VIEW_OPS:
            for result in user.results:
                _erase_users(result)
        Rewriter.erase_op(user)


def _same_element_types(chain: AttentionChain) -> bool:
    """What the softmax reads (the modifier's result, else the rounded or
    plain scores) and the numerators share one element type, and so do the
    row max and sum (rescaled together); the output's accumulator has that
    type or one of another width (the rescaling converts between them: an
    f16 softmax beside an f32 accumulator, not f16 beside bf16)."""
    buffers = [chain.softmax_input, chain.exp.outputs[0]]
    types = {_memref_type(b).get_element_type() for b in buffers}
    rows = {
        _memref_type(op.outputs[0]).get_element_type()
        for op in (chain.row_max, chain.row_sum)
    }
    if len(types) != 1 or len(rows) != 1:
        return False
    (state,) = rows
    accumulator = _memref_type(chain.values.outputs[0]).get_element_type()
    return state == accumulator or element_bytes(state) != element_bytes(accumulator)


@dataclass(frozen=True)
class FusionOptions:
    """`linalg-fuse-attention`'s options (see the pass)."""

    block_rows: int = 64
    block_keys: int = 32
    threads: int = 128
    threads_x: int = 16
    min_block: int = 16
    max_keys: int = 0
    max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES
    multiprocessors: int = 0
    max_ragged_waste_percent: int = 15
    # The CPU's kernel (`cpu`): a parallel loop of stack tiles, its row
    # reductions in partials of `vector-bits` (one vector per row).
    cpu: bool = False
    vector_bits: int = 256
    # The unfused products would run on tensor cores (`lower-to-cuda`'s
    # `tensor-cores`): a chain whose products take them (f16 or bf16
    # operands into f32) stays unfused, since the fused kernel's products
    # are SIMT. H100, 2026-11-27 (user's call): attention_s2048_f16 fused
    # 5.95 ms against 2.13 ms for PyTorch eager's tensor-core products;
    # gpt2_block_f16 0.266 ms fused against 0.228 unfused.
    half_products_on_tensor_cores: bool = False


def _takes_tensor_cores(chain: AttentionChain) -> bool:
    """Whether the chain's score product takes half operands into f32."""
    operands = [_memref_type(value).get_element_type() for value in chain.scores.inputs]
    accumulator = _memref_type(chain.scores.outputs[0]).get_element_type()
    return takes_tensor_cores(operands, accumulator)


def _ragged_waste_percent(extent: int, limit: int, min_block: int) -> int:
    """How much larger than `extent` the rows (or keys) a ragged tile of up
    to `limit` computes are, in percent; 0 when the tile divides."""
    tile = _tile_size(extent, limit, min_block, True)
    computed = -(-extent // tile) * tile
    return (computed - extent) * 100 // extent


def fit_ragged_tiles(chain: AttentionChain, options: FusionOptions) -> FusionOptions:
    """`options` with block rows, keys and threads halved together while a
    ragged tile would compute more than `max-ragged-waste-percent` rows or
    keys past the extent (ViT's 197 tokens: 256 in tiles of 128 or 64, 30%
    more; 224 in tiles of 32, 13%), as long as the halves stay at least
    `min-block` (threads at least `threads-x`)."""
    rows = chain.shortest_innermost_rows

    def wasteful(sized: FusionOptions) -> bool:
        return (
            max(
                _ragged_waste_percent(rows, sized.block_rows, sized.min_block),
                _ragged_waste_percent(chain.keys, sized.block_keys, sized.min_block),
            )
            > sized.max_ragged_waste_percent
        )

    return _halve_while(options, wasteful)


def _halve_while(
    options: FusionOptions, condition: Callable[[FusionOptions], bool]
) -> FusionOptions:
    """`options` with block rows, keys and threads halved together while
    `condition` holds and the halves stay at least `min-block` (threads at
    least `threads-x`)."""
    while condition(options):
        halved = replace(
            options,
            block_rows=options.block_rows // 2,
            block_keys=options.block_keys // 2,
            threads=options.threads // 2,
        )
        if (
            min(halved.block_rows, halved.block_keys) < options.min_block
            or halved.threads < options.threads_x
        ):
            break
        options = halved
    return options


def fill_the_grid(chain: AttentionChain, options: FusionOptions) -> FusionOptions:
    """`options` with block rows, keys and threads halved together while the
    grid of row tiles has fewer blocks than `multiprocessors` (see the
    module doc): a block per multiprocessor at least, before larger tiles."""
    rows = prod(chain.row_extents(chain.scores))

    def short(sized: FusionOptions) -> bool:
        blocks = -(-rows // sized.block_rows)
        return bool(sized.multiprocessors) and blocks < sized.multiprocessors

    return _halve_while(options, short)


def _vector_lanes(chain: AttentionChain, options: FusionOptions) -> int:
    """The row max's elements in one vector of `vector-bits` (at least 1)."""
    row_bits = 8 * _element_bytes(chain.row_max.outputs[0])
    return max(options.vector_bits // row_bits, 1)


def fuse_attention(module: ModuleOp, options: FusionOptions) -> int:
    """Rewrite every attention chain of `module` worth it; return how many."""
    fused = 0
    blocks = [
        block
        for op in module.walk()
        for region in op.regions
        for block in region.blocks
    ]
    for block in blocks:
        for chain in attention_chains(block):
            if not _same_element_types(chain):
                continue
            if options.half_products_on_tensor_cores and _takes_tensor_cores(chain):
                continue
            if options.max_keys and chain.keys > options.max_keys:
                continue
            sized = fill_the_grid(chain, options)
            if not options.cpu:
                # Measured on the H100 only (ViT's 197 tokens); the CPU's
                # tiles stay as asked.
                sized = fit_ragged_tiles(chain, sized)
            x_threads = min(sized.threads_x, sized.threads)
            lanes = _vector_lanes(chain, options) if options.cpu else 0
            tiles = choose_tiles(
                chain,
                sized.block_rows,
                sized.block_keys,
                sized.max_shared_bytes,
                x_threads,
                sized.min_block,
                options.cpu,
                lanes,
            )
            if tiles is None or min(tiles.rows, tiles.keys) < sized.min_block:
                continue
            freed = _deallocations_within(chain)
            grid = _build(chain, tiles, (sized.threads // x_threads, x_threads), lanes)
            _erase_chain(chain)
            # The kernel runs where the last op was: what the chain read
            # and was freed after an earlier op is freed after the kernel.
            for dealloc in reversed(freed):
                if dealloc.parent is not None:
                    dealloc.detach()
                    Rewriter.insert_op(dealloc, InsertPoint.after(grid))
            fused += 1
    return fused


@dataclass(frozen=True)
class LinalgFuseAttentionPass(ModulePass):
    """Attention chains as one block forall with an online softmax.

    Input: linalg on memrefs (after `bufferize`); see the module doc.
    Output: each chain as a block-mapped `scf.forall` of block-level linalg
    ops, for `linalg-tile-for-gpu`; with `cpu`, a plain `scf.forall` (OpenMP)
    of stack tiles for `lower-to-c`. Preserves: every output element up to
    floating-point reassociation.
    """

    name = PASS_NAME

    block_rows: int = FusionOptions.block_rows
    block_keys: int = FusionOptions.block_keys
    threads: int = FusionOptions.threads
    threads_x: int = FusionOptions.threads_x
    min_block: int = FusionOptions.min_block
    max_keys: int = FusionOptions.max_keys
    max_shared_bytes: int = FusionOptions.max_shared_bytes
    multiprocessors: int = FusionOptions.multiprocessors
    max_ragged_waste_percent: int = FusionOptions.max_ragged_waste_percent
    cpu: bool = FusionOptions.cpu
    vector_bits: int = FusionOptions.vector_bits
    half_products_on_tensor_cores: bool = FusionOptions.half_products_on_tensor_cores

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sizes = (
            self.block_rows,
            self.block_keys,
            self.threads,
            self.threads_x,
            self.min_block,
            self.vector_bits,
        )
        if (
            min(sizes) < 1
            or self.max_shared_bytes < 1
            or self.max_keys < 0
            or self.multiprocessors < 0
            or self.max_ragged_waste_percent < 0
        ):
            raise PassFailedException(
                f"{PASS_NAME}: block-rows, block-keys, threads, threads-x, "
                "min-block, vector-bits and max-shared-bytes must be positive, "
                "max-keys and multiprocessors 0 (off) or positive, "
                "max-ragged-waste-percent not negative"
            )
        fuse_attention(
            op,
            FusionOptions(
                self.block_rows,
                self.block_keys,
                self.threads,
                self.threads_x,
                self.min_block,
                self.max_keys,
                self.max_shared_bytes,
                self.multiprocessors,
                self.max_ragged_waste_percent,
                self.cpu,
                self.vector_bits,
                self.half_products_on_tensor_cores,
            ),
        )
