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
- `mma.cp_async %src[...], %dst[...] [{bytes = B}]` (PTX `cp.async.cg
  .shared.global`, 16 bytes; `cp.async.ca` for 4 or 8, MLIR's
  `nvgpu.device_async_copy` with `dstElements`): starts copying `B` bytes
  (16 when not given) from global to workgroup memory.
  With `valid_bytes %n` (PTX's zero-filling form `cp.async.cg.shared.global
  [dst], [src], 16, n`; MLIR's `srcElements` of `nvgpu.device_async_copy`)
  only the first `n` bytes (0 to `B`, whole elements) are read from the
  source and the rest of the destination's `B` bytes are written as zeros:
  a tile's rows or columns past an operand's edge are copied as zeros.
  The source address must still be a valid one (clamped inside the
  operand) even when `n` is 0.
  `mma.cp_async_commit` closes the thread's open group of copies;
  `mma.cp_async_wait {pending = N}` waits until at most `N` of the thread's
  committed groups are still in flight. The copied elements may be read
  only after the wait (and, by other threads, after a `gpu.barrier`).
- `mma.warpgroup_mma %a[...], %b[...], %acc[...] {n = N[, transpose_b]}`
  (PTX `wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16}`,
  MLIR's `nvgpu.warpgroup.mma`): run by the 128 threads of a warpgroup
  (threads `128 q` to `128 q + 127` of a block) together, each naming the
  same operands. `D += A * B` for a 64x16 `A` and a 16xN `B` that the
  tensor cores read straight from workgroup memory, and a 64xN f32 `D`
  spread over the warpgroup. Both operands are tiles of 128-byte rows (64
  f16/bf16 elements) in the 128-byte swizzled layout (`swizzled_chunk`:
  the 16-byte chunk `c` of row `r` is stored at chunk `c ^ (r % 8)` of its
  row; rows 8-aligned, buffers 1024-byte aligned): `A`'s element `(i, k)`
  is the tile's logical element `(r + i, c + k)` from the named index
  `[..., r, c]` (K-major); `B`'s element `(k, j)` is the tile's logical
  `(r + j, c + k)` (N rows of K, B stored n-major: K-major for the
  instruction), or with `transpose_b` (B stored k-major, the instruction's
  N-major `imm-trans-b`) the element `(r + k, j % 64)` of panel `p + j /
  64` of a tile `[..., panels, rows, 64]` named at `[..., p, r, 0]`.
  With `tf32` (PTX `m64nNk8.f32.tf32.tf32`), A and B hold f32 and the
  product is m64nNk8: a 128-byte row is 32 elements, one instruction reads
  8 of them (32 bytes, as 16 16-bit ones), both operands K-major (PTX has
  no `imm-trans-b` for 32-bit types: no `transpose_b`), and the tensor
  cores read each operand as TF32 by dropping its low 13 mantissa bits
  (toward zero, `irkit.dtypes.truncate_to_tf32`; not `mma.sync {tf32}`'s
  rounding: nothing converts an operand on its way from shared memory). Thread
  `t` of the warpgroup (warp `w = t / 32`, lane `g`, `c` as above) holds
  `N / 2` f32 elements of `D`: element `i` at row `16 w + g + 8 ((i / 2) %
  2)`, column `8 (i / 4) + 2 c + i % 2`. The product is asynchronous: it
  reads its operands and updates `D` at some time before the
  `mma.warpgroup_wait` that retires its group; the accumulators may not be
  touched before then.
- `mma.warpgroup_fence` (`wgmma.fence.sync.aligned`): orders the
  warpgroup's earlier accesses to accumulator registers before the
  products that follow. `mma.warpgroup_commit`
  (`wgmma.commit_group.sync.aligned`) closes the thread's open group of
  products; `mma.warpgroup_wait {pending = N}`
  (`wgmma.wait_group.sync.aligned N`) waits until at most `N` committed
  groups are in flight.
- `mma.tma_load %src[...], %tile[...], %bars[%i] {box = array<i64: R, C>}`
  (PTX `cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx
  ::bytes`, MLIR's `nvgpu.tma.async.load`): one thread starts copying the
  box of `R x C` elements of the global `src` whose first element is at the
  named index (leading box sizes 1) into workgroup memory with the Tensor
  Memory Accelerator, and completes its bytes on mbarrier `%bars[%i]`. The
  box's rows are 128 bytes (`C` elements) and land as the rows of `tile`
  from the named `[..., r, 0]` on, in the 128-byte swizzled layout
  `warpgroup_mma` reads (`swizzled_chunk`; the tile 1024-byte aligned).
  Elements outside `src` land as zeros. The printer passes `src` to the
  kernel as a tensor map too (a `__grid_constant__` `CUtensorMap` the
  runtime encodes from the buffer's address, `docs/runtime.md`).
- `mma.mbarrier_init %bars[%i] {count = N}` (PTX `mbarrier.init.shared
  ::cta.b64`, MLIR's `nvgpu.mbarrier.init`): one thread makes the i64 of
  workgroup memory at `%bars[%i]` a barrier whose phases complete after `N`
  arrivals and every byte they expect. `mma.mbarrier_arrive_expect_tx
  %bars[%i] {bytes = B}` (`mbarrier.arrive.expect_tx`): the thread
  arrives and the phase expects `B` more bytes (of `tma_load`s).
  `mma.mbarrier_wait %bars[%i], %parity` (`mbarrier.try_wait.parity` in a
  loop): waits until the phase of parity `%parity` (0 or 1, as an index)
  completed; the bytes of its `tma_load`s are then in workgroup memory for
  the waiting thread (for the others, after a `gpu.barrier`).
- `mma.fence_proxy_async` (`fence.proxy.async.shared::cta`, MLIR's
  `nvvm.fence.proxy`): makes the thread's earlier writes to workgroup
  memory (by `mma.cp_async` and stores, the generic proxy) visible to the
  tensor cores' reads of `mma.warpgroup_mma` (the async proxy), once a
  barrier follows.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, Self, TypeVar

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
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
    opt_operand_def,
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

# Warpgroup products (`warpgroup_mma`): four warps together, m64nNk16 for
# 16-bit operands, m64nNk8 for TF32, N a multiple of 8 up to 256: one
# product reads 32 bytes of each operand row, whatever the element.
WARPGROUP_THREADS = 128
WARPGROUP_M = 64
WARPGROUP_K = 16
TF32_WARPGROUP_K = 8
WARPGROUP_K_BYTES = 32
WARPGROUP_N_STEP = 8
WARPGROUP_MAX_N = 256

# The 128-byte swizzle of `warpgroup_mma`'s operand tiles: rows of 128
# bytes, each made of eight 16-byte chunks, permuted within atoms of 8 rows
# (1024 bytes, which must be 1024-byte aligned: the hardware swizzles
# address bits 4-6 by bits 7-9).
SWIZZLE_ROW_BYTES = 128
SWIZZLE_CHUNK_BYTES = 16
SWIZZLE_ROWS = 8
SWIZZLE_ATOM_BYTES = SWIZZLE_ROW_BYTES * SWIZZLE_ROWS


def swizzled_chunk(
    row: Any,
    chunk: Any,
    xor: Callable[[Any, Any], Any] = operator.xor,
    rem: Callable[[Any, int], Any] = operator.mod,
) -> Any:
    """Where the 16-byte chunk `chunk` of row `row` of a 128-byte swizzled
    tile is stored in that row: chunk `chunk ^ (row % 8)` (PTX ISA, "Shared
    Memory Matrix Layout", 128B swizzle). The one definition of the layout:
    the kernel's copies (which pass IR builders as `xor` and `rem`), the
    grid emulator (integers, NumPy arrays) and the descriptors
    (`SWIZZLE_128B_MODE`) all follow it."""
    return xor(chunk, rem(row, SWIZZLE_ROWS))


def warpgroup_k(element: Attribute) -> int:
    """K of one warpgroup product of `element` operands: the elements in
    `WARPGROUP_K_BYTES` (16 for f16/bf16, 8 for f32 read as TF32)."""
    return WARPGROUP_K_BYTES // (element_bytes(element) or 1)


# The sizes `cp_async` copies (PTX's cp-size); 16 is the default.
ASYNC_COPY_SIZES = (4, 8, 16)


def warpgroup_accumulator_count(n: int) -> int:
    """f32 elements of an m64nN `D` each of the warpgroup's threads holds."""
    return WARPGROUP_M * n // WARPGROUP_THREADS


# wgmma's 64-bit shared-memory matrix descriptor (PTX ISA, "Matrix
# Descriptor Format"): bits 0-13 the start address >> 4 (the address is
# 18 bits: `DESCRIPTOR_ADDRESS_MASK`), 16-29 the leading dimension byte
# offset >> 4, 32-45 the stride dimension byte offset >> 4, 49-51 the base
# offset (0: every atom is 1024-byte aligned), 62-63 the swizzle mode (1:
# 128-byte swizzle on sm_90).
DESCRIPTOR_ADDRESS_MASK = 0x3FFFF
SWIZZLE_128B_MODE = 1


def matrix_descriptor_bits(leading_byte_offset: int, stride_byte_offset: int) -> int:
    """Every bit of a 128-byte swizzled operand's descriptor but its start
    address, which the printer ORs in (`(address & DESCRIPTOR_ADDRESS_MASK)
    >> 4`)."""
    return (
        ((leading_byte_offset >> 4) & 0x3FFF) << 16
        | ((stride_byte_offset >> 4) & 0x3FFF) << 32
        | SWIZZLE_128B_MODE << 62
    )


def mn_major_descriptor_offsets(panel_bytes: int) -> tuple[int, int]:
    """(leading, stride) byte offsets of an N-major (`transpose_b`) operand
    of 64-element panels `panel_bytes` apart: the leading offset steps from
    one 64-element panel to the next along N, the stride offset from one
    8-row atom to the next along K (the PTX ISA's canonical MN-major
    128-byte swizzled layout, CUTLASS's too: `((T, 8, m), (8, k)) : ((1, T,
    LBO), (8T, SBO))`). The one place to swap them should the hardware read
    them the other way round (`benchmarks/wgmma.py --mn-offsets both`)."""
    return panel_bytes, SWIZZLE_ATOM_BYTES


def operand_descriptor_bits(tile: MemRefType[Attribute], transposed: bool) -> int:
    """The descriptor bits (address aside) of a `warpgroup_mma` operand in
    `tile`: K-major (A, an n-major B), the stride offset steps over 8-row
    atoms and the leading one is unused by the swizzled layout (16 bytes,
    as CUTLASS writes it); N-major (`transpose_b`), `mn_major_descriptor_
    offsets` of the tile's panels."""
    if not transposed:
        return matrix_descriptor_bits(SWIZZLE_CHUNK_BYTES, SWIZZLE_ATOM_BYTES)
    rows = tile.get_shape()[-2]
    leading, stride = mn_major_descriptor_offsets(rows * SWIZZLE_ROW_BYTES)
    return matrix_descriptor_bits(leading, stride)


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


def _three_accesses(
    operands: Sequence[SSAValue], message: str
) -> list[tuple[SSAValue, list[SSAValue]]]:
    """(memref, indices) of a, b and c from one operand list, each memref
    followed by one index per dimension."""
    found: list[tuple[SSAValue, list[SSAValue]]] = []
    values = list(operands)
    position = 0
    for _ in range(3):
        if position >= len(values):
            raise VerifyException(f"{message}: a, b and c")
        memref = values[position]
        rank = _memref(memref, "operand").get_num_dims()
        found.append((memref, values[position + 1 : position + 1 + rank]))
        position += 1 + rank
    if position != len(values):
        raise VerifyException(f"{message}: a, b and c")
    return found


def _flatten(accesses: Sequence[tuple[SSAValue, Sequence[SSAValue]]]) -> list[SSAValue]:
    operands: list[SSAValue] = []
    for memref, indices in accesses:
        operands += [memref, *indices]
    return operands


def _parse_three_accesses(
    parser: Parser,
) -> tuple[list[SSAValue], dict[str, Attribute]]:
    """The operands (memref, then its indices, three times) and attributes
    of a product op (`mma.sync`, `mma.warpgroup_mma`)."""
    memrefs, indices, attributes = _parse_accesses(parser, 3)
    return _flatten(list(zip(memrefs, indices, strict=True))), attributes


def _print_three_accesses(
    printer: Printer,
    op: IRDLOperation,
    accesses: Sequence[tuple[SSAValue, Sequence[SSAValue]]],
) -> None:
    _print_accesses(
        printer,
        op,
        [memref for memref, _ in accesses],
        [indices for _, indices in accesses],
    )


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
        return _three_accesses(self.operands_, "mma.sync takes three fragments")

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
        operands, attributes = _parse_three_accesses(parser)
        return cls.build(operands=[operands], attributes=attributes)

    def print(self, printer: Printer) -> None:
        _print_three_accesses(printer, self, self.accesses())


@irdl_op_definition
class CpAsyncOp(IRDLOperation):
    """Starts copying `bytes` (16 when not given; 4 or 8) from global to
    workgroup memory; with `valid_bytes`, only that many are read and the
    rest written as zeros (module doc).

    ```mlir
    mma.cp_async %a[%i, %k], %tile[%r, %c]
        : memref<1024x1024xf16>, memref<128x40xf16, #gpu.address_space<workgroup>>
    mma.cp_async %b[%k, %n], %tile[%s, %n, %kk] {bytes = 4 : i64}
        : memref<512x512xf32>, memref<4x256x32xf32, #gpu.address_space<workgroup>>
    mma.cp_async %a[%i, %k], %tile[%r, %c] valid_bytes %n
        : memref<1000x1000xf16>, memref<128x40xf16, #gpu.address_space<workgroup>>
    ```
    """

    name = "mma.cp_async"

    source = var_operand_def()
    source_indices = var_operand_def(IndexType)
    destination = var_operand_def()
    destination_indices = var_operand_def(IndexType)
    # The bytes read from the source (the rest zero-filled); none: all.
    valid_bytes = opt_operand_def(IndexType)
    bytes = opt_attr_def(IntegerAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        source_indices: Sequence[SSAValue],
        destination: SSAValue,
        destination_indices: Sequence[SSAValue],
        size: int = ASYNC_COPY_BYTES,
        valid_bytes: SSAValue | None = None,
    ) -> None:
        attributes: dict[str, Attribute] = {}
        if size != ASYNC_COPY_BYTES:
            attributes["bytes"] = IntegerAttr(size, i64)
        super().__init__(
            operands=[
                [source],
                source_indices,
                [destination],
                destination_indices,
                [] if valid_bytes is None else [valid_bytes],
            ],
            attributes=attributes,
        )

    @property
    def copy_bytes(self) -> int:
        """Bytes one copy moves."""
        return ASYNC_COPY_BYTES if self.bytes is None else self.bytes.value.data

    @property
    def element_count(self) -> int:
        """Elements one copy moves (`copy_bytes` of them)."""
        memref_type = _memref(self.destination[0], "destination")
        return self.copy_bytes // (element_bytes(memref_type.get_element_type()) or 1)

    def verify_(self) -> None:
        verify_in_kernel(self)
        if self.copy_bytes not in ASYNC_COPY_SIZES:
            raise VerifyException(
                f"bytes must be 4, 8 or 16 (PTX's cp.async sizes), got "
                f"{self.copy_bytes}"
            )
        destination = _memref(self.destination[0], "destination")
        element = destination.get_element_type()
        size = element_bytes(element)
        if size is None or self.copy_bytes % size:
            raise VerifyException(
                f"cannot copy elements of type {element} by {self.copy_bytes} bytes"
            )
        run = self.copy_bytes // size
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
        self._verify_valid_bytes(size)

    def _verify_valid_bytes(self, element_size: int) -> None:
        """A constant `valid_bytes` lies in [0, copy_bytes] and counts whole
        elements (a computed one is checked by the emulator as it runs)."""
        if self.valid_bytes is None:
            return
        owner = self.valid_bytes.owner
        if not isinstance(owner, ConstantOp) or not isinstance(
            owner.value, IntegerAttr
        ):
            return
        valid = owner.value.value.data
        if not 0 <= valid <= self.copy_bytes or valid % element_size:
            raise VerifyException(
                f"valid_bytes must be whole elements of {element_size} bytes from 0 "
                f"to the {self.copy_bytes} copied, got {valid}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        source, source_indices = _parse_indexed(parser)
        parser.parse_punctuation(",")
        destination, destination_indices = _parse_indexed(parser)
        valid = None
        if parser.parse_optional_keyword("valid_bytes") is not None:
            valid = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation(",")
        destination_type = parser.parse_type()

        def indices(unresolved: list[UnresolvedOperand]) -> list[SSAValue]:
            return list(
                parser.resolve_operands(
                    unresolved, [IndexType()] * len(unresolved), pos
                )
            )

        return cls.build(
            operands=[
                [parser.resolve_operand(source, source_type)],
                indices(source_indices),
                [parser.resolve_operand(destination, destination_type)],
                indices(destination_indices),
                [] if valid is None else [parser.resolve_operand(valid, IndexType())],
            ],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        for position, (memref, index_list) in enumerate(
            [
                (self.source[0], self.source_indices),
                (self.destination[0], self.destination_indices),
            ]
        ):
            if position:
                printer.print_string(", ")
            printer.print_ssa_value(memref)
            with printer.in_square_brackets():
                printer.print_list(index_list, printer.print_ssa_value)
        if self.valid_bytes is not None:
            printer.print_string(" valid_bytes ")
            printer.print_ssa_value(self.valid_bytes)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(
            [self.source[0].type, self.destination[0].type], printer.print_attribute
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


@irdl_op_definition
class WarpgroupMmaOp(IRDLOperation):
    """`D += A * B` of one m64nNk16 warpgroup product (m64nNk8 of f32
    operands read as TF32 with `tf32`), A and B read from 128-byte swizzled
    tiles in workgroup memory, D in the warpgroup's private fragments (see
    the module doc).

    ```mlir
    mma.warpgroup_mma %a_tiles[%s, %row, %c16], %b_tiles[%s, %c0, %c16],
        %acc[%c0] {n = 128 : i64}
        : memref<4x128x64xf16, #gpu.address_space<workgroup>>,
          memref<4x128x64xf16, #gpu.address_space<workgroup>>,
          memref<64xf32, #gpu.address_space<private>>
    mma.warpgroup_mma %a_tiles[%s, %row, %c8], %b_tiles[%s, %c0, %c8],
        %acc[%c0] {n = 256 : i64, tf32}
        : memref<4x128x32xf32, #gpu.address_space<workgroup>>,
          memref<4x256x32xf32, #gpu.address_space<workgroup>>,
          memref<128xf32, #gpu.address_space<private>>
    ```
    """

    name = "mma.warpgroup_mma"

    operands_ = var_operand_def()
    n = attr_def(IntegerAttr)
    transpose_b = opt_attr_def(UnitAttr)
    tf32 = opt_attr_def(UnitAttr)

    def __init__(
        self,
        accesses: Sequence[tuple[SSAValue, Sequence[SSAValue]]],
        n: int,
        transpose_b: bool = False,
        tf32: bool = False,
    ) -> None:
        if len(accesses) != 3:
            raise ValueError("mma.warpgroup_mma takes three operands: a, b and d")
        attributes: dict[str, Attribute] = {"n": IntegerAttr(n, i64)}
        if transpose_b:
            attributes["transpose_b"] = UnitAttr()
        if tf32:
            attributes["tf32"] = UnitAttr()
        super().__init__(operands=[_flatten(accesses)], attributes=attributes)

    @property
    def reads_tf32(self) -> bool:
        """f32 operands read as TF32 (m64nNk8)."""
        return self.tf32 is not None

    @property
    def depth(self) -> int:
        """K of the instruction: 16, or 8 with `tf32`."""
        return TF32_WARPGROUP_K if self.reads_tf32 else WARPGROUP_K

    @property
    def columns(self) -> int:
        """N of the instruction."""
        return self.n.value.data

    @property
    def b_transposed(self) -> bool:
        """B stored k-major: the instruction's N-major B (`imm-trans-b`)."""
        return self.transpose_b is not None

    def accesses(self) -> list[tuple[SSAValue, list[SSAValue]]]:
        """(memref, indices) of a, b and d."""
        return _three_accesses(self.operands_, "mma.warpgroup_mma takes three operands")

    def verify_(self) -> None:
        verify_in_kernel(self)
        n = self.columns
        if not (WARPGROUP_N_STEP <= n <= WARPGROUP_MAX_N and n % WARPGROUP_N_STEP == 0):
            raise VerifyException(
                f"n must be a multiple of {WARPGROUP_N_STEP} in [{WARPGROUP_N_STEP}, "
                f"{WARPGROUP_MAX_N}], got {n}"
            )
        if self.reads_tf32 and self.b_transposed:
            raise VerifyException(
                "a tf32 product takes no transpose_b: PTX transposes only 16-bit "
                "operands, so B must be K-major"
            )
        (a, a_at), (b, b_at), (d, d_at) = self.accesses()
        elements: list[Attribute] = []
        for memref, indices, what, min_rank in (
            (a, a_at, "a", 2),
            (b, b_at, "b", 3 if self.b_transposed else 2),
        ):
            tile = _check_access(
                memref, indices, what, AddressSpace.WORKGROUP, self.depth
            )
            element = tile.get_element_type()
            if self.reads_tf32 and not isinstance(element, Float32Type):
                raise VerifyException(
                    f"{what} of a tf32 product must hold f32, got {tile}"
                )
            if not self.reads_tf32 and not isinstance(element, HALF_TYPES):
                hint = " (f32 operands take tf32)" if element == Float32Type() else ""
                raise VerifyException(f"{what} must hold f16 or bf16, got {tile}{hint}")
            if tile.get_num_dims() < min_rank or (
                tile.get_shape()[-1] * (element_bytes(element) or 0)
                != SWIZZLE_ROW_BYTES
            ):
                panels = " in panels" if min_rank == 3 else ""
                raise VerifyException(
                    f"{what} must be a tile of {SWIZZLE_ROW_BYTES}-byte rows{panels} "
                    f"(the 128-byte swizzled layout), got {tile}"
                )
            elements.append(element)
        if elements[0] != elements[1]:
            raise VerifyException(
                f"a and b must hold one element type; got {elements[0]} and "
                f"{elements[1]}"
            )
        accumulators = _check_access(
            d, d_at, "d", AddressSpace.PRIVATE, warpgroup_accumulator_count(n)
        )
        if not isinstance(accumulators.get_element_type(), Float32Type):
            raise VerifyException(f"d must hold f32, got {accumulators}")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands, attributes = _parse_three_accesses(parser)
        return cls.build(operands=[operands], attributes=attributes)

    def print(self, printer: Printer) -> None:
        _print_three_accesses(printer, self, self.accesses())


@irdl_op_definition
class WarpgroupFenceOp(IRDLOperation):
    """Orders the warpgroup's accesses to its accumulators before the
    `mma.warpgroup_mma` products that follow (`wgmma.fence`)."""

    name = "mma.warpgroup_fence"

    assembly_format = "attr-dict"

    def verify_(self) -> None:
        verify_in_kernel(self)


@irdl_op_definition
class WarpgroupCommitOp(IRDLOperation):
    """Closes the thread's open group of `mma.warpgroup_mma` products."""

    name = "mma.warpgroup_commit"

    assembly_format = "attr-dict"

    def verify_(self) -> None:
        verify_in_kernel(self)


@irdl_op_definition
class WarpgroupWaitOp(IRDLOperation):
    """Waits until at most `pending` committed groups of the thread's
    `mma.warpgroup_mma` products are still in flight; the others' results
    are in the accumulators then. `accumulators` names the private buffers
    the products write: nothing may read or write them across the wait in
    either direction (the printer ties their registers to the instruction,
    as CUTLASS's `warpgroup_fence_operand` does).

    ```mlir
    mma.warpgroup_wait %acc {pending = 0 : i64}
        : memref<64xf32, #gpu.address_space<private>>
    ```
    """

    name = "mma.warpgroup_wait"

    accumulators = var_operand_def()
    pending = attr_def(IntegerAttr)

    assembly_format = "$accumulators attr-dict (`:` type($accumulators)^)?"

    def __init__(self, pending: int, accumulators: Sequence[SSAValue] = ()) -> None:
        super().__init__(
            operands=[list(accumulators)],
            attributes={"pending": IntegerAttr(pending, i64)},
        )

    @property
    def pending_groups(self) -> int:
        return self.pending.value.data

    def verify_(self) -> None:
        verify_in_kernel(self)
        for accumulator in self.accumulators:
            memref_type = _memref(accumulator, "accumulators")
            if (
                address_space_of(memref_type) != AddressSpace.PRIVATE
                or not memref_type.has_static_shape()
                or not isinstance(memref_type.get_element_type(), Float32Type)
            ):
                raise VerifyException(
                    f"accumulators must be static private f32 buffers, got "
                    f"{memref_type}"
                )
        if not 0 <= self.pending_groups <= 7:
            raise VerifyException(
                f"pending must be in [0, 7] (PTX's wgmma.wait_group), got "
                f"{self.pending_groups}"
            )


def _check_barrier(
    value: SSAValue, indices: Sequence[SSAValue]
) -> MemRefType[Attribute]:
    """An i64 of workgroup memory named by one index per dimension."""
    memref_type = _check_access(value, indices, "barrier", AddressSpace.WORKGROUP, 1)
    element = memref_type.get_element_type()
    if not (isinstance(element, IntegerType) and element.width.data == 64):
        raise VerifyException(f"barrier must hold i64 mbarriers, got {memref_type}")
    return memref_type


# PTX's limits: an mbarrier counts at most 2^20 - 1 arrivals and bytes.
MBARRIER_MAX_COUNT = (1 << 20) - 1
# A tensor map's box: at most 256 elements along each dimension; the
# strides of its global array: multiples of 16 bytes.
TMA_MAX_BOX = 256
TMA_STRIDE_BYTES = 16


def _check_count(value: int, what: str) -> None:
    if not 0 < value <= MBARRIER_MAX_COUNT:
        raise VerifyException(
            f"{what} must be in [1, {MBARRIER_MAX_COUNT}] (PTX's mbarrier), got {value}"
        )


class _BarrierOp(IRDLOperation):
    """An op naming one mbarrier, `%bars[%i]`, and an attribute."""

    barriers = var_operand_def()
    barrier_indices = var_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        memrefs, indices, attributes = _parse_accesses(parser, 1)
        return cls.build(operands=[[memrefs[0]], indices[0]], attributes=attributes)

    def print(self, printer: Printer) -> None:
        _print_accesses(printer, self, [self.barriers[0]], [self.barrier_indices])

    def verify_(self) -> None:
        verify_in_kernel(self)
        if len(self.barriers) != 1:
            raise VerifyException("names one barrier memref")
        _check_barrier(self.barriers[0], self.barrier_indices)


@irdl_op_definition
class MbarrierInitOp(_BarrierOp):
    """Makes `%bars[%i]` an mbarrier whose phases complete after `count`
    arrivals (and the bytes they expect); run by one thread, before a
    `gpu.barrier` that publishes it.

    ```mlir
    mma.mbarrier_init %bars[%s] {count = 1 : i64}
        : memref<4xi64, #gpu.address_space<workgroup>>
    ```
    """

    name = "mma.mbarrier_init"

    count = attr_def(IntegerAttr)

    def __init__(self, barriers: SSAValue, indices: Sequence[SSAValue], count: int):
        super().__init__(
            operands=[[barriers], list(indices)],
            attributes={"count": IntegerAttr(count, i64)},
        )

    @property
    def arrivals(self) -> int:
        return self.count.value.data

    def verify_(self) -> None:
        super().verify_()
        _check_count(self.arrivals, "count")


@irdl_op_definition
class MbarrierArriveExpectTxOp(_BarrierOp):
    """The thread arrives on `%bars[%i]`, whose phase then also waits for
    `bytes` more bytes of `mma.tma_load`s.

    ```mlir
    mma.mbarrier_arrive_expect_tx %bars[%s] {bytes = 49152 : i64}
        : memref<4xi64, #gpu.address_space<workgroup>>
    ```
    """

    name = "mma.mbarrier_arrive_expect_tx"

    bytes = attr_def(IntegerAttr)

    def __init__(
        self, barriers: SSAValue, indices: Sequence[SSAValue], expected_bytes: int
    ):
        super().__init__(
            operands=[[barriers], list(indices)],
            attributes={"bytes": IntegerAttr(expected_bytes, i64)},
        )

    @property
    def expected_bytes(self) -> int:
        return self.bytes.value.data

    def verify_(self) -> None:
        super().verify_()
        _check_count(self.expected_bytes, "bytes")


@irdl_op_definition
class MbarrierWaitOp(IRDLOperation):
    """Waits until the phase of parity `parity` (0 or 1) of `%bars[%i]`
    completed: its arrivals came and its `mma.tma_load`s landed.

    ```mlir
    mma.mbarrier_wait %bars[%s], %parity
        : memref<4xi64, #gpu.address_space<workgroup>>
    ```
    """

    name = "mma.mbarrier_wait"

    barriers = var_operand_def()
    barrier_indices = var_operand_def(IndexType)
    parity = var_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self, barriers: SSAValue, indices: Sequence[SSAValue], parity: SSAValue
    ) -> None:
        super().__init__(operands=[[barriers], list(indices), [parity]])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        memref, index_list = _parse_indexed(parser)
        parser.parse_punctuation(",")
        parity = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        return cls.build(
            operands=[
                [parser.resolve_operand(memref, memref_type)],
                parser.resolve_operands(
                    index_list, [IndexType()] * len(index_list), pos
                ),
                [parser.resolve_operand(parity, IndexType())],
            ],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.barriers[0])
        with printer.in_square_brackets():
            printer.print_list(self.barrier_indices, printer.print_ssa_value)
        printer.print_string(", ")
        printer.print_ssa_value(self.parity[0])
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers[0].type)

    def verify_(self) -> None:
        verify_in_kernel(self)
        if len(self.barriers) != 1 or len(self.parity) != 1:
            raise VerifyException("names one barrier memref and one parity")
        _check_barrier(self.barriers[0], self.barrier_indices)


@irdl_op_definition
class TmaLoadOp(IRDLOperation):
    """Starts copying a box of global memory into a 128-byte swizzled tile
    of workgroup memory with the Tensor Memory Accelerator, completing its
    bytes on an mbarrier (see the module doc).

    ```mlir
    mma.tma_load %a[%m0, %k0], %a_tiles[%s, %c0, %c0], %bars[%s]
        {box = array<i64: 128, 64>}
        : memref<4096x4096xf16>, memref<4x128x64xf16, #gpu.address_space<workgroup>>,
          memref<4xi64, #gpu.address_space<workgroup>>
    ```
    """

    name = "mma.tma_load"

    source = var_operand_def()
    source_indices = var_operand_def(IndexType)
    destination = var_operand_def()
    destination_indices = var_operand_def(IndexType)
    barriers = var_operand_def()
    barrier_indices = var_operand_def(IndexType)
    box = attr_def(DenseArrayBase)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        source_indices: Sequence[SSAValue],
        destination: SSAValue,
        destination_indices: Sequence[SSAValue],
        barriers: SSAValue,
        barrier_indices: Sequence[SSAValue],
        box: Sequence[int],
    ) -> None:
        super().__init__(
            operands=[
                [source],
                list(source_indices),
                [destination],
                list(destination_indices),
                [barriers],
                list(barrier_indices),
            ],
            attributes={"box": DenseArrayBase.from_list(i64, list(box))},
        )

    @property
    def box_shape(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.box.get_values())

    @property
    def copy_bytes(self) -> int:
        """Bytes the copy completes on its barrier."""
        element = _memref(self.destination[0], "destination").get_element_type()
        count = 1
        for size in self.box_shape:
            count *= size
        return count * (element_bytes(element) or 1)

    def verify_(self) -> None:
        verify_in_kernel(self)
        if not (len(self.source) == len(self.destination) == len(self.barriers) == 1):
            raise VerifyException("names one source, destination and barrier")
        box = self.box_shape
        source = _check_access(self.source[0], self.source_indices, "source", None, 1)
        if len(box) != source.get_num_dims() or len(box) < 2:
            raise VerifyException(
                f"box must have one size per source dimension (at least 2), got "
                f"{list(box)} for {source}"
            )
        if any(size != 1 for size in box[:-2]) or not all(
            0 < size <= TMA_MAX_BOX for size in box[-2:]
        ):
            raise VerifyException(
                f"box must be rows x columns of at most {TMA_MAX_BOX} each "
                f"(leading sizes 1), got {list(box)}"
            )
        element = source.get_element_type()
        if box[-1] * (element_bytes(element) or 0) != SWIZZLE_ROW_BYTES:
            raise VerifyException(
                f"box rows must be {SWIZZLE_ROW_BYTES} bytes (the swizzled "
                f"layout's rows), got {box[-1]} elements of {element}"
            )
        destination = _check_access(
            self.destination[0],
            self.destination_indices,
            "destination",
            AddressSpace.WORKGROUP,
            box[-1],
        )
        shape = destination.get_shape()
        if len(shape) < 2 or shape[-1] != box[-1] or 0 <= shape[-2] < box[-2]:
            raise VerifyException(
                f"destination must be rows of {box[-1]} elements, at least "
                f"{box[-2]} of them, got {destination}"
            )
        if destination.get_element_type() != element:
            raise VerifyException("source and destination must hold one element type")
        _check_barrier(self.barriers[0], self.barrier_indices)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        memrefs, indices, attributes = _parse_accesses(parser, 3)
        return cls.build(
            operands=[
                [memrefs[0]],
                indices[0],
                [memrefs[1]],
                indices[1],
                [memrefs[2]],
                indices[2],
            ],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _print_accesses(
            printer,
            self,
            [self.source[0], self.destination[0], self.barriers[0]],
            [self.source_indices, self.destination_indices, self.barrier_indices],
        )


@irdl_op_definition
class FenceProxyAsyncOp(IRDLOperation):
    """Makes the thread's earlier writes to workgroup memory visible to the
    tensor cores' reads of `mma.warpgroup_mma` once a barrier follows
    (`fence.proxy.async.shared::cta`)."""

    name = "mma.fence_proxy_async"

    assembly_format = "attr-dict"

    def verify_(self) -> None:
        verify_in_kernel(self)


MMA = Dialect(
    "mma",
    [
        LdMatrixOp,
        SyncOp,
        CpAsyncOp,
        CpAsyncCommitOp,
        CpAsyncWaitOp,
        WarpgroupMmaOp,
        WarpgroupFenceOp,
        WarpgroupCommitOp,
        WarpgroupWaitOp,
        FenceProxyAsyncOp,
        MbarrierInitOp,
        MbarrierArriveExpectTxOp,
        MbarrierWaitOp,
        TmaLoadOp,
    ],
    [],
)
