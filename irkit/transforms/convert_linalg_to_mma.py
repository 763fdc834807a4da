"""`convert-linalg-to-mma`: half-precision (and, asked for, TF32) matmuls
on tensor cores.

A matmul-class `linalg.generic` on buffers (`irkit.analysis.structured.
is_contraction`) whose operands are f16 or bf16 and whose accumulator is
f32, as torch-mlir writes `torch.mm` in half precision (`arith.extf` of each
operand in the body), becomes one `gpu.launch` whose warps multiply on
tensor cores with the `mma` dialect (`irkit/dialects/mma.py`). With `tf32`
(off by default, as PyTorch's `allow_tf32`), an f32 x f32 -> f32 matmul
does too, its operands rounded to TF32 by `mma.sync {tf32}` (m16n8k8): the
same kernel, with 32-bit fragments read from workgroup memory by plain
loads (PTX has no `ldmatrix` for them):

- the grid: one block per `BM x BN` output tile (x along N, y along M, z
  over the batch loops, which may be several: z is split back into them);
  256 threads, 8 warps as 2 x 4, each warp owning a `BM/2 x BN/4` tile made
  of 16x8 products;
- operand tiles of `BK` steps of the reduction are copied from global to
  workgroup memory with `mma.cp_async` (16 bytes a thread), `stages`
  buffers deep, so the copies for step `k + stages - 1` run while step `k`
  multiplies (`mma.cp_async_wait` + `gpu.barrier` before a step's reads);
  rows are padded by 8 elements (16 bytes) so that the eight row addresses
  of an `ldmatrix` fall in distinct banks; f32 rows read as 8 rows x 4
  columns by a warp (A, an n-major B) by 4 elements, so rows start 4 banks
  apart (mod 32) and the 32 loads fall in distinct banks, and a k-major
  B's (4 rows x 8 columns) by 8;
- each warp loads its fragments with `mma.ldmatrix` (`transpose` for a B
  stored k-major, plain for a B stored n-major, as a transposed `nn.Linear`
  weight is) and multiplies with `mma.sync`, its accumulators in private
  memory (registers: every index is a constant, the code is unrolled here);
- the output's fill before the matmul (`irkit.analysis.contraction_fusion.
  fusable_prologue`, a fill of a value) initialises the accumulators and is
  erased; without one, the accumulators start from the output's elements;
- the output's elementwise consumer after the matmul (`fusable_epilogue`:
  a bias, an activation, a residual add, the cast back to f16) runs on
  each accumulator when it reads the product (or a padded product's
  leading corner: then under an `scf.if` on the corner's bounds) and its
  other operands through maps of loops and constants: its body is cloned
  per element (`linalg.index` as the element's indices), its results are
  stored and it is erased; the product is then stored only when something
  else reads it (else its allocation goes too).

**Contract.** The rewrite computes `C[b, m, n] += sum_k A[b, m, k] B[b, k,
n]` (B's map may also be `(n, k)`; A and B may lack batch dimensions, which
they then share) with products exact and sums in f32, in another order than
the loop nest: the result differs from the interpreter's sequential f32 sum
by rounding only. With `tf32`, f32 operands are first rounded to TF32 (10
mantissa bits, to nearest, ties away): the result differs from the f32
product by TF32's rounding of each operand (a relative error of up to
2**-11 per operand), the precision PyTorch's `allow_tf32` accepts; without
`tf32`, f32 matmuls are never taken. It applies only where every operand is
a memref of static shape with the identity layout, `M % BM == N % BN == K %
BK == 0` (BM and BN are halved down to 64 to divide the extents or to fill
`multiprocessors`, BK down to the instruction's k, 16 or 8 for TF32), so
every copy and fragment is whole: a matmul it cannot take is left alone for
`linalg-tile-for-gpu`'s SIMT kernels (`lower-to-cuda` pads extents first,
`linalg-pad-contractions`). Options are checked: `block` takes three sizes,
multiples of (64, 64, 16); `stages` is 2 to 4.

With `partial-tiles`, a matmul whose operand rows are multiples of 16
bytes (K, and N for a k-major B, multiples of 8 f16/bf16 or 4 f32:
`takes_partial_tiles`) is taken whatever its extents: an extent no tile
divides keeps the largest tile (BK halves once at most), the grid and the
K steps round up, and the last tiles pass the operands' edges. Every
16-byte copy of an operand row then lies inside the row or wholly past
it: its source row and column are clamped inside the operand (the address
stays valid) and it reads 16 bytes where both lie inside, none past
(`mma.cp_async ... valid_bytes`, PTX's zero-filling src-size form), so the
tiles hold zeros past the edges and the products past K add `0 * 0`. The
accumulators past M or N are never stored: each store (and the epilogue's
body) runs under an `scf.if` on the output's extents; accumulators
started from the output read a clamped element. The sums of the output's
elements are the same as on padded operands, with no padded copy. A
matmul with a row length not of 16-byte multiples (an odd K in f16) is
left alone as without the option, for the padded path, and so is TF32
warpgroup products' element-by-element copy of a k-major B
(`tf32-transpose-b=false`), which would spill on partial tiles.

With `wgmma` (Hopper, sm_90a), an f16/bf16 matmul whose K is a multiple
of 64 runs as warpgroup products instead (`mma.warpgroup_mma`,
`docs/passes/convert-linalg-to-mma.md`): blocks of at most `wgmma-block`
(BM x BN, a warpgroup of 128 threads per 64 rows), K steps of one 128-byte
row (64 elements), operand tiles copied by `mma.cp_async` into the 128-byte
swizzled layout (`irkit.dialects.mma.swizzled_chunk`; a k-major B in
panels of 64 columns, multiplied with `transpose_b`) and read by the tensor
cores from there, four m64nNk16 products a step left running into the
next step (with three stages or more), the copies issued while they run,
each thread's BN / 2 accumulators in the PTX ISA's D layout, then the
same fill, stores and epilogue as above. It computes the same sums
(exact products, f32 sums in the tensor cores' order). With `tf32` too, an
f32 matmul whose K is a multiple of 32 runs the same kernel as m64nNk8
TF32 products (`mma.warpgroup_mma {tf32}`): rows of 32 f32, products 8
elements (32 bytes) apart, both operands K-major (PTX transposes only
16-bit operands), so a k-major B is copied element by element (4-byte
`mma.cp_async`) into an N x K tile, and its operands are truncated to
TF32 as the tensor cores read them (not rounded as `mma.sync {tf32}`'s:
the same tolerance). A matmul it cannot take (K, buffers past
`max-shared-bytes` at two stages) takes the `mma.sync` kernel.
`wgmma-block` takes two multiples of 64, BN at most 256 (one product's
N), BM at most 1024 / 128 * 64.

With `tma` too (on by default), an f16/bf16 warpgroup kernel whose A and B
are whole buffers (identity layout, rows a multiple of 16 bytes, as TMA's
global strides must be) copies its tiles with the Tensor Memory
Accelerator instead: thread 0 starts one `mma.tma_load` per operand box (A
`BM x 64`, B `64 x 64` panels or, n-major, `BN x 64`), which land in the
same swizzled layout, and an mbarrier per stage (`mma.mbarrier_*`) counts
their bytes; a step waits for its stage's mbarrier phase, then the same
`gpu.barrier`, products and prefetch distance as with `cp_async`. No
thread computes a copy address but thread 0. H100, 4096^3 f16, the kernel
alone: 258 -> 204 us (`benchmarks/wgmma.py`; cuBLAS 186 us with f32 out).
TF32 kernels keep `cp_async` (their transposing 4-byte copies of B).

MLIR builds the same kernels from `nvgpu` ops through vector distribution
(`mlir/lib/Dialect/NVGPU/TransformOps`, IREE's `LLVMGPUTensorCore`
pipeline); here the kernel is built directly from the structured op.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.contraction_fusion import (
    fusable_epilogue,
    fusable_prologue,
    is_corner_of,
)
from irkit.analysis.memory import DEFAULT_MAX_SHARED_BYTES
from irkit.analysis.structured import is_contraction, shaped_inputs, takes_tensor_cores
from irkit.dialects import memref
from irkit.dialects.gpu import (
    MIN_BLOCKS_ATTRIBUTE,
    BarrierOp,
    LaunchOp,
    TerminatorOp,
    private_memory_space,
    workgroup_memory_space,
)
from irkit.dialects.mma import (
    ASYNC_COPY_BYTES,
    C_FRAGMENT,
    MMA_SHAPE,
    SWIZZLE_ROW_BYTES,
    TF32_MMA_SHAPE,
    TMA_MAX_BOX,
    TMA_STRIDE_BYTES,
    WARPGROUP_M,
    WARPGROUP_MAX_N,
    WARPGROUP_THREADS,
    CpAsyncCommitOp,
    CpAsyncOp,
    CpAsyncWaitOp,
    FenceProxyAsyncOp,
    LdMatrixOp,
    MbarrierArriveExpectTxOp,
    MbarrierInitOp,
    MbarrierWaitOp,
    SyncOp,
    TmaLoadOp,
    WarpgroupCommitOp,
    WarpgroupFenceOp,
    WarpgroupMmaOp,
    WarpgroupWaitOp,
    fragment_sizes,
    swizzled_chunk,
    warpgroup_accumulator_count,
    warpgroup_k,
)
from irkit.dialects.scf import ForOp, IfOp
from irkit.dtypes import element_bytes
from irkit.transforms.utils.builders import hoist_to_contraction, permuted_copy

PASS_NAME = "convert-linalg-to-mma"

WARP_SIZE = 32
# Accumulators per thread past which the kernel asks for one resident block
# per multiprocessor (`nvvm.minctasm = 1`), leaving each thread the full
# 255 registers: two blocks of 256 threads leave 128, which 64 accumulators,
# their fragments and addresses fit.
MAX_ACCUMULATORS_FOR_TWO_BLOCKS = 64
MAX_THREADS = 1024  # a block's, on every NVIDIA GPU since Fermi
# Elements each shared row is padded by: 16 bytes of f16/bf16, so that the
# eight 16-byte rows of an `ldmatrix` fall in distinct banks.
ROW_PAD = 8
# f32 rows a warp reads as 8 rows (g) x 4 columns (c) (A, an n-major B):
# rows of BK + 4 floats start 4 banks apart modulo 32 (BK + 4 is an odd
# multiple of 4), so the 32 loads fall in 32 banks. Rows read as 4 rows
# (c) x 8 columns (g) (a k-major B): rows of BN + 8 floats start 8 banks
# apart (BN is a multiple of 32).
TF32_ROW_PAD = 4
TF32_K_MAJOR_ROW_PAD = 8
# The k of B each warp's 4-byte transposing copies cover (TF32 warpgroup
# products, a k-major B), by 32 / it n: 4 k x 8 n reads 4 rows of B (4
# cache lines a warp) and writes 32 distinct banks; 2 x 16 reads 2 lines
# with 2-way bank conflicts, 1 x 32 one line with 4-way ones. Which costs
# the L1 least is the H100's to say: `benchmarks/wgmma.py --types tf32
# --tf32-copy-k all` times each (1, 2 or 4: a divisor of a chunk's 4).
TF32_TRANSPOSE_K = 4


@dataclass(frozen=True)
class MatmulShape:
    """What the kernel needs to know of one matmul-class generic."""

    a: SSAValue
    b: SSAValue
    c: SSAValue
    element: Attribute
    batch: tuple[int, ...]  # extents of the batch loops
    m: int
    n: int
    k: int
    # For each operand, the batch loops (positions in `batch`) its leading
    # dimensions are indexed by.
    a_batch: tuple[int, ...]
    b_batch: tuple[int, ...]
    b_k_major: bool  # B stored as (k, n); else (n, k)

    @property
    def tf32(self) -> bool:
        """f32 operands, rounded to TF32 on the tensor cores."""
        return isinstance(self.element, Float32Type)

    @property
    def instruction(self) -> tuple[int, int, int]:
        """(m, n, k) of one `mma.sync`."""
        return TF32_MMA_SHAPE if self.tf32 else MMA_SHAPE

    @property
    def chunk(self) -> int:
        """Elements one 16-byte `mma.cp_async` copies."""
        return ASYNC_COPY_BYTES // (element_bytes(self.element) or 1)

    @property
    def a_row_pad(self) -> int:
        """Elements A's shared rows are padded by (see ROW_PAD)."""
        return TF32_ROW_PAD if self.tf32 else ROW_PAD

    @property
    def b_row_pad(self) -> int:
        """Elements B's shared rows are padded by."""
        if not self.tf32:
            return ROW_PAD
        return TF32_K_MAJOR_ROW_PAD if self.b_k_major else TF32_ROW_PAD


