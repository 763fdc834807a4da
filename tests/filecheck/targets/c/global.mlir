// RUN: irkit-opt %s -t c | filecheck %s
// RUN: irkit-opt %s -t c -o %t.c && cc -std=c99 -O2 -Wall -Wextra -Werror -c %t.c -o %t.o
// REQUIRES: cc

// A constant global is a static const array with exact values; a splat is
// expanded. The view of a global reads it through its layout.
// CHECK:       static const float weights[4] = {
// CHECK-NEXT:      0x1.8p+0f, NAN, -INFINITY, 0x1p-149f,
// CHECK-NEXT:  };
// CHECK:       static int32_t state[3] = {
// CHECK-NEXT:      7, 7, 7,
// CHECK-NEXT:  };
// CHECK-NOT:   unused
// CHECK-LABEL: int read({{.*}}) {
// CHECK:         float w = weights[i * 2 + j];
"memref.global"() <{sym_name = "weights", sym_visibility = "private",
  type = memref<2x2xf32>, constant,
  initial_value = dense<[[1.5, 0x7FC00000], [0xFF800000, 1.0e-45]]> : tensor<2x2xf32>}>
  : () -> ()
"memref.global"() <{sym_name = "state", sym_visibility = "private",
  type = memref<3xi32>, initial_value = dense<7> : tensor<3xi32>}> : () -> ()
"memref.global"() <{sym_name = "unused", sym_visibility = "private",
  type = memref<3xi32>, initial_value = dense<7> : tensor<3xi32>}> : () -> ()

func.func @read(%i: index, %j: index, %out: memref<f32> {irkit.output}, %s: memref<i32> {irkit.output}) {
  %g = memref.get_global @weights : memref<2x2xf32>
  %w = memref.load %g[%i, %j] : memref<2x2xf32>
  memref.store %w, %out[] : memref<f32>
  %st = memref.get_global @state : memref<3xi32>
  %v = memref.load %st[%i] : memref<3xi32>
  memref.store %v, %s[] : memref<i32>
  return
}
