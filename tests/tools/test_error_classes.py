"""Every error class of issue 8 as a command-line user meets it.

Each class gets a clear message and exit code 1 (70 for an internal error,
with a reproducer), no traceback, an untouched `-o` file and an unmodified
input. Classes already tested elsewhere are not repeated here:

| error class                                  | where it is tested                                    |
|----------------------------------------------|-------------------------------------------------------|
| parse error                                  | test_cli.py::test_opt_parse_error_is_located,         |
|                                              | test_opt_undefined_value_is_located_at_its_use        |
| verifier error                               | test_cli.py::test_opt_verifier_error_is_located       |
| pass failure (unsupported input, names pass) | here: test_pass_failure_names_the_pass                |
| unknown pass                                 | test_cli.py::test_opt_user_errors_exit_1              |
| malformed pipeline text                      | test_cli.py::test_opt_user_errors_exit_1              |
| malformed pass options (name or value)       | here: test_malformed_pass_options                     |
| unknown target                               | here: test_unknown_target                             |
| missing file                                 | test_cli.py::test_opt_user_errors_exit_1              |
| unreadable file (directory, not UTF-8)       | here: test_unreadable_input                           |
| wrong input count / shape / dtype (run)      | test_cli.py::test_run_rejects_mismatched_inputs,      |
|                                              | test_irkit_run_c.py (compiled target)                 |
| unloadable .npy input                        | here: test_run_unloadable_input                       |
| failing C compile                            | test_irkit_run_c.py::test_failing_c_compile_is_a_...  |
| no C compiler                                | here: test_missing_c_compiler                         |
| no cuda-python / driver / GPU (`-t cuda`)    | here: test_cuda_unavailable_says_what_is_missing;     |
|                                              | test_irkit_run_cuda.py::test_no_gpu_is_one_line_...   |
| failing CUDA compile (NVRTC or nvcc)         | here: test_cuda_compile_error_carries_the_log,        |
|                                              | test_run_maps_a_failed_cuda_compile_to_exit_1         |
| CUDA error while running (fault, no memory)  | here: test_run_maps_a_cuda_runtime_error_to_exit_1    |
| op the CUDA target cannot print (`-t cuda`)  | here: test_cuda_target_unprintable_is_located         |
| internal error: exit 70 + reproducer         | test_cli.py::test_opt_internal_error_exits_70_...;    |
|                                              | here with the pipeline in the reproducer and `-o`     |
| pass producing invalid IR: exit 70 + pass    | here: test_invalid_pass_output_is_internal            |
| plugin pass raising or leaving invalid IR:   | test_pass_plugins.py (located at the plugin's line    |
| exit 1, the plugin's error                   | or at the invalid op)                                 |
| `-o FILE` untouched on failure               | test_cli.py (verifier error); here for every class    |
| input file never modified                    | here for every class                                  |
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)

from irkit.runtime import cuda as cuda_runtime
from irkit.runtime.cache import ArtifactCache
from irkit.runtime.cuda import (
    CudaCompiledFunction,
    CudaCompileError,
    compile_cubin,
)
from irkit.targets.cuda import LaunchPlan
from irkit.tools import irkit_opt, irkit_run

VALID = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""

# `bufferize` returns tensors only, as output buffers: a scalar result is
# unsupported input.
SCALAR_RESULT = """\
func.func @f(%a: i32) -> i32 {
  return %a : i32
}
"""


def run_tool(
    tool: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    code = f"from irkit.tools.{tool.replace('-', '_')} import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def assert_user_error(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_pass_failure_names_the_pass(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", SCALAR_RESULT)
    out = write(tmp_path / "out.mlir", "precious")
    result = run_tool("irkit-opt", str(source), "-p", "bufferize", "-o", str(out))
    assert_user_error(
        result, f"{source}:1:1: error: bufferize: 'func.func' op result #0 of @f"
    )
    assert out.read_text() == "precious"
    assert source.read_text() == SCALAR_RESULT


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("lower-to-c{nope=1}", "invalid options for pass 'lower-to-c'"),
        ("lower-to-c{fuse=maybe}", "invalid options for pass 'lower-to-c'"),
        # Checked as the named pipeline chooses its stages (it was exit 70).
        (
            "lower-to-cuda{transpose-block=64}",
            "invalid options for pass 'lower-to-cuda': transpose-block takes 2 sizes",
        ),
    ],
)
def test_malformed_pass_options(tmp_path: Path, pipeline: str, message: str) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    out = write(tmp_path / "out.mlir", "precious")
    result = run_tool("irkit-opt", str(source), "-p", pipeline, "-o", str(out))
    assert_user_error(result, f"error: {message}")
    assert out.read_text() == "precious"


def test_unknown_target(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    result = run_tool("irkit-opt", str(source), "--target", "ptx")
    assert_user_error(result, "argument -t/--target: invalid choice: 'ptx'")
    result = run_tool("irkit-run", str(source), "--target", "ptx")
    assert_user_error(result, "argument --target: invalid choice: 'ptx'")


def test_unreadable_input(tmp_path: Path) -> None:
    result = run_tool("irkit-opt", str(tmp_path))
    assert_user_error(result, f"error: cannot read '{tmp_path}': Is a directory")
    binary = tmp_path / "binary.mlir"
    binary.write_bytes(b"\xff\xfe")
    result = run_tool("irkit-opt", str(binary))
    assert_user_error(result, f"error: cannot read '{binary}': not UTF-8 text")
    result = run_tool("irkit-run", str(binary), "--random-inputs", "0")
    assert_user_error(result, f"error: cannot read '{binary}': not UTF-8 text")
    assert binary.read_bytes() == b"\xff\xfe"


def test_run_unloadable_input(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    not_npy = write(tmp_path / "a.npy", "not numpy")
    result = run_tool("irkit-run", str(source), "--input", str(not_npy))
    assert_user_error(result, f"error: cannot load input '{not_npy}'")


def test_missing_c_compiler(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    out = write(tmp_path / "out.npz", "precious")
    env = {
        **os.environ,
        "CC": str(tmp_path / "no-such-cc"),
        "IRKIT_CACHE_DIR": str(tmp_path / "cache"),
    }
    result = run_tool(
        "irkit-run",
        str(source),
        "--target",
        "c",
        "--random-inputs",
        "0",
        "--output",
        str(out),
        env=env,
    )
    assert_user_error(result, f"C compiler '{tmp_path / 'no-such-cc'}' not found")
    assert out.read_text() == "precious"


def _reproducer(stderr: str) -> Path:
    return Path(stderr.split("reproducer written to ")[1].strip().rstrip(")"))


def _run_opt_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int | str | None, str]:
    monkeypatch.setattr(sys, "argv", ["irkit-opt", *args])
    with pytest.raises(SystemExit) as exited:
        irkit_opt.main()
    return exited.value.code, capsys.readouterr().err


def test_internal_error_keeps_output_and_writes_reproducer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A bug in a pass irkit ships: xDSL's cse, made to crash. (A plugin's
    # pass that crashes is the plugin's error: test_pass_plugins.py.)
    def crash(self: object, ctx: object, op: object) -> None:
        raise KeyError("no such thing")

    monkeypatch.setattr(CommonSubexpressionElimination, "apply", crash)
    source = write(tmp_path / "in.mlir", VALID)
    out = write(tmp_path / "out.mlir", "precious")
    code, stderr = _run_opt_in_process(
        monkeypatch, capsys, str(source), "-p", "canonicalize,cse", "-o", str(out)
    )
    assert code == 70
    lines = stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        "irkit-opt: internal error: pass 'cse' raised KeyError: 'no such thing'"
    )
    reproducer = _reproducer(lines[0])
    text = reproducer.read_text()
    reproducer.unlink()
    assert "-p canonicalize,cse" in text  # the pipeline
    assert VALID in text  # the input IR
    assert out.read_text() == "precious"
    assert source.read_text() == VALID


def test_invalid_pass_output_is_internal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # cse made to leave a `func.return` of the wrong type behind.
    def break_return(self: object, ctx: object, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, func.ReturnOp):
                inner.detach()
                inner.erase()

    monkeypatch.setattr(CommonSubexpressionElimination, "apply", break_return)
    source = write(tmp_path / "in.mlir", VALID)
    code, stderr = _run_opt_in_process(monkeypatch, capsys, str(source), "-p", "cse")
    assert code == 70
    lines = stderr.splitlines()
    assert len(lines) == 1
    expected = "internal error: InvalidPassOutput: pass 'cse' produced invalid IR"
    assert expected in lines[0]
    _reproducer(lines[0]).unlink()
    assert source.read_text() == VALID


def test_run_success_for_reference(tmp_path: Path) -> None:
    """The programs above are valid: the failures come from what each test varies."""
    source = write(tmp_path / "in.mlir", VALID)
    np.save(tmp_path / "a.npy", np.arange(4, dtype=np.float32) + 1)
    result = run_tool("irkit-run", str(source), "--input", str(tmp_path / "a.npy"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("result0: tensor<4xf32> = [2., 4., 6., 8.]")


# --- the CUDA target and runtime ----------------------------------------------

# cuda-python as `irkit.runtime.cuda` reaches it (`cuda.core`, and the error
# type in `cuda.core._utils.cuda_utils`), with a `Device.get_all_devices` that
# behaves as on a machine without a driver or without a GPU. A regular package
# on PYTHONPATH shadows an installed cuda-python (a namespace package), so
# these run the same on a GPU machine.
FAKE_CUDA_CORE = """\
class Device:
    @staticmethod
    def get_all_devices():
{body}
"""
NO_DRIVER = (
    "        raise OSError("
    "'libcuda.so.1: cannot open shared object file: No such file or directory')"
)
NO_DEVICE = "        return ()"


def fake_cuda_python(root: Path, get_all_devices: str | None) -> Path:
    """A `cuda` package under `root`; None: one without `cuda.core`, as when
    an unrelated module named `cuda` is all there is."""
    root.mkdir()
    if get_all_devices is None:
        write(root / "cuda.py", "")
        return root
    core = root / "cuda" / "core"
    (core / "_utils").mkdir(parents=True)
    write(root / "cuda" / "__init__.py", "")
    write(core / "__init__.py", FAKE_CUDA_CORE.format(body=get_all_devices))
    write(core / "_utils" / "__init__.py", "")
    write(core / "_utils" / "cuda_utils.py", "class CUDAError(Exception):\n    pass\n")
    return root


@pytest.mark.parametrize(
    ("get_all_devices", "expected"),
    [
        (
            None,
            "error: cuda-python is not installed (No module named 'cuda.core'; "
            "'cuda' is not a package): install irkit[cuda]",
        ),
        (
            NO_DRIVER,
            "error: no usable NVIDIA driver: libcuda.so.1: cannot open shared "
            "object file: No such file or directory",
        ),
        (NO_DEVICE, "error: no CUDA device found"),
    ],
    ids=["no-cuda-python", "no-driver", "no-gpu"],
)
def test_cuda_unavailable_says_what_is_missing(
    tmp_path: Path, get_all_devices: str | None, expected: str
) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    out = write(tmp_path / "out.npz", "precious")
    fake = fake_cuda_python(tmp_path / "site", get_all_devices)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [str(fake), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
        "IRKIT_CACHE_DIR": str(tmp_path / "cache"),
    }
    for extra in ([], ["--check"], ["--bench", "2"]):
        result = run_tool(
            "irkit-run",
            str(source),
            "--target",
            "cuda",
            "--random-inputs",
            "0",
            "--output",
            str(out),
            *extra,
            env=env,
        )
        assert_user_error(result, expected)
        assert result.stderr.splitlines() == [expected]
    assert out.read_text() == "precious"
    assert source.read_text() == VALID


# An entry point whose kernel is fine: what fails is the compiler.
BROKEN_CUDA = """\
extern "C" __global__ void broken(float *out) {
    out[threadIdx.x] = undeclared_value;
}
"""


def _compilers() -> Iterator[Any]:
    nvcc = shutil.which("nvcc")
    yield pytest.param(
        "nvcc",
        marks=pytest.mark.skipif(nvcc is None, reason="nvcc is not on PATH"),
    )
    nvrtc = cuda_runtime._nvrtc_version()  # pyright: ignore[reportPrivateUsage]
    yield pytest.param(
        "nvrtc",
        marks=pytest.mark.skipif(
            nvrtc is None, reason="cuda-python with NVRTC is not installed"
        ),
    )


@pytest.mark.parametrize("compiler", list(_compilers()))
def test_cuda_compile_error_carries_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiler: str
) -> None:
    """Compiling needs no GPU: the runtime's own compile step, on source the
    compiler rejects, chosen by the variable users set to pick a compiler."""
    monkeypatch.setenv(cuda_runtime.COMPILER_VARIABLE, compiler)
    cache = ArtifactCache.open(tmp_path / "cache")
    with pytest.raises(CudaCompileError) as raised:
        compile_cubin(BROKEN_CUDA, "sm_90", cache)
    message = str(raised.value)
    header = message.splitlines()[0]
    if compiler == "nvcc":
        assert header.startswith("CUDA compilation failed (nvcc exited with status ")
    else:
        assert header.startswith("CUDA compilation failed (NVRTC: ")
    assert "undeclared_value" in raised.value.stderr
    # The log names the source as the user sees it, not a temporary file.
    assert cuda_runtime.SOURCE_NAME in raised.value.stderr
    assert str(cache.directory) not in message
    assert not list(cache.directory.glob("*.cubin"))  # nothing half-built kept


def _run_main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    """irkit-run's `main()` in this process (so that the test can stand in
    for the GPU): its exit status and stderr."""
    monkeypatch.setattr(sys, "argv", ["irkit-run", *args])
    with pytest.raises(SystemExit) as exited:
        irkit_run.main()
    assert isinstance(exited.value.code, int)
    return exited.value.code, capsys.readouterr().err


def _run_cuda_main(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, Path]:
    """`irkit-run --target cuda` on a valid program, in this process, with an
    `--output` file that must survive a failure: status, stderr, that file."""
    source = write(tmp_path / "in.mlir", VALID)
    out = write(tmp_path / "out.npz", "precious")
    code, stderr = _run_main(
        monkeypatch,
        capsys,
        str(source),
        "--target",
        "cuda",
        "--random-inputs",
        "0",
        "--output",
        str(out),
    )
    return code, stderr, out


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not on PATH")
def test_run_maps_a_failed_cuda_compile_to_exit_1(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`irkit-run --target cuda` on a GPU older than the toolkit supports
    (compute capability 3.5; CUDA 12 dropped it): nvcc refuses the
    architecture. Only the device is simulated: everything else, the
    lowering, the CUDA target, the cache and nvcc, is real."""
    kepler = SimpleNamespace(
        name="Tesla K20",
        compute_capability=SimpleNamespace(major=3, minor=5),
        # What the CUDA target reads of a device (`GpuHardware`).
        properties=SimpleNamespace(
            warp_size=32,
            max_threads_per_block=1024,
            max_shared_memory_per_block=48 * 1024,
            max_shared_memory_per_block_optin=48 * 1024,
            max_registers_per_block=65536,
            multiprocessor_count=13,
        ),
    )
    monkeypatch.setattr(cuda_runtime, "_open_device", lambda: kepler)
    monkeypatch.setenv(cuda_runtime.COMPILER_VARIABLE, "nvcc")
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(tmp_path / "cache"))
    code, stderr, out = _run_cuda_main(tmp_path, monkeypatch, capsys)
    assert code == 1, stderr
    lines = stderr.splitlines()
    # One line that says what failed, then the compiler's own words.
    assert re.fullmatch(
        r"error: CUDA compilation failed \(nvcc exited with status \d+\):", lines[0]
    )
    assert "Unsupported gpu architecture" in stderr
    assert "sm_35" in stderr or "compute_35" in stderr
    assert "Traceback" not in stderr
    assert out.read_text() == "precious"


