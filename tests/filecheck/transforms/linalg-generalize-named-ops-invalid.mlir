// RUN: irkit-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics -p linalg-generalize-named-ops

// A linalg op irkit does not define has no known generic form.

func.func @unknown_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.softmax' op cannot be generalized: not a named linalg op irkit knows}}
  %r = "linalg.softmax"(%x) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Converting to i1 has two readings (MLIR: low bit; the interpreter: non-zero).

func.func @fill_to_i1(%x: i32, %t: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'linalg.fill' op cannot be generalized: it converts i32 to i1 implicitly}}
  %r = linalg.fill ins(%x : i32) outs(%t : tensor<4xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

func.func @copy_to_i1(%x: tensor<4xf32>, %t: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'linalg.copy' op cannot be generalized: it converts f32 to i1 implicitly}}
  %r = linalg.copy ins(%x : tensor<4xf32>) outs(%t : tensor<4xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}
