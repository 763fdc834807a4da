"""Deliberately wrong passes: each must be caught by the semantic checker.

This file is also a pass plugin: `irkit-opt --load-pass-plugin mutants.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)


class _SwapSubOperands(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubfOp, rewriter: PatternRewriter) -> None:
        if "swapped" not in op.attributes:
            swapped = arith.SubfOp(op.rhs, op.lhs)
            swapped.attributes["swapped"] = UnitAttr()
            rewriter.replace(op, swapped)


@dataclass(frozen=True)
class SwapSubOperandsPass(ModulePass):
    """A deliberately wrong pass: `a - b` becomes `b - a`."""

    name = "test-swap-sub-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(_SwapSubOperands(), apply_recursively=False)
        walker.rewrite_module(op)
