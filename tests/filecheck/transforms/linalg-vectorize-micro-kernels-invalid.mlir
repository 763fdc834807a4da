// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p 'linalg-vectorize-micro-kernels'
// RUN: not irkit-opt %s -p 'linalg-vectorize-micro-kernels{vector-registers=2}' 2>&1 | filecheck %s --check-prefix=OPTIONS

// Micro-kernels are vectorised after bufferize only.

func.func @on_tensors(%a: tensor<4x4xf32>, %b: tensor<4x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'linalg.generic' op linalg-vectorize-micro-kernels requires linalg on memrefs: run bufferize first}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x4xf32>, tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) attrs = {irkit.register_tile} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// OPTIONS: linalg-vectorize-micro-kernels: vector-bits must be >= 8 and vector-registers >= 4
