"""Memory sizes and layouts: how many bytes a buffer takes, where its
elements are, and how much memory a kernel or a stack frame may use.

- `element_bytes`: the bytes of one element in memory (`irkit.dtypes`, where
  the dialects' verifiers reach it too);
- `memref_strides`: a memref type's strides and offset (MLIR's
  `getStridesAndOffset`), identity layouts included;
- `DEFAULT_MAX_SHARED_BYTES`, `MAX_STACK_BYTES`: the budgets passes size
  workgroup and stack buffers against.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    StridedLayoutAttr,
)

from irkit.dtypes import element_bytes as element_bytes

# CUDA's static shared memory per block (more needs a dynamic opt-in).
DEFAULT_MAX_SHARED_BYTES = 48 * 1024

# The largest `memref.alloca` the C target prints (`irkit/targets/cstyle_memory.py`
# refuses larger ones rather than risk the stack).
MAX_STACK_BYTES = 64 * 1024


def memref_strides(memref_type: MemRefType) -> tuple[list[int | None], int | None]:
    """The strides and offset of `memref_type` (None where dynamic)."""
    layout = memref_type.layout
    if isinstance(layout, StridedLayoutAttr):
        return list(layout.get_strides()), layout.get_offset()
    strides: list[int | None] = []
    running: int | None = 1
    for size in reversed(memref_type.get_shape()):
        strides.insert(0, running)
        running = None if running is None or size == DYNAMIC_INDEX else running * size
    return strides, 0
