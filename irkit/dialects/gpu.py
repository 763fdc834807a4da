"""irkit's `gpu` dialect: MLIR's GPU dialect in MLIR's exact syntax.

Mirrors MLIR's `mlir/include/mlir/Dialect/GPU/IR/GPUOps.td` (and its
`GPUBase.td`, `GPUDeviceMappingAttr.td`). xDSL 0.74 defines the ops with
generic syntax only and without memory attributions; this module keeps every
xDSL op (so nothing is lost) and replaces these:

- `gpu.module`, `gpu.func` (with `workgroup(...)` / `private(...)`
  attributions and the `gpu.kernel` unit attribute, as in MLIR), `gpu.return`,
  `gpu.launch` (MLIR's `blocks(...) in (...) threads(...) in (...)` form,
  async dependencies, dynamic shared memory, attributions), `gpu.terminator`,
  `gpu.yield`, `gpu.launch_func`: MLIR's custom syntax and MLIR's verifiers,
  plus checks xDSL lacks (the kernel that `gpu.launch_func` names exists, is a
  kernel and takes the operand types; bodies end in their terminator).
- `gpu.thread_id`, `block_id`, `block_dim`, `grid_dim`, `global_id`,
  `lane_id`, `barrier` and the new `gpu.shuffle`: custom syntax, and an error
  when used outside a `gpu.launch` body or a `gpu.func`.
- New attributes: `#gpu.address_space<global|workgroup|private>` (the memory
  space of attributions and shared buffers) and the `scf.forall` mapping
  attributes `#gpu.block<x>` / `#gpu.thread<x>`.

`gpu.module`, `gpu.launch_func`, `gpu.barrier` and `gpu.yield` subclass
xDSL's ops (`isinstance` against `xdsl.dialects.gpu` keeps working). The ops
that needed new fields (`gpu.func`, `gpu.return`, `gpu.launch`,
`gpu.terminator`, the id ops, `gpu.lane_id`, `gpu.shuffle`) are new IRDL
definitions of the same names: xDSL cannot re-derive a defined op. Thread
block clusters (`clusters(...)`, `clusterSize` operands) are not supported.
See `docs/gpu.md`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Self, TypeVar

from xdsl.dialects import gpu as upstream
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.dialects.builtin import (
    ModuleOp as BuiltinModuleOp,
)
from xdsl.dialects.utils import EnumAttribute, parse_assignment
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    attr_def,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from irkit.dialects.scf import (
    parse_optional_arrow_type_list,
    print_optional_arrow_type_list,
)

_E = TypeVar("_E", bound=StrEnum)

# Re-exported unchanged, so this module can stand in for `xdsl.dialects.gpu`.
AsyncTokenType = upstream.AsyncTokenType
DimensionEnum = upstream.DimensionEnum
AllocOp = upstream.AllocOp
AllReduceOp = upstream.AllReduceOp
DeallocOp = upstream.DeallocOp
MemcpyOp = upstream.MemcpyOp
WaitOp = upstream.WaitOp

# The region arguments of `gpu.launch` before its attributions: block ids,
# thread ids, grid sizes and block sizes, three each (x, y, z).
LAUNCH_CONFIG_ARGUMENTS = 12

# The attribute holding how many entry-block arguments are workgroup
# attributions (private ones follow them), on `gpu.launch` and `gpu.func`.
WORKGROUP_ATTRIBUTIONS = "workgroup_attributions"

# The unit attribute that makes a `gpu.func` a kernel, and the one a module
# that holds `gpu.module`s (and launches their kernels) must carry.
KERNEL_ATTRIBUTE = "gpu.kernel"
# MLIR's NVVM kernel attribute: the blocks a multiprocessor should hold at once
# (`__launch_bounds__`'s second argument in CUDA C).
MIN_BLOCKS_ATTRIBUTE = "nvvm.minctasm"
CONTAINER_MODULE_ATTRIBUTE = "gpu.container_module"

# --------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------


class AddressSpace(StrEnum):
    """The memory spaces of MLIR's `#gpu.address_space`."""

    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"


@irdl_attr_definition
class AddressSpaceAttr(EnumAttribute[AddressSpace]):
    """A memref memory space: `memref<32xf32, #gpu.address_space<workgroup>>`."""

    name = "gpu.address_space"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> AddressSpace:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(AddressSpace)


def workgroup_memory_space() -> AddressSpaceAttr:
    """`#gpu.address_space<workgroup>`: memory shared by the threads of a block."""
    return AddressSpaceAttr(AddressSpace.WORKGROUP)


def private_memory_space() -> AddressSpaceAttr:
    """`#gpu.address_space<private>`: memory of one thread."""
    return AddressSpaceAttr(AddressSpace.PRIVATE)


def address_space_of(type: Attribute) -> AddressSpace | None:
    """The `#gpu.address_space` of a memref type, None for any other type or space."""
    if not isinstance(type, MemRefType):
        return None
    space = type.memory_space
    return space.data if isinstance(space, AddressSpaceAttr) else None


def is_workgroup_memref(type: Attribute) -> bool:
    """Whether `type` is a memref in `#gpu.address_space<workgroup>`."""
    return address_space_of(type) == AddressSpace.WORKGROUP


def is_private_memref(type: Attribute) -> bool:
    """Whether `type` is a memref in `#gpu.address_space<private>`."""
    return address_space_of(type) == AddressSpace.PRIVATE


