"""irkit as a `torch.compile` backend: `torch.compile(model, backend="irkit")`.

PyTorch finds the backend through the `torch_dynamo_backends` entry point
(`irkit = "irkit.frontends.torch:dynamo_backend"` in pyproject.toml); it can
also be passed directly, `torch.compile(model, backend=dynamo_backend)`.
Options: `torch.compile(..., options={"target": "c" | "cuda", "tune": bool,
"allow_tf32": bool})` (default target: `cuda` when the graph's inputs are on
a CUDA device; `allow_tf32`, f32 matmuls on TF32 tensor cores, follows
`torch.backends.cuda.matmul.allow_tf32` when not given).

Dynamo hands over one FX graph per region between graph breaks, with example
inputs. The backend exports the graph on them (`torch.export.export`),
imports, compiles and runs it with irkit, and re-compiles for each new set
of input shapes and dtypes it is called with (a specialisation per shape:
graphs dynamo marks dynamic run as a static program per size seen). A graph
irkit cannot import or compile runs eagerly (the graph module's own
forward) after one warning naming the operator or the error; it never
raises. Inference only: results carry no autograd history.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from irkit.diagnostics import IRKitError
from irkit.frontends.torch.compiler import (
    TorchCompiledFunction,
    compile_exported,
    default_target,
    export,
    tf32_allowed,
)
from irkit.frontends.torch.emitter import UnsupportedOperatorError

# What the process has warned about already (operator names, error texts).
_WARNED: set[str] = set()


class IrkitFallbackWarning(UserWarning):
    """A graph `torch.compile(..., backend="irkit")` runs eagerly instead."""


def _warn_once(key: str, message: str) -> None:
    if key in _WARNED:
        return
    _WARNED.add(key)
    warnings.warn(message, IrkitFallbackWarning, stacklevel=3)


def _signature(inputs: Sequence[Any]) -> tuple[Any, ...]:
    """What a compiled specialisation depends on: each tensor's shape, dtype
    and device kind; other inputs' values."""
    key: list[Any] = []
    for value in inputs:
        if hasattr(value, "shape") and hasattr(value, "dtype"):
            key.append((tuple(value.shape), str(value.dtype), value.device.type))
        else:
            key.append(value)
    return tuple(key)


class _GraphRunner:
    """Runs one dynamo graph through irkit, a compiled program per input
    signature, or eagerly when irkit cannot take it."""

    def __init__(
        self,
        graph_module: Any,
        target: str | None,
        tune: bool,
        allow_tf32: bool | None = None,
    ) -> None:
        self.graph_module = graph_module
        self.target = target
        self.tune = tune
        self.allow_tf32 = allow_tf32
        self.compiled: dict[tuple[Any, ...], TorchCompiledFunction | None] = {}

    def prepare(self, inputs: Sequence[Any]) -> TorchCompiledFunction | None:
        """The compiled program for `inputs`' signature (None: eager)."""
        key = _signature(inputs)
        if key not in self.compiled:
            self.compiled[key] = self._compile(inputs)
        return self.compiled[key]

    def _compile(self, inputs: Sequence[Any]) -> TorchCompiledFunction | None:
        target = self.target or default_target(inputs)
        try:
            program = export(self.graph_module, inputs)
            return compile_exported(
                program, target, self.tune, tf32_allowed(self.allow_tf32)
            )
        except UnsupportedOperatorError as error:
            _warn_once(
                error.operator,
                f"irkit: running a graph eagerly: {error.format()}",
            )
        except IRKitError as error:
            text = str(error)
            _warn_once(text, f"irkit: running a graph eagerly: {text}")
        return None

    def __call__(self, *inputs: Any) -> Any:
        compiled = self.prepare(inputs)
        if compiled is None:
            return self.graph_module.forward(*inputs)
        tensors = [value for value in inputs if hasattr(value, "shape")]
        return compiled(*tensors)


def dynamo_backend(
    graph_module: Any,
    example_inputs: Sequence[Any],
    *,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> Callable[..., Any]:
    """The `torch.compile` backend (see the module docstring); `mode` is
    accepted and ignored."""
    chosen = dict(options or {})
    unknown = set(chosen) - {"target", "tune", "allow_tf32"}
    if unknown:
        raise IRKitError(
            f"unknown irkit backend options {sorted(unknown)} (known: target, "
            "tune, allow_tf32)"
        )
    allow_tf32 = chosen.get("allow_tf32")
    runner = _GraphRunner(
        graph_module,
        chosen.get("target"),
        bool(chosen.get("tune")),
        None if allow_tf32 is None else bool(allow_tf32),
    )
    if all(_is_concrete(value) for value in example_inputs):
        # Compile now, where dynamo expects it; symbolic examples (a graph
        # dynamo made dynamic) wait for the first call's real sizes.
        runner.prepare(list(example_inputs))
    return runner


def _is_concrete(value: Any) -> bool:
    """Whether an example input has real sizes (not dynamo's SymInts)."""
    if hasattr(value, "shape"):
        return all(type(size) is int for size in value.shape)
    return isinstance(value, bool | int | float)
