// RUN: irkit-opt %s -p convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fold-unit-extent-dims,linalg-fuse-elementwise,linalg-collapse-dims | filecheck %s

// What convert-nn-to-linalg builds must be what the passes after it match:
// its `tensor.empty` is irkit's op (as the parser builds it), so
// linalg-collapse-dims folds the reshapes of the fills and empty tensors of a
// lowered layer norm, and every op of it walks the same 6 rows (one row
// group for linalg-tile-rows-for-gpu). With xDSL's base class the folds
// missed them: `tensor.collapse_shape` of 2x3 fills and empties stayed, and
// an imported GPT-2 block took 19 kernels where torch-mlir's takes 12.

// CHECK-LABEL: func.func @layer_norm
func.func @layer_norm(%x: tensor<2x3x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  // The mean: a fill of 6 rows, the sum, the division.
  // CHECK:      %[[E0:.*]] = tensor.empty() : tensor<6xf32>
  // CHECK-NEXT: %[[F0:.*]] = linalg.generic {{.*}} outs(%[[E0]] : tensor<6xf32>)
  // CHECK:      %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<6x8xf32>) outs(%[[F0]] : tensor<6xf32>)
  // CHECK:      %[[E1:.*]] = tensor.empty() : tensor<6xf32>
  // CHECK-NEXT: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<6xf32>) outs(%[[E1]] : tensor<6xf32>)
  // The variance, its fill of 6 rows too.
  // CHECK:      %[[E2:.*]] = tensor.empty() : tensor<6xf32>
  // CHECK-NEXT: %[[F2:.*]] = linalg.generic {{.*}} outs(%[[E2]] : tensor<6xf32>)
  // CHECK:      linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %[[MEAN]] : tensor<6x8xf32>, tensor<6xf32>) outs(%[[F2]] : tensor<6xf32>)
  // CHECK:      tensor.empty() : tensor<6xf32>
  // CHECK:      tensor.empty() : tensor<6x8xf32>
  // CHECK:      %[[Y:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<6x8xf32>)
  // Only the input is collapsed and the result expanded: no reshape of a
  // fill or of an empty tensor is left.
  // CHECK-NOT:  tensor.collapse_shape
  // CHECK:      tensor.expand_shape %[[Y]] {{\[}}[0, 1], [2]] output_shape [2, 3, 8]
  // CHECK-NOT:  tensor.collapse_shape
  %y = nn.layer_norm %x scale %g bias %b axes [-1] : tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}
