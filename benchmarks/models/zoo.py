"""The model zoo: transformer workloads written in plain PyTorch, as users write them.

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
persistent buffers) in state-dict order, so weights are function arguments
and the exported files stay small.

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
    return {workload.name: workload for workload in workloads}


WORKLOADS = _registry(small=False)
SMALL_WORKLOADS = _registry(small=True)

# Workloads the corpus also holds in half precision (`<name>_f16` and
# `<name>_bf16`, small sizes): torch-mlir's f16 and bf16 exports (half matmul
# operands, f32 accumulators where PyTorch widens) through both pipelines.
HALF_PRECISION = ("gpt2_block", "llama_block", "mlp_m64", "attention_s128_causal")
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
    zeros, so a program that drops one shows it in its results."""
    with torch.no_grad():
        for child in module.modules():
            if isinstance(child, nn.LayerNorm | RMSNorm):
                child.weight.copy_(1.0 + 0.1 * torch.randn_like(child.weight))
            if isinstance(child, nn.LayerNorm):
                child.bias.copy_(0.1 * torch.randn_like(child.bias))


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


def export_arguments(
    module: nn.Module, inputs: tuple[Tensor, ...]
) -> tuple[list[Tensor], list[str]]:
    """The exported function's arguments and their names: the inputs (named
    after `forward`'s parameters), then every state-dict tensor (parameters and
    persistent buffers) under its key, in state-dict order.

    Refuses a module with a tensor outside its state dict (a non-persistent
    buffer): the exporter would embed it as a constant in the IR.
    """
    state = module.state_dict()
    missing = [
        name
        for name, buffer in module.named_buffers()
        if name not in state or state[name].data_ptr() != buffer.data_ptr()
    ]
    if missing:
        raise ValueError(f"tensors outside the state dict: {', '.join(missing)}")
    parameters = list(inspect.signature(module.forward).parameters)
    names = parameters[: len(inputs)] + list(state)
    tensors = [*inputs, *(tensor.detach() for tensor in state.values())]
    return tensors, names


class WeightsAsArguments(nn.Module):
    """Calls `inner` with its state-dict tensors taken from the trailing
    arguments (`torch.func.functional_call`): export this, with
    `export_arguments(inner, inputs)`, and weights become function arguments."""

    def __init__(self, inner: nn.Module, num_inputs: int) -> None:
        super().__init__()
        # A list, not a submodule: the exporter must not lift its tensors.
        self._inner = [inner]
        self.num_inputs = num_inputs
        self.names = list(inner.state_dict())

    def forward(self, *args: Tensor) -> Tensor:
        inputs = args[: self.num_inputs]
        tensors = dict(zip(self.names, args[self.num_inputs :], strict=True))
        return torch.func.functional_call(self._inner[0], tensors, inputs)
