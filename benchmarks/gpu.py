"""irkit's CUDA target against PyTorch (cuBLAS) and Triton, side by side in one run.

Each program is written once in `nn`, compiled with
`irkit.compile(..., target="cuda")` (the `lower-to-cuda` pipeline, NVRTC) and
timed next to PyTorch eager, `torch.compile` (Inductor's generated kernels, for
the fused chain, softmax and layer_norm) and a Triton kernel for the same
computation, on
the same fresh random device inputs (never zeros). Every result is checked
against PyTorch in float64 before it is timed, with its output poisoned first.
Times are medians of CUDA-event-timed repeats after a warm-up. irkit is
timed as a user calls it, `f(*torch_cuda_tensors)` (argument checks, outputs
from PyTorch's allocator, the plan replayed on PyTorch's stream), with the
plan alone (`CudaCompiledFunction.time`) beside it. Rates are compared with
the measured device-to-device copy bandwidth (bytes read plus bytes written)
and, for SGEMM, with cuBLAS at float32 with TF32 off.

`--models` adds the model corpus of `benchmarks/models/` (torch-mlir exports
of PyTorch modules, transformers and conv nets, weights as arguments) beside
the same modules in PyTorch eager (cuBLAS, and cuDNN for the convolutions)
and `torch.compile`; `--call-overhead` times the host cost of calling
`examples/mlp.mlir` on device tensors.

    python benchmarks/gpu.py [--small] [--sizes 1000,2048] [--tune] [--models]
                             [--half 1024,4096,3000] [--tf32 1024,4096,3000]
                             [--half-pipelines 'LABEL=PIPELINE;...']
                             [--tf32-pipelines 'LABEL=PIPELINE;...']
                             [--transpose 4096,3000x1000]
                             [--call-overhead] [--json FILE]

`--tf32` times f32 GEMMs with TF32 allowed on all sides (irkit's
`allow_tf32=True`, cuBLAS under `torch.backends.cuda.matmul.allow_tf32`,
Triton's `input_precision="tf32"`); everything else runs with TF32 off.
Each size is one row per `--tf32-pipelines` entry (by default `target`,
the target's own pipeline: TF32 warpgroup products on sm_90a, B transposed
once by a tiled transpose kernel; `copies`, `lower-to-cuda{tf32-transpose-
b=false}`: B copied transposed into shared memory by 4-byte cp.async; and
`mma.sync`, `lower-to-cuda{wgmma=false}`: m16n8k8), the peers timed once;
a note names the tensor-core instruction each row's kernel uses.
Sizes no tile divides (3000) run on partial tiles, unpadded (zero-filling
cp.async, guarded stores); `lower-to-cuda{mma-partial-tiles=false}` is the
padded path, which `--half-pipelines`/`--tf32-pipelines` can time beside
it: `padded=lower-to-cuda{mma-partial-tiles=false}`.

`--transpose` times f32 transposes (`linalg-tile-transposes-for-gpu`)
beside a copy of the same bytes and the transpose untiled
(`lower-to-cuda{transposes=false}`); the table's last column is each
against the device's copy bandwidth.

Needs a GPU, torch and triton (the lent H100 has both); prints a Markdown
table last.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import os
import re
import statistics
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import triton
import triton.language as tl
from programs import copy as copy_program
from programs import (
    elementwise_chain,
    half_matmul,
    layer_norm,
    matmul,
    softmax,
    transpose,
)

import irkit
from irkit.runtime.cache import CACHE_DIR_VARIABLE

Tensor = torch.Tensor


# --- timing ----------------------------------------------------------------


def median_ms(fn: Callable[[], object], repeats: int, warmup: int = 3) -> float:
    """Median of `repeats` CUDA-event timings of `fn` after `warmup` calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end))
    return statistics.median(samples)


# --- Triton peers (written for this benchmark) -----------------------------


@triton.jit
def _triton_matmul_kernel(
    a, b, c, m, n, k,
    stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
    INPUT_PRECISION: tl.constexpr,
):  # fmt: skip
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    depth = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, k, BLOCK_K):
        a_tile = tl.load(
            a + rows[:, None] * stride_am + (k0 + depth)[None, :] * stride_ak,
            mask=(rows[:, None] < m) & ((k0 + depth)[None, :] < k),
            other=0.0,
        )
        b_tile = tl.load(
            b + (k0 + depth)[:, None] * stride_bk + cols[None, :] * stride_bn,
            mask=((k0 + depth)[:, None] < k) & (cols[None, :] < n),
            other=0.0,
        )
        acc += tl.dot(a_tile, b_tile, input_precision=INPUT_PRECISION)
    tl.store(
        c + rows[:, None] * stride_cm + cols[None, :] * stride_cn,
        acc,
        mask=(rows[:, None] < m) & (cols[None, :] < n),
    )


