"""`torch.export.ExportedProgram` -> one `func.func` at irkit's tensor level.

Contract:

- Input: an `ExportedProgram` of ATen ops with static shapes (decomposed to
  core ATen first unless `decompose=False`, `scaled_dot_product_attention`
  kept whole where the converter takes it: `_kept_whole`). Every op must
  be in the ATen table (`irkit.frontends.torch.aten.CONVERTERS`); dtypes
  f32, f16, bf16, f64, i64, i32 and bool.
- Output: an `ImportedProgram`: a verified module holding
  `func.func @<function_name>` whose arguments are the program's tensor user
  inputs (in order), then its parameters, buffers and lifted constants in
  `graph_signature` order (those not inlined), and whose results are the
  user outputs. With `lower=True` (the default) the function holds exactly
  what `convert-nn-to-linalg` emits (upstream `linalg`, `tensor`, `arith`,
  `math` on tensors, torch-mlir's form), else irkit's `nn` ops beside a few
  upstream ones. `parameter_names[i]` is the state-dict name (or constant
  name) of argument `len(input_names) + i` and `parameters[i]` its tensor,
  so a caller binds them by position.
- Errors: an unsupported op, dtype, dynamic shape, mutation or non-tensor
  output raises `TorchImportError` (`UnsupportedOperatorError` for ops),
  located at the Python line that produced the node when PyTorch recorded
  its stack trace; never a bare traceback of the importer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.transforms.dead_code_elimination import region_dce

from irkit.diagnostics import DiagnosticError
from irkit.dialects import nn
from irkit.frontends.torch.aten import (
    ATTENTION_OPERATORS,
    CONVERTERS,
    attention_declined,
)
from irkit.frontends.torch.emitter import (
    Emitter,
    TorchImportError,
    dense,
    element_type_of,
    located_error,
    pytorch_internal_notes_silenced,
    target_name,
    unsupported,
)
from irkit.verification import verify_module

# Lifted tensor constants with at most this many elements are inlined as
# `nn.constant`s (a causal mask's `-inf`, a scale); larger ones are arguments.
MAX_INLINE_CONSTANT_ELEMENTS = 16

# Input kinds whose tensors come from the program's state, not the caller.
_STATE_KINDS = ("PARAMETER", "BUFFER", "CONSTANT_TENSOR")


@dataclass(frozen=True)
class ImportedProgram:
    """An imported program and how to call it.

    The function takes `input_names` (the user's tensors, in order), then one
    argument per entry of `parameter_names` (state-dict names of parameters
    and buffers, names of lifted constants), whose tensors are `parameters`
    (detached, on the device they were exported on); it returns the user
    outputs, named `output_names`.
    """

    module: ModuleOp
    function_name: str
    input_names: tuple[str, ...]
    parameter_names: tuple[str, ...]
    parameters: tuple[Any, ...]
    output_names: tuple[str, ...]

    def __str__(self) -> str:
        return str(self.module)


def supported_operators() -> list[str]:
    """The ATen operators the importer converts, sorted."""
    return sorted(CONVERTERS)


def import_exported_program(
    program: Any,
    *,
    function_name: str = "main",
    decompose: bool = True,
    parameters_as_constants: bool = False,
    lower: bool = True,
) -> ImportedProgram:
    """Import a `torch.export.ExportedProgram` (see the module docstring).

    `parameters_as_constants=True` embeds every parameter and buffer as a
    dense constant instead of an argument (small programs, or to let the
    compiler see the weights); `lower=False` keeps irkit's `nn` ops.
    """
    import torch

    if decompose:
        try:
            with pytorch_internal_notes_silenced():
                table = torch.export.default_decompositions()
                for operator in _kept_whole(program):
                    table.pop(operator, None)
                program = program.run_decompositions(table)
        except Exception as error:  # PyTorch's own failure, reported as ours
            raise TorchImportError(
                f"decomposing to core ATen failed: {error}"
            ) from error
    builder = _FunctionBuilder(program, parameters_as_constants)
    module = builder.build(function_name)
    if lower:
        from irkit.transforms.convert_nn_to_linalg import convert_nn_to_linalg

        convert_nn_to_linalg(module)
        verify_module(module)
    return ImportedProgram(
        module,
        function_name,
        tuple(builder.input_names),
        tuple(builder.parameter_names),
        tuple(builder.parameters),
        tuple(builder.output_names),
    )


def import_module(
    module: Any,
    *example_inputs: Any,
    function_name: str = "main",
    parameters_as_constants: bool = False,
    lower: bool = True,
) -> ImportedProgram:
    """Export `module` (an `nn.Module`) on `example_inputs` with
    `torch.export.export`, decompose to core ATen and import it."""
    import torch

    try:
        with pytorch_internal_notes_silenced():
            program = torch.export.export(module, tuple(example_inputs))
    except Exception as error:
        raise TorchImportError(f"torch.export.export failed: {error}") from error
    return import_exported_program(
        program,
        function_name=function_name,
        parameters_as_constants=parameters_as_constants,
        lower=lower,
    )


def _kept_whole(program: Any) -> list[Any]:
    """The operators to keep out of PyTorch's decomposition: the fused
    attention ones (`F.scaled_dot_product_attention`), which
    `convert_attention` writes as the chain `linalg-fuse-attention` fuses,
    unless one of the program's attention calls is one it declines (grouped
    query heads, a broadcast batch): then all decompose, as PyTorch writes
    them."""
    import torch

    for graph_module in program.graph_module.modules():
        if not isinstance(graph_module, torch.fx.GraphModule):
            continue
        for node in graph_module.graph.nodes:
            if node.op != "call_function" or target_name(node) not in (
                ATTENTION_OPERATORS
            ):
                continue
            if attention_declined(node) is not None:
                return []
    operators = []
    for name in ATTENTION_OPERATORS:
        _, packet, overload = name.split(".")
        operator = getattr(getattr(torch.ops.aten, packet, None), overload, None)
        if operator is not None:
            operators.append(operator)
    return operators


def _ssa_name(name: str) -> str:
    """An SSA name hint from a Python or state-dict name (`fc1.weight` ->
    `fc1_weight`)."""
    cleaned = re.sub(r"\W", "_", name)
    return cleaned if cleaned and not cleaned[0].isdigit() else f"v{cleaned}"


class _FunctionBuilder:
    """Walks one exported graph, filling a function body."""

    def __init__(self, program: Any, parameters_as_constants: bool) -> None:
        self.program = program
        self.inline_state = parameters_as_constants
        self.emit = Emitter(Block())
        self.input_names: list[str] = []
        self.parameter_names: list[str] = []
        self.parameters: list[Any] = []
        self.output_names: list[str] = []

    def build(self, function_name: str) -> ModuleOp:
        graph = self.program.graph_module.graph
        placeholders = [node for node in graph.nodes if node.op == "placeholder"]
        specs = self.program.graph_signature.input_specs
        if len(placeholders) != len(specs):
            raise TorchImportError("the graph's inputs do not match its signature")
        state: list[tuple[Any, Any, str]] = []
        for node, spec in zip(placeholders, specs, strict=True):
            kind = spec.kind.name
            if kind == "USER_INPUT":
                self._user_input(node, spec)
            elif kind in _STATE_KINDS:
                state.append((node, self._state_tensor(node, spec), spec.target))
            else:
                raise located_error(node, f"inputs of kind {kind} are not supported")
        for node, tensor, name in state:
            self._state_input(node, tensor, name)
        results = self._body(graph)
        block = self.emit.block
        block.add_op(func.ReturnOp(*results))
        arguments = [argument.type for argument in block.args]
        function = func.FuncOp(
            function_name,
            (arguments, [result.type for result in results]),
            Region(block),
        )
        module = ModuleOp([function])
        region_dce(function.body)
        verify_module(module)
        return module

    # -- inputs ---------------------------------------------------------------

    def _user_input(self, node: Any, spec: Any) -> None:
        if not hasattr(spec.arg, "name") or type(spec.arg).__name__ != "TensorArgument":
            # A specialised non-tensor input (an int, a flag): its value is
            # in the signature and the graph reads it as a constant.
            self.emit.values[node] = getattr(spec.arg, "value", None)
            return
        block = self.emit.block
        argument = block.insert_arg(self._tensor_type(node), len(block.args))
        argument.name_hint = _ssa_name(node.name)
        self.input_names.append(node.name)
        self.emit.values[node] = argument

    def _state_tensor(self, node: Any, spec: Any) -> Any:
        name = spec.target
        tensor = self.program.state_dict.get(name)
        if tensor is None:
            tensor = self.program.constants.get(name)
        if tensor is None:
            raise located_error(node, f"no tensor for '{name}' in the program's state")
        return tensor.detach()

    def _state_input(self, node: Any, tensor: Any, name: str) -> None:
        small = tensor.numel() <= MAX_INLINE_CONSTANT_ELEMENTS
        is_constant = name in self.program.constants
        if self.inline_state or (is_constant and small):
            self.emit.start(node)
            self.emit.values[node] = self._constant(node, tensor)
            return
        argument = self.emit.block.insert_arg(
            self._tensor_type(node), len(self.emit.block.args)
        )
        argument.name_hint = _ssa_name(name)
        self.parameter_names.append(name)
        self.parameters.append(tensor)
        self.emit.values[node] = argument

    def _constant(self, node: Any, tensor: Any) -> SSAValue:
        import torch

        element = element_type_of(tensor.dtype, node)
        values = tensor.reshape(-1)
        if tensor.is_floating_point():
            values = values.to(torch.float64)
        items = values.tolist()
        attribute = dense(items, tuple(tensor.shape), element)
        return self.emit.add(nn.ConstantOp(attribute)).result

    def _tensor_type(self, node: Any) -> TensorType[Attribute]:
        value = node.meta.get("val")
        if value is None or not hasattr(value, "shape"):
            raise located_error(node, f"input '{node.name}' is not a tensor")
        try:
            shape = [int(size) for size in value.shape]
        except (TypeError, ValueError) as error:
            raise located_error(
                node, f"input '{node.name}' has a dynamic shape {list(value.shape)}"
            ) from error
        return TensorType(element_type_of(value.dtype, node), shape)

    # -- the body -------------------------------------------------------------

    def _body(self, graph: Any) -> list[SSAValue]:
        results: list[SSAValue] = []
        for node in graph.nodes:
            if node.op == "placeholder":
                continue
            if node.op == "output":
                results = self._outputs(node)
            elif node.op == "call_function":
                self._convert(node)
            else:
                raise located_error(
                    node, f"graph nodes of kind '{node.op}' are not supported"
                )
        return results

    def _convert(self, node: Any) -> None:
        name = target_name(node)
        converter = CONVERTERS.get(name)
        if converter is None:
            raise unsupported(node)
        self.emit.start(node)
        try:
            self.emit.values[node] = converter(self.emit)
        except DiagnosticError:
            raise
        except Exception as error:  # a verifier or an unforeseen argument
            raise located_error(
                node, f"cannot convert '{name}': {type(error).__name__}: {error}"
            ) from error

    def _outputs(self, node: Any) -> list[SSAValue]:
        specs = self.program.graph_signature.output_specs
        values: Sequence[Any] = node.args[0]
        results: list[SSAValue] = []
        for spec, raw in zip(specs, values, strict=True):
            kind = spec.kind.name
            if kind != "USER_OUTPUT":
                what = spec.target or getattr(spec.arg, "name", "?")
                raise located_error(
                    raw if hasattr(raw, "meta") else node,
                    f"the program mutates '{what}' ({kind}); irkit imports "
                    "functional inference programs (call module.eval())",
                )
            value = self.emit.values.get(raw) if hasattr(raw, "meta") else raw
            if not isinstance(value, SSAValue):
                raise TorchImportError(
                    f"output '{getattr(spec.arg, 'name', '?')}' is not a tensor "
                    f"({type(value).__name__})"
                )
            results.append(value)
            self.output_names.append(getattr(spec.arg, "name", f"result{len(results)}"))
        return results
