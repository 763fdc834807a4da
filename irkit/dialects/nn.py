"""The `nn` dialect: whole-tensor neural-network ops with value semantics.

irkit's own tensor-level dialect. It has no single MLIR counterpart: it sits
where TOSA, StableHLO or torch-mlir's `torch` dialect sit, above upstream
`linalg` on tensors, to which the planned `convert-nn-to-linalg` lowers it.

Every op takes and returns static-shape ranked tensors of f16, bf16, f32, f64,
i32, i64 or i1, infers its result type from its operands and properties, and checks
that the declared result type equals the inferred one. Elementwise ops
broadcast like NumPy. The shape and type inference helpers of this module
(`broadcast_shapes`, `normalize_axis`, `infer_matmul_type`, ...) are public:
lowerings use them to compute the same shapes the verifier checks.
docs/nn.md is the op reference; `irkit.interpreter.nn` the reference semantics.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    UnitAttr,
    f64,
    i1,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# ---------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------

FLOAT = "float"
INTEGER = "integer"
BOOL = "bool"

# The element type classes an op accepts.
FLOATS: frozenset[str] = frozenset({FLOAT})
NUMBERS: frozenset[str] = frozenset({FLOAT, INTEGER})
LOGICAL: frozenset[str] = frozenset({INTEGER, BOOL})
ANY: frozenset[str] = frozenset({FLOAT, INTEGER, BOOL})

_EXPECTED: dict[frozenset[str], str] = {
    FLOATS: "a float type (f16, bf16, f32, f64)",
    NUMBERS: "a float or integer type (f16, bf16, f32, f64, i32, i64)",
    LOGICAL: "i1 or an integer type (i32, i64)",
    ANY: "one of f16, bf16, f32, f64, i32, i64, i1",
}


def element_class(element_type: Attribute) -> str | None:
    """`FLOAT`, `INTEGER` or `BOOL` for nn's element types; None for others."""
    if isinstance(element_type, Float16Type | BFloat16Type | Float32Type | Float64Type):
        return FLOAT
    if (
        isinstance(element_type, IntegerType)
        and element_type.signedness.data == Signedness.SIGNLESS
    ):
        return {1: BOOL, 32: INTEGER, 64: INTEGER}.get(element_type.width.data)
    return None


def check_element_type(
    op_name: str, element_type: Attribute, allowed: frozenset[str]
) -> None:
    """Raise unless `element_type` belongs to one of the classes `allowed`."""
    if element_class(element_type) not in allowed:
        raise VerifyException(
            f"element type {element_type} is not supported by {op_name}: "
            f"expected {_EXPECTED[allowed]}"
        )


def check_static(tensor_type: Attribute, what: str) -> None:
    """Raise unless `tensor_type` is a tensor type with a static shape."""
    assert isinstance(tensor_type, TensorType)
    if any(dim < 0 for dim in tensor_type.get_shape()):
        raise VerifyException(f"{what} must have a static shape, got {tensor_type}")


# ---------------------------------------------------------------------------
# Shape inference helpers (shapes are tuples of ints)
# ---------------------------------------------------------------------------


def shape_text(shape: Sequence[int]) -> str:
    """`4x8` for (4, 8), `scalar` for ()."""
    return "x".join(str(dim) for dim in shape) or "scalar"


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...] | None:
    """The NumPy broadcast of `shapes`, or None when they are incompatible."""
    rank = max((len(shape) for shape in shapes), default=0)
    result: list[int] = []
    for position in range(rank):
        dims = {
            shape[position - rank + len(shape)]
            for shape in shapes
            if position - rank + len(shape) >= 0
        }
        dims.discard(1)
        if len(dims) > 1:
            return None
        result.append(dims.pop() if dims else 1)
    return tuple(result)


def is_broadcastable_to(shape: Sequence[int], target: Sequence[int]) -> bool:
    """Whether NumPy can broadcast `shape` to exactly `target`."""
    if len(shape) > len(target):
        return False
    trailing = target[len(target) - len(shape) :]
    return all(dim in (1, want) for dim, want in zip(shape, trailing, strict=True))


def normalize_axis(axis: int, rank: int) -> int:
    """`axis` in [0, rank); negative axes count from the end."""
    if not -rank <= axis < rank:
        raise VerifyException(f"axis {axis} is out of range for a rank-{rank} operand")
    return axis % rank


def normalize_axes(axes: Sequence[int], rank: int) -> tuple[int, ...]:
    """`axes` normalised and sorted; raises on an out-of-range or repeated axis."""
    if not axes:
        raise VerifyException("axes must not be empty")
    normalized = [normalize_axis(axis, rank) for axis in axes]
    if len(set(normalized)) != len(normalized):
        raise VerifyException(f"axes {list(axes)} name the same axis twice")
    return tuple(sorted(normalized))


def reduced_shape(
    shape: Sequence[int], axes: Sequence[int], keepdims: bool
) -> tuple[int, ...]:
    """`shape` reduced over the (normalised) `axes`."""
    if keepdims:
        return tuple(1 if dim in axes else size for dim, size in enumerate(shape))
    return tuple(size for dim, size in enumerate(shape) if dim not in axes)


def matmul_shape(lhs: Sequence[int], rhs: Sequence[int]) -> tuple[int, ...]:
    """np.matmul's result shape for operands of rank >= 2 (batch dims broadcast)."""
    if len(lhs) < 2 or len(rhs) < 2:
        raise VerifyException(
            f"operands must have rank 2 or more, got ranks {len(lhs)} and {len(rhs)}"
        )
    if lhs[-1] != rhs[-2]:
        raise VerifyException(
            f"contracting dimensions differ: lhs has {lhs[-1]} columns, "
            f"rhs has {rhs[-2]} rows"
        )
    batch = broadcast_shapes(lhs[:-2], rhs[:-2])
    if batch is None:
        raise VerifyException(
            f"batch dimensions {shape_text(lhs[:-2])} and {shape_text(rhs[:-2])} "
            "are incompatible for broadcasting"
        )
    return (*batch, lhs[-2], rhs[-1])


