// RUN: irkit-opt %s --split-input-file -p linalg-collapse-dims --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p linalg-generalize-named-ops,linalg-collapse-dims --check-semantics | filecheck %s --check-prefix=GENERIC

// A row sum over 2x3x4 with keepdims, as torch-mlir writes it, and the
// subtraction that reads it: both run over 6 rows of 4. The fill takes the
// reduction's shape and the reshapes between the two ops cancel.

// CHECK-LABEL: func.func @row_sum
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<6x1xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[E]] : tensor<6x1xf32>) -> tensor<6x1xf32>
// CHECK:         %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<6x4xf32>) outs(%[[F]] : tensor<6x1xf32>)
// The fill as a generic (after linalg-generalize-named-ops) follows too.
// GENERIC-LABEL: func.func @row_sum
// GENERIC:         %[[E:.*]] = tensor.empty() : tensor<6x1xf32>
// GENERIC-NEXT:    %[[F:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%[[E]] : tensor<6x1xf32>)
// GENERIC:         linalg.generic {{.*}} ins(%{{.*}} : tensor<6x4xf32>) outs(%[[F]] : tensor<6x1xf32>)
// CHECK:         %[[D:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[S]] : tensor<6x4xf32>, tensor<6x1xf32>) outs(%{{.*}} : tensor<6x4xf32>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[D]] {{\[\[}}0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x3x4xf32>
func.func @row_sum(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x4xf32>) outs(%f : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<2x3x4xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4xf32>
  return %d : tensor<2x3x4xf32>
}

// -----

// Two trailing reduction loops read together become one reduction loop; the
// parallel loop before them stays its own.

// CHECK-LABEL: func.func @two_reduction_loops
// CHECK:         tensor.collapse_shape %x {{\[\[}}0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
func.func @two_reduction_loops(%x: tensor<2x3x4xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<2x3x4xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// An elementwise op reading an expand_shape runs over the expand's source;
// one whose result is collapsed runs over the collapsed shape.

// CHECK-LABEL: func.func @follows_reshapes
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[N:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x4xf32>) outs(%{{.*}} : tensor<6x4xf32>)
// CHECK:         %[[M:.*]] = linalg.generic {{.*}} ins(%[[N]] : tensor<6x4xf32>) outs(%{{.*}} : tensor<6x4xf32>)
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         func.return %[[M]] : tensor<6x4xf32>
func.func @follows_reshapes(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x3 : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4xf32>
  %r = tensor.collapse_shape %m [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

// Left alone: a transpose (no two loops read in the same order everywhere),
// a matmul (d0 and d1 are never read together by the operands), an
// elementwise op with no reshape next to it, a body with linalg.index and a
// 1-D convolution (its output loops are read in a compound expression).

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     tensor.expand_shape
// CHECK:         func.return
func.func @left_alone(%x: tensor<2x3x4xf32>, %a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %c: tensor<4x6xf32>, %v: tensor<2x5xf32>, %kernel: tensor<3xf32>) -> (tensor<3x2x4xf32>, tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3xf32>) {
  %e = tensor.empty() : tensor<3x2x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<3x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x2x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
  %e2 = tensor.empty() : tensor<2x3x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e2 : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4xf32>
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<2x3x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %i = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x4xf32>) outs(%f : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %k = linalg.index 0 : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %0 = arith.mulf %in, %kf : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  } -> tensor<2x3x1xf32>
  %e4 = tensor.empty() : tensor<2x3xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 + d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v, %kernel : tensor<2x5xf32>, tensor<3xf32>) outs(%f4 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %w0: f32, %acc: f32):
    %0 = arith.mulf %in, %w0 : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  } -> tensor<2x3xf32>
  return %t, %mm, %n, %i, %w : tensor<3x2x4xf32>, tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3xf32>
}

// -----

// A max without keepdims, expanded to keepdims (as torch-mlir's softmax
// does) and read back as (d0, d1, 0): the reduction's expand and torch's
// compose into one expand of the 6 row maxima to 6x1, so the subtraction
// collapses to 6 rows too (its size-1 dimension needs no loop).

// CHECK-LABEL: func.func @max_then_keepdims
// CHECK:         %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<6x4xf32>) outs(%{{.*}} : tensor<6xf32>)
// CHECK:         %[[K:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1]] output_shape [6, 1] : tensor<6xf32> into tensor<6x1xf32>
// CHECK:         %[[D:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[K]] : tensor<6x4xf32>, tensor<6x1xf32>)
// CHECK:         tensor.expand_shape %[[D]] {{\[\[}}0, 1], [2]] output_shape [2, 3, 4]
func.func @max_then_keepdims(%x: tensor<2x3x4xf32>, %init: tensor<2x3xf32>) -> tensor<2x3x4xf32> {
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x4xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<2x3xf32>
  %k = tensor.expand_shape %m [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %k : tensor<2x3x4xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %0 = arith.subf %in, %mx : f32
    linalg.yield %0 : f32
  } -> tensor<2x3x4xf32>
  return %d : tensor<2x3x4xf32>
}

// -----

// A map that reads a loop twice (here (d1, d0, d1) over a 3x2x3 input, a
// diagonal) would pass the pairwise test for d0 and d1; it is left alone.

// CHECK-LABEL: func.func @diagonal
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         func.return
func.func @diagonal(%x: tensor<3x2x3xf32>, %init: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x2x3xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x3xf32>
  %e = tensor.empty() : tensor<6xf32>
  %c = tensor.collapse_shape %r [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %f = tensor.expand_shape %c [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %f : tensor<2x3xf32>
}

// -----

// Left alone: rows of an expand_shape, but the op's second output reads the
// two row loops swapped (3x2, not 2x3), so they are not one loop for every
// operand: the first output's order alone must not decide.

// CHECK-LABEL: func.func @second_output_transposed
// CHECK:         %[[X:.*]] = tensor.expand_shape
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[X]] : tensor<2x3x4xf32>)
// CHECK-NOT:     tensor.collapse_shape
func.func @second_output_transposed(%flat: tensor<6x4xf32>) -> (tensor<2x3x4xf32>, tensor<3x2x4xf32>) {
  %x = tensor.expand_shape %flat [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e1 = tensor.empty() : tensor<2x3x4xf32>
  %e2 = tensor.empty() : tensor<3x2x4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e1, %e2 : tensor<2x3x4xf32>, tensor<3x2x4xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    %n = arith.negf %in : f32
    linalg.yield %n, %in : f32, f32
  } -> (tensor<2x3x4xf32>, tensor<3x2x4xf32>)
  return %r#0, %r#1 : tensor<2x3x4xf32>, tensor<3x2x4xf32>
}

// -----

// Both outputs read the row loops in order: the op runs over 6 rows of 4.

// CHECK-LABEL: func.func @both_outputs_in_order
// CHECK-NOT:     tensor.expand_shape %flat
// CHECK:         linalg.generic {{.*}} ins(%flat : tensor<6x4xf32>) outs(%{{.*}}, %{{.*}} : tensor<6x4xf32>, tensor<6x4xf32>)
func.func @both_outputs_in_order(%flat: tensor<6x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %x = tensor.expand_shape %flat [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e1 = tensor.empty() : tensor<2x3x4xf32>
  %e2 = tensor.empty() : tensor<2x3x4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e1, %e2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    %n = arith.negf %in : f32
    linalg.yield %n, %in : f32, f32
  } -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  return %r#0, %r#1 : tensor<2x3x4xf32>, tensor<2x3x4xf32>
}
