// RUN: irkit-opt %s -p 'lower-to-cuda' -t cuda | filecheck %s

// A tensor-core matmul on partial tiles (200x136x40 f16: no 128x128x32
// tile divides it) prints its copies in PTX's zero-filling form, the valid
// bytes (16 inside A, 0 past its rows or columns) as the src-size operand,
// the source row and column clamped inside A; each store of the product is
// guarded by the output's extents.

// CHECK: bool [[ROW_IN:v[0-9]+]] = (uint64_t)[[ROW:v[0-9]+]] < (uint64_t)200;
// CHECK-NEXT: int64_t [[ROW_CLAMPED:v[0-9]+]] = (uint64_t)[[ROW]] < (uint64_t)199 ? [[ROW]] : 199;
// CHECK-NEXT: bool [[COL_IN:v[0-9]+]] = (uint64_t)[[COL:v[0-9]+]] < (uint64_t)40;
// CHECK-NEXT: bool [[IN:v[0-9]+]] = (bool)([[ROW_IN]] & [[COL_IN]]);
// CHECK-NEXT: int64_t [[COL_CLAMPED:v[0-9]+]] = (uint64_t)[[COL]] < (uint64_t)32 ? [[COL]] : 32;
// CHECK-NEXT: int64_t [[VALID:v[0-9]+]] = [[IN]] ? 16 : 0;
// CHECK-NEXT: asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"({{.*}}), "l"(&a[[[ROW_CLAMPED]] * 40 + [[COL_CLAMPED]]]), "r"((uint32_t)([[VALID]])));
// CHECK: float {{v[0-9]+}} = acc[0];
// CHECK: bool [[M_IN:v[0-9]+]] = (uint64_t)[[I:v[0-9]+]] < (uint64_t)200;
// CHECK-NEXT: bool [[N_IN:v[0-9]+]] = (uint64_t)[[J:v[0-9]+]] < (uint64_t)136;
// CHECK-NEXT: bool [[STORE_IN:v[0-9]+]] = (bool)([[M_IN]] & [[N_IN]]);
// CHECK-NEXT: if ([[STORE_IN]]) {
// CHECK-NEXT: out[[[I]] * 136 + [[J]]] = v{{[0-9]+}};
func.func @main(%a: tensor<200x40xf16>, %b: tensor<40x136xf16>) -> tensor<200x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x40xf16>, tensor<40x136xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %r : tensor<200x136xf32>
}
