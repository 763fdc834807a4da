"""`linalg-promote-accumulator`: a contraction's small output tile into a stack buffer.

MLIR's `linalg::promoteSubViews` for the output operand of a register tile:

```mlir
linalg.generic ... ins(%a, %b : ...) outs(%tile : memref<4x16xf32, strided<...>>)
```

becomes

```mlir
%acc = memref.alloca() : memref<4x16xf32>
memref.copy %tile, %acc : memref<4x16xf32, strided<...>> to memref<4x16xf32>
linalg.generic ... ins(%a, %b : ...) outs(%acc : memref<4x16xf32>)
memref.copy %acc, %tile : memref<4x16xf32> to memref<4x16xf32, strided<...>>
```

`convert-linalg-to-loops` runs the reduction loops of an op whose outputs are
`memref.alloca`s outermost, so the whole tile is live across the reduction
and the C compiler keeps it in vector registers (a 4x16 f32 tile is eight AVX
registers), loading each element of `%a` and `%b` once per reduction step.

Contract
--------
Input: linalg on memrefs; the pass looks at contractions
(`irkit.transforms.linalg_tile_contractions.is_contraction`) and ignores every
other op; a contraction on tensors is rejected with a located error.

Output: each contraction whose output has a static shape of at most
`max-elements` elements, and whose output cannot alias any of its inputs
(`irkit.analysis.aliasing.may_alias`), computes into a
fresh `memref.alloca` of that shape with the identity layout, copied in
before and out after, as above. An output larger than `max-elements` or of
dynamic shape (a partial tile) is left in place. A contraction marked
`irkit.register_tile` (`irkit.analysis.structured.is_register_tile`: the
pass that marked it sized its output for the registers) is promoted
whatever its size.

Preserves: every value and its accumulation order (bit-identical results);
the output buffer holds the same elements afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import may_alias
from irkit.analysis.structured import (
    is_contraction,
    is_register_tile,
    require_buffers,
)
from irkit.dialects import memref

PASS_NAME = "linalg-promote-accumulator"


def promotable_output_type(generic: GenericOp, max_elements: int) -> MemRefType | None:
    """The accumulator type for `generic`'s output, if it may be promoted."""
    if not is_contraction(generic):
        return None
    require_buffers(generic, PASS_NAME)
    (output,) = generic.outputs
    output_type = output.type
    if not isinstance(output_type, MemRefType) or not output_type.has_static_shape():
        return None
    if prod(output_type.get_shape()) > max_elements and not is_register_tile(generic):
        return None
    if any(
        isinstance(value.type, MemRefType) and may_alias(value, output)
        for value in generic.inputs
    ):
        return None
    return MemRefType(output_type.get_element_type(), output_type.get_shape())


def promote_accumulator(generic: GenericOp, accumulator_type: MemRefType) -> None:
    """Make `generic` compute into a stack copy of its output (see the module doc)."""
    (output,) = generic.outputs
    alloca = memref.AllocaOp.get(
        accumulator_type.get_element_type(), shape=accumulator_type.get_shape()
    )
    alloca.memref.name_hint = "acc"
    Rewriter.insert_op(
        [alloca, memref.CopyOp(output, alloca.memref)], InsertPoint.before(generic)
    )
    generic.operands = [*generic.inputs, alloca.memref]
    Rewriter.insert_op(memref.CopyOp(alloca.memref, output), InsertPoint.after(generic))


def promote_accumulators(module: ModuleOp, max_elements: int) -> None:
    """Promote the output of every small contraction of `module`."""
    if max_elements < 1:
        raise PassFailedException(f"{PASS_NAME}: max-elements must be >= 1")
    for op in list(module.walk()):
        if not isinstance(op, GenericOp):
            continue
        accumulator_type = promotable_output_type(op, max_elements)
        if accumulator_type is not None:
            promote_accumulator(op, accumulator_type)


@dataclass(frozen=True)
class LinalgPromoteAccumulatorPass(ModulePass):
    """Contractions with small static outputs accumulate in a `memref.alloca`."""

    name = PASS_NAME

    # 64 f32 elements fill eight 256-bit registers, half of AVX2's sixteen.
    max_elements: int = 64

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        promote_accumulators(op, self.max_elements)
