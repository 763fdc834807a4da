#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @embedding(%arg0: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
    %c10 = arith.constant 10 : index
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant dense<[[-1.12583983, -1.1523602, -0.250578582, -0.433878809], [0.848710358, 0.69200915, -0.31601277, -2.11521935], [0.322274923, -1.26333475, 0.349983186, 0.30813393], [0.119841509, 1.2376579, 1.11677718, -0.247278154], [-1.35265374, -1.6959312, 0.566650629, 0.79350835], [0.598839462, -1.55509508, -0.34136039, 1.85300612], [-0.215863258, -0.742548167, 0.562721372, 0.259627402], [-1.739610e-01, -0.678746223, 0.938260734, 0.488869816], [1.20322371, 0.0845346972, -1.2001394, -0.00478573795], [-0.518074811, -0.306704193, -1.58099389, 1.70664334]]> : tensor<10x4xf32>
    %0 = tensor.empty() : tensor<2x3x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x3xi64>) outs(%0 : tensor<2x3x4xf32>) {
    ^bb0(%in: i64, %out: f32):
      %2 = arith.index_cast %in : i64 to index
      %3 = linalg.index 2 : index
      %4 = arith.cmpi slt, %2, %c10 : index
      cf.assert %4, "index must be smaller than dim size"
      %5 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %5, "index must be larger or equal to 0"
      %extracted = tensor.extract %cst[%2, %3] : tensor<10x4xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x3x4xf32>
    return %1 : tensor<2x3x4xf32>
  }
}

