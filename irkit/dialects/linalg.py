"""irkit's `linalg` dialect: MLIR's `linalg` dialect on tensors, as emitted by
torch-mlir and IREE.

Mirrors MLIR's `mlir/include/mlir/Dialect/Linalg/IR/LinalgOps.td`,
`LinalgStructuredOps.td` and the OpDSL-generated named ops. It is xDSL's
`linalg` with:

- fixed syntax: `linalg.generic` with several results (`-> (T1, T2)`);
  named ops print their attribute dictionary in front of `ins`, as MLIR does;
  `linalg.transpose` / `broadcast` / `reduce` print `ins(%x : T)` and accept a
  trailing attribute dictionary; `linalg.matmul` accepts and prints MLIR's
  optional `indexing_maps = [...]`;
- added named ops: `batch_matmul`, `matvec`, `vecmat`, `dot`, the elementwise
  `div`, `div_unsigned`, `abs`, `ceil`, `floor`, `negf`, `reciprocal`, `round`,
  `rsqrt`, `square`, `tanh`, `erf`, `powf`, the pooling ops `pooling_nchw_sum`,
  `pooling_nhwc_{sum,max,min}`, the depthwise convolutions
  `depthwise_conv_2d_{nchw_chw,nhwc_hwc}`, and `linalg.map`.

An op class that keeps xDSL's IRDL definition subclasses it without
`@irdl_op_definition` and overrides only `parse`/`print`/`verify_`, so
`isinstance` checks against `xdsl.dialects.linalg.ops` keep working.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Self, cast

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    AnyTensorType,
    ArrayAttr,
    DenseArrayBase,
    DenseIntElementsAttr,
    FloatAttr,
    IntegerType,
    MemRefType,
    ShapedType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import Linalg as UpstreamLinalg
from xdsl.dialects.linalg import ops as upstream
from xdsl.dialects.linalg.abstract_ops import (
    ConvOperation,
    ElementwiseOperation,
    LinalgStructuredOperation,
    NamedOperation,
    PoolingOperation,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    Region,
    SSAValue,
)
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# --------------------------------------------------------------------------
# Shared syntax helpers
# --------------------------------------------------------------------------


def _parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """Parse `keyword(%a, %b : T1, T2)` if present; [] otherwise."""
    pos = parser.pos
    if parser.parse_optional_keyword(keyword) is None:
        return []
    parser.parse_punctuation("(")
    unresolved: list[UnresolvedOperand] = []
    types: list[Attribute] = []
    if parser.parse_optional_punctuation(")") is None:
        unresolved = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_type
        )
        parser.parse_punctuation(")")
    return list(parser.resolve_operands(unresolved, types, pos))


def _print_operand_group(
    printer: Printer, keyword: str, values: Sequence[SSAValue]
) -> None:
    """Print ` keyword(%a, %b : T1, T2)` as MLIR does (nothing when empty)."""
    if not values:
        return
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([value.type for value in values], printer.print_attribute)
    printer.print_string(")")


def _parse_result_types(parser: Parser) -> list[Attribute]:
    """Parse an optional `-> T` or `-> (T1, T2)`."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    types: list[Attribute] | None = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_type
    )
    return types if types is not None else [parser.parse_type()]


def _print_result_types(printer: Printer, types: Sequence[Attribute]) -> None:
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def _parse_i64_array_keyword(parser: Parser, keyword: str) -> DenseArrayBase:
    """Parse `keyword = [1, 2]` into an `array<i64: ...>` property."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_integer
    )
    return DenseArrayBase.from_list(i64, values)


def _print_i64_array_keyword(
    printer: Printer, keyword: str, values: Sequence[int]
) -> None:
    printer.print_string(f" {keyword} = [")
    printer.print_list(values, printer.print_int)
    printer.print_string("]")


def _element_type(value_type: Attribute) -> Attribute:
    if isinstance(value_type, TensorType | MemRefType):
        return value_type.get_element_type()
    return value_type


# --------------------------------------------------------------------------
# linalg.generic
# --------------------------------------------------------------------------


class GenericOp(upstream.GenericOp):
    """A structured op over an iteration space, with a scalar body.

    ```mlir
    %r:2 = linalg.generic {indexing_maps = [#id, #row, #row],
                           iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<4x10xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      ...
      linalg.yield %a, %b : f32, i64
    } -> (tensor<4xf32>, tensor<4xi64>)
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        attributes = dict(parser.parse_optional_attr_dict())
        end = parser.pos
        maps = attributes.pop("indexing_maps", None)
        iterators = attributes.pop("iterator_types", None)
        if not isinstance(maps, ArrayAttr):
            parser.raise_error(
                "expected 'indexing_maps' in linalg.generic's attributes", start, end
            )
        if not isinstance(iterators, ArrayAttr):
            parser.raise_error(
                "expected 'iterator_types' in linalg.generic's attributes", start, end
            )
        iterator_types: list[IteratorTypeAttr] = []
        for iterator in cast(ArrayAttr[Attribute], iterators):
            if isinstance(iterator, IteratorTypeAttr):
                iterator_types.append(iterator)
            elif isinstance(iterator, StringAttr) and iterator.data in (
                "parallel",
                "reduction",
                "window",
            ):
                iterator_types.append(IteratorTypeAttr(IteratorType(iterator.data)))
            else:
                parser.raise_error(f"unknown iterator type {iterator}", start, end)
        doc = attributes.pop("doc", None)
        library_call = attributes.pop("library_call", None)
        inputs = _parse_operand_group(parser, "ins")
        outputs = _parse_operand_group(parser, "outs")
        if parser.parse_optional_keyword("attrs") is not None:
            parser.parse_punctuation("=")
            attributes |= parser.expect(
                parser.parse_optional_attr_dict, "expected an attribute dictionary"
            )
        body = parser.parse_region()
        result_types = _parse_result_types(parser)
        op = cls(
            inputs,
            outputs,
            body,
            cast(ArrayAttr[AffineMapAttr], maps),
            iterator_types,
            result_types,
            cast(StringAttr | None, doc),
            cast(StringAttr | None, library_call),
        )
        op.attributes |= attributes
        return op


class YieldOp(upstream.YieldOp):
    """The terminator of linalg bodies: the values of the outputs' elements.

    ```mlir
    linalg.yield %0, %1 : f32, i64
    ```
    """


class IndexOp(upstream.IndexOp):
    """The current index of loop `dim` of the enclosing structured op.

    ```mlir
    %i = linalg.index 1 : index
    ```
    """

    def verify_(self) -> None:
        super().verify_()
        parent = self.parent_op()
        if isinstance(parent, LinalgStructuredOperation):
            loops = len(parent.get_iterator_types())
            if self.dim.value.data >= loops:
                raise VerifyException(
                    f"expected dim ({self.dim.value.data}) to be lower than the number "
                    f"of loops ({loops}) of the enclosing op"
                )


# --------------------------------------------------------------------------
# Named ops: attribute dictionary in front of `ins`, as MLIR prints it
# --------------------------------------------------------------------------


class AddOp(upstream.AddOp):
    """`linalg.add ins(%a, %b : T, T) outs(%c : T) -> T`: elementwise a + b."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class SubOp(upstream.SubOp):
    """`linalg.sub ins(%a, %b : T, T) outs(%c : T) -> T`: elementwise a - b."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class MulOp(upstream.MulOp):
    """`linalg.mul ins(%a, %b : T, T) outs(%c : T) -> T`: elementwise a * b."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class MaxOp(upstream.MaxOp):
    """`linalg.max ins(%a, %b : T, T) outs(%c : T) -> T`: elementwise maximum."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class MinOp(upstream.MinOp):
    """`linalg.min ins(%a, %b : T, T) outs(%c : T) -> T`: elementwise minimum."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class ExpOp(upstream.ExpOp):
    """`linalg.exp ins(%a : T) outs(%c : T) -> T`: elementwise e^a."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class LogOp(upstream.LogOp):
    """`linalg.log ins(%a : T) outs(%c : T) -> T`: elementwise natural log."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class SqrtOp(upstream.SqrtOp):
    """`linalg.sqrt ins(%a : T) outs(%c : T) -> T`: elementwise square root."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class SelectOp(upstream.SelectOp):
    """`linalg.select ins(%c, %a, %b : Ti1, T, T) outs(%o : T) -> T`."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True


class _ElementwiseNamedOp(ElementwiseOperation, ABC):
    """An elementwise named op whose body applies `payload` to the inputs."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        result_types = (
            res
            if res is not None
            else [out.type for out in outputs if isinstance(out.type, TensorType)]
        )
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=result_types,
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    @abstractmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        """Build the body's computation on the input elements `args`."""

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = [_element_type(value.type) for value in (*inputs, *outputs)]

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            upstream.YieldOp(cls.payload(args[: len(inputs)], arg_types[-1]))

        return body

    def verify_(self) -> None:
        for value in self.operands:
            if not isinstance(value.type, ShapedType):
                raise VerifyException(f"expected shaped operands, found {value.type}")
        shapes = {cast(ShapedType, value.type).get_shape() for value in self.operands}
        if len(shapes) != 1:
            raise VerifyException("expected all operands to have the same shape")
        super().verify_()


def _is_float(type_: Attribute) -> bool:
    return isinstance(type_, AnyFloat)


@irdl_op_definition
class DivOp(_ElementwiseNamedOp):
    """Elementwise division (`divf`, or `divsi` for integers).

    ```mlir
    %r = linalg.div ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
        outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.div"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        if _is_float(result_type):
            return arith.DivfOp(args[0], args[1]).result
        return arith.DivSIOp(args[0], args[1]).result


