// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// A number literal too large for its type is a located parse error: xDSL
// packs a hexadecimal float literal into the type's width, and converts a
// decimal one to float, without checking that it fits. Found by tests/fuzz.

func.func @scalar_hex_too_wide() -> f16 {
  // expected-error @+1 {{hexadecimal float literal out of range for its type}}
  %e = arith.constant 0xFF800000 : f16
  return %e : f16
}

// -----

func.func @scalar_integer_too_large_for_float() -> f32 {
  // expected-error @+1 {{integer literal out of range for its type}}
  %e = arith.constant 1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 : f32
  return %e : f32
}

// -----

func.func @dense_hex_too_wide() -> tensor<2xf32> {
  // expected-error @+1 {{hexadecimal float literal does not fit in f32}}
  %e = arith.constant dense<0x1FF800000> : tensor<2xf32>
  return %e : tensor<2xf32>
}

// -----

func.func @dense_integer_too_large_for_float() -> tensor<2xf32> {
  // expected-error @+1 {{integer literal out of range for f32}}
  %e = arith.constant dense<1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000> : tensor<2xf32>
  return %e : tensor<2xf32>
}
