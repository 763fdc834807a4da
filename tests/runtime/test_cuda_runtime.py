"""The CUDA runtime: compiling to cubin (no GPU needed), argument checks, clean
errors without a GPU, and (marker `gpu`) launch plans run for real."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import irkit
from irkit.diagnostics import InputError, IRKitError
from irkit.dtypes import poison
from irkit.runtime import cuda as cuda_runtime
from irkit.runtime.arguments import describe_parameters
from irkit.runtime.cache import ArtifactCache
from irkit.runtime.cuda import (
    CudaCompileError,
    CudaCompiler,
    CudaUnavailableError,
    check_arguments,
    check_plan,
    compile_cubin,
    compile_unit,
    gpu_unavailable_reason,
    load_cuda_function,
)
from irkit.targets.c import CArgument
from irkit.targets.cuda import (
    AllocateBuffer,
    BufferArgument,
    CudaProgram,
    CudaTranslationUnit,
    FreeBuffer,
    KernelLaunch,
    LaunchPlan,
    ScalarArgument,
)

SOURCE = """\
extern "C" __global__ void scale(const float *x, float *y, float factor, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = factor * x[i];
}

extern "C" __global__ void add(const float *a, const float *b, float *c, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void first_half(int *y, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 2) y[i] = (int)i;
}

extern "C" __global__ void reverse_in_shared(const float *x, float *y, long long n) {
  extern __shared__ float staged[];
  for (long long i = threadIdx.x; i < n; i += blockDim.x) staged[i] = x[i];
  __syncthreads();
  for (long long i = threadIdx.x; i < n; i += blockDim.x) y[i] = staged[n - 1 - i];
}

