// RUN: irkit-opt %s --split-input-file -p 'lower-to-cuda{wgmma=true allow-tf32=true max-dynamic-shared-bytes=232448 multiprocessors=132}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'lower-to-cuda{wgmma=true allow-tf32=true max-dynamic-shared-bytes=232448 multiprocessors=132 mma-partial-tiles=false}' | filecheck %s --check-prefix=PADDED

// `lower-to-cuda` runs tensor-core matmuls that no tile divides on partial
// tiles (`convert-linalg-to-mma{partial-tiles}` before
// `linalg-pad-contractions`): an f16 1000^3 GEMM is one kernel, with no
// padded copy of A or B, no margin fill and no copy back of the product.
// With `mma-partial-tiles=false` it runs on padded copies, as before.

// CHECK-LABEL: func.func @half
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: func.return
// PADDED-LABEL: func.func @half
// PADDED: %padded = memref.alloc() : memref<1024x1024xf16>
// PADDED: gpu.launch_func
// PADDED: gpu.launch_func
func.func @half(%a: tensor<1000x1000xf16>, %b: tensor<1000x1000xf16>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1000x1000xf16>, tensor<1000x1000xf16>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %r : tensor<1000x1000xf32>
}

// -----

// TF32 (warpgroup products, a k-major B): B transposed into an exact
// 1000 x 1000 buffer, then the products: two kernels, no padding.

// CHECK-LABEL: func.func @tf32
// CHECK: %b_transposed = memref.alloc() : memref<1000x1000xf32>
// CHECK-NOT: memref.copy
// CHECK: gpu.launch_func
// CHECK: gpu.launch_func
// CHECK-NOT: gpu.launch_func
// CHECK: memref.dealloc %b_transposed
// CHECK-NEXT: func.return
func.func @tf32(%a: tensor<1000x1000xf32>, %b: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1000x1000xf32>, tensor<1000x1000xf32>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %r : tensor<1000x1000xf32>
}

// -----

// Still padded: rows of 1001 f16 (not a multiple of 16 bytes) cannot be
// copied 16 bytes at a time past their ends: padded to 1024 (M, N and K).

// CHECK-LABEL: func.func @odd_k
// CHECK: %padded = memref.alloc() : memref<1024x1024xf16>
// CHECK: mma.warpgroup_mma
// CHECK-NOT: valid_bytes
func.func @odd_k(%a: tensor<1000x1001xf16>, %b: tensor<1001x1000xf16>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1000x1001xf16>, tensor<1001x1000xf16>) outs(%f : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %r : tensor<1000x1000xf32>
}
