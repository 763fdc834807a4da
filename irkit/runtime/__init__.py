"""Running compiled programs: `irkit.compile(module) -> CompiledFunction`.

`compile` lowers a module (by default with the `lower-to-c` pipeline when it
still holds tensors), prints it as C (`irkit.targets.c`), builds it with the
system C compiler into the artifact cache (`cache.py`) and loads it
(`cpu.py`). With `target="cuda"` it lowers with `lower-to-cuda`, prints CUDA
and launch plans (`irkit.targets.cuda`), compiles a cubin with NVRTC and runs
the plans on the GPU (`cuda.py`). See `docs/runtime.md`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

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
from irkit.runtime.cuda import CudaUnavailableError

if TYPE_CHECKING:
    from irkit.runtime.cuda import CudaCompiledFunction

TARGETS = ("c", "cuda")
DEFAULT_PIPELINES = {"c": "lower-to-c", "cuda": "lower-to-cuda"}
DEFAULT_PIPELINE = DEFAULT_PIPELINES["c"]


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


def lower(module: ModuleOp, pipeline: str | None, target: str = "c") -> None:
    """Run `pipeline` on `module` in place; None picks the target's default
    (`lower-to-c`, `lower-to-cuda`) for tensor-level input and nothing for
    input that is already lowered."""
    from irkit.context import make_context
    from irkit.pass_manager import Pipeline

    if pipeline is None:
        pipeline = DEFAULT_PIPELINES[target] if holds_tensors(module) else ""
    Pipeline.parse(pipeline).run(make_context(), module)


@overload
def compile(
    module_or_text: ModuleOp | str,
    target: Literal["c"] = "c",
    pipeline: str | None = None,
    entry: str | None = None,
    tune: bool = False,
) -> CompiledFunction: ...


@overload
def compile(
    module_or_text: ModuleOp | str,
    target: Literal["cuda"],
    pipeline: str | None = None,
    entry: str | None = None,
    tune: bool = False,
) -> CudaCompiledFunction: ...


@overload
def compile(
    module_or_text: ModuleOp | str,
    target: str,
    pipeline: str | None = None,
    entry: str | None = None,
    tune: bool = False,
) -> CompiledFunction | CudaCompiledFunction: ...


def compile(  # shadows the builtin on purpose: `irkit.compile`, like `torch.compile`
    module_or_text: ModuleOp | str,
    target: str = "c",
    pipeline: str | None = None,
    entry: str | None = None,
    tune: bool = False,
) -> CompiledFunction | CudaCompiledFunction:
    """Compile function `entry` (default: `@main`, else the only public one)
    of `module_or_text` for `target` (`c` or `cuda`) and load it.

    `tune=True` (tensor-level input, no `pipeline`) times the target's
    candidate pipelines on this machine and compiles with the fastest
    (`irkit.runtime.tuning`); the choice is cached, and the result's
    `tuning` attribute says what was chosen and measured.

    Text is parsed with located errors; a module is copied, never changed.
    `pipeline` is a pass-pipeline string (None: `lower-to-c`/`lower-to-cuda`
    when the module holds tensors, else none). Raises `DiagnosticError` for
    bad IR or IR the target cannot print, `PassFailure`/`PipelineError` from
    lowering, `CompileError` when the C or CUDA compiler fails; for `cuda`,
    `CudaUnavailableError` first when no GPU can run the result.
    """
    from irkit.interpreter import default_entry
    from irkit.parsing import parse_module
    from irkit.targets.c import emit_c
    from irkit.verification import verify_module

    if target not in TARGETS:
        raise IRKitError(f"unknown target '{target}' (available: {', '.join(TARGETS)})")
    if target == "cuda":
        # Before any lowering: without a GPU nothing after it could run.
        from irkit.runtime.cuda import gpu_unavailable_reason

        reason = gpu_unavailable_reason()
        if reason is not None:
            raise CudaUnavailableError(reason)
    if isinstance(module_or_text, str):
        module = parse_module(module_or_text)
    else:
        module = module_or_text.clone()
        verify_module(module)
    symbol = entry if entry is not None else default_entry(module)
    tuning = None
    if tune:
        from irkit.runtime.tuning import tune as tune_pipeline

        if pipeline is not None:
            raise IRKitError("tune=True chooses the pipeline: give one or the other")
        if holds_tensors(module):
            tuning = tune_pipeline(module, target, symbol)
            pipeline = tuning.pipeline
    lower(module, pipeline, target)
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp)}
    compiled: CompiledFunction | CudaCompiledFunction
    if target == "cuda":
        compiled = _load_cuda(module, symbol, funcs.get(symbol))
    else:
        compiled = load_function(emit_c(module), symbol, funcs.get(symbol))
    compiled.tuning = tuning
    return compiled


def _load_cuda(
    module: ModuleOp, symbol: str, func: FuncOp | None
) -> CudaCompiledFunction:
    import irkit.targets.cuda as cuda_target
    from irkit.runtime.cuda import load_cuda_function

    # Looked up by name: the printer lands in irkit.targets.cuda separately.
    emit_cuda = getattr(cuda_target, "emit_cuda", None)
    if emit_cuda is None:
        raise IRKitError(
            "the CUDA target cannot print programs yet (irkit.targets.cuda has "
            "no emit_cuda)"
        )
    return load_cuda_function(emit_cuda(module), symbol, func)


__all__ = [
    "ArtifactCache",
    "AssertionFailure",
    "CacheError",
    "CompileError",
    "CompiledFunction",
    "CudaUnavailableError",
    "SanitizerError",
    "build_test_executable",
    "compile",
    "holds_tensors",
    "load_function",
    "lower",
]
