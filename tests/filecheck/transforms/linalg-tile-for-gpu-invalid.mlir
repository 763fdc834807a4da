// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p 'linalg-tile-for-gpu{matmul-thread=1,1}'

// Grid and block sizes are static: shapes must be.

func.func @dynamic(%a: memref<?xf32>, %b: memref<?xf32> {irkit.output}) {
  // expected-error @+1 {{'linalg.generic' op linalg-tile-for-gpu requires static shapes}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// 64x64 block tiles of 1x1 thread tiles: 4096 threads, over CUDA's 1024.

func.func @too_many_threads(%a: memref<64x8xf32>, %b: memref<8x64xf32>, %c: memref<64x64xf32> {irkit.output}) {
  // expected-error @+1 {{'linalg.matmul' op linalg-tile-for-gpu: the tile sizes give 4096 threads per block, more than 1024}}
  linalg.matmul ins(%a, %b : memref<64x8xf32>, memref<8x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @tensors(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.add' op linalg-tile-for-gpu requires linalg on memrefs: run bufferize first}}
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
