"""Verification that reports the innermost failing operation with its location.

`Operation.verify()` in xDSL raises a bare message; here each operation is
verified on its own (nested operations first, as a failing inner op explains
more than its parent) so the diagnostic can name the op and its source line.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation, SSAValue
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


def verify_module(module: Operation, text: str | None = None) -> None:
    """Verify `module` and everything nested in it.

    Raises `DiagnosticError` naming the first failing operation (innermost
    first) and its source location; `text` adds the offending line.
    """
    for op in module.walk(reverse=False, region_first=True):
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
        _check_destination_style(op, text)
    _check_dominance(module, [], text)
