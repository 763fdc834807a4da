// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true allow-tf32=true tf32-transpose-b=false wgmma-block=128,128 mma-stages=2 max-dynamic-shared-bytes=232448}' -t cuda | filecheck %s
// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true wgmma-block=128,128 mma-stages=2 max-dynamic-shared-bytes=232448}' -t cuda | filecheck %s --check-prefix=EXACT
// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true allow-tf32=true wgmma-block=128,128 mma-stages=2 max-dynamic-shared-bytes=232448}' -t cuda | filecheck %s --check-prefix=TRANSPOSED

// A TF32 warpgroup product prints as wgmma.mma_async m64nNk8 .tf32.tf32 on
// the f32 tiles as they are (the tensor cores drop the low mantissa bits:
// no conversion), with only the two scale immediates (PTX has no transpose
// immediates for tf32); both descriptors are K-major's (0x40000040_00010000:
// 128-byte swizzle, 1024-byte atoms); the second product's starts 8 f32 =
// 32 bytes along the rows. A's rows are copied 16 bytes at a time
// (cp.async.cg), B's elements 4 bytes at a time (cp.async.ca, the only
// cache mode PTX has for 4 bytes) into their transposed places. Without
// allow-tf32, an f32 matmul stays exact (SIMT kernel, no tensor cores).

// CHECK-LABEL: __global__ void {{.*}}main_kernel(
// CHECK: extern __shared__ __align__(1024) unsigned char irkit_dynamic_shared[];
// CHECK: asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"((uint32_t)__cvta_generic_to_shared(&a_tiles[{{.*}}])), "l"(&a[{{.*}}]));
// CHECK: asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"((uint32_t)__cvta_generic_to_shared(&b_tiles[{{.*}}])), "l"(&b[{{.*}}]));
// CHECK: asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
// CHECK-NEXT: uint64_t [[A:descriptor[_0-9]*]] = 0x4000004000010000ull | (uint64_t)(((uint32_t)__cvta_generic_to_shared(&a_tiles[{{.*}} + 0]) & 0x3ffffu) >> 4);
// CHECK-NEXT: uint64_t [[B:descriptor_[0-9]+]] = 0x4000004000010000ull | (uint64_t)(((uint32_t)__cvta_generic_to_shared(&b_tiles[{{.*}} + 0 * 32 + 0]) & 0x3ffffu) >> 4);
// CHECK-NEXT: asm volatile(
// CHECK-NEXT: "{\n"
// CHECK-NEXT: ".reg .pred accumulate;\n"
// CHECK-NEXT: "setp.ne.b32 accumulate, %66, 0;\n"
// CHECK-NEXT: "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0, %1, {{.*}}, %63}, %64, %65, accumulate, 1, 1;\n"
// CHECK-NEXT: "}\n"
// CHECK-NEXT: : "+f"(acc[0]), "+f"(acc[1]), {{.*}} "+f"(acc[7]),
// CHECK: : "l"([[A]]), "l"([[B]]), "r"(1) : "memory");
// CHECK-NEXT: uint64_t {{.*}} = 0x4000004000010000ull | (uint64_t)(((uint32_t)__cvta_generic_to_shared(&a_tiles[{{.*}} + 8]) & 0x3ffffu) >> 4);
// CHECK-NEXT: uint64_t {{.*}} = 0x4000004000010000ull | (uint64_t)(((uint32_t)__cvta_generic_to_shared(&b_tiles[{{.*}} + 0 * 32 + 8]) & 0x3ffffu) >> 4);
// CHECK: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-NOT: cvt.rna.tf32
// CHECK: asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
// By default (`tf32-transpose-b`), a tiled transpose kernel writes B's N x
// K copy first; the products' kernel then copies both operands 16 bytes at
// a time (no 4-byte copies).
// TRANSPOSED: __global__ void {{.*}}main_kernel(
// TRANSPOSED: __shared__ __align__(16) float tile[1056];
// TRANSPOSED: __syncthreads();
// TRANSPOSED: __global__ void {{.*}}main_kernel_0(
// TRANSPOSED-NOT: cp.async.ca
// TRANSPOSED: cp.async.cg.shared.global [%0], [%1], 16;
// TRANSPOSED-NOT: cp.async.ca
// TRANSPOSED: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// TRANSPOSED-NOT: cp.async.ca
// EXACT-NOT: wgmma
// EXACT-NOT: mma.sync
func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
