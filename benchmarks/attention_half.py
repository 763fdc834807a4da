"""The fused half-precision attention on the GPU beside its unfused lowering,
PyTorch eager and SDPA, in one table (`linalg-fuse-attention`'s half
precision: docs/passes/linalg-fuse-attention.md).

    .venv/bin/python benchmarks/attention_half.py [--repeats 20]
        [--only attention_s512_f16,...] [--blocks '128,128,256,16;64,64,128,16']

For each workload (default: `HALF_ATTENTION`, torch-mlir's f16 exports in
`benchmarks/models`) it times, through the user's call on CUDA tensors:

- irkit with `lower-to-cuda` (the fused kernel), with
  `lower-to-cuda{fuse-attention=false}` (the unfused chain), and with each
  `attention-block` of `--blocks` (rows, keys, threads, threads along x);
- the PyTorch module it was exported from, eager, in f16;
- `torch.nn.functional.scaled_dot_product_attention` in f16 (on the H100,
  FlashAttention-2's kernel).

Every row is checked against the module in float64 first (relative L2 error
at most `HALF_MODEL_RTOL`, as `benchmarks/gpu.py --models` checks f16
models) and then timed: the median of `--repeats` CUDA-event timings after a
warm-up (`gpu.median_ms`). irkit's rows also give their kernel count.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from gpu import HALF_MODEL_RTOL, kernel_count, median_ms, relative_error

import irkit

MODELS = Path(__file__).resolve().parent / "models"

HALF_ATTENTION = (
    "attention_s128_causal_f16",
    "attention_s512_f16",
    "attention_s2048_f16",
)
UNFUSED = "lower-to-cuda{fuse-attention=false}"

Tensor = torch.Tensor


def _checked_ms(
    run: Callable[[], Tensor], expected: Tensor, repeats: int
) -> tuple[float | None, str]:
    """`run`'s median time in ms once its result matches `expected`, or
    None and why not."""
    try:
        error = relative_error(run().float(), expected)
        if not error <= HALF_MODEL_RTOL:
            return None, f"relative L2 error {error:.3g}"
        return median_ms(run, repeats), f"error {error:.1e}"
    except Exception as failure:
        traceback.print_exc()
        return None, f"{type(failure).__name__}: {failure}"


def _irkit(
    program: str, pipeline: str | None
) -> tuple[Callable[[list[Tensor]], Tensor], int]:
    compiled: Any = irkit.compile(program, target="cuda", pipeline=pipeline)

    def call(arguments: list[Tensor]) -> Tensor:
        (result,) = compiled(*arguments)
        return result

    return call, kernel_count(compiled)


def rows_of(name: str, blocks: list[str], repeats: int) -> list[str]:
    """The table rows of workload `name`."""
    sys.path.insert(0, str(MODELS))
    from zoo import HALF_WORKLOADS, build, export_arguments

    workload = HALF_WORKLOADS[name]
    module, inputs = build(workload)
    module = module.cuda()
    inputs = tuple(x.cuda() for x in inputs)
    arguments, _ = export_arguments(module, inputs)
    with torch.no_grad():
        reference = module.double()(*(x.double() for x in inputs))
        module = module.to(workload.dtype)
    program = (MODELS / f"{name}.mlir").read_text()
    q, k, v = inputs
    causal = bool(getattr(module, "causal", False))

    def eager() -> Tensor:
        with torch.no_grad():
            return module(*inputs)

    def sdpa() -> Tensor:
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    variants: list[tuple[str, str | None]] = [
        ("irkit fused", None),
        ("irkit unfused", UNFUSED),
    ]
    variants += [
        (f"irkit attention-block={block}", f"lower-to-cuda{{attention-block={block}}}")
        for block in blocks
    ]
    rows: list[str] = []
    for label, pipeline in variants:
        try:
            call, kernels = _irkit(program, pipeline)
        except Exception as failure:
            traceback.print_exc()
            rows.append(f"| `{name}` | {label} | | | {type(failure).__name__} |")
            continue
        ms, note = _checked_ms(lambda c=call: c(list(arguments)), reference, repeats)
        rows.append(_row(name, label, ms, kernels, note))
    for label, peer in (("torch eager (f16)", eager), ("SDPA (f16)", sdpa)):
        ms, note = _checked_ms(peer, reference, repeats)
        rows.append(_row(name, label, ms, None, note))
    return rows


def _row(
    name: str, label: str, ms: float | None, kernels: int | None, note: str
) -> str:
    time = "" if ms is None else f"{ms:.3f}"
    count = "" if kernels is None else str(kernels)
    return f"| `{name}` | {label} | {time} | {count} | {note} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument(
        "--only", default=",".join(HALF_ATTENTION), help="comma-separated workloads"
    )
    parser.add_argument(
        "--blocks",
        default="",
        help="';'-separated attention-block values to time beside the default, "
        "e.g. '128,128,256,16;64,64,128,16'",
    )
    options = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("attention_half.py needs a CUDA device")
    torch.backends.cuda.matmul.allow_tf32 = False
    names = [name for name in options.only.split(",") if name]
    sys.path.insert(0, str(MODELS))
    from zoo import HALF_WORKLOADS

    unknown = [name for name in names if name not in HALF_WORKLOADS]
    if unknown:
        raise SystemExit(f"unknown half workloads: {', '.join(unknown)}")
    blocks = [block for block in options.blocks.split(";") if block]
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    print()
    print("| workload | what | ms | kernels | check |")
    print("|---|---|---|---|---|")
    for name in names:
        for row in rows_of(name, blocks, options.repeats):
            print(row, flush=True)


if __name__ == "__main__":
    main()
