"""Structured-op facts: a linalg op seen as loops over its operands.

MLIR answers these in `Dialect/Linalg/Utils/Utils.cpp` and the
`LinalgStructuredInterface`; irkit's passes ask them of `linalg.generic`s
(named ops through their generic form, `irkit.transforms.utils.generalization`):

- `StructuredComputation`: an op's operands, indexing maps, iterator types
  and body, in the terms the lowerings use;
- `parallel_loop_dims`: the parallel loops whose iterations write disjoint
  output elements (they may run concurrently);
- `is_tileable_map`: a projected permutation (constant-0 results allowed),
  the maps `linalg-tile` can tile;
- `is_contraction`: a matmul-class op (`out + a * b` over a reduction);
  `is_register_tile`: one marked `REGISTER_TILE_ATTR`, already a register
  tile (`linalg-pack-operands`' micro-kernels);
- `loop_dimensions` / `operand_loop_ranges`: which operand dimension gives
  each loop its range, and the static ranges;
- `is_fill`: a generic that reads no tensor nor loop index (a fill);
  `shaped_inputs`: the inputs that are tensors or memrefs;
- `is_on_tensors` / `require_buffers`: value or buffer semantics;
- `padded_ranges`: loop ranges rounded up to the multiples of their tiles,
  when that grows the iteration space little enough to pay
  (`linalg-pad-contractions` on buffers, `linalg-conv-to-im2col`'s columns
  on tensors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from irkit.diagnostics import op_error

# --------------------------------------------------------------------------
# The op as loops
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class StructuredComputation:
    """A linalg op seen as loops: operands, their maps, loop kinds, body.

    `op` is the op being replaced; errors point at it.
    """

    op: Operation
    inputs: Sequence[SSAValue]
    outputs: Sequence[SSAValue]
    indexing_maps: Sequence[AffineMap]
    iterator_types: Sequence[IteratorType]
    body: Block

    @staticmethod
    def of(op: LinalgStructuredOperation) -> StructuredComputation:
        return StructuredComputation(
            op=op,
            inputs=tuple(op.inputs),
            outputs=tuple(op.outputs),
            indexing_maps=tuple(attr.data for attr in op.get_indexing_maps()),
            iterator_types=tuple(kind.data for kind in op.get_iterator_types()),
            body=op.body.block,
        )

    @property
    def operands(self) -> Sequence[SSAValue]:
        return (*self.inputs, *self.outputs)

    @property
    def output_maps(self) -> Sequence[AffineMap]:
        return self.indexing_maps[len(self.inputs) :]

    @property
    def num_loops(self) -> int:
        return len(self.iterator_types)

    @property
    def all_parallel(self) -> bool:
        return all(kind == IteratorType.PARALLEL for kind in self.iterator_types)


def parallel_loop_dims(computation: StructuredComputation) -> list[int]:
    """The parallel loops that may run concurrently.

    A parallel loop that is a plain result of every output map makes
    different iterations write different elements of every output; any other
    parallel loop would write one element from several iterations.
    """
    written_by_all = [
        {expr.position for expr in m.results if isinstance(expr, AffineDimExpr)}
        for m in computation.output_maps
    ]
    return [
        loop
        for loop, kind in enumerate(computation.iterator_types)
        if kind == IteratorType.PARALLEL
        and all(loop in written for written in written_by_all)
    ]


def is_tileable_map(indexing_map: AffineMap) -> bool:
    """A projected permutation whose results may also be the constant 0."""
    seen: set[int] = set()
    for expr in indexing_map.results:
        if isinstance(expr, AffineConstantExpr) and expr.value == 0:
            continue
        if not isinstance(expr, AffineDimExpr) or expr.position in seen:
            return False
        seen.add(expr.position)
    return indexing_map.num_symbols == 0


# --------------------------------------------------------------------------
# Loop ranges from operand shapes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class LoopDimension:
    """The operand dimension that gives `loop` its range.

    `size` is the dimension's static size, or `DYNAMIC_INDEX`.
    """

    loop: int
    operand: SSAValue
    position: int
    size: int


def loop_dimensions(computation: StructuredComputation) -> list[LoopDimension]:
    """For each loop that some shaped operand dimension is indexed by alone
    (a plain `d_i` result of its map), the first such dimension.

    Listed in the order they are found (operands in order, each operand's
    dimensions in order), which is the order lowerings materialise the
    ranges in; a loop no such dimension indexes is missing.
    """
    found: list[LoopDimension] = []
    seen: set[int] = set()
    for operand, indexing_map in zip(
        computation.operands, computation.indexing_maps, strict=True
    ):
        if not isinstance(operand.type, MemRefType | TensorType):
            continue
        shape = operand.type.get_shape()
        for position, expr in enumerate(indexing_map.results):
            if isinstance(expr, AffineDimExpr) and expr.position not in seen:
                seen.add(expr.position)
                found.append(
                    LoopDimension(expr.position, operand, position, shape[position])
                )
    return found


def operand_loop_ranges(computation: StructuredComputation) -> list[int | None] | None:
    """Each loop's range, from the first memref dimension it indexes alone
    (None where none does); None when a memref operand's shape is dynamic."""
    if any(
        isinstance(operand.type, MemRefType) and not operand.type.has_static_shape()
        for operand in computation.operands
    ):
        return None
    ranges: list[int | None] = [None] * computation.num_loops
    for dimension in loop_dimensions(computation):
        if isinstance(dimension.operand.type, MemRefType):
            ranges[dimension.loop] = dimension.size
    return ranges


