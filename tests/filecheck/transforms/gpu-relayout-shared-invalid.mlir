// RUN: not irkit-opt %s -p 'gpu-relayout-shared{max-shared-bytes=-1}' 2>&1 | filecheck %s
// RUN: not irkit-opt %s -p 'gpu-relayout-shared{max-dynamic-shared-bytes=-2}' 2>&1 | filecheck %s --check-prefix=DYNAMIC

// An option out of range fails the pass with one line naming it.

// CHECK: error: gpu-relayout-shared: max-shared-bytes must be >= 0
// DYNAMIC: error: gpu-relayout-shared: max-dynamic-shared-bytes must be >= 0 (or -1: max-shared-bytes)
func.func @f() {
  return
}
