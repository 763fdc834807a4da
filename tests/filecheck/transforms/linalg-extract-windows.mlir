// RUN: irkit-opt %s --split-input-file -p linalg-generalize-named-ops,linalg-extract-windows --check-semantics | filecheck %s

// A strided max pool: the input, read through the window map, becomes a
// tensor.extract at (n, c, oh * 2 + kh, ow * 2 + kw); the window operand
// (shape only) keeps kh and kw's extents, the output the others'.

// CHECK-LABEL: func.func @max_pool
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%win : tensor<3x3xf32>) outs(%init : tensor<2x3x4x4xf32>)
// CHECK:           %[[N:.*]] = linalg.index 0 : index
// CHECK:           %[[KW:.*]] = linalg.index 5 : index
// CHECK:           arith.muli
// CHECK:           %[[ROW:.*]] = arith.addi
// CHECK:           %[[COL:.*]] = arith.addi %{{.*}}, %[[KW]] : index
// CHECK:           %[[X:.*]] = tensor.extract %x[%[[N]], %{{.*}}, %[[ROW]], %[[COL]]] : tensor<2x3x9x9xf32>
// CHECK:           arith.maximumf %{{.*}}, %[[X]] : f32
func.func @max_pool(%x: tensor<2x3x9x9xf32>, %init: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32> {
  %win = tensor.empty() : tensor<3x3xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<2x3x9x9xf32>, tensor<3x3xf32>) outs(%init : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  return %y : tensor<2x3x4x4xf32>
}

// -----

// A depthwise convolution: the filter stays an operand (c, kh, kw); only
// the input's window read moves into the body.

// CHECK-LABEL: func.func @depthwise
// CHECK:         linalg.generic {{.*}} ins(%w : tensor<3x3x3xf32>) outs(%init : tensor<1x3x4x4xf32>)
// CHECK:           tensor.extract %x[
// CHECK:           arith.mulf
func.func @depthwise(%x: tensor<1x3x6x6xf32>, %w: tensor<3x3x3xf32>, %init: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x3x6x6xf32>, tensor<3x3x3xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// Left alone: plain maps; a window whose loop nothing else reads bare (its
// extent would be lost); a map with floordiv; an op on buffers.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.extract
// CHECK:         ins(%a : tensor<4xf32>)
// CHECK:         ins(%b : tensor<6x4xf32>)
// CHECK:         ins(%a : tensor<4xf32>)
// CHECK:         ins(%m : memref<6xf32>)
func.func @left_alone(%a: tensor<4xf32>, %b: tensor<6x4xf32>, %o: tensor<4xf32>, %p: tensor<3xf32>, %q: tensor<2xf32>, %m: memref<6xf32>, %n: memref<3xf32>) -> (tensor<4xf32>, tensor<3xf32>, tensor<2xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<6x4xf32>) outs(%p : tensor<3xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%q : tensor<2xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<2xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m : memref<6xf32>) outs(%n : memref<3xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return %r, %s, %t : tensor<4xf32>, tensor<3xf32>, tensor<2xf32>
}

// -----

// Not windows: a broadcast's constant result and a slice's offset read
// one loop each; the tiling takes them as they are.

// CHECK-LABEL: func.func @not_windows
// CHECK-NOT:     tensor.extract
// CHECK:         ins(%a : tensor<1x4xf32>)
// CHECK:         ins(%b : tensor<8x4xf32>)
func.func @not_windows(%a: tensor<1x4xf32>, %b: tensor<8x4xf32>, %o: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x4xf32>) outs(%o : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<3x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + 5, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8x4xf32>) outs(%o : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<3x4xf32>
  return %r, %s : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// A max pool over its input padded by -inf (torch-mlir's padding=1): the
// window reads the pad's source where the position lies in it (0 where
// not) and selects -inf
// outside it; the pad, read by nothing else, is gone (on the GPU it was a
// fill and a copy kernel).

// CHECK-LABEL: func.func @padded_max_pool
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.generic
// CHECK:           %[[ROW:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:           %[[INSIDE:.*]] = arith.cmpi ult, %[[ROW]], %{{.*}} : index
// CHECK:           arith.select %[[INSIDE]], %[[ROW]], %{{.*}} : index
// CHECK:           %[[COLUMN:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:           %[[READ:.*]] = tensor.extract %source[
// CHECK:           %[[X:.*]] = arith.select %{{.*}}, %[[READ]], %ninf : f32
// CHECK:           arith.maximumf %{{.*}}, %[[X]]
func.func @padded_max_pool(%source: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %x = tensor.pad %source low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %empty = tensor.empty() : tensor<1x2x3x3xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%empty : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %window : tensor<1x2x7x7xf32>, tensor<3x3xf32>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
