// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=4,8,4}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=4,8,4}' | irkit-opt --split-input-file --print-op-generic | irkit-opt --split-input-file | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=0,0,2 parallel=parallel}' | filecheck %s --check-prefix=RED
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=4,8,4},linalg-tile{tile-sizes=2,0,0}' | filecheck %s --check-prefix=TWO

// On tensors the parallel tile loops are an scf.forall whose shared_outs is
// the init; the reduction is an scf.for carrying the output tile.

// CHECK-LABEL: func.func @matmul
// CHECK:       %[[R:.*]] = scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (10, 16) step (4, 8) shared_outs(%[[O:.*]] = %c) -> (tensor<10x16xf32>) {
// CHECK-NEXT:    %[[M:.*]] = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%[[I]])
// CHECK-NEXT:    %[[OUT:.*]] = tensor.extract_slice %[[O]][%[[I]], %[[J]]] [%[[M]], 8] [1, 1] : tensor<10x16xf32> to tensor<?x8xf32>
// CHECK-NEXT:    %[[F:.*]] = scf.for %[[K:.*]] = %c0 to %c6 step %c4 iter_args(%[[ACC:.*]] = %[[OUT]]) -> (tensor<?x8xf32>) {
// CHECK-NEXT:      %[[MK:.*]] = affine.min affine_map<(d0) -> (4, -d0 + 6)>(%[[K]])
// CHECK-NEXT:      %[[A:.*]] = tensor.extract_slice %a[%[[I]], %[[K]]] [%[[M]], %[[MK]]] [1, 1] : tensor<10x6xf32> to tensor<?x?xf32>
// CHECK-NEXT:      %[[B:.*]] = tensor.extract_slice %b[%[[K]], %[[J]]] [%[[MK]], 8] [1, 1] : tensor<6x16xf32> to tensor<?x8xf32>
// CHECK-NEXT:      %[[T:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[A]], %[[B]] : tensor<?x?xf32>, tensor<?x8xf32>) outs(%[[ACC]] : tensor<?x8xf32>)
// CHECK:           } -> tensor<?x8xf32>
// CHECK-NEXT:      scf.yield %[[T]] : tensor<?x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.forall.in_parallel {
// CHECK-NEXT:      tensor.parallel_insert_slice %[[F]] into %[[O]][%[[I]], %[[J]]] [%[[M]], 8] [1, 1] : tensor<?x8xf32> into tensor<10x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return %[[R]] : tensor<10x16xf32>

// Only the reduction tiled: no forall (parallel=parallel has no tensor
// form), the loop carries the whole init.

// RED-LABEL: func.func @matmul
// RED:       %[[R:.*]] = scf.for %[[K:.*]] = %c0 to %c6 step %c2 iter_args(%[[ACC:.*]] = %c) -> (tensor<10x16xf32>) {
// RED-NEXT:    %[[A:.*]] = tensor.extract_slice %a[0, %[[K]]] [10, 2] [1, 1] : tensor<10x6xf32> to tensor<10x2xf32>
// RED-NEXT:    %[[B:.*]] = tensor.extract_slice %b[%[[K]], 0] [2, 16] [1, 1] : tensor<6x16xf32> to tensor<2x16xf32>
// RED-NEXT:    %[[T:.*]] = linalg.generic
// RED-SAME:      ins(%[[A]], %[[B]] : tensor<10x2xf32>, tensor<2x16xf32>) outs(%[[ACC]] : tensor<10x16xf32>)
// RED:         scf.yield %[[T]] : tensor<10x16xf32>
// RED:       func.return %[[R]] : tensor<10x16xf32>

// Tiling the tiles: the second level's ranges come from tensor.dim.

// TWO-LABEL: func.func @matmul
// TWO:       scf.forall
// TWO:         scf.for
// TWO:           %[[D:.*]] = tensor.dim %{{.*}}, %c0{{.*}} : tensor<?x?xf32>
// TWO:           scf.forall (%{{.*}}) = (0) to (%[[D]]) step (2) shared_outs
// TWO:             affine.min affine_map<(d0)[s0] -> (2, s0 - d0)>
// TWO:             tensor.parallel_insert_slice

func.func @matmul(%a: tensor<10x6xf32>, %b: tensor<6x16xf32>, %c: tensor<10x16xf32>) -> tensor<10x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<10x6xf32>, tensor<6x16xf32>) outs(%c : tensor<10x16xf32>) -> tensor<10x16xf32>
  return %r : tensor<10x16xf32>
}

// -----

// A parallel loop that the output does not index runs sequentially; the
// tile is put back into the carried tensor with tensor.insert_slice. A
// linalg.index of a tiled loop is offset by the tile origin.

// CHECK-LABEL: func.func @two_outputs
// CHECK:       scf.forall (%[[I:.*]]) = (0) to (6) step (4) shared_outs(%[[O1:.*]] = %init, %[[O2:.*]] = %rows) -> (tensor<6x16xf32>, tensor<6xf32>) {
// CHECK:         %[[T1:.*]] = tensor.extract_slice %[[O1]][%[[I]], 0] [%{{.*}}, 16] [1, 1]
// CHECK:         %[[T2:.*]] = tensor.extract_slice %[[O2]][%[[I]]] [%{{.*}}] [1]
// CHECK:         %{{.*}}, %{{.*}} = scf.for %[[J:.*]] = %c0 to %c16 step %c8 iter_args(%[[A1:.*]] = %[[T1]], %[[A2:.*]] = %[[T2]])
// CHECK:           %[[S1:.*]] = tensor.extract_slice %[[A1]][0, %[[J]]] [%{{.*}}, 8] [1, 1]
// CHECK:           %[[G0:[0-9]+]], %[[G1:[0-9]+]] = linalg.generic
// CHECK-SAME:        outs(%[[S1]], %[[A2]] :
// CHECK:             linalg.index 1 : index
// CHECK-NEXT:        arith.addi %{{.*}}, %[[J]] : index
// CHECK:           %[[U:.*]] = tensor.insert_slice %[[G0]] into %[[A1]][0, %[[J]]] [%{{.*}}, 8] [1, 1]
// CHECK-NEXT:      scf.yield %[[U]], %[[G1]]
// CHECK:         scf.forall.in_parallel {
// CHECK-NEXT:      tensor.parallel_insert_slice
// CHECK-NEXT:      tensor.parallel_insert_slice

func.func @two_outputs(%x: tensor<6x16xf32>, %init: tensor<6x16xf32>, %rows: tensor<6xf32>) -> (tensor<6x16xf32>, tensor<6xf32>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x16xf32>) outs(%init, %rows : tensor<6x16xf32>, tensor<6xf32>) {
  ^bb0(%v: f32, %o: f32, %row: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %s = arith.addf %v, %jf : f32
    linalg.yield %s, %s : f32, f32
  } -> (tensor<6x16xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6x16xf32>, tensor<6xf32>
}
