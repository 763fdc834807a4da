// RUN: not irkit-opt %s -p 'gpu-promote-accumulators{max-elements=0}' 2>&1 | filecheck %s --check-prefix=ELEMENTS
// RUN: not irkit-opt %s -p 'gpu-promote-accumulators{max-unroll=-1}' 2>&1 | filecheck %s --check-prefix=UNROLL

// Options out of range fail the pass with one line naming it.

// ELEMENTS: error: gpu-promote-accumulators: max-elements must be >= 1 and max-unroll >= 0
// UNROLL: error: gpu-promote-accumulators: max-elements must be >= 1 and max-unroll >= 0
func.func @f() {
  return
}
