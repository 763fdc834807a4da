"""`linalg-pad-contractions`: contractions on zero-padded operands their tiles divide.

A 1000x1000x1000 matmul tiled 128x128x16 has a partial tile in every
dimension: each tile's sizes are `affine.min`s, the thread loops get dynamic
bounds, and the accumulators cannot live in registers
(`gpu-promote-accumulators` needs constant loops), so every multiply-add
reads and writes global memory. Padding the operands to multiples of the
tile sizes (1024 here) makes every tile full. This is MLIR's
`transform.structured.pad` with `pad_to_multiple_of` (what IREE does before
distributing a matmul to GPU threads), on buffers:

```mlir
// before
linalg.generic {matmul} ins(%a, %b : memref<1000x1000xf32>, memref<1000x1000xf32>)
                        outs(%c : memref<1000x1000xf32>)
// after
%pa = memref.alloc() : memref<1024x1024xf32>
linalg.fill ins(%zero : f32) outs(%pa : memref<1024x1024xf32>)
%va = memref.subview %pa[0, 0] [1000, 1000] [1, 1]
    : ... to memref<1000x1000xf32, strided<[1024, 1]>>
memref.copy %a, %va : ...
... %pb, %pc alike (%c copied in too: the contraction adds to it) ...
linalg.generic {matmul} ins(%pa, %pb : ...) outs(%pc : memref<1024x1024xf32>)
memref.copy %vc, %c : ...
memref.dealloc %pc, %pb, %pa
```

Contract
--------
Input: `linalg.generic` contractions on memrefs (`is_contraction`: a
reduction, one output, `out + a * b`) with static shapes and projected
permutation maps, outside GPU loops, whose operands are distinct values (`a
@ a` is left alone: one buffer would need two padded shapes). With
`multiples=M,N,K`, the last two loops that index the output alone (i, j) are
padded up to multiples of `M` and `N`, the innermost reduction loop (k) to a
multiple of `K` (of `half-reduction-multiple`, when it is set, for f16 or
bf16 operands into f32: `irkit.analysis.structured.takes_tensor_cores`),
other loops not at all. With `gather-multiples=M,N,K`, a contraction (not
half into f32) an operand of which a gather stages
(`irkit.analysis.contraction_fusion.has_gathered_operand`: a convolution's
im2col, an implicit GEMM, which `linalg-tile-for-gpu` tiles with its
`gather-block`) is padded to those multiples instead. An op is padded when some extent
grows and the padded iteration space is at most `max-growth-percent` percent
larger than the original (so a 1000^3 matmul, 6% larger, is padded; a 130^3
one, 330% larger, is not). An extent no larger than its multiple is not
padded: its tile is clamped to it, one full tile.

Output: each operand with a padded dimension is replaced by a new buffer of
the padded shape, holding a copy of the operand in its leading corner and
zero elsewhere (a buffer grown along one dimension has only that margin
filled; along several, the whole buffer, before the copy); the output's
corner is copied back after the op; the new buffers are deallocated after that.

An operand that is a `memref.alloc` of the contraction's block (used as
itself, not through a view: an intermediate result) whose only padded
dimension is its leading one is padded *in place* instead (its corner then
has the strides of the buffer it replaces, so the views already taken of it
stay exact): its allocation becomes one of the padded shape, its margin
zero-filled just before the contraction (and its prologue: the only reader
of the margin), and every use of it (the op that writes it, the ops that
read it after the contraction) becomes a use of the leading corner; its
deallocation frees the padded buffer. No copy in or out is made, and the
product's readers read its corner, which `linalg-tile-for-gpu` fuses as an
epilogue. A product filled by its prologue (`irkit.analysis.
contraction_fusion.fusable_prologue`) is not zero-filled: the prologue fills
the whole padded product instead, next to the contraction, whose kernel
then runs it.

Preserves: every element of the output. Padded iterations of i or j write
only padded output elements, which are dropped; padded iterations of k add
`0 * 0`, so each valid element is the same sum (a `-0.0` result may become
`+0.0`). Float and integer element types both pad with zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.contraction_fusion import fusable_prologue, has_gathered_operand
from irkit.analysis.gpu_mapping import in_gpu_loops
from irkit.analysis.structured import (
    MAX_PADDING_GROWTH_PERCENT,
    StructuredComputation,
    is_contraction,
    operand_loop_ranges,
    padded_ranges,
    parallel_loop_dims,
    takes_tensor_cores,
)
from irkit.dialects import linalg, memref
from irkit.transforms.pipelines import GPU_MATMUL_BLOCK
from irkit.transforms.utils.builders import strided_view

PASS_NAME = "linalg-pad-contractions"


def _zero(element: Attribute) -> arith.ConstantOp | None:
    if isinstance(element, AnyFloat):
        return arith.ConstantOp(FloatAttr(0.0, element))
    if isinstance(element, IntegerType):
        return arith.ConstantOp(IntegerAttr(0, element))
    return None


def loop_multiples(
    computation: StructuredComputation, multiples: Sequence[int]
) -> list[int]:
    """Per loop, the multiple its extent is padded to (1: not padded)."""
    result = [1] * computation.num_loops
    concurrent = parallel_loop_dims(computation)
    reductions = [
        loop
        for loop, kind in enumerate(computation.iterator_types)
        if kind == IteratorType.REDUCTION
    ]
    if len(concurrent) < 2 or not reductions:
        return result
    i, j = concurrent[-2:]
    result[i], result[j], result[reductions[-1]] = multiples
    return result


def _padded_copy(
    operand: SSAValue, shape: Sequence[int], zero: SSAValue, at: InsertPoint
) -> tuple[SSAValue, SSAValue]:
    """A zero-filled buffer of `shape` holding `operand` in its leading
    corner, and the view of that corner."""
    operand_type = operand.type
    assert isinstance(operand_type, MemRefType)
    alloc = memref.AllocOp.get(operand_type.get_element_type(), shape=list(shape))
    alloc.results[0].name_hint = "padded"
    Rewriter.insert_op(alloc, at)
    buffer = alloc.results[0]
    original = list(operand_type.get_shape())
    _zero_margin(buffer, original, zero, at)
    rank = len(original)
    corner = strided_view(buffer, [0] * rank, original, [1] * rank, at)
    return buffer, corner


def _zero_margin(
    buffer: SSAValue, original: Sequence[int], zero: SSAValue, at: InsertPoint
) -> None:
    """Zero what lies outside `buffer`'s leading corner of shape `original`
    (the corner is written before it is read). A buffer padded along one
    dimension has its margin filled alone: 88 rows of a 1664x3072 product,
    not all 1664 (a 20 MB fill, 13 us on the H100, for ViT's 1576 tokens).
    Padded along several, the whole buffer is filled: one op, not one per
    slab of the margin."""
    buffer_type = buffer.type
    assert isinstance(buffer_type, MemRefType)
    shape = list(buffer_type.get_shape())
    grown = [d for d, (old, new) in enumerate(zip(original, shape)) if new > old]
    target = buffer
    if len(grown) == 1:
        (d,) = grown
        offsets = [original[d] if i == d else 0 for i in range(len(shape))]
        sizes = [size - original[d] if i == d else size for i, size in enumerate(shape)]
        target = strided_view(buffer, offsets, sizes, [1] * len(shape), at)
    Rewriter.insert_op(linalg.FillOp([zero], [target], []), at)


def pad_contraction(
    generic: GenericOp, multiples: Sequence[int], max_growth_percent: int
) -> bool:
    """Pad one contraction (see the module doc); whether it was."""
    if not is_contraction(generic) or generic.results:
        return False
    computation = StructuredComputation.of(generic)
    if len(set(computation.operands)) != len(computation.operands):
        return False  # `a @ a`: one buffer would need two padded shapes
    known = operand_loop_ranges(computation)
    if known is None or None in known:
        return False
    ranges = [size for size in known if size is not None]
    padded = padded_ranges(
        ranges, loop_multiples(computation, multiples), max_growth_percent
    )
    if padded is None:
        return False
    output = generic.outputs[0]
    output_type = output.type
    assert isinstance(output_type, MemRefType)
    zero_op = _zero(output_type.get_element_type())
    if zero_op is None:
        return False
    at = InsertPoint.before(generic)
    replacements: dict[SSAValue, SSAValue] = {}
    corners: dict[SSAValue, SSAValue] = {}
    buffers: list[SSAValue] = []
    prologue = fusable_prologue(generic)
    for operand, indexing_map in zip(
        computation.operands, computation.indexing_maps, strict=True
    ):
        operand_type = operand.type
        assert isinstance(operand_type, MemRefType)
        shape = [
            padded[expr.position] if isinstance(expr, AffineDimExpr) else size
            for size, expr in zip(operand_type.get_shape(), indexing_map.results)
        ]
        if shape == list(operand_type.get_shape()):
            continue
        if _paddable_in_place(operand, shape, generic):
            filled_by_prologue = operand is output and prologue is not None
            # The margin's zeros, read by this contraction alone, are filled
            # just before it (and its prologue), not where the buffer is
            # allocated: there the fill would part the product that writes
            # the corner from its epilogue, which then runs a kernel apart.
            margin_at = None
            if not filled_by_prologue:
                margin_at = InsertPoint.before(prologue or generic)
            buffer, corner = _pad_in_place(operand, shape, margin_at)
            if filled_by_prologue:
                assert prologue is not None
                # The prologue fills the whole padded product: its margin is
                # dropped anyway, and the fill stays next to the contraction.
                prologue.operands = [
                    buffer if value is corner else value for value in prologue.operands
                ]
            replacements[corner] = buffer
            continue
        if zero_op.parent is None:
            Rewriter.insert_op(zero_op, at)
        buffer, corner = _padded_copy(operand, shape, zero_op.result, at)
        Rewriter.insert_op(memref.CopyOp(operand, corner), at)
        replacements[operand] = buffer
        corners[operand] = corner
        buffers.append(buffer)
    padded_op = generic.clone(value_mapper=dict(replacements))
    Rewriter.replace_op(generic, padded_op)
    after = InsertPoint.after(padded_op)
    tail: list[Operation] = []
    if output in corners:
        tail.append(memref.CopyOp(corners[output], output))
    tail += [memref.DeallocOp.get(buffer) for buffer in reversed(buffers)]
    Rewriter.insert_op(tail, after)
    return True


def _paddable_in_place(
    operand: SSAValue, padded_shape: Sequence[int], contraction: GenericOp
) -> bool:
    """Whether `operand` is an allocation of the contraction's block, used
    as itself (no view), that can become the corner of a padded one: every
    reader and writer then sees the corner, and no copy in or out is made.

    Only the leading dimension may grow: the corner then has the strides
    and offset of the buffer it replaces, so the views and ops that already
    use it (types computed for a row-major buffer, a collapse of its
    dimensions) stay exact. Padding an inner dimension would change the
    strides under them."""
    alloc = operand.owner
    operand_type = operand.type
    if not (
        isinstance(alloc, memref.AllocOp)
        and alloc.parent_block() is contraction.parent_block()
        and not alloc.dynamic_sizes
        and isinstance(operand_type, MemRefType)
        and isinstance(operand_type.layout, NoneAttr)
    ):
        return False
    shape = list(operand_type.get_shape())
    return bool(shape) and list(padded_shape[1:]) == shape[1:]


def _pad_in_place(
    operand: SSAValue, shape: Sequence[int], margin_at: InsertPoint | None
) -> tuple[SSAValue, SSAValue]:
    """Allocate `shape` where `operand` is allocated, its margin zero-filled
    at `margin_at` (None: not filled), and make every use of `operand` a use
    of its leading corner; the deallocation frees the padded buffer. Returns
    the padded buffer and the corner."""
    alloc = operand.owner
    assert isinstance(alloc, memref.AllocOp)
    operand_type = operand.type
    assert isinstance(operand_type, MemRefType)
    element = operand_type.get_element_type()
    padded = memref.AllocOp.get(element, shape=list(shape))
    padded.results[0].name_hint = "padded"
    Rewriter.insert_op(padded, InsertPoint.after(alloc))
    buffer = padded.results[0]
    at = InsertPoint.after(padded)
    original = list(operand_type.get_shape())
    if margin_at is not None:
        zero = _zero(element)
        assert zero is not None  # checked for the output's type before
        Rewriter.insert_op(zero, margin_at)
        _zero_margin(buffer, original, zero.result, margin_at)
    rank = len(original)
    corner = strided_view(buffer, [0] * rank, original, [1] * rank, at)
    for use in list(operand.uses):
        user = use.operation
        user.operands[use.index] = (
            buffer if isinstance(user, memref.DeallocOp) else corner
        )
    Rewriter.erase_op(alloc)
    return buffer, corner


def _is_half_precision(op: GenericOp) -> bool:
    """Whether `op` multiplies f16 or bf16 operands into f32 (a tensor-core
    matmul)."""
    types = [
        t.get_element_type() if isinstance(t := value.type, MemRefType) else t
        for value in (*op.inputs, *op.outputs)
    ]
    return len(op.outputs) == 1 and takes_tensor_cores(types[:-1], types[-1])


def pad_contractions(
    module: ModuleOp,
    multiples: Sequence[int],
    max_growth_percent: int,
    half_reduction_multiple: int = 0,
    gather_multiples: Sequence[int] = (),
) -> None:
    if len(multiples) != 3 or any(m < 1 for m in multiples):
        raise PassFailedException(
            f"{PASS_NAME}: multiples takes 3 positive sizes (M, N, K)"
        )
    if gather_multiples and (
        len(gather_multiples) != 3 or any(m < 1 for m in gather_multiples)
    ):
        raise PassFailedException(
            f"{PASS_NAME}: gather-multiples takes 3 positive sizes (M, N, K)"
        )
    if max_growth_percent < 0:
        raise PassFailedException(f"{PASS_NAME}: max-growth-percent must be >= 0")
    if half_reduction_multiple < 0:
        raise PassFailedException(
            f"{PASS_NAME}: half-reduction-multiple must be >= 0 (0: the K of multiples)"
        )
    half_multiples = (*multiples[:2], half_reduction_multiple or multiples[2])
    for op in [o for o in module.walk() if isinstance(o, GenericOp)]:
        if in_gpu_loops(op):
            continue
        chosen = multiples
        if _is_half_precision(op):
            chosen = half_multiples
        elif gather_multiples and has_gathered_operand(op):
            chosen = gather_multiples
        pad_contraction(op, chosen, max_growth_percent)


@dataclass(frozen=True)
class LinalgPadContractionsPass(ModulePass):
    """Contractions run on zero-padded operands their tiles divide."""

    name = PASS_NAME

    # `lower-to-cuda`'s block tile: the sizes `linalg-tile-for-gpu` divides.
    multiples: tuple[int, ...] = GPU_MATMUL_BLOCK
    # Padded iterations at most this many percent of the original ones
    # (`MAX_PADDING_GROWTH_PERCENT`: up to twice the iterations, padding wins).
    max_growth_percent: int = MAX_PADDING_GROWTH_PERCENT
    # K's multiple for f16/bf16 matmuls into f32 (0: `multiples`' K):
    # `lower-to-cuda` pads theirs to whole warpgroup-product K steps.
    half_reduction_multiple: int = 0
    # The multiples of an implicit GEMM (a contraction an operand of which a
    # gather such as an im2col stages: `has_gathered_operand`), which
    # `linalg-tile-for-gpu` tiles with `gather-block`: `lower-to-cuda` passes
    # its `conv-block`. Empty: `multiples`.
    gather_multiples: tuple[int, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pad_contractions(
            op,
            self.multiples,
            self.max_growth_percent,
            self.half_reduction_multiple,
            self.gather_multiples,
        )
