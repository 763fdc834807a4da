"""`linalg-split-reduction`: split a matmul's reduction so its grid fills the GPU.

MLIR's `linalg::splitReduction` (`transform.structured.split_reduction`,
what IREE calls split-K), on tensors. A matmul of 64 rows, 4096 columns and
a reduction of 1024 fills a few dozen blocks of the H100's 132
multiprocessors whatever its tiles: each block walks all 1024 products of
its outputs alone. Split into `S` parts, the reduction becomes `S`
independent matmuls, a batch on the grid, and one short reduction of their
partial results:

```mlir
%c = linalg.generic {(d0, d1, d2) -> (d0, d2), (d0, d1, d2) -> (d1, d2),
                     (d0, d1, d2) -> (d0, d1)} ["parallel", "parallel", "reduction"]
    ins(%x, %w : tensor<64x1024xf32>, tensor<4096x1024xf32>) outs(%init ...)
```

becomes, with `S = 4`,

```mlir
%x3 = tensor.expand_shape %x [[0], [1, 2]] ... into tensor<64x4x256xf32>
%w3 = tensor.expand_shape %w [[0], [1, 2]] ... into tensor<4096x4x256xf32>
%zero = linalg.fill ... -> tensor<4x64x4096xf32>
%partial = linalg.generic {(d0, d1, d2, d3) -> (d1, d0, d3),
                           (d0, d1, d2, d3) -> (d2, d0, d3),
                           (d0, d1, d2, d3) -> (d0, d1, d2)}
    ["parallel", "parallel", "parallel", "reduction"]
    ins(%x3, %w3 ...) outs(%zero ...)            // the matmul's body
%c = linalg.generic {(d0, d1, d2) -> (d2, d0, d1), (d0, d1, d2) -> (d0, d1)}
    ["parallel", "parallel", "reduction"]
    ins(%partial ...) outs(%init ...) { %acc + %p }
```

Contract
--------
Input: any IR. A `linalg.generic` on static tensors is split when it is a
contraction (`is_contraction`) of two parallel loops and one reduction loop
`k`, its output map reads the two parallel loops as bare dimensions, each
input reads `k` at most once as a bare dimension, its element type is a
float (an integer sum is exact either way, and not worth a second kernel),
neither parallel extent is 1 (a one-row matmul is a matrix-vector product
for `linalg-fold-unit-extent-dims` and the row-group passes), it is not a
tensor-core matmul when `tensor-cores` is set (`takes_tensor_cores`: f16
or bf16 operands into f32, or f32 ones with `tf32`: `convert-linalg-to-mma`
fills the grid with smaller tiles of its own, and takes no split part,
whose operands are read through the split), and the grid
would be short: with `multiprocessors=P` (0, the default: never) and block
tiles of at least `min-block` x `min-block` (`linalg-tile-for-gpu`'s
smallest, from `fill_the_grid`), at most `P / 2` blocks. `S` is the smallest
power of two that gives at least 1.5 `P` blocks, as long as each part keeps
`k / S >= min-steps * k-step` and `k-step * S` divides `k` (each part runs
whole K steps of the tile); no such `S > 1`, no split.

Output: as above. The partial product's loops are `(s, the original loops
with k as the part's offset kk)`; each input that reads `k` is expanded
along it into `(S, k / S)` with a `tensor.expand_shape`. Partials start
from a zero fill; the final reduction adds them, in order of `s`, to the
original init with the body's combiner (`arith.addf`).

Preserves: the value of every output element up to floating-point
reassociation: each element is the same products, summed in `S` runs of
`k / S` in order, then the runs in order, where the original summed them
in one run (as cuBLAS's split-K does). The results agree to rounding, not
bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg import ops as upstream
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.structured import (
    StructuredComputation,
    is_contraction,
    is_fill,
    takes_tensor_cores,
)
from irkit.dialects import tensor
from irkit.dialects.linalg import GenericOp

PASS_NAME = "linalg-split-reduction"


@dataclass(frozen=True)
class SplitOptions:
    """When to split (see the module docstring)."""

    multiprocessors: int = 0
    min_block: int = 64
    k_step: int = 16
    min_steps: int = 4
    tensor_cores: bool = False
    tf32: bool = False


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def split_count(m: int, n: int, k: int, options: SplitOptions) -> int:
    """The number of parts to split a reduction of `k` into, for an `m x n`
    output; 1 when the grid is full already or `k` cannot be split."""
    if options.multiprocessors <= 0:
        return 1
    blocks = _ceil_div(m, options.min_block) * _ceil_div(n, options.min_block)
    if 2 * blocks > options.multiprocessors:
        # Half the multiprocessors busy or more: smaller tiles fill the rest
        # (`fill_the_grid`) for less than a second kernel and the partials'
        # round trip cost.
        return 1
    target = _ceil_div(3 * options.multiprocessors, 2)
    parts = 1
    while blocks * parts < target:
        candidate = parts * 2
        if k % (candidate * options.k_step):
            break
        if k // candidate < options.min_steps * options.k_step:
            break
        parts = candidate
    return parts


def _combiner(op: GenericOp) -> str | None:
    """The op that adds a product into the accumulator (`arith.addf`)."""
    accumulator = op.body.block.args[-1]
    uses = list(accumulator.uses)
    if len(uses) != 1:
        return None
    name = uses[0].operation.name
    return name if name == "arith.addf" else None


@dataclass(frozen=True)
class _Contraction:
    """A splittable contraction: its loops and extents."""

    parallel: tuple[int, int]
    reduction: int
    ranges: dict[int, int]
    element: Attribute


def _splittable(op: GenericOp, options: SplitOptions) -> _Contraction | None:
    if not is_contraction(op) or len(op.res) != 1:
        return None
    if not all(
        isinstance(value.type, TensorType) and value.type.has_static_shape()
        for value in op.operands
    ):
        return None
    if options.tensor_cores and takes_tensor_cores(
        [cast(TensorType, value.type).get_element_type() for value in op.inputs],
        cast(TensorType, op.outputs[0].type).get_element_type(),
        options.tf32,
    ):
        return None
    computation = StructuredComputation.of(op)
    kinds = computation.iterator_types
    if len(kinds) != 3:
        return None
    reductions = [
        loop for loop, kind in enumerate(kinds) if kind == IteratorType.REDUCTION
    ]
    if len(reductions) != 1:
        return None
    (k,) = reductions
    i, j = (loop for loop in range(3) if loop != k)
    output_map = computation.output_maps[0]
    if [getattr(e, "position", None) for e in output_map.results] not in (
        [i, j],
        [j, i],
    ):
        return None
    ranges: dict[int, int] = {}
    for value, map_ in zip(
        computation.operands, computation.indexing_maps, strict=True
    ):
        assert isinstance(value.type, TensorType)
        shape = value.type.get_shape()
        if not all(isinstance(e, AffineDimExpr) for e in map_.results):
            return None
        positions = [e.position for e in map_.results if isinstance(e, AffineDimExpr)]
        if positions.count(k) > 1:
            return None
        for position, loop in enumerate(positions):
            ranges.setdefault(loop, shape[position])
    if set(ranges) != {0, 1, 2}:
        return None
    element = op.outputs[0].type
    assert isinstance(element, TensorType)
    element_type = element.get_element_type()
    if not isinstance(element_type, AnyFloat) or _combiner(op) is None:
        return None
    return _Contraction((i, j), k, ranges, element_type)


def split_reduction(
    op: GenericOp, options: SplitOptions, rewriter: PatternRewriter
) -> bool:
    """Split `op`'s reduction (see the module docstring); whether it was."""
    found = _splittable(op, options)
    if found is None:
        return False
    i, j = found.parallel
    k = found.reduction
    m, n, extent = found.ranges[i], found.ranges[j], found.ranges[k]
    if m == 1 or n == 1:
        return False
    parts = split_count(m, n, extent, options)
    if parts == 1:
        return False
    part = extent // parts
    computation = StructuredComputation.of(op)
    at = InsertPoint.before(op)

    # The partial product: loop 0 is the part s, loop l + 1 the original l
    # (k now the offset kk inside the part).
    def shifted(loop: int) -> AffineExpr:
        return AffineExpr.dimension(loop + 1)

    part_maps: list[AffineMap] = []
    part_inputs: list[SSAValue] = []
    for value, map_ in zip(op.inputs, computation.indexing_maps, strict=False):
        assert isinstance(value.type, TensorType)
        results: list[AffineExpr] = []
        groups: list[list[int]] = []
        shape: list[int] = []
        for position, expr in enumerate(map_.results):
            assert isinstance(expr, AffineDimExpr)
            size = value.type.get_shape()[position]
            if expr.position == k:
                groups.append([len(shape), len(shape) + 1])
                shape += [parts, part]
                results += [AffineExpr.dimension(0), shifted(k)]
            else:
                groups.append([len(shape)])
                shape.append(size)
                results.append(shifted(expr.position))
        part_maps.append(AffineMap(4, 0, tuple(results)))
        if len(shape) == len(value.type.get_shape()):
            part_inputs.append(value)
            continue
        expanded_type = TensorType(value.type.get_element_type(), shape)
        expand = tensor.ExpandShapeOp(
            value, [], tensor.reassociation_attr(groups), shape, expanded_type
        )
        rewriter.insert(expand, at)
        part_inputs.append(expand.result)
    output_map = computation.output_maps[0]
    partial_shape = [parts] + [
        found.ranges[e.position]
        for e in output_map.results
        if isinstance(e, AffineDimExpr)
    ]
    partial_type = TensorType(found.element, partial_shape)
    part_maps.append(
        AffineMap(
            4,
            0,
            (
                AffineExpr.dimension(0),
                *(
                    shifted(e.position)
                    for e in output_map.results
                    if isinstance(e, AffineDimExpr)
                ),
            ),
        )
    )
    empty = tensor.EmptyOp([], partial_type)
    zero = arith.ConstantOp(FloatAttr(0.0, cast(AnyFloat, found.element)))
    fill_block = Block(arg_types=[found.element, found.element])
    fill_block.add_op(LinalgYieldOp(fill_block.args[0]))
    fill = GenericOp(
        [zero.result],
        [empty.tensor],
        Region(fill_block),
        [AffineMapAttr(AffineMap(3, 0, ())), AffineMapAttr(AffineMap.identity(3))],
        ArrayAttr([IteratorTypeAttr(IteratorType.PARALLEL)] * 3),
        [partial_type],
    )
    rewriter.insert([empty, zero, fill], at)
    partial = GenericOp(
        part_inputs,
        [fill.res[0]],
        op.body.clone(),
        [AffineMapAttr(map_) for map_ in part_maps],
        ArrayAttr(
            [IteratorTypeAttr(IteratorType.PARALLEL)]
            + [op.iterator_types.data[loop] for loop in range(3)]
        ),
        [partial_type],
    )
    partial.location = op.location
    rewriter.insert(partial, at)
    init = op.outputs[0].owner
    if (
        (
            isinstance(init, upstream.FillOp)
            or (isinstance(init, GenericOp) and is_fill(init))
        )
        and init.parent_block() is op.parent_block()
        and len(list(init.results[0].uses)) == 1
    ):
        # The product's fill goes next to the sum of the parts, whose kernel
        # then runs it (`linalg-tile-for-gpu`'s prologues).
        init.detach()
        rewriter.insert(init, at)

    # The sum of the parts: loops (the output's two, in the output map's
    # order of appearance in the original loops), then s.
    kept = [loop for loop in range(3) if loop != k]
    position_of = {loop: index for index, loop in enumerate(kept)}
    final_out_map = AffineMap(
        3,
        0,
        tuple(
            AffineExpr.dimension(position_of[e.position])
            for e in output_map.results
            if isinstance(e, AffineDimExpr)
        ),
    )
    partial_read = AffineMap(3, 0, (AffineExpr.dimension(2), *final_out_map.results))
    sum_block = Block(arg_types=[found.element, found.element])
    total = arith.AddfOp(sum_block.args[1], sum_block.args[0])
    sum_block.add_ops([total, LinalgYieldOp(total.result)])
    final = GenericOp(
        [partial.res[0]],
        list(op.outputs),
        Region(sum_block),
        [AffineMapAttr(partial_read), AffineMapAttr(final_out_map)],
        ArrayAttr(
            [IteratorTypeAttr(IteratorType.PARALLEL)] * 2
            + [IteratorTypeAttr(IteratorType.REDUCTION)]
        ),
        [op.res[0].type],
    )
    final.location = op.location
    rewriter.replace(op, final)
    return True


