"""`memref.load` inside a vectorised `linalg.generic` body: a gather.

`bufferize` turns a `tensor.extract` in a linalg body (torch-mlir's
`embedding`) into a `memref.load` there. The interpreter runs linalg bodies on
whole arrays, so the load's indices are arrays; every gathered element is
bounds- and written-checked like a scalar load.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import irkit
from irkit.interpreter import InterpretationError

# out[i, j] = table[ids[i], j]
EMBEDDING = """
#ids = affine_map<(d0, d1) -> (d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%table: memref<5x3xf32>, %ids: memref<4xi64>,
                %out: memref<4x3xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [#ids, #out],
                  iterator_types = ["parallel", "parallel"]}
      ins(%ids : memref<4xi64>) outs(%out : memref<4x3xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = memref.load %table[%row, %col] : memref<5x3xf32>
    linalg.yield %v : f32
  }
  return
}
"""

TABLE = np.arange(15, dtype=np.float32).reshape(5, 3) + 1


def run(text: str, *inputs: Any) -> tuple[np.ndarray, ...]:
    return irkit.interpret(text, "main", *inputs)


def test_load_in_a_body_gathers() -> None:
    ids = np.array([4, 0, 2, 4], dtype=np.int64)
    (out,) = run(EMBEDDING, TABLE, ids)
    np.testing.assert_array_equal(out, TABLE[ids])


def test_gather_out_of_bounds_is_reported() -> None:
    ids = np.array([1, 5, 0, 0], dtype=np.int64)
    with pytest.raises(InterpretationError) as caught:
        run(EMBEDDING, TABLE, ids)
    assert "index [5, 0] (dimension 0) is out of bounds of a 5x3 memref" in (
        caught.value.message
    )


def test_gather_of_an_unwritten_element_is_reported() -> None:
    text = EMBEDDING.replace(
        "  linalg.generic",
        "  %c4 = arith.constant 4 : index\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %t = memref.alloc() : memref<5x3xf32>\n"
        "  memref.copy %table, %t : memref<5x3xf32> to memref<5x3xf32>\n"
        "  %junk = memref.alloc() : memref<5x3xf32>\n"
        "  %row4 = memref.subview %t[4, 0] [1, 3] [1, 1] : memref<5x3xf32> to "
        "memref<3xf32, strided<[1], offset: 12>>\n"
        "  %fresh = memref.subview %junk[4, 0] [1, 3] [1, 1] : memref<5x3xf32> to "
        "memref<3xf32, strided<[1], offset: 12>>\n"
        "  memref.copy %fresh, %row4 : memref<3xf32, strided<[1], offset: 12>> to "
        "memref<3xf32, strided<[1], offset: 12>>\n"
        "  linalg.generic",
        1,
    ).replace("memref.load %table", "memref.load %t")
    ids = np.array([0, 4, 1, 2], dtype=np.int64)
    with pytest.raises(InterpretationError) as caught:
        run(text, TABLE, ids)
    assert "reads element [4, 0] of a buffer nothing wrote" in caught.value.message
