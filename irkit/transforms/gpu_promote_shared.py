"""`gpu-promote-shared`: stage reused operand tiles in workgroup (shared) memory.

The promotion step of MLIR's GPU path (`linalg::promoteSubViews` with
workgroup memory, `transform.structured.promote {memory_space =
#gpu.memory_space<workgroup>}`), on the loop nests `linalg-tile-for-gpu`
builds, before they are mapped to a `gpu.launch`.

Contract
--------
Input: block-mapped `scf.forall`s (`mapping = [#gpu.block<...>]`) holding,
possibly under `scf.for`s, thread-mapped `scf.forall`s whose bodies run
`linalg` ops on memrefs (the contract's step 2). A thread forall's lower
bounds and steps are static, its upper bounds static or bounded by a constant
(`irkit.analysis.ranges.upper_bound`: e.g. an `affine.min` with a constant
result). A thread forall outside a block
forall, or one whose trip count has no static bound, is an error at the op.

A *reused tile* of a thread forall `T` is a memref value defined outside `T`
(the block-level tile) that a `linalg` op in `T` reads (its payload argument
has uses: a pooling window's shape operand is not read), directly or through
a `memref.subview` made in `T`, where that access does not depend on every
induction variable of `T` that has more than one iteration: several threads
read the same elements (the A and B tiles of a matmul's K step). It is
promoted when:

- every use of it inside `T` is a read: a `linalg` input, a `memref.load`,
  or a same-rank `memref.subview` used only so;
- nothing in `T` writes the buffer it views (outputs stay where they are:
  accumulators are per thread);
- it is not in workgroup memory already (a buffer staged in the block
  forall);
- it has more than one element, and a static bound on each dimension (a
  static size, or `upper_bound`'s, e.g. an `affine.min` with a constant
  result; a dynamic size without one is an error at the op);
- the block's workgroup buffers, this one and those it allocates already
  included, fit in `max-shared-bytes` (48 KiB, CUDA's static limit, by
  default); tiles beyond that stay in global memory, in program order.

Output, per promoted tile (operand tiles of a matmul K step shown):

```mlir
%shared = memref.alloc() : memref<32x17xf32, #gpu.address_space<workgroup>>
scf.for %k = ... {                                 // the sequential loop
  %view = memref.subview %shared[0, 0] [%m, %bk] [1, 1] : ... // drops padding
  scf.forall (%ty, %tx) in (8, 8) {                // T's thread grid
    %tid = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%ty, %tx)
    scf.for %e = %tid to %c512 step %c64 {         // a strided share each
      %i = affine.apply affine_map<(d0) -> (d0 floordiv 16)>(%e)
      %j = affine.apply affine_map<(d0) -> (d0 mod 16)>(%e)
      ... scf.if %i < %m and %j < %bk: load the tile, store into %shared
    }
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  scf.forall ... { ... reads %view instead of the tile ... }   // T
}
memref.dealloc %shared : ...
```

- The buffer has the tile's static bound as its shape, plus `padding`
  elements (default 1) on the innermost dimension against shared-memory
  bank conflicts; it is allocated once per block tile, before the op of the
  block forall's body that holds `T` (so before a sequential K loop, reused
  by every iteration), and deallocated after that op.
- The cooperative copy is a thread forall with `T`'s mapping over `T`'s
  thread grid (the static bounds of its trip counts), so every thread of
  the block takes part; thread `tid` (linearised with x fastest, so
  neighbouring threads copy neighbouring elements) copies elements `tid`,
  `tid + nthreads`, ... of the tile's bounding box, and only those inside
  the tile (partial tiles copy their valid part). When the thread count
  divides the box, the loop counts rounds instead (`r` in `0 .. n/threads`,
  element `tid + threads * r`), marked `irkit.unroll` up to
  `MAX_COPY_UNROLL` rounds, and an index whose division the round cannot
  change is computed from `tid` alone (`tid mod 16` rather than
  `(tid + 256 * r) mod 16`): the unrolled copy loads at constant offsets,
  with no division per element.
- `T` reads the promoted tile through `%view` (the tile's sizes, the
  buffer's strides): its subviews of the tile get the buffer's layout and
  memory space, strides multiplied by their steps (cyclic thread tiles).
- No barriers: a thread forall completes before the next op runs (its
  semantics), and `convert-parallel-loops-to-gpu` puts a `gpu.barrier` after
  the copy and at the end of the sequential loop's body.

Preserves: every value read in `T` (a copy of it, taken right before `T`,
from memory `T` does not write); the order of every computation.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    UnitAttr,
)
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import root_buffer
from irkit.analysis.gpu_mapping import is_block_forall, is_thread_forall, mapping_kinds
from irkit.analysis.memory import DEFAULT_MAX_SHARED_BYTES, element_bytes
from irkit.analysis.ranges import upper_bound
from irkit.diagnostics import op_error
from irkit.dialects import affine, memref
from irkit.dialects.gpu import (
    BlockMappingAttr,
    ThreadMappingAttr,
    is_workgroup_memref,
    workgroup_memory_space,
)
from irkit.dialects.scf import UNROLL_ATTRIBUTE, ForallOp, ForOp, IfOp, InParallelOp
from irkit.dialects.static_values import constant_int

PASS_NAME = "gpu-promote-shared"

# A copy of at most this many rounds per thread is unrolled: its loads go out
# together and index with constant offsets (a 128x16 tile over 256 threads
# takes 8 rounds).
MAX_COPY_UNROLL = 16

_Size = int | SSAValue

# --------------------------------------------------------------------------
# Reading the loop nest
# --------------------------------------------------------------------------


def _constant_index_op(op: Operation) -> int | None:
    """The value of `op` when it is an `index` constant."""
    if isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IndexType):
        return constant_int(op.result)
    return None


def thread_grid(forall: ForallOp) -> list[int]:
    """Per dimension of `forall`, a static bound on its trip count."""
    lowers, uppers, steps = forall.mixed_bounds()
    trips: list[int] = []
    for lower, upper, step in zip(lowers, uppers, steps, strict=True):
        low = constant_int(lower)
        stride = constant_int(step)
        bound = upper_bound(upper)
        if low is None or stride is None or bound is None:
            raise op_error(
                forall,
                f"{PASS_NAME} needs static lower bounds and steps and a static "
                "bound on each upper bound of a thread-mapped scf.forall",
            )
        trips.append(max(0, -(-(bound - low) // stride)))
    return trips


def _inside(op: Operation, region_holder: Operation) -> bool:
    return region_holder.is_ancestor(op) and op is not region_holder


def _block_inside(argument: BlockArgument, forall: ForallOp) -> bool:
    holder = argument.block.parent_op()
    return holder is not None and forall.is_ancestor(holder)


def _iv_dependencies(
    value: SSAValue, forall: ForallOp, memo: dict[SSAValue, frozenset[int]]
) -> frozenset[int]:
    """Which induction variables of `forall` (by position) `value` is computed from."""
    if value in memo:
        return memo[value]
    found: frozenset[int] = frozenset()
    if isinstance(value, BlockArgument) and value.block is forall.body.block:
        found = frozenset({value.index})
    elif isinstance(value.owner, Operation) and _inside(value.owner, forall):
        for operand in value.owner.operands:
            found |= _iv_dependencies(operand, forall, memo)
    memo[value] = found
    return found


def _linalg_operands(op: Operation) -> tuple[Sequence[SSAValue], Sequence[SSAValue]]:
    """The inputs and outputs of a `linalg` op; nothing for other ops."""
    if not op.name.startswith("linalg."):
        return (), ()
    return tuple(getattr(op, "inputs", ())), tuple(getattr(op, "outputs", ()))


def _read_inputs(op: Operation) -> list[SSAValue]:
    """The inputs of a `linalg` op whose elements its body uses.

    A pooling op's window operand only gives the window's shape: its payload
    argument is unused and its (never written) elements are never read, so
    copying it would read memory nothing wrote.
    """
    inputs, _ = _linalg_operands(op)
    body = op.regions[0].blocks.first if op.regions else None
    if body is None or len(body.args) < len(inputs):
        return list(inputs)
    return [
        value
        for value, argument in zip(inputs, body.args, strict=False)
        if argument.uses
    ]


def _written_buffers(forall: ForallOp) -> set[SSAValue]:
    """The buffers that something inside `forall` writes."""
    written: set[SSAValue] = set()
    for op in forall.walk():
        _, outputs = _linalg_operands(op)
        targets = list(outputs)
        if isinstance(op, memref.StoreOp):
            targets.append(op.memref)
        elif isinstance(op, memref.CopyOp):
            targets.append(op.destination)
        elif isinstance(op, memref.AtomicRMWOp):
            targets.append(op.memref)
        written.update(root_buffer(target) for target in targets)
    return written


# --------------------------------------------------------------------------
# Which tiles to promote
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Promotion:
    """A block-level tile that the threads of `forall` share."""

    forall: ForallOp
    tile: SSAValue
    sizes: tuple[_Size, ...]  # the tile's sizes: static, or SSA values above `forall`
    bound: tuple[int, ...]  # a static bound on each of them


def _is_read_only_use(op: Operation, value: SSAValue) -> bool:
    inputs, outputs = _linalg_operands(op)
    if inputs or outputs:
        return value in inputs and value not in outputs
    return isinstance(op, memref.LoadOp)


def _tile_accesses(tile: SSAValue, forall: ForallOp) -> list[SSAValue] | None:
    """The values through which `forall` reads `tile`; None if it does more."""
    accesses: list[SSAValue] = []
    for use in tile.uses:
        user = use.operation
        if not _inside(user, forall):
            continue
        if isinstance(user, memref.SubviewOp) and use.index == 0:
            result_type = user.result.type
            assert isinstance(result_type, MemRefType)
            assert isinstance(tile.type, MemRefType)
            if result_type.get_num_dims() != tile.type.get_num_dims():
                return None  # rank-reducing: not worth a layout rewrite
            if not all(
                _is_read_only_use(view_use.operation, user.result)
                for view_use in user.result.uses
            ):
                return None
            accesses.append(user.result)
        elif _is_read_only_use(user, tile):
            accesses.append(tile)
        else:
            return None
    return accesses


def _mixed_sizes(tile: SSAValue) -> list[_Size] | None:
    """The tile's sizes, with SSA values where its type has `?`."""
    assert isinstance(tile.type, MemRefType)
    shape = tile.type.get_shape()
    if all(size != DYNAMIC_INDEX for size in shape):
        return list(shape)
    view = tile.owner
    if not isinstance(view, memref.SubviewOp) or len(view.static_sizes) != len(shape):
        return None
    pending = iter(view.sizes)
    return [
        next(pending) if size == DYNAMIC_INDEX else size
        for size in view.static_sizes.get_values()
    ]


