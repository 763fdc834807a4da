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

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.dialects.func import FuncOp as HostFuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from irkit.diagnostics import DiagnosticError
from irkit.dialects import gpu
from irkit.interpreter.values import numpy_dtype
from irkit.targets.c import _MATH_32, _MATH_64, CArgument, c_argument
from irkit.targets.cstyle import (
    HELPER_PREFIX,
    CStyleEmitter,
    EmitFunction,
    Language,
    Scope,
    View,
    mangle_symbol,
)

__all__ = [
    "CUDA_LANGUAGE",
    "AllocateBuffer",
    "BufferArgument",
    "CudaTranslationUnit",
    "FreeBuffer",
    "KernelLaunch",
    "LaunchPlan",
    "LaunchStep",
    "ScalarArgument",
    "StatusArgument",
    "describe_plans",
    "emit_cuda",
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


KernelArgument = BufferArgument | ScalarArgument | StatusArgument


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


@dataclass(frozen=True)
class CudaTranslationUnit:
    """The printed CUDA C and, per host function, its launch plan."""

    source: str  # self-contained: compiles with NVRTC without any include path
    kernels: tuple[str, ...]  # every `extern "C" __global__` name in `source`
    plans: dict[str, LaunchPlan]  # by func.func sym_name
    assertions: tuple[str, ...] = ()  # cf.assert messages; status k -> [k - 1]


# --------------------------------------------------------------------------
# The printer
# --------------------------------------------------------------------------

# NVRTC compiles without the C library's headers: the fixed-width types and
# the limits the shared walk prints are defined here; nvcc gets the real ones.
_PRELUDE = """\
#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#define INT8_MIN (-128)
#define INT16_MIN (-32767 - 1)
#define INT32_MIN (-2147483647 - 1)
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT8_MAX 127
#define INT16_MAX 32767
#define INT32_MAX 2147483647
#define INT64_MAX 9223372036854775807LL
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615ULL
#else
#include <stdint.h>
#endif
// Constant expressions, so that a __device__ global's initialiser may use them
// (NVRTC has neither __builtin_nanf nor __builtin_huge_valf).
#define IRKIT_NAN __builtin_bit_cast(float, 0x7fc00000u)
#define IRKIT_INFINITY __builtin_bit_cast(float, 0x7f800000u)
"""

CUDA_LANGUAGE = Language(
    target_name="CUDA target",
    includes=(),
    scalar_types={
        "f32": "float",
        "f64": "double",
        "i1": "bool",
        "i8": "int8_t",
        "i16": "int16_t",
        "i32": "int32_t",
        "i64": "int64_t",
        "index": "int64_t",
    },
    half_compute_type="float",
    function_qualifier='extern "C" __global__',
    helper_qualifier="static __device__ __forceinline__",
    restrict="__restrict__",
    # CUDA's device math library has libm's names and IEEE behaviour.
    math_functions={32: _MATH_32, 64: _MATH_64},
    float_literal_suffix={32: "f", 64: ""},
    nan="IRKIT_NAN",
    infinity="IRKIT_INFINITY",
    barrier="__syncthreads();",
    thread_index={
        "gpu.thread_id": "threadIdx",
        "gpu.block_id": "blockIdx",
        "gpu.block_dim": "blockDim",
        "gpu.grid_dim": "gridDim",
    },
    shared_qualifier="__shared__",
    parallel_loop_pragma=None,
    unroll_pragma="#pragma unroll",
    reserved_names=frozenset(
        {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}
        | {
            name
            for template in (*_MATH_32.values(), *_MATH_64.values())
            for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?=\()", template)
        }
    ),
)

_VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.reinterpret_cast",
        "memref.memory_space_cast",
        "memref.assume_alignment",
    }
)
_READING_OPS = frozenset({"memref.load", "memref.dim", "affine.load"})


def _written_arguments(block: Block, count: int) -> set[int]:
    """Which of the first `count` arguments of `block` a kernel may write:
    any use that is not a load or a view of a value only loaded from."""
    written: set[int] = set()
    for index in range(count):
        pending: list[SSAValue] = [block.args[index]]
        while pending:
            value = pending.pop()
            for use in value.uses:
                user = use.operation
                if user.name in _VIEW_OPS and use.index == 0:
                    pending.extend(user.results)
                elif user.name in _READING_OPS:
                    continue
                else:
                    written.add(index)
    return written


