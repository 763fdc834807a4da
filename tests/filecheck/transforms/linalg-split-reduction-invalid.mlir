// RUN: not irkit-opt %s -p 'linalg-split-reduction{multiprocessors=-1}' 2>&1 | filecheck %s
// RUN: not irkit-opt %s -p 'linalg-split-reduction{multiprocessors=8 k-step=0}' 2>&1 | filecheck %s

// CHECK: linalg-split-reduction: min-block, k-step and min-steps must be positive, multiprocessors 0 (off) or positive
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
