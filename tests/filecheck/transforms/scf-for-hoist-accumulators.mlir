// RUN: irkit-opt %s --split-input-file -p scf-for-hoist-accumulators | filecheck %s

// A row sum accumulating through memory: the element is loaded once before
// the loop, carried in iter_args, and stored once after it.

// CHECK-LABEL: func.func @row_sum
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      %[[INIT:.*]] = memref.load %s[%[[I]]] : memref<4xf32>
// CHECK-NEXT:      %[[LAST:.*]] = scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %x[%[[I]], %{{.*}}] : memref<4x8xf32>
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK-NEXT:        scf.yield %[[NEXT]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[LAST]], %s[%[[I]]] : memref<4xf32>
func.func @row_sum(%x: memref<4x8xf32>, %s: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %acc = memref.load %s[%i] : memref<4xf32>
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %next = arith.addf %v, %acc : f32
      memref.store %next, %s[%i] : memref<4xf32>
    }
    scf.reduce
  }
  return
}

// -----

// A whole nest: the element climbs out of the inner loop, then the outer one.

// CHECK-LABEL: func.func @total
// CHECK:         %[[INIT:.*]] = memref.load %s[] : memref<f32>
// CHECK-NEXT:    %[[OUTER:.*]] = scf.for %{{.*}} iter_args(%[[A:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:      %[[INNER:.*]] = scf.for %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK:           scf.yield %[[INNER]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.store %[[OUTER]], %s[] : memref<f32>
func.func @total(%x: memref<4x8xf32>, %s: memref<f32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %acc = memref.load %s[] : memref<f32>
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %next = arith.addf %v, %acc : f32
      memref.store %next, %s[] : memref<f32>
    }
  }
  return
}

// -----

// Not hoisted: the loop also reads another element of the same buffer, a
// subview of it, or runs a dynamic (possibly zero) number of times.

// CHECK-LABEL: func.func @kept
// CHECK-NOT:     iter_args
func.func @kept(%x: memref<8xf32>, %s: memref<8xf32> {irkit.output}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %j = %c0 to %c8 step %c1 {
    %acc = memref.load %s[%c0] : memref<8xf32>
    %other = memref.load %s[%j] : memref<8xf32>
    %next = arith.addf %other, %acc : f32
    memref.store %next, %s[%c0] : memref<8xf32>
  }
  scf.for %j = %c0 to %c8 step %c1 {
    %acc = memref.load %s[%c1] : memref<8xf32>
    %view = memref.subview %s[%j] [1] [1] : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
    %v = memref.load %view[%c0] : memref<1xf32, strided<[1], offset: ?>>
    %next = arith.addf %v, %acc : f32
    memref.store %next, %s[%c1] : memref<8xf32>
  }
  scf.for %j = %c0 to %n step %c1 {
    %acc = memref.load %s[%c0] : memref<8xf32>
    %v = memref.load %x[%j] : memref<8xf32>
    %next = arith.addf %v, %acc : f32
    memref.store %next, %s[%c0] : memref<8xf32>
  }
  return
}

// -----

// Two inputs may alias each other; an output aliases nothing: a loop that
// stores into an input-like argument keeps its loads and stores.

// CHECK-LABEL: func.func @maybe_aliased
// CHECK-NOT:     iter_args
func.func @maybe_aliased(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %j = %c0 to %c8 step %c1 {
    %acc = memref.load %y[%c0] : memref<8xf32>
    %v = memref.load %x[%j] : memref<8xf32>
    %next = arith.addf %v, %acc : f32
    memref.store %next, %y[%c0] : memref<8xf32>
  }
  return
}
