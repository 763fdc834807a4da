// RUN: irkit-opt %s --split-input-file -p gpu-relayout-shared | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'gpu-relayout-shared{max-shared-bytes=64}' | filecheck %s --check-prefix=SMALL
// RUN: irkit-opt %s --split-input-file -p 'gpu-relayout-shared{max-shared-bytes=64 max-dynamic-shared-bytes=128}' | filecheck %s --check-prefix=DYNAMIC
// RUN: irkit-opt %s --split-input-file -p 'gpu-relayout-shared{max-shared-bytes=80 max-dynamic-shared-bytes=128}' | filecheck %s --check-prefix=STATIC

// Two threads read a B tile cyclically: thread %tx reads columns %tx + 2 * %j
// for %j < 4 in an unrolled loop. The buffer becomes 2 x (8 + 4): thread
// %tx's four columns are the chunk at %tx * 4 (index (j floordiv 4) * 8 +
// tx * 4 + j mod 4), and the copy's store goes through the same bijection of
// 0 .. 7, built from its index as a whole (the column %e mod 8 has no part
// the thread count divides).

// CHECK-LABEL: func.func @cyclic_columns
// CHECK:         workgroup(%[[W:.*]] : memref<2x12xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[COL:.*]] = affine.apply affine_map<(d0) -> (d0 mod 8)>
// CHECK-NEXT:      memref.load %{{.*}}[%{{.*}}, %[[COL]]] : memref<2x8xf32>
// CHECK-NEXT:      %[[AT:.*]] = affine.apply affine_map<()[s0] -> ((s0 floordiv 8) * 8 + (s0 mod 2) * 4 + (s0 floordiv 2) mod 4)>()[%[[COL]]]
// CHECK-NEXT:      memref.store %{{.*}}, %[[W]][%{{.*}}, %[[AT]]] : memref<2x12xf32, #gpu.address_space<workgroup>>
// CHECK:           gpu.barrier
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        affine.apply
// CHECK-NEXT:        %[[READ:.*]] = affine.apply affine_map<()[s0, s1] -> ((s1 floordiv 4) * 8 + s0 * 4 + s1 mod 4)>()[%{{.*}}, %[[J]]]
// CHECK-NEXT:        memref.load %[[W]][%{{.*}}, %[[READ]]] : memref<2x12xf32, #gpu.address_space<workgroup>>
// CHECK:           } {irkit.unroll}

// The 2 x 12 floats (96 bytes) do not fit in 64: left alone.
// SMALL-LABEL: func.func @cyclic_columns
// SMALL:         workgroup(%{{.*}} : memref<2x9xf32, #gpu.address_space<workgroup>>)
// SMALL-NOT:     chunked

// The launch's 72 bytes already pass a static limit of 64, so it is built
// for dynamic shared memory: it may grow to 96 within that budget, 128.
// DYNAMIC-LABEL: func.func @cyclic_columns
// DYNAMIC:         workgroup(%{{.*}} : memref<2x12xf32, #gpu.address_space<workgroup>>)

// Within a static limit of 80 it stays static: 96 bytes would not fit.
// STATIC-LABEL: func.func @cyclic_columns
// STATIC:         workgroup(%{{.*}} : memref<2x9xf32, #gpu.address_space<workgroup>>)
func.func @cyclic_columns(%b: memref<2x8xf32>, %out: memref<2x8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) workgroup(%w : memref<2x9xf32, #gpu.address_space<workgroup>>) {
    scf.for %e = %tx to %c8 step %c2 {
      %row = affine.apply affine_map<(d0) -> (d0 floordiv 8)>(%e)
      %col = affine.apply affine_map<(d0) -> (d0 mod 8)>(%e)
      %x = memref.load %b[%row, %col] : memref<2x8xf32>
      memref.store %x, %w[%row, %col] : memref<2x9xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    scf.for %j = %c0 to %c4 step %c1 {
      %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%tx, %j)
      %v = memref.load %w[%c0, %col] : memref<2x9xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0, %col] : memref<2x8xf32>
    } {irkit.unroll}
    gpu.terminator
  }
  return
}

// -----

// Left alone: the reading loop is not unrolled, so its four loads would not
// end up side by side.

// CHECK-LABEL: func.func @rolled
// CHECK:         workgroup(%{{.*}} : memref<1x8xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT:     chunked
func.func @rolled(%out: memref<8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) workgroup(%w : memref<1x8xf32, #gpu.address_space<workgroup>>) {
    scf.for %j = %c0 to %c4 step %c1 {
      %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%tx, %j)
      %v = memref.load %w[%c0, %col] : memref<1x8xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%col] : memref<8xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: a store whose column may be 8 (%tx + 7), outside the 0 .. 7 the
// bijection is defined on.

// CHECK-LABEL: func.func @store_beyond_reads
// CHECK:         workgroup(%{{.*}} : memref<1x9xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT:     chunked
func.func @store_beyond_reads(%out: memref<8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) workgroup(%w : memref<1x9xf32, #gpu.address_space<workgroup>>) {
    %far = affine.apply affine_map<(d0) -> (d0 + 7)>(%tx)
    memref.store %f, %w[%c0, %far] : memref<1x9xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.for %j = %c0 to %c4 step %c1 {
      %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%tx, %j)
      %v = memref.load %w[%c0, %col] : memref<1x9xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%col] : memref<8xf32>
    } {irkit.unroll}
    gpu.terminator
  }
  return
}