def _kernel_symbol(module: str, kernel: str) -> str:
    """One name per kernel in the translation unit: MLIR's outlining names a
    module after its kernel (`@f_kernel_0::@f_kernel`), so the module name
    alone is unique; otherwise both are joined."""
    return module if module.startswith(kernel) else f"{module}__{kernel}"


class CudaEmitter(CStyleEmitter):
    """Prints the kernels of every `gpu.module` of a module as CUDA C."""

    def __init__(self, module: ModuleOp) -> None:
        super().__init__(CUDA_LANGUAGE, module)
        self.kernel_names: dict[tuple[str, str], str] = {}
        # Kernels holding a cf.assert take the status word as a last argument.
        self.status_kernels: set[str] = set()
        self.status_name: str | None = None
        self.number_assertions()

    # -- the walk, extended with the gpu ops -----------------------------

    def emitter_for(self, name: str) -> EmitFunction | None:
        own = _GPU_EMITTERS.get(name)
        return own if own is not None else super().emitter_for(name)

    def global_qualifier(self, constant: bool) -> str:
        return "__device__ static const" if constant else "__device__ static"

    def _dimension(self, op: Operation) -> None:
        assert isinstance(
            op, gpu.ThreadIdOp | gpu.BlockIdOp | gpu.BlockDimOp | gpu.GridDimOp
        )
        base = self.language.thread_index[op.name]
        self.declare(op.results[0], f"(int64_t){base}.{op.dimension}", op)

    def _global_id(self, op: Operation) -> None:
        assert isinstance(op, gpu.GlobalIdOp)
        d = op.dimension
        expr = f"(int64_t)blockIdx.{d} * (int64_t)blockDim.{d} + (int64_t)threadIdx.{d}"
        self.declare(op.results[0], expr, op)

    def _lane_id(self, op: Operation) -> None:
        self.declare(op.results[0], f"(int64_t){self._device_helper('lane_id')}()", op)

    def _shuffle(self, op: Operation) -> None:
        """MLIR's semantics: lane `k` (below `width`) reads lane `k ^ offset`,
        `k + offset`, `k - offset` or `offset`; `valid` when that lane is in
        [0, width); an invalid lane keeps its own value. Every lane below
        `width` runs the intrinsic, masked to those lanes as MLIR's NVVM
        lowering does."""
        assert isinstance(op, gpu.ShuffleOp)
        value, offset, width = self.operands(op)
        key = self.key_of(op.result.type, op)
        lane = self.fresh_name("lane")
        source = self.fresh_name("source")
        shuffled = self.fresh_name("shuffled")
        self.writer.line(f"int32_t {lane} = {self._device_helper('lane_id')}();")
        # In 64 bits: `lane + offset` must not overflow for any i32 offset.
        source_expr = {
            "xor": f"(int64_t){lane} ^ {offset}",
            "down": f"(int64_t){lane} + {offset}",
            "up": f"(int64_t){lane} - {offset}",
            "idx": f"(int64_t){offset}",
        }[op.mode]
        self.writer.line(f"int64_t {source} = {source_expr};")
        # A constant offset in [0, 32) reads the same lane through the mode's
        # own intrinsic; any other offset through the computed source lane.
        constant_offset = _constant_value(op.offset)
        intrinsic = _SHUFFLE_INTRINSICS[op.mode]
        if not (isinstance(constant_offset, int) and 0 <= constant_offset < 32):
            intrinsic, offset = "__shfl_sync", f"(int32_t){source}"
        mask = f"{self._device_helper('lane_mask')}({width})"
        self.writer.line(f"{self.type_name(key)} {shuffled} = {value};")
        with self.writer.block(f"if ({lane} < {width})"):
            self.writer.line(f"{shuffled} = {intrinsic}({mask}, {value}, {offset});")
        conditions = [f"{lane} < {width}", f"{source} >= 0", f"{source} < {width}"]
        constant_width = _constant_value(op.width)
        if not (isinstance(constant_width, int) and constant_width <= 32):
            conditions.append(f"{source} < 32")
        valid = self.fresh_name(op.valid.name_hint or "valid")
        self.writer.line(f"bool {valid} = {' && '.join(conditions)};")
        self.scope.values[op.valid] = valid
        self.declare(op.result, f"{valid} ? {shuffled} : {value}", op)

    def _device_helper(self, kind: str) -> str:
        """A helper of this target alone, printed once before the kernels."""
        name = f"{HELPER_PREFIX}{kind}"
        if name not in self.helpers:
            body = _DEVICE_HELPERS[kind].replace("{name}", name)
            self.helpers[name] = f"{self.language.helper_qualifier} {body}"
        return name

    def key_of(self, mlir_type: Attribute, op: Operation) -> str:
        key = super().key_of(mlir_type, op)
        if key not in self.language.scalar_types:
            raise self.error(op, f"unsupported type {mlir_type}")
        return key

    def _barrier(self, op: Operation) -> None:
        assert self.language.barrier is not None
        self.writer.line(self.language.barrier)

    def _no_heap(self, op: Operation) -> None:
        raise self.error(op, f"'{op.name}' cannot run inside a kernel")

    def _assert(self, op: Operation) -> None:
        # A kernel cannot return early (the other threads of its block would
        # wait at a barrier for it): it records the failure and goes on; the
        # runtime raises once the plan has run.
        assert self.status_name is not None
        condition = self.name_of(op.operands[0])
        with self.block(f"if (!{condition})"):
            self.writer.line(
                f"atomicCAS({self.status_name}, 0, {self.assertion_status[op]});"
            )

    def _no_call(self, op: Operation) -> None:
        raise self.error(op, "calls inside kernels are not supported")

    # -- the module --------------------------------------------------------

    def emit_kernels(self) -> tuple[str, tuple[str, ...]]:
        taken: set[str] = set()
        globals_seen: dict[str, str] = {}
        modules = [op for op in self.module.ops if isinstance(op, gpu.ModuleOp)]
        for module in modules:
            for op in module.body.block.ops:
                if isinstance(op, gpu.FuncOp):
                    if not op.is_kernel:
                        raise self.error(op, "only kernel gpu.funcs can be printed")
                    key = (module.module_name, op.sym_name.data)
                    self.kernel_names[key] = mangle_symbol(
                        _kernel_symbol(*key), taken, self.language.reserved_names
                    )
                elif op.name == "memref.global":
                    symbol = op.properties["sym_name"]
                    assert hasattr(symbol, "data")
                    if symbol.data in globals_seen:
                        if globals_seen[symbol.data] != str(op):
                            raise self.error(
                                op, f"two different globals named @{symbol.data}"
                            )
                        continue
                    globals_seen[symbol.data] = str(op)
                    self.symbols[symbol.data] = mangle_symbol(
                        symbol.data, taken, self.language.reserved_names
                    )
                    self.emit_global(op)
                elif op.name not in ("gpu.module_end",):
                    raise self.unprintable(op)
        for module in modules:
            for op in module.body.block.ops:
                if isinstance(op, gpu.FuncOp):
                    self.emit_kernel(module.module_name, op)
        source = self._assemble({})
        header = "// Generated by irkit. One self-contained CUDA translation unit."
        source = source.replace(
            "// Generated by irkit. One self-contained translation unit.\n",
            header + "\n" + _PRELUDE,
            1,
        )
        return source, tuple(self.kernel_names.values())

    def emit_kernel(self, module_name: str, func: gpu.FuncOp) -> None:
        self.scope = Scope()
        self._counter = 0
        block = func.entry_block
        inputs = len(func.arguments)
        written = _written_arguments(block, inputs)
        parameters: list[str] = []
        for index, argument in enumerate(func.arguments):
            name = self.fresh_name(argument.name_hint or f"arg{index}")
            argument_type = argument.type
            if isinstance(argument_type, MemRefType):
                key = self.key_of(argument_type.get_element_type(), func)
                shape = argument_type.get_shape()
                if any(size < 0 for size in shape):
                    raise self.error(
                        func, f"kernel argument #{index} needs a static shape"
                    )
                strides, offset = self._layout(argument_type, func)
                read_only = index not in written
                self.scope.views[argument] = View(
                    name, key, tuple(shape), tuple(strides), offset, read_only
                )
                const = "const " if read_only else ""
                parameters.append(
                    f"{const}{self.type_name(key)} *{self.language.restrict} {name}"
                )
            else:
                key = self.key_of(argument_type, func)
                self.scope.values[argument] = name
                parameters.append(f"{self.type_name(key)} {name}")
        c_name = self.kernel_names[(module_name, func.sym_name.data)]
        self.status_name = None
        if any(op.name == "cf.assert" for op in func.walk()):
            self.status_name = self.fresh_name("status")
            parameters.append(f"int32_t *{self.language.restrict} {self.status_name}")
            self.status_kernels.add(c_name)
        bounds = func.attributes.get("gpu.known_block_size")
        launch_bounds = ""
        if isinstance(bounds, DenseArrayBase):
            threads = int(np.prod([int(v) for v in bounds.get_values()]))
            resident = func.attributes.get(gpu.MIN_BLOCKS_ATTRIBUTE)
            if isinstance(resident, IntegerAttr) and resident.value.data > 0:
                launch_bounds = f"__launch_bounds__({threads}, {resident.value.data}) "
            else:
                launch_bounds = f"__launch_bounds__({threads}) "
        qualifier = self.language.function_qualifier
        signature = f"{qualifier} void {launch_bounds}{c_name}({', '.join(parameters)})"
        with self.writer.block(signature):
            for argument in func.arguments:
                if not argument.uses:
                    name = (
                        self.scope.views[argument].pointer
                        if isinstance(argument.type, MemRefType)
                        else self.scope.values[argument]
                    )
                    self.writer.line(f"(void){name};")
            for attribution in (
                *func.workgroup_attributions,
                *func.private_attributions,
            ):
                self._attribution(func, attribution)
            terminator = self.emit_ops(block)
            if terminator is None or terminator.name != "gpu.return":
                raise self.error(func, "kernel body must end in gpu.return")
        self.writer.line("")

    def _attribution(self, func: gpu.FuncOp, value: SSAValue) -> None:
        memref_type = value.type
        assert isinstance(memref_type, MemRefType)
        if not isinstance(memref_type.layout, NoneAttr):
            raise self.error(func, "attributions need the identity layout")
        key = self.key_of(memref_type.get_element_type(), func)
        shape = [int(size) for size in memref_type.get_shape()]
        count = int(np.prod(shape)) if shape else 1
        name = self.fresh_name(value.name_hint or "shared")
        # 16-byte aligned, so that four neighbouring floats may be read as one
        # `ld.shared.v4` (gpu-relayout-shared lays tiles out for that).
        qualifier = (
            f"{self.language.shared_qualifier} __align__(16) "
            if gpu.is_workgroup_memref(memref_type)
            else ""
        )
        self.writer.line(f"{qualifier}{self.type_name(key)} {name}[{max(count, 1)}];")
        strides: list[int] = []
        stride = 1
        for size in reversed(shape):
            strides.insert(0, stride)
            stride *= size
        self.scope.views[value] = View(
            name, key, tuple(shape), tuple(strides), 0, False
        )


