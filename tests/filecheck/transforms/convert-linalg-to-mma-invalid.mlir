// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{block=128,128}' 2>&1 | filecheck %s --check-prefix=SIZES
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{block=96,128,32}' 2>&1 | filecheck %s --check-prefix=MULTIPLES
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{stages=1}' 2>&1 | filecheck %s --check-prefix=STAGES
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{warps=3,2}' 2>&1 | filecheck %s --check-prefix=WARPS
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{warps=2}' 2>&1 | filecheck %s --check-prefix=WARPS-COUNT
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{warps=8,8}' 2>&1 | filecheck %s --check-prefix=THREADS
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{wgmma-block=96,128}' 2>&1 | filecheck %s --check-prefix=WG-SIZES
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{wgmma-block=128,128,64}' 2>&1 | filecheck %s --check-prefix=WG-COUNT
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{wgmma-block=128,512}' 2>&1 | filecheck %s --check-prefix=WG-N
// RUN: not irkit-opt %s -p 'convert-linalg-to-mma{wgmma-block=576,128}' 2>&1 | filecheck %s --check-prefix=WG-THREADS

// SIZES: convert-linalg-to-mma: block takes three sizes (BM, BN, BK)
// MULTIPLES: convert-linalg-to-mma: block sizes must be multiples of 64, 64 and 16, got [96, 128, 32]
// STAGES: convert-linalg-to-mma: stages must be 2, 3 or 4, got 1
// WARPS: convert-linalg-to-mma: warps takes two counts (along M, along N), each 1, 2, 4 or 8, got [3, 2]
// WARPS-COUNT: convert-linalg-to-mma: warps takes two counts (along M, along N), each 1, 2, 4 or 8, got [2]
// THREADS: convert-linalg-to-mma: [8, 8] warps pass 1024 threads
// WG-SIZES: convert-linalg-to-mma: wgmma-block takes two sizes (BM, BN), multiples of 64, got [96, 128]
// WG-COUNT: convert-linalg-to-mma: wgmma-block takes two sizes (BM, BN), multiples of 64, got [128, 128, 64]
// WG-N: convert-linalg-to-mma: wgmma-block's BN is at most 256 (one warpgroup product's N), got 512
// WG-THREADS: convert-linalg-to-mma: wgmma-block's BM of 576 needs a warpgroup per 64 rows: more than 1024 threads
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
