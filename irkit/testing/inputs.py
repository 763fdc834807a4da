"""Random arguments for a function, from its signature.

Floats (f16 and bf16 too, rounded from f64) are uniform in [-1, 1) (small
enough that exp, products and sums stay finite, with both signs so sign
handling is exercised), integers in [-10, 10],
`i1` fair coins. An array is never all zeros. A function gets values for
its input arguments only (`irkit.abi`): its output buffers are allocated by
whoever calls it. Memref inputs are arrays, like tensors.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from irkit.abi import input_types
from irkit.diagnostics import IRKitError
from irkit.interpreter.values import numpy_dtype


def random_value(type_: Attribute, rng: np.random.Generator) -> Any:
    """A random value of MLIR type `type_` (a tensor, a memref or a scalar)."""
    if isinstance(type_, TensorType | MemRefType):
        shaped = cast(TensorType[Attribute], type_)
        shape: tuple[int, ...] = tuple(shaped.get_shape())
        if any(size < 0 for size in shape):
            raise IRKitError(f"cannot draw a value of dynamic shape {type_}")
        dtype = numpy_dtype(shaped.get_element_type())
    else:
        shape = ()
        dtype = numpy_dtype(type_)
    if dtype == np.bool_:
        value: np.ndarray = rng.random(shape) < 0.5
    elif np.issubdtype(dtype, np.integer):
        value = rng.integers(-10, 11, size=shape).astype(dtype)
    else:
        value = rng.uniform(-1.0, 1.0, size=shape).astype(dtype)
    if value.size and not value.any():
        value.reshape(-1)[0] = 1
    return value if shape else value[()]


def random_arguments(func: FuncOp, rng: np.random.Generator) -> list[Any]:
    """One random value per input argument of `func` (outputs excluded)."""
    return [random_value(t, rng) for t in input_types(func)]
