// RUN: not irkit-opt %s -p 'linalg-tile-rows-for-gpu{reduction-block=3}' 2>&1 | filecheck %s --check-prefix=THREADS
// RUN: not irkit-opt %s -p 'linalg-tile-rows-for-gpu{reduction-block=2048}' 2>&1 | filecheck %s --check-prefix=THREADS
// RUN: not irkit-opt %s -p 'linalg-tile-rows-for-gpu{max-shared-bytes=-1}' 2>&1 | filecheck %s --check-prefix=SHARED

// Options out of range fail the pass with one line naming it.

// THREADS: error: linalg-tile-rows-for-gpu: reduction-block must be 0 (chosen per row length) or a power of two in 1..1024
// SHARED: error: linalg-tile-rows-for-gpu: max-shared-bytes must be >= 0
func.func @f() {
  return
}
