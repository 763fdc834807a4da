"""How many kernels the conv nets of `benchmarks/models` launch (issue 18).

Each workload is lowered with `lower-to-cuda` for the H100 (the target's
facts: 132 multiprocessors) and printed as CUDA C, no GPU needed; the test
counts the launch plan's kernels. A ResNet basic block needs at most, per
convolution, an im2col gather and a matmul whose grid also runs the fill of
its product and its epilogue (folded batch norm, with its per-channel scale
recomputed there, ReLU, the residual add); a pointwise convolution of
padded pixels gathers too (a padded copy), and a 7x7 stem over 3 channels
pads its weights' K (147 -> 160) in one small kernel. The max pool reads
its `-inf` padding through its source, global average pooling and the
classifier are one kernel each. At batch 1 the short matmuls split their
reduction (`linalg-split-reduction`): their parts' sum is a kernel, which
takes the epilogue.

Before (2026-11-27, `main` at c095611): basic blocks 19 / 30 / 27 / 12
kernels (stages 1 to 4), the bottleneck 26, the stem 12, MobileNet-v2 27,
ResNeXt 22, ResNet-18 182 at batch 1 and 162 at batch 32.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import irkit
from irkit.runtime import lower
from irkit.targets.cuda import KernelLaunch, emit_cuda

MODELS = Path(__file__).resolve().parents[2] / "benchmarks" / "models"

# name -> the kernels its launch plan holds (at most).
KERNELS = {
    "resnet_basic_s1": 4,  # 2 x (gather, matmul + batch norm + ReLU (+ residual))
    "resnet_basic_s2": 6,  # and the 1x1 stride-2 downsample: gather, matmul
    "resnet_basic_s3": 6,
    "resnet_basic_s4": 6,
    "resnet_bottleneck_s1": 6,  # 3 x (gather or padded copy, matmul)
    "resnet_stem": 4,  # gather, K-padded weights, matmul, max pool
    "resnext_bottleneck_s1": 8,
    # gather, matmul (192 filters padded to 256), its weights' padding,
    # the depthwise convolution and its epilogue, gather, matmul + residual
    "mobilenet_v2_block": 6,
}


def kernels(name: str) -> list[KernelLaunch]:
    path = MODELS / f"{name}.mlir"
    module = irkit.parse(path.read_text(), filename=path.name)
    lower(module, "lower-to-cuda", target="cuda")
    (plan,) = emit_cuda(module).plans.values()
    return [step for step in plan.steps if isinstance(step, KernelLaunch)]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_conv_net_kernels(name: str) -> None:
    launches = kernels(name)
    assert len(launches) <= KERNELS[name], [
        (launch.kernel, launch.grid, launch.block) for launch in launches
    ]


def test_resnet18_ends_in_one_pooling_and_one_classifier_kernel() -> None:
    """ResNet-18 at batch 1: 62 kernels (182 before). Its last two are the
    global average pool (a block per channel) and the classifier (a block
    per class, the 512-long rows reduced by the block's threads)."""
    launches = kernels("resnet18_b1")
    assert len(launches) <= 62
    pool, classifier = launches[-2:]
    assert pool.grid == (512, 1, 1)
    assert classifier.grid == (1000, 1, 1)
