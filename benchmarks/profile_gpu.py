"""Run one benchmark program's irkit kernels (and its peers) a few times, for a profiler.

    ncu --launch-skip 2 --launch-count 1 -k regex:main_kernel \\
        python benchmarks/profile_gpu.py softmax [--pipeline "lower-to-cuda{...}"]

Cases are the ones of benchmarks/gpu.py at their full sizes (sgemm N takes
the size: `sgemm 1000`). Each irkit call and each peer call is made three
times, so `--launch-skip 2` profiles a warm launch. The result is checked
against float64 PyTorch first, so a profile is never of wrong code.
"""

from __future__ import annotations

import argparse
from typing import Any

import torch
from gpu import (
    Case,
    check,
    fused_case,
    layer_norm_case,
    matmul_case,
    poisoned_like,
    softmax_case,
)

import irkit


def case_named(name: str, size: int) -> Case:
    cases = {
        "sgemm": lambda: matmul_case(size or 4096),
        "fused": lambda: fused_case(1 << 28),
        "softmax": lambda: softmax_case(32768, 4096),
        "layer_norm": lambda: layer_norm_case(32768, 4096),
    }
    return cases[name]()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", choices=["sgemm", "fused", "softmax", "layer_norm"])
    parser.add_argument("size", type=int, nargs="?", default=0)
    parser.add_argument("--pipeline", help="a pass pipeline instead of lower-to-cuda")
    parser.add_argument("--peers", action="store_true", help="also run the peers")
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    case = case_named(args.case, args.size)
    g = torch.Generator(device="cuda").manual_seed(0)
    inputs = case.make_inputs(g)
    expected = case.reference(*inputs)
    out = poisoned_like(expected.float())
    compiled: Any = irkit.compile(case.program, target="cuda", pipeline=args.pipeline)
    for _ in range(3):
        compiled(*inputs, out=(out,))
    check("irkit", case, out, expected)
    if args.peers:
        for peer in case.peers.values():
            for _ in range(3):
                peer(*inputs, out)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
