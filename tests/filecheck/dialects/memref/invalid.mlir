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

// -----

// xDSL reports a wrong index count with a bare Exception. Found by tests/fuzz.
func.func @store_too_few_indices(%m: memref<8xf32>, %v: f32) {
  // expected-error @+1 {{'memref.store' op incorrect number of indices for store, expected 1 but got 0}}
  memref.store %v, %m[] : memref<8xf32>
  return
}

// -----

func.func @load_too_many_indices(%m: memref<8xf32>, %i: index) -> f32 {
  // expected-error @+1 {{'memref.load' op incorrect number of indices for load, expected 1 but got 2}}
  %v = memref.load %m[%i, %i] : memref<8xf32>
  return %v : f32
}

// -----

// xDSL checks only the sizes of memref reassociation groups, not that they
// list the dimensions in order (it does for tensor's). Found by tests/fuzz.
func.func @expand_reassociation_out_of_order(%v: memref<6xf32>) {
  // expected-error @+1 {{expected reassociation map #0 to be valid and contiguous}}
  %e = memref.expand_shape %v [[2, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
  return
}

// -----

func.func @collapse_reassociation_empty_group(%m: memref<2x3xf32>) {
  // expected-error @+1 {{expected reassociation map #1 to be valid and contiguous}}
  %c = memref.collapse_shape %m [[0, 1], []] : memref<2x3xf32> into memref<6x1xf32>
  return
}

// -----

// xDSL does not compare memref.get_global's type with the global's; the
// targets would index the global's data by the wrong shape. Found by
// tests/fuzz.
memref.global "private" constant @weights : memref<4xf32> = dense<1.0>

func.func @get_global_wrong_type() -> i32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.get_global' op result type memref<2xi32> does not match type memref<4xf32> of the global memref @weights}}
  %g = memref.get_global @weights : memref<2xi32>
  %v = memref.load %g[%c0] : memref<2xi32>
  return %v : i32
}

// -----

// A name that is not a global memref (MLIR checks the symbol).
func.func @get_global_missing() -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.get_global' op '@nowhere' does not reference a valid global memref}}
  %g = memref.get_global @nowhere : memref<4xf32>
  %v = memref.load %g[%c0] : memref<4xf32>
  return %v : f32
}

// -----

func.func @not_a_global() -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.get_global' op '@not_a_global' does not reference a valid global memref}}
  %g = memref.get_global @not_a_global : memref<4xf32>
  %v = memref.load %g[%c0] : memref<4xf32>
  return %v : f32
}

// -----

gpu.module @kernels {
  memref.global "private" @counters : memref<1x4xf32> = dense<7.0>
  gpu.func @k(%out: memref<4xf32>) kernel {
    // expected-error @+1 {{'memref.get_global' op result type memref<2xi32> does not match type memref<1x4xf32> of the global memref @counters}}
    %cs = memref.get_global @counters : memref<2xi32>
    gpu.return
  }
}