# --------------------------------------------------------------------------
# Kinds of ops
# --------------------------------------------------------------------------

_MULTIPLY_ACCUMULATE = ((arith.MulfOp, arith.AddfOp), (arith.MuliOp, arith.AddiOp))


def _is_input_argument(value: SSAValue, generic: GenericOp) -> bool:
    return isinstance(value, BlockArgument) and value.index < len(generic.inputs)


# Conversions of an input element to the accumulator's type, as MLIR's
# mixed-precision named ops write them (f16 operands, an f32 accumulator).
_WIDENINGS = ("arith.extf", "arith.extsi", "arith.extui")


def _is_input_element(value: SSAValue, generic: GenericOp) -> bool:
    """An input's element, maybe widened by one `_WIDENINGS` op."""
    if _is_input_argument(value, generic):
        return True
    return (
        isinstance(value, OpResult)
        and value.op.name in _WIDENINGS
        and _is_input_argument(value.op.operands[0], generic)
    )


def _is_multiply_accumulate(generic: GenericOp) -> bool:
    """Whether the body is `yield(out + a * b)` with `a`, `b` input elements,
    each maybe widened to the accumulator's type first (`arith.extf`)."""
    body = generic.body.block
    ops = list(body.ops)
    widenings = [op for op in ops if op.name in _WIDENINGS]
    ops = [op for op in ops if op.name not in _WIDENINGS]
    if len(ops) != 3 or len(widenings) > 2 or not isinstance(ops[2], LinalgYieldOp):
        return False
    multiply, add, yield_op = ops
    accumulator = body.args[-1]
    for multiply_type, add_type in _MULTIPLY_ACCUMULATE:
        if not isinstance(multiply, multiply_type) or not isinstance(add, add_type):
            continue
        product = multiply.results[0]
        if set(add.operands) != {product, accumulator}:
            return False
        if not all(_is_input_element(v, generic) for v in multiply.operands):
            return False
        if any(
            use.operation is not multiply
            for widening in widenings
            for use in widening.results[0].uses
        ):
            return False
        (yielded,) = yield_op.operands
        return isinstance(yielded, OpResult) and yielded.op is add
    return False


