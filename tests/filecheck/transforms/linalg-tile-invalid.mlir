// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p 'linalg-tile{tile-sizes=2,2}'

// linalg-tile tiles through projected permutations only: a window map's tile
// is not a box of the loops' tiles.

func.func @window(%x: memref<6xf32>, %k: memref<3xf32>, %o: memref<4xf32> {irkit.output}) {
  // expected-error @+1 {{'linalg.generic' op linalg-tile supports projected-permutation indexing maps}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %k : memref<6xf32>, memref<3xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @conv(%x: memref<1x1x5x5xf32>, %w: memref<1x1x3x3xf32>, %o: memref<1x1x3x3xf32> {irkit.output}) {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' op linalg-tile supports projected-permutation indexing maps}}
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : memref<1x1x5x5xf32>, memref<1x1x3x3xf32>) outs(%o : memref<1x1x3x3xf32>)
  return
}

// -----

func.func @window_on_tensors(%x: tensor<6xf32>, %k: tensor<3xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' op linalg-tile supports projected-permutation indexing maps}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %k : tensor<6xf32>, tensor<3xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @repeated_loop(%a: memref<4x4xf32>, %o: memref<4xf32> {irkit.output}) {
  // expected-error @+1 {{'linalg.generic' op linalg-tile supports projected-permutation indexing maps}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4x4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// Bad options fail before any op is looked at.
// RUN: not irkit-opt %s -p 'linalg-tile{parallel=serial}' 2>&1 | filecheck %s --check-prefix=KIND
// RUN: not irkit-opt %s -p 'linalg-tile{tile-sizes=2,-1}' 2>&1 | filecheck %s --check-prefix=NEGATIVE
// KIND: error: linalg-tile: parallel='serial' is not one of parallel, forall
// NEGATIVE: error: linalg-tile: tile sizes must be >= 0
