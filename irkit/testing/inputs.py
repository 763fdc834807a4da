"""Random arguments for a function, from its signature.

Floats are uniform in [-1, 1) (small enough that exp, products and sums stay
finite, with both signs so sign handling is exercised), integers in [-10, 10],
`i1` fair coins. An array is never all zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from irkit.interpreter.values import numpy_dtype


def random_value(type_: Attribute, rng: np.random.Generator) -> Any:
    """A random value of MLIR type `type_` (a tensor or a scalar)."""
    if isinstance(type_, TensorType):
        shape: tuple[int, ...] = tuple(type_.get_shape())
        dtype = numpy_dtype(type_.get_element_type())
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
    """One random argument per parameter of `func`."""
    return [random_value(t, rng) for t in func.function_type.inputs.data]
