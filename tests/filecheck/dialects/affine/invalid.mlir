// RUN: irkit-opt %s --split-input-file --verify-diagnostics

func.func @min_operand_count(%i: index) {
  // expected-error @+1 {{expected 1 dimension and 1 symbol operands, got 1 and 0}}
  %a = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)
  return
}

// -----

func.func @max_generic_operand_count(%i: index) {
  // expected-error @+1 {{operand count and affine map dimension and symbol count must match: expected 2 operands, got 1}}
  %a = "affine.max"(%i) <{map = affine_map<(d0)[s0] -> (s0, d0)>}> : (index) -> index
  return
}

// -----

func.func @max_no_results(%i: index) {
  // expected-error @+1 {{expects a map with at least one result}}
  %a = "affine.max"(%i) <{map = affine_map<(d0) -> ()>}> : (index) -> index
  return
}