extern "C" __global__ void write_far_away(float *y) {
  y[(long long)1 << 40] = 1.0f;
}
"""
KERNELS = ("scale", "add", "first_half", "reverse_in_shared", "write_far_away")
F32 = np.dtype(np.float32)
I64 = np.dtype(np.int64)
SHAPE = (4, 8)
N = 32
SHARED_ELEMENTS = 20000  # 80000 bytes: past the 48 KiB default limit


def buffer(name: str, shape: tuple[int, ...], output: bool = False) -> CArgument:
    strides = tuple(int(np.prod(shape[i + 1 :])) for i in range(len(shape)))
    return CArgument(name, F32, shape, strides, 0, output)


def launch(kernel: str, *arguments: BufferArgument | ScalarArgument) -> KernelLaunch:
    return KernelLaunch(kernel, (1, 1, 1), (64, 1, 1), 0, arguments)


def n_argument(n: int = N) -> ScalarArgument:
    return ScalarArgument(n, I64)


# @main(a, b) -> 3 * a + b, through an intermediate buffer and two launches.
SCALE_THEN_ADD = LaunchPlan(
    "main",
    (buffer("a", SHAPE), buffer("b", SHAPE), buffer("out", SHAPE, output=True)),
    (
        AllocateBuffer("tmp", F32, SHAPE),
        launch(
            "scale",
            BufferArgument("a"),
            BufferArgument("tmp"),
            ScalarArgument(3.0, F32),
            n_argument(),
        ),
        launch(
            "add",
            BufferArgument("tmp"),
            BufferArgument("b"),
            BufferArgument("out"),
            n_argument(),
        ),
        FreeBuffer("tmp"),
    ),
)
HALF_WRITTEN = LaunchPlan(
    "half",
    (CArgument("y", np.dtype(np.int32), (N,), (1,), 0, True),),
    (launch("first_half", BufferArgument("y"), n_argument()),),
)
REVERSE = LaunchPlan(
    "reverse",
    (
        buffer("x", (SHARED_ELEMENTS,)),
        buffer("y", (SHARED_ELEMENTS,), output=True),
    ),
    (
        KernelLaunch(
            "reverse_in_shared",
            (1, 1, 1),
            (256, 1, 1),
            SHARED_ELEMENTS * 4,
            (BufferArgument("x"), BufferArgument("y"), n_argument(SHARED_ELEMENTS)),
        ),
    ),
)
FAULT = LaunchPlan(
    "fault",
    (buffer("y", (1,), output=True),),
    (launch("write_far_away", BufferArgument("y")),),
)
UNIT = CudaTranslationUnit(
    SOURCE,
    KERNELS,
    {plan.symbol: plan for plan in (SCALE_THEN_ADD, HALF_WRITTEN, REVERSE, FAULT)},
)


def available_compilers() -> list[str]:
    found = []
    for kind in ("nvrtc", "nvcc"):
        try:
            cuda_runtime._find_compiler(kind)
        except CudaUnavailableError:
            continue
        found.append(kind)
    return found


@pytest.fixture
def cache(tmp_path: Path) -> ArtifactCache:
    return ArtifactCache.open(tmp_path / "cache")


@pytest.fixture(params=["nvrtc", "nvcc"])
def compiler(request: pytest.FixtureRequest) -> CudaCompiler:
    if request.param not in available_compilers():
        pytest.skip(f"{request.param} is not available here")
    return cuda_runtime._find_compiler(request.param)


def random_array(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.uniform(-1.0, 1.0, shape).astype(np.float32)


# ----------------------------------------------------------------------------
# Compiling: works without a GPU
# ----------------------------------------------------------------------------


def test_the_unit_compiles_to_a_cubin_for_hopper(
    compiler: CudaCompiler, cache: ArtifactCache
) -> None:
    path = compile_cubin(SOURCE, "sm_90", cache, compiler)
    data = path.read_bytes()
    assert data.startswith(b"\x7fELF")
    for kernel in KERNELS:
        assert kernel.encode() in data


def test_a_second_compile_is_a_cache_hit(
    compiler: CudaCompiler, cache: ArtifactCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = compile_cubin(SOURCE, "sm_90", cache, compiler)
    calls: list[str] = []
    monkeypatch.setattr(
        CudaCompiler, "compile", lambda *args: calls.append("compiled") or b""
    )
    assert compile_cubin(SOURCE, "sm_90", cache, compiler) == first
    assert calls == []


def test_the_architecture_is_part_of_the_cache_key(
    compiler: CudaCompiler, cache: ArtifactCache
) -> None:
    hopper = compile_cubin(SOURCE, "sm_90", cache, compiler)
    ampere = compile_cubin(SOURCE, "sm_80", cache, compiler)
    assert hopper != ampere


def test_a_corrupt_cubin_is_rebuilt(
    compiler: CudaCompiler, cache: ArtifactCache
) -> None:
    path = compile_cubin(SOURCE, "sm_90", cache, compiler)
    path.write_bytes(b"truncated")
    assert compile_cubin(SOURCE, "sm_90", cache, compiler).read_bytes()[:4] == (
        b"\x7fELF"
    )


def test_a_compile_error_carries_the_compiler_log(
    compiler: CudaCompiler, cache: ArtifactCache
) -> None:
    broken = 'extern "C" __global__ void k(float *x) {\n  x[0] = undefined_name;\n}\n'
    with pytest.raises(CudaCompileError) as caught:
        compile_cubin(broken, "sm_90", cache, compiler)
    message = str(caught.value)
    assert message.startswith("CUDA compilation failed")
    assert "undefined_name" in message
    assert "<irkit-generated>.cu" in message
    assert ".tmp-" not in message


# The kernels of SOURCE as the CUDA target splits a unit: one program each.
KERNEL_SOURCES = {
    name: 'extern "C"' + part.rstrip() + "\n"
    for name, part in zip(KERNELS, SOURCE.split('extern "C"')[1:], strict=True)
}
SPLIT_UNIT = CudaTranslationUnit(
    SOURCE,
    KERNELS,
    UNIT.plans,
    programs=tuple(CudaProgram(KERNEL_SOURCES[name], (name,)) for name in KERNELS),
)


# Three of them are enough where each compile costs an nvcc run.
FEW_KERNELS = KERNELS[:3]  # scale, add, first_half
FEW_PROGRAMS = CudaTranslationUnit(
    SOURCE,
    KERNELS,
    {},
    programs=tuple(CudaProgram(KERNEL_SOURCES[name], (name,)) for name in FEW_KERNELS),
)


def counting_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources `CudaCompiler.compile` is called with from now on."""
    compiled: list[str] = []
    real = CudaCompiler.compile

    def compile_and_count(
        self: CudaCompiler, cache: Any, source: str, *args: Any
    ) -> bytes:
        compiled.append(source)
        return real(self, cache, source, *args)

    monkeypatch.setattr(CudaCompiler, "compile", compile_and_count)
    return compiled


