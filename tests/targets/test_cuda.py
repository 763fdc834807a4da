"""The CUDA target: kernels printed from `lower-to-cuda` output compile with
nvcc for sm_90, and host functions become launch plans.

CI has nvcc but no GPU; running the kernels is `tests/end_to_end/test_lower_to_cuda.py`.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from irkit.diagnostics import DiagnosticError
from irkit.parsing import parse_module
from irkit.runtime import lower
from irkit.targets.cuda import AllocateBuffer, FreeBuffer, KernelLaunch, emit_cuda

NVCC = shutil.which("nvcc")

PROGRAMS = {
    "matmul_bias_softmax": """
func.func @main(%a: tensor<70x33xf32>, %b: tensor<33x130xf32>, %c: tensor<130xf32>) -> tensor<70x130xf32> {
  %m = nn.matmul %a, %b : tensor<70x33xf32>, tensor<33x130xf32> -> tensor<70x130xf32>
  %s = nn.add %m, %c : tensor<70x130xf32>, tensor<130xf32> -> tensor<70x130xf32>
  %r = nn.softmax %s axis 1 : tensor<70x130xf32>
  return %r : tensor<70x130xf32>
}""",
    "fused_chain": """
func.func @main(%a: tensor<1000xf32>, %b: tensor<1000xf32>, %c: tensor<1000xf32>) -> tensor<1000xf32> {
  %ab = nn.mul %a, %b : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  %s = nn.add %ab, %c : tensor<1000xf32>, tensor<1000xf32> -> tensor<1000xf32>
  %r = nn.relu %s : tensor<1000xf32>
  return %r : tensor<1000xf32>
}""",
}


def _unit(program: str):  # type: ignore[no-untyped-def]
    module = parse_module(program)
    lower(module, "lower-to-cuda")
    return emit_cuda(module)


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI has it)")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_printed_kernels_compile_for_sm_90(name: str, tmp_path: Path) -> None:
    unit = _unit(PROGRAMS[name])
    source = tmp_path / f"{name}.cu"
    source.write_text(unit.source)
    assert NVCC is not None
    done = subprocess.run(
        [NVCC, "-arch=sm_90", "-cubin", "-o", str(tmp_path / "k.cubin"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for kernel in unit.kernels:
        assert f" void {kernel}(" in unit.source or f") {kernel}(" in unit.source


def test_matmul_plan_launches_in_order_and_frees_what_it_allocates() -> None:
    unit = _unit(PROGRAMS["matmul_bias_softmax"])
    plan = unit.plans["main"]
    assert [a.name for a in plan.inputs] == ["a", "b", "c"]
    assert [a.is_output for a in plan.arguments] == [False, False, False, True]
    launches = [s for s in plan.steps if isinstance(s, KernelLaunch)]
    assert all(launch.kernel in unit.kernels for launch in launches)
    # The matmul: 64x64 block tiles of a 70x130 result, 16x16 threads.
    assert any(s.grid == (3, 2, 1) and s.block == (16, 16, 1) for s in launches)
    allocated = {s.buffer for s in plan.steps if isinstance(s, AllocateBuffer)}
    freed = {s.buffer for s in plan.steps if isinstance(s, FreeBuffer)}
    assert allocated == freed
    assert "__syncthreads();" in unit.source
    assert "__shared__ float" in unit.source


def test_a_host_op_the_plan_cannot_run_is_a_located_error() -> None:
    module = parse_module(
        """
func.func @main(%a: memref<4xf32>, %out: memref<4xf32> {irkit.output}) {
  "memref.copy"(%a, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}""",
        filename="host.mlir",
    )
    with pytest.raises(DiagnosticError) as caught:
        emit_cuda(module)
    message = str(caught.value)
    assert "host.mlir:3:3" in message
    assert "can only hold" in message
    assert "memref.copy" in message
