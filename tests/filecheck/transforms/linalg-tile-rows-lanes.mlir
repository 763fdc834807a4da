// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-rows{vector-bits=128}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-rows' | filecheck %s --check-prefix=OFF

// With the vector unit's width (128 bits: 4 f32 lanes), a row max runs as
// one vector of partials per row: partial p folds elements p, p + 4, ...
// (the lanes loop innermost, reading consecutive elements), starting from
// maximumf's identity, then the partials fold into the row's max, which
// starts from the fill. Same result bit for bit: maximumf gives one answer
// in any order. The row sum (addf rounds differently when reordered) stays
// one element at a time.

// CHECK-LABEL: func.func @softmax_rows
// CHECK:         scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK:           %[[MAX:.*]] = memref.alloca() : memref<1xf32>
// CHECK:           %[[XROW:.*]] = memref.subview %{{.*}}[%[[ROW]], 0] [1, 16] [1, 1] : memref<8x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
// CHECK:           %[[PARTIALS:.*]] = memref.alloca() : memref<1x4xf32>
// CHECK-NEXT:      %[[IDENTITY:.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[IDENTITY]] : f32) outs(%[[PARTIALS]] : memref<1x4xf32>)
// CHECK:           %[[LANES:.*]] = memref.expand_shape %[[XROW]] {{\[}}[0], [1, 2]] output_shape [1, 4, 4] : memref<1x16xf32, strided<[16, 1], offset: ?>> into memref<1x4x4xf32, strided<[16, 4, 1], offset: ?>>
// CHECK-NEXT:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[LANES]] : {{.*}}) outs(%[[PARTIALS]] : memref<1x4xf32>)
// CHECK-NEXT:      ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:        arith.maximumf %[[IN]], %[[ACC]] : f32
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[PARTIALS]] : memref<1x4xf32>) outs(%[[MAX]] : memref<1xf32>)
// CHECK-NEXT:      ^bb0(%[[PART:.*]]: f32, %[[RUNNING:.*]]: f32):
// CHECK-NEXT:        arith.maximumf %[[PART]], %[[RUNNING]] : f32
// CHECK:           arith.subf
// CHECK:           iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : memref<1x16xf32{{.*}}>) outs(%{{.*}} : memref<1xf32>)
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        arith.addf
// CHECK-NOT:       memref.alloca() : memref<1x4xf32>
// CHECK:           scf.reduce

// OFF-LABEL: func.func @softmax_rows
// OFF-NOT:     memref.expand_shape
func.func @softmax_rows(%x: memref<8x16xf32>, %out: memref<8x16xf32> {irkit.output}) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ninf : f32) outs(%max : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x16xf32>) outs(%max : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  %e = memref.alloc() : memref<8x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %max : memref<8x16xf32>, memref<8xf32>) outs(%e : memref<8x16xf32>) {
  ^bb0(%in: f32, %mx: f32, %o: f32):
    %d = arith.subf %in, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  }
  %sum = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%sum : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : memref<8x16xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %sum : memref<8x16xf32>, memref<8xf32>) outs(%out : memref<8x16xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %y = arith.divf %in, %s : f32
    linalg.yield %y : f32
  }
  memref.dealloc %max : memref<8xf32>
  memref.dealloc %e : memref<8x16xf32>
  memref.dealloc %sum : memref<8xf32>
  return
}

// -----

// A row the lanes do not divide (10 elements, 4 lanes): its first 8 go
// through the lanes, the last 2 follow one at a time into the same max.

// CHECK-LABEL: func.func @ragged_row_max
// CHECK:         %[[ROW:.*]] = memref.subview %x[%{{.*}}, 0] [1, 10] [1, 1]
// CHECK:         %[[OUT:.*]] = memref.subview %r[%{{.*}}] [1] [1]
// CHECK:         %[[PARTIALS:.*]] = memref.alloca() : memref<1x4xf32>
// CHECK:         %[[WHOLE:.*]] = memref.subview %[[ROW]][0, 0] [1, 8] [1, 1]
// CHECK-NEXT:    %[[LANES:.*]] = memref.expand_shape %[[WHOLE]] {{\[}}[0], [1, 2]] output_shape [1, 2, 4]
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[LANES]] : {{.*}}) outs(%[[PARTIALS]] : memref<1x4xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[PARTIALS]] : memref<1x4xf32>) outs(%[[OUT]] : {{.*}})
// CHECK:         %[[TAIL:.*]] = memref.subview %[[ROW]][0, 8] [1, 2] [1, 1]
// CHECK-NEXT:    linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[TAIL]] : {{.*}}) outs(%[[OUT]] : {{.*}})
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.maximumf
func.func @ragged_row_max(%x: memref<4x10xf32>, %r: memref<4xf32> {irkit.output}, %y: memref<4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x10xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.addf %in, %in : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// Rows of fewer than two vectors (6 elements, 4 lanes) keep the
// one-element reduction.

// CHECK-LABEL: func.func @short_row_max
// CHECK-NOT:     memref.expand_shape
func.func @short_row_max(%x: memref<4x6xf32>, %r: memref<4xf32> {irkit.output}, %y: memref<4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x6xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.addf %in, %in : f32
    linalg.yield %d : f32
  }
  return
}
