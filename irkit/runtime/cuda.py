"""Compiling CUDA translation units and running their launch plans on a GPU.

The CUDA target (`irkit.targets.cuda`) prints one CUDA C++ translation unit,
split into programs of one kernel each, and, per host function, a
`LaunchPlan`. This module compiles each program to a cubin for the current
device's architecture (NVRTC through `cuda.core`, else `nvcc` run with an
argument list, never a shell), the programs in parallel on a thread pool
(`compile_unit`), keeps each cubin in the artifact cache
(`irkit.runtime.cache`) keyed by its source, compiler, options and
architecture, and returns a `CudaCompiledFunction` that executes the plan:
device buffers are bound to the plan's parameters, the steps run in order on
one stream, and the stream is synchronised before results are returned.

Every failure a user can meet is an `IRKitError` with one clear message:
`CudaUnavailableError` (no cuda-python, no driver, no GPU),
`CudaCompileError` (the compiler's log), `CudaRuntimeError` (a kernel fault,
out of device memory, a failing CUDA call), and `InputError` (a `ValueError`)
for wrong arguments, raised before anything runs. See `docs/runtime.md`.
"""

from __future__ import annotations

import ctypes
import functools
import importlib
import importlib.util
import os
import shutil
import subprocess
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.func import FuncOp

from irkit.diagnostics import InputError, IRKitError
from irkit.dtypes import poison
from irkit.runtime.arguments import (
    Parameter,
    check_host_output,
    check_input_count,
    check_output_aliasing,
    check_shape_and_dtype,
    coerce_host_input,
    describe_parameters,
    host_arrays_share_memory,
    host_buffer_for,
    output_where,
    row_major_strides,
    split_out,
)
from irkit.runtime.cache import ArtifactCache, cache_key
from irkit.runtime.cpu import AssertionFailure, CompileError, Timing
from irkit.runtime.frameworks import (
    CUPY,
    DLPACK,
    NUMPY,
    TORCH,
    GpuArray,
    allocate_cupy,
    allocate_torch,
    as_host_array,
    cupy_stream,
    gpu_array_of_cupy,
    gpu_array_of_torch,
    host_result,
    is_cupy_array,
    is_torch_tensor,
    torch_dtype,
    torch_module,
    torch_stream,
)
from irkit.targets.cuda_mma import uses_architecture_specific_features
from irkit.targets.target import H100, GpuHardware

if TYPE_CHECKING:
    from irkit.runtime.tuning import TuningResult
    from irkit.targets.cuda import CudaTranslationUnit, LaunchPlan

__all__ = [
    "CudaCompileError",
    "CudaCompiledFunction",
    "CudaCompiler",
    "CudaRuntimeError",
    "CudaUnavailableError",
    "compile_cubin",
    "compile_unit",
    "cuda_compiler",
    "gpu_unavailable_reason",
    "load_cuda_function",
    "program_architecture",
]

COMPILER_VARIABLE = "IRKIT_CUDA_COMPILER"  # "nvrtc" or "nvcc" forces one
# How many programs of a unit compile at once (default: one per core this
# process may run on); 1 compiles them one after the other.
COMPILE_THREADS_VARIABLE = "IRKIT_CUDA_COMPILE_THREADS"
CXX_STANDARD = "c++17"
# Both compilers optimise the kernels of a program on all cores
# (`--split-compile=0`): a transformer block's twelve kernels in one program
# compiled in 1.4 s instead of 2.1 on two cores. A program holds one kernel
# now (`compile_unit` runs programs in parallel instead), which it leaves
# alone; it still splits a program of kernels sharing a global, or a unit
# compiled whole. The code is the same.
SPLIT_COMPILE_THREADS = 0  # 0: as many as the machine has
NVCC_FLAGS = (
    f"-std={CXX_STANDARD}",
    "-O3",
    f"--split-compile={SPLIT_COMPILE_THREADS}",
)
CUBIN_SUFFIX = ".cubin"
# Shown instead of a temporary file name in compiler messages.
SOURCE_NAME = "<irkit-generated>.cu"
# DLPack device types whose memory a CUDA kernel can address.
DLPACK_CUDA_DEVICES = (2, 13)  # kDLCUDA, kDLCUDAManaged


class CudaUnavailableError(IRKitError):
    """cuda-python, an NVIDIA driver or a GPU is missing: the reason, in one line."""


class CudaCompileError(CompileError):
    """NVRTC or nvcc rejected a translation unit (the message holds its log)."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message, stderr)
        self.message = message


class CudaRuntimeError(IRKitError, RuntimeError):
    """A CUDA call failed while loading or running a plan (a kernel fault, out
    of device memory, an invalid launch configuration)."""


# ----------------------------------------------------------------------------
# cuda.core and the device
# ----------------------------------------------------------------------------


def _cuda_module(name: str) -> Any:
    """A cuda-python module (imported by name: it has no type information),
    or `CudaUnavailableError` saying how to get it."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise CudaUnavailableError(
            f"cuda-python is not installed ({error}): install irkit[cuda]"
        ) from None


def _cuda_core() -> Any:
    return _cuda_module("cuda.core")


def _cuda_error_type() -> type[Exception]:
    error_type: type[Exception] = _cuda_module("cuda.core._utils.cuda_utils").CUDAError
    return error_type


@functools.cache
def _open_device() -> Any:
    """The current CUDA device, made current for this thread; raises
    `CudaUnavailableError` with a one-line reason when there is none."""
    cc = _cuda_core()
    try:
        devices = cc.Device.get_all_devices()
    except (RuntimeError, OSError, _cuda_error_type()) as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise CudaUnavailableError(
            f"no usable NVIDIA driver: {reason or type(error).__name__}"
        ) from None
    if not devices:
        raise CudaUnavailableError("no CUDA device found")
    device = cc.Device()
    try:
        device.set_current()
    except (RuntimeError, _cuda_error_type()) as error:
        raise CudaUnavailableError(f"cannot use CUDA device 0: {error}") from None
    return device


def gpu_unavailable_reason() -> str | None:
    """Why no GPU can run plans here (None when one can): for test skips."""
    try:
        _open_device()
    except CudaUnavailableError as error:
        return str(error)
    return None


def device_architecture(device: Any) -> str:
    """The device's real architecture as compilers name it: `sm_90`."""
    capability = device.compute_capability
    return f"sm_{capability.major}{capability.minor}"


def device_architecture_specific(device: Any) -> str:
    """The device's architecture-specific target (`sm_90a`: the features
    only this architecture has, such as `wgmma`), or "" before Hopper, which
    has none."""
    capability = device.compute_capability
    if capability.major < 9:
        return ""
    return f"{device_architecture(device)}a"


def device_identity() -> list[str]:
    """What printed CUDA and its cubin depend on besides the program: the
    device's architecture (the CUDA target's `machine` hook)."""
    return [device_architecture(_open_device())]


