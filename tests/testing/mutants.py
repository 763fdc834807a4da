"""Deliberately wrong passes: each must be caught by the semantic checker.

This file is also a pass plugin: `irkit-opt --load-pass-plugin mutants.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import FloatAttr, IndexType, ModuleOp, UnitAttr
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from irkit.dialects import nn
from irkit.transforms.linalg_tile import LinalgTilePass


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


class _SwapNnSubOperands(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: nn.SubOp, rewriter: PatternRewriter) -> None:
        if "swapped" not in op.attributes:
            swapped = nn.SubOp(op.rhs, op.lhs)
            swapped.attributes["swapped"] = UnitAttr()
            rewriter.replace(op, swapped)


@dataclass(frozen=True)
class SwapNnSubOperandsPass(ModulePass):
    """A deliberately wrong pass: `nn.sub %a, %b` becomes `nn.sub %b, %a`."""

    name = "test-swap-nn-sub-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(_SwapNnSubOperands(), apply_recursively=False)
        walker.rewrite_module(op)


class _WrongReductionInit(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        value = op.value
        if (
            isinstance(value, FloatAttr)
            and value.value.data == 0.0
            and any(isinstance(use.operation, FillOp) for use in op.result.uses)
        ):
            rewriter.replace(op, arith.ConstantOp(FloatAttr(1.0, value.type)))


@dataclass(frozen=True)
class WrongReductionInitPass(ModulePass):
    """A deliberately wrong pass: a zero that fills an accumulator becomes one."""

    name = "test-wrong-reduction-init"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(_WrongReductionInit(), apply_recursively=False)
        walker.rewrite_module(op)


class _OffByOneLoopBound(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter) -> None:
        if "shortened" in op.attributes:
            return
        one = arith.ConstantOp.from_int_and_width(1, IndexType())
        bound = arith.SubiOp(op.upperBound[0], one.result)
        rewriter.insert_op([one, bound], InsertPoint.before(op))
        operands = list(op.operands)
        operands[len(op.lowerBound)] = bound.result
        op.operands = operands
        op.attributes["shortened"] = UnitAttr()
        rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class OffByOneLoopBoundPass(ModulePass):
    """A deliberately wrong pass: every parallel loop stops one iteration early."""

    name = "test-off-by-one-loop-bound"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(_OffByOneLoopBound(), apply_recursively=False)
        walker.rewrite_module(op)


class _DropTileRemainder(RewritePattern):
    """Round a tile loop's upper bound down to a multiple of its step."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, scf.ParallelOp | scf.ForOp) or "floored" in op.attributes:
            return
        if isinstance(op, scf.ForOp):
            bounds, steps, first = [op.ub], [op.step], 1
        else:
            bounds, steps = list(op.upperBound), list(op.step)
            first = len(op.lowerBound)
        operands = list(op.operands)
        for position, (bound, step) in enumerate(zip(bounds, steps, strict=True)):
            tiles = arith.FloorDivSIOp(bound, step)
            floored = arith.MuliOp(tiles.result, step)
            rewriter.insert(tiles, InsertPoint.before(op))
            rewriter.insert(floored, InsertPoint.before(op))
            operands[first + position] = floored.result
        op.operands = operands
        op.attributes["floored"] = UnitAttr()
        rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class DropTileRemainderPass(LinalgTilePass):
    """A deliberately wrong `linalg-tile`: tile loops run `floor(N / t)` tiles,
    so the partial tile at the end of a non-dividing dimension is never done."""

    name = "test-drop-tile-remainder"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        super().apply(ctx, op)
        walker = PatternRewriteWalker(_DropTileRemainder(), apply_recursively=False)
        walker.rewrite_module(op)


class _DropGpuBarrier(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name == "gpu.barrier":
            rewriter.erase(op)


@dataclass(frozen=True)
class DropGpuBarriersPass(ModulePass):
    """A deliberately wrong pass: every `gpu.barrier` is deleted, so threads
    read workgroup memory that other threads of their block may not have
    written yet (or overwrite it while others still read it)."""

    name = "test-drop-gpu-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(_DropGpuBarrier(), apply_recursively=False)
        walker.rewrite_module(op)


class _WrongSharedSlot(RewritePattern):
    """Read `(i + 1) mod n` instead of `i` in the last dimension of a load
    from workgroup memory: a neighbouring slot, still in bounds."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        from irkit.dialects.gpu import is_workgroup_memref

        if op.name != "memref.load" or "shifted" in op.attributes:
            return
        memref, *indices = op.operands
        if not indices or not is_workgroup_memref(memref.type):
            return
        extent = memref.type.get_shape()[-1]  # type: ignore[attr-defined]
        one = arith.ConstantOp.from_int_and_width(1, IndexType())
        size = arith.ConstantOp.from_int_and_width(extent, IndexType())
        next_slot = arith.AddiOp(indices[-1], one.result)
        wrapped = arith.RemUIOp(next_slot.result, size.result)
        rewriter.insert([one, size, next_slot, wrapped], InsertPoint.before(op))
        op.operands = [memref, *indices[:-1], wrapped.result]
        op.attributes["shifted"] = UnitAttr()
        rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class WrongSharedSlotPass(ModulePass):
    """A deliberately wrong pass: loads from workgroup memory read the next
    slot of their last dimension (wrapping around)."""

    name = "test-wrong-shared-slot"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        walker = PatternRewriteWalker(_WrongSharedSlot(), apply_recursively=False)
        walker.rewrite_module(op)