def test_each_program_is_a_cubin_of_its_own_cached_on_its_own(
    compiler: CudaCompiler, cache: ArtifactCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = counting_compiles(monkeypatch)
    cubins = compile_unit(
        FEW_PROGRAMS, "sm_90", cache, compiler, threads=3, per_kernel=True
    )
    assert set(cubins) == set(FEW_KERNELS)
    assert len(set(cubins.values())) == len(FEW_KERNELS)
    for kernel, path in cubins.items():
        data = path.read_bytes()
        assert data.startswith(b"\x7fELF")
        assert kernel.encode() in data
        assert not any(
            other.encode() + b"\0" in data for other in set(FEW_KERNELS) - {kernel}
        )
    assert sorted(compiled) == sorted(KERNEL_SOURCES[name] for name in FEW_KERNELS)
    # Again: every program is a cache hit.
    compiled.clear()
    assert (
        compile_unit(FEW_PROGRAMS, "sm_90", cache, compiler, threads=3, per_kernel=True)
        == cubins
    )
    assert compiled == []
    # One kernel changed: it alone compiles again.
    changed_add = KERNEL_SOURCES["add"].replace("a[i] + b[i]", "b[i] + a[i]")
    changed = CudaTranslationUnit(
        SOURCE,
        KERNELS,
        {},
        programs=tuple(
            CudaProgram(changed_add if name == "add" else KERNEL_SOURCES[name], (name,))
            for name in FEW_KERNELS
        ),
    )
    again = compile_unit(changed, "sm_90", cache, compiler, threads=3, per_kernel=True)
    assert compiled == [changed_add]
    assert again["add"] != cubins["add"]
    assert {k: p for k, p in again.items() if k != "add"} == {
        k: p for k, p in cubins.items() if k != "add"
    }


def test_the_parallel_compile_makes_the_serial_compiles_cubins(
    compiler: CudaCompiler, tmp_path: Path
) -> None:
    serial = compile_unit(
        FEW_PROGRAMS,
        "sm_90",
        ArtifactCache.open(tmp_path / "serial"),
        compiler,
        threads=1,
        per_kernel=True,
    )
    parallel = compile_unit(
        FEW_PROGRAMS,
        "sm_90",
        ArtifactCache.open(tmp_path / "parallel"),
        compiler,
        threads=4,
        per_kernel=True,
    )
    assert set(serial) == set(parallel) == set(FEW_KERNELS)
    for kernel in FEW_KERNELS:
        assert serial[kernel].name == parallel[kernel].name  # the same cache key
        assert serial[kernel].read_bytes() == parallel[kernel].read_bytes()


def test_a_kernel_that_does_not_compile_is_named(
    compiler: CudaCompiler, cache: ArtifactCache
) -> None:
    broken = {
        name: text.replace("c[i] = a[i] + b[i];", "c[i] = undefined_name;").replace(
            "y[i] = (int)i;", "y[i] = other_undefined_name;"
        )
        for name, text in KERNEL_SOURCES.items()
    }
    unit = CudaTranslationUnit(
        SOURCE,
        KERNELS,
        {},
        programs=tuple(CudaProgram(broken[name], (name,)) for name in FEW_KERNELS),
    )
    with pytest.raises(CudaCompileError) as caught:
        compile_unit(unit, "sm_90", cache, compiler, threads=4, per_kernel=True)
    message = str(caught.value)
    # Two kernels fail; the first in the unit's order is reported, whichever
    # thread finished first, at its line in its own program.
    assert message.startswith("CUDA compilation failed")
    assert "in kernel 'add':" in message.splitlines()[0]
    assert "undefined_name" in message
    assert "other_undefined_name" not in message
    assert "<irkit-generated:add>.cu(3)" in message
    assert ".tmp-" not in message


def test_by_default_nvrtc_compiles_per_kernel_and_nvcc_the_unit_whole(
    compiler: CudaCompiler, cache: ArtifactCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IRKIT_CUDA_COMPILE_THREADS", "2")
    compiled = counting_compiles(monkeypatch)
    cubins = compile_unit(FEW_PROGRAMS, "sm_90", cache, compiler)
    if compiler.kind == "nvrtc":
        assert set(cubins) == set(FEW_KERNELS)
        assert len(compiled) == len(FEW_KERNELS)
    else:
        assert set(cubins) == set(
            KERNELS
        )  # a process per kernel would cost more than it saves
        assert compiled == [SOURCE]
        assert len(set(cubins.values())) == 1


def test_on_one_thread_nvrtc_compiles_the_unit_whole(
    compiler: CudaCompiler, cache: ArtifactCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = counting_compiles(monkeypatch)
    cubins = compile_unit(FEW_PROGRAMS, "sm_90", cache, compiler, threads=1)
    assert compiled == [SOURCE]
    assert set(cubins) == set(KERNELS)


def test_the_compile_threads_can_be_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRKIT_CUDA_COMPILE_THREADS", "3")
    assert cuda_runtime.compile_threads() == 3
    monkeypatch.setenv("IRKIT_CUDA_COMPILE_THREADS", "many")
    with pytest.raises(IRKitError, match="must be a positive integer, not 'many'"):
        cuda_runtime.compile_threads()
    monkeypatch.delenv("IRKIT_CUDA_COMPILE_THREADS")
    assert cuda_runtime.compile_threads() >= 1


def test_an_unknown_compiler_choice_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("IRKIT_CUDA_COMPILER", "clang")
    with pytest.raises(CudaUnavailableError, match="must be 'nvrtc' or 'nvcc'"):
        cuda_runtime.cuda_compiler()


# ----------------------------------------------------------------------------
# Launch plans and argument checks: no GPU needed
# ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ((launch("missing", BufferArgument("a")),), "unknown kernel 'missing'"),
        ((launch("add", BufferArgument("tmp")),), "'tmp', which is not allocated"),
        ((FreeBuffer("a"),), "frees 'a', which it did not allocate"),
        (
            (AllocateBuffer("t", F32, SHAPE), AllocateBuffer("t", F32, SHAPE)),
            "'t' allocated twice",
        ),
        (
            (
                AllocateBuffer("t", F32, SHAPE),
                FreeBuffer("t"),
                launch("add", BufferArgument("t")),
            ),
            "'t', which is not allocated",
        ),
    ],
)
def test_malformed_plans_are_refused(steps: tuple[Any, ...], message: str) -> None:
    plan = LaunchPlan("main", SCALE_THEN_ADD.arguments, steps)
    with pytest.raises(IRKitError, match=message):
        check_plan(UNIT, plan)


def test_scalar_parameters_are_refused() -> None:
    scalar = CArgument("n", I64, (), (), 0, False, is_scalar=True)
    plan = LaunchPlan("main", (scalar,), ())
    with pytest.raises(IRKitError, match="scalar parameters"):
        check_plan(UNIT, plan)


def test_the_workspace_shares_bytes_between_buffers_that_do_not_overlap() -> None:
    from irkit.targets.cuda import StatusArgument

    plan = LaunchPlan(
        "main",
        (buffer("a", SHAPE), buffer("out", SHAPE, output=True)),
        (
            AllocateBuffer("t1", F32, (100,)),  # 400 bytes: two 256-byte units
            AllocateBuffer("t2", F32, (10,)),
            launch("add", BufferArgument("t1"), BufferArgument("t2"), StatusArgument()),
            FreeBuffer("t1"),
            AllocateBuffer("t3", F32, (64,)),  # fits where t1 was
            AllocateBuffer("t4", F32, (200,)),  # does not: after t2
            launch("add", BufferArgument("t3"), BufferArgument("t4")),
        ),
    )
    layout = cuda_runtime.workspace_layout(plan)
    assert layout.offsets == {"t1": 0, "t2": 512, "t3": 0, "t4": 768}
    assert layout.status_offset == 768 + 1024
    assert layout.nbytes == 768 + 1024 + 256
    assert cuda_runtime.workspace_layout(SCALE_THEN_ADD).status_offset is None


def test_well_formed_plans_pass() -> None:
    for plan in UNIT.plans.values():
        check_plan(UNIT, plan)


def no_device_arrays(*args: Any) -> Any:
    raise AssertionError("a host value was treated as a GPU array")


def check(inputs: tuple[Any, ...], out: Any = None) -> Any:
    parameters = describe_parameters(SCALE_THEN_ADD.arguments)
    return check_arguments(parameters, "main", inputs, out, no_device_arrays)


def test_host_arguments_that_match_pass() -> None:
    a, b, out = (np.ones(SHAPE, np.float32) for _ in range(3))
    inputs, outputs = check((a, b), out=out)
    assert inputs[0] is a
    assert outputs == [out]


@pytest.mark.parametrize(
    ("inputs", "out", "message"),
    [
        ((np.ones(SHAPE, np.float32),), None, r"@main takes 2 input\(s\), 1 given"),
        (
            (np.ones(SHAPE, np.float64), np.ones(SHAPE, np.float32)),
            None,
            r"argument 0 \(a\): expected shape \(4, 8\) float32, got \(4, 8\) float64",
        ),
        (
            (np.ones(SHAPE, np.float32), np.ones((8, 4), np.float32)),
            None,
            r"argument 1 \(b\): expected shape \(4, 8\) float32, got \(8, 4\)",
        ),
        (
            (np.ones(SHAPE, np.float32), np.ones(SHAPE, np.float32)),
            np.ones((4, 16), np.float32)[:, ::2],
            "must be C-contiguous",
        ),
        (
            (np.ones(SHAPE, np.float32), np.ones(SHAPE, np.float32)),
            [np.ones(SHAPE, np.float32)] * 2,
            r"@main has 1 output\(s\), out= gives 2",
        ),
    ],
)
def test_wrong_arguments_are_value_errors(
    inputs: tuple[Any, ...], out: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        check(inputs, out)
    assert isinstance(caught.value, InputError)


def test_an_output_aliasing_an_input_is_refused() -> None:
    a = np.ones(SHAPE, np.float32)
    with pytest.raises(InputError, match=r"out= for argument 2 \(out\) shares memory"):
        check((a, np.ones(SHAPE, np.float32)), out=a)


def test_a_read_only_output_is_refused() -> None:
    out = np.ones(SHAPE, np.float32)
    out.flags.writeable = False
    with pytest.raises(InputError, match="read-only"):
        check((np.ones(SHAPE, np.float32), np.ones(SHAPE, np.float32)), out=out)


class FakeDeviceArray:
    """Claims to live on a CUDA device, so it must take the device path."""

    __cuda_array_interface__: dict[str, Any] = {}


def test_gpu_arrays_are_recognised_by_their_interfaces() -> None:
    seen: list[str] = []

    def viewer(parameter: Any, value: Any, where: str) -> Any:
        seen.append(where)
        raise InputError(f"{where}: not a real GPU array")

    parameters = describe_parameters(SCALE_THEN_ADD.arguments)
    with pytest.raises(InputError, match="not a real GPU array"):
        check_arguments(
            parameters, "main", (FakeDeviceArray(), np.ones(SHAPE)), None, viewer
        )
    assert seen == ["@main: argument 0 (a)"]


# ----------------------------------------------------------------------------
# No GPU: one clean error
# ----------------------------------------------------------------------------

GPU_REASON = gpu_unavailable_reason()
needs_no_gpu = pytest.mark.skipif(GPU_REASON is None, reason="a GPU is present")
gpu = pytest.mark.gpu
needs_gpu = pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))


