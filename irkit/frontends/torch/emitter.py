"""What every ATen converter builds with: the function body being filled, the
values of the FX nodes converted so far, and the helpers that turn PyTorch's
conventions (dtypes, Python scalars, type promotion, half-precision
accumulation, stack traces) into irkit's tensor-level IR.

Converters emit irkit's `nn` ops where one means exactly the ATen op (their
verifiers infer and check every result type, and `convert-nn-to-linalg`
lowers them to upstream `linalg` on tensors, the form torch-mlir emits), and
upstream `linalg`/`tensor`/`arith` ops directly where `nn` has no
counterpart (iota, gather, half-precision matmuls with f32 accumulators).

Every op a converter adds carries the location of the Python line that
produced the FX node (its `stack_trace`), so an error anywhere in lowering
names the user's source line.
"""

from __future__ import annotations

import linecache
import math
import os
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f16,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap

from irkit.diagnostics import DiagnosticError, SourceLocation
from irkit.dialects import linalg, nn
from irkit.dialects import tensor as tensor_dialect

if TYPE_CHECKING:
    from torch.fx import Node

_OpT = TypeVar("_OpT", bound=Operation)

# PyTorch dtype names (`str(torch.float32)` without `torch.`) -> element types.
ELEMENT_TYPES: dict[str, Attribute] = {
    "float32": f32,
    "float16": f16,
    "bfloat16": BFloat16Type(),
    "float64": f64,
    "int64": i64,
    "int32": i32,
    "bool": i1,
}
HALF_TYPES = (Float16Type, BFloat16Type)
_IRKIT_DIRECTORY = str(Path(__file__).resolve().parents[2]) + os.sep
_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


class TorchImportError(DiagnosticError):
    """A PyTorch program irkit cannot import, located at the Python line that
    produced the offending node when PyTorch recorded it."""


class UnsupportedOperatorError(TorchImportError):
    """An ATen operator (or an argument of one) the importer does not convert;
    `operator` names it (`aten.cumsum.default`)."""

    def __init__(
        self,
        operator: str,
        message: str,
        location: SourceLocation | None = None,
        *,
        source_line: str | None = None,
    ) -> None:
        super().__init__(message, location, source_line=source_line)
        self.operator = operator


@contextmanager
def pytorch_internal_notes_silenced() -> Iterator[None]:
    """Silence the deprecation note PyTorch 2.13's export emits about its own
    pytree internals (`isinstance(treespec, LeafSpec)`), which users cannot act
    on; every other warning passes."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore",
            message=r".*isinstance\(treespec, LeafSpec\)",
            category=FutureWarning,
        )
        yield


def node_location(node: Node) -> SourceLocation | None:
    """The innermost frame of `node`'s recorded stack trace (the user's line
    that called the op), or None when PyTorch recorded none."""
    trace = node.meta.get("stack_trace")
    if not isinstance(trace, str):
        return None
    # PyTorch records the `forward` frames of the module call stack; the
    # frame of irkit's own wrapper around a plain function is not the user's.
    frames = [
        frame
        for frame in _FRAME.finditer(trace)
        if not frame.group("file").startswith(_IRKIT_DIRECTORY)
    ]
    if not frames:
        return None
    last = frames[-1]
    file, line = last.group("file"), int(last.group("line"))
    text = linecache.getline(file, line)
    column = len(text) - len(text.lstrip()) + 1 if text.strip() else 1
    return SourceLocation(file, line, column)


def located_error(
    node: Node, message: str, error: type[TorchImportError] = TorchImportError
) -> TorchImportError:
    """A `TorchImportError` for `node` at its source line."""
    location = node_location(node)
    line = linecache.getline(location.file, location.line) if location else ""
    return error(message, location, source_line=line.rstrip("\n") or None)


def unsupported(node: Node, why: str = "") -> UnsupportedOperatorError:
    """The error for an ATen op the importer does not convert (or not with
    these arguments): names the op, says why, located at the user's line."""
    operator = target_name(node)
    message = f"unsupported PyTorch operator '{operator}'"
    if why:
        message += f": {why}"
    location = node_location(node)
    line = linecache.getline(location.file, location.line) if location else ""
    return UnsupportedOperatorError(
        operator, message, location, source_line=line.rstrip("\n") or None
    )


def target_name(node: Node) -> str:
    """`aten.add.Tensor` for an ATen op (an `OpOverload`), the function's
    qualified name otherwise (`_operator.getitem`)."""
    target = node.target
    if isinstance(target, str):
        return target
    if hasattr(target, "overloadpacket"):  # an OpOverload prints as its name
        return str(target)
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__name__", None) or str(target)
    return f"{module}.{name}" if module else name