@irdl_op_definition
class DivUnsignedOp(_ElementwiseNamedOp):
    """Elementwise unsigned integer division (`divui`).

    ```mlir
    %r = linalg.div_unsigned ins(%a, %b : tensor<4xi32>, tensor<4xi32>)
        outs(%c : tensor<4xi32>) -> tensor<4xi32>
    ```
    """

    name = "linalg.div_unsigned"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return arith.DivUIOp(args[0], args[1]).result


@irdl_op_definition
class PowFOp(_ElementwiseNamedOp):
    """Elementwise power `a ** b` on floats.

    ```mlir
    %r = linalg.powf ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
        outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.powf"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return math.PowFOp(args[0], args[1]).result


@irdl_op_definition
class AbsOp(_ElementwiseNamedOp):
    """Elementwise absolute value of floats.

    ```mlir
    %r = linalg.abs ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.abs"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return math.AbsFOp(args[0]).result


@irdl_op_definition
class CeilOp(_ElementwiseNamedOp):
    """Elementwise ceiling.

    ```mlir
    %r = linalg.ceil ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.ceil"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return math.CeilOp(args[0]).result


@irdl_op_definition
class FloorOp(_ElementwiseNamedOp):
    """Elementwise floor.

    ```mlir
    %r = linalg.floor ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.floor"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return math.FloorOp(args[0]).result


@irdl_op_definition
class NegFOp(_ElementwiseNamedOp):
    """Elementwise float negation.

    ```mlir
    %r = linalg.negf ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.negf"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return arith.NegfOp(args[0]).result


@irdl_op_definition
class ReciprocalOp(_ElementwiseNamedOp):
    """Elementwise `1 / a` on floats.

    ```mlir
    %r = linalg.reciprocal ins(%a : tensor<4xf32>)
        outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.reciprocal"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        one = arith.ConstantOp(FloatAttr(1.0, cast(AnyFloat, result_type)))
        return arith.DivfOp(one, args[0]).result


@irdl_op_definition
class RoundOp(_ElementwiseNamedOp):
    """Elementwise rounding, halfway cases away from zero.

    ```mlir
    %r = linalg.round ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.round"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return math.RoundOp(args[0]).result


@irdl_op_definition
class RsqrtOp(_ElementwiseNamedOp):
    """Elementwise reciprocal square root.

    ```mlir
    %r = linalg.rsqrt ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.rsqrt"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return math.RsqrtOp(args[0]).result


@irdl_op_definition
class SquareOp(_ElementwiseNamedOp):
    """Elementwise `a * a`.

    ```mlir
    %r = linalg.square ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.square"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        if _is_float(result_type):
            return arith.MulfOp(args[0], args[0]).result
        return arith.MuliOp(args[0], args[0]).result


@irdl_op_definition
class TanhOp(_ElementwiseNamedOp):
    """Elementwise hyperbolic tangent.

    ```mlir
    %r = linalg.tanh ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.tanh"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return math.TanhOp(args[0]).result


@irdl_op_definition
class ErfOp(_ElementwiseNamedOp):
    """Elementwise error function.

    ```mlir
    %r = linalg.erf ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.erf"

    @classmethod
    def payload(cls, args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        return math.ErfOp(args[0]).result


class FillOp(upstream.FillOp):
    """Fill a tensor with a scalar (converted to the element type).

    ```mlir
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
    """

    def verify_(self) -> None:
        super().verify_()
        if len(self.inputs) != 1 or len(self.outputs) != 1:
            raise VerifyException("expected one scalar input and one output")


class CopyOp(upstream.CopyOp):
    """Copy a tensor elementwise (converting to the output's element type).

    ```mlir
    %c = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    ```
    """


# --------------------------------------------------------------------------
# Contractions
# --------------------------------------------------------------------------


def _multiply_accumulate_body(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    *,
    accumulator_first: bool = False,
) -> Region:
    """`in0 * in1 + out` (`out + in0 * in1` with `accumulator_first`, the
    order irkit's contractions print), as MLIR's matmul and convolutions
    compute it: operands converted to the output's element type first
    (`extf`, `extsi`), so f16 operands with an f32 accumulator verify
    (xDSL's matmul body multiplies them as they are, its convolution body
    asserts integers)."""
    arg_types = [_element_type(value.type) for value in (*inputs, *outputs)]
    out_type = arg_types[-1]
    is_float = _is_float(out_type)

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        operands: list[SSAValue] = [args[0], args[1]]
        for index, operand_type in enumerate(arg_types[:2]):
            if operand_type == out_type:
                continue
            if is_float:
                operands[index] = arith.ExtFOp(
                    operands[index], cast(AnyFloat, out_type)
                ).result
            else:
                operands[index] = arith.ExtSIOp(
                    operands[index], cast(IntegerType, out_type)
                ).result
        multiply, add = (
            (arith.MulfOp, arith.AddfOp) if is_float else (arith.MuliOp, arith.AddiOp)
        )
        product = multiply(operands[0], operands[1]).result
        terms = (args[2], product) if accumulator_first else (product, args[2])
        upstream.YieldOp(add(*terms))

    return body


def _maps_attr(*maps: AffineMap) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr(AffineMapAttr(map_) for map_ in maps)


class _OptionalIndexingMapsSyntax:
    """MLIR's contraction syntax: `linalg.matmul indexing_maps = [...] ins(...)`.

    The maps are printed only when they differ from the op's defaults.
    """

    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]]

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        maps = None
        if parser.parse_optional_keyword("indexing_maps") is not None:
            parser.parse_punctuation("=")
            start = parser.pos
            maps = parser.parse_attribute()
            if not isinstance(maps, ArrayAttr) or not all(
                isinstance(map_, AffineMapAttr)
                for map_ in cast(ArrayAttr[Attribute], maps)
            ):
                parser.raise_error("expected an array of affine maps", start)
        named_parse: Any = super().parse  # type: ignore[misc]
        op = cast(IRDLOperation, named_parse(parser))
        if maps is not None:
            op.properties["indexing_maps"] = maps
        return cast(Self, op)

    def print(self, printer: Printer) -> None:
        op = cast(IRDLOperation, self)
        maps = op.properties.get("indexing_maps")
        if maps is not None and maps != self.DEFAULT_MAPS:
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(maps)
        NamedOperation.print(cast(NamedOperation, self), printer)


def _verify_contraction_maps(op: LinalgStructuredOperation) -> None:
    maps = op.get_indexing_maps()
    if len(maps) != 3:
        raise VerifyException(f"expected 3 indexing maps, found {len(maps)}")
    loops = len(op.get_iterator_types())
    for index, map_ in enumerate(maps):
        if map_.data.num_dims != loops or not map_.data.is_projected_permutation():
            raise VerifyException(
                f"expected indexing_map #{index} to be a projected permutation of "
                f"{loops} loops"
            )


_MATMUL_MAPS = _maps_attr(
    AffineMap.from_callable(lambda i, _j, k: (i, k)),
    AffineMap.from_callable(lambda _i, j, k: (k, j)),
    AffineMap.from_callable(lambda i, j, _k: (i, j)),
)


class MatmulOp(_OptionalIndexingMapsSyntax, upstream.MatmulOp):
    """`C += A @ B` on 2-D operands; `indexing_maps` may transpose or broadcast.

    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>)
        outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
    """

    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = _MATMUL_MAPS

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        # f16 operands with an f32 accumulator: what torch-mlir emits for
        # `torch.mm` in f16.
        return _multiply_accumulate_body(inputs, outputs)

    def verify_(self) -> None:
        _verify_contraction_maps(self)
        super().verify_()


class _ContractionOp(_OptionalIndexingMapsSyntax, NamedOperation, ABC):
    """A named contraction: `out += in0 * in1` over its maps' iteration space."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    ITERATORS: ClassVar[tuple[str, ...]]

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        result_types = (
            res
            if res is not None
            else [out.type for out in outputs if isinstance(out.type, TensorType)]
        )
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=result_types,
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return _multiply_accumulate_body(inputs, outputs, accumulator_first=True)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        maps = cast(ArrayAttr[AffineMapAttr], self.properties["indexing_maps"])
        return tuple(map_.data for map_ in maps)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return cast(ArrayAttr[AffineMapAttr], self.properties["indexing_maps"])

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(
            IteratorTypeAttr(IteratorType(kind)) for kind in self.ITERATORS
        )

    def verify_(self) -> None:
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException("expected two inputs and one output")
        _verify_contraction_maps(self)
        super().verify_()


_BATCH_MATMUL_MAPS = _maps_attr(
    AffineMap.from_callable(lambda b, i, _j, k: (b, i, k)),
    AffineMap.from_callable(lambda b, _i, j, k: (b, k, j)),
    AffineMap.from_callable(lambda b, i, j, _k: (b, i, j)),
)


@irdl_op_definition
class BatchMatmulOp(_ContractionOp):
    """A batch of matmuls: `C[b] += A[b] @ B[b]`.

    ```mlir
    %c = linalg.batch_matmul ins(%a, %b : tensor<2x8x16xf32>, tensor<2x16x8xf32>)
        outs(%f : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    ```
    """

    name = "linalg.batch_matmul"

    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = _BATCH_MATMUL_MAPS
    ITERATORS: ClassVar[tuple[str, ...]] = (
        "parallel",
        "parallel",
        "parallel",
        "reduction",
    )

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_BATCH_MATMUL_MAPS)