def triton_matmul(a: Tensor, b: Tensor, out: Tensor, precision: str = "ieee") -> Tensor:
    """`out = a @ b` in Triton; `precision` is `tl.dot`'s `input_precision`
    for f32 operands ("ieee": exact f32; "tf32": tensor cores)."""
    m, k = a.shape
    _, n = b.shape
    grid = (triton.cdiv(m, 128), triton.cdiv(n, 128))
    _triton_matmul_kernel[grid](
        a, b, out, m, n, k,
        a.stride(0), a.stride(1), b.stride(0), b.stride(1), out.stride(0), out.stride(1),
        BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, INPUT_PRECISION=precision,
        num_warps=8, num_stages=3,
    )  # fmt: skip
    return out


@triton.jit
def _triton_fused_kernel(a, b, c, out, count, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < count
    x = tl.load(a + offsets, mask=mask) * tl.load(b + offsets, mask=mask)
    y = tl.maximum(x + tl.load(c + offsets, mask=mask), 0.0)
    tl.store(out + offsets, y, mask=mask)


def triton_fused(a: Tensor, b: Tensor, c: Tensor, out: Tensor) -> Tensor:
    count = a.numel()
    _triton_fused_kernel[(triton.cdiv(count, 4096),)](a, b, c, out, count, BLOCK=4096)
    return out


@triton.jit
def _triton_softmax_kernel(x, out, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < cols
    values = tl.load(x + row * cols + offsets, mask=mask, other=-float("inf"))
    shifted = values - tl.max(values, axis=0)
    e = tl.exp(shifted)
    tl.store(out + row * cols + offsets, e / tl.sum(e, axis=0), mask=mask)


def triton_softmax(x: Tensor, out: Tensor) -> Tensor:
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    _triton_softmax_kernel[(rows,)](x, out, cols, BLOCK=block, num_warps=8)
    return out


# --- cases -----------------------------------------------------------------


@dataclass
class Case:
    name: str
    program: str
    make_inputs: Callable[[torch.Generator], list[Tensor]]
    reference: Callable[..., Tensor]  # float64 PyTorch on the same inputs
    peers: dict[str, Callable[..., Tensor]]  # name -> fn(*inputs, out) -> out
    work: tuple[float, str]  # (amount, "GFLOP" | "GB")
    rtol: float = 1e-4  # relative L2 error allowed for float32
    results: dict[str, float] = field(default_factory=dict)  # name -> ms
    notes: list[str] = field(default_factory=list)
    kernels: int | None = None  # launches in irkit's plan
    allow_tf32: bool = False  # irkit.compile(..., allow_tf32=)
    pipeline: str | None = None  # irkit.compile(..., pipeline=): None, the target's
    # A case of the same program whose peers' times this one shows (a row
    # per irkit pipeline, the peers timed once).
    peers_from: Case | None = None


def compiled(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """`torch.compile`'s kernel for `fn` (Inductor's default mode, static
    shapes) as a peer: compiled at its first call (the check, before timing);
    it returns its own output, so `out` is not copied into."""
    kernel = torch.compile(fn, dynamic=False)
    return lambda *args: kernel(*args[:-1])


def _uniform(shape: tuple[int, ...], g: torch.Generator, lo: float = -1.0) -> Tensor:
    return torch.rand(shape, generator=g, device="cuda") * (1.0 - lo) + lo


def matmul_case(n: int) -> Case:
    program = matmul(n)
    return Case(
        f"sgemm {n}^3",
        program,
        lambda g: [_uniform((n, n), g), _uniform((n, n), g)],
        lambda a, b: a.double() @ b.double(),
        {
            "torch (cuBLAS)": lambda a, b, out: torch.matmul(a, b, out=out),
            "triton": triton_matmul,
        },
        (2 * n**3 / 1e9, "GFLOP"),
    )


_HALF_DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}


def half_matmul_case(
    n: int,
    element: str,
    label: str = "",
    pipeline: str | None = None,
    peers_from: Case | None = None,
) -> Case:
    """A half-precision GEMM into f32 (tensor cores): cuBLAS through
    PyTorch (which returns `element`; `out_dtype` where this PyTorch has it)
    and Triton's f16/bf16 `tl.dot` beside irkit's `convert-linalg-to-mma`
    (`pipeline` the target's own when None)."""
    dtype = _HALF_DTYPES[element]

    def cublas(a: Tensor, b: Tensor, out: Tensor) -> Tensor:
        return torch.matmul(a, b)

    def cublas_f32(a: Tensor, b: Tensor, out: Tensor) -> Tensor:
        return torch.mm(a, b, out_dtype=torch.float32)

    return Case(
        f"{element} gemm {n}^3" + (f" [{label}]" if label else ""),
        half_matmul(n, element),
        lambda g: [_uniform((n, n), g).to(dtype), _uniform((n, n), g).to(dtype)],
        lambda a, b: a.double() @ b.double(),
        {
            f"torch (cuBLAS, {element} out)": cublas,
            "torch (cuBLAS, f32 out)": cublas_f32,
            "triton": triton_matmul,
        },
        (2 * n**3 / 1e9, "GFLOP"),
        # Exact products summed in f32; cuBLAS's own result is rounded to
        # `element` (about 2^-8 relative for bf16).
        rtol=1e-2 if element == "bf16" else 2e-3,
        pipeline=pipeline,
        peers_from=peers_from,
    )


def _pipeline_variants(pipelines: str) -> list[tuple[str, str | None]]:
    """(label, pipeline) of each `LABEL=PIPELINE` of `pipelines`
    (';'-separated; an empty PIPELINE is the target's own)."""
    return [
        (label.strip(), pipeline.strip() or None)
        for label, _, pipeline in (
            entry.partition("=") for entry in pipelines.split(";") if entry.strip()
        )
    ]


def half_matmul_cases(sizes: str, elements: str, pipelines: str) -> list[Case]:
    """`half_matmul_case` per element type, size and `LABEL=PIPELINE` of
    `pipelines`, the first pipeline's case timing the peers for the
    others (a label only where there are several)."""
    variants = _pipeline_variants(pipelines)
    cases: list[Case] = []
    for element in [e for e in elements.split(",") if e]:
        for n in [int(size) for size in sizes.split(",") if size]:
            first: Case | None = None
            for label, pipeline in variants:
                shown = label if len(variants) > 1 else ""
                case = half_matmul_case(n, element, shown, pipeline, first)
                first = first or case
                cases.append(case)
    return cases


def tf32_matmul_case(
    n: int,
    label: str = "",
    pipeline: str | None = None,
    peers_from: Case | None = None,
) -> Case:
    """An f32 GEMM on TF32 tensor cores: irkit with `allow_tf32=True`
    (`convert-linalg-to-mma{tf32}`; a size no tile divides runs on partial tiles;
    `pipeline` the target's own when None) beside cuBLAS with
    `torch.backends.cuda.matmul.allow_tf32 = True` and Triton's
    `tl.dot(..., input_precision="tf32")`; cuBLAS at exact f32 for scale.
    The first peer (cuBLAS TF32) is the table's torch column."""

    def cublas_tf32(a: Tensor, b: Tensor, out: Tensor) -> Tensor:
        torch.backends.cuda.matmul.allow_tf32 = True
        try:
            return torch.matmul(a, b, out=out)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = False

    return Case(
        f"tf32 gemm {n}^3" + (f" [{label}]" if label else ""),
        matmul(n),
        lambda g: [_uniform((n, n), g), _uniform((n, n), g)],
        lambda a, b: a.double() @ b.double(),
        {
            "torch (cuBLAS, TF32)": cublas_tf32,
            "torch (cuBLAS, f32)": lambda a, b, out: torch.matmul(a, b, out=out),
            "triton (tf32)": lambda a, b, out: triton_matmul(a, b, out, "tf32"),
        },
        (2 * n**3 / 1e9, "GFLOP"),
        # Operands rounded (mma.sync) or truncated (warpgroup products) to
        # 11 significant bits: a relative error near 2^-12 (2^-11) per
        # product, about 3e-4 (6e-4) over the whole result.
        rtol=5e-3,
        allow_tf32=True,
        pipeline=pipeline,
        peers_from=peers_from,
    )


def tf32_matmul_cases(sizes: str, pipelines: str) -> list[Case]:
    """`tf32_matmul_case` per size and per `LABEL=PIPELINE` of `pipelines`
    (';'-separated; an empty PIPELINE is the target's own), the first
    pipeline's case timing the peers for all of a size's."""
    variants = _pipeline_variants(pipelines)
    cases: list[Case] = []
    for n in [int(size) for size in sizes.split(",") if size]:
        first: Case | None = None
        for label, pipeline in variants:
            case = tf32_matmul_case(n, label, pipeline, first)
            first = first or case
            cases.append(case)
    return cases


def transpose_cases(sizes: str) -> list[Case]:
    """Per `RxC` (or `N`: N x N) of `sizes`, f32: a copy of the matrix (the
    bound: the same bytes read and written along rows), its transpose as
    `lower-to-cuda` tiles it (`linalg-tile-transposes-for-gpu`: coalesced
    through workgroup tiles), and the transpose untiled
    (`lower-to-cuda{transposes=false}`: a thread per element, strided
    reads), beside PyTorch's copy and `x.t().contiguous()` kernels and
    `torch.compile`'s (Inductor's tiled transpose)."""
    cases: list[Case] = []
    for size in [s for s in sizes.split(",") if s]:
        rows, _, cols = size.partition("x")
        r, c = int(rows), int(cols or rows)
        work = (2 * 4 * r * c / 1e9, "GB")
        cases.append(
            Case(
                f"copy {r}x{c}",
                copy_program(r, c),
                lambda g, r=r, c=c: [_uniform((r, c), g)],
                lambda x: x.double().clone(),
                {"torch (copy_)": lambda x, out: out.copy_(x)},
                work,
            )
        )
        tiled = Case(
            f"transpose {r}x{c}",
            transpose(r, c),
            lambda g, r=r, c=c: [_uniform((r, c), g)],
            lambda x: x.double().t().contiguous(),
            {
                "torch (copy_ of x.t())": lambda x, out: out.copy_(x.t()),
                "torch.compile": compiled(lambda x: x.t().contiguous()),
            },
            work,
        )
        cases.append(tiled)
        cases.append(
            Case(
                f"transpose {r}x{c} [untiled]",
                transpose(r, c),
                tiled.make_inputs,
                tiled.reference,
                tiled.peers,
                work,
                pipeline="lower-to-cuda{transposes=false}",
                peers_from=tiled,
            )
        )
    return cases


def fused_case(count: int) -> Case:
    program = elementwise_chain(count)

    def eager(a: Tensor, b: Tensor, c: Tensor, out: Tensor) -> Tensor:
        return torch.clamp_min(a * b + c, 0.0, out=out)

    return Case(
        f"relu(a*b+c) 2^{count.bit_length() - 1}",
        program,
        lambda g: [_uniform((count,), g) for _ in range(3)],
        lambda a, b, c: torch.relu(a.double() * b.double() + c.double()),
        {
            "torch eager": eager,
            "torch.compile": compiled(lambda a, b, c: torch.relu(a * b + c)),
            "triton": triton_fused,
        },
        (4 * 4 * count / 1e9, "GB"),
    )


def softmax_case(rows: int, cols: int) -> Case:
    program = softmax(rows, cols)
    return Case(
        f"softmax {rows}x{cols}",
        program,
        lambda g: [_uniform((rows, cols), g, lo=-4.0)],
        lambda x: torch.softmax(x.double(), dim=1),
        {
            "torch eager": lambda x, out: torch.softmax(x, dim=1, out=out),
            "torch.compile": compiled(lambda x: torch.softmax(x, dim=1)),
            "triton": triton_softmax,
        },
        (2 * 4 * rows * cols / 1e9, "GB"),
    )


def layer_norm_case(rows: int, cols: int) -> Case:
    program = layer_norm(rows, cols)

    def eager(x: Tensor, g: Tensor, b: Tensor, out: Tensor) -> Tensor:
        return out.copy_(torch.nn.functional.layer_norm(x, (cols,), g, b, 1e-5))

    def reference(x: Tensor, g: Tensor, b: Tensor) -> Tensor:
        return torch.nn.functional.layer_norm(
            x.double(), (cols,), g.double(), b.double(), 1e-5
        )

    return Case(
        f"layer_norm {rows}x{cols}",
        program,
        lambda g: [
            _uniform((rows, cols), g),
            _uniform((cols,), g, lo=0.5) + 0.5,
            _uniform((cols,), g),
        ],
        reference,
        {
            "torch eager": eager,
            "torch.compile": compiled(
                lambda x, g, b: torch.nn.functional.layer_norm(x, (cols,), g, b, 1e-5)
            ),
        },
        (2 * 4 * rows * cols / 1e9, "GB"),
    )


# --- running ---------------------------------------------------------------


def relative_error(result: Tensor, expected: Tensor) -> float:
    if not torch.isfinite(result).all():
        return float("inf")
    return float(
        torch.linalg.vector_norm(result.double() - expected)
        / torch.linalg.vector_norm(expected)
    )


def poisoned_like(t: Tensor) -> Tensor:
    return torch.full_like(t, float("nan"))


def check(name: str, case: Case, result: Tensor, expected: Tensor) -> None:
    error = relative_error(result, expected)
    if not error <= case.rtol:
        raise AssertionError(f"{case.name}: {name} relative L2 error {error:.3g}")


# The first tensor-core product of a printed kernel: which path a row took.
TENSOR_CORE_INSTRUCTION = re.compile(
    r"(wgmma\.mma_async\.sync|mma\.sync)\.aligned\.m\d+n\d+k\d+[.a-z0-9]*"
)


def kernel_count(compiled: Any) -> int:
    from irkit.targets.cuda import KernelLaunch

    return sum(isinstance(step, KernelLaunch) for step in compiled.plan.steps)


def run_case(case: Case, repeats: int, g: torch.Generator) -> None:
    inputs = case.make_inputs(g)
    expected = case.reference(*inputs)
    out = poisoned_like(expected.float())
    if case.peers_from is not None:
        case.results.update(
            (name, ms)
            for name, ms in case.peers_from.results.items()
            if name in case.peers
        )
        run_irkit(case, inputs, expected, repeats, g, case.pipeline)
        return
    for name, peer in case.peers.items():
        try:
            out.fill_(float("nan"))
            check(name, case, peer(*inputs, out), expected)
            case.results[name] = median_ms(lambda p=peer: p(*inputs, out), repeats)
        except Exception as error:  # a peer failing must not hide irkit's row
            case.notes.append(f"{name}: {type(error).__name__}: {error}")
    run_irkit(case, inputs, expected, repeats, g, case.pipeline)


def run_irkit(
    case: Case,
    inputs: list[Tensor],
    expected: Tensor,
    repeats: int,
    g: torch.Generator | None,
    pipeline: str | None = None,
) -> None:
    """Compile, check (poisoned outputs, fresh inputs) and time irkit: the
    user's call `f(*inputs)` and the plan alone. `pipeline`: the target's
    own (None) or, say, `lower-to-cuda{fuse-producers=false}` for an A/B
    (the device's facts are added to it)."""
    try:
        start = time.perf_counter()
        compiled: Any = irkit.compile(
            case.program, target="cuda", allow_tf32=case.allow_tf32, pipeline=pipeline
        )
        case.notes.append(f"irkit compile {time.perf_counter() - start:.1f} s")
        case.kernels = kernel_count(compiled)
        instruction = TENSOR_CORE_INSTRUCTION.search(compiled.unit.source)
        if instruction is not None:
            case.notes.append(f"irkit tensor cores: {instruction.group(0)}")
        checked: Any = irkit.compile(
            case.program,
            target="cuda",
            checked=True,
            allow_tf32=case.allow_tf32,
            pipeline=pipeline,
        )
        (result,) = checked(*inputs)
        check("irkit (checked)", case, result, expected)
        (result,) = compiled(*inputs)
        check("irkit", case, result, expected)
        if g is not None:
            # Fresh inputs: the timed version must compute the same function.
            fresh = case.make_inputs(g)
            (result,) = compiled(*fresh)
            check("irkit", case, result, case.reference(*fresh))
        case.results["irkit"] = median_ms(lambda: compiled(*inputs), repeats)
        timing = compiled.time(*inputs, runs=repeats, warmup=3)
        case.results["irkit plan"] = timing.median_ms
    except Exception as error:
        case.notes.append(f"irkit: {type(error).__name__}: {error}")
        traceback.print_exc()


# --- the model corpus (benchmarks/models) ------------------------------------

MODELS = Path(__file__).parent / "models"
# Relative L2 error allowed to a float16 model (irkit's and PyTorch's alike).
HALF_MODEL_RTOL = 2e-2


def model_case(
    name: str,
    repeats: int,
    pipeline: str | None = None,
    variants: Sequence[tuple[str, str | None]] = (),
) -> list[Case]:
    """A torch-mlir export of the corpus beside its PyTorch module: irkit
    gets the exported function's arguments (inputs, then weights), PyTorch
    the module and its inputs, both on the GPU. One row more per
    (label, pipeline) of `variants`: irkit with that pipeline, beside the
    same peers' times."""
    sys.path.insert(0, str(MODELS))
    from zoo import HALF_WORKLOADS, WORKLOADS, build, export_arguments

    workload = {**WORKLOADS, **HALF_WORKLOADS}[name]
    module, inputs = build(workload)
    module = module.cuda()
    inputs = tuple(x.cuda() for x in inputs)
    arguments, _ = export_arguments(module, inputs)
    reference_module = copy.deepcopy(module).double()
    with torch.no_grad():
        expected = reference_module(*(x.double() for x in inputs))
    del reference_module

    def eager(*args: Tensor) -> Tensor:
        with torch.no_grad():
            return module(*args)

    inductor = torch.compile(module, dynamic=False)

    def compiled_module(*args: Tensor) -> Tensor:
        with torch.no_grad():
            return inductor(*args)

    case = Case(
        name,
        (MODELS / f"{name}.mlir").read_text(),
        lambda g: list(arguments),
        lambda *args: expected,
        {},
        (0.0, "model"),
        # Against float64: float16's rounding of every intermediate, as in
        # PyTorch's own float16 run.
        rtol=1e-4 if workload.dtype == torch.float32 else HALF_MODEL_RTOL,
    )
    for peer_name, peer in (("torch eager", eager), ("torch.compile", compiled_module)):
        try:
            check(peer_name, case, peer(*inputs), expected)
            case.results[peer_name] = median_ms(lambda p=peer: p(*inputs), repeats)
        except Exception as error:
            case.notes.append(f"{peer_name}: {type(error).__name__}: {error}")
    run_irkit(case, list(arguments), expected, repeats, None, pipeline)
    rows = [case]
    for label, variant in variants:
        row = dataclasses.replace(
            case,
            name=f"{name} [{label}]",
            results={k: v for k, v in case.results.items() if k.startswith("torch")},
            notes=[],
            kernels=None,
            pipeline=variant,
        )
        run_irkit(row, list(arguments), expected, repeats, None, variant)
        rows.append(row)
    return rows


def call_overhead_us(calls: int = 2000) -> dict[str, float]:
    """`examples/mlp.mlir` called on device tensors: host microseconds per
    call (no synchronisation inside the loop), and one call's span in CUDA
    events."""
    program = (Path(__file__).parents[1] / "examples" / "mlp.mlir").read_text()
    compiled: Any = irkit.compile(program, target="cuda")
    g = torch.Generator(device="cuda").manual_seed(1)
    shapes = [(4, 16), (16, 32), (32,), (32, 10), (10,)]
    args = [_uniform(shape, g) for shape in shapes]
    for _ in range(100):
        compiled(*args)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        compiled(*args)
    host_us = (time.perf_counter() - start) / calls * 1e6
    torch.cuda.synchronize()
    return {
        "host us per call": host_us,
        "event us per call": median_ms(lambda: compiled(*args), 200) * 1e3,
        "plan us": compiled.time(*args, runs=200, warmup=10).median_ms * 1e3,
        "kernels": float(kernel_count(compiled)),
    }


def run_tuned(case: Case, repeats: int, g: torch.Generator) -> None:
    """`irkit.compile(..., tune=True)`: what it chose, how long tuning took,
    and the chosen code checked and timed like the default."""
    try:
        compiled: Any = irkit.compile(
            case.program, target="cuda", tune=True, allow_tf32=case.allow_tf32
        )
        tuning = compiled.tuning
        case.notes.append(
            f"tuned: {tuning.pipeline} after {tuning.seconds:.1f} s "
            f"({len(tuning.timings_ms)} candidates timed)"
        )
        inputs = case.make_inputs(g)
        (result,) = compiled(*inputs)
        check("irkit tuned", case, result, case.reference(*inputs))
        case.results["irkit tuned"] = median_ms(lambda: compiled(*inputs), repeats)
        start = time.perf_counter()
        irkit.compile(
            case.program, target="cuda", tune=True, allow_tf32=case.allow_tf32
        )
        case.notes.append(
            f"second tuned compile (cached choice): {time.perf_counter() - start:.1f} s"
        )
    except Exception as error:
        case.notes.append(f"irkit tuned: {type(error).__name__}: {error}")
        traceback.print_exc()


def copy_bandwidth_gbs(repeats: int) -> float:
    count = 1 << 28
    source = torch.rand(count, device="cuda")
    target = torch.empty_like(source)
    ms = median_ms(lambda: target.copy_(source), repeats)
    return 2 * 4 * count / 1e9 / (ms / 1e3)


def rate(case: Case, ms: float) -> str:
    amount, unit = case.work
    if unit == "model":
        return "-"
    per_second = amount / (ms / 1e3)
    return (
        f"{per_second / 1e3:.1f} TFLOP/s"
        if unit == "GFLOP"
        else f"{per_second:.0f} GB/s"
    )


def model_names() -> list[str]:
    """The corpus `--models` runs: the zoo's f32 workloads (transformers,
    MLPs, attention with and without a causal mask, conv nets, beside cuDNN
    through PyTorch eager), then its float16 ones (tensor-core matmuls,
    beside PyTorch in float16)."""
    sys.path.insert(0, str(MODELS))
    from zoo import HALF_WORKLOADS, WORKLOADS

    return [*WORKLOADS, *HALF_WORKLOADS]


def print_table(cases: list[Case], bandwidth: float) -> None:
    print(
        "| program | kernels | irkit call (ms) | irkit plan (ms) | call / plan | "
        "torch (ms) | torch.compile (ms) | triton (ms) | irkit rate | "
        "irkit / torch speed | irkit / torch.compile speed | irkit / triton speed | "
        "irkit / copy bandwidth |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for case in cases:
        ours = case.results.get("irkit")
        plan = case.results.get("irkit plan")
        torch_ms = next(
            (
                ms
                for name, ms in case.results.items()
                if name.startswith("torch") and name != "torch.compile"
            ),
            None,
        )
        inductor_ms = case.results.get("torch.compile")
        triton_ms = next(
            (ms for name, ms in case.results.items() if name.startswith("triton")),
            None,
        )

        def ms_text(ms: float | None) -> str:
            return "-" if ms is None else f"{ms:.3f}"

        def ratio(theirs: float | None) -> str:
            return "-" if ours is None or theirs is None else f"{theirs / ours:.2f}"

        amount, unit = case.work
        of_bandwidth = (
            f"{amount / (ours / 1e3) / bandwidth:.0%}"
            if ours is not None and unit == "GB"
            else "-"
        )
        call_over_plan = "-" if ours is None or plan is None else f"{ours / plan:.3f}"
        print(
            f"| {case.name} | {case.kernels or '-'} | {ms_text(ours)} | "
            f"{ms_text(plan)} | {call_over_plan} | {ms_text(torch_ms)} | "
            f"{ms_text(inductor_ms)} | {ms_text(triton_ms)} | "
            f"{'-' if ours is None else rate(case, ours)} | "
            f"{ratio(torch_ms)} | {ratio(inductor_ms)} | {ratio(triton_ms)} | "
            f"{of_bandwidth} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--small", action="store_true", help="small sizes (smoke run)")
    parser.add_argument("--sizes", default="", help="extra SGEMM sizes, e.g. 1000,2048")
    parser.add_argument("--json", help="write the raw numbers to this file")
    parser.add_argument(
        "--tune", action="store_true", help="also compile with tune=True and time it"
    )
    parser.add_argument(
        "--models", action="store_true", help="the model corpus (benchmarks/models)"
    )
    parser.add_argument(
        "--only-models", default="", help="comma-separated model names (--models)"
    )
    parser.add_argument(
        "--pipeline",
        default=None,
        help="irkit's pipeline for --models (default: the target's own), e.g. "
        "'lower-to-cuda{fuse-producers=false}' for the convolutions' gathers "
        "as kernels of their own",
    )
    parser.add_argument(
        "--model-pipelines",
        default="",
        help="';'-separated LABEL=PIPELINE: a row more per model for each, irkit "
        "compiled with PIPELINE beside the same peers' times (an empty PIPELINE: "
        "the target's own), e.g. 'unpipelined=lower-to-cuda{pipeline-copies=false}'",
    )
    parser.add_argument(
        "--no-kernels", action="store_true", help="skip the single-kernel programs"
    )
    parser.add_argument(
        "--half",
        default="",
        help="half-precision GEMM sizes (f16 and bf16, tensor cores), e.g. 1024,4096",
    )
    parser.add_argument(
        "--half-types", default="f16,bf16", help="element types of --half"
    )
    parser.add_argument(
        "--half-pipelines",
        default="target=",
        help="';'-separated LABEL=PIPELINE, a row each for every --half size "
        "(an empty PIPELINE: the target's own, partial tiles unpadded), e.g. "
        "'target=;padded=lower-to-cuda{mma-partial-tiles=false}'",
    )
    parser.add_argument(
        "--tf32",
        default="",
        help="f32 GEMM sizes on TF32 tensor cores (irkit allow_tf32=True beside "
        "cuBLAS and Triton in TF32), e.g. 1024,4096,3000",
    )
    parser.add_argument(
        "--tf32-pipelines",
        default=(
            "target=;copies=lower-to-cuda{tf32-transpose-b=false};"
            "mma.sync=lower-to-cuda{wgmma=false}"
        ),
        help="';'-separated LABEL=PIPELINE, a row each for every --tf32 size "
        "(an empty PIPELINE: the target's own, TF32 warpgroup products on "
        "sm_90a, B transposed once by a tiled transpose kernel; `copies`: B "
        "copied transposed into shared memory by 4-byte cp.async), e.g. "
        "'wgmma 128x128=lower-to-cuda{wgmma-block=128,128}'",
    )
    parser.add_argument(
        "--transpose",
        default="",
        help="f32 transpose sizes (RxC or N), each beside a copy of the same "
        "bytes and the transpose untiled (lower-to-cuda{transposes=false}), "
        "e.g. 4096,3000x1000",
    )
    parser.add_argument(
        "--cold-cache",
        action="store_true",
        help="compile with an empty irkit cache, so each 'irkit compile' note "
        "is a cold compile (pipeline, printing and NVRTC)",
    )
    parser.add_argument(
        "--call-overhead",
        action="store_true",
        help="time calling examples/mlp.mlir on device tensors",
    )
    args = parser.parse_args()
    if args.cold_cache:
        os.environ[CACHE_DIR_VARIABLE] = tempfile.mkdtemp(prefix="irkit-cold-")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    g = torch.Generator(device="cuda").manual_seed(0)
    if args.no_kernels:
        cases = []
    elif args.small:
        cases = [
            matmul_case(256),
            fused_case(1 << 20),
            softmax_case(1024, 512),
            layer_norm_case(1024, 512),
        ]
    else:
        cases = [
            matmul_case(4096),
            fused_case(1 << 28),
            softmax_case(32768, 4096),
            layer_norm_case(32768, 4096),
        ]
    cases += [matmul_case(int(n)) for n in args.sizes.split(",") if n]
    cases += half_matmul_cases(args.half, args.half_types, args.half_pipelines)
    cases += tf32_matmul_cases(args.tf32, args.tf32_pipelines)
    cases += transpose_cases(args.transpose)
    bandwidth = copy_bandwidth_gbs(args.repeats)
    for case in cases:
        run_case(case, args.repeats, g)
        if args.tune:
            run_tuned(case, args.repeats, g)
    if args.models:
        names = [n for n in args.only_models.split(",") if n] or model_names()
        for name in names:
            try:
                cases += model_case(
                    name,
                    args.repeats,
                    args.pipeline,
                    _pipeline_variants(args.model_pipelines),
                )
            except Exception:
                traceback.print_exc()
            torch.cuda.empty_cache()
    overhead = call_overhead_us() if args.call_overhead else None

    device = torch.cuda.get_device_name()
    print(
        f"\nDevice: {device}; torch {torch.__version__}, triton {triton.__version__}, "
        f"NumPy {np.__version__}; copy bandwidth {bandwidth:.0f} GB/s (read + write)\n"
    )
    print_table(cases, bandwidth)
    if args.tune:
        print(
            "\n| program | irkit default (ms) | irkit tuned (ms) | tuned / default speed |"
        )
        print("|---|---|---|---|")
        for case in cases:
            default, tuned = case.results.get("irkit"), case.results.get("irkit tuned")
            speed = (
                "-" if default is None or tuned is None else f"{default / tuned:.2f}"
            )
            print(
                f"| {case.name} | {'-' if default is None else f'{default:.3f}'} | "
                f"{'-' if tuned is None else f'{tuned:.3f}'} | {speed} |"
            )
        print()
    if overhead is not None:
        print(
            "\nexamples/mlp.mlir on device tensors: "
            + ", ".join(f"{k} {v:.1f}" for k, v in overhead.items())
        )
    for case in cases:
        for note in case.notes:
            print(f"- {case.name}: {note}")
    if args.json:
        with open(args.json, "w") as file:
            json.dump(
                {
                    "device": device,
                    "copy_gbs": bandwidth,
                    "call_overhead": overhead,
                    "cases": {
                        c.name: {
                            "ms": c.results,
                            "notes": c.notes,
                            "kernels": c.kernels,
                        }
                        for c in cases
                    },
                },
                file,
                indent=2,
            )


if __name__ == "__main__":
    main()
