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
