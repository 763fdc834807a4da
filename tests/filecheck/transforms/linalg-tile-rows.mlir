// RUN: irkit-opt %s --split-input-file -p linalg-tile-rows | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-rows{max-stack-bytes=0}' | filecheck %s --check-prefix=NOSTACK

// A row sum and the scaling that uses it run row by row in one parallel
// loop; the sums become one stack element per row.

// CHECK-LABEL: func.func @sum_then_scale
// CHECK-NOT:     memref.alloc()
// CHECK:         scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT:      %[[SUM:.*]] = memref.alloca() : memref<1xf32>
// CHECK-NEXT:      linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%[[SUM]] : memref<1xf32>)
// CHECK:           %[[XROW:.*]] = memref.subview %{{.*}}[%[[ROW]], 0] [1, 10] [1, 1] : memref<8x10xf32> to memref<1x10xf32, strided<[10, 1], offset: ?>>
// CHECK-NEXT:      linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[XROW]] : {{.*}}) outs(%[[SUM]] : memref<1xf32>)
// CHECK:           %[[OROW:.*]] = memref.subview %{{.*}}[%[[ROW]], 0] [1, 10] [1, 1]
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[XROW]], %[[SUM]] : {{.*}}) outs(%[[OROW]] : {{.*}})
// CHECK:           scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// NOSTACK-LABEL: func.func @sum_then_scale
// NOSTACK:         %[[SUMS:.*]] = memref.alloc() : memref<8xf32>
// NOSTACK:         scf.parallel
// NOSTACK:           memref.subview %[[SUMS]][%{{.*}}] [1] [1]
// NOSTACK:         memref.dealloc %[[SUMS]]
func.func @sum_then_scale(%x: memref<8x10xf32>, %out: memref<8x10xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %sums = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%sums : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x10xf32>) outs(%sums : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sums : memref<8x10xf32>, memref<8xf32>) outs(%out : memref<8x10xf32>) {
  ^bb0(%in: f32, %sum: f32, %o: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  memref.dealloc %sums : memref<8xf32>
  return
}

// -----

// Left alone: a lone reduction (nothing to fuse it with).

// CHECK-LABEL: func.func @lone_reduction
// CHECK-NOT:     scf.parallel
func.func @lone_reduction(%x: memref<4x6xf32>, %r: memref<4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x6xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: elementwise ops without a reduction (lower-to-c's loops
// already stream them).

// CHECK-LABEL: func.func @elementwise_only
// CHECK-NOT:     scf.parallel
func.func @elementwise_only(%x: memref<4x6xf32>, %tmp: memref<4x6xf32> {irkit.output}, %out: memref<4x6xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x6xf32>) outs(%tmp : memref<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%tmp : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Two row groups side by side, of 1 and 2 rows (see
// linalg-tile-rows-for-gpu.mlir): the first group's sums go on the stack, their
// dealloc between the groups with them.

// CHECK-LABEL: func.func @adjacent_groups
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT:      memref.alloca() : memref<1xf32>
// CHECK:           scf.reduce
// CHECK-NEXT:    }
// CHECK-NOT:     memref.dealloc
// CHECK:         scf.parallel
// CHECK:           scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @adjacent_groups(%x: memref<1x4xf32>, %y: memref<2x4xf32>, %out: memref<1x4xf32> {irkit.output}, %max: memref<2xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %sums = memref.alloc() : memref<1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%sums : memref<1xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x4xf32>) outs(%sums : memref<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sums : memref<1x4xf32>, memref<1xf32>) outs(%out : memref<1x4xf32>) {
  ^bb0(%in: f32, %sum: f32, %o: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  memref.dealloc %sums : memref<1xf32>
  %ninf = arith.constant 0xFF800000 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ninf : f32) outs(%max : memref<2xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : memref<2x4xf32>) outs(%max : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  return
}
