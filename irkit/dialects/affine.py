"""irkit's `affine` dialect: MLIR's `affine`, xDSL's ops with MLIR's syntax.

Mirrors MLIR's `mlir/include/mlir/Dialect/Affine/IR/AffineOps.td`. The ops
are xDSL's (so `isinstance` checks against `xdsl.dialects.affine` keep
working), with these differences:

- `affine.apply` / `affine.min` print MLIR's `affine.min #map(%i)[%n]`, with
  no space between the map and its operands (xDSL printed one), and accept
  and print an attribute dictionary.
- `affine.max` is new (xDSL lacks it), the mirror of `affine.min`.
- `affine.min` / `affine.max` verify that their map has at least one result.
- Affine expressions print as MLIR prints them, with the fewest parentheses
  and subtraction spelled out: `(d0)[s0] -> (4, s0 - d0)` (xDSL printed
  `(4, (s0 + (d0 * -1)))`). This is installed on xDSL's `AffineBinaryOpExpr`
  when this module is imported (`irkit.dialects` imports it), so every
  `affine_map<...>` irkit prints (linalg's indexing maps too) reads like MLIR's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Self

from xdsl.dialects import affine as upstream
from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
)
from xdsl.irdl import (
    IRDLOperation,
    VarOperand,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

# --------------------------------------------------------------------------
# Affine expressions in MLIR's text
# --------------------------------------------------------------------------

_SPELLING = {
    AffineBinaryOpKind.Add: "+",
    AffineBinaryOpKind.Mul: "*",
    AffineBinaryOpKind.FloorDiv: "floordiv",
    AffineBinaryOpKind.CeilDiv: "ceildiv",
    AffineBinaryOpKind.Mod: "mod",
}


def _negative_constant(expr: AffineExpr) -> int | None:
    if isinstance(expr, AffineConstantExpr) and expr.value < 0:
        return expr.value
    return None


def format_affine_expr(expr: AffineExpr, strong: bool = False) -> str:
    """`expr` as MLIR prints it (`AsmPrinter::printAffineExprInternal`).

    `strong` is MLIR's binding strength of the enclosing operator: a
    subexpression under `*`, `floordiv`, `ceildiv` or `mod` is parenthesised.
    `x + y * -1` prints as `x - y`, `x + y * -3` as `x - y * 3`, `x + -2` as
    `x - 2` and `x * -1` as `-x`.
    """
    if not isinstance(expr, AffineBinaryOpExpr):
        return str(expr)
    lhs, rhs = expr.lhs, expr.rhs
    if expr.kind != AffineBinaryOpKind.Add:
        if expr.kind == AffineBinaryOpKind.Mul and _negative_constant(rhs) == -1:
            text = "-" + format_affine_expr(lhs, True)
        else:
            text = (
                f"{format_affine_expr(lhs, True)} {_SPELLING[expr.kind]} "
                f"{format_affine_expr(rhs, True)}"
            )
        return f"({text})" if strong else text
    text = f"{format_affine_expr(lhs)} + {format_affine_expr(rhs)}"
    if (
        isinstance(rhs, AffineBinaryOpExpr)
        and rhs.kind == AffineBinaryOpKind.Mul
        and (factor := _negative_constant(rhs.rhs)) is not None
    ):
        if factor == -1:
            # MLIR keeps the parentheses of a subtracted sum: `d0 - (d1 + d2)`.
            nested = (
                isinstance(rhs.lhs, AffineBinaryOpExpr)
                and rhs.lhs.kind == AffineBinaryOpKind.Add
            )
            text = f"{format_affine_expr(lhs)} - {format_affine_expr(rhs.lhs, nested)}"
        else:
            text = (
                f"{format_affine_expr(lhs)} - "
                f"{format_affine_expr(rhs.lhs, True)} * {-factor}"
            )
    elif (constant := _negative_constant(rhs)) is not None:
        text = f"{format_affine_expr(lhs)} - {-constant}"
    return f"({text})" if strong else text


def _install_mlir_affine_printing() -> None:
    """Make xDSL print affine expressions (and so `affine_map<...>`) like MLIR."""
    AffineBinaryOpExpr.__str__ = format_affine_expr  # type: ignore[method-assign]


_install_mlir_affine_printing()

# --------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------


def parse_map_and_operands(parser: Parser) -> tuple[AffineMapAttr, list[SSAValue]]:
    """Parse `#map(%d0, ...)[%s0, ...]`: an affine map, its dims and symbols."""
    pos = parser.pos
    map_attr = parser.parse_attribute()
    if not isinstance(map_attr, AffineMapAttr):
        parser.raise_error("expected an affine map", pos, parser.pos)
    index = IndexType()
    dims = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(index)
    )
    symbols = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_operand(index)
    )
    symbols = symbols or []
    affine_map = map_attr.data
    if len(dims) != affine_map.num_dims or len(symbols) != affine_map.num_symbols:
        parser.raise_error(
            f"expected {affine_map.num_dims} dimension and {affine_map.num_symbols} "
            f"symbol operands, got {len(dims)} and {len(symbols)}",
            pos,
            parser.pos,
        )
    return map_attr, [*dims, *symbols]


def print_map_and_operands(
    printer: Printer, map_attr: AffineMapAttr, operands: Sequence[SSAValue]
) -> None:
    """Print ` #map(%d0, ...)[%s0, ...]` as MLIR does (no `[]` without symbols)."""
    num_dims = map_attr.data.num_dims
    printer.print_string(" ")
    printer.print_attribute(map_attr)
    with printer.in_parens():
        printer.print_list(operands[:num_dims], printer.print_ssa_value)
    if map_attr.data.num_symbols:
        with printer.in_square_brackets():
            printer.print_list(operands[num_dims:], printer.print_ssa_value)


def verify_map_operands(map_attr: AffineMapAttr, operands: Sequence[SSAValue]) -> None:
    affine_map = map_attr.data
    expected = affine_map.num_dims + affine_map.num_symbols
    if len(operands) != expected:
        raise VerifyException(
            f"operand count and affine map dimension and symbol count must match: "
            f"expected {expected} operands, got {len(operands)}"
        )


class ApplyOp(upstream.ApplyOp):
    """One affine expression of index values.

    ```mlir
    %r = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%i)[%n]
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        map_attr, operands = parse_map_and_operands(parser)
        op = cls(operands, map_attr)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        print_map_and_operands(printer, self.map, self.mapOperands)
        printer.print_op_attributes(self.attributes)


class _MapExtremumSyntax:
    """Verifier and MLIR syntax shared by `affine.min` and `affine.max`:
    `affine.min MAP(DIMS)[SYMBOLS] attr-dict`."""

    if TYPE_CHECKING:  # provided by the op classes; invisible to IRDL
        map: AffineMapAttr
        arguments: VarOperand
        attributes: dict[str, Attribute]

    def verify_(self) -> None:
        verify_map_operands(self.map, self.arguments)
        if not self.map.data.results:
            raise VerifyException("expects a map with at least one result")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        map_attr, operands = parse_map_and_operands(parser)
        op = cls(operands, map_attr)  # type: ignore[call-arg]
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        print_map_and_operands(printer, self.map, self.arguments)
        printer.print_op_attributes(self.attributes)


class MinOp(_MapExtremumSyntax, upstream.MinOp):
    """The minimum of the results of an affine map.

    ```mlir
    %size = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)[%n]
    ```
    """

    # Upstream's op (xDSL 0.74) declares no traits, so every effect analysis
    # took it for an op that may write memory: a matmul whose epilogue
    # clamps a partial tile was not pipelined (`gpu-pipeline-copies`).
    traits = traits_def(Pure())


@irdl_op_definition
class MaxOp(_MapExtremumSyntax, IRDLOperation):
    """The maximum of the results of an affine map.

    ```mlir
    %lo = affine.max affine_map<(d0) -> (0, d0 - 2)>(%i)
    ```
    """

    name = "affine.max"

    arguments = var_operand_def(IndexType())
    result = result_def(IndexType())
    map = prop_def(AffineMapAttr)

    traits = traits_def(Pure())

    def __init__(
        self, map_operands: Sequence[SSAValue | Operation], affine_map: AffineMapAttr
    ) -> None:
        super().__init__(
            operands=[map_operands],
            properties={"map": affine_map},
            result_types=[IndexType()],
        )


_REPLACED = {op.name for op in (ApplyOp, MinOp)}

Affine = Dialect(
    "affine",
    [
        *(op for op in upstream.Affine.operations if op.name not in _REPLACED),
        ApplyOp,
        MinOp,
        MaxOp,
    ],
    list(upstream.Affine.attributes),
)
