// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p affine-fold-min-max

// `mod 0` has no value (MLIR leaves it undefined): there is nothing to fold to.

func.func @mod_zero(%n: index) -> index {
  // expected-error @+1 {{'affine.min' op affine-fold-min-max needs a positive constant divisor in 'd0 mod 0'}}
  %r = affine.min affine_map<(d0) -> (d0 mod 0, 4)>(%n)
  return %r : index
}

// -----

func.func @floordiv_negative(%n: index) -> index {
  // expected-error @+1 {{'affine.apply' op affine-fold-min-max needs a positive constant divisor in 'd0 floordiv -2'}}
  %r = affine.apply affine_map<(d0) -> (d0 floordiv -2)>(%n)
  return %r : index
}