def is_contraction(generic: GenericOp) -> bool:
    """A matmul-class op: reductions, one output, `out + a * b`, tileable maps.

    Matmul, batch_matmul, matvec, dot and their transposed forms, with
    operands widened to the accumulator's type or not (f16 into f32); not
    convolutions (window maps `d0 + d2` are not tileable).
    """
    return (
        len(generic.outputs) == 1
        and any(
            kind.data == IteratorType.REDUCTION for kind in generic.get_iterator_types()
        )
        and all(is_tileable_map(attr.data) for attr in generic.indexing_maps)
        and _is_multiply_accumulate(generic)
    )


# The unit attribute marking a contraction as a register tile: a pass that
# sized it for the vector registers (`linalg-pack-operands`) tells the tiling
# passes to leave it whole and `linalg-promote-accumulator` to keep its output
# in registers (MLIR's transformation markers, `LinalgTransformationFilter`).
REGISTER_TILE_ATTR = "irkit.register_tile"


def takes_tensor_cores(
    operands: Sequence[Attribute], accumulator: Attribute, tf32: bool = False
) -> bool:
    """Whether a contraction of `operands` (element types) into `accumulator`
    runs on tensor cores (`convert-linalg-to-mma`): two f16 or two bf16
    operands, or with `tf32` two f32 ones, into f32."""
    if len(operands) != 2 or operands[0] != operands[1]:
        return False
    if not isinstance(accumulator, Float32Type):
        return False
    element = operands[0]
    return isinstance(element, Float16Type | BFloat16Type) or (
        tf32 and isinstance(element, Float32Type)
    )


def is_register_tile(op: Operation) -> bool:
    """Whether `op` carries `REGISTER_TILE_ATTR`."""
    return REGISTER_TILE_ATTR in op.attributes


def shaped_inputs(op: GenericOp) -> list[SSAValue]:
    """The inputs of `op` that are tensors or memrefs (not scalars)."""
    return [value for value in op.inputs if isinstance(value.type, ShapedType)]


def is_fill(op: GenericOp) -> bool:
    """A generic that reads no tensor and no loop index: every element of its
    results is the same value (a `linalg.fill`, generalized)."""
    return (
        not shaped_inputs(op)
        and len(op.res) == len(op.outputs)
        and not any(arg.uses for arg in op.body.block.args[len(op.inputs) :])
        and not any(isinstance(nested, IndexOp) for nested in op.body.walk())
    )


def is_on_tensors(op: Operation) -> bool:
    """Whether a linalg op has value semantics (tensor operands, results)."""
    return bool(op.results) or any(isinstance(v.type, TensorType) for v in op.operands)


def require_buffers(op: Operation, pass_name: str) -> None:
    """Reject a linalg op on tensors: `pass_name` works after `bufferize`."""
    if is_on_tensors(op):
        raise op_error(
            op, f"{pass_name} requires linalg on memrefs: run bufferize first"
        )


# Padded iterations at most this many percent of the original ones. Padding
# pays far beyond 25%: on the H100 a partial-tile batch matmul of 96 x
# 197x197x64 (ViT attention) ran at 0.9 TFLOP/s, 540 us, where the full-tile
# path runs 20-45 TFLOP/s; 1000^3 took 2.75 ms unpadded, 0.21 padded. Up to
# twice the iterations, padding wins.
MAX_PADDING_GROWTH_PERCENT = 100


def padded_ranges(
    ranges: Sequence[int], multiples: Sequence[int], max_growth_percent: int
) -> list[int] | None:
    """`ranges` rounded up to `multiples` (1: a loop not padded), or None
    when nothing grows or the padded space is more than `max_growth_percent`
    percent larger. A range no larger than its multiple is not padded: its
    tile is clamped to it (`linalg-tile-for-gpu`), one full tile already."""
    steps = [
        1 if size <= step else step
        for size, step in zip(ranges, multiples, strict=True)
    ]
    padded = [-(-size // step) * step for size, step in zip(ranges, steps)]
    if padded == list(ranges):
        return None
    if prod(padded) * 100 > prod(ranges) * (100 + max_growth_percent):
        return None
    return padded
