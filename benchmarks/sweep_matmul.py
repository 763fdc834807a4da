"""Sweep `lower-to-cuda` matmul tile options against cuBLAS in one GPU run.

    python benchmarks/sweep_matmul.py SIZES "BLOCK/THREAD[/OPTIONS];..."
    python benchmarks/sweep_matmul.py 4096,1000 "64,64,16/4,4;128,128,16/8,8/matmul-cyclic=true"

Each configuration is compiled with
`lower-to-cuda{matmul-block=BLOCK matmul-thread=THREAD OPTIONS}`, checked against a
float64 product (relative L2 error printed) with its output poisoned first,
and timed with CUDA events next to cuBLAS (TF32 off). Prints one row each.
"""

from __future__ import annotations

import sys
import time

import torch

import irkit

sys.path.insert(0, "benchmarks")
from gpu import matmul_case, median_ms, relative_error

torch.backends.cuda.matmul.allow_tf32 = False
g = torch.Generator(device="cuda").manual_seed(0)
CONFIGS = [c.split("/") for c in sys.argv[2].split(";")]
rows = []
for n in [int(s) for s in sys.argv[1].split(",")]:
    case = matmul_case(n)
    a, b = case.make_inputs(g)
    expected = a.double() @ b.double()
    out = torch.full((n, n), float("nan"), device="cuda")
    cublas = median_ms(lambda: torch.matmul(a, b, out=out), 20)
    flops = 2 * n**3 / 1e9
    rows.append((n, "cuBLAS", cublas, flops / cublas, 1.0, 0.0))
    for block, thread, *options in CONFIGS:
        extra = "".join(f" {option}" for option in options)
        pipeline = (
            f"lower-to-cuda{{matmul-block={block} matmul-thread={thread}{extra}}}"
        )
        try:
            start = time.perf_counter()
            f = irkit.compile(case.program, target="cuda", pipeline=pipeline)
            took = time.perf_counter() - start
            out.fill_(float("nan"))
            f(a, b, out=(out,))
            err = relative_error(out, expected)
            ms = f.time(a, b, runs=20, warmup=3).median_ms
            rows.append(
                (
                    n,
                    f"{block}/{thread}{extra} err={err:.1e} c={took:.1f}s",
                    ms,
                    flops / ms,
                    cublas / ms,
                    err,
                )
            )
        except Exception as e:
            rows.append(
                (
                    n,
                    f"{block}/{thread}{extra} FAILED {type(e).__name__}: {str(e)[:200]}",
                    0,
                    0,
                    0,
                    0,
                )
            )
for n, name, ms, tf, ratio, _ in rows:
    print(f"{n:5d} {name:60s} {ms:8.3f} ms {tf:6.1f} TFLOP/s {ratio:5.2f}x cuBLAS")
