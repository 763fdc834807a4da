// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{block-rows=4 block-keys=4 min-block=1}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{block-rows=4 block-keys=4 min-block=1 max-keys=4}' | filecheck %s --check-prefix=LONG
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention' | filecheck %s --check-prefix=SMALL
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{block-rows=8 block-keys=8 threads=128 min-block=1 multiprocessors=4}' | filecheck %s --check-prefix=GRID
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{block-rows=8 block-keys=8 threads=128 min-block=4 multiprocessors=64}' | filecheck %s --check-prefix=GRID-FLOOR

// (Semantics are checked with a reassociation tolerance by
// tests/properties/test_linalg_fuse_attention.py: the online softmax sums in
// a different order.)

// Causal attention as torch-mlir writes it: batched scores, a mask from
// linalg.index, the softmax over rows collapsed to 8x8, then p v. One block
// forall over the 8 rows in tiles of 4 replaces the chain; the keys run in
// steps of 4. Workgroup rows are padded against bank conflicts: q's by one
// element, the scores' and the output's to 16 (threads-x banks apart). The modifier's indices count from the block's row and the
// step's key; each step keeps a running max (its -inf kept at 0 in
// %safe_max) and rescales the sum (in the same op) and the output by
// exp(old - new). The
// division by the sum comes last, on the accumulated output.

