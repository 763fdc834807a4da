"""bf16 on the CUDA target: `__nv_bfloat16` from `cuda_bf16.h`, computed in float.

The f16 programs of `test_cuda_half` in bf16: the printer stores bf16 as
`__nv_bfloat16` and widens it to float for arithmetic (the header's
conversion operator; its conversion constructors round to nearest even),
and includes `cuda_bf16.h` only in sources that use it. nvcc compiles the
printed kernels here (CI has nvcc, no GPU); on a GPU they run against the
interpreter with NumPy (`ml_dtypes.bfloat16`) and PyTorch bfloat16 arrays
(marker `gpu`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

import irkit
from irkit.dtypes import BFLOAT16
from irkit.interpreter import interpret
from irkit.runtime import cuda as cuda_runtime
from irkit.runtime import lower
from irkit.runtime.cuda import CudaCompileError, gpu_unavailable_reason
from irkit.targets.cuda import BFLOAT16_INCLUDE, HALF_INCLUDE, emit_cuda
from irkit.testing.compare import compare_arrays
from tests.targets.test_cuda_half import PROGRAMS as HALF_PROGRAMS

NVCC = shutil.which("nvcc")

# `f16` -> `bf16` everywhere (types and the `arith.extf ... : f16 to f32`s).
PROGRAMS = {name: text.replace("f16", "bf16") for name, text in HALF_PROGRAMS.items()}


def _print_cuda(text: str) -> str:
    module = irkit.parse(text)
    lower(module, "lower-to-cuda")
    return emit_cuda(module).source


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_bf16_is_stored_as_nv_bfloat16_with_its_header(name: str) -> None:
    source = _print_cuda(PROGRAMS[name])
    assert BFLOAT16_INCLUDE in source
    assert HALF_INCLUDE not in source
    assert "__nv_bfloat16" in source


def test_f32_sources_include_no_bf16_header() -> None:
    f32 = PROGRAMS["softmax"].replace("bf16", "f32")
    assert BFLOAT16_INCLUDE not in _print_cuda(f32)


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH (CI has it)")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_bf16_kernels_compile_with_nvcc(name: str, tmp_path: Path) -> None:
    assert NVCC is not None
    source = tmp_path / f"{name}.cu"
    source.write_text(_print_cuda(PROGRAMS[name]))
    done = subprocess.run(
        [
            NVCC,
            "-arch=sm_90",
            "-cubin",
            "-std=c++17",
            "-Werror",
            "all-warnings",
            "-o",
            str(tmp_path / "k.cubin"),
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_nvrtc_without_headers_names_the_bf16_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cuda_runtime, "cuda_include_dirs", lambda: [])
    with pytest.raises(CudaCompileError, match=r"cuda_bf16\.h.*\$CUDA_HOME"):
        cuda_runtime._compile_with_nvrtc(_print_cuda(PROGRAMS["softmax"]), "sm_90")


GPU_REASON = gpu_unavailable_reason()


def _inputs(name: str) -> tuple[ModuleOp, list[np.ndarray]]:
    rng = np.random.default_rng(0)
    module = irkit.parse(PROGRAMS[name])
    (function,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    shapes = [arg.type.get_shape() for arg in function.body.block.args]
    return module, [(rng.standard_normal(s) * 0.5).astype(BFLOAT16) for s in shapes]


@pytest.mark.gpu
@pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_bf16_programs_run_on_the_gpu(name: str) -> None:
    """Against the reference interpreter, NumPy bf16 arrays in and out."""
    module, args = _inputs(name)
    got = irkit.compile(PROGRAMS[name], target="cuda")(*args)
    got = got[0] if isinstance(got, tuple | list) else got
    (want,) = interpret(module, *args)
    assert np.asarray(got).dtype == want.dtype
    assert compare_arrays(want, np.asarray(got)) is None


@pytest.mark.gpu
@pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))
def test_bf16_pytorch_cuda_tensors_in_tensors_out() -> None:
    torch = pytest.importorskip("torch")
    module, args = _inputs("elementwise")
    tensors = [
        torch.from_numpy(a.view(np.int16)).view(torch.bfloat16).cuda() for a in args
    ]
    got = irkit.compile(PROGRAMS["elementwise"], target="cuda")(*tensors)
    got = got[0] if isinstance(got, tuple | list) else got
    assert got.dtype == torch.bfloat16
    assert got.is_cuda
    (want,) = interpret(module, *args)
    bits = got.cpu().view(torch.int16).numpy().view(BFLOAT16)
    assert compare_arrays(want, bits) is None
