// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p gpu-promote-shared

// Without a block forall there is no block to share a buffer.

func.func @no_block(%a: memref<4xf32>, %o: memref<4xf32>) {
  // expected-error @+1 {{'scf.forall' op gpu-promote-shared: a thread-mapped scf.forall outside a block-mapped one}}
  scf.forall (%t) in (4) {
    %x = memref.load %a[%t] : memref<4xf32>
    memref.store %x, %o[%t] : memref<4xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// The copy forall needs the thread grid's size.

func.func @unbounded_threads(%a: memref<64xf32>, %o: memref<64xf32>, %n: index) {
  scf.forall (%i) in (1) {
    // expected-error @+1 {{'scf.forall' op gpu-promote-shared needs static lower bounds and steps and a static bound on each upper bound of a thread-mapped scf.forall}}
    scf.forall (%t) in (%n) {
      %x = memref.load %a[%t] : memref<64xf32>
      memref.store %x, %o[%t] : memref<64xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A shared tile of unknown size has no buffer shape.

func.func @unbounded_tile(%a: memref<64xf32>, %o: memref<4xf32>, %n: index) {
  scf.forall (%i) in (1) {
    // expected-error @+1 {{'memref.subview' op gpu-promote-shared needs a static bound on each size of a tile it promotes (a static size or an affine.min with a constant)}}
    %ta = memref.subview %a[0] [%n] [1] : memref<64xf32> to memref<?xf32, strided<[1]>>
    scf.forall (%t) in (4) {
      %xo = memref.subview %o[%t] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%ta : memref<?xf32, strided<[1]>>) outs(%xo : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%x: f32, %acc: f32):
        %s = arith.addf %x, %acc : f32
        linalg.yield %s : f32
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