// CHECK-LABEL: func.func @causal
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%[[TILE:.*]]) in (2) {
// CHECK-DAG:       %[[BATCH:.*]] = affine.apply affine_map<(d0) -> (((d0 * 4) floordiv 4) mod 2)>(%[[TILE]])
// CHECK-DAG:       %[[ROW:.*]] = affine.apply affine_map<(d0) -> (((d0 * 4) floordiv 1) mod 4)>(%[[TILE]])
// CHECK:           %[[Q:.*]] = memref.subview %q[%[[BATCH]], %[[ROW]], 0] [1, 4, 4] [1, 1, 1]
// CHECK:           %[[Q_BUFFER:.*]] = memref.alloc() : memref<1x4x5xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[SCORES_BUFFER:.*]] = memref.alloc() : memref<4x16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[SCORES:.*]] = memref.subview %[[SCORES_BUFFER]][0, 0] [4, 4] [1, 1]
// CHECK:           %[[MAX:.*]] = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[SUM:.*]] = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[ALPHA:.*]] = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[PREVIOUS:.*]] = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[SAFE:.*]] = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[OUT:.*]] = memref.subview %out[%[[BATCH]], %[[ROW]], 0] [1, 4, 2] [1, 1, 1]
// CHECK:           %[[ACC_BUFFER:.*]] = memref.alloc() : memref<1x4x16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[ACC:.*]] = memref.subview %[[ACC_BUFFER]][0, 0, 0] [1, 4, 2] [1, 1, 1]
// CHECK-NOT:       affine.min
// CHECK:           scf.for %[[KEY:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             memref.subview %k[%[[BATCH]], %[[KEY]], 0] [1, 4, 4] [1, 1, 1]
// CHECK:             memref.subview %v[%[[BATCH]], %[[KEY]], 0] [1, 4, 2] [1, 1, 1]
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:             %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT:        arith.addi %[[I]], %[[ROW]] : index
// CHECK:             %[[J:.*]] = linalg.index 2 : index
// CHECK-NEXT:        arith.addi %[[J]], %[[KEY]] : index
// CHECK-NOT:         outs(%[[ALPHA]] : {{.*}})
// CHECK:             arith.maximumf
// CHECK:             arith.maximumf
// CHECK:             ins(%[[MAX]] : {{.*}}) outs(%[[SAFE]], %[[ALPHA]], %[[SUM]], %[[PREVIOUS]] : {{.*}})
// CHECK-NEXT:        ^{{.*}}(%[[NEW_MAX:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32, %[[OLD_SUM:.*]]: f32, %[[OLD_MAX:.*]]: f32):
// CHECK:               arith.cmpf oeq, %[[NEW_MAX]]
// CHECK-NEXT:          %[[CHOSEN:.*]] = arith.select
// CHECK-NEXT:          %[[DIFFERENCE:.*]] = arith.subf %[[OLD_MAX]], %[[CHOSEN]]
// CHECK-NEXT:          %[[FACTOR:.*]] = math.exp %[[DIFFERENCE]]
// CHECK-NEXT:          %[[RESCALED:.*]] = arith.mulf %[[OLD_SUM]], %[[FACTOR]]
// CHECK-NEXT:          linalg.yield %[[CHOSEN]], %[[FACTOR]], %[[RESCALED]], %[[NEW_MAX]]
// CHECK:             ins(%[[SCORES]], %[[SAFE]] : {{.*}}) outs(%[[SCORES]] : {{.*}})
// CHECK:               arith.subf
// CHECK-NEXT:          math.exp
// CHECK:             arith.addf
// CHECK:             arith.addf
// CHECK:             ins(%[[ALPHA]] : {{.*}}) outs(%[[ACC]] : {{.*}})
// CHECK:             outs(%[[ACC]] : {{.*}})
// CHECK:               arith.mulf
// CHECK-NEXT:          arith.addf
// CHECK:           }
// CHECK:           ins(%[[ACC]], %[[SUM]] : {{.*}}) outs(%[[OUT]] : {{.*}})
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        arith.divf
// CHECK:         } {irkit.block_threads = [8 : index, 16 : index], mapping = [#gpu.block<x>]}
// CHECK-NOT:     linalg.generic

// With the multiprocessors' count, rows, keys and threads halve together
// while the grid has fewer blocks than multiprocessors: 8 rows in blocks of
// 8 are one block, of 4 two, of 2 four (32 threads: 2 x 16) for 4
// multiprocessors; never under min-block (4 rows: two blocks of 64 threads).

// GRID-LABEL:       func.func @causal
// GRID:               scf.forall (%{{.*}}) in (4) {
// GRID:               } {irkit.block_threads = [2 : index, 16 : index], mapping = [#gpu.block<x>]}
// GRID-FLOOR-LABEL: func.func @causal
// GRID-FLOOR:         scf.forall (%{{.*}}) in (2) {
// GRID-FLOOR:         } {irkit.block_threads = [4 : index, 16 : index], mapping = [#gpu.block<x>]}

// Past max-keys (a cost bound), and with the default blocks of at least 16
// rows and keys, the chain stays as it is.
// LONG-LABEL:  func.func @causal
// LONG-NOT:    scf.forall
// SMALL-LABEL: func.func @causal
// SMALL-NOT:   scf.forall

func.func @causal(%q: tensor<2x4x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x2xf32>) -> tensor<2x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x4xf32>, tensor<2x8x4xf32>) outs(%s0 : tensor<2x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x4x8xf32>
  %xe = tensor.empty() : tensor<2x4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8xf32>) outs(%xe : tensor<2x4x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %later = arith.cmpi ugt, %j, %i : index
      %ninf2 = arith.constant 0xFF800000 : f32
      %z = arith.select %later, %ninf2, %in : f32
      linalg.yield %z : f32
    } -> tensor<2x4x8xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %me = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<8x8xf32>) outs(%m0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %ee = tensor.empty() : tensor<8x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<8x8xf32>, tensor<8xf32>) outs(%ee : tensor<8x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %le = tensor.empty() : tensor<8xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<8x8xf32>) outs(%l0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %pe = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<8x8xf32>, tensor<8xf32>) outs(%pe : tensor<8x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %oe = tensor.empty() : tensor<2x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x4x8xf32>, tensor<2x8x2xf32>) outs(%o0 : tensor<2x4x2xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x4x2xf32>
  return %out : tensor<2x4x2xf32>
}

// -----

// A sum that starts at 1 is not a softmax's: no fusion.

// CHECK-LABEL: func.func @sum_from_one
// CHECK-NOT:     scf.forall
// CHECK:         math.exp
// LONG-LABEL:  func.func @sum_from_one
// SMALL-LABEL: func.func @sum_from_one

