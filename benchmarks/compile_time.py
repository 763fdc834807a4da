"""Where a cold CUDA compile's time goes, stage by stage.

    python benchmarks/compile_time.py [--models gpt2_block,bert_layer]
                                      [--threads N] [--verify-each] [--json FILE]

For each program of `benchmarks/models/` it runs what
`irkit.compile(text, target="cuda")` runs with an empty cache and times each
part: parsing, every pass of `lower-to-cuda` (as `irkit.runtime.lower` runs
it: verified once at the end; `--verify-each` also times the verification
each pass boundary would cost), printing the CUDA C and launch plans, and
the CUDA compiler (NVRTC, else nvcc) three ways, each into an empty cache:
the unit as one program (how irkit compiled before, and how it compiles
with nvcc), its per-kernel programs one after the other, and the same on
`--threads` threads (default: every core; what `irkit.compile` does with
NVRTC). With a GPU it also times loading the cubins and, last, the whole
cold `irkit.compile` in a fresh cache directory (the issue's number: the
device is opened before, so CUDA's one-time initialisation, timed on its
own, is not in it). Without cuda-python it times the pipeline and printing
only; without a GPU, everything up to NVRTC.

Prints a Markdown table of the stages per model (seconds), then each
model's passes, slowest first.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import irkit
from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.runtime.cache import CACHE_DIR_VARIABLE, ArtifactCache
from irkit.targets.registry import get_target
from irkit.verification import verify_module

MODELS = Path(__file__).resolve().parent / "models"


@dataclasses.dataclass
class Breakdown:
    """Seconds per stage of one model's cold compile (None: not measured)."""

    model: str
    kernels: int = 0
    parse: float = 0.0
    passes: float = 0.0
    final_verify: float = 0.0
    verify_each: float | None = None
    emit: float = 0.0
    nvrtc_unit: float | None = None
    nvrtc_serial: float | None = None
    nvrtc_parallel: float | None = None
    load: float | None = None
    cold_compile: float | None = None
    per_pass: list[tuple[str, float]] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)


def _lower(breakdown: Breakdown, module: Any, verify_each: bool) -> None:
    """`lower-to-cuda` as `irkit.runtime.lower` runs it, each pass timed."""
    target = get_target("cuda")
    pipeline = Pipeline.parse(target.with_hardware(target.pipeline))
    pipeline.verify_each = False
    started: list[float] = []
    verify_seconds: list[float] = []

    def before(pass_: Any, _: Any) -> None:
        started.append(time.perf_counter())

    def after(pass_: Any, module: Any) -> None:
        breakdown.per_pass.append((pass_.name, time.perf_counter() - started[-1]))
        if verify_each:
            start = time.perf_counter()
            verify_module(module)
            verify_seconds.append(time.perf_counter() - start)

    pipeline.before_pass = before
    pipeline.after_pass = after
    start = time.perf_counter()
    pipeline.run(make_context(), module)
    total = time.perf_counter() - start
    breakdown.passes = sum(seconds for _, seconds in breakdown.per_pass)
    breakdown.final_verify = total - breakdown.passes - sum(verify_seconds)
    if verify_each:
        breakdown.verify_each = sum(verify_seconds)


def _nvrtc(breakdown: Breakdown, unit: Any, threads: int) -> dict[str, Path] | None:
    """The CUDA compiler three ways, each into an empty cache; the parallel
    compile's cubins, or None when no CUDA compiler is here."""
    from irkit.runtime.cuda import (
        CudaUnavailableError,
        compile_unit,
        cuda_compiler,
        device_hardware,
    )

    try:
        compiler = cuda_compiler()
    except CudaUnavailableError as error:
        breakdown.notes.append(f"no CUDA compiler: {error}")
        return None
    arch = device_hardware().architecture
    whole = dataclasses.replace(unit, programs=())
    cubins: dict[str, Path] = {}
    for field, variant, count in (
        ("nvrtc_unit", whole, 1),
        ("nvrtc_serial", unit, 1),
        ("nvrtc_parallel", unit, threads),
    ):
        cache = ArtifactCache.open(Path(tempfile.mkdtemp(prefix="irkit-nvrtc-")))
        start = time.perf_counter()
        cubins = compile_unit(
            variant, arch, cache, compiler, threads=count, per_kernel=True
        )
        setattr(breakdown, field, time.perf_counter() - start)
    if compiler.kind != "nvrtc":
        breakdown.notes.append(
            f"compiled with {compiler.kind}, which irkit.compile runs on the unit whole"
        )
    return cubins


