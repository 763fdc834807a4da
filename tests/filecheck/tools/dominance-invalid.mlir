// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// irkit verifies that every operand is visible where it is used (xDSL's
// parser resolves a use in one region to a later definition in a sibling region, and a use
// before the definition in the same block). Found by tests/fuzz.

#id = affine_map<(d0) -> (d0)>

func.func @sibling_region(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    // expected-error @+1 {{'linalg.yield' op operand #0 does not dominate this use}}
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %p, %q : tensor<8xf32>, tensor<8xf32>
}

// -----

func.func @use_before_definition(%a: f32) -> f32 {
  // expected-error @+1 {{'arith.negf' op operand #0 does not dominate this use}}
  %b = arith.negf %c : f32
  %c = arith.negf %a : f32
  return %b : f32
}