func.func @sum_from_one(%q: tensor<2x4x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x2xf32>) -> tensor<2x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %se = tensor.empty() : tensor<2x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x4xf32>, tensor<2x8x4xf32>) outs(%s0 : tensor<2x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x4x8xf32>
  %xe = tensor.empty() : tensor<2x4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8xf32>) outs(%xe : tensor<2x4x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %later = arith.cmpi ugt, %j, %i : index
      %ninf2 = arith.constant 0xFF800000 : f32
      %z = arith.select %later, %ninf2, %in : f32
      linalg.yield %z : f32
    } -> tensor<2x4x8xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %me = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<8x8xf32>) outs(%m0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %ee = tensor.empty() : tensor<8x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<8x8xf32>, tensor<8xf32>) outs(%ee : tensor<8x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %le = tensor.empty() : tensor<8xf32>
  %l0 = linalg.fill ins(%one : f32) outs(%le : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<8x8xf32>) outs(%l0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %pe = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<8x8xf32>, tensor<8xf32>) outs(%pe : tensor<8x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %oe = tensor.empty() : tensor<2x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x4x8xf32>, tensor<2x8x2xf32>) outs(%o0 : tensor<2x4x2xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x4x2xf32>
  return %out : tensor<2x4x2xf32>
}

// -----

// The probabilities are a result too: the chain's intermediates must stay
// inside it, so nothing is fused.

// CHECK-LABEL: func.func @probabilities_returned
// CHECK-NOT:     scf.forall
// CHECK:         arith.divf
// LONG-LABEL:  func.func @probabilities_returned
// SMALL-LABEL: func.func @probabilities_returned

func.func @probabilities_returned(%q: tensor<2x4x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x2xf32>) -> (tensor<2x4x2xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x4xf32>, tensor<2x8x4xf32>) outs(%s0 : tensor<2x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x4x8xf32>
  %xe = tensor.empty() : tensor<2x4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8xf32>) outs(%xe : tensor<2x4x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %later = arith.cmpi ugt, %j, %i : index
      %ninf2 = arith.constant 0xFF800000 : f32
      %z = arith.select %later, %ninf2, %in : f32
      linalg.yield %z : f32
    } -> tensor<2x4x8xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %me = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<8x8xf32>) outs(%m0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %ee = tensor.empty() : tensor<8x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<8x8xf32>, tensor<8xf32>) outs(%ee : tensor<8x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %le = tensor.empty() : tensor<8xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<8x8xf32>) outs(%l0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %pe = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<8x8xf32>, tensor<8xf32>) outs(%pe : tensor<8x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %oe = tensor.empty() : tensor<2x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x4x8xf32>, tensor<2x8x2xf32>) outs(%o0 : tensor<2x4x2xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x4x2xf32>
  return %out, %p : tensor<2x4x2xf32>, tensor<8x8xf32>
}

// -----

// A signed causal mask (keys past the query's own are -inf): each block
// walks the keys up to its last row only, min(row + 4, 8) for blocks of 4
// rows. The unsigned mask of @causal above is not read (no bound there).

// CHECK-LABEL: func.func @causal_signed
// CHECK:         scf.forall (%[[TILE:.*]]) in (2) {
// CHECK:           %[[ROW:.*]] = affine.apply affine_map<(d0) -> (((d0 * 4) floordiv 1) mod 4)>(%[[TILE]])
// CHECK:           %[[KEYS:.*]] = affine.min affine_map<(d0) -> (d0 + 4, 8)>(%[[ROW]])
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[KEYS]] step %{{.*}} {
// LONG-LABEL:  func.func @causal_signed
// SMALL-LABEL: func.func @causal_signed
func.func @causal_signed(%q: tensor<2x4x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x2xf32>) -> tensor<2x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x4xf32>, tensor<2x8x4xf32>) outs(%s0 : tensor<2x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x4x8xf32>
  %xe = tensor.empty() : tensor<2x4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8xf32>) outs(%xe : tensor<2x4x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %later = arith.cmpi sgt, %j, %i : index
      %ninf2 = arith.constant 0xFF800000 : f32
      %z = arith.select %later, %ninf2, %in : f32
      linalg.yield %z : f32
    } -> tensor<2x4x8xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %me = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<8x8xf32>) outs(%m0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %ee = tensor.empty() : tensor<8x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<8x8xf32>, tensor<8xf32>) outs(%ee : tensor<8x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %le = tensor.empty() : tensor<8xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<8x8xf32>) outs(%l0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %pe = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<8x8xf32>, tensor<8xf32>) outs(%pe : tensor<8x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %oe = tensor.empty() : tensor<2x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x4x8xf32>, tensor<2x8x2xf32>) outs(%o0 : tensor<2x4x2xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x4x2xf32>
  return %out : tensor<2x4x2xf32>
}

// -----

// torch-mlir's form (index casts, j - i <= 1 kept, and/xor with true): keys
// past the query's plus one are -inf, so the steps end at row + 4 + 1.

