"""`linalg-tile-and-fuse` keeps meaning: random bufferized programs vs fused tiles.

Programs come from `nn_programs` (ops with projected-permutation maps, so
matmuls and reductions with elementwise producers and epilogues) and from
`linalg_programs`, bufferized with and without `linalg-fuse-elementwise` (so
that elementwise producers are left for this pass to fuse). Tile sizes are
drawn per loop: 0 (untiled), 1, sizes that do or do not divide the range,
and sizes larger than it.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import assert_pass_preserves_semantics
from irkit.testing.strategies import linalg_programs, lowered, nn_programs
from irkit.transforms.linalg_tile_and_fuse import LinalgTileAndFusePass

MAX_DIM = 5

FUSABLE_NN_OPS = {
    "nn.add",
    "nn.mul",
    "nn.exp",
    "nn.tanh",
    "nn.relu",
    "nn.matmul",
    "nn.reduce_sum",
    "nn.reduce_max",
    "nn.softmax",
    "nn.transpose",
    "nn.broadcast_to",
}

TO_BUFFERS = "convert-nn-to-linalg,linalg-generalize-named-ops,bufferize"
TO_FUSED_BUFFERS = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,bufferize"
)

# Small sizes most often, so that most loops are really tiled.
tile_size = st.one_of(st.integers(1, 3), st.just(0), st.integers(1, MAX_DIM + 2))
tile_sizes = st.tuples(tile_size, tile_size, tile_size)
kinds = st.sampled_from(["parallel", "forall"])


@given(
    st.one_of(
        lowered(
            nn_programs(max_ops=4, ops=FUSABLE_NN_OPS, max_dim=MAX_DIM), TO_BUFFERS
        ),
        lowered(
            nn_programs(max_ops=4, ops=FUSABLE_NN_OPS, max_dim=MAX_DIM),
            TO_FUSED_BUFFERS,
        ),
    ),
    tile_sizes,
    kinds,
)
def test_tile_and_fuse_nn_programs_keeps_meaning(
    program: ModuleOp, sizes: tuple[int, ...], parallel: str
) -> None:
    pass_ = LinalgTileAndFusePass(tile_sizes=sizes, parallel=parallel)
    assert_pass_preserves_semantics(pass_, program, trials=1)


@given(lowered(linalg_programs(max_ops=3, max_dim=MAX_DIM), "bufferize"), tile_sizes)
def test_tile_and_fuse_linalg_programs_keeps_meaning(
    program: ModuleOp, sizes: tuple[int, ...]
) -> None:
    assert_pass_preserves_semantics(
        LinalgTileAndFusePass(tile_sizes=sizes), program, trials=1
    )


def _tensor(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{size}x" for size in shape) + "f32>"


@st.composite
def chains(draw: st.DrawFn) -> str:
    """Elementwise producers -> a matmul or a row reduction -> epilogues.

    The shape random programs rarely have, and the one tile-and-fuse is for.
    """
    rows, inner, cols = (draw(st.integers(1, MAX_DIM)) for _ in range(3))
    unary = st.sampled_from(["nn.exp", "nn.tanh", "nn.relu", "nn.neg"])
    lhs = (rows, inner)
    lines: list[str] = []
    value = "%a"
    for index in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            op = draw(unary)
            lines.append(f"%p{index} = {op} {value} : {_tensor(lhs)} -> {_tensor(lhs)}")
        else:
            lines.append(
                f"%p{index} = nn.mul {value}, %x : {_tensor(lhs)}, {_tensor(lhs)}"
                f" -> {_tensor(lhs)}"
            )
        value = f"%p{index}"
    if draw(st.booleans()):
        out: tuple[int, ...] = (rows, cols)
        lines.append(
            f"%r = nn.matmul {value}, %b : {_tensor(lhs)}, {_tensor((inner, cols))}"
            f" -> {_tensor(out)}"
        )
        bias: tuple[int, ...] = (cols,)
    else:
        op = draw(st.sampled_from(["nn.reduce_sum", "nn.reduce_max"]))
        out = (rows, 1)
        lines.append(
            f"%r = {op} {value} axes [1] keepdims : {_tensor(lhs)} -> {_tensor(out)}"
        )
        bias = (1,)
    value = "%r"
    for index in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            op = draw(unary)
            lines.append(f"%e{index} = {op} {value} : {_tensor(out)} -> {_tensor(out)}")
        else:
            lines.append(
                f"%e{index} = nn.add {value}, %bias : {_tensor(out)}, {_tensor(bias)}"
                f" -> {_tensor(out)}"
            )
        value = f"%e{index}"
    arguments = (
        f"%a: {_tensor(lhs)}, %x: {_tensor(lhs)}, %b: {_tensor((inner, cols))}, "
        f"%bias: {_tensor(bias)}"
    )
    body = "\n  ".join([*lines, f"return {value} : {_tensor(out)}"])
    return f"func.func @main({arguments}) -> {_tensor(out)} {{\n  {body}\n}}\n"


@given(chains(), st.sampled_from([TO_BUFFERS, TO_FUSED_BUFFERS]), tile_sizes, kinds)
def test_tile_and_fuse_chains_keeps_meaning(
    program: str, pipeline: str, sizes: tuple[int, ...], parallel: str
) -> None:
    module = parse_module(program)
    Pipeline.parse(pipeline).run(make_context(), module)
    pass_ = LinalgTileAndFusePass(tile_sizes=sizes, parallel=parallel)
    assert_pass_preserves_semantics(pass_, module, trials=1)


MATMUL_CHAIN = """
func.func @main(%a: tensor<7x5xf32>, %b: tensor<5x6xf32>, %x: tensor<7x5xf32>,
                %bias: tensor<6xf32>) -> tensor<7x6xf32> {
  %e = nn.exp %a : tensor<7x5xf32> -> tensor<7x5xf32>
  %s = nn.mul %e, %x : tensor<7x5xf32>, tensor<7x5xf32> -> tensor<7x5xf32>
  %c = nn.matmul %s, %b : tensor<7x5xf32>, tensor<5x6xf32> -> tensor<7x6xf32>
  %d = nn.add %c, %bias : tensor<7x6xf32>, tensor<6xf32> -> tensor<7x6xf32>
  %r = nn.relu %d : tensor<7x6xf32> -> tensor<7x6xf32>
  return %r : tensor<7x6xf32>
}
"""


@given(st.integers(2, 6), st.integers(2, 5), kinds)
def test_matmul_chain_fuses_into_one_loop(rows: int, cols: int, parallel: str) -> None:
    """Producers, the accumulator's fill and the epilogue all join the matmul.

    Sizes below the ranges (7 rows, 6 columns) tile both parallel loops; the
    reduction is untiled, so the epilogue may join and no full-size
    intermediate buffer is left.
    """
    module = parse_module(MATMUL_CHAIN)
    Pipeline.parse(TO_BUFFERS).run(make_context(), module)
    pass_ = LinalgTileAndFusePass(tile_sizes=(rows, cols, 0), parallel=parallel)
    fused = assert_pass_preserves_semantics(pass_, module, trials=1)
    loops = [op for op in fused.walk() if op.name in ("scf.parallel", "scf.forall")]
    assert len(loops) == 1
    assert not [op for op in fused.walk() if op.name == "memref.alloc"]
