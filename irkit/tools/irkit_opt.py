"""irkit-opt: parse textual IR, run a pass pipeline, print the result.

Like `mlir-opt`/`xdsl-opt`: `irkit-opt FILE [-p PIPELINE] [-o OUT]
[--target mlir|c|cuda] [--split-input-file] [--verify-diagnostics]
[--print-op-generic] [--print-ir-after-all]`, with mlir-opt's spellings
(`--pass-pipeline='builtin.module(func.func(cse))'`, `-o -`,
`--mlir-print-ir-after-all`, ...) accepted too. See docs/cli.md.
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
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from irkit.context import make_context
from irkit.diagnostics import DiagnosticError, IRKitError, source_line
from irkit.parsing import parse_module
from irkit.pass_manager import (
    NestedPass,
    PassFactories,
    Pipeline,
    describe_passes,
    load_pass_plugins,
)
from irkit.targets.registry import TARGETS as REGISTERED_TARGETS
from irkit.targets.registry import get_target
from irkit.targets.target import Target
from irkit.tools.common import (
    EXIT_OK,
    EXIT_USER_ERROR,
    ArgumentParser,
    read_source,
    report_error,
    run_tool,
    version_line,
    write_output_atomically,
)
from irkit.tools.expected_diagnostics import (
    check_expected_diagnostics,
    split_input,
)

TARGETS = ("mlir", *REGISTERED_TARGETS)  # MLIR, or a target's source


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
        help="comma-separated pass pipeline, e.g. 'canonicalize,cse' or "
        "'pass{option=value}', or mlir-opt's 'builtin.module(cse,func.func(cse))'",
    )
    parser.add_argument(
        "-o",
        "--output-file",
        default=None,
        help="write the output here (atomically) instead of stdout ('-': stdout)",
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
        "--mlir-print-op-generic",
        action="store_true",
        help="print operations in the generic form",
    )
    parser.add_argument(
        "--print-ir-after-all",
        "--mlir-print-ir-after-all",
        action="store_true",
        help="dump the IR to stderr after every pass",
    )
    parser.add_argument(
        "--print-ir-before-all",
        "--mlir-print-ir-before-all",
        action="store_true",
        help="dump the IR to stderr before every pass",
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
    parser.add_argument(
        "--version", action="version", version=version_line("irkit-opt")
    )
    return parser


def print_module(
    module: Operation, *, generic: bool, ctx: Context | None = None
) -> str:
    """The module (or any op) as text; with `ctx`, also the
    `{-# dialect_resources #-}` section holding the data of any
    `dense_resource` it refers to."""
    out = StringIO()
    printer = Printer(stream=out, print_generic_format=generic)
    printer.print_op(module)
    out.write("\n")
    if ctx is not None:
        printer.print_metadata(ctx.loaded_dialects)
    return out.getvalue()


def ir_dumper(when: str, *, generic: bool) -> Callable[[ModulePass, ModuleOp], None]:
    """A `Pipeline` hook printing the IR to stderr as mlir-opt's
    `--mlir-print-ir-{before,after}-all` do: a nested pass's dump is one per
    op it runs on, `// -----// IR Dump After cse ('func.func' operation: @f)`."""

    def dump(pass_: ModulePass, module: ModuleOp) -> None:
        if not isinstance(pass_, NestedPass):
            _dump(f"{when} {pass_.name}", module, generic)
            return
        for op in pass_.anchored_ops(module):
            symbol = op.properties.get("sym_name")
            named = f": @{symbol.data}" if isinstance(symbol, StringAttr) else ""
            _dump(f"{when} {pass_.name} ('{op.name}' operation{named})", op, generic)

    return dump


def _dump(title: str, op: Operation, generic: bool) -> None:
    print(f"// -----// IR Dump {title} //----- //", file=sys.stderr)
    print(print_module(op, generic=generic), file=sys.stderr)


def semantics_checker(trials: int) -> Callable[[ModulePass, ModuleOp, ModuleOp], None]:
    """A `Pipeline.check_pass` hook comparing results across each pass."""
    # Imported here: irkit.testing brings Hypothesis, which every other
    # irkit-opt run (hundreds per `make test`) would start for nothing.
    from irkit.testing.checker import (
        Runs,
        SemanticsMismatch,
        check_semantics_between,
    )

    # The module after one pass is the module before the next: its runs
    # are kept for the next comparison rather than repeated.
    runs: Runs = {}

    def check(pass_: ModulePass, before: ModuleOp, after: ModuleOp) -> None:
        try:
            check_semantics_between(
                before, after, pass_.name, trials=trials, reuse=runs
            )
        except SemanticsMismatch as mismatch:
            fd, name = tempfile.mkstemp(prefix="irkit-semantics-", suffix=".mlir")
            os.close(fd)
            path = mismatch.write_reproducer(name)
            # The reproducer holds both IRs as chunks; irkit-run takes one
            # module, so each also goes in a file of its own.
            before_file = path.with_suffix(".before.mlir")
            after_file = path.with_suffix(".after.mlir")
            before_file.write_text(mismatch.before + "\n")
            after_file.write_text(mismatch.after + "\n")
            inputs = f"{path}.inputs.npz"
            raise SemanticsCheckFailed(
                f"{mismatch}\nreproducer (IR before and after the pass): {path}; "
                f"inputs: {inputs}\nrerun: irkit-run {before_file} --entry "
                f"{mismatch.entry} --input {inputs} (and with {after_file})"
            ) from None

    return check


def process_chunk(
    text: str, filename: str, args: argparse.Namespace, pipeline: Pipeline
) -> str:
    """Parse, verify, transform and print one chunk of input."""
    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    # mlir-opt reads input without ops as an empty module.
    if holds_no_ir(text):
        module = ModuleOp([])
    else:
        module = parse_module(text, ctx, filename=filename)
    pipeline.run(ctx, module)
    if args.target != "mlir":
        return target_source(get_target(args.target), module, text)
    return print_module(module, generic=args.print_op_generic, ctx=ctx)


def holds_no_ir(text: str) -> bool:
    """Whether `text` is only blank lines and `//` comments."""
    return all(
        not line.strip() or line.lstrip().startswith("//") for line in text.splitlines()
    )


def target_source(target: Target, module: ModuleOp, text: str) -> str:
    """What `-t NAME` prints: the module in the target's language (for CUDA,
    the kernels and then the launch plans as comments); an op the target
    cannot print is reported with its source line."""
    with _located_in(text):
        return target.source(target.emit(module))


@contextmanager
def _located_in(text: str) -> Iterator[None]:
    """Attach the source line to a located error raised by a target."""
    try:
        yield
    except DiagnosticError as error:
        if error.location is not None and error.source_line is None:
            error.source_line = source_line(text, error.location.line)
        raise


def run_chunk(
    chunk: str, filename: str, args: argparse.Namespace, pipeline: Pipeline
) -> tuple[str, bool]:
    """The output of one chunk ("" when it fails) and whether it succeeded
    (with `--verify-diagnostics`: whether its expectations held). Its
    errors are reported on stderr, so other chunks still run, as in
    mlir-opt; an internal error stops everything."""
    if not args.verify_diagnostics:
        try:
            return process_chunk(chunk, filename, args, pipeline), True
        except IRKitError as failure:
            report_error(failure)
            return "", False
    output = ""
    error: DiagnosticError | None = None
    try:
        output = process_chunk(chunk, filename, args, pipeline)
    except DiagnosticError as raised:
        error = raised
    except IRKitError as raised:
        error = DiagnosticError(str(raised))
    problems = check_expected_diagnostics(chunk, filename, error)
    for problem in problems:
        print(problem, file=sys.stderr)
    return output, not problems


def list_passes(plugins: PassFactories) -> str:
    """`--list-passes`: irkit's passes and pipelines with their summaries,
    then the plugins', then xDSL's (each marked `[upstream]`)."""
    titles = {
        "irkit": "irkit passes:",
        "pipeline": "irkit pipelines (each runs as its stages):",
        "plugin": "passes from plugins:",
        "xdsl": "upstream passes (xDSL's, not used by irkit's pipelines):",
    }
    rows = describe_passes(plugins)
    lines: list[str] = []
    for section, title in titles.items():
        names = [(name, summary) for kind, name, summary in rows if kind == section]
        if not names:
            continue
        lines += ["", title] if lines else [title]
        mark = "[upstream] " if section == "xdsl" else ""
        width = max(len(name) for name, _ in names)
        lines += [
            f"  {name:<{width}}  {mark}{summary}".rstrip() for name, summary in names
        ]
    return "\n".join(lines) + "\n"


def run(argv: list[str], state: dict[str, str]) -> int:
    args = build_argument_parser().parse_args(argv)
    plugins = load_pass_plugins(args.load_pass_plugin)
    if args.list_passes:
        sys.stdout.write(list_passes(plugins))
        return EXIT_OK
    pipeline = Pipeline.parse(args.passes, plugins)
    if args.print_ir_before_all:
        pipeline.before_pass = ir_dumper("Before", generic=args.print_op_generic)
    if args.print_ir_after_all:
        pipeline.after_pass = ir_dumper("After", generic=args.print_op_generic)
    if args.check_semantics is not None:
        pipeline.check_pass = semantics_checker(args.check_semantics)
    filename, source = read_source(args.input_file)
    state["source"] = source
    chunks = split_input(source) if args.split_input_file else [source]

    outputs: list[str] = []
    status = EXIT_OK
    for chunk in chunks:
        output, ok = run_chunk(chunk, filename, args, pipeline)
        outputs.append(output)
        if not ok:
            status = EXIT_USER_ERROR

    # As mlir-opt: every chunk's output, a failed one's empty, between markers.
    text = "// -----\n".join(outputs)
    if args.output_file is None or args.output_file == "-":
        sys.stdout.write(text)
    elif status == EXIT_OK:
        write_output_atomically(args.output_file, text)
    return status


def main() -> None:
    sys.exit(run_tool("irkit-opt", run))


if __name__ == "__main__":
    main()
