"""`gpu-kernel-outlining` keeps meaning on the grid emulator: hand-written
launches (several per function, values and views captured from above,
constants, workgroup memory, a global table) and random nn programs lowered
to `gpu.launch`es, before and after outlining."""

from __future__ import annotations

from pathlib import Path

from irkit.testing import assert_pass_preserves_semantics, check_pass, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_kernel_outlining import GpuKernelOutliningPass

PASS = GpuKernelOutliningPass()

TO_LAUNCHES = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,"
    "bufferize,"
    "linalg-tile-for-gpu{matmul-block=4,4,2 matmul-thread=2,2 elementwise-block=4},"
    "gpu-promote-shared,convert-linalg-to-loops,fold-memref-alias-ops,"
    "convert-parallel-loops-to-gpu"
)

LAUNCHES = """
memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, -2.0, 3.0, 0.5]>
func.func @main(%a: memref<8x4xf32>, %s: memref<4xf32>, %o: memref<8x4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %g = memref.get_global @weights : memref<4xf32>
  %t = memref.alloc() : memref<8x4xf32>
  %rows = memref.subview %a[2, 0] [4, 4] [1, 1] : memref<8x4xf32> to memref<4x4xf32, strided<[4, 1], offset: 8>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1) workgroup(%w : memref<4x5xf32, #gpu.address_space<workgroup>>) {
    %i = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%bx, %ty)
    %x = memref.load %a[%i, %tx] : memref<8x4xf32>
    %y = memref.load %g[%tx] : memref<4xf32>
    %p = arith.mulf %x, %y : f32
    memref.store %p, %w[%ty, %tx] : memref<4x5xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %q = memref.load %w[%tx, %ty] : memref<4x5xf32, #gpu.address_space<workgroup>>
    memref.store %q, %t[%i, %tx] : memref<8x4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %i = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%by, %bx)
    %x = memref.load %t[%i, %tx] : memref<8x4xf32>
    %r = arith.remui %bx, %c4 : index
    %v = memref.load %rows[%r, %tx] : memref<4x4xf32, strided<[4, 1], offset: 8>>
    %sc = memref.load %s[%tx] : memref<4xf32>
    %u = arith.addf %x, %v : f32
    %z = arith.mulf %u, %sc : f32
    memref.store %z, %o[%i, %tx] : memref<8x4xf32>
    gpu.terminator
  }
  memref.dealloc %t : memref<8x4xf32>
  return
}
"""


def test_outlining_hand_written_launches_keeps_meaning() -> None:
    assert_pass_preserves_semantics(PASS, LAUNCHES)


def test_outlining_filecheck_inputs_keeps_meaning() -> None:
    text = Path(__file__).parents[1] / "filecheck/transforms/gpu-kernel-outlining.mlir"
    for chunk in text.read_text().split("// -----"):
        if "@dynamic" not in chunk:  # its grid size is a random input
            assert_pass_preserves_semantics(PASS, chunk, trials=1)


def test_outlining_lowered_nn_programs_keeps_meaning() -> None:
    programs = nn_programs(max_ops=3, max_dim=4)
    check_pass(PASS, lowered(programs, TO_LAUNCHES))


def test_outlining_lowered_matmuls_with_shared_tiles_keeps_meaning() -> None:
    programs = nn_programs(max_ops=2, ops={"nn.matmul"}, max_dim=6)
    check_pass(PASS, lowered(programs, TO_LAUNCHES))
