// RUN: irkit-opt %s --split-input-file -p linalg-fold-unit-extent-dims --check-semantics | filecheck %s

// A one-row matmul (loop d0 of extent 1) is a matrix-vector product: the
// row dimension of %x and of the accumulator is collapsed away, the result
// expanded back.

// CHECK-LABEL: func.func @one_row_matmul
// CHECK:         %[[X:.*]] = tensor.collapse_shape %x {{\[\[}}0, 1]] : tensor<1x8xf32> into tensor<8xf32>
// CHECK-NEXT:    %[[ACC:.*]] = tensor.collapse_shape %acc {{\[\[}}0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK-NEXT:    %[[Y:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[X]], %w : tensor<8xf32>, tensor<4x8xf32>) outs(%[[ACC]] : tensor<4xf32>)
// CHECK:         tensor.expand_shape %[[Y]] {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
func.func @one_row_matmul(%x: tensor<1x8xf32>, %w: tensor<4x8xf32>, %acc: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x8xf32>, tensor<4x8xf32>) outs(%acc : tensor<1x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// -----

// A chain over 1x6: the reshapes between the two ops cancel, and the
// empty tensors are collapsed with them. linalg.index of the unit loop is
// the constant 0, of the other loop renumbered.

// CHECK-LABEL: func.func @chain_with_indices
// CHECK:         %[[A:.*]] = tensor.collapse_shape %a {{\[\[}}0, 1]]
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<6xf32>
// CHECK:         %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[A]] : tensor<6xf32>) outs(%[[E]] : tensor<6xf32>)
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:           linalg.index 0 : index
// CHECK-NOT:     tensor.expand_shape %[[T]]
// CHECK:         %[[U:.*]] = linalg.generic {{.*}} ins(%[[T]] : tensor<6xf32>)
// CHECK:         tensor.expand_shape %[[U]] {{\[\[}}0, 1]] output_shape [1, 6]
func.func @chain_with_indices(%a: tensor<1x6xf32>) -> tensor<1x6xf32> {
  %e = tensor.empty() : tensor<1x6xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x6xf32>) outs(%e : tensor<1x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %n = arith.index_cast %k : index to i32
    %f = arith.sitofp %n : i32 to f32
    %y = arith.addf %x, %f : f32
    linalg.yield %y : f32
  } -> tensor<1x6xf32>
  %u = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<1x6xf32>) outs(%e : tensor<1x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<1x6xf32>
  return %u : tensor<1x6xf32>
}

// -----

// A reduction loop of extent 1 goes too (the product is elementwise now);
// an operand whose every dimension is 1 keeps its last one, read at 0.

// CHECK-LABEL: func.func @unit_reduction
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<3xf32>, tensor<5xf32>, tensor<1xf32>)
func.func @unit_reduction(%a: tensor<3x1xf32>, %b: tensor<1x5xf32>, %s: tensor<1x1xf32>, %acc: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d2, 0)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b, %s : tensor<3x1xf32>, tensor<1x5xf32>, tensor<1x1xf32>) outs(%acc : tensor<3x5xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %c: f32):
    %m = arith.mulf %x, %y : f32
    %n = arith.mulf %m, %z : f32
    %t = arith.addf %n, %c : f32
    linalg.yield %t : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// A window of extent 1 in a compound index: the unit loop is 0 in it.

// CHECK-LABEL: func.func @unit_window
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
func.func @unit_window(%x: tensor<6xf32>, %k: tensor<1xf32>, %acc: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %k : tensor<6xf32>, tensor<1xf32>) outs(%acc : tensor<6xf32>) {
  ^bb0(%a: f32, %w: f32, %c: f32):
    %m = arith.mulf %a, %w : f32
    %t = arith.addf %m, %c : f32
    linalg.yield %t : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Left alone: no loop of extent 1; only loops of extent 1.

// CHECK-LABEL: func.func @no_unit_loop
// CHECK-NOT:     tensor.collapse_shape
// CHECK-LABEL: func.func @only_unit_loops
// CHECK-NOT:     tensor.collapse_shape
func.func @no_unit_loop(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @only_unit_loops(%a: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %e = tensor.empty() : tensor<1x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

// -----

// Left alone: with the unit output row `d0` at 0, the window `d0 * 2 + d1`
// would read the padded input's 4 rows as `d1` alone, whose range is the
// window's 3.

// CHECK-LABEL: func.func @padded_window
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         affine_map<(d0, d1) -> (d0 * 2 + d1)>
func.func @padded_window(%x: tensor<4xf32>, %w: tensor<3xf32>, %acc: tensor<1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 2 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : tensor<4xf32>, tensor<3xf32>) outs(%acc : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %m, %c : f32
    linalg.yield %t : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}

// -----

// A slice of an expand that leaves the split groups whole is taken before
// the expand (`SliceBeforeExpand`): a convolution's padded product
// (`linalg-conv-to-im2col`) at batch 1, whose batch loop this pass drops,
// is sliced after an expand of the batch; with the slice first, that expand
// composes with the reshapes after the slice. A slice that cuts a split
// group stays after the expand.

// CHECK-LABEL: func.func @slice_before_expand
// CHECK:         %[[S:.*]] = tensor.extract_slice %x[0, 0] [4, 6] [1, 1] : tensor<4x8xf32> to tensor<4x6xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2]] output_shape [1, 4, 6] : tensor<4x6xf32> into tensor<1x4x6xf32>
// CHECK:         %[[CUT:.*]] = tensor.expand_shape %x {{\[}}[0, 1], [2]] output_shape [2, 2, 8]
// CHECK-NEXT:    tensor.extract_slice %[[CUT]][0, 0, 0] [2, 1, 8] [1, 1, 1]
func.func @slice_before_expand(%x: tensor<4x8xf32>) -> (tensor<1x4x6xf32>, tensor<2x1x8xf32>) {
  %e = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 4, 8] : tensor<4x8xf32> into tensor<1x4x8xf32>
  %s = tensor.extract_slice %e[0, 0, 0] [1, 4, 6] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x4x6xf32>
  %cut = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 2, 8] : tensor<4x8xf32> into tensor<2x2x8xf32>
  %t = tensor.extract_slice %cut[0, 0, 0] [2, 1, 8] [1, 1, 1] : tensor<2x2x8xf32> to tensor<2x1x8xf32>
  return %s, %t : tensor<1x4x6xf32>, tensor<2x1x8xf32>
}
