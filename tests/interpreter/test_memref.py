"""Reference semantics of memrefs, bufferization ops and linalg on buffers.

Programs are hand-written memref IR run with `irkit.interpret` through the
calling convention of `irkit.abi` (inputs in; results and `irkit.output`
buffers out) and checked against NumPy slicing. Each misuse of memory the
interpreter reports is asserted by its message.

xDSL 0.74 has no custom syntax for some memref ops (`memref.global`, `copy`,
`cast`, `memory_space_cast`, `atomic_rmw`, `alloca_scope`, `rank`): they are
written in MLIR's generic form, which MLIR reads too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import irkit
from irkit.interpreter import InterpretationError

# Example counts come from the Hypothesis profile (tests/conftest.py).
EXAMPLES = settings()

A = np.arange(32, dtype=np.float32).reshape(4, 8) + 1


def run(text: str, *inputs: Any) -> tuple[np.ndarray, ...]:
    return irkit.interpret(text, "main", *inputs)


def fails(text: str, *inputs: Any) -> str:
    with pytest.raises(InterpretationError) as caught:
        run(text, *inputs)
    return caught.value.message


# --------------------------------------------------------------------------
# alloc, load, store, dtypes
# --------------------------------------------------------------------------


def test_store_then_load_keeps_the_element_type() -> None:
    value, wrapped = run(
        """
    func.func @main(%x: f32, %y: i8) -> (f32, i8) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m = memref.alloc() : memref<2xf32>
      memref.store %x, %m[%c1] : memref<2xf32>
      %v = memref.load %m[%c1] : memref<2xf32>
      memref.dealloc %m : memref<2xf32>
      %b = memref.alloca() : memref<1xi8>
      %big = arith.addi %y, %y : i8
      memref.store %big, %b[%c0] : memref<1xi8>
      %w = memref.load %b[%c0] : memref<1xi8>
      return %v, %w : f32, i8
    }
    """,
        np.float32(0.1),
        np.int8(100),
    )
    assert value.dtype == np.float32
    assert value == np.float32(0.1)
    assert wrapped.dtype == np.int8
    assert int(wrapped) == -56  # 200 wraps in i8


def test_dynamic_alloc_dim_and_rank() -> None:
    dim, rank = run(
        """
    func.func @main(%n: index) -> (index, index) {
      %c1 = arith.constant 1 : index
      %m = memref.alloc(%n) : memref<4x?xf32, 3>
      %d = memref.dim %m, %c1 : memref<4x?xf32, 3>
      %r = "memref.rank"(%m) : (memref<4x?xf32, 3>) -> index
      return %d, %r : index, index
    }
    """,
        5,
    )
    assert (int(dim), int(rank)) == (5, 2)


# --------------------------------------------------------------------------
# What the interpreter reports
# --------------------------------------------------------------------------


def test_load_of_an_unwritten_element_is_reported() -> None:
    message = fails("""
    func.func @main() -> f32 {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %m = memref.alloc() : memref<3x4xf32>
      %v = memref.load %m[%c1, %c2] : memref<3x4xf32>
      return %v : f32
    }
    """)
    assert message == (
        "'memref.load' op reads element [1, 2] of a buffer nothing wrote "
        "(memref.alloc at <string>:5:7)"
    )


def test_out_of_bounds_store_is_reported() -> None:
    with pytest.raises(InterpretationError) as caught:
        run(
            """
    func.func @main(%x: f32) {
      %c4 = arith.constant 4 : index
      %c0 = arith.constant 0 : index
      %m = memref.alloc() : memref<4x8xf32>
      memref.store %x, %m[%c4, %c0] : memref<4x8xf32>
      return
    }
    """,
            np.float32(1),
        )
    assert caught.value.message == (
        "'memref.store' op index [4, 0] is out of bounds of a 4x8 memref"
    )
    assert str(caught.value.location) == "<string>:6:7"


def test_use_after_free_and_double_free_are_reported() -> None:
    program = """
    func.func @main(%x: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %m = memref.alloc() : memref<2xf32>
      memref.store %x, %m[%c0] : memref<2xf32>
      memref.dealloc %m : memref<2xf32>
      USE
    }
    """
    load = "%v = memref.load %m[%c0] : memref<2xf32>\n return %v : f32"
    assert fails(program.replace("USE", load), np.float32(1)) == (
        "'memref.load' op uses a buffer that was freed (memref.alloc at <string>:4:7)"
    )
    twice = "memref.dealloc %m : memref<2xf32>\n return %x : f32"
    assert fails(program.replace("USE", twice), np.float32(1)) == (
        "'memref.dealloc' op frees a buffer that was already freed "
        "(memref.alloc at <string>:4:7)"
    )


def test_freeing_a_stack_buffer_is_reported() -> None:
    assert fails("""
    func.func @main() {
      %m = memref.alloca() : memref<2xf32>
      memref.dealloc %m : memref<2xf32>
      return
    }
    """) == (
        "'memref.dealloc' op frees a buffer that memref.alloc did not allocate "
        "(memref.alloca at <string>:3:7)"
    )


def test_alloca_scope_frees_its_allocas() -> None:
    message = fails(
        """
    func.func @main(%x: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %m = "memref.alloca_scope"() ({
        %s = memref.alloca() : memref<2xf32>
        memref.store %x, %s[%c0] : memref<2xf32>
        "memref.alloca_scope.return"(%s) : (memref<2xf32>) -> ()
      }) : () -> memref<2xf32>
      %v = memref.load %m[%c0] : memref<2xf32>
      return %v : f32
    }
    """,
        np.float32(1),
    )
    assert message.startswith("'memref.load' op uses a buffer that was freed")


# --------------------------------------------------------------------------
# Views: subview, reshapes, casts
# --------------------------------------------------------------------------


def test_strided_subview_with_offset_and_steps() -> None:
    (result,) = run(
        """
    func.func @main(%a: memref<4x8xf32>, %o: memref<2x3xf32> {irkit.output}) {
      %s = memref.subview %a[1, 2] [2, 3] [2, 2] : memref<4x8xf32> to memref<2x3xf32, strided<[16, 2], offset: 10>>
      "memref.copy"(%s, %o) : (memref<2x3xf32, strided<[16, 2], offset: 10>>, memref<2x3xf32>) -> ()
      return
    }
    """,
        A,
    )
    np.testing.assert_array_equal(result, A[1:4:2, 2:8:2])


def test_dynamic_rank_reducing_subview_of_a_subview() -> None:
    program = """
    func.func @main(%a: memref<4x8xf32>, %i: index) -> f32 {
      %c1 = arith.constant 1 : index
      %s = memref.subview %a[1, 1] [3, 7] [1, 1] : memref<4x8xf32> to memref<3x7xf32, strided<[8, 1], offset: 9>>
      %r = memref.subview %s[%i, 2] [1, 4] [1, 1] : memref<3x7xf32, strided<[8, 1], offset: 9>> to memref<4xf32, strided<[1], offset: ?>>
      %v = memref.load %r[%c1] : memref<4xf32, strided<[1], offset: ?>>
      return %v : f32
    }
    """
    for i in range(3):
        (value,) = run(program, A, i)
        assert value == A[1 + i, 1 + 2 + 1]


def test_rank_reducing_subview_drops_the_right_unit_dimension() -> None:
    (result,) = run(
        """
    func.func @main(%a: memref<4x8xf32>, %o: memref<4xf32> {irkit.output}) {
      %col = memref.subview %a[0, 5] [4, 1] [1, 1] : memref<4x8xf32> to memref<4xf32, strided<[8], offset: 5>>
      "memref.copy"(%col, %o) : (memref<4xf32, strided<[8], offset: 5>>, memref<4xf32>) -> ()
      return
    }
    """,
        A,
    )
    np.testing.assert_array_equal(result, A[:, 5])


def test_subview_out_of_its_source_is_reported() -> None:
    message = fails(
        """
    func.func @main(%a: memref<4x8xf32>, %i: index) -> f32 {
      %c0 = arith.constant 0 : index
      %s = memref.subview %a[%i, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
      %v = memref.load %s[%c0, %c0] : memref<2x8xf32, strided<[8, 1], offset: ?>>
      return %v : f32
    }
    """,
        A,
        3,
    )
    assert message == (
        "'memref.subview' op takes elements 3 to 4 (step 1) of dimension 0, which has 4"
    )


def test_subview_whose_type_lies_about_its_offset_is_reported() -> None:
    # A static offset that disagrees is a verifier error; a dynamic one that
    # turns out to disagree at run time is the interpreter's to report.
    message = fails(
        """
    func.func @main(%a: memref<4x8xf32>) {
      %c1 = arith.constant 1 : index
      %s = memref.subview %a[%c1, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 16>>
      return
    }
    """,
        A,
    )
    assert "makes a view at offset 8, its type" in message


def test_expand_and_collapse_share_the_buffer() -> None:
    flat, grid = run(
        """
    func.func @main(%a: memref<4x8xf32>, %x: f32) -> (memref<32xf32>, memref<2x2x8xf32>) {
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %f = memref.collapse_shape %a [[0, 1]] : memref<4x8xf32> into memref<32xf32>
      %e = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 8] : memref<4x8xf32> into memref<2x2x8xf32>
      memref.store %x, %e[%c1, %c1, %c3] : memref<2x2x8xf32>
      return %f, %e : memref<32xf32>, memref<2x2x8xf32>
    }
    """,
        A,
        np.float32(-1),
    )
    expected = A.copy()
    expected[3, 3] = -1
    np.testing.assert_array_equal(flat, expected.reshape(32))
    np.testing.assert_array_equal(grid, expected.reshape(2, 2, 8))


def test_collapse_of_a_non_contiguous_view_is_reported() -> None:
    message = fails(
        """
    func.func @main(%a: memref<4x8xf32>) {
      %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
      %f = memref.collapse_shape %s [[0, 1]] : memref<4x4xf32, strided<[8, 1]>> into memref<16xf32, strided<[1]>>
      return
    }
    """,
        A,
    )
    assert message.startswith(
        "'memref.collapse_shape' op collapses dimensions [0, 1] that are not contiguous"
    )


def test_casts_and_reinterpret_cast() -> None:
    size, element, moved = run(
        """
    func.func @main(%a: memref<4x8xf32>) -> (index, f32, f32) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %d = "memref.cast"(%a) : (memref<4x8xf32>) -> memref<?x8xf32>
      %n = memref.dim %d, %c0 : memref<?x8xf32>
      %r = memref.reinterpret_cast %a to offset: [3], sizes: [8, 2], strides: [3, 1] : memref<4x8xf32> to memref<8x2xf32, strided<[3, 1], offset: 3>>
      %v = memref.load %r[%c2, %c0] : memref<8x2xf32, strided<[3, 1], offset: 3>>
      %s = memref.alloca() : memref<2xf32, 3>
      %g = "memref.memory_space_cast"(%s) : (memref<2xf32, 3>) -> memref<2xf32>
      memref.store %v, %g[%c0] : memref<2xf32>
      %w = memref.load %s[%c0] : memref<2xf32, 3>
      return %n, %v, %w : index, f32, f32
    }
    """,
        A,
    )
    assert int(size) == 4
    assert element == A.reshape(-1)[3 + 2 * 3] == moved


def test_atomic_rmw_returns_the_old_value() -> None:
    kinds = {"addf": 0, "assign": 2, "maximumf": 3, "minimumf": 6, "mulf": 9}
    for name, kind in kinds.items():
        old, new = run(
            f"""
    func.func @main(%x: f32, %y: f32) -> (f32, f32) {{
      %c0 = arith.constant 0 : index
      %m = memref.alloca() : memref<1xf32>
      memref.store %x, %m[%c0] : memref<1xf32>
      %o = "memref.atomic_rmw"(%y, %m, %c0) <{{kind = {kind} : i64}}> : (f32, memref<1xf32>, index) -> f32
      %n = memref.load %m[%c0] : memref<1xf32>
      return %o, %n : f32, f32
    }}
    """,
            np.float32(3),
            np.float32(-2),
        )
        expected = {"addf": 1, "assign": -2, "maximumf": 3, "minimumf": -2, "mulf": -6}
        assert (old, new) == (3, expected[name]), name


def test_atomic_rmw_on_integers() -> None:
    old, new = run(
        """
    func.func @main(%x: i32, %y: i32) -> (i32, i32) {
      %c0 = arith.constant 0 : index
      %m = memref.alloca() : memref<1xi32>
      memref.store %x, %m[%c0] : memref<1xi32>
      %o = "memref.atomic_rmw"(%y, %m, %c0) <{kind = 5 : i64}> : (i32, memref<1xi32>, index) -> i32
      %n = memref.load %m[%c0] : memref<1xi32>
      return %o, %n : i32, i32
    }
    """,
        np.int32(3),
        np.int32(-1),
    )
    # maxu: -1 is the largest unsigned value.
    assert (int(old), int(new)) == (3, -1)


# --------------------------------------------------------------------------
# Globals and copies
# --------------------------------------------------------------------------

GLOBALS = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "counter", sym_visibility = "private", type = memref<i32>, initial_value = dense<7> : tensor<i32>}> : () -> ()
"memref.global"() <{sym_name = "scratch", sym_visibility = "private", type = memref<4xf32>, initial_value}> : () -> ()
"""