_MATVEC_MAPS = _maps_attr(
    AffineMap.from_callable(lambda i, k: (i, k)),
    AffineMap.from_callable(lambda _i, k: (k,)),
    AffineMap.from_callable(lambda i, _k: (i,)),
)


@irdl_op_definition
class MatvecOp(_ContractionOp):
    """Matrix-vector product: `y += A @ x`.

    ```mlir
    %y = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<8xf32>)
        outs(%f : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.matvec"

    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = _MATVEC_MAPS
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel", "reduction")

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_MATVEC_MAPS)


_VECMAT_MAPS = _maps_attr(
    AffineMap.from_callable(lambda _j, k: (k,)),
    AffineMap.from_callable(lambda j, k: (k, j)),
    AffineMap.from_callable(lambda j, _k: (j,)),
)


@irdl_op_definition
class VecmatOp(_ContractionOp):
    """Vector-matrix product: `y += x @ A`.

    ```mlir
    %y = linalg.vecmat ins(%x, %a : tensor<8xf32>, tensor<8x4xf32>)
        outs(%f : tensor<4xf32>) -> tensor<4xf32>
    ```
    """

    name = "linalg.vecmat"

    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = _VECMAT_MAPS
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel", "reduction")

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_VECMAT_MAPS)


_DOT_MAPS = _maps_attr(
    AffineMap.from_callable(lambda k: (k,)),
    AffineMap.from_callable(lambda k: (k,)),
    AffineMap(1, 0, ()),
)


@irdl_op_definition
class DotOp(_ContractionOp):
    """Dot product into a rank-0 tensor: `r += x . y`.

    ```mlir
    %r = linalg.dot ins(%x, %y : tensor<8xf32>, tensor<8xf32>)
        outs(%f : tensor<f32>) -> tensor<f32>
    ```
    """

    name = "linalg.dot"

    DEFAULT_MAPS: ClassVar[ArrayAttr[AffineMapAttr]] = _DOT_MAPS
    ITERATORS: ClassVar[tuple[str, ...]] = ("reduction",)

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_DOT_MAPS)


# --------------------------------------------------------------------------
# linalg.elementwise and linalg.contract (MLIR's current structured ops)
# --------------------------------------------------------------------------


class ElementwiseKind(StrEnum):
    """MLIR's `ElementwiseKind` (`LinalgEnums.td`), in its order: the unary,
    binary and ternary functions `linalg.elementwise` applies."""

    EXP = "exp"
    LOG = "log"
    ABS = "abs"
    CEIL = "ceil"
    FLOOR = "floor"
    NEGF = "negf"
    RECIPROCAL = "reciprocal"
    ROUND = "round"
    SQRT = "sqrt"
    RSQRT = "rsqrt"
    SQUARE = "square"
    TANH = "tanh"
    ERF = "erf"
    SIN = "sin"
    COS = "cos"
    TAN = "tan"
    ACOS = "acos"
    ACOSH = "acosh"
    ASIN = "asin"
    ASINH = "asinh"
    ATAN = "atan"
    ATANH = "atanh"
    LOG10 = "log10"
    LOG1P = "log1p"
    LOG2 = "log2"
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    DIV = "div"
    DIV_UNSIGNED = "div_unsigned"
    MAX_SIGNED = "max_signed"
    MIN_SIGNED = "min_signed"
    MAX_UNSIGNED = "max_unsigned"
    MIN_UNSIGNED = "min_unsigned"
    POWF = "powf"
    SELECT = "select"


@irdl_attr_definition
class ElementwiseKindAttr(EnumAttribute[ElementwiseKind]):
    """`#linalg.elementwise_kind<add>`: what a `linalg.elementwise` computes."""

    name = "linalg.elementwise_kind"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ElementwiseKind:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(ElementwiseKind)


class TypeFn(StrEnum):
    """MLIR's `TypeFn`: how an operand is converted to the accumulator's type."""

    CAST_SIGNED = "cast_signed"
    CAST_UNSIGNED = "cast_unsigned"


@irdl_attr_definition
class TypeFnAttr(EnumAttribute[TypeFn]):
    """`#linalg.type_fn<cast_unsigned>`: `linalg.contract`'s operand conversion."""

    name = "linalg.type_fn"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TypeFn:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(TypeFn)


