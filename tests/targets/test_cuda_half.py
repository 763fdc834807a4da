"""f16 on the CUDA target: `__half` from `cuda_fp16.h`, computed in float.

The printer stores f16 as `__half` and widens it to float for arithmetic (the
C target's `_Float16` scheme), and includes `cuda_fp16.h` only in sources
that use it; NVRTC, which does not look for the toolkit's headers by itself,
gets them from `cuda_include_dirs`. nvcc compiles the printed kernels here;
on a GPU they run against PyTorch (marker `gpu`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func

import irkit
from irkit.interpreter import interpret
from irkit.runtime import cuda as cuda_runtime
from irkit.runtime import lower
from irkit.runtime.cuda import CudaCompileError, gpu_unavailable_reason
from irkit.targets.cuda import HALF_INCLUDE, CudaTranslationUnit, emit_cuda

NVCC = shutil.which("nvcc")

LINEAR = """
func.func @linear(%a: tensor<64x32xf16>, %b: tensor<32x48xf16>, %bias: tensor<48xf16>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x48xf16>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<64x48xf32>, tensor<48xf16>) outs(%e : tensor<64x48xf32>) {
  ^bb0(%x: f32, %y: f16, %o: f32):
    %yf = arith.extf %y : f16 to f32
    %s = arith.addf %x, %yf : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}
"""

ELEMENTWISE = """
func.func @elementwise(%a: tensor<32x16xf16>, %b: tensor<32x16xf16>) -> tensor<32x16xf16> {
  %e = tensor.empty() : tensor<32x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<32x16xf16>, tensor<32x16xf16>) outs(%e : tensor<32x16xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %m = arith.mulf %x, %y : f16
    %c = arith.constant 0.5 : f16
    %s = arith.addf %m, %c : f16
    %t = math.exp %s : f16
    %i = arith.fptosi %t : f16 to i32
    %back = arith.sitofp %i : i32 to f16
    %u = arith.maximumf %t, %back : f16
    linalg.yield %u : f16
  } -> tensor<32x16xf16>
  return %r : tensor<32x16xf16>
}
"""

SOFTMAX = """
func.func @softmax(%x: tensor<16x100xf16>) -> tensor<16x100xf16> {
  %r = nn.softmax %x axis 1 : tensor<16x100xf16>
  return %r : tensor<16x100xf16>
}
"""

PROGRAMS = {"linear": LINEAR, "elementwise": ELEMENTWISE, "softmax": SOFTMAX}


def _unit(text: str) -> CudaTranslationUnit:
    module = irkit.parse(text)
    lower(module, "lower-to-cuda")
    return emit_cuda(module)


def _print_cuda(text: str) -> str:
    return _unit(text).source


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_f16_is_stored_as_half_with_its_header(name: str) -> None:
    unit = _unit(PROGRAMS[name])
    assert HALF_INCLUDE in unit.source
    assert "__half" in unit.source
    # Each program the runtime compiles on its own includes the header too.
    assert unit.programs
    for program in unit.programs:
        assert ("__half" in program.source) == (HALF_INCLUDE in program.source)
    assert any("__half" in program.source for program in unit.programs)


def test_f32_sources_include_no_half_header() -> None:
    f32 = SOFTMAX.replace("f16", "f32")
    assert HALF_INCLUDE not in _print_cuda(f32)


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH (CI has it)")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_f16_kernels_compile_with_nvcc(name: str, tmp_path: Path) -> None:
    assert NVCC is not None
    source = tmp_path / f"{name}.cu"
    source.write_text(_print_cuda(PROGRAMS[name]))
    done = subprocess.run(
        [
            NVCC,
            "-arch=sm_90",
            "-cubin",
            "-std=c++17",
            "-o",
            str(tmp_path / "k.cubin"),
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_include_dirs_start_with_cuda_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cuda_fp16.h").write_text("// a toolkit's header\n")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    assert cuda_runtime.cuda_include_dirs()[0] == str(tmp_path / "include")


def test_nvrtc_without_headers_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cuda_runtime, "cuda_include_dirs", lambda: [])
    with pytest.raises(CudaCompileError, match=r"cuda_fp16\.h.*\$CUDA_HOME"):
        cuda_runtime._compile_with_nvrtc(_print_cuda(SOFTMAX), "sm_90")


GPU_REASON = gpu_unavailable_reason()


@pytest.mark.gpu
@pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_f16_programs_run_on_the_gpu(name: str) -> None:
    """Against the reference interpreter, NumPy arrays in and out."""
    rng = np.random.default_rng(0)
    module = irkit.parse(PROGRAMS[name])
    compiled = irkit.compile(PROGRAMS[name], target="cuda")
    (function,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    shapes = [arg.type.get_shape() for arg in function.body.block.args]
    args = [(rng.standard_normal(shape) * 0.5).astype(np.float16) for shape in shapes]
    got = compiled(*args)
    got = got[0] if isinstance(got, tuple | list) else got
    (want,) = interpret(module, *args)
    np.testing.assert_allclose(
        np.asarray(got, dtype=np.float32),
        np.asarray(want, dtype=np.float32),
        rtol=2e-3,
        atol=2e-3,
    )
