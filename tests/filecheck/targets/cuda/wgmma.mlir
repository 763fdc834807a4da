// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true wgmma-block=128,128 mma-stages=2 max-dynamic-shared-bytes=232448 tma=false}' -t cuda | filecheck %s
// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true wgmma-block=64,64 mma-stages=2}' -t cuda | filecheck %s --check-prefix=STATIC
// RUN: irkit-opt %s -p 'lower-to-cuda' -t cuda | filecheck %s --check-prefix=OFF
// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true wgmma-block=128,128 mma-stages=3 max-dynamic-shared-bytes=232448 tma=false}' -t cuda | filecheck %s --check-prefix=RUNNING

// A warpgroup product prints as PTX's wgmma.mma_async with its operands
// named by 64-bit descriptors: the 128-byte swizzle (mode 1, bit 62), the
// stride between 8-row atoms (1024 bytes: 64 << 32) and, for B stored
// k-major (the N-major operand, imm-trans-b = 1), the leading offset between
// its 64-column panels (8192 bytes: 512 << 16), ORed with the operand's
// shared address >> 4; each accumulator element a "+f" operand, the
// scale-d predicate set (D += A B). The wait names every accumulator, so
// nothing reads one above it. The swizzled tiles are 1024-byte aligned, as
// dynamic shared memory or as static arrays. Without wgmma (the default
// where the device's facts are not filled in) the kernel is mma.sync's.

// CHECK-LABEL: __global__ void {{.*}}main_kernel(
// CHECK: extern __shared__ __align__(1024) unsigned char irkit_dynamic_shared[];
// CHECK: asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
// CHECK: __syncthreads();
// CHECK: asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
// CHECK-NEXT: uint64_t [[A:descriptor[_0-9]*]] = 0x4000004000010000ull | (uint64_t)(((uint32_t)__cvta_generic_to_shared(&a_tiles[{{.*}} + 0]) & 0x3ffffu) >> 4);
// CHECK-NEXT: uint64_t [[B:descriptor_[0-9]+]] = 0x4000004002000000ull | (uint64_t)(((uint32_t)__cvta_generic_to_shared(&b_tiles[{{.*}}]) & 0x3ffffu) >> 4);
// CHECK-NEXT: asm volatile(
// CHECK-NEXT: "{\n"
// CHECK-NEXT: ".reg .pred accumulate;\n"
// CHECK-NEXT: "setp.ne.b32 accumulate, %66, 0;\n"
// CHECK-NEXT: "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, {{.*}}, %63}, %64, %65, accumulate, 1, 1, 0, 1;\n"
// CHECK-NEXT: "}\n"
// CHECK-NEXT: : "+f"(acc[0]), "+f"(acc[1]), {{.*}} "+f"(acc[7]),
// CHECK: "+f"(acc[56]), {{.*}} "+f"(acc[63])
// CHECK-NEXT: : "l"([[A]]), "l"([[B]]), "r"(1) : "memory");
// CHECK: asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
// CHECK-NEXT: asm volatile("wgmma.wait_group.sync.aligned 0;\n"
// CHECK-NEXT: : "+f"(acc[0]), {{.*}}
// CHECK: :: "memory");
// CHECK: asm volatile("cp.async.commit_group;\n" ::);
// STATIC: __shared__ __align__(1024) __half a_tiles[8192];
// STATIC-NEXT: __shared__ __align__(1024) __half b_tiles[8192];
// STATIC: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// With three stages a group of products runs on into the next step: the
// loop's wait leaves one, the one after the loop none.
// RUNNING: asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
// RUNNING-NEXT: asm volatile("wgmma.wait_group.sync.aligned 1;\n"
// RUNNING: asm volatile("cp.async.commit_group;\n" ::);
// RUNNING-NEXT: }
// RUNNING-NEXT: asm volatile("wgmma.wait_group.sync.aligned 0;\n"
// OFF-NOT: wgmma
// OFF: mma.sync.aligned.m16n8k16
func.func @main(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
