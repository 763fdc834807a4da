"""PyTorch modules through irkit's PyTorch frontend on the GPU, beside eager
and `torch.compile`, in one run.

    python benchmarks/torch_backend.py [--models gpt2_block,llama_block,resnet18_b1]
        [--peers "torch eager,irkit.torch.compile"] [--repeats 20] [--json OUT.json]

`--models all` takes every workload of the zoo (transformers and conv nets,
f32); `--peers` chooses the columns (all four by default).

Each module is what a PyTorch user has (`benchmarks/models/zoo.py`'s
workloads at their real sizes: the GPT-2 and LLaMA blocks, and ResNet-18 as
torchvision defines it, `resnet18_b1`, batch 1 at 224x224, eval mode, batch
norm with non-trivial running statistics), on CUDA tensors, f32 with TF32
off, called as a user calls it, `f(x)`:

- `torch eager`: the module under `torch.no_grad()`;
- `torch.compile`: Inductor, the default backend;
- `backend=irkit`: `torch.compile(module, backend=...)` with irkit's dynamo
  backend (`irkit.frontends.torch.dynamo_backend`; by name, "irkit", once
  irkit is installed with its entry point);
- `irkit.torch.compile`: the module exported, imported without torch-mlir,
  lowered and compiled by irkit (parameters bound).

Every result is checked against float64 eager before timing (relative L2
error <= 1e-4). Prints a table of times and speeds relative to eager, the
compile times, and writes the raw numbers with `--json`.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from torch import Tensor, nn

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "models"))
from gpu import median_ms, relative_error
from zoo import WORKLOADS, build

import irkit.torch as irkit_torch
from irkit.frontends.torch import dynamo_backend

RTOL = 1e-4


def model(name: str) -> tuple[nn.Module, tuple[Tensor, ...]]:
    """A zoo workload at its real size (`resnet18` is `resnet18_b1`)."""
    return build(WORKLOADS["resnet18_b1" if name == "resnet18" else name])


PEERS = ("torch eager", "torch.compile", "backend=irkit", "irkit.torch.compile")


def run(name: str, repeats: int, peers: tuple[str, ...] = PEERS) -> dict[str, Any]:
    module, inputs = model(name)
    module = module.cuda()
    inputs = tuple(x.cuda() for x in inputs)
    reference = copy.deepcopy(module).double()
    with torch.no_grad():
        expected = reference(*(x.double() for x in inputs))
    del reference
    row: dict[str, Any] = {"name": name, "ms": {}, "compile_s": {}, "notes": []}

    def eager(*args: Tensor) -> Tensor:
        with torch.no_grad():
            return module(*args)

    makers: dict[str, Callable[[], Callable[..., Tensor]]] = {
        "torch eager": lambda: eager,
        "torch.compile": lambda: torch.compile(module, dynamic=False),
        "backend=irkit": lambda: torch.compile(
            module, backend=dynamo_backend, dynamic=False
        ),
        "irkit.torch.compile": lambda: irkit_torch.compile(module, *inputs),
    }
    for peer, make in makers.items():
        if peer not in peers:
            continue
        try:
            started = time.perf_counter()
            function = make()
            with torch.no_grad():
                result = function(*inputs)  # compiles, for the lazy ones
            torch.cuda.synchronize()
            row["compile_s"][peer] = time.perf_counter() - started
            error = relative_error(result, expected)
            if not error <= RTOL:
                raise AssertionError(f"relative L2 error {error:.3g}")

            def call(f: Callable[..., Tensor] = function) -> Tensor:
                with torch.no_grad():
                    return f(*inputs)

            row["ms"][peer] = median_ms(call, repeats)
        except Exception as error:  # one peer failing must not end the run
            row["notes"].append(f"{peer}: {type(error).__name__}: {error}")
            traceback.print_exc()
        torch.cuda.empty_cache()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="gpt2_block,llama_block,resnet18_b1")
    parser.add_argument("--peers", default=",".join(PEERS))
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--json", help="write the raw numbers to this file")
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    names = list(WORKLOADS) if args.models == "all" else args.models.split(",")
    chosen = tuple(peer for peer in args.peers.split(",") if peer)
    unknown = [peer for peer in chosen if peer not in PEERS]
    if unknown:
        parser.error(f"unknown peers {unknown}: choose from {list(PEERS)}")
    rows = [run(name, args.repeats, chosen) for name in names if name]
    peers = PEERS
    print(f"\nDevice: {torch.cuda.get_device_name()}; torch {torch.__version__}\n")
    print(
        "| model | "
        + " | ".join(f"{peer} (ms)" for peer in peers)
        + " | backend=irkit / eager speed | backend=irkit / torch.compile speed"
        " | irkit.torch.compile / eager speed |"
    )
    print("|---" * (len(peers) + 4) + "|")
    for row in rows:
        ms = row["ms"]

        def cell(peer: str, times: dict[str, float] = ms) -> str:
            return f"{times[peer]:.3f}" if peer in times else "-"

        def speed(fast: str, slow: str, times: dict[str, float] = ms) -> str:
            if fast in times and slow in times:
                return f"{times[slow] / times[fast]:.2f}"
            return "-"

        print(
            f"| {row['name']} | "
            + " | ".join(cell(peer) for peer in peers)
            + f" | {speed('backend=irkit', 'torch eager')}"
            f" | {speed('backend=irkit', 'torch.compile')}"
            f" | {speed('irkit.torch.compile', 'torch eager')} |"
        )
    for row in rows:
        compiles = ", ".join(f"{k} {v:.1f} s" for k, v in row["compile_s"].items())
        print(f"- {row['name']}: first call (compile) {compiles}")
        for note in row["notes"]:
            print(f"  - {note}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
