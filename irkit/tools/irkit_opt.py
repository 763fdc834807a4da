"""irkit-opt: parse textual IR, run a pass pipeline, print the result.

Like `mlir-opt`/`xdsl-opt`: `irkit-opt FILE [-p PIPELINE] [-o OUT]
[--target mlir|c|cuda] [--split-input-file] [--verify-diagnostics]
[--print-op-generic] [--print-ir-after-all]`. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from irkit.context import make_context
from irkit.diagnostics import DiagnosticError, IRKitError, source_line
from irkit.parsing import parse_module
from irkit.pass_manager import (
    Pipeline,
    available_passes,
    load_pass_plugin,
)
from irkit.targets.c import emit_c
from irkit.targets.cuda import describe_plans, emit_cuda
from irkit.testing.checker import SemanticsMismatch, check_semantics_between
from irkit.tools.common import (
    EXIT_OK,
    EXIT_USER_ERROR,
    ArgumentParser,
    read_source,
    run_tool,
    write_output_atomically,
)
from irkit.tools.expected_diagnostics import (
    check_expected_diagnostics,
    split_input,
)

TARGETS = ("mlir", "c", "cuda")


class SemanticsCheckFailed(IRKitError):
    """`--check-semantics` found a pass that changes what the program computes."""


def build_argument_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="irkit-opt",
        description="Parse textual IR, run a pass pipeline, and print the result.",
    )
    parser.add_argument(
        "input_file",
        nargs="?",
        default="-",
        help="input .mlir file ('-' or omitted: stdin)",
    )
    parser.add_argument(
        "-p",
        "--passes",
        "--pass-pipeline",
        dest="passes",
        default="",
        help="comma-separated pass pipeline, "
        "e.g. 'canonicalize,cse' or 'pass{option=value}'",
    )
    parser.add_argument(
        "-o",
        "--output-file",
        default=None,
        help="write the output here (atomically) instead of stdout",
    )
    parser.add_argument(
        "-t",
        "--target",
        default="mlir",
        choices=TARGETS,
        help="what to print: mlir (default), c (one C99 translation unit) or "
        "cuda (the kernels as CUDA C, then each host function's launch plan "
        "as comments); see docs/targets.md",
    )
    parser.add_argument(
        "--split-input-file",
        action="store_true",
        help="process each '// -----' separated chunk on its own",
    )
    parser.add_argument(
        "--verify-diagnostics",
        action="store_true",
        help="check diagnostics against 'expected-error {{...}}' "
        "comments instead of reporting them",
    )
    parser.add_argument(
        "--print-op-generic",
        action="store_true",
        help="print operations in the generic form",
    )
    parser.add_argument(
        "--print-ir-after-all",
        action="store_true",
        help="dump the IR to stderr after every pass",
    )
    parser.add_argument(
        "--check-semantics",
        nargs="?",
        const=3,
        default=None,
        type=int,
        metavar="TRIALS",
        help="interpret before and after every pass on TRIALS (default 3) random "
        "input sets; stop at the first pass that changes a result",
    )
    parser.add_argument(
        "--allow-unregistered-dialect",
        action="store_true",
        help="accept operations of unknown dialects",
    )
    parser.add_argument(
        "--load-pass-plugin",
        action="append",
        default=[],
        metavar="FILE.py",
        help="make the ModulePass classes defined in FILE.py available to -p",
    )
    parser.add_argument(
        "--list-passes", action="store_true", help="list the available passes and exit"
    )
    return parser


def print_module(module: ModuleOp, *, generic: bool, ctx: Context | None = None) -> str:
    """The module as text; with `ctx`, also the `{-# dialect_resources #-}`
    section holding the data of any `dense_resource` it refers to."""
    out = StringIO()
    printer = Printer(stream=out, print_generic_format=generic)
    printer.print_op(module)
    out.write("\n")
    if ctx is not None:
        printer.print_metadata(ctx.loaded_dialects)
    return out.getvalue()


def _dump_after(pass_: ModulePass, module: ModuleOp) -> None:
    print(f"// -----// IR Dump After {pass_.name} //----- //", file=sys.stderr)
    print(print_module(module, generic=False), file=sys.stderr)


def semantics_checker(trials: int) -> Callable[[ModulePass, ModuleOp, ModuleOp], None]:
    """A `Pipeline.check_pass` hook comparing results across each pass."""

    def check(pass_: ModulePass, before: ModuleOp, after: ModuleOp) -> None:
        try:
            check_semantics_between(before, after, pass_.name, trials=trials)
        except SemanticsMismatch as mismatch:
            fd, name = tempfile.mkstemp(prefix="irkit-semantics-", suffix=".mlir")
            os.close(fd)
            path = mismatch.write_reproducer(name)
            raise SemanticsCheckFailed(
                f"{mismatch}\nreproducer (IR before and after the pass): {path}; "
                f"inputs: {path}.inputs.npz"
            ) from None

    return check


def process_chunk(
    text: str, filename: str, args: argparse.Namespace, pipeline: Pipeline
) -> str:
    """Parse, verify, transform and print one chunk of input."""
    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    module = parse_module(text, ctx, filename=filename)
    pipeline.run(ctx, module)
    if args.target == "c":
        return emit_c_source(module, text)
    if args.target == "cuda":
        return emit_cuda_source(module, text)
    return print_module(module, generic=args.print_op_generic, ctx=ctx)


def emit_c_source(module: ModuleOp, text: str) -> str:
    """The module as C; an unprintable op is reported with its source line."""
    with _located_in(text):
        return emit_c(module).source


def emit_cuda_source(module: ModuleOp, text: str) -> str:
    """The kernels as CUDA C followed by the launch plans as comments."""
    with _located_in(text):
        unit = emit_cuda(module)
    return unit.source + "\n" + describe_plans(unit)


@contextmanager
def _located_in(text: str) -> Iterator[None]:
    """Attach the source line to a located error raised by a target."""
    try:
        yield
    except DiagnosticError as error:
        if error.location is not None and error.source_line is None:
            error.source_line = source_line(text, error.location.line)
        raise


def run(argv: list[str], state: dict[str, str]) -> int:
    args = build_argument_parser().parse_args(argv)
    plugins: dict[str, Callable[[], type[ModulePass]]] = {}
    for path in args.load_pass_plugin:
        plugins |= load_pass_plugin(path)
    if args.list_passes:
        print("\n".join(sorted(available_passes() | plugins)))
        return EXIT_OK
    pipeline = Pipeline.parse(args.passes, plugins)
    if args.print_ir_after_all:
        pipeline.after_pass = _dump_after
    if args.check_semantics is not None:
        pipeline.check_pass = semantics_checker(args.check_semantics)
    filename, source = read_source(args.input_file)
    state["source"] = source
    chunks = split_input(source) if args.split_input_file else [source]

    outputs: list[str] = []
    status = EXIT_OK
    for chunk in chunks:
        if args.verify_diagnostics:
            error: DiagnosticError | None = None
            try:
                outputs.append(process_chunk(chunk, filename, args, pipeline))
            except DiagnosticError as raised:
                error = raised
            except IRKitError as raised:
                error = DiagnosticError(str(raised))
            problems = check_expected_diagnostics(chunk, filename, error)
            for problem in problems:
                print(problem, file=sys.stderr)
            if problems:
                status = EXIT_USER_ERROR
        else:
            outputs.append(process_chunk(chunk, filename, args, pipeline))

    text = "// -----\n".join(outputs)
    if args.output_file is not None:
        if status == EXIT_OK:
            write_output_atomically(args.output_file, text)
    else:
        sys.stdout.write(text)
    return status


def main() -> None:
    sys.exit(run_tool("irkit-opt", run))


if __name__ == "__main__":
    main()
