"""Reference semantics: `interpret(module, entry, *inputs)`.

Importing this package registers the semantics of every supported dialect.
A function is called the way `irkit.abi` says: the caller gives its input
arguments only, and gets back its results followed by its output buffers,
as NumPy arrays (`run_function`).
"""

from __future__ import annotations

from collections.abc import Sequence
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
from irkit.interpreter.values import (
    InputError,
    bind_arguments,
    coerce_arguments,
    collect_results,
)

# One module per dialect; importing it registers that dialect's semantics.
_SEMANTICS_MODULES = (
    "func",
    "cf",
    "nn",
    "arith",
    "math",
    "linalg",
    "tensor",
    "memref",
    "bufferization",
    "scf",
    "affine",
    "gpu",
    "mma",
    "vector",
)
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


def run_function(
    interp: Interpreter, name: str, inputs: Sequence[Any]
) -> tuple[np.ndarray, ...]:
    """Call `@name` as a caller outside the program does (`irkit.abi`).

    `inputs` holds one value per input argument (arrays for tensors and
    memrefs, which are copied into fresh buffers). Each `irkit.output`
    argument gets a fresh poisoned buffer. Returns the results, then the
    output buffers, as arrays; an element of a returned or output buffer
    that nothing wrote raises `InterpretationError`. Module state (memref
    globals) starts afresh.
    """
    func = interp.function(name)
    values = coerce_arguments(func, inputs)
    args = bind_arguments(func, values)
    interp.state.clear()
    results = interp.call(name, args)
    return collect_results(func, results, args)


def interpret(
    module: ModuleOp | str, entry: str | None = None, *inputs: Any
) -> tuple[np.ndarray, ...]:
    """Run function `entry` of `module` on `inputs`; see `run_function`.

    `module` may be IR text. Inputs are checked against the signature
    (shape and dtype) and raise `InputError` when they do not match.
    `entry` may be left out before inputs: `interpret(m, a, b)` runs the
    default entry (`@main`, else the only public function) on `a, b`.
    """
    if entry is not None and not isinstance(entry, str):
        # A function is named by a string: anything else is the first input.
        inputs = (entry, *inputs)
        entry = None
    if isinstance(module, str):
        from irkit.parsing import parse_module

        module = parse_module(module)
    interp = Interpreter(module)
    name = entry if entry is not None else default_entry(module)
    return run_function(interp, name, inputs)


__all__ = [
    "InputError",
    "InterpretationError",
    "Interpreter",
    "default_entry",
    "has_semantics",
    "interpret",
    "register",
    "register_terminator",
    "run_function",
]
