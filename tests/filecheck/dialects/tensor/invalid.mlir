// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// The verifiers irkit adds to upstream tensor ops.

func.func @collapse_bad_shape(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{expected dimension 0 of collapsed type to be static value of 6}}
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<5x4xf32>
  return
}

// -----

func.func @collapse_rank0_non_unit(%t: tensor<2x1xf32>) {
  // expected-error @+1 {{expected tensor<2x1xf32> to have only unit dimensions to reshape it to or from a rank-0 tensor}}
  %c = tensor.collapse_shape %t [] : tensor<2x1xf32> into tensor<f32>
  return
}

// -----

func.func @collapse_element_type(%t: tensor<2x3xf32>) {
  // expected-error @+1 {{expected source and result element types to match}}
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<2x3xf32> into tensor<6xf64>
  return
}

// -----

func.func @expand_output_shape(%t: tensor<6xf32>) {
  // expected-error @+1 {{expected output_shape dimension 1 to be 3, but found 2}}
  %e = tensor.expand_shape %t [[0, 1]] output_shape [3, 3] : tensor<6xf32> into tensor<3x2xf32>
  return
}

// -----

func.func @extract_slice_out_of_bounds(%t: tensor<3x7xf32>) {
  // expected-error @+1 {{slice runs out of bounds in dimension 1: offset 1, size 4, stride 2 into extent 7}}
  %s = tensor.extract_slice %t[0, 1] [3, 4] [1, 2] : tensor<3x7xf32> to tensor<3x4xf32>
  return
}

// -----

func.func @extract_slice_result_type(%t: tensor<3x7xf32>) {
  // expected-error @+1 {{expected result type dimension 1 to be 2, but found 3}}
  %s = tensor.extract_slice %t[0, 1] [3, 2] [1, 2] : tensor<3x7xf32> to tensor<3x3xf32>
  return
}

// -----

func.func @extract_slice_bad_rank_reduction(%t: tensor<3x7xf32>) {
  // expected-error @+1 {{expected result type to be [2, 7] or a rank-reduction of it, found [14]}}
  %s = tensor.extract_slice %t[0, 0] [2, 7] [1, 1] : tensor<3x7xf32> to tensor<14xf32>
  return
}

// -----

func.func @insert_slice_out_of_bounds(%s: tensor<2x2xf32>, %t: tensor<3x3xf32>) {
  // expected-error @+1 {{slice runs out of bounds in dimension 0: offset 2, size 2, stride 1 into extent 3}}
  %r = tensor.insert_slice %s into %t[2, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<3x3xf32>
  return
}

// -----

func.func @insert_slice_source_type(%s: tensor<2x3xf32>, %t: tensor<3x3xf32>) {
  // expected-error @+1 {{expected source type dimension 1 to be 2, but found 3}}
  %r = tensor.insert_slice %s into %t[0, 0] [2, 2] [1, 1] : tensor<2x3xf32> into tensor<3x3xf32>
  return
}

// -----

func.func @pad_result_shape(%t: tensor<2x8xf32>, %cst: f32) {
  // expected-error @+1 {{expected result dimension 1 to be 10, but found 9}}
  %p = tensor.pad %t low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<2x8xf32> to tensor<2x9xf32>
  return
}

// -----

func.func @from_elements_count(%a: f32) {
  // expected-error @+1 {{expected 3 elements for tensor<3xf32>, found 2}}
  %t = tensor.from_elements %a, %a : tensor<3xf32>
  return
}

// -----

func.func @expand_dynamic_without_output_shape(%x: tensor<?xf32>) {
  // expected-error @+1 {{expected 'output_shape' for a dynamically shaped result}}
  %e = tensor.expand_shape %x [[0, 1]] : tensor<?xf32> into tensor<?x1xf32>
  return
}

// -----

func.func @empty_dynamic_without_size() {
  // expected-error @+1 {{expected 1 dynamic size operand(s) for tensor<?x4xf32>, found 0}}
  %e = tensor.empty() : tensor<?x4xf32>
  return
}

// -----

func.func @empty_static_with_size(%n: index) {
  // expected-error @+1 {{expected 0 dynamic size operand(s) for tensor<4xf32>, found 1}}
  %e = tensor.empty(%n) : tensor<4xf32>
  return
}

// -----

func.func @parallel_insert_slice_out_of_bounds(%t: tensor<4xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (2) shared_outs(%o = %init) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{slice runs out of bounds}}
      tensor.parallel_insert_slice %t into %o[6] [4] [1] : tensor<4xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
