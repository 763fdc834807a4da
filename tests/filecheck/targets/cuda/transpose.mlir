// RUN: irkit-opt %s -p 'lower-to-cuda' -t cuda | filecheck %s
// RUN: irkit-opt %s -p 'lower-to-cuda{transposes=false}' -t cuda | filecheck %s --check-prefix=UNTILED

// A transpose prints as the tiled kernel: a padded 32 x 33 shared tile,
// each thread loading 4 input elements along the input's rows (tx the
// fastest index) into tile rows, a barrier, then 4 tile columns stored
// along the output's rows (tx the fastest index again).
// CHECK-LABEL: __global__ void {{.*}}main_kernel(
// CHECK: __shared__ __align__(16) float tile[1056];
// CHECK: int64_t ty = (int64_t)threadIdx.y;
// CHECK-NEXT: int64_t tx = (int64_t)threadIdx.x;
// CHECK: float [[V:.*]] = x[{{.*}} * 256 + [[J:v[0-9]+]]];
// CHECK-NEXT: tile[ty * 33 + tx] = [[V]];
// CHECK: __syncthreads();
// CHECK: float [[E:.*]] = tile[tx_1 * 33 + ty_1];
// CHECK-NEXT: out[{{.*}} * 128 + [[I:v[0-9]+]]] = [[E]];
// UNTILED-NOT: __shared__
// UNTILED-NOT: __syncthreads
func.func @main(%x: tensor<128x256xf32>) -> tensor<256x128xf32> {
  %t = nn.transpose %x perm [1, 0] : tensor<128x256xf32> -> tensor<256x128xf32>
  return %t : tensor<256x128xf32>
}
