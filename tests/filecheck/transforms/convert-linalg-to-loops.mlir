// RUN: irkit-opt %s --split-input-file -p convert-linalg-to-loops | filecheck %s

// Elementwise: all loops parallel, one scf.parallel with one variable each.

// CHECK-LABEL: func.func @elementwise_2d
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0]], %[[C0]]) to (%[[C4]], %[[C8]]) step (%[[C1]], %[[C1]]) {
// CHECK-NEXT:      %[[A:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      %[[B:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:      memref.store %[[S]], %[[OUT:.*]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.
func.func @elementwise_2d(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %out: memref<4x8xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<4x8xf32>, memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Matmul: parallel i outside, the reduction k an scf.for inside it, and j,
// the output's innermost dimension, innermost (i, k, j: unit stride over B and
// C, so the C compiler vectorises it); the accumulator goes through memory.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: memref<4x16xf32>, %[[B:.*]]: memref<16x8xf32>, %[[C:.*]]: memref<4x8xf32> {irkit.output})
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         scf.parallel (%[[I:.*]]) = ({{.*}}) to (%{{.*}}) step
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %[[C16]] step %{{.*}} {
// CHECK-NEXT:        scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          %[[X:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT:          %[[Y:.*]] = memref.load %[[B]][%[[K]], %[[J]]]
// CHECK-NEXT:          %[[ACC:.*]] = memref.load %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT:          %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT:          memref.store %[[S]], %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.reduce
func.func @matmul(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %c: memref<4x8xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Reduction loops run inside the parallel loop whatever their position in the
// loop order, and keep their relative order: d0 and d2 reduce, d1 and d3 are
// parallel. d3, the output's innermost dimension, runs below the reductions.

// CHECK-LABEL: func.func @reductions_innermost
// CHECK:         scf.parallel (%[[D1:.*]]) =
// CHECK-NEXT:      scf.for %[[D0:.*]] = %{{.*}} to %[[C2:.*]] step
// CHECK-NEXT:        scf.for %[[D2:.*]] = %{{.*}} to %[[C4:.*]] step
// CHECK-NEXT:          scf.for %[[D3:.*]] = %{{.*}} to %[[C5:.*]] step
// CHECK-NEXT:            memref.load %{{.*}}[%[[D0]], %[[D1]], %[[D2]], %[[D3]]] : memref<2x3x4x5xf32>
func.func @reductions_innermost(%x: memref<2x3x4x5xf32>, %out: memref<3x5xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3)>], iterator_types = ["reduction", "parallel", "reduction", "parallel"]} ins(%x : memref<2x3x4x5xf32>) outs(%out : memref<3x5xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Transposed and broadcast maps: loads at the permuted indices; a constant-0
// result indexes a size-1 dimension with %c0; a projected input drops loops.

// CHECK-LABEL: func.func @transpose_broadcast
// CHECK-SAME:    (%[[T:.*]]: memref<8x4xf32>, %[[ROW:.*]]: memref<1x8xf32>, %[[COL:.*]]: memref<4xf32>,
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT:      memref.load %[[T]][%[[J]], %[[I]]] : memref<8x4xf32>
// CHECK-NEXT:      memref.load %[[ROW]][%[[C0]], %[[J]]] : memref<1x8xf32>
// CHECK-NEXT:      memref.load %[[COL]][%[[I]]] : memref<4xf32>
func.func @transpose_broadcast(%t: memref<8x4xf32>, %row: memref<1x8xf32>, %col: memref<4xf32>, %out: memref<4x8xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t, %row, %col : memref<8x4xf32>, memref<1x8xf32>, memref<4xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %p = arith.mulf %s, %c : f32
    linalg.yield %p : f32
  }
  return
}

// -----

// Convolution-like maps: `d0 * 2 + d2 * 3` (stride 2, dilation 3) becomes
// arith on index, with coefficient 1 and constant 0 folded away.

// CHECK-LABEL: func.func @strided_dilated_window
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         scf.parallel (%[[N:.*]]) =
// CHECK-NEXT:      scf.for %[[KW:.*]] = %{{.*}} to %[[C3]] step
// CHECK-NEXT:        scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[S:.*]] = arith.muli %[[OW]], %[[C2]] : index
// CHECK-NEXT:          %[[D:.*]] = arith.muli %[[KW]], %[[C3]] : index
// CHECK-NEXT:          %[[IW:.*]] = arith.addi %[[S]], %[[D]] : index
// CHECK-NEXT:          memref.load %{{.*}}[%[[N]], %[[IW]]] : memref<2x16xf32>
// CHECK-NEXT:          memref.load %{{.*}}[%[[KW]]] : memref<3xf32>
func.func @strided_dilated_window(%x: memref<2x16xf32>, %w: memref<3xf32>, %out: memref<2x4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 * 2 + d2 * 3)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<2x16xf32>, memref<3xf32>) outs(%out : memref<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A plain sum of loops, `d0 + d1`, as in pooling: the window operand only
// gives the range of d1 and, unread, is not loaded.

// CHECK-LABEL: func.func @window_sum
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      scf.for %[[K:.*]] =
// CHECK-NEXT:        %[[IDX:.*]] = arith.addi %[[I]], %[[K]] : index
// CHECK-NEXT:        memref.load %{{.*}}[%[[IDX]]] : memref<6xf32>
// CHECK-NOT:         memref<3xf32>
// CHECK:             scf.reduce
func.func @window_sum(%x: memref<6xf32>, %window: memref<3xf32>, %out: memref<4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %window : memref<6xf32>, memref<3xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// linalg.index becomes the loop variable of its loop.

// CHECK-LABEL: func.func @index
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT:      %[[SUM:.*]] = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:      %[[CAST:.*]] = arith.index_cast %[[SUM]] : index to i32
// CHECK-NEXT:      memref.store %[[CAST]], %{{.*}}[%[[I]], %[[J]]] : memref<3x5xi32>
// CHECK-NOT:     linalg.index
func.func @index(%out: memref<3x5xi32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%out : memref<3x5xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %c = arith.index_cast %s : index to i32
    linalg.yield %c : i32
  }
  return
}

// -----

// Several outputs, at their own maps; an output the body does not read is
// not loaded.

// CHECK-LABEL: func.func @multi_output
// CHECK-SAME:    (%[[X:.*]]: memref<4x6xf32>, %[[MAX:.*]]: memref<4xf32> {irkit.output}, %[[T:.*]]: memref<6x4xf32> {irkit.output})
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[ACC:.*]] = memref.load %[[MAX]][%[[I]]]
// CHECK-NOT:         memref.load
// CHECK:             memref.store %{{.*}}, %[[MAX]][%[[I]]]
// CHECK-NEXT:        memref.store %[[V]], %[[T]][%[[J]], %[[I]]]
func.func @multi_output(%x: memref<4x6xf32>, %max: memref<4xf32> {irkit.output}, %t: memref<6x4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x6xf32>) outs(%max, %t : memref<4xf32>, memref<6x4xf32>) {
  ^bb0(%v: f32, %acc: f32, %unused: f32):
    %m = arith.maximumf %acc, %v : f32
    linalg.yield %m, %v : f32, f32
  }
  return
}

