"""Moving a row group into the loop that runs it a row at a time.

What `linalg-tile-rows` and `linalg-tile-rows-for-gpu` both do around the
loop they build over a group's rows (`irkit.analysis.row_groups`):
`hoist_movable` before building it, `finish_group` after.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.analysis.row_groups import RowGroup


def hoist_movable(group: RowGroup) -> None:
    """Constants and allocations between the group's ops go before its first."""
    first = group.ops[0].op
    for op in group.movable:
        if op.name != "memref.dealloc":
            op.detach()
            Rewriter.insert_op(op, InsertPoint.before(first))


def finish_group(group: RowGroup, loop: Operation, private: list[SSAValue]) -> None:
    """Erase the group's ops (now inside `loop`), move its deallocations after
    `loop`, and drop the buffers made private per row."""
    for row_op in group.ops:
        Rewriter.erase_op(row_op.op)
    anchor: Operation = loop
    for op in group.movable:
        if op.name == "memref.dealloc":
            op.detach()
            Rewriter.insert_op(op, InsertPoint.after(anchor))
            anchor = op
    for buffer in private:
        for use in list(buffer.uses):
            if use.operation.name == "memref.dealloc":
                Rewriter.erase_op(use.operation)
        owner = buffer.owner
        assert isinstance(owner, Operation)
        Rewriter.erase_op(owner)