_SHUFFLE_INTRINSICS = {
    "xor": "__shfl_xor_sync",
    "down": "__shfl_down_sync",
    "up": "__shfl_up_sync",
    "idx": "__shfl_sync",
}

# Warps are formed from the linear thread id, x fastest.
_DEVICE_HELPERS = {
    "lane_id": (
        "int32_t {name}(void) {\n"
        "    return (int32_t)((threadIdx.x + blockDim.x * (threadIdx.y + "
        "blockDim.y * threadIdx.z)) % 32u);\n}"
    ),
    "lane_mask": (
        "uint32_t {name}(int32_t width) {\n"
        "    return width >= 32 ? 0xffffffffu : "
        "(width <= 0 ? 0u : (1u << width) - 1u);\n}"
    ),
}

# Unbound methods of CudaEmitter, called as `emitter(self, op)` like the
# shared table's entries.
_GPU_EMITTERS: dict[str, Callable[[Any, Operation], None]] = {
    "gpu.thread_id": CudaEmitter._dimension,
    "gpu.block_id": CudaEmitter._dimension,
    "gpu.block_dim": CudaEmitter._dimension,
    "gpu.grid_dim": CudaEmitter._dimension,
    "gpu.global_id": CudaEmitter._global_id,
    "gpu.lane_id": CudaEmitter._lane_id,
    "gpu.shuffle": CudaEmitter._shuffle,
    "gpu.barrier": CudaEmitter._barrier,
    "memref.alloc": CudaEmitter._no_heap,
    "memref.dealloc": CudaEmitter._no_heap,
    "cf.assert": CudaEmitter._assert,
    "func.call": CudaEmitter._no_call,
}


