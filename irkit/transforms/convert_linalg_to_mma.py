"""`convert-linalg-to-mma`: half-precision matmuls on tensor cores.

A matmul-class `linalg.generic` on buffers (`irkit.analysis.structured.
is_contraction`) whose operands are f16 or bf16 and whose accumulator is
f32, as torch-mlir writes `torch.mm` in half precision (`arith.extf` of each
operand in the body), becomes one `gpu.launch` whose warps multiply on
tensor cores with the `mma` dialect (`irkit/dialects/mma.py`):

- the grid: one block per `BM x BN` output tile (x along N, y along M, z
  over the batch loops, which may be several: z is split back into them);
  256 threads, 8 warps as 2 x 4, each warp owning a `BM/2 x BN/4` tile made
  of 16x8 products;
- operand tiles of `BK` steps of the reduction are copied from global to
  workgroup memory with `mma.cp_async` (16 bytes a thread), `stages`
  buffers deep, so the copies for step `k + stages - 1` run while step `k`
  multiplies (`mma.cp_async_wait` + `gpu.barrier` before a step's reads);
  rows are padded by 8 elements (16 bytes) so that the eight row addresses
  of an `ldmatrix` fall in distinct banks;
- each warp loads its fragments with `mma.ldmatrix` (`transpose` for a B
  stored k-major, plain for a B stored n-major, as a transposed `nn.Linear`
  weight is) and multiplies with `mma.sync`, its accumulators in private
  memory (registers: every index is a constant, the code is unrolled here);
- the output's fill before the matmul (`irkit.analysis.contraction_fusion.
  fusable_prologue`, a fill of a value) initialises the accumulators and is
  erased; without one, the accumulators start from the output's elements.

**Contract.** The rewrite computes `C[b, m, n] += sum_k A[b, m, k] B[b, k,
n]` (B's map may also be `(n, k)`; A and B may lack batch dimensions, which
they then share) with products exact and sums in f32, in another order than
the loop nest: the result differs from the interpreter's sequential f32 sum
by rounding only. It applies only where every operand is a memref of static
shape with the identity layout, `M % BM == N % BN == K % BK == 0` (BM and BN
are halved down to 64 to divide the extents or to fill `multiprocessors`,
BK is 32 or 16), so every copy and fragment is whole: a matmul it cannot
take is left alone for `linalg-tile-for-gpu`'s SIMT kernels
(`lower-to-cuda` pads extents first, `linalg-pad-contractions`). Options are
checked: `block` takes three sizes, multiples of (64, 64, 16); `stages` is
2 to 4.

MLIR builds the same kernels from `nvgpu` ops through vector distribution
(`mlir/lib/Dialect/NVGPU/TransformOps`, IREE's `LLVMGPUTensorCore`
pipeline); here the kernel is built directly from the structured op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.contraction_fusion import fusable_prologue
from irkit.analysis.structured import is_contraction, shaped_inputs
from irkit.dialects import memref
from irkit.dialects.gpu import (
    BarrierOp,
    LaunchOp,
    TerminatorOp,
    private_memory_space,
    workgroup_memory_space,
)
from irkit.dialects.mma import (
    A_FRAGMENT,
    B_FRAGMENT,
    C_FRAGMENT,
    CpAsyncCommitOp,
    CpAsyncOp,
    CpAsyncWaitOp,
    LdMatrixOp,
    SyncOp,
)
from irkit.dialects.scf import ForOp, IfOp

PASS_NAME = "convert-linalg-to-mma"

WARPS = (2, 4)  # along M, along N
THREADS = 32 * WARPS[0] * WARPS[1]
# Elements each shared row is padded by: 16 bytes of f16/bf16.
ROW_PAD = 8
CHUNK = 8  # elements per 16-byte copy


@dataclass(frozen=True)
class MatmulShape:
    """What the kernel needs to know of one matmul-class generic."""

    generic: GenericOp
    a: SSAValue
    b: SSAValue
    c: SSAValue
    element: Attribute
    batch: tuple[int, ...]  # extents of the batch loops
    m: int
    n: int
    k: int
    # For each operand, the batch loops (positions in `batch`) its leading
    # dimensions are indexed by.
    a_batch: tuple[int, ...]
    b_batch: tuple[int, ...]
    b_k_major: bool  # B stored as (k, n); else (n, k)


def _loop(expr: object) -> int | None:
    return expr.position if isinstance(expr, AffineDimExpr) else None


def match_matmul(op: GenericOp) -> MatmulShape | None:  # noqa: C901 (one check a line)
    """The matmul a generic is, when this pass can run it on tensor cores."""
    if not is_contraction(op) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    operands = [*op.inputs, *op.outputs]
    types = [value.type for value in operands]
    if not all(
        isinstance(t, MemRefType)
        and t.has_static_shape()
        and isinstance(t.layout, NoneAttr)
        and t.memory_space == NoneAttr()
        for t in types
    ):
        return None
    a_type, b_type, c_type = types
    assert isinstance(a_type, MemRefType)
    assert isinstance(b_type, MemRefType)
    assert isinstance(c_type, MemRefType)
    element = a_type.get_element_type()
    if not isinstance(element, Float16Type | BFloat16Type):
        return None
    if b_type.get_element_type() != element:
        return None
    if not isinstance(c_type.get_element_type(), Float32Type):
        return None
    kinds = [kind.data for kind in op.get_iterator_types()]
    reductions = [i for i, kind in enumerate(kinds) if kind == IteratorType.REDUCTION]
    if len(reductions) != 1:
        return None
    (k_loop,) = reductions
    maps = [attr.data for attr in op.indexing_maps]
    loops = [[_loop(expr) for expr in m.results] for m in maps]
    if any(None in results for results in loops):
        return None
    a_loops, b_loops, c_loops = (list(map(int, results)) for results in loops)  # type: ignore[arg-type]
    if len(c_loops) < 2 or k_loop in c_loops:
        return None
    *batch_loops, m_loop, n_loop = c_loops
    if sorted([*c_loops, k_loop]) != list(range(len(kinds))):
        return None
    if a_loops[-2:] != [m_loop, k_loop]:
        return None
    if b_loops[-2:] == [k_loop, n_loop]:
        b_k_major = True
    elif b_loops[-2:] == [n_loop, k_loop]:
        b_k_major = False
    else:
        return None
    a_batch = a_loops[:-2]
    b_batch = b_loops[:-2]
    for leading in (a_batch, b_batch):
        if any(loop not in batch_loops for loop in leading):
            return None
        positions = [batch_loops.index(loop) for loop in leading]
        if positions != sorted(positions):
            return None
    c_shape = c_type.get_shape()
    return MatmulShape(
        generic=op,
        a=op.inputs[0],
        b=op.inputs[1],
        c=op.outputs[0],
        element=element,
        batch=tuple(c_shape[:-2]),
        m=c_shape[-2],
        n=c_shape[-1],
        k=a_type.get_shape()[-1],
        a_batch=tuple(batch_loops.index(loop) for loop in a_batch),
        b_batch=tuple(batch_loops.index(loop) for loop in b_batch),
        b_k_major=b_k_major,
    )


@dataclass(frozen=True)
class MmaTiles:
    block_m: int
    block_n: int
    block_k: int
    stages: int

    @property
    def warp_m(self) -> int:
        return self.block_m // WARPS[0]

    @property
    def warp_n(self) -> int:
        return self.block_n // WARPS[1]

    @property
    def fragments_m(self) -> int:
        return self.warp_m // 16

    @property
    def fragments_n(self) -> int:
        return self.warp_n // 8


def choose_tiles(
    shape: MatmulShape, block: Sequence[int], stages: int, multiprocessors: int
) -> MmaTiles | None:
    """Tiles dividing the extents, smaller where the grid would leave
    multiprocessors idle; None when no tile of at least 64x64x16 divides."""
    block_m, block_n, block_k = block
    while block_m > 64 and shape.m % block_m:
        block_m //= 2
    while block_n > 64 and shape.n % block_n:
        block_n //= 2
    while block_k > 16 and shape.k % block_k:
        block_k //= 2
    if shape.m % block_m or shape.n % block_n or shape.k % block_k:
        return None
    batch = 1
    for extent in shape.batch:
        batch *= extent

    def blocks(bm: int, bn: int) -> int:
        return batch * (shape.m // bm) * (shape.n // bn)

    while multiprocessors and blocks(block_m, block_n) < multiprocessors:
        if block_n > 64 and shape.n % (block_n // 2) == 0:
            block_n //= 2
        elif block_m > 64 and shape.m % (block_m // 2) == 0:
            block_m //= 2
        else:
            break
    return MmaTiles(block_m, block_n, block_k, stages)


class _KernelBuilder:
    """Appends index arithmetic and ops to one block, constants hoisted."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self.constants: dict[int, SSAValue] = {}
        self.constants_at = InsertPoint.at_start(block)

    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def const(self, value: int) -> SSAValue:
        if value not in self.constants:
            op = arith.ConstantOp.from_int_and_width(value, IndexType())
            op.result.name_hint = f"c{value}"
            Rewriter.insert_op(op, self.constants_at)
            self.constants[value] = op.result
        return self.constants[value]

    def index(self, value: SSAValue | int) -> SSAValue:
        return self.const(value) if isinstance(value, int) else value

    def binary(
        self,
        kind: Callable[[SSAValue, SSAValue], Operation],
        a: SSAValue | int,
        b: SSAValue | int,
    ) -> SSAValue:
        op = kind(self.index(a), self.index(b))
        self.block.add_op(op)
        return op.results[0]

    def add_index(self, *terms: SSAValue | int) -> SSAValue | int:
        """The sum of `terms`, constants folded."""
        constant = sum(term for term in terms if isinstance(term, int))
        values = [term for term in terms if not isinstance(term, int)]
        if not values:
            return constant
        total: SSAValue = values[0]
        for value in values[1:]:
            total = self.binary(arith.AddiOp, total, value)
        if constant:
            total = self.binary(arith.AddiOp, total, constant)
        return total

    def mul(self, a: SSAValue, factor: int) -> SSAValue | int:
        if factor == 0:
            return 0
        if factor == 1:
            return a
        return self.binary(arith.MuliOp, a, factor)

    def div(self, a: SSAValue, divisor: int) -> SSAValue:
        return a if divisor == 1 else self.binary(arith.DivUIOp, a, divisor)

    def rem(self, a: SSAValue, divisor: int) -> SSAValue:
        return self.binary(arith.RemUIOp, a, divisor)

    def indices(self, values: Sequence[SSAValue | int]) -> list[SSAValue]:
        return [self.index(value) for value in values]


