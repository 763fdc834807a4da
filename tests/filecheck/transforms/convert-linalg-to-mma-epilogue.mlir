// RUN: irkit-opt %s --split-input-file -p 'convert-linalg-to-mma' | filecheck %s

// A linear layer in half precision as torch-mlir writes it: the f32 product
// of f16 operands, then the bias added and the result cast back to f16. The
// epilogue runs on each accumulator in the tensor-core kernel: the bias is
// loaded at the element's column, the sum truncated and stored to %out; the
// f32 product, read by nothing else, is neither stored nor allocated.

// CHECK-LABEL: func.func @bias_truncf
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK:           mma.sync
// CHECK:           %[[ACC:.*]] = memref.load %acc[%c3] : memref<{{.*}}xf32, #gpu.address_space<private>>
// CHECK-NEXT:      %[[ROW:.*]] = arith.addi %{{.*}}, %c8 : index
// CHECK-NEXT:      %[[COL:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK-NEXT:      %[[BIAS:.*]] = memref.load %bias[%[[COL]]] : memref<64xf32>
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT:      %[[HALF:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:      memref.store %[[HALF]], %out[%[[ROW]], %[[COL]]] : memref<64x64xf16>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return
func.func @bias_truncf(%a: memref<64x16xf16>, %b: memref<16x64xf16>, %bias: memref<64xf32>, %out: memref<64x64xf16> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%c : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x16xf16>, memref<16x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<64x64xf32>, memref<64xf32>) outs(%out : memref<64x64xf16>) {
  ^bb0(%p: f32, %t: f32, %o: f16):
    %u = arith.addf %p, %t : f32
    %h = arith.truncf %u : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %c : memref<64x64xf32>
  func.return
}

// -----

// The product is an output too: it is still stored, and the epilogue runs
// beside the store.

// CHECK-LABEL: func.func @product_returned
// CHECK:         gpu.launch
// CHECK:           %[[ACC:.*]] = memref.load %acc[%{{.*}}]
// CHECK:           memref.store %[[ACC]], %c[%{{.*}}, %{{.*}}] : memref<64x64xf32>
// CHECK-NEXT:      %[[RELU:.*]] = arith.maximumf %[[ACC]], %{{.*}} : f32
// CHECK-NEXT:      memref.store %[[RELU]], %out[%{{.*}}, %{{.*}}] : memref<64x64xf32>
// CHECK-NOT:     linalg.generic
func.func @product_returned(%a: memref<64x16xf16>, %b: memref<16x64xf16>, %c: memref<64x64xf32> {irkit.output}, %out: memref<64x64xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%c : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x16xf16>, memref<16x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%p: f32, %o: f32):
    %u = arith.maximumf %p, %zero : f32
    linalg.yield %u : f32
  }
  func.return
}

// -----

// An epilogue over the product's leading corner (what linalg-pad-contractions
// and linalg-conv-to-im2col leave of a padded product) runs too, each
// element guarded by the corner's bounds; the product, its corner view and
// its buffer go.

// CHECK-LABEL: func.func @corner_guarded
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK:           %[[ACC:.*]] = memref.load %acc[%c3]
// CHECK-NEXT:      %[[ROW:.*]] = arith.addi %{{.*}}, %c8 : index
// CHECK-NEXT:      %[[COL:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK-NEXT:      %[[IN_ROWS:.*]] = arith.cmpi ult, %[[ROW]], %c60 : index
// CHECK-NEXT:      %[[IN_COLS:.*]] = arith.cmpi ult, %[[COL]], %c60 : index
// CHECK-NEXT:      %[[INSIDE:.*]] = arith.andi %[[IN_ROWS]], %[[IN_COLS]] : i1
// CHECK-NEXT:      scf.if %[[INSIDE]] {
// CHECK-NEXT:        %[[RELU:.*]] = arith.maximumf %[[ACC]], %zero : f32
// CHECK-NEXT:        memref.store %[[RELU]], %out[%[[ROW]], %[[COL]]] : memref<60x60xf32>
// CHECK-NEXT:      }
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.subview
func.func @corner_guarded(%a: memref<64x16xf16>, %b: memref<16x64xf16>, %out: memref<60x60xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%c : memref<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x16xf16>, memref<16x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %corner = memref.subview %c[0, 0] [60, 60] [1, 1] : memref<64x64xf32> to memref<60x60xf32, strided<[64, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%corner : memref<60x60xf32, strided<[64, 1]>>) outs(%out : memref<60x60xf32>) {
  ^bb0(%p: f32, %o: f32):
    %u = arith.maximumf %p, %zero : f32
    linalg.yield %u : f32
  }
  memref.dealloc %c : memref<64x64xf32>
  func.return
}
