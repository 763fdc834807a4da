"""Compiling CUDA translation units and running their launch plans on a GPU.

The CUDA target (`irkit.targets.cuda`) prints one CUDA C++ translation unit
and, per host function, a `LaunchPlan`. This module compiles the source to a
cubin for the current device's architecture (NVRTC through `cuda.core`, else
`nvcc` run with an argument list, never a shell), keeps the cubin in the
artifact cache (`irkit.runtime.cache`) keyed by source, compiler, options and
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

import functools
import importlib
import os
import shutil
import statistics
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.func import FuncOp

from irkit.diagnostics import IRKitError
from irkit.interpreter.tensor import poison
from irkit.interpreter.values import InputError
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
from irkit.runtime.cpu import AssertionFailure, CompileError

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
    "cuda_compiler",
    "gpu_unavailable_reason",
    "load_cuda_function",
]

COMPILER_VARIABLE = "IRKIT_CUDA_COMPILER"  # "nvrtc" or "nvcc" forces one
CXX_STANDARD = "c++17"
NVCC_FLAGS = (f"-std={CXX_STANDARD}", "-O3")
CUBIN_SUFFIX = ".cubin"
# Shown instead of a temporary file name in compiler messages.
SOURCE_NAME = "<irkit-generated>.cu"
# DLPack device types whose memory a CUDA kernel can address.
DLPACK_CUDA_DEVICES = (2, 13)  # kDLCUDA, kDLCUDAManaged
DEFAULT_SHARED_MEMORY_LIMIT = 48 * 1024


class CudaUnavailableError(IRKitError):
    """cuda-python, an NVIDIA driver or a GPU is missing: the reason, in one line."""


class CudaCompileError(CompileError):
    """NVRTC or nvcc rejected a translation unit (the message holds its log)."""


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
            return [f"--gpu-architecture={arch}", f"-std={CXX_STANDARD}"]
        return [*NVCC_FLAGS, f"-arch={arch}"]

    def compile(self, cache: ArtifactCache, source: str, arch: str) -> bytes:
        if self.kind == "nvrtc":
            return _compile_with_nvrtc(source, arch)
        return self._compile_with_nvcc(cache, source, arch)

    def _compile_with_nvcc(self, cache: ArtifactCache, source: str, arch: str) -> bytes:
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
                log = (result.stderr + result.stdout).replace(
                    str(source_file), SOURCE_NAME
                )
                raise CudaCompileError(
                    f"CUDA compilation failed (nvcc exited with status "
                    f"{result.returncode}):",
                    log.strip(),
                )
            return output.read_bytes()


def _compile_with_nvrtc(source: str, arch: str) -> bytes:
    cc = _cuda_core()
    options = cc.ProgramOptions(arch=arch, std=CXX_STANDARD, name=SOURCE_NAME)
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


def _is_cubin(path: Path) -> bool:
    with path.open("rb") as file:
        return file.read(4) == b"\x7fELF"


def compile_cubin(
    source: str,
    arch: str,
    cache: ArtifactCache | None = None,
    compiler: CudaCompiler | None = None,
) -> Path:
    """The cached cubin of `source` for `arch` (`sm_90`), compiled if needed.

    Needs no GPU and no driver, so CI can compile every kernel. The key covers
    the source, the compiler and its version, its options and `arch`; an entry
    that is not an ELF file is rebuilt.
    """
    cache = cache or ArtifactCache.open()
    compiler = compiler or cuda_compiler()
    key = cache_key(
        "cuda-cubin", source, compiler.kind, compiler.version, compiler.options(arch)
    )

    def build(output: Path) -> None:
        output.write_bytes(compiler.compile(cache, source, arch))

    return cache.get_or_build(key, CUBIN_SUFFIX, build, _is_cubin)


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


@dataclass(frozen=True)
class _DeviceView:
    """A caller's GPU array, seen through DLPack / __cuda_array_interface__."""

    value: Any  # the caller's object, returned as given for outputs
    view: Any  # its cuda.core StridedMemoryView

    @property
    def extent(self) -> tuple[int, int]:
        nbytes = (
            int(np.prod(self.view.shape, dtype=np.int64)) * self.view.dtype.itemsize
        )
        return int(self.view.ptr), nbytes


def _is_device_array(value: Any) -> bool:
    if isinstance(value, np.ndarray | np.generic):
        return False
    if hasattr(value, "__cuda_array_interface__"):
        return True
    dlpack_device = getattr(value, "__dlpack_device__", None)
    return callable(dlpack_device) and dlpack_device()[0] in DLPACK_CUDA_DEVICES


