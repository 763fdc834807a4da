// RUN: irkit-opt %s -p 'lower-to-cuda{allow-tf32=true}' -t cuda | filecheck %s
// RUN: irkit-opt %s -p 'lower-to-cuda' -t cuda | filecheck %s --check-prefix=OFF

// A TF32 product prints as PTX's m16n8k8 tf32 mma.sync; each f32 fragment
// element is first converted by cvt.rna.tf32.f32 (a plain asm: nvcc may
// share one conversion between the products that read it) into the 32-bit
// register the instruction reads. Without allow-tf32 the f32 matmul has no
// tensor-core instruction at all.

// CHECK-LABEL: __global__ void {{.*}}main_kernel(
// CHECK-NOT: ldmatrix
// CHECK: uint32_t [[A0:tf32[_0-9]*]], [[A1:tf32_[0-9]+]], [[A2:tf32_[0-9]+]], [[A3:tf32_[0-9]+]];
// CHECK-NEXT: asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"([[A0]]) : "f"(a_fragments[0]));
// CHECK-NEXT: asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"([[A1]]) : "f"(a_fragments[1]));
// CHECK-NEXT: asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"([[A2]]) : "f"(a_fragments[2]));
// CHECK-NEXT: asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"([[A3]]) : "f"(a_fragments[3]));
// CHECK-NEXT: uint32_t [[B0:tf32_[0-9]+]], [[B1:tf32_[0-9]+]];
// CHECK-NEXT: asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"([[B0]]) : "f"(b_fragments[0]));
// CHECK-NEXT: asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"([[B1]]) : "f"(b_fragments[1]));
// CHECK-NEXT: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
// CHECK-NEXT:   : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
// CHECK-NEXT:   : "r"([[A0]]), "r"([[A1]]), "r"([[A2]]), "r"([[A3]]), "r"([[B0]]), "r"([[B1]]));
// OFF-NOT: mma.sync
// OFF-NOT: cvt.rna
func.func @main(%a: tensor<128x32xf32>, %b: tensor<32x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x32xf32>, tensor<32x128xf32>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
