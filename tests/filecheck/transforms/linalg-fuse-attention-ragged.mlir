// RUN: irkit-opt %s -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{block-rows=4 block-keys=4 threads=16 threads-x=4 min-block=2}' | filecheck %s
// RUN: irkit-opt %s -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{block-rows=4 block-keys=4 threads=16 threads-x=4 min-block=1}' | filecheck %s --check-prefix=DIVIDING

// Ragged tiles: 5 query rows and 7 keys, which no power of two from
// `min-block=2` up divides (ViT's 197 tokens, small). Each batch's rows take
// two blocks of 4 rows, the second moved back to start at row 1
// (`min(t * 4, 5 - 4)`); the softmax's collapsed rows (10 = 2 runs of 5)
// find the same rows. Key steps start at `min(key, 7 - 4)`; the keys the
// step before took (`seen`) are masked to -inf. The moved-back block
// writes only its own last row, under an `scf.if`.

// CHECK-LABEL: func.func @main
// CHECK:         scf.forall (%[[TILE:.*]]) in (4) {
// CHECK-NEXT:      %[[BATCH:.*]] = affine.apply affine_map<(d0) -> (((d0 floordiv 2) floordiv 1) mod 2)>(%[[TILE]])
// CHECK-NEXT:      %[[ROW:.*]] = affine.min affine_map<(d0) -> (((d0 floordiv 2) mod 1) * 5 + (d0 mod 2) * 4, ((d0 floordiv 2) mod 1) * 5 + 1)>(%[[TILE]])
// CHECK-NEXT:      affine.min affine_map<(d0) -> (((d0 floordiv 2) mod 2) * 5 + (d0 mod 2) * 4, ((d0 floordiv 2) mod 2) * 5 + 1)>(%[[TILE]])
// CHECK:           %[[O:.*]] = memref.subview %out[%[[BATCH]], %[[ROW]], 0] [1, 4, 3] [1, 1, 1]
// CHECK:           scf.for %[[KEY:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[ORIGIN:.*]] = affine.min affine_map<(d0) -> (d0, 3)>(%[[KEY]])
// CHECK-NEXT:        %[[SEEN:.*]] = affine.apply affine_map<(d0, d1) -> (d0 - d1)>(%[[KEY]], %[[ORIGIN]])
// CHECK:             memref.subview %k[{{.*}}, %[[ORIGIN]], 0] [1, 4, 4]
// CHECK:             linalg.generic {{.*}} outs(%scores : memref<4x4xf32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:        ^{{.*}}(%[[S:.*]]: f32):
// CHECK-NEXT:          %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:          %[[EARLIER:.*]] = arith.cmpi ult, %[[J]], %[[SEEN]] : index
// CHECK-NEXT:          %[[NINF:.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT:          arith.select %[[EARLIER]], %[[NINF]], %[[S]] : f32
// CHECK:           %[[LAST:.*]] = affine.apply affine_map<(d0) -> (d0 mod 2)>(%[[TILE]])
// CHECK-NEXT:      %[[IS_LAST:.*]] = arith.cmpi eq, %[[LAST]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[IS_LAST]] {
// CHECK:             %[[TAIL:.*]] = affine.apply affine_map<(d0) -> (d0 + 3)>(%[[ROW]])
// CHECK-NEXT:        %[[TAIL_O:.*]] = memref.subview %out[%[[BATCH]], %[[TAIL]], 0] [1, 1, 3] [1, 1, 1]
// CHECK-NEXT:        linalg.generic {{.*}} outs(%[[TAIL_O]] :
// CHECK:           } else {
// CHECK-NEXT:        linalg.generic {{.*}} outs(%[[O]] :
// CHECK:         } {irkit.block_threads = [4 : index, 4 : index], mapping = [#gpu.block<x>]}

// With `min-block=1`, tiles of 1 row and 1 key divide: nothing is ragged.
// DIVIDING-LABEL: func.func @main
// DIVIDING:         scf.forall (%{{.*}}) in (10) {
// DIVIDING-NOT:     scf.if
// DIVIDING-NOT:     key_origin

func.func @main(%q: tensor<2x5x4xf32>, %k: tensor<2x7x4xf32>, %v: tensor<2x7x3xf32>) -> tensor<2x5x3xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x5x7xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x5x4xf32>, tensor<2x7x4xf32>) outs(%s0 : tensor<2x5x7xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x5x7xf32>
  %xe = tensor.empty() : tensor<2x5x7xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x5x7xf32>) outs(%xe : tensor<2x5x7xf32>) {
    ^bb0(%in: f32, %o: f32):
      %half = arith.constant 0.5 : f32
      %z = arith.mulf %in, %half : f32
      linalg.yield %z : f32
    } -> tensor<2x5x7xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x5x7xf32> into tensor<10x7xf32>
  %me = tensor.empty() : tensor<10xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<10xf32>) -> tensor<10xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<10x7xf32>) outs(%m0 : tensor<10xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<10xf32>
  %ee = tensor.empty() : tensor<10x7xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<10x7xf32>, tensor<10xf32>) outs(%ee : tensor<10x7xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<10x7xf32>
  %le = tensor.empty() : tensor<10xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<10xf32>) -> tensor<10xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<10x7xf32>) outs(%l0 : tensor<10xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<10xf32>
  %pe = tensor.empty() : tensor<10x7xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<10x7xf32>, tensor<10xf32>) outs(%pe : tensor<10x7xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<10x7xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 5, 7] : tensor<10x7xf32> into tensor<2x5x7xf32>
  %oe = tensor.empty() : tensor<2x5x3xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x5x7xf32>, tensor<2x7x3xf32>) outs(%o0 : tensor<2x5x3xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x5x3xf32>
  return %out : tensor<2x5x3xf32>
}

