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

`--matmul-sizes 512,1000,1024,2048` times SGEMM at those sizes (default
1024). `--pipeline 'lower-to-c{tile=false hoist=false}'` measures another lowering
(here: without the matmul tiling and accumulator hoisting) for comparison;
`--tune` compiles with `irkit.compile(..., tune=True)` and prints what the
autotuner chose (and how long it took) per program.

`--models` times the model corpus instead (torch-mlir exports of PyTorch
modules, weights as arguments, `benchmarks/models/zoo.py`): irkit through the
user's call beside the same module in PyTorch CPU eager (`torch.no_grad()`,
`torch.set_num_threads` = OMP_NUM_THREADS), both checked against PyTorch in
float64 first (relative L2 error <= 1e-4), each called for
`WARM_UP_SECONDS` before its timed calls (steady state: the side timed
first after the other is otherwise slower for a few milliseconds). `--size small` takes the CI twins
(`tests/corpus/models`: d 32, a few rows; mostly call overhead), `--size real`
the exported sizes (`benchmarks/models`); `--only-models a,b` picks some
(default: every f32 model but the ones too slow for two cores, `SLOW_MODELS`);
`--pipeline` compiles them with another lowering, and `--compare-pipelines
'P1;P2'` times more lowerings beside it, interleaved round by round with
PyTorch (as many rounds as lowerings, the fastest median of each kept), e.g.
`--compare-pipelines 'lower-to-c{fuse-attention=false}'` for the fused
attention's before and after.
NumPy has no such modules: no NumPy column. `--json FILE` writes the numbers
(the shape `benchmarks/gpu.py --json` writes), `--plot FILE.svg` the chart of
`benchmarks/plot.py`.

    OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 .venv/bin/python benchmarks/cpu.py \
        --models --size real --repeats 3 --json cpu-models.json --plot cpu-models.svg
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import plot
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


# --- the model corpus -------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
MODEL_DIRECTORIES = {
    "small": ROOT / "tests" / "corpus" / "models",
    "real": ROOT / "benchmarks" / "models",
}
# Relative L2 error allowed against PyTorch in float64 (as benchmarks/gpu.py).
MODEL_RTOL = 1e-4
# At the real sizes, minutes per run on two cores (a 1.6 GB score matrix per
# attention at 2048; 58 GFLOP for ResNet-18 at batch 32): left out unless
# named with --only-models.
SLOW_MODELS = frozenset(
    {"attention_s2048", "attention_s2048_causal", "mlp_m4096", "resnet18_b32"}
)


@dataclass
class ModelResult:
    name: str
    description: str
    ms: dict[str, float] = field(default_factory=dict)  # implementation -> ms
    notes: list[str] = field(default_factory=list)


def relative_error(result: np.ndarray, expected: np.ndarray) -> float:
    if not np.isfinite(result).all():
        return float("inf")
    difference = result.astype(np.float64) - expected
    return float(np.linalg.norm(difference) / np.linalg.norm(expected))


# Each implementation runs for this long before its timed calls: the first
# milliseconds after the other side's calls are slower (PyTorch's OpenMP
# workers still spinning, caches and the irkit pool cold), which on a
# millisecond workload moved the first-timed side by 2x (the ResNet basic
# block at batch 1: irkit's call 7.0 ms timed first, 2.9 ms timed again).
WARM_UP_SECONDS = 0.3


def steady_median(fn: Callable[[], object], repeats: int) -> float:
    """`median_seconds` after calling `fn` for `WARM_UP_SECONDS`."""
    start = time.perf_counter()
    while time.perf_counter() - start < WARM_UP_SECONDS:
        fn()
    return median_seconds(fn, repeats)