def test_globals_constant_mutable_and_uninitialised() -> None:
    program = (
        GLOBALS
        + """
    func.func @main(%x: f32) -> (memref<2x3xf32>, i32, i32) {
      %c1 = arith.constant 1 : index
      %t = memref.get_global @table : memref<2x3xf32>
      %g = memref.get_global @counter : memref<i32>
      %v = memref.load %g[] : memref<i32>
      %one = arith.constant 1 : i32
      %n = arith.addi %v, %one : i32
      memref.store %n, %g[] : memref<i32>
      %again = memref.get_global @counter : memref<i32>
      %w = memref.load %again[] : memref<i32>
      return %t, %v, %w : memref<2x3xf32>, i32, i32
    }
    """
    )
    table, before, after = run(program, np.float32(0))
    np.testing.assert_array_equal(table, [[1, 2, 3], [4, 5, 6]])
    assert (int(before), int(after)) == (7, 8)
    # Every run starts from the module's initial state.
    assert int(run(program, np.float32(0))[1]) == 7


def test_writing_a_constant_global_is_reported() -> None:
    message = fails(
        GLOBALS
        + """
    func.func @main(%x: f32) {
      %c0 = arith.constant 0 : index
      %t = memref.get_global @table : memref<2x3xf32>
      memref.store %x, %t[%c0, %c0] : memref<2x3xf32>
      return
    }
    """,
        np.float32(0),
    )
    assert message == (
        "'memref.store' op writes to a constant buffer (memref.global @table)"
    )


