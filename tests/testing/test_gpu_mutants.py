"""The semantic checker catches wrong passes on GPU kernels (issue 3, item 6).

The kernel is a tiled matmul staging both operands through workgroup memory
with two barriers per tile. Deleting the barriers does not change the numbers
the lockstep emulator computes, but the emulator reports the data race it
opens, and the checker blames the pass; reading a neighbouring shared slot
changes the numbers.
"""

from __future__ import annotations

import pytest

from irkit.testing import SemanticsMismatch, assert_pass_preserves_semantics
from tests.testing.mutants import DropGpuBarriersPass, WrongSharedSlotPass

TILED_MATMUL = """
func.func @main(%A: memref<8x8xf32>, %B: memref<8x8xf32>,
                %C: memref<8x8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1)
             workgroup(%As : memref<4x4xf32, #gpu.address_space<workgroup>>,
                       %Bs : memref<4x4xf32, #gpu.address_space<workgroup>>) {
    %r0 = arith.muli %by, %c4 : index
    %row = arith.addi %r0, %ty : index
    %q0 = arith.muli %bx, %c4 : index
    %col = arith.addi %q0, %tx : index
    %acc = scf.for %t = %c0 to %c2 step %c1 iter_args(%a = %zero) -> (f32) {
      %k0 = arith.muli %t, %c4 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      %x = memref.load %A[%row, %ka] : memref<8x8xf32>
      memref.store %x, %As[%ty, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
      %y = memref.load %B[%kb, %col] : memref<8x8xf32>
      memref.store %y, %Bs[%ty, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %a2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %a) -> (f32) {
        %p = memref.load %As[%ty, %k] : memref<4x4xf32, #gpu.address_space<workgroup>>
        %q = memref.load %Bs[%k, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
        %m = arith.mulf %p, %q : f32
        %s2 = arith.addf %s, %m : f32
        scf.yield %s2 : f32
      }
      gpu.barrier
      scf.yield %a2 : f32
    }
    memref.store %acc, %C[%row, %col] : memref<8x8xf32>
    gpu.terminator
  }
  return
}
"""


def test_a_correct_pass_keeps_the_kernel_meaning() -> None:
    result = assert_pass_preserves_semantics("cse", TILED_MATMUL)
    assert str(result).count("gpu.barrier") == 2


def test_dropping_barriers_is_caught_as_a_race() -> None:
    with pytest.raises(SemanticsMismatch) as caught:
        assert_pass_preserves_semantics(DropGpuBarriersPass(), TILED_MATMUL)
    message = str(caught.value)
    assert message.startswith(
        "pass 'test-drop-gpu-barriers' changed the semantics of @main: it fails "
        "after the pass: 'memref.load' op data race on workgroup memory: "
        "thread (1,0,0) of block (0,0,0) reads element [0, 0] that thread "
        "(0,0,0) wrote with no gpu.barrier in between"
    )
    assert "gpu.barrier" not in caught.value.after


def test_reading_the_wrong_shared_slot_is_caught() -> None:
    with pytest.raises(SemanticsMismatch) as caught:
        assert_pass_preserves_semantics(WrongSharedSlotPass(), TILED_MATMUL)
    error = caught.value
    assert str(error).startswith(
        "pass 'test-wrong-shared-slot' changed the semantics of @main: result #0: "
    )
    assert "max abs error" in str(error)
    assert "arith.remui" in error.after
