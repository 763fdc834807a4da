// RUN: irkit-opt %s --split-input-file -p 'linalg-pad-contractions{multiples=4,4,2 max-growth-percent=200}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-pad-contractions{multiples=4,4,2 max-growth-percent=0}' | filecheck %s --check-prefix=NOGROWTH

// A 6x5x3 matmul with 4x4x2 tiles: i and j pad to 8, k to 4. Each operand
// gets a zero-filled padded buffer holding it in its corner; the output's
// corner is copied back after the matmul, then the buffers are freed.

// CHECK-LABEL: func.func @matmul
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[PA:.*]] = memref.alloc() : memref<8x4xf32>
// CHECK-NEXT:    linalg.fill ins(%[[ZERO]] : f32) outs(%[[PA]] : memref<8x4xf32>)
// CHECK-NEXT:    %[[VA:.*]] = memref.subview %[[PA]][0, 0] [6, 3] [1, 1] : memref<8x4xf32> to memref<6x3xf32, strided<[4, 1]>>
// CHECK-NEXT:    memref.copy %{{.*}}, %[[VA]] : memref<6x3xf32> to memref<6x3xf32, strided<[4, 1]>>
// CHECK-NEXT:    %[[PB:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK:         %[[PC:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK-NEXT:    linalg.fill ins(%[[ZERO]] : f32) outs(%[[PC]] : memref<8x8xf32>)
// CHECK-NEXT:    %[[VC:.*]] = memref.subview %[[PC]][0, 0] [6, 5] [1, 1] : memref<8x8xf32> to memref<6x5xf32, strided<[8, 1]>>
// CHECK-NEXT:    memref.copy %[[C:.*]], %[[VC]]
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[PA]], %[[PB]] : memref<8x4xf32>, memref<4x8xf32>) outs(%[[PC]] : memref<8x8xf32>)
// CHECK:         }
// CHECK-NEXT:    memref.copy %[[VC]], %[[C]] : memref<6x5xf32, strided<[8, 1]>> to memref<6x5xf32>
// CHECK-NEXT:    memref.dealloc %[[PC]]
// CHECK-NEXT:    memref.dealloc %[[PB]]
// CHECK-NEXT:    memref.dealloc %[[PA]]

