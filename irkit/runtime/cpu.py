"""Building, loading and calling C translation units on the host CPU.

The C target (`irkit.targets.c.emit_c`) prints one C99 translation unit; this
module compiles it with the system C compiler (`$CC`, else `cc`) into a shared
library kept in the artifact cache (`irkit.runtime.cache`), loads it with
`ctypes` and calls it with NumPy arrays, following `docs/abi.md`: the caller
passes inputs, the runtime allocates (or checks) the output buffers, and a
non-zero status is the 1-based index of the `cf.assert` that failed.

The compiler is always run through an argument list (never a shell) on files
whose names the cache chose, so no user-supplied text reaches its command line.

AddressSanitizer cannot be loaded into an uninstrumented Python, so sanitizer
runs go through `build_test_executable`, which links the unit with a `main()`
driver and runs it as a separate process.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.func import FuncOp

from irkit.diagnostics import IRKitError
from irkit.dtypes import BFLOAT16, poison
from irkit.runtime.arguments import (
    Parameter,
    check_host_output,
    check_input_count,
    check_output_aliasing,
    coerce_host_input,
    describe_parameters,
    host_arrays_share_memory,
    host_buffer_for,
    split_out,
    strided_view,
)
from irkit.runtime.cache import ArtifactCache, cache_key
from irkit.runtime.frameworks import as_host_array, host_result
from irkit.targets.target import AVX2, CpuHardware

if TYPE_CHECKING:
    from irkit.runtime.tuning import TuningResult
    from irkit.targets.c import CFunction, CTranslationUnit

# -fno-trapping-math: irkit never enables floating-point traps, and without
# it the C compiler keeps float selects (max, min, relu) as branches and does
# not vectorise the loops that use them. Results are unchanged.
BASE_FLAGS = ("-std=c99", "-O3", "-fno-trapping-math")
SHARED_FLAGS = ("-shared", "-fPIC")
# Flags a compiler may lack (clang without libomp, cross compilers): probed once.
OPTIONAL_FLAGS = {"native": "-march=native", "openmp": "-fopenmp"}
# Vector units whose width the compiler is told to use for the code it
# vectorises itself (`-mprefer-vector-width`, GCC's and clang's x86 option):
# `-march=native` on Sapphire Rapids prefers 256 bits, and gcc 13 then split
# each 512-bit `fmaf` lane loop of a vectorised micro-kernel into halves
# through memory (SGEMM 1024^3 at 35 GFLOP/s instead of 118 on 2 cores).
PREFERRED_VECTOR_WIDTH_UNITS = frozenset({"x86-64 AVX-512"})
LIBRARIES = ("-lm",)
LIBRARY_SUFFIX = ".so"
SANITIZER_FLAGS = ("-O1", "-g", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all")

_PROBE_SOURCE = """\
#include <math.h>
int irkit_probe(int n, float *x) {
  #pragma omp parallel for
  for (int i = 0; i < n; ++i) x[i] = sqrtf(x[i]);
  return 0;
}
"""


class CompileError(IRKitError):
    """The C compiler rejected a translation unit (or is missing)."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(f"{message}\n{stderr}".rstrip() if stderr else message)
        self.stderr = stderr


@dataclass(frozen=True)
class Timing:
    """Times of repeated runs of compiled code, in milliseconds."""

    times_ms: tuple[float, ...]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def min_ms(self) -> float:
        return min(self.times_ms)


class AssertionFailure(IRKitError, RuntimeError):
    """A compiled function returned a non-zero status: a `cf.assert` failed."""


class SanitizerError(IRKitError, RuntimeError):
    """A sanitizer-instrumented test executable reported an error."""


# ----------------------------------------------------------------------------
# The compiler and its flags
# ----------------------------------------------------------------------------