def _device_arrays_share_memory(a: Any, b: Any) -> bool:
    if not (isinstance(a, _DeviceView) and isinstance(b, _DeviceView)):
        return False
    (start_a, size_a), (start_b, size_b) = a.extent, b.extent
    return start_a < start_b + size_b and start_b < start_a + size_a


DeviceViewer = Callable[[Parameter, Any, str], _DeviceView]
HostOrDevice = np.ndarray | _DeviceView


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
    (NumPy arrays or device views) and the outputs (None: to be allocated).
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
            checked_inputs.append(coerce_host_input(parameter, value, symbol))
    if out is None:
        return checked_inputs, [None] * len(output_parameters)
    checked_outputs: list[HostOrDevice] = []
    given = split_out(out, output_parameters, symbol)
    for parameter, value in zip(output_parameters, given, strict=True):
        where = output_where(parameter, symbol)
        if not _is_device_array(value):
            checked_outputs.append(check_host_output(parameter, value, symbol))
            continue
        view = view_device_array(parameter, value, where)
        if view.view.readonly:
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


@dataclass(frozen=True)
class CudaTiming:
    """Device times of a plan's steps (CUDA events), in milliseconds."""

    times_ms: tuple[float, ...]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def min_ms(self) -> float:
        return min(self.times_ms)


class CudaCompiledFunction:
    """A host function of a CUDA unit, callable like `CompiledFunction`.

    `f(*inputs, out=None)` takes the inputs only (`docs/abi.md`) and returns
    the output buffers as a tuple. NumPy inputs are copied to the device and,
    when every input is a NumPy array, results come back as NumPy arrays.
    GPU arrays (anything exposing `__dlpack__` on a CUDA device or
    `__cuda_array_interface__`: CuPy, PyTorch CUDA tensors) are used in place;
    when any input is one, the results stay on the device as
    `cuda.core.utils.StridedMemoryView`s (consume them with
    `torch.from_dlpack(r)` or `cupy.from_dlpack(r)`). `out=` arrays, host or
    device, are written in place and returned as given.
    """

    # What `irkit.compile(..., tune=True)` chose (None when not tuned).
    tuning: TuningResult | None = None

    def __init__(
        self,
        unit: CudaTranslationUnit,
        plan: LaunchPlan,
        parameters: Sequence[Parameter],
        cubin_path: Path,
        device: Any,
    ) -> None:
        from irkit.targets.cuda import KernelLaunch

        self.unit = unit
        self.plan = plan
        self.parameters = tuple(parameters)
        self.cubin_path = cubin_path
        self.inputs = tuple(p for p in self.parameters if not p.argument.is_output)
        self.outputs = tuple(p for p in self.parameters if p.argument.is_output)
        self._cc = _cuda_core()
        self._device = device
        with self._cuda_errors("loading the cubin"):
            code = self._cc.ObjectCode.from_cubin(cubin_path.read_bytes())
            self._stream = device.create_stream()
            self._kernels = {
                step.kernel: code.get_kernel(step.kernel)
                for step in plan.steps
                if isinstance(step, KernelLaunch)
            }
            for step in plan.steps:
                if isinstance(step, KernelLaunch):
                    self._allow_shared_memory(step)

    @property
    def source(self) -> str:
        """The CUDA C++ translation unit this function was compiled from."""
        return self.unit.source

    @property
    def symbol(self) -> str:
        return self.plan.symbol

    def __repr__(self) -> str:
        return f"<CudaCompiledFunction @{self.symbol} from {self.cubin_path}>"

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
        """Raise a kernel's dynamic shared-memory limit past the default 48 KiB
        when its launch asks for more (Hopper allows up to 227 KiB)."""
        if step.dynamic_shared_memory_bytes <= DEFAULT_SHARED_MEMORY_LIMIT:
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

    # -- argument checks (nothing runs before they pass) ----------------------

    def _device_view(self, parameter: Parameter, value: Any, where: str) -> _DeviceView:
        """Check a GPU array against `parameter`: device, dtype, shape, layout."""
        try:
            view = self._cc.utils.StridedMemoryView.from_any_interface(
                value, stream_ptr=int(self._stream.handle)
            )
        except (BufferError, TypeError, ValueError, NotImplementedError) as error:
            raise InputError(
                f"{where}: cannot view it as a GPU array: {error}"
            ) from None
        if not view.is_device_accessible or view.device_id != self._device.device_id:
            raise InputError(
                f"{where}: is on device {view.device_id}, the function runs on "
                f"CUDA device {self._device.device_id}"
            )
        check_shape_and_dtype(parameter, tuple(view.shape), np.dtype(view.dtype), where)
        dense = row_major_strides(parameter.shape)
        strides = view.strides
        if strides is not None and any(
            size > 1 and stride != expected
            for size, stride, expected in zip(
                parameter.shape, strides, dense, strict=True
            )
        ):
            raise InputError(f"{where}: must be C-contiguous, has strides {strides}")
        if not parameter.is_dense:
            raise InputError(
                f"{where}: the parameter has a strided layout; pass a NumPy array "
                "(the runtime lays it out) instead of a GPU array"
            )
        return _DeviceView(value, view)

    # -- running --------------------------------------------------------------

    def __call__(self, *inputs: Any, out: Any = None) -> tuple[Any, ...]:
        checked_inputs, given_outputs = check_arguments(
            self.parameters, self.symbol, inputs, out, self._device_view
        )
        on_device = any(isinstance(v, _DeviceView) for v in checked_inputs)
        self._device.set_current()
        with self._cuda_errors("running the launch plan"), _Call(self) as call:
            for parameter, value in zip(self.inputs, checked_inputs, strict=True):
                call.bind_input(parameter, value)
            results = [
                call.bind_output(parameter, value, on_device)
                for parameter, value in zip(self.outputs, given_outputs, strict=True)
            ]
            call.run_plan()
            call.copy_results_back()
            self._stream.sync()
            call.check_status()
            call.write_back_strided()
        return tuple(result() for result in results)

    def time(self, *inputs: Any, runs: int = 10, warmup: int = 1) -> CudaTiming:
        """Run the plan `warmup + runs` times on device-resident copies of
        `inputs` and time each timed run with CUDA events (host copies are
        not timed)."""
        if runs < 1:
            raise InputError("time() needs a positive number of runs")
        checked_inputs, _ = check_arguments(
            self.parameters, self.symbol, inputs, None, self._device_view
        )
        self._device.set_current()
        times: list[float] = []
        options = self._cc.EventOptions(timing_enabled=True)
        with self._cuda_errors("timing the launch plan"), _Call(self) as call:
            for parameter, value in zip(self.inputs, checked_inputs, strict=True):
                call.bind_input(parameter, value)
            for parameter in self.outputs:
                call.bind_output(parameter, None, on_device=True)
            for index in range(warmup + runs):
                start = self._stream.record(options=options)
                call.run_plan()
                end = self._stream.record(options=options)
                end.sync()
                if index >= warmup:
                    times.append(end - start)
            call.check_status()
        return CudaTiming(tuple(times))


