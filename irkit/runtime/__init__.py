"""Running compiled programs: `irkit.compile(module) -> CompiledFunction`.

`compile` lowers a module (by default with the `lower-to-c` pipeline when it
still holds tensors), prints it as C (`irkit.targets.c`), builds it with the
system C compiler into the artifact cache (`cache.py`) and loads it
(`cpu.py`). See `docs/runtime.md`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp

from irkit.diagnostics import IRKitError
from irkit.runtime.cache import ArtifactCache, CacheError
from irkit.runtime.cpu import (
    AssertionFailure,
    CompiledFunction,
    CompileError,
    SanitizerError,
    build_test_executable,
    load_function,
)

TARGETS = ("c",)
DEFAULT_PIPELINE = "lower-to-c"


def holds_tensors(module: ModuleOp) -> bool:
    """Whether any value of `module` is a tensor (so it needs lowering)."""
    for op in module.walk():
        values = [
            *op.results,
            *(a for r in op.regions for b in r.blocks for a in b.args),
        ]
        if any(isinstance(value.type, TensorType) for value in values):
            return True
    return False


def lower(module: ModuleOp, pipeline: str | None) -> None:
    """Run `pipeline` on `module` in place; None picks `lower-to-c` for
    tensor-level input and nothing for loop-level input."""
    from irkit.context import make_context
    from irkit.pass_manager import Pipeline

    if pipeline is None:
        pipeline = DEFAULT_PIPELINE if holds_tensors(module) else ""
    Pipeline.parse(pipeline).run(make_context(), module)


def compile(  # shadows the builtin on purpose: `irkit.compile`, like `torch.compile`
    module_or_text: ModuleOp | str,
    target: str = "c",
    pipeline: str | None = None,
    entry: str | None = None,
) -> CompiledFunction:
    """Compile function `entry` (default: `@main`, else the only public one)
    of `module_or_text` for `target` and load it.

    Text is parsed with located errors; a module is copied, never changed.
    `pipeline` is a pass-pipeline string (None: `lower-to-c` when the module
    holds tensors, else none). Raises `DiagnosticError` for bad IR or IR the
    C target cannot print, `PassFailure`/`PipelineError` from lowering,
    `CompileError` when the C compiler fails.
    """
    from irkit.interpreter import default_entry
    from irkit.parsing import parse_module
    from irkit.targets.c import emit_c
    from irkit.verification import verify_module

    if target not in TARGETS:
        raise IRKitError(f"unknown target '{target}' (available: {', '.join(TARGETS)})")
    if isinstance(module_or_text, str):
        module = parse_module(module_or_text)
    else:
        module = module_or_text.clone()
        verify_module(module)
    lower(module, pipeline)
    symbol = entry if entry is not None else default_entry(module)
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp)}
    unit = emit_c(module)
    return load_function(unit, symbol, funcs.get(symbol))


__all__ = [
    "ArtifactCache",
    "AssertionFailure",
    "CacheError",
    "CompileError",
    "CompiledFunction",
    "SanitizerError",
    "build_test_executable",
    "compile",
    "holds_tensors",
    "load_function",
    "lower",
]
