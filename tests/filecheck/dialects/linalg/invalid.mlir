// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// The verifiers irkit adds to linalg ops.

func.func @transpose_not_a_permutation(%x: tensor<2x2xf32>, %t: tensor<2x2xf32>) {
  // expected-error @+1 {{expected permutation to be a permutation of 0..1}}
  %r = linalg.transpose ins(%x : tensor<2x2xf32>) outs(%t : tensor<2x2xf32>) permutation = [1, 1]
  return
}

// -----

func.func @broadcast_unsorted(%x: tensor<4xf32>, %t: tensor<2x4x3xf32>) {
  // expected-error @+1 {{expected dimensions to be strictly increasing}}
  %r = linalg.broadcast ins(%x : tensor<4xf32>) outs(%t : tensor<2x4x3xf32>) dimensions = [2, 0]
  return
}

// -----

func.func @elementwise_shapes(%a: tensor<4xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{expected all operands to have the same shape}}
  %r = linalg.div ins(%a, %b : tensor<4xf32>, tensor<5xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @batch_matmul_shapes(%a: tensor<2x8x16xf32>, %b: tensor<2x8x8xf32>, %c: tensor<2x8x8xf32>) {
  // expected-error @+1 {{inferred input/output operand #1 has shape's dimension #1 to be 16, but found 8}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x8x16xf32>, tensor<2x8x8xf32>) outs(%c : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return
}

// -----

func.func @matmul_maps(%a: tensor<4x4xf32>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{expected indexing_map #0 to be a projected permutation of 3 loops}}
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0 + d2, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @pooling_strides(%x: tensor<1x1x4x4xf32>, %k: tensor<2x2xf32>, %o: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{expected 2 strides, found 1}}
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<1xi64>} ins(%x, %k : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%o : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @depthwise_window(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3xf32>, %o: tensor<1x2x3x3xf32>) {
  // expected-error @+1 {{inferred input/output operand #0 has shape's dimension #2 to be greater than or equal to 5, but found 4}}
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x3x3xf32>) outs(%o : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @reduce_body(%x: tensor<2x3xf32>, %r: tensor<2xf32>) {
  // expected-error @+1 {{expected the body to take two f32 arguments}}
  %s = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
    (%in: f32, %init: f64) {
      linalg.yield %in : f32
    }
  return
}

// -----

func.func @map_shapes(%a: tensor<8xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{expected input #1 to have the init's shape [8], found [4]}}
  %m = linalg.map { arith.addf } ins(%a, %b : tensor<8xf32>, tensor<4xf32>) outs(%a : tensor<8xf32>)
  return
}

// -----

func.func @index_dim(%x: tensor<4xi64>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%x : tensor<4xi64>) {
  ^bb0(%out: i64):
    // expected-error @+1 {{expected dim (1) to be lower than the number of loops (1) of the enclosing op}}
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<4xi64>
  return
}

// -----

func.func @generic_missing_maps(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected 'indexing_maps' in linalg.generic's attributes}}
  %r = linalg.generic {iterator_types = ["parallel"]} outs(%x : tensor<4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %out : f32
  } -> tensor<4xf32>
  return
}

// -----

func.func @named_op_result_differs_from_outs(%a: tensor<4x4xf32>, %v: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{result types must match the types of the 'outs' operands: expected tensor<4xf32>, got tensor<1x2x3x3xf32>}}
  %r = linalg.matvec ins(%a, %v : tensor<4x4xf32>, tensor<4xf32>) outs(%w : tensor<4xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

// -----

// xDSL's named elementwise ops assume shaped operands (an assertion while
// building their indexing maps). Found by tests/fuzz.
func.func @elementwise_scalar_operand(%a: tensor<4xi32>, %s: i32, %c: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'linalg.add' op expected shaped operands, found i32}}
  %r = linalg.add ins(%a, %s : tensor<4xi32>, i32) outs(%c : tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @elementwise_unknown_kind(%a: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{`exp`, `log`, `abs`}}
  %r = linalg.elementwise <dive> ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_arity(%a: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{kind <add> takes 2 input(s), found 1}}
  %r = linalg.elementwise <add> ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_arity_generic(%a: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{'linalg.elementwise' op kind <select> takes 3 input(s), found 1}}
  %r = "linalg.elementwise"(%a, %c) <{kind = #linalg.elementwise_kind<select>, indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_float_kind_on_integers(%a: tensor<4xi32>, %c: tensor<4xi32>) {
  // expected-error @+1 {{kind <exp> expects floating-point elements, found i32}}
  %r = linalg.elementwise <exp> ins(%a : tensor<4xi32>) outs(%c : tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @elementwise_unsigned_kind_on_floats(%a: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{kind <min_unsigned> expects integer elements, found f32}}
  %r = linalg.elementwise <min_unsigned> ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_sub_on_i1(%a: tensor<4xi1>, %c: tensor<4xi1>) {
  // expected-error @+1 {{kind <sub> is not defined on i1 (only add and mul are)}}
  %r = linalg.elementwise <sub> ins(%a, %a : tensor<4xi1>, tensor<4xi1>) outs(%c : tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @elementwise_converts_nothing(%a: tensor<4xf16>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expected input #0 to have element type f32, found f16 (linalg.elementwise converts nothing)}}
  %r = linalg.elementwise <exp> ins(%a : tensor<4xf16>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_select_condition(%a: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expected input #0 to have element type i1, found f32}}
  %r = linalg.elementwise <select> ins(%a, %a, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_two_outputs(%a: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expected one output, found 2}}
  %r:2 = linalg.elementwise <exp> ins(%a : tensor<4xf32>) outs(%c, %c : tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @elementwise_map_count(%a: tensor<4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expected 2 indexing maps (one per operand), found 1}}
  %r = linalg.elementwise <exp> indexing_maps = [affine_map<(d0) -> (d0)>] ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_map_loops(%a: tensor<4x4xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expected indexing_map #0 to have 1 dim(s), one per dimension of the output, found 2}}
  %r = linalg.elementwise <exp> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>] ins(%a : tensor<4x4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_output_map(%a: tensor<4x4xf32>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{expected the output's indexing_map to be a permutation, found (d0, d1) -> (d0, d0)}}
  %r = linalg.elementwise <exp> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d0)>] ins(%a : tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @elementwise_shapes(%a: tensor<5xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{inferred input/output operand #1 has shape's dimension #0 to be 5, but found 4}}
  %r = linalg.elementwise <exp> ins(%a : tensor<5xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_scalar_needs_a_map(%s: f32, %c: tensor<4xf32>) {
  // expected-error @+1 {{expected operand #0 of rank 0 to match the result count of indexing_map #0, 1}}
  %r = linalg.elementwise <exp> ins(%s : f32) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @contract_needs_maps(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>) {
  // expected-error @+1 {{expected 'indexing_maps = [...]'}}
  %r = linalg.contract ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @contract_operands(%a: tensor<4x16xf32>, %c: tensor<4x16xf32>) {
  // expected-error @+1 {{expected two inputs and one output, found 1 and 1}}
  %r = linalg.contract indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>] ins(%a : tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @contract_map_count(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>) {
  // expected-error @+1 {{expected 3 indexing maps (two inputs, one output), found 2}}
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>] ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @contract_not_projected(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>) {
  // expected-error @+1 {{expected indexing_map #0 to be a projected permutation, found (d0, d1, d2) -> (d0, d2 + d1)}}
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k + n)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @contract_one_sided_reduction(%a: tensor<4x16xf32>, %b: tensor<8xf32>, %c: tensor<4x8xf32>) {
  // expected-error @+1 {{loop d2 is neither parallel (in the output's map) nor contracting (in both inputs' maps)}}
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<4x16xf32>, tensor<8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @contract_unused_loop(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>) {
  // expected-error @+1 {{loop d3 indexes no operand}}
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k, l) -> (m, k)>, affine_map<(m, n, k, l) -> (k, n)>, affine_map<(m, n, k, l) -> (m, n)>] ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @contract_cast_attribute(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>) {
  // expected-error @+1 {{expected cast to be a #linalg.type_fn<...>, found "unsigned"}}
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {cast = "unsigned"} ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @contract_shapes(%a: tensor<4x16xf32>, %b: tensor<12x8xf32>, %c: tensor<4x8xf32>) {
  // expected-error @+1 {{inferred input/output operand #1 has shape's dimension #0 to be 16, but found 12}}
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<4x16xf32>, tensor<12x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
