// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true wgmma-block=128,128 mma-stages=3 max-dynamic-shared-bytes=232448}' -t cuda | filecheck %s
// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true wgmma-block=128,128 mma-stages=3 max-dynamic-shared-bytes=232448}' -t cuda -o %t.cu
// RUN: nvcc -arch=sm_90a -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.cubin %t.cu

// TMA copies (the default with wgmma): the kernel takes a tensor map of
// each matrix it copies by TMA, by value (`__grid_constant__`) after its
// other parameters, and the launch plan names what the runtime encodes into
// them (the buffer and the box). Thread 0 makes the mbarriers (the init
// then the fence that publishes it to the async proxy), expects each step's
// bytes and starts the bulk tensor copies, coordinates innermost first; a
// step spins on `try_wait.parity` of its stage, then the block barrier. The
// product's adjacent accumulator pairs are stored 8 bytes at a time where
// the address allows (`irkit/targets/cuda_stores.py`).
// CHECK: struct alignas(64) irkit_tensor_map { unsigned long long words[16]; };
// CHECK-LABEL: main_kernel(__half * a, __half * b, float *__restrict__ out, const __grid_constant__ irkit_tensor_map a_map, const __grid_constant__ irkit_tensor_map b_map)
// CHECK: if (
// CHECK-NEXT: asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"((uint32_t)__cvta_generic_to_shared(&barriers[0])), "r"(1) : "memory");
// CHECK-NEXT: asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
// CHECK: __syncthreads();
// CHECK: asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"((uint32_t)__cvta_generic_to_shared(&barriers[0])), "r"(32768) : "memory");
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" :: "r"((uint32_t)__cvta_generic_to_shared(&a_tiles[0 * 8192 + 0 * 64 + 0])), "l"(&a_map), "r"((uint32_t)__cvta_generic_to_shared(&barriers[0])), "r"((int32_t)(0)), "r"((int32_t)({{.*}})) : "memory");
// CHECK: for (int32_t step = 0; step < 2; step += 1) {
// CHECK: "mbarrier.try_wait.parity.shared::cta.b64 complete, [%0], %1;\n"
// CHECK-NEXT: "@!complete bra irkit_wait;\n"
// CHECK: __syncthreads();
// CHECK: float *pair = &out[
// CHECK-NEXT: if (((unsigned long long)pair & 7) == 0) {
// CHECK-NEXT: asm volatile("st.v2.f32 [%0], {%1, %2};" :: "l"(pair), "f"({{.*}}), "f"({{.*}}) : "memory");
// CHECK-NEXT: }
// CHECK-NEXT: else {
// CHECK-NEXT: *pair =
// CHECK-NEXT: out[
// CHECK: launch main_kernel<<<(1, 1, 1), (256, 1, 1), {{[0-9]+}}>>>(a, b, out, tensor_map(a, box [128, 64]), tensor_map(b, box [64, 64]))
func.func @main(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
