"""irkit's `tensor` dialect: MLIR's `tensor` dialect, xDSL's ops with fixes.

Mirrors MLIR's `mlir/include/mlir/Dialect/Tensor/IR/TensorOps.td`. The ops are
xDSL's (so `isinstance` checks against `xdsl.dialects.tensor` keep working),
with these differences (an op class here subclasses xDSL's and overrides its
`parse`, `print` or `verify_`; it reuses xDSL's IRDL definition as is):

- `tensor.collapse_shape` / `tensor.expand_shape` print and parse the
  reassociation in MLIR's syntax, `[[0, 1], [2]]` (xDSL prints
  `[[0 : i64, 1 : i64], [2 : i64]]`, which MLIR rejects), and verify their
  shapes (xDSL does not verify `collapse_shape` at all).
- `tensor.pad`, `tensor.extract_slice` and `tensor.insert_slice` check their
  static result shapes and bounds, `tensor.from_elements` its element
  count, and `tensor.empty` that it has one size per dynamic dimension.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects import tensor as upstream
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.dialects.utils.dynamic_index_list import (
    DynamicIndexList,
    split_dynamic_index_list,
    verify_dynamic_index_list,
)
from xdsl.dialects.utils.reshape_ops_utils import verify_reshape_like_types
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

Reassociation = ArrayAttr[ArrayAttr[IntegerAttr]]


def reassociation_attr(groups: Sequence[Sequence[int]]) -> Reassociation:
    """The property holding reassociation `groups`, e.g. `[[0, 1], [2]]`."""
    return ArrayAttr(
        ArrayAttr(IntegerAttr(dim, i64) for dim in group) for group in groups
    )


def reassociation(
    longer: Sequence[int], shorter: Sequence[int]
) -> list[list[int]] | None:
    """Groups of contiguous dims of `longer` whose products are `shorter`'s
    dims (what collapsing `longer` into `shorter` needs), or None.

    Trailing size-1 dims join the last group. `shorter` of rank 0 needs no
    groups (`[]`) when `longer` has only size-1 dims.
    """
    if not shorter:
        return [] if all(size == 1 for size in longer) else None
    groups: list[list[int]] = []
    dim = 0
    for size in shorter:
        group = [dim] if dim < len(longer) else []
        product = longer[dim] if dim < len(longer) else 0
        dim += 1
        while product != size and dim < len(longer) and product < size:
            product *= longer[dim]
            group.append(dim)
            dim += 1
        if product != size or not group:
            return None
        groups.append(group)
    while dim < len(longer):
        if longer[dim] != 1:
            return None
        groups[-1].append(dim)
        dim += 1
    return groups


def reassociation_groups(attr: Reassociation) -> list[list[int]]:
    """The groups of a reassociation property as lists of ints."""
    return [[dim.value.data for dim in group.data] for group in attr.data]


def parse_reassociation(parser: Parser) -> Reassociation:
    """Parse MLIR's reassociation syntax: `[[0, 1], [2]]` (or `[]`)."""

    def parse_group() -> list[int]:
        return parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_integer, " in reassociation group"
        )

    groups = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parse_group, " in reassociation"
    )
    return reassociation_attr(groups)


def print_reassociation(printer: Printer, attr: Reassociation) -> None:
    """Print a reassociation in MLIR's syntax: `[[0, 1], [2]]`."""
    with printer.in_square_brackets():
        printer.print_list(
            reassociation_groups(attr),
            lambda group: printer.print_string(
                "[" + ", ".join(str(dim) for dim in group) + "]"
            ),
        )


