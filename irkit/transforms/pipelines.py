"""Named pipelines: `lower-to-c` and `lower-to-cuda`, and their tile sizes.

A named pipeline is a pass whose options choose a list of stages. `irkit-opt`
and `irkit.compile` expand it into those stages (`NamedPipeline.stages`), so
`--print-ir-after-all` shows every level and `--check-semantics` checks every
stage on its own, with verification at each boundary. Applied as a single pass
(e.g. from stock `xdsl-opt`), it runs the stages in order.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.memory import DEFAULT_CACHE_BYTES, DEFAULT_MAX_SHARED_BYTES
from irkit.dialects.mma import SWIZZLE_ROW_BYTES
from irkit.transforms import get_irkit_passes

# The GPU matmul tiles, the fastest of a sweep at 4096^3 on the H100
# (docs/benchmarks.md): 128x128 block tiles with K steps of 16, and 8x8
# accumulators per thread spread cyclically over 16x16 threads.
# `lower-to-cuda` tiles with them (`linalg-tile-for-gpu`), and
# `linalg-pad-contractions` pads to multiples of the block tile by default.
GPU_MATMUL_BLOCK: tuple[int, int, int] = (128, 128, 16)
GPU_MATMUL_THREAD: tuple[int, int] = (8, 8)
GPU_MATMUL_CYCLIC = True
# An implicit GEMM's (a convolution's im2col gather fused into its staging):
# 64x64x16 blocks of 4x8 thread tiles, three blocks a multiprocessor instead
# of two. On the H100 against 128x128x16 of 8x8 (the user's call, one run):
# ResNet-18 b32 9.24 -> 7.86 ms, bottleneck 0.280 -> 0.253, basic block
# 0.241 -> 0.242. Plain matmuls keep theirs (GPT-2 0.512 -> 0.645 ms with
# these).
GPU_CONV_BLOCK: tuple[int, int, int] = (64, 64, 16)
GPU_CONV_THREAD: tuple[int, int] = (4, 8)
# `linalg-fuse-attention`'s blocks: at most 128 query rows, 128 keys per
# step, 256 threads, 16 of them along x, in the dynamic shared memory the
# device allows (`max-dynamic-shared-bytes`: about 200 KB for these tiles),
# at any number of keys. Sweeps on the H100 (2026-11-27, f32, 8 x 12 heads x
# 64, through the user's call; docs/passes/linalg-fuse-attention.md): with
# the score and output tiles' reads in 16-byte chunks
# (`gpu-relayout-shared`), 128,128,256,16 was the fastest of five shapes at
# 512 and 2048 keys (0.342 and 4.85 ms; 128,64,256,16, the fastest before
# the chunked reads: 0.387 and 5.38). Where only 48 KB are known
# (`irkit-opt` without the device's facts) the pass halves the tiles to fit.
ATTENTION_BLOCK: tuple[int, int, int, int] = (128, 128, 256, 16)
ATTENTION_MAX_KEYS = 0
# Tensor-core matmul blocks (`convert-linalg-to-mma`): 128x128 outputs, K
# steps of 32, four copy buffers (74 KiB of dynamic shared memory; two, 37
# KiB, where only the 48 KiB without opt-in are known), 2 x 2 warps of
# 64x64 each: the fastest of the sweep of 2026-11-26 (H200, f16, 1024 to
# 4096 cubed: 1.07x cuBLAS at 1024, 0.43x at 4096; 8 warps of 64x32 and two
# stages gave 0.78x and 0.38x; docs/benchmarks.md).
MMA_BLOCK: tuple[int, int, int] = (128, 128, 32)
MMA_STAGES = 4
# Warpgroup-product blocks (`convert-linalg-to-mma{wgmma}`, sm_90a): 128 x
# 256 outputs, two warpgroups of 64 x 256 (128 f32 accumulators a thread),
# K steps of 64 (one 128-byte swizzled row), `MMA_STAGES` copy buffers (192
# KiB). CUTLASS's usual Hopper f16 tile, and the fastest of
# `benchmarks/wgmma.py`'s three on the H100 (2026-11-27, f16 4096^3: 0.72-0.74x
# cuBLAS; 128 x 128 in 4 stages 0.55-0.56x, 128 x 256 in 3 stages 0.48-0.52x).
WGMMA_BLOCK: tuple[int, int] = (128, 256)
# `linalg-tile-transposes-for-gpu`: tiles of a warp's 32 columns by 32 rows,
# 32 x 8 threads, 4 elements a thread each way (NVIDIA's transposeCoalesced
# shape: each warp reads and writes whole 128-byte f32 rows).
TRANSPOSE_BLOCK: tuple[int, int] = (32, 8)
# `lower-to-c` packs matmul operands only for vector units at least this
# wide (AVX-512): 0.56x NumPy/OpenBLAS at 1024^3 against 0.30x unpacked
# on the project's VM, where AVX2-sized scalar micro-kernels measured
# slower (docs/benchmarks.md). Vectorised, the AVX2-sized (6x16) kernel
# built for Haswell ran at 1.9x the unpacked tiles on a Sapphire Rapids
# host (SGEMM 1024^3, 2 threads); not measured on an AVX2-only CPU yet.
PACK_MIN_VECTOR_BITS = 512
MMA_WARPS: tuple[int, int] = (2, 2)
# `lower-to-c`'s fused attention tiles: query rows, keys per step.
CPU_ATTENTION_BLOCK: tuple[int, int] = (128, 128)
# Smaller tiles (a ViT's 197 tokens give tiles of 1) stay unfused.
CPU_ATTENTION_MIN_BLOCK = 16


def _stage(name: str, **options: object) -> ModulePass:
    return get_irkit_passes()[name]()(**options)


def _defaults(name: str) -> dict[str, Any]:
    """A registered pass's option defaults, read through the registry (a
    pipeline imports no pass module)."""
    return {field.name: field.default for field in fields(get_irkit_passes()[name]())}


def _front_end(*, nhwc: bool) -> list[ModulePass]:
    """Both pipelines' first stages: `nn` to linalg, then (`nhwc`) a conv
    net's NCHW ops as NHWC, transposed at its edges."""
    stages = [_stage("convert-nn-to-linalg")]
    if nhwc:
        stages.append(_stage("linalg-convert-to-nhwc"))
    return stages


