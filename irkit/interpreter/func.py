"""Reference semantics of the `func` dialect."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.func import CallOp
from xdsl.ir import Operation

from irkit.interpreter.core import Interpreter, register, register_terminator

register_terminator("func.return")


@register("func.call")
def call(interp: Interpreter, op: Operation, args: tuple[Any, ...]) -> tuple[Any, ...]:
    assert isinstance(op, CallOp)
    return interp.call(op.callee.root_reference.data, args)
