// RUN: irkit-opt %s -t c | filecheck %s
// RUN: irkit-opt %s -t c -o %t.c && cc -std=c99 -O2 -Wall -Wextra -Werror -c %t.c -o %t.o
// REQUIRES: cc

// 1-D vectors in GCC's vector extensions, one typedef per vector type; the
// ops as statements (no vector crosses a function boundary, so a build
// without -march draws no -Wpsabi): memcpy loads and stores, an
// initialiser broadcast, a per-lane fmaf loop; carried by an scf.for.

// CHECK:       typedef float irkit_v16f32 __attribute__((vector_size(64)));
// CHECK:       typedef double irkit_v8f64 __attribute__((vector_size(64)));
// CHECK-NOT:   typedef
// CHECK-LABEL: int step(const float *restrict a, const float *restrict b, float *restrict c) {
// CHECK:         irkit_v16f32 acc;
// CHECK-NEXT:    memcpy(&acc, &c[1 * 32 + 16], sizeof acc);
// CHECK:         irkit_v16f32 sum = acc;
// CHECK-NEXT:    for (int64_t k = 0; k < 4; k += 1) {
// CHECK-NEXT:      irkit_v16f32 row;
// CHECK-NEXT:      memcpy(&row, &b[k * 32 + 16], sizeof row);
// CHECK-NEXT:      float x = a[k];
// CHECK-NEXT:      irkit_v16f32 xs = {x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
// CHECK-NEXT:      irkit_v16f32 next;
// CHECK-NEXT:      for (int64_t lane = 0; lane < 16; lane += 1) next[lane] = fmaf(xs[lane], row[lane], sum[lane]);
// CHECK-NEXT:      sum = next;
// CHECK-NEXT:    }
// CHECK-NEXT:    memcpy(&c[1 * 32 + 16], &sum, sizeof sum);
func.func @step(%a: memref<4xf32>, %b: memref<4x32xf32>, %c: memref<2x32xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %acc = vector.load %c[%c1, %c16] : memref<2x32xf32>, vector<16xf32>
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %acc) -> (vector<16xf32>) {
    %row = vector.load %b[%k, %c16] : memref<4x32xf32>, vector<16xf32>
    %x = memref.load %a[%k] : memref<4xf32>
    %xs = vector.broadcast %x : f32 to vector<16xf32>
    %next = vector.fma %xs, %row, %s : vector<16xf32>
    scf.yield %next : vector<16xf32>
  }
  vector.store %sum, %c[%c1, %c16] : memref<2x32xf32>, vector<16xf32>
  return
}

// f64 lanes use libm's fma.
// CHECK-LABEL: int double_step(
// CHECK:         for (int64_t lane = 0; lane < 8; lane += 1) r[lane] = fma(v[lane], v[lane], v[lane]);
func.func @double_step(%a: memref<8xf64>, %out: memref<8xf64> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<8xf64>, vector<8xf64>
  %r = vector.fma %v, %v, %v : vector<8xf64>
  vector.store %r, %out[%c0] : memref<8xf64>, vector<8xf64>
  return
}