def _tensor_stages(
    *, fuse: bool, collapse: bool, fold_copies: bool, recompute_broadcasts: bool
) -> list[ModulePass]:
    """The tensor-level stages both pipelines share after generalization:
    loops of extent 1 dropped (a one-row matmul is a matrix-vector product,
    which the row-group passes run as row reductions), fusion (`fold_copies`:
    copies into consumers reading them through any map), then collapsing
    loops that every operand reads together (a layer norm over `8x128x768`
    becomes one over `1024x768` rows), then fusion again across the reshapes
    that collapsing cancelled (`recompute_broadcasts`: cheap producers read
    broadcast, a batch norm's per-channel `rsqrt`, recomputed in their
    elementwise consumers)."""
    fusion = _stage(
        "linalg-fuse-elementwise",
        fold_copies=fold_copies,
        recompute_broadcasts=recompute_broadcasts,
    )
    stages: list[ModulePass] = [_stage("linalg-fold-unit-extent-dims")]
    if fuse:
        stages.append(fusion)
    if collapse:
        stages.append(_stage("linalg-collapse-dims"))
        if fuse:
            stages.append(fusion)
    return stages


class NamedPipeline(ModulePass, ABC):
    """A pass that stands for a list of passes chosen by its options."""

    @abstractmethod
    def stages(self) -> list[ModulePass]:
        """The passes this pipeline runs, in order."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for stage in self.stages():
            stage.apply(ctx, op)


@dataclass(frozen=True)
class LowerToCPipeline(NamedPipeline):
    """From the tensor level (`nn`, or `linalg` on tensors) to C-ready loops.

    Stages: `convert-nn-to-linalg` (a no-op on upstream input),
    `linalg-convert-to-nhwc` (only with `nhwc=true`: a conv net as NHWC,
    transposes at its edges),
    `linalg-conv-to-im2col` (where it packs, unless `im2col=false`: 2-D
    NCHW convolutions as a gather and a batch of matmuls, row-tiled with
    each tile's columns within half of `l2-cache-bytes`, which
    `linalg-pack-operands` gathers in the tile's parallel iteration; NHWC
    ones as a gather over the window's loops and one matmul),
    `linalg-generalize-named-ops`, `linalg-fold-unit-extent-dims` (a one-row
    matmul becomes a matrix-vector product, run as row reductions),
    `linalg-fuse-elementwise` (unless `fuse=false`; `fold-copies` where it
    packs: a matmul's transposed weight is packed straight from the weight;
    else it stays a contiguous copy for the register tiles),
    `linalg-collapse-dims` and fusion again (unless
    `collapse=false`: rows of any rank become one row loop), `bufferize`;
    `linalg-fuse-attention{cpu}` (unless `fuse-attention=false`:
    softmax(q k^T) v as one OpenMP loop over tiles of at most
    `attention-block` = rows, keys query rows, with an online softmax, its
    tiles on each thread's stack within half of `l2-cache-bytes`; attention
    whose tiles would be under `attention-min-block` stays unfused);
    `linalg-tile-rows` (unless `rows=false`: a softmax, layer_norm or reduction
    with its neighbours runs row by row in one OpenMP loop; row maxima in
    vectors of `vector-bits` partials); then, unless
    `tile=false`: `linalg-pack-operands` (unless `pack=false`: static
    matmuls and batch matmuls with both operands packed once, blocks from
    the caches (`l1-cache-bytes`, `l2-cache-bytes`, `l3-cache-bytes`) or
    `pack-tile-sizes`, register micro-kernels sized from `vector-bits` and
    `vector-registers`, peeled so that any shape takes it;
    `linalg-vectorize-micro-kernels` then, unless `vectorize=false`, makes
    each micro-kernel vector code: accumulators carried in vector registers
    through its K loop, fused multiply-adds), and the other
    matmul-class ops (and the peeled tails) are tiled twice by
    `linalg-tile-contractions`
    (cache tiles of `matmul-tile-sizes`, the outer parallel tile loop an
    `scf.parallel` that OpenMP runs, then register tiles of
    `register-tile-sizes`) and `linalg-promote-accumulator` moves each register
    tile's output to the stack; `convert-linalg-to-loops`;
    `scf-for-hoist-accumulators` (unless `hoist=false`) carries reductions in
    registers. The output is what the C target prints: `func.func`s over memrefs
    following `docs/abi.md`, with `scf` loops, `memref` and `arith`/`math` ops.

    The default sizes are for (batched) matmul on AVX2 (`docs/benchmarks.md`):
    64x256x64 cache tiles (a 64 KiB panel of B, a 16 KiB panel of A) and
    4x16 register tiles (eight 8-float accumulators); sizes are per loop of
    the generic, so a batch_matmul's batch loop takes the first one.
    """

    name = "lower-to-c"

    # A conv net's NCHW convolutions, pooling and the elementwise ops
    # between them as NHWC, transposed at the net's edges only
    # (`linalg-convert-to-nhwc`, right after `convert-nn-to-linalg`). Off:
    # not measured faster yet.
    nhwc: bool = False
    fuse: bool = True
    collapse: bool = True
    rows: bool = True
    tile: bool = True
    hoist: bool = True
    matmul_tile_sizes: tuple[int, ...] = (64, 256, 64)
    register_tile_sizes: tuple[int, ...] = (4, 16, 0)
    # Static 2-D matmuls: packed panels and register micro-kernels
    # (`linalg-pack-operands`), cache tiles of `pack-tile-sizes` (MC, NC,
    # KC); the register tile is sized from the vector unit, whose facts
    # `irkit.compile` fills in from the host (`CpuHardware`). Only with
    # vectors of at least `PACK_MIN_VECTOR_BITS`: the AVX2-sized (6x16)
    # micro-kernel was slower than the unpacked tiles where it was measured
    # (gcc spills its accumulators), and the defaults here, which
    # `irkit-opt` uses without host facts, are AVX2's.
    pack: bool = True
    # The packed micro-kernels as vector code (`linalg-vectorize-micro-kernels`):
    # accumulators in named vector registers and fused multiply-adds, which
    # the C compiler keeps out of memory (it spilled the scalar tile's).
    vectorize: bool = True
    # Empty: the blocks from the caches below (`cache_tile_shape`).
    pack_tile_sizes: tuple[int, ...] = ()
    # Where it packs, 2-D convolutions as an im2col gather and a batch of
    # matmuls (`linalg-conv-to-im2col`) that take the packed path.
    im2col: bool = True
    vector_bits: int = 256
    vector_registers: int = 16
    # The data caches (`CpuHardware`; `irkit.compile` fills in the host's).
    l1_cache_bytes: int = DEFAULT_CACHE_BYTES[0]
    l2_cache_bytes: int = DEFAULT_CACHE_BYTES[1]
    l3_cache_bytes: int = DEFAULT_CACHE_BYTES[2]
    # Attention as one loop over tiles of query rows with an online softmax
    # (`linalg-fuse-attention{cpu}`): at most `attention-block` = (rows,
    # keys) a tile, its stack tiles within half the L2 cache; attention
    # whose tiles would be under `attention-min-block` stays unfused.
    fuse_attention: bool = True
    attention_block: tuple[int, ...] = CPU_ATTENTION_BLOCK
    attention_min_block: int = CPU_ATTENTION_MIN_BLOCK

    def stages(self) -> list[ModulePass]:
        packing = self.tile and self.pack and self.vector_bits >= PACK_MIN_VECTOR_BITS
        stages = _front_end(nhwc=self.nhwc)
        if packing and self.im2col:
            # Column tiles within half the L2 cache, each gathered right
            # before its matmul (`linalg-pack-operands`), so it is read back
            # from L2.
            stages.append(
                _stage(
                    "linalg-conv-to-im2col",
                    column_tile_bytes=self.l2_cache_bytes // 2,
                    vector_bits=self.vector_bits,
                    vector_registers=self.vector_registers,
                )
            )
        stages.append(_stage("linalg-generalize-named-ops"))
        stages += _tensor_stages(
            fuse=self.fuse,
            collapse=self.collapse,
            # Packing reads a transposed operand (a linear layer's weight)
            # in cache-line-sized strips as it packs it; the register tiles
            # without packing need it as a contiguous copy.
            fold_copies=packing,
            recompute_broadcasts=False,
        )
        stages.append(_stage("bufferize"))
        if self.fuse_attention:
            if len(self.attention_block) != 2:
                raise PassFailedException(
                    f"{self.name}: attention-block takes 2 sizes (rows, keys)"
                )
            rows, keys = self.attention_block
            stages.append(
                _stage(
                    "linalg-fuse-attention",
                    cpu=True,
                    vector_bits=self.vector_bits,
                    block_rows=rows,
                    block_keys=keys,
                    min_block=self.attention_min_block,
                    max_shared_bytes=self.l2_cache_bytes // 2,
                )
            )
        if self.rows:
            stages.append(_stage("linalg-tile-rows", vector_bits=self.vector_bits))
        if self.tile:
            if packing:
                stages.append(
                    _stage(
                        "linalg-pack-operands",
                        cache_tile_sizes=self.pack_tile_sizes,
                        cache_bytes=(
                            self.l1_cache_bytes,
                            self.l2_cache_bytes,
                            self.l3_cache_bytes,
                        ),
                        vector_bits=self.vector_bits,
                        vector_registers=self.vector_registers,
                    )
                )
                if self.vectorize:
                    stages.append(
                        _stage(
                            "linalg-vectorize-micro-kernels",
                            vector_bits=self.vector_bits,
                            vector_registers=self.vector_registers,
                        )
                    )
            stages += [
                _stage("linalg-tile-contractions", tile_sizes=self.matmul_tile_sizes),
                _stage("linalg-tile-contractions", tile_sizes=self.register_tile_sizes),
                _stage("linalg-promote-accumulator"),
            ]
        stages.append(_stage("convert-linalg-to-loops"))
        if self.hoist:
            stages.append(_stage("scf-for-hoist-accumulators"))
        return stages


@dataclass(frozen=True)
class LowerToCudaPipeline(NamedPipeline):
    """From the tensor level to `gpu.launch` kernels (docs/passes/lower-to-cuda.md).

    Stages: the front end of `lower-to-c` (`convert-nn-to-linalg`,
    `linalg-convert-to-nhwc` only with `nhwc=true`,
    `linalg-generalize-named-ops`, `linalg-fold-unit-extent-dims`,
    `linalg-fuse-elementwise` unless
    `fuse=false` (a matmul reads a transposed weight through the transposed
    map, no copy), `linalg-collapse-dims` and fusion again unless
    `collapse=false`, `linalg-split-reduction{multiprocessors min-block}`
    (with the device's count and `split-block`, unless
    `split-reductions=false`: a matmul whose grid would be short in tiles of
    `split-block` squared splits its reduction into parts on the grid),
    `bufferize`);
    `linalg-fuse-attention` (unless `fuse-attention=false`: softmax(q k^T) v
    as one block forall per tile of query rows, with an online softmax;
    `attention-block` = rows, keys, threads, threads along x bounds its
    tiles and sets its threads, in `max-dynamic-shared-bytes` of workgroup
    memory; attention over more than `attention-max-keys` keys (0, the
    default: no bound) stays unfused);
    `linalg-tile-rows-for-gpu` (unless
    `rows=false`: row reductions and their neighbours as one kernel, a block
    of `reduction-block` threads per row, by default chosen per row length);
    `convert-linalg-to-mma{partial-tiles}` (unless `tensor-cores=false` or
    `mma-partial-tiles=false`: the tensor-core matmuls below whose operand
    rows are 16-byte multiples, on partial tiles, before any padding);
    `linalg-pad-contractions` (unless `pad=false`: matmuls whose extents the
    block tile does not divide run on zero-padded copies, when that at most
    doubles the iterations; with `wgmma`, f16/bf16 matmuls' K to a multiple
    of 64 too);
    `convert-linalg-to-mma` (unless `tensor-cores=false`: f16/bf16 matmuls,
    and f32 ones with `allow-tf32`, as tensor-core kernels; with `wgmma`,
    the device's sm_90a fact, as warpgroup products: f32 ones whose padded
    K is a multiple of 32, the others on `mma.sync`; with both, a row-major
    f32 B is transposed once into an N x K buffer for K-major products
    unless `tf32-transpose-b=false`, which copies it transposed element by
    element instead; f16/bf16 warpgroup kernels copy their tiles with TMA
    unless `tma=false`, which copies them with `cp.async`);
    `linalg-tile-transposes-for-gpu` (unless
    `transposes=false`: ops that move data through a permutation, read
    coalesced into workgroup tiles of `transpose-block` = side, threads y
    and written coalesced); `linalg-tile-for-gpu`
    with the tile sizes below (block- and thread-mapped `scf.forall`s; unless
    `fuse-producers=false`, a matmul operand's elementwise producer, the
    im2col gather, runs while its tiles are staged in shared memory);
    `gpu-promote-shared` (unless `promote=false`); `convert-linalg-to-loops`;
    `fold-memref-alias-ops` (per-thread loads and stores index the function's
    buffers, not tiles whose sizes differ between threads);
    `convert-parallel-loops-to-gpu`; `gpu-shuffle-reductions` (unless
    `shuffles=false`: a reduction tree's last five steps as warp shuffles);
    `gpu-promote-accumulators` (unless
    `promote-accumulators=false`: each thread's matmul output tile in
    registers across the K loop); `gpu-relayout-shared` (unless
    `relayout-shared=false`: shared tiles laid out so that each thread's
    unrolled reads are 16-byte chunks); `gpu-pipeline-copies` (unless
    `pipeline-copies=false`: a K step's global loads, an implicit GEMM's
    gather with them, issued during the step before; with
    `table-copy-indices`, the default, the gather's K-invariant indices
    computed once); `gpu-kernel-outlining` (kernels get `nvvm.minctasm =
    min-blocks-per-sm` unless it is 0).
    """

    name = "lower-to-cuda"

    # As `lower-to-c`'s `nhwc` (`linalg-convert-to-nhwc`). Off: not measured
    # faster on the GPU yet.
    nhwc: bool = False

    fuse: bool = True
    collapse: bool = True
    pad: bool = True
    promote: bool = True
    promote_accumulators: bool = True
    relayout_shared: bool = True
    pipeline_copies: bool = True
    # `gpu-pipeline-copies{table-indices}`: an implicit GEMM's K-invariant
    # gather indices (the output pixel's row and column) computed once.
    table_copy_indices: bool = True
    # Copies pipelined while what they hold across K steps fits a thread's
    # registers at `min-blocks-per-sm` (`gpu-pipeline-copies{
    # registers-per-block}`); false: every copy the pass can take.
    pipeline_within_registers: bool = True
    # `gpu-pipeline-copies{computed-copies}`: an implicit GEMM's predicated
    # gather pipelined through registers too. Off: on the H100 it made the
    # ResNet block 0.236 -> 0.245 ms and ResNet-18 b32 9.21 -> 10.83 ms.
    pipeline_gathers: bool = False
    # Two blocks of 256 threads per multiprocessor: the matmul kernel's
    # registers capped at 128 (nvcc already fits them; the hint alone made
    # SGEMM 4096^3 2% faster on the H100, with gpu-pipeline-copies 4%).
    min_blocks_per_sm: int = 2
    rows: bool = True
    shuffles: bool = True
    # 0: per row group, about 8 elements per thread (512 threads for rows of
    # 4096, the fastest for softmax and layer_norm on the H100).
    reduction_block: int = 0
    matmul_block: tuple[int, ...] = GPU_MATMUL_BLOCK
    matmul_thread: tuple[int, ...] = GPU_MATMUL_THREAD
    matmul_cyclic: bool = GPU_MATMUL_CYCLIC
    # Convolutions' implicit GEMMs (`linalg-tile-for-gpu{gather-block
    # gather-thread}`). Their columns are still padded to `matmul-block`'s
    # multiples, as the pointwise convolutions (no gather) are.
    conv_block: tuple[int, ...] = GPU_CONV_BLOCK
    conv_thread: tuple[int, ...] = GPU_CONV_THREAD
    # A batch of small images convolved side by side (`_merge_images_below`).
    merge_images: bool = True
    elementwise_block: int = 256
    # The device's facts (`GpuHardware`): `irkit.compile` fills them in from
    # the target; these defaults are every NVIDIA GPU's since Kepler.
    warp_size: int = 32
    max_threads_per_block: int = 1024
    registers_per_block: int = 65536
    max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES
    # What a block may use with the opt-in for dynamic shared memory (227 KiB
    # on the H100): the budget of kernels built for it (tensor-core copy
    # pipelines); the others keep `max-shared-bytes`.
    max_dynamic_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES
    # 0 (no device to ask): every matmul keeps `matmul-block`. With the
    # device's count, a matmul whose grid leaves multiprocessors idle gets
    # smaller block tiles (`linalg-tile-for-gpu`).
    multiprocessors: int = 0
    # With the device's count, a matmul whose grid would be short in
    # `split-block`-square tiles splits its reduction into parts on the grid
    # (`linalg-split-reduction{min-block}`). 128 (2026-11-27, H100, f32):
    # the GPT-2 block's 1024x768 products (out projection, fc2) split into 8
    # parts of 128x128 tiles rather than run 192 blocks of 64x64: GPT-2
    # 0.627 -> 0.593 ms, BERT 0.705 -> 0.571, LLaMA 0.712 -> 0.637, MLP m512
    # 0.317 -> 0.306; 256 split less and lost (0.648, 0.686, 0.768).
    split_reductions: bool = True
    split_block: int = 128
    # Attention (scores, softmax, values) as one kernel with an online
    # softmax (`linalg-fuse-attention`), in blocks of at most (query rows,
    # keys per step).
    fuse_attention: bool = True
    attention_block: tuple[int, ...] = ATTENTION_BLOCK
    attention_max_keys: int = ATTENTION_MAX_KEYS
    # f16/bf16 matmuls into f32 on tensor cores (`convert-linalg-to-mma`),
    # in blocks of at most `mma-block` (BM, BN, BK), `mma-stages` copy
    # buffers deep, `mma-warps` (along M, along N) warps a block.
    tensor_cores: bool = True
    # 2-D convolutions as an im2col gather and a batch of matmuls
    # (`linalg-conv-to-im2col`), which the matmul path then tiles.
    im2col: bool = True
    # A matmul operand's elementwise producer (the im2col gather, padded
    # weights) computed while staging the operand's tiles in shared memory
    # (`linalg-tile-for-gpu{fuse-producers}`): an implicit GEMM, no column
    # buffer in global memory.
    fuse_producers: bool = True
    # Window reads (pooling, depthwise convolutions) as `tensor.extract` in
    # the body (`linalg-extract-windows`), so their output rows and columns
    # tile over threads.
    extract_windows: bool = True
    mma_block: tuple[int, ...] = MMA_BLOCK
    mma_stages: int = MMA_STAGES
    mma_warps: tuple[int, ...] = MMA_WARPS
    # f32 matmuls on tensor cores too, their operands rounded to TF32
    # (`convert-linalg-to-mma{tf32}`): off, as PyTorch's
    # `torch.backends.cuda.matmul.allow_tf32`; `irkit.compile(...,
    # allow_tf32=True)` turns it on.
    allow_tf32: bool = False
    # f16/bf16 matmuls (and with `allow-tf32` f32 ones, as m64nNk8 TF32
    # products) as warpgroup products (`convert-linalg-to-mma{wgmma}`:
    # operands read by the tensor cores from swizzled shared memory) in
    # blocks of at most `wgmma-block` (BM, BN); the device's fact
    # (`GpuHardware.warpgroup_mma`: sm_90a), which `irkit.compile` fills in.
    wgmma: bool = False
    wgmma_block: tuple[int, ...] = WGMMA_BLOCK
    # TF32 warpgroup products take both operands K-major. A row-major (K x
    # N) f32 B is transposed once into an N x K buffer by a tiled transpose
    # kernel (`convert-linalg-to-mma{tf32-transpose-b}`), or, with false,
    # copied into shared memory transposed by 4-byte `cp.async`s.
    tf32_transpose_b: bool = True
    # f16/bf16 warpgroup kernels copy their tiles with the Tensor Memory
    # Accelerator (`convert-linalg-to-mma{tma}`), or, with false, cp.async.
    tma: bool = True
    # Tensor-core matmuls whose extents no tile divides run on partial
    # tiles (`convert-linalg-to-mma{partial-tiles}`, before
    # `linalg-pad-contractions`: zero-filled copies past the operands'
    # edges, guarded stores; no padded copies, fills or copies back) where
    # their operand rows are 16-byte multiples; false: padded, as before.
    mma_partial_tiles: bool = True
    # Transposes as tiled kernels through workgroup memory
    # (`linalg-tile-transposes-for-gpu`), tiles of (side, threads y).
    transposes: bool = True
    transpose_block: tuple[int, ...] = TRANSPOSE_BLOCK

    def _half_reduction_multiple(self) -> int:
        """K's multiple for f16/bf16 matmuls and convolutions (0: the SIMT
        tile's): warpgroup products step K by one 128-byte swizzled row of
        16-bit elements, so their padded K is a multiple of it too; f32
        matmuls keep the SIMT tile's K, even with `allow-tf32` (TF32
        warpgroup products step K by 32: a K padded to 16 but not 32 takes
        `mma.sync`'s TF32 products; padding it to 32 would push shapes such
        as 300x200x72 past the padding bound, off the tensor cores)."""
        if not self.wgmma or len(self.matmul_block) != 3:
            return 0
        return math.lcm(self.matmul_block[2], SWIZZLE_ROW_BYTES // 2)

    def _gather_multiples(self) -> tuple[int, ...]:
        """The padding multiples of convolutions' implicit GEMMs: their SIMT
        block (`conv-block`), so that they are padded to the tiles that take
        them. None (the matmuls' multiples) without padding, or with
        `allow-tf32`, where f32 products run on tensor cores with theirs."""
        if not self.pad or self.allow_tf32:
            return ()
        if len(self.conv_block) != 3:
            raise PassFailedException(
                f"{self.name}: conv-block takes 3 sizes (filters, pixels, K)"
            )
        return self.conv_block

    def _merge_images_below(self) -> int:
        """Images of fewer output pixels than four of the implicit GEMM's
        pixel tiles (ResNet's 14x14 and 7x7 stages in 64-pixel tiles) are
        convolved side by side, one matmul over every image's columns
        (`linalg-conv-to-im2col{merge-images-below}`): their own matmuls
        were a few short tiles each, partly padding. Off with
        `merge-images=false`, `allow-tf32` or without padding."""
        if not self.merge_images or not self._gather_multiples():
            return 0
        return 4 * self.conv_block[1]

    def _tensor_core_stage(self, partial_tiles: bool) -> ModulePass:
        """`convert-linalg-to-mma` with the pipeline's options, on partial
        tiles or on whole ones."""
        return _stage(
            "convert-linalg-to-mma",
            block=self.mma_block,
            stages=self.mma_stages,
            warps=self.mma_warps,
            multiprocessors=self.multiprocessors,
            max_shared_bytes=max(self.max_shared_bytes, self.max_dynamic_shared_bytes),
            tf32=self.allow_tf32,
            wgmma=self.wgmma,
            wgmma_block=self.wgmma_block,
            tf32_transpose_b=self.tf32_transpose_b,
            tma=self.tma,
            partial_tiles=partial_tiles,
        )

    def _transpose_stages(self) -> list[ModulePass]:
        """`linalg-tile-transposes-for-gpu` with `transpose-block`, unless
        `transposes=false`."""
        if not self.transposes:
            return []
        if len(self.transpose_block) != 2:
            raise PassFailedException(
                f"{self.name}: transpose-block takes 2 sizes (side, threads y)"
            )
        side, rows = self.transpose_block
        return [
            _stage(
                "linalg-tile-transposes-for-gpu",
                tile=side,
                rows=rows,
                max_shared_bytes=self.max_shared_bytes,
                max_threads_per_block=self.max_threads_per_block,
            )
        ]

    def stages(self) -> list[ModulePass]:
        stages = _front_end(nhwc=self.nhwc)
        if self.im2col:
            # Columns padded where `linalg-pad-contractions` would pad the
            # product: the gather writes the margins, no padded copies. The
            # product's rows are the filters in NCHW (`F x K @ K x P`), the
            # pixels in NHWC (`(N * P) x K @ K x F`).
            pixels, filters = (0, 1) if self.nhwc else (1, 0)
            # `gather-multiples` are (filters, pixels, K); `conv-block` is
            # (rows, columns, K), as `linalg-pad-contractions` reads it.
            block = self._gather_multiples()
            gather_multiples = (
                (block[filters], block[pixels], block[2]) if block else ()
            )
            stages.append(
                _stage(
                    "linalg-conv-to-im2col",
                    pixel_multiple=self.matmul_block[pixels] if self.pad else 0,
                    reduction_multiple=self.matmul_block[2] if self.pad else 0,
                    filter_multiple=self.matmul_block[filters] if self.pad else 0,
                    half_reduction_multiple=(
                        self._half_reduction_multiple() if self.pad else 0
                    ),
                    gather_multiples=gather_multiples,
                    merge_images_below=self._merge_images_below(),
                )
            )
        stages.append(_stage("linalg-generalize-named-ops"))
        if self.extract_windows:
            stages.append(_stage("linalg-extract-windows"))
        stages += _tensor_stages(
            fuse=self.fuse,
            collapse=self.collapse,
            fold_copies=True,
            recompute_broadcasts=True,
        )
        if self.split_reductions and self.multiprocessors:
            stages.append(
                _stage(
                    "linalg-split-reduction",
                    multiprocessors=self.multiprocessors,
                    k_step=self.matmul_block[2],
                    min_block=self.split_block,
                    tensor_cores=self.tensor_cores,
                    tf32=self.allow_tf32,
                )
            )
        stages.append(_stage("bufferize"))
        if self.fuse_attention:
            if len(self.attention_block) != 4:
                raise PassFailedException(
                    f"{self.name}: attention-block takes 4 sizes (rows, keys, "
                    "threads, threads along x)"
                )
            stages.append(
                _stage(
                    "linalg-fuse-attention",
                    block_rows=self.attention_block[0],
                    block_keys=self.attention_block[1],
                    threads=self.attention_block[2],
                    threads_x=self.attention_block[3],
                    max_keys=self.attention_max_keys,
                    # The fused kernel is built for the device's opt-in
                    # (dynamic shared memory), as the tensor-core kernels.
                    max_shared_bytes=max(
                        self.max_shared_bytes, self.max_dynamic_shared_bytes
                    ),
                    multiprocessors=self.multiprocessors,
                    # Half products on tensor cores beat the fused kernel's
                    # SIMT ones: half chains stay unfused there.
                    half_products_on_tensor_cores=self.tensor_cores,
                )
            )
        if self.rows:
            stages.append(
                _stage(
                    "linalg-tile-rows-for-gpu",
                    reduction_block=self.reduction_block,
                    max_shared_bytes=self.max_shared_bytes,
                )
            )
        if self.tensor_cores and self.mma_partial_tiles:
            # Before the padding: the matmuls the kernels take on partial
            # tiles are kernels by then, so none of them is padded.
            stages.append(self._tensor_core_stage(partial_tiles=True))
        if self.pad:
            padding = _stage(
                "linalg-pad-contractions",
                multiples=self.matmul_block,
                half_reduction_multiple=self._half_reduction_multiple(),
                gather_multiples=self._gather_multiples(),
            )
            stages.append(padding)
        if self.tensor_cores:
            # The matmuls padded to whole tiles (rows not of 16-byte
            # multiples), or all of them without `mma-partial-tiles`.
            stages.append(self._tensor_core_stage(partial_tiles=False))
        stages += self._transpose_stages()
        stages += [
            _stage(
                "linalg-tile-for-gpu",
                matmul_block=self.matmul_block,
                matmul_thread=self.matmul_thread,
                matmul_cyclic=self.matmul_cyclic,
                elementwise_block=self.elementwise_block,
                max_threads_per_block=self.max_threads_per_block,
                multiprocessors=self.multiprocessors,
                fuse_producers=self.fuse_producers,
                max_shared_bytes=self.max_shared_bytes,
                gather_block=self.conv_block,
                gather_thread=self.conv_thread,
            ),
        ]
        if self.promote:
            stages.append(
                _stage("gpu-promote-shared", max_shared_bytes=self.max_shared_bytes)
            )
        stages += [
            _stage("convert-linalg-to-loops"),
            _stage("fold-memref-alias-ops"),
            _stage("convert-parallel-loops-to-gpu"),
        ]
        if self.shuffles:
            stages.append(_stage("gpu-shuffle-reductions", warp_size=self.warp_size))
        if self.promote_accumulators:
            # A matmul's whole thread tile, and its K step's nest unrolled,
            # however large the tiles chosen.
            thread_tile = math.prod(self.matmul_thread)
            budget = _defaults("gpu-promote-accumulators")
            stages.append(
                _stage(
                    "gpu-promote-accumulators",
                    max_elements=max(budget["max_elements"], thread_tile),
                    max_unroll=max(
                        budget["max_unroll"], thread_tile * self.matmul_block[-1]
                    ),
                )
            )
        if self.relayout_shared:
            stages.append(
                _stage(
                    "gpu-relayout-shared",
                    max_shared_bytes=self.max_shared_bytes,
                    max_dynamic_shared_bytes=self.max_dynamic_shared_bytes,
                )
            )
        if self.pipeline_copies:
            stages.append(
                _stage(
                    "gpu-pipeline-copies",
                    table_indices=self.table_copy_indices,
                    computed_copies=self.pipeline_gathers,
                    registers_per_block=(
                        self.registers_per_block
                        if self.pipeline_within_registers
                        else 0
                    ),
                    min_blocks_per_sm=self.min_blocks_per_sm,
                )
            )
        stages.append(
            _stage("gpu-kernel-outlining", min_blocks_per_sm=self.min_blocks_per_sm)
        )
        return stages
