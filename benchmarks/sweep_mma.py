"""Sweep `convert-linalg-to-mma`'s tiles against cuBLAS in one GPU run.

    python benchmarks/sweep_mma.py SIZES TYPES "BLOCK/STAGES[/WARPS];..."
    python benchmarks/sweep_mma.py 4096,1024 f16,bf16 "128,128,32/2;128,128,16/4/2,2"
    python benchmarks/sweep_mma.py 4096,3000 tf32 "128,128,32/4/2,2;128,128,16/4/2,2;128,128,32/3/2,4"

Each configuration is compiled with
`lower-to-cuda{mma-block=BLOCK mma-stages=STAGES mma-warps=WARPS}`, called as a user calls
it on fresh random inputs, checked against a float64 product (relative L2
error printed) and timed with CUDA events beside cuBLAS (PyTorch's matmul
on the same half-precision inputs). Type `tf32` sweeps f32 GEMMs with
`allow-tf32=true` beside cuBLAS with `torch.backends.cuda.matmul.allow_tf32`
on. Prints one row each.
"""

from __future__ import annotations

import sys

import torch

import irkit

sys.path.insert(0, "benchmarks")
from gpu import half_matmul_case, median_ms, relative_error, tf32_matmul_case

g = torch.Generator(device="cuda").manual_seed(0)
CONFIGS = [c.split("/") for c in sys.argv[3].split(";")]
print("| size | type | config | ms | TFLOP/s | vs cuBLAS | rel. error |")
print("|---|---|---|---|---|---|---|")
for element in sys.argv[2].split(","):
    for n in [int(s) for s in sys.argv[1].split(",")]:
        tf32 = element == "tf32"
        case = tf32_matmul_case(n) if tf32 else half_matmul_case(n, element)
        a, b = case.make_inputs(g)
        expected = a.double() @ b.double()
        torch.backends.cuda.matmul.allow_tf32 = tf32
        cublas = median_ms(lambda: torch.matmul(a, b), 30)
        torch.backends.cuda.matmul.allow_tf32 = False
        flops = 2 * n**3 / 1e9
        print(
            f"| {n} | {element} | cuBLAS | {cublas:.3f} | {flops / cublas:.0f} | 1.00 | - |"
        )
        for config in CONFIGS:
            block, stages, *warps = config
            options = f"mma-block={block} mma-stages={stages}"
            options += f" mma-warps={warps[0]}" if warps else ""
            options += " allow-tf32=true" if tf32 else ""
            pipeline = f"lower-to-cuda{{{options}}}"
            try:
                f = irkit.compile(case.program, target="cuda", pipeline=pipeline)
                (out,) = f(a, b)
                error = relative_error(out, expected)
                ms = median_ms(lambda: f(a, b), 30)
                print(
                    f"| {n} | {element} | {'/'.join(config)} | {ms:.3f} | "
                    f"{flops / ms:.0f} | {cublas / ms:.2f} | {error:.1e} |"
                )
            except Exception as exc:  # one configuration failing must not end the sweep
                print(f"| {n} | {element} | {'/'.join(config)} | failed: {exc} |")
