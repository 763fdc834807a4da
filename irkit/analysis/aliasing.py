"""Aliasing of memrefs: which buffer a view is of, and which may overlap.

A memref value is a view (`memref.subview`, `cast`, `reinterpret_cast`,
`expand_shape`, `collapse_shape`) of a *root*: an allocation, a function
argument, a GPU workgroup or private attribution, or something this module
cannot see into (a loaded memref, a `memref.get_global`, a call's result).

- `root_buffer(value)`: the root a memref value views;
- `has_known_root(value)`: whether that root is an allocation, a GPU
  attribution or a function argument, the roots `may_alias` tells apart;
- `may_alias(a, b)`: whether two memrefs may share elements. They may when
  they have the same root, when either root is unknown, and when both are
  function arguments of which neither is an `{irkit.output}` buffer
  (`docs/abi.md`: outputs alias nothing). An allocation or attribution is
  distinct from every other root.

Like MLIR's `LocalAliasAnalysis`, it compares roots only: two views of one
buffer may alias even when their elements are disjoint.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from irkit.abi import is_output_argument
from irkit.dialects import gpu

# Ops whose result is a view of their first operand (they read or write
# memory only through it).
VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.cast",
        "memref.reinterpret_cast",
        "memref.collapse_shape",
        "memref.expand_shape",
    }
)
_ALLOCATIONS = frozenset({"memref.alloc", "memref.alloca"})


def root_buffer(value: SSAValue) -> SSAValue:
    """The buffer memref `value` views: through views, to what made it."""
    while isinstance(value.owner, Operation) and value.owner.name in VIEW_OPS:
        value = value.owner.operands[0]
    return value


def reads_buffer(scope: Operation, buffer: SSAValue) -> bool:
    """Whether an op inside `scope` may read `buffer` (itself or through a
    view): every use but the memref operand of a `memref.store` counts as a
    read, so an op this does not know about reads."""
    for op in scope.walk():
        if op.name in VIEW_OPS:
            continue
        for index, operand in enumerate(op.operands):
            if not isinstance(operand.type, MemRefType):
                continue
            if root_buffer(operand) is not buffer:
                continue
            if op.name == "memref.store" and index == 1:
                continue
            return True
    return False


def _is_output_argument(value: SSAValue) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    function = value.block.parent_op()
    return isinstance(function, func.FuncOp) and is_output_argument(
        function, value.index
    )


def _is_function_argument(value: SSAValue) -> bool:
    return isinstance(value, BlockArgument) and isinstance(
        value.block.parent_op(), func.FuncOp
    )


def _is_attribution(value: SSAValue) -> bool:
    """Whether `value` is a workgroup or private attribution of a `gpu.launch`
    or `gpu.func`: memory of its own, as an allocation is."""
    if not isinstance(value, BlockArgument):
        return False
    owner = value.block.parent_op()
    if isinstance(owner, gpu.LaunchOp | gpu.FuncOp):
        attributions = owner.workgroup_attributions + owner.private_attributions
        return any(value is attribution for attribution in attributions)
    return False


def has_known_root(value: SSAValue) -> bool:
    """Whether memref `value` views an allocation, a GPU attribution or a
    function argument, the roots `may_alias` can tell apart."""
    root = root_buffer(value)
    return (
        (isinstance(root, OpResult) and root.op.name in _ALLOCATIONS)
        or _is_attribution(root)
        or _is_function_argument(root)
    )


def may_alias(a: SSAValue, b: SSAValue) -> bool:
    """Whether memrefs `a` and `b` may share elements (see the module doc)."""
    root_a, root_b = root_buffer(a), root_buffer(b)
    if root_a is root_b:
        return True
    if not (has_known_root(root_a) and has_known_root(root_b)):
        return True
    if _is_function_argument(root_a) and _is_function_argument(root_b):
        return not (_is_output_argument(root_a) or _is_output_argument(root_b))
    return False  # an allocation is distinct from every other root
