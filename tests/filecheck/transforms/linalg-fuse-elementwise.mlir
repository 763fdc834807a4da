// RUN: irkit-opt %s --split-input-file -p linalg-fuse-elementwise --check-semantics | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>

// relu(a * b + c) as three generics becomes one; c's transposed map is kept.

// CHECK-LABEL: func.func @chain
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %c : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[M]], %[[C]] : f32
// CHECK-NEXT:      %[[X:.*]] = arith.maximumf %[[S]], %zero : f32
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK-NEXT:    } -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4x8xf32>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.mulf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #t, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %c : tensor<4x8xf32>, tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.maximumf %x, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// %p has two users: fusing would compute it twice. Nothing changes.

// CHECK-LABEL: func.func @two_users
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[P]] : tensor<8xf32>)
func.func @two_users(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.negf %x : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.mulf %x, %x : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %q, %r : tensor<8xf32>, tensor<8xf32>
}

// -----

// The consumer reads %p broadcast along d0: each element would be computed
// 4 times. Nothing changes.

// CHECK-LABEL: func.func @broadcast_read
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%[[P]] : tensor<8xf32>)
func.func @broadcast_read(%a: tensor<8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// exp then a row sum: fused into the reduction, which keeps its iterators,
// its output map and its accumulator.

// CHECK-LABEL: func.func @into_reduction
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[A]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[E]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    } -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @into_reduction(%a: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%p : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %x, %o : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The producer writes its loops (p0, p1, p2) to (p1, p2, p0): the consumer's
// loop c reads the element of producer loop inverse(c), so %a's map becomes
// id o inverse((p1, p2, p0)) = (c2, c0, c1), and `linalg.index 0` (loop p0)
// becomes `linalg.index 2`. The consumer's own index is unchanged.

// CHECK-LABEL: func.func @permuted_with_index
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<3x4x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[P0:.*]] = linalg.index 2 : index
// CHECK:           %[[C1:.*]] = linalg.index 1 : index
// CHECK:         func.return
func.func @permuted_with_index(%a: tensor<2x3x4xf32>, %e: tensor<3x4x2xf32>) -> tensor<3x4x2xf32> {
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<3x4x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %0 = arith.addf %x, %f : f32
    linalg.yield %0 : f32
  } -> tensor<3x4x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<3x4x2xf32>) outs(%e : tensor<3x4x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %f = arith.sitofp %jj : i64 to f32
    %0 = arith.mulf %x, %f : f32
    linalg.yield %0 : f32
  } -> tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
}

// -----

// A transpose producer read back transposed: the maps compose to the identity.
// %b feeds both ops with the same map, so the fused op reads it once.

// CHECK-LABEL: func.func @transposes_cancel
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x4xf32>, tensor<8x4xf32>) outs(%o : tensor<8x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[D]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
func.func @transposes_cancel(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>, %e: tensor<4x8xf32>, %o: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %0 = arith.subf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%o : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %0 = arith.mulf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Not fused: a producer that reads its init (%o), and a reduction producer.

// CHECK-LABEL: func.func @not_fusable_producers
// CHECK-COUNT-4: linalg.generic
func.func @not_fusable_producers(%a: tensor<8xf32>, %s: tensor<f32>) -> (tensor<8xf32>, tensor<f32>) {
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %x, %o : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%a : tensor<8xf32>) outs(%s : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %x, %o : f32
    linalg.yield %0 : f32
  } -> tensor<f32>
  %t = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%sum : tensor<f32>) outs(%s : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  } -> tensor<f32>
  return %q, %t : tensor<8xf32>, tensor<f32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A two-result producer whose second result is unused fuses (the second
// result's computation is dropped); one whose results are both used does not.

// CHECK-LABEL: func.func @multi_result
// CHECK:         %[[F:.*]] = linalg.generic {{.*}} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[A]] : f32
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[E]] : f32
// CHECK-NEXT:      linalg.yield %[[N]] : f32
// CHECK:         %[[K0:.*]], %[[K1:.*]] = linalg.generic
// CHECK:         linalg.generic {{.*}} ins(%[[K0]] : tensor<8xf32>)
// CHECK:         func.return %[[F]], %{{.*}}, %[[K1]]
func.func @multi_result(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %p:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a, %a : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32, %o2: f32):
    %0 = math.exp %x : f32
    %1 = math.tanh %x : f32
    linalg.yield %0, %1 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p#0 : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.negf %x : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %k:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a, %a : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32, %o2: f32):
    %0 = math.exp %x : f32
    %1 = math.tanh %x : f32
    linalg.yield %0, %1 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%k#0 : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.negf %x : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %q, %u, %k#1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// tanh -> exp -> broadcast_to (1 -> 1x1) -> reduce_max axes [0], the program
// `nn_programs` shrank to (issue 23): the broadcast is the only operand that
// reads the reduction loop d0, so fusing it would leave the reduction with
// maps `(d0, d1) -> (d1)` that no longer give d0's extent (invalid IR). The
// broadcast stays; tanh and exp still fuse.

// CHECK-LABEL: func.func @broadcast_into_its_reduction
// CHECK:         %[[E:.*]] = linalg.generic {{.*}} ins(%x : tensor<1xf32>)
// CHECK:           math.tanh
// CHECK-NEXT:      math.exp
// CHECK:         %[[B:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[E]] : tensor<1xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%[[B]] : tensor<1x1xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.maximumf
func.func @broadcast_into_its_reduction(%x: tensor<1xf32>) -> tensor<1xf32> {
  %0 = tensor.empty() : tensor<1xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<1xf32>) outs(%0 : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = math.tanh %in : f32
    linalg.yield %1 : f32
  } -> tensor<1xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<1xf32>) outs(%0 : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = math.exp %in : f32
    linalg.yield %1 : f32
  } -> tensor<1xf32>
  %2 = tensor.empty() : tensor<1x1xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<1xf32>) outs(%2 : tensor<1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x1xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %init = linalg.fill ins(%ninf : f32) outs(%0 : tensor<1xf32>) -> tensor<1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%b : tensor<1x1xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.maximumf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}

