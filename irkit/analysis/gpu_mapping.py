"""Which loops run on GPU blocks and threads: `scf.forall` mappings.

`linalg-tile-for-gpu` and `linalg-tile-rows-for-gpu` mark the loops they
build with `mapping = [#gpu.block<...>]` or `[#gpu.thread<...>]`; the GPU
passes before `convert-parallel-loops-to-gpu` ask:

- `mapping_kinds(op)`: the mapping attribute classes of a forall (empty for
  any other op, or a forall without a mapping);
- `is_block_forall` / `is_thread_forall`: a forall mapped to blocks only /
  threads only;
- `in_gpu_loops(op)`: whether `op` is inside a mapped forall (already
  distributed, so the tiling passes leave it alone);
- `is_block_level(op)`: whether `op` is inside a block forall but in no
  thread forall (work of a whole block, which `linalg-tile-for-gpu` spreads
  over the block's threads);
- `block_threads(op)`: the threads (along y, along x) the block forall
  around `op` asks for (`BLOCK_THREADS_ATTRIBUTE`, set by the pass that
  built it), if any.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Operation

from irkit.dialects.gpu import BlockMappingAttr, ThreadMappingAttr
from irkit.dialects.scf import ForallOp

# On a block forall: the threads (y, x) its block-level ops spread over
# (`linalg-fuse-attention` sets it; `linalg-tile-for-gpu` reads it).
BLOCK_THREADS_ATTRIBUTE = "irkit.block_threads"


def mapping_kinds(op: Operation) -> set[type]:
    """The classes of the mapping attributes of forall `op`."""
    if not isinstance(op, ForallOp) or op.mapping is None:
        return set()
    return {type(attr) for attr in op.mapping.data}


def is_block_forall(op: Operation) -> bool:
    return mapping_kinds(op) == {BlockMappingAttr}


def is_thread_forall(op: Operation) -> bool:
    return mapping_kinds(op) == {ThreadMappingAttr}


def in_gpu_loops(op: Operation) -> bool:
    """Whether some forall around `op` has a mapping (to blocks or threads)."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ForallOp) and parent.mapping is not None:
            return True
        parent = parent.parent_op()
    return False


def is_block_level(op: Operation) -> bool:
    """Whether the nearest mapped forall around `op` maps to blocks."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ForallOp) and parent.mapping is not None:
            return is_block_forall(parent)
        parent = parent.parent_op()
    return False


def block_threads(op: Operation) -> tuple[int, int] | None:
    """`BLOCK_THREADS_ATTRIBUTE` (y, x) of the nearest block forall around
    `op`, when it holds two positive integers."""
    parent = op.parent_op()
    while parent is not None:
        if is_block_forall(parent):
            attr = parent.attributes.get(BLOCK_THREADS_ATTRIBUTE)
            if not isinstance(attr, ArrayAttr) or len(attr.data) != 2:
                return None
            sizes = [a.value.data for a in attr.data if isinstance(a, IntegerAttr)]
            if len(sizes) != 2 or min(sizes) < 1:
                return None
            return sizes[0], sizes[1]
        parent = parent.parent_op()
    return None
