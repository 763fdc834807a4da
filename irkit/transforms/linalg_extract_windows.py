"""`linalg-extract-windows`: window reads as `tensor.extract` in the body.

A pooling or depthwise convolution, generalized, reads its input through a
*window* map, a result that is not a bare loop: `(n, c, oh, ow, kh, kw) ->
(n, c, oh * 2 + kh, ow * 2 + kw)`. The GPU tiling (`linalg-tile-for-gpu`)
can only tile loops that every map reads bare, so it tiled neither `oh` nor
`ow`: each thread ran a whole output plane, and ResNet-18's max pool took
3.7 of its 4.6 ms (H200, 2026-11-27). This pass removes such an input from
the operands and reads it in the body instead, at indices computed from
`linalg.index`:

```mlir
%p = linalg.generic {indexing_maps = [(n, c, oh, ow, kh, kw) -> (kh, kw),
                                      (n, c, oh, ow, kh, kw) -> (n, c, oh, ow)],
                     iterator_types = [par, par, par, par, red, red]}
    ins(%window) outs(%init) {
^bb0(%w: f32, %acc: f32):
  %n = linalg.index 0 ... %kw = linalg.index 5
  %row = %oh * 2 + %kh ; %col = %ow * 2 + %kw          // arith on index
  %x = tensor.extract %input[%n, %c, %row, %col]
  ... the op's body, %x in place of the input's argument ...
}
```

Every loop is then read bare by the remaining operands, and the tiling maps
the output's rows and columns to threads; each thread reads its own
window. (Convolutions take `linalg-conv-to-im2col` before this, in
`lower-to-cuda`: a matmul beats a direct window loop.)

**Contract.** Rewrites a `linalg.generic` on tensors (results present)
whose input map has a window result (two loops or more combined: `oh * 2 +
kh`), every result built of loops and constants by `+` and `*` by a
constant, when the operand is a ranked tensor and
every loop is still read bare by some remaining operand (otherwise the
loop's extent would be lost). Each such input becomes a `tensor.extract`
at the start of the body; nothing else changes. Preserves every result
exactly: each element reads the same values and combines them in the same
order. Ops on memrefs, and maps with `floordiv`, `mod` or symbols, are left
alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.dialects.tensor import ExtractOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from irkit.dialects.linalg import GenericOp
from irkit.transforms.utils.affine_index import AffineIndexEmitter
from irkit.transforms.utils.padding import constant_padding, read_padded

PASS_NAME = "linalg-extract-windows"


def _is_window_expr(expr: AffineExpr) -> bool:
    """Loops and constants under `+` and `*` by a constant."""
    if isinstance(expr, AffineDimExpr | AffineConstantExpr):
        return True
    if not isinstance(expr, AffineBinaryOpExpr):
        return False
    if expr.kind == AffineBinaryOpKind.Add:
        return _is_window_expr(expr.lhs) and _is_window_expr(expr.rhs)
    if expr.kind == AffineBinaryOpKind.Mul:
        return (
            isinstance(expr.rhs, AffineConstantExpr) and _is_window_expr(expr.lhs)
        ) or (isinstance(expr.lhs, AffineConstantExpr) and _is_window_expr(expr.rhs))
    return False


def _is_window_map(indexing_map: AffineMap) -> bool:
    """A map with a window result, one that combines two loops or more (an
    output position and a tap: `oh * 2 + kh`), every result built of loops
    and constants by `+` and `*` by a constant. A broadcast's constant
    result or a slice's offset (`d1 + 768`) is not a window: the tiling
    takes those as they are."""
    return (
        indexing_map.num_symbols == 0
        and all(_is_window_expr(e) for e in indexing_map.results)
        and any(len(e.used_dims()) >= 2 for e in indexing_map.results)
    )


def _bare_loops(indexing_map: AffineMap) -> set[int]:
    return {e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)}


def _index_emitter(body: Block, before: Operation, loops: int) -> AffineIndexEmitter:
    """An emitter of index arithmetic over the body's `linalg.index` values,
    every op it needs (the indices and constants too) inserted before
    `before`."""

    def insert(op: Operation) -> None:
        body.insert_op_before(op, before)

    def constant(value: int) -> SSAValue:
        op = arith.ConstantOp(IntegerAttr(value, IndexType()))
        insert(op)
        return op.result

    indices: list[SSAValue] = []
    for dim in range(loops):
        index = IndexOp(dim)
        insert(index)
        indices.append(index.result)
    return AffineIndexEmitter(indices, constant, insert)


class ExtractWindows(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not op.results:
            return
        maps = [attr.data for attr in op.indexing_maps]
        inputs = list(op.inputs)
        windows = [
            index
            for index, (value, indexing_map) in enumerate(
                zip(inputs, maps, strict=False)
            )
            if isinstance(value.type, TensorType) and _is_window_map(indexing_map)
        ]
        if not windows:
            return
        kept = [index for index in range(len(inputs)) if index not in windows]
        remaining_maps = [maps[i] for i in kept] + maps[len(inputs) :]
        read_bare = set().union(*(_bare_loops(m) for m in remaining_maps))
        loops = len(op.iterator_types)
        if read_bare != set(range(loops)):
            return  # a loop only a window read: its extent would be lost
        body = rewriter.move_region_contents_to_new_regions(op.body)
        block = body.block
        first = block.first_op
        assert first is not None
        emitter = _index_emitter(block, first, loops)
        pads: list[Operation] = []

        def add(new: Operation) -> SSAValue:
            block.insert_op_before(new, first)
            return new.results[0]

        for index in windows:
            value = inputs[index]
            indices = emitter.indices(maps[index])
            element = block.args[index].type
            padding = constant_padding(value)
            if padding is None:
                read = add(ExtractOp(value, indices, element))
            else:
                # A constant pad (a max pool's -inf border) read through its
                # source: no padded copy.
                read = read_padded(padding, indices, element, add)
                assert isinstance(value.owner, Operation)
                pads.append(value.owner)
            block.args[index].replace_all_uses_with(read)
        for index in reversed(windows):
            block.erase_arg(block.args[index])
        generic = GenericOp(
            [inputs[i] for i in kept],
            list(op.outputs),
            body,
            ArrayAttr([AffineMapAttr(m) for m in remaining_maps]),
            op.iterator_types,
            [result.type for result in op.results],
        )
        rewriter.replace_op(op, generic)
        for pad in pads:
            if not pad.results[0].uses:
                rewriter.erase_op(pad)


@dataclass(frozen=True)
class LinalgExtractWindowsPass(ModulePass):
    """Window reads of generics on tensors as `tensor.extract` in the body
    (see the module doc)."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ExtractWindows(), apply_recursively=False).rewrite_module(
            op
        )
