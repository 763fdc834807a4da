"""irkit's `memref` dialect: MLIR's `memref` dialect in MLIR's exact syntax.

Mirrors MLIR's `mlir/include/mlir/Dialect/MemRef/IR/MemRefOps.td`. The ops are
xDSL's (so `isinstance` checks against `xdsl.dialects.memref` keep working),
with these differences (an op class here subclasses xDSL's and overrides its
`parse`, `print` or `verify_`; it reuses xDSL's IRDL definition as is):

- `memref.copy`, `memref.global`, `memref.cast`, `memref.memory_space_cast`,
  `memref.atomic_rmw`, `memref.alloca_scope` (and its `.return`) parse and
  print MLIR's custom form (xDSL has only the generic one).
- `memref.collapse_shape` / `memref.expand_shape` print and parse the
  reassociation as `[[0, 1], [2]]` (xDSL prints `[[0 : i64, 1 : i64]]`, which
  MLIR rejects), and verify their shapes.
- `memref.rank` is defined anew: MLIR's takes ranked and unranked memrefs
  (xDSL's only ranked ones, which makes the op pointless), in custom syntax.

Every other op is xDSL's, re-exported, so this module can stand in for
`xdsl.dialects.memref` in passes that build memref ops.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Self, cast

from xdsl.dialects import memref as upstream
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    i64,
)
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from irkit.dialects.tensor import (
    parse_reassociation,
    print_reassociation,
    verify_reshape,
    verify_slice,
)

# The ops irkit takes from xDSL unchanged: their syntax is MLIR's already.
AllocOp = upstream.AllocOp
AllocaOp = upstream.AllocaOp
AssumeAlignmentOp = upstream.AssumeAlignmentOp
DeallocOp = upstream.DeallocOp
DimOp = upstream.DimOp
DmaStartOp = upstream.DmaStartOp
DmaWaitOp = upstream.DmaWaitOp
ExtractAlignedPointerAsIndexOp = upstream.ExtractAlignedPointerAsIndexOp
ExtractStridedMetaDataOp = upstream.ExtractStridedMetaDataOp
GetGlobalOp = upstream.GetGlobalOp
LoadOp = upstream.LoadOp
ReinterpretCastOp = upstream.ReinterpretCastOp
StoreOp = upstream.StoreOp
ViewOp = upstream.ViewOp


def _print_source_to_result(
    printer: Printer, op: Operation, keyword: str, source: SSAValue
) -> None:
    """Print MLIR's ` %src attr-dict : T1 <keyword> T2`."""
    printer.print_string(" ")
    printer.print_ssa_value(source)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(source.type)
    printer.print_string(f" {keyword} ")
    printer.print_attribute(op.results[0].type)


def _parse_source_to_result(
    parser: Parser, keyword: str
) -> tuple[SSAValue, Attribute, dict[str, Attribute]]:
    """Parse MLIR's `%src attr-dict : T1 <keyword> T2`."""
    unresolved = parser.parse_unresolved_operand()
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    source_type = parser.parse_type()
    parser.parse_keyword(keyword)
    result_type = parser.parse_type()
    return parser.resolve_operand(unresolved, source_type), result_type, attributes


# --------------------------------------------------------------------------
# Copies and casts
# --------------------------------------------------------------------------


class CopyOp(upstream.CopyOp):
    """Copy the elements of one memref into another of the same shape.

    ```mlir
    memref.copy %a, %b : memref<4xf32> to memref<4xf32>
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        target_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(source, source_type),
            parser.resolve_operand(target, target_type),
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_string(", ")
        printer.print_ssa_value(self.destination)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.destination.type)


class CastOp(upstream.CastOp):
    """The same memref under a compatible type (static <-> dynamic sizes,
    strides and offset; ranked <-> unranked).

    ```mlir
    %d = memref.cast %m : memref<4xf32> to memref<?xf32>
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source, result_type, attributes = _parse_source_to_result(parser, "to")
        op = cls.build(operands=[source], result_types=[result_type])
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_source_to_result(printer, self, "to", self.source)

    @staticmethod
    def get(
        source: SSAValue | Operation, type: MemRefType | UnrankedMemRefType
    ) -> CastOp:
        return CastOp.build(operands=[source], result_types=[type])


class MemorySpaceCastOp(upstream.MemorySpaceCastOp):
    """The same memref in another memory space.

    ```mlir
    %g = memref.memory_space_cast %m : memref<4xf32, 1> to memref<4xf32>
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source, result_type, attributes = _parse_source_to_result(parser, "to")
        op = cls.build(operands=[source], result_types=[result_type])
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_source_to_result(printer, self, "to", self.source)


