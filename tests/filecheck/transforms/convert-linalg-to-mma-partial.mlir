// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{partial-tiles=true tf32=true}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{partial-tiles=true tf32=true wgmma=true tma=false wgmma-block=128,128 stages=3 max-shared-bytes=232448}' | filecheck %s --check-prefix=WGMMA
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{tf32=true}' | filecheck %s --check-prefix=WHOLE
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{partial-tiles=true wgmma=true wgmma-block=128,128 stages=3 max-shared-bytes=232448}' | filecheck %s --check-prefix=TMA
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{partial-tiles=true tf32=true wgmma=true tf32-transpose-b=false wgmma-block=128,128 stages=3 max-shared-bytes=232448}' | filecheck %s --check-prefix=COPIES

// Partial tiles (`partial-tiles`): 200x136x40 in f16, which no 128x128x32
// tile divides (nor 64x64x16), runs on a 2 x 2 grid of 128x128 blocks and
// two K steps of 32. Each copy's source row and column are clamped inside
// A (row <= 199, column <= 40 - 8) and read 16 bytes where both lie inside,
// none past (zero-filled); each store is guarded by the output's extents.
// Without the option the matmul is left alone (for the padded path).

// CHECK-LABEL: func.func @partial
// CHECK: %blocks_x = arith.constant 2 : index
// CHECK: %blocks_y = arith.constant 2 : index
// CHECK: gpu.launch
// CHECK: %[[ROW_IN:.*]] = arith.cmpi ult, %[[ROW:.*]], %c200 : index
// CHECK: %[[ROW_CLAMPED:.*]] = arith.minui %[[ROW]], %c199 : index
// CHECK: %[[COL_IN:.*]] = arith.cmpi ult, %[[COL:.*]], %c40 : index
// CHECK: %[[IN:.*]] = arith.andi %[[ROW_IN]], %[[COL_IN]] : i1
// CHECK: %[[COL_CLAMPED:.*]] = arith.minui %[[COL]], %c32 : index
// CHECK: %[[VALID:.*]] = arith.select %[[IN]], %c16, %c0 : index
// CHECK: mma.cp_async %a[%[[ROW_CLAMPED]], %[[COL_CLAMPED]]], %a_tiles[{{.*}}] valid_bytes %[[VALID]] : memref<200x40xf16>
// CHECK: mma.cp_async %b[{{.*}}] valid_bytes %{{.*}} : memref<40x136xf16>
// CHECK: scf.for %step = %c0 to %c2 step %c1 {
// CHECK: mma.sync
// CHECK: %[[M_IN:.*]] = arith.cmpi ult, %[[I:.*]], %c200 : index
// CHECK-NEXT: %[[N_IN:.*]] = arith.cmpi ult, %[[J:.*]], %c136 : index
// CHECK-NEXT: %[[STORE_IN:.*]] = arith.andi %[[M_IN]], %[[N_IN]] : i1
// CHECK-NEXT: scf.if %[[STORE_IN]] {
// CHECK-NEXT: memref.store %{{.*}}, %out[%[[I]], %[[J]]] : memref<200x136xf32>

// Warpgroup products: K = 40 is one partial step of 64.
// WGMMA-LABEL: func.func @partial
// WGMMA: mma.cp_async %a[{{.*}}] valid_bytes %{{.*}} : memref<200x40xf16>
// WGMMA: mma.cp_async %b[{{.*}}] valid_bytes %{{.*}} : memref<40x136xf16>
// WGMMA: scf.for %step = %c0 to %c1 step %c1 {
// WGMMA: mma.warpgroup_mma
// WGMMA: mma.warpgroup_wait %acc {pending = 0 : i64}
// WGMMA: scf.if
// WGMMA-NEXT: memref.store %{{.*}}, %out[{{.*}}] : memref<200x136xf32>

// With TMA copies (the default for f16/bf16 warpgroup kernels) the boxes
// past A's and B's edges are zero-filled by the copies themselves: the
// same boxes as on whole tiles (B's second panel, columns 192 to 255 of
// the second block, lies wholly past N = 136), only the stores guarded.
// TMA-LABEL: func.func @partial
// TMA-NOT: valid_bytes
// TMA: mma.tma_load %a[{{.*}}] {box = array<i64: 128, 64>} : memref<200x40xf16>
// TMA: mma.tma_load %b[{{.*}}] {box = array<i64: 64, 64>} : memref<40x136xf16>
// TMA: mma.warpgroup_wait %acc {pending = 0 : i64}
// TMA: scf.if
// TMA-NEXT: memref.store %{{.*}}, %out[{{.*}}] : memref<200x136xf32>

