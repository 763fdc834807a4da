// RUN: irkit-opt %s --split-input-file -p bufferize | filecheck %s

// Copies are matched as `memref.copy{{[^%]*}}%src, %dst` so the test reads the
// same whether `memref.copy` prints in generic or custom form.

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>

// An elementwise op on a fresh init writes straight into the output buffer.
func.func @into_output(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @into_output
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32> {irkit.output})
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[A]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         func.return{{$}}

// -----

#id = affine_map<(d0) -> (d0)>
// A chain of elementwise ops, each writing over its init, stays in the output.
func.func @chain_in_place(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%1 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: func.func @chain_in_place
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: memref<4xf32> {irkit.output}
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} outs(%[[OUT]] : memref<4xf32>)
// CHECK:         linalg.generic {{.*}} outs(%[[OUT]] : memref<4xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[OUT]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         func.return

// -----

#id = affine_map<(d0) -> (d0)>
// The init is read again later: the op gets its own buffer, with a copy of
// the init only where the body reads it.
func.func @init_used_later(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @init_used_later
// CHECK-SAME:    %[[OUT0:[a-z0-9_]+]]: memref<4xf32> {irkit.output}, %[[OUT1:[a-z0-9_]+]]: memref<4xf32> {irkit.output}, %[[OUT2:[a-z0-9_]+]]: memref<4xf32> {irkit.output}
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} outs(%[[OUT0]] : memref<4xf32>)
// CHECK-NEXT:    ^bb0
// CHECK:         memref.copy{{[^%]*}}%[[OUT0]], %[[OUT1]]
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[OUT1]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         linalg.generic {{.*}} outs(%[[OUT2]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         func.return

// -----

#id = affine_map<(d0) -> (d0)>
// The init %0 flows into output 0 (through %1's outs) but is read after %1
// (by %2): it is built in a buffer of its own and copied into output 0 once,
// for %1 to update there. Built in output 0 instead (the destination taken
// without looking at later reads), it would have to leave for a temporary
// when %1 is refused in place, and come back at the end: two copies.
func.func @init_read_after_its_result(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @init_read_after_its_result
// CHECK-SAME:    %[[OUT0:[a-z0-9_]+]]: memref<4xf32> {irkit.output}, %[[OUT1:[a-z0-9_]+]]: memref<4xf32> {irkit.output}
// CHECK:         %[[TMP:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[TMP]] : memref<4xf32>)
// CHECK:         memref.copy{{[^%]*}}%[[TMP]], %[[OUT0]]
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[OUT0]] : memref<4xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[TMP]] : memref<4xf32>) outs(%[[OUT1]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         memref.dealloc %[[TMP]]
// CHECK-NEXT:    func.return

// -----

#id = affine_map<(d0) -> (d0)>
// Inputs are never written: an argument used as init is copied into the output first.
func.func @argument_init(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%a : tensor<4xf32>) {
  ^bb0(%o: f32):
    %y = arith.negf %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @argument_init
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32> {irkit.output})
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[A]], %[[OUT]]
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[OUT]] : memref<4xf32>)

// -----

// Returning an argument twice copies it into both outputs.
func.func @return_argument_twice(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  return %a, %a : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @return_argument_twice
// CHECK-SAME:    (%[[A:.*]]: memref<2x3xf32>, %[[OUT0:.*]]: memref<2x3xf32> {irkit.output}, %[[OUT1:.*]]: memref<2x3xf32> {irkit.output})
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[A]], %[[OUT0]]
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[A]], %[[OUT1]]
// CHECK-NEXT:    func.return

// -----

#id = affine_map<(d0) -> (d0)>
// A value returned twice is built in the first output and copied to the second.
func.func @return_twice(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %0, %0 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @return_twice
// CHECK-SAME:    %[[OUT0:[a-z0-9_]+]]: memref<4xf32> {irkit.output}, %[[OUT1:[a-z0-9_]+]]: memref<4xf32> {irkit.output}
// CHECK:         linalg.generic {{.*}} outs(%[[OUT0]] : memref<4xf32>)
// CHECK:         memref.copy{{[^%]*}}%[[OUT0]], %[[OUT1]]
// CHECK-NEXT:    func.return

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Dense constants become private constant globals, one per distinct value.
func.func @constants(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %c : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %0, %d : tensor<2x2xf32>, tensor<2x2xf32>
}

// CHECK:       memref.global "private" constant @__constant_0 : memref<2x2xf32> = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]>
// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @constants
// CHECK-SAME:    (%[[A:.*]]: memref<2x2xf32>, %[[OUT0:.*]]: memref<2x2xf32> {irkit.output}, %[[OUT1:.*]]: memref<2x2xf32> {irkit.output})
// CHECK:         %[[C:.*]] = memref.get_global @__constant_0 : memref<2x2xf32>
// CHECK:         %[[D:.*]] = memref.get_global @__constant_0 : memref<2x2xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[C]] : memref<2x2xf32>, memref<2x2xf32>) outs(%[[OUT0]] : memref<2x2xf32>)
// CHECK:         memref.copy{{[^%]*}}%[[D]], %[[OUT1]]

// -----

// A constant used as init is never written: the op gets its own buffer.
#id = affine_map<(d0) -> (d0)>
func.func @constant_init(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @constant_init
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: memref<4xf32> {irkit.output}
// CHECK:         %[[C:.*]] = memref.get_global @__constant_0 : memref<4xf32>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[C]], %[[OUT]]
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[OUT]] : memref<4xf32>)