def _host_identity() -> str:
    """What `-march=native` code depends on: the CPU model and its features.

    It is part of every cache key, so a cache directory shared between
    machines (a network home) never hands one machine another's code.
    """
    try:
        lines = Path("/proc/cpuinfo").read_text(errors="replace").splitlines()
    except OSError:
        return f"{platform.machine()} {platform.processor()}"
    wanted = ("model name", "flags", "Features", "CPU part")
    picked = sorted({line for line in lines if line.split(":")[0].strip() in wanted})
    digest = hashlib.sha256("\n".join(picked).encode()).hexdigest()[:16]
    return f"{platform.machine()} {digest}"


def vector_unit(flags: set[str], machine: str) -> CpuHardware:
    """The vector unit `-march=native` code uses, from the CPU's feature
    flags (`/proc/cpuinfo`): AVX-512 (thirty-two 512-bit registers), AVX2
    or AVX (sixteen 256-bit), SSE2 (sixteen 128-bit), AArch64's NEON
    (thirty-two 128-bit); AVX2 when nothing is known."""
    if "avx512f" in flags:
        return CpuHardware("x86-64 AVX-512", 512, 32)
    if "avx2" in flags or "avx" in flags:
        return AVX2
    if machine in ("aarch64", "arm64"):
        return CpuHardware("AArch64 NEON", 128, 32)
    if "sse2" in flags:
        return CpuHardware("x86-64 SSE2", 128, 16)
    return AVX2


@functools.cache
def host_hardware() -> CpuHardware:
    """This machine's `CpuHardware` (the C target's `hardware` hook)."""
    try:
        lines = Path("/proc/cpuinfo").read_text(errors="replace").splitlines()
    except OSError:
        return AVX2
    flags: set[str] = set()
    for line in lines:
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            flags |= set(value.split())
    unit = vector_unit(flags, platform.machine())
    caches = host_caches()
    return replace(
        unit,
        l1_cache_bytes=caches.get("l1_cache_bytes", unit.l1_cache_bytes),
        l2_cache_bytes=caches.get("l2_cache_bytes", unit.l2_cache_bytes),
        l3_cache_bytes=caches.get("l3_cache_bytes", unit.l3_cache_bytes),
    )


def host_caches(
    root: Path = Path("/sys/devices/system/cpu/cpu0/cache"),
) -> dict[str, int]:
    """`CpuHardware`'s cache sizes (fields `l1_cache_bytes`, ...) from
    Linux's description of CPU 0's caches (`index*/level`, `type`, `size`
    as `48K`); the levels it does not describe keep their defaults."""
    found: dict[str, int] = {}
    for index in sorted(root.glob("index*")):
        try:
            level = int((index / "level").read_text())
            kind = (index / "type").read_text().strip()
            size = (index / "size").read_text().strip()
        except (OSError, ValueError):
            continue
        scale = {"K": 1024, "M": 1024 * 1024}.get(size[-1:], 1)
        digits = size.rstrip("KM")
        if kind == "Instruction" or not digits.isdigit() or not 1 <= level <= 3:
            continue
        found[f"l{level}_cache_bytes"] = int(digits) * scale
    return found


def optional_flags() -> dict[str, str]:
    """`OPTIONAL_FLAGS`, and the host vector unit's width as the one the
    compiler should vectorise for, where that unit is in
    `PREFERRED_VECTOR_WIDTH_UNITS` (the width the matmul micro-kernels are
    sized for, `CpuHardware.vector_bits`)."""
    unit = host_hardware()
    if unit.name not in PREFERRED_VECTOR_WIDTH_UNITS:
        return dict(OPTIONAL_FLAGS)
    return {
        **OPTIONAL_FLAGS,
        "vector-width": f"-mprefer-vector-width={unit.vector_bits}",
    }


def _run(command: Sequence[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command), capture_output=True, text=True, check=False, **kwargs
    )


