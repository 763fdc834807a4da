"""irkit's C target against NumPy on the CPU, side by side in one run.

Each program is written once in `nn`, compiled with `irkit.compile` (the
`lower-to-c` pipeline, the system C compiler with `-O3 -march=native
-fopenmp`) and timed next to the same computation in NumPy (OpenBLAS for the
matmul), with the same thread count for both. irkit is timed as a user calls
it, `f(*arrays)` (argument checks and output allocation included), with the
C function alone (`CompiledFunction.time`) beside it. Results are checked against
NumPy before timing. Prints a Markdown table (paste it into
`docs/benchmarks.md`).

    OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 .venv/bin/python benchmarks/cpu.py

`--pipeline 'lower-to-c{tile=false hoist=false}'` measures another lowering
(here: without the matmul tiling and accumulator hoisting) for comparison;
`--tune` compiles with `irkit.compile(..., tune=True)` and prints what the
autotuner chose (and how long it took) per program.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import programs
from timing import median_seconds

import irkit
from irkit.testing import compare_arrays


@dataclass(frozen=True)
class Case:
    name: str
    program: str
    inputs: list[np.ndarray]
    numpy: Callable[..., np.ndarray]
    # The work one run does: (amount, unit) with unit "GFLOP" or "GB".
    work: tuple[float, str]
    # Absolute tolerance of the check against NumPy (None: the f32 default);
    # long f32 dot products differ from OpenBLAS' summation order by ~sqrt(K) ulps.
    atol: float | None = None


def matmul_case(n: int, rng: np.random.Generator) -> Case:
    program = programs.matmul(n)
    inputs = [rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2)]
    work = (2 * n**3 / 1e9, "GFLOP")
    return Case(f"matmul {n}^3", program, inputs, np.matmul, work, atol=1e-6 * n)


def fused_chain_case(n: int, rng: np.random.Generator) -> Case:
    program = programs.elementwise_chain(n)
    inputs = [rng.uniform(-1, 1, n).astype(np.float32) for _ in range(3)]

    def numpy_chain(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        return np.maximum(a * b + c, np.float32(0))

    # Compulsory traffic: three inputs read, one output written.
    return Case(
        f"relu(a*b+c) 2^{n.bit_length() - 1}",
        program,
        inputs,
        numpy_chain,
        (4 * 4 * n / 1e9, "GB"),
    )


def softmax_case(rows: int, cols: int, rng: np.random.Generator) -> Case:
    program = programs.softmax(rows, cols)

    def numpy_softmax(x: np.ndarray) -> np.ndarray:
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    inputs = [rng.uniform(-1, 1, (rows, cols)).astype(np.float32)]
    return Case(
        f"softmax {rows}x{cols}",
        program,
        inputs,
        numpy_softmax,
        (2 * 4 * rows * cols / 1e9, "GB"),
    )


def layer_norm_case(rows: int, cols: int, rng: np.random.Generator) -> Case:
    program = programs.layer_norm(rows, cols)

    def numpy_layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
        mean = x.mean(axis=1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
        return (x - mean) / np.sqrt(var + np.float32(1e-5)) * g + b

    inputs = [
        rng.uniform(-1, 1, (rows, cols)).astype(np.float32),
        rng.uniform(0.5, 1.5, cols).astype(np.float32),
        rng.uniform(-1, 1, cols).astype(np.float32),
    ]
    return Case(
        f"layer_norm {rows}x{cols}",
        program,
        inputs,
        numpy_layer_norm,
        (2 * 4 * rows * cols / 1e9, "GB"),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument(
        "--small", action="store_true", help="smaller sizes, for a smoke run"
    )
    parser.add_argument(
        "--pipeline",
        default="lower-to-c",
        help="the pass pipeline irkit compiles with (default: lower-to-c)",
    )
    parser.add_argument(
        "--tune", action="store_true", help="compile with tune=True instead"
    )
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    if args.small:
        cases = [
            matmul_case(128, rng),
            fused_chain_case(1 << 16, rng),
            softmax_case(256, 128, rng),
            layer_norm_case(256, 128, rng),
        ]
    else:
        cases = [
            matmul_case(1024, rng),
            fused_chain_case(1 << 24, rng),
            softmax_case(4096, 1024, rng),
            layer_norm_case(4096, 1024, rng),
        ]

    rows = []
    choices = []
    for case in cases:
        start = time.perf_counter()
        if args.tune:
            compiled = irkit.compile(case.program, target="c", tune=True)
            tuning = compiled.tuning
            assert tuning is not None
            choices.append(
                f"- {case.name}: {tuning.pipeline} (tuning {tuning.seconds:.1f} s, "
                f"{len(tuning.timings_ms)} candidates timed)"
            )
        else:
            compiled = irkit.compile(case.program, target="c", pipeline=args.pipeline)
        compile_seconds = time.perf_counter() - start
        (result,) = compiled(*case.inputs)
        irkit_s = median_seconds(lambda c=compiled, i=case.inputs: c(*i), args.repeats)
        c_alone_s = compiled.time(*case.inputs, runs=args.repeats).median_ms / 1e3
        # OpenBLAS' worker threads keep spinning for a while after a call and
        # would steal the cores from the OpenMP threads of the next timing.
        time.sleep(1.0)
        expected = case.numpy(*case.inputs)
        numpy_s = median_seconds(
            lambda c=case, i=case.inputs: c.numpy(*i), args.repeats
        )
        time.sleep(1.0)
        difference = compare_arrays(
            expected.astype(result.dtype), result, atol=case.atol
        )
        if difference is not None:
            raise SystemExit(
                f"{case.name}: irkit disagrees with NumPy: {difference.describe()}"
            )
        amount, unit = case.work
        rows.append(
            (case.name, compile_seconds, irkit_s, c_alone_s, numpy_s, amount, unit)
        )

    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, OMP_NUM_THREADS={threads}, "
        f"NumPy {np.__version__}, pipeline "
        f"{'chosen by tune=True' if args.tune else args.pipeline}"
    )
    print()
    print(
        "| program | irkit call (ms) | C alone (ms) | NumPy (ms) | NumPy time / irkit time | irkit rate | NumPy rate | compile (s) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, compile_s, irkit_s, c_alone_s, numpy_s, amount, unit in rows:
        rate = f"{unit}/s"
        print(
            f"| {name} | {irkit_s * 1e3:.2f} | {c_alone_s * 1e3:.2f} | {numpy_s * 1e3:.2f} | {numpy_s / irkit_s:.2f}x "
            f"| {amount / irkit_s:.1f} {rate} | {amount / numpy_s:.1f} {rate} | {compile_s:.2f} |"
        )
    if choices:
        print()
        print("\n".join(choices))


if __name__ == "__main__":
    main()
