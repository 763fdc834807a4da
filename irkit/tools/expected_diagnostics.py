"""MLIR's `-verify-diagnostics` and `-split-input-file` conventions.

A test file annotates the line that must fail:

    // expected-error @+1 {{operands have incompatible shapes}}
    %c = nn.add %a, %b : ...

`@+N`/`@-N` are relative lines, `@above`/`@below` mean -1/+1, and
`@unknown` matches a diagnostic without a location. The text between `{{` and
`}}` must be a substring of the diagnostic's message. irkit stops at the first
error of a chunk, so each chunk holds at most one expected error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from irkit.diagnostics import DiagnosticError

SPLIT_MARKER = "// -----"

_EXPECTATION = re.compile(
    r"expected-(?P<kind>error|warning|remark|note)\s*"
    r"(?:@(?P<where>above|below|unknown|[+-]\d+))?\s*\{\{(?P<text>.*?)\}\}"
)


@dataclass(frozen=True)
class Expectation:
    line: int | None  # None: a diagnostic without location (@unknown)
    text: str
    written_at: int


def split_input(source: str) -> list[str]:
    """Split at `// -----` lines; each chunk keeps its lines' file numbering.

    Earlier chunks are replaced by blank lines so line numbers in diagnostics
    stay those of the whole file.
    """
    chunks: list[str] = []
    lines = source.splitlines(keepends=True)
    start = 0
    for index, line in enumerate([*lines, SPLIT_MARKER]):
        if line.strip() == SPLIT_MARKER or index == len(lines):
            chunks.append("\n" * start + "".join(lines[start:index]))
            start = index + 1
    return chunks


def parse_expectations(chunk: str) -> list[Expectation]:
    expectations: list[Expectation] = []
    for number, line in enumerate(chunk.splitlines(), start=1):
        for match in _EXPECTATION.finditer(line):
            if match["kind"] != "error":
                continue
            where = match["where"]
            target: int | None
            if where is None:
                target = number
            elif where == "unknown":
                target = None
            elif where == "above":
                target = number - 1
            elif where == "below":
                target = number + 1
            else:
                target = number + int(where)
            expectations.append(Expectation(target, match["text"], number))
    return expectations


def check_expected_diagnostics(
    chunk: str, filename: str, error: DiagnosticError | None
) -> list[str]:
    """Compare the error a chunk produced with its annotations.

    Returns the problems as MLIR words them; empty means all expectations held.
    """
    expectations = parse_expectations(chunk)
    problems: list[str] = []
    matched: Expectation | None = None
    if error is not None:
        line = error.location.line if error.location else None
        for expectation in expectations:
            if expectation.line == line and expectation.text in error.message:
                matched = expectation
                break
        if matched is None:
            problems.append(f"unexpected error: {error.format()}")
    for expectation in expectations:
        if expectation is not matched:
            problems.append(
                f"{filename}:{expectation.written_at}: error: expected error "
                f'"{expectation.text}" was not produced'
            )
    return problems
