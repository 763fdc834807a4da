// RUN: irkit-opt %s -p 'gpu-pipeline-copies{registers-per-block=116 min-blocks-per-sm=1}' | filecheck %s --check-prefix=BOTH
// RUN: irkit-opt %s -p 'gpu-pipeline-copies{registers-per-block=110 min-blocks-per-sm=1}' | filecheck %s --check-prefix=WEIGHTS
// RUN: irkit-opt %s -p 'gpu-pipeline-copies{registers-per-block=100 min-blocks-per-sm=1}' | filecheck %s --check-prefix=NONE

// The register budget: 2 threads a block, so a thread's share is half of
// `registers-per-block`; 48 of it are reserved, and the gather's tabled
// pixel column (2 x 64-bit: 4 registers) is held whether its copy is
// pipelined or not. The gather's stage takes 4, the weights' 2, taken in
// order while they fit: a share of 58 leaves 6 (both), 55 leaves 3 (the
// gather's 4 do not fit, the weights' 2 do), 50 leaves none. Left alone, the
// gather's nest stays rolled and its division in the K loop.

// BOTH:          private(%{{.*}} : memref<2x2xf32, #gpu.address_space<private>>, %{{.*}} : memref<2xf32, #gpu.address_space<private>>, %{{.*}} : memref<2xindex, #gpu.address_space<private>>)

// WEIGHTS:       private(%[[STAGE:.*]] : memref<2xf32, #gpu.address_space<private>>) {
// WEIGHTS-NEXT:    scf.for
// WEIGHTS:           memref.store %{{.*}}, %[[STAGE]]
// WEIGHTS:         scf.for %[[K:.*]] = %{{.*}} to
// WEIGHTS-NEXT:      scf.for %{{.*}} {
// WEIGHTS-NEXT:        scf.for %{{.*}} {
// WEIGHTS:               arith.divui
// WEIGHTS:               memref.load %{{.*}} : memref<4x8xf32>
// WEIGHTS:             }
// WEIGHTS-NEXT:      }
// WEIGHTS-NEXT:      gpu.barrier

// NONE-NOT:      private(
// NONE:          scf.for %[[R:r[_0-9]*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// NONE-NEXT:       %[[TAP:.*]] = arith.addi %{{.*}}, %[[R]] : index
// NONE-NEXT:       memref.load %{{.*}}[%[[TAP]], %{{.*}}] : memref<8x2xf32>

func.func @gathered_nest(%x: memref<4x8xf32>, %wt: memref<8x2xf32>, %out: memref<2x2xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) workgroup(%g : memref<2x4xf32, #gpu.address_space<workgroup>>, %ws : memref<2x2xf32, #gpu.address_space<workgroup>>) {
    scf.for %k = %c0 to %c6 step %c2 {
      scf.for %i = %c0 to %c2 step %c1 {
        scf.for %j = %c0 to %c2 step %c1 {
          %tap = arith.addi %k, %i : index
          %pixel = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%tx, %j)
          %col = arith.divui %pixel, %c4 : index
          %shifted = arith.addi %col, %tap : index
          %inside = arith.cmpi ult, %shifted, %c4 : index
          %clamped = arith.select %inside, %shifted, %c0 : index
          %v = memref.load %x[%clamped, %tap] : memref<4x8xf32>
          %picked = arith.select %inside, %v, %zero : f32
          %at = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%tx, %j)
          memref.store %picked, %g[%i, %at] : memref<2x4xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      scf.for %r = %c0 to %c2 step %c1 {
        %tap = arith.addi %k, %r : index
        %e = memref.load %wt[%tap, %tx] : memref<8x2xf32>
        memref.store %e, %ws[%r, %tx] : memref<2x2xf32, #gpu.address_space<workgroup>>
      } {irkit.unroll}
      gpu.barrier
      %a = memref.load %g[%c0, %tx] : memref<2x4xf32, #gpu.address_space<workgroup>>
      %b = memref.load %ws[%c0, %tx] : memref<2x2xf32, #gpu.address_space<workgroup>>
      %p = arith.mulf %a, %b : f32
      %step = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%k)
      memref.store %p, %out[%tx, %step] : memref<2x2xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
