"""The model zoo: transformer and conv-net workloads written in plain PyTorch,
as users write them.

Each workload is an `nn.Module` built from `nn.Linear`, `nn.LayerNorm`,
`F.gelu`, `F.softmax` and tensor methods, with attention written out as
`softmax(Q @ K^T * scale [masked]) @ V` (never `F.scaled_dot_product_attention`,
which the exporter may not lower). Nothing here imports torch-mlir: the
exporter (`export.py`, torch-mlir's venv) and the GPU benchmarks (torch
without torch-mlir) share these definitions.

`WORKLOADS` holds the real sizes, `SMALL_WORKLOADS` the same programs at tiny
sizes (for the interpreter, the C target and CI); both map a name to a
`Workload`. `build(workload)` makes the module and its inputs, seeded and
deterministic; `export_arguments(module, inputs)` is the exported function's
argument list: the inputs, then every state-dict tensor (parameters and
persistent buffers; not batch norm's step counters) in state-dict order, so
weights are function arguments and the exported files stay small.

The conv nets (ResNet-18's basic blocks and the whole network, ResNet-50 and
ResNeXt-50 bottleneck blocks, the ResNet stem, a MobileNet-v2 block) are written out as
torchvision writes them (torchvision is not a dependency), with the same
module and state-dict names.

GELU: GPT-2's block uses the tanh approximation (`approximate="tanh"`, GPT-2's
`gelu_new`); BERT, ViT and the standalone MLP use the exact (erf) GELU.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import torch
import torch.nn.functional as F
from torch import nn

Tensor = torch.Tensor
Shape = tuple[int, ...]


# --- attention, shared by every block ----------------------------------------


def causal_mask(length: int, device: torch.device) -> Tensor:
    """True where a query may attend to a key: the lower triangle."""
    return torch.ones(length, length, dtype=torch.bool, device=device).tril()


def attend(q: Tensor, k: Tensor, v: Tensor, causal: bool) -> Tensor:
    """softmax(q @ k^T / sqrt(head_dim), masked above the diagonal if causal) @ v,
    over the last two dimensions."""
    scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
    if causal:
        mask = causal_mask(q.shape[-2], q.device)
        scores = scores.masked_fill(~mask, float("-inf"))
    return F.softmax(scores, dim=-1) @ v


class Attention(nn.Module):
    """The standalone attention workload: q, k, v (batch, heads, seq, head_dim)."""

    def __init__(self, causal: bool) -> None:
        super().__init__()
        self.causal = causal

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
        return attend(q, k, v, self.causal)


# --- GPT-2 (nanoGPT layout: fused c_attn, pre-norm, tanh GELU) ---------------


class GPT2Attention(nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)

    def forward(self, x: Tensor) -> Tensor:
        batch, length, dim = x.shape
        q, k, v = self.c_attn(x).split(dim, dim=2)
        q = q.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        k = k.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        v = v.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        y = attend(q, k, v, causal=True)
        y = y.transpose(1, 2).contiguous().view(batch, length, dim)
        return self.c_proj(y)


class GPT2MLP(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.c_fc = nn.Linear(dim, hidden)
        self.c_proj = nn.Linear(hidden, dim)

    def forward(self, x: Tensor) -> Tensor:
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class GPT2Block(nn.Module):
    def __init__(self, dim: int, heads: int, hidden: int) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(dim)
        self.attn = GPT2Attention(dim, heads)
        self.ln_2 = nn.LayerNorm(dim)
        self.mlp = GPT2MLP(dim, hidden)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


# --- BERT (post-norm, separate q/k/v, exact GELU) ----------------------------


class BertSelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)

    def split_heads(self, x: Tensor) -> Tensor:
        batch, length, dim = x.shape
        return x.view(batch, length, self.heads, dim // self.heads).permute(0, 2, 1, 3)

    def forward(self, x: Tensor) -> Tensor:
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(x))
        v = self.split_heads(self.value(x))
        context = attend(q, k, v, causal=False).permute(0, 2, 1, 3)
        return context.reshape(x.shape)


class BertLayer(nn.Module):
    def __init__(self, dim: int, heads: int, hidden: int) -> None:
        super().__init__()
        self.attention = BertSelfAttention(dim, heads)
        self.attention_output = nn.Linear(dim, dim)
        self.attention_norm = nn.LayerNorm(dim, eps=1e-12)
        self.intermediate = nn.Linear(dim, hidden)
        self.output = nn.Linear(hidden, dim)
        self.output_norm = nn.LayerNorm(dim, eps=1e-12)

    def forward(self, x: Tensor) -> Tensor:
        x = self.attention_norm(x + self.attention_output(self.attention(x)))
        return self.output_norm(x + self.output(F.gelu(self.intermediate(x))))


# --- ViT (timm layout: pre-norm, fused qkv, exact GELU) ----------------------


class ViTAttention(nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: Tensor) -> Tensor:
        batch, length, dim = x.shape
        qkv = self.qkv(x).reshape(batch, length, 3, self.heads, dim // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        y = attend(q, k, v, causal=False)
        return self.proj(y.transpose(1, 2).reshape(batch, length, dim))


class ViTMlp(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x: Tensor) -> Tensor:
        return self.fc2(self.act(self.fc1(x)))


class ViTLayer(nn.Module):
    def __init__(self, dim: int, heads: int, hidden: int) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.attn = ViTAttention(dim, heads)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp = ViTMlp(dim, hidden)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


# --- the standalone MLP ------------------------------------------------------


class MLP(nn.Module):
    """Linear(dim, hidden) -> exact GELU -> Linear(hidden, dim) on M rows."""

    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x: Tensor) -> Tensor:
        return self.fc2(F.gelu(self.fc1(x)))


# --- LLaMA (RMSNorm, rotary embeddings, SiLU-gated MLP, no biases) ------------


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


class RotaryEmbedding(nn.Module):
    """cos and sin tables (positions x head_dim) as persistent buffers, so they
    are state-dict entries and reach the exported function as arguments."""

    def __init__(self, head_dim: int, positions: int, base: float = 10000.0) -> None:
        super().__init__()
        exponents = torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim
        inv_freq = 1.0 / (base**exponents)
        freqs = torch.outer(torch.arange(positions, dtype=torch.float32), inv_freq)
        table = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos", table.cos())
        self.register_buffer("sin", table.sin())

    def forward(self, length: int) -> tuple[Tensor, Tensor]:
        return self.cos[:length], self.sin[:length]


def rotate_half(x: Tensor) -> Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rotary(x: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    return x * cos + rotate_half(x) * sin


class LlamaAttention(nn.Module):
    def __init__(self, dim: int, heads: int, positions: int) -> None:
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, dim, bias=False)
        self.v_proj = nn.Linear(dim, dim, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)
        self.rotary = RotaryEmbedding(self.head_dim, positions)

    def forward(self, x: Tensor) -> Tensor:
        batch, length, dim = x.shape
        shape = (batch, length, self.heads, self.head_dim)
        q = self.q_proj(x).view(shape).transpose(1, 2)
        k = self.k_proj(x).view(shape).transpose(1, 2)
        v = self.v_proj(x).view(shape).transpose(1, 2)
        cos, sin = self.rotary(length)
        q = apply_rotary(q, cos, sin)
        k = apply_rotary(k, cos, sin)
        y = attend(q, k, v, causal=True)
        return self.o_proj(y.transpose(1, 2).reshape(batch, length, dim))


class LlamaMLP(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaBlock(nn.Module):
    def __init__(self, dim: int, heads: int, hidden: int, positions: int) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(dim)
        self.self_attn = LlamaAttention(dim, heads, positions)
        self.post_attention_layernorm = RMSNorm(dim)
        self.mlp = LlamaMLP(dim, hidden)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.self_attn(self.input_layernorm(x))
        return x + self.mlp(self.post_attention_layernorm(x))


# --- convolutional networks (torchvision's ResNet, MobileNet-v2) --------------
#
# Written out as torchvision writes them (same module and state-dict names),
# NCHW, eval mode: batch norm uses its running statistics, which `build`
# makes non-trivial so that a dropped normalisation shows.


def conv3x3(inputs: int, outputs: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(inputs, outputs, 3, stride, padding=1, bias=False)


def conv1x1(inputs: int, outputs: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(inputs, outputs, 1, stride, bias=False)


def downsample(inputs: int, outputs: int, stride: int) -> nn.Module | None:
    """torchvision's shortcut: a strided 1x1 convolution and batch norm where
    the block changes the shape, else None (the identity)."""
    if stride == 1 and inputs == outputs:
        return None
    return nn.Sequential(conv1x1(inputs, outputs, stride), nn.BatchNorm2d(outputs))


class BasicBlock(nn.Module):
    """ResNet-18/34's block: two 3x3 convolutions with batch norm and ReLU,
    and the residual (through `downsample` when the stage changes)."""

    def __init__(self, inputs: int, outputs: int, stride: int = 1) -> None:
        super().__init__()
        self.conv1 = conv3x3(inputs, outputs, stride)
        self.bn1 = nn.BatchNorm2d(outputs)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(outputs, outputs)
        self.bn2 = nn.BatchNorm2d(outputs)
        self.downsample = downsample(inputs, outputs, stride)

    def forward(self, x: Tensor) -> Tensor:
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


class Bottleneck(nn.Module):
    """ResNet-50's block (ResNeXt's with `groups` and `base_width`, as in
    torchvision): 1x1 to `width` channels, 3x3 (strided, grouped), 1x1 to
    4 x `planes`, batch norm and ReLU after each, and the residual."""

    expansion = 4

    def __init__(
        self,
        inputs: int,
        planes: int,
        stride: int = 1,
        groups: int = 1,
        base_width: int = 64,
    ) -> None:
        super().__init__()
        width = int(planes * (base_width / 64.0)) * groups
        outputs = planes * self.expansion
        self.conv1 = conv1x1(inputs, width)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(
            width, width, 3, stride, padding=1, groups=groups, bias=False
        )
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = conv1x1(width, outputs)
        self.bn3 = nn.BatchNorm2d(outputs)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample(inputs, outputs, stride)

    def forward(self, x: Tensor) -> Tensor:
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return self.relu(out + identity)


class Stem(nn.Module):
    """ResNet's stem: 7x7 stride-2 convolution, batch norm, ReLU, 3x3
    stride-2 max pooling (224x224 -> 56x56)."""

    def __init__(self, channels: int = 64) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, channels, 7, 2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, padding=1)

    def forward(self, x: Tensor) -> Tensor:
        return self.maxpool(self.relu(self.bn1(self.conv1(x))))


class ResNet18(nn.Module):
    """torchvision's `resnet18`: the stem, four stages (`layer1`..`layer4`)
    of two basic blocks, global average pooling and the classifier. `width`
    (64) and `classes` (1000) shrink it for the small twins."""

    def __init__(self, width: int = 64, classes: int = 1000) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 7, 2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, padding=1)
        self.layer1 = self.stage(width, width, 1)
        self.layer2 = self.stage(width, 2 * width, 2)
        self.layer3 = self.stage(2 * width, 4 * width, 2)
        self.layer4 = self.stage(4 * width, 8 * width, 2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8 * width, classes)

    @staticmethod
    def stage(inputs: int, outputs: int, stride: int) -> nn.Sequential:
        return nn.Sequential(
            BasicBlock(inputs, outputs, stride), BasicBlock(outputs, outputs)
        )

    def forward(self, x: Tensor) -> Tensor:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class InvertedResidual(nn.Module):
    """MobileNet-v2's block (torchvision's layout, stride 1): 1x1 expansion
    to `inputs * expand` channels, 3x3 depthwise convolution
    (groups = channels), each with batch norm and ReLU6, a linear 1x1
    projection with batch norm, and the residual."""

    def __init__(self, inputs: int, outputs: int, expand: int) -> None:
        super().__init__()
        hidden = inputs * expand
        self.use_residual = inputs == outputs
        self.conv = nn.Sequential(
            nn.Conv2d(inputs, hidden, 1, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, hidden, 3, 1, padding=1, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden),
            nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, outputs, 1, bias=False),
            nn.BatchNorm2d(outputs),
        )

    def forward(self, x: Tensor) -> Tensor:
        out = self.conv(x)
        return x + out if self.use_residual else out


# --- the registry ------------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """A module factory, the shapes of its (float32) inputs and what it is."""

    name: str
    description: str
    factory: Callable[[], nn.Module]
    inputs: tuple[Shape, ...]
    dtype: torch.dtype = torch.float32


def _transformer(
    name: str, kind: str, batch: int, length: int, dim: int, heads: int, hidden: int
) -> Workload:
    factory: Callable[[], nn.Module]
    if kind == "gpt2":
        what = "GPT-2 block (pre-norm, causal, tanh GELU)"
        factory = partial(GPT2Block, dim, heads, hidden)
    elif kind == "bert":
        what = "BERT encoder layer (post-norm, exact GELU)"
        factory = partial(BertLayer, dim, heads, hidden)
    elif kind == "vit":
        what = "ViT encoder layer (pre-norm, exact GELU)"
        factory = partial(ViTLayer, dim, heads, hidden)
    else:
        what = "LLaMA block (RMSNorm, rotary, causal, SiLU-gated MLP)"
        factory = partial(LlamaBlock, dim, heads, hidden, length)
    description = (
        f"{what}: batch {batch}, seq {length}, d {dim}, {heads} heads, MLP {hidden}"
    )
    return Workload(name, description, factory, ((batch, length, dim),))


def _mlp(name: str, rows: int, dim: int, hidden: int) -> Workload:
    description = f"MLP {rows}x{dim} -> {hidden} (exact GELU) -> {dim}"
    return Workload(name, description, partial(MLP, dim, hidden), ((rows, dim),))


def _attention(
    name: str, batch: int, heads: int, length: int, head_dim: int, causal: bool
) -> Workload:
    shape = (batch, heads, length, head_dim)
    mask = "causal" if causal else "no mask"
    description = (
        f"attention softmax(QK^T/sqrt({head_dim}))V, {mask}: "
        f"q, k, v {'x'.join(map(str, shape))}"
    )
    return Workload(name, description, partial(Attention, causal), (shape,) * 3)


def _registry(small: bool) -> dict[str, Workload]:
    """The real sizes, or tiny ones (odd lengths included) for CI."""
    if small:
        blocks = [
            ("gpt2_block", "gpt2", 2, 8, 32, 2, 128),
            ("bert_layer", "bert", 2, 8, 32, 2, 128),
            ("vit_layer", "vit", 2, 5, 32, 2, 128),
            ("llama_block", "llama", 2, 8, 32, 2, 88),
        ]
        mlps = [(1, 1), (64, 4), (512, 16), (4096, 64)]
        mlp_dims = (32, 128)
        lengths = [(128, 8), (512, 16), (2048, 33)]
        batch, heads, head_dim = 2, 3, 16
    else:
        blocks = [
            ("gpt2_block", "gpt2", 8, 128, 768, 12, 3072),
            ("bert_layer", "bert", 8, 128, 768, 12, 3072),
            ("vit_layer", "vit", 8, 197, 768, 12, 3072),
            ("llama_block", "llama", 1, 512, 1024, 16, 2816),
        ]
        mlps = [(1, 1), (64, 64), (512, 512), (4096, 4096)]
        mlp_dims = (1024, 4096)
        lengths = [(128, 128), (512, 512), (2048, 2048)]
        batch, heads, head_dim = 8, 12, 64
    workloads = [_transformer(*block) for block in blocks]
    workloads += [_mlp(f"mlp_m{m}", rows, *mlp_dims) for m, rows in mlps]
    for nominal, length in lengths:
        for causal in (False, True):
            name = f"attention_s{nominal}" + ("_causal" if causal else "")
            workloads.append(_attention(name, batch, heads, length, head_dim, causal))
    workloads += _conv_registry(small)
    return {workload.name: workload for workload in workloads}


def _image(batch: int, channels: int, size: int) -> Shape:
    return (batch, channels, size, size)


def _conv_registry(small: bool) -> list[Workload]:
    """The conv nets: ResNet-18's basic blocks at its four stages (the first
    block of each: stages 2 to 4 downsample; the first also at batch 1), a ResNet-50 bottleneck block,
    a ResNeXt-50 one (grouped 3x3), the ResNet stem, a MobileNet-v2 block and
    the whole ResNet-18; tiny channels and 8x8 to 16x16 images (odd sizes
    included) for CI."""
    if small:
        batch = 2
        basic = [(4, 4, 8), (4, 8, 16), (8, 12, 12), (12, 16, 10)]
        bottleneck = (16, 4, 8)
        resnext = (16, 4, 4, 32, 8)
        stem = (8, 16)
        mobilenet = (4, 6, 8)
        resnet = ((1, 1), (32, 2)), 3, 10, 16
    else:
        batch = 8
        basic = [(64, 64, 56), (64, 128, 56), (128, 256, 28), (256, 512, 14)]
        bottleneck = (256, 64, 56)
        resnext = (256, 64, 32, 4, 56)
        stem = (64, 224)
        mobilenet = (32, 6, 28)
        resnet = ((1, 1), (32, 32)), 64, 1000, 224
    workloads = []
    for stage, (inputs, outputs, size) in enumerate(basic, start=1):
        stride = 1 if stage == 1 else 2
        shortcut = ", 1x1 stride-2 downsample" if stride == 2 else ""
        description = (
            f"ResNet basic block (stage {stage}{shortcut}): batch {batch}, "
            f"{inputs}x{size}x{size} -> {outputs}x{size // stride}x{size // stride}"
        )
        workloads.append(
            Workload(
                f"resnet_basic_s{stage}",
                description,
                partial(BasicBlock, inputs, outputs, stride),
                (_image(batch, inputs, size),),
            )
        )
    # Each distinct 3x3 convolution of those blocks alone (issue 18's GPU
    # bar: every 3x3 convolution of the ResNet stages against cuDNN): the
    # block's first (strided from stage 2 on) and its second.
    for stage, (inputs, outputs, size) in enumerate(basic, start=1):
        stride = 1 if stage == 1 else 2
        convolutions = [(inputs, outputs, size, stride)]
        if stride != 1:
            convolutions.append((outputs, outputs, size // stride, 1))
        for conv_inputs, conv_outputs, conv_size, conv_stride in convolutions:
            suffix = "_down" if conv_stride != 1 else ""
            out_size = conv_size // conv_stride
            workloads.append(
                Workload(
                    f"conv3x3_s{stage}{suffix}",
                    f"3x3 convolution of ResNet stage {stage} (stride {conv_stride}, "
                    f"padding 1, no bias): batch {batch}, {conv_inputs}x{conv_size}x"
                    f"{conv_size} -> {conv_outputs}x{out_size}x{out_size}",
                    partial(conv3x3, conv_inputs, conv_outputs, conv_stride),
                    (_image(batch, conv_inputs, conv_size),),
                )
            )
    # The first stage's block at batch 1 (issue 18's CPU bar): one image, as
    # a user serving a single request runs it.
    inputs, outputs, size = basic[0]
    workloads.append(
        Workload(
            "resnet_basic_s1_b1",
            f"ResNet basic block (stage 1): batch 1, {inputs}x{size}x{size} -> "
            f"{outputs}x{size}x{size}",
            partial(BasicBlock, inputs, outputs, 1),
            (_image(1, inputs, size),),
        )
    )
    channels, width, size = bottleneck
    workloads.append(
        Workload(
            "resnet_bottleneck_s1",
            f"ResNet-50 bottleneck block (stage 1: 1x1 {channels}->{width}, 3x3, "
            f"1x1 {width}->{4 * width}): batch {batch}, {channels}x{size}x{size}",
            partial(Bottleneck, channels, width),
            (_image(batch, channels, size),),
        )
    )
    channels, planes, groups, base_width, size = resnext
    width = int(planes * base_width / 64) * groups
    workloads.append(
        Workload(
            "resnext_bottleneck_s1",
            f"ResNeXt-50 32x4d bottleneck block (stage 1: 1x1 {channels}->{width}, "
            f"3x3 with {groups} groups, 1x1 {width}->{4 * planes}): batch {batch}, "
            f"{channels}x{size}x{size}",
            partial(Bottleneck, channels, planes, 1, groups, base_width),
            (_image(batch, channels, size),),
        )
    )
    channels, size = stem
    workloads.append(
        Workload(
            "resnet_stem",
            f"ResNet stem (7x7 stride-2 conv 3->{channels}, BN, ReLU, 3x3 stride-2 "
            f"max pool): batch {batch}, 3x{size}x{size} -> "
            f"{channels}x{size // 4}x{size // 4}",
            partial(Stem, channels),
            (_image(batch, 3, size),),
        )
    )
    channels, expand, size = mobilenet
    workloads.append(
        Workload(
            "mobilenet_v2_block",
            f"MobileNet-v2 block (1x1 {channels}->{channels * expand}, 3x3 depthwise, "
            f"1x1 ->{channels}, ReLU6, residual): batch {batch}, "
            f"{channels}x{size}x{size}",
            partial(InvertedResidual, channels, channels, expand),
            (_image(batch, channels, size),),
        )
    )
    batches, width, classes, size = resnet
    for nominal, images in batches:
        workloads.append(
            Workload(
                f"resnet18_b{nominal}",
                f"ResNet-18 (width {width}, {classes} classes): batch {images}, "
                f"3x{size}x{size}",
                partial(ResNet18, width, classes),
                (_image(images, 3, size),),
            )
        )
    return workloads


WORKLOADS = _registry(small=False)
SMALL_WORKLOADS = _registry(small=True)

# Workloads the corpus also holds in half precision (`<name>_f16` and
# `<name>_bf16`, small sizes): torch-mlir's f16 and bf16 exports (half matmul
# operands, f32 accumulators where PyTorch widens) through both pipelines.
# The unmasked attention at 512 and 2048 keys times the fused half attention
# at real sizes (their small twins, 16 and 33 keys, run in CI in well under
# a second each).
HALF_PRECISION = (
    "gpt2_block",
    "llama_block",
    "mlp_m64",
    "attention_s128_causal",
    "attention_s512",
    "attention_s2048",
    "resnet_basic_s1",
)
# A half dtype's name suffix and its name in words.
HALF_DTYPES = {torch.float16: ("f16", "float16"), torch.bfloat16: ("bf16", "bfloat16")}


def in_half(workload: Workload, dtype: torch.dtype = torch.float16) -> Workload:
    """`workload` with its module and inputs in `dtype` (float16 or bfloat16)."""
    suffix, words = HALF_DTYPES[dtype]
    return Workload(
        f"{workload.name}_{suffix}",
        f"{workload.description}, in {words}",
        workload.factory,
        workload.inputs,
        dtype,
    )


# The same at their real sizes, in float16: `benchmarks/models/<name>_f16.mlir`,
# timed beside PyTorch in float16 by `benchmarks/gpu.py --models`.
HALF_WORKLOADS = {
    workload.name: workload
    for workload in (in_half(WORKLOADS[name]) for name in HALF_PRECISION)
}

SMALL_HALF_WORKLOADS = {
    workload.name: workload
    for workload in (
        in_half(SMALL_WORKLOADS[name], dtype)
        for name in HALF_PRECISION
        for dtype in HALF_DTYPES
    )
}


# --- building and arguments --------------------------------------------------


def _perturb_norms(module: nn.Module) -> None:
    """Norm weights 1 + N(0, 0.1^2) and biases N(0, 0.1^2) instead of ones and
    zeros, and batch norm's running means N(0, 0.1^2) and variances U(0.5,
    1.5) instead of zeros and ones, so a program that drops one shows it in
    its results."""
    with torch.no_grad():
        for child in module.modules():
            if isinstance(child, nn.LayerNorm | RMSNorm):
                child.weight.copy_(1.0 + 0.1 * torch.randn_like(child.weight))
            if isinstance(child, nn.LayerNorm):
                child.bias.copy_(0.1 * torch.randn_like(child.bias))
            if isinstance(child, nn.BatchNorm2d):
                child.weight.copy_(1.0 + 0.1 * torch.randn_like(child.weight))
                child.bias.copy_(0.1 * torch.randn_like(child.bias))
                mean, var = child.running_mean, child.running_var
                assert mean is not None
                assert var is not None
                mean.copy_(0.1 * torch.randn_like(mean))
                var.uniform_(0.5, 1.5)


def build(workload: Workload, seed: int = 0) -> tuple[nn.Module, tuple[Tensor, ...]]:
    """The module (eval mode, default init, perturbed norms) and its inputs,
    N(0, 1), deterministic for `seed`."""
    torch.manual_seed(seed)
    module = workload.factory().eval()
    _perturb_norms(module)
    module = module.to(workload.dtype)
    inputs = tuple(
        torch.randn(shape, dtype=workload.dtype) for shape in workload.inputs
    )
    return module, inputs


def weights(module: nn.Module) -> dict[str, Tensor]:
    """`module`'s state dict less batch norm's step counters."""
    counters = {
        f"{name}.num_batches_tracked" if name else "num_batches_tracked"
        for name, child in module.named_modules()
        if isinstance(child, nn.modules.batchnorm._BatchNorm)
    }
    return {
        name: tensor
        for name, tensor in module.state_dict().items()
        if name not in counters
    }


def export_arguments(
    module: nn.Module, inputs: tuple[Tensor, ...]
) -> tuple[list[Tensor], list[str]]:
    """The exported function's arguments and their names: the inputs (named
    after `forward`'s parameters), then every state-dict tensor (parameters and
    persistent buffers) under its key, in state-dict order.

    Batch norm's step counters (`num_batches_tracked`, int64) are left out:
    eval mode never reads them, so they are not the program's arguments.

    Refuses a module with a tensor outside its state dict (a non-persistent
    buffer): the exporter would embed it as a constant in the IR.
    """
    everything = module.state_dict()
    missing = [
        name
        for name, buffer in module.named_buffers()
        if name not in everything or everything[name].data_ptr() != buffer.data_ptr()
    ]
    if missing:
        raise ValueError(f"tensors outside the state dict: {', '.join(missing)}")
    state = weights(module)
    parameters = list(inspect.signature(module.forward).parameters)
    names = parameters[: len(inputs)] + list(state)
    tensors = [*inputs, *(tensor.detach() for tensor in state.values())]
    return tensors, names


class WeightsAsArguments(nn.Module):
    """Calls `inner` with its state-dict tensors (less batch norm's step
    counters) taken from the trailing arguments
    (`torch.func.functional_call`): export this, with
    `export_arguments(inner, inputs)`, and weights become function arguments."""

    def __init__(self, inner: nn.Module, num_inputs: int) -> None:
        super().__init__()
        # A list, not a submodule: the exporter must not lift its tensors.
        self._inner = [inner]
        self.num_inputs = num_inputs
        self.names = list(weights(inner))

    def forward(self, *args: Tensor) -> Tensor:
        inputs = args[: self.num_inputs]
        tensors = dict(zip(self.names, args[self.num_inputs :], strict=True))
        return torch.func.functional_call(self._inner[0], tensors, inputs)
