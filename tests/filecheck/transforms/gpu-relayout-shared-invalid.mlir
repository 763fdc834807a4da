// RUN: not irkit-opt %s -p 'gpu-relayout-shared{max-shared-bytes=-1}' 2>&1 | filecheck %s

// An option out of range fails the pass with one line naming it.

// CHECK: error: gpu-relayout-shared: max-shared-bytes must be >= 0
func.func @f() {
  return
}