def _parse_enum_either_form(parser: AttrParser, enum: type[_E]) -> _E:
    """The value of `#gpu.NAME<value>` (MLIR's form) or of `#gpu<NAME value>`
    (the opaque form irkit printed before, still read): xDSL's parser has
    consumed `#gpu.NAME` or `#gpu<NAME`, and the closing `>` of the opaque form
    is its own."""
    if parser.parse_optional_punctuation("<") is None:
        return parser.parse_str_enum(enum)
    value = parser.parse_str_enum(enum)
    parser.parse_punctuation(">")
    return value


@irdl_attr_definition
class DimensionAttr(EnumAttribute[DimensionEnum]):
    """A grid or block dimension, the id ops' `dimension`: `#gpu.dim<x>`.

    Replaces xDSL's, which prints `#gpu<dim x>`: MLIR (and iree-opt) reads
    only `#gpu.dim<x>` in the generic form. Both are read.
    """

    name = "gpu.dim"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DimensionEnum:
        return _parse_enum_either_form(parser, DimensionEnum)


def _parse_bracketed_dimension(parser: AttrParser) -> DimensionEnum:
    with parser.in_angle_brackets():
        return parser.parse_str_enum(DimensionEnum)


@irdl_attr_definition
class BlockMappingAttr(EnumAttribute[DimensionEnum]):
    """Maps a loop dimension to a grid dimension: `mapping = [#gpu.block<x>]`."""

    name = "gpu.block"

    @property
    def dimension(self) -> str:
        """ "x", "y" or "z"."""
        return self.data.value

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DimensionEnum:
        return _parse_bracketed_dimension(parser)


@irdl_attr_definition
class ThreadMappingAttr(EnumAttribute[DimensionEnum]):
    """Maps a loop dimension to a block dimension: `mapping = [#gpu.thread<x>]`."""

    name = "gpu.thread"

    @property
    def dimension(self) -> str:
        """ "x", "y" or "z"."""
        return self.data.value

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DimensionEnum:
        return _parse_bracketed_dimension(parser)


class ShuffleMode(StrEnum):
    """Which lane `gpu.shuffle` reads from."""

    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode]):
    """`#gpu.shuffle_mode<xor>`, the generic form of `gpu.shuffle`'s mode
    (MLIR's form; the opaque `#gpu<shuffle_mode xor>` is read too)."""

    name = "gpu.shuffle_mode"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ShuffleMode:
        return _parse_enum_either_form(parser, ShuffleMode)


# --------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------


def verify_in_kernel(op: Operation) -> None:
    """`op` must sit (at any depth) in a `gpu.launch` body or a `gpu.func`.

    An op not yet inserted anywhere is accepted, so builders can verify it.
    """
    ancestor = op.parent_op()
    if ancestor is None:
        return
    while ancestor is not None:
        if isinstance(ancestor, LaunchOp | FuncOp):
            return
        ancestor = ancestor.parent_op()
    raise VerifyException("must be nested in a 'gpu.launch' body or a 'gpu.func'")


def _verify_attributions(
    attributions: Sequence[BlockArgument], space: AddressSpace
) -> None:
    """Each attribution is a memref in `space`.

    A memref whose memory space was already lowered to a target's integer is
    accepted, as MLIR does; a memref in the default space is not.
    """
    for attribution in attributions:
        memref_type = attribution.type
        if not isinstance(memref_type, MemRefType):
            raise VerifyException("expected memref type in attribution")
        memory_space = memref_type.memory_space
        if isinstance(memory_space, IntegerAttr):
            continue
        if not isinstance(memory_space, AddressSpaceAttr) or memory_space.data != space:
            raise VerifyException(
                f"expected memory space {space.value} in attribution, got {memref_type}"
            )


def _workgroup_count(op: Operation) -> int:
    attr = op.attributes.get(WORKGROUP_ATTRIBUTIONS)
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def _verify_workgroup_count(op: Operation, available: int) -> int:
    """The op's workgroup attribution count, checked against `available` arguments."""
    count = _workgroup_count(op)
    if count < 0 or count > available:
        raise VerifyException(
            f"'{WORKGROUP_ATTRIBUTIONS}' is {count} but only {available} region "
            "arguments follow the leading ones"
        )
    return count


def _parse_attributions(parser: Parser, keyword: str) -> list[Parser.Argument]:
    """MLIR's optional `keyword(%a : type, ...)`; [] when absent."""
    if parser.parse_optional_keyword(keyword) is None:
        return []
    return parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN,
        lambda: parser.parse_argument(expect_type=True),
        f" in {keyword} attributions",
    )


def _print_attributions(
    printer: Printer, keyword: str, attributions: Sequence[BlockArgument]
) -> None:
    if not attributions:
        return
    printer.print_string(f" {keyword}(")
    printer.print_list(
        attributions, lambda arg: _print_binding(printer, arg, " : ", arg.type)
    )
    printer.print_string(")")


def _verify_blocks_end_in(region: Region, kind: type[Operation], message: str) -> None:
    """Every block ends in `kind`, or in a branch (a terminator with successors)."""
    if not region.blocks:
        raise VerifyException(message)
    for block in region.blocks:
        last = block.last_op
        if last is not None and last.successors:
            continue
        if not isinstance(last, kind):
            raise VerifyException(message)


def _optional(value: SSAValue | None) -> list[SSAValue]:
    """An optional operand's segment: [] or [value]."""
    return [] if value is None else [value]


def _as_dimension(dimension: str | DimensionEnum | DimensionAttr) -> DimensionAttr:
    if isinstance(dimension, DimensionAttr):
        return dimension
    return DimensionAttr(DimensionEnum(dimension))


def _parse_optional_upper_bound(parser: Parser) -> IntegerAttr | None:
    if parser.parse_optional_keyword("upper_bound") is None:
        return None
    return IntegerAttr(parser.parse_integer(allow_boolean=False), IndexType())