def device_hardware() -> GpuHardware:
    """The current device's facts (the CUDA target's `hardware` hook), or
    the H100's when no device can be opened (printing needs none)."""
    try:
        device = _open_device()
    except CudaUnavailableError:
        return H100
    properties = device.properties
    return GpuHardware(
        name=str(device.name),
        architecture=device_architecture(device),
        warp_size=int(properties.warp_size),
        max_threads_per_block=int(properties.max_threads_per_block),
        shared_memory_per_block=int(properties.max_shared_memory_per_block),
        shared_memory_per_block_optin=int(properties.max_shared_memory_per_block_optin),
        registers_per_block=int(properties.max_registers_per_block),
        multiprocessors=int(properties.multiprocessor_count),
        mma_shapes=H100.mma_shapes if device.compute_capability.major >= 8 else (),
        architecture_specific=device_architecture_specific(device),
        # wgmma is sm_90a's alone: Blackwell (sm_100a) has tcgen05 instead.
        warpgroup_mma=device_architecture_specific(device) == "sm_90a",
    )


# ----------------------------------------------------------------------------
# Compiling: NVRTC (preferred) or nvcc, cached by content
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CudaCompiler:
    """A CUDA C++ compiler: NVRTC (in-process) or nvcc (a subprocess)."""

    kind: str  # "nvrtc" or "nvcc"
    version: str
    command: tuple[str, ...] = ()  # nvcc's path; empty for NVRTC

    def options(self, arch: str) -> list[str]:
        """Everything that, besides the source, decides the cubin."""
        if self.kind == "nvrtc":
            return [
                f"--gpu-architecture={arch}",
                f"-std={CXX_STANDARD}",
                f"--split-compile={SPLIT_COMPILE_THREADS}",
            ]
        return [*NVCC_FLAGS, f"-arch={arch}"]

    def compile(
        self, cache: ArtifactCache, source: str, arch: str, name: str = SOURCE_NAME
    ) -> bytes:
        """The cubin of `source`; `name` stands for the file in messages."""
        if self.kind == "nvrtc":
            return _compile_with_nvrtc(source, arch, name)
        return self._compile_with_nvcc(cache, source, arch, name)

    def _compile_with_nvcc(
        self, cache: ArtifactCache, source: str, arch: str, name: str
    ) -> bytes:
        with (
            cache.temporary_file(".cu") as source_file,
            cache.temporary_file(CUBIN_SUFFIX) as output,
        ):
            source_file.write_text(source)
            command = [
                *self.command,
                "-cubin",
                *self.options(arch),
                "-o",
                str(output),
                str(source_file),
            ]
            result = subprocess.run(
                command, capture_output=True, text=True, check=False
            )
            if result.returncode != 0:
                log = (result.stderr + result.stdout).replace(str(source_file), name)
                raise CudaCompileError(
                    f"CUDA compilation failed (nvcc exited with status "
                    f"{result.returncode}):",
                    log.strip(),
                )
            return output.read_bytes()


def cuda_include_dirs() -> list[str]:
    """Directories holding the CUDA toolkit's headers (`cuda_fp16.h`), which
    NVRTC, unlike nvcc, does not look for by itself: `$CUDA_HOME` or
    `$CUDA_PATH`, the toolkit of the `nvcc` on PATH, `/usr/local/cuda`, and
    the headers of the `nvidia-cuda-runtime` wheels; those that exist."""
    candidates: list[Path] = []
    for variable in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(variable)
        if root:
            candidates.append(Path(root) / "include")
    nvcc = shutil.which("nvcc")
    if nvcc is not None:
        candidates.append(Path(nvcc).resolve().parent.parent / "include")
    candidates.append(Path("/usr/local/cuda/include"))
    for package in ("nvidia.cuda_runtime", "nvidia.cu13", "nvidia.cu12"):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        if spec is not None:
            for location in spec.submodule_search_locations or []:
                candidates.append(Path(location) / "include")
    found: list[str] = []
    for candidate in candidates:
        if (candidate / "cuda_fp16.h").is_file() and str(candidate) not in found:
            found.append(str(candidate))
    return found


def _compile_with_nvrtc(source: str, arch: str, name: str = SOURCE_NAME) -> bytes:
    from irkit.targets.cuda import TYPE_INCLUDES

    include_path = None
    if any(include in source for include in TYPE_INCLUDES.values()):
        include_path = cuda_include_dirs()[:1] or None
        if include_path is None:
            raise CudaCompileError(
                "CUDA compilation failed: the kernels use f16 or bf16, and NVRTC "
                "needs the CUDA headers (cuda_fp16.h, cuda_bf16.h), which were "
                "found nowhere: set "
                "$CUDA_HOME to a CUDA toolkit, or install nvidia-cuda-runtime",
                "",
            )
    cc = _cuda_core()
    options = cc.ProgramOptions(
        arch=arch,
        std=CXX_STANDARD,
        name=name,
        include_path=include_path,
        split_compile=SPLIT_COMPILE_THREADS,
    )
    try:
        code = cc.Program(source, code_type="c++", options=options).compile("cubin")
    except _cuda_error_type() as error:
        message = str(error)
        head, _, log = message.partition("compilation log:")
        raise CudaCompileError(
            f"CUDA compilation failed (NVRTC: {head.strip().rstrip(',')}):",
            log.strip(),
        ) from None
    return bytes(code.code)


def _nvrtc_version() -> str | None:
    """NVRTC's version when cuda-python and libnvrtc are both loadable."""
    try:
        nvrtc = importlib.import_module("cuda.bindings.nvrtc")
        _, major, minor = nvrtc.nvrtcVersion()
    except (ImportError, RuntimeError, OSError):
        return None
    return f"{major}.{minor}"


