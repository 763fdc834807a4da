// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// Every verifier message of the nn dialect, one per chunk; parse errors last.

func.func @dynamic_shape(%a: tensor<?x4xf32>) {
  // expected-error @+1 {{operand #0 must have a static shape, got tensor<?x4xf32>}}
  %c = nn.exp %a : tensor<?x4xf32>
  return
}

// -----

func.func @exp_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{element type i32 is not supported by nn.exp: expected a float type (f16, bf16, f32, f64)}}
  %c = nn.exp %a : tensor<4xi32>
  return
}

// -----

func.func @add_i8(%a: tensor<4xi8>) {
  // expected-error @+1 {{element type i8 is not supported by nn.add: expected a float or integer type}}
  %c = nn.add %a, %a : tensor<4xi8>
  return
}

// -----

func.func @add_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{element type i1 is not supported by nn.add: expected a float or integer type}}
  %c = nn.add %a, %a : tensor<4xi1>
  return
}

// -----

func.func @add_f80(%a: tensor<4xf80>) {
  // expected-error @+1 {{element type f80 is not supported by nn.add}}
  %c = nn.add %a, %a : tensor<4xf80>
  return
}

// -----

func.func @and_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{element type f32 is not supported by nn.and: expected i1 or an integer type}}
  %c = nn.and %a, %a : tensor<4xf32>
  return
}

// -----

func.func @pow_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{element type i32 is not supported by nn.pow: expected a float type}}
  %c = nn.pow %a, %a : tensor<4xi32>
  return
}

// -----

func.func @mixed_elements(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{operands have different element types: f32 and i32}}
  %c = nn.add %a, %b : tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

func.func @broadcast(%a: tensor<4x8xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{operands have incompatible shapes for broadcasting: tensor<4x8xf32> and tensor<3xf32>}}
  %c = nn.add %a, %b : tensor<4x8xf32>, tensor<3xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @add_result(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{result type tensor<4x4xf32> does not match inferred type tensor<4x8xf32>}}
  %c = nn.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @unary_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<4xf64> does not match inferred type tensor<4xf32>}}
  %c = nn.neg %a : tensor<4xf32> -> tensor<4xf64>
  return
}

// -----

func.func @generic_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<5xf32> does not match inferred type tensor<4xf32>}}
  %c = "nn.tanh"(%a) : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{element type i16 is not supported by nn.constant}}
  %c = nn.constant dense<1> : tensor<4xi16>
  return
}

// -----

func.func @constant_result() {
  // expected-error @+1 {{result type tensor<4xf64> does not match inferred type tensor<4xf32>}}
  %c = "nn.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf64>
  return
}

// -----

func.func @cast_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<5xi32> does not match inferred type tensor<4xi32>}}
  %c = nn.cast %a : tensor<4xf32> -> tensor<5xi32>
  return
}

// -----

func.func @cast_i8(%a: tensor<4xf32>) {
  // expected-error @+1 {{element type i8 is not supported by nn.cast: expected one of f16, bf16, f32, f64, i32, i64, i1}}
  %c = nn.cast %a : tensor<4xf32> -> tensor<4xi8>
  return
}

// -----

func.func @cmp_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{result type tensor<4xf32> does not match inferred type tensor<4xi1>}}
  %c = nn.cmp eq, %a, %a : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @select_condition(%m: tensor<4xf32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{condition must have element type i1, got f32}}
  %c = nn.select %m, %a, %a : tensor<4xf32>
  return
}

// -----

func.func @select_elements(%m: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{operands have different element types: f32 and f64}}
  %c = nn.select %m, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf64> -> tensor<4xf32>
  return
}

// -----

func.func @select_broadcast(%m: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{operands have incompatible shapes for broadcasting: tensor<3xi1>, tensor<4xf32> and tensor<4xf32>}}
  %c = nn.select %m, %a, %a : tensor<3xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @matmul_rank(%a: tensor<8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{operands must have rank 2 or more, got ranks 1 and 2}}
  %c = nn.matmul %a, %b : tensor<8xf32>, tensor<8x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @matmul_contracting(%a: tensor<4x8xf32>, %b: tensor<7x4xf32>) {
  // expected-error @+1 {{contracting dimensions differ: lhs has 8 columns, rhs has 7 rows}}
  %c = nn.matmul %a, %b : tensor<4x8xf32>, tensor<7x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x4xf32>) {
  // expected-error @+1 {{batch dimensions 2 and 3 are incompatible for broadcasting}}
  %c = nn.matmul %a, %b : tensor<2x4x8xf32>, tensor<3x8x4xf32> -> tensor<2x4x4xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{result type tensor<4x8xf32> does not match inferred type tensor<4x16xf32>}}
  %c = nn.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_bool(%a: tensor<4x4xi1>) {
  // expected-error @+1 {{element type i1 is not supported by nn.matmul}}
  %c = nn.matmul %a, %a : tensor<4x4xi1>
  return
}

// -----

