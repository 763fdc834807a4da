// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// Valid MLIR that xDSL cannot represent is a located user-facing error (exit 1),
// not an internal error.

func.func @semi_affine(%i: index, %n: index) -> index {
  // expected-error @+1 {{unsupported by irkit (xDSL): Floor division with non-constant (semi-affine) is not supported yet}}
  %r = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%n]
  return %r : index
}
