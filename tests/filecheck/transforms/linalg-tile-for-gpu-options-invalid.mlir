// RUN: not irkit-opt %s -p 'linalg-tile-for-gpu{multiprocessors=-1}' 2>&1 | filecheck %s --check-prefix=GRID
// RUN: not irkit-opt %s -p 'linalg-tile-for-gpu{matmul-block=0,64,16}' 2>&1 | filecheck %s --check-prefix=SIZES

// Options out of range fail the pass with one line naming it.

// GRID: error: linalg-tile-for-gpu: multiprocessors must be 0 (off) or positive, not -1
// SIZES: error: linalg-tile-for-gpu: tile sizes must be positive
func.func @f() {
  return
}
