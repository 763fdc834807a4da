"""Reference semantics of `scf` and `affine` against plain Python.

Programs are built as text and run with `irkit.interpret`; the references are
Python loops and Python's own integer division (floor) and modulo.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irkit
from irkit.interpreter import InterpretationError

EXAMPLES = settings()


def run(text: str, *inputs: Any) -> tuple[np.ndarray, ...]:
    return irkit.interpret(text, "main", *inputs)


def scalar(text: str, *inputs: Any) -> Any:
    (result,) = run(text, *inputs)
    return result.item()


# --------------------------------------------------------------------------
# scf.for
# --------------------------------------------------------------------------

SUM_OF_IVS = """
func.func @main(%lb: index, %ub: index, %step: index) -> index {
  %zero = arith.constant 0 : index
  %sum = scf.for %i = %lb to %ub step %step iter_args(%acc = %zero) -> (index) {
    %next = arith.addi %acc, %i : index
    scf.yield %next : index
  }
  return %sum : index
}
"""


@EXAMPLES
@given(lb=st.integers(-20, 20), ub=st.integers(-20, 20), step=st.integers(1, 7))
def test_for_sums_its_induction_values(lb: int, ub: int, step: int) -> None:
    # Includes empty (lb == ub) and negative (lb > ub) trip counts.
    assert scalar(SUM_OF_IVS, lb, ub, step) == sum(range(lb, ub, step))


def test_for_with_non_positive_step_is_an_error() -> None:
    with pytest.raises(InterpretationError, match="step must be positive"):
        run(SUM_OF_IVS, 0, 4, 0)


def test_for_with_integer_induction_variable() -> None:
    program = """
    func.func @main(%n: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %prod = arith.constant 1 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %prod) -> (i32) : i32 {
        %k = arith.addi %i, %c1 : i32
        %next = arith.muli %acc, %k : i32
        scf.yield %next : i32
      }
      return %r : i32
    }
    """
    (result,) = run(program, np.int32(10))
    assert result.dtype == np.int32
    assert result.item() == math.factorial(10)


def test_nested_for_over_a_tensor() -> None:
    program = """
    func.func @main(%t: tensor<3x4xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%outer = %zero) -> (f32) {
        %row = scf.for %j = %c0 to %c4 step %c1 iter_args(%inner = %outer) -> (f32) {
          %x = tensor.extract %t[%i, %j] : tensor<3x4xf32>
          %s = arith.addf %inner, %x : f32
          scf.yield %s : f32
        }
        scf.yield %row : f32
      }
      return %r : f32
    }
    """
    data = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    (result,) = run(program, data)
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, data.sum(), rtol=1e-6)


# --------------------------------------------------------------------------
# scf.parallel and scf.forall
# --------------------------------------------------------------------------


def test_parallel_reduction() -> None:
    program = """
    func.func @main(%t: tensor<5x3xi64>) -> (i64, i64) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %zero = arith.constant 0 : i64
      %lowest = arith.constant -9223372036854775808 : i64
      %sum, %max = scf.parallel (%i, %j) = (%c0, %c0) to (%c5, %c3) step (%c1, %c1)
          init (%zero, %lowest) -> (i64, i64) {
        %x = tensor.extract %t[%i, %j] : tensor<5x3xi64>
        scf.reduce(%x, %x : i64, i64) {
        ^bb0(%lhs: i64, %rhs: i64):
          %s = arith.addi %lhs, %rhs : i64
          scf.reduce.return %s : i64
        }, {
        ^bb0(%lhs: i64, %rhs: i64):
          %m = arith.maxsi %lhs, %rhs : i64
          scf.reduce.return %m : i64
        }
      }
      return %sum, %max : i64, i64
    }
    """
    data = np.array([[3, -1, 4], [1, -5, 9], [2, 6, -5], [3, 5, 8], [-9, 7, 9]])
    total, largest = run(program, data)
    assert total.item() == data.sum()
    assert largest.item() == data.max()


def test_parallel_runs_iterations_out_of_source_order() -> None:
    # A non-commutative "reduction" (keep the right operand) shows the order:
    # the last iteration combined wins.
    program = """
    func.func @main() -> index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %init = arith.constant 100 : index
      %last = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%init) -> index {
        scf.reduce(%i : index) {
        ^bb0(%lhs: index, %rhs: index):
          scf.reduce.return %rhs : index
        }
      }
      return %last : index
    }
    """
    assert scalar(program) == 0


def test_parallel_with_empty_range_returns_init() -> None:
    program = """
    func.func @main(%n: index) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %init = arith.constant 2.5 : f32
      %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%init) -> f32 {
        %one = arith.constant 1.0 : f32
        scf.reduce(%one : f32) {
        ^bb0(%lhs: f32, %rhs: f32):
          %s = arith.addf %lhs, %rhs : f32
          scf.reduce.return %s : f32
        }
      }
      return %r : f32
    }
    """
    assert scalar(program, 0) == 2.5
    assert scalar(program, 3) == 5.5


def test_forall_writes_memory() -> None:
    program = """
    func.func @main(%a: memref<4x6xf32>, %out: memref<4x6xf32> {irkit.output}) {
      %two = arith.constant 2.0 : f32
      scf.forall (%i, %j) in (4, 6) {
        %x = memref.load %a[%i, %j] : memref<4x6xf32>
        %y = arith.mulf %x, %two : f32
        memref.store %y, %out[%i, %j] : memref<4x6xf32>
      }
      return
    }
    """
    data = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
    (result,) = run(program, data)
    np.testing.assert_array_equal(result, data * 2)


def test_forall_with_bounds_and_steps() -> None:
    program = """
    func.func @main(%a: memref<10xi32>, %out: memref<10xi32> {irkit.output}) {
      %lb = arith.constant 1 : index
      %zero = arith.constant 0 : i32
      scf.forall (%i) in (10) {
        memref.store %zero, %out[%i] : memref<10xi32>
      }
      scf.forall (%i) = (%lb) to (10) step (3) {
        %x = memref.load %a[%i] : memref<10xi32>
        memref.store %x, %out[%i] : memref<10xi32>
      }
      return
    }
    """
    data = np.arange(1, 11, dtype=np.int32)
    (result,) = run(program, data)
    expected = np.zeros(10, np.int32)
    expected[1:10:3] = data[1:10:3]
    np.testing.assert_array_equal(result, expected)


# --------------------------------------------------------------------------
# scf.if, scf.while, scf.index_switch, scf.execute_region
# --------------------------------------------------------------------------

SIGN = """
func.func @main(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %x, %zero : i32
  %r = scf.if %positive -> i32 {
    %one = arith.constant 1 : i32
    scf.yield %one : i32
  } else {
    %negative = arith.cmpi slt, %x, %zero : i32
    %inner = scf.if %negative -> (i32) {
      %m = arith.constant -1 : i32
      scf.yield %m : i32
    } else {
      scf.yield %zero : i32
    }
    scf.yield %inner : i32
  }
  return %r : i32
}
"""


@pytest.mark.parametrize("x", [-7, 0, 5])
def test_if_with_results(x: int) -> None:
    assert scalar(SIGN, np.int32(x)) == (x > 0) - (x < 0)


def test_while_computes_collatz_steps() -> None:
    program = """
    func.func @main(%n: i64) -> i64 {
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 1 : i64
      %c2 = arith.constant 2 : i64
      %c3 = arith.constant 3 : i64
      %x, %steps = scf.while (%v = %n, %k = %c0) : (i64, i64) -> (i64, i64) {
        %go = arith.cmpi ne, %v, %c1 : i64
        scf.condition(%go) %v, %k : i64, i64
      } do {
      ^bb0(%v: i64, %k: i64):
        %r = arith.remsi %v, %c2 : i64
        %even = arith.cmpi eq, %r, %c0 : i64
        %next = scf.if %even -> (i64) {
          %h = arith.divsi %v, %c2 : i64
          scf.yield %h : i64
        } else {
          %t = arith.muli %v, %c3 : i64
          %t1 = arith.addi %t, %c1 : i64
          scf.yield %t1 : i64
        }
        %k1 = arith.addi %k, %c1 : i64
        scf.yield %next, %k1 : i64, i64
      }
      return %steps : i64
    }
    """

    def collatz(n: int) -> int:
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        return steps

    for n in (1, 6, 27):
        assert scalar(program, np.int64(n)) == collatz(n)


def test_index_switch_and_execute_region() -> None:
    program = """
    func.func @main(%i: index) -> i32 {
      %r = scf.index_switch %i -> i32
      case 2 {
        %a = arith.constant 20 : i32
        scf.yield %a : i32
      }
      case 5 {
        %b = scf.execute_region -> i32 {
          %c = arith.constant 50 : i32
          scf.yield %c : i32
        }
        scf.yield %b : i32
      }
      default {
        %d = arith.constant -1 : i32
        scf.yield %d : i32
      }
      return %r : i32
    }
    """
    assert [scalar(program, i) for i in (2, 5, 0)] == [20, 50, -1]


# --------------------------------------------------------------------------
# affine
# --------------------------------------------------------------------------


def affine_program(op: str, map_text: str, dims: int, symbols: int) -> str:
    args = ", ".join(f"%a{k}: index" for k in range(dims + symbols))
    dim_list = ", ".join(f"%a{k}" for k in range(dims))
    symbol_list = ", ".join(f"%a{k}" for k in range(dims, dims + symbols))
    operands = f"({dim_list})" + (f"[{symbol_list}]" if symbols else "")
    return f"""
    func.func @main({args}) -> index {{
      %r = affine.{op} affine_map<{map_text}>{operands}
      return %r : index
    }}
    """


def test_affine_division_and_modulo_match_python_exhaustively() -> None:
    # MLIR's floordiv / ceildiv / mod are Python's //, -(-a // b) and % for
    # positive divisors; check every pair in a small range, negatives included.
    # (Divisors are constants: xDSL does not parse semi-affine maps.)
    for b in range(1, 6):
        floor_text = affine_program("apply", f"(d0) -> (d0 floordiv {b})", 1, 0)
        ceil_text = affine_program("apply", f"(d0) -> (d0 ceildiv {b})", 1, 0)
        mod_text = affine_program("apply", f"(d0) -> (d0 mod {b})", 1, 0)
        all_text = affine_program(
            "max", f"(d0) -> (d0 floordiv {b}, d0 ceildiv {b}, d0 mod {b})", 1, 0
        )
        for a in range(-13, 14):
            assert scalar(floor_text, a) == a // b, ("floordiv", a, b)
            assert scalar(ceil_text, a) == -(-a // b), ("ceildiv", a, b)
            assert scalar(mod_text, a) == a % b, ("mod", a, b)
            assert scalar(all_text, a) == max(a // b, -(-a // b), a % b)


def test_affine_constant_divisors_and_compound_expressions() -> None:
    text = affine_program(
        "apply", "(d0, d1)[s0] -> ((d0 * 3 - d1) floordiv 4 + s0 mod 3 - 2)", 2, 1
    )
    for d0, d1, s0 in itertools.product(range(-4, 5), range(-3, 4), range(-4, 5)):
        assert scalar(text, d0, d1, s0) == (d0 * 3 - d1) // 4 + s0 % 3 - 2


@EXAMPLES
@given(i=st.integers(-50, 50), n=st.integers(-50, 50))
def test_affine_min_max_tile_sizes(i: int, n: int) -> None:
    # The partial-tile size a tiling pass emits, and its clamp at zero.
    min_text = affine_program("min", "(d0)[s0] -> (4, s0 - d0)", 1, 1)
    max_text = affine_program("max", "(d0)[s0] -> (0, s0 - d0, d0 - 8)", 1, 1)
    assert scalar(min_text, i, n) == min(4, n - i)
    assert scalar(max_text, i, n) == max(0, n - i, i - 8)


def test_affine_non_positive_divisor_is_an_error() -> None:
    for divisor in (0, -2):
        text = affine_program("apply", f"(d0) -> (d0 mod {divisor})", 1, 0)
        with pytest.raises(InterpretationError, match="non-positive divisor"):
            run(text, 5)


def test_affine_for_with_min_bound_and_load_store() -> None:
    program = """
    func.func @main(%a: memref<10xf32>, %n: index) -> f32 {
      %zero = arith.constant 0.0 : f32
      %r = affine.for %i = 1 to min affine_map<()[s0] -> (8, s0)>()[%n] step 2
          iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i + 1] : memref<10xf32>
        %s = arith.addf %acc, %x : f32
        affine.yield %s : f32
      }
      return %r : f32
    }
    """
    data = np.arange(10, dtype=np.float32)
    for n in (0, 5, 20):
        expected = sum(data[i + 1] for i in range(1, min(8, n), 2))
        assert scalar(program, data, n) == pytest.approx(expected)