func.func @transpose_perm(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{perm [0, 0] is not a permutation of the 2 axes of the operand}}
  %c = nn.transpose %a perm [0, 0] : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @transpose_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{result type tensor<4x8xf32> does not match inferred type tensor<8x4xf32>}}
  %c = nn.transpose %a perm [1, 0] : tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_to(%a: tensor<3xf32>) {
  // expected-error @+1 {{operand type tensor<3xf32> cannot be broadcast to tensor<4x8xf32>}}
  %c = nn.broadcast_to %a : tensor<3xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_to_element(%a: tensor<8xf32>) {
  // expected-error @+1 {{result type tensor<4x8xf64> does not match inferred type tensor<4x8xf32>}}
  %c = nn.broadcast_to %a : tensor<8xf32> -> tensor<4x8xf64>
  return
}

// -----

func.func @reshape_count(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{result type tensor<5x8xf32> has 40 elements but operand type tensor<4x8xf32> has 32}}
  %c = nn.reshape %a : tensor<4x8xf32> -> tensor<5x8xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{operand #1 has rank 1, expected 2}}
  %c = nn.concat %a, %b axis 0 : tensor<4x8xf32>, tensor<8xf32> -> tensor<5x8xf32>
  return
}

// -----

func.func @concat_shape(%a: tensor<4x8xf32>, %b: tensor<4x7xf32>) {
  // expected-error @+1 {{operand #1 has shape 4x7, incompatible with 4x8 outside axis 0}}
  %c = nn.concat %a, %b axis 0 : tensor<4x8xf32>, tensor<4x7xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-2 operand}}
  %c = nn.concat %a, %a axis 2 : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_none() {
  // expected-error @+1 {{expected at least one operand}}
  %c = "nn.concat"() <{axis = 0 : i64}> : () -> tensor<4xf32>
  return
}

// -----

func.func @slice_entries(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{start has 1 entries but the operand has rank 2}}
  %c = nn.slice %a start [0] limit [4] stride [1] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @slice_stride(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{stride 0 of dimension 1 must be positive}}
  %c = nn.slice %a start [0, 0] limit [4, 8] stride [1, 0] : tensor<4x8xf32>
  return
}

// -----

func.func @slice_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{slice 2:9 is out of range for dimension 1 of size 8 (need 0 <= start <= limit <= size)}}
  %c = nn.slice %a start [0, 2] limit [4, 9] stride [1, 1] : tensor<4x8xf32> -> tensor<4x7xf32>
  return
}

// -----

func.func @slice_reversed(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{slice 3:1 is out of range for dimension 0 of size 4}}
  %c = nn.slice %a start [3, 0] limit [1, 8] stride [1, 1] : tensor<4x8xf32> -> tensor<0x8xf32>
  return
}

// -----

func.func @slice_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{result type tensor<2x2xf32> does not match inferred type tensor<2x3xf32>}}
  %c = nn.slice %a start [0, 0] limit [4, 8] stride [2, 3] : tensor<4x8xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @reduce_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-2 operand}}
  %c = nn.reduce_sum %a axes [2] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_negative_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{axis -3 is out of range for a rank-2 operand}}
  %c = nn.reduce_sum %a axes [-3] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_repeated(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{axes [1, -1] name the same axis twice}}
  %c = nn.reduce_max %a axes [1, -1] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_empty_axes(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{axes must not be empty}}
  %c = nn.reduce_min %a axes [] : tensor<4x8xf32>
  return
}

// -----

func.func @reduce_mean_int(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{element type i32 is not supported by nn.reduce_mean: expected a float type}}
  %c = nn.reduce_mean %a axes [1] : tensor<4x8xi32> -> tensor<4xi32>
  return
}

// -----

func.func @reduce_max_empty(%a: tensor<4x0xf32>) {
  // expected-error @+1 {{axis 1 has size 0: nn.reduce_max needs at least one element}}
  %c = nn.reduce_max %a axes [1] : tensor<4x0xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{result type tensor<4x1xf32> does not match inferred type tensor<4xf32>}}
  %c = nn.reduce_sum %a axes [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-2 operand}}
  %c = nn.softmax %a axis 2 : tensor<4x8xf32>
  return
}

// -----

func.func @log_softmax_int(%a: tensor<4x8xi64>) {
  // expected-error @+1 {{element type i64 is not supported by nn.log_softmax: expected a float type}}
  %c = nn.log_softmax %a axis 1 : tensor<4x8xi64>
  return
}

// -----

func.func @layer_norm_axes(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{axes [0] are not the trailing axes of a rank-2 operand}}
  %c = nn.layer_norm %a axes [0] : tensor<4x8xf32>
  return
}

// -----

func.func @layer_norm_scale(%a: tensor<4x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{scale type tensor<4xf32> does not match the normalised shape tensor<8xf32>}}
  %c = nn.layer_norm %a scale %g axes [1] : tensor<4x8xf32>, tensor<4xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_norm_bias(%a: tensor<2x4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{bias type tensor<8xf32> does not match the normalised shape tensor<4x8xf32>}}
  %c = nn.layer_norm %a bias %b axes [1, 2] : tensor<2x4x8xf32>, tensor<8xf32> -> tensor<2x4x8xf32>
  return
}

