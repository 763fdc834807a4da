"""The mutants `run.py` plants: realistic bugs in the passes, each with the
tests that must catch it.

A mutant replaces `before` (which must occur exactly once in `path`) with
`after`. `equivalent` marks a mutant argued to change no observable
behaviour (then its survival is expected; `breaks` says why).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    before: str
    after: str
    tests: tuple[str, ...]
    breaks: str
    equivalent: bool = False


FUSION = "irkit/analysis/contraction_fusion.py"
TILE_GPU = "irkit/transforms/linalg_tile_for_gpu.py"
SPLIT = "irkit/transforms/linalg_split_reduction.py"
UNIT = "irkit/transforms/linalg_fold_unit_extent_dims.py"
FUSE = "irkit/transforms/linalg_fuse_elementwise.py"
PAD = "irkit/transforms/linalg_pad_contractions.py"
ATTENTION = "irkit/transforms/linalg_fuse_attention.py"
ATTENTION_CHAIN = "irkit/analysis/attention.py"
ATTENTION_PROPERTY = "tests/properties/test_linalg_fuse_attention.py"
ATTENTION_HALF = "tests/filecheck/transforms/linalg-fuse-attention-half.mlir"
ATTENTION_HALF_EXACT = (
    "tests/properties/test_linalg_fuse_attention.py"
    "::test_half_rounding_points_are_the_programs"
)
ATTENTION_HALF_PROPERTY = (
    "tests/properties/test_linalg_fuse_attention.py"
    "::test_half_attention_keeps_meaning_and_fires"
)
MMA = "irkit/transforms/convert_linalg_to_mma.py"
NHWC = "irkit/transforms/linalg_convert_to_nhwc.py"
NHWC_PROPERTY = "tests/properties/test_linalg_convert_to_nhwc.py"
NHWC_FILECHECK = "tests/filecheck/transforms/linalg-convert-to-nhwc.mlir"
TRANSPOSE = "irkit/transforms/linalg_tile_transposes_for_gpu.py"
TRANSPOSE_PROPERTY = (
    "tests/properties/test_linalg_tile_transposes_for_gpu.py"
    "::test_transposes_keep_meaning_on_the_grid_emulator"
)
TRANSPOSE_TF32_PROPERTY = (
    "tests/properties/test_linalg_tile_transposes_for_gpu.py"
    "::test_tf32_warpgroup_products_read_b_transposed_once"
)
MMA_PROPERTY = "tests/properties/test_convert_linalg_to_mma.py"
MMA_WGMMA_PROPERTY = (
    "tests/properties/test_convert_linalg_to_mma.py"
    "::test_warpgroup_kernels_keep_meaning_and_fire"
)
MMA_WARPGROUP_EMULATOR = "tests/interpreter/test_mma_warpgroup.py"
MMA_TMA_PROPERTY = (
    "tests/properties/test_convert_linalg_to_mma.py"
    "::test_tma_warpgroup_kernels_keep_meaning_and_fire"
)
MMA_TF32_WGMMA_PROPERTY = (
    "tests/properties/test_convert_linalg_to_mma.py"
    "::test_tf32_warpgroup_kernels_keep_meaning_and_fire"
)
MMA_PARTIAL_PROPERTY = (
    "tests/properties/test_convert_linalg_to_mma.py"
    "::test_partial_tiles_keep_meaning_and_fire"
)
MMA_TF32_PROPERTY = (
    "tests/properties/test_convert_linalg_to_mma.py"
    "::test_tf32_kernels_keep_meaning_and_fire"
)
TILE_FUSE = "irkit/transforms/linalg_tile_and_fuse.py"
ROW_GROUPS = "irkit/transforms/utils/row_groups.py"
ROW_LANES_PROPERTY = "tests/properties/test_linalg_tile_rows.py"
HOIST = "irkit/transforms/scf_for_hoist_accumulators.py"
HOIST_PROPERTY = (
    "tests/properties/test_scf_for_hoist_accumulators.py"
    "::test_accumulators_stay_in_memory_beside_unseen_effects"
)
VECTORIZE = "irkit/transforms/linalg_vectorize_micro_kernels.py"
VECTORIZE_PROPERTY = (
    "tests/properties/test_linalg_vectorize_micro_kernels.py"
    "::test_vectorizing_keeps_meaning_on_random_shapes"
)
C_MATH = "irkit/targets/c_math.py"
C_MATH_TESTS = ("tests/targets/test_c_math.py",)
STAGING = "tests/filecheck/transforms/linalg-tile-for-gpu-staging.mlir"
IMPLICIT_GEMM = "tests/properties/test_implicit_gemm.py"
PIPELINE = "irkit/transforms/gpu_pipeline_copies.py"
PIPELINE_FILECHECK = "tests/filecheck/transforms/gpu-pipeline-copies.mlir"
PIPELINE_PROPERTY = "tests/properties/test_gpu_pipeline_copies.py"
PIPELINE_CONV_PROPERTIES = (
    "tests/properties/test_gpu_pipeline_copies.py"
    "::test_pipelined_convolutions_keep_meaning",
    "tests/properties/test_gpu_pipeline_copies.py"
    "::test_a_padded_convolution_tables_its_pixel_indices",
)
TILE_FUSE_PROPERTY = (
    "tests/properties/test_linalg_tile_and_fuse.py"
    "::test_fusion_never_passes_over_a_writer_of_what_it_reads"
)

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        "staged-producer-counts-from-the-thread-only",
        TILE_GPU,
        "            for tile in (tiles[loop], nest.tiles[loop])\n"
        "            if isinstance(tile.offset, SSAValue)",
        "            for tile in (nest.tiles[loop],)\n"
        "            if isinstance(tile.offset, SSAValue)",
        (STAGING, IMPLICIT_GEMM),
        "a staged producer's indices forget the tile's origin: every K step "
        "and block stages the first tile's values",
    ),
    Mutant(
        "staged-producer-input-freed-before-the-matmul",
        TILE_GPU,
        "            free.detach()\n"
        "            Rewriter.insert_op(free, InsertPoint.after(generic))",
        "            pass",
        (STAGING,),
        "a buffer the staged gather reads is freed before the matmul's "
        "kernel runs the gather (a use after free)",
    ),
    Mutant(
        "staged-producer-also-an-epilogue",
        TILE_GPU,
        "            if found.producer not in epilogues",
        "            if True",
        (STAGING,),
        "an op fused as one matmul's epilogue is staged into the next matmul "
        "as well: both rewrite it",
    ),
    Mutant(
        "staged-producer-partial-tile-reads-the-whole-buffer",
        TILE_GPU,
        "    if sizes != shape:  # a partial tile: its leading corner",
        "    if False:",
        (STAGING,),
        "a partial tile is produced and read as a whole staged buffer",
    ),
    Mutant(
        "staged-producer-with-another-reader",
        FUSION,
        '        elif user.name != "memref.dealloc":\n'
        "            return None  # another reader, a view, an escape",
        "        elif False:\n"
        "            return None  # another reader, a view, an escape",
        (STAGING,),
        "columns another op reads are computed only in the staging, and "
        "their buffer goes",
    ),
    Mutant(
        "staged-producer-past-a-writer-of-its-input",
        FUSION,
        "        if written is None or any(\n"
        "            may_alias(target, read) for target in written for read in reads\n"
        "        ):",
        "        if written is None:",
        (STAGING,),
        "the producer moves past an op writing what it reads, and reads the new values",
    ),
    Mutant(
        "staged-producer-may-reduce",
        FUSION,
        "        or not all(k.data == IteratorType.PARALLEL for k in "
        "producer.iterator_types)\n",
        "",
        (STAGING,),
        "none: a producer whose output map is the identity over all its "
        "loops has no loop to reduce (linalg refuses a reduction loop that "
        "indexes the output), so the other checks refuse it already",
        equivalent=True,
    ),
    Mutant(
        "epilogue-writes-matmul-input",
        FUSION,
        "        may_alias(out, read)\n        for out, _ in outputs",
        "        False and may_alias(out, read)\n        for out, _ in outputs",
        ("tests/filecheck/transforms/linalg-tile-for-gpu-fusion.mlir",),
        "an epilogue writing what other blocks still read is fused (a race)",
    ),
    Mutant(
        "epilogue-writes-other-view-of-product",
        FUSION,
        "        if may_alias(written, output) and written is not product:",
        "        if False:",
        ("tests/filecheck/transforms/linalg-tile-for-gpu-fusion.mlir",),
        "an output aliasing the product need not be the product: redundant, "
        "as every epilogue reads the product, and an output aliasing that "
        "input is refused by the input check unless it is the same value",
        equivalent=True,
    ),
    Mutant(
        "prologue-reads-old-value",
        FUSION,
        "    if prologue.body.block.args[len(prologue.inputs)].uses:",
        "    if False:",
        ("tests/properties/test_linalg_tile_for_gpu.py",),
        "a prologue that reads its output's old value is fused; each thread "
        "reads and writes only its own element, so it stays correct",
        equivalent=True,
    ),
    Mutant(
        "fused-through-a-dealloc-before",
        FUSION,
        '        if forward and neighbour.name == "memref.dealloc":',
        '        if neighbour.name == "memref.dealloc":',
        ("tests/filecheck/transforms/linalg-tile-for-gpu-fusion.mlir",),
        "a prologue fused across a deallocation moves after it",
    ),
    Mutant(
        "short-rows-too-many-threads",
        TILE_GPU,
        "        rows = min(ranges[y], options.elementwise_block // block[x])",
        "        rows = min(ranges[y], 2 * options.elementwise_block // block[x])",
        ("tests/filecheck/transforms/linalg-tile-for-gpu.mlir",),
        "blocks of twice elementwise-block threads for short rows",
    ),
    Mutant(
        "split-partial-k-steps",
        SPLIT,
        "        if k % (candidate * options.k_step):",
        "        if k % candidate:",
        ("tests/properties/test_linalg_split_reduction.py",),
        "parts that end inside a K step",
    ),
    Mutant(
        "split-sum-subtracts",
        SPLIT,
        "    total = arith.AddfOp(sum_block.args[1], sum_block.args[0])",
        "    total = arith.SubfOp(sum_block.args[1], sum_block.args[0])",
        ("tests/properties/test_linalg_split_reduction.py",),
        "the parts' sum subtracts",
    ),
    Mutant(
        "split-partials-start-at-one",
        SPLIT,
        "    zero = arith.ConstantOp(FloatAttr(0.0, cast(AnyFloat, found.element)))",
        "    zero = arith.ConstantOp(FloatAttr(1.0, cast(AnyFloat, found.element)))",
        ("tests/properties/test_linalg_split_reduction.py",),
        "partial products start from 1",
    ),
    Mutant(
        "split-full-grid",
        SPLIT,
        "    if 2 * blocks > options.multiprocessors:",
        "    if blocks > 4 * options.multiprocessors:",
        ("tests/filecheck/transforms/linalg-split-reduction.mlir",),
        "a half-full grid is split too",
    ),
    Mutant(
        "unit-index-is-one",
        UNIT,
        "            zero = arith.ConstantOp(IntegerAttr(0, IndexType()))",
        "            zero = arith.ConstantOp(IntegerAttr(1, IndexType()))",
        ("tests/properties/test_linalg_fold_unit_extent_dims.py",),
        "linalg.index of a dropped loop reads 1",
    ),
    Mutant(
        "unit-drops-any-size-one-dim",
        UNIT,
        "            (isinstance(expr, AffineDimExpr) and expr.position in units)",
        "            isinstance(expr, AffineDimExpr)",
        ("tests/properties/test_linalg_fold_unit_extent_dims.py",),
        "a size-1 dimension read by any bare loop is dropped: that loop is a "
        "unit loop anyway (an operand dimension it indexes alone has size 1)",
        equivalent=True,
    ),
    Mutant(
        "unit-window-becomes-bare",
        UNIT,
        "            if bare is not None and ranges.get(bare) != shape[position]:",
        "            if False:",
        ("tests/filecheck/transforms/linalg-fold-unit-extent-dims.mlir",),
        "a padded window collapses to a loop of the wrong range",
    ),
    Mutant(
        "generators-may-compute-floats",
        FUSE,
        '        "arith.minui",\n',
        '        "arith.minui",\n        "arith.mulf",\n        "arith.sitofp",\n',
        ("tests/filecheck/transforms/linalg-fuse-elementwise.mlir",),
        "float producers recomputed through broadcasts",
    ),
    Mutant(
        "any-producer-is-a-copy",
        FUSE,
        "                is_copy_of_input(producer, result_index)\n",
        "                True\n",
        ("tests/filecheck/transforms/linalg-fuse-elementwise.mlir",),
        "a computing transpose is recomputed inside the matmul",
    ),
    Mutant(
        "copy-yields-anything",
        FUSE,
        "    return element in body.args[: len(producer.inputs)]",
        "    return True",
        ("tests/filecheck/transforms/linalg-fuse-elementwise.mlir",),
        "a body of a lone yield of something else than an input is a copy: "
        "reached only for a yield of an outer value (outputs read are refused "
        "before), which the fused body yields just the same",
        equivalent=True,
    ),
    Mutant(
        "shared-fill-kept",
        FUSE,
        "        for user in init_users:",
        "        for user in init_users[1:]:",
        ("tests/properties/test_linalg_fuse_elementwise.py",),
        "a shared fill stays shared (and is erased under its first user)",
    ),
    Mutant(
        "multi-use-producer-fused",
        FUSE,
        "    if not (value.has_one_use() or generator):",
        "    if False:",
        ("tests/filecheck/transforms/linalg-fuse-elementwise.mlir",),
        "a producer several consumers read is fused into one and erased",
    ),
    Mutant(
        "pad-inner-dimension-in-place",
        PAD,
        "    return bool(shape) and list(padded_shape[1:]) == shape[1:]",
        "    return bool(shape)",
        ("tests/filecheck/transforms/linalg-pad-contractions.mlir",),
        "an inner dimension padded in place (views keep stale strides)",
    ),
    Mutant(
        "row-reduction-without-reduction-loop",
        "irkit/analysis/row_groups.py",
        "        or len(kinds) < 2\n",
        "",
        ("tests/filecheck/transforms/linalg-tile-rows-for-gpu-degenerate.mlir",),
        "an op without reduction loop is reduced across threads",
    ),
    Mutant(
        "half-without-its-header",
        "irkit/targets/cuda.py",
        "            self.types_needing_headers.add(key)",
        "            self.types_needing_headers.add(key if key != 'f16' else '')",
        ("tests/targets/test_cuda_half.py",),
        "f16 kernels printed without cuda_fp16.h",
    ),
    Mutant(
        "kernels-sharing-a-global-compiled-apart",
        "irkit/targets/cuda.py",
        "                if symbol not in self.mutable_globals:",
        "                if True:",
        (
            "tests/targets/test_cuda.py"
            "::test_kernels_sharing_a_mutable_global_share_a_program",
        ),
        "two kernels exchanging data through a mutable global get a copy of it "
        "each (one writes a global the other never sees)",
    ),
    Mutant(
        "program-without-its-helpers",
        "irkit/targets/cuda.py",
        "        self._part_helpers.add(name)\n        return name\n\n    def helper(",
        "        return name\n\n    def helper(",
        (
            "tests/targets/test_cuda.py"
            "::test_each_kernel_is_a_program_of_its_own_with_only_what_it_uses",
        ),
        "a kernel's program lacks the device helpers it calls (does not compile)",
    ),
    Mutant(
        "half-program-without-its-header",
        "irkit/targets/cuda.py",
        "            self._part_types.add(key)",
        "            pass",
        (
            "tests/targets/test_cuda_half.py::test_f16_is_stored_as_half_with_its_header",
        ),
        "an f16 kernel's program compiled without cuda_fp16.h",
    ),
    Mutant(
        "changed-kernel-served-from-the-cache",
        "irkit/runtime/cuda.py",
        '        "cuda-cubin", source, compiler.kind,',
        '        "cuda-cubin", source[:60], compiler.kind,',
        (
            "tests/runtime/test_cuda_runtime.py"
            "::test_each_program_is_a_cubin_of_its_own_cached_on_its_own",
        ),
        "a kernel whose text changed past its first lines gets the old cubin",
    ),
    Mutant(
        "unverified-pipeline-blames-last-pass",
        "irkit/pass_manager.py",
        "        except DiagnosticError as error:\n"
        "            Pipeline(self.passes).run(ctx, original)\n",
        "        except DiagnosticError as error:\n",
        ("tests/transforms/test_pipeline_verification.py",),
        "invalid IR blamed on the last pass, not the one that made it",
    ),
    Mutant(
        "strided-expand-wrong-inner-stride",
        "irkit/transforms/bufferize.py",
        "        running = cast(int, source_strides[source_dim])",
        "        running = 1",
        ("tests/filecheck/transforms/bufferize.mlir",),
        "an expanded strided view steps by 1 in its innermost dimension",
    ),
    Mutant(
        "cyclic-thread-tile-floor",
        TILE_GPU,
        "(AffineExpr.constant(extent) - d0).ceil_div(threads)",
        "(AffineExpr.constant(extent) - d0).floor_div(threads)",
        ("tests/properties/test_linalg_tile_for_gpu.py",),
        "a cyclic thread of a partial tile misses its last element",
    ),
    Mutant(
        "k-loop-never-tiled",
        TILE_GPU,
        "        if block_k < ranges[k]:",
        "        if False:",
        ("tests/filecheck/transforms/linalg-tile-for-gpu.mlir",),
        "a matmul's reduction runs whole in every thread (no K steps)",
    ),
    Mutant(
        "grid-fill-target-halved",
        TILE_GPU,
        "    target = _ceil_div(3 * multiprocessors, 2)",
        "    target = multiprocessors // 2",
        ("tests/properties/test_linalg_tile_for_gpu.py",),
        "grids filled to half a block per multiprocessor",
    ),
    Mutant(
        "row-max-starts-at-zero",
        "irkit/analysis/row_groups.py",
        '    "arith.maximumf": float("-inf"),',
        '    "arith.maximumf": 0.0,',
        ("tests/properties/test_linalg_tile_rows_for_gpu.py",),
        "a row maximum's partials start at 0 (wrong for negative rows)",
    ),
    Mutant(
        "row-min-starts-at-zero",
        "irkit/analysis/row_groups.py",
        '    "arith.minimumf": float("inf"),',
        '    "arith.minimumf": 0.0,',
        ("tests/properties/test_linalg_tile_rows_for_gpu.py",),
        "a row minimum's partials start at 0 (wrong for positive rows)",
    ),
    Mutant(
        "pad-growth-inverted",
        "irkit/analysis/structured.py",
        "    if prod(padded) * 100 > prod(ranges) * (100 + max_growth_percent):",
        "    if prod(padded) * 100 < prod(ranges) * (100 + max_growth_percent):",
        (
            "tests/filecheck/transforms/linalg-pad-contractions.mlir",
            "tests/filecheck/transforms/linalg-conv-to-im2col-padded.mlir",
        ),
        "padding refused where it is cheap, taken where it is dear",
    ),
    Mutant(
        "pad-extents-under-a-tile",
        "irkit/analysis/structured.py",
        "        1 if size <= step else step",
        "        step",
        (
            "tests/filecheck/transforms/linalg-pad-contractions.mlir",
            "tests/filecheck/transforms/linalg-conv-to-im2col-padded.mlir",
        ),
        "an extent smaller than its tile padded up to it",
    ),
    Mutant(
        "unit-only-unit-loops",
        UNIT,
        "    if len(units) == computation.num_loops:",
        "    if False:",
        ("tests/filecheck/transforms/linalg-fold-unit-extent-dims.mlir",),
        "an op of only unit loops loses them all",
    ),
    Mutant(
        "unit-drops-every-dimension",
        UNIT,
        "    if shape and len(dropped) == len(shape):",
        "    if False:",
        ("tests/filecheck/transforms/linalg-fold-unit-extent-dims.mlir",),
        "an operand of unit dimensions collapses to rank 0",
    ),
    Mutant(
        "unit-trailing-dims-join-first-group",
        UNIT,
        "        groups[-1] += pending",
        "        groups[0] += pending",
        ("tests/properties/test_linalg_fold_unit_extent_dims.py",),
        "trailing unit dimensions join the first group (not contiguous)",
    ),
    Mutant(
        "fusion-loses-a-loop",
        FUSE,
        "    return read == set(range(len(consumer.iterator_types)))",
        "    return True",
        ("tests/filecheck/transforms/linalg-fuse-elementwise.mlir",),
        "a broadcast fused into the reduction over its new axis",
    ),
    Mutant(
        "no-barrier-between-thread-loops",
        "irkit/transforms/convert_parallel_loops_to_gpu.py",
        "    if barrier:\n        builder.insert(BarrierOp())",
        "    if False:\n        builder.insert(BarrierOp())",
        ("tests/filecheck/transforms/convert-parallel-loops-to-gpu.mlir",),
        "no barrier after a thread loop with work after it",
    ),
    Mutant(
        "shuffle-tree-skips-the-last-step",
        "irkit/transforms/gpu_shuffle_reductions.py",
        "    while half >= 1:",
        "    while half > 1:",
        ("tests/filecheck/transforms/gpu-shuffle-reductions.mlir",),
        "the warp's last shuffle step (distance 1) is missing",
    ),
    Mutant(
        "shuffle-up-not-xor",
        "irkit/transforms/gpu_shuffle_reductions.py",
        'gpu.ShuffleOp(value, offset.result, width.result, "xor")',
        'gpu.ShuffleOp(value, offset.result, width.result, "down")',
        ("tests/filecheck/transforms/gpu-shuffle-reductions.mlir",),
        "partials exchanged by `down`: lanes past the end add their own value",
    ),
    Mutant(
        "mma-corner-epilogue-unguarded",
        MMA,
        "        if size != extent\n    )",
        "        if False\n    )",
        (MMA_PROPERTY,),
        "an epilogue over a padded product's corner runs on the padding too",
    ),
    Mutant(
        "mma-epilogue-operand-at-first-index",
        MMA,
        "                    indices[expr.position]\n",
        "                    indices[0]\n",
        (MMA_PROPERTY,),
        "an epilogue operand (a bias) is read at the row, not at its own map",
    ),
    Mutant(
        "mma-epilogue-drops-read-product",
        MMA,
        "    if not isinstance(product.owner, memref.AllocOp):\n        return True",
        "    if True:\n        return False",
        (MMA_PROPERTY,),
        "a product also returned is no longer stored when its epilogue is fused",
    ),
    Mutant(
        "diagonal-mask-bound-one-short",
        "irkit/analysis/masks.py",
        "    threshold = (-form.offset if positive else form.offset) // abs(slope)",
        "    threshold = (-form.offset if positive else form.offset) // abs(slope) - 1",
        (ATTENTION_PROPERTY,),
        "the key steps end one key early: the last row's last unmasked key is lost",
    ),
    Mutant(
        "diagonal-mask-reads-any-comparison",
        "irkit/analysis/masks.py",
        "    if form.key != -form.query:\n        return None",
        "    if False:\n        return None",
        (ATTENTION_PROPERTY,),
        "a comparison of j with i alone, or j + i, is taken as one of j - i",
    ),
    Mutant(
        "attention-grid-keeps-threads",
        ATTENTION,
        "            threads=options.threads // 2,",
        "            threads=options.threads,",
        ("tests/filecheck/transforms/linalg-fuse-attention.mlir",),
        "halved attention blocks keep the whole block's threads (idle threads)",
    ),
    Mutant(
        "online-softmax-never-rescales",
        ATTENTION,
        "        difference = arith.SubfOp(old_max, chosen.result)",
        "        difference = arith.SubfOp(chosen.result, chosen.result)",
        (ATTENTION_PROPERTY,),
        "the sum and the output keep earlier key steps' scale when the max grows",
    ),
    Mutant(
        "attention-rows-spread-with-the-wrong-stride",
        ATTENTION,
        "        [strides[0] * spread, *strides],",
        "        [strides[0], *strides],",
        (ATTENTION_PROPERTY,),
        "the row-wise steps' (BR / x) x x view of the rows overlaps itself",
    ),
    Mutant(
        "online-softmax-previous-max-kept",
        ATTENTION,
        "        return [chosen.result, factor.result, rescaled.result, new_max]",
        "        return [chosen.result, factor.result, rescaled.result, old_max]",
        (ATTENTION_PROPERTY,),
        "each step rescales from the first step's max, not the step before's",
    ),
    Mutant(
        "attention-scale-applied-twice",
        ATTENTION,
        "        if op is not chain.modifier or score_scale is None:",
        "        if True:",
        (ATTENTION_PROPERTY,),
        "a constant scale folded into q is applied to the scores again",
    ),
    Mutant(
        "ragged-keys-counted-twice",
        ATTENTION,
        "    if seen is not None:\n        _mask_seen_keys(s_shared, seen, step)",
        "    if seen is None:\n        _mask_seen_keys(s_shared, seen, step)",
        (ATTENTION_PROPERTY,),
        "the moved-back last key step adds the keys the step before took again",
    ),
    Mutant(
        "ragged-rows-written-twice",
        ATTENTION,
        "        divide(tail_out, tail_sums, tail_o, last)",
        "        divide(accumulated, l_shared, o_box, last)",
        (ATTENTION_PROPERTY,),
        "the moved-back last row tile writes rows its neighbour block writes "
        "(two writers of one element of o)",
    ),
    Mutant(
        "promoted-tile-copied-out-after-the-barrier",
        "irkit/transforms/gpu_promote_accumulators.py",
        "        Rewriter.insert_op(gpu.BarrierOp(), InsertPoint.before(following))",
        "        pass",
        (ATTENTION_PROPERTY,),
        "a workgroup tile's copy out is read by other threads with no barrier "
        "in between (the ragged attention's last row tile under an scf.if)",
    ),
    Mutant(
        "online-softmax-unsafe-max",
        ATTENTION,
        "        chosen = arith.SelectOp(masked.result, zero.result, new_max)",
        "        chosen = arith.SelectOp(masked.result, new_max, new_max)",
        (ATTENTION_PROPERTY,),
        "a row whose keys so far are all masked gets exp(-inf + inf) = NaN",
    ),
    Mutant(
        "cpu-attention-partials-wider-than-the-keys",
        ATTENTION,
        "    parts = min(tiles.keys, cpu_lanes or ROW_REDUCTION_PARTS)",
        "    parts = cpu_lanes or min(tiles.keys, ROW_REDUCTION_PARTS)",
        (
            "tests/properties/test_linalg_fuse_attention.py"
            "::test_fused_attention_in_c_matches_the_interpreter",
        ),
        "on the CPU, key steps shorter than a vector get a vector of partials: "
        "the row max and sum read past the step's scores",
    ),
    Mutant(
        "nested-pack-on-the-heap",
        "irkit/transforms/linalg_pack_operands.py",
        "    if nested and elements * element > MAX_STACK_BYTES:\n        return False",
        "    if False:\n        return False",
        ("tests/filecheck/transforms/linalg-pack-operands-nested.mlir",),
        "a matmul inside a parallel loop whose buffer passes the stack limit is "
        "packed into a heap buffer: the loop's malloc keeps OpenMP off it",
    ),
    Mutant(
        "row-lanes-drop-the-tail",
        ROW_GROUPS,
        "    if whole < length:\n        # The row's last",
        "    if False:\n        # The row's last",
        (ROW_LANES_PROPERTY,),
        "a row that the lanes do not divide loses its last elements: they fall "
        "outside the lanes' view and out of the row's max",
    ),
    Mutant(
        "row-lanes-for-float-sums",
        ROW_GROUPS,
        '        "arith.maximumf",\n        "arith.minimumf",\n        "arith.addi",',
        '        "arith.maximumf",\n        "arith.minimumf",\n        "arith.addf",\n'
        '        "arith.addi",',
        (ROW_LANES_PROPERTY,),
        "float row sums are split into lanes as if exact: the unfused "
        "softmax's and layer norm's sums round differently from the program's",
    ),
    Mutant(
        "attention-sum-from-any-value",
        ATTENTION_CHAIN,
        "_require(sum_fill is not None and _fills_zero(sum_fill), ",
        "_require(sum_fill is not None, ",
        ("tests/filecheck/transforms/linalg-fuse-attention.mlir",),
        "a sum starting at 1 is fused, and rescaled as if it started at 0",
    ),
    Mutant(
        "block-prologue-fills-the-tile-not-the-accumulator",
        TILE_GPU,
        "        initial.operands = [*prologue.inputs, tiled.operands[-1]]",
        "        initial.operands = [*prologue.inputs, operands[-1]]",
        ("tests/filecheck/transforms/linalg-tile-for-gpu-block-level.mlir",),
        "the accumulator is never initialised (nor copied in)",
    ),
    Mutant(
        "mma-wrong-fragment-column",
        MMA,
        "                    yield slot, mi * 16 + 8 * (e // 2), ni * 8 + e % 2",
        "                    yield slot, mi * 16 + 8 * (e // 2), ni * 8 + e // 2",
        (MMA_PROPERTY,),
        "a planted wrong fragment index: accumulator elements 1 and 2 are "
        "stored to each other's columns",
    ),
    Mutant(
        "mma-tf32-wrong-a-fragment-row",
        MMA,
        "                row = lb.add_index(self.warp_m, self.group, mi * 16 + 8 * (e % 2))",
        "                row = lb.add_index(self.warp_m, self.group, mi * 16 + 8 * (e // 2))",
        (MMA_TF32_PROPERTY,),
        "a planted wrong TF32 fragment index: A's elements 1 and 2 are read "
        "from each other's rows (row g + 8 for column c + 4 and back)",
    ),
    Mutant(
        "mma-tf32-wrong-b-fragment-k",
        MMA,
        "                k = lb.add_index(self.lane_in_group, kk * 8 + 4 * e)",
        "                k = lb.add_index(self.lane_in_group, kk * 8 + e)",
        (MMA_TF32_PROPERTY,),
        "B's second element is read from k = c + 1 instead of c + 4: rows of "
        "B multiply the wrong columns of A",
    ),
    Mutant(
        "mma-tf32-emulator-skips-rounding",
        "irkit/interpreter/mma.py",
        "        a_fragments, b_fragments = to_tf32(a_fragments), to_tf32(b_fragments)",
        "        pass",
        (
            "tests/interpreter/test_mma.py::test_one_warp_multiplies_tf32_as_ptx_lays_fragments_out",
        ),
        "the emulator multiplies the f32 operands as they are: what it checks "
        "is not what the tensor cores compute after cvt.rna",
    ),
    Mutant(
        "mma-b-fragments-not-transposed",
        MMA,
        "                    transpose=k_major,",
        "                    transpose=False,",
        (MMA_PROPERTY,),
        "a k-major B is loaded as if n-major: each fragment holds B^T's elements",
    ),
    Mutant(
        "mma-wait-leaves-the-step-in-flight",
        MMA,
        "        lb.add(CpAsyncWaitOp(self.prefetch_distance() - 1))",
        "        lb.add(CpAsyncWaitOp(self.prefetch_distance()))",
        (MMA_PROPERTY,),
        "a step's tiles are read before their copies complete",
    ),
    Mutant(
        "mma-no-barrier-before-reading-tiles",
        MMA,
        "        lb.add(BarrierOp())\n        self._prefetch(lb, step, self.prefetch",
        "        self._prefetch(lb, step, self.prefetch",
        (MMA_PROPERTY,),
        "threads read tiles other threads copied with no barrier between",
    ),
    Mutant(
        "mma-warp-rows-divide-by-the-wrong-count",
        MMA,
        "        self.warp_m = kb.mul(kb.div(warp, tiles.warps_n), tiles.warp_m)",
        "        self.warp_m = kb.mul(kb.div(warp, tiles.warps_m), tiles.warp_m)",
        (MMA_PROPERTY,),
        "a warp's row of the grid divides by the rows, not the columns: equal "
        "on 2 x 2 warps, overlapping tiles on 4 x 1",
    ),
    Mutant(
        "dynamic-shared-memory-not-asked-for",
        "irkit/targets/launch_plan.py",
        "            shared += dynamic_shared_bytes.get(kernel, 0)",
        "            shared += 0",
        ("tests/filecheck/targets/cuda/dynamic-shared.mlir",),
        "a kernel whose buffers are dynamic shared memory launched with none",
    ),
    Mutant(
        "workgroup-buffers-unaligned",
        "irkit/analysis/memory.py",
        "        total = -(-total // WORKGROUP_ALIGNMENT) * WORKGROUP_ALIGNMENT",
        "        pass",
        ("tests/filecheck/targets/cuda/dynamic-shared.mlir",),
        "a buffer after an odd-sized one starts off a 16-byte boundary, where "
        "16-byte loads and cp.async fault",
    ),
    Mutant(
        "widened-operands-not-fused",
        FUSE,
        "                or is_widening_of_input(producer, result_index)",
        "                or False",
        (
            "tests/properties/test_linalg_fuse_elementwise.py",
            "tests/filecheck/transforms/linalg-fuse-elementwise.mlir",
        ),
        "a half-precision matmul's widened operands stay materialised in f32, "
        "and the matmul never reaches the tensor cores",
    ),
    Mutant(
        "any-single-op-counts-as-widening",
        FUSE,
        "        or conversion.name not in _WIDENING_OPS",
        '        or conversion.name == "linalg.yield"',
        ("tests/filecheck/transforms/linalg-fuse-elementwise.mlir",),
        "a narrowing (or any one op) is fused into a matmul through a projected "
        "map and recomputed for every read",
    ),
    Mutant(
        "init-built-in-output-though-read-later",
        "irkit/transforms/bufferize.py",
        "                if not self._read_after(init, self.position[op]):",
        "                if True:",
        ("tests/filecheck/transforms/bufferize.mlir",),
        "an init read after its op is built in its result's output buffer: the "
        "op is then refused in place, and the result leaves the output for a "
        "temporary and is copied back (two copies where one is needed)",
    ),
    Mutant(
        "half-attention-fused-beside-tensor-cores",
        "irkit/transforms/linalg_fuse_attention.py",
        "            if options.half_products_on_tensor_cores and _takes_tensor_cores(chain):",
        "            if False:",
        ("tests/filecheck/transforms/linalg-fuse-attention-half.mlir",),
        "half chains are fused where their products would run on tensor cores "
        "unfused: the fused kernel's SIMT products were 2.8x slower on the H100",
    ),
    Mutant(
        "scratch-read-after-its-launch-promoted",
        "irkit/transforms/gpu_promote_accumulators.py",
        "                or isinstance(use.operation, DeallocOp)",
        "                or True",
        (
            "tests/properties/test_gpu_promote_accumulators.py",
            "tests/filecheck/transforms/gpu-promote-accumulators.mlir",
        ),
        "a buffer a later launch reads is promoted across the launch that "
        "writes it: its stores are dropped and the later launch reads nothing",
    ),
    Mutant(
        "accumulator-tile-past-max-elements",
        "irkit/transforms/gpu_promote_accumulators.py",
        "        if prod(shape) > self.max_elements:",
        "        if False:",
        ("tests/properties/test_gpu_promote_accumulators.py",),
        "thread tiles larger than max-elements are promoted to private memory",
    ),
    Mutant(
        "row-maxnumf-starts-at-plus-inf",
        "irkit/analysis/row_groups.py",
        '    "arith.maxnumf": float("-inf"),',
        '    "arith.maxnumf": float("inf"),',
        ("tests/properties/test_linalg_tile_rows_for_gpu.py",),
        "a maxnumf row reduction's partials start at +inf (every row's max is +inf)",
    ),
    Mutant(
        "blocked-thread-tiles-overlap-by-one",
        "irkit/transforms/gpu_promote_accumulators.py",
        "            blocked = coefficient >= stride * size",
        "            blocked = coefficient >= stride * size - 1",
        (
            "tests/properties/test_gpu_promote_accumulators.py",
            "tests/filecheck/transforms/gpu-promote-accumulators.mlir",
        ),
        "blocked thread tiles that share their edge element are promoted: each "
        "thread's copy out overwrites the other's update",
    ),
    Mutant(
        "cyclic-thread-tiles-overlap-by-one",
        "irkit/transforms/gpu_promote_accumulators.py",
        "            cyclic = count is not None and stride >= coefficient * count",
        "            cyclic = count is not None and stride >= coefficient * count - 1",
        (
            "tests/properties/test_gpu_promote_accumulators.py",
            "tests/filecheck/transforms/gpu-promote-accumulators.mlir",
        ),
        "cyclic thread tiles a thread count minus one apart are promoted: the "
        "last thread's first element is the first thread's second",
    ),
    Mutant(
        "fusion-over-a-writer-of-its-input",
        TILE_FUSE,
        "        if between.writes & effects.reads or between.touches(effects.writes):",
        "        if between.touches(effects.writes):",
        (TILE_FUSE_PROPERTY,),
        "a producer or epilogue moves over an op that writes what it reads "
        "(it reads the new contents before they are written, or the old after)",
    ),
    Mutant(
        "unknown-effects-only-read",
        TILE_FUSE,
        "    return _Effects(touched, set(touched))",
        "    return _Effects(touched, set())",
        (TILE_FUSE_PROPERTY,),
        "an op of unknown memory effects (a call, a loop of stores) is taken to "
        "only read its buffers: fused ops move over it",
    ),
    Mutant(
        "contraction-of-any-reduction",
        "irkit/analysis/structured.py",
        "        if not isinstance(multiply, multiply_type) or not isinstance(add, add_type):",
        "        if not isinstance(multiply, multiply_type):",
        (
            "tests/properties/test_linalg_pad_contractions.py::test_only_sums_of_products_are_padded",
        ),
        "a product folded by max, min or mul is a contraction: zero padding "
        "adds max(acc, 0) (or acc * 0) steps to it",
    ),
    Mutant(
        "hoisted-beside-a-call",
        HOIST,
        "    if not all(_memory_is_visible(op) for op in inner):\n        return []",
        "    if False:\n        return []",
        (HOIST_PROPERTY,),
        "an accumulator is carried in registers across a call or copy that "
        "writes it (its writes are lost, or it reads a stale value)",
    ),
    Mutant(
        "hoisted-load-after-its-store",
        HOIST,
        "        if len(loads) != 1 or not loads[0].is_before_in_block(store):",
        "        if len(loads) != 1:",
        (HOIST_PROPERTY,),
        "a load that follows the store of its element is hoisted: it reads "
        "the previous iteration's value, not the one just stored",
    ),
    Mutant(
        "shared-tile-written-in-its-forall",
        "irkit/transforms/gpu_promote_shared.py",
        "        if not accesses or root_buffer(tile) in written:",
        "        if not accesses:",
        ("tests/filecheck/transforms/gpu-promote-shared.mlir",),
        "a tile the same thread forall writes is staged in workgroup memory: "
        "threads read the copy from before the forall, not the new values",
    ),
    Mutant(
        "accumulator-beside-unknown-effects",
        "irkit/transforms/gpu_promote_accumulators.py",
        "            if loop.res or not _ops_are_visible(loop):",
        "            if loop.res:",
        ("tests/filecheck/transforms/gpu-promote-accumulators.mlir",),
        "a tile is promoted across a loop holding an op whose memory effects "
        "the pass does not see (a copy, a call)",
    ),
    Mutant(
        "accumulator-of-a-zero-trip-loop",
        "irkit/transforms/gpu_promote_accumulators.py",
        "    if step <= 0 or upper <= lower:\n        return None  # may run zero times",
        "    if step <= 0:\n        return None  # may run zero times",
        ("tests/filecheck/transforms/gpu-promote-accumulators.mlir",),
        "a loop that runs no iteration gains copies of the tile in and out",
    ),
    Mutant(
        "collapse-by-the-inputs-order-only",
        "irkit/transforms/linalg_collapse_dims.py",
        "        _adjacent(map_, loop) for map_ in _maps(op)\n    )",
        "        _adjacent(map_, loop) for map_ in _maps(op)[: len(op.inputs)]\n    )",
        ("tests/filecheck/transforms/linalg-collapse-dims.mlir",),
        "loops joined that a second output reads in another order: that "
        "output's elements land transposed",
    ),
    Mutant(
        "collapse-parallel-with-reduction",
        "irkit/transforms/linalg_collapse_dims.py",
        "    return kinds[loop].data == kinds[loop + 1].data and all(",
        "    return all(",
        ("tests/filecheck/transforms/linalg-collapse-dims.mlir",),
        "a parallel loop joinable with a reduction loop: redundant, as the "
        "output, which every eligible op has, reads a parallel loop and never "
        "a reduction loop, so the two are never adjacent in its map",
        equivalent=True,
    ),
    Mutant(
        "row-group-joins-a-reader-of-other-rows",
        "irkit/analysis/row_groups.py",
        "    return not any(\n        may_alias(a, b) for a in _broadcast_reads(candidate) for b in written\n    )",
        "    return True or not any(\n        may_alias(a, b) for a in _broadcast_reads(candidate) for b in written\n    )",
        (
            "tests/properties/test_linalg_tile_rows.py"
            "::test_ops_reading_other_rows_results_stay_out_of_the_group",
        ),
        "an op reading, outside its row, what the group writes joins the "
        "group: row 0 reads sums of rows not yet computed",
    ),
    Mutant(
        "im2col-tap-row-ignores-the-kernel-width",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "    tap_row = ib.rem(ib.div(k, kw_extent), kh_extent)",
        "    tap_row = ib.rem(k, kh_extent)",
        ("tests/properties/test_linalg_conv_to_im2col.py",),
        "the kernel row of a column is taken from k without dividing out the "
        "kernel's width: wrong taps wherever KW > 1",
    ),
    Mutant(
        "im2col-dilation-ignored",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "    row = ib.window(out_row, shape.strides[0], tap_row, shape.dilations[0])",
        "    row = ib.window(out_row, shape.strides[0], tap_row, 1)",
        ("tests/properties/test_linalg_conv_to_im2col.py",),
        "a dilated convolution's rows are gathered as if undilated",
    ),
    Mutant(
        "im2col-row-tile-origin-ignored",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "    out_row = ib.add(arith.AddiOp(ib.scaled(tile, rows), within))",
        "    out_row = within",
        (
            "tests/properties/test_linalg_conv_to_im2col.py",
            "tests/filecheck/transforms/linalg-conv-to-im2col-rows.mlir",
        ),
        "every row tile gathers the first tile's output rows: the row-tiled "
        "form repeats the first rows of the image",
    ),
    Mutant(
        "pack-producer-batch-index-not-offset",
        "irkit/transforms/linalg_pack_operands.py",
        "    offset_indices(element.body.block, origins)",
        "",
        (
            "tests/properties/test_linalg_pack_operands.py",
            "tests/filecheck/transforms/linalg-pack-operands-producers.mlir",
        ),
        "a gather moved into the batch loop computes the first matrix's "
        "columns in every iteration",
    ),
    Mutant(
        "pack-producer-moved-past-a-write",
        "irkit/transforms/linalg_pack_operands.py",
        "        elif _writes_to_any(between, loaded):",
        "        elif False:",
        ("tests/filecheck/transforms/linalg-pack-operands-producers.mlir",),
        "a gather moves past an op writing what it reads, and reads the new values",
    ),
    Mutant(
        "pack-producer-merged-batch-split-outer-first",
        "irkit/transforms/linalg_pack_operands.py",
        "        for position, dim in enumerate(reversed(dims)):",
        "        for position, dim in enumerate(dims):",
        ("tests/filecheck/transforms/linalg-pack-operands-producers.mlir",),
        "a merged batch index (images x tiles) is split with the outer loop "
        "fastest: the wrong image's tile is gathered",
    ),
    Mutant(
        "pack-shared-lhs-segments-overlap",
        "irkit/transforms/linalg_pack_operands.py",
        "            buffer, rows.offset * matmul.depth, [rows.size // mr, matmul.depth, mr], at",
        "            buffer, 0, [rows.size // mr, matmul.depth, mr], at",
        (
            "tests/properties/test_linalg_pack_operands.py"
            "::test_row_tiled_gathers_run_per_matrix",
            "tests/properties/test_linalg_pack_operands.py"
            "::test_packing_batch_matmuls_keeps_meaning",
        ),
        "weights shared by a batch are packed once, every row segment's "
        "panels at the start of the buffer: the row tail overwrites the "
        "first rows' panels",
    ),
    Mutant(
        "pack-slot-shared-by-workers",
        "irkit/transforms/linalg_pack_operands.py",
        "        slots, [slot] + [0] * (len(shape) - 1), [1, *shape[1:]], [1] * len(shape), at",
        "        slots, [0] * len(shape), [1, *shape[1:]], [1] * len(shape), at",
        ("tests/filecheck/transforms/linalg-pack-operands-producers.mlir",),
        "every worker gathers its columns into the first slot: parallel "
        "iterations overwrite each other's columns (a race the sequential "
        "interpreter does not show)",
    ),
    Mutant(
        "pack-worker-runs-skip-the-last-matrix",
        "irkit/transforms/linalg_pack_operands.py",
        "    shifted = worker if not offset else _added(worker, offset, at)",
        "    shifted = worker",
        (
            "tests/properties/test_linalg_pack_operands.py"
            "::test_worker_runs_cover_the_batch_in_order",
            "tests/filecheck/transforms/linalg-pack-operands-producers.mlir",
            "tests/properties/test_linalg_pack_operands.py"
            "::test_row_tiled_columns_in_worker_slots_keep_meaning",
        ),
        "each worker's run ends where it starts: no matrix of a batch larger "
        "than the workers is computed",
    ),
    Mutant(
        "pack-worker-batch-split-outer-first",
        "irkit/transforms/linalg_pack_operands.py",
        "    for position, extent in enumerate(reversed(extents)):",
        "    for position, extent in enumerate(extents):",
        (
            "tests/properties/test_linalg_pack_operands.py"
            "::test_split_index_is_row_major",
            "tests/filecheck/transforms/linalg-pack-operands-producers.mlir",
        ),
        "a worker's matrix index is split with the images fastest: the "
        "gather and the product of a matrix take another image's tile",
    ),
    Mutant(
        "pack-split-tail-drops-a-column",
        "irkit/transforms/linalg_pack_operands.py",
        "        split.append(Segment(segment.offset + whole, segment.size - whole, 0))",
        "        split.append(Segment(segment.offset + whole, segment.size - whole - 1, 0))",
        (
            "tests/properties/test_linalg_pack_operands.py"
            "::test_packing_keeps_meaning_on_random_shapes",
        ),
        "a column tail split into vectors and the rest loses its last column",
    ),
    Mutant(
        "im2col-row-tiled-dilation-ignored",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "    in_row = ib.window(out_row, shape.strides[0], tap_row, shape.dilations[0])",
        "    in_row = ib.window(out_row, shape.strides[0], tap_row, 1)",
        (
            "tests/properties/test_linalg_conv_to_im2col.py",
            "tests/filecheck/transforms/linalg-conv-to-im2col-rows.mlir",
        ),
        "a dilated convolution's rows are gathered as if undilated in the "
        "row-tiled form",
    ),
    Mutant(
        "window-read-at-the-output-position",
        "irkit/transforms/linalg_extract_windows.py",
        "            indices = emitter.indices(maps[index])",
        "            indices = emitter.indices(maps[-1])",
        ("tests/properties/test_linalg_extract_windows.py",),
        "the input is read at the output's position, not through its window",
    ),
    Mutant(
        "window-extracted-though-its-loop-is-lost",
        "irkit/transforms/linalg_extract_windows.py",
        "        if read_bare != set(range(loops)):",
        "        if False:",
        ("tests/filecheck/transforms/linalg-extract-windows.mlir",),
        "a window operand that alone reads a loop bare is removed: the loop's "
        "extent is lost and the op no longer verifies",
    ),
    Mutant(
        "packed-k-remainder-dropped",
        "irkit/transforms/linalg_pack_operands.py",
        "    steps = [(0, full, blocking.kc), (full, depth - full, depth - full)]",
        "    steps = [(0, full, blocking.kc)]",
        (
            "tests/properties/test_linalg_pack_operands.py",
            "tests/filecheck/transforms/linalg-pack-operands.mlir",
        ),
        "the K steps that no whole KC step covers are never computed",
    ),
    Mutant(
        "packed-rhs-chunk-offset-dropped",
        "irkit/transforms/linalg_pack_operands.py",
        "            rhs_buffer, _scaled(cc, depth, at), [chunk // nr, depth, nr], at",
        "            rhs_buffer, _scaled(cc, 0, at), [chunk // nr, depth, nr], at",
        ("tests/properties/test_linalg_pack_operands.py",),
        "every parallel column chunk reads the first chunk's packed B panels",
    ),
    Mutant(
        "in-place-rhs-chunk-offset-dropped",
        "irkit/transforms/linalg_pack_operands.py",
        "        in_place = _block(rhs_block, [0, cc], [depth, chunk], at)",
        "        in_place = _block(rhs_block, [0, 0], [depth, chunk], at)",
        (
            "tests/properties/test_linalg_pack_operands.py",
            "tests/filecheck/transforms/linalg-pack-operands.mlir",
        ),
        "every parallel column chunk reads B in place from its first columns",
    ),
    Mutant(
        "aligned-alloc-frees-the-aligned-pointer",
        "irkit/targets/cstyle_memory.py",
        "    base = emitter.scope.allocation_bases.get(op.operands[0], view.pointer)",
        "    base = view.pointer",
        ("tests/filecheck/targets/c/alloc.mlir",),
        "`free` is given the rounded-up address instead of what `malloc` "
        "returned (heap corruption)",
    ),
    Mutant(
        "narrow-lanes-not-dividing",
        "irkit/transforms/utils/tiling.py",
        "        if extent % lanes == 0:",
        "        if extent % (lanes // 2 or 1) == 0:",
        (
            "tests/filecheck/transforms/linalg-vectorize-micro-kernels.mlir",
            "tests/properties/test_linalg_pack_operands.py",
        ),
        "a micro-kernel's vectors need not divide its columns: the last "
        "vector reads and writes past them",
    ),
    Mutant(
        "batch-matrix-index-dropped",
        "irkit/transforms/linalg_pack_operands.py",
        "    offsets: list[SSAValue | int] = [batch.get(loop, 0) for loop in loops]",
        "    offsets: list[SSAValue | int] = [0 for loop in loops]",
        (
            "tests/properties/test_linalg_pack_operands.py",
            "tests/filecheck/transforms/linalg-pack-operands.mlir",
        ),
        "every matrix of a batch matmul reads and writes the first matrix",
    ),
    Mutant(
        "lhs-panel-read-untransposed",
        "irkit/transforms/linalg_pack_operands.py",
        "    read = (d0, d2, d1) if outer_first else (d1, d0, d2)",
        "    read = (d0, d1, d2) if outer_first else (d1, d0, d2)",
        (
            "tests/properties/test_linalg_pack_operands.py",
            "tests/filecheck/transforms/linalg-pack-operands.mlir",
        ),
        "a row-major tile is copied into its micro-panels without the "
        "transposition to K-major: the kernel reads rows as K steps",
    ),
    Mutant(
        "register-tile-tiled-again",
        "irkit/transforms/linalg_tile_contractions.py",
        "        if isinstance(op, GenericOp) and is_contraction(op) and not is_register_tile(op)",
        "        if isinstance(op, GenericOp) and is_contraction(op)",
        ("tests/filecheck/transforms/linalg-tile-contractions.mlir",),
        "a micro-kernel sized for the registers is tiled again by the "
        "contraction tiling",
    ),
    Mutant(
        "im2col-padding-drops-the-last-row",
        "irkit/transforms/utils/padding.py",
        "        extent = constant(padding.extent[dim])",
        "        extent = constant(padding.extent[dim] - 1)",
        (
            "tests/properties/test_linalg_conv_to_im2col.py",
            "tests/filecheck/transforms/linalg-conv-to-im2col.mlir",
            "tests/filecheck/transforms/linalg-extract-windows.mlir",
        ),
        "the source's last row and column read as padding (a gather's, a max pool's)",
    ),
    Mutant(
        "im2col-padding-reads-unclamped",
        "irkit/transforms/utils/padding.py",
        "        source_indices[dim] = add(arith.SelectOp(dim_inside, position, "
        "constant(0)))",
        "        source_indices[dim] = position",
        (
            "tests/properties/test_linalg_conv_to_im2col.py",
            "tests/filecheck/transforms/linalg-conv-to-im2col.mlir",
        ),
        "the gather reads outside the source where the padding is selected "
        "(an out-of-bounds load on the GPU)",
    ),
    Mutant(
        "im2col-margin-read-unclamped",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "        return self.add(arith.MinUIOp(index, last)), inside",
        "        return index, inside",
        (
            "tests/filecheck/transforms/linalg-conv-to-im2col-padded.mlir",
            "tests/properties/test_conv_epilogues.py",
        ),
        "the gather reads pixels and taps past the convolution's for the "
        "columns' margin (out of bounds), rather than selecting zero there",
    ),
    Mutant(
        "im2col-columns-first",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "        body = _swapped_body(op, rewriter)\n",
        "        body = _swapped_body(op, rewriter)\n"
        "        weights_value, columns = columns, weights_value\n"
        "        maps[0], maps[1] = maps[1], maps[0]\n"
        "        body.block.args[0].replace_all_uses_with(body.block.args[1])\n",
        (
            "tests/properties/test_conv_epilogues.py::"
            "test_a_half_convolution_runs_on_tensor_cores",
        ),
        "the columns as the matmul's first operand: an f16 convolution "
        "misses the tensor cores (and here reads one operand twice)",
    ),
    Mutant(
        "epilogue-tile-past-the-corner-negative",
        TILE_GPU,
        "                size = _at_least_zero(\n"
        "                    _clamped_size(\n"
        "                        tile.offset, plan.block[loop], extents[position], "
        "insertion\n"
        "                    ),\n"
        "                    insertion,\n"
        "                )",
        "                size = _clamped_size(\n"
        "                    tile.offset, plan.block[loop], extents[position], "
        "insertion\n"
        "                )",
        (
            "tests/filecheck/transforms/linalg-tile-for-gpu-fusion.mlir",
            "tests/properties/test_conv_epilogues.py",
        ),
        "a block wholly in a padded product's margin gets a negative epilogue tile",
    ),
    Mutant(
        "epilogue-tile-starts-past-the-buffer",
        TILE_GPU,
        "                offset = _at_most(tile.offset, extents[position] - 1, "
        "insertion)",
        "                offset = _at_most(tile.offset, extents[position], insertion)",
        ("tests/filecheck/transforms/linalg-tile-for-gpu-fusion.mlir",),
        "an empty epilogue tile past the corner is a view starting outside its buffer",
    ),
    Mutant(
        "recompute-broadcast-into-a-reduction",
        FUSE,
        "            and _all_parallel(consumer)\n",
        "",
        ("tests/filecheck/transforms/linalg-fuse-elementwise-broadcasts.mlir",),
        "a producer read broadcast by a reduction is recomputed in its body "
        "(a matmul would lose its multiply-accumulate form)",
    ),
    Mutant(
        "slice-before-expand-cuts-a-group",
        "irkit/transforms/utils/reshapes.py",
        "                offsets[dim] != 0 or strides[dim] != 1 or sizes[dim] != "
        "expanded[dim]\n",
        "                False\n",
        ("tests/filecheck/transforms/linalg-fold-unit-extent-dims.mlir",),
        "a slice cutting a split group is taken before the expand, as if the "
        "group were whole",
    ),
    Mutant(
        "im2col-strided-1x1-taken-as-pointwise",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "        return self.kernel == (1, 1) and self.strides == (1, 1)",
        "        return self.kernel == (1, 1)",
        ("tests/filecheck/transforms/linalg-conv-to-im2col.mlir",),
        "a strided 1x1 convolution reads its input as if every pixel were an "
        "output pixel",
    ),
    Mutant(
        "vector-chunks-read-the-first-columns",
        VECTORIZE,
        "            place[kernel.vector_loop] = chunk * kernel.lanes",
        "            place[kernel.vector_loop] = 0",
        (
            VECTORIZE_PROPERTY,
            "tests/filecheck/transforms/linalg-vectorize-micro-kernels.mlir",
        ),
        "every vector of a micro-kernel row loads, accumulates and stores the "
        "row's first VL columns: the other columns keep their old values",
    ),
    Mutant(
        "vector-rows-share-one-broadcast",
        VECTORIZE,
        "        if lhs_key not in broadcasts:",
        "        if not broadcasts:",
        (
            VECTORIZE_PROPERTY,
            "tests/filecheck/transforms/linalg-vectorize-micro-kernels.mlir",
        ),
        "every accumulator row is multiplied by the first row's lhs element",
    ),
    Mutant(
        "vector-accumulators-beside-an-aliasing-input",
        VECTORIZE,
        "    if any(may_alias(value, output) for value in generic.inputs):",
        "    if False:",
        ("tests/filecheck/transforms/linalg-vectorize-micro-kernels.mlir",),
        "a micro-kernel whose input may be its output keeps the output in "
        "registers across the K loop: its reads of that input miss the updates",
    ),
    Mutant(
        "fma-rounded-twice",
        "irkit/interpreter/special.py",
        "        to_odd = np.where(inexact & even, towards, total)",
        "        to_odd = total",
        ("tests/interpreter/test_vector.py",),
        "the interpreter's fma rounds the f64 sum to f32 after rounding it to "
        "f64: a tie made by the first rounding goes the wrong way",
    ),
    Mutant(
        "vector-broadcast-fills-one-lane",
        "irkit/targets/cstyle_vector.py",
        '    emitter.declare(op.results[0], "{" + ", ".join([source] * lanes) + "}", op)',
        '    emitter.declare(op.results[0], "{" + source + "}", op)',
        (
            "tests/filecheck/targets/c/vector.mlir",
            "tests/properties/test_linalg_vectorize_micro_kernels.py"
            "::test_vectorized_matmuls_run_in_c",
        ),
        "a broadcast sets the first lane and zeroes the others: every column "
        "but the first of each vector gets no product",
    ),
    Mutant(
        "c-exp-overflows-one-ulp-early",
        C_MATH,
        '_EXP_OVERFLOW = "0x1.62e42ep+6f"',
        '_EXP_OVERFLOW = "0x1.62e42cp+6f"',
        C_MATH_TESTS,
        "exp of the largest input with a finite result is infinity",
    ),
    Mutant(
        "c-exp-scales-by-one-power-of-two",
        C_MATH,
        '"int32_t half = k / 2;",',
        '"int32_t half = 0;",',
        C_MATH_TESTS,
        "2^n as one float: results near overflow and in the denormal range "
        "come out wrong",
    ),
    Mutant(
        "c-tanh-polynomial-past-its-range",
        C_MATH,
        '_TANH_SMALL = "0.625f"',
        '_TANH_SMALL = "1.5f"',
        C_MATH_TESTS,
        "tanh's odd polynomial used where it is not accurate",
    ),
    Mutant(
        "c-erf-tail-loses-its-sign",
        C_MATH,
        '        "large = copysignf(large, x);",\n',
        "",
        C_MATH_TESTS,
        "erf(x) for x <= -1 is positive",
    ),
    Mutant(
        "c-exp-drops-nan",
        C_MATH,
        '"return x != x ? x + x : result;",',
        '"return result;",',
        C_MATH_TESTS,
        "exp(NaN) is a number",
    ),
    Mutant(
        "c-simd-across-inner-loops",
        "irkit/targets/cstyle_control.py",
        'simd = " simd" if collapse and straight else ""',
        'simd = " simd" if collapse else ""',
        ("tests/filecheck/targets/c/loops.mlir",),
        "a nest holding loops (rows with stack buffers) is vectorised across "
        "its outer iterations",
    ),
    Mutant(
        "c-helper-dependencies-not-printed",
        "irkit/targets/cstyle.py",
        "            for dependency in HELPER_DEPENDENCIES.get(kind, ()):",
        "            for dependency in ():",
        ("tests/filecheck/targets/c/math.mlir",),
        "tanh and erf call an exp helper that is not printed",
    ),
    Mutant(
        "wgmma-copy-unswizzled",
        MMA,
        "            builder.indices([stage, row, self._swizzled_column(builder, row, column)]),",
        "            builder.indices([stage, row, builder.mul(column, self.shape.chunk)]),",
        (MMA_WGMMA_PROPERTY,),
        "a planted wrong swizzle: A's (and an n-major B's) chunks are copied "
        "where they are, the tensor cores read them permuted",
    ),
    Mutant(
        "wgmma-panel-swizzled-by-panel",
        MMA,
        "                [stage, panel, k, self._swizzled_column(builder, k, column)]",
        "                [stage, panel, k, self._swizzled_column(builder, panel, column)]",
        (MMA_WGMMA_PROPERTY,),
        "a k-major B's chunks are permuted by their panel, not their row k",
    ),
    Mutant(
        "wgmma-wrong-accumulator-layout",
        MMA,
        "            yield i, 8 * ((i // 2) % 2), 8 * (i // 4) + i % 2",
        "            yield i, 8 * (i % 2), 8 * (i // 4) + (i // 2) % 2",
        (MMA_WGMMA_PROPERTY,),
        "a planted wrong D layout: accumulator elements 1 and 2 are stored to "
        "each other's rows and columns",
    ),
    Mutant(
        "wgmma-wrong-descriptor-advance",
        MMA,
        "            k_offset = kk * depth\n",
        "            k_offset = kk * depth // 2\n",
        (MMA_WGMMA_PROPERTY,),
        "a planted wrong descriptor advance: each 16-deep slice starts 16 "
        "bytes further along the rows instead of 32, so slices overlap",
    ),
    Mutant(
        "wgmma-last-group-left-in-flight",
        MMA,
        "            kb.add(WarpgroupWaitOp(0, [self.acc]))",
        "            kb.add(WarpgroupWaitOp(1, [self.acc]))",
        (MMA_WGMMA_PROPERTY,),
        "the last step's products are never retired before the accumulators are read",
    ),
    Mutant(
        "wgmma-no-barrier-before-the-products",
        MMA,
        "        # buffers) before any thread reads or refills a buffer.\n"
        "        lb.add(BarrierOp())\n",
        "        # buffers) before any thread reads or refills a buffer.\n",
        (MMA_WGMMA_PROPERTY,),
        "the tensor cores read tiles other threads copied with no barrier between",
    ),
    Mutant(
        "wgmma-prefetch-over-running-products",
        MMA,
        "        return self.tiles.stages - 1 - self.products_in_flight()",
        "        return self.tiles.stages - 1",
        (MMA_WGMMA_PROPERTY,),
        "the copies run a step further ahead, into the buffer whose products "
        "another warpgroup may still be running",
    ),
    Mutant(
        "wgmma-previous-products-left-running",
        MMA,
        "        return 1 if self.tiles.stages >= 3 else 0",
        "        return 2 if self.tiles.stages >= 3 else 0",
        (MMA_WGMMA_PROPERTY,),
        "two groups left in flight: the copies overwrite a buffer the "
        "products two steps back may still read",
    ),
    Mutant(
        "wgmma-tf32-k-advance-of-16-bit-products",
        MMA,
        "        depth = warpgroup_k(self.shape.element)\n",
        "        depth = 16\n",
        (MMA_TF32_WGMMA_PROPERTY,),
        "a planted wrong K advance for TF32: products 16 f32 (64 bytes) apart "
        "and half as many, so half of each step's K is never multiplied",
    ),
    Mutant(
        "wgmma-tf32-b-copied-untransposed",
        MMA,
        "                (builder.add_index(k0, k), builder.add_index(self.n0, n)),",
        "                (builder.add_index(self.n0, n), builder.add_index(k0, k)),",
        (MMA_TF32_WGMMA_PROPERTY,),
        "a planted wrong transpose: a k-major f32 B is read as if stored "
        "n-major, so its tile holds B's transpose",
    ),
    Mutant(
        "wgmma-tf32-transposed-copy-swizzled-by-k",
        MMA,
        "                self._swizzled_column(builder, n, builder.div(k, chunk)),",
        "                self._swizzled_column(builder, k, builder.div(k, chunk)),",
        (MMA_TF32_WGMMA_PROPERTY,),
        "the transposing copies permute a row's chunks by their k, not the "
        "row n the tensor cores swizzle by",
    ),
    Mutant(
        "wgmma-emulator-rounds-tf32",
        "irkit/interpreter/mma.py",
        "        a_matrix = truncate_to_tf32(a_matrix.astype(np.float32))",
        "        a_matrix = to_tf32(a_matrix.astype(np.float32))",
        (MMA_WARPGROUP_EMULATOR,),
        "the emulator rounds TF32 operands as cvt.rna does; the tensor cores "
        "truncate what they read from shared memory",
    ),
    Mutant(
        "wgmma-tf32-printed-with-16-bit-k",
        "irkit/targets/cuda_mma.py",
        '        f"wgmma.mma_async.sync.aligned.m{mma.WARPGROUP_M}n{n}k{op.depth}"',
        '        f"wgmma.mma_async.sync.aligned.m{mma.WARPGROUP_M}n{n}k{mma.WARPGROUP_K}"',
        ("tests/filecheck/targets/cuda/wgmma-tf32.mlir",),
        "a TF32 product printed as k16: not a PTX shape for tf32",
    ),
    Mutant(
        "wgmma-emulator-wrong-accumulator-row",
        "irkit/interpreter/mma.py",
        "    rows = 16 * warp + group + 8 * ((i // 2) % 2)",
        "    rows = 16 * warp + group + 8 * (i % 2)",
        (MMA_WARPGROUP_EMULATOR,),
        "the emulator's D layout is not the PTX ISA's: what it checks is not "
        "what the hardware computes",
    ),
    Mutant(
        "wgmma-emulator-ignores-the-swizzle",
        "irkit/interpreter/mma.py",
        "        chunk = mma.swizzled_chunk(row, column // chunk_elements)",
        "        chunk = column // chunk_elements",
        (MMA_WARPGROUP_EMULATOR,),
        "the emulator reads the tiles unswizzled, as the tensor cores do not",
    ),
    Mutant(
        "private-tile-unrolls-loops-its-indices-skip",
        "irkit/transforms/gpu_promote_accumulators.py",
        "        if not any(_uses(index, counter) for index in access.indices):\n"
        "            break",
        "        pass",
        ("tests/filecheck/transforms/gpu-promote-accumulators.mlir",),
        "a thread tile's reduction loop is unrolled whole with its indexing "
        "loops (the fused attention's 128-key loop: code size, not registers)",
    ),
    Mutant(
        "relayout-always-takes-the-dynamic-budget",
        "irkit/transforms/gpu_relayout_shared.py",
        "                max_dynamic_shared_bytes\n"
        "                if used > max_shared_bytes\n"
        "                else max_shared_bytes",
        "                max_dynamic_shared_bytes",
        ("tests/filecheck/transforms/gpu-relayout-shared.mlir",),
        "a kernel within the static shared-memory limit grows past it, and "
        "would then need the dynamic opt-in it was not built for",
    ),
    Mutant(
        "split-reduction-splits-tensor-core-matmuls",
        SPLIT,
        "    if options.tensor_cores and takes_tensor_cores(",
        "    if False and takes_tensor_cores(",
        ("tests/filecheck/transforms/linalg-split-reduction.mlir",),
        "an f16 matmul on a short grid is split into parts the tensor-core "
        "kernel does not take: it runs on SIMT tiles (0.47x cuBLAS at 1024^3)",
    ),
    Mutant(
        "pad-half-multiple-for-every-contraction",
        PAD,
        "        chosen = multiples\n        if _is_half_precision(op):\n",
        "        chosen = half_multiples\n        if _is_half_precision(op):\n",
        ("tests/filecheck/transforms/linalg-pad-contractions.mlir",),
        "f32 matmuls are padded to the warpgroup K step too: a TF32 matmul of "
        "K = 72 grows past the padding bound and leaves the tensor cores",
    ),
    Mutant(
        "im2col-ignores-the-half-reduction-multiple",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "            return (multiples[0], self.half_reduction_multiple, multiples[2])",
        "            return multiples",
        ("tests/filecheck/transforms/linalg-conv-to-im2col.mlir",),
        "an f16 convolution's K is padded to the SIMT step only, and its "
        "warpgroup matmul then needs padded copies of the columns",
    ),
    Mutant(
        "half-attention-scores-not-rounded",
        ATTENTION,
        "        if op is not chain.modifier or score_scale is None:",
        "        if op is chain.modifier and score_scale is None:",
        (ATTENTION_HALF_EXACT, ATTENTION_HALF),
        "the fused half attention drops the scores' rounding op: the modifier "
        "reads a half tile nothing wrote this step",
    ),
    Mutant(
        "half-attention-probabilities-not-rounded",
        ATTENTION,
        "    _round_tile(numerators, rounded, at)",
        "    pass",
        (ATTENTION_HALF_PROPERTY, ATTENTION_HALF),
        "the product with v reads the half tile without the step's rounded "
        "numerators in it (the rounded scores, or nothing)",
    ),
    Mutant(
        "half-attention-staged-in-f32",
        ATTENTION,
        "        element = _memref_type(op.operands[index]).get_element_type()\n"
        "        pad = _bank_pad(",
        "        element = _memref_type(self.chain.row_max.outputs[0])"
        ".get_element_type()\n"
        "        pad = _bank_pad(",
        (ATTENTION_HALF,),
        "half keys and values staged in f32 tiles: twice the shared memory and "
        "copies that convert (or do not verify)",
    ),
    Mutant(
        "half-staging-padded-by-one-element",
        ATTENTION,
        "    return max(1, 4 // element_bytes)",
        "    return 1",
        (ATTENTION_HALF,),
        "half rows of q, keys and values padded by one f16: neighbouring rows "
        "share a bank word (2-way bank conflicts on every staged read)",
    ),
    Mutant(
        "half-causal-bound-lost-at-extf",
        "irkit/analysis/masks.py",
        "            result = of(op.input)",
        "            result = None",
        (ATTENTION_HALF,),
        "a half causal mask widened to f32 hides its -inf: every block walks "
        "every key step (twice the work at long sequences)",
    ),
    Mutant(
        "transpose-tile-read-along-its-rows",
        TRANSPOSE,
        "            self._body(inner, tiles, values, [tx, r])",
        "            self._body(inner, tiles, values, [r, tx])",
        (TRANSPOSE_PROPERTY,),
        "the write phase reads the workgroup tile at [r, tx] (the element its "
        "thread wrote) instead of [tx, r]: the output is the input untransposed",
    ),
    Mutant(
        "transpose-phases-without-barrier",
        TRANSPOSE,
        "        self._write_phase(writing, tiles, loop_values, i0, j0)",
        "        self._write_phase(reading, tiles, loop_values, i0, j0)",
        (TRANSPOSE_PROPERTY,),
        "the write phase runs in the read phase's thread forall: no barrier "
        "between a thread's store to the tile and another thread's load of it",
    ),
    Mutant(
        "transpose-ragged-edges-unguarded",
        TRANSPOSE,
        "        return None if bound % self.tile == 0 else builder.below(value, bound)",
        "        return None",
        (TRANSPOSE_PROPERTY,),
        "edge tiles of extents the tile does not divide load and store past "
        "the buffers' ends",
    ),
    Mutant(
        "transpose-rows-unpadded",
        TRANSPOSE,
        "    return max(1, BANK_BYTES // size)",
        "    return 0",
        ("tests/filecheck/transforms/linalg-tile-transposes-for-gpu.mlir",),
        "tile rows of 32 f32 start in the same bank: the write phase's column "
        "reads are 32-way bank conflicts",
    ),
    Mutant(
        "transpose-batch-split-outermost-first",
        TRANSPOSE,
        "        for position, loop in enumerate(reversed(self.plan.batch)):",
        "        for position, loop in enumerate(self.plan.batch):",
        ("tests/filecheck/transforms/linalg-tile-transposes-for-gpu.mlir",),
        "the linear block index z is split with the outer batch loop fastest: "
        "wrong batch elements where two batch loops differ in extent",
    ),
    Mutant(
        "tf32-b-buffer-copied-untransposed",
        MMA,
        "    swap = [*range(rank - 2), rank - 1, rank - 2]",
        "    swap = list(range(rank))",
        (TRANSPOSE_TF32_PROPERTY,),
        "the N x K buffer the TF32 warpgroup products read is B copied as it "
        "is, not transposed",
    ),
    Mutant(
        "partial-copy-reads-past-the-edge",
        MMA,
        "    valid = arith.SelectOp(inside, builder.const(size), builder.const(0))",
        "    valid = arith.SelectOp(inside, builder.const(size), builder.const(size))",
        (MMA_PARTIAL_PROPERTY,),
        "a copy past an operand's edge reads its whole 16 bytes at the clamped "
        "address (another row's elements) instead of zero-filling: the K steps "
        "past K add products of real elements",
    ),
    Mutant(
        "partial-source-unclamped",
        MMA,
        "        indices.append(builder.binary(arith.MinUIOp, index, extent - length))",
        "        indices.append(builder.index(index))",
        (MMA_PARTIAL_PROPERTY,),
        "a copy that reads nothing names an address past its operand's end: "
        "an invalid address on the hardware",
    ),
    Mutant(
        "partial-store-unguarded",
        MMA,
        "        bounds = self._partial_output_bounds()\n"
        "        for slot, row, col in self._accumulator_elements():\n"
        "            load = memref.LoadOp.get(self.acc, [kb.const(slot)])",
        "        bounds: list[tuple[int, int]] = []\n"
        "        for slot, row, col in self._accumulator_elements():\n"
        "            load = memref.LoadOp.get(self.acc, [kb.const(slot)])",
        (MMA_PARTIAL_PROPERTY, "tests/filecheck/targets/cuda/mma-partial.mlir"),
        "the last tiles store their accumulators past the output's rows and "
        "columns: out of bounds, or over the next row's elements",
    ),
    Mutant(
        "zero-fill-emulator-reads-every-byte",
        "irkit/interpreter/mma.py",
        "    elements = valid // size",
        "    elements = np.full_like(valid, count)",
        ("tests/interpreter/test_mma.py",),
        "the emulator's zero-filling copy reads all its bytes: what it checks "
        "is not what cp.async's src-size form writes",
    ),
    Mutant(
        "pipelined-copies-prefetch-this-step",
        PIPELINE,
        "            copy, slice_ops, step_sum.result, stage, InsertPoint.before(body.last_op)",
        "            copy,\n"
        "            slice_ops,\n"
        "            loop.body.block.args[0],\n"
        "            stage,\n"
        "            InsertPoint.before(body.last_op),",
        (PIPELINE_PROPERTY,),
        "the loads after the barrier fetch the step being computed again, not "
        "the next one: every step after the first stages the previous tiles",
    ),
    Mutant(
        "pipelined-gather-stages-the-unpredicated-load",
        PIPELINE,
        "    Rewriter.replace_op(store, StoreOp.get(store.value, stage, copy.counters(mapping)))",
        "    loaded = next(op for op in clone.walk() if isinstance(op, LoadOp))\n"
        "    Rewriter.replace_op(store, StoreOp.get(loaded.res, stage, "
        "copy.counters(mapping)))",
        PIPELINE_CONV_PROPERTIES,
        "the stage holds the gather's clamped load, not the value selected "
        "from it: the zero padding reads the input's border instead",
    ),
    Mutant(
        "tabled-index-read-per-k-step",
        PIPELINE,
        "                result = value.owner is not self.loop.body.block",
        "                result = True",
        PIPELINE_CONV_PROPERTIES,
        "the K loop's counter counts as invariant: the gather's (channel, "
        "tap) divisions are tabled at the first step and every later step "
        "reads the first step's taps",
    ),
    Mutant(
        "pipelined-nest-left-rolled",
        PIPELINE,
        "            nested.attributes[UNROLL_ATTRIBUTE] = UnitAttr()",
        "            pass",
        (PIPELINE_FILECHECK,),
        "a pipelined copy nest stays rolled: its stage, indexed by its "
        "counters, lives in local memory rather than registers",
    ),
    Mutant(
        "register-budget-forgets-held-indices",
        PIPELINE,
        "    budget -= sum(_index_registers(copy, loop) for copy in copies)\n",
        "",
        ("tests/filecheck/transforms/gpu-pipeline-copies-budget.mlir",),
        "the budget leaves out the K-invariant indices every copy holds: a "
        "ResNet stage-2 implicit GEMM pipelines its weights into 84 bytes of "
        "spills",
    ),
    Mutant(
        "tma-wait-for-the-step-parity",
        MMA,
        "                    lb.rem(lb.div(step, stages), 2),",
        "                    lb.rem(step, 2),",
        (MMA_TMA_PROPERTY,),
        "a step waits for the parity of its number, not of its round through "
        "the stages: with three stages, step 3 waits for a phase of its stage "
        "that completed before (its tile not landed yet)",
    ),
    Mutant(
        "tma-expects-a-step-without-b",
        MMA,
        "                    barriers, tb.indices([stage]), (bm * bk + bk * bn) * element",
        "                    barriers, tb.indices([stage]), bm * bk * element",
        (MMA_TMA_PROPERTY, "tests/filecheck/transforms/convert-linalg-to-mma-tma.mlir"),
        "the mbarrier expects A's bytes only: its phase completes before B's "
        "box lands (the emulator: more bytes than expected never complete)",
    ),
    Mutant(
        "paired-store-over-a-load-of-the-buffer",
        "irkit/targets/cuda_stores.py",
        "        return not may_alias(read, memref)",
        "        return True",
        ("tests/filecheck/targets/cuda/paired-stores.mlir",),
        "a store moves past a load of the buffer it writes: the load could "
        "read the element before it is stored",
    ),
    Mutant(
        "nhwc-per-channel-map-not-renamed",
        NHWC,
        "                new_maps.append(indexing_map.compose(renaming))",
        "                new_maps.append(indexing_map)",
        (NHWC_PROPERTY, NHWC_FILECHECK),
        "a per-channel operand (a batch norm's scale, read (d1)) keeps its NCHW "
        "map in the NHWC generic: it is read by the row, not the channel",
    ),
    Mutant(
        "nhwc-transposes-composed-backwards",
        NHWC,
        "    return tuple(inner[p] for p in outer)",
        "    return tuple(outer[p] for p in inner)",
        (NHWC_PROPERTY,),
        "two transposes fold into one by their permutations composed in the "
        "wrong order: right for inverse pairs, wrong for an input given in "
        "another layout (a torch permute) before the NCHW -> NHWC one",
    ),
    Mutant(
        "nhwc-linalg-index-not-renamed",
        NHWC,
        "            index_op.dim = IntegerAttr(TO_NCHW[index_op.dim.value.data], i64)",
        "            pass",
        (NHWC_PROPERTY, NHWC_FILECHECK),
        "a generic's linalg.index keeps its NCHW loop number in the NHWC "
        "generic: `linalg.index 1` reads the row instead of the channel",
    ),
    Mutant(
        "nhwc-pad-sizes-not-permuted",
        NHWC,
        "    low = _permuted(pad.static_low.get_values(), permutation)",
        "    low = list(pad.static_low.get_values())",
        (NHWC_PROPERTY, NHWC_FILECHECK),
        "a pad moved past a transpose keeps its NCHW low sizes: the rows' "
        "padding lands on the columns and the channels",
    ),
    Mutant(
        "nhwc-filter-taps-swapped",
        NHWC,
        "FCHW_TO_HWCF = (2, 3, 1, 0)",
        "FCHW_TO_HWCF = (3, 2, 1, 0)",
        (NHWC_PROPERTY,),
        "the filter transposed FCHW -> WHCF: a non-square kernel's taps read "
        "transposed (square kernels hide it)",
    ),
    Mutant(
        "im2col-merged-images-interleaved",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "        n, p = ib.div(column, shape.pixels), ib.rem(column, shape.pixels)",
        "        n, p = ib.rem(column, shape.batch), ib.div(column, shape.batch)",
        (
            "tests/filecheck/transforms/linalg-conv-to-im2col-merged.mlir",
            "tests/properties/test_conv_epilogues.py",
        ),
        "images side by side read as interleaved (column q from image q mod N): "
        "every image's columns mixed with the others'",
    ),
    Mutant(
        "merged-view-product-never-copied-out",
        TILE_GPU,
        "    Rewriter.insert_op(\n"
        "        [epilogue, memref.DeallocOp.get(scratch.memref)], "
        "InsertPoint.after(generic)\n"
        "    )",
        "    Rewriter.insert_op(\n"
        "        [memref.DeallocOp.get(scratch.memref)], InsertPoint.after(generic)\n"
        "    )",
        ("tests/filecheck/transforms/linalg-tile-for-gpu-merged-views.mlir",),
        "a product accumulated apart from the output's merged view is never "
        "copied into it: the output keeps whatever it held",
    ),
    Mutant(
        "fill-the-grid-splits-whole-tiles",
        TILE_GPU,
        "            extent % min(old, extent) != 0 or extent % min(new, extent) == 0",
        "            True",
        (
            "tests/properties/test_linalg_tile_for_gpu.py",
            "tests/filecheck/transforms/linalg-tile-for-gpu.mlir",
        ),
        "a short grid's tiles halve into partial ones (49 pixels as 32 + 17), "
        "whose accumulators stay in memory",
    ),
    Mutant(
        "pad-gather-multiples-ignored",
        PAD,
        "        elif gather_multiples and has_gathered_operand(op):",
        "        elif False:",
        ("tests/filecheck/transforms/linalg-pad-contractions-gathered.mlir",),
        "implicit GEMMs padded to the matmul block's multiples, not their own "
        "tiles': a 56x56 image's 3136 pixels become 3200",
    ),
    Mutant(
        "im2col-nhwc-tap-column-ignores-the-channels",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "    tap_column = ib.rem(ib.div(k, shape.channels), kw_extent)",
        "    tap_column = ib.rem(k, kw_extent)",
        (
            "tests/properties/test_linalg_conv_to_im2col.py::"
            "test_nhwc_convolutions_become_gathers_and_matmuls",
            "tests/filecheck/transforms/linalg-conv-to-im2col-nhwc.mlir",
        ),
        "the NHWC gather's kernel column is taken from k without dividing out "
        "the channels (k = (kh, kw, c)): wrong taps wherever C > 1 and KW > 1",
    ),
    Mutant(
        "im2col-nhwc-reduction-in-nchw-order",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "    channel = ib.rem(k, shape.channels)\n"
        "    tap_column = ib.rem(ib.div(k, shape.channels), kw_extent)\n"
        "    tap_row = ib.div(k, shape.channels * kw_extent)\n",
        "    channel = ib.div(k, shape.kernel[0] * kw_extent)\n"
        "    tap_column = ib.rem(k, kw_extent)\n"
        "    tap_row = ib.rem(ib.div(k, kw_extent), shape.kernel[0])\n",
        (
            "tests/properties/test_linalg_conv_to_im2col.py::"
            "test_nhwc_convolutions_become_gathers_and_matmuls",
            "tests/filecheck/transforms/linalg-conv-to-im2col-nhwc.mlir",
        ),
        "the NHWC gather orders its reduction as NCHW's (c, kh, kw) while the "
        "HWCF weights collapse to (kh, kw, c): the product pairs taps and "
        "channels with the wrong weights",
    ),
    Mutant(
        "im2col-nhwc-window-gather-ignores-the-stride",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "    image_row = ib.window(at.out_row, shape.strides[0], at.tap_row, "
        "shape.dilations[0])",
        "    image_row = ib.window(at.out_row, 1, at.tap_row, shape.dilations[0])",
        (
            "tests/properties/test_linalg_conv_to_im2col.py::"
            "test_nhwc_convolutions_become_gathers_and_matmuls",
        ),
        "a strided NHWC convolution's rows are gathered as if of stride 1",
    ),
    Mutant(
        "im2col-nhwc-pixels-padded-per-image",
        "irkit/transforms/linalg_conv_to_im2col.py",
        "    image = ib.div(m, shape.pixels)",
        "    image = ib.div(m, rows // shape.batch)",
        (
            "tests/properties/test_linalg_conv_to_im2col.py::"
            "test_nhwc_convolutions_become_gathers_and_matmuls",
            "tests/filecheck/transforms/linalg-conv-to-im2col-nhwc.mlir",
        ),
        "the image of a column row taken from the padded rows (as if each "
        "image's pixels were padded): with rows padded past N * P, the second "
        "image's pixels read the first's",
    ),
    Mutant(
        "im2col-nhwc-pixel-multiple-on-the-filters",
        "irkit/transforms/pipelines.py",
        "            pixels, filters = (0, 1) if self.nhwc else (1, 0)",
        "            pixels, filters = (1, 0)",
        ("tests/properties/test_implicit_gemm.py::test_nhwc_pads_rows_to_the_block",),
        "lower-to-cuda{nhwc=true} pads the NHWC product's rows (pixels) to the "
        "block's columns and its columns (filters) to its rows: "
        "`linalg-pad-contractions` then pads them again by copies",
    ),
    Mutant(
        "cuda-32-bit-indices-past-2-31-elements",
        "irkit/targets/cuda.py",
        "        and math.prod(shape) < INT32_BOUND",
        "        and True",
        ("tests/filecheck/targets/cuda/index-bits.mlir",),
        "a kernel over a buffer of 2^31 elements or more gets 32-bit index "
        "arithmetic: its addresses past 2^31 wrap",
    ),
)
