"""Reference semantics of the `cf` dialect ops that tensor-level IR uses.

torch-mlir guards index computations with `cf.assert` (e.g. embedding
lookups); a failing assertion stops the program with its message, located.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.cf import AssertOp
from xdsl.ir import Operation

from irkit.interpreter.core import Interpreter, interpretation_error, register


@register("cf.assert")
def assert_(interp: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[()]:
    assert isinstance(op, AssertOp)
    (condition,) = args
    if not np.all(condition):
        raise interpretation_error(op, f"assertion failed: {op.msg.data}")
    return ()