def _is_reused(
    accesses: Sequence[SSAValue], forall: ForallOp, trips: Sequence[int]
) -> bool:
    """Whether some thread dimension with several threads leaves an access alone."""
    memo: dict[SSAValue, frozenset[int]] = {}
    for access in accesses:
        depends: frozenset[int] = frozenset()
        if isinstance(access.owner, memref.SubviewOp) and _inside(access.owner, forall):
            for operand in access.owner.operands[1:]:
                depends |= _iv_dependencies(operand, forall, memo)
        if any(count > 1 and dim not in depends for dim, count in enumerate(trips)):
            return True
    return False


def find_promotions(forall: ForallOp, trips: Sequence[int]) -> list[Promotion]:
    """The reused, read-only tiles of one thread forall, in first-use order."""
    written = _written_buffers(forall)
    candidates: list[SSAValue] = []
    for op in forall.walk():
        for operand in _read_inputs(op):
            tile = operand
            if isinstance(operand.owner, memref.SubviewOp) and _inside(
                operand.owner, forall
            ):
                tile = operand.owner.source
            defined_inside = isinstance(tile.owner, Operation) and _inside(
                tile.owner, forall
            )
            in_body = isinstance(tile, BlockArgument) and _block_inside(tile, forall)
            if (
                isinstance(tile.type, MemRefType)
                # Already staged (by this pass or a block-level buffer):
                # copying shared memory to shared memory gains nothing.
                and not is_workgroup_memref(tile.type)
                and not defined_inside
                and not in_body
                and tile not in candidates
            ):
                candidates.append(tile)
    promotions: list[Promotion] = []
    for tile in candidates:
        accesses = _tile_accesses(tile, forall)
        if not accesses or root_buffer(tile) in written:
            continue
        if not _is_reused(accesses, forall, trips):
            continue
        sizes = _mixed_sizes(tile)
        bound = None if sizes is None else [upper_bound(size) for size in sizes]
        if sizes is None or bound is None or None in bound:
            owner = tile.owner if isinstance(tile.owner, Operation) else forall
            raise op_error(
                owner,
                f"{PASS_NAME} needs a static bound on each size of a tile it "
                "promotes (a static size or an affine.min with a constant)",
            )
        static = tuple(size for size in bound if size is not None)
        if prod(static) > 1:
            promotions.append(Promotion(forall, tile, tuple(sizes), static))
    return promotions


