// RUN: irkit-opt %s --split-input-file -p 'scf-for-unroll{unroll-factor=4}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'scf-for-unroll{unroll-factor=2 innermost-only=false}' | filecheck %s --check-prefix=ALL

// Ten iterations by four: a main loop of two groups stepping by 4, the
// iter_arg threaded through the four copies, and an epilogue loop for the
// last two iterations carrying on from the main loop's result.

// CHECK-LABEL: func.func @sum
// CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK:       %[[MAIN:.*]] = scf.for %[[I:.*]] = %c0 to %[[C8]] step %[[C4]] iter_args(%[[ACC:.*]] = %z) -> (f32) {
// CHECK-NEXT:    %[[V0:.*]] = memref.load %m[%[[I]]]
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[ACC]], %[[V0]]
// CHECK-NEXT:    %[[I1:.*]] = arith.addi %[[I]], %c1{{.*}} : index
// CHECK-NEXT:    %[[V1:.*]] = memref.load %m[%[[I1]]]
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[S0]], %[[V1]]
// CHECK-NEXT:    %[[I2:.*]] = arith.addi %[[I]], %c2 : index
// CHECK:         %[[I3:.*]] = arith.addi %[[I]], %c3 : index
// CHECK-NEXT:    %[[V3:.*]] = memref.load %m[%[[I3]]]
// CHECK-NEXT:    %[[S3:.*]] = arith.addf %{{.*}}, %[[V3]]
// CHECK-NEXT:    scf.yield %[[S3]] : f32
// CHECK:       %[[R:.*]] = scf.for %{{.*}} = %[[C8]] to %c10 step %c1 iter_args(%{{.*}} = %[[MAIN]]) -> (f32) {
// CHECK:       return %[[R]] : f32

func.func @sum(%m: memref<10xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %z) -> (f32) {
    %v = memref.load %m[%i] : memref<10xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----

// Twelve iterations by four: no epilogue. A step of 3 makes the copies'
// offsets 3, 6, 9 and the main step 12.

// CHECK-LABEL: func.func @divides
// CHECK:       scf.for %[[I:.*]] = %c0 to %c36 step %c12 {
// CHECK-NEXT:    memref.store %one, %o[%[[I]]]
// CHECK-NEXT:    %[[I1:.*]] = arith.addi %[[I]], %c3 : index
// CHECK-NEXT:    memref.store %one, %o[%[[I1]]]
// CHECK-NEXT:    arith.addi %[[I]], %c6 : index
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    arith.addi %[[I]], %c9 : index
// CHECK-NEXT:    memref.store
// CHECK-NEXT:  }
// CHECK-NEXT:  return

func.func @divides(%o: memref<36xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c36 = arith.constant 36 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c36 step %c3 {
    memref.store %one, %o[%i] : memref<36xf32>
  }
  return
}

// -----

// Three iterations and a factor of four: fully unrolled, no loop left; the
// induction variable becomes constants.

// CHECK-LABEL: func.func @short
// CHECK-NOT:   scf.for
// CHECK:       memref.store %one, %o[%c0{{.*}}]
// CHECK:       memref.store %one, %o[%c2{{.*}}]
// CHECK:       memref.store %one, %o[%c4{{.*}}]
// CHECK-NOT:   scf.for

func.func @short(%o: memref<6xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c6 step %c2 {
    memref.store %one, %o[%i] : memref<6xf32>
  }
  return
}

// -----

// Dynamic bounds and step: the main loop ends at lb + ((ub - lb) / (4 * step)) * (4 * step).

// CHECK-LABEL: func.func @dynamic
// CHECK:       %[[GROUP:.*]] = arith.muli %st, %c4 : index
// CHECK:       %[[SPAN:.*]] = arith.subi %ub, %lb : index
// CHECK-NEXT:  %[[N:.*]] = arith.divsi %[[SPAN]], %[[GROUP]] : index
// CHECK-NEXT:  %[[COVERED:.*]] = arith.muli %[[N]], %[[GROUP]] : index
// CHECK-NEXT:  %[[END:.*]] = arith.addi %lb, %[[COVERED]] : index
// CHECK-NEXT:  scf.for %[[I:.*]] = %lb to %[[END]] step %[[GROUP]] {
// CHECK:         arith.addi %[[I]], %st : index
// CHECK:       scf.for %{{.*}} = %[[END]] to %ub step %st {

func.func @dynamic(%o: memref<?xf32> {irkit.output}, %lb: index, %ub: index, %st: index) {
  %one = arith.constant 1.0 : f32
  scf.for %i = %lb to %ub step %st {
    memref.store %one, %o[%i] : memref<?xf32>
  }
  return
}

// -----

// Only the innermost loop by default (here by 4 of 5 iterations: one group
// and one left over, both inlined, and the outer loop stays); with
// innermost-only=false the outer loop is unrolled too, copying the already
// unrolled inner loop (by 2: a main loop to 4 and one inlined iteration).

// CHECK-LABEL: func.func @nest
// CHECK:       scf.for %[[I:.*]] = %c0 to %c5 step %c1 {
// CHECK-NEXT:    memref.store %one, %o[%[[I]], %c0]
// CHECK-NEXT:    memref.store %one, %o[%[[I]], %c1]
// CHECK:         memref.store %one, %o[%[[I]], %c4]
// CHECK-NEXT:  }

// ALL-LABEL: func.func @nest
// ALL:       scf.for %{{.*}} = %c0 to %c4{{.*}} step %c2{{.*}} {
// ALL:         scf.for %{{.*}} = %c0 to %c4{{.*}} step %c2{{.*}} {
// ALL:         scf.for %{{.*}} = %c0 to %c4{{.*}} step %c2{{.*}} {
// ALL:       }
// ALL:       scf.for %{{.*}} = %c0 to %c4{{.*}} step %c2{{.*}} {
// ALL-NOT:   scf.for
// ALL:       return

func.func @nest(%o: memref<5x5xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      memref.store %one, %o[%i, %j] : memref<5x5xf32>
    }
  }
  return
}