def _print_optional_upper_bound(printer: Printer, bound: IntegerAttr | None) -> None:
    if bound is not None:
        printer.print_string(f" upper_bound {bound.value.data}")


# --------------------------------------------------------------------------
# gpu.module, gpu.func, gpu.return
# --------------------------------------------------------------------------


class ModuleOp(upstream.ModuleOp):
    """A symbol table of device code: the kernels `gpu.launch_func` runs.

    ```mlir
    gpu.module @kernels {
      gpu.func @scale(%m: memref<64xf32>) kernel {
        gpu.return
      }
    }
    ```
    """

    def __init__(
        self, sym_name: str | StringAttr, ops: Sequence[Operation] | Region = ()
    ) -> None:
        name = StringAttr(sym_name) if isinstance(sym_name, str) else sym_name
        body = ops if isinstance(ops, Region) else Region(Block(ops))
        IRDLOperation.__init__(self, properties={"sym_name": name}, regions=[body])

    @property
    def module_name(self) -> str:
        return self.sym_name.data

    def lookup_function(self, name: str) -> FuncOp | None:
        """The `gpu.func @name` of this module, if there is one."""
        for op in self.body.block.ops:
            if isinstance(op, FuncOp) and op.sym_name.data == name:
                return op
        return None

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_symbol_name()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        op = cls(name, body)
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_empty_block=False
        )


@irdl_op_definition
class FuncOp(IRDLOperation):
    """A device function; with `kernel`, an entry point `gpu.launch_func` runs.

    Its entry block takes the inputs, then the workgroup attributions (buffers
    shared by the threads of a block), then the private ones (per thread).

    ```mlir
    gpu.func @k(%a: memref<64xf32>, %n: index)
        workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>)
        private(%p : memref<4xf32, #gpu.address_space<private>>)
        kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
      gpu.return
    }
    ```
    """

    name = "gpu.func"

    body = region_def()
    sym_name = attr_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    # MLIR marks kernels with the `gpu.kernel` unit attribute (xDSL used a
    # `kernel` property, which MLIR rejects).
    kernel = opt_attr_def(UnitAttr, attr_name=KERNEL_ATTRIBUTE)
    num_workgroup_attributions = opt_attr_def(
        IntegerAttr, attr_name=WORKGROUP_ATTRIBUTIONS
    )
    known_block_size = opt_attr_def(
        DenseArrayBase.constr(i32), attr_name="gpu.known_block_size"
    )
    known_grid_size = opt_attr_def(
        DenseArrayBase.constr(i32), attr_name="gpu.known_grid_size"
    )

    traits = lazy_traits_def(
        lambda: (IsolatedFromAbove(), HasParent(ModuleOp), SymbolOpInterface())
    )

    def __init__(
        self,
        name: str,
        input_types: Sequence[Attribute],
        *,
        result_types: Sequence[Attribute] = (),
        workgroup: Sequence[Attribute] = (),
        private: Sequence[Attribute] = (),
        kernel: bool = True,
        known_block_size: Sequence[int] | None = None,
        known_grid_size: Sequence[int] | None = None,
        body: Region | None = None,
    ) -> None:
        """A function with an entry block taking inputs, then attributions."""
        if body is None:
            body = Region(Block(arg_types=[*input_types, *workgroup, *private]))
        attributes: dict[str, Attribute] = {
            "sym_name": StringAttr(name),
            WORKGROUP_ATTRIBUTIONS: IntegerAttr(len(workgroup), i64),
        }
        if kernel:
            attributes[KERNEL_ATTRIBUTE] = UnitAttr()
        for key, sizes in (
            ("gpu.known_block_size", known_block_size),
            ("gpu.known_grid_size", known_grid_size),
        ):
            if sizes is not None:
                attributes[key] = DenseArrayBase.from_list(i32, sizes)
        function_type = FunctionType.from_lists(input_types, result_types)
        super().__init__(
            properties={"function_type": function_type},
            attributes=attributes,
            regions=[body],
        )

    @classmethod
    def build(cls, *args: Any, **kwargs: Any) -> Self:
        """`FuncOp(...)`; with IRDL keywords only, xDSL's generic builder."""
        if args or not kwargs.keys() <= _GENERIC_BUILD_KEYWORDS:
            return cls(*args, **kwargs)
        return super().build(**kwargs)

    @property
    def is_kernel(self) -> bool:
        return self.kernel is not None

    @property
    def workgroup_attribution_count(self) -> int:
        return _workgroup_count(self)

    @property
    def entry_block(self) -> Block:
        block = self.body.blocks.first
        if block is None:
            raise ValueError(f"gpu.func @{self.sym_name.data} has no body")
        return block

    @property
    def arguments(self) -> tuple[BlockArgument, ...]:
        """The entry-block arguments that are the function's inputs."""
        return self.entry_block.args[: len(self.function_type.inputs)]

    @property
    def workgroup_attributions(self) -> tuple[BlockArgument, ...]:
        start = len(self.function_type.inputs)
        return self.entry_block.args[start : start + self.workgroup_attribution_count]

    @property
    def private_attributions(self) -> tuple[BlockArgument, ...]:
        start = len(self.function_type.inputs) + self.workgroup_attribution_count
        return self.entry_block.args[start:]

    def verify_(self) -> None:
        inputs = self.function_type.inputs.data
        if self.is_kernel and self.function_type.outputs.data:
            raise VerifyException("expected void return type for kernel function")
        block = self.body.blocks.first
        if block is None:
            raise VerifyException("expects a body (gpu.func cannot be external)")
        if len(block.args) < len(inputs):
            raise VerifyException(
                f"expected at least {len(inputs)} arguments to body region"
            )
        for index, (arg, expected) in enumerate(zip(block.args, inputs, strict=False)):
            if arg.type != expected:
                raise VerifyException(
                    f"expected body region argument #{index} to be of type "
                    f"{expected}, got {arg.type}"
                )
        _verify_workgroup_count(self, len(block.args) - len(inputs))
        _verify_attributions(self.workgroup_attributions, AddressSpace.WORKGROUP)
        _verify_attributions(self.private_attributions, AddressSpace.PRIVATE)
        _verify_blocks_end_in(
            self.body, ReturnOp, "expects its body to end in 'gpu.return'"
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_symbol_name().data
        arguments = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN,
            lambda: parser.parse_argument(expect_type=True),
            " in function arguments",
        )
        result_types = parse_optional_arrow_type_list(parser)
        workgroup = _parse_attributions(parser, "workgroup")
        private = _parse_attributions(parser, "private")
        kernel = parser.parse_optional_keyword("kernel") is not None
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([*arguments, *workgroup, *private])
        op = cls(
            name,
            [arg.type for arg in arguments],
            result_types=result_types,
            workgroup=[arg.type for arg in workgroup],
            private=[arg.type for arg in private],
            kernel=kernel,
            body=body,
        )
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        with printer.in_parens():
            printer.print_list(self.arguments, printer.print_block_argument)
        print_optional_arrow_type_list(printer, self.function_type.outputs.data)
        _print_attributions(printer, "workgroup", self.workgroup_attributions)
        _print_attributions(printer, "private", self.private_attributions)
        if self.is_kernel:
            printer.print_string(" kernel")
        printer.print_op_attributes(
            self.attributes,
            reserved_attr_names=("sym_name", KERNEL_ATTRIBUTE, WORKGROUP_ATTRIBUTIONS),
            print_keyword=True,
        )
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Returns from a `gpu.func` (a kernel returns nothing).

    ```mlir
    gpu.return %x : f32
    ```
    """

    name = "gpu.return"

    args = var_operand_def()

    traits = traits_def(IsTerminator(), HasParent(FuncOp))

    def __init__(self, values: Sequence[SSAValue] = ()) -> None:
        super().__init__(operands=[values])

    def verify_(self) -> None:
        func = self.parent_op()
        if not isinstance(func, FuncOp):
            return
        expected = func.function_type.outputs.data
        if len(expected) != len(self.args):
            raise VerifyException(
                f"expected {len(expected)} result operands but found {len(self.args)}"
            )
        for index, (operand, type) in enumerate(zip(self.args, expected, strict=True)):
            if operand.type != type:
                raise VerifyException(
                    f"unexpected type `{operand.type}' for operand #{index}"
                )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        values = _parse_optional_typed_operands(parser)
        op = cls(values)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        _print_optional_typed_operands(printer, self.args)


def _parse_optional_typed_operands(parser: Parser) -> Sequence[SSAValue]:
    """MLIR's `($values^ : type($values))?`."""
    pos = parser.pos
    operands: list[UnresolvedOperand] = []
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return []
    operands.append(first)
    while parser.parse_optional_punctuation(",") is not None:
        operands.append(parser.parse_unresolved_operand())
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    return parser.resolve_operands(operands, types, pos)