def run_model(
    name: str, size: str, repeats: int, pipelines: Sequence[str] = ("lower-to-c",)
) -> ModelResult:
    """One model of the corpus: irkit's C target through the user's call (and
    the C function alone) beside PyTorch CPU eager, on the same inputs; with
    several `pipelines`, each in turn, the rounds interleaved (a noisy host
    moves all of them alike), the fastest of the rounds' medians kept."""
    import copy

    import torch

    sys.path.insert(0, str(ROOT / "benchmarks" / "models"))
    from zoo import SMALL_WORKLOADS, WORKLOADS, build, export_arguments

    workload = (SMALL_WORKLOADS if size == "small" else WORKLOADS)[name]
    result = ModelResult(name, workload.description)
    module, inputs = build(workload)
    arguments, _ = export_arguments(module, inputs)
    reference_module = copy.deepcopy(module).double()
    with torch.no_grad():
        expected = reference_module(*(x.double() for x in inputs)).numpy()
    del reference_module

    def eager() -> Any:
        with torch.no_grad():
            return module(*inputs)

    error = relative_error(eager().numpy(), expected)
    if not error <= MODEL_RTOL:
        raise AssertionError(f"{name}: PyTorch relative L2 error {error:.3g}")
    result.ms["torch"] = steady_median(eager, repeats) * 1e3
    # PyTorch's OpenMP workers (its own libgomp) keep spinning for a while
    # after its last call and would take the cores from irkit's threads.
    time.sleep(1.0)

    arrays = [argument.numpy() for argument in arguments]
    program = (MODEL_DIRECTORIES[size] / f"{name}.mlir").read_text()
    functions: list[tuple[str, Any]] = []
    for index, pipeline in enumerate(pipelines):
        start = time.perf_counter()
        compiled: Any = irkit.compile(program, target="c", pipeline=pipeline)
        label = "irkit" if index == 0 else f"irkit {pipeline}"
        result.notes.append(f"{label} compile {time.perf_counter() - start:.1f} s")
        (output,) = compiled(*arrays)
        error = relative_error(output, expected)
        if not error <= MODEL_RTOL:
            raise AssertionError(f"{name}: {label} relative L2 error {error:.3g}")
        functions.append((label, compiled))
    for round_ in range(len(pipelines) if len(pipelines) > 1 else 1):
        if round_:
            torch_ms = steady_median(eager, repeats) * 1e3
            result.ms["torch"] = min(result.ms["torch"], torch_ms)
            time.sleep(1.0)
        for label, compiled in functions:
            call_ms = steady_median(lambda c=compiled: c(*arrays), repeats) * 1e3
            alone_ms = compiled.time(*arrays, runs=repeats).median_ms
            result.ms[label] = min(result.ms.get(label, call_ms), call_ms)
            alone = f"{label} C alone"
            result.ms[alone] = min(result.ms.get(alone, alone_ms), alone_ms)
    return result


def cpu_description() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    return f"{model}, {os.cpu_count()} cores, OMP_NUM_THREADS={threads}"


def run_models(args: argparse.Namespace) -> None:
    import torch

    threads = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1))
    torch.set_num_threads(threads)
    sys.path.insert(0, str(ROOT / "benchmarks" / "models"))
    from zoo import WORKLOADS

    # The f32 corpus, in the zoo's order (benchmarks/gpu.py's too).
    names = [n for n in args.only_models.split(",") if n] or [
        n for n in WORKLOADS if args.size == "small" or n not in SLOW_MODELS
    ]
    extra = [p for p in args.compare_pipelines.split(";") if p]
    results: list[ModelResult] = []
    for name in names:
        try:
            results.append(
                run_model(name, args.size, args.repeats, [args.pipeline, *extra])
            )
        except Exception as error:
            traceback.print_exc()
            failed = ModelResult(name, "")
            failed.notes.append(f"{type(error).__name__}: {error}")
            results.append(failed)
    device = f"CPU ({cpu_description()})"
    print(
        f"\n{device}; torch {torch.__version__} ({torch.get_num_threads()} threads), "
        f"NumPy {np.__version__}; model sizes: {args.size}\n"
    )
    print(
        "| model | irkit call (ms) | C alone (ms) | PyTorch CPU (ms) | "
        "irkit / PyTorch speed |"
    )
    print("|---|---|---|---|---|")
    for result in results:
        ours, alone = result.ms.get("irkit"), result.ms.get("irkit C alone")
        theirs = result.ms.get("torch")

        def text(ms: float | None) -> str:
            return "-" if ms is None else f"{ms:.2f}"

        speed = "-" if ours is None or theirs is None else f"{theirs / ours:.2f}x"
        print(
            f"| {result.name} | {text(ours)} | {text(alone)} | {text(theirs)} | "
            f"{speed} |"
        )
    for pipeline in extra:
        print(f"\n{pipeline}, interleaved with the above:\n")
        print("| model | irkit call (ms) | C alone (ms) | irkit / PyTorch speed |")
        print("|---|---|---|---|")
        for result in results:
            ours = result.ms.get(f"irkit {pipeline}")
            alone = result.ms.get(f"irkit {pipeline} C alone")
            theirs = result.ms.get("torch")
            speed = "-" if ours is None or theirs is None else f"{theirs / ours:.2f}x"
            print(
                f"| {result.name} | {'-' if ours is None else f'{ours:.2f}'} | "
                f"{'-' if alone is None else f'{alone:.2f}'} | {speed} |"
            )
    print()
    for result in results:
        for note in result.notes:
            print(f"- {result.name}: {note}")
    record = {
        "device": device,
        "size": args.size,
        "cases": {
            r.name: {"description": r.description, "ms": r.ms, "notes": r.notes}
            for r in results
        },
    }
    if args.json:
        Path(args.json).write_text(json.dumps(record, indent=2) + "\n")
    if args.plot:
        Path(args.plot).write_text(plot.svg(record))


