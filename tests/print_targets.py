"""Print the C and the CUDA of every corpus and benchmark program, for
comparing two versions of irkit byte for byte.

    .venv/bin/python tests/print_targets.py OUT_DIR [--only NAME,...]

For each program (the torch-mlir corpus in `tests/corpus/torch_mlir`, the
model corpus in `tests/corpus/models` and `benchmarks/models`, `examples/`,
and the programs of `benchmarks/programs.py` at their CPU, GPU and smoke
sizes) it writes `OUT_DIR/<name>.c` (through `lower-to-c` and the C target)
and `OUT_DIR/<name>.cu` (through `lower-to-cuda` and the CUDA target: the
source, then each launch plan). A program a target cannot print gets a
`.error` file with the message instead, so a change in what fails shows as
well. A refactoring that must not change behaviour is checked with
`diff -r BEFORE AFTER` over two runs (`tests/test_print_targets.py` checks
the script itself on a few programs).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import programs  # noqa: E402  (benchmarks/ is not a package)

from irkit.diagnostics import IRKitError  # noqa: E402
from irkit.parsing import parse_module  # noqa: E402
from irkit.runtime import lower  # noqa: E402
from irkit.targets.c import emit_c  # noqa: E402
from irkit.targets.cuda import emit_cuda  # noqa: E402

BENCHMARK_SIZES = {
    "matmul": [(128,), (256,), (1000,), (1024,), (4096,)],
    "elementwise_chain": [(1 << 16,), (1 << 20,), (1 << 24,), (1 << 28,)],
    "softmax": [(256, 128), (1024, 512), (4096, 1024), (32768, 4096)],
    "layer_norm": [(256, 128), (1024, 512), (4096, 1024), (32768, 4096)],
}


def corpus() -> Iterator[tuple[str, str]]:
    """(name, program text) of every program this script prints."""
    for folder, prefix in (
        (ROOT / "tests" / "corpus" / "torch_mlir", "torch_mlir."),
        (ROOT / "tests" / "corpus" / "models", "models_small."),
        (ROOT / "benchmarks" / "models", "models."),
        (ROOT / "examples", "examples."),
    ):
        for path in sorted(folder.glob("*.mlir")):
            yield prefix + path.stem, path.read_text()
    for kind, sizes in BENCHMARK_SIZES.items():
        for size in sizes:
            name = f"benchmarks.{kind}_{'x'.join(map(str, size))}"
            yield name, getattr(programs, kind)(*size)


def printed(text: str, target: str) -> str:
    """The program lowered with the target's default pipeline and printed."""
    module = parse_module(text)
    lower(module, None, target)
    if target == "c":
        return emit_c(module).source
    unit = emit_cuda(module)
    plans = "\n".join(repr(unit.plans[name]) for name in sorted(unit.plans))
    return f"{unit.source}\n// ---- launch plans\n{plans}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", default="", help="comma-separated program names")
    args = parser.parse_args()
    only = {name for name in args.only.split(",") if name}
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in corpus():
        if only and name not in only:
            continue
        for target, suffix in (("c", ".c"), ("cuda", ".cu")):
            path = args.out / f"{name}{suffix}"
            try:
                path.write_text(printed(text, target))
            except IRKitError as error:
                path.with_suffix(path.suffix + ".error").write_text(f"{error}\n")
        print(name, flush=True)


if __name__ == "__main__":
    main()
