"""Verification that reports the innermost failing operation with its location.

`Operation.verify()` in xDSL raises a bare message; here each operation is
verified on its own (nested operations first, as a failing inner op explains
more than its parent) so the diagnostic can name the op and its source line.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from irkit.diagnostics import op_error


def _strip_op_prefix(op: Operation, message: str) -> str:
    for prefix in (f"'{op.name}' op ", f"{op.name}: ", f"Operation {op.name}: "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


def verify_module(module: Operation, text: str | None = None) -> None:
    """Verify `module` and everything nested in it.

    Raises `DiagnosticError` naming the first failing operation (innermost
    first) and its source location; `text` adds the offending line.
    """
    for op in module.walk(reverse=False, region_first=True):
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as error:
            message = str(error).split("\n\n", 1)[0].strip()
            raise op_error(op, _strip_op_prefix(op, message), text) from None
