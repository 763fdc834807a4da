"""irkit: an MLIR-style multi-level IR toolkit for tensor programs, on xDSL.

Public API:
- `parse(text, filename=...)`: textual IR to a verified `ModuleOp` (the text
  frontend, `irkit.frontends`);
- `interpret(module, entry, *arrays)`: reference semantics, NumPy in and out;
- `compile(module, target="c")`: a compiled, callable function (docs/runtime.md).
"""

from __future__ import annotations

from irkit.context import make_context
from irkit.diagnostics import DiagnosticError, IRKitError
from irkit.frontends import parse
from irkit.interpreter import InputError, interpret
from irkit.parsing import parse_module
from irkit.runtime import CompiledFunction, CompileError, compile

__version__ = "0.1.0"


__all__ = [
    "CompileError",
    "CompiledFunction",
    "DiagnosticError",
    "IRKitError",
    "InputError",
    "compile",
    "interpret",
    "make_context",
    "parse",
    "parse_module",
]