// CHECK-LABEL: func.func @causal_past_one
// CHECK:         affine.min affine_map<(d0) -> (d0 + 5, 8)>
// LONG-LABEL:  func.func @causal_past_one
// SMALL-LABEL: func.func @causal_past_one
func.func @causal_past_one(%q: tensor<2x4x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x2xf32>) -> tensor<2x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x4xf32>, tensor<2x8x4xf32>) outs(%s0 : tensor<2x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x4x8xf32>
  %xe = tensor.empty() : tensor<2x4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8xf32>) outs(%xe : tensor<2x4x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %i64 = arith.index_cast %i : index to i64
      %j64 = arith.index_cast %j : index to i64
      %d = arith.subi %j64, %i64 : i64
      %c1 = arith.constant 1 : i64
      %keep = arith.cmpi sle, %d, %c1 : i64
      %true = arith.constant true
      %both = arith.andi %keep, %true : i1
      %later = arith.xori %both, %true : i1
      %ninf2 = arith.constant 0xFF800000 : f32
      %z = arith.select %later, %ninf2, %in : f32
      linalg.yield %z : f32
    } -> tensor<2x4x8xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %me = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<8x8xf32>) outs(%m0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %ee = tensor.empty() : tensor<8x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<8x8xf32>, tensor<8xf32>) outs(%ee : tensor<8x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %le = tensor.empty() : tensor<8xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<8x8xf32>) outs(%l0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %pe = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<8x8xf32>, tensor<8xf32>) outs(%pe : tensor<8x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %oe = tensor.empty() : tensor<2x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x4x8xf32>, tensor<2x8x2xf32>) outs(%o0 : tensor<2x4x2xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x4x2xf32>
  return %out : tensor<2x4x2xf32>
}

// -----

// A constant scale of the scores (`s * 0.5`, torch-mlir's `q k^T * d^-0.5`)
// moves onto q as it is staged: `(q * c) k` is `(q k) * c` up to rounding,
// and the key loop keeps no pass over the score tile for it.

// CHECK-LABEL: func.func @scaled
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<1x4x2xf32, strided<[8, 2, 1], offset: ?>>) outs(%{{.*}} : memref<1x4x2xf32, strided<[12, 3, 1]>, #gpu.address_space<workgroup>>) {
// CHECK-NEXT:      ^{{.*}}(%[[Q:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        %[[C:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:        %[[QC:.*]] = arith.mulf %[[Q]], %[[C]] : f32
// CHECK-NEXT:        linalg.yield %[[QC]] : f32
// CHECK:           scf.for
// CHECK-NOT:         arith.constant 5.000000e-01
// CHECK:         } {irkit.block_threads
// LONG-LABEL:  func.func @scaled
// SMALL-LABEL: func.func @scaled

func.func @scaled(%q: tensor<1x4x2xf32>, %k: tensor<1x8x2xf32>, %v: tensor<1x8x3xf32>) -> tensor<1x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<1x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x2xf32>, tensor<1x8x2xf32>) outs(%s0 : tensor<1x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<1x4x8xf32>
  %xe = tensor.empty() : tensor<1x4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x8xf32>) outs(%xe : tensor<1x4x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %half = arith.constant 0.5 : f32
      %z = arith.mulf %in, %half : f32
      linalg.yield %z : f32
    } -> tensor<1x4x8xf32>
  %me = tensor.empty() : tensor<1x4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<1x4xf32>) -> tensor<1x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x4x8xf32>) outs(%m0 : tensor<1x4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4xf32>
  %ee = tensor.empty() : tensor<1x4x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : tensor<1x4x8xf32>, tensor<1x4xf32>) outs(%ee : tensor<1x4x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x4x8xf32>
  %le = tensor.empty() : tensor<1x4xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<1x4xf32>) -> tensor<1x4xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<1x4x8xf32>) outs(%l0 : tensor<1x4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4xf32>
  %pe = tensor.empty() : tensor<1x4x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x4x8xf32>, tensor<1x4xf32>) outs(%pe : tensor<1x4x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<1x4x8xf32>
  %oe = tensor.empty() : tensor<1x4x3xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x4x8xf32>, tensor<1x8x3xf32>) outs(%o0 : tensor<1x4x3xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<1x4x3xf32>
  return %out : tensor<1x4x3xf32>
}

