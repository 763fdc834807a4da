// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p bufferize

// expected-error @+1 {{result #0 of @scalar_result is f32, not a tensor: bufferized functions return tensors only}}
func.func @scalar_result(%a: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  return %x : f32
}

// -----

// expected-error @+1 {{dynamic shapes are not supported: tensor<?xf32>}}
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

// -----

func.func @unsupported_op(%x: f32) -> tensor<2xf32> {
  // expected-error @+1 {{'tensor.from_elements' op is not supported on tensors}}
  %t = tensor.from_elements %x, %x : tensor<2xf32>
  return %t : tensor<2xf32>
}

// -----

func.func @broadcast(%a: tensor<4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  // expected-error @+1 {{'linalg.broadcast' op is not a structured op with ins/outs: run linalg-generalize-named-ops first}}
  %b = linalg.broadcast ins(%a : tensor<4xf32>) outs(%e : tensor<2x4xf32>) dimensions = [0]
  return %b : tensor<2x4xf32>
}

// -----

func.func @pad_depends_on_index(%a: tensor<2xindex>) -> tensor<4xindex> {
  // expected-error @+1 {{'tensor.pad' op the padding value must not depend on the index}}
  %p = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %i : index
  } : tensor<2xindex> to tensor<4xindex>
  return %p : tensor<4xindex>
}

// -----

func.func @pad_computed(%a: tensor<2xf32>, %x: f32) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.pad' op the padding value must be a constant or defined outside the body}}
  %p = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    %y = arith.negf %x : f32
    tensor.yield %y : f32
  } : tensor<2xf32> to tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

func.func @tensor_in_loop(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op is not supported on tensors}}
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%t = %a) -> (tensor<4xf32>) {
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{functions with several blocks are not supported}}
func.func @branches(%a: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1(%a : tensor<4xf32>)
^bb1(%t: tensor<4xf32>):
  return %t : tensor<4xf32>
}