// WHOLE-LABEL: func.func @partial
// WHOLE-NOT: gpu.launch
// WHOLE: linalg.generic
func.func @partial(%a: tensor<200x40xf16>, %b: tensor<40x136xf16>) -> tensor<200x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x40xf16>, tensor<40x136xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %r : tensor<200x136xf32>
}

// -----

// Extents the tiles divide: no copy is zero-filling, no store guarded.

// CHECK-LABEL: func.func @whole
// CHECK-NOT: valid_bytes
// CHECK-NOT: arith.minui
// CHECK: return
// WGMMA-LABEL: func.func @whole
// WGMMA-NOT: valid_bytes
// WGMMA: return
func.func @whole(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// TF32 with warpgroup products on a k-major B: B is transposed into an
// N x K buffer of B's own extents (no padding), read by zero-filling
// 16-byte copies; the mma.sync kernel copies B's rows as they are.

// CHECK-LABEL: func.func @tf32
// CHECK-NOT: memref.alloc() : memref<136x44xf32>
// CHECK: mma.cp_async %b[{{.*}}] valid_bytes %{{.*}} : memref<44x136xf32>
// CHECK: mma.sync {{.*}} {tf32}
// WGMMA-LABEL: func.func @tf32
// WGMMA: %b_transposed = memref.alloc() : memref<136x44xf32>
// WGMMA: linalg.generic
// WGMMA: gpu.launch
// WGMMA: mma.cp_async %b_transposed[{{.*}}] valid_bytes %{{.*}} : memref<136x44xf32>
// WGMMA: mma.warpgroup_mma {{.*}} {n = 128 : i64, tf32}
// WGMMA: memref.dealloc %b_transposed
// With B copied transposed element by element (`tf32-transpose-b=false`)
// the warpgroup kernel keeps whole tiles (its 32 four-byte copies a thread
// a step, clamped and guarded, would spill): left alone for the padding.
// COPIES-LABEL: func.func @tf32
// COPIES-NOT: gpu.launch
// COPIES: linalg.generic
func.func @tf32(%a: tensor<72x44xf32>, %b: tensor<44x136xf32>) -> tensor<72x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<72x136xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<72x136xf32>) -> tensor<72x136xf32>
  %r = linalg.matmul ins(%a, %b : tensor<72x44xf32>, tensor<44x136xf32>) outs(%f : tensor<72x136xf32>) -> tensor<72x136xf32>
  return %r : tensor<72x136xf32>
}

// -----

// Left alone (for the padded path): rows of A of 1001 f16 (2002 bytes, not
// a multiple of 16: a 16-byte copy would straddle a row's end, and start
// misaligned), and a k-major B whose rows of N = 100 f16 are 200 bytes.

// CHECK-LABEL: func.func @odd_k
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// WGMMA-LABEL: func.func @odd_k
// WGMMA-NOT: gpu.launch
// WGMMA: linalg.generic
func.func @odd_k(%a: tensor<128x1001xf16>, %b: tensor<1001x128xf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x1001xf16>, tensor<1001x128xf16>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// CHECK-LABEL: func.func @short_rows_of_b
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
func.func @short_rows_of_b(%a: tensor<128x64xf16>, %b: tensor<64x100xf16>) -> tensor<128x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x100xf32>) -> tensor<128x100xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x100xf16>) outs(%f : tensor<128x100xf32>) -> tensor<128x100xf32>
  return %r : tensor<128x100xf32>
}

// -----

// The same N = 100 with B stored n-major (`x @ W^T`): B's rows are K = 64
// long, so partial tiles apply; an epilogue (a bias) runs inside each
// store's guard.

// CHECK-LABEL: func.func @linear_bias
// CHECK: mma.cp_async %w[{{.*}}] valid_bytes
// CHECK: mma.sync
// CHECK: scf.if
// CHECK-NEXT: memref.load %bias
// CHECK-NOT: linalg.generic
func.func @linear_bias(%x: tensor<128x64xf16>, %w: tensor<100x64xf16>, %bias: tensor<100xf32>) -> tensor<128x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x100xf32>) -> tensor<128x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<128x64xf16>, tensor<100x64xf16>) outs(%f : tensor<128x100xf32>) {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %pf = arith.extf %p : f16 to f32
    %qf = arith.extf %q : f16 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<128x100xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %bias : tensor<128x100xf32>, tensor<100xf32>) outs(%e : tensor<128x100xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %t = arith.addf %v, %c : f32
    linalg.yield %t : f32
  } -> tensor<128x100xf32>
  return %y : tensor<128x100xf32>
}
