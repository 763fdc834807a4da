// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{cpu=true vector-bits=128 block-rows=4 block-keys=8 min-block=4}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'lower-to-c{vector-bits=128 attention-block=4,8 attention-min-block=4}' | filecheck %s --check-prefix=PIPELINE
// RUN: irkit-opt %s --split-input-file -p 'lower-to-c{vector-bits=128 attention-block=4,8 attention-min-block=4 fuse-attention=false}' | filecheck %s --check-prefix=UNFUSED

// linalg-fuse-attention{cpu}: the same derivation as on the GPU
// (linalg-fuse-attention.mlir), as the C target runs it: a plain
// scf.forall (OpenMP) over (batch, row tile), no GPU mapping or thread
// counts; its tiles are unpadded stack arrays of each iteration
// (memref.alloca, cache-line aligned); the row max and sum reduce into one
// vector of partials per row (vector-bits=128: 4 f32 lanes), partial p
// taking keys p, p + 4, ...: the lanes loop is innermost and reads
// consecutive keys; then the partials fold into the row's max (sum).
// Semantics: tests/properties/test_linalg_fuse_attention.py (cpu cases).

// CHECK-LABEL: func.func @causal
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%[[TILE:.*]]) in (2) {
// CHECK:           %[[Q:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x4x4xf32>
// CHECK:           %[[SCORES:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4x8xf32>
// CHECK:           %[[MAX:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4xf32>
// CHECK:           %[[PARTIALS:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4x4xf32>
// CHECK-NOT:       #gpu.address_space
// CHECK:           scf.for %[[KEY:.*]] = %{{.*}} to %[[KEYS:.*]] step %{{.*}} {
// CHECK:             %[[LANES:.*]] = memref.expand_shape %[[SCORES]] {{\[}}[0], [1, 2]] output_shape [4, 2, 4] : memref<4x8xf32> into memref<4x2x4xf32>
// CHECK:             linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[LANES]] : memref<4x2x4xf32>) outs(%[[PARTIALS]] : memref<4x4xf32>)
// CHECK-NEXT:        ^bb0
// CHECK-NEXT:          arith.maximumf
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[PARTIALS]] : memref<4x4xf32>) outs(%[[MAX]] : memref<4xf32>)
// CHECK-NEXT:        ^bb0
// CHECK-NEXT:          arith.maximumf
// CHECK:             iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.*}} : memref<4x2x4xf32>) outs(%[[PARTIALS]] : memref<4x4xf32>)
// CHECK-NEXT:        ^bb0
// CHECK-NEXT:          arith.addf
// CHECK:           arith.divf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:  }{{$}}
// CHECK-NEXT:  func.return
// CHECK-NOT:     linalg.generic

// Through lower-to-c (fuse-attention, on by default): the forall becomes
// loops, the outermost the one OpenMP runs (no allocation in it).
// PIPELINE-LABEL: func.func @causal
// PIPELINE:         scf.forall
// PIPELINE-NOT:     memref.alloc()
// PIPELINE:         scf.for
// UNFUSED-LABEL:  func.func @causal
// UNFUSED-NOT:      memref.alloca() {alignment = 64 : i64} : memref<4x8xf32>

func.func @causal(%q: tensor<2x4x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x2xf32>) -> tensor<2x4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x4xf32>, tensor<2x8x4xf32>) outs(%s0 : tensor<2x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x4x8xf32>
  %xe = tensor.empty() : tensor<2x4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x8xf32>) outs(%xe : tensor<2x4x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %later = arith.cmpi ugt, %j, %i : index
      %ninf2 = arith.constant 0xFF800000 : f32
      %z = arith.select %later, %ninf2, %in : f32
      linalg.yield %z : f32
    } -> tensor<2x4x8xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %me = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<8x8xf32>) outs(%m0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %ee = tensor.empty() : tensor<8x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<8x8xf32>, tensor<8xf32>) outs(%ee : tensor<8x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %le = tensor.empty() : tensor<8xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<8x8xf32>) outs(%l0 : tensor<8xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
  %pe = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<8x8xf32>, tensor<8xf32>) outs(%pe : tensor<8x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<8x8xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %oe = tensor.empty() : tensor<2x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x4x8xf32>, tensor<2x8x2xf32>) outs(%o0 : tensor<2x4x2xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x4x2xf32>
  return %out : tensor<2x4x2xf32>
}

// -----

// Rows that no tile of at least min-block divides (6 query rows in tiles
// of 4) are fused as on the GPU: the last row tile moves back to end at the
// row extent and writes only its own rows, under an scf.if; on the stack
// like the others.

