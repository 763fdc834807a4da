"""The textual-IR frontend: MLIR's generic and custom syntax to a verified
module, every op located at its `FILE:LINE:COL` (`irkit.parsing` holds the
located parser; this is the entry point users and tools call)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from irkit.parsing import parse_module


def parse(text: str, filename: str = "<string>") -> ModuleOp:
    """Parse and verify textual IR; raises `DiagnosticError` with a location
    (`filename:line:col`, the op, what is wrong)."""
    return parse_module(text, filename=filename)