def element_type_of(dtype: Any, node: Node | None = None) -> Attribute:
    """The element type of a PyTorch dtype; raises for one irkit lacks."""
    name = str(dtype).removeprefix("torch.")
    element = ELEMENT_TYPES.get(name)
    if element is None:
        message = (
            f"dtype {name} is not supported (irkit has "
            f"{', '.join(sorted(ELEMENT_TYPES))})"
        )
        if node is None:
            raise TorchImportError(message)
        raise unsupported(node, message)
    return element


def is_float(element: Attribute) -> bool:
    return isinstance(element, Float16Type | BFloat16Type | Float32Type | Float64Type)


def is_bool(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.width.data == 1


def shape_of(value: SSAValue) -> tuple[int, ...]:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return tuple(cast(TensorType[Attribute], value_type).get_shape())


def element_of(value: SSAValue) -> Attribute:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return cast(TensorType[Attribute], value_type).get_element_type()


def dense(
    values: Sequence[float | int | bool], shape: Sequence[int], element: Attribute
) -> DenseIntOrFPElementsAttr:
    """A dense attribute of `shape` (one value: a splat)."""
    items: list[float] | list[int]
    if is_float(element):
        items = [float(value) for value in values]
    else:
        items = [int(value) for value in values]
    tensor_type = TensorType(cast(Float32Type, element), shape)
    return DenseIntOrFPElementsAttr.from_list(tensor_type, items)


@dataclass
class Emitter:
    """The function being built and the values of the nodes converted so far.

    `values` maps each FX node to what it produced: an `SSAValue` (a tensor),
    a tuple of them (ops with several results), a Python scalar, or None.
    `node` is the node being converted; ops added meanwhile get its location.
    """

    block: Block
    values: dict[Node, Any] = field(default_factory=dict)
    node: Node | None = None
    location: FileLineColLoc | None = None

    # -- the node being converted ---------------------------------------------

    def start(self, node: Node) -> None:
        """Begin converting `node`: new ops get its source location."""
        self.node = node
        where = node_location(node)
        self.location = (
            None
            if where is None
            else FileLineColLoc(
                StringAttr(where.file), IntAttr(where.line), IntAttr(where.col)
            )
        )

    def argument(self, index: int, name: str, default: Any = None) -> Any:
        """Argument `name` (position `index`) of the current node, converted
        values in place of nodes (lists too), `default` when absent."""
        node = self.current
        if index < len(node.args):
            raw = node.args[index]
        else:
            raw = node.kwargs.get(name, default)
        return self._resolve(raw)

    def _resolve(self, raw: Any) -> Any:
        from torch.fx import Node

        if isinstance(raw, Node):
            return self.values[raw]
        if isinstance(raw, list | tuple):
            return type(raw)(self._resolve(item) for item in raw)
        return raw

    @property
    def current(self) -> Node:
        assert self.node is not None, "no node is being converted"
        return self.node

    def fail(self, why: str) -> UnsupportedOperatorError:
        """The error for the current node's op with these arguments."""
        return unsupported(self.current, why)

    def meta(self, index: int | None = None) -> Any:
        """The FakeTensor PyTorch recorded for the current node's result (or
        result `index` of a multi-result op)."""
        value = self.current.meta.get("val")
        if index is not None and isinstance(value, list | tuple):
            value = value[index]
        if value is None or not hasattr(value, "shape"):
            raise self.fail("PyTorch recorded no tensor metadata for its result")
        return value

    def result_shape(self, index: int | None = None) -> tuple[int, ...]:
        """The static shape of the current node's result; dynamic shapes fail."""
        shape = self.meta(index).shape
        try:
            return tuple(int(size) for size in shape)
        except (TypeError, ValueError) as error:
            raise self.fail(
                f"dynamic shape {list(shape)} (irkit needs static shapes)"
            ) from error

    def result_element(self, index: int | None = None) -> Attribute:
        return element_type_of(self.meta(index).dtype, self.current)

    # -- adding ops ----------------------------------------------------------

    def add(self, op: _OpT) -> _OpT:
        """Append `op` to the function body with the current location."""
        if self.location is not None:
            op.location = self.location
        self.block.add_op(op)
        return op

    def tensor(self, value: Any, element: Attribute | None = None) -> SSAValue:
        """`value` as a tensor of `element` (default: its own): a converted
        tensor cast if needed, or a Python scalar as a rank-0 constant."""
        if isinstance(value, SSAValue):
            return value if element is None else self.cast(value, element)
        if isinstance(value, bool | int | float):
            if element is None:
                element = f32 if isinstance(value, float) else i64
                element = i1 if isinstance(value, bool) else element
            return self.constant(value, (), element)
        raise self.fail(f"expected a tensor or a number, got {type(value).__name__}")

    def constant(
        self, value: float | int | bool, shape: Sequence[int], element: Attribute
    ) -> SSAValue:
        """A splat `nn.constant` of `shape`."""
        if not is_float(element) and not math.isfinite(float(value)):
            raise self.fail(f"{value} does not fit integer type {element}")
        if not is_float(element) and float(value) != int(value):
            value = int(value)  # PyTorch truncates too (`full(..., 2.5, dtype=int)`)
        return self.add(nn.ConstantOp(dense([value], shape, element))).result

    def cast(self, value: SSAValue, element: Attribute) -> SSAValue:
        """`value` converted to `element` (itself when it already is)."""
        if element_of(value) == element:
            return value
        return self.add(nn.CastOp(value, element)).result

    def reshape(self, value: SSAValue, shape: Sequence[int]) -> SSAValue:
        if shape_of(value) == tuple(shape):
            return value
        return self.add(nn.ReshapeOp(value, shape)).result

    def wide(self, value: SSAValue) -> SSAValue:
        """`value` in f32 if it is f16 or bf16 (PyTorch accumulates reductions,
        softmax and norms of half tensors in f32 and rounds once)."""
        if isinstance(element_of(value), HALF_TYPES):
            return self.cast(value, f32)
        return value

    # -- upstream ops nn has no counterpart for ------------------------------

    def generic(
        self,
        inputs: Sequence[tuple[SSAValue, AffineMap]],
        shape: Sequence[int],
        element: Attribute,
        body: Callable[[Sequence[SSAValue]], SSAValue],
        init: SSAValue | None = None,
        reduced: Sequence[int] = (),
        init_map: AffineMap | None = None,
    ) -> SSAValue:
        """A `linalg.generic` over `shape` (all parallel but `reduced`) with
        one output (a fresh `tensor.empty` unless `init`); `body` maps the
        block's scalars (inputs, then the output's) to the yielded one."""
        if init is None:
            init = self.empty(shape, element)
        output_map = init_map or AffineMap.identity(len(shape))
        block = Block(arg_types=[element_of(v) for v, _ in inputs] + [element])
        for argument in block.args:
            argument.name_hint = "in"
        block.args[-1].name_hint = "out"
        with ImplicitBuilder(block):
            linalg.YieldOp(body(block.args))
        iterators = [
            IteratorTypeAttr(
                IteratorType.REDUCTION if loop in reduced else IteratorType.PARALLEL
            )
            for loop in range(len(shape))
        ]
        op = linalg.GenericOp(
            [value for value, _ in inputs],
            [init],
            Region(block),
            [AffineMapAttr(map_) for _, map_ in inputs] + [AffineMapAttr(output_map)],
            iterators,
            [init.type],
        )
        return self.add(op).results[0]

    def empty(self, shape: Sequence[int], element: Attribute) -> SSAValue:
        return self.add(tensor_dialect.EmptyOp([], TensorType(element, shape))).tensor

    def filled(
        self, shape: Sequence[int], element: Attribute, value: float
    ) -> SSAValue:
        """`linalg.fill` of a fresh tensor with the scalar `value`."""
        scalar = self.add(arith.ConstantOp(scalar_attr(value, element))).result
        init = self.empty(shape, element)
        return self.add(linalg.FillOp([scalar], [init], [init.type])).results[0]

    def matmul(self, lhs: SSAValue, rhs: SSAValue, element: Attribute) -> SSAValue:
        """`lhs @ rhs` (2-D, or 3-D with equal batches) in `element`.

        f16/bf16 operands accumulate in f32 (`linalg.matmul` with f16 inputs
        and an f32 init, as torch-mlir writes it and PyTorch computes it;
        the tensor-core path matches this form), rounded once at the end;
        other types are `nn.matmul`.
        """
        lhs, rhs = self.cast(lhs, element), self.cast(rhs, element)
        if not isinstance(element, HALF_TYPES):
            return self.add(nn.MatmulOp(lhs, rhs)).result
        lhs_shape, rhs_shape = shape_of(lhs), shape_of(rhs)
        shape = (*lhs_shape[:-1], rhs_shape[-1])
        init = self.filled(shape, f32, 0.0)
        named: Operation
        if len(shape) == 2:
            named = linalg.MatmulOp([lhs, rhs], [init], [init.type])
        else:
            named = linalg.BatchMatmulOp([lhs, rhs], [init], [init.type])
        return self.cast(self.add(named).results[0], element)


def scalar_attr(value: float, element: Attribute) -> FloatAttr | IntegerAttr:
    """An `arith.constant` attribute of `element` holding `value`."""
    if is_float(element):
        return FloatAttr(float(value), cast(Float32Type, element))
    return IntegerAttr(int(value), cast(IntegerType, element))