class _FakeCUDAError(Exception):
    """Stands for cuda.core's CUDAError, which the runtime translates."""


class _FaultingFunction(CudaCompiledFunction):
    """A compiled CUDA function whose launch plan fails on the device: the
    runtime's real translation of cuda.core's errors, without a GPU."""

    def __init__(self, symbol: str, failure: str) -> None:
        self.plan = LaunchPlan(symbol, (), ())
        self.failure = failure

    def __call__(self, *inputs: Any, out: Any = None) -> tuple[Any, ...]:
        with self._cuda_errors("running the launch plan"):
            raise _FakeCUDAError(self.failure)
        raise AssertionError("unreachable: _cuda_errors re-raises")


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        (
            "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered",
            "error: @main: CUDA failed while running the launch plan: "
            "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered",
        ),
        (
            "CUDA_ERROR_OUT_OF_MEMORY: out of memory",
            "error: @main: out of device memory while running the launch plan: "
            "CUDA_ERROR_OUT_OF_MEMORY: out of memory",
        ),
    ],
    ids=["kernel-fault", "out-of-memory"],
)
def test_run_maps_a_cuda_runtime_error_to_exit_1(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failure: str,
    expected: str,
) -> None:
    monkeypatch.setattr(cuda_runtime, "_cuda_error_type", lambda: _FakeCUDAError)
    compiled: list[tuple[str, str | None]] = []

    def compile_module(
        module: Any,
        target: str = "c",
        entry: str | None = None,
        tune: bool = False,
        checked: bool = False,
    ) -> Any:
        compiled.append((target, entry))
        return _FaultingFunction("main", failure)

    monkeypatch.setattr(irkit_run, "compile_module", compile_module)
    code, stderr, out = _run_cuda_main(tmp_path, monkeypatch, capsys)
    assert compiled == [("cuda", "main")]
    assert code == 1, stderr
    assert stderr.splitlines() == [expected]
    assert out.read_text() == "precious"


