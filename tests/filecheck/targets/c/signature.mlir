// RUN: irkit-opt %s -t c | filecheck %s
// RUN: irkit-opt %s -t c -o %t.c && cc -std=c99 -O2 -Wall -Wextra -Werror -c %t.c -o %t.o
// REQUIRES: cc

// The unit includes what it uses, and declares every function first.
// CHECK:       #include <stdint.h>
// CHECK:       #include <string.h>
// CHECK:       int f(const float *restrict a, int64_t n, double scale, float *restrict out);
// CHECK:       int a_x28__x29__x3B__x20_system_x28__x22_rm_x22__x29_(float *restrict out);
// CHECK:       int main_fn(void);

// Inputs are const, every pointer is restrict, scalars pass by value, the
// result is a status.
// CHECK-LABEL: int f(const float *restrict a, int64_t n, double scale, float *restrict out) {
// CHECK:         return 0;
// CHECK-NEXT:  }
func.func @f(%a: memref<4xf32>, %n: index, %scale: f64, %out: memref<4xf32> {irkit.output}) {
  return
}

// A symbol cannot inject C: every byte outside [A-Za-z0-9_] is escaped.
// CHECK-LABEL: int a_x28__x29__x3B__x20_system_x28__x22_rm_x22__x29_(float *restrict out) {
func.func @"a(); system(\"rm\")"(%out: memref<4xf32> {irkit.output}) {
  return
}

// `main` would clash with the C entry point.
// CHECK-LABEL: int main_fn(void) {
func.func @main() {
  return
}

// Only functions with bodies are printed.
// CHECK-NOT: external
func.func private @external(%a: memref<4xf32>)