def test_uninitialised_global_reads_are_reported() -> None:
    message = fails(
        GLOBALS
        + """
    func.func @main() -> f32 {
      %c2 = arith.constant 2 : index
      %s = memref.get_global @scratch : memref<4xf32>
      %v = memref.load %s[%c2] : memref<4xf32>
      return %v : f32
    }
    """
    )
    assert message == (
        "'memref.load' op reads element [2] of a buffer nothing wrote "
        "(memref.global @scratch)"
    )


def test_copy_carries_unwritten_elements_to_the_eventual_read() -> None:
    program = """
    func.func @main(%x: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m = memref.alloc() : memref<2xf32>
      memref.store %x, %m[%c0] : memref<2xf32>
      %n = memref.alloc() : memref<2xf32>
      "memref.copy"(%m, %n) : (memref<2xf32>, memref<2xf32>) -> ()
      %v = memref.load %n[INDEX] : memref<2xf32>
      return %v : f32
    }
    """
    (value,) = run(program.replace("INDEX", "%c0"), np.float32(4))
    assert value == 4
    # The element is reported against the buffer that was read.
    assert fails(program.replace("INDEX", "%c1"), np.float32(4)) == (
        "'memref.load' op reads element [1] of a buffer nothing wrote "
        "(memref.alloc at <string>:7:7)"
    )


