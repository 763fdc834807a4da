"""Cooperative copies: every thread of a block writing a strided share of a
tile's elements (`gpu-promote-shared`'s copies into workgroup memory,
`linalg-tile-for-gpu`'s staged producers).

`cooperative_forall` builds one thread-mapped `scf.forall` over a thread
grid in which thread `tid` (linearised with x fastest, as CUDA numbers
threads, so neighbouring threads take neighbouring elements) handles
elements `tid, tid + threads, ...` of each tile's bounding box (row-major),
only those inside the tile (partial tiles: an `scf.if` on the dynamic
sizes). When the thread count divides the box, the loop counts rounds
instead (`r` in `0 .. n/threads`, element `tid + threads * r`), marked
`irkit.unroll` up to `max_unroll` rounds, and an index whose division the
round cannot change is computed from `tid` alone (`tid mod 16` rather than
`(tid + 256 * r) mod 16`): the unrolled copy indexes at constant offsets,
with no division per element. What is written for an element at its tile
indices is the tile's `fill`'s (a load and a store, or a producer's body).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    UnitAttr,
)
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from irkit.dialects import affine
from irkit.dialects.gpu import ThreadMappingAttr
from irkit.dialects.scf import UNROLL_ATTRIBUTE, ForallOp, ForOp, IfOp, InParallelOp
from irkit.dialects.static_values import constant_int

_Size = int | SSAValue


@dataclass(frozen=True)
class CooperativeTile:
    """A tile the block's threads write together: its static bounding box,
    its sizes (static, or SSA values defined outside the forall), and the
    ops that write one element given its tile indices."""

    bound: tuple[int, ...]
    sizes: tuple[_Size, ...]
    fill: Callable[[Sequence[SSAValue]], list[Operation]]


def _constant_index_op(op: Operation) -> int | None:
    if isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IndexType):
        return constant_int(op.result)
    return None


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


def linear_thread_id(
    mapping: ArrayAttr, trips: Sequence[int], block: Block
) -> SSAValue | int:
    """`tid` of a thread of a forall with `mapping` over `trips` whose body
    is `block`, x fastest, as CUDA numbers threads."""
    extents = {"x": 1, "y": 1, "z": 1}
    for attr, count in zip(mapping.data, trips, strict=True):
        assert isinstance(attr, ThreadMappingAttr)
        extents[attr.dimension] = count
    stride = {"x": 1, "y": extents["x"], "z": extents["x"] * extents["y"]}
    ivs = block.args
    terms = [
        (position, stride[attr.dimension])
        for position, attr in enumerate(mapping.data)
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


def _write_element(
    tile: CooperativeTile, indices: Sequence[SSAValue], block: Block
) -> None:
    """Write one element of the tile's bounding box if it is inside the tile."""
    inside: SSAValue | None = None
    for index, size in zip(indices, tile.sizes, strict=True):
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
    ops = tile.fill(indices)
    if inside is None:
        block.add_ops(ops)
        return
    target = Block()
    target.add_ops([*ops, YieldOp()])
    block.add_op(IfOp(inside, [], Region(target)))


def cooperative_forall(
    mapping: ArrayAttr,
    trips: Sequence[int],
    tiles: Sequence[CooperativeTile],
    max_unroll: int,
) -> ForallOp:
    """A thread forall with `mapping` over the thread grid `trips` in which
    each thread writes a strided share of every tile (one forall for all of
    them, so the mapping needs one barrier after it; see the module doc)."""
    body = Block(arg_types=[IndexType()] * len(trips))
    for arg, attr in zip(body.args, mapping.data, strict=True):
        assert isinstance(attr, ThreadMappingAttr)
        arg.name_hint = f"t{attr.dimension}"
    thread = linear_thread_id(mapping, trips, body)
    threads = max(1, prod(trips))
    for tile in tiles:
        elements = prod(tile.bound)
        loop_body = Block(arg_types=[IndexType()])
        if elements % threads == 0:
            loop_body.args[0].name_hint = "r"
            indices = _element_indices(
                tile.bound, thread, threads, loop_body.args[0], loop_body
            )
            start = _index_constant(0, body)
            end = _index_constant(elements // threads, body)
            step = _index_constant(1, body)
        else:
            loop_body.args[0].name_hint = "e"
            indices = _element_indices(
                tile.bound, loop_body.args[0], threads, None, loop_body
            )
            start = _index_constant(thread, body) if isinstance(thread, int) else thread
            end = _index_constant(elements, body)
            step = _index_constant(threads, body)
        _write_element(tile, indices, loop_body)
        loop_body.add_op(YieldOp())
        loop = ForOp(start, end, step, [], Region(loop_body))
        if elements % threads == 0 and elements // threads <= max_unroll:
            loop.attributes[UNROLL_ATTRIBUTE] = UnitAttr()
        body.add_op(loop)
    body.add_op(InParallelOp())
    return ForallOp(
        [0] * len(trips), list(trips), [1] * len(trips), Region(body), (), mapping
    )
