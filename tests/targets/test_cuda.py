"""The CUDA target: kernels printed from `lower-to-cuda` output compile with
nvcc for sm_90, and host functions become launch plans.

CI has nvcc but no GPU; running the kernels is `tests/end_to_end/test_lower_to_cuda.py`.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import irkit
from irkit.diagnostics import DiagnosticError
from irkit.parsing import parse_module
from irkit.runtime import lower
from irkit.runtime.cache import ArtifactCache
from irkit.runtime.cuda import (
    CudaUnavailableError,
    compile_unit,
    cuda_compiler,
    gpu_unavailable_reason,
)
from irkit.targets.cuda import (
    AllocateBuffer,
    CudaProgram,
    CudaTranslationUnit,
    FreeBuffer,
    KernelLaunch,
    StatusArgument,
    describe_plans,
    emit_cuda,
)

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


def _unit(program: str) -> CudaTranslationUnit:
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
    # The matmul: 128x128 block tiles clamped to the 70 rows of a 70x130
    # result, 8x8 per thread: 2 blocks of 16 x ceil(70 / 8) threads.
    assert any(s.grid == (2, 1, 1) and s.block == (16, 9, 1) for s in launches)
    # The bias add and softmax: one row group, a block per row; rows of 130
    # get one warp (reduction-block=0: about 8 elements per thread, at least 32).
    assert any(s.grid == (70, 1, 1) and s.block == (32, 1, 1) for s in launches)
    allocated = {s.buffer for s in plan.steps if isinstance(s, AllocateBuffer)}
    freed = {s.buffer for s in plan.steps if isinstance(s, FreeBuffer)}
    assert allocated == freed
    assert "__syncthreads();" in unit.source
    assert "__shared__ __align__(16) float" in unit.source


def test_kernel_assertions_record_their_number_in_the_status_word() -> None:
    # torch-mlir's embedding asserts its indices are in range inside the
    # gather, which lands in a kernel.
    corpus = Path(__file__).parents[1] / "corpus" / "torch_mlir"
    unit = _unit((corpus / "embedding.mlir").read_text())
    assert unit.assertions == (
        "index must be smaller than dim size",
        "index must be larger or equal to 0",
    )
    assert "atomicCAS(status, 0, 1);" in unit.source
    assert "atomicCAS(status, 0, 2);" in unit.source
    assert "int32_t *__restrict__ status)" in unit.source
    (launch,) = [
        s for s in unit.plans["embedding"].steps if isinstance(s, KernelLaunch)
    ]
    assert launch.arguments[-1] == StatusArgument()
    assert "&status)" in describe_plans(unit)
    # A kernel without assertions takes no status word.
    plain = _unit(PROGRAMS["matmul_bias_softmax"])
    assert "status" not in plain.source
    assert not any(
        isinstance(argument, StatusArgument)
        for step in plain.plans["main"].steps
        if isinstance(step, KernelLaunch)
        for argument in step.arguments
    )


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


def test_a_symbol_cannot_end_the_launch_plan_comment() -> None:
    module = parse_module(
        """
func.func @"x\\0A#error injected\\5C"(%out: memref<4xf32> {irkit.output}) {
  return
}"""
    )
    printed = describe_plans(emit_cuda(module))
    assert all(line.startswith("//") for line in printed.splitlines())
    assert not printed.rstrip("\n").endswith("\\")
    assert '@"x\\0A#error injected\\5C"' in printed


FILECHECK_SOURCES = sorted(
    path
    for path in (Path(__file__).parents[1] / "filecheck" / "targets" / "cuda").glob(
        "*.mlir"
    )
    if path.stem != "invalid"
)


@pytest.mark.parametrize("path", FILECHECK_SOURCES, ids=lambda path: path.stem)
def test_hand_written_kernels_compile_with_nvrtc(
    path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The runtime prefers NVRTC, which has no C library headers: the prelude
    must stand in for them (nvcc compiles these in the FileCheck tests)."""
    monkeypatch.setenv("IRKIT_CUDA_COMPILER", "nvrtc")
    try:
        compiler = cuda_compiler()
    except CudaUnavailableError as error:
        pytest.skip(f"NVRTC is not loadable, printed CUDA NOT compiled by it: {error}")
    unit = emit_cuda(parse_module(path.read_text()))
    cache = ArtifactCache.open(tmp_path)
    compiler.compile(cache, unit.source, "sm_90")
    # What the runtime compiles: each program on its own.
    cubins = compile_unit(unit, "sm_90", cache, compiler)
    assert set(cubins) == set(unit.kernels)