# A kernel holding a tensor op: valid IR, but nothing CUDA C can express.
TENSOR_IN_KERNEL = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<4xf32>
      %t = tensor.from_elements %v : tensor<1xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<4xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            TENSOR_IN_KERNEL,
            ":6:7: error: CUDA target cannot print op 'tensor.from_elements'\n"
            "      %t = tensor.from_elements %v : tensor<1xf32>\n"
            "      ^",
        ),
        # Tensor-level input without `-p lower-to-cuda`.
        (
            VALID,
            ":1:1: error: argument #0 of @main has type tensor<4xf32>: a compiled "
            "function takes memrefs and scalars of integer, index or float type "
            "(lower the program first)\n"
            "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            "^",
        ),
    ],
    ids=["op-in-kernel", "not-lowered"],
)
def test_cuda_target_unprintable_is_located(
    tmp_path: Path, text: str, message: str
) -> None:
    source = write(tmp_path / "in.mlir", text)
    out = write(tmp_path / "out.cu", "precious")
    result = run_tool("irkit-opt", str(source), "--target", "cuda", "-o", str(out))
    assert_user_error(result, f"{source}{message}")
    assert out.read_text() == "precious"
    assert source.read_text() == text


def test_cuda_target_success_for_reference(tmp_path: Path) -> None:
    """What the tests above vary is what fails: the same kernel prints, and
    the lowered program goes through `irkit-opt -p lower-to-cuda -t cuda`."""
    printable = "\n".join(
        line for line in TENSOR_IN_KERNEL.splitlines() if "tensor." not in line
    )
    source = write(tmp_path / "kernel.mlir", printable)
    result = run_tool("irkit-opt", str(source), "--target", "cuda")
    assert result.returncode == 0, result.stderr
    assert 'extern "C" __global__ void kernels__scale(' in result.stdout
    assert "// launch plan for @main(out a: float32[4]):" in result.stdout
    source = write(tmp_path / "in.mlir", VALID)
    result = run_tool("irkit-opt", str(source), "-p", "lower-to-cuda", "-t", "cuda")
    assert result.returncode == 0, result.stderr
    assert "// launch plan for @main(" in result.stdout
