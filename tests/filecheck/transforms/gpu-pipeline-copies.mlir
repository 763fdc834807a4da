// RUN: irkit-opt %s --split-input-file -p gpu-pipeline-copies | filecheck %s

// A K loop of three steps whose body starts with a copy of a 2-element tile
// (one round per thread) into workgroup memory: the first step's load moves
// before the loop into a private stage, each step stores the stage, and the
// next step's load follows the barrier, guarded by next < 6.

// CHECK-LABEL: func.func @k_loop
// CHECK:         private(%[[STAGE:.*]] : memref<1xf32, #gpu.address_space<private>>) {
// CHECK:           scf.for %[[R0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[AT0:.*]] = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%[[C0:.*]], %{{.*}})
// CHECK-NEXT:        %[[FIRST:.*]] = memref.load %{{.*}}[%[[AT0]]] : memref<6xf32>
// CHECK-NEXT:        memref.store %[[FIRST]], %[[STAGE]][%[[R0]]]
// CHECK-NEXT:      } {irkit.unroll}
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %[[STEP:.*]] {
// CHECK-NEXT:        scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          %[[STAGED:.*]] = memref.load %[[STAGE]][%[[R]]]
// CHECK-NEXT:          memref.store %[[STAGED]], %{{.*}}[%{{.*}}] : memref<2xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT:        %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[MORE]] {
// CHECK-NEXT:          scf.for %[[R2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            %[[AT:.*]] = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%[[NEXT]], %{{.*}})
// CHECK-NEXT:            %[[NEW:.*]] = memref.load %{{.*}}[%[[AT]]] : memref<6xf32>
// CHECK-NEXT:            memref.store %[[NEW]], %[[STAGE]][%[[R2]]]
// CHECK-NEXT:          } {irkit.unroll}
// CHECK-NEXT:        }
// CHECK-NEXT:        arith.subi
// CHECK-NEXT:        memref.load %{{.*}} : memref<2xf32, #gpu.address_space<workgroup>>
func.func @k_loop(%a: memref<6xf32>, %out: memref<2x3xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) workgroup(%w : memref<2xf32, #gpu.address_space<workgroup>>) {
    scf.for %k = %c0 to %c6 step %c2 {
      scf.for %r = %c0 to %c1 step %c1 {
        %at = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%k, %tx)
        %x = memref.load %a[%at] : memref<6xf32>
        memref.store %x, %w[%tx] : memref<2xf32, #gpu.address_space<workgroup>>
      } {irkit.unroll}
      gpu.barrier
      %other = arith.subi %c1, %tx : index
      %v = memref.load %w[%other] : memref<2xf32, #gpu.address_space<workgroup>>
      %step = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%k)
      memref.store %v, %out[%tx, %step] : memref<2x3xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: the launch also writes the memory the copy reads, so reading it
// a step early could see an older value.

// CHECK-LABEL: func.func @source_written
// CHECK-NOT:     private(
func.func @source_written(%a: memref<6xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) workgroup(%w : memref<2xf32, #gpu.address_space<workgroup>>) {
    scf.for %k = %c0 to %c6 step %c2 {
      scf.for %r = %c0 to %c1 step %c1 {
        %at = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%k, %tx)
        %x = memref.load %a[%at] : memref<6xf32>
        memref.store %x, %w[%tx] : memref<2xf32, #gpu.address_space<workgroup>>
      } {irkit.unroll}
      gpu.barrier
      %v = memref.load %w[%c0] : memref<2xf32, #gpu.address_space<workgroup>>
      %next = arith.addi %k, %c2 : index
      %ahead = arith.addi %next, %tx : index
      %in = arith.cmpi slt, %ahead, %c6 : index
      scf.if %in {
        memref.store %v, %a[%ahead] : memref<6xf32>
      }
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: a rolled copy nest staging more elements a thread (128) than
// `max-staged-elements` (64): unrolled, its stage would take too many
// registers; rolled, it would live in local memory.

// CHECK-LABEL: func.func @rolled_copy
// CHECK-NOT:     private(
// CHECK-NOT:     irkit.unroll
func.func @rolled_copy(%a: memref<6xf32>, %out: memref<2xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) workgroup(%w : memref<2xf32, #gpu.address_space<workgroup>>) {
    scf.for %k = %c0 to %c6 step %c2 {
      scf.for %r = %c0 to %c128 step %c1 {
        %at = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%k, %tx)
        %x = memref.load %a[%at] : memref<6xf32>
        memref.store %x, %w[%tx] : memref<2xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// An implicit GEMM's K loop, as `linalg-tile-for-gpu{fuse-producers}` and
// `gpu-promote-shared` stage it: a rolled nest (2 x 2 per thread) gathers a
// predicated value (zero outside the input's 4 columns) into workgroup
// memory, a barrier, an unrolled copy of the weights, a barrier, compute.
// Both are pipelined: the nest is unrolled, its stage is 2x2 and holds the
// selected value; the prefetch follows the second barrier. The pixel's
// column (`p mod 4`, p = 2 * tx + j) varies with the nest's `j` but not with
// `k`: the first step's nest stores it into a table of 2 (indexed by `j`
// alone), the next steps' read it instead of dividing again. The tap
// (`k + i`) varies with `k`: computed per step.

// CHECK-LABEL: func.func @gathered_nest
// CHECK:         private(%[[STAGE:.*]] : memref<2x2xf32, #gpu.address_space<private>>, %[[WSTAGE:.*]] : memref<2xf32, #gpu.address_space<private>>, %[[TABLE:.*]] : memref<2xindex, #gpu.address_space<private>>) {
// The first step's gather: the column computed, tabled and used.
// CHECK:           scf.for %[[I0:.*]] = {{.*}} {
// CHECK-NEXT:        scf.for %[[J0:.*]] = {{.*}} {
// CHECK:               %[[COL0:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1) mod 4)>(%{{.*}}, %[[J0]])
// CHECK-NEXT:          memref.store %[[COL0]], %[[TABLE]][%[[J0]]] : memref<2xindex, #gpu.address_space<private>>
// CHECK:               %[[PICK0:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:          memref.store %[[PICK0]], %[[STAGE]][%[[I0]], %[[J0]]]
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:      } {irkit.unroll}
// CHECK:           memref.store %{{.*}}, %[[WSTAGE]]
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %[[STEP:.*]] {
// CHECK-NEXT:        scf.for %[[I:.*]] = {{.*}} {
// CHECK-NEXT:          scf.for %[[J:.*]] = {{.*}} {
// CHECK-NEXT:            %[[STAGED:.*]] = memref.load %[[STAGE]][%[[I]], %[[J]]]
// CHECK-NEXT:            %[[AT:.*]] = affine.apply
// CHECK-NEXT:            memref.store %[[STAGED]], %{{.*}}[%[[I]], %[[AT]]] : memref<2x4xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:          } {irkit.unroll}
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        scf.for %[[R:.*]] = {{.*}} {
// CHECK-NEXT:          %[[WSTAGED:.*]] = memref.load %[[WSTAGE]][%[[R]]]
// CHECK-NEXT:          memref.store %[[WSTAGED]], %{{.*}} : memref<2x2xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addi %[[K]], %[[STEP]] : index
// CHECK-NEXT:        %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[MORE]] {
// CHECK-NEXT:          scf.for %[[I2:.*]] = {{.*}} {
// CHECK-NEXT:            scf.for %[[J2:.*]] = {{.*}} {
// CHECK-NEXT:              %[[TAP:.*]] = arith.addi %[[NEXT]], %[[I2]] : index
// CHECK-NEXT:              %[[COL:.*]] = memref.load %[[TABLE]][%[[J2]]] : memref<2xindex, #gpu.address_space<private>>
// CHECK-NEXT:              %[[SHIFTED:.*]] = arith.addi %[[COL]], %[[TAP]] : index
// CHECK-NOT:               mod 4
// CHECK:                   %[[PICK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:              memref.store %[[PICK]], %[[STAGE]][%[[I2]], %[[J2]]]
// CHECK-NEXT:            } {irkit.unroll}
// CHECK-NEXT:          } {irkit.unroll}
// CHECK:               memref.store %{{.*}}, %[[WSTAGE]]
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.load %{{.*}} : memref<2x4xf32, #gpu.address_space<workgroup>>
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
          %col = affine.apply affine_map<(d0, d1) -> ((d0 * 2 + d1) mod 4)>(%tx, %j)
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

// -----

// Left alone: a staging nest whose trip count differs between threads (a
// partial tile's, `(3 - ty) ceildiv 2`): its stage would have no static
// shape, so the K loop keeps its loads.

// CHECK-LABEL: func.func @partial_nest
// CHECK-NOT:     private(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[SIZE:.*]] step
func.func @partial_nest(%x: memref<4x8xf32>, %out: memref<2x2xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1) workgroup(%g : memref<2x4xf32, #gpu.address_space<workgroup>>) {
    %size = affine.apply affine_map<(d0) -> ((-d0 + 3) ceildiv 2)>(%ty)
    scf.for %k = %c0 to %c6 step %c2 {
      scf.for %i = %c0 to %size step %c1 {
        scf.for %j = %c0 to %c2 step %c1 {
          %row = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%ty, %i)
          %tap = arith.addi %k, %j : index
          %v = memref.load %x[%row, %tap] : memref<4x8xf32>
          memref.store %v, %g[%j, %row] : memref<2x4xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %a = memref.load %g[%c0, %tx] : memref<2x4xf32, #gpu.address_space<workgroup>>
      %step = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%k)
      memref.store %a, %out[%tx, %step] : memref<2x2xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
