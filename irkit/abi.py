"""The calling convention of bufferized functions: results as output buffers.

`bufferize` turns `func.func @f(%a: tensor<4xf32>) -> tensor<4xf32>` into
`func.func @f(%a: memref<4xf32>, %out: memref<4xf32> {irkit.output})` with no
results: each result becomes a trailing argument carrying the unit attribute
`irkit.output`, in result order. Every layer that calls a function (the
interpreter, the semantic checker, random inputs, the C target and its runtime)
asks this module which arguments are inputs and which are outputs, so the
convention lives in one place. See `docs/abi.md`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DictionaryAttr, UnitAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

OUTPUT_ATTR = "irkit.output"


def is_output_argument(func: FuncOp, index: int) -> bool:
    """Whether argument `index` of `func` is an output buffer."""
    if func.arg_attrs is None:
        return False
    attrs = func.arg_attrs.data[index]
    assert isinstance(attrs, DictionaryAttr)
    return OUTPUT_ATTR in attrs.data


def output_argument_indices(func: FuncOp) -> list[int]:
    """Positions of `func`'s output buffers, in result order."""
    count = len(func.function_type.inputs.data)
    return [i for i in range(count) if is_output_argument(func, i)]


def input_argument_indices(func: FuncOp) -> list[int]:
    """Positions of the arguments a caller supplies values for."""
    count = len(func.function_type.inputs.data)
    return [i for i in range(count) if not is_output_argument(func, i)]


def input_types(func: FuncOp) -> list[Attribute]:
    """Types of the arguments a caller supplies, in order."""
    types = func.function_type.inputs.data
    return [types[i] for i in input_argument_indices(func)]


def output_types(func: FuncOp) -> list[Attribute]:
    """Types of what a call gives back: the results, then the output buffers."""
    types = func.function_type.inputs.data
    return [
        *func.function_type.outputs.data,
        *(types[i] for i in output_argument_indices(func)),
    ]


def output_attrs() -> DictionaryAttr:
    """The argument attributes that mark an output buffer."""
    return DictionaryAttr({OUTPUT_ATTR: UnitAttr()})