def _plain_buffer(value: SSAValue) -> MemRefType[Attribute] | None:
    """`value`'s type when it is a static, identity-layout global memref."""
    memref_type = value.type
    if (
        isinstance(memref_type, MemRefType)
        and memref_type.has_static_shape()
        and isinstance(memref_type.layout, NoneAttr)
        and memref_type.memory_space == NoneAttr()
    ):
        return memref_type
    return None


def _dims(indexing_map: AffineMap) -> list[int] | None:
    """The loops a map reads, when each of its results is a bare loop."""
    dims = [e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    return dims if len(dims) == len(indexing_map.results) else None


def match_matmul(op: GenericOp, tf32: bool = False) -> MatmulShape | None:
    """The matmul a generic is, when this pass can run it on tensor cores:
    f16 or bf16 operands, or with `tf32` f32 ones; an f32 accumulator."""
    if not is_contraction(op) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    a_type, b_type, c_type = (_plain_buffer(v) for v in (*op.inputs, *op.outputs))
    if a_type is None or b_type is None or c_type is None:
        return None
    element = a_type.get_element_type()
    if not takes_tensor_cores(
        [element, b_type.get_element_type()], c_type.get_element_type(), tf32
    ):
        return None
    kinds = [kind.data for kind in op.get_iterator_types()]
    reductions = [i for i, kind in enumerate(kinds) if kind == IteratorType.REDUCTION]
    loops = [_dims(attr.data) for attr in op.indexing_maps]
    if len(reductions) != 1 or any(dims is None for dims in loops):
        return None
    (k_loop,) = reductions
    a_loops, b_loops, c_loops = (dims or [] for dims in loops)
    if len(c_loops) < 2 or k_loop in c_loops:
        return None
    *batch_loops, m_loop, n_loop = c_loops
    if sorted([*c_loops, k_loop]) != list(range(len(kinds))):
        return None
    if a_loops[-2:] != [m_loop, k_loop]:
        return None
    if b_loops[-2:] == [k_loop, n_loop]:
        b_k_major = True
    elif b_loops[-2:] == [n_loop, k_loop]:
        b_k_major = False
    else:
        return None
    a_batch = a_loops[:-2]
    b_batch = b_loops[:-2]
    for leading in (a_batch, b_batch):
        if any(loop not in batch_loops for loop in leading):
            return None
        positions = [batch_loops.index(loop) for loop in leading]
        if positions != sorted(positions):
            return None
    c_shape = c_type.get_shape()
    return MatmulShape(
        a=op.inputs[0],
        b=op.inputs[1],
        c=op.outputs[0],
        element=element,
        batch=tuple(c_shape[:-2]),
        m=c_shape[-2],
        n=c_shape[-1],
        k=a_type.get_shape()[-1],
        a_batch=tuple(batch_loops.index(loop) for loop in a_batch),
        b_batch=tuple(batch_loops.index(loop) for loop in b_batch),
        b_k_major=b_k_major,
    )


@dataclass(frozen=True)
class MmaTiles:
    block_m: int
    block_n: int
    block_k: int
    stages: int
    warps_m: int
    warps_n: int

    @property
    def threads(self) -> int:
        return WARP_SIZE * self.warps_m * self.warps_n

    @property
    def warp_m(self) -> int:
        return self.block_m // self.warps_m

    @property
    def warp_n(self) -> int:
        return self.block_n // self.warps_n

    @property
    def fragments_m(self) -> int:
        return self.warp_m // 16

    @property
    def fragments_n(self) -> int:
        return self.warp_n // 8


def workgroup_bytes(shape: MatmulShape, tiles: MmaTiles) -> int:
    """The bytes of the kernel's copy buffers: `stages` tiles of A and of B,
    rows padded (`MatmulShape.a_row_pad`, `b_row_pad`)."""
    bm, bn, bk = tiles.block_m, tiles.block_n, tiles.block_k
    b_rows, b_cols = (bk, bn) if shape.b_k_major else (bn, bk)
    elements = bm * (bk + shape.a_row_pad) + b_rows * (b_cols + shape.b_row_pad)
    return tiles.stages * elements * (element_bytes(shape.element) or 1)


def takes_partial_tiles(shape: MatmulShape) -> bool:
    """Whether the kernels can run `shape` on tiles that pass its edges
    (`partial-tiles`): every 16-byte copy of an operand row then lies
    inside the row or past its end, never across it, and starts 16-byte
    aligned, which needs rows (A's and B's, K or N long) of a multiple of
    16 bytes. Elsewhere (an odd K in f16) the extents must be padded."""
    row_lengths = [shape.k, shape.n if shape.b_k_major else shape.k]
    return all(length % shape.chunk == 0 for length in row_lengths)


def _fitted_extent(extent: int, block: int, smallest: int, partial: bool) -> int:
    """A tile extent for `extent`: `block` halved down to `smallest` until
    it divides; where none does, with `partial`, `block` itself (the last
    tile partial) or, for a short extent, its smallest halving that still
    covers it in one tile."""
    size = block
    while size > smallest and extent % size:
        size //= 2
    if extent % size == 0 or not partial:
        return size
    size = block
    while size > smallest and size // 2 >= extent:
        size //= 2
    return size


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def choose_tiles(
    shape: MatmulShape,
    block: Sequence[int],
    stages: int,
    warps: Sequence[int],
    multiprocessors: int,
    max_shared_bytes: int,
    partial: bool = False,
) -> MmaTiles | None:
    """Tiles dividing the extents, smaller where the grid would leave
    multiprocessors idle (never below a 16x8 product per warp), with fewer
    stages (then a shorter BK) where the
    copy buffers would pass `max_shared_bytes`; None when no tile of at
    least 64x64 by the instruction's k (16, TF32's 8) divides or fits.
    With `partial` (and `takes_partial_tiles`), an extent no such tile
    divides keeps the largest tile, its last one partial."""
    partial = partial and takes_partial_tiles(shape)
    block_m, block_n, block_k = block
    warps_m, warps_n = warps
    smallest_m, smallest_n = max(64, 16 * warps_m), max(64, 8 * warps_n)
    smallest_k = shape.instruction[2]
    block_m = _fitted_extent(shape.m, block_m, smallest_m, partial)
    block_n = _fitted_extent(shape.n, block_n, smallest_n, partial)
    # With partial steps, BK halves once at most to divide K: a shorter step
    # costs its barrier and wait more often than a partial last one costs.
    block_k = _fitted_extent(
        shape.k, block_k, max(smallest_k, block_k // 2 if partial else 0), partial
    )
    if not partial and (shape.m % block_m or shape.n % block_n or shape.k % block_k):
        return None
    batch = 1
    for extent in shape.batch:
        batch *= extent

    def blocks(bm: int, bn: int) -> int:
        return batch * _ceil_div(shape.m, bm) * _ceil_div(shape.n, bn)

    def halves(extent: int, size: int) -> bool:
        return extent % (size // 2) == 0 or (partial and extent % size != 0)

    while multiprocessors and blocks(block_m, block_n) < multiprocessors:
        if block_n > smallest_n and halves(shape.n, block_n):
            block_n //= 2
        elif block_m > smallest_m and halves(shape.m, block_m):
            block_m //= 2
        else:
            break
    tiles = MmaTiles(block_m, block_n, block_k, stages, warps_m, warps_n)
    while workgroup_bytes(shape, tiles) > max_shared_bytes:
        if tiles.stages > 2:
            tiles = replace(tiles, stages=tiles.stages - 1)
        elif tiles.block_k > smallest_k:
            tiles = replace(tiles, block_k=tiles.block_k // 2)
        else:
            return None
    return tiles


def warpgroup_workgroup_bytes(shape: MatmulShape, tiles: MmaTiles) -> int:
    """The bytes of the warpgroup kernel's copy buffers: `stages` tiles of
    A (BM rows) and B (BN rows or columns) of 128-byte rows, unpadded (the
    swizzle spreads an access over the banks)."""
    return tiles.stages * (tiles.block_m + tiles.block_n) * SWIZZLE_ROW_BYTES


def choose_warpgroup_tiles(
    shape: MatmulShape,
    block: Sequence[int],
    stages: int,
    multiprocessors: int,
    max_shared_bytes: int,
    partial: bool = False,
) -> MmaTiles | None:
    """Tiles of the warpgroup kernel: BM x BN from `block` (halved down to 64
    to divide the extents or fill `multiprocessors`, as `choose_tiles`
    does), BK the elements of one 128-byte swizzled row (64 f16/bf16, 32
    f32), a warpgroup per 64 rows of BM; fewer stages where the buffers
    would pass `max_shared_bytes` (a stage is `(BM + BN) * 128` bytes
    whatever the element: f32 steps K by half as many elements, each
    product covering half the K). None for a K that BK does not divide,
    or no tile that fits; with `partial` (and `takes_partial_tiles`),
    extents no tile divides take partial last tiles (and K steps)."""
    partial = partial and takes_partial_tiles(shape)
    block_k = SWIZZLE_ROW_BYTES // (element_bytes(shape.element) or 1)
    block_m, block_n = block
    block_m = _fitted_extent(shape.m, block_m, WARPGROUP_M, partial)
    block_n = _fitted_extent(shape.n, block_n, WARPGROUP_M, partial)
    if not partial and (shape.m % block_m or shape.n % block_n or shape.k % block_k):
        return None
    batch = math.prod(shape.batch)

    def halves(extent: int, size: int) -> bool:
        return extent % (size // 2) == 0 or (partial and extent % size != 0)

    while (
        multiprocessors
        and batch * _ceil_div(shape.m, block_m) * _ceil_div(shape.n, block_n)
        < multiprocessors
    ):
        if block_n > WARPGROUP_M and halves(shape.n, block_n):
            block_n //= 2
        elif block_m > WARPGROUP_M and halves(shape.m, block_m):
            block_m //= 2
        else:
            break
    warpgroups = block_m // WARPGROUP_M
    tiles = MmaTiles(
        block_m,
        block_n,
        block_k,
        stages,
        warpgroups * WARPGROUP_THREADS // WARP_SIZE,
        1,
    )
    while warpgroup_workgroup_bytes(shape, tiles) > max_shared_bytes:
        if tiles.stages <= 2:
            return None
        tiles = replace(tiles, stages=tiles.stages - 1)
    return tiles


class _KernelBuilder:
    """Appends index arithmetic and ops to one block, constants hoisted."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self.constants: dict[int, SSAValue] = {}
        self.constants_at = InsertPoint.at_start(block)

    def nested(self, block: Block) -> _KernelBuilder:
        """A builder of `block`, nested in this one's, sharing its constants
        (defined at the start of the kernel)."""
        builder = _KernelBuilder(block)
        builder.constants, builder.constants_at = self.constants, self.constants_at
        return builder

    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def const(self, value: int) -> SSAValue:
        if value not in self.constants:
            op = arith.ConstantOp.from_int_and_width(value, IndexType())
            op.result.name_hint = f"c{value}"
            Rewriter.insert_op(op, self.constants_at)
            self.constants[value] = op.result
        return self.constants[value]

    def index(self, value: SSAValue | int) -> SSAValue:
        return self.const(value) if isinstance(value, int) else value

    def binary(
        self,
        kind: Callable[[SSAValue, SSAValue], Operation],
        a: SSAValue | int,
        b: SSAValue | int,
    ) -> SSAValue:
        op = kind(self.index(a), self.index(b))
        self.block.add_op(op)
        return op.results[0]

    def add_index(self, *terms: SSAValue | int) -> SSAValue | int:
        """The sum of `terms`, constants folded."""
        constant = sum(term for term in terms if isinstance(term, int))
        values = [term for term in terms if not isinstance(term, int)]
        if not values:
            return constant
        total: SSAValue = values[0]
        for value in values[1:]:
            total = self.binary(arith.AddiOp, total, value)
        if constant:
            total = self.binary(arith.AddiOp, total, constant)
        return total

    def mul(self, a: SSAValue, factor: int) -> SSAValue | int:
        if factor == 0:
            return 0
        if factor == 1:
            return a
        return self.binary(arith.MuliOp, a, factor)

    def div(self, a: SSAValue, divisor: int) -> SSAValue:
        return a if divisor == 1 else self.binary(arith.DivUIOp, a, divisor)

    def rem(self, a: SSAValue, divisor: int) -> SSAValue:
        return self.binary(arith.RemUIOp, a, divisor)

    def indices(self, values: Sequence[SSAValue | int]) -> list[SSAValue]:
        return [self.index(value) for value in values]


def _batch_indices(
    kb: _KernelBuilder, linear: SSAValue, batch: Sequence[int]
) -> list[SSAValue | int]:
    """The batch loops' indices from the block's z id, the first loop
    slowest (an extent of 1 has index 0)."""
    indices: list[SSAValue | int] = []
    remaining = linear
    for position, extent in enumerate(batch):
        inner = math.prod(batch[position + 1 :])
        quotient = kb.div(remaining, inner)
        indices.append(quotient if extent > 1 else 0)
        if inner > 1:
            remaining = kb.rem(remaining, inner)
    return indices


def _source_of_copy(
    builder: _KernelBuilder,
    source: SSAValue,
    leading: Sequence[SSAValue | int],
    at: tuple[SSAValue | int, SSAValue | int],
    tile: tuple[int, int],
    run: int,
    size: int = ASYNC_COPY_BYTES,
) -> tuple[list[SSAValue], SSAValue | None]:
    """The source indices of a copy of `run` elements (`size` bytes) at
    `at` (row, column) of `source`, from a tile of `tile` extents whose
    origin is a multiple of them, and its valid bytes (None: all). Along a
    dimension whose extent the tile does not divide, the tile may pass the
    edge: the index is clamped inside (a copy's address must be valid even
    when it reads nothing) and the copy reads its `size` bytes where it
    starts inside along both dimensions, none past (zero-filled). A run
    lies inside a row whole or not at all: rows are a multiple of `run`
    long (`takes_partial_tiles`)."""
    source_type = cast(MemRefType[Attribute], source.type)
    extents = source_type.get_shape()[-2:]
    indices: list[SSAValue | int] = []
    inside: SSAValue | None = None
    for index, extent, tile_extent, length in zip(
        at, extents, tile, (1, run), strict=True
    ):
        if extent % tile_extent == 0:
            indices.append(index)
            continue
        below = arith.CmpiOp(builder.index(index), builder.const(extent), "ult")
        builder.add(below)
        inside = (
            below.result
            if inside is None
            else builder.binary(arith.AndIOp, inside, below.result)
        )
        indices.append(builder.binary(arith.MinUIOp, index, extent - length))
    if inside is None:
        return builder.indices([*leading, *indices]), None
    valid = arith.SelectOp(inside, builder.const(size), builder.const(0))
    builder.add(valid)
    return builder.indices([*leading, *indices]), valid.result


def _within(
    kb: _KernelBuilder, indices: Sequence[SSAValue], bounds: Sequence[tuple[int, int]]
) -> SSAValue | None:
    """Whether every `indices[dim] < size` of `bounds` holds (None: no
    bounds)."""
    inside: SSAValue | None = None
    for dim, size in bounds:
        below = arith.CmpiOp(indices[dim], kb.const(size), "ult")
        kb.add(below)
        inside = (
            below.result
            if inside is None
            else kb.binary(arith.AndIOp, inside, below.result)
        )
    return inside


class _MmaKernel:
    """The `gpu.launch` computing one matmul (see the module doc), built in
    program order: ids, accumulators, the first steps' copies, the
    reduction loop, the results."""

    # The stages' mbarriers where TMA copies the tiles (`_WarpgroupKernel`
    # with `tma`); None: `cp.async` copies.
    barriers: SSAValue | None = None

    def __init__(
        self,
        shape: MatmulShape,
        tiles: MmaTiles,
        at: InsertPoint,
        epilogue: _Epilogue | None = None,
        store_product: bool = True,
    ) -> None:
        bm, bn, bk, stages = tiles.block_m, tiles.block_n, tiles.block_k, tiles.stages
        fm, fn = tiles.fragments_m, tiles.fragments_n
        self.a_fragment, self.b_fragment, _ = fragment_sizes(shape.instruction)
        self._open_launch(
            shape,
            tiles,
            at,
            epilogue,
            store_product,
            workgroup=[
                ("a_tiles", self._tile_type(shape, stages, bm, bk, shape.a_row_pad)),
                (
                    "b_tiles",
                    self._tile_type(
                        shape,
                        stages,
                        *((bk, bn) if shape.b_k_major else (bn, bk)),
                        shape.b_row_pad,
                    ),
                ),
            ],
            private=[
                (
                    "a_fragments",
                    self._fragment_type(shape.element, fm * self.a_fragment),
                ),
                (
                    "b_fragments",
                    self._fragment_type(shape.element, fn * self.b_fragment),
                ),
                ("acc", self._fragment_type(Float32Type(), fm * fn * C_FRAGMENT)),
            ],
        )
        self.a_tiles, self.b_tiles = self.launch.workgroup_attributions
        self.a_fragments, self.b_fragments, self.acc = self.launch.private_attributions
        kb = self.kb
        warp = kb.div(self.tid, WARP_SIZE)
        lane = kb.rem(self.tid, WARP_SIZE)
        self.warp_m = kb.mul(kb.div(warp, tiles.warps_n), tiles.warp_m)
        self.warp_n = kb.mul(kb.rem(warp, tiles.warps_n), tiles.warp_n)
        group = kb.div(lane, 4)
        self.group = group  # g of the fragment layouts
        self.lane_in_group = kb.rem(lane, 4)  # c
        pair = kb.mul(self.lane_in_group, 2)
        self.lane_row = kb.rem(lane, 8)
        lane_matrix = kb.div(lane, 8)
        # ldmatrix x4 addresses: matrix t = lane / 8 supplies row lane % 8.
        self.matrix_low = kb.mul(kb.rem(lane_matrix, 2), 8)  # t % 2 * 8
        self.matrix_high = kb.mul(kb.div(lane_matrix, 2), 8)  # t / 2 * 8
        # Thread l's element e of fragment (mi, ni) is C[row0 + mi * 16 + 8
        # (e / 2), col0 + ni * 8 + e % 2].
        self.row0 = kb.add_index(self.m0, self.warp_m, group)
        self.col0 = kb.add_index(self.n0, self.warp_n, pair)

    def _open_launch(
        self,
        shape: MatmulShape,
        tiles: MmaTiles,
        at: InsertPoint,
        epilogue: _Epilogue | None,
        store_product: bool,
        workgroup: Sequence[tuple[str, MemRefType[Attribute]]],
        private: Sequence[tuple[str, MemRefType[Attribute]]],
    ) -> None:
        """The launch (a block per output tile, `tiles.threads` threads, the
        named buffers) and what every kernel computes first: the block's
        output origin (`m0`, `n0`) and batch indices."""
        self.shape, self.tiles = shape, tiles
        # The elementwise consumer of the product run on each accumulator,
        # and whether the product itself is still stored (something else
        # reads it).
        self.epilogue, self.store_product = epilogue, store_product
        self.launch = LaunchOp(
            self._launch_constants(at),
            [
                self._launch_constant(tiles.threads, "threads", at),
                *[self._launch_constant(1, "one", at)] * 2,
            ],
            workgroup=[memref_type for _, memref_type in workgroup],
            private=[memref_type for _, memref_type in private],
        )
        for value, (hint, _) in zip(
            [*self.launch.workgroup_attributions, *self.launch.private_attributions],
            [*workgroup, *private],
            strict=True,
        ):
            value.name_hint = hint
        kb = self.kb = _KernelBuilder(self.launch.entry_block)
        block_x, block_y, block_z = self.launch.block_ids
        self.tid = self.launch.thread_ids[0]
        self.tid.name_hint, block_x.name_hint, block_y.name_hint = "tid", "bx", "by"
        self.m0 = kb.mul(block_y, tiles.block_m)
        self.n0 = kb.mul(block_x, tiles.block_n)
        batch = _batch_indices(kb, block_z, shape.batch)
        self.a_batch = [batch[i] for i in shape.a_batch]
        self.b_batch = [batch[i] for i in shape.b_batch]
        self.c_batch = batch

    def _launch_constant(self, value: int, hint: str, at: InsertPoint) -> SSAValue:
        op = arith.ConstantOp.from_int_and_width(value, IndexType())
        op.result.name_hint = hint
        Rewriter.insert_op(op, at)
        return op.result

    def _launch_constants(self, at: InsertPoint) -> list[SSAValue]:
        shape, tiles = self.shape, self.tiles
        return [
            self._launch_constant(value, f"blocks_{axis}", at)
            for value, axis in (
                (_ceil_div(shape.n, tiles.block_n), "x"),
                (_ceil_div(shape.m, tiles.block_m), "y"),
                (math.prod(shape.batch), "z"),
            )
        ]

    @staticmethod
    def _fragment_type(element: Attribute, size: int) -> MemRefType[Attribute]:
        return MemRefType(element, [size], memory_space=private_memory_space())

    @staticmethod
    def _tile_type(
        shape: MatmulShape, stages: int, rows: int, cols: int, pad: int
    ) -> MemRefType[Attribute]:
        """`stages` workgroup buffers of a rows x cols tile, rows padded by
        `pad` elements."""
        return MemRefType(
            shape.element,
            [stages, rows, cols + pad],
            memory_space=workgroup_memory_space(),
        )

    def build(self, initial: SSAValue | None) -> LaunchOp:
        kb, tiles = self.kb, self.tiles
        self._initialise_accumulators(initial)
        steps = _ceil_div(self.shape.k, tiles.block_k)
        self._first_copies(steps)
        self._reduction_loop(steps)
        self._store_results()
        kb.add(TerminatorOp())
        accumulators = sum(1 for _ in self._accumulator_elements())
        if accumulators > MAX_ACCUMULATORS_FOR_TWO_BLOCKS:
            self.launch.attributes[MIN_BLOCKS_ATTRIBUTE] = IntegerAttr(1, 32)
        return self.launch

    def _first_copies(self, steps: int) -> None:
        """The copies of the first `prefetch_distance` steps, a group each
        (an empty one past the last step, so each step's wait counts right)."""
        kb, tiles = self.kb, self.tiles
        for stage in range(self.prefetch_distance()):
            if stage < steps:
                self._copy_tiles(kb, stage * tiles.block_k, stage)
            kb.add(CpAsyncCommitOp())

    def prefetch_distance(self) -> int:
        """How many steps ahead of the one multiplied the copies run: the
        first steps' copies before the loop, step + distance's in step."""
        return self.tiles.stages - 1

    # -- the accumulators --------------------------------------------------

    def _accumulator_elements(self) -> Iterator[tuple[int, int, int]]:
        """(slot in `acc`, row, column) of each element a thread accumulates,
        the row and column from the thread's (`row0`, `col0`): element `e`
        of fragment (mi, ni) at row `mi * 16 + 8 (e / 2)`, column `ni * 8 +
        e % 2`."""
        fn = self.tiles.fragments_n
        for mi in range(self.tiles.fragments_m):
            for ni in range(fn):
                for e in range(C_FRAGMENT):
                    slot = (mi * fn + ni) * C_FRAGMENT + e
                    yield slot, mi * 16 + 8 * (e // 2), ni * 8 + e % 2

    def _output_indices(self, row: int, col: int) -> list[SSAValue]:
        kb = self.kb
        return kb.indices(
            [*self.c_batch, kb.add_index(self.row0, row), kb.add_index(self.col0, col)]
        )

    def _partial_output_bounds(self) -> list[tuple[int, int]]:
        """(output dimension, extent) of M and N where the block tile does
        not divide them: the last tiles' elements past them are not the
        output's."""
        shape, tiles = self.shape, self.tiles
        rank = len(shape.batch)
        return [
            (rank + position, extent)
            for position, (extent, tile) in enumerate(
                [(shape.m, tiles.block_m), (shape.n, tiles.block_n)]
            )
            if extent % tile
        ]

    def _initialise_accumulators(self, initial: SSAValue | None) -> None:
        """Each accumulator starts from the fill's value, or else from the
        output element it accumulates into (an element past the output's
        edge, never stored, from a clamped one)."""
        kb = self.kb
        bounds = self._partial_output_bounds()
        for slot, row, col in self._accumulator_elements():
            slot_index = kb.index(slot)
            start: SSAValue
            if initial is not None:
                start = initial
            else:
                indices = self._output_indices(row, col)
                for dim, extent in bounds:
                    indices[dim] = kb.binary(arith.MinUIOp, indices[dim], extent - 1)
                load = memref.LoadOp.get(self.shape.c, indices)
                kb.add(load)
                start = load.res
            kb.add(memref.StoreOp.get(start, self.acc, [slot_index]))

    def _store_results(self) -> None:
        """Each accumulator stored (and the epilogue run on it) where it is
        an element of the output: under an `scf.if` on M and N where the
        last tiles pass them."""
        kb = self.kb
        bounds = self._partial_output_bounds()
        for slot, row, col in self._accumulator_elements():
            load = memref.LoadOp.get(self.acc, [kb.const(slot)])
            kb.add(load)
            indices = self._output_indices(row, col)
            inside = _within(kb, indices, bounds)
            then = Block()
            # The guarded ops' constants are hoisted where the builder is at
            # (the kernel's entry block): the `scf.if` goes in after them.
            target = kb if inside is None else kb.nested(then)
            if self.store_product:
                target.add(memref.StoreOp.get(load.res, self.shape.c, indices))
            if self.epilogue is not None:
                self._epilogue_element(target, load.res, indices)
            if inside is not None:
                target.add(YieldOp())
                kb.add(IfOp(inside, [], Region(then)))

    def _epilogue_element(
        self, kb: _KernelBuilder, product: SSAValue, indices: list[SSAValue]
    ) -> None:
        """The epilogue's body at one output element: the product from the
        accumulator, its other operands loaded at their maps (loops and
        constants: `_fusable_epilogue`), its results stored at `indices`; for
        an epilogue over a padded product's corner, only where `indices` lie
        in the corner (an `scf.if`)."""
        epilogue = self.epilogue
        assert epilogue is not None
        inside = _within(kb, indices, epilogue.bounds)
        if inside is None:
            self._epilogue_body(kb, epilogue, product, indices)
            return
        then = Block()
        guarded = kb.nested(then)
        self._epilogue_body(guarded, epilogue, product, indices)
        guarded.add(YieldOp())
        kb.add(IfOp(inside, [], Region(then)))

    @staticmethod
    def _epilogue_body(
        kb: _KernelBuilder,
        epilogue: _Epilogue,
        product: SSAValue,
        indices: list[SSAValue],
    ) -> None:
        op = epilogue.op
        block = op.body.block
        maps = [attr.data for attr in op.indexing_maps]
        values: dict[SSAValue, SSAValue] = {}
        for position, (operand, argument) in enumerate(
            zip(op.operands, block.args, strict=True)
        ):
            if not argument.uses:
                continue
            if position < len(op.inputs) and operand is epilogue.product_view:
                values[argument] = product
            elif isinstance(operand.type, MemRefType):
                at = [
                    indices[expr.position]
                    if isinstance(expr, AffineDimExpr)
                    else kb.const(cast(AffineConstantExpr, expr).value)
                    for expr in maps[position].results
                ]
                load = memref.LoadOp.get(operand, at)
                kb.add(load)
                values[argument] = load.res
            else:
                values[argument] = operand
        for body_op in block.ops:
            if isinstance(body_op, LinalgYieldOp):
                for result, output in zip(body_op.operands, op.outputs, strict=True):
                    kb.add(
                        memref.StoreOp.get(values.get(result, result), output, indices)
                    )
            elif isinstance(body_op, IndexOp):
                values[body_op.result] = indices[body_op.dim.value.data]
            else:
                kb.add(body_op.clone(value_mapper=values))

    # -- copies of one reduction step's tiles ---------------------------------

    def _copy_tiles(
        self, builder: _KernelBuilder, k0: SSAValue | int, stage: SSAValue | int
    ) -> None:
        shape, tiles = self.shape, self.tiles
        bm, bn, bk = tiles.block_m, tiles.block_n, tiles.block_k
        self._copy(
            builder, shape.a, self.a_batch, self.a_tiles, (bm, bk), (self.m0, k0), stage
        )
        if shape.b_k_major:
            origin, extents = (k0, self.n0), (bk, bn)
        else:
            origin, extents = (self.n0, k0), (bn, bk)
        self._copy(builder, shape.b, self.b_batch, self.b_tiles, extents, origin, stage)

    def _copy(
        self,
        builder: _KernelBuilder,
        source: SSAValue,
        leading: list[SSAValue | int],
        tile: SSAValue,
        extents: tuple[int, int],
        origin: tuple[SSAValue | int, SSAValue | int],
        stage: SSAValue | int,
    ) -> None:
        """The threads copy a rows x cols tile of `source` from `origin`
        into buffer `stage` of `tile`, 16 bytes each in turn."""
        rows, cols = extents
        chunk_elements = self.shape.chunk
        chunks_per_row = cols // chunk_elements

        def copy_of(chunk: SSAValue) -> CpAsyncOp:
            row = builder.div(chunk, chunks_per_row)
            col = builder.mul(builder.rem(chunk, chunks_per_row), chunk_elements)
            indices, valid = _source_of_copy(
                builder,
                source,
                leading,
                (builder.add_index(origin[0], row), builder.add_index(origin[1], col)),
                extents,
                chunk_elements,
            )
            return CpAsyncOp(
                source,
                indices,
                tile,
                builder.indices([stage, row, col]),
                valid_bytes=valid,
            )

        self._copy_chunks(builder, rows * chunks_per_row, copy_of)

    def _copy_chunks(
        self,
        builder: _KernelBuilder,
        total: int,
        copy_of: Callable[[SSAValue], CpAsyncOp],
    ) -> None:
        """The threads copy chunks 0 to `total` - 1, one each in turn;
        `copy_of` builds a chunk's copy (its indices in `builder`'s block),
        which a last, partial round guards by `chunk < total`."""
        threads = self.tiles.threads
        for first in range(0, total, threads):
            chunk = builder.add_index(self.tid, first)
            assert not isinstance(chunk, int)
            copy = copy_of(chunk)
            if total - first >= threads:
                builder.add(copy)
                continue
            inside = arith.CmpiOp(chunk, builder.const(total), "ult")
            builder.add(inside)
            then = Block()
            then.add_op(copy)
            then.add_op(YieldOp())
            builder.add(IfOp(inside.result, [], Region(then)))

    # -- the reduction loop ---------------------------------------------------

    def _reduction_loop(self, steps: int) -> None:
        tiles = self.tiles
        stages = tiles.stages
        loop_body = Block(arg_types=[IndexType()])
        step = loop_body.args[0]
        step.name_hint = "step"
        lb = self.kb.nested(loop_body)
        lb.add(CpAsyncWaitOp(self.prefetch_distance() - 1))
        lb.add(BarrierOp())
        self._prefetch(lb, step, self.prefetch_distance(), steps)
        stage_now = lb.rem(step, stages)
        instruction_k = self.shape.instruction[2]
        for kk in range(tiles.block_k // instruction_k):
            if self.shape.tf32:
                self._tf32_products(lb, stage_now, kk)
            else:
                self._products(lb, stage_now, kk)
        loop_body.add_op(YieldOp())
        kb = self.kb
        kb.add(ForOp(kb.const(0), kb.const(steps), kb.const(1), [], Region(loop_body)))

    def _prefetch(
        self, lb: _KernelBuilder, step: SSAValue, distance: int, steps: int
    ) -> None:
        """Copy the tiles of step `step + distance` (when there is one) into
        its stage's buffers, then commit the thread's group of copies."""
        tiles = self.tiles
        ahead = lb.add_index(step, distance)
        assert not isinstance(ahead, int)
        more = arith.CmpiOp(ahead, lb.const(steps), "ult")
        lb.add(more)
        prefetch = Block()
        pb = self.kb.nested(prefetch)
        self._copy_tiles(pb, pb.mul(ahead, tiles.block_k), pb.rem(ahead, tiles.stages))
        prefetch.add_op(YieldOp())
        lb.add(IfOp(more.result, [], Region(prefetch)))
        if self.barriers is None:
            # The commit runs in every step (an empty group past the end), so
            # the wait's count of groups in flight holds for each step.
            lb.add(CpAsyncCommitOp())

    def _products(self, lb: _KernelBuilder, stage: SSAValue, kk: int) -> None:
        """The fragments of the `kk`-th 16-deep slice of a step's tiles, and
        their products."""
        fm, fn = self.tiles.fragments_m, self.tiles.fragments_n
        for mi in range(fm):
            row = lb.add_index(self.warp_m, mi * 16, self.matrix_low, self.lane_row)
            col = lb.add_index(self.matrix_high, kk * 16)
            lb.add(
                LdMatrixOp(
                    self.a_tiles,
                    lb.indices([stage, row, col]),
                    self.a_fragments,
                    [lb.const(mi * self.a_fragment)],
                    4,
                )
            )
        k_major = self.shape.b_k_major
        for nj in range(fn // 2):
            if k_major:
                # Matrices (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15),
                # (k 8-15, n 8-15): the fragments of n-blocks 2nj, 2nj + 1.
                row = lb.add_index(self.matrix_low, self.lane_row, kk * 16)
                col = lb.add_index(self.warp_n, self.matrix_high, nj * 16)
            else:
                row = lb.add_index(
                    self.warp_n, self.matrix_high, self.lane_row, nj * 16
                )
                col = lb.add_index(self.matrix_low, kk * 16)
            lb.add(
                LdMatrixOp(
                    self.b_tiles,
                    lb.indices([stage, row, col]),
                    self.b_fragments,
                    [lb.const(2 * nj * self.b_fragment)],
                    4,
                    transpose=k_major,
                )
            )
        self._syncs(lb)

    def _syncs(self, lb: _KernelBuilder) -> None:
        """The warp's products of its loaded fragments, one per 16x8 tile of
        its outputs."""
        fm, fn = self.tiles.fragments_m, self.tiles.fragments_n
        for mi in range(fm):
            for ni in range(fn):
                lb.add(
                    SyncOp(
                        [
                            (self.a_fragments, [lb.const(mi * self.a_fragment)]),
                            (self.b_fragments, [lb.const(ni * self.b_fragment)]),
                            (self.acc, [lb.const((mi * fn + ni) * C_FRAGMENT)]),
                        ],
                        tf32=self.shape.tf32,
                    )
                )

    def _load_fragment_element(
        self,
        lb: _KernelBuilder,
        tile: SSAValue,
        indices: Sequence[SSAValue | int],
        fragment: SSAValue,
        slot: int,
    ) -> None:
        load = memref.LoadOp.get(tile, lb.indices(indices))
        lb.add(load)
        lb.add(memref.StoreOp.get(load.res, fragment, [lb.const(slot)]))

    def _tf32_products(self, lb: _KernelBuilder, stage: SSAValue, kk: int) -> None:
        """The fragments of the `kk`-th 8-deep slice of a step's f32 tiles,
        read element by element (`mma` dialect doc: A's element `e` at row
        `g + 8 (e % 2)`, column `c + 4 (e / 2)`; B's at k `c + 4 e`, n `g`),
        and their TF32 products."""
        fm, fn = self.tiles.fragments_m, self.tiles.fragments_n
        for mi in range(fm):
            for e in range(self.a_fragment):
                row = lb.add_index(self.warp_m, self.group, mi * 16 + 8 * (e % 2))
                col = lb.add_index(self.lane_in_group, kk * 8 + 4 * (e // 2))
                self._load_fragment_element(
                    lb,
                    self.a_tiles,
                    [stage, row, col],
                    self.a_fragments,
                    mi * self.a_fragment + e,
                )
        for ni in range(fn):
            for e in range(self.b_fragment):
                k = lb.add_index(self.lane_in_group, kk * 8 + 4 * e)
                n = lb.add_index(self.warp_n, self.group, ni * 8)
                self._load_fragment_element(
                    lb,
                    self.b_tiles,
                    [stage, k, n] if self.shape.b_k_major else [stage, n, k],
                    self.b_fragments,
                    ni * self.b_fragment + e,
                )
        self._syncs(lb)


def tma_copies_apply(shape: MatmulShape, tiles: MmaTiles) -> bool:
    """Whether TMA can copy a warpgroup kernel's tiles: 16-bit operands
    (TF32 kernels copy B transposed), K steps of one 128-byte row, boxes of
    at most 256 rows, and A and B whole buffers (identity layout) whose
    rows are a multiple of 16 bytes (TMA's global strides)."""
    element = element_bytes(shape.element) or 0
    if shape.tf32 or element != 2 or tiles.block_k * element != SWIZZLE_ROW_BYTES:
        return False
    if tiles.block_m > TMA_MAX_BOX or tiles.block_n > TMA_MAX_BOX:
        return False
    for operand in (shape.a, shape.b):
        memref_type = operand.type
        if not isinstance(memref_type, MemRefType) or not isinstance(
            memref_type.layout, NoneAttr
        ):
            return False
        if memref_type.get_shape()[-1] * element % TMA_STRIDE_BYTES:
            return False
    return True


class _WarpgroupKernel(_MmaKernel):
    """The `gpu.launch` computing one matmul with warpgroup products
    (`wgmma` option; see the module doc): a warpgroup per 64 rows of the
    block tile, its 64 x BN accumulators in registers, operand tiles copied
    into the 128-byte swizzled layout the tensor cores read."""

    def __init__(
        self,
        shape: MatmulShape,
        tiles: MmaTiles,
        at: InsertPoint,
        epilogue: _Epilogue | None = None,
        store_product: bool = True,
        tma: bool = False,
    ) -> None:
        bm, bn, bk, stages = tiles.block_m, tiles.block_n, tiles.block_k, tiles.stages
        tma = tma and tma_copies_apply(shape, tiles)
        barriers = (
            [
                (
                    "barriers",
                    MemRefType(
                        IntegerType(64), [stages], memory_space=workgroup_memory_space()
                    ),
                )
            ]
            if tma
            else []
        )
        # B stored k-major is copied in panels of 64 columns: each the
        # N-major (`transpose_b`) layout's 128-byte rows, one per k. TF32
        # products have no N-major B: f32 B is copied transposed, a row per n.
        panel = SWIZZLE_ROW_BYTES // (element_bytes(shape.element) or 1)
        b_shape = (
            [stages, bn // panel, bk, panel]
            if self._b_transposed(shape)
            else [stages, bn, bk]
        )
        self._open_launch(
            shape,
            tiles,
            at,
            epilogue,
            store_product,
            workgroup=[
                ("a_tiles", self._swizzled_type(shape, [stages, bm, bk])),
                ("b_tiles", self._swizzled_type(shape, b_shape)),
                *barriers,
            ],
            private=[
                (
                    "acc",
                    self._fragment_type(Float32Type(), warpgroup_accumulator_count(bn)),
                )
            ],
        )
        self.a_tiles, self.b_tiles, *tma_barriers = self.launch.workgroup_attributions
        self.barriers = tma_barriers[0] if tma_barriers else None
        (self.acc,) = self.launch.private_attributions
        kb = self.kb
        warpgroup = kb.div(self.tid, WARPGROUP_THREADS)
        warpgroup.name_hint = "warpgroup"
        in_group = kb.rem(self.tid, WARPGROUP_THREADS)
        lane = kb.rem(self.tid, WARP_SIZE)
        # The warpgroup's rows of the block tile, and thread t's first
        # element of D (mma dialect doc): row 16 (t / 32) + g, column 2 c.
        self.warpgroup_row = kb.mul(warpgroup, WARPGROUP_M)
        self.row0 = kb.add_index(
            self.m0,
            self.warpgroup_row,
            kb.mul(kb.div(in_group, WARP_SIZE), 16),
            kb.div(lane, 4),
        )
        self.col0 = kb.add_index(self.n0, kb.mul(kb.rem(lane, 4), 2))

    def _first_copies(self, steps: int) -> None:
        """With TMA: thread 0 makes each stage's mbarrier (one arrival, its
        own, and the step's bytes), a barrier publishes them, then thread 0
        starts the first steps' copies."""
        if self.barriers is None:
            super()._first_copies(steps)
            return
        kb, tiles = self.kb, self.tiles
        barriers = self.barriers
        with self._on_thread_zero(kb) as tb:
            for stage in range(tiles.stages):
                tb.add(MbarrierInitOp(barriers, tb.indices([stage]), 1))
        kb.add(BarrierOp())
        for stage in range(min(self.prefetch_distance(), steps)):
            self._copy_tiles(kb, stage * tiles.block_k, stage)

    @staticmethod
    def _b_transposed(shape: MatmulShape) -> bool:
        """Whether the products read B N-major (`transpose_b`): a k-major B
        of 16-bit elements; a k-major f32 B is transposed by its copies."""
        return shape.b_k_major and not shape.tf32

    @staticmethod
    def _swizzled_type(shape: MatmulShape, dims: list[int]) -> MemRefType[Attribute]:
        return MemRefType(shape.element, dims, memory_space=workgroup_memory_space())

    def _accumulator_elements(self) -> Iterator[tuple[int, int, int]]:
        """Element `i` of the thread's m64nN fragment: row `8 ((i / 2) %
        2)`, column `8 (i / 4) + i % 2` from (`row0`, `col0`)."""
        for i in range(warpgroup_accumulator_count(self.tiles.block_n)):
            yield i, 8 * ((i // 2) % 2), 8 * (i // 4) + i % 2

    # -- copies into the swizzled layout --------------------------------------

    def _copy_tiles(
        self, builder: _KernelBuilder, k0: SSAValue | int, stage: SSAValue | int
    ) -> None:
        if self.barriers is not None:
            self._tma_copies(builder, k0, stage)
            return
        shape, tiles = self.shape, self.tiles
        bm, bn, bk = tiles.block_m, tiles.block_n, tiles.block_k
        chunks = bk // shape.chunk  # of one 128-byte row
        self._copy_chunks(
            builder,
            bm * chunks,
            lambda chunk: self._row_chunk(
                builder, shape.a, self.a_batch, chunk, chunks, (self.m0, k0), stage
            ),
        )
        if not shape.b_k_major:
            self._copy_chunks(
                builder,
                bn * chunks,
                lambda chunk: self._row_chunk(
                    builder, shape.b, self.b_batch, chunk, chunks, (self.n0, k0), stage
                ),
            )
            return
        if shape.tf32:
            self._copy_transposed(builder, k0, stage)
            return
        row_chunks = bn // shape.chunk
        self._copy_chunks(
            builder,
            bk * row_chunks,
            lambda chunk: self._panel_chunk(builder, chunk, row_chunks, k0, stage),
        )

    @contextmanager
    def _on_thread_zero(self, builder: _KernelBuilder) -> Iterator[_KernelBuilder]:
        """A builder of the body of an `scf.if` only thread 0 of the block
        runs, added to `builder` once the body is built."""
        body = Block()
        yield builder.nested(body)
        body.add_op(YieldOp())
        first = arith.CmpiOp(self.tid, builder.const(0), "eq")
        builder.add(first)
        builder.add(IfOp(first.result, [], Region(body)))

    def _tma_copies(
        self, builder: _KernelBuilder, k0: SSAValue | int, stage: SSAValue | int
    ) -> None:
        """Thread 0 expects the step's bytes on its stage's mbarrier and
        starts the TMA copies of its tiles: A's `BM x BK` box, B's `BK x 64`
        panels (k-major B) or its `BN x BK` box (n-major)."""
        assert self.barriers is not None
        shape, tiles = self.shape, self.tiles
        bm, bn, bk = tiles.block_m, tiles.block_n, tiles.block_k
        element = element_bytes(shape.element) or 1
        barriers = self.barriers
        with self._on_thread_zero(builder) as tb:
            tb.add(
                MbarrierArriveExpectTxOp(
                    barriers, tb.indices([stage]), (bm * bk + bk * bn) * element
                )
            )

            def load(
                source: SSAValue,
                leading: list[SSAValue | int],
                origin: list[SSAValue | int],
                tile: SSAValue,
                tile_at: list[SSAValue | int],
                box: list[int],
            ) -> None:
                tb.add(
                    TmaLoadOp(
                        source,
                        tb.indices([*leading, *origin]),
                        tile,
                        tb.indices(tile_at),
                        barriers,
                        tb.indices([stage]),
                        [1] * len(leading) + box,
                    )
                )

            at = [stage, 0, 0]
            load(shape.a, self.a_batch, [self.m0, k0], self.a_tiles, at, [bm, bk])
            if not shape.b_k_major:
                load(shape.b, self.b_batch, [self.n0, k0], self.b_tiles, at, [bn, bk])
                return
            panel = SWIZZLE_ROW_BYTES // element
            for p in range(bn // panel):
                load(
                    shape.b,
                    self.b_batch,
                    [k0, tb.add_index(self.n0, p * panel)],
                    self.b_tiles,
                    [stage, p, 0, 0],
                    [bk, panel],
                )

    def _swizzled_column(
        self, builder: _KernelBuilder, row: SSAValue, chunk: SSAValue
    ) -> SSAValue | int:
        """The first element of logical chunk `chunk` of `row` in its
        swizzled row (`swizzled_chunk`)."""
        stored = swizzled_chunk(
            row,
            chunk,
            xor=lambda a, b: builder.binary(arith.XOrIOp, a, b),
            rem=builder.rem,
        )
        return builder.mul(stored, self.shape.chunk)

    def _row_chunk(
        self,
        builder: _KernelBuilder,
        source: SSAValue,
        leading: list[SSAValue | int],
        chunk: SSAValue,
        chunks: int,
        origin: tuple[SSAValue | int, SSAValue | int],
        stage: SSAValue | int,
    ) -> CpAsyncOp:
        """Chunk `chunk` of a K-major tile (rows of `chunks` chunks along
        K) from `source` at `origin`: row `chunk / chunks`, logical chunk
        `chunk % chunks` of it."""
        row = builder.div(chunk, chunks)
        column = builder.rem(chunk, chunks)
        is_a = source is self.shape.a
        tiles = self.tiles
        indices, valid = _source_of_copy(
            builder,
            source,
            leading,
            (
                builder.add_index(origin[0], row),
                builder.add_index(origin[1], builder.mul(column, self.shape.chunk)),
            ),
            (tiles.block_m if is_a else tiles.block_n, tiles.block_k),
            self.shape.chunk,
        )
        return CpAsyncOp(
            source,
            indices,
            self.a_tiles if is_a else self.b_tiles,
            builder.indices([stage, row, self._swizzled_column(builder, row, column)]),
            valid_bytes=valid,
        )

    def _copy_transposed(
        self, builder: _KernelBuilder, k0: SSAValue | int, stage: SSAValue | int
    ) -> None:
        """A k-major f32 B tile copied element by element (4-byte copies)
        into the K-major tile TF32 products read: B's `(k, n)` at row `n`,
        column `k` (swizzled). The tile is cut in blocks of `TF32_
        TRANSPOSE_K` (4) k by 32 / it (8) n, one a warp per copy: lane `l`
        copies k `l % 4`, n `l / 4` of its block, so a warp reads 32-byte
        runs of 4 rows of B and writes one chunk of each of the 8 rows of a
        swizzle atom, which the swizzle spreads over its 8 chunk positions:
        32 distinct banks. Warp `w` copies block `w + W r` in round `r` (W
        warps). Where W and the k groups of a row divide one another
        (powers of two: every block of two warpgroups or four), the block's
        k group and n block split into the thread's part and the round's
        constant (the sum carries nothing), so each copy's addresses are
        the thread's plus a constant; otherwise (three warpgroups) they are
        divided out of the block's index, a last partial round guarded."""
        chunk = self.shape.chunk
        k_per_warp = TF32_TRANSPOSE_K
        n_per_warp = WARP_SIZE // k_per_warp
        warps = self.tiles.threads // WARP_SIZE
        k_groups = self.tiles.block_k // k_per_warp
        blocks = k_groups * (self.tiles.block_n // n_per_warp)
        split = warps % k_groups == 0 or k_groups % warps == 0
        warp = builder.div(self.tid, WARP_SIZE)
        lane = builder.rem(self.tid, WARP_SIZE)
        k_in_group = builder.rem(lane, k_per_warp)
        n_in_block = builder.div(lane, k_per_warp)
        thread_k_group = builder.rem(warp, k_groups)
        thread_n_block = builder.div(warp, k_groups)
        for first in range(0, blocks, warps):
            if split:
                k_group = builder.add_index(thread_k_group, first % k_groups)
                n_block = builder.add_index(thread_n_block, first // k_groups)
            else:
                block = builder.add_index(warp, first)
                assert not isinstance(block, int)
                k_group = builder.rem(block, k_groups)
                n_block = builder.div(block, k_groups)
            assert not isinstance(k_group, int)
            assert not isinstance(n_block, int)
            k = builder.add_index(builder.mul(k_group, k_per_warp), k_in_group)
            n = builder.add_index(builder.mul(n_block, n_per_warp), n_in_block)
            assert not isinstance(k, int)
            assert not isinstance(n, int)
            column = builder.add_index(
                self._swizzled_column(builder, n, builder.div(k, chunk)),
                builder.rem(k, chunk),
            )
            size = element_bytes(self.shape.element) or 1
            indices, valid = _source_of_copy(
                builder,
                self.shape.b,
                self.b_batch,
                (builder.add_index(k0, k), builder.add_index(self.n0, n)),
                (self.tiles.block_k, self.tiles.block_n),
                1,
                size,
            )
            copy = CpAsyncOp(
                self.shape.b,
                indices,
                self.b_tiles,
                builder.indices([stage, n, column]),
                size,
                valid_bytes=valid,
            )
            if first + warps <= blocks:
                builder.add(copy)
                continue
            inside = arith.CmpiOp(n_block, builder.const(blocks // k_groups), "ult")
            builder.add(inside)
            then = Block()
            then.add_op(copy)
            then.add_op(YieldOp())
            builder.add(IfOp(inside.result, [], Region(then)))

    def _panel_chunk(
        self,
        builder: _KernelBuilder,
        chunk: SSAValue,
        row_chunks: int,
        k0: SSAValue | int,
        stage: SSAValue | int,
    ) -> CpAsyncOp:
        """Chunk `chunk` of a k-major B tile (rows of `row_chunks` chunks
        along N, read whole by consecutive threads): k `chunk / row_chunks`,
        stored in panel `n / 64` at its row k, swizzled by k."""
        k = builder.div(chunk, row_chunks)
        along_n = builder.rem(chunk, row_chunks)
        per_panel = SWIZZLE_ROW_BYTES // ASYNC_COPY_BYTES
        panel = builder.div(along_n, per_panel)
        column = builder.rem(along_n, per_panel)
        indices, valid = _source_of_copy(
            builder,
            self.shape.b,
            self.b_batch,
            (
                builder.add_index(k0, k),
                builder.add_index(self.n0, builder.mul(along_n, self.shape.chunk)),
            ),
            (self.tiles.block_k, self.tiles.block_n),
            self.shape.chunk,
        )
        return CpAsyncOp(
            self.shape.b,
            indices,
            self.b_tiles,
            builder.indices(
                [stage, panel, k, self._swizzled_column(builder, k, column)]
            ),
            valid_bytes=valid,
        )

    # -- the reduction loop ---------------------------------------------------

    def _reduction_loop(self, steps: int) -> None:
        tiles = self.tiles
        stages = tiles.stages
        loop_body = Block(arg_types=[IndexType()])
        step = loop_body.args[0]
        step.name_hint = "step"
        lb = self.kb.nested(loop_body)
        distance = self.prefetch_distance()
        if self.barriers is not None:
            # The step's TMA copies landed: its stage's mbarrier completed
            # the phase of the step's round through the stages.
            lb.add(
                MbarrierWaitOp(
                    self.barriers,
                    lb.indices([lb.rem(step, stages)]),
                    lb.rem(lb.div(step, stages), 2),
                )
            )
        else:
            # The step's copies landed: `distance` groups were committed
            # before the loop and one a step.
            lb.add(CpAsyncWaitOp(distance - 1))
            # This thread's copies of the step, visible to the tensor cores
            # once the barrier has every thread's.
            lb.add(FenceProxyAsyncOp())
        # Every thread's wait (and products of earlier steps' retired
        # buffers) before any thread reads or refills a buffer.
        lb.add(BarrierOp())
        stage_now = lb.rem(step, stages)
        lb.add(WarpgroupFenceOp())
        depth = warpgroup_k(self.shape.element)
        b_transposed = self._b_transposed(self.shape)
        for kk in range(tiles.block_k // depth):
            # The 16-deep (TF32: 8-deep) slice kk: 32 bytes further along each
            # 128-byte row (the descriptor's start address; the swizzle
            # applies to it).
            k_offset = kk * depth
            b_at: list[SSAValue | int]
            if b_transposed:
                b_at = [stage_now, 0, k_offset, 0]
            else:
                b_at = [stage_now, 0, k_offset]
            lb.add(
                WarpgroupMmaOp(
                    [
                        (
                            self.a_tiles,
                            lb.indices([stage_now, self.warpgroup_row, k_offset]),
                        ),
                        (self.b_tiles, lb.indices(b_at)),
                        (self.acc, [lb.const(0)]),
                    ],
                    self.tiles.block_n,
                    transpose_b=b_transposed,
                    tf32=self.shape.tf32,
                )
            )
        lb.add(WarpgroupCommitOp())
        # The products of the steps before this one retired (this step's may
        # run on), so the accumulators hold no stale group.
        in_flight = self.products_in_flight()
        lb.add(WarpgroupWaitOp(in_flight, [self.acc]))
        # The copies of step + distance are issued while the tensor cores
        # multiply, into the buffer of step + distance - stages: read by
        # products that every warpgroup retired before this step's barrier
        # (`products_in_flight` steps back and more).
        self._prefetch(lb, step, distance, steps)
        loop_body.add_op(YieldOp())
        kb = self.kb
        kb.add(ForOp(kb.const(0), kb.const(steps), kb.const(1), [], Region(loop_body)))
        if in_flight:
            # The last step's products, before the accumulators are read.
            kb.add(WarpgroupWaitOp(0, [self.acc]))

    def products_in_flight(self) -> int:
        """Groups of products a step leaves running into the next: one with
        three stages or more (the tensor cores work through the next step's
        wait and barrier), none with two (no buffer would be free for the
        copies)."""
        return 1 if self.tiles.stages >= 3 else 0

    def prefetch_distance(self) -> int:
        """A buffer each for the copies in flight, the step multiplied and
        the products still running: `stages - 1 - products_in_flight`."""
        return self.tiles.stages - 1 - self.products_in_flight()


def _with_b_transposed(
    before: Operation, generic: GenericOp, shape: MatmulShape
) -> MatmulShape:
    """`shape` reading an N x K copy of its k-major B, made before `before`
    by a transposing `linalg.generic` (which `linalg-tile-transposes-for-gpu`
    runs as a coalesced tiled kernel) and freed after `generic`."""
    b_type = cast(MemRefType[Attribute], shape.b.type)
    *batch, k, n = b_type.get_shape()
    rank = len(batch) + 2
    alloc = memref.AllocOp.get(b_type.get_element_type(), shape=[*batch, n, k])
    alloc.results[0].name_hint = "b_transposed"
    swap = [*range(rank - 2), rank - 1, rank - 2]
    at = InsertPoint.before(before)
    Rewriter.insert_op(alloc, at)
    Rewriter.insert_op(permuted_copy(shape.b, alloc.results[0], swap), at)
    Rewriter.insert_op(
        memref.DeallocOp.get(alloc.results[0]), InsertPoint.after(generic)
    )
    return replace(shape, b=alloc.results[0], b_k_major=False)


def _fill_value(prologue: GenericOp) -> SSAValue | None:
    """The value a fill writes, when it reads no buffer and yields one of its
    scalar inputs unchanged (`fusable_prologue` checked the rest)."""
    if shaped_inputs(prologue):
        return None
    body = prologue.body.block
    yield_op = body.last_op
    if not isinstance(yield_op, LinalgYieldOp) or len(yield_op.operands) != 1:
        return None
    (yielded,) = yield_op.operands
    for index, argument in enumerate(body.args[: len(prologue.inputs)]):
        if yielded is argument:
            return prologue.inputs[index]
    return None


@dataclass(frozen=True)
class _Epilogue:
    """The elementwise consumer of the product that the kernel runs on its
    accumulators (`fusable_epilogue`)."""

    op: GenericOp
    # The input that is the product, or the leading corner of a padded
    # product that `linalg-pad-contractions` or `linalg-conv-to-im2col` left
    # (`is_corner_of`): each element read there is the accumulator of the
    # same indices.
    product_view: SSAValue
    # (output dimension, corner size) where the corner is shorter than the
    # product: the elements past it are padding, left alone.
    bounds: tuple[tuple[int, int], ...]


def _fusable_epilogue(generic: GenericOp, shape: MatmulShape) -> _Epilogue | None:
    """`generic`'s epilogue when the kernel can run it on its accumulators:
    it reads the product or its corner (each element then guarded by the
    corner's bounds), and its other operands through maps of loops and
    constants (a bias broadcast along rows, a residual)."""
    epilogue = fusable_epilogue(generic)
    if epilogue is None:
        return None
    view = next(
        (value for value in epilogue.inputs if is_corner_of(value, shape.c)), None
    )
    if view is None or not all(
        isinstance(expr, (AffineDimExpr, AffineConstantExpr))
        for attr in epilogue.indexing_maps
        for expr in attr.data.results
    ):
        return None
    view_type, full_type = view.type, shape.c.type
    assert isinstance(view_type, MemRefType)
    assert isinstance(full_type, MemRefType)
    bounds = tuple(
        (dim, size)
        for dim, (size, extent) in enumerate(
            zip(view_type.get_shape(), full_type.get_shape(), strict=True)
        )
        if size != extent
    )
    return _Epilogue(epilogue, view, bounds)


def _read_elsewhere(product: SSAValue, fused: set[GenericOp], corner: SSAValue) -> bool:
    """Whether anything but the fused ops, the epilogue's corner view of it
    (read by nothing else) and deallocations uses the product buffer
    (`product` an allocation): then the kernel still stores it."""
    if not isinstance(product.owner, memref.AllocOp):
        return True

    def fused_view(op: Operation) -> bool:
        return (
            corner is not product
            and op is corner.owner
            and all(use.operation in fused for use in corner.uses)
        )

    return any(
        use.operation not in fused
        and not isinstance(use.operation, memref.DeallocOp)
        and not fused_view(use.operation)
        for use in product.uses
    )


def _erase_unread_buffer(product: SSAValue) -> None:
    """The product's allocation, once only its deallocations and the fused
    epilogue's corner view of it (now unread) use it, with them."""
    owner = product.owner
    for use in list(product.uses):
        use.operation.detach()
        use.operation.erase()
    if isinstance(owner, Operation):
        owner.detach()
        owner.erase()


@dataclass(frozen=True)
class ConvertLinalgToMmaPass(ModulePass):
    """Half-precision matmuls as tensor-core kernels (see the module doc).

    Options: `tf32` (f32 matmuls too, their operands rounded to TF32; off),
    `block` = BM, BN, BK (the largest tiles; 128, 128, 32),
    `stages` (copy buffers, 2), `multiprocessors` (0: do not shrink tiles to
    fill the device), `max-shared-bytes` (the workgroup memory a block may
    use, dynamic shared memory included: the device's opt-in limit; fewer
    stages, then a shorter BK, where the copy buffers would not fit),
    `warps` (along M, along N: 2, 4), `wgmma` (warpgroup products on
    sm_90a; off), `wgmma-block` = BM, BN (their largest tiles; 128, 256),
    `tf32-transpose-b` (TF32 warpgroup products on a k-major B read an N x K
    copy made by a transposing `linalg.generic` before the kernel; false:
    B copied transposed by 4-byte `cp.async`s; on), `tma` (f16/bf16
    warpgroup kernels copy their tiles with the Tensor Memory Accelerator
    where the operands allow; on), `partial-tiles` (extents no tile
    divides on partial tiles, zero-filled copies and guarded stores, where
    operand rows are 16-byte multiples; off).
    """

    name = "convert-linalg-to-mma"

    block: tuple[int, ...] = (128, 128, 32)
    stages: int = 2
    multiprocessors: int = 0
    max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES
    warps: tuple[int, ...] = (2, 4)
    tf32: bool = False
    wgmma: bool = False
    wgmma_block: tuple[int, ...] = (128, 256)
    # TF32 warpgroup products on a k-major B: transpose B once into an N x
    # K buffer (a `linalg.generic` left for `linalg-tile-transposes-for-gpu`)
    # and copy its rows 16 bytes at a time; false: copy B transposed into
    # shared memory by 4-byte `cp.async`s every step.
    tf32_transpose_b: bool = True
    # f16/bf16 warpgroup kernels copy their tiles with TMA (one thread, an
    # mbarrier per stage) where the operands allow; false: `cp.async`.
    tma: bool = True
    # Extents no tile divides run on partial last tiles (rows, columns and
    # K steps past the operands' edges copied as zeros, the stores past
    # the output's guarded) where operand rows are 16-byte multiples
    # (`takes_partial_tiles`); false: such matmuls are left alone (for
    # `linalg-pad-contractions`' padded copies).
    partial_tiles: bool = False

    def _check_options(self) -> None:
        if len(self.block) != 3:
            raise PassFailedException(
                f"{PASS_NAME}: block takes three sizes (BM, BN, BK)"
            )
        bm, bn, bk = self.block
        if bm < 64 or bn < 64 or bk < 16 or bm % 64 or bn % 64 or bk % 16:
            raise PassFailedException(
                f"{PASS_NAME}: block sizes must be multiples of 64, 64 and 16, got "
                f"{list(self.block)}"
            )
        if not 2 <= self.stages <= 4:
            raise PassFailedException(
                f"{PASS_NAME}: stages must be 2, 3 or 4, got {self.stages}"
            )
        if len(self.warps) != 2 or any(
            count not in (1, 2, 4, 8) for count in self.warps
        ):
            raise PassFailedException(
                f"{PASS_NAME}: warps takes two counts (along M, along N), each "
                f"1, 2, 4 or 8, got {list(self.warps)}"
            )
        if len(self.wgmma_block) != 2 or any(
            size < WARPGROUP_M or size % WARPGROUP_M for size in self.wgmma_block
        ):
            raise PassFailedException(
                f"{PASS_NAME}: wgmma-block takes two sizes (BM, BN), multiples of "
                f"{WARPGROUP_M}, got {list(self.wgmma_block)}"
            )
        if self.wgmma_block[1] > WARPGROUP_MAX_N:
            raise PassFailedException(
                f"{PASS_NAME}: wgmma-block's BN is at most {WARPGROUP_MAX_N} (one "
                f"warpgroup product's N), got {self.wgmma_block[1]}"
            )
        if self.wgmma_block[0] // WARPGROUP_M * WARPGROUP_THREADS > MAX_THREADS:
            raise PassFailedException(
                f"{PASS_NAME}: wgmma-block's BM of {self.wgmma_block[0]} needs a "
                f"warpgroup per {WARPGROUP_M} rows: more than {MAX_THREADS} threads"
            )
        if self.warps[0] * self.warps[1] * WARP_SIZE > MAX_THREADS:
            raise PassFailedException(
                f"{PASS_NAME}: {list(self.warps)} warps pass {MAX_THREADS} threads"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self._check_options()
        for generic in [g for g in op.walk() if isinstance(g, GenericOp)]:
            shape = match_matmul(generic, tf32=self.tf32)
            if shape is None:
                continue
            kernel_type: type[_MmaKernel] = _MmaKernel
            tiles = None
            # TF32 warpgroup products on a k-major B: from an N x K copy.
            transpose_b = (
                self.wgmma and self.tf32_transpose_b and shape.tf32 and shape.b_k_major
            )
            # TF32 warpgroup products copying a k-major B element by element
            # keep whole tiles: their 32 four-byte copies a thread a step,
            # each clamped and guarded, spill (3000^3: 255 registers, 288
            # bytes) where the whole-tile kernel fits in 200.
            element_copies = (
                self.wgmma and shape.tf32 and shape.b_k_major and not transpose_b
            )
            partial = self.partial_tiles and not element_copies
            if self.wgmma:
                tiles = choose_warpgroup_tiles(
                    replace(shape, b_k_major=False) if transpose_b else shape,
                    self.wgmma_block,
                    self.stages,
                    self.multiprocessors,
                    self.max_shared_bytes,
                    partial,
                )
                kernel_type = _MmaKernel if tiles is None else _WarpgroupKernel
                transpose_b = transpose_b and tiles is not None
            if tiles is None:
                tiles = choose_tiles(
                    shape,
                    self.block,
                    self.stages,
                    self.warps,
                    self.multiprocessors,
                    self.max_shared_bytes,
                    partial,
                )
            if tiles is None:
                continue
            prologue = fusable_prologue(generic)
            initial = None if prologue is None else _fill_value(prologue)
            if transpose_b:
                # Before the fill the kernel takes in, so that the two stay
                # neighbours.
                first = prologue if initial is not None else None
                shape = _with_b_transposed(first or generic, generic, shape)
            epilogue = _fusable_epilogue(generic, shape)
            fused: list[GenericOp] = [generic]
            if initial is not None and prologue is not None:
                fused.append(prologue)
            if epilogue is not None:
                hoist_to_contraction(generic, epilogue.op)
                fused.append(epilogue.op)
            store_product = epilogue is None or _read_elsewhere(
                shape.c, set(fused), epilogue.product_view
            )
            at = InsertPoint.before(generic)
            kernel = (
                _WarpgroupKernel(
                    shape, tiles, at, epilogue, store_product, tma=self.tma
                )
                if kernel_type is _WarpgroupKernel
                else kernel_type(shape, tiles, at, epilogue, store_product)
            )
            Rewriter.insert_op(kernel.build(initial), at)
            for fused_op in fused:
                fused_op.detach()
                fused_op.erase()
            if not store_product:
                _erase_unread_buffer(shape.c)
