"""Parsing textual IR into a located, verified module.

xDSL's parser does not record where an operation came from; irkit's does, as a
`FileLineColLoc` on every operation without an explicit `loc(...)`, so that
verifier errors and pass failures can point at the user's source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    AnyFloat,
    ComplexType,
    FileLineColLoc,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import AttributeInvT, Operation, SSAValue
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span

from irkit.diagnostics import DiagnosticError, from_parse_error
from irkit.verification import verify_module


@dataclass
class _DenseLiteralElement(AttrParser._TensorLiteralElement):  # pyright: ignore[reportPrivateUsage]
    """An element of a dense literal, read as MLIR reads it.

    A hexadecimal element of a floating-point type, e.g. the `0xFF800000` in
    `dense<0xFF800000> : tensor<2xf32>`, is the bit pattern of the value (here
    -inf), not an integer converted to float. An integer too large for a
    float type is an error at the element: xDSL converts it unchecked.
    """

    is_hexadecimal: bool = False

    def to_type(
        self,
        parser: AttrParser,
        type: AnyFloat | IntegerType | IndexType | ComplexType,
    ) -> Any:
        if self.is_hexadecimal and isinstance(type, AnyFloat):
            return self._bit_pattern(parser, type)
        try:
            return super().to_type(parser, type)
        except OverflowError:
            parser.raise_error(
                f"integer literal out of range for {type}", at_position=self.span
            )

    def _bit_pattern(self, parser: AttrParser, type: AnyFloat) -> float:
        if self.is_negative or not isinstance(self.value, int):
            parser.raise_error(
                "hexadecimal float literal must be a non-negative bit pattern",
                at_position=self.span,
            )
        width = type.compile_time_size
        if self.value >= 1 << (8 * width):
            parser.raise_error(
                f"hexadecimal float literal does not fit in {type}",
                at_position=self.span,
            )
        raw = self.value.to_bytes(width, "little")
        value: float = next(type.iter_unpack(raw))
        return value


class LocatedParser(Parser):
    """An xDSL parser that stamps each operation with its source position.

    It also turns attribute verification errors raised while parsing (which
    xDSL reports without a position) into located parse errors, and reads
    hexadecimal elements of float dense literals as bit patterns, as MLIR does,
    refusing literals too large for their type with a located error.
    """

    def _parse_tensor_literal_element(self) -> AttrParser._TensorLiteralElement:  # pyright: ignore[reportPrivateUsage]
        is_hex = self._current_token.text[:2] in ("0x", "0X")
        element = super()._parse_tensor_literal_element()
        return _DenseLiteralElement(
            element.is_negative, element.value, element.span, is_hex
        )

    def parse_optional_builtin_int_or_float_attr(
        self,
    ) -> IntegerAttr | FloatAttr | None:
        start = self._current_token.span
        is_hex = start.text[:2] in ("0x", "0X")
        try:
            return super().parse_optional_builtin_int_or_float_attr()
        except OverflowError:
            # xDSL packs a hexadecimal literal into the float type's width, or
            # converts a decimal one to float, without checking that it fits.
            what = "hexadecimal float" if is_hex else "integer"
            self.raise_error(
                f"{what} literal out of range for its type", at_position=start
            )

    def resolve_operand(
        self, operand: UnresolvedOperand, type: AttributeInvT
    ) -> SSAValue[AttributeInvT]:
        # Remember where a not-yet-defined value is first used: if it is never
        # defined, that is where the error belongs (xDSL reports end of file).
        first_uses: dict[str, Span] = self.__dict__.setdefault("_first_uses", {})
        name = operand.operand_name
        if name not in self.ssa_values and name not in first_uses:
            first_uses[name] = operand.span
        return super().resolve_operand(operand, type)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as error:
            first_uses: dict[str, Span] = self.__dict__.get("_first_uses", {})
            undefined = [n for n in self.forward_ssa_references if n in first_uses]
            if not error.msg.startswith("values used but not defined") or not undefined:
                raise
            self.raise_error(
                f"use of undeclared SSA value name '%{undefined[0]}'",
                at_position=first_uses[undefined[0]],
            )

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except VerifyException as error:
            self.raise_error(str(error), at_position=start)
        except NotImplementedError as error:
            # xDSL has no representation for some valid MLIR (semi-affine maps
            # such as `d0 floordiv s0`): the input is fine, irkit cannot take it.
            self.raise_error(f"unsupported by irkit (xDSL): {error}", at_position=start)
        except (IndexError, KeyError, TypeError, ValueError, AttributeError) as error:
            # Custom-syntax parsers (xDSL's and irkit's) build the op from what
            # they read before anything is verified, e.g. a named linalg op's
            # body from its operand list; malformed text can make that build
            # fail. It is still a malformed op at this position, not a crash.
            self.raise_error(
                "malformed operation: cannot build it from its operands and "
                f"attributes ({type(error).__name__}: {error})",
                at_position=start,
            )
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