// -----

func.func @layer_norm_eps(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{eps must not be negative, got -1.0}}
  %c = nn.layer_norm %a axes [1] eps -1.0 : tensor<4x8xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{input must have rank 4 (NCHW), got rank 3}}
  %c = nn.conv2d %x, %w : tensor<3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<3x3x3xf32>) {
  // expected-error @+1 {{weight must have rank 4 (FCHW), got rank 3}}
  %c = nn.conv2d %x, %w : tensor<1x3x8x8xf32>, tensor<3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{weight has 2 input channels but the input has 3}}
  %c = nn.conv2d %x, %w : tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{bias type tensor<3xf32> does not match the 4 filters: expected tensor<4xf32>}}
  %c = nn.conv2d %x, %w, %b : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_stride_entries(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{stride must have 2 entries, got 3}}
  %c = nn.conv2d %x, %w stride [1, 1, 1] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_stride_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{stride entries must be at least 1, got [0, 1]}}
  %c = nn.conv2d %x, %w stride [0, 1] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{padding entries must be at least 0, got [-1, 0]}}
  %c = nn.conv2d %x, %w padding [-1, 0] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dilation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{dilation entries must be at least 1, got [1, 0]}}
  %c = nn.conv2d %x, %w dilation [1, 0] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{window of extent 7 does not fit the padded input height 4}}
  %c = nn.conv2d %x, %w dilation [3, 1] : tensor<1x3x4x4xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x1x2xf32>
  return
}

// -----

func.func @conv_int(%x: tensor<1x3x8x8xi32>, %w: tensor<4x3x3x3xi32>) {
  // expected-error @+1 {{element type i32 is not supported by nn.conv2d: expected a float type}}
  %c = nn.conv2d %x, %w : tensor<1x3x8x8xi32>, tensor<4x3x3x3xi32> -> tensor<1x4x6x6xi32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{result type tensor<1x4x4x4xf32> does not match inferred type tensor<1x4x3x3xf32>}}
  %c = nn.conv2d %x, %w stride [2, 2] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_padding(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{padding [2, 0] must be at most half the kernel size [2, 2]}}
  %c = nn.max_pool2d %x kernel [2, 2] stride [2, 2] padding [2, 0] : tensor<1x4x8x8xf32> -> tensor<1x4x6x4xf32>
  return
}

// -----

func.func @pool_kernel(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{kernel entries must be at least 1, got [0, 2]}}
  %c = nn.max_pool2d %x kernel [0, 2] stride [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_window(%x: tensor<1x4x2x8xf32>) {
  // expected-error @+1 {{window of extent 3 does not fit the padded input height 2}}
  %c = nn.max_pool2d %x kernel [3, 3] stride [1, 1] : tensor<1x4x2x8xf32> -> tensor<1x4x1x6xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<4x8x8xf32>) {
  // expected-error @+1 {{input must have rank 4 (NCHW), got rank 3}}
  %c = nn.avg_pool2d %x kernel [2, 2] stride [2, 2] : tensor<4x8x8xf32> -> tensor<4x4x4xf32>
  return
}

// -----

func.func @avg_pool_int(%x: tensor<1x4x8x8xi32>) {
  // expected-error @+1 {{element type i32 is not supported by nn.avg_pool2d: expected a float type}}
  %c = nn.avg_pool2d %x kernel [2, 2] stride [2, 2] : tensor<1x4x8x8xi32> -> tensor<1x4x4x4xi32>
  return
}

// -----

func.func @pool_result(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{result type tensor<1x4x4x4xf32> does not match inferred type tensor<1x4x7x7xf32>}}
  %c = nn.max_pool2d %x kernel [2, 2] stride [1, 1] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @result_dynamic(%a: tensor<4xf32>) {
  // expected-error @+1 {{result must have a static shape, got tensor<?xf32>}}
  %c = "nn.reshape"(%a) : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @too_many_types(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected 1 or 2 operand types, got 3}}
  %c = nn.add %a, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @missing_result_type(%a: tensor<4xf32>, %b: tensor<1xf32>) {
  // expected-error @+1 {{expected '->' and the result type}}
  %c = nn.add %a, %b : tensor<4xf32>, tensor<1xf32>
  return
}

// -----

func.func @bad_predicate(%a: tensor<4xf32>) {
  // expected-error @+1 {{Expected `eq`, `ne`, `lt`, `le`, `gt`, or `ge`.}}
  %c = nn.cmp lq, %a, %a : tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @bad_gelu(%a: tensor<4xf32>) {
  // expected-error @+1 {{Expected `none`, or `tanh`.}}
  %c = nn.gelu %a approximate fast : tensor<4xf32>
  return
}

// -----

func.func @constant_scalar() {
  // expected-error @+1 {{expected a dense elements attribute}}
  %c = nn.constant 1.0 : f32
  return
}