// -----

// The same broadcast fuses into a reduction that another operand reads
// through d0 (here %w, 3x4): the loop keeps its extent.

// CHECK-LABEL: func.func @broadcast_into_a_reduction_read_elsewhere
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%e, %w : tensor<4xf32>, tensor<3x4xf32>)
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32, %[[W:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[E]], %[[W]] : f32
// CHECK-NEXT:      arith.addf %[[M]], %[[ACC]] : f32
// CHECK-NOT:     linalg.generic
func.func @broadcast_into_a_reduction_read_elsewhere(%e: tensor<4xf32>, %w: tensor<3x4xf32>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<3x4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<4xf32>) outs(%0 : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %1 = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%1 : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%b, %w : tensor<3x4xf32>, tensor<3x4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A splat constant (torch-mlir's causal-mask fill) folds into the generic
// that reads it: one scalar constant before the op, no tensor constant.
// CHECK-LABEL: func.func @splat_mask
// CHECK-NOT: dense<
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x4xi1>)
// CHECK-NEXT: ^{{.*}}(%[[IN:.*]]: i1, %{{.*}}: i1):
// CHECK-NEXT: arith.andi %[[IN]], %[[TRUE]] : i1
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @splat_mask(%a: tensor<4x4xi1>) -> tensor<4x4xi1> {
  %cst = arith.constant dense<true> : tensor<4x4xi1>
  %0 = tensor.empty() : tensor<4x4xi1>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %cst : tensor<4x4xi1>, tensor<4x4xi1>) outs(%0 : tensor<4x4xi1>) {
  ^bb0(%in: i1, %in_1: i1, %out: i1):
    %2 = arith.andi %in, %in_1 : i1
    linalg.yield %2 : i1
  } -> tensor<4x4xi1>
  return %1 : tensor<4x4xi1>
}

// -----

// A splat that alone reads a loop (the reduced axis here) stays: without
// it the generic would not know the loop's extent.
// CHECK-LABEL: func.func @splat_sum
// CHECK: arith.constant dense<2.000000e+00> : tensor<3xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<3xf32>)
func.func @splat_sum(%init: tensor<f32>) -> tensor<f32> {
  %cst = arith.constant dense<2.000000e+00> : tensor<3xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%cst : tensor<3xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %2 = arith.addf %in, %acc : f32
    linalg.yield %2 : f32
  } -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// torch-mlir's softmax takes max with argmax beside it and never reads the
// indices: the unused result goes, with its output, its fill, its empty
// tensor and the body ops that only computed it (linalg.index included).
// The max is a reduction with one result.

// CHECK-LABEL: func.func @unused_argmax
// CHECK-NOT:     i64
// CHECK:         %[[MAX:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NEXT:    } -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[MAX]] : tensor<4xf32>
func.func @unused_argmax(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %ef = tensor.empty() : tensor<4xf32>
  %ff = linalg.fill ins(%ninf : f32) outs(%ef : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%ff, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %idx: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %gt, %ii, %idx : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0 : tensor<4xf32>
}

// -----

// Kept: the indices are returned; and a result whose output value the other
// result reads (it would have to become an input).

// CHECK-LABEL: func.func @used_argmax
// CHECK:         linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xi64>)
// CHECK-LABEL: func.func @output_read_by_the_other_result
// CHECK:         linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>)
func.func @used_argmax(%x: tensor<4x8xf32>, %ff: tensor<4xf32>, %fi: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%ff, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %idx: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %gt, %ii, %idx : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}
func.func @output_read_by_the_other_result(%x: tensor<4x8xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%a, %b : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32, %other: f32):
    %m = arith.addf %in, %other : f32
    %n = arith.addf %m, %out : f32
    linalg.yield %n, %other : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0 : tensor<4xf32>
}

// -----

// A copy (a generalized linalg.transpose) read by a matmul through a
// projected map: the matmul reads the weight itself through the transposed
// map; no copy is left.

// CHECK-LABEL: func.func @transposed_weight
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x3xf32>, tensor<4x3xf32>)
// CHECK-NOT:     linalg.generic
func.func @transposed_weight(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %acc: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4x3xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %t : tensor<2x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// torch-mlir's half-precision torch.mm: each operand widened to f32 in a
// generic of its own (the weight transposed on the way), then an f32
// matmul. Both widenings fuse into the matmul through its projected maps:
// it reads the f16 operands (the weight through the transposed map) and
// widens them in its body, the form tensor-core kernels take.

// CHECK-LABEL: func.func @widened_half_operands
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x3xf16>, tensor<4x3xf16>) outs(%acc : tensor<2x4xf32>)
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
func.func @widened_half_operands(%x: tensor<2x3xf16>, %w: tensor<4x3xf16>, %acc: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %ex = tensor.empty() : tensor<2x3xf32>
  %xf = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf16>) outs(%ex : tensor<2x3xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w32 = arith.extf %in : f16 to f32
    linalg.yield %w32 : f32
  } -> tensor<2x3xf32>
  %ew = tensor.empty() : tensor<3x4xf32>
  %wf = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4x3xf16>) outs(%ew : tensor<3x4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w32 = arith.extf %in : f16 to f32
    linalg.yield %w32 : f32
  } -> tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf, %wf : tensor<2x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Kept: a narrowing (f32 to f16) read by a matmul K times per element is