@dataclass(frozen=True)
class Toolchain:
    """A C compiler and the flags it accepts on this machine."""

    command: tuple[str, ...]
    version: str
    host: str
    optional_flags: tuple[str, ...]

    @property
    def shared_library_flags(self) -> tuple[str, ...]:
        return (*BASE_FLAGS, *self.optional_flags, *SHARED_FLAGS)

    @property
    def has_openmp(self) -> bool:
        return OPTIONAL_FLAGS["openmp"] in self.optional_flags

    def identity(self) -> list[str]:
        """Everything about the compiler that changes what it produces."""
        return [*self.command, self.version, self.host]

    def compile(
        self, cache: ArtifactCache, source: str, output: Path, flags: Sequence[str]
    ) -> None:
        """Compile `source` to `output`; raises `CompileError` with the
        compiler's messages."""
        with cache.temporary_file(".c") as source_file:
            source_file.write_text(source)
            command = [
                *self.command,
                *flags,
                "-o",
                str(output),
                str(source_file),
                *LIBRARIES,
            ]
            result = _run(command)
        if result.returncode != 0:
            # The temporary name means nothing to the user; the C does.
            messages = result.stderr.replace(str(source_file), "<irkit-generated>.c")
            raise CompileError(
                f"C compilation failed ({shlex.join(self.command)} exited with "
                f"status {result.returncode}):",
                messages,
            )


def compiler_command() -> tuple[str, ...]:
    """`$CC` (split like a shell would, e.g. `ccache gcc`) or `cc`, resolved."""
    words = shlex.split(os.environ.get("CC") or "cc")
    if not words:
        words = ["cc"]
    resolved = shutil.which(words[0])
    if resolved is None:
        raise CompileError(f"C compiler '{words[0]}' not found: install one or set $CC")
    return (resolved, *words[1:])


def _probe_flag(
    cache: ArtifactCache, command: tuple[str, ...], flag: str, load: bool
) -> bool:
    """Whether `command` builds (and, for `load`, the process loads) a shared
    library with `flag`."""
    with cache.temporary_file(".c") as source, cache.temporary_file(".so") as output:
        source.write_text(_PROBE_SOURCE)
        flags = [*BASE_FLAGS, flag, *SHARED_FLAGS, "-o", str(output), str(source)]
        if _run([*command, *flags, *LIBRARIES]).returncode != 0:
            return False
        if not load:
            return True
        try:
            ctypes.CDLL(str(output))
        except OSError:
            return False
        return True


def _probe_toolchain(cache: ArtifactCache, command: tuple[str, ...]) -> Toolchain:
    version_run = _run([*command, "--version"])
    if version_run.returncode != 0:
        raise CompileError(
            f"C compiler '{shlex.join(command)}' does not run", version_run.stderr
        )
    version = version_run.stdout.strip()
    host = _host_identity()
    candidates = optional_flags()
    key = cache_key("toolchain-probe", *command, version, host, *candidates.values())
    stored = cache.read_bytes(key, ".flags")
    if stored is not None:
        return Toolchain(command, version, host, tuple(stored.decode().split()))
    accepted = tuple(
        flag
        for kind, flag in candidates.items()
        # An OpenMP library that links but cannot be loaded is no better than none.
        if _probe_flag(cache, command, flag, load=kind == "openmp")
    )
    cache.write_bytes(key, ".flags", " ".join(accepted).encode())
    return Toolchain(command, version, host, accepted)


@functools.cache
def _toolchain_for(command: tuple[str, ...], cache_directory: Path) -> Toolchain:
    return _probe_toolchain(ArtifactCache(cache_directory), command)


def toolchain(cache: ArtifactCache | None = None) -> Toolchain:
    """The C compiler of this environment, probed once per process (and the
    probe's answer kept in the cache across processes)."""
    cache = cache or ArtifactCache.open()
    return _toolchain_for(compiler_command(), cache.directory)


def _symbols_load(path: Path, symbols: Sequence[str]) -> bool:
    try:
        library = ctypes.CDLL(str(path))
        for symbol in symbols:
            getattr(library, symbol)
    except (OSError, AttributeError):
        return False
    return True