def verify_reshape(
    collapsed: TensorType[Attribute],
    expanded: TensorType[Attribute],
    reassociation: Reassociation,
) -> None:
    """Check a collapse/expand between `collapsed` and `expanded` types.

    As in MLIR, an empty reassociation reshapes between a rank-0 tensor and a
    tensor of unit dimensions.
    """
    if collapsed.get_element_type() != expanded.get_element_type():
        raise VerifyException("expected source and result element types to match")
    if not reassociation.data and not collapsed.get_shape():
        if any(size != 1 for size in expanded.get_shape()):
            raise VerifyException(
                f"expected {expanded} to have only unit dimensions to reshape it to "
                "or from a rank-0 tensor"
            )
        return
    # xDSL checks only the group sizes; MLIR also requires the groups to list
    # the expanded dimensions in order, each once (what lowering relies on).
    start = 0
    for index, group in enumerate(reassociation_groups(reassociation)):
        if not group or group != list(range(start, start + len(group))):
            raise VerifyException(
                f"expected reassociation map #{index} to be valid and contiguous"
            )
        start += len(group)
    verify_reshape_like_types(
        collapsed_type=collapsed, expanded_type=expanded, reassociation=reassociation
    )


def _verify_static_shape_match(
    what: str, expected: Sequence[int], actual: Sequence[int]
) -> None:
    for dim, (want, got) in enumerate(zip(expected, actual, strict=True)):
        if DYNAMIC_INDEX in (want, got):
            continue
        if want != got:
            raise VerifyException(
                f"expected {what} dimension {dim} to be {want}, but found {got}"
            )