// -----

func.func @resource() -> tensor<2xf32> {
  %c = arith.constant dense_resource<blob> : tensor<2xf32>
  return %c : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// CHECK:       memref.global "private" constant @__constant_0 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-LABEL: func.func @resource
// CHECK-SAME:    (%[[OUT:.*]]: memref<2xf32> {irkit.output})
// CHECK-NEXT:    %[[C:.*]] = memref.get_global @__constant_0 : memref<2xf32>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[C]], %[[OUT]]

// -----

// Slices are strided views with their exact layout, rank reduction included.
func.func @slices(%a: tensor<3x7xf32>) -> (tensor<3x2xf32>, tensor<7xf32>) {
  %0 = tensor.extract_slice %a[0, 1] [3, 2] [1, 2] : tensor<3x7xf32> to tensor<3x2xf32>
  %1 = tensor.extract_slice %a[1, 0] [2, 7] [1, 1] : tensor<3x7xf32> to tensor<2x7xf32>
  %2 = tensor.extract_slice %1[1, 0] [1, 7] [1, 1] : tensor<2x7xf32> to tensor<7xf32>
  return %0, %2 : tensor<3x2xf32>, tensor<7xf32>
}

// CHECK-LABEL: func.func @slices
// CHECK-SAME:    (%[[A:.*]]: memref<3x7xf32>, %[[OUT0:.*]]: memref<3x2xf32> {irkit.output}, %[[OUT1:.*]]: memref<7xf32> {irkit.output})
// CHECK-NEXT:    %[[S0:.*]] = memref.subview %[[A]][0, 1] [3, 2] [1, 2] : memref<3x7xf32> to memref<3x2xf32, strided<[7, 2], offset: 1>>
// CHECK-NEXT:    %[[S1:.*]] = memref.subview %[[A]][1, 0] [2, 7] [1, 1] : memref<3x7xf32> to memref<2x7xf32, strided<[7, 1], offset: 7>>
// CHECK-NEXT:    %[[S2:.*]] = memref.subview %[[S1]][1, 0] [1, 7] [1, 1] : memref<2x7xf32, strided<[7, 1], offset: 7>> to memref<7xf32, strided<[1], offset: 14>>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[S0]], %[[OUT0]]
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[S2]], %[[OUT1]]

// -----

// A chain of insert_slices fills the output buffer in place.
func.func @insert_chain(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2x2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %0 = tensor.insert_slice %a into %e[0, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
  %1 = tensor.insert_slice %b into %0[1, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @insert_chain
// CHECK-SAME:    (%[[A:.*]]: memref<2xf32>, %[[B:.*]]: memref<2xf32>, %[[OUT:.*]]: memref<2x2xf32> {irkit.output})
// CHECK-NEXT:    %[[V0:.*]] = memref.subview %[[OUT]][0, 0] [1, 2] [1, 1] : memref<2x2xf32> to memref<2xf32, strided<[1]>>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[A]], %[[V0]]
// CHECK-NEXT:    %[[V1:.*]] = memref.subview %[[OUT]][1, 0] [1, 2] [1, 1] : memref<2x2xf32> to memref<2xf32, strided<[1], offset: 2>>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[B]], %[[V1]]
// CHECK-NEXT:    func.return

// -----

// Inserting into a tensor still read afterwards copies it first.
func.func @insert_copy(%a: tensor<2xf32>, %d: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = tensor.insert_slice %a into %d[0, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
  return %0, %d : tensor<2x2xf32>, tensor<2x2xf32>
}

// CHECK-LABEL: func.func @insert_copy
// CHECK-SAME:    (%[[A:.*]]: memref<2xf32>, %[[D:.*]]: memref<2x2xf32>, %[[OUT0:.*]]: memref<2x2xf32> {irkit.output}, %[[OUT1:.*]]: memref<2x2xf32> {irkit.output})
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[D]], %[[OUT0]]
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[OUT0]][0, 0] [1, 2] [1, 1]
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[A]], %[[V]]
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[D]], %[[OUT1]]

