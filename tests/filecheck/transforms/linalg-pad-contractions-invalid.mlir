// RUN: not irkit-opt %s -p 'linalg-pad-contractions{multiples=4,4}' 2>&1 | filecheck %s --check-prefix=SIZES
// RUN: not irkit-opt %s -p 'linalg-pad-contractions{multiples=4,0,2}' 2>&1 | filecheck %s --check-prefix=SIZES
// RUN: not irkit-opt %s -p 'linalg-pad-contractions{max-growth-percent=-1}' 2>&1 | filecheck %s --check-prefix=GROWTH
// RUN: not irkit-opt %s -p 'linalg-pad-contractions{half-reduction-multiple=-1}' 2>&1 | filecheck %s --check-prefix=HALF
// RUN: not irkit-opt %s -p 'linalg-pad-contractions{gather-multiples=4,4}' 2>&1 | filecheck %s --check-prefix=GATHER

// Options out of range fail the pass with one line naming it.

// SIZES: error: linalg-pad-contractions: multiples takes 3 positive sizes (M, N, K)
// GROWTH: error: linalg-pad-contractions: max-growth-percent must be >= 0
// HALF: error: linalg-pad-contractions: half-reduction-multiple must be >= 0 (0: the K of multiples)
// GATHER: error: linalg-pad-contractions: gather-multiples takes 3 positive sizes (M, N, K)
func.func @f() {
  return
}