def shared_library_key(source: str, tools: Toolchain) -> str:
    """The cache key of `source` built as a shared library by `tools`."""
    flags = list(tools.shared_library_flags)
    return cache_key("shared-library", source, tools.identity(), flags)


def build_shared_library(
    source: str, symbols: Sequence[str], cache: ArtifactCache | None = None
) -> Path:
    """The cached shared library of `source`, compiled if needed.

    An entry that cannot be loaded or lacks one of `symbols` (a truncated or
    otherwise damaged file) is deleted and rebuilt.
    """
    cache = cache or ArtifactCache.open()
    tools = toolchain(cache)
    flags = tools.shared_library_flags
    key = shared_library_key(source, tools)

    def build(output: Path) -> None:
        tools.compile(cache, source, output, flags)

    path = cache.get_or_build(
        key, LIBRARY_SUFFIX, build, lambda path: _symbols_load(path, symbols)
    )
    if not _symbols_load(path, symbols):
        cache.discard(key, LIBRARY_SUFFIX)
        raise CompileError(
            f"the compiled library does not load or lacks {', '.join(symbols)}"
        )
    return path


# ----------------------------------------------------------------------------
# Parameters: how one C argument is passed
# ----------------------------------------------------------------------------

_CTYPES_SCALARS: dict[str, type[Any]] = {
    "float32": ctypes.c_float,
    "float64": ctypes.c_double,
    "int8": ctypes.c_int8,
    "int16": ctypes.c_int16,
    "int32": ctypes.c_int32,
    "int64": ctypes.c_int64,
    "bool": ctypes.c_bool,
    # bf16 is `uint16_t` bits in C: passed as its bits (`_c_arguments`).
    "bfloat16": ctypes.c_uint16,
}

C_SCALAR_TYPES: dict[str, str] = {
    "float16": "_Float16",
    "bfloat16": "uint16_t",
    "float32": "float",
    "float64": "double",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "bool": "bool",
}


# ----------------------------------------------------------------------------
# Compiled functions
# ----------------------------------------------------------------------------


