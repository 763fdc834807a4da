"""The reference interpreter's machinery: op dispatch, regions, calls.

Each dialect's semantics live in their own module of this package and register
one function per op with `@register("dialect.op")`. An implementation receives
the interpreter, the operation and its operand values, and returns the result
values as a tuple. Values are NumPy arrays for tensors, NumPy scalars for
scalars of a fixed width (so f32 stays f32 and integers wrap), and Python ints
for `index`.

Bodies of structured ops (`linalg.generic`, `tensor.pad`, ...) may be run with
arrays in place of scalars: scalar implementations must therefore be written
with NumPy operations that work elementwise on both.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue

from irkit.diagnostics import DiagnosticError, location_of

if TYPE_CHECKING:
    from irkit.interpreter.gpu import Grid

OpImpl = Callable[["Interpreter", Operation, tuple[Any, ...]], tuple[Any, ...]]

_IMPLS: dict[str, OpImpl] = {}
_TERMINATORS: set[str] = set()


def register(*names: str) -> Callable[[OpImpl], OpImpl]:
    """Register `impl` as the reference semantics of the ops named `names`."""

    def decorate(impl: OpImpl) -> OpImpl:
        for name in names:
            if name in _IMPLS:
                raise ValueError(f"semantics of '{name}' registered twice")
            _IMPLS[name] = impl
        return impl

    return decorate


def register_terminator(*names: str) -> None:
    """Declare ops whose operands are the results of the block they end."""
    _TERMINATORS.update(names)


def has_semantics(name: str) -> bool:
    """Whether the op called `name` has reference semantics."""
    return name in _IMPLS or name in _TERMINATORS


class InterpretationError(DiagnosticError):
    """The interpreter could not run an operation (unsupported op or bad input)."""


def interpretation_error(op: Operation, message: str) -> InterpretationError:
    return InterpretationError(f"'{op.name}' op {message}", location_of(op))


class UnlocatedOpError(Exception):
    """An error raised by a helper that does not know which op it serves.

    The interpreter reports it as an `InterpretationError` located at the op
    being run (the innermost one), so helpers deep in the memory model need
    not thread the op through.
    """


class Interpreter:
    """Runs functions of one module on concrete values."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        # The scopes of the blocks being run, innermost last.
        self._scopes: list[MutableMapping[SSAValue, Any]] = []
        self.functions: dict[str, FuncOp] = {
            op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp)
        }
        # State a dialect's semantics keep across ops (the memref globals),
        # keyed by that dialect's name; cleared before each run from outside.
        self.state: dict[str, Any] = {}
        # The grid of the GPU kernel being run (`gpu.py`), None on the host:
        # inside a kernel, values may hold one lane per thread of the grid.
        self.grid: Grid | None = None

    def function(self, name: str) -> FuncOp:
        if name not in self.functions:
            known = ", ".join(sorted(self.functions)) or "none"
            raise DiagnosticError(f"no function named '@{name}' (functions: {known})")
        func = self.functions[name]
        if func.is_declaration:
            raise interpretation_error(func, f"'@{name}' is a declaration, no body")
        return func

    def call(self, name: str, args: Sequence[Any]) -> tuple[Any, ...]:
        """Call function `@name` on `args`; returns its results."""
        func = self.function(name)
        with np.errstate(all="ignore"):
            return self.run_block(func.body.blocks[0], args, {})

    def nested_scope(self) -> MutableMapping[SSAValue, Any]:
        """A scope for a region of the op being run.

        It sees every value visible at that op (a body may use constants
        defined above it) and keeps the values the region defines to itself.
        It is a flat copy rather than a `ChainMap` over the enclosing scope:
        a loop body then finds an outer value with one dict probe instead of
        one Python-level lookup per level of nesting, which dominated the cost
        of loop nests; the copy is cheap next to a body's ops.
        """
        return dict(self._scopes[-1]) if self._scopes else {}

    def run_block(
        self, block: Block, args: Sequence[Any], env: MutableMapping[SSAValue, Any]
    ) -> tuple[Any, ...]:
        """Run `block` with its arguments bound to `args`, in scope `env`.

        Returns the operands of the block's terminator. `env` is extended in
        place, so a nested region sees the values defined around it.
        """
        if len(args) != len(block.args):
            raise DiagnosticError(
                f"block expects {len(block.args)} arguments, got {len(args)}"
            )
        env.update(zip(block.args, args))
        self._scopes.append(env)
        # `run_op` inlined, with the tables in locals: this loop runs once
        # per op executed, so its per-op overhead is the interpreter's speed.
        impls = _IMPLS
        terminators = _TERMINATORS
        try:
            for op in block.ops:
                operands = tuple([env[operand] for operand in op.operands])
                name = op.name
                if name in terminators:
                    return operands
                impl = impls.get(name)
                if impl is None:
                    raise interpretation_error(
                        op, "has no reference semantics in irkit"
                    )
                try:
                    results = impl(self, op, operands)
                except UnlocatedOpError as error:
                    raise interpretation_error(op, str(error)) from None
                if len(results) != len(op.results):
                    raise _wrong_result_count(op, results)
                env.update(zip(op.results, results))
        finally:
            self._scopes.pop()
        return ()

    def run_op(self, op: Operation, operands: tuple[Any, ...]) -> tuple[Any, ...]:
        impl = _IMPLS.get(op.name)
        if impl is None:
            raise interpretation_error(op, "has no reference semantics in irkit")
        try:
            results = impl(self, op, operands)
        except UnlocatedOpError as error:
            raise interpretation_error(op, str(error)) from None
        if len(results) != len(op.results):
            raise _wrong_result_count(op, results)
        return results


def _wrong_result_count(op: Operation, results: tuple[Any, ...]) -> InterpretationError:
    return interpretation_error(
        op, f"semantics returned {len(results)} values, expected {len(op.results)}"
    )