# --------------------------------------------------------------------------
# bufferization
# --------------------------------------------------------------------------


def test_bufferization_ops() -> None:
    snapshot, cloned, materialized, fresh = run(
        """
    func.func @main(%t: tensor<4xf32>, %x: f32) -> (tensor<4xf32>, memref<4xf32>, memref<4xf32>, tensor<2xf32>) {
      %c0 = arith.constant 0 : index
      %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
      %s = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
      %c = bufferization.clone %m : memref<4xf32> to memref<4xf32>
      memref.store %x, %m[%c0] : memref<4xf32>
      %d = memref.alloc() : memref<4xf32>
      bufferization.materialize_in_destination %s in restrict writable %d : (tensor<4xf32>, memref<4xf32>) -> ()
      %e = bufferization.alloc_tensor() : tensor<2xf32>
      return %s, %c, %d, %e : tensor<4xf32>, memref<4xf32>, memref<4xf32>, tensor<2xf32>
    }
    """,
        np.arange(4, dtype=np.float32) + 1,
        np.float32(-1),
    )
    expected = np.arange(4, dtype=np.float32) + 1
    np.testing.assert_array_equal(snapshot, expected)
    np.testing.assert_array_equal(cloned, expected)
    np.testing.assert_array_equal(materialized, expected)
    assert np.isnan(fresh).all()


# --------------------------------------------------------------------------
# linalg on memrefs
# --------------------------------------------------------------------------

# sum_j a[i, j] * b[i] + 0.5, on tensors and on buffers.
ON_TENSORS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%a: tensor<RxCxf32>, %b: tensor<Rxf32>) -> tensor<Rxf32> {
  %z = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<Rxf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<Rxf32>) -> tensor<Rxf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<RxCxf32>, tensor<Rxf32>) outs(%init : tensor<Rxf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<Rxf32>
  return %r : tensor<Rxf32>
}
"""

ON_BUFFERS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%a: memref<RxCxf32>, %b: memref<Rxf32>, %out: memref<Rxf32> {irkit.output}) {
  %z = arith.constant 0.5 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<Rxf32>)
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%a, %b : memref<RxCxf32>, memref<Rxf32>) outs(%out : memref<Rxf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}
"""


