"""`Pipeline(verify_each=False)`, the user's compile path: IR verified once
at the end, and a pass that breaks it still named."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import InvalidPassOutput, PassCrashed, Pipeline

PROGRAM = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = nn.add %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


@dataclass(frozen=True)
class DropReturns(ModulePass):
    """Leaves a function without its terminator: invalid IR."""

    name = "test-drop-returns"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, func.ReturnOp):
                inner.detach()
                inner.erase()


@dataclass(frozen=True)
class CountOps(ModulePass):
    """Valid either way; records how many ops it saw."""

    name = "test-count-ops"
    seen: list[int]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.seen.append(sum(1 for _ in op.walk()))


@dataclass(frozen=True)
class CrashOnMissingReturn(ModulePass):
    """Crashes on what `DropReturns` leaves (a pass trusting its input)."""

    name = "test-crash"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.walk():
            if isinstance(function, func.FuncOp):
                assert isinstance(function.body.block.last_op, func.ReturnOp)


def test_a_broken_pass_is_named_when_verifying_once() -> None:
    seen: list[int] = []
    pipeline = Pipeline([DropReturns(), CountOps(seen)], verify_each=False)
    with pytest.raises(InvalidPassOutput) as raised:
        pipeline.run(make_context(), parse_module(PROGRAM))
    # The second run, verifying each pass, stopped at the broken one.
    assert raised.value.pass_name == "test-drop-returns"
    assert len(seen) == 1


def test_a_crash_after_a_broken_pass_blames_the_broken_pass() -> None:
    pipeline = Pipeline([DropReturns(), CrashOnMissingReturn()], verify_each=False)
    with pytest.raises(InvalidPassOutput) as raised:
        pipeline.run(make_context(), parse_module(PROGRAM))
    assert raised.value.pass_name == "test-drop-returns"


@dataclass(frozen=True)
class AlwaysCrash(ModulePass):
    name = "test-always-crash"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise KeyError("a bug")


def test_a_crash_on_valid_ir_is_the_crash() -> None:
    pipeline = Pipeline([CountOps([]), AlwaysCrash()], verify_each=False)
    with pytest.raises(PassCrashed) as raised:
        pipeline.run(make_context(), parse_module(PROGRAM))
    assert raised.value.pass_name == "test-always-crash"


def test_a_valid_pipeline_runs_each_pass_once() -> None:
    seen: list[int] = []
    pipeline = Pipeline([CountOps(seen), CountOps(seen)], verify_each=False)
    pipeline.run(make_context(), parse_module(PROGRAM))
    assert len(seen) == 2