// not a widening; nor is a widening that also scales.

// CHECK-LABEL: func.func @not_widenings_into_matmul
// CHECK:         arith.truncf
// CHECK:         linalg.yield
// CHECK:         arith.extf
// CHECK-NEXT:    arith.mulf
// CHECK:         linalg.yield
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x3xf16>, tensor<3x4xf32>)
func.func @not_widenings_into_matmul(%x: tensor<2x3xf32>, %w: tensor<3x4xf16>, %acc: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %ex = tensor.empty() : tensor<2x3xf16>
  %xh = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%ex : tensor<2x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %h = arith.truncf %in : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x3xf16>
  %ew = tensor.empty() : tensor<3x4xf32>
  %two = arith.constant 2.0 : f32
  %wf = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<3x4xf16>) outs(%ew : tensor<3x4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w32 = arith.extf %in : f16 to f32
    %scaled = arith.mulf %w32, %two : f32
    linalg.yield %scaled : f32
  } -> tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xh, %wf : tensor<2x3xf16>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) {
  ^bb0(%a: f16, %b: f32, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %m = arith.mulf %a32, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Kept: a transpose that computes (negates) is read by the matmul K times
// per element; fused, it would be recomputed N times.

// CHECK-LABEL: func.func @computing_producer_into_matmul
// CHECK:         linalg.generic {{.*}} ins(%w : tensor<4x3xf32>)
// CHECK:         arith.negf
// CHECK:         linalg.generic
func.func @computing_producer_into_matmul(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %acc: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<4x3xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %t : tensor<2x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// A fill two matmuls take as their init: each gets its own, right before
// it, so each can be written in place (and filled in the matmul's kernel).

// CHECK-LABEL: func.func @shared_fill
// CHECK:         %[[F1:.*]] = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>)
// CHECK-NEXT:    linalg.matmul ins(%x, %w : {{.*}}) outs(%[[F1]] : tensor<2x4xf32>)
// CHECK-NEXT:    %[[F2:.*]] = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>)
// CHECK-NEXT:    linalg.matmul ins(%y, %w : {{.*}}) outs(%[[F2]] : tensor<2x4xf32>)
func.func @shared_fill(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %b = linalg.matmul ins(%y, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %a, %b : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Kept: a fill also read as an input stays one tensor.

// CHECK-LABEL: func.func @fill_also_read
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT:     linalg.fill
func.func @fill_also_read(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %a = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = linalg.matmul ins(%a, %f : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %b : tensor<2x2xf32>
}

// -----

// torch-mlir's causal mask: an arange (read twice by the compare), the
// compare, and the select over the scores that reads the mask broadcast
// over heads. Generators (no tensor read, a few integer ops) fuse through
// any map, duplicated where several read them: one generic is left, its
// index ops renumbered to the consumer's loops.

// CHECK-LABEL: func.func @causal_mask
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores : tensor<2x4x4xf32>)
// CHECK-DAG:       linalg.index 2 : index
// CHECK-DAG:       linalg.index 1 : index
// CHECK:           arith.cmpi
// CHECK:           arith.select
// CHECK-NOT:     linalg.generic
func.func @causal_mask(%scores: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<4xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<4xi64>
  %me = tensor.empty() : tensor<4x4xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%iota, %iota : tensor<4xi64>, tensor<4xi64>) outs(%me : tensor<4x4xi1>) {
  ^bb0(%col: i64, %row: i64, %o: i1):
    %d = arith.subi %col, %row : i64
    %above = arith.cmpi sgt, %d, %zero : i64
    linalg.yield %above : i1
  } -> tensor<4x4xi1>
  %se = tensor.empty() : tensor<2x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %scores : tensor<4x4xi1>, tensor<2x4x4xf32>) outs(%se : tensor<2x4x4xf32>) {
  ^bb0(%m: i1, %s: f32, %o: f32):
    %v = arith.select %m, %ninf, %s : f32
    linalg.yield %v : f32
  } -> tensor<2x4x4xf32>
  return %r : tensor<2x4x4xf32>
}

// -----

// A generator read at a constant (a broadcast `(d0, d1) -> (0)`): its index
// is that constant in the fused body. Kept: a generator that computes with
// floats (`sitofp`, `mulf`) read through a broadcast.

// CHECK-LABEL: func.func @generator_at_a_constant
// CHECK:         linalg.generic {{.*}} ins(%x : tensor<3x5xf32>)
// CHECK:           arith.constant 0 : index
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @float_generator_kept
// CHECK-COUNT-2: linalg.generic
func.func @generator_at_a_constant(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<4xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<4xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %k = arith.constant 7 : i32
    %s = arith.addi %c, %k : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  %xe = tensor.empty() : tensor<3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g, %x : tensor<4xi32>, tensor<3x5xf32>) outs(%xe : tensor<3x5xf32>) {
  ^bb0(%gi: i32, %v: f32, %o: f32):
    %f = arith.sitofp %gi : i32 to f32
    %y = arith.addf %v, %f : f32
    linalg.yield %y : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @float_generator_kept(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<5xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<5xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %h = arith.mulf %f, %f : f32
    linalg.yield %h : f32
  } -> tensor<5xf32>
  %xe = tensor.empty() : tensor<3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%g, %x : tensor<5xf32>, tensor<3x5xf32>) outs(%xe : tensor<3x5xf32>) {
  ^bb0(%gv: f32, %v: f32, %o: f32):
    %y = arith.addf %v, %gv : f32
    linalg.yield %y : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// A fill with one reader moves right before it (where `linalg-tile-for-gpu`
// runs it in the reader's grid): torch-mlir fills a MobileNet block's
// depthwise init at the top of the function.

// CHECK-LABEL: func.func @fill_moves_to_its_reader
// CHECK:         linalg.matmul
// CHECK-NEXT:    %[[FILL:.*]] = linalg.fill
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[FILL]] : tensor<4xf32>)
func.func @fill_moves_to_its_reader(%a: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%v : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<4x4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %o, %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %m, %s : tensor<4x4xf32>, tensor<4xf32>
}

// -----

// A reader of two filled outputs (a max and its index): both fills end up
// before it, and neither moves again (they used to swap places forever).

// CHECK-LABEL: func.func @two_fills_one_reader
// CHECK:         %[[A:.*]] = linalg.fill
// CHECK-NEXT:    %[[B:.*]] = linalg.fill
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>)
func.func @two_fills_one_reader(%v: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %n = arith.negf %zero : f32
  %s:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : tensor<4x4xf32>) outs(%a, %b : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    %r = arith.addf %o, %x : f32
    %q = arith.subf %p, %x : f32
    linalg.yield %r, %q : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %s#0, %s#1 : tensor<4xf32>, tensor<4xf32>
}