def _print_optional_typed_operands(
    printer: Printer, values: Sequence[SSAValue]
) -> None:
    if not values:
        return
    printer.print_string(" ")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([value.type for value in values], printer.print_attribute)


# --------------------------------------------------------------------------
# gpu.launch, gpu.terminator, gpu.yield
# --------------------------------------------------------------------------

# The keywords of IRDLOperation.build: a call with only these is generic.
_Arguments = list[Parser.UnresolvedArgument]

_GENERIC_BUILD_KEYWORDS = frozenset(
    {"operands", "result_types", "properties", "attributes", "successors", "regions"}
)


def _parse_size_assignment(
    parser: Parser,
) -> tuple[_Arguments, _Arguments, Sequence[SSAValue]]:
    """`(%i, %j, %k) in (%si = %a, %sj = %b, %sk = %c)`: ids, size args, operands."""
    pos = parser.pos
    ids = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
    )
    parser.parse_keyword("in")
    pairs = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
    )
    if len(ids) != 3 or len(pairs) != 3:
        parser.raise_error("expected three (x, y, z) ids and sizes", pos, parser.pos)
    operands = parser.resolve_operands(
        [operand for _, operand in pairs], [IndexType()] * 3, pos
    )
    return ids, [arg for arg, _ in pairs], operands


def _print_binding(
    printer: Printer, name: SSAValue, separator: str, value: SSAValue | Attribute
) -> None:
    """`%name = %value` or `%name : type`."""
    printer.print_ssa_value(name)
    printer.print_string(separator)
    if isinstance(value, SSAValue):
        printer.print_ssa_value(value)
    else:
        printer.print_attribute(value)


