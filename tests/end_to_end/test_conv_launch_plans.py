"""How many kernels the conv nets of `benchmarks/models` launch (issue 18).

Each workload is lowered with `lower-to-cuda` for the H100 (the target's
facts: 132 multiprocessors) and printed as CUDA C, no GPU needed; the test
counts the launch plan's kernels. A ResNet basic block needs one kernel per
convolution: a matmul whose grid also runs the fill of its product and its
epilogue (folded batch norm, with its per-channel scale recomputed there,
ReLU, the residual add), and whose K steps run the im2col gather while
staging the column tiles in shared memory (`linalg-tile-for-gpu
{fuse-producers}`: an implicit GEMM), as they run a 7x7 stem's padding of
its weights' K (147 -> 160). The max pool reads its `-inf` padding through
its source, global average pooling and the classifier are one kernel each.
At batch 1 the short matmuls split their reduction
(`linalg-split-reduction`): their parts' sum is a kernel, which takes the
epilogue (the parts stage their gather as the whole matmul does).

Before (2026-11-27, `main` at c095611): basic blocks 19 / 30 / 27 / 12
kernels (stages 1 to 4), the bottleneck 26, the stem 12, MobileNet-v2 27,
ResNeXt 22, ResNet-18 182 at batch 1 and 162 at batch 32; with the im2col
gathers as kernels of their own (`main` at 6a333f2): 4 / 6 / 6 / 6, 6, 4,
6, 8, 62 and 50.
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
    # 2 x (matmul + gather + batch norm + ReLU (+ residual))
    "resnet_basic_s1": 2,
    "resnet_basic_s2": 3,  # and the 1x1 stride-2 downsample
    "resnet_basic_s3": 3,
    "resnet_basic_s4": 3,
    "resnet_bottleneck_s1": 3,  # 3 x matmul (+ gather or padded copy)
    "resnet_stem": 2,  # matmul + gather + K-padded weights, max pool
    # a grouped convolution's 32 groups: gathers and matmuls apart
    "resnext_bottleneck_s1": 6,
    # matmul (192 filters padded to 256) + its weights' padding, the
    # depthwise convolution and its epilogue, matmul + gather + residual
    "mobilenet_v2_block": 3,
    # Each 3x3 convolution of the four stages alone: one implicit GEMM that
    # writes the result itself (its columns padded to the conv block's
    # multiples, or not at all: 56x56 and 7x7 images are multiples of 64
    # and one tile).
    **{
        f"conv3x3_s{stage}{down}": 1
        for stage in (1, 2, 3, 4)
        for down in (("",) if stage == 1 else ("", "_down"))
    },
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
    """ResNet-18 at batch 1: 41 kernels (182, then 62 before). Its last two are the
    global average pool (a block per channel) and the classifier (a block
    per class, the 512-long rows reduced by the block's threads)."""
    launches = kernels("resnet18_b1")
    assert len(launches) <= 41
    pool, classifier = launches[-2:]
    assert pool.grid == (512, 1, 1)
    assert classifier.grid == (1000, 1, 1)


def test_resnet18_at_batch_32_is_one_kernel_a_convolution() -> None:
    """ResNet-18 at batch 32: 29 kernels (162, then 50 before): its 20
    convolutions one kernel each (the stem's and the max pool's first, as
    the model runs them), then the head's."""
    launches = kernels("resnet18_b32")
    assert len(launches) <= 29
    convolutions = [launches[0], *launches[2:21]]
    # Matmul grids: a block per (filters, pixels) tile of each image.
    assert all(launch.grid[2] == 32 for launch in convolutions)


@pytest.mark.parametrize("name", ["conv3x3_s1", "conv3x3_s4"])
def test_convolution_accumulates_in_registers(name: str) -> None:
    """The implicit GEMM's thread tiles stay in registers across its K loop
    (`gpu-promote-accumulators`): a 56x56 image's product is the output
    itself, reshaped (accumulated apart, then copied by its epilogue:
    `linalg-tile-for-gpu`), and a 7x7 image's 49 pixels stay one whole
    tile (`fill_the_grid` never splits them 32 + 17)."""
    path = MODELS / f"{name}.mlir"
    module = irkit.parse(path.read_text(), filename=path.name)
    lower(module, "lower-to-cuda", target="cuda")
    source = emit_cuda(module).source
    assert "float acc[" in source