# Three kernels: `bump` and `read_back` exchange data through the mutable
# global @counters (and read the constant @weights); `scaled` reads @weights
# only, and is the only one that shuffles.
SHARED_STATE = """
module attributes {gpu.container_module} {
  func.func @main(%out: memref<4xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@bump blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    gpu.launch_func @k::@read_back blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    return
  }
  gpu.module @k {
    memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    memref.global "private" @counters : memref<4xf32> = dense<0.0>
    gpu.func @bump() kernel {
      %tx = gpu.thread_id x
      %w = memref.get_global @weights : memref<4xf32>
      %c = memref.get_global @counters : memref<4xf32>
      %v = memref.load %w[%tx] : memref<4xf32>
      memref.store %v, %c[%tx] : memref<4xf32>
      gpu.return
    }
    gpu.func @read_back(%out: memref<4xf32>) kernel {
      %tx = gpu.thread_id x
      %c = memref.get_global @counters : memref<4xf32>
      %v = memref.load %c[%tx] : memref<4xf32>
      memref.store %v, %out[%tx] : memref<4xf32>
      gpu.return
    }
    gpu.func @scaled(%out: memref<4xf32>) kernel {
      %tx = gpu.thread_id x
      %o1 = arith.constant 1 : i32
      %w32 = arith.constant 32 : i32
      %w = memref.get_global @weights : memref<4xf32>
      %v = memref.load %w[%tx] : memref<4xf32>
      %s, %valid = gpu.shuffle xor %v, %o1, %w32 : f32
      memref.store %s, %out[%tx] : memref<4xf32>
      gpu.return
    }
  }
}
"""


def _kernel_text(source: str, kernel: str) -> str:
    """The printed kernel `kernel`: from its signature to its closing brace."""
    start = source.index(f" {kernel}(")
    start = source.rindex("\n", 0, start) + 1
    return source[start : source.index("\n}\n", start) + 3]


def test_each_kernel_is_a_program_of_its_own_with_only_what_it_uses() -> None:
    unit = _unit(PROGRAMS["matmul_bias_softmax"])
    assert len(unit.kernels) > 1
    assert [program.kernels for program in unit.programs] == [
        (kernel,) for kernel in unit.kernels
    ]
    for program in unit.programs:
        (kernel,) = program.kernels
        # The kernel exactly as the whole unit prints it, and no other.
        assert _kernel_text(program.source, kernel) == _kernel_text(unit.source, kernel)
        assert program.source.count("__global__") == 1
        assert "typedef int int32_t;" in program.source
    shuffling = [p for p in unit.programs if "__shfl" in p.source]
    others = [p for p in unit.programs if "__shfl" not in p.source]
    assert shuffling
    assert others
    assert all("irkit_lane_id(void)" in p.source for p in shuffling)
    assert not any("irkit_lane_id" in p.source for p in others)


def test_kernels_sharing_a_mutable_global_share_a_program() -> None:
    unit = emit_cuda(parse_module(SHARED_STATE))
    shared, alone = unit.programs
    assert shared.kernels == ("k__bump", "k__read_back")
    assert alone.kernels == ("k__scaled",)
    # One copy of @counters for the two kernels that exchange data through
    # it; the constant @weights is copied into each program that reads it.
    assert "__device__ static float counters[4]" in shared.source
    assert "__device__ static const float weights[4]" in shared.source
    assert "counters" not in alone.source
    assert "__device__ static const float weights[4]" in alone.source
    assert "irkit_lane_id" in alone.source
    assert "irkit_lane_id" not in shared.source