def gelu_case(
    rows: int, cols: int, approximation: str, rng: np.random.Generator
) -> Case:
    """GELU, exact (erf) or tanh; NumPy has no erf, so the exact form's peer
    is PyTorch's CPU `F.gelu` (on the same arrays, no copies)."""
    program = programs.gelu(rows, cols, approximation)

    def numpy_gelu_tanh(x: np.ndarray) -> np.ndarray:
        inner = np.float32(np.sqrt(2 / np.pi)) * (
            x + np.float32(0.044715) * (x * x * x)
        )
        return np.float32(0.5) * x * (np.float32(1) + np.tanh(inner))

    def torch_gelu(x: np.ndarray) -> np.ndarray:
        import torch

        with torch.no_grad():
            return torch.nn.functional.gelu(torch.from_numpy(x)).numpy()

    inputs = [rng.uniform(-4, 4, (rows, cols)).astype(np.float32)]
    name = "gelu (erf, peer PyTorch)" if approximation == "none" else "gelu (tanh)"
    return Case(
        f"{name} {rows}x{cols}",
        program,
        inputs,
        torch_gelu if approximation == "none" else numpy_gelu_tanh,
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
    parser.add_argument(
        "--only", default="", help="run the programs whose names start with these"
    )
    parser.add_argument(
        "--models", action="store_true", help="the model corpus beside PyTorch CPU"
    )
    parser.add_argument(
        "--size",
        choices=("small", "real"),
        default="small",
        help="--models: the CI twins (small) or the exported sizes (real)",
    )
    parser.add_argument(
        "--only-models", default="", help="--models: comma-separated model names"
    )
    parser.add_argument(
        "--matmul-sizes",
        default="1024",
        help="the SGEMM sizes n (n x n x n), comma-separated (default 1024)",
    )
    parser.add_argument(
        "--compare-pipelines",
        default="",
        help="--models: more pipelines (';'-separated), timed interleaved with "
        "--pipeline, e.g. 'lower-to-c{fuse-attention=false}'",
    )
    parser.add_argument("--json", help="--models: write the numbers to this file")
    parser.add_argument("--plot", help="--models: write an SVG chart to this file")
    args = parser.parse_args()
    if args.models:
        run_models(args)
        return
    rng = np.random.default_rng(0)
    if args.small:
        cases = [
            matmul_case(128, rng),
            fused_chain_case(1 << 16, rng),
            softmax_case(256, 128, rng),
            layer_norm_case(256, 128, rng),
            gelu_case(256, 128, "none", rng),
            gelu_case(256, 128, "tanh", rng),
        ]
    else:
        cases = [
            *(matmul_case(int(n), rng) for n in args.matmul_sizes.split(",") if n),
            fused_chain_case(1 << 24, rng),
            softmax_case(4096, 1024, rng),
            layer_norm_case(4096, 1024, rng),
            gelu_case(4096, 1024, "none", rng),
            gelu_case(4096, 1024, "tanh", rng),
        ]
    prefixes = tuple(p for p in args.only.split(",") if p)
    if prefixes:
        cases = [case for case in cases if case.name.startswith(prefixes)]

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
