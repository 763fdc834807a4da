"""The CUDA target: GPU-level IR as one CUDA C translation unit plus launch plans.

The printed source holds one `extern "C" __global__` function per `gpu.func`
kernel (names mangled like the C target's). Host code is not printed as C:
each host `func.func` (after `gpu-kernel-outlining` it holds only
`gpu.launch_func`, `memref.alloc`/`dealloc` of device buffers, constants and
`func.return`) becomes a `LaunchPlan` that `irkit.runtime.cuda` executes in
order. The plan's parameters follow `docs/abi.md` exactly like the C target's
(`CArgument`: inputs, then `{irkit.output}` buffers), so one callable
interface serves both targets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from irkit.targets.c import CArgument

__all__ = [
    "AllocateBuffer",
    "BufferArgument",
    "CudaTranslationUnit",
    "FreeBuffer",
    "KernelLaunch",
    "LaunchPlan",
    "LaunchStep",
    "ScalarArgument",
]


@dataclass(frozen=True)
class BufferArgument:
    """A kernel argument that is a device buffer: a plan parameter (by its
    `CArgument.name`) or a buffer an `AllocateBuffer` step created, passed as
    a pointer to its first element."""

    buffer: str


@dataclass(frozen=True)
class ScalarArgument:
    """A kernel argument passed by value (an `index` or a number)."""

    value: int | float
    element_type: np.dtype[Any]  # int64 for `index`


@dataclass(frozen=True)
class AllocateBuffer:
    """Allocate a contiguous device buffer (a host-level `memref.alloc`)."""

    buffer: str
    element_type: np.dtype[Any]
    shape: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.element_type.itemsize


@dataclass(frozen=True)
class FreeBuffer:
    """Free a buffer an earlier `AllocateBuffer` created (`memref.dealloc`)."""

    buffer: str


@dataclass(frozen=True)
class KernelLaunch:
    """One `gpu.launch_func`: run `kernel` on a grid, in stream order."""

    kernel: str  # the mangled `extern "C"` name in `CudaTranslationUnit.source`
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    dynamic_shared_memory_bytes: int
    arguments: tuple[BufferArgument | ScalarArgument, ...]


LaunchStep = AllocateBuffer | FreeBuffer | KernelLaunch


@dataclass(frozen=True)
class LaunchPlan:
    """What a host `func.func` does, as steps the runtime executes in order."""

    symbol: str  # the func.func sym_name
    arguments: tuple[CArgument, ...]  # as the C target's, per docs/abi.md
    steps: tuple[LaunchStep, ...]

    @property
    def inputs(self) -> tuple[CArgument, ...]:
        return tuple(a for a in self.arguments if not a.is_output)

    @property
    def outputs(self) -> tuple[CArgument, ...]:
        return tuple(a for a in self.arguments if a.is_output)


@dataclass(frozen=True)
class CudaTranslationUnit:
    """The printed CUDA C and, per host function, its launch plan."""

    source: str  # self-contained: compiles with NVRTC without any include path
    kernels: tuple[str, ...]  # every `extern "C" __global__` name in `source`
    plans: dict[str, LaunchPlan]  # by func.func sym_name