// -----

func.func @pad(%a: tensor<2x2xf32>) -> tensor<2x4xf32> {
  %p = tensor.pad %a low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %z = arith.constant 0.5 : f32
    tensor.yield %z : f32
  } : tensor<2x2xf32> to tensor<2x4xf32>
  return %p : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @pad
// CHECK-SAME:    (%[[A:.*]]: memref<2x2xf32>, %[[OUT:.*]]: memref<2x4xf32> {irkit.output})
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    linalg.fill ins(%[[Z]] : f32) outs(%[[OUT]] : memref<2x4xf32>)
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[OUT]][0, 1] [2, 2] [1, 1] : memref<2x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 1>>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[A]], %[[I]]
// CHECK-NEXT:    func.return

// -----

func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %0 = tensor.concat dim(1) %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @concat
// CHECK-SAME:    (%[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<2x1xf32>, %[[OUT:.*]]: memref<2x4xf32> {irkit.output})
// CHECK-NEXT:    %[[V0:.*]] = memref.subview %[[OUT]][0, 0] [2, 3] [1, 1]
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[A]], %[[V0]]
// CHECK-NEXT:    %[[V1:.*]] = memref.subview %[[OUT]][0, 3] [2, 1] [1, 1] : memref<2x4xf32> to memref<2x1xf32, strided<[4, 1], offset: 3>>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[B]], %[[V1]]
// CHECK-NEXT:    func.return

// -----

