"""Verification that reports the innermost failing operation with its location.

`Operation.verify()` in xDSL raises a bare message; here each operation is
verified on its own (nested operations first, as a failing inner op explains
more than its parent) so the diagnostic can name the op and its source line.
"""

from __future__ import annotations

import functools

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, ShapedType
from xdsl.dialects.linalg.abstract_ops import (
    ElementwiseOperation,
    LinalgStructuredOperation,
)
from xdsl.ir import Operation, SSAValue
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from irkit.diagnostics import op_error


def _strip_op_prefix(op: Operation, message: str) -> str:
    for prefix in (f"'{op.name}' op ", f"{op.name}: ", f"Operation {op.name}: "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


def _check_dominance(
    op: Operation, scopes: list[set[SSAValue]], text: str | None
) -> None:
    """Every operand of every op nested in `op` is visible at its use.

    Visible means defined earlier in an enclosing block, or anywhere in the
    module body (a graph region) or in another block of the same multi-block
    region (accepted without a CFG dominance analysis). xDSL's parser and
    verifier do not check this: a value of one region can be used in a
    sibling region. One walk, linear in the number of operands.
    """
    for region in op.regions:
        region_scope: set[SSAValue] = set()
        if isinstance(op, ModuleOp) or len(region.blocks) > 1:
            for block in region.blocks:
                region_scope.update(block.args)
                for inner in block.ops:
                    region_scope.update(inner.results)
        for block in region.blocks:
            block_scope = set(block.args)
            nested = [*scopes, region_scope, block_scope]
            for inner in block.ops:
                for index, operand in enumerate(inner.operands):
                    # Most operands come from their own block: one probe.
                    if operand in block_scope:
                        continue
                    if not any(operand in scope for scope in nested):
                        raise op_error(
                            inner, f"operand #{index} does not dominate this use", text
                        )
                _check_dominance(inner, nested, text)
                block_scope.update(inner.results)


def _check_destination_style(op: Operation, text: str | None) -> None:
    """A linalg op on tensors returns exactly the types of its `outs`.

    xDSL checks this for `linalg.generic` but not for the named ops (a
    `linalg.matvec` with a rank-4 result type verified).
    """
    if not isinstance(op, LinalgStructuredOperation) or not op.results:
        return
    outputs = [operand.type for operand in op.outputs]
    results = [result.type for result in op.results]
    if outputs != results:
        raise op_error(
            op,
            "result types must match the types of the 'outs' operands: expected "
            f"{', '.join(map(str, outputs))}, got {', '.join(map(str, results))}",
            text,
        )


def _check_before_upstream(op: Operation, text: str | None) -> None:
    """What some xDSL verifiers assume instead of checking, so that a
    violation would escape as a crash rather than a diagnostic: named
    elementwise linalg ops build their indexing maps from shaped operands
    (an `assert`), `memref.load`/`store` report a wrong index count with
    a bare `Exception`, and `memref.get_global` is not checked against the
    global it names (which must exist, as MLIR requires; the targets index its
    data by the claimed type)."""
    if isinstance(op, ElementwiseOperation):
        for value in op.operands:
            if not isinstance(value.type, ShapedType):
                raise op_error(
                    op, f"expected shaped operands, found {value.type}", text
                )
    if isinstance(op, memref.LoadOp | memref.StoreOp):
        memref_type = op.memref.type
        if isinstance(memref_type, MemRefType):
            rank, count = memref_type.get_num_dims(), len(op.indices)
            if rank != count:
                kind = "load" if isinstance(op, memref.LoadOp) else "store"
                raise op_error(
                    op,
                    f"incorrect number of indices for {kind}, expected {rank} but "
                    f"got {count}",
                    text,
                )
    if isinstance(op, memref.GetGlobalOp):
        _check_get_global(op, text)


def _check_get_global(op: memref.GetGlobalOp, text: str | None) -> None:
    try:
        target = SymbolTable.lookup_symbol(op, op.name_)
    except ValueError:  # not inside a symbol table (a detached op)
        return
    if not isinstance(target, memref.GlobalOp):
        # MLIR's SymbolUserOpInterface check: the interpreter and the targets
        # would otherwise meet the dangling name first, far from the op.
        raise op_error(
            op, f"'{op.name_}' does not reference a valid global memref", text
        )
    if target.type != op.memref.type:
        raise op_error(
            op,
            f"result type {op.memref.type} does not match type {target.type} of "
            f"the global memref {op.name_}",
            text,
        )


@functools.cache
def _has_irkit_checks(op_type: type[Operation]) -> bool:
    """Whether ops of `op_type` are any that `_check_before_upstream` or
    `_check_destination_style` check: asked once per class rather than with
    four `isinstance` tests (of abstract classes) per op verified, which
    verifying every pass's output pays for every op."""
    return issubclass(
        op_type,
        (
            ElementwiseOperation,
            memref.LoadOp,
            memref.StoreOp,
            memref.GetGlobalOp,
            LinalgStructuredOperation,
        ),
    )


def verify_module(module: Operation, text: str | None = None) -> None:
    """Verify `module` and everything nested in it.

    Raises `DiagnosticError` naming the first failing operation (innermost
    first) and its source location; `text` adds the offending line.
    """
    for op in module.walk(reverse=False, region_first=True):
        checked = _has_irkit_checks(type(op))
        if checked:
            _check_before_upstream(op, text)
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as error:
            message = str(error).split("\n\n", 1)[0].strip()
            raise op_error(op, _strip_op_prefix(op, message), text) from None
        except (IndexError, KeyError, TypeError, ValueError) as error:
            # Some upstream verifiers index with unchecked attribute values
            # (e.g. a `linalg.transpose` permutation entry past the rank).
            raise op_error(
                op, f"malformed operation ({type(error).__name__}: {error})", text
            ) from None
        if checked:
            _check_destination_style(op, text)
    _check_dominance(module, [], text)