def _print_size_assignment(
    printer: Printer,
    ids: Sequence[BlockArgument],
    sizes: Sequence[BlockArgument],
    operands: Sequence[SSAValue],
) -> None:
    with printer.in_parens():
        printer.print_list(ids, printer.print_ssa_value)
    printer.print_string(" in ")
    with printer.in_parens():
        printer.print_list(
            zip(sizes, operands, strict=True),
            lambda pair: _print_binding(printer, pair[0], " = ", pair[1]),
        )


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """Runs its body on a grid of thread blocks (the body is not isolated).

    Entry-block arguments: block ids (x, y, z), thread ids, grid sizes, block
    sizes, then workgroup attributions, then private attributions.

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
               workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>) {
      gpu.barrier
      gpu.terminator
    }
    ```
    """

    name = "gpu.launch"

    asyncDependencies = var_operand_def(AsyncTokenType)
    gridSizeX = operand_def(IndexType)
    gridSizeY = operand_def(IndexType)
    gridSizeZ = operand_def(IndexType)
    blockSizeX = operand_def(IndexType)
    blockSizeY = operand_def(IndexType)
    blockSizeZ = operand_def(IndexType)
    clusterSizeX = opt_operand_def(IndexType)
    clusterSizeY = opt_operand_def(IndexType)
    clusterSizeZ = opt_operand_def(IndexType)
    dynamicSharedMemorySize = opt_operand_def(i32)
    # Today's MLIR (LLVM 24) launches on an optional async object (a stream:
    # `gpu.launch <%stream : !type>`), the launch's twelfth operand segment;
    # irkit has it so that its generic form reads in upstream tools, and
    # refuses it in the verifier (launch plans run on the caller's stream).
    asyncObject = opt_operand_def()
    asyncToken = opt_result_def(AsyncTokenType)
    body = region_def()
    num_workgroup_attributions = opt_attr_def(
        IntegerAttr, attr_name=WORKGROUP_ATTRIBUTIONS
    )

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        grid_size: Sequence[SSAValue],
        block_size: Sequence[SSAValue],
        *,
        workgroup: Sequence[Attribute] = (),
        private: Sequence[Attribute] = (),
        dynamic_shared_memory_size: SSAValue | None = None,
        is_async: bool = False,
        async_dependencies: Sequence[SSAValue] = (),
        body: Region | None = None,
    ) -> None:
        """A launch whose body block has its 12 index arguments and attributions.

        The caller fills the block and ends it with `gpu.terminator`.
        """
        if len(grid_size) != 3 or len(block_size) != 3:
            raise ValueError("gpu.launch takes three grid sizes and three block sizes")
        if body is None:
            arg_types = [IndexType()] * LAUNCH_CONFIG_ARGUMENTS
            body = Region(Block(arg_types=[*arg_types, *workgroup, *private]))
        shared = _optional(dynamic_shared_memory_size)
        super().__init__(
            operands=[
                async_dependencies,
                *grid_size,
                *block_size,
                [],
                [],
                [],
                shared,
                [],
            ],
            result_types=[[AsyncTokenType()] if is_async else []],
            attributes={WORKGROUP_ATTRIBUTIONS: IntegerAttr(len(workgroup), i64)},
            regions=[body],
        )

    @classmethod
    def build(cls, *args: Any, **kwargs: Any) -> Self:
        """`LaunchOp(...)`; with IRDL keywords only, xDSL's generic builder."""
        if args or not kwargs.keys() <= _GENERIC_BUILD_KEYWORDS:
            return cls(*args, **kwargs)
        return super().build(**kwargs)

    @property
    def entry_block(self) -> Block:
        block = self.body.blocks.first
        if block is None:
            raise ValueError("gpu.launch has no body")
        return block

    @property
    def block_ids(self) -> tuple[BlockArgument, ...]:
        return self.entry_block.args[0:3]

    @property
    def thread_ids(self) -> tuple[BlockArgument, ...]:
        return self.entry_block.args[3:6]

    @property
    def grid_size_args(self) -> tuple[BlockArgument, ...]:
        return self.entry_block.args[6:9]

    @property
    def block_size_args(self) -> tuple[BlockArgument, ...]:
        return self.entry_block.args[9:12]

    @property
    def grid_size(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        """The operands giving the number of blocks (x, y, z)."""
        return (self.gridSizeX, self.gridSizeY, self.gridSizeZ)

    @property
    def block_size(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        """The operands giving the number of threads per block (x, y, z)."""
        return (self.blockSizeX, self.blockSizeY, self.blockSizeZ)

    @property
    def workgroup_attribution_count(self) -> int:
        return _workgroup_count(self)

    @property
    def workgroup_attributions(self) -> tuple[BlockArgument, ...]:
        end = LAUNCH_CONFIG_ARGUMENTS + self.workgroup_attribution_count
        return self.entry_block.args[LAUNCH_CONFIG_ARGUMENTS:end]

    @property
    def private_attributions(self) -> tuple[BlockArgument, ...]:
        start = LAUNCH_CONFIG_ARGUMENTS + self.workgroup_attribution_count
        return self.entry_block.args[start:]

    def verify_(self) -> None:
        if self.clusterSizeX or self.clusterSizeY or self.clusterSizeZ:
            raise VerifyException("thread block clusters are not supported by irkit")
        if self.asyncObject is not None:
            raise VerifyException(
                "launches on an async object (a stream) are not supported by irkit"
            )
        if self.asyncDependencies and self.asyncToken is None:
            raise VerifyException(
                "async dependencies need the 'async' keyword (an async token result)"
            )
        block = self.body.blocks.first
        if block is None:
            raise VerifyException("expects a non-empty body")
        if len(block.args) < LAUNCH_CONFIG_ARGUMENTS:
            raise VerifyException("unexpected number of region arguments")
        if any(not isinstance(arg.type, IndexType) for arg in block.args[:12]):
            raise VerifyException(
                "expects its first 12 region arguments (ids and sizes) to be index"
            )
        _verify_workgroup_count(self, len(block.args) - LAUNCH_CONFIG_ARGUMENTS)
        _verify_attributions(self.workgroup_attributions, AddressSpace.WORKGROUP)
        _verify_attributions(self.private_attributions, AddressSpace.PRIVATE)
        _verify_blocks_end_in(
            self.body,
            TerminatorOp,
            "expected 'gpu.terminator' or a terminator with successors",
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async = parser.parse_optional_keyword("async") is not None
        pos = parser.pos
        dependencies = parser.parse_optional_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        if dependencies and not is_async:
            parser.raise_error("expected 'async' before async dependencies", pos)
        tokens = parser.resolve_operands(
            dependencies or [], [AsyncTokenType()] * len(dependencies or []), pos
        )
        if parser.parse_optional_keyword("clusters") is not None:
            parser.raise_error("thread block clusters are not supported by irkit")
        parser.parse_keyword("blocks")
        block_ids, grid_args, grid_size = _parse_size_assignment(parser)
        parser.parse_keyword("threads")
        thread_ids, block_args, block_size = _parse_size_assignment(parser)
        shared: SSAValue | None = None
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            shared = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        workgroup = _parse_attributions(parser, "workgroup")
        private = _parse_attributions(parser, "private")
        index = IndexType()
        config = [
            arg.resolve(index)
            for arg in (*block_ids, *thread_ids, *grid_args, *block_args)
        ]
        body = parser.parse_region([*config, *workgroup, *private])
        attributes = parser.parse_optional_attr_dict()
        attributes.pop(WORKGROUP_ATTRIBUTIONS, None)
        op = cls(
            grid_size,
            block_size,
            workgroup=[arg.type for arg in workgroup],
            private=[arg.type for arg in private],
            dynamic_shared_memory_size=shared,
            is_async=is_async,
            async_dependencies=tokens,
            body=body,
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        if self.asyncToken is not None:
            printer.print_string(" async")
            if self.asyncDependencies:
                printer.print_string(" [")
                printer.print_list(self.asyncDependencies, printer.print_ssa_value)
                printer.print_string("]")
        printer.print_string(" blocks")
        _print_size_assignment(
            printer, self.block_ids, self.grid_size_args, self.grid_size
        )
        printer.print_string(" threads")
        _print_size_assignment(
            printer, self.thread_ids, self.block_size_args, self.block_size
        )
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamicSharedMemorySize)
        _print_attributions(printer, "workgroup", self.workgroup_attributions)
        _print_attributions(printer, "private", self.private_attributions)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(
            self.attributes, reserved_attr_names=(WORKGROUP_ATTRIBUTIONS,)
        )


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    """Ends a `gpu.launch` body.

    ```mlir
    gpu.terminator
    ```
    """

    name = "gpu.terminator"

    traits = traits_def(IsTerminator(), HasParent(LaunchOp))

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = cls()
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)


class YieldOp(upstream.YieldOp):
    """Yields values from a gpu region (e.g. the body of `gpu.all_reduce`).

    ```mlir
    gpu.yield %sum : f32
    ```
    """

    def __init__(self, values: Sequence[SSAValue] = ()) -> None:
        super().__init__(values)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        op = cls(_parse_optional_typed_operands(parser))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        _print_optional_typed_operands(printer, self.values)


# --------------------------------------------------------------------------
# gpu.launch_func
# --------------------------------------------------------------------------


class LaunchFuncOp(upstream.LaunchFuncOp):
    """Runs the kernel `@module::@kernel` of a `gpu.module` on a grid.

    The closest enclosing `builtin.module` must carry `gpu.container_module`.

    ```mlir
    gpu.launch_func @kernels::@scale blocks in (%c4, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%m : memref<128xf32>, %n : index)
    ```
    """

    def __init__(
        self,
        kernel: SymbolRefAttr,
        grid_size: Sequence[SSAValue],
        block_size: Sequence[SSAValue],
        kernel_operands: Sequence[SSAValue] = (),
        *,
        dynamic_shared_memory_size: SSAValue | None = None,
        is_async: bool = False,
        async_dependencies: Sequence[SSAValue] = (),
    ) -> None:
        if len(grid_size) != 3 or len(block_size) != 3:
            raise ValueError(
                "gpu.launch_func takes three grid sizes and three block sizes"
            )
        shared = _optional(dynamic_shared_memory_size)
        IRDLOperation.__init__(
            self,
            operands=[
                async_dependencies,
                *grid_size,
                *block_size,
                [],
                [],
                [],
                shared,
                kernel_operands,
                [],
            ],
            result_types=[[AsyncTokenType()] if is_async else []],
            properties={"kernel": kernel},
        )

    @staticmethod
    def kernel_reference(module: str, kernel: str) -> SymbolRefAttr:
        """`@module::@kernel`."""
        return SymbolRefAttr(module, [kernel])

    @property
    def kernel_module_name(self) -> str:
        return self.kernel.root_reference.data

    @property
    def kernel_name(self) -> str:
        nested = self.kernel.nested_references.data
        return nested[-1].data if nested else self.kernel.root_reference.data

    @property
    def grid_size(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.gridSizeX, self.gridSizeY, self.gridSizeZ)

    @property
    def block_size(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.blockSizeX, self.blockSizeY, self.blockSizeZ)

    @property
    def kernel_operands(self) -> tuple[SSAValue, ...]:
        return tuple(self.kernelOperands)

    def verify_(self) -> None:
        if self.clusterSizeX or self.clusterSizeY or self.clusterSizeZ:
            raise VerifyException("thread block clusters are not supported by irkit")
        if self.asyncObject is not None:
            raise VerifyException(
                "launches on an async object (a stream) are not supported by irkit"
            )
        if self.asyncObject is not None:
            raise VerifyException("an async object operand is not supported by irkit")
        if self.asyncDependencies and self.asyncToken is None:
            raise VerifyException(
                "async dependencies need the 'async' keyword (an async token result)"
            )
        if len({size.type for size in (*self.grid_size, *self.block_size)}) != 1:
            raise VerifyException("expects grid and block sizes of one type")
        if len(self.kernel.nested_references) != 1:
            raise VerifyException(
                "expects a kernel reference of the form @module::@kernel"
            )
        self._verify_kernel()

    def _verify_kernel(self) -> None:
        """The kernel named exists, is a kernel and takes the operands' types."""
        module = self.parent_op()
        while module is not None and not isinstance(module, BuiltinModuleOp):
            module = module.parent_op()
        if module is None:
            raise VerifyException("expected to belong to a module")
        if CONTAINER_MODULE_ATTRIBUTE not in module.attributes:
            raise VerifyException(
                "expected the closest surrounding module to have the "
                f"'{CONTAINER_MODULE_ATTRIBUTE}' attribute"
            )
        kernel_module = next(
            (
                op
                for op in module.body.block.ops
                if isinstance(op, ModuleOp)
                and op.sym_name.data == self.kernel_module_name
            ),
            None,
        )
        if kernel_module is None:
            raise VerifyException(
                f"kernel module '{self.kernel_module_name}' is undefined"
            )
        kernel = next(
            (
                op
                for op in kernel_module.body.block.ops
                if isinstance(op, FuncOp) and op.sym_name.data == self.kernel_name
            ),
            None,
        )
        if kernel is None:
            raise VerifyException(f"kernel function '{self.kernel}' is undefined")
        if KERNEL_ATTRIBUTE not in kernel.attributes:
            raise VerifyException(
                f"kernel function is missing the '{KERNEL_ATTRIBUTE}' attribute"
            )
        expected = kernel.function_type.inputs.data
        if len(expected) != len(self.kernelOperands):
            raise VerifyException(
                f"got {len(self.kernelOperands)} kernel operands but expected "
                f"{len(expected)}"
            )
        for index, (operand, type) in enumerate(
            zip(self.kernelOperands, expected, strict=True)
        ):
            if operand.type != type:
                raise VerifyException(
                    f"type of function argument {index} does not match: "
                    f"expected {type}, got {operand.type}"
                )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async = parser.parse_optional_keyword("async") is not None
        pos = parser.pos
        dependencies = (
            parser.parse_optional_comma_separated_list(
                Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
            or []
        )
        if dependencies and not is_async:
            parser.raise_error("expected 'async' before async dependencies", pos)
        tokens = parser.resolve_operands(
            dependencies, [AsyncTokenType()] * len(dependencies), pos
        )
        pos = parser.pos
        kernel = parser.parse_attribute()
        if not isinstance(kernel, SymbolRefAttr):
            parser.raise_error("expected a kernel reference @module::@kernel", pos)
        if parser.parse_optional_keyword("clusters") is not None:
            parser.raise_error("thread block clusters are not supported by irkit")
        sizes_pos = parser.pos
        parser.parse_keyword("blocks")
        parser.parse_keyword("in")
        grid = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("threads")
        parser.parse_keyword("in")
        block = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        if len(grid) != 3 or len(block) != 3:
            parser.raise_error(
                "expected three (x, y, z) grid and block sizes", sizes_pos, parser.pos
            )
        size_type: Attribute = (
            parser.parse_type()
            if parser.parse_optional_punctuation(":") is not None
            else IndexType()
        )
        sizes = parser.resolve_operands([*grid, *block], [size_type] * 6, sizes_pos)
        shared: SSAValue | None = None
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            shared = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        operands: list[SSAValue] = []
        if parser.parse_optional_keyword("args") is not None:
            operands = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: _parse_typed_operand(parser)
            )
        attributes = parser.parse_optional_attr_dict()
        op = cls(
            kernel,
            sizes[:3],
            sizes[3:],
            operands,
            dynamic_shared_memory_size=shared,
            is_async=is_async,
            async_dependencies=tokens,
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        if self.asyncToken is not None:
            printer.print_string(" async")
        if self.asyncDependencies:
            printer.print_string(" [")
            printer.print_list(self.asyncDependencies, printer.print_ssa_value)
            printer.print_string("]")
        printer.print_string(" ")
        printer.print_attribute(self.kernel)
        printer.print_string(" blocks in ")
        with printer.in_parens():
            printer.print_list(self.grid_size, printer.print_ssa_value)
        printer.print_string(" threads in ")
        with printer.in_parens():
            printer.print_list(self.block_size, printer.print_ssa_value)
        size_type = self.gridSizeX.type
        if not isinstance(size_type, IndexType):
            printer.print_string(" : ")
            printer.print_attribute(size_type)
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamicSharedMemorySize)
        if self.kernelOperands:
            printer.print_string(" args(")
            printer.print_list(
                self.kernelOperands,
                lambda value: _print_binding(printer, value, " : ", value.type),
            )
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)


def _parse_typed_operand(parser: Parser) -> SSAValue:
    """`%value : type`."""
    pos = parser.pos
    operand = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    return parser.resolve_operands([operand], [parser.parse_type()], pos)[0]


# --------------------------------------------------------------------------
# Ids and sizes, gpu.barrier, gpu.shuffle
# --------------------------------------------------------------------------


class _DimensionOp(IRDLOperation):
    """An index along one dimension (x, y or z) of the grid or of a block."""

    dimension_attr = prop_def(DimensionAttr, prop_name="dimension")
    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(
        self,
        dimension: str | DimensionEnum | DimensionAttr,
        *,
        upper_bound: int | None = None,
    ) -> None:
        properties: dict[str, Attribute] = {"dimension": _as_dimension(dimension)}
        if upper_bound is not None:
            properties["upper_bound"] = IntegerAttr(upper_bound, IndexType())
        super().__init__(result_types=[IndexType()], properties=properties)

    @property
    def dimension(self) -> str:
        """ "x", "y" or "z"."""
        return self.dimension_attr.data.value

    def verify_(self) -> None:
        verify_in_kernel(self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        dimension = parser.parse_str_enum(DimensionEnum)
        bound = _parse_optional_upper_bound(parser)
        op = cls(dimension)
        if bound is not None:
            op.properties["upper_bound"] = bound
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.dimension}")
        _print_optional_upper_bound(printer, self.upper_bound)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ThreadIdOp(_DimensionOp):
    """The id of the running thread in its block: `%tx = gpu.thread_id x`."""

    name = "gpu.thread_id"


@irdl_op_definition
class BlockIdOp(_DimensionOp):
    """The id of the running block in the grid: `%bx = gpu.block_id x`."""

    name = "gpu.block_id"


@irdl_op_definition
class BlockDimOp(_DimensionOp):
    """The number of threads per block: `%n = gpu.block_dim x`."""

    name = "gpu.block_dim"


@irdl_op_definition
class GridDimOp(_DimensionOp):
    """The number of blocks in the grid: `%n = gpu.grid_dim x`."""

    name = "gpu.grid_dim"


@irdl_op_definition
class GlobalIdOp(_DimensionOp):
    """`block_id * block_dim + thread_id`: `%i = gpu.global_id x`."""

    name = "gpu.global_id"


@irdl_op_definition
class LaneIdOp(IRDLOperation):
    """The id of the running thread in its warp: `%l = gpu.lane_id`."""

    name = "gpu.lane_id"

    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(self, *, upper_bound: int | None = None) -> None:
        properties: dict[str, Attribute] = {}
        if upper_bound is not None:
            properties["upper_bound"] = IntegerAttr(upper_bound, IndexType())
        super().__init__(result_types=[IndexType()], properties=properties)

    def verify_(self) -> None:
        verify_in_kernel(self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        bound = _parse_optional_upper_bound(parser)
        op = cls()
        if bound is not None:
            op.properties["upper_bound"] = bound
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_optional_upper_bound(printer, self.upper_bound)
        printer.print_op_attributes(self.attributes)


class BarrierOp(upstream.BarrierOp):
    """Waits until every thread of the block reaches it: `gpu.barrier`."""

    def verify_(self) -> None:
        verify_in_kernel(self)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = cls()
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """Reads `value` from another lane of the warp; `valid` is false out of range.

    ```mlir
    %r, %valid = gpu.shuffle xor %v, %offset, %width : f32
    ```
    """

    name = "gpu.shuffle"

    SHUFFLE_TYPES: ClassVar[tuple[Attribute, ...]] = (i32, i64, f32, f64)

    value = operand_def()
    offset = operand_def(i32)
    width = operand_def(i32)
    mode_attr = prop_def(ShuffleModeAttr, prop_name="mode")

    result = result_def()
    valid = result_def(i1)

    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue,
        offset: SSAValue,
        width: SSAValue,
        mode: str | ShuffleMode,
    ) -> None:
        super().__init__(
            operands=[value, offset, width],
            result_types=[value.type, i1],
            properties={"mode": ShuffleModeAttr(ShuffleMode(mode))},
        )

    @property
    def mode(self) -> str:
        """ "xor", "up", "down" or "idx"."""
        return self.mode_attr.data.value

    def verify_(self) -> None:
        verify_in_kernel(self)
        if self.value.type not in self.SHUFFLE_TYPES:
            raise VerifyException(
                f"operand #0 must be i32, i64, f32 or f64, got {self.value.type}"
            )
        if self.result.type != self.value.type:
            raise VerifyException(
                f"result type {self.result.type} must match the value type "
                f"{self.value.type}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        mode = parser.parse_str_enum(ShuffleMode)
        pos = parser.pos
        operands = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        value, offset, width = parser.resolve_operands(
            operands, [value_type, i32, i32], pos
        )
        op = cls(value, offset, width, mode)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.mode} ")
        printer.print_list(
            (self.value, self.offset, self.width), printer.print_ssa_value
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)


GPU = Dialect(
    "gpu",
    [
        upstream.AllocOp,
        upstream.AllReduceOp,
        BarrierOp,
        BlockDimOp,
        BlockIdOp,
        upstream.DeallocOp,
        FuncOp,
        GlobalIdOp,
        GridDimOp,
        upstream.HostRegisterOp,
        upstream.HostUnregisterOp,
        LaneIdOp,
        LaunchOp,
        LaunchFuncOp,
        upstream.MemcpyOp,
        ModuleOp,
        upstream.NumSubgroupsOp,
        ReturnOp,
        upstream.SetDefaultDeviceOp,
        ShuffleOp,
        upstream.SubgroupIdOp,
        upstream.SubgroupSizeOp,
        TerminatorOp,
        ThreadIdOp,
        upstream.WaitOp,
        YieldOp,
    ],
    [
        upstream.AsyncTokenType,
        upstream.AllReduceOpAttr,
        DimensionAttr,
        upstream.ProcessorAttr,
        upstream.LoopDimMapAttr,
        AddressSpaceAttr,
        BlockMappingAttr,
        ThreadMappingAttr,
        ShuffleModeAttr,
    ],
)
