"""Located diagnostics: the one error type every irkit surface reports.

MLIR prints `FILE:LINE:COL: error: MESSAGE` followed by the offending source line
and a caret; irkit does the same for parse errors, verifier errors and pass
failures, so that command-line users never see a Python traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError


@dataclass(frozen=True)
class SourceLocation:
    """A one-based position in a named source."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class IRKitError(Exception):
    """Base of every error irkit reports to a user (exit code 1 on the CLI)."""


class DiagnosticError(IRKitError):
    """An error attached to a place in the input: `FILE:LINE:COL: error: MSG`."""

    def __init__(
        self,
        message: str,
        location: SourceLocation | None = None,
        *,
        source_line: str | None = None,
        span_length: int = 1,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.source_line = source_line
        self.span_length = max(span_length, 1)

    def format(self) -> str:
        """The diagnostic as MLIR prints it, with the source line and a caret."""
        head = f"{self.location}: error: " if self.location else "error: "
        lines = [head + self.message]
        if self.location is not None and self.source_line is not None:
            lines.append(self.source_line.rstrip("\r"))
            lines.append(" " * (self.location.col - 1) + "^" * self.span_length)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def location_of(op: Operation) -> SourceLocation | None:
    """The source location the parser attached to `op`; for an op a pass
    created (which has none), that of the nearest located op before it in its
    block or around it. MLIR's rewriters give new ops the location of the op
    they replace, which is where lowering inserts them."""
    current: Operation | None = op
    while current is not None:
        loc = current.location
        if isinstance(loc, FileLineColLoc):
            return SourceLocation(loc.filename.data, loc.line.data, loc.column.data)
        current = current.prev_op or current.parent_op()
    return None


def source_line(text: str | None, line: int) -> str | None:
    """Line `line` (one-based) of `text`, or None when unavailable."""
    if text is None:
        return None
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


def op_error(op: Operation, message: str, text: str | None = None) -> DiagnosticError:
    """A diagnostic for `op`, phrased as MLIR does: `'nn.add' op MESSAGE`."""
    location = location_of(op)
    line = source_line(text, location.line) if location else None
    return DiagnosticError(f"'{op.name}' op {message}", location, source_line=line)


def from_parse_error(error: ParseError) -> DiagnosticError:
    """Convert xDSL's ParseError (which carries a span) to a located diagnostic."""
    span = error.span
    where = span.get_location()
    start = span.input.get_start_of_line(span.start)
    end = span.input.get_end_of_line(span.start)
    line = span.input.content[start:end]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    length = min(max(span.end - span.start, 1), max(len(line) - where.col + 1, 1))
    return DiagnosticError(
        error.msg,
        SourceLocation(where.file, where.line, where.col),
        source_line=line,
        span_length=length,
    )


class InputError(IRKitError, ValueError):
    """Arguments that do not match a function's signature."""
