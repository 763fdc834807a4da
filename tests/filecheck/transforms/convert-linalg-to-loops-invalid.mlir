// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p convert-linalg-to-loops

// convert-linalg-to-loops lowers bufferized linalg only.

func.func @generic_on_tensors(%a: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op on tensors cannot be lowered to loops: run bufferize first}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @named_op_on_tensors(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'linalg.matmul' op on tensors cannot be lowered to loops: run bufferize first}}
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

func.func @fill_on_tensors(%cst: f32, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.fill' op on tensors cannot be lowered to loops: run bufferize first}}
  %r = linalg.fill ins(%cst : f32) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @reduce_on_tensors(%x: tensor<4x5xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.reduce' op on tensors cannot be lowered to loops: run bufferize first}}
  %r = linalg.reduce ins(%x : tensor<4x5xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