def _build_kernel(  # noqa: C901 (built in program order: ids, accumulators, copies, loop, results)
    shape: MatmulShape, tiles: MmaTiles, initial: SSAValue | None, at: InsertPoint
) -> LaunchOp:
    """The `gpu.launch` computing `shape`'s matmul (see the module doc)."""
    element = shape.element
    bm, bn, bk, stages = tiles.block_m, tiles.block_n, tiles.block_k, tiles.stages
    fm, fn = tiles.fragments_m, tiles.fragments_n
    batch_count = 1
    for extent in shape.batch:
        batch_count *= extent

    def launch_constant(value: int, hint: str) -> SSAValue:
        op = arith.ConstantOp.from_int_and_width(value, IndexType())
        op.result.name_hint = hint
        Rewriter.insert_op(op, at)
        return op.result

    grid = [
        launch_constant(value, f"blocks_{axis}")
        for value, axis in (
            (shape.n // bn, "x"),
            (shape.m // bm, "y"),
            (batch_count, "z"),
        )
    ]
    threads = [launch_constant(THREADS, "threads"), *[launch_constant(1, "one")] * 2]
    workgroup = memory_space = workgroup_memory_space()
    a_tile_type = MemRefType(
        element, [stages, bm, bk + ROW_PAD], memory_space=workgroup
    )
    b_rows, b_cols = (bk, bn) if shape.b_k_major else (bn, bk)
    b_tile_type = MemRefType(
        element, [stages, b_rows, b_cols + ROW_PAD], memory_space=memory_space
    )
    private = private_memory_space()
    a_fragment_type = MemRefType(element, [fm * A_FRAGMENT], memory_space=private)
    b_fragment_type = MemRefType(element, [fn * B_FRAGMENT], memory_space=private)
    acc_type = MemRefType(Float32Type(), [fm * fn * C_FRAGMENT], memory_space=private)
    launch = LaunchOp(
        grid,
        threads,
        workgroup=[a_tile_type, b_tile_type],
        private=[a_fragment_type, b_fragment_type, acc_type],
    )
    body = launch.entry_block
    a_tiles, b_tiles = launch.workgroup_attributions
    a_fragments, b_fragments, acc = launch.private_attributions
    for value, hint in (
        (a_tiles, "a_tiles"),
        (b_tiles, "b_tiles"),
        (a_fragments, "a_fragments"),
        (b_fragments, "b_fragments"),
        (acc, "acc"),
    ):
        value.name_hint = hint
    kb = _KernelBuilder(body)
    block_x, block_y, block_z = launch.block_ids
    tid = launch.thread_ids[0]
    tid.name_hint, block_x.name_hint, block_y.name_hint = "tid", "bx", "by"
    m0 = kb.mul(block_y, bm)
    n0 = kb.mul(block_x, bn)
    # The batch loops' indices, from z (the first batch loop slowest).
    batch_indices: list[SSAValue | int] = []
    remaining: SSAValue = block_z
    for position, extent in enumerate(shape.batch):
        inner = 1
        for later in shape.batch[position + 1 :]:
            inner *= later
        quotient = kb.div(remaining, inner) if inner > 1 else remaining
        batch_indices.append(quotient if extent > 1 else 0)
        if inner > 1:
            remaining = kb.rem(remaining, inner)
    a_batch = [batch_indices[i] for i in shape.a_batch]
    b_batch = [batch_indices[i] for i in shape.b_batch]
    c_batch = list(batch_indices)

    warp = kb.div(tid, 32)
    lane = kb.rem(tid, 32)
    warp_m = kb.mul(kb.div(warp, WARPS[1]), tiles.warp_m)
    warp_n = kb.mul(kb.rem(warp, WARPS[1]), tiles.warp_n)
    group = kb.div(lane, 4)
    pair = kb.mul(kb.rem(lane, 4), 2)
    lane_row = kb.rem(lane, 8)
    lane_matrix = kb.div(lane, 8)
    # ldmatrix x4 addresses: matrix t = lane / 8 supplies row lane % 8.
    matrix_low = kb.mul(kb.rem(lane_matrix, 2), 8)  # t % 2 * 8
    matrix_high = kb.mul(kb.div(lane_matrix, 2), 8)  # t / 2 * 8

    # -- the accumulators --------------------------------------------------
    # Thread l's element e of fragment (mi, ni) is C[row0 + mi * 16 + 8 (e /
    # 2), col0 + ni * 8 + e % 2].
    row0 = kb.add_index(m0, warp_m, group)
    col0 = kb.add_index(n0, warp_n, pair)

    def output_position(
        mi: int, ni: int, e: int
    ) -> tuple[SSAValue | int, SSAValue | int]:
        row = kb.add_index(row0, mi * 16 + 8 * (e // 2))
        col = kb.add_index(col0, ni * 8 + e % 2)
        return row, col

    for mi in range(fm):
        for ni in range(fn):
            for e in range(C_FRAGMENT):
                slot = kb.index((mi * fn + ni) * C_FRAGMENT + e)
                start: SSAValue
                if initial is not None:
                    start = initial
                else:
                    row, col = output_position(mi, ni, e)
                    load = memref.LoadOp.get(shape.c, kb.indices([*c_batch, row, col]))
                    kb.add(load)
                    start = load.res
                kb.add(memref.StoreOp.get(start, acc, [slot]))

    # -- copies of one reduction step's tiles --------------------------------
    def copy_tiles(
        builder: _KernelBuilder, k0: SSAValue | int, stage: SSAValue | int
    ) -> None:
        def copies(
            source: SSAValue,
            leading: list[SSAValue | int],
            tile: SSAValue,
            rows: int,
            cols: int,
            origin: tuple[SSAValue | int, SSAValue | int],
        ) -> None:
            chunks_per_row = cols // CHUNK
            total = rows * chunks_per_row
            for first in range(0, total, THREADS):
                chunk = builder.add_index(tid, first)
                assert not isinstance(chunk, int)
                row = builder.div(chunk, chunks_per_row)
                col = builder.mul(builder.rem(chunk, chunks_per_row), CHUNK)
                copy = CpAsyncOp(
                    source,
                    builder.indices(
                        [
                            *leading,
                            builder.add_index(origin[0], row),
                            builder.add_index(origin[1], col),
                        ]
                    ),
                    tile,
                    builder.indices([stage, row, col]),
                )
                if total - first >= THREADS:
                    builder.add(copy)
                    continue
                inside = arith.CmpiOp(chunk, builder.const(total), "ult")
                builder.add(inside)
                then = Block()
                then.add_op(copy)
                then.add_op(YieldOp())
                builder.add(IfOp(inside.result, [], Region(then)))

        copies(shape.a, a_batch, a_tiles, bm, bk, (m0, k0))
        if shape.b_k_major:
            copies(shape.b, b_batch, b_tiles, bk, bn, (k0, n0))
        else:
            copies(shape.b, b_batch, b_tiles, bn, bk, (n0, k0))

    steps = shape.k // bk
    for stage in range(stages - 1):
        if stage < steps:
            copy_tiles(kb, stage * bk, stage)
        kb.add(CpAsyncCommitOp())

    # -- the reduction loop ----------------------------------------------------
    loop_body = Block(arg_types=[IndexType()])
    step = loop_body.args[0]
    step.name_hint = "step"
    lb = _KernelBuilder(loop_body)
    lb.constants = kb.constants  # constants defined above the loop
    lb.constants_at = kb.constants_at
    lb.add(CpAsyncWaitOp(stages - 2))
    lb.add(BarrierOp())
    ahead = lb.add_index(step, stages - 1)
    assert not isinstance(ahead, int)
    more = arith.CmpiOp(ahead, lb.const(steps), "ult")
    lb.add(more)
    prefetch = Block()
    pb = _KernelBuilder(prefetch)
    pb.constants, pb.constants_at = kb.constants, kb.constants_at
    copy_tiles(pb, pb.mul(ahead, bk), pb.rem(ahead, stages))
    prefetch.add_op(YieldOp())
    lb.add(IfOp(more.result, [], Region(prefetch)))
    # The commit runs in every iteration (an empty group past the end), so
    # the wait's count of groups in flight holds for each step.
    lb.add(CpAsyncCommitOp())
    stage_now = lb.rem(step, stages) if stages > 1 else lb.const(0)
    for kk in range(bk // 16):
        for mi in range(fm):
            row = lb.add_index(warp_m, mi * 16, matrix_low, lane_row)
            col = lb.add_index(matrix_high, kk * 16)
            lb.add(
                LdMatrixOp(
                    a_tiles,
                    lb.indices([stage_now, row, col]),
                    a_fragments,
                    [lb.const(mi * A_FRAGMENT)],
                    4,
                )
            )
        for nj in range(fn // 2):
            if shape.b_k_major:
                # Matrices (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15),
                # (k 8-15, n 8-15): the fragments of n-blocks 2nj, 2nj + 1.
                row = lb.add_index(matrix_low, lane_row, kk * 16)
                col = lb.add_index(warp_n, matrix_high, nj * 16)
            else:
                row = lb.add_index(warp_n, matrix_high, lane_row, nj * 16)
                col = lb.add_index(matrix_low, kk * 16)
            lb.add(
                LdMatrixOp(
                    b_tiles,
                    lb.indices([stage_now, row, col]),
                    b_fragments,
                    [lb.const(2 * nj * B_FRAGMENT)],
                    4,
                    transpose=shape.b_k_major,
                )
            )
        for mi in range(fm):
            for ni in range(fn):
                lb.add(
                    SyncOp(
                        [
                            (a_fragments, [lb.const(mi * A_FRAGMENT)]),
                            (b_fragments, [lb.const(ni * B_FRAGMENT)]),
                            (acc, [lb.const((mi * fn + ni) * C_FRAGMENT)]),
                        ]
                    )
                )
    loop_body.add_op(YieldOp())
    kb.add(ForOp(kb.const(0), kb.const(steps), kb.const(1), [], Region(loop_body)))

    # -- the results -------------------------------------------------------------
    for mi in range(fm):
        for ni in range(fn):
            for e in range(C_FRAGMENT):
                slot = kb.const((mi * fn + ni) * C_FRAGMENT + e)
                load = memref.LoadOp.get(acc, [slot])
                kb.add(load)
                row, col = output_position(mi, ni, e)
                kb.add(
                    memref.StoreOp.get(
                        load.res, shape.c, kb.indices([*c_batch, row, col])
                    )
                )
    kb.add(TerminatorOp())
    return launch


def _fill_value(prologue: GenericOp) -> SSAValue | None:
    """The value a fill writes, when it reads no buffer and yields one of its
    scalar inputs unchanged (`fusable_prologue` checked the rest)."""
    if shaped_inputs(prologue):
        return None
    body = prologue.body.block
    yield_op = body.last_op
    if not isinstance(yield_op, LinalgYieldOp) or len(yield_op.operands) != 1:
        return None
    (yielded,) = yield_op.operands
    for index, argument in enumerate(body.args[: len(prologue.inputs)]):
        if yielded is argument:
            return prologue.inputs[index]
    return None


@dataclass(frozen=True)
class ConvertLinalgToMmaPass(ModulePass):
    """Half-precision matmuls as tensor-core kernels (see the module doc).

    Options: `block` = BM, BN, BK (the largest tiles; 128, 128, 32),
    `stages` (copy buffers, 2), `multiprocessors` (0: do not shrink tiles to
    fill the device).
    """

    name = "convert-linalg-to-mma"

    block: tuple[int, ...] = (128, 128, 32)
    stages: int = 2
    multiprocessors: int = 0

    def _check_options(self) -> None:
        if len(self.block) != 3:
            raise PassFailedException(
                f"{PASS_NAME}: block takes three sizes (BM, BN, BK)"
            )
        bm, bn, bk = self.block
        if bm < 64 or bn < 64 or bk < 16 or bm % 64 or bn % 64 or bk % 16:
            raise PassFailedException(
                f"{PASS_NAME}: block sizes must be multiples of 64, 64 and 16, got "
                f"{list(self.block)}"
            )
        if not 2 <= self.stages <= 4:
            raise PassFailedException(
                f"{PASS_NAME}: stages must be 2, 3 or 4, got {self.stages}"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self._check_options()
        for generic in [g for g in op.walk() if isinstance(g, GenericOp)]:
            shape = match_matmul(generic)
            if shape is None:
                continue
            tiles = choose_tiles(shape, self.block, self.stages, self.multiprocessors)
            if tiles is None:
                continue
            prologue = fusable_prologue(generic)
            initial = None if prologue is None else _fill_value(prologue)
            at = InsertPoint.before(generic)
            Rewriter.insert_op(_build_kernel(shape, tiles, initial, at), at)
            generic.detach()
            generic.erase()
            if initial is not None and prologue is not None:
                prologue.detach()
                prologue.erase()