class CollapseShapeOp(upstream.CollapseShapeOp):
    """Collapse groups of contiguous dimensions into one.

    ```mlir
    %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
    ```
    """

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        verify_reshape(
            self.result.type,
            cast(TensorType[Attribute], self.src.type),
            self.reassociation,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        reassociation = parse_reassociation(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        src = parser.resolve_operand(unresolved, src_type)
        op = cls.build(
            operands=[src],
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
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)


class ExpandShapeOp(upstream.ExpandShapeOp):
    """Split dimensions into groups of contiguous dimensions.

    ```mlir
    %e = tensor.expand_shape %t [[0], [1, 2]]
        output_shape [4, 2, 4] : tensor<4x8xf32> into tensor<4x2x4xf32>
    ```
    """

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        verify_reshape(
            cast(TensorType[Attribute], self.src.type),
            self.result.type,
            self.reassociation,
        )
        static = self.static_output_shape.get_values()
        dynamic_count = sum(1 for size in static if size == DYNAMIC_INDEX)
        if dynamic_count != len(self.dynamic_output_shape):
            raise VerifyException(
                f"expected {dynamic_count} dynamic output_shape values, found "
                f"{len(self.dynamic_output_shape)}"
            )
        _verify_static_shape_match("output_shape", static, self.result.type.get_shape())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        reassociation = parse_reassociation(parser)
        static: Sequence[int] | None = None
        dynamic_values: Sequence[SSAValue] = ()
        if parser.parse_optional_keyword("output_shape") is not None:
            pos = parser.pos
            dynamic, static = parse_dynamic_index_list_without_types(
                parser, dynamic_index=DYNAMIC_INDEX
            )
            dynamic_values = parser.resolve_operands(
                dynamic, (IndexType(),) * len(dynamic), pos
            )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("into")
        pos = parser.pos
        result_type = parser.parse_type()
        src = parser.resolve_operand(unresolved, src_type)
        if static is None:
            # MLIR's syntax before `output_shape` existed: static shapes only.
            static = list(cast(TensorType[Attribute], result_type).get_shape())
            if DYNAMIC_INDEX in static:
                parser.raise_error(
                    "expected 'output_shape' for a dynamically shaped result", pos
                )
        return cls(
            src,
            dynamic_values,
            reassociation,
            DenseArrayBase.from_list(i64, static),
            cast(TensorType[Attribute], result_type),
            attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.src)
        printer.print_string(" ")
        print_reassociation(printer, self.reassociation)
        printer.print_string(" output_shape ")
        print_dynamic_index_list(
            printer,
            DYNAMIC_INDEX,
            self.dynamic_output_shape,
            self.static_output_shape.get_values(),
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)


def verify_slice(
    source_shape: Sequence[int],
    slice_shape: Sequence[int],
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
    what: str,
) -> None:
    """Check a static slice against its source and (rank-reduced) slice type."""
    rank = len(source_shape)
    for name, values in (("offsets", offsets), ("sizes", sizes), ("strides", strides)):
        if len(values) != rank:
            raise VerifyException(
                f"expected {rank} {name} to match the source rank, found {len(values)}"
            )
    # The slice type is `sizes`, possibly with some unit dimensions dropped.
    kept = [size for size in sizes if size != 1]
    if len(slice_shape) == len(sizes):
        _verify_static_shape_match(f"{what} type", sizes, slice_shape)
    elif [size for size in slice_shape if size != 1] != kept or len(slice_shape) > len(
        sizes
    ):
        raise VerifyException(
            f"expected {what} type to be {list(sizes)} or a rank-reduction of it, "
            f"found {list(slice_shape)}"
        )
    for dim, (extent, offset, size, stride) in enumerate(
        zip(source_shape, offsets, sizes, strides, strict=True)
    ):
        if DYNAMIC_INDEX in (extent, offset, size, stride):
            continue
        if offset < 0 or size < 0 or stride < 1:
            raise VerifyException(
                f"expected non-negative offset and size and positive stride in "
                f"dimension {dim}"
            )
        if size and offset + (size - 1) * stride >= extent:
            raise VerifyException(
                f"slice runs out of bounds in dimension {dim}: offset {offset}, "
                f"size {size}, stride {stride} into extent {extent}"
            )


class ExtractSliceOp(upstream.ExtractSliceOp):
    """A strided slice of a tensor.

    ```mlir
    %s = tensor.extract_slice %t[0, 1] [3, 2] [1, 2]
        : tensor<3x7xf32> to tensor<3x2xf32>
    ```
    """

    def verify_(self) -> None:
        super().verify_()
        source = cast(TensorType[Attribute], self.source.type)
        result = cast(TensorType[Attribute], self.result.type)
        if source.get_element_type() != result.get_element_type():
            raise VerifyException("expected source and result element types to match")
        verify_slice(
            source.get_shape(),
            result.get_shape(),
            self.static_offsets.get_values(),
            self.static_sizes.get_values(),
            self.static_strides.get_values(),
            "result",
        )


class InsertSliceOp(upstream.InsertSliceOp):
    """A copy of `dest` with a strided slice replaced by `source`.

    ```mlir
    %r = tensor.insert_slice %s into %t[0, 1] [3, 2] [1, 2]
        : tensor<3x2xf32> into tensor<3x7xf32>
    ```
    """

    def verify_(self) -> None:
        super().verify_()
        source = cast(TensorType[Attribute], self.source.type)
        dest = cast(TensorType[Attribute], self.dest.type)
        if source.get_element_type() != dest.get_element_type():
            raise VerifyException("expected source and dest element types to match")
        verify_slice(
            dest.get_shape(),
            source.get_shape(),
            self.static_offsets.get_values(),
            self.static_sizes.get_values(),
            self.static_strides.get_values(),
            "source",
        )


class PadOp(upstream.PadOp):
    """Pad a tensor with the value its region yields.

    ```mlir
    %p = tensor.pad %t low[0, 1] high[0, 1] {
    ^bb0(%i: index, %j: index):
      tensor.yield %cst : f32
    } : tensor<2x2xf32> to tensor<2x4xf32>
    ```
    """

    def verify_(self) -> None:
        super().verify_()
        source = cast(TensorType[Attribute], self.source.type)
        result = self.result.type
        if source.get_element_type() != result.get_element_type():
            raise VerifyException("expected source and result element types to match")
        expected = [
            DYNAMIC_INDEX if DYNAMIC_INDEX in (size, low, high) else size + low + high
            for size, low, high in zip(
                source.get_shape(),
                self.static_low.get_values(),
                self.static_high.get_values(),
                strict=True,
            )
        ]
        _verify_static_shape_match("result", expected, result.get_shape())
        for index, arg in enumerate(self.region.block.args):
            if not isinstance(arg.type, IndexType):
                raise VerifyException(f"expected block argument {index} to be an index")


class FromElementsOp(upstream.FromElementsOp):
    """A tensor from its elements, in row-major order.

    ```mlir
    %t = tensor.from_elements %a, %b : tensor<2xf32>
    ```
    """

    def verify_(self) -> None:
        super().verify_()
        shape = self.result.type.get_shape()
        count = 1
        for size in shape:
            count *= size
        if count != len(self.elements):
            raise VerifyException(
                f"expected {count} elements for {self.result.type}, found "
                f"{len(self.elements)}"
            )


class EmptyOp(upstream.EmptyOp):
    """A tensor with unspecified contents; one size operand per dynamic dim.

    ```mlir
    %e = tensor.empty(%n) : tensor<?x4xf32>
    ```
    """

    def verify_(self) -> None:
        super().verify_()
        shape = self.tensor.type.get_shape()
        dynamic = sum(1 for size in shape if size == DYNAMIC_INDEX)
        if len(self.dynamic_sizes) != dynamic:
            raise VerifyException(
                f"expected {dynamic} dynamic size operand(s) for "
                f"{self.tensor.type}, found {len(self.dynamic_sizes)}"
            )


@irdl_op_definition
class ParallelInsertSliceOp(IRDLOperation):
    """Insert a tile into a `shared_outs` tensor of the enclosing `scf.forall`.

    It lives only in `scf.forall.in_parallel` and has no result: the forall's
    result holds the inserts of every iteration.

    ```mlir
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %tile into %out[%i, 0] [4, 8] [1, 1]
          : tensor<4x8xf32> into tensor<16x8xf32>
    }
    ```
    """

    name = "tensor.parallel_insert_slice"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$source `into` $dest ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `into` type($dest)"
    )

    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        source: SSAValue,
        dest: SSAValue,
        offsets: Sequence[SSAValue | int],
        sizes: Sequence[SSAValue | int],
        strides: Sequence[SSAValue | int],
    ) -> None:
        static_offsets, dynamic_offsets = split_dynamic_index_list(
            offsets, DYNAMIC_INDEX
        )
        static_sizes, dynamic_sizes = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
        static_strides, dynamic_strides = split_dynamic_index_list(
            strides, DYNAMIC_INDEX
        )
        super().__init__(
            operands=[source, dest, dynamic_offsets, dynamic_sizes, dynamic_strides],
            properties={
                "static_offsets": DenseArrayBase.from_list(i64, static_offsets),
                "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
                "static_strides": DenseArrayBase.from_list(i64, static_strides),
            },
        )

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None or parent.name != "scf.forall.in_parallel":
            raise VerifyException("expects parent op 'scf.forall.in_parallel'")
        for what, static, dynamic in (
            ("offset", self.static_offsets, self.offsets),
            ("size", self.static_sizes, self.sizes),
            ("stride", self.static_strides, self.strides),
        ):
            verify_dynamic_index_list(
                static.get_values(), dynamic, DYNAMIC_INDEX, f" in the {what} arguments"
            )
        source = cast(TensorType[Attribute], self.source.type)
        dest = cast(TensorType[Attribute], self.dest.type)
        if source.get_element_type() != dest.get_element_type():
            raise VerifyException("expected source and dest element types to match")
        verify_slice(
            dest.get_shape(),
            source.get_shape(),
            self.static_offsets.get_values(),
            self.static_sizes.get_values(),
            self.static_strides.get_values(),
            "source",
        )


_REPLACED = {
    op.name
    for op in (
        EmptyOp,
        CollapseShapeOp,
        ExpandShapeOp,
        ExtractSliceOp,
        InsertSliceOp,
        PadOp,
        FromElementsOp,
    )
}

Tensor = Dialect(
    "tensor",
    [
        *(op for op in upstream.Tensor.operations if op.name not in _REPLACED),
        CollapseShapeOp,
        ExpandShapeOp,
        ExtractSliceOp,
        InsertSliceOp,
        PadOp,
        FromElementsOp,
        EmptyOp,
        ParallelInsertSliceOp,
    ],
    list(upstream.Tensor.attributes),
)
