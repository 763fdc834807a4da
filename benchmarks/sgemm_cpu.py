"""SGEMM on the CPU: irkit's C pipelines beside NumPy/OpenBLAS, per size.

Each size is compiled with every pipeline given (default: `lower-to-c`, the
vectorised micro-kernels, and `lower-to-c{vectorize=false}`, the scalar
ones, which is what `lower-to-c` was before), checked against NumPy, then
timed through the user's call `f(a, b)` (argument checks and output
allocation included), interleaved with NumPy round by round so that a
noisy neighbour on the machine hits both alike. Prints a Markdown table.

    OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 .venv/bin/python benchmarks/sgemm_cpu.py
    ... benchmarks/sgemm_cpu.py --sizes 512 1000 1024 2048 --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
import programs
from timing import median_seconds

import irkit
from irkit.testing import compare_arrays

DEFAULT_PIPELINES = ("lower-to-c", "lower-to-c{vectorize=false}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024])
    parser.add_argument("--pipelines", nargs="+", default=list(DEFAULT_PIPELINES))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    print(f"{os.cpu_count()} cores, OMP_NUM_THREADS={threads}, NumPy {np.__version__}")
    print()
    print(
        "| n | pipeline | irkit (ms) | NumPy (ms) | NumPy time / irkit time | irkit GFLOP/s |"
    )
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        a, b = (rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2))
        expected = a @ b
        compiled = {}
        for pipeline in args.pipelines:
            function = irkit.compile(programs.matmul(n), target="c", pipeline=pipeline)
            (result,) = function(a, b)
            difference = compare_arrays(expected, result, atol=1e-6 * n)
            if difference is not None:
                raise SystemExit(f"{n}^3 {pipeline}: {difference.describe()}")
            compiled[pipeline] = function
        times: dict[str, list[float]] = {p: [] for p in [*args.pipelines, "numpy"]}
        for _ in range(args.rounds):
            for pipeline, function in compiled.items():
                times[pipeline].append(
                    median_seconds(lambda f=function: f(a, b), args.repeats)
                )
            # OpenBLAS' spinning workers would steal the cores from OpenMP's.
            time.sleep(0.5)
            times["numpy"].append(median_seconds(lambda: a @ b, args.repeats))
            time.sleep(0.5)
        numpy_s = statistics.median(times["numpy"])
        for pipeline in args.pipelines:
            irkit_s = statistics.median(times[pipeline])
            print(
                f"| {n} | `{pipeline}` | {irkit_s * 1e3:.2f} | {numpy_s * 1e3:.2f} "
                f"| {numpy_s / irkit_s:.2f}x | {2 * n**3 / irkit_s / 1e9:.0f} |"
            )


if __name__ == "__main__":
    main()
