"""Tile-and-fuse end to end: fused tiles compiled to C and run natively.

`bufferize, linalg-tile-and-fuse{...}, convert-linalg-to-loops` output goes
through the C target (tile buffers are stack arrays in the OpenMP loop body)
and must match the interpreter on the original program, with partial tiles.
"""

from __future__ import annotations

import numpy as np
import pytest

import irkit
from irkit.testing import compare_arrays

MATMUL_CHAIN = """
func.func @main(%a: tensor<37x29xf32>, %x: tensor<37x29xf32>, %b: tensor<29x23xf32>,
                %bias: tensor<23xf32>) -> tensor<37x23xf32> {
  %e = nn.exp %a : tensor<37x29xf32> -> tensor<37x29xf32>
  %s = nn.mul %e, %x : tensor<37x29xf32>, tensor<37x29xf32> -> tensor<37x29xf32>
  %c = nn.matmul %s, %b : tensor<37x29xf32>, tensor<29x23xf32> -> tensor<37x23xf32>
  %d = nn.add %c, %bias : tensor<37x23xf32>, tensor<23xf32> -> tensor<37x23xf32>
  %r = nn.relu %d : tensor<37x23xf32> -> tensor<37x23xf32>
  return %r : tensor<37x23xf32>
}"""

SOFTMAX = """
func.func @main(%a: tensor<19x13xf32>) -> tensor<19x13xf32> {
  %t = nn.tanh %a : tensor<19x13xf32> -> tensor<19x13xf32>
  %s = nn.softmax %t axis 1 : tensor<19x13xf32> -> tensor<19x13xf32>
  return %s : tensor<19x13xf32>
}"""


def _pipeline(tile_sizes: str, fuse_elementwise: bool) -> str:
    stages = ["convert-nn-to-linalg", "linalg-generalize-named-ops"]
    if fuse_elementwise:
        stages.append("linalg-fuse-elementwise")
    stages += [
        "bufferize",
        f"linalg-tile-and-fuse{{tile-sizes={tile_sizes}}}",
        "convert-linalg-to-loops",
    ]
    return ",".join(stages)


@pytest.mark.parametrize("fuse_elementwise", [False, True], ids=["unfused", "fused"])
@pytest.mark.parametrize(
    ("program", "tile_sizes"),
    [(MATMUL_CHAIN, "8,16"), (MATMUL_CHAIN, "5,7,0"), (SOFTMAX, "4")],
    ids=["matmul-8x16", "matmul-5x7", "softmax-4"],
)
def test_tile_and_fuse_runs_as_c(
    program: str, tile_sizes: str, fuse_elementwise: bool
) -> None:
    module = irkit.parse(program)
    rng = np.random.default_rng(3)
    inputs = [
        rng.uniform(-1, 1, arg.type.get_shape()).astype(np.float32)
        for arg in next(iter(module.ops)).body.block.args
    ]
    compiled = irkit.compile(
        program, target="c", pipeline=_pipeline(tile_sizes, fuse_elementwise)
    )
    got = compiled(*inputs)
    want = irkit.interpret(module, "main", *inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        difference = compare_arrays(w, g)
        assert difference is None, difference.describe()