def _sized(template: str, rows: int, cols: int) -> str:
    return template.replace("RxC", f"{rows}x{cols}").replace("Rx", f"{rows}x")


@EXAMPLES
@given(
    st.integers(1, 5).flatmap(
        lambda rows: st.integers(1, 6).flatmap(
            lambda cols: st.tuples(
                hnp.arrays(
                    np.float32, (rows, cols), elements=st.floats(-1, 1, width=32)
                ),
                hnp.arrays(np.float32, (rows,), elements=st.floats(-1, 1, width=32)),
            )
        )
    )
)
def test_generic_on_memrefs_matches_tensors(arrays: tuple[np.ndarray, ...]) -> None:
    a, b = arrays
    rows, cols = a.shape
    (on_tensors,) = run(_sized(ON_TENSORS, rows, cols), a, b)
    (on_memrefs,) = run(_sized(ON_BUFFERS, rows, cols), a, b)
    np.testing.assert_allclose(on_memrefs, on_tensors, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        on_memrefs, (a * b[:, None]).sum(1) + 0.5, rtol=1e-5, atol=1e-5
    )


def test_reduction_into_an_unfilled_buffer_is_reported() -> None:
    program = _sized(ON_BUFFERS, 3, 2).replace(
        "linalg.fill ins(%z : f32) outs(%out : memref<3xf32>)", ""
    )
    message = fails(program, np.ones((3, 2), np.float32), np.ones(3, np.float32))
    assert message == (
        "'linalg.generic' op reads element [0] of a buffer nothing wrote "
        "(output #0 of @main)"
    )


def test_elementwise_generic_on_strided_views_writes_only_its_window() -> None:
    (result,) = run(
        """
    #id = affine_map<(d0) -> (d0)>
    func.func @main(%a: memref<4x8xf32>, %o: memref<4x8xf32> {irkit.output}) {
      "memref.copy"(%a, %o) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
      %row = memref.subview %a[2, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 16>>
      %col = memref.subview %o[0, 3] [4, 1] [1, 1] : memref<4x8xf32> to memref<4xf32, strided<[8], offset: 3>>
      %half = memref.subview %row[0] [4] [2] : memref<8xf32, strided<[1], offset: 16>> to memref<4xf32, strided<[2], offset: 16>>
      linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%half : memref<4xf32, strided<[2], offset: 16>>) outs(%col : memref<4xf32, strided<[8], offset: 3>>) {
      ^bb0(%x: f32, %y: f32):
        %n = arith.negf %x : f32
        linalg.yield %n : f32
      }
      return
    }
    """,
        A,
    )
    expected = A.copy()
    expected[:, 3] = -A[2, 0:8:2]
    np.testing.assert_array_equal(result, expected)


def test_named_ops_on_memrefs() -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    b = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    product, total, doubled = run(
        """
    func.func @main(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32> {irkit.output}, %s: memref<2xf32> {irkit.output}, %d: memref<2x3xf32> {irkit.output}) {
      %zero = arith.constant 0.0 : f32
      linalg.fill ins(%zero : f32) outs(%c : memref<2x4xf32>)
      linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
      linalg.fill ins(%zero : f32) outs(%s : memref<2xf32>)
      linalg.reduce ins(%a : memref<2x3xf32>) outs(%s : memref<2xf32>) dimensions = [1]
        (%x: f32, %acc: f32) {
          %t = arith.addf %x, %acc : f32
          linalg.yield %t : f32
        }
      linalg.add ins(%a, %a : memref<2x3xf32>, memref<2x3xf32>) outs(%d : memref<2x3xf32>)
      return
    }
    """,
        a,
        b,
    )
    np.testing.assert_allclose(product, a @ b, rtol=1e-6)
    np.testing.assert_allclose(total, a.sum(1), rtol=1e-6)
    np.testing.assert_array_equal(doubled, a + a)


def test_matmul_into_an_unfilled_buffer_is_reported() -> None:
    message = fails(
        """
    func.func @main(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32> {irkit.output}) {
      linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
      return
    }
    """,
        np.ones((2, 3), np.float32),
        np.ones((3, 4), np.float32),
    )
    assert message == (
        "'linalg.matmul' op reads element [0, 0] of a buffer nothing wrote "
        "(output #0 of @main)"
    )
