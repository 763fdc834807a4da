"""The calling convention of `irkit.abi` in the interpreter and the checker.

A caller passes the input arguments only and gets back the results followed by
the `irkit.output` buffers; so a tensor function and its hand-bufferized
version are called, and compared, the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

import irkit
from irkit.interpreter import InputError, InterpretationError
from irkit.testing import (
    SemanticsMismatch,
    assert_pass_preserves_semantics,
    check_semantics_between,
    random_arguments,
)

ON_TENSORS = """
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<f32>) {
  %s = arith.addf %a, %b : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %t = linalg.reduce ins(%s : tensor<4x4xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return %s, %t : tensor<4x4xf32>, tensor<f32>
}
"""

# What `bufferize` makes of ON_TENSORS, written by hand. BODY is the part a
# test may break.
ON_BUFFERS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %s: memref<4x4xf32> {irkit.output}, %t: memref<f32> {irkit.output}) {
  BODY
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%t : memref<f32>)
  linalg.reduce ins(%s : memref<4x4xf32>) outs(%t : memref<f32>) dimensions = [0, 1]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return
}
"""

ADD = """linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%s : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = OP %x, %y : f32
    linalg.yield %r : f32
  }"""

# The same addition, writing the first row only: 4 of 16 elements.
FIRST_ROW = """%row = memref.subview %s[0, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  %ar = memref.subview %a[0, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  %br = memref.subview %b[0, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  linalg.add ins(%ar, %br : memref<4xf32, strided<[1]>>, memref<4xf32, strided<[1]>>) outs(%row : memref<4xf32, strided<[1]>>)"""

A = np.arange(16, dtype=np.float32).reshape(4, 4) / 8 - 1
B = np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4)


def buffers(body: str) -> str:
    return ON_BUFFERS.replace("BODY", body)


def test_tensor_and_buffer_functions_are_called_alike() -> None:
    tensor_results = irkit.interpret(ON_TENSORS, "f", A, B)
    buffer_results = irkit.interpret(
        buffers(ADD.replace("OP", "arith.addf")), "f", A, B
    )
    assert len(tensor_results) == len(buffer_results) == 2
    for expected, actual in zip(tensor_results, buffer_results, strict=True):
        assert actual.shape == expected.shape
        assert actual.dtype == expected.dtype
        np.testing.assert_allclose(actual, expected, rtol=1e-6)
    np.testing.assert_allclose(buffer_results[1], (A + B).sum(), rtol=1e-5)


def test_inputs_are_not_written_by_the_program() -> None:
    a = A.copy()
    irkit.interpret(
        """
    func.func @f(%a: memref<4x4xf32>) {
      %c0 = arith.constant 0 : index
      %x = arith.constant 9.0 : f32
      memref.store %x, %a[%c0, %c0] : memref<4x4xf32>
      return
    }
    """,
        "f",
        a,
    )
    # The program wrote its own copy of the argument.
    np.testing.assert_array_equal(a, A)


def test_unwritten_output_is_reported_with_count_and_first_index() -> None:
    with pytest.raises(InterpretationError) as caught:
        irkit.interpret(
            """
    func.func @f(%o: memref<4x4xf32> {irkit.output}) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = arith.constant 1.0 : f32
      %row = memref.subview %o[0, 0] [4, 2] [1, 1] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1]>>
      linalg.fill ins(%x : f32) outs(%row : memref<4x2xf32, strided<[4, 1]>>)
      memref.store %x, %o[%c0, %c1] : memref<4x4xf32>
      memref.store %x, %o[%c1, %c1] : memref<4x4xf32>
      return
    }
    """,
            "f",
        )
    assert caught.value.message == (
        "output #0 of @f: 8 of 16 elements were never written, first at [0, 2]"
    )
    assert str(caught.value.location) == "<string>:2:5"


def test_wrong_inputs_are_input_errors() -> None:
    program = buffers(ADD.replace("OP", "arith.addf"))
    with pytest.raises(InputError) as caught:
        irkit.interpret(program, "f", A)
    assert str(caught.value) == (
        "@f takes 2 argument(s) (its 2 output buffer(s) are allocated by the "
        "interpreter), 1 given"
    )
    with pytest.raises(InputError) as caught:
        irkit.interpret(program, "f", A, B.astype(np.float64))
    assert str(caught.value) == (
        "argument #1 of @f must be memref<4x4xf32>, got tensor<4x4xf64>"
    )


def test_memref_results_are_returned_as_arrays() -> None:
    (result,) = irkit.interpret(
        """
    func.func @f(%a: memref<4x4xf32>) -> memref<2x4xf32, strided<[4, 1], offset: 8>> {
      %s = memref.subview %a[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
      return %s : memref<2x4xf32, strided<[4, 1], offset: 8>>
    }
    """,
        "f",
        A,
    )
    assert isinstance(result, np.ndarray)
    np.testing.assert_array_equal(result, A[2:])


def test_random_arguments_cover_inputs_only() -> None:
    module = irkit.parse(buffers(ADD.replace("OP", "arith.addf")))
    func = next(op for op in module.walk() if op.name == "func.func")
    args = random_arguments(func, np.random.default_rng(0))  # type: ignore[arg-type]
    assert [a.shape for a in args] == [(4, 4), (4, 4)]
    assert all(a.dtype == np.float32 and a.any() for a in args)


def test_checker_compares_a_tensor_function_with_its_bufferized_form() -> None:
    before = irkit.parse(ON_TENSORS)
    check_semantics_between(
        before, irkit.parse(buffers(ADD.replace("OP", "arith.addf"))), "by-hand"
    )
    with pytest.raises(SemanticsMismatch) as caught:
        check_semantics_between(
            before, irkit.parse(buffers(ADD.replace("OP", "arith.subf"))), "by-hand"
        )
    assert str(caught.value).startswith(
        "pass 'by-hand' changed the semantics of @f: result #0: "
    )


def test_checker_reports_an_output_the_pass_leaves_unwritten() -> None:
    with pytest.raises(SemanticsMismatch) as caught:
        check_semantics_between(
            irkit.parse(ON_TENSORS), irkit.parse(buffers(FIRST_ROW)), "by-hand"
        )
    assert str(caught.value).startswith(
        "pass 'by-hand' changed the semantics of @f: it fails after the pass: "
        "'linalg.reduce' op reads element [1, 0] of a buffer nothing wrote "
        "(output #0 of @f)"
    )


@dataclass(frozen=True)
class ReplaceWithText(ModulePass):
    """Test pass: replace the module's body with `text`'s (a hand lowering)."""

    name = "test-replace-with-text"
    text: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        replacement = irkit.parse(self.text)
        for old in list(op.body.block.ops):
            old.detach()
            old.erase()
        for new in list(replacement.body.block.ops):
            new.detach()
            op.body.block.add_op(new)


def test_assert_pass_preserves_semantics_across_the_abi() -> None:
    result = assert_pass_preserves_semantics(
        ReplaceWithText(buffers(ADD.replace("OP", "arith.addf"))), ON_TENSORS
    )
    assert "irkit.output" in str(result)
    with pytest.raises(SemanticsMismatch) as caught:
        assert_pass_preserves_semantics(
            ReplaceWithText(buffers(ADD.replace("OP", "arith.mulf"))), ON_TENSORS
        )
    assert caught.value.pass_name == "test-replace-with-text"
