"""irkit as other tools see it: the xdsl.universe entry point, upstream passes."""

from __future__ import annotations

from xdsl.universe import Universe

import irkit
from irkit.pass_manager import Pipeline

NN_PROGRAM = """\
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %x = nn.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %y = nn.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %dead = nn.exp %a : tensor<4x8xf32>
  %z = nn.mul %x, %y : tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
"""


def test_universe_offers_nn_to_xdsl_opt() -> None:
    multiverse = Universe.get_multiverse()
    nn = multiverse.all_dialects["nn"]()
    assert "nn.add" in {op.name for op in nn.operations}
    # irkit's extensions of upstream dialects stay inside irkit's own tools.
    assert multiverse.all_dialects["linalg"]().name == "linalg"


def test_upstream_passes_work_on_nn() -> None:
    module = irkit.parse(NN_PROGRAM)
    Pipeline.parse("canonicalize,cse").run(irkit.make_context(), module)
    text = str(module)
    assert text.count("nn.add") == 1  # cse merged the duplicate
    assert "nn.exp" not in text  # unused pure op removed
    assert "nn.mul %x, %x" in text