@needs_no_gpu
def test_loading_without_a_gpu_is_one_clear_error(cache: ArtifactCache) -> None:
    with pytest.raises(CudaUnavailableError) as caught:
        load_cuda_function(UNIT, "main", cache=cache)
    assert "\n" not in str(caught.value)


@needs_no_gpu
def test_irkit_compile_for_cuda_without_a_gpu_is_one_clear_error() -> None:
    program = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n"
    with pytest.raises(CudaUnavailableError):
        irkit.compile(program, target="cuda")


def test_missing_cuda_python_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> Any:
        raise ImportError(f"No module named '{name}'")

    monkeypatch.setattr(cuda_runtime.importlib, "import_module", missing)
    cuda_runtime._open_device.cache_clear()
    try:
        reason = gpu_unavailable_reason()
    finally:
        cuda_runtime._open_device.cache_clear()
    assert reason is not None
    assert reason.startswith("cuda-python is not installed")
    assert "irkit[cuda]" in reason


# ----------------------------------------------------------------------------
# On a GPU (marker `gpu`; skipped without one)
# ----------------------------------------------------------------------------


@pytest.fixture
def scale_then_add(cache: ArtifactCache) -> Any:
    return load_cuda_function(UNIT, "main", cache=cache)


@gpu
@needs_gpu
def test_numpy_in_numpy_out_through_two_launches(scale_then_add: Any) -> None:
    rng = np.random.default_rng(0)
    a, b = random_array(rng, SHAPE), random_array(rng, SHAPE)
    (result,) = scale_then_add(a, b)
    assert isinstance(result, np.ndarray)
    np.testing.assert_allclose(result, 3 * a + b, rtol=1e-6)
    assert scale_then_add.source == SOURCE
    assert scale_then_add.plan is SCALE_THEN_ADD


