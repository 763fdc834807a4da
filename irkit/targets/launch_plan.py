"""Launch plans: what a host function of the CUDA target does, as data.

After `gpu-kernel-outlining` a host `func.func` only allocates device
buffers, launches kernels and frees buffers, with constant sizes. The CUDA
target does not print it as C: `plan_launches` turns it into a `LaunchPlan`,
a list of `AllocateBuffer`, `KernelLaunch` and `FreeBuffer` steps that
`irkit.runtime.cuda` executes in stream order (and can record as a CUDA
graph). The plan's parameters follow `docs/abi.md` exactly like the C
target's (`CArgument`: inputs, then `{irkit.output}` buffers), so one
callable interface serves both targets. `describe_plan` is the plan as the
comment `irkit-opt -t cuda` prints after the source.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import FloatAttr, MemRefType, NoneAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

from irkit.diagnostics import DiagnosticError
from irkit.dialects import gpu
from irkit.dialects.static_values import constant_int
from irkit.dtypes import numpy_dtype
from irkit.targets.c import CArgument, c_argument

__all__ = [
    "AllocateBuffer",
    "BufferArgument",
    "FreeBuffer",
    "KernelArgument",
    "KernelLaunch",
    "LaunchPlan",
    "LaunchStep",
    "ScalarArgument",
    "StatusArgument",
    "TensorMapArgument",
    "describe_plan",
    "plan_launches",
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
class StatusArgument:
    """The call's assertion status: a pointer to one `int32` the runtime
    zeroes before the plan and reads after it. A kernel whose k-th `cf.assert`
    (numbered across the unit, `CudaTranslationUnit.assertions[k - 1]`) fails
    writes k there unless another failure got there first."""


@dataclass(frozen=True)
class TensorMapArgument:
    """A TMA tensor map of a device buffer (`mma.tma_load`), passed by
    value right after the buffer's pointer: the runtime encodes the buffer's
    address, shape and element type with a box of `box` elements and the
    128-byte swizzle (`cuTensorMapEncodeTiled`)."""

    buffer: str
    element_type: np.dtype[Any]
    shape: tuple[int, ...]
    box: tuple[int, ...]


KernelArgument = BufferArgument | ScalarArgument | StatusArgument | TensorMapArgument


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
    arguments: tuple[KernelArgument, ...]


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


# ---------------------------------------------------------------------------
# From a host function
# ---------------------------------------------------------------------------


def _scalar_constant(value: SSAValue) -> int | float | None:
    """The number an `arith.constant` gives `value` (a scalar kernel operand
    may be a float), else None."""
    integer = constant_int(value)
    if integer is not None:
        return integer
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value")
        if isinstance(attr, FloatAttr):
            return float(attr.value.data)
    return None


def plan_launches(  # noqa: C901 (one branch per host op kind)
    func: FuncOp,
    kernel_names: dict[tuple[str, str], str],
    error: Callable[[Operation, str], DiagnosticError],
    status_kernels: set[str],
    dynamic_shared_bytes: Mapping[str, int],
    tensor_map_boxes: Mapping[str, Mapping[int, tuple[int, ...]]] | None = None,
) -> LaunchPlan:
    """The plan of host function `func`. `kernel_names` maps (gpu.module,
    gpu.func) to the printed kernel names, `status_kernels` holds the kernels
    that take the status word, `dynamic_shared_bytes` the dynamic shared
    memory the printer gave a kernel's workgroup buffers (added to what the
    launch asks for itself), `tensor_map_boxes` the kernel arguments passed
    as tensor maps too (by kernel, argument index: the box); `error` makes
    the located error for an op the plan cannot hold."""
    block = func.body.blocks[0]
    names: dict[SSAValue, str] = {}
    arguments: list[CArgument] = []
    taken: set[str] = set()

    def unique(hint: str | None, fallback: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_]", "_", hint or fallback) or fallback
        name, suffix = base, 1
        while name in taken:
            name, suffix = f"{base}_{suffix}", suffix + 1
        taken.add(name)
        return name

    for index, argument in enumerate(block.args):
        name = unique(argument.name_hint, f"arg{index}")
        names[argument] = name
        arguments.append(c_argument(func, index, name))
    steps: list[LaunchStep] = []
    allowed = "gpu.launch_func, memref.alloc/dealloc and constants"
    for op in block.ops:
        if op.name == "arith.constant":
            continue
        if op.name == "func.return":
            if op.operands:
                raise error(op, "functions return through output buffers")
            break
        if op.name == "memref.alloc":
            memref_type = op.results[0].type
            assert isinstance(memref_type, MemRefType)
            shape = memref_type.get_shape()
            if not isinstance(memref_type.layout, NoneAttr) or any(
                s < 0 for s in shape
            ):
                raise error(
                    op, "device buffers need a static shape and identity layout"
                )
            name = unique(op.results[0].name_hint, "buffer")
            names[op.results[0]] = name
            steps.append(
                AllocateBuffer(
                    name, numpy_dtype(memref_type.get_element_type()), tuple(shape)
                )
            )
        elif op.name == "memref.dealloc":
            steps.append(FreeBuffer(names[op.operands[0]]))
        elif isinstance(op, gpu.LaunchFuncOp):
            sizes = [constant_int(v) for v in (*op.grid_size, *op.block_size)]
            if any(size is None for size in sizes):
                raise error(op, "grid and block sizes must be constants")
            shared = 0
            if op.dynamicSharedMemorySize is not None:
                value = constant_int(op.dynamicSharedMemorySize)
                if value is None:
                    raise error(op, "dynamic shared memory size must be a constant")
                shared = value
            launch_arguments: list[KernelArgument] = []
            key = (op.kernel_module_name, op.kernel_name)
            boxes = (tensor_map_boxes or {}).get(kernel_names.get(key, ""), {})
            for position, operand in enumerate(op.kernel_operands):
                if isinstance(operand.type, MemRefType):
                    if operand not in names:
                        raise error(
                            op, "kernel buffers must be arguments or allocations"
                        )
                    launch_arguments.append(BufferArgument(names[operand]))
                    if position in boxes:
                        launch_arguments.append(
                            TensorMapArgument(
                                names[operand],
                                numpy_dtype(operand.type.get_element_type()),
                                tuple(operand.type.get_shape()),
                                boxes[position],
                            )
                        )
                else:
                    constant = _scalar_constant(operand)
                    if constant is None:
                        raise error(op, "scalar kernel arguments must be constants")
                    launch_arguments.append(
                        ScalarArgument(constant, numpy_dtype(operand.type))
                    )
            if key not in kernel_names:
                raise error(op, f"no kernel @{key[0]}::@{key[1]} in the module")
            if kernel_names[key] in status_kernels:
                launch_arguments.append(StatusArgument())
            grid = (int(sizes[0] or 1), int(sizes[1] or 1), int(sizes[2] or 1))
            threads = (int(sizes[3] or 1), int(sizes[4] or 1), int(sizes[5] or 1))
            kernel = kernel_names[key]
            shared += dynamic_shared_bytes.get(kernel, 0)
            steps.append(
                KernelLaunch(kernel, grid, threads, shared, tuple(launch_arguments))
            )
        else:
            raise error(
                op,
                f"host function '{_symbol_text(func.sym_name.data)}' can only "
                f"hold {allowed}, not '{op.name}'",
            )
    return LaunchPlan(func.sym_name.data, tuple(arguments), tuple(steps))


# ---------------------------------------------------------------------------
# As text
# ---------------------------------------------------------------------------


_BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def _symbol_text(symbol: str) -> str:
    """`@symbol` as MLIR prints it, quoted and escaped when not bare: a line
    break or a trailing backslash must not end the comment it is printed in."""
    if _BARE_SYMBOL.fullmatch(symbol):
        return f"@{symbol}"
    escaped = "".join(
        character
        if character.isprintable() and character.isascii() and character not in '"\\'
        else "".join(f"\\{byte:02X}" for byte in character.encode())
        for character in symbol
    )
    return f'@"{escaped}"'


def _argument_text(argument: KernelArgument) -> str:
    if isinstance(argument, BufferArgument):
        return argument.buffer
    if isinstance(argument, ScalarArgument):
        return repr(argument.value)
    if isinstance(argument, TensorMapArgument):
        return f"tensor_map({argument.buffer}, box {list(argument.box)})"
    return "&status"


def describe_plan(plan: LaunchPlan) -> list[str]:
    """`plan` as comment lines (what `irkit-opt -t cuda` prints of it)."""
    parameters = ", ".join(
        f"{'out ' if a.is_output else ''}{a.name}: {a.element_type}{list(a.shape)}"
        for a in plan.arguments
    )
    lines = [f"// launch plan for {_symbol_text(plan.symbol)}({parameters}):"]
    for step in plan.steps:
        if isinstance(step, AllocateBuffer):
            shape = list(step.shape)
            lines.append(f"//   allocate {step.buffer}: {step.element_type}{shape}")
        elif isinstance(step, FreeBuffer):
            lines.append(f"//   free {step.buffer}")
        else:
            args = ", ".join(_argument_text(a) for a in step.arguments)
            lines.append(
                f"//   launch {step.kernel}<<<{step.grid}, {step.block}, "
                f"{step.dynamic_shared_memory_bytes}>>>({args})"
            )
    return lines
