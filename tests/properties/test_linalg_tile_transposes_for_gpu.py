"""`linalg-tile-transposes-for-gpu` keeps meaning: random permutations of
rank 2 and 3 (f32, f16, i32; extents the tile divides and extents it does
not: ragged edge tiles), as copies or with a cast, a scale, a residual or
`linalg.index` fused in, run on the grid emulator after the GPU lowering
(which checks the barrier between the tile's two phases and races on the
workgroup tile) against the interpreter; the rewrite is asserted on every
drawn program. And `convert-linalg-to-mma{tf32 wgmma}` on a row-major B:
the transposed copy it makes is what the TF32 warpgroup products read."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.passes import ModulePass

from irkit.context import make_context
from irkit.dialects.gpu import is_workgroup_memref
from irkit.dialects.mma import CpAsyncOp, WarpgroupMmaOp
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import TF32_TOLERANCE, assert_pass_preserves_semantics, check_pass
from irkit.transforms.convert_linalg_to_mma import ConvertLinalgToMmaPass
from irkit.transforms.linalg_tile_transposes_for_gpu import (
    LinalgTileTransposesForGpuPass,
)

TILE = LinalgTileTransposesForGpuPass(tile=8, rows=2)
TILE_PIPELINE = "linalg-tile-transposes-for-gpu{tile=8 rows=2}"
GPU_LOWERING = (
    "convert-linalg-to-loops,fold-memref-alias-ops,convert-parallel-loops-to-gpu"
)
_FLOAT = {"f32", "f16"}


def _map(loops: int, results: list[int]) -> str:
    dims = ", ".join(f"d{i}" for i in range(loops))
    return f"affine_map<({dims}) -> ({', '.join(f'd{r}' for r in results)})>"


def _memref(shape: tuple[int, ...], element: str) -> str:
    return f"memref<{'x'.join(map(str, shape))}x{element}>"


@st.composite
def transposes(draw: st.DrawFn) -> str:
    """A `linalg.generic` on buffers whose input is read through a
    permutation with another innermost loop than the output's, with a body
    drawn from: a copy, a cast, a scale, a residual add, an index add."""
    rank = draw(st.integers(2, 3))
    shape = tuple(draw(st.integers(2, 19)) for _ in range(rank))
    permutation = draw(st.permutations(range(rank)).filter(lambda p: p[-1] != rank - 1))
    element = draw(st.sampled_from(["f32", "f16", "i32"]))
    kind = draw(st.sampled_from(["copy", "cast", "scale", "residual", "index"]))
    source_shape = tuple(shape[p] for p in permutation)
    result = (
        {"f32": "f16", "f16": "f32", "i32": "f32"}[element]
        if kind == "cast"
        else element
    )
    inputs = [("%x", source_shape, element, list(permutation))]
    if kind == "residual":
        inputs.append(("%r", shape, element, list(range(rank))))
    add = "arith.addf" if element in _FLOAT else "arith.addi"
    body = {
        "copy": ["linalg.yield %a : {e}"],
        "cast": [
            {
                "f32": "%c = arith.truncf %a : f32 to f16",
                "f16": "%c = arith.extf %a : f16 to f32",
                "i32": "%c = arith.sitofp %a : i32 to f32",
            }[element],
            "linalg.yield %c : {r}",
        ],
        "scale": [
            "%s = arith.constant 3 : {e}"
            if element == "i32"
            else "%s = arith.constant 2.5 : {e}",
            (
                "%m = arith.muli %a, %s : {e}"
                if element == "i32"
                else "%m = arith.mulf %a, %s : {e}"
            ),
            "linalg.yield %m : {e}",
        ],
        "residual": [f"%m = {add} %a, %b : {{e}}", "linalg.yield %m : {e}"],
        "index": [
            f"%i = linalg.index {rank - 1} : index",
            "%w = arith.index_cast %i : index to i32",
            *(["%v = arith.sitofp %w : i32 to {e}"] if element in _FLOAT else []),
            f"%m = {add} %a, {'%v' if element in _FLOAT else '%w'} : {{e}}",
            "linalg.yield %m : {e}",
        ],
    }[kind]
    args = ", ".join(f"{name}: {_memref(s, e)}" for name, s, e, _ in inputs)
    block_args = ", ".join(
        f"{name}: {e}" for name, (_, _, e, _) in zip(["%a", "%b"], inputs, strict=False)
    )
    maps = [_map(rank, m) for _, _, _, m in inputs] + [_map(rank, list(range(rank)))]
    out = _memref(shape, result)
    kinds = ", ".join(['"parallel"'] * rank)
    lines = [
        f"func.func @main({args}, %y: {out} {{irkit.output}}) {{",
        f"  linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = "
        f"[{kinds}]}} "
        f"ins({', '.join(n for n, *_ in inputs)} : "
        f"{', '.join(_memref(s, e) for _, s, e, _ in inputs)}) outs(%y : {out}) {{",
        f"  ^bb0({block_args}, %o: {result}):",
        *(f"    {line.format(e=element, r=result)}" for line in body),
        "  }",
        "  return",
        "}",
    ]
    return "\n".join(lines)


@settings(max_examples=12)
@given(transposes(), st.integers(0, 2**16))
def test_transposes_keep_meaning_on_the_grid_emulator(text: str, seed: int) -> None:
    module = parse_module(text, make_context())
    Pipeline([TILE]).run(make_context(), module)
    # Fired: the op became one block forall with a workgroup tile.
    assert not any(isinstance(op, GenericOp) for op in module.walk())
    assert any(
        is_workgroup_memref(result.type)
        for op in module.walk()
        for result in op.results
    )
    assert_pass_preserves_semantics(
        f"{TILE_PIPELINE},{GPU_LOWERING}",
        text,
        trials=1,
        seed=seed,
    )


def test_nn_transposes_keep_meaning_through_lower_to_cuda() -> None:
    """Random `nn` programs with transposes, through `lower-to-cuda`'s front
    end, the pass and the GPU lowering: whatever fusion made of them."""
    from irkit.testing import nn_programs
    from irkit.testing.strategies import lowered

    front_end = (
        "convert-nn-to-linalg,linalg-generalize-named-ops,"
        "linalg-fuse-elementwise,bufferize"
    )
    programs = nn_programs(
        max_ops=2, ops={"nn.transpose", "nn.add", "nn.mul", "nn.exp"}, max_dim=9
    )
    check_pass(
        f"{TILE_PIPELINE},{GPU_LOWERING}", lowered(programs, front_end), min_fired=1
    )


@dataclass(frozen=True)
class _Tf32ProductsReadBTransposed(ModulePass):
    """`convert-linalg-to-mma{tf32 wgmma}` (B transposed first, the default),
    failing unless the matmul took TF32 warpgroup products reading 16-byte
    copies of an N x K buffer, no 4-byte element copies."""

    name = "test-tf32-products-read-b-transposed"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ConvertLinalgToMmaPass(
            tf32=True,
            wgmma=True,
            wgmma_block=(64, 64),
            stages=3,
            max_shared_bytes=232448,
        ).apply(ctx, op)
        assert any(isinstance(inner, WarpgroupMmaOp) for inner in op.walk())
        copies = [inner for inner in op.walk() if isinstance(inner, CpAsyncOp)]
        assert copies
        assert all(copy.bytes is None for copy in copies)
        assert any(r.name_hint == "b_transposed" for o in op.walk() for r in o.results)


@st.composite
def row_major_f32_matmuls(draw: st.DrawFn) -> ModuleOp:
    m, n = draw(st.sampled_from([64, 128])), draw(st.sampled_from([64, 128]))
    k = draw(st.sampled_from([32, 64]))
    batch = draw(st.sampled_from([(), (2,)]))
    lead = "".join(f"{b}x" for b in batch)
    a, b, c = (f"memref<{lead}{x}xf32>" for x in (f"{m}x{k}", f"{k}x{n}", f"{m}x{n}"))
    loops = len(batch) + 3
    bl = [f"d{i}" for i in range(len(batch))]
    mi, ni, ki = (f"d{len(batch) + i}" for i in range(3))
    dims = ", ".join(f"d{i}" for i in range(loops))

    def amap(results: list[str]) -> str:
        return f"affine_map<({dims}) -> ({', '.join(results)})>"

    kinds = ", ".join(['"parallel"'] * (loops - 1) + ['"reduction"'])
    out_dims = ", ".join(f"d{i}" for i in range(loops - 1))
    fill_kinds = ", ".join(['"parallel"'] * (loops - 1))
    text = (
        f"func.func @main(%a: {a}, %b: {b}, %c: {c} {{irkit.output}}) {{\n"
        "  %zero = arith.constant 0.0 : f32\n"
        f"  linalg.generic {{indexing_maps = [affine_map<({out_dims}) -> ()>, "
        f"affine_map<({out_dims}) -> ({out_dims})>], iterator_types = [{fill_kinds}]}} "
        f"ins(%zero : f32) outs(%c : {c}) {{\n"
        "  ^bb0(%z: f32, %o: f32):\n    linalg.yield %z : f32\n  }\n"
        f"  linalg.generic {{indexing_maps = [{amap([*bl, mi, ki])}, "
        f"{amap([*bl, ki, ni])}, {amap([*bl, mi, ni])}], iterator_types = [{kinds}]}} "
        f"ins(%a, %b : {a}, {b}) outs(%c : {c}) {{\n"
        "  ^bb0(%x: f32, %y: f32, %acc: f32):\n"
        "    %p = arith.mulf %x, %y : f32\n"
        "    %s = arith.addf %acc, %p : f32\n"
        "    linalg.yield %s : f32\n"
        "  }\n  return\n}\n"
    )
    return parse_module(text, make_context())


def test_tf32_warpgroup_products_read_b_transposed_once() -> None:
    rtol, atol = TF32_TOLERANCE
    reach = check_pass(
        _Tf32ProductsReadBTransposed(), row_major_f32_matmuls(), rtol=rtol, atol=atol
    )
    assert reach.changed == reach.examples