def _load_and_cold_compile(
    breakdown: Breakdown, text: str, unit: Any, cubins: dict[str, Path]
) -> None:
    """With a GPU: loading the cubins, then a whole cold `irkit.compile`."""
    from irkit.runtime.cuda import CudaCompiledFunction, _open_device
    from irkit.runtime.program_cache import LOADED

    symbol = next(iter(unit.plans))
    from irkit.runtime.arguments import describe_parameters

    plan = unit.plans[symbol]
    start = time.perf_counter()
    CudaCompiledFunction(
        unit, plan, describe_parameters(plan.arguments), cubins, _open_device()
    )
    breakdown.load = time.perf_counter() - start
    previous = os.environ.get(CACHE_DIR_VARIABLE)
    os.environ[CACHE_DIR_VARIABLE] = tempfile.mkdtemp(prefix="irkit-cold-")
    try:
        LOADED.clear()
        start = time.perf_counter()
        irkit.compile(text, target="cuda")
        breakdown.cold_compile = time.perf_counter() - start
    finally:
        if previous is None:
            del os.environ[CACHE_DIR_VARIABLE]
        else:
            os.environ[CACHE_DIR_VARIABLE] = previous


def measure(model: str, threads: int, verify_each: bool, gpu: bool) -> Breakdown:
    text = (MODELS / f"{model}.mlir").read_text()
    breakdown = Breakdown(model)
    start = time.perf_counter()
    module = parse_module(text)
    breakdown.parse = time.perf_counter() - start
    _lower(breakdown, module, verify_each)
    start = time.perf_counter()
    unit: Any = get_target("cuda").emit(module)
    breakdown.emit = time.perf_counter() - start
    breakdown.kernels = len(unit.kernels)
    cubins = _nvrtc(breakdown, unit, threads)
    if gpu and cubins is not None:
        _load_and_cold_compile(breakdown, text, unit, cubins)
    return breakdown


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def print_tables(breakdowns: list[Breakdown], threads: int) -> None:
    columns = [
        ("kernels", lambda b: str(b.kernels)),
        ("parse", lambda b: _seconds(b.parse)),
        ("passes", lambda b: _seconds(b.passes)),
        ("verify (once)", lambda b: _seconds(b.final_verify)),
        ("verify each pass", lambda b: _seconds(b.verify_each)),
        ("print", lambda b: _seconds(b.emit)),
        ("cubins: unit whole", lambda b: _seconds(b.nvrtc_unit)),
        ("cubins: per kernel, 1 thread", lambda b: _seconds(b.nvrtc_serial)),
        (
            f"cubins: per kernel, {threads} threads",
            lambda b: _seconds(b.nvrtc_parallel),
        ),
        ("load cubins", lambda b: _seconds(b.load)),
        (
            "cold compile without loading",
            lambda b: _seconds(
                b.parse + b.passes + b.final_verify + b.emit + (b.nvrtc_parallel or 0.0)
            ),
        ),
        ("cold irkit.compile", lambda b: _seconds(b.cold_compile)),
    ]
    print("| model | " + " | ".join(name for name, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for breakdown in breakdowns:
        cells = " | ".join(cell(breakdown) for _, cell in columns)
        print(f"| {breakdown.model} | {cells} |")
    for breakdown in breakdowns:
        for note in breakdown.notes:
            print(f"- {breakdown.model}: {note}")
    for breakdown in breakdowns:
        print(f"\n{breakdown.model}: passes, slowest first (s)")
        for name, seconds in sorted(breakdown.per_pass, key=lambda row: -row[1]):
            print(f"  {seconds:.3f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--models",
        default="gpt2_block",
        help="comma-separated names of benchmarks/models/*.mlir",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="threads for the parallel NVRTC compile (default: every core)",
    )
    parser.add_argument(
        "--verify-each",
        action="store_true",
        help="also time verifying the module after every pass",
    )
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args()
    from irkit.runtime.cuda import compile_threads, gpu_unavailable_reason

    threads = args.threads or compile_threads()
    start = time.perf_counter()
    reason = gpu_unavailable_reason()  # opens the device: CUDA's initialisation
    if reason is None:
        print(
            f"CUDA initialisation (once per process): {time.perf_counter() - start:.3f} s"
        )
    else:
        print(f"no GPU ({reason}): no loading, no whole irkit.compile")
    print(f"{os.cpu_count()} cores, {threads} compile threads\n")
    breakdowns = [
        measure(model.strip(), threads, args.verify_each, reason is None)
        for model in args.models.split(",")
        if model.strip()
    ]
    print_tables(breakdowns, threads)
    if args.json:
        Path(args.json).write_text(
            json.dumps([dataclasses.asdict(b) for b in breakdowns], indent=1) + "\n"
        )


if __name__ == "__main__":
    sys.exit(main())
