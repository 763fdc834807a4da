"""irkit-run: run a function of a textual IR file and show its results.

`irkit-run FILE [--entry NAME] [--target interp] [--input a.npy ...]
[--random-inputs SEED] [--output out.npz]`. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Any

import numpy as np
from xdsl.dialects.func import FuncOp

from irkit.interpreter import Interpreter, default_entry
from irkit.interpreter.values import coerce_arguments, describe
from irkit.parsing import parse_module
from irkit.testing.inputs import random_arguments
from irkit.tools.common import (
    EXIT_OK,
    ArgumentParser,
    UsageError,
    read_source,
    run_tool,
    write_output_atomically_bytes,
)

TARGETS = ("interp",)


def build_argument_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="irkit-run", description="Run a function of a textual IR file."
    )
    parser.add_argument("input_file", help="input .mlir file ('-' for stdin)")
    parser.add_argument(
        "--entry",
        default=None,
        help="function to run (default: @main, else the only public function)",
    )
    parser.add_argument(
        "--target",
        default="interp",
        choices=TARGETS,
        help="where to run: interp (the reference interpreter)",
    )
    parser.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NPY",
        help="a .npy file per argument, in order",
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
    return parser


def load_inputs(func: FuncOp, args: argparse.Namespace) -> list[Any]:
    signature = func.function_type.inputs.data
    if args.input and args.random_inputs is not None:
        raise UsageError("give either --input files or --random-inputs, not both")
    if args.random_inputs is not None:
        rng = np.random.default_rng(args.random_inputs)
        return random_arguments(func, rng)
    if not args.input and signature:
        raise UsageError(
            f"@{func.sym_name.data} takes {len(signature)} argument(s): pass "
            "--input FILE.npy for each, or --random-inputs SEED"
        )
    values: list[Any] = []
    for path in args.input:
        try:
            values.append(np.load(path, allow_pickle=False))
        except (OSError, ValueError) as error:
            raise UsageError(f"cannot load input '{path}': {error}") from None
    return values


def summarize(name: str, value: Any) -> str:
    array = np.asarray(value)
    flat = array.reshape(-1)
    shown = np.array2string(flat[:6], precision=6, separator=", ")
    more = f" ... ({array.size} values)" if array.size > 6 else ""
    return f"{name}: {describe(array)} = {shown}{more}"


def run(argv: list[str], state: dict[str, str]) -> int:
    args = build_argument_parser().parse_args(argv)
    filename, source = read_source(args.input_file)
    state["source"] = source
    module = parse_module(source, filename=filename)
    entry = args.entry if args.entry is not None else default_entry(module)
    interp = Interpreter(module)
    func = interp.function(entry)
    values = coerce_arguments(func, load_inputs(func, args))
    results = [np.asarray(r) for r in interp.call(entry, values)]
    for index, result in enumerate(results):
        print(summarize(f"result{index}", result))
    if args.output is not None:
        buffer = io.BytesIO()
        arrays: dict[str, Any] = {f"result{i}": r for i, r in enumerate(results)}
        np.savez(buffer, **arrays)
        write_output_atomically_bytes(args.output, buffer.getvalue())
    return EXIT_OK


def main() -> None:
    sys.exit(run_tool("irkit-run", run))


if __name__ == "__main__":
    main()
