"""What every irkit command shares: reading input, writing output, exit codes.

Exit codes (documented in docs/cli.md): 0 success, 1 a user error (bad input,
bad options, failed compile), 70 an internal error (a bug in irkit; a
reproducer file is written and its path printed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from irkit.diagnostics import DiagnosticError, IRKitError
from irkit.pass_manager import PassCrashed

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_INTERNAL_ERROR = 70


class UsageError(IRKitError):
    """A command line the tool cannot act on (e.g. a missing input file)."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports bad usage as an irkit error (exit 1, no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def version_line(tool: str) -> str:
    """`--version`: the tool, irkit's version and the xDSL it runs on."""
    from importlib.metadata import version

    from irkit import __version__

    return f"{tool} (irkit {__version__}, xDSL {version('xdsl')})"


def read_source(path: str) -> tuple[str, str]:
    """Read an input file (`-` for stdin); returns (display name, text)."""
    if path == "-":
        # Bytes, decoded as files are, so bad input is the same error.
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a replaced text stream (tests)
            return "<stdin>", sys.stdin.read()
        return "<stdin>", _decode("<stdin>", stream.read())
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise UsageError(f"cannot read '{path}': {reason}") from None
    return path, _decode(path, data)


def _decode(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(
            f"cannot read '{name}': not UTF-8 text (byte {error.start})"
        ) from None


def write_output_atomically(path: str, text: str) -> None:
    """Write `text` to `path` via a temporary file and a rename.

    A failure never leaves a partial or truncated file at `path`.
    """
    write_output_atomically_bytes(path, text.encode("utf-8"))


def write_output_atomically_bytes(path: str, data: bytes) -> None:
    """Write `data` to `path` via a temporary file and a rename.

    Only a regular file (or a new one) is replaced that way. A symbolic link
    is followed (the file it names is replaced, the link stays), and
    anything else that exists, a device such as `/dev/null` or a pipe, is
    written to in place: renaming over it would replace the device node
    itself (as root, `-o /dev/null` once turned the machine's `/dev/null`
    into a regular file).
    """
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    if target.exists() and not target.is_file():
        try:
            with open(target, "wb") as handle:
                handle.write(data)
        except OSError as error:
            raise UsageError(f"cannot write '{path}': {error.strerror}") from None
        return
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    except OSError as error:
        raise UsageError(f"cannot write '{path}': {error.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, target)
    except OSError as error:
        Path(temp).unlink(missing_ok=True)
        raise UsageError(f"cannot write '{path}': {error.strerror}") from None


def write_reproducer(tool: str, argv: list[str], source: str | None) -> Path:
    """Save what is needed to reproduce an internal error; returns the file."""
    fd, name = tempfile.mkstemp(prefix=f"{tool}-crash-", suffix=".mlir")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(f"// {tool} internal error reproducer\n")
        handle.write(f"// command: {tool} {' '.join(argv)}\n")
        for line in traceback.format_exc().splitlines():
            handle.write(f"// {line}\n")
        handle.write(source or "// (input not read yet)\n")
    return Path(name)


def report_error(error: IRKitError) -> None:
    """Print a user error on stderr as every irkit tool does."""
    if isinstance(error, DiagnosticError):
        print(error.format(), file=sys.stderr)
    else:
        print(f"error: {error}", file=sys.stderr)


def run_tool(tool: str, body: Callable[[list[str], dict[str, str]], int]) -> int:
    """Run `body(argv, state)` with irkit's error policy; returns the exit code.

    `state["source"]` may be set by `body` to the input text, so that an
    internal error can write it into the reproducer.
    """
    argv = sys.argv[1:]
    state: dict[str, str] = {}
    try:
        return body(argv, state)
    except IRKitError as error:
        report_error(error)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print(f"{tool}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as error:
        reproducer = write_reproducer(tool, argv, state.get("source"))
        # A crashed pass says which pass; it chains the original error.
        what = str(error) if isinstance(error, PassCrashed) else None
        print(
            f"{tool}: internal error: {what or f'{type(error).__name__}: {error}'} "
            f"(please report it; reproducer written to {reproducer})",
            file=sys.stderr,
        )
        return EXIT_INTERNAL_ERROR