# -- host functions: launch plans -------------------------------------------


def _constant_value(value: SSAValue) -> int | float | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value")
        if isinstance(attr, IntegerAttr):
            return int(attr.value.data)
        if isinstance(attr, FloatAttr):
            return float(attr.value.data)
    return None


def _plan(  # noqa: C901 (one branch per host op kind)
    func: HostFuncOp,
    kernel_names: dict[tuple[str, str], str],
    error: Callable[[Operation, str], DiagnosticError],
    status_kernels: set[str],
) -> LaunchPlan:
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
            sizes = [_constant_value(v) for v in (*op.grid_size, *op.block_size)]
            if any(not isinstance(size, int) for size in sizes):
                raise error(op, "grid and block sizes must be constants")
            shared = 0
            if op.dynamicSharedMemorySize is not None:
                value = _constant_value(op.dynamicSharedMemorySize)
                if not isinstance(value, int):
                    raise error(op, "dynamic shared memory size must be a constant")
                shared = value
            launch_arguments: list[KernelArgument] = []
            for operand in op.kernel_operands:
                if isinstance(operand.type, MemRefType):
                    if operand not in names:
                        raise error(
                            op, "kernel buffers must be arguments or allocations"
                        )
                    launch_arguments.append(BufferArgument(names[operand]))
                else:
                    constant = _constant_value(operand)
                    if constant is None:
                        raise error(op, "scalar kernel arguments must be constants")
                    launch_arguments.append(
                        ScalarArgument(constant, numpy_dtype(operand.type))
                    )
            key = (op.kernel_module_name, op.kernel_name)
            if key not in kernel_names:
                raise error(op, f"no kernel @{key[0]}::@{key[1]} in the module")
            if kernel_names[key] in status_kernels:
                launch_arguments.append(StatusArgument())
            grid = (int(sizes[0] or 1), int(sizes[1] or 1), int(sizes[2] or 1))
            threads = (int(sizes[3] or 1), int(sizes[4] or 1), int(sizes[5] or 1))
            steps.append(
                KernelLaunch(
                    kernel_names[key], grid, threads, shared, tuple(launch_arguments)
                )
            )
        else:
            raise error(
                op,
                f"host function '{_symbol_text(func.sym_name.data)}' can only "
                f"hold {allowed}, not '{op.name}'",
            )
    return LaunchPlan(func.sym_name.data, tuple(arguments), tuple(steps))