# --------------------------------------------------------------------------
# Building the workgroup buffer, its copy and its view
# --------------------------------------------------------------------------


def _element_bytes(element_type: Attribute) -> int:
    size = element_bytes(element_type)
    if size is None:
        raise ValueError(f"{PASS_NAME}: no size known for {element_type}")
    return size


def _identity_strides(shape: Sequence[int]) -> list[int]:
    strides = [1] * len(shape)
    for dim in range(len(shape) - 2, -1, -1):
        strides[dim] = strides[dim + 1] * shape[dim + 1]
    return strides


def workgroup_buffer_type(
    tile: SSAValue, bound: Sequence[int], padding: int
) -> MemRefType:
    """The tile's bounding box, `padding` wider on its innermost dimension."""
    assert isinstance(tile.type, MemRefType)
    shape = [*bound[:-1], bound[-1] + padding]
    return MemRefType(
        tile.type.get_element_type(), shape, memory_space=workgroup_memory_space()
    )


def _strided_type(
    buffer: MemRefType,
    shape: Sequence[int],
    strides: Sequence[int | None],
    offset: int | None,
) -> MemRefType:
    layout: StridedLayoutAttr | NoneAttr = NoneAttr()
    if offset != 0 or list(strides) != _identity_strides(shape):
        layout = StridedLayoutAttr(list(strides), offset)
    return MemRefType(
        buffer.get_element_type(), shape, layout, workgroup_memory_space()
    )


