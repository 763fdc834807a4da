"""Parsing textual IR into a located, verified module.

xDSL's parser does not record where an operation came from; irkit's does, as a
`FileLineColLoc` on every operation without an explicit `loc(...)`, so that
verifier errors and pass failures can point at the user's source.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import UNKNOWN_LOC, FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from irkit.diagnostics import DiagnosticError, from_parse_error
from irkit.verification import verify_module


class LocatedParser(Parser):
    """An xDSL parser that stamps each operation with its source position.

    It also turns attribute verification errors raised while parsing (which
    xDSL reports without a position) into located parse errors.
    """

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except VerifyException as error:
            self.raise_error(str(error), at_position=start)
        if op.location == UNKNOWN_LOC:
            where = start.get_location()
            op.location = FileLineColLoc(
                StringAttr(where.file), IntAttr(where.line), IntAttr(where.col)
            )
        return op


def parse_module(
    text: str,
    ctx: Context | None = None,
    *,
    filename: str = "<string>",
    verify: bool = True,
) -> ModuleOp:
    """Parse `text` into a module (wrapping top-level ops in one if needed).

    Raises `DiagnosticError` located at `filename:line:col` for parse and
    verification errors.
    """
    if ctx is None:
        from irkit.context import make_context

        ctx = make_context()
    try:
        module = LocatedParser(ctx, text, filename).parse_module()
    except ParseError as error:
        raise from_parse_error(error) from None
    except VerifyException as error:
        raise DiagnosticError(str(error)) from None
    if verify:
        verify_module(module, text)
    return module