def test_a_unit_without_programs_compiles_whole() -> None:
    unit = _unit(PROGRAMS["fused_chain"])
    whole = CudaTranslationUnit(unit.source, unit.kernels, unit.plans)
    assert whole.compiled_programs() == (CudaProgram(unit.source, unit.kernels),)
    assert unit.compiled_programs() == unit.programs


SHUFFLES = """
module attributes {gpu.container_module} {
  func.func @main(%a: memref<64xi32>, %out: memref<8x64xi32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %minus = arith.constant -3 : i32
    %far = arith.constant 40 : i32
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xi32>, %out : memref<8x64xi32>, %minus : i32, %far : i32)
    return
  }
  gpu.module @k {
    gpu.func @k(%a: memref<64xi32>, %out: memref<8x64xi32>, %minus: i32, %far: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %o1 = arith.constant 1 : i32
      %o5 = arith.constant 5 : i32
      %w32 = arith.constant 32 : i32
      %w16 = arith.constant 16 : i32
      %w20 = arith.constant 20 : i32
      %invalid = arith.constant 1000000 : i32
      %tx = gpu.thread_id x
      %x = memref.load %a[%tx] : memref<64xi32>
      %r0, %v0 = gpu.shuffle xor %x, %o5, %w32 : i32
      %r1, %v1 = gpu.shuffle down %x, %o5, %w20 : i32
      %r2, %v2 = gpu.shuffle up %x, %o1, %w16 : i32
      %r3, %v3 = gpu.shuffle idx %x, %o5, %w32 : i32
      %r4, %v4 = gpu.shuffle down %x, %minus, %w32 : i32
      %r5, %v5 = gpu.shuffle xor %x, %far, %w32 : i32
      %valid0 = arith.extui %v0 : i1 to i32
      %valid1 = arith.extui %v1 : i1 to i32
      %valid2 = arith.extui %v2 : i1 to i32
      %valid4 = arith.extui %v4 : i1 to i32
      %flags01 = arith.addi %valid0, %valid1 : i32
      %flags = arith.addi %flags01, %valid2 : i32
      %flags4 = arith.muli %valid4, %invalid : i32
      %all = arith.addi %flags, %flags4 : i32
      memref.store %r0, %out[%c0, %tx] : memref<8x64xi32>
      memref.store %r1, %out[%c1, %tx] : memref<8x64xi32>
      memref.store %r2, %out[%c2, %tx] : memref<8x64xi32>
      memref.store %r3, %out[%c3, %tx] : memref<8x64xi32>
      memref.store %r4, %out[%c4, %tx] : memref<8x64xi32>
      memref.store %r5, %out[%c5, %tx] : memref<8x64xi32>
      memref.store %all, %out[%c6, %tx] : memref<8x64xi32>
      %v3i = arith.extui %v3 : i1 to i32
      memref.store %v3i, %out[%c7, %tx] : memref<8x64xi32>
      gpu.return
    }
  }
}
"""


@pytest.mark.gpu
def test_shuffles_on_the_gpu_match_the_grid_emulator() -> None:
    """MLIR's shuffle semantics, `valid` included, for constant and dynamic
    offsets (negative, beyond the warp) and widths below the warp size."""
    reason = gpu_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    import numpy as np

    values = np.arange(100, 164, dtype=np.int32)
    want = irkit.interpret(parse_module(SHUFFLES), "main", values)
    got = irkit.compile(parse_module(SHUFFLES), target="cuda")(values)
    np.testing.assert_array_equal(got[0], want[0])


@pytest.mark.gpu
def test_kernels_sharing_a_mutable_global_see_one_copy_of_it() -> None:
    """`read_back` reads what `bump` wrote to @counters: the two kernels
    are compiled and loaded together."""
    reason = gpu_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    import numpy as np

    want = irkit.interpret(parse_module(SHARED_STATE), "main")
    got = irkit.compile(SHARED_STATE, target="cuda")()
    np.testing.assert_array_equal(got[0], [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(got[0], want[0])