@gpu
@needs_gpu
def test_kernels_from_cubins_of_their_own_give_the_same_results(
    scale_then_add: Any, cache: ArtifactCache
) -> None:
    split = load_cuda_function(SPLIT_UNIT, "main", cache=cache)
    if (
        cuda_runtime.cuda_compiler().kind == "nvrtc"
        and cuda_runtime.compile_threads() > 1
    ):
        # Every kernel of the unit in a cubin of its own.
        assert len(set(split.cubins.values())) == len(KERNELS)
    rng = np.random.default_rng(1)
    a, b = random_array(rng, SHAPE), random_array(rng, SHAPE)
    np.testing.assert_array_equal(split(a, b)[0], scale_then_add(a, b)[0])


@gpu
@needs_gpu
def test_out_is_written_in_place(scale_then_add: Any) -> None:
    rng = np.random.default_rng(1)
    a, b = random_array(rng, SHAPE), random_array(rng, SHAPE)
    out = np.zeros(SHAPE, np.float32)
    (result,) = scale_then_add(a, b, out=out)
    assert result is out
    np.testing.assert_allclose(out, 3 * a + b, rtol=1e-6)


@gpu
@needs_gpu
def test_checked_mode_shows_unwritten_output_elements(cache: ArtifactCache) -> None:
    half = load_cuda_function(UNIT, "half", cache=cache, checked=True)
    given = np.full(N, 7, np.int32)
    for out in (None, None, given):  # poisoned before every run, not once
        (y,) = half(out=out)
        assert list(y[: N // 2]) == list(range(N // 2))
        assert (y[N // 2 :] == np.iinfo(np.int32).min).all()
    assert y is given


@gpu
@needs_gpu
def test_device_poison_covers_every_dtype_width(cache: ArtifactCache) -> None:
    torch = pytest.importorskip("torch")
    function = load_cuda_function(UNIT, "main", cache=cache, checked=True)
    for dtype in (np.float16, np.float32, np.float64, np.int8, np.int64, np.bool_):
        parameter = describe_parameters(
            [CArgument("y", np.dtype(dtype), (5,), (1,), 0, True)]
        )[0]
        target = torch.ones(5, device="cuda").to(
            torch.bool if dtype is np.bool_ else getattr(torch, np.dtype(dtype).name)
        )
        stream = function._caller_stream("torch")
        function._poison(target.data_ptr(), parameter, stream)
        torch.cuda.synchronize()
        expected = poison((5,), np.dtype(dtype))
        np.testing.assert_array_equal(target.cpu().numpy(), expected)


@gpu
@needs_gpu
def test_dynamic_shared_memory_past_48_kib(cache: ArtifactCache) -> None:
    reverse = load_cuda_function(UNIT, "reverse", cache=cache)
    x = random_array(np.random.default_rng(2), (SHARED_ELEMENTS,))
    (y,) = reverse(x)
    np.testing.assert_array_equal(y, x[::-1])


@gpu
@needs_gpu
def test_cupy_arrays_are_used_in_place(scale_then_add: Any) -> None:
    cupy = pytest.importorskip("cupy")
    rng = np.random.default_rng(3)
    a, b = random_array(rng, SHAPE), random_array(rng, SHAPE)
    (result,) = scale_then_add(cupy.asarray(a), cupy.asarray(b))
    assert isinstance(result, cupy.ndarray)
    np.testing.assert_allclose(result.get(), 3 * a + b, rtol=1e-6)
    out = cupy.zeros(SHAPE, cupy.float32)
    (written,) = scale_then_add(cupy.asarray(a), cupy.asarray(b), out=out)
    assert written is out
    np.testing.assert_allclose(out.get(), 3 * a + b, rtol=1e-6)


@gpu
@needs_gpu
def test_torch_cuda_tensors_in_torch_tensors_out(scale_then_add: Any) -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    a, b = random_array(rng, SHAPE), random_array(rng, SHAPE)
    ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
    (result,) = scale_then_add(ta, tb)
    assert isinstance(result, torch.Tensor)
    assert result.device == ta.device
    np.testing.assert_allclose(result.cpu().numpy(), 3 * a + b, rtol=1e-6)
    out = torch.empty(SHAPE, dtype=torch.float32, device="cuda")
    (written,) = scale_then_add(ta, tb, out=out)
    assert written is out
    np.testing.assert_allclose(out.cpu().numpy(), 3 * a + b, rtol=1e-6)


@gpu
@needs_gpu
def test_results_are_ordered_on_pytorchs_current_stream(scale_then_add: Any) -> None:
    """Everything on a side stream, no synchronisation in between: the input
    is written after a slow PyTorch op, the result read by the next one. A
    call on any other stream would read the input too early or be read too
    early itself."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(6)
    a, b = random_array(rng, SHAPE), random_array(rng, SHAPE)
    busy = torch.rand(2048, 2048, device="cuda")
    side = torch.cuda.Stream()
    torch.cuda.synchronize()
    for _ in range(3):
        with torch.cuda.stream(side):
            ta = torch.zeros(SHAPE, device="cuda")
            tb = torch.from_numpy(b).to("cuda", non_blocking=True)
            for _ in range(10):
                busy = busy @ busy / 2048.0
            ta.copy_(torch.from_numpy(a).to("cuda", non_blocking=True))
            (result,) = scale_then_add(ta, tb)
            following = result * 2.0
        side.synchronize()
        np.testing.assert_allclose(following.cpu().numpy(), 2 * (3 * a + b), rtol=1e-6)


@gpu
@needs_gpu
def test_graphs_are_replayed_per_argument_pointers(cache: ArtifactCache) -> None:
    torch = pytest.importorskip("torch")
    replayed = load_cuda_function(UNIT, "main", cache=cache)
    launched = load_cuda_function(UNIT, "main", cache=cache, graphs=False)
    rng = np.random.default_rng(7)
    sets = [
        tuple(torch.from_numpy(random_array(rng, SHAPE)).cuda() for _ in range(2))
        for _ in range(cuda_runtime.GRAPHS_PER_WORKSPACE + 3)
    ]
    results = [t.cpu().numpy() for t in sets[0]]
    for _ in range(3):  # the same tensors: one graph, replayed
        (out,) = replayed(*sets[0])
        np.testing.assert_allclose(out.cpu().numpy(), 3 * results[0] + results[1])
    (workspace,) = replayed._workspaces.values()
    keys = list(workspace.graphs)
    # New tensors each call: new graphs up to the limit, then the oldest is
    # updated in place; every result right, with and without graphs.
    for ta, tb in sets * 2:
        expected = 3 * ta.cpu().numpy() + tb.cpu().numpy()
        for function in (replayed, launched):
            (out,) = function(ta, tb)
            np.testing.assert_allclose(out.cpu().numpy(), expected, rtol=1e-6)
    # PyTorch's allocator alternates two blocks for a result still held
    # while the next is allocated: at most two graphs for a steady loop.
    assert len(keys) <= 2
    assert len(workspace.graphs) == cuda_runtime.GRAPHS_PER_WORKSPACE
    assert all(not w.graphs for w in launched._workspaces.values())


@gpu
@needs_gpu
def test_wrong_gpu_arrays_are_value_errors(scale_then_add: Any) -> None:
    cupy = pytest.importorskip("cupy")
    a = cupy.ones(SHAPE, cupy.float32)
    with pytest.raises(InputError, match="must be C-contiguous"):
        scale_then_add(cupy.ones((4, 16), cupy.float32)[:, ::2], a)
    with pytest.raises(InputError, match="float64"):
        scale_then_add(cupy.ones(SHAPE, cupy.float64), a)
    with pytest.raises(InputError, match="shares memory with input"):
        scale_then_add(a, cupy.ones(SHAPE, cupy.float32), out=a)


@gpu
@needs_gpu
def test_timing_with_events(scale_then_add: Any) -> None:
    rng = np.random.default_rng(5)
    timing = scale_then_add.time(
        random_array(rng, SHAPE), random_array(rng, SHAPE), runs=3
    )
    assert len(timing.times_ms) == 3
    assert all(t > 0 for t in timing.times_ms)


@gpu
@needs_gpu
def test_a_kernel_fault_is_a_clear_error(tmp_path: Path) -> None:
    # A fault poisons the CUDA context for the rest of the process: run apart.
    script = (
        "import sys\n"
        "from tests.runtime.test_cuda_runtime import UNIT\n"
        "from irkit.runtime.cuda import CudaRuntimeError, load_cuda_function\n"
        "try:\n"
        "    load_cuda_function(UNIT, 'fault')()\n"
        "except CudaRuntimeError as error:\n"
        "    print(error)\n"
        "    sys.exit(3)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "IRKIT_CACHE_DIR": str(tmp_path / "cache")},
        cwd=Path(__file__).parents[2],
    )
    assert result.returncode == 3, result.stderr
    assert result.stdout.startswith("@fault: CUDA failed while running")
    assert "Traceback" not in result.stdout


WGMMA_SOURCE = (
    'extern "C" __global__ void fence() '
    '{ asm volatile("wgmma.fence.sync.aligned;\\n" ::: "memory"); }\n'
)


def test_warpgroup_products_compile_for_the_architecture_specific_target(
    cache: ArtifactCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program using `wgmma` compiles for `sm_90a` (plain sm_90 refuses
    the instructions), the others for the device's architecture; without
    an architecture-specific target it is an error saying what to do."""
    targets: dict[str, str] = {}

    def record(source: str, arch: str, *args: Any) -> Path:
        targets["wgmma" if "wgmma" in source else "plain"] = arch
        return Path("unused.cubin")

    monkeypatch.setattr(cuda_runtime, "compile_cubin", record)
    unit = CudaTranslationUnit(
        SOURCE,
        (*KERNELS, "fence"),
        {},
        programs=(
            CudaProgram(KERNEL_SOURCES["add"], ("add",)),
            CudaProgram(WGMMA_SOURCE, ("fence",)),
        ),
    )
    nvcc = CudaCompiler("nvcc", "test")
    compile_unit(
        unit,
        "sm_90",
        cache,
        nvcc,
        threads=1,
        per_kernel=True,
        architecture_specific="sm_90a",
    )
    assert targets == {"plain": "sm_90", "wgmma": "sm_90a"}
    with pytest.raises(CudaCompileError, match=r"wgmma.*lower-to-cuda\{wgmma=false\}"):
        compile_unit(unit, "sm_80", cache, nvcc, threads=1, per_kernel=True)
