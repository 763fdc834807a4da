// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p 'scf-for-unroll{unroll-factor=2}'
// RUN: not irkit-opt %s --split-input-file -p 'scf-for-unroll{unroll-factor=0}' 2>&1 | filecheck %s --check-prefix=FACTOR

// A loop with a constant step of 0 never ends: there is no group of
// iterations to unroll.

func.func @zero_step(%o: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{'scf.for' op scf-for-unroll requires a positive step, got 0}}
  scf.for %i = %c0 to %c4 step %c0 {
    memref.store %one, %o[%i] : memref<4xf32>
  }
  return
}

// FACTOR: scf-for-unroll: unroll-factor must be >= 1
