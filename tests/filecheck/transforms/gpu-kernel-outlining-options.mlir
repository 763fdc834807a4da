// RUN: not irkit-opt %s -p 'gpu-kernel-outlining{min-blocks-per-sm=-1}' 2>&1 | filecheck %s

// An option out of range fails the pass with one line naming it.

// CHECK: error: gpu-kernel-outlining: min-blocks-per-sm must be >= 0
func.func @f() {
  return
}
