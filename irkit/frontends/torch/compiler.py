"""`compile(fn_or_module, *example_inputs)`: a PyTorch function, run by irkit.

The module (or a plain function of tensors) is exported on the example
inputs (`torch.export.export`), imported (`importer.py`), compiled with
`irkit.compile` for the target, and wrapped in a `TorchCompiledFunction`: it
takes the same positional tensors as the module, passes the module's
parameters and buffers after them (moved once to the inputs' device), and
returns what the module returns (a tensor, or the same tuple/list/dict
structure), as torch tensors on the inputs' device. The shapes and dtypes
are the example inputs'; other ones are refused with `InputError`.
Inference only: results carry no autograd history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from irkit.diagnostics import InputError
from irkit.frontends.torch.emitter import (
    TorchImportError,
    pytorch_internal_notes_silenced,
)
from irkit.frontends.torch.importer import ImportedProgram, import_exported_program


class TorchCompiledFunction:
    """A module compiled by irkit: call it with the module's tensor inputs."""

    def __init__(
        self,
        program: ImportedProgram,
        function: Any,
        output_structure: Any,
        target: str,
    ) -> None:
        self.program = program
        self.function = function
        self.output_structure = output_structure
        self.target = target
        self._parameters: dict[str, tuple[Any, ...]] = {}

    @property
    def module(self) -> Any:
        """The imported tensor-level `ModuleOp` (before lowering)."""
        return self.program.module

    def parameters_on(self, device: Any) -> tuple[Any, ...]:
        """The bound parameters on `device`, moved there once."""
        key = str(device)
        if key not in self._parameters:
            self._parameters[key] = tuple(
                tensor.to(device).contiguous() for tensor in self.program.parameters
            )
        return self._parameters[key]

    def __call__(self, *inputs: Any) -> Any:
        import torch
        from torch.utils import _pytree

        expected = len(self.program.input_names)
        if len(inputs) != expected:
            names = ", ".join(self.program.input_names)
            raise InputError(
                f"expected {expected} input tensors ({names}), got {len(inputs)}"
            )
        for name, value in zip(self.program.input_names, inputs, strict=True):
            if not isinstance(value, torch.Tensor):
                raise InputError(f"input '{name}' is not a tensor")
        device = inputs[0].device if inputs else torch.device("cpu")
        tensors = [value.detach().contiguous() for value in inputs]
        results = self.function(*tensors, *self.parameters_on(device))
        return _pytree.tree_unflatten(list(results), self.output_structure)


def default_target(tensors: Sequence[Any]) -> str:
    """`cuda` when any example tensor is on a CUDA device, else `c`."""
    for tensor in tensors:
        device = getattr(tensor, "device", None)
        if device is not None and device.type == "cuda":
            return "cuda"
    return "c"


def export(fn_or_module: Any, example_inputs: Sequence[Any]) -> Any:
    """`torch.export.export` of a module, or of a function wrapped in one."""
    import torch

    module = fn_or_module
    if not isinstance(module, torch.nn.Module):
        if not callable(fn_or_module):
            what = type(fn_or_module).__name__
            raise TorchImportError(f"expected an nn.Module or a function, got {what}")
        module = _function_module(fn_or_module)
    try:
        with pytorch_internal_notes_silenced():
            return torch.export.export(module, tuple(example_inputs))
    except Exception as error:  # PyTorch's own failure, reported as ours
        raise TorchImportError(f"torch.export.export failed: {error}") from error


def _function_module(function: Any) -> Any:
    """An `nn.Module` whose forward is `function` (torch imported lazily)."""
    import torch

    class FunctionModule(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.function = function

        def forward(self, *inputs: Any) -> Any:
            return self.function(*inputs)

    return FunctionModule()


def tf32_allowed(allow_tf32: bool | None) -> bool:
    """`allow_tf32`, or where it is None what PyTorch's own switch says now
    (`torch.backends.cuda.matmul.allow_tf32`, which
    `torch.set_float32_matmul_precision("high")` also turns on; off by
    default), so a model runs its f32 matmuls as precisely under irkit as
    under eager PyTorch."""
    if allow_tf32 is not None:
        return allow_tf32
    import torch

    return bool(torch.backends.cuda.matmul.allow_tf32)


def compile_exported(
    program: Any, target: str, tune: bool = False, allow_tf32: bool = False
) -> TorchCompiledFunction:
    """Import and compile an `ExportedProgram` for `target`."""
    from irkit.runtime import compile as compile_module

    imported = import_exported_program(program)
    function = compile_module(imported.module, target, tune=tune, allow_tf32=allow_tf32)
    return TorchCompiledFunction(imported, function, program.call_spec.out_spec, target)


def compile(  # shadows the builtin on purpose, as `irkit.compile` does
    fn_or_module: Any,
    *example_inputs: Any,
    target: str | None = None,
    tune: bool = False,
    allow_tf32: bool | None = None,
) -> TorchCompiledFunction:
    """Compile a PyTorch module or function of tensors with irkit.

    `target` is `c` or `cuda` (default: `cuda` when the example inputs are
    on a CUDA device, else `c`); `tune=True` times the target's candidate
    pipelines (`irkit.compile`'s tuning). `allow_tf32` lets f32 matmuls run
    on TF32 tensor cores (`irkit.compile`'s); None (the default) follows
    `torch.backends.cuda.matmul.allow_tf32` as it is when compiling (off
    unless the program turned it on). Raises `TorchImportError` (located
    at the Python line of an unsupported op) or `irkit.compile`'s errors.
    """
    chosen = target or default_target(example_inputs)
    program = export(fn_or_module, example_inputs)
    return compile_exported(program, chosen, tune, tf32_allowed(allow_tf32))
