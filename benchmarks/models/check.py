"""Lower every real-size workload (`benchmarks/models/<name>.mlir`) for CUDA
and say what the launch plan holds; no GPU needed.

For each program: `lower-to-cuda`, the CUDA printer, then the counts of the
launch plan (kernel launches, distinct kernels, buffers it allocates and their
bytes) and the size of the CUDA C. With `--cubin` each source is also compiled
for sm_90 as the runtime compiles it (`irkit.runtime.cuda.compile_unit`:
a cubin per kernel, NVRTC or nvcc, on every core). Prints a
Markdown table; exits 1 if any program fails, naming the error.

    .venv/bin/python benchmarks/models/check.py [--cubin] [NAME ...]

The small-size twins are run on the C target and compiled for CUDA by
`tests/end_to_end/test_model_corpus.py`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import irkit
from irkit.runtime import lower
from irkit.runtime.cuda import compile_unit
from irkit.targets.cuda import AllocateBuffer, KernelLaunch, emit_cuda

HERE = Path(__file__).resolve().parent
ARCH = "sm_90"


def plan_row(name: str, cubin: bool) -> str:
    started = time.perf_counter()
    module = irkit.parse((HERE / f"{name}.mlir").read_text(), filename=f"{name}.mlir")
    lower(module, "lower-to-cuda", target="cuda")
    unit = emit_cuda(module)
    lowered = time.perf_counter() - started
    steps = unit.plans[name].steps
    launches = [step for step in steps if isinstance(step, KernelLaunch)]
    buffers = [step for step in steps if isinstance(step, AllocateBuffer)]
    scratch = sum(step.nbytes for step in buffers)
    row = (
        f"| `{name}` | {len(launches)} | {len({s.kernel for s in launches})} "
        f"| {len(buffers)} | {scratch / 2**20:,.1f} | {len(unit.source):,} "
        f"| {lowered:.1f} |"
    )
    if cubin:
        started = time.perf_counter()
        cubins = set(compile_unit(unit, ARCH).values())
        size = sum(path.stat().st_size for path in cubins)
        row += f" {size:,} | {time.perf_counter() - started:.1f} |"
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="workloads (default: all)")
    parser.add_argument("--cubin", action="store_true", help="compile for sm_90 too")
    options = parser.parse_args()
    names = options.names or sorted(path.stem for path in HERE.glob("*.mlir"))
    header = (
        "| name | launches | kernels | buffers | buffer MiB | CUDA C bytes | lower s |"
    )
    rule = "|---|---|---|---|---|---|---|"
    if options.cubin:
        header += " cubin bytes | compile s |"
        rule += "---|---|"
    print(header, rule, sep="\n", flush=True)
    failures = 0
    for name in names:
        try:
            print(plan_row(name, options.cubin), flush=True)
        except Exception as error:
            failures += 1
            first = (str(error).strip().splitlines() or [""])[0]
            print(f"| `{name}` | FAILED: {type(error).__name__}: {first} |", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