class CompiledFunction:
    """A function of a compiled C unit, callable with NumPy arrays (or
    PyTorch CPU tensors).

    `f(*inputs, out=None)` takes the input arguments only (`docs/abi.md`) and
    returns the output buffers as a tuple of arrays, like `irkit.interpret`:
    NumPy arrays, or PyTorch tensors sharing their memory when an input was
    a tensor. `out` may supply the output arrays (C-contiguous, writeable, of
    the exact shape and dtype, sharing memory with no input and no other
    output). The call releases the GIL while the C runs (ctypes does).

    With `checked=True` every output is filled with poison (NaN, INT_MIN,
    false) before each call, so an element the code never writes shows; by
    default outputs are allocated and left as they are (the code writes them).
    """

    # What `irkit.compile(..., tune=True)` chose (None when not tuned).
    tuning: TuningResult | None = None

    def __init__(
        self,
        unit: CTranslationUnit,
        function: CFunction,
        parameters: Sequence[Parameter],
        library_path: Path,
        *,
        checked: bool = False,
    ) -> None:
        self.unit = unit
        self.checked = checked
        self.function = function
        self.parameters = tuple(parameters)
        self.library_path = library_path
        self._library = ctypes.CDLL(str(library_path))
        self._entry = getattr(self._library, function.c_name)
        self._entry.restype = ctypes.c_int
        self._entry.argtypes = [_ctypes_type(p) for p in self.parameters]
        self.inputs = tuple(p for p in self.parameters if not p.argument.is_output)
        self.outputs = tuple(p for p in self.parameters if p.argument.is_output)

    @property
    def source(self) -> str:
        """The C translation unit this function was compiled from."""
        return self.unit.source

    @property
    def symbol(self) -> str:
        return self.function.symbol

    def __repr__(self) -> str:
        return f"<CompiledFunction @{self.symbol} from {self.library_path}>"

    def __call__(self, *inputs: Any, out: Any = None) -> tuple[np.ndarray, ...]:
        arrays = self._input_arrays(inputs)
        outputs, results = self._output_arrays(out, inputs)
        write_back: list[tuple[np.ndarray, np.ndarray]] = []
        c_arguments, keep_alive = self._c_arguments([*arrays, *outputs], write_back)
        status = self._entry(*c_arguments)
        del keep_alive  # the C is done with them
        for result, view in write_back:
            result[...] = view
        if status != 0:
            raise AssertionFailure(status_message(self.function, status))
        return results

    def time(self, *inputs: Any, runs: int = 10, warmup: int = 1) -> Timing:
        """The C function's own time per run (wall clock, milliseconds): the
        arguments are checked and laid out once, then only the C runs."""
        if runs < 1:
            raise ValueError("time() needs a positive number of runs")
        arrays = self._input_arrays(inputs)
        outputs, _ = self._output_arrays(None, inputs)
        c_arguments, keep_alive = self._c_arguments([*arrays, *outputs], [])
        times: list[float] = []
        for index in range(warmup + runs):
            start = time.perf_counter()
            status = self._entry(*c_arguments)
            if index >= warmup:
                times.append((time.perf_counter() - start) * 1e3)
            if status != 0:
                raise AssertionFailure(status_message(self.function, status))
        del keep_alive
        return Timing(tuple(times))

    def _input_arrays(self, inputs: Sequence[Any]) -> list[np.ndarray]:
        check_input_count(self.symbol, inputs, len(self.inputs))
        return [
            coerce_host_input(p, as_host_array(value), self.symbol)
            for p, value in zip(self.inputs, inputs, strict=True)
        ]

    def _c_arguments(
        self,
        arrays: Sequence[np.ndarray],
        write_back: list[tuple[np.ndarray, np.ndarray]],
    ) -> tuple[list[Any], list[np.ndarray]]:
        """The C call's arguments for `arrays` (inputs, then outputs, in
        parameter order), and the buffers that must live while it runs."""
        keep_alive: list[np.ndarray] = []
        c_arguments: list[Any] = []
        for parameter, array in zip(self.parameters, arrays, strict=True):
            if not parameter.is_buffer:
                if array.dtype == BFLOAT16:
                    array = array.view(np.uint16)
                c_arguments.append(array.item())
                continue
            buffer = host_buffer_for(parameter, array, write_back)
            keep_alive.append(buffer)
            c_arguments.append(buffer.ctypes.data)
        return c_arguments, keep_alive

    def _output_arrays(
        self, out: Any, inputs: Sequence[Any]
    ) -> tuple[list[np.ndarray], tuple[Any, ...]]:
        """The arrays the C writes, and what the call returns for them."""
        symbol = self.symbol
        if out is None:
            allocate = poison if self.checked else _empty
            arrays = [allocate(p.shape, p.dtype) for p in self.outputs]
            return arrays, tuple(host_result(a, inputs) for a in arrays)
        given = split_out(out, self.outputs, symbol)
        checked = [
            check_host_output(p, as_host_array(a), symbol)
            for p, a in zip(self.outputs, given, strict=True)
        ]
        check_output_aliasing(
            symbol,
            self.outputs,
            checked,
            self.inputs,
            inputs,
            host_arrays_share_memory,
        )
        if self.checked:
            for array in checked:
                array[...] = poison((), array.dtype)
        return checked, tuple(given)


def _empty(shape: tuple[int, ...], dtype: np.dtype[Any]) -> np.ndarray:
    return np.empty(shape, dtype)


def status_message(function: CFunction, status: int) -> str:
    """What a non-zero status of `function` means: the failed assertion."""
    assertions = function.assertions
    if 0 < status <= len(assertions):
        return f"@{function.symbol}: assertion failed: {assertions[status - 1]}"
    return f"@{function.symbol} returned unknown status {status}"


