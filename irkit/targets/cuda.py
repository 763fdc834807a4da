"""The CUDA target: GPU-level IR as one CUDA C translation unit plus launch plans.

The printed source holds one `extern "C" __global__` function per `gpu.func`
kernel (names mangled like the C target's), printed by `CudaEmitter`: the
shared C-family walk (`irkit.targets.cstyle`) with CUDA's tables
(`CUDA_LANGUAGE`) and printers of its own for the `gpu` ops (thread and
block indices, `gpu.shuffle`, `gpu.barrier`), for `cf.assert` (a status
word, as a kernel cannot return early) and for what a kernel may not do
(`memref.alloc`, `func.call`). Host code is not printed as C: each host
`func.func` (after `gpu-kernel-outlining` it holds only `gpu.launch_func`,
`memref.alloc`/`dealloc` of device buffers, constants and `func.return`)
becomes a `LaunchPlan` (`irkit.targets.launch_plan`, whose names this module
re-exports) that `irkit.runtime.cuda` executes in order. The unit is also
split into `CudaProgram`s, a kernel each with what it uses, which the
runtime compiles in parallel and caches one by one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnitAttr,
)
from xdsl.dialects.func import FuncOp as HostFuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
)

from irkit.analysis.memory import workgroup_layout
from irkit.dialects import gpu, mma
from irkit.dialects.static_values import constant_int
from irkit.targets.c import C_MATH_FUNCTIONS
from irkit.targets.cstyle import CStyleEmitter
from irkit.targets.cuda_mma import MMA_PRINTERS, workgroup_alignment
from irkit.targets.cuda_stores import paired_stores, print_paired_store
from irkit.targets.language import HELPER_PREFIX, Language, mangle_symbol
from irkit.targets.launch_plan import (
    AllocateBuffer,
    BufferArgument,
    FreeBuffer,
    KernelArgument,
    KernelLaunch,
    LaunchPlan,
    LaunchStep,
    ScalarArgument,
    StatusArgument,
    TensorMapArgument,
    describe_plan,
    plan_launches,
)
from irkit.targets.views import View

__all__ = [
    "CUDA_LANGUAGE",
    "AllocateBuffer",
    "BufferArgument",
    "CudaEmitter",
    "CudaProgram",
    "CudaTranslationUnit",
    "FreeBuffer",
    "KernelArgument",
    "KernelLaunch",
    "LaunchPlan",
    "LaunchStep",
    "ScalarArgument",
    "StatusArgument",
    "TensorMapArgument",
    "describe_plans",
    "emit_cuda",
]


@dataclass(frozen=True)
class CudaProgram:
    """A part of a translation unit that compiles on its own: its kernels
    with the prelude, helpers and globals they use. A kernel is a program
    of its own unless it shares a mutable global with another kernel (each
    loaded cubin holds its own copy of a global, so kernels that exchange
    data through one must be compiled and loaded together)."""

    source: str
    kernels: tuple[str, ...]


@dataclass(frozen=True)
class CudaTranslationUnit:
    """The printed CUDA C and, per host function, its launch plan.

    `source` is the whole unit (what `irkit-opt -t cuda` shows); `programs`
    split it into parts the runtime compiles in parallel and caches one by
    one (a changed kernel recompiles alone). A unit made without `programs`
    compiles as one program holding every kernel (`compiled_programs`).
    """

    source: str  # self-contained: compiles with NVRTC without any include path
    kernels: tuple[str, ...]  # every `extern "C" __global__` name in `source`
    plans: dict[str, LaunchPlan]  # by func.func sym_name
    assertions: tuple[str, ...] = ()  # cf.assert messages; status k -> [k - 1]
    programs: tuple[CudaProgram, ...] = ()  # every kernel in exactly one

    def compiled_programs(self) -> tuple[CudaProgram, ...]:
        """The programs the runtime compiles: `programs`, else the unit whole."""
        return self.programs or (CudaProgram(self.source, self.kernels),)


# ---------------------------------------------------------------------------
# The language
# ---------------------------------------------------------------------------

# CUDA C allows at most 48 KiB of static `__shared__` data per kernel on
# every architecture; a block may use more only as dynamic shared memory.
STATIC_SHARED_LIMIT = 48 * 1024
# The one `extern __shared__` array a kernel's workgroup buffers are slices
# of when they exceed that.
DYNAMIC_SHARED_NAME = "irkit_dynamic_shared"

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

# Printed only when a kernel touches f16: the one header the source needs
# (NVRTC finds it through `irkit.runtime.cuda.cuda_include_dirs`).
HALF_INCLUDE = "#include <cuda_fp16.h>\n"
# Likewise for bf16: `__nv_bfloat16` (NVRTC finds it the same way).
BFLOAT16_INCLUDE = "#include <cuda_bf16.h>\n"
# The header each type key needs, in the order they are included.
# A kernel reading a tensor map (`mma.tma_load`) takes it by value: the
# driver's opaque 128-byte, 64-byte aligned `CUtensorMap` (NVRTC has no
# cuda.h), which the runtime encodes (`docs/runtime.md`).
TENSOR_MAP_DEFINITION = (
    "struct alignas(64) irkit_tensor_map { unsigned long long words[16]; };\n"
)
TYPE_INCLUDES = {
    "f16": HALF_INCLUDE,
    "bf16": BFLOAT16_INCLUDE,
    "tensor_map": TENSOR_MAP_DEFINITION,
}
# The first line of each `CudaProgram`'s source.
PROGRAM_HEADER = (
    "// Generated by irkit. A self-contained part of a CUDA translation unit."
)


def _prelude(header_types: set[str] | frozenset[str]) -> str:
    """The prelude, then the headers of the types (`TYPE_INCLUDES`) used."""
    return _PRELUDE + "".join(
        include for key, include in TYPE_INCLUDES.items() if key in header_types
    )


CUDA_LANGUAGE = Language(
    target_name="CUDA target",
    includes=(),
    scalar_types={
        # cuda_fp16.h's type: stored as half, computed in float (its
        # conversion constructor and operator make the casts of `cstyle`).
        "f16": "__half",
        # cuda_bf16.h's, the same way (round to nearest even from float).
        "bf16": "__nv_bfloat16",
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
    helper_converted=frozenset(),
    # Through the headers' constexpr raw-bits constructors.
    bits_literals={
        "f16": "__half(__half_raw{{0x{bits:04x}}})",
        "bf16": "__nv_bfloat16(__nv_bfloat16_raw{{0x{bits:04x}}})",
    },
    function_qualifier='extern "C" __global__',
    helper_qualifier="static __device__ __forceinline__",
    restrict="__restrict__",
    restrict_read_write=False,
    # CUDA's device math library has libm's names and IEEE behaviour.
    math_functions=C_MATH_FUNCTIONS,
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
            for templates in C_MATH_FUNCTIONS.values()
            for template in templates.values()
            for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?=\()", template)
        }
    ),
)

# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

# A kernel argument reached only through these (as their source) and read
# by loads is `const`.
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


@dataclass(frozen=True)
class _PrintedPart:
    """What printing one global or one kernel wrote, and what it needs
    before it in a program of its own."""

    lines: tuple[str, ...]
    helpers: frozenset[str]  # names of `CudaEmitter.helpers` it calls
    header_types: frozenset[str]  # keys of `TYPE_INCLUDES` it touches


def _read_globals(func: gpu.FuncOp) -> tuple[str, ...]:
    """The symbols of the globals `func` reads, in order, once each."""
    found: dict[str, None] = {}
    for op in func.walk():
        if op.name == "memref.get_global":
            root = getattr(op.properties.get("name"), "root_reference", None)
            name = getattr(root, "data", None)
            if isinstance(name, str):
                found[name] = None
    return tuple(found)


def _kernel_symbol(module: str, kernel: str) -> str:
    """One name per kernel in the translation unit: MLIR's outlining names a
    module after its kernel (`@f_kernel_0::@f_kernel`), so the module name
    alone is unique; otherwise both are joined."""
    return module if module.startswith(kernel) else f"{module}__{kernel}"


class CudaEmitter(CStyleEmitter):
    """Prints the kernels of every `gpu.module` of a module as CUDA C."""

    def __init__(self, module: ModuleOp, index_bits: int = 32) -> None:
        super().__init__(CUDA_LANGUAGE, module)
        # Index arithmetic in 32 bits in kernels that divide indices
        # (`divides_indices`) and whose indices all fit
        # (`indices_fit_32_bits`), as PyTorch's kernels do when their
        # tensors have fewer than 2^31 elements and Triton's offsets are:
        # a 64-bit division takes a long sequence of 32-bit instructions (a
        # 3x3 convolution's gather: 83 -> 66 us on the H100). Other kernels
        # keep 64 bits: their wrapping 32-bit address arithmetic could not
        # be widened into pointer increments (fused attention at 2048 keys
        # 3.96 -> 4.42 ms in 32 bits). 64: every kernel in 64 bits.
        self.index_bits = index_bits
        self.kernel_names: dict[tuple[str, str], str] = {}
        # Kernels holding a cf.assert take the status word as a last argument.
        self.status_kernels: set[str] = set()
        self.status_name: str | None = None
        # What `mma.tma_load`s read is passed as tensor maps too (after the
        # other parameters): per kernel, (the argument viewed, the view's
        # shape, the box) each; the printed name of each map in the kernel
        # being printed.
        self.tensor_map_boxes: dict[
            str, list[tuple[int, tuple[int, ...], tuple[int, ...]]]
        ] = {}
        self.tensor_maps: dict[SSAValue, str] = {}
        # Stores printed as pairs in the kernel being printed: first ->
        # second, second -> first, and their element key.
        self._paired_first: dict[Operation, Operation] = {}
        self._paired_second: dict[Operation, Operation] = {}
        self._paired_key: dict[Operation, str] = {}
        # Kernels whose workgroup buffers live in dynamic shared memory, and
        # the bytes each launch of them asks for.
        self.dynamic_shared_bytes: dict[str, int] = {}
        # In the kernel being printed: each workgroup buffer's byte offset
        # in dynamic shared memory (empty when they are static arrays).
        self.dynamic_shared_offsets: dict[SSAValue, int] = {}
        # The keys of `TYPE_INCLUDES` some kernel touches: the source
        # includes their headers.
        self.types_needing_headers: set[str] = set()
        # Each global's and kernel's printed part (`CudaProgram`s are made
        # of them), the globals each kernel reads, and those it may write.
        self.global_parts: dict[str, _PrintedPart] = {}
        self.kernel_parts: dict[str, _PrintedPart] = {}
        self.kernel_globals: dict[str, tuple[str, ...]] = {}
        self.mutable_globals: set[str] = set()
        # What the part being printed uses: helpers and header types.
        self._part_helpers: set[str] = set()
        self._part_types: set[str] = set()
        self.number_assertions()

    def print_op(self, op: Operation) -> None:
        """The `gpu` ops, and refusals of what a kernel cannot do, first;
        paired stores (`irkit.targets.cuda_stores`) as one."""
        if op.name == "memref.store" and op in self._paired_first:
            return  # printed with its partner
        first = self._paired_second.get(op)
        if first is not None:
            print_paired_store(self, first, op, self._paired_key[op])
            return
        printer = _GPU_PRINTERS.get(op.name)
        if printer is None:
            super().print_op(op)
        else:
            printer(self, op)

    def global_qualifier(self, constant: bool) -> str:
        """A module-level array lives in device memory."""
        return "__device__ static const" if constant else "__device__ static"

    def device_helper(self, kind: str) -> str:
        """A helper of this target alone, printed once before the kernels."""
        name = f"{HELPER_PREFIX}{kind}"
        if name not in self.helpers:
            body = _DEVICE_HELPERS[kind].replace("{name}", name)
            self.helpers[name] = f"{self.language.helper_qualifier} {body}"
        self._part_helpers.add(name)
        return name

    def helper(self, kind: str, key: str, other: str | None = None) -> str:
        """The shared helpers, noted as used by the part being printed."""
        name = super().helper(kind, key, other)
        self._part_helpers.add(name)
        return name

    def key_of(self, mlir_type: Attribute, op: Operation) -> str:
        """The shared keys less those CUDA has no type for; notes f16 and
        bf16, whose types need a header (`TYPE_INCLUDES`)."""
        key = super().key_of(mlir_type, op)
        if key not in self.language.scalar_types:
            raise self.error(op, f"unsupported type {mlir_type}")
        if key in TYPE_INCLUDES:
            self.types_needing_headers.add(key)
            self._part_types.add(key)
        return key

    @contextmanager
    def printing_part(
        self, parts: dict[str, _PrintedPart], name: str
    ) -> Iterator[None]:
        """Record what the code printed inside writes as `parts[name]`."""
        start = len(self.writer.lines)
        self._part_helpers, self._part_types = set(), set()
        yield
        parts[name] = _PrintedPart(
            tuple(self.writer.lines[start:]),
            frozenset(self._part_helpers),
            frozenset(self._part_types),
        )

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
                    if not isinstance(op.properties.get("constant"), UnitAttr):
                        self.mutable_globals.add(symbol.data)
                    with self.printing_part(self.global_parts, symbol.data):
                        self.emit_global(op)
                elif op.name not in ("gpu.module_end",):
                    raise self.unprintable(op)
        for module in modules:
            for op in module.body.block.ops:
                if isinstance(op, gpu.FuncOp):
                    c_name = self.kernel_names[(module.module_name, op.sym_name.data)]
                    self.kernel_globals[c_name] = _read_globals(op)
                    with self.printing_part(self.kernel_parts, c_name):
                        narrow = (
                            self.index_bits == 32
                            and divides_indices(op)
                            and indices_fit_32_bits(op)
                        )
                        self.index_key = "i32" if narrow else "index"
                        try:
                            self.emit_kernel(module.module_name, op)
                        finally:
                            self.index_key = "index"
        source = self._assemble({})
        header = "// Generated by irkit. One self-contained CUDA translation unit."
        source = source.replace(
            "// Generated by irkit. One self-contained translation unit.\n",
            header + "\n" + _prelude(self.types_needing_headers),
            1,
        )
        return source, tuple(self.kernel_names.values())

    def programs(self) -> tuple[CudaProgram, ...]:
        """The printed kernels as programs that compile on their own: one per
        kernel, except that kernels sharing a mutable global share one."""
        group: dict[str, str] = {kernel: kernel for kernel in self.kernel_parts}

        def root(kernel: str) -> str:
            while group[kernel] != kernel:
                kernel = group[kernel]
            return kernel

        first_writer: dict[str, str] = {}
        for kernel, symbols in self.kernel_globals.items():
            for symbol in symbols:
                if symbol not in self.mutable_globals:
                    continue
                other = first_writer.setdefault(symbol, kernel)
                group[root(kernel)] = root(other)
        members: dict[str, list[str]] = {}
        for kernel in self.kernel_parts:
            members.setdefault(root(kernel), []).append(kernel)
        return tuple(
            CudaProgram(self._program_source(kernels), tuple(kernels))
            for kernels in members.values()
        )

    def _program_source(self, kernels: list[str]) -> str:
        """The prelude, then the helpers, globals and kernels of `kernels`,
        laid out as the whole unit is."""
        read = {symbol for kernel in kernels for symbol in self.kernel_globals[kernel]}
        parts = [part for symbol, part in self.global_parts.items() if symbol in read]
        parts += [self.kernel_parts[kernel] for kernel in kernels]
        helpers = frozenset().union(*(part.helpers for part in parts))
        types = frozenset().union(*(part.header_types for part in parts))
        lines = [PROGRAM_HEADER, _prelude(types)]
        for name, text in self.helpers.items():
            if name in helpers:
                lines += [text, ""]
        for part in parts:
            lines += part.lines
        return "\n".join(lines).rstrip("\n") + "\n"

    def emit_kernel(self, module_name: str, func: gpu.FuncOp) -> None:
        self.start_function()
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
                strides, offset = self.layout(argument_type, func)
                read_only = index not in written
                self.scope.views[argument] = View(
                    name, key, tuple(shape), tuple(strides), offset, read_only
                )
                parameters.append(
                    self.pointer_parameter(func, argument, name, key, read_only)
                )
            else:
                key = self.key_of(argument_type, func)
                self.scope.values[argument] = name
                parameters.append(f"{self.type_name(key)} {name}")
        c_name = self.kernel_names[(module_name, func.sym_name.data)]
        maps = _tensor_map_sources(self, func)
        if maps:
            self.tensor_map_boxes[c_name] = [
                (index, shape, box) for _, index, shape, box in maps
            ]
            self.types_needing_headers.add("tensor_map")
            self._part_types.add("tensor_map")
        for source, index, _, _ in maps:
            pointer = self.scope.views[func.arguments[index]].pointer
            map_name = self.fresh_name(f"{pointer}_map")
            self.tensor_maps[source] = map_name
            parameters.append(f"const __grid_constant__ irkit_tensor_map {map_name}")
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
        self._pair_stores(func)
        qualifier = self.language.function_qualifier
        signature = f"{qualifier} void {launch_bounds}{c_name}({', '.join(parameters)})"
        with self.writer.block(signature):
            self._place_workgroup_buffers(func, c_name)
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

    def _pair_stores(self, func: gpu.FuncOp) -> None:
        """Find the kernel's stores to print as pairs (`cuda_stores`)."""
        keys: dict[Operation, str] = {}
        blocks: list[Block] = []
        for op in func.walk():
            if op.name == "memref.store":
                memref_type = op.operands[1].type
                if isinstance(memref_type, MemRefType):
                    keys[op] = self.key_of(memref_type.get_element_type(), op)
            for region in op.regions:
                blocks.extend(region.blocks)
        self._paired_first, self._paired_second, self._paired_key = {}, {}, {}
        for block in blocks:
            for first, second in paired_stores(block, keys).items():
                self._paired_first[first] = second
                self._paired_second[second] = first
                self._paired_key[second] = keys[second]

    def _place_workgroup_buffers(self, func: gpu.FuncOp, c_name: str) -> None:
        """Static `__shared__` arrays while the kernel's workgroup buffers fit
        CUDA's static limit; past it, slices of one `extern __shared__` array
        whose size the launch passes (the runtime raises the kernel's limit
        to the device's opt-in maximum when needed)."""
        self.dynamic_shared_offsets = {}
        layout = workgroup_layout(func.workgroup_attributions)
        if layout is None or layout[1] <= STATIC_SHARED_LIMIT:
            return
        offsets, total = layout
        self.dynamic_shared_offsets = dict(
            zip(func.workgroup_attributions, offsets, strict=True)
        )
        self.dynamic_shared_bytes[c_name] = total
        # Every buffer's offset is a multiple of its alignment (the swizzled
        # tiles come first, whole atoms each), so the array's is the largest.
        alignment = max(map(workgroup_alignment, func.workgroup_attributions))
        self.writer.line(
            f"extern {self.language.shared_qualifier} __align__({alignment}) "
            f"unsigned char {DYNAMIC_SHARED_NAME}[];"
        )

    def _attribution(self, func: gpu.FuncOp, value: SSAValue) -> None:
        memref_type = value.type
        assert isinstance(memref_type, MemRefType)
        if not isinstance(memref_type.layout, NoneAttr):
            raise self.error(func, "attributions need the identity layout")
        key = self.key_of(memref_type.get_element_type(), func)
        shape = [int(size) for size in memref_type.get_shape()]
        count = int(np.prod(shape)) if shape else 1
        name = self.fresh_name(value.name_hint or "shared")
        type_name = self.type_name(key)
        if value in self.dynamic_shared_offsets:
            offset = self.dynamic_shared_offsets[value]
            if offset % workgroup_alignment(value):
                raise self.error(
                    func,
                    f"workgroup buffer {name} needs {workgroup_alignment(value)}-byte "
                    f"alignment, but the buffers before it leave it at byte {offset}",
                )
            self.writer.line(
                f"{type_name} *{self.language.restrict} {name} = "
                f"reinterpret_cast<{type_name} *>({DYNAMIC_SHARED_NAME} + {offset});"
            )
        else:
            # 16-byte aligned, so that four neighbouring floats may be read as
            # one `ld.shared.v4` (gpu-relayout-shared lays tiles out for that).
            qualifier = (
                f"{self.language.shared_qualifier} "
                f"__align__({workgroup_alignment(value)}) "
                if gpu.is_workgroup_memref(memref_type)
                else ""
            )
            self.writer.line(f"{qualifier}{type_name} {name}[{max(count, 1)}];")
        strides: list[int] = []
        stride = 1
        for size in reversed(shape):
            strides.insert(0, stride)
            stride *= size
        self.scope.views[value] = View(
            name, key, tuple(shape), tuple(strides), 0, False
        )


