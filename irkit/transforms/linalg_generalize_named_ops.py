"""`linalg-generalize-named-ops`: every named linalg op becomes a `linalg.generic`.

Mirrors MLIR's `linalg-generalize-named-ops` (`Generalization.cpp`). A named
op is a `linalg.generic` with a fixed body, fixed indexing maps and fixed
iterator types; this pass writes them out:

```mlir
%r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
    outs(%c : tensor<4xf32>) -> tensor<4xf32>
```

becomes

```mlir
%r = linalg.generic {indexing_maps = [#id, #id, #id],
                     iterator_types = ["parallel"]}
    ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) {
^bb0(%in: f32, %in_0: f32, %out: f32):
  %0 = arith.addf %in, %in_0 : f32
  linalg.yield %0 : f32
} -> tensor<4xf32>
```

The body is the named op's own (hidden) region, and the maps and iterators are
the ones the op reports, so the generic computes exactly what the interpreter
runs for the named op (mixed element types included: e.g. `batch_matmul` of
i8 into i32 sign-extends in its body). Where a named op converts its input to
the output's element type implicitly (`fill`, `copy`, `transpose`,
`broadcast`), the body gets the explicit `arith` cast.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from irkit.transforms.utils.generalization import (
    generalize_named_op,
    is_named_linalg_op,
)

# --------------------------------------------------------------------------
# Pattern and pass
# --------------------------------------------------------------------------


class GeneralizeNamedOp(RewritePattern):
    """Replace one named linalg op by its `linalg.generic`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_named_linalg_op(op):
            return
        rewriter.replace(op, generalize_named_op(op))


def generalize_named_ops(module: ModuleOp) -> None:
    """Generalize every named linalg op in `module`."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier([GeneralizeNamedOp()]), apply_recursively=False
    ).rewrite_module(module)


@dataclass(frozen=True)
class LinalgGeneralizeNamedOpsPass(ModulePass):
    """Turn every named linalg op into an equivalent `linalg.generic`.

    Input: any IR; every `linalg` op other than `generic`/`yield`/`index` must
    be one irkit defines (named elementwise ops, `fill`, `copy`, `transpose`,
    `broadcast`, `reduce`, `map`, contractions, convolutions, pooling), on
    tensors or on memrefs. An unknown `linalg` op (e.g. an unregistered one),
    or an implicit conversion to `i1`, fails the pass with a located error.

    Output: no named linalg ops remain; each became a `linalg.generic` with the
    same operands and results (so tensor and memref forms both work), the op's
    indexing maps (strides and dilations folded into window maps), iterator
    types and body, plus explicit `arith` casts where the named op converted
    implicitly.

    Preserves: semantics exactly (the body is the one the interpreter runs for
    the named op); everything that is not a named linalg op.
    """

    name = "linalg-generalize-named-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        generalize_named_ops(op)