def _ctypes_type(parameter: Parameter) -> type[Any]:
    if parameter.is_buffer:
        return ctypes.c_void_p
    name = parameter.dtype.name
    if name not in _CTYPES_SCALARS:
        raise CompileError(
            f"{parameter.label()}: scalar arguments of type {name} cannot be "
            "passed through ctypes"
        )
    return _CTYPES_SCALARS[name]


def find_function(unit: CTranslationUnit, symbol: str) -> CFunction:
    """`unit`'s function for `@symbol`, or an error listing the others."""
    if symbol not in unit.functions:
        known = ", ".join(f"@{name}" for name in sorted(unit.functions)) or "none"
        raise IRKitError(f"no compiled function '@{symbol}' (functions: {known})")
    return unit.functions[symbol]


def load_function(
    unit: CTranslationUnit,
    symbol: str,
    func: FuncOp | None = None,
    cache: ArtifactCache | None = None,
    *,
    names: Sequence[str] | None = None,
    checked: bool = False,
) -> CompiledFunction:
    """Compile `unit` (or find it in the cache) and return `@symbol`.

    `func`, the `func.func` the C was printed from (or its `argument_names`),
    supplies argument names for messages; `checked` poisons outputs before
    every call.
    """
    function = find_function(unit, symbol)
    path = build_shared_library(unit.source, [function.c_name], cache)
    parameters = describe_parameters(function.arguments, func, names)
    return CompiledFunction(unit, function, parameters, path, checked=checked)


# ----------------------------------------------------------------------------
# Sanitizer test executables
# ----------------------------------------------------------------------------


