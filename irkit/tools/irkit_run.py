"""irkit-run: run a function of a textual IR file and show its results.

`irkit-run FILE [--entry NAME] [--target interp|c|cuda] [--check] [--bench N] [--tune]
[--input a.npy ...] [--random-inputs SEED] [--output out.npz]`. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.func import FuncOp

from irkit.abi import input_types
from irkit.dtypes import loaded_array
from irkit.interpreter import Interpreter, default_entry, interpret
from irkit.interpreter.values import describe
from irkit.parsing import parse_module
from irkit.runtime import compile as compile_module
from irkit.runtime.cuda import CudaCompiledFunction
from irkit.runtime.tuning import TuningResult
from irkit.targets.registry import TARGETS as REGISTERED_TARGETS
from irkit.targets.registry import get_target
from irkit.testing.compare import compare_arrays
from irkit.testing.inputs import random_value
from irkit.tools.common import (
    EXIT_OK,
    EXIT_USER_ERROR,
    ArgumentParser,
    UsageError,
    read_source,
    run_tool,
    version_line,
    write_output_atomically_bytes,
)

COMPILED_TARGETS = tuple(REGISTERED_TARGETS)  # irkit.targets.registry
TARGETS = ("interp", *COMPILED_TARGETS)


def build_argument_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="irkit-run", description="Run a function of a textual IR file."
    )
    # Optional to argparse only so that a missing FILE gets a useful hint.
    parser.add_argument(
        "input_file", nargs="?", help="input .mlir file ('-' for stdin)"
    )
    parser.add_argument(
        "--entry",
        default=None,
        help="function to run (default: @main, else the only public function)",
    )
    parser.add_argument(
        "--target",
        default="interp",
        choices=TARGETS,
        help="where to run: interp (the reference interpreter), c (compiled "
        "with irkit.compile and the system C compiler) or cuda (irkit.compile "
        "for the GPU: NVRTC and cuda-python)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="with --target c or cuda: also run the interpreter on the same "
        "inputs and "
        "compare (per-dtype tolerances); exit 1 on a mismatch",
    )
    parser.add_argument(
        "--bench",
        type=int,
        default=None,
        metavar="N",
        help="time N runs after a warm-up one and print the median",
    )
    parser.add_argument(
        "--tune",
        action="store_true",
        help="with --target c or cuda: time the target's candidate pipelines "
        "on this machine and compile with the fastest (cached for next time)",
    )
    parser.add_argument(
        "--input",
        nargs="+",
        action="extend",
        default=[],
        metavar="NPY",
        help="the arguments, in order: a .npy file holds one, a .npz (as "
        "--output and irkit-opt --check-semantics write) one per array",
    )
    parser.add_argument(
        "--random-inputs",
        type=int,
        default=None,
        metavar="SEED",
        help="draw every argument at random with this seed",
    )
    parser.add_argument(
        "--output",
        default=None,
        metavar="NPZ",
        help="write the results to this .npz (result0, result1, ...)",
    )
    parser.add_argument(
        "--version", action="version", version=version_line("irkit-run")
    )
    return parser


def random_inputs(func: FuncOp, seed: int) -> list[Any]:
    """Random values for the arguments a caller supplies (not output buffers)."""
    rng = np.random.default_rng(seed)
    values: list[Any] = []
    for type_ in input_types(func):
        if isinstance(type_, MemRefType):
            # A memref input takes the same values as a tensor of its shape.
            type_ = TensorType(type_.get_element_type(), type_.get_shape())
        values.append(random_value(type_, rng))
    return values


def load_inputs(func: FuncOp, args: argparse.Namespace) -> list[Any]:
    signature = input_types(func)
    if args.input and args.random_inputs is not None:
        raise UsageError("give either --input files or --random-inputs, not both")
    if args.random_inputs is not None:
        return random_inputs(func, args.random_inputs)
    if not args.input and signature:
        raise UsageError(
            f"@{func.sym_name.data} takes {len(signature)} argument(s): pass "
            "--input FILE.npy for each, or --random-inputs SEED"
        )
    values: list[Any] = []
    for path in args.input:
        values += load_arrays(path)
    return values


def is_array_file(path: str) -> bool:
    """Whether `path` names a NumPy file (`.npy`, `.npz`) by its suffix."""
    return path.lower().endswith((".npy", ".npz"))


def load_arrays(path: str) -> list[np.ndarray]:
    """The arrays of one `--input` file: a `.npy` holds one, a `.npz` one per
    argument in the order they were saved."""
    try:
        loaded = np.load(path, allow_pickle=False)
        if isinstance(loaded, np.lib.npyio.NpzFile):
            with loaded:
                return [loaded_array(loaded[name]) for name in loaded.files]
        return [loaded_array(loaded)]
    except FileNotFoundError:
        raise UsageError(f"cannot load input '{path}': no such file") from None
    except Exception as error:
        # NumPy's readers fail in many ways on a damaged file (EOFError,
        # BadZipFile, TokenError, ...); each is the file's fault.
        if Path(path).is_file() and Path(path).stat().st_size == 0:
            raise UsageError(f"cannot load input '{path}': the file is empty") from None
        reason = str(error) or type(error).__name__
        raise UsageError(f"cannot load input '{path}': {reason}") from None


def summarize(name: str, value: Any) -> str:
    array = np.asarray(value)
    flat = array.reshape(-1)
    shown = np.array2string(flat[:6], precision=6, separator=", ")
    more = f" ... ({array.size} values)" if array.size > 6 else ""
    return f"{name}: {describe(array)} = {shown}{more}"


def check_against_interpreter(
    results: Sequence[np.ndarray], expected: Sequence[np.ndarray]
) -> bool:
    """Compare a compiled target's results with the interpreter's; report each."""
    if len(results) != len(expected):
        print(
            f"check: the compiled code gave {len(results)} results, the interpreter "
            f"{len(expected)}",
            file=sys.stderr,
        )
        return False
    ok = True
    for index, (result, reference) in enumerate(zip(results, expected, strict=True)):
        difference = compare_arrays(np.asarray(reference), result)
        if difference is not None:
            print(
                f"check: result{index} differs: {difference.describe()}",
                file=sys.stderr,
            )
            ok = False
    if ok:
        print(f"check: {len(results)} result(s) match the interpreter")
    return ok


def benchmark(call: Callable[[], object], runs: int) -> None:
    """Print the median wall time of `runs` calls after a warm-up call."""
    if runs < 1:
        raise UsageError("--bench needs a positive number of runs")
    call()
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    print(
        f"bench: median {statistics.median(times) * 1e3:.3f} ms over {runs} runs "
        f"(min {min(times) * 1e3:.3f} ms)"
    )


def benchmark_on_gpu(
    function: CudaCompiledFunction, inputs: Sequence[Any], runs: int
) -> None:
    """Print the median device time (CUDA events) of `runs` executions of the
    launch plan after a warm-up, inputs resident on the GPU."""
    if runs < 1:
        raise UsageError("--bench needs a positive number of runs")
    timing = function.time(*inputs, runs=runs)
    print(
        f"bench: median {timing.median_ms:.3f} ms over {runs} runs "
        f"(min {timing.min_ms:.3f} ms; GPU time by CUDA events, copies excluded)"
    )


def report_tuning(tuning: TuningResult | None) -> None:
    """One line on stderr: what --tune chose, and how long it took."""
    if tuning is None:
        return
    where = "cached" if tuning.from_cache else f"{tuning.seconds:.1f} s"
    fastest = tuning.timings_ms[tuning.pipeline]
    print(
        f"tune: {tuning.pipeline} ({fastest:.3f} ms; {len(tuning.timings_ms)} "
        f"candidates timed, {where})",
        file=sys.stderr,
    )


def run(argv: list[str], state: dict[str, str]) -> int:
    args = build_argument_parser().parse_args(argv)
    if args.input_file is None and args.input and not is_array_file(args.input[-1]):
        # `--input a.npy b.npy prog.mlir`: --input took every path after it,
        # but the last is not an array file: it is the program.
        args.input_file = args.input.pop()
    if args.input_file is None:
        hint = (
            " (--input takes every path after it: give FILE first, or end the "
            "list with --)"
            if args.input
            else ""
        )
        raise UsageError(f"irkit-run: no input FILE given{hint}")
    if args.check and args.target not in COMPILED_TARGETS:
        raise UsageError(
            "--check compares compiled code with the interpreter: use it with "
            "--target c or --target cuda"
        )
    if args.tune and args.target not in COMPILED_TARGETS:
        raise UsageError(
            "--tune chooses how to compile: use it with --target c or --target cuda"
        )
    filename, source = read_source(args.input_file)
    state["source"] = source
    module = parse_module(source, filename=filename)
    entry = args.entry if args.entry is not None else default_entry(module)
    func = Interpreter(module).function(entry)
    inputs = load_inputs(func, args)
    if args.target in COMPILED_TARGETS:
        compiled = compile_module(
            module, target=args.target, entry=entry, tune=args.tune, checked=args.check
        )
        report_tuning(compiled.tuning)
        results = list(compiled(*inputs))
        if args.bench is not None and get_target(args.target).uses_graphs:
            benchmark_on_gpu(compiled, inputs, args.bench)
        elif args.bench is not None:
            benchmark(lambda: compiled(*inputs), args.bench)
    else:
        results = list(interpret(module, entry, *inputs))
        if args.bench is not None:
            benchmark(lambda: interpret(module, entry, *inputs), args.bench)
    for index, result in enumerate(results):
        print(summarize(f"result{index}", result))
    if args.output is not None:
        buffer = io.BytesIO()
        arrays: dict[str, Any] = {f"result{i}": r for i, r in enumerate(results)}
        np.savez(buffer, **arrays)
        write_output_atomically_bytes(args.output, buffer.getvalue())
    if args.check:
        expected = interpret(module, entry, *inputs)
        if not check_against_interpreter(results, expected):
            return EXIT_USER_ERROR
    return EXIT_OK


def main() -> None:
    sys.exit(run_tool("irkit-run", run))


if __name__ == "__main__":
    main()
