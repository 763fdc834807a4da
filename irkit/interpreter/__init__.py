"""Reference semantics: `interpret(module, entry, *arrays)`.

Importing this package registers the semantics of every supported dialect.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from irkit.diagnostics import DiagnosticError
from irkit.interpreter.core import (
    InterpretationError,
    Interpreter,
    has_semantics,
    register,
    register_terminator,
)
from irkit.interpreter.values import InputError, coerce_arguments

# One module per dialect; importing it registers that dialect's semantics.
_SEMANTICS_MODULES = ("func", "cf", "nn", "arith", "math", "linalg", "tensor")
for _name in _SEMANTICS_MODULES:
    import_module(f"irkit.interpreter.{_name}")


def default_entry(module: ModuleOp) -> str:
    """The function to run when none is named: `main`, else the only public one."""
    funcs = [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]
    names = [f.sym_name.data for f in funcs]
    if "main" in names:
        return "main"
    public = [
        f.sym_name.data
        for f in funcs
        if f.sym_visibility is None or f.sym_visibility.data == "public"
    ]
    if len(public) == 1:
        return public[0]
    raise DiagnosticError(
        "cannot choose an entry function: name one with --entry "
        f"(public functions: {', '.join(public) or 'none'})"
    )


def interpret(
    module: ModuleOp | str, entry: str | None = None, *arrays: Any
) -> tuple[np.ndarray, ...]:
    """Run function `entry` of `module` on `arrays`; returns its results.

    `module` may be IR text. Arguments are checked against the signature
    (shape and dtype) and raise `InputError` when they do not match.
    """
    if isinstance(module, str):
        from irkit.parsing import parse_module

        module = parse_module(module)
    interp = Interpreter(module)
    name = entry if entry is not None else default_entry(module)
    args = coerce_arguments(interp.function(name), arrays)
    results = interp.call(name, args)
    return tuple(np.asarray(result) for result in results)


__all__ = [
    "InputError",
    "InterpretationError",
    "Interpreter",
    "default_entry",
    "has_semantics",
    "interpret",
    "register",
    "register_terminator",
]