// Reshapes are views; a strided source is made contiguous first.
func.func @reshapes(%a: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<4x3x2xf32>, tensor<8xf32>) {
  %0 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %1 = tensor.collapse_shape %a [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  %2 = tensor.expand_shape %1 [[0, 1, 2]] output_shape [4, 3, 2] : tensor<24xf32> into tensor<4x3x2xf32>
  %3 = tensor.extract_slice %a[0, 0, 0] [2, 1, 4] [1, 1, 1] : tensor<2x3x4xf32> to tensor<2x4xf32>
  %4 = tensor.collapse_shape %3 [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  return %0, %2, %4 : tensor<6x4xf32>, tensor<4x3x2xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @reshapes
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: memref<2x3x4xf32>
// CHECK-NEXT:    %[[C0:.*]] = memref.collapse_shape %[[A]] {{.*}} : memref<2x3x4xf32> into memref<6x4xf32>
// CHECK-NEXT:    %[[C1:.*]] = memref.collapse_shape %[[A]] {{.*}} : memref<2x3x4xf32> into memref<24xf32>
// CHECK-NEXT:    %[[E:.*]] = memref.expand_shape %[[C1]] {{.*}} output_shape [4, 3, 2] : memref<24xf32> into memref<4x3x2xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.subview %[[A]][0, 0, 0] [2, 1, 4] [1, 1, 1] : memref<2x3x4xf32> to memref<2x4xf32, strided<[12, 1]>>
// The contiguous copy of the slice is built in the third output, reshaped
// (a view of it, not an allocation copied into it at the end).
// CHECK-NEXT:    %[[TMP:.*]] = memref.expand_shape %[[OUT2:.*]] {{\[}}[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[S]], %[[TMP]]
// CHECK-NEXT:    memref.collapse_shape %[[TMP]] {{.*}} : memref<2x4xf32> into memref<8xf32>
// CHECK-COUNT-2: memref.copy
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
// tensor.extract becomes memref.load, also inside a linalg body.
func.func @extract(%t: tensor<4x2xf32>, %idx: tensor<3xi64>) -> tensor<3x2xf32> {
  %c1 = arith.constant 1 : index
  %x = tensor.extract %t[%c1, %c1] : tensor<4x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %0 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<3xi64>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%i: i64, %o: f32):
    %row = arith.index_cast %i : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %t[%row, %col] : tensor<4x2xf32>
    %w = arith.addf %v, %x : f32
    linalg.yield %w : f32
  } -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @extract
// CHECK-SAME:    (%[[T:.*]]: memref<4x2xf32>, %[[IDX:.*]]: memref<3xi64>, %[[OUT:.*]]: memref<3x2xf32> {irkit.output})
// CHECK:         %[[X:.*]] = memref.load %[[T]][%{{.*}}, %{{.*}}] : memref<4x2xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[IDX]] : memref<3xi64>) outs(%[[OUT]] : memref<3x2xf32>)
// CHECK:           %[[V:.*]] = memref.load %[[T]][%{{.*}}, %{{.*}}] : memref<4x2xf32>
// CHECK-NEXT:      arith.addf %[[V]], %[[X]] : f32

// -----

#id = affine_map<(d0) -> (d0)>
func.func private @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @caller(%a: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = tensor.extract_slice %a[0] [4] [2] : tensor<8xf32> to tensor<4xf32>
  %0 = func.call @callee(%s) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @callee(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tensor.cast %1 : tensor<4xf32> to tensor<4xf32>
  return %2, %0 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32> {irkit.output})
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    (%[[A:.*]]: memref<8xf32>, %[[OUT0:.*]]: memref<4xf32> {irkit.output}, %[[OUT1:.*]]: memref<4xf32> {irkit.output})
// CHECK-NEXT:    %[[S:.*]] = memref.subview %[[A]][0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
// CHECK-NEXT:    %[[ARG:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.copy{{[^%]*}}%[[S]], %[[ARG]]
// CHECK-NEXT:    func.call @callee(%[[ARG]], %[[OUT1]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    memref.dealloc %[[ARG]]
// CHECK-NEXT:    func.call @callee(%[[OUT1]], %[[OUT0]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    func.return

// -----

#id = affine_map<(d0) -> (d0)>
// A temporary is freed after its last use, through views included.
func.func @dealloc_after_views(%a: tensor<8xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  %2 = tensor.extract_slice %1[3, 0] [1, 2] [1, 1] : tensor<4x2xf32> to tensor<2xf32>
  %f = tensor.empty() : tensor<2xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%2 : tensor<2xf32>) outs(%f : tensor<2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

// CHECK-LABEL: func.func @dealloc_after_views
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: memref<2xf32> {irkit.output}
// CHECK-NEXT:    %[[TMP:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         %[[E:.*]] = memref.expand_shape %[[TMP]]
// CHECK-NEXT:    %[[S:.*]] = memref.subview %[[E]][3, 0] [1, 2] [1, 1] : memref<4x2xf32> to memref<2xf32, strided<[1], offset: 6>>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[S]] : memref<2xf32, strided<[1], offset: 6>>) outs(%[[OUT]] : memref<2xf32>)
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[TMP]] : memref<8xf32>
// CHECK-NEXT:    func.return

// -----

// Named structured ops are bufferized through their ins/outs.
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x2xf32>, %[[OUT:.*]]: memref<4x2xf32> {irkit.output})
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : memref<4x2xf32>)
// CHECK-NEXT:    linalg.matmul ins(%[[A]], %[[B]] : memref<4x8xf32>, memref<8x2xf32>) outs(%[[OUT]] : memref<4x2xf32>)
// CHECK-NEXT:    func.return

// -----

// An expand_shape of a strided view (a slice) is a strided view itself:
// each source stride goes to the innermost dimension of its group, the
// outer ones step over the inner (no copy, MLIR's computeExpandedLayoutMap).

// CHECK-LABEL: func.func @expand_of_a_slice
// CHECK:         %[[S:.*]] = memref.subview %x[0, 1] [4, 4] [1, 1] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 1>>
// CHECK-NEXT:    memref.expand_shape %[[S]] {{\[\[}}0], [1, 2]] output_shape [4, 2, 2] : memref<4x4xf32, strided<[6, 1], offset: 1>> into memref<4x2x2xf32, strided<[6, 2, 1], offset: 1>>
func.func @expand_of_a_slice(%x: tensor<4x6xf32>) -> tensor<4x2x2xf32> {
  %s = tensor.extract_slice %x[0, 1] [4, 4] [1, 1] : tensor<4x6xf32> to tensor<4x4xf32>
  %e = tensor.expand_shape %s [[0], [1, 2]] output_shape [4, 2, 2] : tensor<4x4xf32> into tensor<4x2x2xf32>
  return %e : tensor<4x2x2xf32>
}

// -----

// A result that is a reshape of a value computed into a new buffer (what
// `linalg-collapse-dims` leaves: a convolution's epilogue over N x F x P,
// expanded to N x F x OH x OW) is computed in the output, through the
// inverse reshape of it: no buffer, no copy at the end.

// CHECK-LABEL: func.func @reshaped_result
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: memref<2x3x4xf32> {irkit.output}
// CHECK-NEXT:    %[[VIEW:.*]] = memref.collapse_shape %[[OUT]] {{\[}}[0], [1, 2]] : memref<2x3x4xf32> into memref<2x12xf32>
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[VIEW]] : memref<2x12xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return
func.func @reshaped_result(%x: tensor<2x12xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x12xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x12xf32>) outs(%e : tensor<2x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<2x12xf32>
  %r = tensor.expand_shape %y [[0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