# --------------------------------------------------------------------------
# Globals
# --------------------------------------------------------------------------


class GlobalOp(upstream.GlobalOp):
    """A named global memref, constant or not, with an optional initial value.

    ```mlir
    memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
        {alignment = 64 : i64}
    memref.global @buffer : memref<4xi32> = uninitialized
    ```

    MLIR's default visibility `public` is stored as `"public"` and printed as
    nothing. An external declaration (no `=`) is refused: xDSL's definition
    has no way to hold it.
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        visibility = parser.parse_optional_str_literal()
        constant = parser.parse_optional_keyword("constant") is not None
        sym_name = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        pos = parser.pos
        memref_type = parser.parse_type()
        if not isinstance(memref_type, MemRefType):
            parser.raise_error("expected a memref type for memref.global", pos)
        if parser.parse_optional_punctuation("=") is None:
            parser.raise_error(
                "external memref.global declarations (without '=') are not "
                "supported by irkit",
                pos,
            )
        initial_value: Attribute
        if parser.parse_optional_keyword("uninitialized") is not None:
            initial_value = UnitAttr()
        else:
            parser.parse_keyword("dense")
            tensor_type = TensorType(
                memref_type.get_element_type(), memref_type.get_shape()
            )
            initial_value = parser.parse_dense_int_or_fp_elements_attr(tensor_type)
        attributes = parser.parse_optional_attr_dict()
        alignment = attributes.pop("alignment", None)
        if alignment is not None and not isinstance(alignment, IntegerAttr):
            parser.raise_error("expected an integer alignment")
        op = cls.build(
            properties={
                "sym_name": sym_name,
                "type": memref_type,
                "initial_value": initial_value,
                "sym_visibility": StringAttr(
                    visibility if visibility is not None else "public"
                ),
                "constant": UnitAttr() if constant else None,
                "alignment": alignment,
            }
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility.data != "public":
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        printer.print_string(" = ")
        if isinstance(self.initial_value, UnitAttr):
            printer.print_string("uninitialized")
        else:
            self.initial_value.print_without_type(printer)
        # MLIR's `alignment` is an attribute, printed in the dictionary.
        attributes = dict(self.attributes)
        if self.alignment is not None:
            attributes["alignment"] = self.alignment
        printer.print_op_attributes(dict(sorted(attributes.items())))

    def verify_(self) -> None:
        super().verify_()
        initial = self.initial_value
        if isinstance(initial, DenseIntOrFPElementsAttr):
            memref_type = cast(MemRefType, self.type)
            if initial.get_element_type() != memref_type.get_element_type() or tuple(
                initial.get_shape()
            ) != tuple(memref_type.get_shape()):
                raise VerifyException(
                    f"initial value expected to be of type {memref_type}'s "
                    f"shape and element type, but was of type {initial.type}"
                )

    @staticmethod
    def get(
        sym_name: StringAttr | str,
        sym_type: Attribute,
        initial_value: Attribute,
        sym_visibility: StringAttr = StringAttr("private"),
        constant: UnitAttr | None = None,
        alignment: int | IntegerAttr | None = None,
    ) -> GlobalOp:
        if isinstance(sym_name, str):
            sym_name = StringAttr(sym_name)
        if isinstance(alignment, int):
            alignment = IntegerAttr(alignment, 64)
        return GlobalOp.build(
            properties={
                "sym_name": sym_name,
                "type": sym_type,
                "initial_value": initial_value,
                "sym_visibility": sym_visibility,
                "constant": constant,
                "alignment": alignment,
            }
        )


# --------------------------------------------------------------------------
# Atomics and alloca scopes
# --------------------------------------------------------------------------

# arith::AtomicRMWKind (mlir/Dialect/Arith/IR/ArithBase.td): name -> value.
ATOMIC_RMW_KINDS: dict[str, int] = {
    "addf": 0,
    "addi": 1,
    "assign": 2,
    "maximumf": 3,
    "maxs": 4,
    "maxu": 5,
    "minimumf": 6,
    "mins": 7,
    "minu": 8,
    "mulf": 9,
    "muli": 10,
    "ori": 11,
    "andi": 12,
    "maxnumf": 13,
    "minnumf": 14,
}
_ATOMIC_RMW_NAMES = {value: name for name, value in ATOMIC_RMW_KINDS.items()}


class AtomicRMWOp(upstream.AtomicRMWOp):
    """Atomically replace an element by `kind(element, value)`; returns the
    element's old value.

    ```mlir
    %old = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32
    ```
    """

    def verify_(self) -> None:
        if self.kind.value.data not in _ATOMIC_RMW_NAMES:
            raise VerifyException(f"unknown atomic_rmw kind {self.kind.value.data}")
        rank = len(cast(MemRefType, self.memref.type).get_shape())
        if len(self.indices) != rank:
            raise VerifyException(
                f"expects the number of subscripts to be equal to memref rank {rank}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        kind_name = parser.parse_identifier(" (an atomic_rmw kind)")
        if kind_name not in ATOMIC_RMW_KINDS:
            parser.raise_error(f"unknown atomic_rmw kind '{kind_name}'", pos)
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        memref_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(value, value_type),
                parser.resolve_operand(memref, memref_type),
                parser.resolve_operands(indices, [IndexType()] * len(indices), pos),
            ],
            result_types=[result_type],
            properties={"kind": IntegerAttr(ATOMIC_RMW_KINDS[kind_name], i64)},
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {_ATOMIC_RMW_NAMES[self.kind.value.data]} ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.memref)
        with printer.in_square_brackets():
            printer.print_list(self.indices, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.memref.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


class AllocaScopeReturnOp(upstream.AllocaScopeReturnOp):
    """Terminates a `memref.alloca_scope` body, yielding its results.

    ```mlir
    memref.alloca_scope.return %v : f32
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        values = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        operands: Sequence[SSAValue] = ()
        if values:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_type
            )
            operands = parser.resolve_operands(values, types, pos)
        op = cls.build(operands=[operands])
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if not self.ops:
            return
        printer.print_string(" ")
        printer.print_list(self.ops, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list(self.ops.types, printer.print_attribute)


class AllocaScopeOp(upstream.AllocaScopeOp):
    """A scope whose `memref.alloca`s are freed when it ends.

    ```mlir
    %r = memref.alloca_scope -> (f32) {
      ...
      memref.alloca_scope.return %v : f32
    }
    ```

    The terminator is implicit (and not printed) when the scope has no
    results, as in MLIR.
    """

    def verify_(self) -> None:
        block = self.scope.blocks.first
        if block is None or not isinstance(block.last_op, upstream.AllocaScopeReturnOp):
            raise VerifyException(
                "expects body to terminate with 'memref.alloca_scope.return'"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            types = parser.parse_optional_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_type
            )
            result_types = list(types) if types is not None else [parser.parse_type()]
        region = parser.parse_region()
        attributes = parser.parse_optional_attr_dict()
        if not region.blocks:
            region.add_block(Block())
        block = cast(Block, region.blocks.first)
        if not isinstance(block.last_op, upstream.AllocaScopeReturnOp):
            block.add_op(AllocaScopeReturnOp.build(operands=[[]]))
        op = cls.build(result_types=[result_types], regions=[region])
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        if self.res:
            printer.print_string(" -> ")
            with printer.in_parens():
                printer.print_list(self.res.types, printer.print_attribute)
        printer.print_string(" ")
        printer.print_region(
            self.scope,
            print_entry_block_args=False,
            print_block_terminators=bool(self.res),
        )
        printer.print_op_attributes(self.attributes)

    @staticmethod
    def from_body(
        body: Region, result_types: Sequence[Attribute] = ()
    ) -> AllocaScopeOp:
        return AllocaScopeOp.build(result_types=[result_types], regions=[body])


# --------------------------------------------------------------------------
# Reshapes and queries
# --------------------------------------------------------------------------


def _shape_only(memref_type: Attribute) -> TensorType[Attribute]:
    """A tensor type of `memref_type`'s shape and element type (to reuse the
    tensor reshape verifier, which looks at nothing else)."""
    memref = cast(MemRefType, memref_type)
    return TensorType(memref.get_element_type(), memref.get_shape())


class CollapseShapeOp(upstream.CollapseShapeOp):
    """Collapse groups of contiguous dimensions into one.

    ```mlir
    %c = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32> into memref<6xf32>
    ```
    """

    def verify_(self) -> None:
        verify_reshape(
            _shape_only(self.result.type),
            _shape_only(self.src.type),
            self.reassociation,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        reassociation = parse_reassociation(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        op = cls.build(
            operands=[parser.resolve_operand(source, source_type)],
            result_types=[result_type],
            properties={"reassociation": reassociation},
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.src)
        printer.print_string(" ")
        print_reassociation(printer, self.reassociation)
        _print_types_into(printer, self, self.src)


def _print_types_into(printer: Printer, op: Operation, source: SSAValue) -> None:
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(source.type)
    printer.print_string(" into ")
    printer.print_attribute(op.results[0].type)


class ExpandShapeOp(upstream.ExpandShapeOp):
    """Split dimensions into groups of contiguous dimensions.

    ```mlir
    %e = memref.expand_shape %m [[0, 1]] output_shape [2, 3]
        : memref<6xf32> into memref<2x3xf32>
    ```
    """

    def verify_(self) -> None:
        verify_reshape(
            _shape_only(self.src.type),
            _shape_only(self.result.type),
            self.reassociation,
        )
        static = self.static_output_shape.get_values()
        if len(static) != len(cast(MemRefType, self.result.type).get_shape()):
            raise VerifyException("expected output_shape to have the result's rank")
        dynamic_count = sum(1 for size in static if size == DYNAMIC_INDEX)
        if dynamic_count != len(self.output_shape):
            raise VerifyException(
                f"expected {dynamic_count} dynamic output_shape values, found "
                f"{len(self.output_shape)}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        reassociation = parse_reassociation(parser)
        parser.parse_keyword("output_shape")
        pos = parser.pos
        dynamic, static = parse_dynamic_index_list_without_types(
            parser, dynamic_index=DYNAMIC_INDEX
        )
        dynamic_values = parser.resolve_operands(
            dynamic, (IndexType(),) * len(dynamic), pos
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        op = cls.build(
            operands=[parser.resolve_operand(source, source_type), dynamic_values],
            result_types=[result_type],
            properties={
                "reassociation": reassociation,
                "static_output_shape": DenseArrayBase.from_list(i64, static),
            },
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.src)
        printer.print_string(" ")
        print_reassociation(printer, self.reassociation)
        printer.print_string(" output_shape ")
        print_dynamic_index_list(
            printer,
            DYNAMIC_INDEX,
            self.output_shape,
            self.static_output_shape.get_values(),
        )
        _print_types_into(printer, self, self.src)


@irdl_op_definition
class RankOp(IRDLOperation):
    """The rank of a ranked or unranked memref.

    ```mlir
    %r = memref.rank %m : memref<*xf32>
    ```
    """

    name = "memref.rank"

    source = operand_def(base(MemRefType) | base(UnrankedMemRefType))
    rank = result_def(IndexType)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$source attr-dict `:` type($source)"

    def __init__(self, source: SSAValue | Operation) -> None:
        super().__init__(operands=[source], result_types=[IndexType()])


class SubviewOp(upstream.SubviewOp):
    """A strided view of part of a memref.

    ```mlir
    %s = memref.subview %m[0, 1] [3, 2] [1, 2]
        : memref<3x7xf32> to memref<3x2xf32, strided<[7, 2], offset: 1>>
    ```

    Beyond xDSL's checks, a static slice must stay inside its source and the
    result shape must be its sizes (or a rank-reduction of them), as for
    `tensor.extract_slice`.
    """

    @staticmethod
    def get(
        source: SSAValue,
        offsets: Sequence[SSAValue | int],
        sizes: Sequence[SSAValue | int],
        strides: Sequence[SSAValue | int],
        result_type: Attribute,
    ) -> SubviewOp:
        """A subview from mixed static (int) and dynamic (SSA) values."""
        offsets_, dynamic_offsets = split_dynamic_index_list(offsets, DYNAMIC_INDEX)
        sizes_, dynamic_sizes = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
        strides_, dynamic_strides = split_dynamic_index_list(strides, DYNAMIC_INDEX)
        return SubviewOp(
            source,
            dynamic_offsets,
            dynamic_sizes,
            dynamic_strides,
            offsets_,
            sizes_,
            strides_,
            result_type,
        )

    def verify_(self) -> None:
        super().verify_()
        verify_slice(
            cast(MemRefType[Attribute], self.source.type).get_shape(),
            cast(MemRefType[Attribute], self.result.type).get_shape(),
            self.static_offsets.get_values(),
            self.static_sizes.get_values(),
            self.static_strides.get_values(),
            "result",
        )
        _verify_subview_layout(
            cast(MemRefType[Attribute], self.source.type),
            cast(MemRefType[Attribute], self.result.type),
            self.static_offsets.get_values(),
            self.static_sizes.get_values(),
            self.static_strides.get_values(),
        )


def _compatible(expected: int | None, found: int | None) -> bool:
    """Static values must agree; a dynamic one (None) on either side is
    compatible, as in MLIR's `haveCompatibleStrides`."""
    return expected is None or found is None or expected == found


def _kept_dimension_choices(
    sizes: Sequence[int], result_rank: int
) -> Iterator[tuple[int, ...]]:
    """Which source dimensions a rank-reduced result keeps: every way of
    dropping `len(sizes) - result_rank` unit dimensions."""
    unit = [d for d, size in enumerate(sizes) if size == 1]
    for dropped in combinations(unit, len(sizes) - result_rank):
        yield tuple(d for d in range(len(sizes)) if d not in dropped)


def _verify_subview_layout(
    source: MemRefType[Attribute],
    result: MemRefType[Attribute],
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
) -> None:
    """The result's strides and offset must be those the slice has in the
    source: stride `source_stride * step` per dimension and offset
    `source_offset + sum(offset * source_stride)` (MLIR's inferResultType)."""

    def known(value: int) -> int | None:
        return None if value == DYNAMIC_INDEX else value

    source_strides = source.get_strides()
    source_offset = source.get_offset()
    result_strides = result.get_strides()
    if source_strides is None or result_strides is None:
        return  # not a strided layout: nothing static to compare
    expected_strides = [
        None if outer is None or known(step) is None else outer * step
        for outer, step in zip(source_strides, strides, strict=True)
    ]
    expected_offset = source_offset
    for outer, offset in zip(source_strides, offsets, strict=True):
        if expected_offset is None or outer is None or known(offset) is None:
            expected_offset = None
            break
        expected_offset += outer * offset
    if not _compatible(expected_offset, result.get_offset()):
        raise VerifyException(
            f"expected result layout offset {expected_offset} (source offset plus "
            f"offsets times source strides), found {result.get_offset()}"
        )
    for kept in _kept_dimension_choices(sizes, len(result_strides)):
        if all(
            _compatible(expected_strides[d], found)
            for d, found in zip(kept, result_strides, strict=True)
        ):
            return
    shown = ["?" if stride is None else stride for stride in expected_strides]
    raise VerifyException(
        f"expected result layout strides {shown} (source strides times steps, "
        f"less dropped unit dimensions), found "
        f"{['?' if stride is None else stride for stride in result_strides]}"
    )


_IRKIT_OPS: tuple[type[IRDLOperation], ...] = (
    SubviewOp,
    CopyOp,
    CastOp,
    MemorySpaceCastOp,
    GlobalOp,
    AtomicRMWOp,
    AllocaScopeOp,
    AllocaScopeReturnOp,
    CollapseShapeOp,
    ExpandShapeOp,
    RankOp,
)
_REPLACED = {op.name for op in _IRKIT_OPS}

MemRef = Dialect(
    "memref",
    [
        *(op for op in upstream.MemRef.operations if op.name not in _REPLACED),
        *_IRKIT_OPS,
    ],
    list(upstream.MemRef.attributes),
)
