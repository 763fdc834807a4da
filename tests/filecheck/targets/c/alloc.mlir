// RUN: irkit-opt %s -t c | filecheck %s
// RUN: irkit-opt %s -t c -o %t.c && cc -std=c99 -O2 -Wall -Wextra -Werror -c %t.c -o %t.o
// REQUIRES: cc

// A heap buffer with MLIR's `alignment` (linalg-pack-operands' packed
// operands): C99 has no aligned allocation, so `malloc` takes alignment - 1
// bytes more, the buffer starts at the next boundary, and `memref.dealloc`
// frees what `malloc` returned. Without `alignment`: plain `malloc`/`free`.
// CHECK-LABEL: int aligned(const float *restrict a, float *restrict out) {
// CHECK:         void *packed_base = malloc(sizeof(float) * 48 + 63);
// CHECK-NEXT:    if (packed_base == NULL) return -1;
// CHECK-NEXT:    float *packed = (float *)(((uintptr_t)packed_base + 63) & ~(uintptr_t)63);
// CHECK-NEXT:    float *plain = (float *)malloc(sizeof(float) * 48);
// CHECK-NEXT:    if (plain == NULL) return -1;
// CHECK:         packed[i] = x;
// CHECK:         free(plain);
// CHECK:         free(packed_base);
// CHECK-NOT:     free(packed);
// CHECK:         return 0;
func.func @aligned(%a: memref<48xf32>, %out: memref<48xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %packed = memref.alloc() {alignment = 64 : i64} : memref<48xf32>
  %plain = memref.alloc() : memref<48xf32>
  scf.for %i = %c0 to %c48 step %c1 {
    %x = memref.load %a[%i] : memref<48xf32>
    memref.store %x, %packed[%i] : memref<48xf32>
    %y = memref.load %packed[%i] : memref<48xf32>
    memref.store %y, %plain[%i] : memref<48xf32>
    %z = memref.load %plain[%i] : memref<48xf32>
    memref.store %z, %out[%i] : memref<48xf32>
  }
  memref.dealloc %plain : memref<48xf32>
  memref.dealloc %packed : memref<48xf32>
  return
}