// 8x8x4 over 6x5x3 is 256 iterations for 90 (184% more): over a budget of 0%
// (the default, 100%, refuses it too; the RUN above allows 200%).
// NOGROWTH-LABEL: func.func @matmul
// NOGROWTH-NOT:     memref.alloc
func.func @matmul(%a: memref<6x3xf32>, %b: memref<3x5xf32>, %c: memref<6x5xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<6x3xf32>, memref<3x5xf32>) outs(%c : memref<6x5xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Extents the tiles divide: nothing to pad.

// CHECK-LABEL: func.func @divided
// CHECK-NOT:     memref.alloc
func.func @divided(%a: memref<8x4xi32>, %b: memref<4x8xi32>, %c: memref<8x8xi32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<8x4xi32>, memref<4x8xi32>) outs(%c : memref<8x8xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %p, %acc : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Only k needs padding (8x8x3 -> 8x8x4): A and B are padded, the output is
// used as it is (no copies of it).

// CHECK-LABEL: func.func @k_only
// CHECK:         memref.alloc() : memref<8x4xi32>
// CHECK:         memref.alloc() : memref<4x8xi32>
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : memref<8x8xi32>)
// CHECK-NOT:     memref.copy
// CHECK:         memref.dealloc
func.func @k_only(%a: memref<8x3xi32>, %b: memref<3x8xi32>, %c: memref<8x8xi32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<8x3xi32>, memref<3x8xi32>) outs(%c : memref<8x8xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %p, %acc : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Left alone: `a @ a` would need %a padded to 8x4 as the left operand and to
// 4x8 as the right one.

// CHECK-LABEL: func.func @square_of_itself
// CHECK-NOT:     memref.alloc
func.func @square_of_itself(%a: memref<3x3xf32>, %c: memref<3x3xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %a : memref<3x3xf32>, memref<3x3xf32>) outs(%c : memref<3x3xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// N = 3 is no larger than its multiple (4): its tile is clamped to 3, one
// full tile, so N is not padded; M (6 -> 8) and K (3 -> 4) are.

// CHECK-LABEL: func.func @narrow
// CHECK:         memref.alloc() : memref<8x4xf32>
// CHECK:         memref.alloc() : memref<4x3xf32>
// CHECK:         memref.alloc() : memref<8x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<8x4xf32>, memref<4x3xf32>) outs(%{{.*}} : memref<8x3xf32>)
func.func @narrow(%a: memref<6x3xf32>, %b: memref<3x3xf32>, %c: memref<6x3xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<6x3xf32>, memref<3x3xf32>) outs(%c : memref<6x3xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Operands allocated in the function are padded in place when only their
// leading dimension grows: the allocation becomes a padded one whose margin
// (the rows past the corner, alone) is zero-filled before the matmul and its
// prologue (the margin's only reader), and every reader and writer (the negation producing A, the bias reading
// the product) uses its leading corner; no copy in or out. The product's
// fill is the fill of the whole padded product, next to the matmul; the
// deallocation frees the padded buffer. B needs no padding.

// CHECK-LABEL: func.func @allocated_operands
// CHECK:         %[[PA:.*]] = memref.alloc() : memref<8x4xf32>
// CHECK-NEXT:    %[[A:.*]] = memref.subview %[[PA]][0, 0] [5, 4] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%x : memref<5x4xf32>) outs(%[[A]] :
// CHECK:         %[[PC:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK-NEXT:    %[[C:.*]] = memref.subview %[[PC]][0, 0] [5, 8] [1, 1]
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[MARGIN:.*]] = memref.subview %[[PA]][5, 0] [3, 4] [1, 1] : memref<8x4xf32> to memref<3x4xf32, strided<[4, 1], offset: 20>>
// CHECK-NEXT:    linalg.fill ins(%[[ZERO]] : f32) outs(%[[MARGIN]] : memref<3x4xf32, strided<[4, 1], offset: 20>>)
// CHECK-NEXT:    linalg.generic {{.*}} ins(%one : f32) outs(%[[PC]] : memref<8x8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[PA]], %{{.*}} : memref<8x4xf32>, memref<4x8xf32>) outs(%[[PC]] : memref<8x8xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         linalg.generic {{.*}} ins(%[[C]], %bias :
// CHECK:         memref.dealloc %[[PC]] : memref<8x8xf32>
// 8x8x4 over 5x8x4 is 256 iterations for 160: not padded without growth.
// NOGROWTH-LABEL: func.func @allocated_operands
// NOGROWTH-NOT:     memref<8x
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @allocated_operands(%x: memref<5x4xf32>, %w: memref<4x8xf32>, %bias: memref<5x8xf32>, %out: memref<5x8xf32> {irkit.output}) {
  %a = memref.alloc() : memref<5x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<5x4xf32>) outs(%a : memref<5x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  }
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<5x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, #id], iterator_types = ["parallel", "parallel"]} ins(%one : f32) outs(%c : memref<5x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : memref<5x4xf32>, memref<4x8xf32>) outs(%c : memref<5x8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %a : memref<5x4xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<5x8xf32>, memref<5x8xf32>) outs(%out : memref<5x8xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c : memref<5x8xf32>
  return
}

// -----

// An allocated operand that grows along an inner dimension (A: 5x3 -> 8x4,
// k padded) is copied into its padded buffer, not padded in place: its
// views would keep strides of 3.

// CHECK-LABEL: func.func @inner_dimension_grows
// CHECK:         %a = memref.alloc() : memref<5x3xf32>
// CHECK:         memref.copy %a, %{{.*}} : memref<5x3xf32> to memref<5x3xf32, strided<[4, 1]>>
// NOGROWTH-LABEL: func.func @inner_dimension_grows
func.func @inner_dimension_grows(%x: memref<5x3xf32>, %w: memref<3x8xf32>, %out: memref<5x8xf32> {irkit.output}) {
  %a = memref.alloc() : memref<5x3xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<5x3xf32>) outs(%a : memref<5x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<5x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : memref<5x3xf32>, memref<3x8xf32>) outs(%out : memref<5x8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %a : memref<5x3xf32>
  return
}

// -----

// With `half-reduction-multiple`, an f16 x f16 -> f32 matmul pads K to it
// (10 -> 16, warpgroup products' whole K steps), an f32 one to `multiples`' K
// (10 -> 10: already a multiple of 2).

// HALF-LABEL: func.func @half_and_single
// HALF:         memref.alloc() : memref<4x16xf16>
// HALF:         memref.alloc() : memref<16x4xf16>
// HALF-NOT:     memref.alloc() : memref<4x16xf32>
// HALF:         return
// RUN: irkit-opt %s --split-input-file -p 'linalg-pad-contractions{multiples=4,4,2 half-reduction-multiple=8 max-growth-percent=200}' | filecheck %s --check-prefix=HALF
func.func @half_and_single(%a: memref<4x10xf16>, %b: memref<10x4xf16>, %c: memref<4x4xf32>, %x: memref<4x10xf32>, %y: memref<10x4xf32>, %z: memref<4x4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x10xf16>, memref<10x4xf16>) outs(%c : memref<4x4xf32>) {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %pe = arith.extf %p : f16 to f32
    %qe = arith.extf %q : f16 to f32
    %m = arith.mulf %pe, %qe : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : memref<4x10xf32>, memref<10x4xf32>) outs(%z : memref<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