def _nvcc_version(command: str) -> str | None:
    try:
        result = subprocess.run(
            [command, "--version"], capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    return result.stdout.strip() if result.returncode == 0 else None


@functools.cache
def _find_compiler(preference: str) -> CudaCompiler:
    if preference not in ("", "nvrtc", "nvcc"):
        raise CudaUnavailableError(
            f"${COMPILER_VARIABLE} must be 'nvrtc' or 'nvcc', not '{preference}'"
        )
    if preference in ("", "nvrtc"):
        version = _nvrtc_version()
        if version is not None:
            return CudaCompiler("nvrtc", version)
    if preference in ("", "nvcc"):
        nvcc = shutil.which("nvcc")
        version = _nvcc_version(nvcc) if nvcc is not None else None
        if nvcc is not None and version is not None:
            return CudaCompiler("nvcc", version, (nvcc,))
    wanted = preference or "NVRTC or nvcc"
    raise CudaUnavailableError(
        f"no CUDA compiler: {wanted} not found (install irkit[cuda] and "
        "nvidia-cuda-nvrtc, or put nvcc on PATH)"
    )


def cuda_compiler() -> CudaCompiler:
    """NVRTC when cuda-python can load it, else `nvcc` from PATH;
    `$IRKIT_CUDA_COMPILER=nvrtc|nvcc` forces one."""
    return _find_compiler(os.environ.get(COMPILER_VARIABLE, "").strip())


def compile_threads() -> int:
    """How many programs `compile_unit` compiles at once:
    `$IRKIT_CUDA_COMPILE_THREADS`, else the cores this process may use."""
    text = os.environ.get(COMPILE_THREADS_VARIABLE, "").strip()
    if text:
        if not text.isdigit() or int(text) < 1:
            raise IRKitError(
                f"${COMPILE_THREADS_VARIABLE} must be a positive integer, not '{text}'"
            )
        return int(text)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _is_cubin(path: Path) -> bool:
    with path.open("rb") as file:
        return file.read(4) == b"\x7fELF"


def compile_cubin(
    source: str,
    arch: str,
    cache: ArtifactCache | None = None,
    compiler: CudaCompiler | None = None,
    name: str = SOURCE_NAME,
) -> Path:
    """The cached cubin of `source` for `arch` (`sm_90`), compiled if needed.

    Needs no GPU and no driver, so CI can compile every kernel. The key covers
    the source, the compiler and its version, its options and `arch`; an entry
    that is not an ELF file is rebuilt. `name` stands for the source file in
    the compiler's messages.
    """
    cache = cache or ArtifactCache.open()
    compiler = compiler or cuda_compiler()
    key = cache_key(
        "cuda-cubin", source, compiler.kind, compiler.version, compiler.options(arch)
    )

    def build(output: Path) -> None:
        output.write_bytes(compiler.compile(cache, source, arch, name))

    return cache.get_or_build(key, CUBIN_SUFFIX, build, _is_cubin)


def program_architecture(
    source: str,
    arch: str,
    architecture_specific: str,
    kernels: Sequence[str] = (),
) -> str:
    """What to compile `source` for: `architecture_specific` (`sm_90a`) when
    it uses instructions only that target has (`wgmma`), else `arch`; a
    `CudaCompileError` when it needs one and there is none."""
    if not uses_architecture_specific_features(source):
        return arch
    if not architecture_specific:
        named = f"kernels {', '.join(kernels)}" if kernels else "the kernels"
        raise CudaCompileError(
            f"CUDA compilation failed: {named} use warpgroup products (wgmma), "
            f"which {arch} lacks: lower with `lower-to-cuda{{wgmma=false}}`",
            "",
        )
    return architecture_specific


def compile_unit(
    unit: CudaTranslationUnit,
    arch: str,
    cache: ArtifactCache | None = None,
    compiler: CudaCompiler | None = None,
    threads: int | None = None,
    per_kernel: bool | None = None,
    architecture_specific: str = "",
) -> dict[str, Path]:
    """The cubin of each kernel of `unit` for `arch`, by kernel name; a
    program that uses architecture-specific instructions (`wgmma`:
    `cuda_mma.uses_architecture_specific_features`) for
    `architecture_specific` (`sm_90a`) instead, or an error where there is
    none.

    With `per_kernel` (the default for NVRTC on more than one thread), each
    of the unit's programs (`CudaTranslationUnit.programs`: one per kernel)
    is a cubin of its own, cached by its own source (`compile_cubin`): a
    kernel that did not change is found in the cache even when its
    neighbours did. Programs missing from the cache compile on `threads`
    threads (default `compile_threads()`), the longest first: NVRTC
    releases the GIL and nvcc is a subprocess, so they run on as many
    cores. The cubins are those a serial compile makes. A program that does
    not compile raises `CudaCompileError` naming its kernels (the first
    failing program in the unit's order, whatever order they finished in).

    Otherwise the unit compiles whole, as one program: on one thread the
    programs' own costs (NVRTC's 20 ms each) would only add up, and nvcc
    starts a process per program (about half a second each here), where
    one process with its optimiser on every core (`--split-compile`)
    costs less.
    """
    from irkit.targets.cuda import CudaProgram

    cache = cache or ArtifactCache.open()
    compiler = compiler or cuda_compiler()
    threads = threads or compile_threads()
    if per_kernel is None:
        per_kernel = compiler.kind == "nvrtc" and threads > 1
    whole = not per_kernel or not unit.programs
    programs = (CudaProgram(unit.source, unit.kernels),) if whole else unit.programs
    if compiler.kind == "nvrtc":
        # Imported once here: importing cuda.core from several threads at
        # once can fail halfway.
        _cuda_core()
    workers = min(len(programs), threads)

    def compile_program(program: CudaProgram) -> Path:
        target = program_architecture(
            program.source, arch, architecture_specific, program.kernels
        )
        if whole:
            return compile_cubin(program.source, target, cache, compiler)
        name = f"<irkit-generated:{program.kernels[0]}>.cu"
        try:
            return compile_cubin(program.source, target, cache, compiler, name)
        except CudaCompileError as error:
            kernels = ", ".join(f"'{kernel}'" for kernel in program.kernels)
            plural = "s" if len(program.kernels) > 1 else ""
            raise CudaCompileError(
                f"{error.message.rstrip(':')} in kernel{plural} {kernels}:",
                error.stderr,
            ) from None

    if workers <= 1:
        paths = [compile_program(program) for program in programs]
    else:
        with ThreadPoolExecutor(workers, thread_name_prefix="irkit-cuda") as pool:
            longest_first = sorted(programs, key=lambda p: -len(p.source))
            futures = {p: pool.submit(compile_program, p) for p in longest_first}
            # In the unit's order, so the error raised does not depend on
            # which thread finished first.
            paths = [futures[program].result() for program in programs]
    return {
        kernel: path
        for program, path in zip(programs, paths, strict=True)
        for kernel in program.kernels
    }


# ----------------------------------------------------------------------------
# Launch plans
# ----------------------------------------------------------------------------


def check_plan(unit: CudaTranslationUnit, plan: LaunchPlan) -> None:
    """Refuse a plan this runtime cannot execute faithfully, before it runs:
    scalar parameters, unknown kernels, and buffers used before they are
    allocated or after they are freed."""
    from irkit.targets.cuda import AllocateBuffer, BufferArgument, FreeBuffer

    where = f"launch plan of @{plan.symbol}"
    scalars = [a.name for a in plan.arguments if a.is_scalar]
    if scalars:
        raise IRKitError(
            f"{where}: scalar parameters ({', '.join(scalars)}) are not supported "
            "by the CUDA runtime"
        )
    parameters = {argument.name for argument in plan.arguments}
    live = set(parameters)
    for step in plan.steps:
        if isinstance(step, AllocateBuffer):
            if step.buffer in live:
                raise IRKitError(f"{where}: buffer '{step.buffer}' allocated twice")
            live.add(step.buffer)
        elif isinstance(step, FreeBuffer):
            if step.buffer not in live or step.buffer in parameters:
                raise IRKitError(
                    f"{where}: frees '{step.buffer}', which it did not allocate"
                )
            live.remove(step.buffer)
        else:
            if step.kernel not in unit.kernels:
                raise IRKitError(f"{where}: launches unknown kernel '{step.kernel}'")
            for argument in step.arguments:
                if isinstance(argument, BufferArgument) and argument.buffer not in live:
                    raise IRKitError(
                        f"{where}: kernel '{step.kernel}' uses buffer "
                        f"'{argument.buffer}', which is not allocated at that point"
                    )


def _is_device_array(value: Any) -> bool:
    if isinstance(value, np.ndarray | np.generic):
        return False
    if is_torch_tensor(value):
        return bool(value.is_cuda)
    if hasattr(value, "__cuda_array_interface__"):
        return True
    dlpack_device = getattr(value, "__dlpack_device__", None)
    return callable(dlpack_device) and dlpack_device()[0] in DLPACK_CUDA_DEVICES


def _device_arrays_share_memory(a: Any, b: Any) -> bool:
    if not (isinstance(a, GpuArray) and isinstance(b, GpuArray)):
        return False
    (start_a, size_a), (start_b, size_b) = a.extent, b.extent
    return start_a < start_b + size_b and start_b < start_a + size_a


DeviceViewer = Callable[[Parameter, Any, str], GpuArray]
HostOrDevice = np.ndarray | GpuArray


def check_arguments(
    parameters: Sequence[Parameter],
    symbol: str,
    inputs: Sequence[Any],
    out: Any,
    view_device_array: DeviceViewer,
) -> tuple[list[HostOrDevice], list[HostOrDevice | None]]:
    """Check a call's inputs and `out=` arrays against `parameters` before
    anything runs; `InputError` (a `ValueError`) names the first mistake.

    Host values go through the same checks as the CPU runtime's; GPU arrays
    through `view_device_array(parameter, value, where)`. Returns the inputs
    (NumPy arrays or GPU arrays) and the outputs (None: to be allocated).
    """
    input_parameters = [p for p in parameters if not p.argument.is_output]
    output_parameters = [p for p in parameters if p.argument.is_output]
    check_input_count(symbol, inputs, len(input_parameters))
    checked_inputs: list[HostOrDevice] = []
    for parameter, value in zip(input_parameters, inputs, strict=True):
        if _is_device_array(value):
            where = f"@{symbol}: {parameter.label()}"
            checked_inputs.append(view_device_array(parameter, value, where))
        else:
            checked_inputs.append(
                coerce_host_input(parameter, as_host_array(value), symbol)
            )
    if out is None:
        return checked_inputs, [None] * len(output_parameters)
    checked_outputs: list[HostOrDevice] = []
    given = split_out(out, output_parameters, symbol)
    for parameter, value in zip(output_parameters, given, strict=True):
        where = output_where(parameter, symbol)
        if not _is_device_array(value):
            checked_outputs.append(
                check_host_output(parameter, as_host_array(value), symbol)
            )
            continue
        view = view_device_array(parameter, value, where)
        if view.readonly:
            raise InputError(f"{where}: is read-only")
        checked_outputs.append(view)
    check_output_aliasing(
        symbol,
        output_parameters,
        checked_outputs,
        input_parameters,
        checked_inputs,
        lambda a, b: (
            host_arrays_share_memory(a, b) or _device_arrays_share_memory(a, b)
        ),
    )
    return checked_inputs, list(checked_outputs)


# Device times of a plan's runs (CUDA events), in milliseconds.
CudaTiming = Timing


# ----------------------------------------------------------------------------
# The workspace: every buffer a plan allocates, laid out once
# ----------------------------------------------------------------------------

WORKSPACE_ALIGNMENT = 256  # what cudaMalloc guarantees; kernels rely on it
# Executable graphs kept per workspace, one per distinct set of argument
# pointers (PyTorch's caching allocator hands a steady loop the same ones).
GRAPHS_PER_WORKSPACE = 8


def _aligned(nbytes: int) -> int:
    return -(-max(nbytes, 1) // WORKSPACE_ALIGNMENT) * WORKSPACE_ALIGNMENT


@dataclass(frozen=True)
class WorkspaceLayout:
    """Where each buffer of a plan lives inside one workspace allocation.

    Buffers whose lifetimes (from `AllocateBuffer` to `FreeBuffer`, or to the
    end) do not overlap may share bytes: the plan runs its steps in stream
    order, so a freed buffer's bytes are free for the next allocation.
    `status_offset` is the assertion status word, when a kernel has one.
    """

    offsets: dict[str, int]
    status_offset: int | None
    nbytes: int


def workspace_layout(plan: LaunchPlan) -> WorkspaceLayout:
    """First-fit placement of the plan's buffers (256-byte aligned)."""
    from irkit.targets.cuda import AllocateBuffer, FreeBuffer, StatusArgument

    live: dict[str, tuple[int, int]] = {}  # buffer -> (offset, size)
    offsets: dict[str, int] = {}
    end = 0

    def place(size: int) -> int:
        nonlocal end
        start = 0
        for offset, used in sorted(live.values()):
            if offset - start >= size:
                break
            start = max(start, offset + used)
        end = max(end, start + size)
        return start

    for step in plan.steps:
        if isinstance(step, AllocateBuffer):
            size = _aligned(step.nbytes)
            offsets[step.buffer] = place(size)
            live[step.buffer] = (offsets[step.buffer], size)
        elif isinstance(step, FreeBuffer):
            live.pop(step.buffer, None)
    has_status = any(
        isinstance(argument, StatusArgument)
        for step in plan.steps
        if not isinstance(step, AllocateBuffer | FreeBuffer)
        for argument in step.arguments
    )
    status_offset = None
    if has_status:
        status_offset = end
        end += WORKSPACE_ALIGNMENT
    return WorkspaceLayout(offsets, status_offset, end)


@dataclass(frozen=True)
class _Launch:
    """One kernel launch of a plan, ready to run: each argument is a
    parameter's position (`int`), a workspace offset (`_Offset`), the status
    word (`None`), a tensor map of a buffer (`_TensorMap`) or a by-value
    number."""

    kernel: Any
    config: Any
    arguments: tuple[Any, ...]


@dataclass(frozen=True)
class _Offset:
    offset: int


@dataclass(frozen=True)
class _TensorMap:
    """A kernel's tensor map of the buffer at `source` (a parameter's
    position or a workspace offset), encoded per buffer address
    (`CudaCompiledFunction._tensor_map`)."""

    source: int | _Offset
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    box: tuple[int, ...]


# Encoded tensor maps kept per function (one per buffer address and map):
# a call with the same arrays encodes none.
TENSOR_MAPS_PER_FUNCTION = 64


@dataclass(frozen=True)
class _TorchFacts:
    """PyTorch's view of a function's parameters, for the fast path."""

    tensor: Any  # torch.Tensor
    device: Any  # the function's torch.device
    dtypes: tuple[Any, ...]  # each parameter's torch dtype, by position
    all_dense: bool  # no strided-layout parameter (those take NumPy only)


@dataclass(frozen=True)
class _CallArrays:
    """One call's arrays: as given, and as checked."""

    framework: str  # of the results: NUMPY, TORCH, CUPY or DLPACK
    given: tuple[Any, ...]  # the caller's inputs
    inputs: list[HostOrDevice]
    outputs: list[HostOrDevice | None]  # None: the call allocates it
    originals: list[Any]  # the caller's out= objects, returned as given


def _allocate_for_any_stream(function: CudaCompiledFunction, nbytes: int) -> Any:
    """Device memory that lives as long as `function` and that any stream may
    use: allocated (and later freed) on the function's own stream, which is
    waited for once, so a caller's stream that goes away first takes nothing
    with it."""
    buffer = function._device.allocate(max(nbytes, 1), stream=function._stream)
    function._stream.sync()
    return buffer


class _Workspace:
    """The device memory a function uses on one stream: the plan's buffers
    (allocated once, at the first call on that stream), staging buffers for
    host arrays (at the first call with one), and the executable graphs
    captured for that stream's argument pointers."""

    def __init__(self, function: CudaCompiledFunction) -> None:
        self.lock = threading.Lock()
        layout = function._layout
        cc = function._cc
        self.scratch = _allocate_for_any_stream(function, layout.nbytes)
        self.base = int(self.scratch.handle)
        self.status: Any = None
        self.status_host: Any = None
        if layout.status_offset is not None:
            # The status word is sticky: zeroed here and after a failure is
            # reported, never per run, so the latest copy of it in pinned
            # host memory (made at the end of every run, without waiting)
            # shows a failure of any earlier run on this stream.
            self.status = cc.Buffer.from_handle(self.base + layout.status_offset, 4)
            self.status_host = cc.LegacyPinnedMemoryResource().allocate(4)
            ctypes.memset(int(self.status_host.handle), 0, 4)
            self.status.fill(0, stream=function._stream)
            function._stream.sync()
        self.staging: Any = None
        self.staging_pointers: dict[str, int] = {}
        self.graphs: OrderedDict[tuple[int, ...], Any] = OrderedDict()

    def reported_status(self) -> int:
        """The status word as last copied to the host (0: no failure seen
        yet); read without waiting for the stream."""
        return int(ctypes.c_int32.from_address(int(self.status_host.handle)).value)

    def clear_status(self, stream: Any) -> None:
        """Zero the status word and its host copy once a failure is
        reported, so later runs start clean."""
        self.status.fill(0, stream=stream)
        stream.sync()
        ctypes.memset(int(self.status_host.handle), 0, 4)

    def stage(self, function: CudaCompiledFunction) -> dict[str, int]:
        """Device buffers for every parameter passed as a host array."""
        if self.staging is None:
            offsets: dict[str, int] = {}
            total = 0
            for parameter in function.parameters:
                offsets[parameter.argument.name] = total
                total += _aligned(parameter.buffer_bytes)
            self.staging = _allocate_for_any_stream(function, total)
            base = int(self.staging.handle)
            self.staging_pointers = {name: base + o for name, o in offsets.items()}
        return self.staging_pointers


class CudaCompiledFunction:
    """A host function of a CUDA unit, callable like `CompiledFunction`.

    `f(*inputs, out=None)` takes the inputs only (`docs/abi.md`) and returns
    the output buffers as a tuple, in the framework of the inputs: PyTorch
    CUDA tensors in, PyTorch tensors out (from PyTorch's caching allocator,
    ordered on PyTorch's current stream, no host synchronisation); CuPy in,
    CuPy out (on CuPy's current stream); NumPy in, NumPy out (synchronised).
    Other DLPack GPU arrays give `cuda.core` memory views. `out=` arrays,
    host or device, are written in place and returned as given.

    The plan's own buffers live in one workspace per stream, allocated at the
    first call; with `graphs=True` the plan is captured as a CUDA graph per
    set of argument pointers and replayed (one launch per call). With
    `checked=True` every output is filled with poison (a device memset)
    before each run, so an element the kernels never write shows.
    """

    # What `irkit.compile(..., tune=True)` chose (None when not tuned).
    tuning: TuningResult | None = None

    def __init__(
        self,
        unit: CudaTranslationUnit,
        plan: LaunchPlan,
        parameters: Sequence[Parameter],
        cubins: Mapping[str, Path],
        device: Any,
        *,
        checked: bool = False,
        graphs: bool = True,
    ) -> None:
        from irkit.targets.cuda import KernelLaunch

        self.unit = unit
        self.plan = plan
        self.parameters = tuple(parameters)
        # Each kernel's cubin (kernels compiled together share one).
        self.cubins = dict(cubins)
        self.checked = checked
        self.graphs = graphs
        self.inputs = tuple(p for p in self.parameters if not p.argument.is_output)
        self.outputs = tuple(p for p in self.parameters if p.argument.is_output)
        self._cc = _cuda_core()
        self._device = device
        self.hardware = device_hardware()
        self._layout = workspace_layout(plan)
        self._lock = threading.Lock()
        self._workspaces: dict[int, _Workspace] = {}
        self._streams: dict[int, Any] = {}
        self._torch: _TorchFacts | None = None
        self._tensor_maps: dict[tuple[int, _TensorMap], Any] = {}
        # PyTorch's stream handle -> (its cuda.core view, its workspace).
        self._on_torch_stream: dict[int, tuple[Any, _Workspace]] = {}
        launched = [
            step.kernel for step in plan.steps if isinstance(step, KernelLaunch)
        ]
        with self._cuda_errors("loading the cubins"):
            # Only the cubins of this plan's kernels, each loaded once.
            codes: dict[Path, Any] = {}
            for kernel in launched:
                path = self.cubins[kernel]
                if path not in codes:
                    codes[path] = self._cc.ObjectCode.from_cubin(path.read_bytes())
            self._stream = device.create_stream()
            self._kernels = {
                kernel: codes[self.cubins[kernel]].get_kernel(kernel)
                for kernel in launched
            }
            for step in plan.steps:
                if isinstance(step, KernelLaunch):
                    self._allow_shared_memory(step)
        self._launches = self._prepare_launches()

    @property
    def source(self) -> str:
        """The CUDA C++ translation unit this function was compiled from."""
        return self.unit.source

    @property
    def symbol(self) -> str:
        return self.plan.symbol

    def __repr__(self) -> str:
        paths = set(self.cubins.values())
        directories = ", ".join(sorted({str(path.parent) for path in paths}))
        return (
            f"<CudaCompiledFunction @{self.symbol} from {len(paths)} cubins "
            f"in {directories}>"
        )

    # -- errors ---------------------------------------------------------------

    @contextmanager
    def _cuda_errors(self, activity: str) -> Iterator[None]:
        """Turn cuda.core's errors into `CudaRuntimeError`s saying what ran."""
        try:
            yield
        except _cuda_error_type() as error:
            message = str(error).strip()
            if "OUT_OF_MEMORY" in message:
                raise CudaRuntimeError(
                    f"@{self.symbol}: out of device memory while {activity}: {message}"
                ) from None
            raise CudaRuntimeError(
                f"@{self.symbol}: CUDA failed while {activity}: {message}"
            ) from None

    def _allow_shared_memory(self, step: Any) -> None:
        """Raise a kernel's dynamic shared-memory limit past the device's
        default (48 KiB) when its launch asks for more (an H100 allows up to
        227 KiB: `GpuHardware.shared_memory_per_block_optin`)."""
        if step.dynamic_shared_memory_bytes <= self.hardware.shared_memory_per_block:
            return
        driver = _cuda_module("cuda.bindings.driver")
        attribute = (
            driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        )
        handle = self._kernels[step.kernel].handle
        size = step.dynamic_shared_memory_bytes
        # cuda.core loads cubins as libraries, whose kernels are CUkernels.
        if isinstance(handle, driver.CUkernel):
            device = driver.CUdevice(self._device.device_id)
            (result,) = driver.cuKernelSetAttribute(attribute, size, handle, device)
        else:
            (result,) = driver.cuFuncSetAttribute(handle, attribute, size)
        if result != driver.CUresult.CUDA_SUCCESS:
            raise CudaRuntimeError(
                f"@{self.symbol}: kernel '{step.kernel}' cannot use "
                f"{step.dynamic_shared_memory_bytes} bytes of shared memory ({result})"
            )

    def _prepare_launches(self) -> tuple[_Launch, ...]:
        """Each launch's kernel, configuration and argument sources, so a
        call only fills in pointers."""
        from irkit.targets.cuda import (
            BufferArgument,
            KernelLaunch,
            ScalarArgument,
            TensorMapArgument,
        )

        positions = {p.argument.name: p.position for p in self.parameters}
        launches: list[_Launch] = []
        for step in self.plan.steps:
            if not isinstance(step, KernelLaunch):
                continue
            arguments: list[Any] = []
            for argument in step.arguments:
                if isinstance(argument, BufferArgument):
                    if argument.buffer in positions:
                        arguments.append(positions[argument.buffer])
                    else:
                        arguments.append(_Offset(self._layout.offsets[argument.buffer]))
                elif isinstance(argument, ScalarArgument):
                    arguments.append(argument.element_type.type(argument.value))
                elif isinstance(argument, TensorMapArgument):
                    source: int | _Offset = (
                        positions[argument.buffer]
                        if argument.buffer in positions
                        else _Offset(self._layout.offsets[argument.buffer])
                    )
                    arguments.append(
                        _TensorMap(
                            source, argument.element_type, argument.shape, argument.box
                        )
                    )
                else:
                    arguments.append(None)
            config = self._cc.LaunchConfig(
                grid=step.grid,
                block=step.block,
                shmem_size=step.dynamic_shared_memory_bytes,
            )
            launches.append(
                _Launch(self._kernels[step.kernel], config, tuple(arguments))
            )
        return tuple(launches)

    # -- argument checks (nothing runs before they pass) ----------------------

    def _device_view(self, parameter: Parameter, value: Any, where: str) -> GpuArray:
        """Check a GPU array against `parameter`: device, dtype, shape, layout.

        PyTorch and CuPy arrays are read directly; anything else through
        DLPack or `__cuda_array_interface__` (cuda.core's memory view)."""
        if is_torch_tensor(value):
            array = gpu_array_of_torch(value)
        elif is_cupy_array(value):
            array = gpu_array_of_cupy(value)
        else:
            array = self._dlpack_view(value, where)
        if array is None:
            raise InputError(f"{where}: is not on a GPU")
        if array.device_id != self._device.device_id:
            raise InputError(
                f"{where}: is on device {array.device_id}, the function runs on "
                f"CUDA device {self._device.device_id}"
            )
        check_shape_and_dtype(parameter, array.shape, array.dtype, where)
        if not array.contiguous:
            raise InputError(f"{where}: must be C-contiguous, it is a strided view")
        if not parameter.is_dense:
            raise InputError(
                f"{where}: the parameter has a strided layout; pass a NumPy array "
                "(the runtime lays it out) instead of a GPU array"
            )
        return array

    def _dlpack_view(self, value: Any, where: str) -> GpuArray:
        try:
            view = self._cc.utils.StridedMemoryView.from_any_interface(
                value, stream_ptr=int(self._stream.handle)
            )
        except (BufferError, TypeError, ValueError, NotImplementedError) as error:
            raise InputError(
                f"{where}: cannot view it as a GPU array: {error}"
            ) from None
        if not view.is_device_accessible:
            raise InputError(f"{where}: is not on a GPU")
        shape = tuple(view.shape)
        strides = view.strides
        contiguous = strides is None or all(
            size <= 1 or stride == expected
            for size, stride, expected in zip(
                shape, strides, row_major_strides(shape), strict=True
            )
        )
        return GpuArray(
            value,
            int(view.ptr),
            shape,
            np.dtype(view.dtype),
            view.device_id,
            contiguous,
            bool(view.readonly),
            DLPACK,
            keep=view,
        )

    # -- streams and memory ---------------------------------------------------

    def _foreign_stream(self, handle: int) -> Any:
        """A cuda.core view of a stream the caller's framework owns."""
        stream = self._streams.get(handle)
        if stream is None:
            # Handle 0 is the legacy default stream (PyTorch's default).
            stream = (
                self._cc.LEGACY_DEFAULT_STREAM
                if handle == 0
                else self._cc.Stream.from_handle(handle)
            )
            self._streams[handle] = stream
        return stream

    def _caller_stream(self, framework: str) -> Any:
        """PyTorch's or CuPy's current stream for their arrays (the call is
        ordered there, like one of their ops); irkit's own otherwise."""
        device_id = self._device.device_id
        if framework == TORCH:
            return self._foreign_stream(torch_stream(device_id))
        if framework == CUPY:
            return self._foreign_stream(cupy_stream(device_id))
        return self._stream

    def _workspace(self, stream: Any) -> _Workspace:
        handle = int(stream.handle)
        with self._lock:
            workspace = self._workspaces.get(handle)
            if workspace is None:
                workspace = _Workspace(self)
                self._workspaces[handle] = workspace
        return workspace

    def _allocate_output(
        self, parameter: Parameter, framework: str, stream: Any
    ) -> tuple[Any, int]:
        """A new device array for an output, from the caller's framework:
        (the object returned to the caller, its device pointer)."""
        shape, dtype = parameter.shape, parameter.dtype
        if framework == TORCH:
            torch_facts = self._torch_facts()
            tensor = allocate_torch(
                shape, torch_facts.dtypes[parameter.position], torch_facts.device
            )
            return tensor, int(tensor.data_ptr())
        if framework == CUPY:
            array = allocate_cupy(shape, dtype, self._device.device_id)
            return array, int(array.data.ptr)
        buffer = self._device.allocate(max(parameter.buffer_bytes, 1), stream=stream)
        view = self._cc.utils.StridedMemoryView.from_buffer(buffer, shape, dtype=dtype)
        return view, int(buffer.handle)

    def _poison(self, pointer: int, parameter: Parameter, stream: Any) -> None:
        """Fill an output with the interpreter's poison, on the device."""
        nbytes = parameter.buffer_bytes
        if nbytes == 0:
            return
        pattern = poison((1,), parameter.dtype).tobytes()
        target = self._cc.Buffer.from_handle(pointer, nbytes)
        if len(pattern) <= 4:
            target.fill(pattern, stream=stream)
            return
        # 8-byte elements: memsets write at most 4 bytes of pattern, so the
        # low and the high words are written as two strided 2-D memsets.
        driver = _cuda_module("cuda.bindings.driver")
        count = nbytes // 8
        for half in range(2):
            word = int.from_bytes(pattern[4 * half : 4 * half + 4], "little")
            (result,) = driver.cuMemsetD2D32Async(
                pointer + 4 * half, 8, word, 1, count, stream.handle
            )
            if result != driver.CUresult.CUDA_SUCCESS:
                raise CudaRuntimeError(f"@{self.symbol}: poisoning failed ({result})")

    # -- running --------------------------------------------------------------

    def _enqueue(
        self, stream: Any, pointers: Sequence[int], workspace: _Workspace
    ) -> None:
        """Queue the plan's launches on `stream` (or a graph being built)."""
        status = workspace.base + (self._layout.status_offset or 0)
        base = workspace.base
        launch = self._cc.launch
        for step in self._launches:
            arguments = [
                pointers[a]
                if type(a) is int
                else base + a.offset
                if type(a) is _Offset
                else status
                if a is None
                else self._tensor_map(a, pointers, base)
                if type(a) is _TensorMap
                else a
                for a in step.arguments
            ]
            launch(stream, step.config, step.kernel, *arguments)
        if workspace.status is not None:
            # Part of the run (and of its graph): the host reads the copy
            # when it likes, without waiting.
            workspace.status.copy_to(workspace.status_host, stream=stream)

    def _tensor_map(
        self, tensor_map: _TensorMap, pointers: Sequence[int], base: int
    ) -> Any:
        """The tensor map (`cuda.core`'s `TensorMapDescriptor`) of the buffer
        `tensor_map` names, for this call's addresses: 128-byte swizzle, 256-
        byte L2 promotion, zeros outside the buffer. Encoded once per address
        (graphs keep theirs in their kernel nodes)."""
        source = tensor_map.source
        pointer = (
            base + source.offset if isinstance(source, _Offset) else pointers[source]
        )
        key = (pointer, tensor_map)
        cache = self._tensor_maps
        found = cache.get(key)
        if found is not None:
            return found
        cc = self._cc
        maps = _cuda_module("cuda.core._tensor_map")
        view_type = _cuda_module("cuda.core.utils").StridedMemoryView
        nbytes = int(np.prod(tensor_map.shape)) * tensor_map.dtype.itemsize
        view = view_type.from_buffer(
            cc.Buffer.from_handle(pointer, nbytes),
            tensor_map.shape,
            dtype=tensor_map.dtype,
        )
        try:
            found = view.as_tensor_map(
                tensor_map.box,
                swizzle=maps.TensorMapSwizzle.SWIZZLE_128B,
                l2_promotion=maps.TensorMapL2Promotion.L2_256B,
            )
        except ValueError as error:
            raise InputError(
                f"@{self.symbol}: an array a kernel reads through a tensor map "
                f"(TMA) must start at a 16-byte aligned address: {error}"
            ) from error
        if len(cache) >= TENSOR_MAPS_PER_FUNCTION:
            cache.pop(next(iter(cache)))
        cache[key] = found
        return found

    def _run(
        self, stream: Any, pointers: tuple[int, ...], workspace: _Workspace
    ) -> None:
        """Run the plan once on `stream` with parameters at `pointers`."""
        if not self.graphs:
            self._enqueue(stream, pointers, workspace)
            return
        graphs = workspace.graphs
        graph = graphs.get(pointers)
        if graph is None:
            builder = self._stream.create_graph_builder().begin_building("thread_local")
            self._enqueue(builder, pointers, workspace)
            builder.end_building()
            if len(graphs) >= GRAPHS_PER_WORKSPACE:
                # Reuse the oldest executable graph: updating its node
                # parameters is far cheaper than instantiating a new one.
                _, graph = graphs.popitem(last=False)
                try:
                    graph.update(builder)
                except _cuda_error_type():
                    graph.close()
                    graph = builder.complete()
            else:
                graph = builder.complete()
            builder.close()
            graphs[pointers] = graph
        else:
            graphs.move_to_end(pointers)
        graph.launch(stream)

    def _check_status(
        self, workspace: _Workspace, stream: Any, *, wait: bool = True
    ) -> None:
        """Raise `AssertionFailure` if a kernel's `cf.assert` failed (only
        plans with assertions have a status word).

        `wait=True` waits for the stream first, so a failure raises from the
        run that caused it. `wait=False` (PyTorch or CuPy arrays in and out)
        reads the host copy of the status as the last finished run left it,
        without waiting: a failure then raises from a later call on that
        stream, as PyTorch reports CUDA device-side assertions.
        """
        if workspace.status is None:
            return
        if wait:
            stream.sync()
        number = workspace.reported_status()
        if not number:
            return
        if not wait:
            stream.sync()
            number = workspace.reported_status()
        workspace.clear_status(stream)
        assertions = self.unit.assertions
        message = (
            assertions[number - 1]
            if 0 < number <= len(assertions)
            else f"status {number}"
        )
        when = (
            ""
            if wait
            else " (in an earlier call on this stream: on GPU arrays the status "
            "is read back without waiting, as PyTorch reports device-side "
            "assertions; CUDA_LAUNCH_BLOCKING=1 or checked=True raises from "
            "the failing call)"
        )
        raise AssertionFailure(f"@{self.symbol}: assertion failed: {message}{when}")

    def _run_and_check(
        self,
        stream: Any,
        pointers: tuple[int, ...],
        workspace: _Workspace,
        *,
        wait: bool,
    ) -> None:
        """Run the plan and report a failed assertion: after the run when
        `wait` (host results), `checked` or `CUDA_LAUNCH_BLOCKING=1` (as in
        PyTorch); otherwise an earlier run's, before this one starts."""
        wait = wait or self.checked or os.environ.get("CUDA_LAUNCH_BLOCKING") == "1"
        if not wait:
            self._check_status(workspace, stream, wait=False)
        self._run(stream, pointers, workspace)
        if wait:
            self._check_status(workspace, stream)

    def _torch_facts(self) -> _TorchFacts:
        """What the PyTorch fast path compares with, made once."""
        if self._torch is None:
            torch = torch_module()
            assert torch is not None
            self._torch = _TorchFacts(
                torch.Tensor,
                torch.device("cuda", self._device.device_id),
                tuple(torch_dtype(p.dtype) for p in self.parameters),
                all(p.is_dense for p in self.parameters),
            )
        return self._torch

    def _call_on_torch_tensors(self, inputs: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The call of a model in a loop: dense PyTorch CUDA tensors of the
        right device, dtype and shape in, new tensors out, no `out=`. Checked
        with a few attribute reads per tensor; None when anything differs,
        and the general path then checks (and names the mistake). A function
        of no inputs takes the general path, which returns NumPy arrays
        whether or not PyTorch is installed."""
        if not inputs or len(inputs) != len(self.inputs) or torch_module() is None:
            return None
        facts = self._torch_facts()
        if not facts.all_dense:
            return None
        device_index = self._device.device_id
        pointers = [0] * len(self.parameters)
        dtypes = facts.dtypes
        for parameter, value in zip(self.inputs, inputs, strict=True):
            position = parameter.position
            if not (
                isinstance(value, facts.tensor)
                and value.is_cuda
                and value.dtype == dtypes[position]
                and value.shape == parameter.shape
                and value.is_contiguous()
                and value.get_device() == device_index
            ):
                return None
            pointers[position] = value.data_ptr()
        handle = torch_stream(device_index)
        on_stream = self._on_torch_stream.get(handle)
        if on_stream is None:
            stream = self._foreign_stream(handle)
            on_stream = self._on_torch_stream[handle] = (
                stream,
                self._workspace(stream),
            )
        stream, workspace = on_stream
        results = []
        for parameter in self.outputs:
            position = parameter.position
            tensor = allocate_torch(parameter.shape, dtypes[position], facts.device)
            results.append(tensor)
            pointers[position] = tensor.data_ptr()
        self._device.set_current()
        with self._cuda_errors("running the launch plan"), workspace.lock:
            if self.checked:
                for parameter in self.outputs:
                    self._poison(pointers[parameter.position], parameter, stream)
            self._run_and_check(stream, tuple(pointers), workspace, wait=False)
        return tuple(results)

    def __call__(self, *inputs: Any, out: Any = None) -> tuple[Any, ...]:
        if out is None:
            results = self._call_on_torch_tensors(inputs)
            if results is not None:
                return results
        checked_inputs, given_outputs = check_arguments(
            self.parameters, self.symbol, inputs, out, self._device_view
        )
        framework = next(
            (v.framework for v in checked_inputs if isinstance(v, GpuArray)),
            NUMPY,
        )
        originals = (
            split_out(out, self.outputs, self.symbol)
            if out is not None
            else [None] * len(self.outputs)
        )
        self._device.set_current()
        with self._cuda_errors("running the launch plan"):
            stream = self._caller_stream(framework)
            workspace = self._workspace(stream)
            with workspace.lock:
                return self._call(
                    _CallArrays(
                        framework, inputs, checked_inputs, given_outputs, originals
                    ),
                    stream,
                    workspace,
                )

    def _call(
        self, arrays: _CallArrays, stream: Any, workspace: _Workspace
    ) -> tuple[Any, ...]:
        cc = self._cc
        framework = arrays.framework
        pointers = [0] * len(self.parameters)
        keep_alive: list[Any] = []  # memory in flight
        write_back: list[tuple[np.ndarray, np.ndarray]] = []
        copies_back: list[tuple[int, np.ndarray]] = []

        def stage(parameter: Parameter) -> int:
            return workspace.stage(self)[parameter.argument.name]

        for parameter, value in zip(self.inputs, arrays.inputs, strict=True):
            if isinstance(value, GpuArray):
                keep_alive.append(value)
                pointers[parameter.position] = value.pointer
                continue
            host = host_buffer_for(parameter, value, write_back)
            pointer = stage(parameter)
            if host.nbytes:
                keep_alive.append(host)
                cc.Buffer.from_handle(pointer, host.nbytes).copy_from(
                    cc.Buffer.from_handle(host.ctypes.data, host.nbytes), stream=stream
                )
            pointers[parameter.position] = pointer
        results: list[Any] = []
        for parameter, given, original in zip(
            self.outputs, arrays.outputs, arrays.originals, strict=True
        ):
            if isinstance(given, GpuArray):
                keep_alive.append(given)
                results.append(given.value)
                pointer = given.pointer
            elif given is None and framework != NUMPY and parameter.is_dense:
                result, pointer = self._allocate_output(parameter, framework, stream)
                results.append(result)
            else:
                if given is None:
                    array = np.empty(parameter.shape, parameter.dtype)
                    results.append(host_result(array, arrays.given))
                else:
                    array = given
                    results.append(original)
                host = host_buffer_for(parameter, array, write_back)
                pointer = stage(parameter)
                copies_back.append((pointer, host))
            if self.checked:
                self._poison(pointer, parameter, stream)
            pointers[parameter.position] = pointer
        # Host results are waited for anyway; GPU arrays in a framework's
        # stream are not (see `_check_status`).
        host_results = framework in (NUMPY, DLPACK) or bool(copies_back)
        self._run_and_check(stream, tuple(pointers), workspace, wait=host_results)
        for pointer, host in copies_back:
            if host.nbytes:
                keep_alive.append(host)
                cc.Buffer.from_handle(pointer, host.nbytes).copy_to(
                    cc.Buffer.from_handle(host.ctypes.data, host.nbytes), stream=stream
                )
        if framework in (NUMPY, DLPACK) or copies_back:
            # Host results must be complete; other GPU arrays come with no
            # stream irkit could order the call on.
            stream.sync()
        for result, view in write_back:
            result[...] = view
        return tuple(results)

    def time(self, *inputs: Any, runs: int = 10, warmup: int = 1) -> CudaTiming:
        """Run the plan `warmup + runs` times on device-resident copies of
        `inputs` and time each timed run with CUDA events (host copies are
        not timed; with `graphs`, each run is one graph replay)."""
        if runs < 1:
            raise InputError("time() needs a positive number of runs")
        checked_inputs, _ = check_arguments(
            self.parameters, self.symbol, inputs, None, self._device_view
        )
        self._device.set_current()
        times: list[float] = []
        options = self._cc.EventOptions(timing_enabled=True)
        stream = self._stream
        with self._cuda_errors("timing the launch plan"):
            workspace = self._workspace(stream)
            with workspace.lock:
                staging = workspace.stage(self)
                keep_alive: list[Any] = []
                pointers = [staging[p.argument.name] for p in self.parameters]
                for parameter, value in zip(self.inputs, checked_inputs, strict=True):
                    if isinstance(value, GpuArray):
                        pointers[parameter.position] = value.pointer
                        continue
                    host = host_buffer_for(parameter, value, [])
                    keep_alive.append(host)
                    if host.nbytes:
                        self._cc.Buffer.from_handle(
                            pointers[parameter.position], host.nbytes
                        ).copy_from(
                            self._cc.Buffer.from_handle(host.ctypes.data, host.nbytes),
                            stream=stream,
                        )
                for index in range(warmup + runs):
                    start = stream.record(options=options)
                    self._run(stream, tuple(pointers), workspace)
                    end = stream.record(options=options)
                    end.sync()
                    if index >= warmup:
                        times.append(end - start)
                self._check_status(workspace, stream)
        return CudaTiming(tuple(times))


def load_cuda_function(
    unit: CudaTranslationUnit,
    symbol: str,
    func: FuncOp | None = None,
    cache: ArtifactCache | None = None,
    *,
    names: Sequence[str] | None = None,
    checked: bool = False,
    graphs: bool = True,
) -> CudaCompiledFunction:
    """Compile `unit` for the current GPU (or find its cubin in the cache) and
    return the host function `@symbol`, ready to call.

    `func` (or `names`) gives the arguments their IR names for messages;
    `checked` poisons outputs before every run; `graphs` replays the plan as
    a CUDA graph (see `CudaCompiledFunction`).

    Raises `CudaUnavailableError` first when no GPU can run it, then
    `CudaCompileError`, or `IRKitError` for a plan this runtime cannot run.
    """
    device = _open_device()
    if symbol not in unit.plans:
        known = ", ".join(f"@{name}" for name in sorted(unit.plans)) or "none"
        raise IRKitError(f"no CUDA host function '@{symbol}' (functions: {known})")
    plan = unit.plans[symbol]
    check_plan(unit, plan)
    cubins = compile_unit(
        unit,
        device_architecture(device),
        cache,
        architecture_specific=device_architecture_specific(device),
    )
    parameters = describe_parameters(plan.arguments, func, names)
    return CudaCompiledFunction(
        unit, plan, parameters, cubins, device, checked=checked, graphs=graphs
    )
