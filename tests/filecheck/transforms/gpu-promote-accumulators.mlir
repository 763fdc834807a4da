// RUN: irkit-opt %s --split-input-file -p gpu-promote-accumulators | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'gpu-promote-accumulators{max-unroll=8}' | filecheck %s --check-prefix=BUDGET

// A thread's 2x2 output tile of a matmul: copied into a private attribution
// before the K loop, accumulated there, copied back after it; the copies and
// the loops indexing the tile are marked for full unrolling.

// CHECK-LABEL: func.func @matmul_tile
// CHECK:         gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in ({{.*}}) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in ({{.*}}) private(%[[ACC:.*]] : memref<2x2xf32, #gpu.address_space<private>>) {
// CHECK:           %[[R:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 * 4 + s1 * 2)>()[%[[BY]], %[[TY]]]
// CHECK-NEXT:      %[[C:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 * 4 + s1 * 2)>()[%[[BX]], %[[TX]]]
// CHECK:           scf.for %[[P0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        scf.for %[[P1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          %[[I:.*]] = arith.addi %[[R]], %[[P0]] : index
// CHECK-NEXT:          %[[J:.*]] = arith.addi %[[C]], %[[P1]] : index
// CHECK-NEXT:          %[[V:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<8x8xf32>
// CHECK-NEXT:          memref.store %[[V]], %[[ACC]][%[[P0]], %[[P1]]] : memref<2x2xf32, #gpu.address_space<private>>
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:      } {irkit.unroll}
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[D0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          scf.for %[[D2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            scf.for %[[D1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:                   %[[OLD:.*]] = memref.load %[[ACC]][%[[D0]], %[[D1]]]
// CHECK:                   memref.store %{{.*}}, %[[ACC]][%[[D0]], %[[D1]]]
// CHECK-NEXT:            } {irkit.unroll}
// CHECK-NEXT:          } {irkit.unroll}
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.for %[[Q0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        scf.for %[[Q1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          %[[I2:.*]] = arith.addi %[[R]], %[[Q0]] : index
// CHECK-NEXT:          %[[J2:.*]] = arith.addi %[[C]], %[[Q1]] : index
// CHECK-NEXT:          %[[W:.*]] = memref.load %[[ACC]][%[[Q0]], %[[Q1]]]
// CHECK-NEXT:          memref.store %[[W]], %{{.*}}[%[[I2]], %[[J2]]] : memref<8x8xf32>
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:      } {irkit.unroll}
// CHECK-NEXT:      gpu.terminator

// The nest around the accesses runs 2x4x2 = 16 iterations: over a budget of
// 8 it stays rolled, the copies (4 iterations) are still unrolled.
// BUDGET-LABEL: func.func @matmul_tile
// BUDGET:           } {irkit.unroll}
// BUDGET-NEXT:    } {irkit.unroll}
// BUDGET-NEXT:    scf.for %{{.*}} = %c0 to %c8 step %c4 {
// BUDGET-NEXT:      gpu.barrier
// BUDGET-NOT:       irkit.unroll
// BUDGET:           gpu.barrier
// BUDGET-NEXT:    }
// BUDGET-NEXT:    scf.for
func.func @matmul_tile(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %out: memref<8x8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1) {
    %by0 = gpu.block_id y
    %b0 = arith.muli %by0, %c4 : index
    %bx0 = gpu.block_id x
    %b1 = arith.muli %bx0, %c4 : index
    scf.for %k = %c0 to %c8 step %c4 {
      gpu.barrier
      %ty0 = gpu.thread_id y
      %t0 = arith.muli %ty0, %c2 : index
      %tx0 = gpu.thread_id x
      %t1 = arith.muli %tx0, %c2 : index
      scf.for %d0 = %c0 to %c2 step %c1 {
        scf.for %d2 = %c0 to %c4 step %c1 {
          scf.for %d1 = %c0 to %c2 step %c1 {
            %i = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)>()[%b0, %t0, %d0]
            %kk = arith.addi %k, %d2 : index
            %j = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)>()[%b1, %t1, %d1]
            %x = memref.load %a[%i, %kk] : memref<8x8xf32>
            %y = memref.load %b[%kk, %j] : memref<8x8xf32>
            %acc = memref.load %out[%i, %j] : memref<8x8xf32>
            %p = arith.mulf %x, %y : f32
            %s = arith.addf %p, %acc : f32
            %i2 = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)>()[%b0, %t0, %d0]
            %j2 = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)>()[%b1, %t1, %d1]
            memref.store %s, %out[%i2, %j2] : memref<8x8xf32>
          }
        }
      }
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: every thread of the block updates the same element (the base
// does not depend on thread y, with 2 threads along y), so the element is
// not private to a thread.

// CHECK-LABEL: func.func @shared_between_threads
// CHECK-NOT:     private(
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<8xf32>
func.func @shared_between_threads(%a: memref<8xf32>, %out: memref<8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c2, %sz = %c1) {
    scf.for %k = %c0 to %c8 step %c1 {
      %x = memref.load %a[%k] : memref<8xf32>
      %acc = memref.load %out[%c0] : memref<8xf32>
      %s = arith.addf %x, %acc : f32
      memref.store %s, %out[%c0] : memref<8xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: the tile's extent depends on a partial tile (`affine.min`), so
// its loop has no constant trip count.

// CHECK-LABEL: func.func @partial_tile
// CHECK-NOT:     private(
// CHECK-NOT:     irkit.unroll
func.func @partial_tile(%a: memref<6xf32>, %out: memref<6x6xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %n = affine.min affine_map<(d0) -> (4, -d0 + 6)>(%tx)
    scf.for %k = %c0 to %c6 step %c1 {
      scf.for %i = %c0 to %n step %c1 {
        %x = memref.load %a[%k] : memref<6xf32>
        %acc = memref.load %out[%tx, %i] : memref<6x6xf32>
        %s = arith.addf %x, %acc : f32
        memref.store %s, %out[%tx, %i] : memref<6x6xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: another buffer that may alias the output (two arguments, neither
// an irkit.output) is written in the loop.

// CHECK-LABEL: func.func @may_alias
// CHECK-NOT:     private(
func.func @may_alias(%a: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %c4 step %c1 {
      %acc = memref.load %out[%tx] : memref<4xf32>
      %s = arith.addf %acc, %acc : f32
      memref.store %s, %out[%tx] : memref<4xf32>
      memref.store %s, %a[%k] : memref<4xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// A cyclic tile: thread x owns columns tx, tx + 4 of an 8-wide row (stride 4
// = the thread count), so the copies index `base + 4 * p1`.

// CHECK-LABEL: func.func @cyclic_tile
// CHECK:         private(%[[ACC:.*]] : memref<2xf32, #gpu.address_space<private>>)
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[P]], %[[C4]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.addi %{{.*}}, %[[S]] : index
// CHECK-NEXT:      %[[V:.*]] = memref.load %{{.*}}[%[[I]]] : memref<8xf32>
// CHECK-NEXT:      memref.store %[[V]], %[[ACC]][%[[P]]]
// CHECK:         memref.load %[[ACC]][%{{.*}}]
func.func @cyclic_tile(%a: memref<6xf32>, %out: memref<8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %c6 step %c1 {
      %x = memref.load %a[%k] : memref<6xf32>
      scf.for %j = %c0 to %c2 step %c1 {
        %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%tx, %j)
        %acc = memref.load %out[%col] : memref<8xf32>
        %s = arith.addf %x, %acc : f32
        memref.store %s, %out[%col] : memref<8xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: with stride 2 and 4 threads, thread 0's columns 0, 2 overlap
// thread 2's columns 2, 4: neither blocked nor cyclic.

// CHECK-LABEL: func.func @overlapping_strided_tiles
// CHECK-NOT:     private(
func.func @overlapping_strided_tiles(%a: memref<6xf32>, %out: memref<8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %c6 step %c1 {
      %x = memref.load %a[%k] : memref<6xf32>
      scf.for %j = %c0 to %c2 step %c1 {
        %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%tx, %j)
        %acc = memref.load %out[%col] : memref<8xf32>
        %s = arith.addf %x, %acc : f32
        memref.store %s, %out[%col] : memref<8xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: blocked tiles of 3 elements 2 apart (thread t owns 2t, 2t + 1,
// 2t + 2): thread 0's last element is thread 1's first. 2 >= 3 fails the
// blocked test by one.

// CHECK-LABEL: func.func @blocked_tiles_overlapping_by_one
// CHECK-NOT:     private(
func.func @blocked_tiles_overlapping_by_one(%a: memref<6xf32>, %out: memref<12xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %c6 step %c1 {
      %x = memref.load %a[%k] : memref<6xf32>
      scf.for %j = %c0 to %c3 step %c1 {
        %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%tx, %j)
        %acc = memref.load %out[%col] : memref<12xf32>
        %s = arith.addf %x, %acc : f32
        memref.store %s, %out[%col] : memref<12xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: cyclic tiles of 4 threads 3 apart (thread t owns t, t + 3):
// thread 0's second element is thread 3's first. A stride of 3 fails the
// cyclic test (stride >= 4 threads) by one.

// CHECK-LABEL: func.func @cyclic_tiles_overlapping_by_one
// CHECK-NOT:     private(
func.func @cyclic_tiles_overlapping_by_one(%a: memref<6xf32>, %out: memref<12xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %c6 step %c1 {
      %x = memref.load %a[%k] : memref<6xf32>
      scf.for %j = %c0 to %c2 step %c1 {
        %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 3)>(%tx, %j)
        %acc = memref.load %out[%col] : memref<12xf32>
        %s = arith.addf %x, %acc : f32
        memref.store %s, %out[%col] : memref<12xf32>
      }
    }
    gpu.terminator
  }
  return
}

// -----

// Left alone: the loop also copies a buffer (an op that is not a load, a
// store, a view or free of effects): the pass does not see what such an op
// reads and writes, so it keeps the tile in memory.

// CHECK-LABEL: func.func @unknown_effects_in_the_loop
// CHECK-NOT:     private(
func.func @unknown_effects_in_the_loop(%a: memref<6xf32>, %out: memref<8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %staging = memref.alloc() : memref<6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c0 to %c6 step %c1 {
      %x = memref.load %a[%k] : memref<6xf32>
      memref.copy %a, %staging : memref<6xf32> to memref<6xf32>
      scf.for %j = %c0 to %c2 step %c1 {
        %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%tx, %j)
        %acc = memref.load %out[%col] : memref<8xf32>
        %s = arith.addf %x, %acc : f32
        memref.store %s, %out[%col] : memref<8xf32>
      }
    }
    gpu.terminator
  }
  memref.dealloc %staging : memref<6xf32>
  return
}

// -----

// Left alone: a loop that runs no iteration would gain copies in and out
// (work and writes the program does not do).

// CHECK-LABEL: func.func @may_run_zero_times
// CHECK-NOT:     private(
func.func @may_run_zero_times(%a: memref<6xf32>, %out: memref<8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %staging = memref.alloc() : memref<6xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %k = %c6 to %c6 step %c1 {
      %x = memref.load %a[%k] : memref<6xf32>
      scf.for %j = %c0 to %c2 step %c1 {
        %col = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%tx, %j)
        %acc = memref.load %out[%col] : memref<8xf32>
        %s = arith.addf %x, %acc : f32
        memref.store %s, %out[%col] : memref<8xf32>
      }
    }
    gpu.terminator
  }
  memref.dealloc %staging : memref<6xf32>
  return
}

// -----

// A row reduction's per-thread partial in workgroup memory (as
// linalg-tile-rows-for-gpu makes it): thread %tx accumulates its cyclic share
// of row %bx into %partial[%tx + %r], where %r counts a loop every thread runs
// alike. The loop also reads another workgroup buffer (the row's max), which
// is memory of its own and cannot alias %partial.

// CHECK-LABEL: func.func @workgroup_partial
// CHECK:         workgroup(%[[MAX:.*]] : memref<1xf32, #gpu.address_space<workgroup>>, %[[PARTIAL:.*]] : memref<4xf32, #gpu.address_space<workgroup>>) private(%[[ACC:.*]] : memref<1xf32, #gpu.address_space<private>>) {
// CHECK:           scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[AT:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%{{.*}}, %[[R]]]
// CHECK:             %[[FIRST:.*]] = memref.load %[[PARTIAL]][%[[AT]]]
// CHECK-NEXT:        memref.store %[[FIRST]], %[[ACC]][%{{.*}}]
// CHECK-NEXT:        scf.for
// CHECK:               memref.load %[[MAX]]
// CHECK:               memref.load %[[ACC]]
// CHECK:               memref.store %{{.*}}, %[[ACC]]
// CHECK:             }
// CHECK-NEXT:        %[[LAST:.*]] = memref.load %[[ACC]]
// CHECK-NEXT:        memref.store %[[LAST]], %[[PARTIAL]][%[[AT]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
func.func @workgroup_partial(%x: memref<2x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%max : memref<1xf32, #gpu.address_space<workgroup>>, %partial : memref<4xf32, #gpu.address_space<workgroup>>) {
    scf.for %r = %c0 to %c1 step %c1 {
      scf.for %j = %c0 to %c2 step %c1 {
        %col = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%tx, %j)
        %v = memref.load %x[%bx, %col] : memref<2x8xf32>
        %m = memref.load %max[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
        %at = arith.addi %tx, %r : index
        %old = memref.load %partial[%at] : memref<4xf32, #gpu.address_space<workgroup>>
        %d = arith.subf %v, %m : f32
        %s = arith.addf %d, %old : f32
        memref.store %s, %partial[%at] : memref<4xf32, #gpu.address_space<workgroup>>
      }
    }
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// Left alone: the loop counter %r in the partial's index counts up to the thread
// id, so two threads may be at different iterations, and thread 1 at %r = 1
// touches the element thread 2 accumulates at %r = 0.

// CHECK-LABEL: func.func @thread_dependent_counter
// CHECK-NOT:     private(
func.func @thread_dependent_counter(%x: memref<2x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%partial : memref<8xf32, #gpu.address_space<workgroup>>) {
    %end = arith.addi %tx, %c1 : index
    scf.for %r = %c0 to %end step %c1 {
      scf.for %j = %c0 to %c2 step %c1 {
        %v = memref.load %x[%bx, %j] : memref<2x8xf32>
        %at = arith.addi %tx, %r : index
        %old = memref.load %partial[%at] : memref<8xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %v, %old : f32
        memref.store %s, %partial[%at] : memref<8xf32, #gpu.address_space<workgroup>>
      }
    }
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A thread tile already in per-thread memory (`memref.alloca`, as
// linalg-tile-for-gpu gives a block-level contraction in a fused attention
// kernel): nothing is copied, and the loops whose counters index the tile
// (%i, %j) are marked for unrolling; the reduction loop %k around them, whose
// counter the tile's indices do not use, stays rolled. With a budget of 8
// the 2x4 nest is still unrolled.

// CHECK-LABEL: func.func @private_tile
// CHECK:         %[[ACC:.*]] = memref.alloca() : memref<2x4xf32>
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:               memref.load %[[ACC]][%[[I]], %[[J]]] : memref<2x4xf32>
// CHECK:               memref.store %{{.*}}, %[[ACC]][%[[I]], %[[J]]] : memref<2x4xf32>
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:      } {irkit.unroll}
// CHECK-NEXT:    }
// CHECK-NOT:     irkit.unroll
// CHECK:         gpu.terminator
// BUDGET-LABEL: func.func @private_tile
// BUDGET:           } {irkit.unroll}
// BUDGET-NEXT:    } {irkit.unroll}
// BUDGET-NEXT:  }
func.func @private_tile(%a: memref<8x16xf32>, %b: memref<16x8xf32>, %out: memref<8x8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c4, %sz = %c1) {
    %acc = memref.alloca() : memref<2x4xf32>
    scf.for %k = %c0 to %c16 step %c1 {
      scf.for %i = %c0 to %c2 step %c1 {
        scf.for %j = %c0 to %c4 step %c1 {
          %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 4)>()[%ty, %i]
          %col = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 2)>()[%tx, %j]
          %x = memref.load %a[%row, %k] : memref<8x16xf32>
          %y = memref.load %b[%k, %col] : memref<16x8xf32>
          %old = memref.load %acc[%i, %j] : memref<2x4xf32>
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %old, %p : f32
          memref.store %s, %acc[%i, %j] : memref<2x4xf32>
        }
      }
    }
    gpu.terminator
  }
  return
}

// -----

// A workgroup tile each thread reads and writes only at its own elements
// across a loop that also allocates a scratch tile of its own (a fused
// attention's output rows, rescaled and accumulated key step by key step
// beside the step's register accumulators): the alloca reaches no other
// memory, so the tile is promoted as without it.

// CHECK-LABEL: func.func @workgroup_tile_beside_scratch
// CHECK:         private(%[[ACC:.*]] : memref<2xf32, #gpu.address_space<private>>)
// CHECK:         scf.for
// CHECK:           memref.store %{{.*}}, %[[ACC]]
// CHECK:         scf.for
// CHECK:           memref.alloca() : memref<2xf32>
// CHECK:           memref.load %[[ACC]]
// CHECK:           memref.store %{{.*}}, %[[ACC]]
func.func @workgroup_tile_beside_scratch(%out: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    scf.for %k = %c0 to %c8 step %c1 {
      %scratch = memref.alloca() : memref<2xf32>
      scf.for %i = %c0 to %c2 step %c1 {
        %e = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 2)>()[%tx, %i]
        %v = memref.load %w[%e] : memref<4xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %v, %one : f32
        memref.store %s, %scratch[%i] : memref<2xf32>
        %t = memref.load %scratch[%i] : memref<2xf32>
        memref.store %t, %w[%e] : memref<4xf32, #gpu.address_space<workgroup>>
      }
    }
    gpu.barrier
    %r = memref.load %w[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A matmul's result that only its fused epilogue reads (a buffer allocated
// for the launch, used by nothing else but its dealloc): the fill, the K
// loop's accumulation and the epilogue's reads all go to one private tile,
// with no copy in or out; the buffer is gone.

// CHECK-LABEL: func.func @scratch_tile
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch {{.*}} private(%[[ACC:.*]] : memref<2x2xf32, #gpu.address_space<private>>) {
// CHECK:           scf.for %[[F0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        scf.for %[[F1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          memref.store %{{.*}}, %[[ACC]][%[[F0]], %[[F1]]] : memref<2x2xf32, #gpu.address_space<private>>
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:      } {irkit.unroll}
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[D0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            scf.for %[[D1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:                   memref.load %[[ACC]][%[[D0]], %[[D1]]]
// CHECK:                   memref.store %{{.*}}, %[[ACC]][%[[D0]], %[[D1]]]
// CHECK-NEXT:            } {irkit.unroll}
// CHECK-NEXT:          } {irkit.unroll}
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.for %[[E0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        scf.for %[[E1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:                 %[[V:.*]] = memref.load %[[ACC]][%[[E0]], %[[E1]]] : memref<2x2xf32, #gpu.address_space<private>>
// CHECK:                 memref.store %{{.*}}, %{{.*}} : memref<4x4xf32>
// CHECK-NEXT:        } {irkit.unroll}
// CHECK-NEXT:      } {irkit.unroll}
// CHECK-NEXT:      gpu.terminator
// CHECK-NOT:     memref.dealloc
func.func @scratch_tile(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %out: memref<4x4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1) {
    %ty0 = gpu.thread_id y
    %t0 = arith.muli %ty0, %c2 : index
    %tx0 = gpu.thread_id x
    %t1 = arith.muli %tx0, %c2 : index
    scf.for %f0 = %c0 to %c2 step %c1 {
      scf.for %f1 = %c0 to %c2 step %c1 {
        %i = arith.addi %t0, %f0 : index
        %j = arith.addi %t1, %f1 : index
        memref.store %zero, %t[%i, %j] : memref<4x4xf32>
      }
    }
    gpu.barrier
    scf.for %k = %c0 to %c4 step %c2 {
      scf.for %d0 = %c0 to %c2 step %c1 {
        scf.for %d2 = %c0 to %c2 step %c1 {
          scf.for %d1 = %c0 to %c2 step %c1 {
            %i = arith.addi %t0, %d0 : index
            %kk = arith.addi %k, %d2 : index
            %j = arith.addi %t1, %d1 : index
            %x = memref.load %a[%i, %kk] : memref<4x4xf32>
            %y = memref.load %b[%kk, %j] : memref<4x4xf32>
            %acc = memref.load %t[%i, %j] : memref<4x4xf32>
            %p = arith.mulf %x, %y : f32
            %s = arith.addf %p, %acc : f32
            memref.store %s, %t[%i, %j] : memref<4x4xf32>
          }
        }
      }
      gpu.barrier
    }
    scf.for %e0 = %c0 to %c2 step %c1 {
      scf.for %e1 = %c0 to %c2 step %c1 {
        %i = arith.addi %t0, %e0 : index
        %j = arith.addi %t1, %e1 : index
        %v = memref.load %t[%i, %j] : memref<4x4xf32>
        %r = arith.maximumf %v, %zero : f32
        memref.store %r, %out[%i, %j] : memref<4x4xf32>
      }
    }
    gpu.terminator
  }
  memref.dealloc %t : memref<4x4xf32>
  return
}

// -----

// Left alone across the launch: a later launch reads the buffer (the K
// loop's tile is still promoted, copied in and out around it).

// CHECK-LABEL: func.func @scratch_read_after
// CHECK:         %[[T:.*]] = memref.alloc() : memref<4x4xf32>
// CHECK:         gpu.launch {{.*}} private(%[[ACC:.*]] : memref<2x2xf32, #gpu.address_space<private>>) {
// CHECK:           memref.store %{{.*}}, %[[T]][%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK:           memref.load %[[T]][%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[T]]
func.func @scratch_read_after(%a: memref<4x4xf32>, %out: memref<4x4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1) {
    %ty0 = gpu.thread_id y
    %t0 = arith.muli %ty0, %c2 : index
    %tx0 = gpu.thread_id x
    %t1 = arith.muli %tx0, %c2 : index
    scf.for %f0 = %c0 to %c2 step %c1 {
      scf.for %f1 = %c0 to %c2 step %c1 {
        %i = arith.addi %t0, %f0 : index
        %j = arith.addi %t1, %f1 : index
        memref.store %zero, %t[%i, %j] : memref<4x4xf32>
      }
    }
    scf.for %k = %c0 to %c4 step %c1 {
      scf.for %d0 = %c0 to %c2 step %c1 {
        scf.for %d1 = %c0 to %c2 step %c1 {
          %i = arith.addi %t0, %d0 : index
          %j = arith.addi %t1, %d1 : index
          %x = memref.load %a[%i, %k] : memref<4x4xf32>
          %acc = memref.load %t[%i, %j] : memref<4x4xf32>
          %s = arith.addf %x, %acc : f32
          memref.store %s, %t[%i, %j] : memref<4x4xf32>
        }
      }
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1) {
    %i = gpu.thread_id y
    %j = gpu.thread_id x
    %v = memref.load %t[%i, %j] : memref<4x4xf32>
    memref.store %v, %out[%i, %j] : memref<4x4xf32>
    gpu.terminator
  }
  memref.dealloc %t : memref<4x4xf32>
  return
}

// -----

// Left alone across the launch: after a barrier, each thread reads the
// elements another thread wrote (the transposed tile), so the buffer is
// shared between threads (the K loop's tile is still promoted).

// CHECK-LABEL: func.func @scratch_other_threads
// CHECK:         %[[T:.*]] = memref.alloc() : memref<4x4xf32>
// CHECK:         gpu.launch {{.*}} private(%[[ACC:.*]] : memref<2x2xf32, #gpu.address_space<private>>) {
// CHECK:           memref.load %[[T]][%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK:         memref.dealloc %[[T]]
func.func @scratch_other_threads(%a: memref<4x4xf32>, %out: memref<4x4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1) {
    %ty0 = gpu.thread_id y
    %t0 = arith.muli %ty0, %c2 : index
    %tx0 = gpu.thread_id x
    %t1 = arith.muli %tx0, %c2 : index
    scf.for %f0 = %c0 to %c2 step %c1 {
      scf.for %f1 = %c0 to %c2 step %c1 {
        %i = arith.addi %t0, %f0 : index
        %j = arith.addi %t1, %f1 : index
        memref.store %zero, %t[%i, %j] : memref<4x4xf32>
      }
    }
    scf.for %k = %c0 to %c4 step %c1 {
      scf.for %d0 = %c0 to %c2 step %c1 {
        scf.for %d1 = %c0 to %c2 step %c1 {
          %i = arith.addi %t0, %d0 : index
          %j = arith.addi %t1, %d1 : index
          %x = memref.load %a[%i, %k] : memref<4x4xf32>
          %acc = memref.load %t[%i, %j] : memref<4x4xf32>
          %s = arith.addf %x, %acc : f32
          memref.store %s, %t[%i, %j] : memref<4x4xf32>
        }
      }
    }
    gpu.barrier
    scf.for %e0 = %c0 to %c2 step %c1 {
      scf.for %e1 = %c0 to %c2 step %c1 {
        %i = arith.addi %t0, %e0 : index
        %j = arith.addi %t1, %e1 : index
        %v = memref.load %t[%j, %i] : memref<4x4xf32>
        memref.store %v, %out[%i, %j] : memref<4x4xf32>
      }
    }
    gpu.terminator
  }
  memref.dealloc %t : memref<4x4xf32>
  return
}
