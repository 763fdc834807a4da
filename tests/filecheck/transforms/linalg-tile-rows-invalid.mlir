// RUN: not irkit-opt %s -p 'linalg-tile-rows{max-stack-bytes=-1}' 2>&1 | filecheck %s
// RUN: not irkit-opt %s -p 'linalg-tile-rows{vector-bits=-1}' 2>&1 | filecheck %s

// A negative budget or vector width fails the pass with one line naming them.

// CHECK: error: linalg-tile-rows: max-stack-bytes and vector-bits must be >= 0
func.func @f() {
  return
}
