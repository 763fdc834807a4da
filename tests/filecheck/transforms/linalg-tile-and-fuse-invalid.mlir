// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p 'linalg-tile-and-fuse{tile-sizes=2,2}'

// Tiles are boxes of the loops' tiles only through projected permutations: a
// window map (a convolution) is rejected, named or generic.

func.func @conv(%x: memref<1x1x5x5xf32>, %w: memref<1x1x3x3xf32>, %o: memref<1x1x3x3xf32> {irkit.output}) {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' op linalg-tile-and-fuse supports projected-permutation indexing maps}}
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : memref<1x1x5x5xf32>, memref<1x1x3x3xf32>) outs(%o : memref<1x1x3x3xf32>)
  return
}

// -----

func.func @window(%x: memref<6xf32>, %k: memref<3xf32>, %o: memref<4xf32> {irkit.output}) {
  // expected-error @+1 {{'linalg.generic' op linalg-tile-and-fuse supports projected-permutation indexing maps}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %k : memref<6xf32>, memref<3xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// Bad options fail before any op is looked at.
// RUN: not irkit-opt %s -p 'linalg-tile-and-fuse{parallel=serial}' 2>&1 | filecheck %s --check-prefix=KIND
// RUN: not irkit-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2,-1}' 2>&1 | filecheck %s --check-prefix=NEGATIVE
// KIND: error: linalg-tile-and-fuse: parallel='serial' is not one of parallel, forall
// NEGATIVE: error: linalg-tile-and-fuse: tile sizes must be >= 0