def _view_of_buffer(
    buffer: SSAValue, promotion: Promotion, insertion: InsertPoint
) -> SSAValue:
    """The tile's part of the buffer (no padding, partial tile sizes)."""
    buffer_type = buffer.type
    assert isinstance(buffer_type, MemRefType)
    if tuple(promotion.sizes) == tuple(buffer_type.get_shape()):
        return buffer
    rank = len(promotion.sizes)
    shape = [
        size if isinstance(size, int) else DYNAMIC_INDEX for size in promotion.sizes
    ]
    result_type = _strided_type(
        buffer_type, shape, _identity_strides(buffer_type.get_shape()), 0
    )
    view = memref.SubviewOp.get(
        buffer, [0] * rank, list(promotion.sizes), [1] * rank, result_type
    )
    view.result.name_hint = "shared_tile"
    Rewriter.insert_op(view, insertion)
    return view.result


def _index_constant(value: int, block: Block) -> SSAValue:
    for op in block.ops:
        if _constant_index_op(op) == value:
            return op.results[0]
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    constant.result.name_hint = f"c{value}"
    block.add_op(constant)
    return constant.result


def _apply(
    expr: AffineExpr, operands: Sequence[SSAValue], block: Block, hint: str
) -> SSAValue:
    apply = affine.ApplyOp(
        list(operands), AffineMapAttr(AffineMap(len(operands), 0, (expr,)))
    )
    apply.result.name_hint = hint
    block.add_op(apply)
    return apply.result


