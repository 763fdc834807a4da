// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p convert-nn-to-linalg

// Tensors with an encoding are rejected: the lowering's new tensors would drop it.

func.func @encoded_operand(%a: tensor<4xf32, "sparse">) -> tensor<4xf32, "sparse"> {
  // expected-error @+1 {{convert-nn-to-linalg: 'nn.exp' op operand #0 has type tensor<4xf32, "sparse"> with an encoding, which convert-nn-to-linalg does not support}}
  %r = nn.exp %a : tensor<4xf32, "sparse">
  return %r : tensor<4xf32, "sparse">
}

// -----

func.func @encoded_result() -> tensor<2xi32, "enc"> {
  // expected-error @+1 {{'nn.constant' op result #0 has type tensor<2xi32, "enc"> with an encoding}}
  %c = nn.constant dense<[1, 2]> : tensor<2xi32, "enc">
  return %c : tensor<2xi32, "enc">
}
