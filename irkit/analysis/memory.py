"""Memory sizes and layouts: how many bytes a buffer takes, where its
elements are, and how much memory a kernel or a stack frame may use.

- `element_bytes`: the bytes of one element in memory (`irkit.dtypes`, where
  the dialects' verifiers reach it too);
- `memref_strides`: a memref type's strides and offset (MLIR's
  `getStridesAndOffset`), identity layouts included;
- `DEFAULT_MAX_SHARED_BYTES`, `MAX_STACK_BYTES`: the budgets passes size
  workgroup and stack buffers against; `DEFAULT_CACHE_BYTES`: the CPU
  caches assumed where the host's are not known;
- `workgroup_layout`: where each workgroup buffer of a kernel lies in one
  block of shared memory, and how many bytes the block takes (what the
  CUDA target prints as dynamic shared memory and the launch asks for).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    StridedLayoutAttr,
)
from xdsl.ir import SSAValue

from irkit.dtypes import element_bytes as element_bytes

# CUDA's static shared memory per block (more needs a dynamic opt-in).
DEFAULT_MAX_SHARED_BYTES = 48 * 1024

# The largest `memref.alloca` the C target prints (`irkit/targets/cstyle_memory.py`
# refuses larger ones rather than risk the stack).
MAX_STACK_BYTES = 64 * 1024

# (L1 data, L2, L3) assumed where the host does not say: 32 KiB and 1 MiB
# per core (every x86 core since Skylake-SP and Zen 4 has at least these;
# older ones 256-512 KiB of L2, which only makes the packed A block spill to
# L3) and 8 MiB of L3.
DEFAULT_CACHE_BYTES = (32 * 1024, 1024 * 1024, 8 * 1024 * 1024)


# Each workgroup buffer starts on a 16-byte boundary, so that four
# neighbouring floats (or eight halves) may be read as one 16-byte access.
WORKGROUP_ALIGNMENT = 16


def workgroup_layout(buffers: Sequence[SSAValue]) -> tuple[list[int], int] | None:
    """The byte offset of each of `buffers` (static memrefs) laid out one after
    the other in shared memory, each aligned to `WORKGROUP_ALIGNMENT`, and the
    total bytes; None if an element size is unknown or a shape is dynamic."""
    offsets: list[int] = []
    total = 0
    for buffer in buffers:
        memref_type = buffer.type
        if not isinstance(memref_type, MemRefType):
            return None
        size = element_bytes(memref_type.get_element_type())
        shape = memref_type.get_shape()
        if size is None or any(extent == DYNAMIC_INDEX for extent in shape):
            return None
        total = -(-total // WORKGROUP_ALIGNMENT) * WORKGROUP_ALIGNMENT
        offsets.append(total)
        total += prod(shape) * size
    return offsets, total


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
