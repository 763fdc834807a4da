// RUN: not irkit-opt %s -p 'linalg-fuse-attention{block-rows=0}' 2>&1 | filecheck %s
// RUN: not irkit-opt %s -p 'linalg-fuse-attention{max-keys=-1}' 2>&1 | filecheck %s
// RUN: not irkit-opt %s -p 'linalg-fuse-attention{multiprocessors=-1}' 2>&1 | filecheck %s
// RUN: not irkit-opt %s -p 'linalg-fuse-attention{max-ragged-waste-percent=-1}' 2>&1 | filecheck %s
// RUN: not irkit-opt %s -p 'linalg-fuse-attention{cpu=true vector-bits=0}' 2>&1 | filecheck %s
// RUN: not irkit-opt %s -p 'lower-to-cuda{attention-block=64,32,128}' 2>&1 | filecheck %s --check-prefix=PIPELINE

// CHECK: linalg-fuse-attention: block-rows, block-keys, threads, threads-x, min-block, vector-bits and max-shared-bytes must be positive, max-keys and multiprocessors 0 (off) or positive, max-ragged-waste-percent not negative
// PIPELINE: error: invalid options for pass 'lower-to-cuda': attention-block takes 4 sizes (rows, keys, threads, threads along x)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