def emit_cuda(module: ModuleOp) -> CudaTranslationUnit:
    """Print the kernels of `module` as CUDA C and each host `func.func` as a
    launch plan; raises a located `DiagnosticError` on what it cannot print."""
    emitter = CudaEmitter(module)
    source, kernels = emitter.emit_kernels()
    plans: dict[str, LaunchPlan] = {}
    for op in module.ops:
        if isinstance(op, HostFuncOp) and op.body.blocks:
            plans[op.sym_name.data] = _plan(
                op, emitter.kernel_names, emitter.error, emitter.status_kernels
            )
        elif op.name == "memref.global":
            continue  # host copies of globals the kernels carry themselves
        elif not isinstance(op, gpu.ModuleOp | HostFuncOp):
            raise emitter.unprintable(op)
    return CudaTranslationUnit(source, kernels, plans, emitter.assertions)


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
    return "&status"


def describe_plans(unit: CudaTranslationUnit) -> str:
    """The launch plans as a comment block (what `irkit-opt -t cuda` prints)."""
    lines: list[str] = []
    for plan in unit.plans.values():
        parameters = ", ".join(
            f"{'out ' if a.is_output else ''}{a.name}: {a.element_type}{list(a.shape)}"
            for a in plan.arguments
        )
        symbol = _symbol_text(plan.symbol)
        lines.append(f"// launch plan for {symbol}({parameters}):")
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
    return "\n".join(lines) + "\n"
