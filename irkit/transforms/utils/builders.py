"""IR builders that several passes share: index constants, memref views,
and cleaning up what a rewrite leaves behind.

- `index_constant`: an `arith.constant ... : index` at an insertion point;
- `subview_type`: MLIR's inferred result type of a `memref.subview`
  (`SubViewOp::inferResultType`), strides multiplied by the view's steps;
- `strided_view`: a `memref.subview` of that type, inserted;
- `workgroup_alloc`: a `memref.alloc` in GPU workgroup memory, inserted;
- `identity_copy`: the identity `linalg.generic` copying one memref into
  another (what `memref.copy` does, in a form the tiling passes tile);
- `erase_dead_values`: erase the unused, effect-free ops that computed
  values a rewrite stopped using;
- `i64_vector`: `dense<[a, b]> : vector<2xi64>`, a window op's strides or
  dilations;
- `pad_op`: a `tensor.pad` by one value (not inserted);
- `hoist_to_contraction`: the allocations, views and constants between a
  contraction and its fused epilogue (`irkit.analysis.contraction_fusion`)
  moved before the contraction, where the fused kernel runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StridedLayoutAttr,
    TensorType,
    VectorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.tensor import YieldOp as TensorYieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from irkit.analysis.memory import memref_strides
from irkit.dialects import memref, tensor
from irkit.dialects.gpu import workgroup_memory_space

# A static size or offset, or an SSA `index` value.
Size = int | SSAValue


def index_constant(value: int, at: InsertPoint) -> SSAValue:
    """An `index` constant inserted at `at`."""
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    Rewriter.insert_op(constant, at)
    return constant.result


def subview_type(
    source: MemRefType,
    offsets: Sequence[Size],
    sizes: Sequence[Size],
    strides: Sequence[int] | None = None,
) -> MemRefType:
    """MLIR's inferred type of `memref.subview source[offsets][sizes][strides]`.

    Static where known: the offset while every offset and stride is, each
    stride the source's times the step (1 when `strides` is None), the sizes
    that are integers; the source's memory space.
    """
    source_strides, offset = memref_strides(source)
    steps = [1] * len(sizes) if strides is None else strides
    layout_strides: list[int | None] = []
    for start, stride, step in zip(offsets, source_strides, steps, strict=True):
        if offset is None or not isinstance(start, int) or stride is None:
            offset = None
        else:
            offset += start * stride
        layout_strides.append(None if stride is None else stride * step)
    shape = [size if isinstance(size, int) else DYNAMIC_INDEX for size in sizes]
    return MemRefType(
        source.get_element_type(),
        shape,
        StridedLayoutAttr(layout_strides, offset),
        source.memory_space,
    )


def strided_view(
    source: SSAValue,
    offsets: Sequence[Size],
    sizes: Sequence[Size],
    strides: Sequence[int],
    at: InsertPoint,
) -> SSAValue:
    """`memref.subview source[offsets][sizes][strides]` with MLIR's result type."""
    source_type = source.type
    assert isinstance(source_type, MemRefType)
    result_type = subview_type(source_type, offsets, sizes, strides)
    view = memref.SubviewOp.get(source, offsets, sizes, strides, result_type)
    Rewriter.insert_op(view, at)
    return view.result


def erase_dead_values(values: Iterable[SSAValue]) -> None:
    """Erase the ops computing `values`, then those computing their operands,
    while nothing uses them and they have no effect (xDSL's
    `is_trivially_dead`): index math or guards a rewrite left behind."""
    pending = list(values)
    while pending:
        owner = pending.pop().owner
        if (
            isinstance(owner, Operation)
            and owner.parent is not None
            and is_trivially_dead(owner)
        ):
            pending += owner.operands
            Rewriter.erase_op(owner)


def workgroup_alloc(
    element_type: Attribute, shape: Sequence[int], hint: str, at: InsertPoint
) -> SSAValue:
    """A `memref.alloc` of `shape` in workgroup memory, named `hint`, at `at`."""
    alloc = memref.AllocOp(
        [],
        [],
        MemRefType(element_type, list(shape), memory_space=workgroup_memory_space()),
    )
    alloc.memref.name_hint = hint
    Rewriter.insert_op(alloc, at)
    return alloc.memref


def identity_copy(source: SSAValue, destination: SSAValue) -> GenericOp:
    """The identity `linalg.generic` copying `source` into `destination`
    (not inserted)."""
    source_type = source.type
    assert isinstance(source_type, MemRefType)
    return permuted_copy(source, destination, range(source_type.get_num_dims()))


def permuted_copy(
    source: SSAValue, destination: SSAValue, permutation: Iterable[int]
) -> GenericOp:
    """The `linalg.generic` copying `source` into `destination` with
    `destination[i_0, ..., i_r] = source[i_p(0), ..., i_p(r)]` for
    `p = permutation` (source dimension k indexed by destination dimension
    p(k)), not inserted."""
    source_type = source.type
    assert isinstance(source_type, MemRefType)
    rank = source_type.get_num_dims()
    identity = AffineMap.identity(rank)
    permuted = AffineMap(rank, 0, tuple(identity.results[d] for d in permutation))
    body = Block(arg_types=[source_type.get_element_type()] * 2)
    body.args[0].name_hint, body.args[1].name_hint = "in", "out"
    body.add_op(LinalgYieldOp(body.args[0]))
    return GenericOp(
        [source],
        [destination],
        Region(body),
        [AffineMapAttr(permuted), AffineMapAttr(identity)],
        [IteratorTypeAttr(IteratorType.PARALLEL)] * rank,
    )


def i64_vector(values: Sequence[int]) -> DenseIntElementsAttr:
    """`dense<[a, b]> : vector<2xi64>`: the strides or dilations of a window
    op (a convolution, a pooling)."""
    vector = DenseIntOrFPElementsAttr.from_list(
        VectorType(i64, [len(values)]), list(values)
    )
    return cast(DenseIntElementsAttr, vector)


def pad_op(
    value: SSAValue, low: Sequence[int], high: Sequence[int], padding: SSAValue
) -> tensor.PadOp:
    """`tensor.pad` of the static tensor `value` by `low[d]` and `high[d]`
    elements of `padding` along each dimension d (not inserted)."""
    tensor_type = value.type
    assert isinstance(tensor_type, TensorType)
    shape = [
        size + before + after
        for size, before, after in zip(tensor_type.get_shape(), low, high, strict=True)
    ]
    block = Block(arg_types=[IndexType()] * len(shape))
    block.add_op(TensorYieldOp(padding))
    return tensor.PadOp(
        value,
        [],
        [],
        Region(block),
        low,
        high,
        TensorType(tensor_type.get_element_type(), shape),
    )


def hoist_to_contraction(contraction: Operation, epilogue: Operation) -> None:
    """Move the ops between `contraction` and `epilogue` (inert ones:
    `fusable_epilogue` checked) before `contraction`, so that what the
    epilogue reads is defined where its fused kernel runs. Deallocations
    stay: they free what the fused kernel, before them, no longer reads."""
    between = []
    current = contraction.next_op
    while current is not None and current is not epilogue:
        between.append(current)
        current = current.next_op
    for inert in between:
        if inert.name == "memref.dealloc":
            continue
        inert.detach()
        Rewriter.insert_op(inert, InsertPoint.before(contraction))