// -----

// Rank 0: straight-line code, no loops and no index constants.

// CHECK-LABEL: func.func @rank_zero
// CHECK-NEXT:    %[[A:.*]] = memref.load %{{.*}}[] : memref<f32>
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[A]] : f32
// CHECK-NEXT:    memref.store %[[E]], %{{.*}}[] : memref<f32>
// CHECK-NEXT:    func.return
func.func @rank_zero(%a: memref<f32>, %out: memref<f32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a : memref<f32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Only reduction loops: scf.for nest, no scf.parallel.

// CHECK-LABEL: func.func @reduction_only
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        memref.load %{{.*}}[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        memref.load %{{.*}}[] : memref<f32>
// CHECK:             memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK-NOT:     scf.parallel
func.func @reduction_only(%x: memref<3x4xf32>, %out: memref<f32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : memref<3x4xf32>) outs(%out : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A parallel loop that an output does not index alone writes one element
// from several iterations: it runs sequentially, outside the reductions.

// CHECK-LABEL: func.func @parallel_not_in_output
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        scf.for %[[K:.*]] =
// CHECK-NEXT:          memref.load %{{.*}}[%[[I]], %[[J]], %[[K]]]
func.func @parallel_not_in_output(%x: memref<2x3x4xf32>, %out: memref<2xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<2x3x4xf32>) outs(%out : memref<2xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Dynamic sizes come from memref.dim.

// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:    (%[[X:.*]]: memref<?x8xf32>,
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[N:.*]] = memref.dim %[[X]], %[[C0]] : memref<?x8xf32>
// CHECK:         scf.parallel (%{{.*}}, %{{.*}}) = (%[[C0]], %[[C0]]) to (%[[N]], %{{.*}})
func.func @dynamic(%x: memref<?x8xf32>, %out: memref<?x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<?x8xf32>) outs(%out : memref<?x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Named ops go through their generic form: fill stores its scalar.

// CHECK-LABEL: func.func @fill
// CHECK-SAME:    (%[[CST:.*]]: f32, %[[OUT:.*]]: memref<4x8xf32> {irkit.output})
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT:      memref.store %[[CST]], %[[OUT]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      scf.reduce
func.func @fill(%cst: f32, %out: memref<4x8xf32> {irkit.output}) {
  linalg.fill ins(%cst : f32) outs(%out : memref<4x8xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @named_matmul
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      scf.for %[[K:.*]] =
// CHECK-NEXT:        scf.for %[[J:.*]] =
// CHECK-NEXT:          memref.load %{{.*}}[%[[I]], %[[K]]] : memref<2x3xf32>
// CHECK-NEXT:          memref.load %{{.*}}[%[[K]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:          memref.load %{{.*}}[%[[I]], %[[J]]] : memref<2x4xf32>
// CHECK:             memref.store
// CHECK-NOT:     linalg.
func.func @named_matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32> {irkit.output}) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @named_reduce
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        memref.load %{{.*}}[%[[I]], %[[J]]] : memref<4x5xf32>
// CHECK-NOT:     linalg.
func.func @named_reduce(%x: memref<4x5xf32>, %out: memref<4xf32> {irkit.output}) {
  linalg.reduce ins(%x : memref<4x5xf32>) outs(%out : memref<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// CHECK-LABEL: func.func @named_broadcast
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT:      %[[V:.*]] = memref.load %{{.*}}[%[[J]]] : memref<5xf32>
// CHECK-NEXT:      memref.store %[[V]], %{{.*}}[%[[I]], %[[J]]] : memref<4x5xf32>
func.func @named_broadcast(%x: memref<5xf32>, %out: memref<4x5xf32> {irkit.output}) {
  linalg.broadcast ins(%x : memref<5xf32>) outs(%out : memref<4x5xf32>) dimensions = [0]
  return
}