SANITIZER_ENVIRONMENT = {
    "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:halt_on_error=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}
# What a sanitizer prints when it finds something (it also exits non-zero).
SANITIZER_MARKERS = ("Sanitizer", "runtime error:")


def _driver_source(
    unit: CTranslationUnit, function: CFunction, parameters: Sequence[Parameter]
) -> str:
    """`unit` plus a `main(argc, argv)` that reads every argument's bytes from
    argv[1], calls `function`, writes the output buffers to argv[2] and prints
    the status.

    Each buffer is its own exact-size `malloc`, so AddressSanitizer's red
    zones catch an access one element past any argument.
    """
    lines = [
        "#include <stdbool.h>",
        "#include <stdint.h>",
        "#include <stdio.h>",
        "#include <stdlib.h>",
        "",
        unit.source,
        "",
        "static void *irkit_read(FILE *file, size_t bytes) {",
        "  void *data = malloc(bytes ? bytes : 1);",
        "  if (!data || fread(data, 1, bytes, file) != bytes) exit(90);",
        "  return data;",
        "}",
        "",
        "int main(int argc, char **argv) {",
        "  if (argc != 3) return 91;",
        '  FILE *in = fopen(argv[1], "rb");',
        "  if (!in) return 92;",
    ]
    for p in parameters:
        variable = f"irkit_arg{p.position}"
        if p.is_buffer:
            size = p.buffer_elements * p.dtype.itemsize
            lines.append(f"  void *{variable} = irkit_read(in, {size});")
        else:
            lines.append(f"  {C_SCALAR_TYPES[p.dtype.name]} {variable};")
            lines.append(f"  if (fread(&{variable}, sizeof {variable}, 1, in) != 1)")
            lines.append("    return 90;")
    arguments = ", ".join(f"irkit_arg{p.position}" for p in parameters)
    lines += [
        "  fclose(in);",
        f"  int status = {function.c_name}({arguments});",
        '  FILE *out = fopen(argv[2], "wb");',
        "  if (!out) return 93;",
    ]
    for p in parameters:
        if p.is_buffer and p.argument.is_output:
            size = p.buffer_elements * p.dtype.itemsize
            lines.append(f"  fwrite(irkit_arg{p.position}, 1, {size}, out);")
    lines.append("  fclose(out);")
    lines += [f"  free(irkit_arg{p.position});" for p in parameters if p.is_buffer]
    lines += ['  printf("status %d\\n", status);', "  return 0;", "}", ""]
    return "\n".join(lines)


def _argument_bytes(parameter: Parameter, array: np.ndarray) -> bytes:
    """The bytes the driver reads for one argument (its whole buffer)."""
    if not parameter.is_buffer or parameter.is_dense:
        return np.ascontiguousarray(array).tobytes()
    buffer = poison((parameter.buffer_elements,), parameter.dtype)
    strided_view(buffer, parameter)[...] = array
    return buffer.tobytes()


def _read_outputs(data: bytes, outputs: Sequence[Parameter]) -> tuple[np.ndarray, ...]:
    results: list[np.ndarray] = []
    offset = 0
    for p in outputs:
        count = p.buffer_elements
        buffer = np.frombuffer(data, p.dtype, count=count, offset=offset).copy()
        offset += count * p.dtype.itemsize
        view = buffer.reshape(p.shape) if p.is_dense else strided_view(buffer, p)
        results.append(np.array(view))
    return tuple(results)


def build_test_executable(
    unit: CTranslationUnit,
    function: str,
    inputs: Sequence[Any],
    workdir: Path,
    sanitize: Sequence[str] = ("address", "undefined"),
    func: FuncOp | None = None,
) -> tuple[np.ndarray, ...]:
    """Run `@function` of `unit` on `inputs` as a sanitizer-instrumented
    executable in `workdir`; returns its output buffers like `CompiledFunction`.

    The executable is built with `-fsanitize=...` and
    `-fno-sanitize-recover=all`, so the first report stops it; any report, a
    crash or a non-zero exit raises `SanitizerError` with the sanitizer's
    output. A failed `cf.assert` raises `AssertionFailure`.
    """
    target = find_function(unit, function)
    parameters = describe_parameters(target.arguments, func)
    input_parameters = [p for p in parameters if not p.argument.is_output]
    output_parameters = [p for p in parameters if p.argument.is_output]
    check_input_count(function, inputs, len(input_parameters))
    values = iter(
        [
            *(
                coerce_host_input(p, value, function)
                for p, value in zip(input_parameters, inputs, strict=True)
            ),
            *(poison(p.shape, p.dtype) for p in output_parameters),
        ]
    )
    workdir.mkdir(parents=True, exist_ok=True)
    input_file = workdir / "inputs.bin"
    output_file = workdir / "outputs.bin"
    input_file.write_bytes(
        b"".join(_argument_bytes(p, next(values)) for p in parameters)
    )
    driver = workdir / f"{target.c_name}_driver.c"
    driver.write_text(_driver_source(unit, target, parameters))
    executable = workdir / f"{target.c_name}_test"
    tools = toolchain()
    flags = [
        "-std=c99",
        *SANITIZER_FLAGS,
        f"-fsanitize={','.join(sanitize)}",
        *([OPTIONAL_FLAGS["openmp"]] if tools.has_openmp else []),
    ]
    build = _run(
        [*tools.command, *flags, "-o", str(executable), str(driver), *LIBRARIES]
    )
    if build.returncode != 0:
        raise CompileError(
            "building the sanitizer test executable failed:", build.stderr
        )
    result = _run(
        [str(executable), str(input_file), str(output_file)],
        env={**os.environ, **SANITIZER_ENVIRONMENT},
        timeout=300,
    )
    reported = any(marker in result.stderr for marker in SANITIZER_MARKERS)
    if result.returncode != 0 or reported:
        raise SanitizerError(
            f"@{function} failed under -fsanitize={','.join(sanitize)} (exit status "
            f"{result.returncode}):\n{result.stderr}"
        )
    status = int(result.stdout.split()[-1])
    if status != 0:
        raise AssertionFailure(status_message(target, status))
    return _read_outputs(output_file.read_bytes(), output_parameters)