@dataclass
class SplitReduction(RewritePattern):
    options: SplitOptions

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        split_reduction(op, self.options, rewriter)


@dataclass(frozen=True)
class LinalgSplitReductionPass(ModulePass):
    """Split a short-grid matmul's reduction into parts on the grid.

    Input: any IR; `linalg.generic` contractions on static float tensors are
    considered (see the module docstring). Nothing is rejected.

    Output: each one whose grid would be short as a partial matmul per part
    and a reduction of the parts. `multiprocessors=0` (the default) splits
    nothing; `lower-to-cuda` passes the device's count.

    Preserves: every output element up to floating-point reassociation (the
    parts are summed in order).
    """

    name = PASS_NAME

    multiprocessors: int = SplitOptions.multiprocessors
    min_block: int = SplitOptions.min_block
    k_step: int = SplitOptions.k_step
    min_steps: int = SplitOptions.min_steps
    # Leave tensor-core matmuls whole (`lower-to-cuda` sets them as it runs
    # `convert-linalg-to-mma`).
    tensor_cores: bool = SplitOptions.tensor_cores
    tf32: bool = SplitOptions.tf32

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if (
            min(self.min_block, self.k_step, self.min_steps) < 1
            or self.multiprocessors < 0
        ):
            raise PassFailedException(
                f"{PASS_NAME}: min-block, k-step and min-steps must be positive, "
                "multiprocessors 0 (off) or positive"
            )
        options = SplitOptions(
            self.multiprocessors,
            self.min_block,
            self.k_step,
            self.min_steps,
            self.tensor_cores,
            self.tf32,
        )
        walker = PatternRewriteWalker(SplitReduction(options), apply_recursively=False)
        walker.rewrite_module(op)
