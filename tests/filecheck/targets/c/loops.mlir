// RUN: irkit-opt %s -t c | filecheck %s
// RUN: irkit-opt %s -t c -o %t.c && cc -std=c99 -O2 -Wall -Wextra -Werror -c %t.c -o %t.o
// RUN: irkit-opt %s -t c -o %t.c && cc -std=c99 -O2 -Wall -Wextra -Werror -fopenmp -c %t.c -o %t.o
// REQUIRES: cc

// Only the outermost scf.parallel gets the OpenMP pragma (collapsed over its
// induction variables); a nested one is a plain loop nest. A body with a
// loop in it is not `simd`: only straight-line bodies are.
// CHECK-LABEL: int nested(const float *restrict a, float *restrict out) {
// CHECK:         #ifdef _OPENMP
// CHECK-NEXT:    #pragma omp parallel for collapse(2)
// CHECK-NEXT:    #endif
// CHECK-NEXT:    for (int64_t i = 0; i < 4; i += 1) {
// CHECK-NEXT:      for (int64_t j = 0; j < 2; j += 1) {
// CHECK-NOT:         #pragma
// CHECK:             for (int64_t k = 0; k < 2; k += 1) {
// CHECK:               out[i * 4 + j * 2 + k] = y;
// CHECK:         return 0;
func.func @nested(%a: memref<4x2x2xf32>, %out: memref<4x2x2xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c2) step (%c1, %c1) {
    scf.parallel (%k) = (%c0) to (%c2) step (%c1) {
      %x = memref.load %a[%i, %j, %k] : memref<4x2x2xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %out[%i, %j, %k] : memref<4x2x2xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// A collapsed nest with a straight-line body is `simd` too: gcc vectorises
// a collapsed nest only when told its iterations are independent.
// CHECK-LABEL: int flat(const float *restrict a, float *restrict out) {
// CHECK:         #pragma omp parallel for simd collapse(2)
// CHECK-NEXT:    #endif
// CHECK-NEXT:    for (int64_t i = 0; i < 4; i += 1) {
// CHECK-NEXT:      for (int64_t j = 0; j < 8; j += 1) {
func.func @flat(%a: memref<4x8xf32>, %out: memref<4x8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<4x8xf32>
    %y = math.exp %x : f32
    memref.store %y, %out[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  return
}

// An scf.for with iter_args: the carried value is a variable declared before
// the loop, read as the block argument and assigned where the body yields.
// CHECK-LABEL: int sum(const double *restrict a, double *restrict out) {
// CHECK:         double total = zero;
// CHECK-NEXT:    for (int64_t i = 0; i < 8; i += 1) {
// CHECK-NEXT:      double x = a[i];
// CHECK-NEXT:      double next = total + x;
// CHECK-NEXT:      total = next;
// CHECK-NEXT:    }
// CHECK-NEXT:    out[0] = total;
func.func @sum(%a: memref<8xf64>, %out: memref<f64> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %total = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f64) {
    %x = memref.load %a[%i] : memref<8xf64>
    %next = arith.addf %acc, %x : f64
    scf.yield %next : f64
  }
  memref.store %total, %out[] : memref<f64>
  return
}

// A parallel loop that could return from the function (an assertion) or
// that reduces runs sequentially: no pragma.
// CHECK-LABEL: int checked({{.*}}) {
// CHECK-NOT:     #pragma
// CHECK:         if (!ok) return 1;
// CHECK:         return 0;
func.func @checked(%a: memref<4xi32>, %out: memref<4xi32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %a[%i] : memref<4xi32>
    %ok = arith.cmpi sge, %x, %zero : i32
    cf.assert %ok, "negative"
    memref.store %x, %out[%i] : memref<4xi32>
    scf.reduce
  }
  return
}
