// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// The verifiers of scf.parallel, scf.reduce, scf.forall and the syntax
// checks of their parsers.

func.func @parallel_bound_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{expected 2 operands}}
  scf.parallel (%i, %j) = (%c0) to (%n, %n) step (%c1, %c1) {
  }
  return
}

// -----

func.func @parallel_zero_step(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{constant step operand must be positive}}
  scf.parallel (%i) = (%c0) to (%n) step (%c0) {
  }
  return
}

// -----

func.func @parallel_fewer_results_than_reductions(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{expects number of results: 0 to be the same as number of reductions: 1}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %one = arith.constant 1.0 : f32
    scf.reduce(%one : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      scf.reduce.return %lhs : f32
    }
  }
  return
}

// -----

func.func @parallel_reduction_type(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{expects type of 0-th reduction operand: f64 and 0-th initial value: f32 to be the same as the 0-th result type: f32}}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    %one = arith.constant 1.0 : f64
    scf.reduce(%one : f64) {
    ^bb0(%lhs: f64, %rhs: f64):
      scf.reduce.return %lhs : f64
    }
  }
  return
}

// -----

func.func @parallel_init_without_result_type(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{expected 1 result types for 1 initial values, got 0}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) {
  }
  return
}

// -----

func.func @reduce_block_arguments(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    // expected-error @+1 {{expected two block arguments with type f32 in the 0-th reduction region}}
    scf.reduce(%z : f32) {
    ^bb0(%lhs: f32):
      scf.reduce.return %lhs : f32
    }
  }
  return
}

// -----

func.func @reduce_return_type(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    // expected-error @+1 {{'scf.reduce.return' in the 0-th reduction must have type f32 (the type of the reduction inputs)}}
    scf.reduce(%z : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %d = arith.extf %lhs : f32 to f64
      scf.reduce.return %d : f64
    }
  }
  return
}

// -----

func.func @forall_bound_count(%n: index) {
  // expected-error @+1 {{expected 2 bounds for 2 induction variables}}
  scf.forall (%i, %j) in (4) {
  }
  return
}

// -----

func.func @forall_zero_step(%n: index) {
  // expected-error @+1 {{constant step must be positive}}
  scf.forall (%i) = (0) to (%n) step (0) {
  }
  return
}

// -----

func.func @forall_mapping_rank(%n: index) {
  // expected-error @+1 {{mapping attribute size must match op rank}}
  scf.forall (%i, %j) in (4, %n) {
  } {mapping = [1 : i64]}
  return
}

// -----

func.func @forall_generic_bound_values(%n: index) {
  // expected-error @+1 {{expected 1 dynamic upper bound values}}
  "scf.forall"() <{staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: -9223372036854775808>, staticStep = array<i64: 1>, operandSegmentSizes = array<i32: 0, 0, 0, 0>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {
    }
  }) : () -> ()
  return
}

// -----

func.func @forall_shared_outs_types(%t: tensor<4xf32>) {
  // expected-error @+1 {{mismatch between out operands and types}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>, tensor<4xf32>) {
  }
  return
}

// -----

func.func @if_results_without_else(%c: i1, %x: f32) {
  // expected-error @+1 {{must have an else block if defining values}}
  %r = scf.if %c -> f32 {
    scf.yield %x : f32
  }
  return
}
