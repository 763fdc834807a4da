// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// Every tensor op irkit fixes, and the others torch-mlir emits, in MLIR's
// custom syntax (reassociations print as `[[0, 1], [2]]`).

// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT:    %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT:    %e = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK-NEXT:    %f = tensor.collapse_shape %e [[0, 1, 2]] {tag} : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT:    %s = tensor.collapse_shape %u [] : tensor<1x1xf32> into tensor<f32>
// CHECK-NEXT:    %x = tensor.expand_shape %s [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK-NEXT:    func.return %x : tensor<1x1xf32>
func.func @reshapes(%t: tensor<2x3x4xf32>, %u: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %f = tensor.collapse_shape %e [[0, 1, 2]] {tag} : tensor<2x3x4xf32> into tensor<24xf32>
  %s = tensor.collapse_shape %u [] : tensor<1x1xf32> into tensor<f32>
  %x = tensor.expand_shape %s [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  return %x : tensor<1x1xf32>
}

// CHECK-LABEL: func.func @dynamic_expand
// CHECK-NEXT:    %e = tensor.expand_shape %d [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>
// CHECK-NEXT:    func.return %e : tensor<?x4xf32>
func.func @dynamic_expand(%d: tensor<?xf32>, %n: index) -> tensor<?x4xf32> {
  %e = tensor.expand_shape %d [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @slices
// CHECK-NEXT:    %a = tensor.extract_slice %t[0, 1] [3, 2] [1, 2] : tensor<3x7xf32> to tensor<3x2xf32>
// CHECK-NEXT:    %b = tensor.extract_slice %t[1, 0] [1, 7] [1, 1] : tensor<3x7xf32> to tensor<7xf32>
// CHECK-NEXT:    %c = tensor.extract_slice %t[%i, 0] [1, 7] [1, 1] : tensor<3x7xf32> to tensor<1x7xf32>
// CHECK-NEXT:    %d = tensor.insert_slice %s into %t[0, 1] [3, 2] [1, 2] : tensor<3x2xf32> into tensor<3x7xf32>
// CHECK-NEXT:    func.return %d : tensor<3x7xf32>
func.func @slices(%t: tensor<3x7xf32>, %s: tensor<3x2xf32>, %i: index) -> tensor<3x7xf32> {
  %a = tensor.extract_slice %t[0, 1] [3, 2] [1, 2] : tensor<3x7xf32> to tensor<3x2xf32>
  %b = tensor.extract_slice %t[1, 0] [1, 7] [1, 1] : tensor<3x7xf32> to tensor<7xf32>
  %c = tensor.extract_slice %t[%i, 0] [1, 7] [1, 1] : tensor<3x7xf32> to tensor<1x7xf32>
  %d = tensor.insert_slice %s into %t[0, 1] [3, 2] [1, 2] : tensor<3x2xf32> into tensor<3x7xf32>
  return %d : tensor<3x7xf32>
}

// CHECK-LABEL: func.func @pad
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %p = tensor.pad %t low[0, 0, 1, 1] high[0, 0, 1, 1] {
// CHECK-NEXT:    ^bb0(%i: index, %j: index, %k: index, %l: index):
// CHECK-NEXT:      tensor.yield %cst : f32
// CHECK-NEXT:    } : tensor<2x3x8x8xf32> to tensor<2x3x10x10xf32>
// CHECK-NEXT:    func.return %p : tensor<2x3x10x10xf32>
func.func @pad(%t: tensor<2x3x8x8xf32>) -> tensor<2x3x10x10xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %p = tensor.pad %t low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<2x3x8x8xf32> to tensor<2x3x10x10xf32>
  return %p : tensor<2x3x10x10xf32>
}

// CHECK-LABEL: func.func @elements
// CHECK-NEXT:    %v = tensor.from_elements %a, %b : tensor<2xf32>
// CHECK-NEXT:    %x = tensor.extract %t[%i, %j] : tensor<2x3xf32>
// CHECK-NEXT:    %y = tensor.insert %x into %t[%j, %i] : tensor<2x3xf32>
// CHECK-NEXT:    %c = tensor.concat dim(1) %t, %u : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %d = tensor.cast %c : tensor<2x4xf32> to tensor<?x4xf32>
// CHECK-NEXT:    %n = tensor.dim %d, %i : tensor<?x4xf32>
// CHECK-NEXT:    %e = tensor.empty(%n) : tensor<?x4xf32>
// CHECK-NEXT:    %s = tensor.splat %a : tensor<2x3xf32>
// CHECK-NEXT:    func.return %e : tensor<?x4xf32>
func.func @elements(%a: f32, %b: f32, %t: tensor<2x3xf32>, %u: tensor<2x1xf32>, %i: index, %j: index) -> tensor<?x4xf32> {
  %v = tensor.from_elements %a, %b : tensor<2xf32>
  %x = tensor.extract %t[%i, %j] : tensor<2x3xf32>
  %y = tensor.insert %x into %t[%j, %i] : tensor<2x3xf32>
  %c = tensor.concat dim(1) %t, %u : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %d = tensor.cast %c : tensor<2x4xf32> to tensor<?x4xf32>
  %n = tensor.dim %d, %i : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %s = tensor.splat %a : tensor<2x3xf32>
  return %e : tensor<?x4xf32>
}

// MLIR's syntax before `output_shape`: static result shapes only.
// CHECK-LABEL: func.func @expand_without_output_shape
// CHECK-NEXT:    %e = tensor.expand_shape %x [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
func.func @expand_without_output_shape(%x: tensor<4xf32>) -> tensor<4x1xf32> {
  %e = tensor.expand_shape %x [[0, 1]] : tensor<4xf32> into tensor<4x1xf32>
  return %e : tensor<4x1xf32>
}

// CHECK-LABEL: func.func @parallel_insert_slice
// CHECK: scf.forall (%{{.*}}) in (2) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<8xf32>) {
// CHECK: tensor.parallel_insert_slice %{{.*}} into %[[O]][%{{.*}}] [4] [1] : tensor<4xf32> into tensor<8xf32>
func.func @parallel_insert_slice(%t: tensor<8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (2) shared_outs(%o = %init) -> (tensor<8xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %s = tensor.extract_slice %t[%off] [4] [1] : tensor<8xf32> to tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%off] [4] [1] : tensor<4xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
