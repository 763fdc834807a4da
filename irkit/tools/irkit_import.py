"""irkit-import: a PyTorch program saved with `torch.export.save` to textual IR.

    irkit-import model.pt2 -o model.mlir

Loads the `.pt2` file with `torch.export.load`, imports it with irkit's
PyTorch frontend (`irkit.frontends.torch`, no torch-mlir) and prints the
module as irkit-opt prints IR: one `func.func` (default `@main`) at the
tensor level, the user's inputs first, then one argument per parameter,
buffer or lifted constant. A comment before the module maps those trailing
arguments to their state-dict names, so the weights can be bound.

`-o -` (or no `-o`) writes to stdout; an output file is written atomically
and is never the input. Errors (a file that is not an exported program, an
operator irkit does not convert) are printed as located diagnostics
(`model.py:12:5: error: unsupported PyTorch operator 'aten.cumsum.default'`)
and exit with status 1. Needs PyTorch (`pip install irkit[torch]`).
"""

from __future__ import annotations

import argparse
import logging
import sys
import warnings
from pathlib import Path
from typing import Any

from irkit.frontends.torch import ImportedProgram, import_exported_program
from irkit.tools.common import (
    EXIT_OK,
    ArgumentParser,
    UsageError,
    run_tool,
    version_line,
    write_output_atomically,
)
from irkit.tools.irkit_opt import print_module


def build_argument_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="irkit-import",
        description="Import a torch.export program (.pt2) as irkit's tensor-level IR.",
    )
    parser.add_argument("input_file", help="a program saved with torch.export.save")
    parser.add_argument(
        "-o",
        dest="output_file",
        default="-",
        help="output file ('-' for stdout, the default)",
    )
    parser.add_argument(
        "--function-name", default="main", help="the function's name (default: main)"
    )
    parser.add_argument(
        "--parameters-as-constants",
        action="store_true",
        help="embed parameters and buffers as dense constants, not arguments",
    )
    parser.add_argument(
        "--keep-nn",
        action="store_true",
        help="keep irkit's nn ops (default: lowered to linalg on tensors)",
    )
    parser.add_argument(
        "--print-op-generic", action="store_true", help="print the generic op form"
    )
    parser.add_argument(
        "--version", action="version", version=version_line("irkit-import")
    )
    return parser


def load_program(path: str) -> Any:
    """`torch.export.load(path)`, with its failures as usage errors."""
    # A missing file is said before PyTorch is imported (seconds).
    if not Path(path).is_file():
        raise UsageError(f"cannot read '{path}': no such file")
    try:
        import torch
    except ImportError:
        raise UsageError(
            "irkit-import needs PyTorch: pip install 'irkit[torch]'"
        ) from None
    # PyTorch logs a traceback of its own before raising: the error is ours
    # to report, once.
    logger = logging.getLogger("torch.export")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        return torch.export.load(path)
    except Exception as error:  # PyTorch's reasons are many; the message says
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        reason = first_line or type(error).__name__
        raise UsageError(
            f"cannot load '{path}' as an exported program: {reason}"
        ) from None
    finally:
        logger.setLevel(level)


def argument_comment(program: ImportedProgram) -> str:
    """`//` lines naming the function's arguments: inputs, then the
    state-dict name of each parameter argument."""
    inputs = len(program.input_names)
    lines = [f"// irkit-import: @{program.function_name} arguments"]
    lines += [
        f"//   #{index}: input '{name}'"
        for index, name in enumerate(program.input_names)
    ]
    lines += [
        f"//   #{inputs + index}: state '{name}'"
        for index, name in enumerate(program.parameter_names)
    ]
    return "\n".join(lines) + "\n"


def run(argv: list[str], state: dict[str, str]) -> int:
    args = build_argument_parser().parse_args(argv)
    output = args.output_file
    if output != "-" and Path(output).resolve() == Path(args.input_file).resolve():
        raise UsageError(f"refusing to overwrite the input '{args.input_file}'")
    with warnings.catch_warnings():
        # PyTorch's notes about its own deprecated internals, not the user's.
        warnings.simplefilter("ignore", FutureWarning)
        exported = load_program(args.input_file)
        program = import_exported_program(
            exported,
            function_name=args.function_name,
            parameters_as_constants=args.parameters_as_constants,
            lower=not args.keep_nn,
        )
    text = argument_comment(program) + print_module(
        program.module, generic=args.print_op_generic
    )
    if output == "-":
        sys.stdout.write(text)
    else:
        write_output_atomically(output, text)
    return EXIT_OK


def main() -> None:
    sys.exit(run_tool("irkit-import", run))


if __name__ == "__main__":
    main()
