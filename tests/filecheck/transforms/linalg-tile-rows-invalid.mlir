// RUN: not irkit-opt %s -p 'linalg-tile-rows{max-stack-bytes=-1}' 2>&1 | filecheck %s

// A negative budget fails the pass with one line naming it.

// CHECK: error: linalg-tile-rows: max-stack-bytes must be >= 0
func.func @f() {
  return
}
