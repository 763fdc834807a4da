"""irkit's passes and conversions, one per file, and their registry.

A conversion lives in `convert_<from>_to_<to>.py` and is the pass
`convert-<from>-to-<to>`; an in-dialect transform is `<dialect>-<verb>`.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass

# pass name -> class name. A pass lives in the module named after it
# (`bufferize` in `bufferize.py`, `convert-nn-to-linalg` in
# `convert_nn_to_linalg.py`), so the registry cannot disagree with the tree.
_PASSES: dict[str, str] = {
    "convert-nn-to-linalg": "ConvertNnToLinalgPass",
    "linalg-conv-to-im2col": "LinalgConvToIm2colPass",
    "linalg-generalize-named-ops": "LinalgGeneralizeNamedOpsPass",
    "linalg-extract-windows": "LinalgExtractWindowsPass",
    "linalg-convert-to-nhwc": "LinalgConvertToNhwcPass",
    "linalg-fuse-elementwise": "LinalgFuseElementwisePass",
    "linalg-collapse-dims": "LinalgCollapseDimsPass",
    "linalg-fold-unit-extent-dims": "LinalgFoldUnitExtentDimsPass",
    "linalg-split-reduction": "LinalgSplitReductionPass",
    "bufferize": "BufferizePass",
    "linalg-fuse-attention": "LinalgFuseAttentionPass",
    "convert-linalg-to-loops": "ConvertLinalgToLoopsPass",
    "linalg-tile": "LinalgTilePass",
    "linalg-tile-and-fuse": "LinalgTileAndFusePass",
    "scf-for-hoist-accumulators": "ScfForHoistAccumulatorsPass",
    "linalg-tile-contractions": "LinalgTileContractionsPass",
    "linalg-promote-accumulator": "LinalgPromoteAccumulatorPass",
    "linalg-pack-operands": "LinalgPackOperandsPass",
    "linalg-vectorize-micro-kernels": "LinalgVectorizeMicroKernelsPass",
    "scf-for-unroll": "ScfForUnrollPass",
    "fold-memref-alias-ops": "FoldMemrefAliasOpsPass",
    "affine-fold-min-max": "AffineFoldMinMaxPass",
    "linalg-tile-for-gpu": "LinalgTileForGpuPass",
    "convert-linalg-to-mma": "ConvertLinalgToMmaPass",
    "linalg-pad-contractions": "LinalgPadContractionsPass",
    "convert-parallel-loops-to-gpu": "ConvertParallelLoopsToGpuPass",
    "gpu-promote-shared": "GpuPromoteSharedPass",
    "linalg-tile-rows": "LinalgTileRowsPass",
    "linalg-tile-rows-for-gpu": "LinalgTileRowsForGpuPass",
    "linalg-tile-transposes-for-gpu": "LinalgTileTransposesForGpuPass",
    "gpu-shuffle-reductions": "GpuShuffleReductionsPass",
    "gpu-promote-accumulators": "GpuPromoteAccumulatorsPass",
    "gpu-relayout-shared": "GpuRelayoutSharedPass",
    "gpu-pipeline-copies": "GpuPipelineCopiesPass",
    "gpu-kernel-outlining": "GpuKernelOutliningPass",
}

# Named pipelines (`pipelines.py`): name -> class name.
_PIPELINES: dict[str, str] = {
    "lower-to-c": "LowerToCPipeline",
    "lower-to-cuda": "LowerToCudaPipeline",
}


def _loader(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        return getattr(import_module(module), cls)

    return load


def pass_module(name: str) -> str:
    """The module that defines the pass or named pipeline `name`."""
    if name in _PIPELINES:
        return "irkit.transforms.pipelines"
    return "irkit.transforms." + name.replace("-", "_")


def get_irkit_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Factories for every irkit pass, keyed by pass name."""
    return {
        name: _loader(pass_module(name), cls)
        for name, cls in (_PASSES | _PIPELINES).items()
    }
