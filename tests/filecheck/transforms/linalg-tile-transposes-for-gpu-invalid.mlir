// RUN: not irkit-opt %s -p 'linalg-tile-transposes-for-gpu{tile=32 rows=5}' 2>&1 | filecheck %s --check-prefix=ROWS
// RUN: not irkit-opt %s -p 'linalg-tile-transposes-for-gpu{max-shared-bytes=-1}' 2>&1 | filecheck %s --check-prefix=SHARED
// RUN: not irkit-opt %s -p 'linalg-tile-transposes-for-gpu{tile=32 rows=8 max-threads-per-block=128}' 2>&1 | filecheck %s --check-prefix=DEVICE
// RUN: not irkit-opt %s -p 'lower-to-cuda{transpose-block=64}' 2>&1 | filecheck %s --check-prefix=PIPELINE

// Options out of range fail the pass with one line naming it.

// ROWS: error: linalg-tile-transposes-for-gpu: rows (5) must be positive and divide tile (32)
// DEVICE: error: linalg-tile-transposes-for-gpu: tile x rows = 256 threads, more than 128
// PIPELINE: error: invalid options for pass 'lower-to-cuda': transpose-block takes 2 sizes (side, threads y)
// SHARED: error: linalg-tile-transposes-for-gpu: max-shared-bytes must be >= 0
func.func @f() {
  return
}
