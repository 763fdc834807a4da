// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// scf ops in MLIR's custom syntax: scf.parallel and scf.forall (which xDSL
// cannot print or lacks), and the forms of scf.for/if/execute_region/while
// that xDSL printed or parsed differently.

// CHECK-LABEL: func.func @parallel
// CHECK:         scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
// CHECK-NEXT:      memref.store %z, %buf[%i, %j] : memref<?x?xf32>
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK:         %sum = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
// CHECK-NEXT:      %v = memref.load %buf[%k, %c0] : memref<?x?xf32>
// CHECK-NEXT:      scf.reduce(%v : f32) {
// CHECK-NEXT:      ^bb0(%lhs: f32, %rhs: f32):
// CHECK-NEXT:        %s = arith.addf %lhs, %rhs : f32
// CHECK-NEXT:        scf.reduce.return %s : f32
// CHECK-NEXT:      }
// CHECK-NEXT:    } {tag}
// CHECK:         = scf.parallel (%k_1) = (%c0) to (%n) step (%c1) init (%z, %c0) -> (f32, index) {
// CHECK:           scf.reduce(%v_1, %k_1 : f32, index) {
// CHECK:           }, {
// CHECK:           }
// CHECK-NEXT:    }
func.func @parallel(%buf: memref<?x?xf32>, %n: index, %m: index) -> (f32, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    memref.store %z, %buf[%i, %j] : memref<?x?xf32>
  }
  %sum = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    %v = memref.load %buf[%k, %c0] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }
  } {tag}
  %r:2 = scf.parallel (%k) = (%c0) to (%n) step (%c1) init (%z, %c0) -> (f32, index) {
    %v = memref.load %buf[%k, %c0] : memref<?x?xf32>
    scf.reduce(%v, %k : f32, index) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.maximumf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%lhs: index, %rhs: index):
      %s = arith.maxsi %lhs, %rhs : index
      scf.reduce.return %s : index
    }
  }
  return %sum, %r#0, %r#1 : f32, f32, index
}

// CHECK-LABEL: func.func @forall
// CHECK:         scf.forall (%i, %j) in (4, %n) {
// CHECK-NEXT:      memref.store %z, %buf[%i, %j] : memref<4x?xf32>
// CHECK-NEXT:    }
// CHECK:         scf.forall (%i_1) = (%c1) to (%n) step (2) {
// CHECK-NEXT:      memref.store %z, %buf[%c1, %i_1] : memref<4x?xf32>
// CHECK-NEXT:    } {mapping = [1 : i64], tag}
// CHECK:         scf.forall (%i_2, %j_1) = (0, 0) to (4, %n) step (2, 1) {
func.func @forall(%buf: memref<4x?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  scf.forall (%i, %j) in (4, %n) {
    memref.store %z, %buf[%i, %j] : memref<4x?xf32>
  }
  scf.forall (%i) = (%c1) to (%n) step (2) {
    memref.store %z, %buf[%c1, %i] : memref<4x?xf32>
  } {mapping = [1 : i64], tag}
  // A lower bound of 0 and step of 1 everywhere prints the `in` form.
  scf.forall (%i, %j) = (0, 0) to (4, %n) step (2, 1) {
    memref.store %z, %buf[%i, %j] : memref<4x?xf32>
  }
  scf.forall (%i, %j) = (0, 0) to (4, %n) step (1, 1) {
    memref.store %z, %buf[%i, %j] : memref<4x?xf32>
  }
  return
}
// CHECK:         scf.forall (%i_3, %j_2) in (4, %n) {

// CHECK-LABEL: func.func @for_if
// CHECK:         %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
// CHECK:           scf.yield %next : f32
// CHECK:         %r = scf.if %cond -> (f32) {
// CHECK-NEXT:      scf.yield %sum : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %z : f32
// CHECK-NEXT:    } {tag}
// CHECK:         scf.for %j = %c0 to %n step %c1 {
// CHECK-NEXT:    }
func.func @for_if(%n: index, %cond: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  // MLIR accepts a bare result type after `->`.
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
    %next = arith.addf %acc, %acc : f32
    scf.yield %next : f32
  }
  %r = scf.if %cond -> f32 {
    scf.yield %sum : f32
  } else {
    scf.yield %z : f32
  } {tag}
  scf.for %j = %c0 to %n step %c1 {
  }
  return %r : f32
}

// CHECK-LABEL: func.func @regions
// CHECK:         %e = scf.execute_region -> f32 {
// CHECK-NEXT:      scf.yield %x : f32
// CHECK-NEXT:    } {tag}
// CHECK-NEXT:    scf.execute_region {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.while : () -> () {
// CHECK:           scf.condition(%false)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %w = scf.while (%a = %x) : (f32) -> f32 {
func.func @regions(%x: f32) -> f32 {
  %e = scf.execute_region -> f32 {
    scf.yield %x : f32
  } {tag}
  scf.execute_region {
    scf.yield
  }
  scf.while : () -> () {
    %false = arith.constant false
    scf.condition(%false)
  } do {
    scf.yield
  }
  %w = scf.while (%a = %x) : (f32) -> f32 {
    %false = arith.constant false
    scf.condition(%false) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return %e : f32
}
