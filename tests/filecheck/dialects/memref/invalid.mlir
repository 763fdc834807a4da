// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// The verifiers irkit adds to upstream memref ops.

func.func @collapse_bad_shape(%m: memref<2x3x4xf32>) {
  // expected-error @+1 {{expected dimension 0 of collapsed type to be static value of 6}}
  %c = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<5x4xf32>
  return
}

// -----

func.func @collapse_element_type(%m: memref<2x3xf32>) {
  // expected-error @+1 {{expected source and result element types to match}}
  %c = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32> into memref<6xf64>
  return
}

// -----

func.func @expand_bad_shape(%m: memref<6xf32>) {
  // expected-error @+1 {{expected dimension 0 of collapsed type to be static value of 8}}
  %e = memref.expand_shape %m [[0, 1]] output_shape [2, 4] : memref<6xf32> into memref<2x4xf32>
  return
}

// -----

// expected-error @+1 {{initial value expected to be of type memref<3xf32>'s shape and element type, but was of type tensor<2xf32>}}
"memref.global"() <{sym_name = "c", sym_visibility = "private", type = memref<3xf32>, initial_value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> ()

// -----

// expected-error @+1 {{external memref.global declarations (without '=') are not supported by irkit}}
memref.global @external : memref<3xf32>

// -----

func.func @atomic_unknown_kind(%v: f32, %m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{unknown atomic_rmw kind 'subf'}}
  %a = memref.atomic_rmw subf %v, %m[%i] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @atomic_rank(%v: f32, %m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{expects the number of subscripts to be equal to memref rank 2}}
  %a = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4x4xf32>) -> f32
  return
}

// -----

func.func @alloca_scope_return_types(%v: f32) {
  %r = memref.alloca_scope -> (f32) {
    // expected-error @+1 {{Expected operand types to match parent's return types.}}
    memref.alloca_scope.return
  }
  return
}

// -----

func.func @subview_out_of_bounds(%m: memref<4xf32>) {
  // expected-error @+1 {{slice runs out of bounds in dimension 0: offset 2, size 4, stride 1 into extent 4}}
  %s = memref.subview %m[2] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1], offset: 2>>
  return
}

// -----

func.func @subview_stride_out_of_bounds(%m: memref<8x8xf32>) {
  // expected-error @+1 {{slice runs out of bounds in dimension 1: offset 0, size 3, stride 4 into extent 8}}
  %s = memref.subview %m[0, 0] [2, 3] [1, 4] : memref<8x8xf32> to memref<2x3xf32, strided<[8, 4]>>
  return
}

// -----

func.func @subview_wrong_result_offset(%m: memref<8x8xf32>) {
  // expected-error @+1 {{expected result layout offset 16 (source offset plus offsets times source strides), found 0}}
  %s = memref.subview %m[2, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32>
  return
}

// -----

func.func @subview_wrong_result_strides(%m: memref<8x8xf32>) {
  // expected-error @+1 {{expected result layout strides [8, 2] (source strides times steps, less dropped unit dimensions), found [4, 1]}}
  %s = memref.subview %m[0, 0] [2, 4] [1, 2] : memref<8x8xf32> to memref<2x4xf32>
  return
}

// -----

func.func @subview_rank_reduced_wrong_stride(%m: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{expected result layout strides [8, 1] (source strides times steps, less dropped unit dimensions), found [2]}}
  %s = memref.subview %m[%i, 0] [1, 4] [1, 1] : memref<8x8xf32> to memref<4xf32, strided<[2], offset: ?>>
  return
}