# One math op per float-only unary kind; `negf`, `reciprocal` and `square`
# are arith and built apart.
_UNARY_MATH: dict[ElementwiseKind, type[IRDLOperation]] = {
    ElementwiseKind.EXP: math.ExpOp,
    ElementwiseKind.LOG: math.LogOp,
    ElementwiseKind.ABS: math.AbsFOp,
    ElementwiseKind.CEIL: math.CeilOp,
    ElementwiseKind.FLOOR: math.FloorOp,
    ElementwiseKind.ROUND: math.RoundOp,
    ElementwiseKind.SQRT: math.SqrtOp,
    ElementwiseKind.RSQRT: math.RsqrtOp,
    ElementwiseKind.TANH: math.TanhOp,
    ElementwiseKind.ERF: math.ErfOp,
    ElementwiseKind.SIN: math.SinOp,
    ElementwiseKind.COS: math.CosOp,
    ElementwiseKind.TAN: math.TanOp,
    ElementwiseKind.ACOS: math.AcosOp,
    ElementwiseKind.ACOSH: math.AcoshOp,
    ElementwiseKind.ASIN: math.AsinOp,
    ElementwiseKind.ASINH: math.AsinhOp,
    ElementwiseKind.ATAN: math.AtanOp,
    ElementwiseKind.ATANH: math.AtanhOp,
    ElementwiseKind.LOG10: math.Log10Op,
    ElementwiseKind.LOG1P: math.Log1pOp,
    ElementwiseKind.LOG2: math.Log2Op,
}
_UNARY_KINDS = frozenset(
    {
        *_UNARY_MATH,
        ElementwiseKind.NEGF,
        ElementwiseKind.RECIPROCAL,
        ElementwiseKind.SQUARE,
    }
)
# Binary kinds: (float op, integer op); None where MLIR builds none (its
# region builder fails or crashes on such operands).
_BINARY_OPS: dict[
    ElementwiseKind, tuple[type[IRDLOperation] | None, type[IRDLOperation] | None]
] = {
    ElementwiseKind.ADD: (arith.AddfOp, arith.AddiOp),
    ElementwiseKind.SUB: (arith.SubfOp, arith.SubiOp),
    ElementwiseKind.MUL: (arith.MulfOp, arith.MuliOp),
    ElementwiseKind.DIV: (arith.DivfOp, arith.DivSIOp),
    ElementwiseKind.DIV_UNSIGNED: (None, arith.DivUIOp),
    ElementwiseKind.MAX_SIGNED: (arith.MaximumfOp, arith.MaxSIOp),
    ElementwiseKind.MIN_SIGNED: (arith.MinimumfOp, arith.MinSIOp),
    ElementwiseKind.MAX_UNSIGNED: (None, arith.MaxUIOp),
    ElementwiseKind.MIN_UNSIGNED: (None, arith.MinUIOp),
    ElementwiseKind.POWF: (math.PowFOp, None),
}
# On i1, MLIR's region builder turns `add` into `ori` and `mul` into `andi`
# and refuses the other arithmetic kinds.
_I1_OPS: dict[ElementwiseKind, type[IRDLOperation]] = {
    ElementwiseKind.ADD: arith.OrIOp,
    ElementwiseKind.MUL: arith.AndIOp,
}


def elementwise_arity(kind: ElementwiseKind) -> int:
    """How many inputs `kind` takes: 1, 2, or 3 (`select`)."""
    if kind in _UNARY_KINDS:
        return 1
    if kind == ElementwiseKind.SELECT:
        return 3
    return 2


def _elementwise_type_error(kind: ElementwiseKind, element: Attribute) -> str | None:
    """Why `kind` cannot compute on elements of type `element` (None if it can)."""
    is_i1 = isinstance(element, IntegerType) and element.width.data == 1
    if not isinstance(element, AnyFloat | IntegerType):
        return f"expected float or integer elements, found {element}"
    if kind == ElementwiseKind.SELECT:
        return None
    if kind in _UNARY_KINDS:
        if _is_float(element):
            return None
        return f"kind <{kind.value}> expects floating-point elements, found {element}"
    float_op, integer_op = _BINARY_OPS[kind]
    if _is_float(element):
        if float_op is None:
            return f"kind <{kind.value}> expects integer elements, found {element}"
        return None
    if integer_op is None:
        return f"kind <{kind.value}> expects floating-point elements, found {element}"
    if is_i1 and kind not in _I1_OPS:
        return f"kind <{kind.value}> is not defined on i1 (only add and mul are)"
    return None


def _elementwise_operand_error(
    kind: ElementwiseKind, inputs: Sequence[SSAValue], output: SSAValue
) -> str | None:
    """Why `kind` cannot read `inputs` into `output` (None if it can): the
    element type must suit the kind, and nothing is converted (`select`'s
    condition is i1)."""
    if len(inputs) != elementwise_arity(kind):
        return (
            f"kind <{kind.value}> takes {elementwise_arity(kind)} input(s), "
            f"found {len(inputs)}"
        )
    element = _element_type(output.type)
    why = _elementwise_type_error(kind, element)
    if why is not None:
        return why
    for index, value in enumerate(inputs):
        expected = (
            IntegerType(1) if kind == ElementwiseKind.SELECT and index == 0 else element
        )
        found = _element_type(value.type)
        if found != expected:
            return (
                f"expected input #{index} to have element type {expected}, "
                f"found {found} (linalg.elementwise converts nothing)"
            )
    return None


