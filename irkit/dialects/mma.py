"""The `mma` dialect: warp-level matrix multiply-accumulate on NVIDIA GPUs,
and the asynchronous copies that feed it.

MLIR's `nvgpu` dialect is the model (`nvgpu.ldmatrix`, `nvgpu.mma.sync`,
`nvgpu.device_async_copy`, `..._create_group`, `..._wait`); the difference
is where fragments live. `nvgpu` keeps a thread's fragment in a vector
value; here a fragment is a run of elements of a private memref (registers,
once the loops around them are unrolled), as irkit keeps every per-thread
tile, so the C-family printers and the grid emulator need no vector types.
The dialect has its own name because its ops are not `nvgpu`'s.

Every op is executed by every thread of a warp together (the PTX
instructions are `.sync.aligned`): each thread names its own addresses, and
the results it receives depend on what the other threads of its warp named.
Lanes are numbered `l = linear thread id % 32`, `g = l / 4`, `c = l % 4`.

- `mma.ldmatrix %src[...], %frag[...] {tiles = T, transpose}` (PTX
  `ldmatrix.sync.aligned.m8n8.xT[.trans].shared.b16`): loads T 8x8 matrices
  of 16-bit elements from workgroup memory. Lane `8t + r` names the address
  of row `r` of matrix `t` (8 contiguous elements from its index). Thread `l`
  receives two elements of each matrix `t`, written to `frag` at the given
  index + `2t` and `+ 2t + 1`: row `g`, columns `2c`, `2c + 1` of it, or
  with `transpose` rows `2c`, `2c + 1` of column `g`.
- `mma.sync %a[...], %b[...], %c[...]` (PTX `mma.sync.aligned.m16n8k16.row
  .col.f32.{f16,bf16}.{f16,bf16}.f32`): `C += A * B` for a 16x16 `A`, a 16x8
  `B` and a 16x8 f32 `C` spread over the warp; thread `l` holds 8 elements
  of `A` (element `e`: row `g + 8 ((e / 2) % 2)`, column `2c + e % 2 + 8 (e /
  4)`), 4 of `B` (row `2c + e % 2 + 8 (e / 2)`, column `g`) and 4 of `C`
  (row `g + 8 (e / 2)`, column `2c + e % 2`), each a run of its memref from
  the given index. The products are exact and summed in f32.
- `mma.sync %a[...], %b[...], %c[...] {tf32}` (PTX `mma.sync.aligned.m16n8k8
  .row.col.f32.tf32.tf32.f32`, MLIR's `nvgpu.mma.sync` with `mmaShape = [16,
  8, 8]` and `tf32Enabled`): f32 `A` and `B`, each element first rounded to
  TF32 (10 mantissa bits, to nearest, ties away from zero: PTX's `cvt.rna
  .tf32.f32`), then `C += A * B` for a 16x8 `A`, an 8x8 `B` and a 16x8 f32
  `C`; thread `l` holds 4 elements of `A` (element `e`: row `g + 8 (e % 2)`,
  column `c + 4 (e / 2)`), 2 of `B` (row `c + 4 e`, column `g`) and 4 of `C`
  as above. 32-bit fragments have no `ldmatrix`: they are read with plain
  loads.
- `mma.cp_async %src[...], %dst[...]` (PTX `cp.async.cg.shared.global`, 16
  bytes): starts copying 16 bytes from global to workgroup memory.
  `mma.cp_async_commit` closes the thread's open group of copies;
  `mma.cp_async_wait {pending = N}` waits until at most `N` of the thread's
  committed groups are still in flight. The copied elements may be read
  only after the wait (and, by other threads, after a `gpu.barrier`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, TypeVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    MemRefType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    opt_attr_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from irkit.dialects.gpu import (
    AddressSpace,
    address_space_of,
    verify_in_kernel,
)
from irkit.dtypes import element_bytes

# The warp-level shapes `mma.sync` takes: m16n8k16 for f16 and bf16
# operands, m16n8k8 for f32 operands rounded to TF32 (`tf32`).
MMA_SHAPE = (16, 8, 16)
TF32_MMA_SHAPE = (16, 8, 8)
WARP_LANES = 32
# Elements of A, B and C (f32) each thread holds for one m16n8k16 product.
A_FRAGMENT = 8
B_FRAGMENT = 4
C_FRAGMENT = 4


def fragment_sizes(shape: tuple[int, int, int]) -> tuple[int, int, int]:
    """Elements of A (m x k), B (k x n) and C (m x n) each of a warp's
    threads holds for one product of `shape`: m16n8k16 (8, 4, 4), m16n8k8
    (4, 2, 4)."""
    m, n, k = shape
    return m * k // WARP_LANES, k * n // WARP_LANES, m * n // WARP_LANES


# Bytes one `cp_async` copies.
ASYNC_COPY_BYTES = 16


# --------------------------------------------------------------------------
# Syntax shared by the ops: `%memref[%i, %j]` operands
# --------------------------------------------------------------------------


def _parse_indexed(parser: Parser) -> tuple[UnresolvedOperand, list[UnresolvedOperand]]:
    memref = parser.parse_unresolved_operand()
    indices = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    return memref, indices


def _parse_accesses(
    parser: Parser, count: int
) -> tuple[list[SSAValue], list[list[SSAValue]], dict[str, Attribute]]:
    """`count` comma-separated `%m[%i, ...]`, an attribute dict, `:` and the
    memref types; the operands resolved."""
    pos = parser.pos
    accesses = [_parse_indexed(parser)]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        accesses.append(_parse_indexed(parser))
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    types = [parser.parse_type()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
    memrefs: list[SSAValue] = [
        parser.resolve_operand(memref, memref_type)
        for (memref, _), memref_type in zip(accesses, types, strict=True)
    ]
    indices: list[list[SSAValue]] = [
        list(parser.resolve_operands(index_list, [IndexType()] * len(index_list), pos))
        for _, index_list in accesses
    ]
    return memrefs, indices, attributes


_TwoAccessOp = TypeVar("_TwoAccessOp", bound=IRDLOperation)


def _parse_two_accesses(cls: type[_TwoAccessOp], parser: Parser) -> _TwoAccessOp:
    """An op of two `%m[%i, ...]` operands (each memref, then its index
    segment: `AttrSizedOperandSegments`), from its custom syntax."""
    memrefs, indices, attributes = _parse_accesses(parser, 2)
    return cls.build(
        operands=[[memrefs[0]], indices[0], [memrefs[1]], indices[1]],
        attributes=attributes,
    )


def _print_accesses(
    printer: Printer,
    op: IRDLOperation,
    memrefs: Sequence[SSAValue],
    indices: Sequence[Sequence[SSAValue]],
) -> None:
    printer.print_string(" ")
    for position, (memref, index_list) in enumerate(zip(memrefs, indices, strict=True)):
        if position:
            printer.print_string(", ")
        printer.print_ssa_value(memref)
        with printer.in_square_brackets():
            printer.print_list(index_list, printer.print_ssa_value)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_list([m.type for m in memrefs], printer.print_attribute)


# --------------------------------------------------------------------------
# Verification helpers
# --------------------------------------------------------------------------

HALF_TYPES: tuple[type[Attribute], ...] = (Float16Type, BFloat16Type)


def _memref(value: SSAValue, what: str) -> MemRefType[Attribute]:
    if not isinstance(value.type, MemRefType):
        raise VerifyException(f"{what} must be a memref, got {value.type}")
    return value.type


def _check_access(
    value: SSAValue,
    indices: Sequence[SSAValue],
    what: str,
    space: AddressSpace | None,
    run: int,
) -> MemRefType[Attribute]:
    """A memref in `space` (None: global, no address space) indexed by one
    index per dimension, with `run` contiguous elements from a static last
    index where the shape allows telling."""
    memref_type = _memref(value, what)
    if len(indices) != memref_type.get_num_dims():
        raise VerifyException(
            f"{what} takes {memref_type.get_num_dims()} indices, got {len(indices)}"
        )
    actual = address_space_of(memref_type)
    if actual != space:
        wanted = "global memory" if space is None else f"{space.value} memory"
        raise VerifyException(f"{what} must be in {wanted}, got {memref_type}")
    shape = memref_type.get_shape()
    if not shape or (0 <= shape[-1] < run):
        raise VerifyException(
            f"{what} needs {run} contiguous elements along its last dimension, "
            f"got {memref_type}"
        )
    return memref_type


def _split(values: Sequence[SSAValue], counts: Sequence[int]) -> list[list[SSAValue]]:
    lists: list[list[SSAValue]] = []
    start = 0
    for count in counts:
        lists.append(list(values[start : start + count]))
        start += count
    return lists


# --------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """Loads `tiles` 8x8 matrices of 16-bit elements from workgroup memory
    into the warp's fragments (see the module doc).

    ```mlir
    mma.ldmatrix %tile[%row, %col], %a[%i, %c0] {tiles = 4 : i64}
        : memref<128x40xf16, #gpu.address_space<workgroup>>,
          memref<4x8xf16, #gpu.address_space<private>>
    ```
    """

    name = "mma.ldmatrix"

    source = var_operand_def()
    source_indices = var_operand_def(IndexType)
    fragment = var_operand_def()
    fragment_indices = var_operand_def(IndexType)
    tiles = attr_def(IntegerAttr)
    transpose = opt_attr_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        source_indices: Sequence[SSAValue],
        fragment: SSAValue,
        fragment_indices: Sequence[SSAValue],
        tiles: int,
        transpose: bool = False,
    ) -> None:
        attributes: dict[str, Attribute] = {"tiles": IntegerAttr(tiles, i64)}
        if transpose:
            attributes["transpose"] = UnitAttr()
        super().__init__(
            operands=[[source], source_indices, [fragment], fragment_indices],
            attributes=attributes,
        )

    @property
    def tile_count(self) -> int:
        return self.tiles.value.data

    @property
    def transposed(self) -> bool:
        return self.transpose is not None

    def verify_(self) -> None:
        verify_in_kernel(self)
        if self.tile_count not in (1, 2, 4):
            raise VerifyException(f"tiles must be 1, 2 or 4, got {self.tile_count}")
        source = _check_access(
            self.source[0], self.source_indices, "source", AddressSpace.WORKGROUP, 8
        )
        fragment = _check_access(
            self.fragment[0],
            self.fragment_indices,
            "fragment",
            AddressSpace.PRIVATE,
            2 * self.tile_count,
        )
        for what, memref_type in (("source", source), ("fragment", fragment)):
            if not isinstance(memref_type.get_element_type(), HALF_TYPES):
                raise VerifyException(
                    f"{what} must hold f16 or bf16 elements, got {memref_type}"
                )
        if source.get_element_type() != fragment.get_element_type():
            raise VerifyException("source and fragment must hold one element type")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _parse_two_accesses(cls, parser)

    def print(self, printer: Printer) -> None:
        _print_accesses(
            printer,
            self,
            [self.source[0], self.fragment[0]],
            [self.source_indices, self.fragment_indices],
        )


@irdl_op_definition
class SyncOp(IRDLOperation):
    """`C += A * B` over the warp's fragments (see the module doc):
    m16n8k16 of f16 or bf16 operands, or m16n8k8 of f32 operands rounded to
    TF32 with `tf32` (MLIR's `tf32Enabled`; an f32 product must say so,
    since it is not f32's).

    ```mlir
    mma.sync %a[%i, %c0], %b[%j, %c0], %acc[%i, %j, %c0]
        : memref<4x8xf16, #gpu.address_space<private>>,
          memref<4x4xf16, #gpu.address_space<private>>,
          memref<4x4x4xf32, #gpu.address_space<private>>
    mma.sync %a[%c0], %b[%c0], %acc[%c0] {tf32}
        : memref<4xf32, #gpu.address_space<private>>,
          memref<2xf32, #gpu.address_space<private>>,
          memref<4xf32, #gpu.address_space<private>>
    ```
    """

    name = "mma.sync"

    operands_ = var_operand_def()
    tf32 = opt_attr_def(UnitAttr)

    def __init__(
        self,
        accesses: Sequence[tuple[SSAValue, Sequence[SSAValue]]],
        tf32: bool = False,
    ) -> None:
        if len(accesses) != 3:
            raise ValueError("mma.sync takes three fragments: a, b and c")
        operands: list[SSAValue] = []
        for memref, indices in accesses:
            operands += [memref, *indices]
        super().__init__(
            operands=[operands], attributes={"tf32": UnitAttr()} if tf32 else {}
        )

    @property
    def rounds_to_tf32(self) -> bool:
        return self.tf32 is not None

    @property
    def shape(self) -> tuple[int, int, int]:
        """(m, n, k) of the instruction."""
        return TF32_MMA_SHAPE if self.rounds_to_tf32 else MMA_SHAPE

    @property
    def fragments(self) -> tuple[int, int, int]:
        """Elements of a, b and c each thread holds."""
        return fragment_sizes(self.shape)

    def accesses(self) -> list[tuple[SSAValue, list[SSAValue]]]:
        """(memref, indices) of a, b and c."""
        found: list[tuple[SSAValue, list[SSAValue]]] = []
        values = list(self.operands_)
        position = 0
        for _ in range(3):
            if position >= len(values):
                raise VerifyException("mma.sync takes three fragments: a, b and c")
            memref = values[position]
            memref_type = _memref(memref, "fragment")
            rank = memref_type.get_num_dims()
            found.append((memref, values[position + 1 : position + 1 + rank]))
            position += 1 + rank
        if position != len(values):
            raise VerifyException("mma.sync takes three fragments: a, b and c")
        return found

    def verify_(self) -> None:
        verify_in_kernel(self)
        accesses = self.accesses()
        types: list[Attribute] = []
        for (memref, indices), what, run in zip(
            accesses, ("a", "b", "c"), self.fragments, strict=True
        ):
            memref_type = _check_access(
                memref, indices, what, AddressSpace.PRIVATE, run
            )
            types.append(memref_type.get_element_type())
        if self.rounds_to_tf32:
            if not isinstance(types[0], Float32Type) or types[0] != types[1]:
                raise VerifyException(
                    f"a and b of a tf32 product must hold f32; got {types[0]} "
                    f"and {types[1]}"
                )
        elif not isinstance(types[0], HALF_TYPES) or types[0] != types[1]:
            hint = (
                " (f32 operands take tf32)" if isinstance(types[0], Float32Type) else ""
            )
            raise VerifyException(
                f"a and b must hold one element type, f16 or bf16; got {types[0]} "
                f"and {types[1]}{hint}"
            )
        if not isinstance(types[2], Float32Type):
            raise VerifyException(f"c must hold f32, got {types[2]}")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        memrefs, indices, attributes = _parse_accesses(parser, 3)
        operands: list[SSAValue] = []
        for memref, index_list in zip(memrefs, indices, strict=True):
            operands += [memref, *index_list]
        return cls.build(operands=[operands], attributes=attributes)

    def print(self, printer: Printer) -> None:
        accesses = self.accesses()
        _print_accesses(
            printer,
            self,
            [memref for memref, _ in accesses],
            [indices for _, indices in accesses],
        )


@irdl_op_definition
class CpAsyncOp(IRDLOperation):
    """Starts copying 16 bytes from global to workgroup memory (module doc).

    ```mlir
    mma.cp_async %a[%i, %k], %tile[%r, %c]
        : memref<1024x1024xf16>, memref<128x40xf16, #gpu.address_space<workgroup>>
    ```
    """

    name = "mma.cp_async"

    source = var_operand_def()
    source_indices = var_operand_def(IndexType)
    destination = var_operand_def()
    destination_indices = var_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        source_indices: Sequence[SSAValue],
        destination: SSAValue,
        destination_indices: Sequence[SSAValue],
    ) -> None:
        super().__init__(
            operands=[[source], source_indices, [destination], destination_indices]
        )

    @property
    def element_count(self) -> int:
        """Elements one copy moves (16 bytes of them)."""
        memref_type = _memref(self.destination[0], "destination")
        return ASYNC_COPY_BYTES // (element_bytes(memref_type.get_element_type()) or 1)

    def verify_(self) -> None:
        verify_in_kernel(self)
        destination = _memref(self.destination[0], "destination")
        element = destination.get_element_type()
        size = element_bytes(element)
        if size is None or ASYNC_COPY_BYTES % size:
            raise VerifyException(f"cannot copy elements of type {element}")
        run = ASYNC_COPY_BYTES // size
        source = _check_access(self.source[0], self.source_indices, "source", None, run)
        _check_access(
            self.destination[0],
            self.destination_indices,
            "destination",
            AddressSpace.WORKGROUP,
            run,
        )
        if source.get_element_type() != element:
            raise VerifyException("source and destination must hold one element type")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _parse_two_accesses(cls, parser)

    def print(self, printer: Printer) -> None:
        _print_accesses(
            printer,
            self,
            [self.source[0], self.destination[0]],
            [self.source_indices, self.destination_indices],
        )


@irdl_op_definition
class CpAsyncCommitOp(IRDLOperation):
    """Closes the thread's open group of `mma.cp_async` copies."""

    name = "mma.cp_async_commit"

    assembly_format = "attr-dict"

    def verify_(self) -> None:
        verify_in_kernel(self)


@irdl_op_definition
class CpAsyncWaitOp(IRDLOperation):
    """Waits until at most `pending` committed groups of the thread's
    copies are still in flight."""

    name = "mma.cp_async_wait"

    pending = attr_def(IntegerAttr)

    assembly_format = "attr-dict"

    def __init__(self, pending: int) -> None:
        super().__init__(attributes={"pending": IntegerAttr(pending, i64)})

    @property
    def pending_groups(self) -> int:
        return self.pending.value.data

    def verify_(self) -> None:
        verify_in_kernel(self)
        if not 0 <= self.pending_groups <= 7:
            raise VerifyException(
                f"pending must be in [0, 7] (PTX's cp.async.wait_group), got "
                f"{self.pending_groups}"
            )


MMA = Dialect(
    "mma",
    [LdMatrixOp, SyncOp, CpAsyncOp, CpAsyncCommitOp, CpAsyncWaitOp],
    [],
)