def _linear_thread_id(
    forall: ForallOp, trips: Sequence[int], block: Block
) -> SSAValue | int:
    """`tid` of a thread of the copy forall, x fastest, as CUDA numbers threads."""
    assert forall.mapping is not None
    extents = {"x": 1, "y": 1, "z": 1}
    for attr, count in zip(forall.mapping.data, trips, strict=True):
        assert isinstance(attr, ThreadMappingAttr)
        extents[attr.dimension] = count
    stride = {"x": 1, "y": extents["x"], "z": extents["x"] * extents["y"]}
    ivs = block.args
    terms = [
        (position, stride[attr.dimension])
        for position, attr in enumerate(forall.mapping.data)
        if isinstance(attr, ThreadMappingAttr) and trips[position] > 1
    ]
    if not terms:
        return 0
    if len(terms) == 1 and terms[0][1] == 1:
        return ivs[terms[0][0]]
    expr: AffineExpr = AffineExpr.constant(0)
    operands = [ivs[position] for position, _ in terms]
    for dim, (_, step) in enumerate(terms):
        expr = expr + AffineExpr.dimension(dim) * step
    return _apply(expr, operands, block, "tid")


def _element_indices(
    bound: Sequence[int],
    thread: SSAValue | int,
    threads: int,
    round_: SSAValue | None,
    block: Block,
) -> list[SSAValue]:
    """The tile indices of element `e = thread + threads * round_` of the
    bounding box `bound` (row-major), `round_` None meaning `e = thread`.

    Per dimension `(e floordiv inner) mod extent`; when `threads` is a multiple
    of `inner` the round's part leaves the division (`e floordiv inner =
    thread floordiv inner + (threads / inner) * round_`), and when that
    multiple is one of `extent` too it leaves the `mod` as well, so an
    unrolled copy indexes with constants added to per-thread values instead of
    dividing in every round."""
    indices: list[SSAValue] = []
    for dim, extent in enumerate(bound):
        inner = prod(bound[dim + 1 :])
        operands: list[SSAValue] = []

        def operand(value: SSAValue | int) -> AffineExpr:
            if isinstance(value, int):
                return AffineExpr.constant(value)
            operands.append(value)
            return AffineExpr.dimension(len(operands) - 1)

        rounds_apart = round_ is not None and threads % inner == 0
        if rounds_apart and (dim == 0 or (threads // inner) % extent):
            # `thread floordiv inner` on its own, the same in every round (a
            # value later passes, such as gpu-relayout-shared, see as one
            # term bounded by the thread count), plus the round's multiple.
            assert round_ is not None
            per_thread: SSAValue | int = thread
            if inner != 1 and isinstance(thread, int):
                per_thread = thread // inner
            elif inner != 1:
                assert not isinstance(thread, int)
                per_thread = _apply(
                    AffineExpr.dimension(0) // inner, [thread], block, f"t{dim}"
                )
            expr = operand(per_thread) + operand(round_) * (threads // inner)
        else:
            part = operand(thread)
            if round_ is not None and not rounds_apart:
                part = part + operand(round_) * threads
            expr = part // inner if inner != 1 else part
        if dim != 0:
            expr = expr % extent
        if len(operands) == 1 and expr == AffineExpr.dimension(0):
            indices.append(operands[0])
        else:
            indices.append(_apply(expr, operands, block, f"i{dim}"))
    return indices


def _copy_element(
    promotion: Promotion, indices: Sequence[SSAValue], buffer: SSAValue, block: Block
) -> None:
    """Copy one element of the tile's bounding box if it is inside the tile."""
    inside: SSAValue | None = None
    for index, size in zip(indices, promotion.sizes, strict=True):
        if isinstance(size, int):
            continue
        compare = arith.CmpiOp(index, size, "slt")
        block.add_op(compare)
        condition: SSAValue = compare.result
        if inside is not None:
            both = arith.AndIOp(inside, condition)
            block.add_op(both)
            condition = both.result
        inside = condition
    target = block
    if inside is not None:
        target = Block()
        target.add_op(YieldOp())
        block.add_op(IfOp(inside, [], Region(target)))
    load = memref.LoadOp.get(promotion.tile, list(indices))
    load.res.name_hint = "element"
    store = memref.StoreOp.get(load.res, buffer, list(indices))
    if target is block:
        block.add_ops([load, store])
    else:
        assert target.last_op is not None
        target.insert_ops_before([load, store], target.last_op)


def cooperative_copy(
    forall: ForallOp,
    trips: Sequence[int],
    staged: Sequence[tuple[Promotion, SSAValue]],
    max_unroll: int,
) -> ForallOp:
    """A thread forall over `forall`'s grid in which each thread copies a
    strided share of every tile into its buffer (one forall for all of them,
    so the mapping needs one barrier after it).

    A tile whose bounding box the threads divide is copied in a fixed number
    of rounds (unrolled up to `max_unroll`); otherwise thread `tid` steps
    through elements `tid, tid + threads, ...` below the box's size."""
    assert forall.mapping is not None
    body = Block(arg_types=[IndexType()] * len(trips))
    for arg, attr in zip(body.args, forall.mapping.data, strict=True):
        assert isinstance(attr, ThreadMappingAttr)
        arg.name_hint = f"t{attr.dimension}"
    thread = _linear_thread_id(forall, trips, body)
    threads = max(1, prod(trips))
    for promotion, buffer in staged:
        elements = prod(promotion.bound)
        loop_body = Block(arg_types=[IndexType()])
        if elements % threads == 0:
            loop_body.args[0].name_hint = "r"
            indices = _element_indices(
                promotion.bound, thread, threads, loop_body.args[0], loop_body
            )
            start = _index_constant(0, body)
            end = _index_constant(elements // threads, body)
            step = _index_constant(1, body)
        else:
            loop_body.args[0].name_hint = "e"
            indices = _element_indices(
                promotion.bound, loop_body.args[0], threads, None, loop_body
            )
            start = _index_constant(thread, body) if isinstance(thread, int) else thread
            end = _index_constant(elements, body)
            step = _index_constant(threads, body)
        _copy_element(promotion, indices, buffer, loop_body)
        loop_body.add_op(YieldOp())
        loop = ForOp(start, end, step, [], Region(loop_body))
        if elements % threads == 0 and elements // threads <= max_unroll:
            loop.attributes[UNROLL_ATTRIBUTE] = UnitAttr()
        body.add_op(loop)
    body.add_op(InParallelOp())
    mapping = ArrayAttr(list(forall.mapping.data))
    return ForallOp(
        [0] * len(trips), list(trips), [1] * len(trips), Region(body), (), mapping
    )


def _retype_subview(view: memref.SubviewOp, source: SSAValue) -> None:
    """Point a same-rank subview at the workgroup view, with the layout it gets."""
    source_type = source.type
    old_type = view.result.type
    assert isinstance(source_type, MemRefType)
    assert isinstance(old_type, MemRefType)
    layout = source_type.layout
    if isinstance(layout, StridedLayoutAttr):
        source_strides: list[int | None] = list(layout.get_strides())
        source_offset = layout.get_offset()
    else:
        source_strides = list(_identity_strides(source_type.get_shape()))
        source_offset = 0
    steps = view.static_strides.get_values()
    strides = [
        None if outer is None or step == DYNAMIC_INDEX else outer * step
        for outer, step in zip(source_strides, steps, strict=True)
    ]
    offset = source_offset
    for outer, start in zip(
        source_strides, view.static_offsets.get_values(), strict=True
    ):
        if offset is None or outer is None or start == DYNAMIC_INDEX:
            offset = None
            break
        offset += outer * start
    retyped = memref.SubviewOp(
        source,
        view.offsets,
        view.sizes,
        view.strides,
        view.static_offsets.get_values(),
        view.static_sizes.get_values(),
        view.static_strides.get_values(),
        _strided_type(source_type, old_type.get_shape(), strides, offset),
    )
    retyped.result.name_hint = view.result.name_hint
    Rewriter.replace_op(view, retyped)


def _read_from(view: SSAValue, promotion: Promotion) -> None:
    """Make the thread forall read `view` wherever it read the tile."""
    for use in list(promotion.tile.uses):
        user = use.operation
        if not _inside(user, promotion.forall):
            continue
        if isinstance(user, memref.SubviewOp) and use.index == 0:
            _retype_subview(user, view)
        else:
            user.operands = [
                view if operand is promotion.tile else operand
                for operand in user.operands
            ]


def promote(
    forall: ForallOp, promotions: Sequence[Promotion], anchor: Operation, padding: int
) -> list[SSAValue]:
    """Stage the tiles of `promotions` (all of `forall`) in workgroup buffers
    allocated around `anchor`; return the buffers."""
    staged: list[tuple[Promotion, SSAValue]] = []
    for promotion in promotions:
        alloc = memref.AllocOp(
            [], [], workgroup_buffer_type(promotion.tile, promotion.bound, padding)
        )
        alloc.memref.name_hint = "shared"
        Rewriter.insert_op(alloc, InsertPoint.before(anchor))
        dealloc = memref.DeallocOp.get(alloc.memref)
        Rewriter.insert_op(dealloc, InsertPoint.after(anchor))
        staged.append((promotion, alloc.memref))
    copy = cooperative_copy(forall, thread_grid(forall), staged, MAX_COPY_UNROLL)
    Rewriter.insert_op(copy, InsertPoint.before(forall))
    for promotion, buffer in staged:
        view = _view_of_buffer(buffer, promotion, InsertPoint.before(forall))
        _read_from(view, promotion)
    return [buffer for _, buffer in staged]


# --------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------


def _thread_foralls(grid: ForallOp) -> Iterator[ForallOp]:
    for op in grid.walk():
        if op is not grid and isinstance(op, ForallOp) and is_thread_forall(op):
            yield op


def _anchor(forall: ForallOp, grid: ForallOp) -> Operation:
    """The op of `grid`'s body that holds `forall`."""
    op: Operation = forall
    while op.parent_op() is not grid:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _staged_bytes(grid: ForallOp) -> int:
    """The bytes of the workgroup buffers `grid` allocates already (operand
    tiles a producer computes into, `linalg-tile-for-gpu`)."""
    used = 0
    for op in grid.walk():
        if isinstance(op, memref.AllocOp) and is_workgroup_memref(op.memref.type):
            buffer_type = op.memref.type
            assert isinstance(buffer_type, MemRefType)
            if buffer_type.has_static_shape():
                used += prod(buffer_type.get_shape()) * _element_bytes(
                    buffer_type.get_element_type()
                )
    return used


def promote_block(grid: ForallOp, padding: int, max_shared_bytes: int) -> int:
    """Promote the reused tiles of one block forall, in what its workgroup
    buffers leave of `max_shared_bytes`; return the bytes used."""
    used = _staged_bytes(grid)
    for forall in list(_thread_foralls(grid)):
        trips = thread_grid(forall)
        chosen: list[Promotion] = []
        for promotion in find_promotions(forall, trips):
            assert isinstance(promotion.tile.type, MemRefType)
            shape = workgroup_buffer_type(promotion.tile, promotion.bound, padding)
            size = prod(shape.get_shape()) * _element_bytes(
                promotion.tile.type.get_element_type()
            )
            if used + size <= max_shared_bytes:
                used += size
                chosen.append(promotion)
        if chosen:
            promote(forall, chosen, _anchor(forall, grid), padding)
    return used


def promote_shared(
    module: ModuleOp, padding: int = 1, max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES
) -> None:
    """Promote the reused operand tiles of every block forall of `module`."""
    if padding < 0 or max_shared_bytes < 0:
        raise PassFailedException(
            f"{PASS_NAME}: padding and max-shared-bytes must not be negative"
        )
    grids: list[ForallOp] = []
    for op in module.walk():
        if not isinstance(op, ForallOp):
            continue
        kinds = mapping_kinds(op)
        if BlockMappingAttr in kinds and ThreadMappingAttr in kinds:
            raise op_error(op, f"{PASS_NAME}: a mapping mixes blocks and threads")
        if is_block_forall(op) and not any(g.is_ancestor(op) for g in grids):
            grids.append(op)
        elif is_thread_forall(op) and not any(g.is_ancestor(op) for g in grids):
            raise op_error(
                op,
                f"{PASS_NAME}: a thread-mapped scf.forall outside a block-mapped one",
            )
    for grid in grids:
        promote_block(grid, padding, max_shared_bytes)


@dataclass(frozen=True)
class GpuPromoteSharedPass(ModulePass):
    """Stage operand tiles that several threads read in workgroup memory."""

    name = PASS_NAME

    padding: int = 1
    max_shared_bytes: int = DEFAULT_MAX_SHARED_BYTES

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        promote_shared(op, self.padding, self.max_shared_bytes)