def elementwise_body(
    kind: ElementwiseKind, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """The body MLIR's region builder gives `linalg.elementwise` of `kind`:
    one scalar op on the input elements (`reciprocal` divides a constant
    1.0 by its input, `square` multiplies it by itself)."""
    arg_types = [_element_type(value.type) for value in (*inputs, *outputs)]
    out_type = arg_types[-1]

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        operands: list[SSAValue] = list(args[: len(inputs)])
        result: SSAValue
        if kind == ElementwiseKind.SELECT:
            result = arith.SelectOp(operands[0], operands[1], operands[2]).result
        elif kind == ElementwiseKind.NEGF:
            result = arith.NegfOp(operands[0]).result
        elif kind == ElementwiseKind.SQUARE:
            result = arith.MulfOp(operands[0], operands[0]).result
        elif kind == ElementwiseKind.RECIPROCAL:
            one = arith.ConstantOp(FloatAttr(1.0, cast(AnyFloat, out_type)))
            result = arith.DivfOp(one.result, operands[0]).result
        elif kind in _UNARY_MATH:
            result = (
                _UNARY_MATH[kind]
                .build(operands=[operands[0]], result_types=[out_type])
                .results[0]
            )
        else:
            float_op, integer_op = _BINARY_OPS[kind]
            is_i1 = isinstance(out_type, IntegerType) and out_type.width.data == 1
            op_type = (
                float_op
                if _is_float(out_type)
                else _I1_OPS.get(kind, integer_op)
                if is_i1
                else integer_op
            )
            assert op_type is not None, "checked by the verifier before building"
            result = op_type.build(
                operands=[operands[0], operands[1]], result_types=[out_type]
            ).results[0]
        upstream.YieldOp(result)

    return body


def _parse_maps_keyword(parser: Parser) -> ArrayAttr[AffineMapAttr] | None:
    """`indexing_maps = [#map, ...]` if present."""
    if parser.parse_optional_keyword("indexing_maps") is None:
        return None
    parser.parse_punctuation("=")
    start = parser.pos
    maps = parser.parse_attribute()
    if not isinstance(maps, ArrayAttr) or not all(
        isinstance(map_, AffineMapAttr) for map_ in cast(ArrayAttr[Attribute], maps)
    ):
        parser.raise_error("expected an array of affine maps", start, parser.pos)
    return cast(ArrayAttr[AffineMapAttr], maps)


def _parse_ins_outs_results(
    parser: Parser,
) -> tuple[list[SSAValue], list[SSAValue], list[Attribute]]:
    inputs = _parse_operand_group(parser, "ins")
    outputs = _parse_operand_group(parser, "outs")
    return inputs, outputs, _parse_result_types(parser)


def _print_ins_outs_results(printer: Printer, op: LinalgStructuredOperation) -> None:
    _print_operand_group(printer, "ins", op.inputs)
    _print_operand_group(printer, "outs", op.outputs)
    _print_result_types(printer, op.result_types)


def _tensor_results(outputs: Sequence[SSAValue]) -> list[Attribute]:
    return [out.type for out in outputs if isinstance(out.type, TensorType)]


@irdl_op_definition
class ElementwiseOp(LinalgStructuredOperation):
    """One elementwise function of `kind` over the output's iteration space.

    Inputs are read through `indexing_maps` (default: the identity for every
    operand), so one op can broadcast (`(d0, d1) -> (d1)`), transpose or read
    a scalar (`(d0, d1) -> ()`); the output's map is a permutation. No
    conversion: the inputs' element types are the output's (`select`'s
    condition is i1). MLIR prints `<add>` for the `kind` property; LLVM 20 to
    23 printed `kind=#linalg.elementwise_kind<add>`, which is read too.

    ```mlir
    %r = linalg.elementwise <add>
        indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id]
        ins(%x, %bias : tensor<4x8xf32>, tensor<8xf32>)
        outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
    """

    name = "linalg.elementwise"

    kind = prop_def(ElementwiseKindAttr)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        kind: ElementwiseKind | ElementwiseKindAttr,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        indexing_maps: ArrayAttr[AffineMapAttr] | None = None,
        result_types: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        kind_attr = (
            kind if isinstance(kind, ElementwiseKindAttr) else ElementwiseKindAttr(kind)
        )
        if len(outputs) == 1:
            why = _elementwise_operand_error(kind_attr.data, inputs, outputs[0])
            if why is not None:
                # The body cannot be built: say why, as the verifier would.
                raise VerifyException(why)
        if indexing_maps is None:
            indexing_maps = self.default_maps(inputs, outputs)
        super().__init__(
            operands=[inputs, outputs],
            result_types=[
                result_types if result_types is not None else _tensor_results(outputs)
            ],
            properties={"kind": kind_attr, "indexing_maps": indexing_maps},
            attributes=attributes,
            regions=[elementwise_body(kind_attr.data, inputs, outputs)],
        )

    @staticmethod
    def default_maps(
        inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> ArrayAttr[AffineMapAttr]:
        """The identity over the output's dimensions, for every operand."""
        rank = (
            outputs[0].type.get_num_dims()
            if outputs and isinstance(outputs[0].type, ShapedType)
            else 0
        )
        identity = AffineMapAttr(AffineMap.identity(rank))
        return ArrayAttr([identity] * (len(inputs) + len(outputs)))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        maps = self.indexing_maps.data
        loops = maps[0].data.num_dims if maps else 0
        return ArrayAttr([IteratorTypeAttr.parallel()] * loops)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        kind: ElementwiseKind
        if parser.parse_optional_keyword("kind") is not None:
            parser.parse_punctuation("=")
            attr = parser.parse_attribute()
            if not isinstance(attr, ElementwiseKindAttr):
                parser.raise_error(
                    "expected #linalg.elementwise_kind<...>", start, parser.pos
                )
            kind = attr.data
        else:
            with parser.in_angle_brackets():
                kind = parser.parse_str_enum(ElementwiseKind)
        maps = _parse_maps_keyword(parser)
        attributes = dict(parser.parse_optional_attr_dict())
        inputs, outputs, result_types = _parse_ins_outs_results(parser)
        if len(outputs) != 1:
            parser.raise_error(
                f"expected one output, found {len(outputs)}", start, parser.pos
            )
        # Checked before the body is built from these operands (MLIR's parser
        # reports a wrong arity too).
        why = _elementwise_operand_error(kind, inputs, outputs[0])
        if why is not None:
            parser.raise_error(why, start, parser.pos)
        return cls(kind, inputs, outputs, maps, result_types, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{self.kind.data.value}>")
        if self.indexing_maps != self.default_maps(self.inputs, self.outputs):
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)
        printer.print_op_attributes(self.attributes)
        _print_ins_outs_results(printer, self)

    def verify_(self) -> None:
        kind = self.kind.data
        if len(self.outputs) != 1:
            raise VerifyException(f"expected one output, found {len(self.outputs)}")
        why = _elementwise_operand_error(kind, self.inputs, self.outputs[0])
        if why is not None:
            raise VerifyException(why)
        maps = [attr.data for attr in self.indexing_maps]
        if len(maps) != len(self.operands):
            raise VerifyException(
                f"expected {len(self.operands)} indexing maps (one per operand), "
                f"found {len(maps)}"
            )
        rank = (
            self.outputs[0].type.get_num_dims()
            if isinstance(self.outputs[0].type, ShapedType)
            else 0
        )
        for index, map_ in enumerate(maps):
            if map_.num_dims != rank:
                raise VerifyException(
                    f"expected indexing_map #{index} to have {rank} dim(s), one per "
                    f"dimension of the output, found {map_.num_dims}"
                )
        if not _is_permutation(maps[-1]):
            raise VerifyException(
                f"expected the output's indexing_map to be a permutation, found "
                f"{maps[-1]}"
            )
        super().verify_()


def _is_permutation(map_: AffineMap) -> bool:
    positions = [
        expr.position for expr in map_.results if isinstance(expr, AffineDimExpr)
    ]
    return len(positions) == len(map_.results) == map_.num_dims and sorted(
        positions
    ) == list(range(map_.num_dims))


def _dims_used(map_: AffineMap) -> set[int]:
    return {expr.position for expr in map_.results if isinstance(expr, AffineDimExpr)}


def _convert_operand(value: SSAValue, target: Attribute, unsigned: bool) -> SSAValue:
    """MLIR's `cast_signed`/`cast_unsigned` of `value` to `target` (i1 is
    unsigned either way, as in MLIR: `true` becomes 1)."""
    source = value.type
    if source == target:
        return value
    if isinstance(source, IntegerType) and source.width.data == 1:
        unsigned = True
    op: IRDLOperation
    if _is_float(source) and _is_float(target):
        wider = cast(AnyFloat, target).bitwidth > cast(AnyFloat, source).bitwidth
        op = (
            arith.ExtFOp(value, cast(AnyFloat, target))
            if wider
            else arith.TruncFOp(value, cast(AnyFloat, target))
        )
    elif isinstance(source, IntegerType) and _is_float(target):
        to_float = cast(AnyFloat, target)
        op = (arith.UIToFPOp if unsigned else arith.SIToFPOp)(value, to_float)
    elif _is_float(source) and isinstance(target, IntegerType):
        op = (arith.FPToUIOp if unsigned else arith.FPToSIOp)(value, target)
    else:
        to_int = cast(IntegerType, target)
        if to_int.width.data < cast(IntegerType, source).width.data:
            op = arith.TruncIOp(value, to_int)
        else:
            op = (arith.ExtUIOp if unsigned else arith.ExtSIOp)(value, to_int)
    return op.results[0]


def contract_body(
    inputs: Sequence[SSAValue], outputs: Sequence[SSAValue], unsigned: bool
) -> Region:
    """`out + cast(a) * cast(b)`, as MLIR's region builder writes it."""
    arg_types = [_element_type(value.type) for value in (*inputs, *outputs)]
    out_type = arg_types[-1]

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        a = _convert_operand(args[0], out_type, unsigned)
        b = _convert_operand(args[1], out_type, unsigned)
        multiply, add = (
            (arith.MulfOp, arith.AddfOp)
            if _is_float(out_type)
            else (arith.MuliOp, arith.AddiOp)
        )
        upstream.YieldOp(add(args[2], multiply(a, b).result))

    return body


@irdl_op_definition
class ContractOp(LinalgStructuredOperation):
    """`out += cast(a) * cast(b)`, over loops given by three indexing maps.

    A loop the output's map uses is parallel; any other must index both
    inputs and is reduced (a contracting dimension). Each map is a projected
    permutation, so this is any matmul, batch matmul, matvec, dot or outer
    product, with any operand transposed. `cast` (default `cast_signed`)
    converts both inputs to the output's element type first.

    ```mlir
    %c = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                          affine_map<(m, n, k) -> (n, k)>,
                                          affine_map<(m, n, k) -> (m, n)>]
        ins(%a, %bt : tensor<4x16xf32>, tensor<8x16xf32>)
        outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
    """

    name = "linalg.contract"

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    cast = opt_prop_def(TypeFnAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        indexing_maps: ArrayAttr[AffineMapAttr],
        result_types: Sequence[Attribute] | None = None,
        cast: TypeFn | TypeFnAttr | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        properties: dict[str, Attribute] = {"indexing_maps": indexing_maps}
        cast_attr = (
            None
            if cast is None
            else cast
            if isinstance(cast, TypeFnAttr)
            else TypeFnAttr(cast)
        )
        if cast_attr is not None:
            properties["cast"] = cast_attr
        unsigned = cast_attr is not None and cast_attr.data == TypeFn.CAST_UNSIGNED
        super().__init__(
            operands=[inputs, outputs],
            result_types=[
                result_types if result_types is not None else _tensor_results(outputs)
            ],
            properties=properties,
            attributes=attributes,
            regions=[contract_body(inputs, outputs, unsigned)],
        )

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        maps = [attr.data for attr in self.indexing_maps]
        if not maps:
            return ArrayAttr([])
        parallel = _dims_used(maps[-1])
        return ArrayAttr(
            IteratorTypeAttr.parallel()
            if loop in parallel
            else IteratorTypeAttr.reduction()
            for loop in range(maps[0].num_dims)
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        maps = _parse_maps_keyword(parser)
        if maps is None:
            parser.raise_error("expected 'indexing_maps = [...]'", start, parser.pos)
        attributes = dict(parser.parse_optional_attr_dict())
        cast_attr = attributes.pop("cast", None)
        if cast_attr is not None and not isinstance(cast_attr, TypeFnAttr):
            parser.raise_error(
                f"expected cast to be a #linalg.type_fn<...>, found {cast_attr}",
                start,
                parser.pos,
            )
        inputs, outputs, result_types = _parse_ins_outs_results(parser)
        if len(inputs) != 2 or len(outputs) != 1:
            # The body is built from two inputs and one output.
            parser.raise_error(
                f"expected two inputs and one output, found {len(inputs)} and "
                f"{len(outputs)}",
                start,
                parser.pos,
            )
        return cls(inputs, outputs, maps, result_types, cast_attr, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        extra: dict[str, Attribute] = dict(self.attributes)
        if self.cast is not None:
            extra["cast"] = self.cast
        printer.print_op_attributes(extra)
        _print_ins_outs_results(printer, self)

    def verify_(self) -> None:
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException(
                f"expected two inputs and one output, found {len(self.inputs)} and "
                f"{len(self.outputs)}"
            )
        for value in self.operands:
            element = _element_type(value.type)
            if not isinstance(element, AnyFloat | IntegerType):
                raise VerifyException(
                    f"expected float or integer elements, found {element}"
                )
        maps = [attr.data for attr in self.indexing_maps]
        if len(maps) != 3:
            raise VerifyException(
                f"expected 3 indexing maps (two inputs, one output), found {len(maps)}"
            )
        loops = maps[0].num_dims
        for index, map_ in enumerate(maps):
            if map_.num_dims != loops:
                raise VerifyException(
                    f"expected indexing_map #{index} to have {loops} dim(s), as "
                    f"indexing_map #0 has, found {map_.num_dims}"
                )
            if not map_.is_projected_permutation() or len(_dims_used(map_)) != len(
                map_.results
            ):
                raise VerifyException(
                    f"expected indexing_map #{index} to be a projected permutation, "
                    f"found {map_}"
                )
        a, b, out = (_dims_used(map_) for map_ in maps)
        for loop in range(loops):
            if loop in out:
                continue
            if loop not in a and loop not in b:
                raise VerifyException(f"loop d{loop} indexes no operand")
            if loop not in a or loop not in b:
                raise VerifyException(
                    f"loop d{loop} is neither parallel (in the output's map) nor "
                    f"contracting (in both inputs' maps)"
                )
        super().verify_()


# --------------------------------------------------------------------------
# Convolutions and pooling
# --------------------------------------------------------------------------


def _window_exprs(
    strides: DenseArrayBase | Attribute,
    dilations: DenseArrayBase | Attribute,
    outputs: Sequence[AffineExpr],
    kernels: Sequence[AffineExpr],
) -> list[AffineExpr]:
    """`out * stride + k * dilation` per spatial dimension."""
    stride_values = cast(DenseIntElementsAttr, strides).get_values()
    dilation_values = cast(DenseIntElementsAttr, dilations).get_values()
    return [
        out * int(stride) + k * int(dilation)
        for out, k, stride, dilation in zip(
            outputs, kernels, stride_values, dilation_values, strict=True
        )
    ]


def _verify_window_attrs(op: IRDLOperation, spatial: int) -> None:
    for name in ("strides", "dilations"):
        values = cast(DenseIntElementsAttr, op.properties[name]).get_values()
        if len(values) != spatial:
            raise VerifyException(f"expected {spatial} {name}, found {len(values)}")
        if any(int(value) < 1 for value in values):
            raise VerifyException(f"expected positive {name}")


class _MixedPrecisionBody:
    """A named convolution whose body converts its operands to the
    accumulator's type first (`_multiply_accumulate_body`), as MLIR's do."""

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return _multiply_accumulate_body(inputs, outputs)


class Conv2DNhwcHwcfOp(_MixedPrecisionBody, upstream.Conv2DNhwc_HwcfOp):
    """2-D convolution, NHWC input, HWCF filter."""


class Conv2DNhwcFhwcOp(_MixedPrecisionBody, upstream.Conv2DNhwc_FhwcOp):
    """2-D convolution, NHWC input, FHWC filter."""


class Conv2DNgchwFgchwOp(_MixedPrecisionBody, upstream.Conv2DNgchwFgchwOp):
    """Grouped 2-D convolution, NGCHW input, FGCHW filter."""


class Conv2DNgchwGfchwOp(_MixedPrecisionBody, upstream.Conv2DNgchwGfchwOp):
    """Grouped 2-D convolution, NGCHW input, GFCHW filter."""


class Conv2DNhwgcGfhwcOp(_MixedPrecisionBody, upstream.Conv2DNhwgcGfhwcOp):
    """Grouped 2-D convolution, NHWGC input, GFHWC filter."""


class Conv2DNchwFchwOp(_MixedPrecisionBody, upstream.Conv2DNchwFchwOp):
    """2-D convolution, NCHW input, FCHW filter.

    ```mlir
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
        strides = dense<1> : vector<2xi64>}
        ins(%x, %w : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>)
            outs(%b : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    ```
    """

    def verify_(self) -> None:
        _verify_window_attrs(self, 2)
        super().verify_()


class PoolingNchwMaxOp(upstream.PoolingNchwMaxOp):
    """Max pooling over NCHW; the window's shape is the second operand's.

    ```mlir
    %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>,
        strides = dense<2> : vector<2xi64>}
        ins(%x, %win : tensor<2x4x8x8xf32>, tensor<2x2xf32>)
            outs(%f : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
    ```

    xDSL's body takes the maximum of the input and the *window* elements;
    MLIR's (and this one) of the accumulator and the input.
    """

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = [_element_type(value.type) for value in (*inputs, *outputs)]

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            upstream.YieldOp(_max(args[2], args[0], _is_float(arg_types[-1])))

        return body

    def verify_(self) -> None:
        _verify_window_attrs(self, 2)
        super().verify_()


class _PoolingOp(PoolingOperation, ABC):
    """A pooling op whose body combines with `combiner(float?)`."""

    @classmethod
    @abstractmethod
    def combine(cls, lhs: SSAValue, rhs: SSAValue, is_float: bool) -> SSAValue:
        """The body's combiner of the window element and the accumulator."""

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = [_element_type(value.type) for value in (*inputs, *outputs)]

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            is_float = _is_float(arg_types[-1])
            upstream.YieldOp(cls.combine(args[2], args[0], is_float))

        return body

    def verify_(self) -> None:
        _verify_window_attrs(self, 2)
        super().verify_()


class _NchwPooling(_PoolingOp, ABC):
    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, c, oh, ow, kh, kw = (AffineDimExpr(dim) for dim in range(6))
        h, w = _window_exprs(self.strides, self.dilations, (oh, ow), (kh, kw))
        return (
            AffineMap(6, 0, (n, c, h, w)),
            AffineMap(6, 0, (kh, kw)),
            AffineMap(6, 0, (n, c, oh, ow)),
        )


class _NhwcPooling(_PoolingOp, ABC):
    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = (AffineDimExpr(dim) for dim in range(6))
        h, w = _window_exprs(self.strides, self.dilations, (oh, ow), (kh, kw))
        return (
            AffineMap(6, 0, (n, h, w, c)),
            AffineMap(6, 0, (kh, kw)),
            AffineMap(6, 0, (n, oh, ow, c)),
        )


def _add(lhs: SSAValue, rhs: SSAValue, is_float: bool) -> SSAValue:
    return (arith.AddfOp if is_float else arith.AddiOp)(lhs, rhs).result


def _max(lhs: SSAValue, rhs: SSAValue, is_float: bool) -> SSAValue:
    return (arith.MaximumfOp if is_float else arith.MaxSIOp)(lhs, rhs).result


def _min(lhs: SSAValue, rhs: SSAValue, is_float: bool) -> SSAValue:
    return (arith.MinimumfOp if is_float else arith.MinSIOp)(lhs, rhs).result


@irdl_op_definition
class PoolingNchwSumOp(_NchwPooling):
    """Sum pooling over NCHW; the window's shape is the second operand's.

    ```mlir
    %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>,
        strides = dense<2> : vector<2xi64>}
        ins(%x, %win : tensor<1x2x6x6xf32>, tensor<2x2xf32>)
            outs(%f : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    ```
    """

    name = "linalg.pooling_nchw_sum"

    @classmethod
    def combine(cls, lhs: SSAValue, rhs: SSAValue, is_float: bool) -> SSAValue:
        return _add(lhs, rhs, is_float)


@irdl_op_definition
class PoolingNhwcSumOp(_NhwcPooling):
    """Sum pooling over NHWC.

    ```mlir
    %p = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>,
        strides = dense<2> : vector<2xi64>}
        ins(%x, %win : tensor<1x6x6x2xf32>, tensor<2x2xf32>)
            outs(%f : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
    ```
    """

    name = "linalg.pooling_nhwc_sum"

    @classmethod
    def combine(cls, lhs: SSAValue, rhs: SSAValue, is_float: bool) -> SSAValue:
        return _add(lhs, rhs, is_float)


@irdl_op_definition
class PoolingNhwcMaxOp(_NhwcPooling):
    """Max pooling over NHWC.

    ```mlir
    %p = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>,
        strides = dense<2> : vector<2xi64>}
        ins(%x, %win : tensor<1x6x6x2xf32>, tensor<2x2xf32>)
            outs(%f : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
    ```
    """

    name = "linalg.pooling_nhwc_max"

    @classmethod
    def combine(cls, lhs: SSAValue, rhs: SSAValue, is_float: bool) -> SSAValue:
        return _max(lhs, rhs, is_float)


@irdl_op_definition
class PoolingNhwcMinOp(_NhwcPooling):
    """Min pooling over NHWC.

    ```mlir
    %p = linalg.pooling_nhwc_min {dilations = dense<1> : vector<2xi64>,
        strides = dense<2> : vector<2xi64>}
        ins(%x, %win : tensor<1x6x6x2xf32>, tensor<2x2xf32>)
            outs(%f : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
    ```
    """

    name = "linalg.pooling_nhwc_min"

    @classmethod
    def combine(cls, lhs: SSAValue, rhs: SSAValue, is_float: bool) -> SSAValue:
        return _min(lhs, rhs, is_float)


class _DepthwiseConvOp(_MixedPrecisionBody, ConvOperation, ABC):
    """A depthwise 2-D convolution: one filter per channel, 2 reduction loops."""

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(
            (IteratorTypeAttr.parallel(),) * 4 + (IteratorTypeAttr.reduction(),) * 2
        )

    def verify_(self) -> None:
        _verify_window_attrs(self, 2)
        super().verify_()


@irdl_op_definition
class DepthwiseConv2DNchwChwOp(_DepthwiseConvOp):
    """Depthwise 2-D convolution, NCHW input, CHW filter.

    ```mlir
    %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>,
        strides = dense<1> : vector<2xi64>}
        ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>)
            outs(%b : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    ```
    """

    name = "linalg.depthwise_conv_2d_nchw_chw"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, c, oh, ow, kh, kw = (AffineDimExpr(dim) for dim in range(6))
        h, w = _window_exprs(self.strides, self.dilations, (oh, ow), (kh, kw))
        return (
            AffineMap(6, 0, (n, c, h, w)),
            AffineMap(6, 0, (c, kh, kw)),
            AffineMap(6, 0, (n, c, oh, ow)),
        )


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(_DepthwiseConvOp):
    """Depthwise 2-D convolution, NHWC input, HWC filter.

    ```mlir
    %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>,
        strides = dense<1> : vector<2xi64>}
        ins(%x, %w : tensor<1x6x6x4xf32>, tensor<3x3x4xf32>)
            outs(%b : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    ```
    """

    name = "linalg.depthwise_conv_2d_nhwc_hwc"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = (AffineDimExpr(dim) for dim in range(6))
        h, w = _window_exprs(self.strides, self.dilations, (oh, ow), (kh, kw))
        return (
            AffineMap(6, 0, (n, h, w, c)),
            AffineMap(6, 0, (kh, kw, c)),
            AffineMap(6, 0, (n, oh, ow, c)),
        )


# --------------------------------------------------------------------------
# transpose, broadcast, reduce, map: MLIR's `ins(%x : T)` syntax
# --------------------------------------------------------------------------


def _parse_single_operand(parser: Parser, keyword: str) -> SSAValue:
    pos = parser.pos
    values = _parse_operand_group(parser, keyword)
    if len(values) != 1:
        parser.raise_error(f"expected one operand in '{keyword}'", pos)
    return values[0]


class TransposeOp(upstream.TransposeOp):
    """Permute the dimensions: `dim(result, i) = dim(input, permutation[i])`.

    ```mlir
    %t = linalg.transpose ins(%x : tensor<2x3xf32>)
        outs(%e : tensor<3x2xf32>) permutation = [1, 0]
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = _parse_single_operand(parser, "ins")
        init = _parse_single_operand(parser, "outs")
        permutation = _parse_i64_array_keyword(parser, "permutation")
        attributes = parser.parse_optional_attr_dict()
        op = cls(source, init, permutation)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_operand_group(printer, "ins", self.inputs)
        _print_operand_group(printer, "outs", self.outputs)
        _print_i64_array_keyword(printer, "permutation", self.permutation.get_values())
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        super().verify_()
        values = sorted(self.permutation.get_values())
        if values != list(range(len(values))):
            raise VerifyException(
                f"expected permutation to be a permutation of 0..{len(values) - 1}"
            )


class BroadcastOp(upstream.BroadcastOp):
    """Broadcast the input by adding the result dimensions `dimensions`.

    ```mlir
    %b = linalg.broadcast ins(%x : tensor<4xf32>)
        outs(%e : tensor<2x4xf32>) dimensions = [0]
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = _parse_single_operand(parser, "ins")
        init = _parse_single_operand(parser, "outs")
        dimensions = _parse_i64_array_keyword(parser, "dimensions")
        attributes = parser.parse_optional_attr_dict()
        op = cls(source, init, dimensions)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_operand_group(printer, "ins", [self.input])
        _print_operand_group(printer, "outs", [self.init])
        _print_i64_array_keyword(printer, "dimensions", self.dimensions.get_values())
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        super().verify_()
        dims = list(self.dimensions.get_values())
        if dims != sorted(set(dims)):
            raise VerifyException("expected dimensions to be strictly increasing")
        if _element_type(self.input.type) != _element_type(self.init.type):
            raise VerifyException("expected input and init element types to match")


def _short_form_payload(block: Block, arg_count: int) -> Operation | None:
    """The payload op when `block` is `%r = op(args...); linalg.yield %r`.

    MLIR prints such bodies in short form, `{ arith.addf }`.
    """
    ops = list(block.ops)
    if len(ops) != 2:
        return None
    payload, terminator = ops
    if not isinstance(terminator, upstream.YieldOp):
        return None
    if len(payload.results) != 1 or tuple(terminator.operands) != tuple(
        payload.results
    ):
        return None
    if payload.regions or payload.attributes or len(payload.operands) != arg_count:
        return None
    if tuple(payload.operands) != tuple(block.args[:arg_count]):
        return None
    if any(value.type != payload.results[0].type for value in payload.operands):
        return None
    if payload.properties and set(payload.properties) != {"fastmath"}:
        return None
    fastmath = payload.properties.get("fastmath")
    if fastmath is not None and fastmath != arith.FastMathFlagsAttr("none"):
        return None
    return payload


def _parse_short_form(parser: Parser) -> str | None:
    """Parse `{ dialect.op }` if present; returns the op name."""
    if parser.parse_optional_punctuation("{") is None:
        return None
    name = parser.parse_identifier(" (an op name)")
    parser.parse_punctuation("}")
    return name


def _short_form_body(
    parser: Parser, op_name: str, arg_types: Sequence[Attribute], arg_count: int
) -> Region:
    """A body applying op `op_name` to the first `arg_count` arguments."""
    op_type = parser.ctx.get_optional_op(op_name)
    if op_type is None:
        parser.raise_error(f"unknown operation '{op_name}' in short form")
    block = Block(arg_types=arg_types)
    payload = op_type.create(
        operands=block.args[:arg_count], result_types=[arg_types[0]]
    )
    block.add_ops([payload, upstream.YieldOp(payload.results[0])])
    return Region(block)


def _print_body(printer: Printer, region: Region, arg_count: int) -> None:
    """Print a map/reduce body in long form: `(%a: f32, %b: f32) { ... }`."""
    block = region.block
    with printer.indented():
        printer.print_string("\n")
        with printer.in_parens():
            printer.print_list(block.args, printer.print_block_argument)
        printer.print_string(" ")
        printer.print_region(region, print_entry_block_args=False)


def _parse_body(parser: Parser) -> Region:
    args = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_argument
    )
    return parser.parse_region(args)


class ReduceOp(upstream.ReduceOp):
    """Reduce the input over `dimensions` into the init, with the body's combiner.

    ```mlir
    %r = linalg.reduce ins(%x : tensor<4x8xf32>)
        outs(%f : tensor<4xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %s = linalg.reduce { arith.addf } ins(%x : tensor<4x8xf32>)
        outs(%f : tensor<4xf32>) dimensions = [1]
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short = _parse_short_form(parser)
        source = _parse_single_operand(parser, "ins")
        init = _parse_single_operand(parser, "outs")
        dimensions = _parse_i64_array_keyword(parser, "dimensions")
        attributes = parser.parse_optional_attr_dict()
        if short is not None:
            element_types = [_element_type(source.type), _element_type(init.type)]
            body = _short_form_body(parser, short, element_types, 2)
        else:
            body = _parse_body(parser)
        op = cls(source, init, dimensions, body)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        payload = _short_form_payload(self.region.block, 2)
        if payload is not None:
            printer.print_string(f" {{ {payload.name} }}")
        _print_operand_group(printer, "ins", [self.input])
        _print_operand_group(printer, "outs", [self.init])
        _print_i64_array_keyword(printer, "dimensions", self.dimensions.get_values())
        printer.print_op_attributes(self.attributes)
        if payload is None:
            _print_body(printer, self.region, 2)

    def verify_(self) -> None:
        super().verify_()
        element = _element_type(self.init.type)
        block = self.region.block
        if [arg.type for arg in block.args] != [element, element]:
            raise VerifyException(f"expected the body to take two {element} arguments")
        dims = list(self.dimensions.get_values())
        if dims != sorted(set(dims)):
            raise VerifyException("expected dimensions to be strictly increasing")


@irdl_op_definition
class MapOp(IRDLOperation):
    """Apply the body elementwise to the inputs, into the init's shape.

    ```mlir
    %m = linalg.map { arith.addf } ins(%a, %b : tensor<8xf32>, tensor<8xf32>)
        outs(%e : tensor<8xf32>)
    %n = linalg.map ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>)
      (%in: f32) {
        %0 = math.exp %in : f32
        linalg.yield %0 : f32
      }
    ```
    """

    name = "linalg.map"

    inputs = var_operand_def(base(MemRefType) | base(AnyTensorType))
    init = var_operand_def(base(MemRefType) | base(AnyTensorType))
    result = var_result_def(AnyTensorType)
    mapper = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self, inputs: Sequence[SSAValue], init: SSAValue, mapper: Region
    ) -> None:
        results = [init.type] if isinstance(init.type, TensorType) else []
        super().__init__(
            operands=[inputs, [init]], result_types=[results], regions=[mapper]
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short = _parse_short_form(parser)
        inputs = _parse_operand_group(parser, "ins")
        init = _parse_single_operand(parser, "outs")
        attributes = parser.parse_optional_attr_dict()
        if short is not None:
            types = [_element_type(value.type) for value in inputs]
            body = _short_form_body(parser, short, types, len(inputs))
        else:
            body = _parse_body(parser)
        op = cls(inputs, init, body)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        payload = _short_form_payload(self.mapper.block, len(self.inputs))
        if payload is not None:
            printer.print_string(f" {{ {payload.name} }}")
        _print_operand_group(printer, "ins", self.inputs)
        _print_operand_group(printer, "outs", self.init)
        printer.print_op_attributes(self.attributes)
        if payload is None:
            _print_body(printer, self.mapper, len(self.inputs))

    def verify_(self) -> None:
        if len(self.init) != 1:
            raise VerifyException("expected one init operand")
        init_type = cast(ShapedType, self.init[0].type)
        for index, value in enumerate(self.inputs):
            shape = cast(ShapedType, value.type).get_shape()
            if shape != init_type.get_shape():
                raise VerifyException(
                    f"expected input #{index} to have the init's shape "
                    f"{list(init_type.get_shape())}, found {list(shape)}"
                )
        block = self.mapper.block
        expected = [_element_type(value.type) for value in self.inputs]
        if [arg.type for arg in block.args] != expected:
            raise VerifyException(
                "expected the body to take one argument per input, of its element type"
            )
        terminator = block.last_op
        if not isinstance(terminator, upstream.YieldOp):
            raise VerifyException("expected the body to end with linalg.yield")
        if [value.type for value in terminator.operands] != [_element_type(init_type)]:
            raise VerifyException("expected the body to yield one init element")


_REPLACEMENTS: tuple[type[Operation], ...] = (
    GenericOp,
    YieldOp,
    IndexOp,
    AddOp,
    SubOp,
    MulOp,
    MaxOp,
    MinOp,
    ExpOp,
    LogOp,
    SqrtOp,
    SelectOp,
    FillOp,
    CopyOp,
    MatmulOp,
    Conv2DNchwFchwOp,
    Conv2DNhwcHwcfOp,
    Conv2DNhwcFhwcOp,
    Conv2DNgchwFgchwOp,
    Conv2DNgchwGfchwOp,
    Conv2DNhwgcGfhwcOp,
    PoolingNchwMaxOp,
    TransposeOp,
    BroadcastOp,
    ReduceOp,
)

_ADDED: tuple[type[Operation], ...] = (
    DivOp,
    DivUnsignedOp,
    PowFOp,
    AbsOp,
    CeilOp,
    FloorOp,
    NegFOp,
    ReciprocalOp,
    RoundOp,
    RsqrtOp,
    SquareOp,
    TanhOp,
    ErfOp,
    BatchMatmulOp,
    MatvecOp,
    VecmatOp,
    DotOp,
    PoolingNchwSumOp,
    PoolingNhwcSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMinOp,
    DepthwiseConv2DNchwChwOp,
    DepthwiseConv2DNhwcHwcOp,
    MapOp,
    ElementwiseOp,
    ContractOp,
)

_REPLACED_NAMES = {op.name for op in _REPLACEMENTS}

Linalg = Dialect(
    "linalg",
    [
        *(op for op in UpstreamLinalg.operations if op.name not in _REPLACED_NAMES),
        *_REPLACEMENTS,
        *_ADDED,
    ],
    [*UpstreamLinalg.attributes, ElementwiseKindAttr, TypeFnAttr],
)