def transpose_shape(shape: Sequence[int], perm: Sequence[int]) -> tuple[int, ...]:
    """`shape` permuted: result dim i is operand dim perm[i]."""
    if sorted(perm) != list(range(len(shape))):
        raise VerifyException(
            f"perm {list(perm)} is not a permutation of the {len(shape)} axes "
            "of the operand"
        )
    return tuple(shape[axis] for axis in perm)


def concat_shape(shapes: Sequence[Sequence[int]], axis: int) -> tuple[int, ...]:
    """The shape of `shapes` joined along `axis` (negative allowed)."""
    first = shapes[0]
    for index, shape in enumerate(shapes):
        if len(shape) != len(first):
            raise VerifyException(
                f"operand #{index} has rank {len(shape)}, expected {len(first)}"
            )
    axis = normalize_axis(axis, len(first))
    for index, shape in enumerate(shapes):
        if any(a != b for dim, (a, b) in enumerate(zip(shape, first)) if dim != axis):
            raise VerifyException(
                f"operand #{index} has shape {shape_text(shape)}, incompatible with "
                f"{shape_text(first)} outside axis {axis}"
            )
    return tuple(
        sum(shape[axis] for shape in shapes) if dim == axis else size
        for dim, size in enumerate(first)
    )


def slice_shape(
    shape: Sequence[int],
    start: Sequence[int],
    limit: Sequence[int],
    stride: Sequence[int],
) -> tuple[int, ...]:
    """The shape of `x[start:limit:stride]` per dimension (positive strides)."""
    for name, values in (("start", start), ("limit", limit), ("stride", stride)):
        if len(values) != len(shape):
            raise VerifyException(
                f"{name} has {len(values)} entries but the operand has rank "
                f"{len(shape)}"
            )
    result: list[int] = []
    for dim, (size, first, end, step) in enumerate(zip(shape, start, limit, stride)):
        if step < 1:
            raise VerifyException(f"stride {step} of dimension {dim} must be positive")
        if not 0 <= first <= end <= size:
            raise VerifyException(
                f"slice {first}:{end} is out of range for dimension {dim} of size "
                f"{size} (need 0 <= start <= limit <= size)"
            )
        result.append(-(-(end - first) // step))
    return tuple(result)


def check_pair(name: str, values: Sequence[int], minimum: int) -> None:
    """Raise unless `values` (an op's spatial parameter) is 2 ints >= minimum."""
    if len(values) != 2:
        raise VerifyException(f"{name} must have 2 entries, got {len(values)}")
    if any(value < minimum for value in values):
        raise VerifyException(
            f"{name} entries must be at least {minimum}, got {list(values)}"
        )


def window_output_size(
    size: int, window: int, stride: int, padding: int, dilation: int, what: str
) -> int:
    """Positions of a sliding window along one spatial dim (floor mode)."""
    extent = dilation * (window - 1) + 1
    padded = size + 2 * padding
    if extent > padded:
        raise VerifyException(
            f"window of extent {extent} does not fit the padded input {what} {padded}"
        )
    return (padded - extent) // stride + 1


def conv2d_shape(
    input: Sequence[int],
    weight: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
) -> tuple[int, ...]:
    """The NCHW result shape of conv2d (input NCHW, weight FCHW, groups = 1)."""
    check_pair("stride", stride, 1)
    check_pair("padding", padding, 0)
    check_pair("dilation", dilation, 1)
    if len(input) != 4:
        raise VerifyException(f"input must have rank 4 (NCHW), got rank {len(input)}")
    if len(weight) != 4:
        raise VerifyException(f"weight must have rank 4 (FCHW), got rank {len(weight)}")
    batch, channels, height, width = input
    filters, weight_channels, kernel_h, kernel_w = weight
    if weight_channels != channels:
        raise VerifyException(
            f"weight has {weight_channels} input channels but the input has {channels}"
        )
    out_h = window_output_size(
        height, kernel_h, stride[0], padding[0], dilation[0], "height"
    )
    out_w = window_output_size(
        width, kernel_w, stride[1], padding[1], dilation[1], "width"
    )
    return (batch, filters, out_h, out_w)


def pool2d_shape(
    input: Sequence[int],
    kernel: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
) -> tuple[int, ...]:
    """The NCHW result shape of a 2-D pooling (floor mode)."""
    check_pair("kernel", kernel, 1)
    check_pair("stride", stride, 1)
    check_pair("padding", padding, 0)
    if any(pad > size // 2 for pad, size in zip(padding, kernel)):
        raise VerifyException(
            f"padding {list(padding)} must be at most half the kernel size "
            f"{list(kernel)}"
        )
    if len(input) != 4:
        raise VerifyException(f"input must have rank 4 (NCHW), got rank {len(input)}")
    batch, channels, height, width = input
    out_h = window_output_size(height, kernel[0], stride[0], padding[0], 1, "height")
    out_w = window_output_size(width, kernel[1], stride[1], padding[1], 1, "width")
    return (batch, channels, out_h, out_w)


# ---------------------------------------------------------------------------
# Type inference helpers (on tensor types; messages name the types)
# ---------------------------------------------------------------------------


def _tensor(value: SSAValue | Attribute) -> TensorType:
    tensor_type = value.type if isinstance(value, SSAValue) else value
    assert isinstance(tensor_type, TensorType)
    return tensor_type


def _list_text(items: Sequence[object]) -> str:
    texts = [str(item) for item in items]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def infer_broadcast_type(
    types: Sequence[TensorType], element_type: Attribute | None = None
) -> TensorType:
    """The broadcast of `types` with `element_type` (default: the first's)."""
    shape = broadcast_shapes(*(t.get_shape() for t in types))
    if shape is None:
        raise VerifyException(
            "operands have incompatible shapes for broadcasting: " + _list_text(types)
        )
    return TensorType(element_type or types[0].get_element_type(), shape)


def infer_matmul_type(lhs: TensorType, rhs: TensorType) -> TensorType:
    shape = matmul_shape(lhs.get_shape(), rhs.get_shape())
    return TensorType(lhs.get_element_type(), shape)


def infer_reduce_type(
    input: TensorType, axes: Sequence[int], keepdims: bool
) -> TensorType:
    normalized = normalize_axes(axes, input.get_num_dims())
    shape = reduced_shape(input.get_shape(), normalized, keepdims)
    return TensorType(input.get_element_type(), shape)


def trailing_axes(axes: Sequence[int], rank: int) -> tuple[int, ...]:
    """`axes` normalised; raises unless they are the last len(axes) axes."""
    normalized = normalize_axes(axes, rank)
    if normalized != tuple(range(rank - len(normalized), rank)):
        raise VerifyException(
            f"axes {list(axes)} are not the trailing axes of a rank-{rank} operand"
        )
    return normalized


# ---------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------


class CmpPredicate(StrEnum):
    EQ = "eq"
    NE = "ne"
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"


@irdl_attr_definition
class CmpPredicateAttr(EnumAttribute[CmpPredicate], SpacedOpaqueSyntaxAttribute):
    """The comparison of `nn.cmp`: `eq ne lt le gt ge` (`#nn<cmp_predicate lt>`)."""

    name = "nn.cmp_predicate"


class GeluApproximation(StrEnum):
    NONE = "none"
    TANH = "tanh"


@irdl_attr_definition
class GeluApproximationAttr(
    EnumAttribute[GeluApproximation], SpacedOpaqueSyntaxAttribute
):
    """How `nn.gelu` is computed: `none` (exact, erf) or `tanh`."""

    name = "nn.gelu_approximation"


# ---------------------------------------------------------------------------
# Custom assembly directives
# ---------------------------------------------------------------------------


def _parse_type_signature(parser: Parser, state: ParsingState) -> None:
    """`T` (all operands and the result), or `T1, ..., Tn -> R`, or `T -> R`."""
    counts = [len(group or ()) for group in state.operands]
    start = parser.pos
    written = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_type
    )
    count = sum(counts)
    if len(written) == 1:
        types = list(written) * count
    elif len(written) == count:
        types = list(written)
    else:
        parser.raise_error(
            f"expected 1 or {count} operand types, got {len(written)}",
            start,
            parser.pos,
        )
    if parser.parse_optional_punctuation("->"):
        result = parser.parse_type()
    elif len(written) == 1:
        result = written[0]
    else:
        parser.raise_error("expected '->' and the result type", start, parser.pos)
    position = 0
    for index, size in enumerate(counts):
        state.operand_types[index] = types[position : position + size]
        position += size
    state.result_types[0] = (result,)


def _print_type_signature(
    printer: Printer, state: PrintingState, op: IRDLOperation
) -> None:
    state.print_whitespace(printer)
    operand_types = list(op.operand_types)
    result = op.result_types[0]
    if all(t == operand_types[0] for t in operand_types):
        printer.print_attribute(operand_types[0])
        if result == operand_types[0]:
            return
    else:
        printer.print_list(operand_types, printer.print_attribute)
    printer.print_string(" -> ")
    printer.print_attribute(result)


@irdl_custom_directive
class TypeSignature(CustomDirective):
    """Operand and result types: `T` when all are T, else `T1, T2 -> R`."""

    operand_types: TypeDirective
    result_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        _parse_type_signature(parser, state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_type_signature(printer, state, op)


@irdl_custom_directive
class NormTypeSignature(CustomDirective):
    """`TypeSignature` for an op with an input and two optional operands."""

    input_type: TypeDirective
    scale_type: TypeDirective
    bias_type: TypeDirective
    result_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        _parse_type_signature(parser, state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_type_signature(printer, state, op)


@irdl_custom_directive
class TypedValue(CustomDirective):
    """A dense elements attribute with its type, which is the result type."""

    value: AttributeVariable
    result_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense elements attribute", start, parser.pos)
        self.value.set(state, value)
        state.result_types[0] = (value.type,)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        value = self.value.get(op)
        assert value is not None
        printer.print_attribute(value)


_SIGNATURE = "attr-dict `:` custom<TypeSignature>(type(operands), type($result))"


def _i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


# ---------------------------------------------------------------------------
# Base classes
# ---------------------------------------------------------------------------


class NNOp(IRDLOperation, ABC):
    """Common verification: static shapes, element types, inferred result type.

    Subclasses set `SUPPORTED` (the element type classes their data operands
    accept) and implement `infer_result_type()`, which also raises on
    operands and properties that do not fit together.
    """

    SUPPORTED: ClassVar[frozenset[str]] = NUMBERS

    result = result_def(TensorType)

    traits = traits_def(Pure())

    @abstractmethod
    def infer_result_type(self) -> TensorType:
        """The result type implied by the operands and properties."""

    def verify_element_types(self) -> None:
        """Default: all operands share one element type of a `SUPPORTED` class."""
        element_types = [
            _tensor(operand).get_element_type() for operand in self.operands
        ]
        for element_type in element_types:
            check_element_type(self.name, element_type, self.SUPPORTED)
        if len(set(element_types)) > 1:
            raise VerifyException(
                "operands have different element types: " + _list_text(element_types)
            )

    def verify_(self) -> None:
        for index, operand in enumerate(self.operands):
            check_static(operand.type, f"operand #{index}")
        check_static(self.result.type, "result")
        self.verify_element_types()
        inferred = self.infer_result_type()
        if self.result.type != inferred:
            raise VerifyException(
                f"result type {self.result.type} does not match inferred type "
                f"{inferred}"
            )


class ElementwiseBinaryOp(NNOp, ABC):
    """`nn.<op> %a, %b : T` or `: Ta, Tb -> R`; operands broadcast like NumPy."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)

    assembly_format = "$lhs `,` $rhs " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(
        self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute | None = None
    ) -> None:
        if result_type is None:
            result_type = infer_broadcast_type([_tensor(lhs), _tensor(rhs)])
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def infer_result_type(self) -> TensorType:
        return infer_broadcast_type([_tensor(self.lhs), _tensor(self.rhs)])


class ElementwiseUnaryOp(NNOp, ABC):
    """`nn.<op> %a : T`; the result type is the operand type."""

    input = operand_def(TensorType)

    assembly_format = "$input " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, input: SSAValue, result_type: Attribute | None = None) -> None:
        super().__init__(operands=[input], result_types=[result_type or input.type])

    def infer_result_type(self) -> TensorType:
        return _tensor(self.input)


class ReductionOp(NNOp, ABC):
    """`nn.reduce_<op> %a axes [..] (keepdims)? : T -> R`."""

    NEEDS_ELEMENTS: ClassVar[bool] = False

    input = operand_def(TensorType)
    axes = prop_def(DenseArrayBase.constr(i64))
    keepdims = opt_prop_def(UnitAttr)

    assembly_format = "$input `axes` $axes (`keepdims` $keepdims^)? " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(
        self,
        input: SSAValue,
        axes: Sequence[int],
        keepdims: bool = False,
        result_type: Attribute | None = None,
    ) -> None:
        if result_type is None:
            result_type = infer_reduce_type(_tensor(input), axes, keepdims)
        properties: dict[str, Attribute] = {"axes": _i64_array(axes)}
        if keepdims:
            properties["keepdims"] = UnitAttr()
        super().__init__(
            operands=[input], result_types=[result_type], properties=properties
        )

    @property
    def axes_values(self) -> tuple[int, ...]:
        """The reduced axes, normalised and sorted."""
        return normalize_axes(
            self.axes.get_values(), _tensor(self.input).get_num_dims()
        )

    def infer_result_type(self) -> TensorType:
        input = _tensor(self.input)
        if self.NEEDS_ELEMENTS:
            shape = input.get_shape()
            for axis in self.axes_values:
                if shape[axis] == 0:
                    raise VerifyException(
                        f"axis {axis} has size 0: {self.name} needs at least "
                        "one element"
                    )
        return infer_reduce_type(
            input, self.axes.get_values(), self.keepdims is not None
        )


class AxisOp(NNOp, ABC):
    """`nn.<op> %a axis N : T`: a float op along one axis (negative allowed)."""

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS

    input = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I64])

    assembly_format = "$input `axis` $axis " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, input: SSAValue, axis: int) -> None:
        super().__init__(
            operands=[input],
            result_types=[input.type],
            properties={"axis": IntegerAttr(axis, i64)},
        )

    @property
    def axis_value(self) -> int:
        """The axis, normalised to [0, rank)."""
        return normalize_axis(self.axis.value.data, _tensor(self.input).get_num_dims())

    def infer_result_type(self) -> TensorType:
        normalize_axis(self.axis.value.data, _tensor(self.input).get_num_dims())
        return _tensor(self.input)


class Pool2dOp(NNOp, ABC):
    """`nn.<op>_pool2d %x kernel [kh, kw] stride [sh, sw] (padding [ph, pw])?`."""

    input = operand_def(TensorType)
    kernel = prop_def(DenseArrayBase.constr(i64))
    stride = prop_def(DenseArrayBase.constr(i64))
    padding = prop_def(DenseArrayBase.constr(i64), default_value=_i64_array([0, 0]))

    assembly_format = (
        "$input `kernel` $kernel `stride` $stride (`padding` $padding^)? " + _SIGNATURE
    )
    custom_directives = (TypeSignature,)

    def __init__(
        self,
        input: SSAValue,
        kernel: Sequence[int],
        stride: Sequence[int],
        padding: Sequence[int] = (0, 0),
    ) -> None:
        shape = pool2d_shape(_tensor(input).get_shape(), kernel, stride, padding)
        super().__init__(
            operands=[input],
            result_types=[TensorType(_tensor(input).get_element_type(), shape)],
            properties={
                "kernel": _i64_array(kernel),
                "stride": _i64_array(stride),
                "padding": _i64_array(padding),
            },
        )

    def infer_result_type(self) -> TensorType:
        input = _tensor(self.input)
        shape = pool2d_shape(
            input.get_shape(),
            self.kernel.get_values(),
            self.stride.get_values(),
            self.padding.get_values(),
        )
        return TensorType(input.get_element_type(), shape)


# ---------------------------------------------------------------------------
# Ops: constant
# ---------------------------------------------------------------------------


@irdl_op_definition
class ConstantOp(NNOp):
    """A tensor constant (a splat or one value per element).

    ```mlir
    %c = nn.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %z = nn.constant dense<0> : tensor<4x8xi32>
    ```
    """

    name = "nn.constant"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    value = prop_def(DenseIntOrFPElementsAttr)

    traits = traits_def(ConstantLike())

    assembly_format = "attr-dict custom<TypedValue>($value, type($result))"
    custom_directives = (TypedValue,)

    def __init__(self, value: DenseIntOrFPElementsAttr) -> None:
        super().__init__(result_types=[value.type], properties={"value": value})

    def infer_result_type(self) -> TensorType:
        value_type = _tensor(self.value.type)
        check_static(value_type, "value")
        check_element_type(self.name, value_type.get_element_type(), self.SUPPORTED)
        return value_type


# ---------------------------------------------------------------------------
# Ops: elementwise binary
# ---------------------------------------------------------------------------


@irdl_op_definition
class AddOp(ElementwiseBinaryOp):
    """Elementwise sum (integers wrap).

    ```mlir
    %c = nn.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    ```
    """

    name = "nn.add"


@irdl_op_definition
class SubOp(ElementwiseBinaryOp):
    """Elementwise difference (integers wrap).

    ```mlir
    %c = nn.sub %a, %b : tensor<4xi32>
    ```
    """

    name = "nn.sub"


@irdl_op_definition
class MulOp(ElementwiseBinaryOp):
    """Elementwise product (integers wrap).

    ```mlir
    %c = nn.mul %a, %b : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
    ```
    """

    name = "nn.mul"


@irdl_op_definition
class DivOp(ElementwiseBinaryOp):
    """Elementwise quotient; integer division truncates toward zero (like C).

    ```mlir
    %c = nn.div %a, %b : tensor<4xi64>
    ```
    """

    name = "nn.div"


@irdl_op_definition
class MaxOp(ElementwiseBinaryOp):
    """Elementwise maximum (NaN propagates).

    ```mlir
    %c = nn.max %a, %b : tensor<4xf32>
    ```
    """

    name = "nn.max"


@irdl_op_definition
class MinOp(ElementwiseBinaryOp):
    """Elementwise minimum (NaN propagates).

    ```mlir
    %c = nn.min %a, %b : tensor<4xf32>
    ```
    """

    name = "nn.min"


@irdl_op_definition
class PowOp(ElementwiseBinaryOp):
    """Elementwise `lhs ** rhs` on floats.

    ```mlir
    %c = nn.pow %a, %b : tensor<4xf32>
    ```
    """

    name = "nn.pow"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class AndOp(ElementwiseBinaryOp):
    """Elementwise logical (i1) or bitwise (integer) and.

    ```mlir
    %c = nn.and %a, %b : tensor<4xi1>
    ```
    """

    name = "nn.and"

    SUPPORTED: ClassVar[frozenset[str]] = LOGICAL


@irdl_op_definition
class OrOp(ElementwiseBinaryOp):
    """Elementwise logical (i1) or bitwise (integer) or.

    ```mlir
    %c = nn.or %a, %b : tensor<4xi1>
    ```
    """

    name = "nn.or"

    SUPPORTED: ClassVar[frozenset[str]] = LOGICAL


@irdl_op_definition
class XorOp(ElementwiseBinaryOp):
    """Elementwise logical (i1) or bitwise (integer) exclusive or.

    ```mlir
    %c = nn.xor %a, %b : tensor<4xi32>
    ```
    """

    name = "nn.xor"

    SUPPORTED: ClassVar[frozenset[str]] = LOGICAL


# ---------------------------------------------------------------------------
# Ops: elementwise unary
# ---------------------------------------------------------------------------


@irdl_op_definition
class NegOp(ElementwiseUnaryOp):
    """Elementwise negation (integers wrap).

    ```mlir
    %b = nn.neg %a : tensor<4x8xf32>
    ```
    """

    name = "nn.neg"


@irdl_op_definition
class AbsOp(ElementwiseUnaryOp):
    """Elementwise absolute value (integers wrap: |INT_MIN| = INT_MIN).

    ```mlir
    %b = nn.abs %a : tensor<4xi32>
    ```
    """

    name = "nn.abs"


@irdl_op_definition
class ReluOp(ElementwiseUnaryOp):
    """Elementwise `max(x, 0)`.

    ```mlir
    %b = nn.relu %a : tensor<4x8xf32>
    ```
    """

    name = "nn.relu"


@irdl_op_definition
class NotOp(ElementwiseUnaryOp):
    """Elementwise logical (i1) or bitwise (integer) not.

    ```mlir
    %b = nn.not %a : tensor<4xi1>
    ```
    """

    name = "nn.not"

    SUPPORTED: ClassVar[frozenset[str]] = LOGICAL


@irdl_op_definition
class ExpOp(ElementwiseUnaryOp):
    """Elementwise `e ** x`.

    ```mlir
    %b = nn.exp %a : tensor<4x8xf32>
    ```
    """

    name = "nn.exp"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class LogOp(ElementwiseUnaryOp):
    """Elementwise natural logarithm.

    ```mlir
    %b = nn.log %a : tensor<4x8xf32>
    ```
    """

    name = "nn.log"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class SqrtOp(ElementwiseUnaryOp):
    """Elementwise square root.

    ```mlir
    %b = nn.sqrt %a : tensor<4x8xf32>
    ```
    """

    name = "nn.sqrt"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class RsqrtOp(ElementwiseUnaryOp):
    """Elementwise `1 / sqrt(x)`.

    ```mlir
    %b = nn.rsqrt %a : tensor<4x8xf32>
    ```
    """

    name = "nn.rsqrt"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class TanhOp(ElementwiseUnaryOp):
    """Elementwise hyperbolic tangent.

    ```mlir
    %b = nn.tanh %a : tensor<4x8xf32>
    ```
    """

    name = "nn.tanh"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class SigmoidOp(ElementwiseUnaryOp):
    """Elementwise logistic function `1 / (1 + exp(-x))`.

    ```mlir
    %b = nn.sigmoid %a : tensor<4x8xf32>
    ```
    """

    name = "nn.sigmoid"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class ErfOp(ElementwiseUnaryOp):
    """Elementwise error function.

    ```mlir
    %b = nn.erf %a : tensor<4x8xf32>
    ```
    """

    name = "nn.erf"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class GeluOp(ElementwiseUnaryOp):
    """Elementwise GELU: exact `x * (1 + erf(x / sqrt 2)) / 2`, or its tanh form.

    ```mlir
    %b = nn.gelu %a : tensor<4x8xf32>
    %c = nn.gelu %a approximate tanh : tensor<4x8xf32>
    ```
    """

    name = "nn.gelu"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS

    approximate = prop_def(
        GeluApproximationAttr,
        default_value=GeluApproximationAttr(GeluApproximation.NONE),
    )

    assembly_format = "$input (`approximate` $approximate^)? " + _SIGNATURE

    def __init__(
        self,
        input: SSAValue,
        approximate: GeluApproximation = GeluApproximation.NONE,
    ) -> None:
        IRDLOperation.__init__(
            self,
            operands=[input],
            result_types=[input.type],
            properties={"approximate": GeluApproximationAttr(approximate)},
        )


# ---------------------------------------------------------------------------
# Ops: cast, cmp, select
# ---------------------------------------------------------------------------


@irdl_op_definition
class CastOp(NNOp):
    """Elementwise conversion to another element type, same shape.

    Float to integer truncates toward zero; to i1 is `x != 0`; i1 to a number
    is 0 or 1; integer to narrower integer wraps; to float rounds to nearest.

    ```mlir
    %k = nn.cast %a : tensor<4xf32> -> tensor<4xi32>
    ```
    """

    name = "nn.cast"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    input = operand_def(TensorType)

    assembly_format = "$input " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, input: SSAValue, element_type: Attribute) -> None:
        result_type = TensorType(element_type, _tensor(input).get_shape())
        super().__init__(operands=[input], result_types=[result_type])

    def infer_result_type(self) -> TensorType:
        result = _tensor(self.result)
        check_element_type(self.name, result.get_element_type(), self.SUPPORTED)
        return TensorType(result.get_element_type(), _tensor(self.input).get_shape())


@irdl_op_definition
class CmpOp(NNOp):
    """Elementwise comparison to i1; operands broadcast.

    On floats, `eq lt le gt ge` are false and `ne` is true when either is NaN.

    ```mlir
    %m = nn.cmp lt, %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
    ```
    """

    name = "nn.cmp"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    predicate = prop_def(CmpPredicateAttr)
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)

    assembly_format = "$predicate `,` $lhs `,` $rhs " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, predicate: CmpPredicate, lhs: SSAValue, rhs: SSAValue) -> None:
        result_type = infer_broadcast_type([_tensor(lhs), _tensor(rhs)], i1)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={"predicate": CmpPredicateAttr(predicate)},
        )

    def infer_result_type(self) -> TensorType:
        return infer_broadcast_type([_tensor(self.lhs), _tensor(self.rhs)], i1)


@irdl_op_definition
class SelectOp(NNOp):
    """Elementwise `condition ? true_value : false_value`; all three broadcast.

    ```mlir
    %s = nn.select %m, %a, %b
        : tensor<4x1xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    ```
    """

    name = "nn.select"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    condition = operand_def(TensorType)
    true_value = operand_def(TensorType)
    false_value = operand_def(TensorType)

    assembly_format = "$condition `,` $true_value `,` $false_value " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(
        self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue
    ) -> None:
        types = [_tensor(condition), _tensor(true_value), _tensor(false_value)]
        result_type = infer_broadcast_type(types, types[1].get_element_type())
        super().__init__(
            operands=[condition, true_value, false_value], result_types=[result_type]
        )

    def verify_element_types(self) -> None:
        condition = _tensor(self.condition).get_element_type()
        if condition != i1:
            raise VerifyException(
                f"condition must have element type i1, got {condition}"
            )
        true_type = _tensor(self.true_value).get_element_type()
        false_type = _tensor(self.false_value).get_element_type()
        check_element_type(self.name, true_type, self.SUPPORTED)
        if true_type != false_type:
            raise VerifyException(
                f"operands have different element types: {true_type} and {false_type}"
            )

    def infer_result_type(self) -> TensorType:
        types = [_tensor(self.condition), _tensor(self.true_value)]
        types.append(_tensor(self.false_value))
        return infer_broadcast_type(types, types[1].get_element_type())


# ---------------------------------------------------------------------------
# Ops: shapes and layout
# ---------------------------------------------------------------------------


@irdl_op_definition
class MatmulOp(NNOp):
    """Matrix product like np.matmul on operands of rank >= 2.

    The last two dims multiply (`MxK` by `KxN`); leading batch dims broadcast.
    Integers wrap.

    ```mlir
    %c = nn.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
    %d = nn.matmul %x, %y
        : tensor<2x1x4x8xf32>, tensor<3x8x5xf32> -> tensor<2x3x4x5xf32>
    ```
    """

    name = "nn.matmul"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)

    assembly_format = "$lhs `,` $rhs " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, lhs: SSAValue, rhs: SSAValue) -> None:
        result_type = infer_matmul_type(_tensor(lhs), _tensor(rhs))
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def infer_result_type(self) -> TensorType:
        return infer_matmul_type(_tensor(self.lhs), _tensor(self.rhs))


@irdl_op_definition
class TransposeOp(NNOp):
    """Permutes dimensions: result dim i is operand dim perm[i].

    ```mlir
    %t = nn.transpose %a perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
    ```
    """

    name = "nn.transpose"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    input = operand_def(TensorType)
    perm = prop_def(DenseArrayBase.constr(i64))

    assembly_format = "$input `perm` $perm " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, input: SSAValue, perm: Sequence[int]) -> None:
        shape = transpose_shape(_tensor(input).get_shape(), perm)
        super().__init__(
            operands=[input],
            result_types=[TensorType(_tensor(input).get_element_type(), shape)],
            properties={"perm": _i64_array(perm)},
        )

    def infer_result_type(self) -> TensorType:
        input = _tensor(self.input)
        shape = transpose_shape(input.get_shape(), self.perm.get_values())
        return TensorType(input.get_element_type(), shape)


@irdl_op_definition
class BroadcastToOp(NNOp):
    """Broadcasts to the result shape by NumPy's rules.

    ```mlir
    %b = nn.broadcast_to %a : tensor<8xf32> -> tensor<4x8xf32>
    ```
    """

    name = "nn.broadcast_to"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    input = operand_def(TensorType)

    assembly_format = "$input " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, input: SSAValue, shape: Sequence[int]) -> None:
        result_type = TensorType(_tensor(input).get_element_type(), shape)
        super().__init__(operands=[input], result_types=[result_type])

    def infer_result_type(self) -> TensorType:
        input, result = _tensor(self.input), _tensor(self.result)
        if not is_broadcastable_to(input.get_shape(), result.get_shape()):
            raise VerifyException(
                f"operand type {input} cannot be broadcast to {result}"
            )
        return TensorType(input.get_element_type(), result.get_shape())


@irdl_op_definition
class ReshapeOp(NNOp):
    """Reinterprets the elements (row-major order) with another shape.

    ```mlir
    %r = nn.reshape %a : tensor<4x8xf32> -> tensor<2x16xf32>
    ```
    """

    name = "nn.reshape"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    input = operand_def(TensorType)

    assembly_format = "$input " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, input: SSAValue, shape: Sequence[int]) -> None:
        result_type = TensorType(_tensor(input).get_element_type(), shape)
        super().__init__(operands=[input], result_types=[result_type])

    def infer_result_type(self) -> TensorType:
        input, result = _tensor(self.input), _tensor(self.result)
        if input.element_count() != result.element_count():
            raise VerifyException(
                f"result type {result} has {result.element_count()} elements but "
                f"operand type {input} has {input.element_count()}"
            )
        return TensorType(input.get_element_type(), result.get_shape())


@irdl_op_definition
class ConcatOp(NNOp):
    """Joins operands along `axis` (negative allowed); other dims must match.

    ```mlir
    %c = nn.concat %a, %b axis 0 : tensor<2x8xf32>, tensor<3x8xf32> -> tensor<5x8xf32>
    ```
    """

    name = "nn.concat"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    inputs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I64])

    assembly_format = "$inputs `axis` $axis " + _SIGNATURE
    custom_directives = (TypeSignature,)

    def __init__(self, inputs: Sequence[SSAValue], axis: int) -> None:
        types = [_tensor(value) for value in inputs]
        shape = concat_shape([t.get_shape() for t in types], axis)
        super().__init__(
            operands=[inputs],
            result_types=[TensorType(types[0].get_element_type(), shape)],
            properties={"axis": IntegerAttr(axis, i64)},
        )

    @property
    def axis_value(self) -> int:
        """The axis, normalised to [0, rank)."""
        return normalize_axis(
            self.axis.value.data, _tensor(self.inputs[0]).get_num_dims()
        )

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("expected at least one operand")
        super().verify_()

    def infer_result_type(self) -> TensorType:
        types = [_tensor(value) for value in self.inputs]
        shape = concat_shape([t.get_shape() for t in types], self.axis.value.data)
        return TensorType(types[0].get_element_type(), shape)


@irdl_op_definition
class SliceOp(NNOp):
    """`x[start:limit:stride]` per dimension, with positive strides.

    ```mlir
    %s = nn.slice %a start [0, 1] limit [4, 8] stride [2, 3]
        : tensor<4x8xf32> -> tensor<2x3xf32>
    ```
    """

    name = "nn.slice"

    SUPPORTED: ClassVar[frozenset[str]] = ANY

    input = operand_def(TensorType)
    start = prop_def(DenseArrayBase.constr(i64))
    limit = prop_def(DenseArrayBase.constr(i64))
    stride = prop_def(DenseArrayBase.constr(i64))

    assembly_format = (
        "$input `start` $start `limit` $limit `stride` $stride " + _SIGNATURE
    )
    custom_directives = (TypeSignature,)

    def __init__(
        self,
        input: SSAValue,
        start: Sequence[int],
        limit: Sequence[int],
        stride: Sequence[int],
    ) -> None:
        shape = slice_shape(_tensor(input).get_shape(), start, limit, stride)
        super().__init__(
            operands=[input],
            result_types=[TensorType(_tensor(input).get_element_type(), shape)],
            properties={
                "start": _i64_array(start),
                "limit": _i64_array(limit),
                "stride": _i64_array(stride),
            },
        )

    def infer_result_type(self) -> TensorType:
        input = _tensor(self.input)
        shape = slice_shape(
            input.get_shape(),
            self.start.get_values(),
            self.limit.get_values(),
            self.stride.get_values(),
        )
        return TensorType(input.get_element_type(), shape)


# ---------------------------------------------------------------------------
# Ops: reductions and normalisations
# ---------------------------------------------------------------------------


@irdl_op_definition
class ReduceSumOp(ReductionOp):
    """Sum over `axes` (integers wrap).

    ```mlir
    %r = nn.reduce_sum %a axes [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
    ```
    """

    name = "nn.reduce_sum"


@irdl_op_definition
class ReduceMaxOp(ReductionOp):
    """Maximum over `axes` (NaN propagates).

    ```mlir
    %r = nn.reduce_max %a axes [0, 1] : tensor<4x8xi32> -> tensor<i32>
    ```
    """

    name = "nn.reduce_max"

    NEEDS_ELEMENTS: ClassVar[bool] = True


@irdl_op_definition
class ReduceMinOp(ReductionOp):
    """Minimum over `axes` (NaN propagates).

    ```mlir
    %r = nn.reduce_min %a axes [-1] : tensor<4x8xf32> -> tensor<4xf32>
    ```
    """

    name = "nn.reduce_min"

    NEEDS_ELEMENTS: ClassVar[bool] = True


@irdl_op_definition
class ReduceMeanOp(ReductionOp):
    """Arithmetic mean over `axes` (floats only).

    ```mlir
    %r = nn.reduce_mean %a axes [1] : tensor<4x8xf32> -> tensor<4xf32>
    ```
    """

    name = "nn.reduce_mean"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


@irdl_op_definition
class SoftmaxOp(AxisOp):
    """`exp(x - max) / sum(exp(x - max))` along `axis`.

    ```mlir
    %s = nn.softmax %a axis 1 : tensor<4x8xf32>
    ```
    """

    name = "nn.softmax"


@irdl_op_definition
class LogSoftmaxOp(AxisOp):
    """`x - max - log(sum(exp(x - max)))` along `axis`.

    ```mlir
    %s = nn.log_softmax %a axis -1 : tensor<4x8xf32>
    ```
    """

    name = "nn.log_softmax"


@irdl_op_definition
class LayerNormOp(NNOp):
    """Normalises over the trailing `axes`: `(x - mean) / sqrt(var + eps)`.

    `var` is the biased (population) variance. The optional `scale` and
    `bias` have the normalised trailing shape and multiply and add after.

    ```mlir
    %y = nn.layer_norm %x scale %g bias %b axes [-1] eps 1.0e-05
        : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    ```
    """

    name = "nn.layer_norm"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS

    input = operand_def(TensorType)
    scale = opt_operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    axes = prop_def(DenseArrayBase.constr(i64))
    eps = prop_def(FloatAttr[Float64Type], default_value=FloatAttr(1e-5, f64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$input (`scale` $scale^)? (`bias` $bias^)? `axes` $axes (`eps` $eps^)? "
        "attr-dict `:` custom<NormTypeSignature>(type($input), type($scale), "
        "type($bias), type($result))"
    )
    custom_directives = (NormTypeSignature,)

    def __init__(
        self,
        input: SSAValue,
        axes: Sequence[int],
        scale: SSAValue | None = None,
        bias: SSAValue | None = None,
        eps: float = 1e-5,
    ) -> None:
        super().__init__(
            operands=[input, scale, bias],
            result_types=[input.type],
            properties={"axes": _i64_array(axes), "eps": FloatAttr(eps, f64)},
        )

    @property
    def axes_values(self) -> tuple[int, ...]:
        """The normalised (trailing) axes."""
        return trailing_axes(self.axes.get_values(), _tensor(self.input).get_num_dims())

    def infer_result_type(self) -> TensorType:
        input = _tensor(self.input)
        count = len(self.axes_values)
        normalized = TensorType(
            input.get_element_type(), input.get_shape()[input.get_num_dims() - count :]
        )
        for name, operand in (("scale", self.scale), ("bias", self.bias)):
            if operand is not None and operand.type != normalized:
                raise VerifyException(
                    f"{name} type {operand.type} does not match the normalised "
                    f"shape {normalized}"
                )
        if self.eps.value.data < 0:
            raise VerifyException(
                f"eps must not be negative, got {self.eps.value.data}"
            )
        return input


# ---------------------------------------------------------------------------
# Ops: convolution and pooling
# ---------------------------------------------------------------------------


@irdl_op_definition
class Conv2dOp(NNOp):
    """2-D cross-correlation, NCHW input, FCHW weight, optional bias [F].

    `padding [ph, pw]` adds ph zero rows above and below, pw columns left and
    right. groups = 1. Output size per spatial dim:
    `(size + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1` (floor).

    ```mlir
    %y = nn.conv2d %x, %w, %b stride [1, 1] padding [1, 1]
        : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>
        -> tensor<1x4x8x8xf32>
    ```
    """

    name = "nn.conv2d"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS

    input = operand_def(TensorType)
    weight = operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    stride = prop_def(DenseArrayBase.constr(i64), default_value=_i64_array([1, 1]))
    padding = prop_def(DenseArrayBase.constr(i64), default_value=_i64_array([0, 0]))
    dilation = prop_def(DenseArrayBase.constr(i64), default_value=_i64_array([1, 1]))

    assembly_format = (
        "$input `,` $weight (`,` $bias^)? (`stride` $stride^)? "
        "(`padding` $padding^)? (`dilation` $dilation^)? " + _SIGNATURE
    )
    custom_directives = (TypeSignature,)

    def __init__(
        self,
        input: SSAValue,
        weight: SSAValue,
        bias: SSAValue | None = None,
        stride: Sequence[int] = (1, 1),
        padding: Sequence[int] = (0, 0),
        dilation: Sequence[int] = (1, 1),
    ) -> None:
        shape = conv2d_shape(
            _tensor(input).get_shape(),
            _tensor(weight).get_shape(),
            stride,
            padding,
            dilation,
        )
        super().__init__(
            operands=[input, weight, bias],
            result_types=[TensorType(_tensor(input).get_element_type(), shape)],
            properties={
                "stride": _i64_array(stride),
                "padding": _i64_array(padding),
                "dilation": _i64_array(dilation),
            },
        )

    def infer_result_type(self) -> TensorType:
        input, weight = _tensor(self.input), _tensor(self.weight)
        shape = conv2d_shape(
            input.get_shape(),
            weight.get_shape(),
            self.stride.get_values(),
            self.padding.get_values(),
            self.dilation.get_values(),
        )
        if self.bias is not None:
            expected = TensorType(input.get_element_type(), shape[1:2])
            if self.bias.type != expected:
                raise VerifyException(
                    f"bias type {self.bias.type} does not match the {shape[1]} "
                    f"filters: expected {expected}"
                )
        return TensorType(input.get_element_type(), shape)


@irdl_op_definition
class MaxPool2dOp(Pool2dOp):
    """2-D max pooling, NCHW; padded positions never win.

    ```mlir
    %y = nn.max_pool2d %x kernel [2, 2] stride [2, 2]
        : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
    ```
    """

    name = "nn.max_pool2d"


@irdl_op_definition
class AvgPool2dOp(Pool2dOp):
    """2-D average pooling, NCHW, counting padded zeros (PyTorch's default).

    Every window sum is divided by `kh * kw` (`count_include_pad=True`).

    ```mlir
    %y = nn.avg_pool2d %x kernel [3, 3] stride [1, 1] padding [1, 1]
        : tensor<1x4x8x8xf32>
    ```
    """

    name = "nn.avg_pool2d"

    SUPPORTED: ClassVar[frozenset[str]] = FLOATS


NN = Dialect(
    "nn",
    [
        ConstantOp,
        AddOp,
        SubOp,
        MulOp,
        DivOp,
        MaxOp,
        MinOp,
        PowOp,
        AndOp,
        OrOp,
        XorOp,
        NegOp,
        AbsOp,
        ReluOp,
        NotOp,
        ExpOp,
        LogOp,
        SqrtOp,
        RsqrtOp,
        TanhOp,
        SigmoidOp,
        ErfOp,
        GeluOp,
        CastOp,
        CmpOp,
        SelectOp,
        MatmulOp,
        TransposeOp,
        BroadcastToOp,
        ReshapeOp,
        ConcatOp,
        SliceOp,
        ReduceSumOp,
        ReduceMaxOp,
        ReduceMinOp,
        ReduceMeanOp,
        SoftmaxOp,
        LogSoftmaxOp,
        LayerNormOp,
        Conv2dOp,
        MaxPool2dOp,
        AvgPool2dOp,
    ],
    [CmpPredicateAttr, GeluApproximationAttr],
)