class _Call:
    """The device memory of one execution of a plan, released on exit.

    `bindings` maps each plan parameter and allocated buffer name to a device
    pointer; buffers this call allocated are closed on exit, after the stream
    has finished with them.
    """

    def __init__(self, function: CudaCompiledFunction) -> None:
        self.function = function
        self.cc = function._cc
        self.stream = function._stream
        self.device = function._device
        self.bindings: dict[str, int] = {}
        self.owned: list[Any] = []  # device buffers to release
        self.keep_alive: list[Any] = []  # host arrays and views in flight
        self.copies_back: list[tuple[Any, np.ndarray]] = []
        self.write_back: list[tuple[np.ndarray, np.ndarray]] = []
        self.plan_buffers: dict[str, Any] = {}
        self.status: Any = None  # the assertion status word, when a kernel has one

    def __enter__(self) -> _Call:
        return self

    def __exit__(self, *exc: object) -> None:
        # A failed call may still have work queued that uses these buffers.
        try:
            self.stream.sync()
        finally:
            for buffer in [*self.owned, *self.plan_buffers.values()]:
                buffer.close()

    def _allocate(self, nbytes: int) -> Any:
        # A zero-size memref still needs a distinct, valid pointer.
        return self.device.allocate(max(nbytes, 1), stream=self.stream)

    def _host_buffer(self, array: np.ndarray) -> Any:
        self.keep_alive.append(array)
        return self.cc.Buffer.from_handle(array.ctypes.data, array.nbytes)

    def _upload(self, parameter: Parameter, host: np.ndarray) -> Any:
        device_buffer = self._allocate(host.nbytes)
        self.owned.append(device_buffer)
        if host.nbytes:
            device_buffer.copy_from(self._host_buffer(host), stream=self.stream)
        self.bindings[parameter.argument.name] = int(device_buffer.handle)
        return device_buffer

    def bind_input(self, parameter: Parameter, value: np.ndarray | _DeviceView) -> None:
        if isinstance(value, _DeviceView):
            self.keep_alive.append(value)
            self.bindings[parameter.argument.name] = int(value.view.ptr)
            return
        self._upload(parameter, host_buffer_for(parameter, value, self.write_back))

    def bind_output(
        self,
        parameter: Parameter,
        value: np.ndarray | _DeviceView | None,
        on_device: bool,
    ) -> Any:
        """Bind a poisoned device buffer for `parameter`; returns a thunk that
        gives the caller's result once the stream has finished."""
        shape, dtype = parameter.shape, parameter.dtype
        if isinstance(value, _DeviceView):
            self.keep_alive.append(value)
            pointer, nbytes = value.extent
            self.bindings[parameter.argument.name] = pointer
            if nbytes:
                target = self.cc.Buffer.from_handle(pointer, nbytes)
                target.copy_from(
                    self._host_buffer(poison(shape, dtype)), stream=self.stream
                )
            return lambda: value.value
        if value is None and on_device and parameter.is_dense:
            buffer = self._allocate(parameter.buffer_bytes)
            self.bindings[parameter.argument.name] = int(buffer.handle)
            host = poison(shape, dtype)
            if host.nbytes:
                buffer.copy_from(self._host_buffer(host), stream=self.stream)
            view = self.cc.utils.StridedMemoryView.from_buffer(
                buffer, shape, dtype=dtype
            )
            return lambda: view
        array = poison(shape, dtype) if value is None else value
        host = host_buffer_for(parameter, array, self.write_back)
        if value is not None:
            host[...] = poison(host.shape, dtype)
        device_buffer = self._upload(parameter, host)
        self.copies_back.append((device_buffer, host))
        return lambda: array

    def _status_pointer(self) -> int:
        """The call's assertion status word, zeroed before its first use."""
        if self.status is None:
            self.status = self._allocate(4)
            self.owned.append(self.status)
            zero = np.zeros(1, np.int32)
            self.status.copy_from(self._host_buffer(zero), stream=self.stream)
        return int(self.status.handle)

    def check_status(self) -> None:
        """Raise `AssertionFailure` if a kernel's `cf.assert` failed (after the
        stream has finished)."""
        if self.status is None:
            return
        status = np.zeros(1, np.int32)
        self.status.copy_to(self._host_buffer(status), stream=self.stream)
        self.stream.sync()
        number = int(status[0])
        if number:
            assertions = self.function.unit.assertions
            message = (
                assertions[number - 1]
                if 0 < number <= len(assertions)
                else f"status {number}"
            )
            raise AssertionFailure(
                f"@{self.function.plan.symbol}: assertion failed: {message}"
            )

    def run_plan(self) -> None:
        from irkit.targets.cuda import (
            AllocateBuffer,
            BufferArgument,
            FreeBuffer,
            ScalarArgument,
        )

        plan = self.function.plan
        for step in plan.steps:
            if isinstance(step, AllocateBuffer):
                buffer = self._allocate(step.nbytes)
                self.plan_buffers[step.buffer] = buffer
                self.bindings[step.buffer] = int(buffer.handle)
            elif isinstance(step, FreeBuffer):
                self.plan_buffers.pop(step.buffer).close(self.stream)
                del self.bindings[step.buffer]
            else:
                arguments = [
                    self.bindings[argument.buffer]
                    if isinstance(argument, BufferArgument)
                    else argument.element_type.type(argument.value)
                    if isinstance(argument, ScalarArgument)
                    else self._status_pointer()
                    for argument in step.arguments
                ]
                config = self.cc.LaunchConfig(
                    grid=step.grid,
                    block=step.block,
                    shmem_size=step.dynamic_shared_memory_bytes,
                )
                kernel = self.function._kernels[step.kernel]
                self.cc.launch(self.stream, config, kernel, *arguments)

    def copy_results_back(self) -> None:
        for device_buffer, host in self.copies_back:
            if host.nbytes:
                device_buffer.copy_to(self._host_buffer(host), stream=self.stream)

    def write_back_strided(self) -> None:
        for result, view in self.write_back:
            result[...] = view


def load_cuda_function(
    unit: CudaTranslationUnit,
    symbol: str,
    func: FuncOp | None = None,
    cache: ArtifactCache | None = None,
) -> CudaCompiledFunction:
    """Compile `unit` for the current GPU (or find its cubin in the cache) and
    return the host function `@symbol`, ready to call.

    Raises `CudaUnavailableError` first when no GPU can run it, then
    `CudaCompileError`, or `IRKitError` for a plan this runtime cannot run.
    """
    device = _open_device()
    if symbol not in unit.plans:
        known = ", ".join(f"@{name}" for name in sorted(unit.plans)) or "none"
        raise IRKitError(f"no CUDA host function '@{symbol}' (functions: {known})")
    plan = unit.plans[symbol]
    check_plan(unit, plan)
    cubin = compile_cubin(unit.source, device_architecture(device), cache)
    parameters = describe_parameters(plan.arguments, func)
    return CudaCompiledFunction(unit, plan, parameters, cubin, device)