# ---------------------------------------------------------------------------
# The gpu ops, and what a kernel may not do
# ---------------------------------------------------------------------------


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


# Views a `tma_load` may read a kernel argument through: on an identity
# layout they keep its elements in place (row-major, from offset 0), so the
# tensor map is the argument's address with the view's shape.
_RESHAPING_VIEWS = frozenset(
    {
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.cast",
        "memref.memory_space_cast",
    }
)


def _tensor_map_sources(
    emitter: CudaEmitter, func: gpu.FuncOp
) -> list[tuple[SSAValue, int, tuple[int, ...], tuple[int, ...]]]:
    """Each value `mma.tma_load`s of `func` read (in order of first use), the
    kernel argument it views, its shape and the box of its loads: the
    kernel takes a tensor map of each (after its other parameters)."""
    found: dict[SSAValue, tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
    for op in func.walk():
        if not isinstance(op, mma.TmaLoadOp):
            continue
        source = op.source[0]
        memref_type = source.type
        assert isinstance(memref_type, MemRefType)
        value = source
        while value not in func.arguments:
            owner = value.owner
            value_type = value.type
            if (
                not isinstance(owner, Operation)
                or owner.name not in _RESHAPING_VIEWS
                or not isinstance(value_type, MemRefType)
                or not isinstance(value_type.layout, NoneAttr)
            ):
                raise emitter.error(
                    op,
                    "a tma_load must read a kernel argument, or a reshaping view "
                    "of one with the identity layout",
                )
            value = owner.operands[0]
        if not isinstance(memref_type.layout, NoneAttr):
            raise emitter.error(op, "a tma_load source needs the identity layout")
        index = next(i for i, a in enumerate(func.arguments) if a is value)
        entry = (index, tuple(memref_type.get_shape()), op.box_shape)
        if found.setdefault(source, entry) != entry:
            raise emitter.error(op, "the tma_loads of one source need one box")
    return [(source, *entry) for source, entry in found.items()]


def _dimension(emitter: CudaEmitter, op: Operation) -> None:
    assert isinstance(
        op, gpu.ThreadIdOp | gpu.BlockIdOp | gpu.BlockDimOp | gpu.GridDimOp
    )
    base = emitter.language.thread_index[op.name]
    index = emitter.type_name("index")
    emitter.declare(op.results[0], f"({index}){base}.{op.dimension}", op)


def _global_id(emitter: CudaEmitter, op: Operation) -> None:
    assert isinstance(op, gpu.GlobalIdOp)
    d = op.dimension
    index = emitter.type_name("index")
    expr = f"({index})blockIdx.{d} * ({index})blockDim.{d} + ({index})threadIdx.{d}"
    emitter.declare(op.results[0], expr, op)


def _lane_id(emitter: CudaEmitter, op: Operation) -> None:
    index = emitter.type_name("index")
    emitter.declare(op.results[0], f"({index}){emitter.device_helper('lane_id')}()", op)


def _shuffle(emitter: CudaEmitter, op: Operation) -> None:
    """MLIR's semantics: lane `k` (below `width`) reads lane `k ^ offset`,
    `k + offset`, `k - offset` or `offset`; `valid` when that lane is in
    [0, width); an invalid lane keeps its own value. Every lane below
    `width` runs the intrinsic, masked to those lanes as MLIR's NVVM
    lowering does."""
    assert isinstance(op, gpu.ShuffleOp)
    value, offset, width = emitter.operands(op)
    key = emitter.key_of(op.result.type, op)
    lane = emitter.fresh_name("lane")
    source = emitter.fresh_name("source")
    shuffled = emitter.fresh_name("shuffled")
    emitter.writer.line(f"int32_t {lane} = {emitter.device_helper('lane_id')}();")
    # In 64 bits: `lane + offset` must not overflow for any i32 offset.
    source_expr = {
        "xor": f"(int64_t){lane} ^ {offset}",
        "down": f"(int64_t){lane} + {offset}",
        "up": f"(int64_t){lane} - {offset}",
        "idx": f"(int64_t){offset}",
    }[op.mode]
    emitter.writer.line(f"int64_t {source} = {source_expr};")
    # A constant offset in [0, 32) reads the same lane through the mode's
    # own intrinsic; any other offset through the computed source lane.
    constant_offset = constant_int(op.offset)
    intrinsic = _SHUFFLE_INTRINSICS[op.mode]
    if not (constant_offset is not None and 0 <= constant_offset < 32):
        intrinsic, offset = "__shfl_sync", f"(int32_t){source}"
    mask = f"{emitter.device_helper('lane_mask')}({width})"
    emitter.writer.line(f"{emitter.type_name(key)} {shuffled} = {value};")
    with emitter.writer.block(f"if ({lane} < {width})"):
        emitter.writer.line(f"{shuffled} = {intrinsic}({mask}, {value}, {offset});")
    conditions = [f"{lane} < {width}", f"{source} >= 0", f"{source} < {width}"]
    constant_width = constant_int(op.width)
    if not (constant_width is not None and constant_width <= 32):
        conditions.append(f"{source} < 32")
    valid = emitter.fresh_name(op.valid.name_hint or "valid")
    emitter.writer.line(f"bool {valid} = {' && '.join(conditions)};")
    emitter.scope.values[op.valid] = valid
    emitter.declare(op.result, f"{valid} ? {shuffled} : {value}", op)


def _barrier(emitter: CudaEmitter, op: Operation) -> None:
    assert emitter.language.barrier is not None
    emitter.writer.line(emitter.language.barrier)


def _no_heap(emitter: CudaEmitter, op: Operation) -> None:
    raise emitter.error(op, f"'{op.name}' cannot run inside a kernel")


def _assert(emitter: CudaEmitter, op: Operation) -> None:
    # A kernel cannot return early (the other threads of its block would
    # wait at a barrier for it): it records the failure and goes on; the
    # runtime raises once the plan has run.
    assert emitter.status_name is not None
    condition = emitter.name_of(op.operands[0])
    with emitter.block(f"if (!{condition})"):
        emitter.writer.line(
            f"atomicCAS({emitter.status_name}, 0, {emitter.assertion_status[op]});"
        )


def _no_call(emitter: CudaEmitter, op: Operation) -> None:
    raise emitter.error(op, "calls inside kernels are not supported")


# CUDA's printers, looked up before the shared table (`CudaEmitter.print_op`).
_GPU_PRINTERS: dict[str, Callable[[CudaEmitter, Operation], None]] = {
    "gpu.thread_id": _dimension,
    "gpu.block_id": _dimension,
    "gpu.block_dim": _dimension,
    "gpu.grid_dim": _dimension,
    "gpu.global_id": _global_id,
    "gpu.lane_id": _lane_id,
    "gpu.shuffle": _shuffle,
    "gpu.barrier": _barrier,
    "memref.alloc": _no_heap,
    "memref.dealloc": _no_heap,
    "cf.assert": _assert,
    "func.call": _no_call,
    **MMA_PRINTERS,
}


# ---------------------------------------------------------------------------
# The translation unit
# ---------------------------------------------------------------------------


# Indices below this bound fit a signed 32-bit integer.
INT32_BOUND = 2**31


def _fits_32_bits(memref_type: MemRefType[Attribute]) -> bool:
    """A buffer of static shape, fewer than 2^31 elements, not of indices."""
    shape = memref_type.get_shape()
    return (
        not isinstance(memref_type.get_element_type(), IndexType)
        and all(size >= 0 for size in shape)
        and math.prod(shape) < INT32_BOUND
    )


_INDEX_DIVISIONS = frozenset(
    {
        "arith.divui",
        "arith.remui",
        "arith.divsi",
        "arith.remsi",
        "arith.floordivsi",
        "arith.ceildivsi",
        "arith.ceildivui",
    }
)


def _divides(expr: AffineExpr) -> bool:
    """Whether `expr` divides or takes a remainder by anything but a power
    of two (which the compiler turns into shifts and masks in any width)."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return False
    if expr.kind in (
        AffineBinaryOpKind.FloorDiv,
        AffineBinaryOpKind.CeilDiv,
        AffineBinaryOpKind.Mod,
    ) and not (
        isinstance(expr.rhs, AffineConstantExpr)
        and expr.rhs.value > 0
        and expr.rhs.value & (expr.rhs.value - 1) == 0
    ):
        return True
    return _divides(expr.lhs) or _divides(expr.rhs)


def _stepping_loops(
    value: SSAValue, seen: dict[SSAValue, frozenset[Operation]]
) -> frozenset[Operation]:
    """The `scf.for` loops holding a `gpu.barrier` whose counters `value`
    depends on (through the ops computing it): loops that step through
    workgroup tiles, such as a matmul's K loop."""
    if value in seen:
        return seen[value]
    seen[value] = frozenset()
    loops: set[Operation] = set()
    owner = value.owner
    if isinstance(owner, Block):
        loop = owner.parent_op()
        if (
            loop is not None
            and loop.name == "scf.for"
            and value is owner.args[0]
            and any(op.name == "gpu.barrier" for op in loop.walk())
        ):
            loops.add(loop)
    else:
        for operand in owner.operands:
            loops |= _stepping_loops(operand, seen)
    seen[value] = frozenset(loops)
    return seen[value]


def divides_indices(kernel: gpu.FuncOp) -> bool:
    """Whether `kernel` divides an index (or takes its remainder) by anything
    but a constant power of two on every step of a loop through workgroup
    tiles: an implicit GEMM's gather, `k / 9` and `p % 56` for each K step's
    tile. In 64 bits each such division is a long sequence of 32-bit
    instructions; in 32 bits, a multiply-high. (A division that no such
    loop's counter reaches, as a fused attention's head index, is computed
    once.)"""
    seen: dict[SSAValue, frozenset[Operation]] = {}
    for op in kernel.walk():
        divides = False
        if op.name in _INDEX_DIVISIONS and isinstance(op.results[0].type, IndexType):
            divisor = constant_int(op.operands[1])
            divides = divisor is None or divisor <= 0 or bool(divisor & (divisor - 1))
        elif op.name in ("affine.apply", "affine.min", "affine.max"):
            map_attr = op.properties.get("map")
            divides = isinstance(map_attr, AffineMapAttr) and any(
                _divides(expr) for expr in map_attr.data.results
            )
        if divides and any(_stepping_loops(o, seen) for o in op.operands):
            return True
    return False


def indices_fit_32_bits(kernel: gpu.FuncOp) -> bool:
    """Whether every index value of `kernel` fits 32 bits, as PyTorch decides
    for its kernels (`canUse32BitIndexMath`: fewer than 2^31 elements) and
    Triton for its offsets: every buffer the kernel takes or makes has a
    static shape of fewer than 2^31 elements (an address past that would be
    out of bounds anyway) and holds no indices; no argument is an index
    (the launch passes 64 bits); every index constant is below 2^31 in
    magnitude."""
    for argument in kernel.arguments:
        argument_type = argument.type
        if isinstance(argument_type, IndexType):
            return False
        if isinstance(argument_type, MemRefType) and not _fits_32_bits(
            cast(MemRefType[Attribute], argument_type)
        ):
            return False
    for op in kernel.walk():
        for result in op.results:
            result_type = result.type
            if isinstance(result_type, MemRefType) and not _fits_32_bits(
                cast(MemRefType[Attribute], result_type)
            ):
                return False
        value = op.properties.get("value") if op.name == "arith.constant" else None
        if (
            isinstance(value, IntegerAttr)
            and isinstance(value.type, IndexType)
            and abs(value.value.data) >= INT32_BOUND
        ):
            return False
    return True


def emit_cuda(module: ModuleOp, index_bits: int = 32) -> CudaTranslationUnit:
    """Print the kernels of `module` as CUDA C and each host `func.func` as a
    launch plan; raises a located `DiagnosticError` on what it cannot print.
    `index_bits=32` (the default): kernels that divide indices and whose
    indices fit print their index arithmetic in 32 bits (`divides_indices`,
    `indices_fit_32_bits`); 64: never."""
    if index_bits not in (32, 64):
        raise ValueError(f"index_bits must be 32 or 64, not {index_bits}")
    emitter = CudaEmitter(module, index_bits)
    source, kernels = emitter.emit_kernels()
    plans: dict[str, LaunchPlan] = {}
    for op in module.ops:
        if isinstance(op, HostFuncOp) and op.body.blocks:
            plans[op.sym_name.data] = plan_launches(
                op,
                emitter.kernel_names,
                emitter.error,
                emitter.status_kernels,
                emitter.dynamic_shared_bytes,
                emitter.tensor_map_boxes,
            )
        elif op.name == "memref.global":
            continue  # host copies of globals the kernels carry themselves
        elif not isinstance(op, gpu.ModuleOp | HostFuncOp):
            raise emitter.unprintable(op)
    return CudaTranslationUnit(
        source, kernels, plans, emitter.assertions, emitter.programs()
    )


def describe_plans(unit: CudaTranslationUnit) -> str:
    """The launch plans as a comment block (what `irkit-opt -t cuda` prints)."""
    lines = [line for plan in unit.plans.values() for line in describe_plan(plan)]
    return "\n".join(lines) + "\n"
