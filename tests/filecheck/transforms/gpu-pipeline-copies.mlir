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

// Left alone: a copy loop that is not unrolled (its stage would live in local
// memory, not registers).

// CHECK-LABEL: func.func @rolled_copy
// CHECK-NOT:     private(
func.func @rolled_copy(%a: memref<6xf32>, %out: memref<2xf32> {irkit.output}) {
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
      }
      gpu.barrier
      gpu.barrier
    }
    gpu.terminator
  }
  return
}