// CHECK-LABEL:    func.func @ragged_rows
// CHECK:            scf.forall (%{{.*}}) in (4) {
// CHECK:              affine.min
// CHECK:              memref.alloca() {alignment = 64 : i64} : memref<4x8xf32>
// CHECK:              scf.if
// CHECK:            }{{$}}
// PIPELINE-LABEL: func.func @ragged_rows
// PIPELINE:         scf.forall
// PIPELINE-NOT:     memref.alloc()
// PIPELINE:         scf.if

func.func @ragged_rows(%q: tensor<2x6x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x2xf32>) -> tensor<2x6x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x6x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x6x4xf32>, tensor<2x8x4xf32>) outs(%s0 : tensor<2x6x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x6x8xf32>
  %xe = tensor.empty() : tensor<2x6x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x6x8xf32>) outs(%xe : tensor<2x6x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %later = arith.cmpi ugt, %j, %i : index
      %ninf2 = arith.constant 0xFF800000 : f32
      %z = arith.select %later, %ninf2, %in : f32
      linalg.yield %z : f32
    } -> tensor<2x6x8xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x6x8xf32> into tensor<12x8xf32>
  %me = tensor.empty() : tensor<12xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<12xf32>) -> tensor<12xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<12x8xf32>) outs(%m0 : tensor<12xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<12xf32>
  %ee = tensor.empty() : tensor<12x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<12x8xf32>, tensor<12xf32>) outs(%ee : tensor<12x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<12x8xf32>
  %le = tensor.empty() : tensor<12xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<12xf32>) -> tensor<12xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<12x8xf32>) outs(%l0 : tensor<12xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<12xf32>
  %pe = tensor.empty() : tensor<12x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<12x8xf32>, tensor<12xf32>) outs(%pe : tensor<12x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<12x8xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 6, 8] : tensor<12x8xf32> into tensor<2x6x8xf32>
  %oe = tensor.empty() : tensor<2x6x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x6x2xf32>) -> tensor<2x6x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x6x8xf32>, tensor<2x8x2xf32>) outs(%o0 : tensor<2x6x2xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x6x2xf32>
  return %out : tensor<2x6x2xf32>
}

// -----

// Two query rows, under min-block (4): the chain stays as it is, and
// lower-to-c runs it unfused.

// CHECK-LABEL:    func.func @two_rows
// CHECK-NOT:        scf.forall
// PIPELINE-LABEL: func.func @two_rows
// PIPELINE-NOT:     scf.forall

func.func @two_rows(%q: tensor<2x2x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x2xf32>) -> tensor<2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x2x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x4xf32>, tensor<2x8x4xf32>) outs(%s0 : tensor<2x2x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %p = arith.mulf %a, %b : f32
      %t = arith.addf %c, %p : f32
      linalg.yield %t : f32
    } -> tensor<2x2x8xf32>
  %xe = tensor.empty() : tensor<2x2x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8xf32>) outs(%xe : tensor<2x2x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      %i = linalg.index 1 : index
      %j = linalg.index 2 : index
      %later = arith.cmpi ugt, %j, %i : index
      %ninf2 = arith.constant 0xFF800000 : f32
      %z = arith.select %later, %ninf2, %in : f32
      linalg.yield %z : f32
    } -> tensor<2x2x8xf32>
  %xr = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x2x8xf32> into tensor<4x8xf32>
  %me = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xr : tensor<4x8xf32>) outs(%m0 : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.maximumf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
  %ee = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xr, %m : tensor<4x8xf32>, tensor<4xf32>) outs(%ee : tensor<4x8xf32>) {
    ^bb0(%in: f32, %mx: f32, %o: f32):
      %d = arith.subf %in, %mx : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<4x8xf32>
  %le = tensor.empty() : tensor<4xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<4xf32>) -> tensor<4xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<4x8xf32>) outs(%l0 : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
  %pe = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %l : tensor<4x8xf32>, tensor<4xf32>) outs(%pe : tensor<4x8xf32>) {
    ^bb0(%in: f32, %sum: f32, %o: f32):
      %y = arith.divf %in, %sum : f32
      linalg.yield %y : f32
    } -> tensor<4x8xf32>
  %pr = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 2, 8] : tensor<4x8xf32> into tensor<2x2x8xf32>
  %oe = tensor.empty() : tensor<2x2x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : tensor<2x2x8xf32>, tensor<2x8x2xf32>) outs(%o0 : tensor<2x2x2xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %pv = arith.mulf %a, %b : f32
      %t = arith.addf %c, %pv : f32
      linalg.yield %t : f32
    } -> tensor<2x2x2xf32>
  return %out : tensor<2x2x2xf32>
}
