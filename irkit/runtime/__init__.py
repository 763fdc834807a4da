"""Running compiled programs: `irkit.compile(module) -> CompiledFunction`.

`compile` lowers a module (by default with the `lower-to-c` pipeline when it
still holds tensors), prints it as C (`irkit.targets.c`), builds it with the
system C compiler into the artifact cache (`cache.py`) and loads it
(`cpu.py`). With `target="cuda"` it lowers with `lower-to-cuda`, prints CUDA
and launch plans (`irkit.targets.cuda`), compiles a cubin with NVRTC and runs
the plans on the GPU (`cuda.py`). See `docs/runtime.md`.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Literal, overload

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
    find_function,
    load_function,
)
from irkit.runtime.cuda import CudaUnavailableError
from irkit.runtime.program_cache import LoweredProgram
from irkit.targets.registry import TARGETS as REGISTERED
from irkit.targets.registry import get_target

if TYPE_CHECKING:
    from irkit.runtime.cuda import CudaCompiledFunction

TARGETS = tuple(REGISTERED)  # names, from irkit.targets.registry
DEFAULT_PIPELINES = {name: target.pipeline for name, target in REGISTERED.items()}
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


def lower(
    module: ModuleOp,
    pipeline: str | None,
    target: str = "c",
    *,
    allow_tf32: bool = False,
) -> None:
    """Run `pipeline` on `module` in place; None picks the target's default
    (`lower-to-c`, `lower-to-cuda`) for tensor-level input and nothing for
    input that is already lowered. `allow_tf32` lets the target's pipeline
    run f32 matmuls on TF32 tensor cores (`Target.allowing_tf32`)."""
    from irkit.context import make_context
    from irkit.pass_manager import Pipeline

    chosen = get_target(target)
    if pipeline is None:
        pipeline = chosen.pipeline if holds_tensors(module) else ""
    # The device's facts reach the passes as options of the target's pipeline.
    pipeline = chosen.with_hardware(pipeline)
    if allow_tf32:
        pipeline = chosen.allowing_tf32(pipeline)
    # Verified once at the end (a pipeline that leaves invalid IR runs again,
    # verifying each pass, to name the one at fault): verifying after every
    # pass took 4.9 of the GPT-2 block's 7.3 s of lowering on the H100 host.
    passes = Pipeline.parse(pipeline)
    passes.verify_each = False
    passes.run(make_context(), module)


@overload
def compile(
    module_or_text: ModuleOp | str,
    target: Literal["c"] = "c",
    pipeline: str | None = None,
    entry: str | None = None,
    tune: bool = False,
    *,
    checked: bool = False,
    graphs: bool = True,
    allow_tf32: bool = False,
) -> CompiledFunction: ...


@overload
def compile(
    module_or_text: ModuleOp | str,
    target: Literal["cuda"],
    pipeline: str | None = None,
    entry: str | None = None,
    tune: bool = False,
    *,
    checked: bool = False,
    graphs: bool = True,
    allow_tf32: bool = False,
) -> CudaCompiledFunction: ...


@overload
def compile(
    module_or_text: ModuleOp | str,
    target: str,
    pipeline: str | None = None,
    entry: str | None = None,
    tune: bool = False,
    *,
    checked: bool = False,
    graphs: bool = True,
    allow_tf32: bool = False,
) -> CompiledFunction | CudaCompiledFunction: ...


def compile(  # shadows the builtin on purpose: `irkit.compile`, like `torch.compile`
    module_or_text: ModuleOp | str,
    target: str = "c",
    pipeline: str | None = None,
    entry: str | None = None,
    tune: bool = False,
    *,
    checked: bool = False,
    graphs: bool = True,
    allow_tf32: bool = False,
) -> CompiledFunction | CudaCompiledFunction:
    """Compile function `entry` (default: `@main`, else the only public one)
    of `module_or_text` for `target` (`c` or `cuda`) and load it.

    `tune=True` (tensor-level input, no `pipeline`) times the target's
    candidate pipelines on this machine and compiles with the fastest
    (`irkit.runtime.tuning`); the choice is cached, and the result's
    `tuning` attribute says what was chosen and measured.

    `checked=True` is the debugging mode: every output is filled with poison
    (NaN, INT_MIN, false) before each call, so an element the compiled code
    never writes shows in the results (`irkit-run --check` and the tuner use
    it). `graphs=False` (CUDA) launches the plan's kernels one by one instead
    of replaying them as a CUDA graph.

    `allow_tf32=True` (CUDA) lets f32 matmuls run on tensor cores with their
    operands rounded to TF32 (10 mantissa bits; PyTorch's
    `torch.backends.cuda.matmul.allow_tf32`): much faster, about three
    decimal digits per operand. Off by default: f32 matmuls are then exact
    f32 on CUDA cores. It turns on `lower-to-cuda`'s `allow-tf32` option (a
    pipeline other than the target's own must set it itself); the C target's
    f32 is exact either way.

    A compile of a program already compiled (same text, target, pipeline,
    entry and tuning; same irkit) skips the pipeline: the same process gets
    the loaded function back, a new one the printed unit from the artifact
    cache (`irkit.runtime.program_cache`). Compiling from many threads at
    once is safe.

    Text is parsed with located errors; a module is copied, never changed.
    `pipeline` is a pass-pipeline string (None: `lower-to-c`/`lower-to-cuda`
    when the module holds tensors, else none). Raises `DiagnosticError` for
    bad IR or IR the target cannot print, `PassFailure`/`PipelineError` from
    lowering, `CompileError` when the C or CUDA compiler fails; for `cuda`,
    `CudaUnavailableError` first when no GPU can run the result.
    """
    from irkit.runtime.program_cache import IR_LOCK, LOADED, program_key, remembered

    chosen = get_target(target)
    if tune and pipeline is not None:
        raise IRKitError("tune=True chooses the pipeline: give one or the other")
    # Before any lowering: without a device nothing after it could run.
    reason = chosen.unavailable_reason()
    if reason is not None:
        raise CudaUnavailableError(reason)
    # What the printed unit may depend on besides the program: the device's
    # architecture, and for a tuned compile the machine the choice was for.
    machine = chosen.machine_identity()
    if tune:
        from irkit.runtime.tuning import machine_identity

        machine = machine_identity(target)
    if isinstance(module_or_text, str):
        text = module_or_text
    else:
        with IR_LOCK:
            text = str(module_or_text)
    cache = ArtifactCache.open()
    key = program_key(text, target, pipeline, entry, tune, machine, allow_tf32)

    def load() -> CompiledFunction | CudaCompiledFunction:
        program = _lowered_program(
            module_or_text, key, cache, target, pipeline, entry, tune, allow_tf32
        )
        compiled: CompiledFunction | CudaCompiledFunction = chosen.load(
            program.unit,
            program.symbol,
            cache=cache,
            names=program.names,
            checked=checked,
            graphs=graphs,
        )
        compiled.tuning = program.tuning
        return compiled

    function, loaded_now = LOADED.get_or_load(
        (key, str(cache.directory), checked, graphs), load
    )
    return function if loaded_now else remembered(function)


def _lowered_program(
    module_or_text: ModuleOp | str,
    key: str,
    cache: ArtifactCache,
    target: str,
    pipeline: str | None,
    entry: str | None,
    tune: bool,
    allow_tf32: bool,
) -> LoweredProgram:
    """The printed unit of a compile: from the artifact cache, or made by
    parsing, lowering and printing (under `IR_LOCK`) and then cached."""
    from irkit.runtime.program_cache import IR_LOCK, read_program, write_program

    program = read_program(cache, key)
    if program is not None:
        if program.tuning is not None:
            tuning = dataclasses.replace(program.tuning, from_cache=True, seconds=0.0)
            program = dataclasses.replace(program, tuning=tuning)
        return program
    with IR_LOCK:
        program = _lower_program(
            module_or_text, target, pipeline, entry, tune, allow_tf32
        )
    write_program(cache, key, program)
    return program


def unit_arguments(unit: Any, symbol: str) -> tuple[Any, ...]:
    """The parameters of `@symbol` in a printed unit: a C function's, or a
    host function's launch plan's."""
    plans = getattr(unit, "plans", None)
    if plans is None:
        return tuple(find_function(unit, symbol).arguments)
    if symbol not in plans:
        known = ", ".join(f"@{name}" for name in sorted(plans)) or "none"
        raise IRKitError(f"no host function '@{symbol}' (functions: {known})")
    return tuple(plans[symbol].arguments)


def _lower_program(
    module_or_text: ModuleOp | str,
    target: str,
    pipeline: str | None,
    entry: str | None,
    tune: bool,
    allow_tf32: bool,
) -> LoweredProgram:
    from irkit.interpreter import default_entry
    from irkit.parsing import parse_module
    from irkit.runtime.arguments import argument_names
    from irkit.verification import verify_module

    if isinstance(module_or_text, str):
        module = parse_module(module_or_text)
    else:
        module = module_or_text.clone()
        verify_module(module)
    symbol = entry if entry is not None else default_entry(module)
    tuning = None
    if tune and holds_tensors(module):
        from irkit.runtime.tuning import tune as tune_pipeline

        tuning = tune_pipeline(module, target, symbol, allow_tf32=allow_tf32)
        pipeline = tuning.pipeline
    lower(module, pipeline, target, allow_tf32=allow_tf32)
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp)}
    func = funcs.get(symbol)
    names = argument_names(func) if func is not None else None
    unit: Any = get_target(target).emit(module)
    arguments = unit_arguments(unit, symbol)
    if names is None or len(names) != len(arguments):
        names = tuple(argument.name for argument in arguments)
    return LoweredProgram(unit, symbol, tuple(names), tuning)


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
