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
from xdsl.ir import Operation

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


# --------------------------------------------------------------------------
# Ops between the fused ones
# --------------------------------------------------------------------------

# What may sit between a producer and its consumer (or between a root and its
# epilogue), by what it does to `%scratch`, the buffer both moved ops read:
# writing it (a copy, one store, a loop of stores, a call: the last two of
# unknown memory effects, reading and writing all their operands) forbids
# the move; reading it, or touching only `%other`, does not.
NEIGHBOURS: dict[str, tuple[bool, str]] = {
    "nothing": (True, ""),
    "copy-from": (True, "memref.copy %scratch, %other : {t} to {t}"),
    "load": (True, "%loaded = memref.load %scratch[%c0, %c0] : {t}"),
    "fill-other": (True, "linalg.fill ins(%zero : f32) outs(%other : {t})"),
    "loop-on-other": (True, "{loop_other}"),
    "call-on-other": (True, "func.call @touch(%other) : ({t}) -> ()"),
    "copy-into": (False, "memref.copy %b, %scratch : {t} to {t}"),
    "store-one": (False, "memref.store %half, %scratch[%c0, %c0] : {t}"),
    "loop-on-scratch": (False, "{loop_scratch}"),
    "call-on-scratch": (False, "func.call @touch(%scratch) : ({t}) -> ()"),
}


def _store_loop(buffer: str, rows: int, cols: int, t: str) -> str:
    """An `scf.for` nest storing 0.5 over all of `buffer`."""
    return (
        "scf.for %i = %c0 to %rows step %c1 {\n"
        "    scf.for %j = %c0 to %cols step %c1 {\n"
        f"      memref.store %half, {buffer}[%i, %j] : {t}\n"
        "    }\n  }"
    )


def neighbour_text(rows: int, cols: int, neighbour: str, after_root: bool) -> str:
    """A producer (exp of `%scratch`), a row reduction consuming it (sums of
    exp(s) * s), and an epilogue reading the reduction's output (s - sum),
    with the op `NEIGHBOURS[neighbour]` between the producer and the root,
    or between the root and the epilogue."""
    t = f"memref<{rows}x{cols}xf32>"
    v = f"memref<{rows}xf32>"
    d2 = "affine_map<(d0, d1) -> (d0, d1)>"
    row = "affine_map<(d0, d1) -> (d0)>"
    between = NEIGHBOURS[neighbour][1].format(
        t=t,
        loop_other=_store_loop("%other", rows, cols, t),
        loop_scratch=_store_loop("%scratch", rows, cols, t),
    )
    before, after = ("", between) if after_root else (between, "")
    return f"""
func.func private @touch(%m: {t}) {{
  %c0 = arith.constant 0 : index
  %v = arith.constant 0.25 : f32
  memref.store %v, %m[%c0, %c0] : {t}
  return
}}
func.func @main(%a: {t}, %b: {t}, %sums: {v} {{irkit.output}}, %scaled: {t} {{irkit.output}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant {rows} : index
  %cols = arith.constant {cols} : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  linalg.fill ins(%zero : f32) outs(%sums : {v})
  %scratch = memref.alloc() : {t}
  memref.copy %a, %scratch : {t} to {t}
  %other = memref.alloc() : {t}
  linalg.fill ins(%zero : f32) outs(%other : {t})
  %p = memref.alloc() : {t}
  linalg.generic {{indexing_maps = [{d2}, {d2}], iterator_types = ["parallel", "parallel"]}} ins(%scratch : {t}) outs(%p : {t}) {{
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }}
  {before}
  linalg.generic {{indexing_maps = [{d2}, {d2}, {row}], iterator_types = ["parallel", "reduction"]}} ins(%p, %scratch : {t}, {t}) outs(%sums : {v}) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }}
  {after}
  linalg.generic {{indexing_maps = [{row}, {d2}, {d2}], iterator_types = ["parallel", "parallel"]}} ins(%sums, %scratch : {v}, {t}) outs(%scaled : {t}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.subf %y, %x : f32
    linalg.yield %d : f32
  }}
  memref.dealloc %p : {t}
  memref.dealloc %other : {t}
  memref.dealloc %scratch : {t}
  return
}}
"""


def _loop_holding(module: ModuleOp, op_name: str) -> Operation | None:
    """The outermost tile loop around the first `op_name`, if any."""
    for op in module.walk():
        if op.name == op_name:
            found = None
            parent = op.parent_op()
            while parent is not None:
                if parent.name in ("scf.parallel", "scf.forall"):
                    found = parent
                parent = parent.parent_op()
            return found
    return None


def test_fusion_never_passes_over_a_writer_of_what_it_reads() -> None:
    """Both sides of `_passes_over`: a producer or an epilogue moves over
    ops that leave what it reads alone (and does, on some drawn programs),
    never over one that writes it or whose effects are unknown; and the
    program computes the same either way."""
    fused = {"producer": 0, "epilogue": 0, "refused": 0}

    @given(
        rows=st.integers(2, MAX_DIM),
        cols=st.integers(1, MAX_DIM),
        neighbour=st.sampled_from(sorted(NEIGHBOURS)),
        after_root=st.booleans(),
        row_tile=st.integers(1, 3),
        col_tile=st.sampled_from([0, 0, 0, 2]),
    )
    def check(
        rows: int,
        cols: int,
        neighbour: str,
        after_root: bool,
        row_tile: int,
        col_tile: int,
    ) -> None:
        text = neighbour_text(rows, cols, neighbour, after_root)
        # Fewer rows per tile than rows: a tile loop to fuse into.
        row_tile = min(row_tile, rows - 1)
        pass_ = LinalgTileAndFusePass(tile_sizes=(row_tile, col_tile))
        after = assert_pass_preserves_semantics(pass_, text, entry="main", trials=1)
        root = _loop_holding(after, "arith.mulf")
        assert root is not None
        moved = "epilogue" if after_root else "producer"
        moved_op = "arith.subf" if after_root else "math.exp"
        if _loop_holding(after, moved_op) is root:
            assert NEIGHBOURS[neighbour][0], f"{moved} fused over {neighbour}"
            fused[moved] += 1
        elif not NEIGHBOURS[neighbour][0]:
            fused["refused"] += 1

    check()
    # Not vacuous: each kind of move happened over some harmless neighbour,
    # and some moves met a neighbour that forbids them.
    assert fused["producer"] > 0
    assert fused["epilogue"] > 0
    assert fused["refused"] > 0
