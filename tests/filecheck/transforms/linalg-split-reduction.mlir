// RUN: irkit-opt %s --split-input-file -p 'linalg-split-reduction{multiprocessors=132}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-split-reduction' | filecheck %s --check-prefix=OFF
// RUN: irkit-opt %s --split-input-file -p 'linalg-split-reduction{multiprocessors=132 tensor-cores=true}' | filecheck %s --check-prefix=TENSOR
// RUN: irkit-opt %s --split-input-file -p 'linalg-split-reduction{multiprocessors=132 tensor-cores=true tf32=true}' | filecheck %s --check-prefix=TF32

// (Semantics are checked with a reassociation tolerance by
// tests/properties/test_linalg_split_reduction.py: the split sums in a
// different order, which --check-semantics' f32 tolerance does not allow
// for a reduction of 1024 products.)

// A 64x4096 output over a reduction of 1024: 64 blocks of 64x64 on 132
// multiprocessors. Split in 4 (256 blocks, 256 products each): the inputs
// expanded along k, a zero-filled partial product per part, then their sum
// added to the init; the init's fill moves next to the sum.

// CHECK-LABEL: func.func @short_grid
// CHECK:         %[[X:.*]] = tensor.expand_shape %x {{\[\[}}0], [1, 2]] output_shape [64, 4, 256] : tensor<64x1024xf32> into tensor<64x4x256xf32>
// CHECK-NEXT:    %[[W:.*]] = tensor.expand_shape %w {{\[\[}}0], [1, 2]] output_shape [4096, 4, 256] : tensor<4096x1024xf32> into tensor<4096x4x256xf32>
// CHECK:         %[[ZERO:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x64x4096xf32>)
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<64x4x256xf32>, tensor<4096x4x256xf32>) outs(%[[ZERO]] : tensor<4x64x4096xf32>)
// CHECK:         %[[INIT:.*]] = linalg.fill
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[P]] : tensor<4x64x4096xf32>) outs(%[[INIT]] : tensor<64x4096xf32>)
// CHECK:           arith.addf
// OFF-LABEL: func.func @short_grid
// OFF-NOT:     tensor.expand_shape
func.func @short_grid(%x: tensor<64x1024xf32>, %w: tensor<4096x1024xf32>) -> tensor<64x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x4096xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<64x1024xf32>, tensor<4096x1024xf32>) outs(%init : tensor<64x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x4096xf32>
  return %r : tensor<64x4096xf32>
}

// -----

// Not split: a grid already half full (1024x768: 192 blocks of 64x64); an
// integer matmul; a one-row matmul (a matrix-vector product); a reduction
// of 48 (no split leaves 4 K steps of 16 per part).

// CHECK-LABEL: func.func @full_grid
// CHECK-NOT:     tensor.expand_shape
// CHECK-LABEL: func.func @integers
// CHECK-NOT:     tensor.expand_shape
// CHECK-LABEL: func.func @one_row
// CHECK-NOT:     tensor.expand_shape
// CHECK-LABEL: func.func @short_reduction
// CHECK-NOT:     tensor.expand_shape
func.func @full_grid(%x: tensor<1024x256xf32>, %w: tensor<256x768xf32>, %init: tensor<1024x768xf32>) -> tensor<1024x768xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1024x256xf32>, tensor<256x768xf32>) outs(%init : tensor<1024x768xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<1024x768xf32>
  return %r : tensor<1024x768xf32>
}
func.func @integers(%x: tensor<64x1024xi32>, %w: tensor<1024x64xi32>, %init: tensor<64x64xi32>) -> tensor<64x64xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<64x1024xi32>, tensor<1024x64xi32>) outs(%init : tensor<64x64xi32>) {
  ^bb0(%a: i32, %b: i32, %c: i32):
    %p = arith.muli %a, %b : i32
    %s = arith.addi %c, %p : i32
    linalg.yield %s : i32
  } -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}
func.func @one_row(%x: tensor<1x1024xf32>, %w: tensor<1024x64xf32>, %init: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x1024xf32>, tensor<1024x64xf32>) outs(%init : tensor<1x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %r : tensor<1x64xf32>
}
func.func @short_reduction(%x: tensor<64x48xf32>, %w: tensor<48x64xf32>, %init: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<64x48xf32>, tensor<48x64xf32>) outs(%init : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// A half-precision matmul into f32 (torch-mlir's f16 torch.mm) on a short
// grid: split like any other, unless `tensor-cores` says it runs on tensor
// cores, whose kernel fills the grid with its own smaller tiles (and takes no
// split part). With `tf32` the same holds for f32 x f32 into f32.

// CHECK-LABEL: func.func @half_short_grid
// CHECK:         tensor<4x64x4096xf32>
// TENSOR-LABEL: func.func @half_short_grid
// TENSOR-NOT:    tensor.expand_shape
// TENSOR:        return
// TF32-LABEL:   func.func @f32_short_grid
// TF32-NOT:      tensor.expand_shape
// TF32:          return
func.func @half_short_grid(%x: tensor<64x1024xf16>, %w: tensor<4096x1024xf16>) -> tensor<64x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x4096xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<64x1024xf16>, tensor<4096x1024xf16>) outs(%init : tensor<64x4096xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x4096xf32>
  return %r : tensor<64x4096xf32>
}

// -----

// TENSOR-LABEL: func.func @f32_short_grid
// TENSOR:        tensor.expand_shape
func.func @f32_short_grid(%x: tensor<64x1024xf32>, %w: tensor<4096x1024xf32>) -> tensor<64x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x4096xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x4096xf32>) -> tensor<64x4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<64x1024xf32>, tensor<4096x1024xf32>) outs(%init : tensor<64x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x4096xf32>
  return %r : tensor<64x4096xf32>
}
