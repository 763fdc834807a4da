"""Where a model's time goes: each irkit kernel of a corpus model, timed by
the CUDA profiler (CUPTI, through `torch.profiler`), beside PyTorch eager's.

    python benchmarks/profile_models.py gpt2_block [--pipeline "lower-to-cuda{...}"]

It explains the numbers of `benchmarks/gpu.py --models` (which time the
user's call); it does not replace them. The model is compiled as a user
compiles it (`irkit.compile(..., target="cuda")`), called on PyTorch CUDA
tensors, and checked against float64 PyTorch before anything is timed.
With `--compile`, torch.compile's kernels too.
Prints one table per side: kernel, launch shape, calls, mean microseconds,
share of the total.
"""

from __future__ import annotations

import argparse
import copy
import sys
from collections.abc import Callable
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile

import irkit

MODELS = Path(__file__).resolve().parent / "models"


def _table(title: str, prof: profile, calls: int) -> None:
    events = [
        event
        for event in prof.key_averages()
        if event.device_time_total > 0 and event.device_type.name == "CUDA"
    ]
    total = sum(event.device_time_total for event in events)
    print(f"\n{title}: {total / calls:.1f} us of kernels per call")
    print("| kernel | launches per call | us per call | share |")
    print("|---|---|---|---|")
    for event in sorted(events, key=lambda e: -e.device_time_total):
        print(
            f"| {event.key[:60]} | {event.count / calls:.0f} "
            f"| {event.device_time_total / calls:.1f} "
            f"| {event.device_time_total / total:.0%} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="a benchmarks/models workload, e.g. gpt2_block")
    parser.add_argument("--pipeline", help="a pass pipeline instead of lower-to-cuda")
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument(
        "--compile",
        action="store_true",
        help="also profile torch.compile's kernels (default mode, TF32 off)",
    )
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    sys.path.insert(0, str(MODELS))
    from zoo import WORKLOADS, build, export_arguments

    module, inputs = build(WORKLOADS[args.model])
    module = module.cuda().eval()
    inputs = tuple(x.cuda() for x in inputs)
    arguments, _ = export_arguments(module, inputs)
    with torch.no_grad():
        expected = copy.deepcopy(module).double()(*(x.double() for x in inputs))
    options = {"pipeline": args.pipeline} if args.pipeline else {}
    compiled = irkit.compile(
        (MODELS / f"{args.model}.mlir").read_text(), target="cuda", **options
    )
    result = compiled(*arguments)
    result = result[0] if isinstance(result, (list, tuple)) else result
    error = (result.double() - expected).abs().max().item()
    scale = expected.abs().max().item()
    print(f"{args.model}: max abs error {error:.3g} (max |expected| {scale:.3g})")
    if not error <= 1e-3 * max(scale, 1.0):
        raise SystemExit("wrong result: not profiling")
    sides: list[tuple[str, Callable[[], object]]] = [
        ("irkit", lambda: compiled(*arguments)),
        ("torch eager", lambda: module(*inputs)),
    ]
    if args.compile:
        optimized = torch.compile(module)
        sides.append(("torch.compile", lambda: optimized(*inputs)))
    for side, run in sides:
        with torch.no_grad():
            for _ in range(3):
                run()
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(args.calls):
                    run()
                torch.cuda.synchronize()
        _table(side, prof, args.calls)


if __name__ == "__main__":
    main()
