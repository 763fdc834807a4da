// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p scf-for-hoist-accumulators

// Loops carrying tensors hold no memory this pass can reason about.

func.func @tensor_loop(%t: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'scf.for' op scf-for-hoist-accumulators works on loops over memrefs: run bufferize first}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %t) -> (tensor<4xf32>) {
    scf.yield %acc : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
