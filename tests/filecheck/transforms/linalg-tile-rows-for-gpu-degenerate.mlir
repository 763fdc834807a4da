// RUN: irkit-opt %s -p 'linalg-tile-rows-for-gpu{reduction-block=4}' --check-semantics | filecheck %s

// A log_softmax over an axis of size 1, once `linalg-fold-unit-extent-dims`
// dropped its reduction loop: the max and the sum combine with their outputs
// but have no reduction loop left, so they are elementwise, and there is no
// row group (its 32 threads once each added exp(0) into the sum: -log(32)
// for every element, where 0 is right).

// CHECK-LABEL: func.func @log_softmax_of_one
// CHECK-NOT:     #gpu.thread
func.func @log_softmax_of_one(%x: memref<2xf32>, %out: memref<2xf32> {irkit.output}) {
  %ninf = arith.constant 0xff800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<2xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ninf : f32) outs(%max : memref<2xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<2xf32>) outs(%max : memref<2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %o : f32
    linalg.yield %m : f32
  }
  %sum = memref.alloc() : memref<2xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%sum : memref<2xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %max : memref<2xf32>, memref<2xf32>) outs(%sum : memref<2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %max, %sum : memref<2xf32>, memref<2xf32>, memref<2xf32>) outs(%out : memref<2xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %l = math.log %c : f32
    %r = arith.subf %d, %l : f32
    linalg.yield %r : f32
  }
  memref.dealloc %sum : memref<2xf32>
  memref.dealloc %max : memref<2xf32>
  return
}
