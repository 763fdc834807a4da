"""`convert-linalg-to-mma` keeps meaning on the grid emulator, and fires.

Hypothesis draws half-precision matmuls into f32 as torch-mlir writes them
(f16 or bf16 operands widened in the body, B stored (k, n) or (n, k), zero
or more batch loops that A and B may or may not carry, the output a zero fill
or an argument), with extents the kernel's tiles divide, and f32 matmuls of
the same forms for the `tf32` option. The pass rewrites each into a
`gpu.launch` of `mma` ops, and the emulator runs it warp by warp
(`irkit/interpreter/mma.py`): a wrong fragment index, address or copy
ordering shows as a wrong element, poison read, or a race. TF32 products
are compared within `TF32_TOLERANCE` (each operand rounded to 11
significant bits), which a wrong operand passes by far.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.passes import ModulePass

from irkit.analysis.structured import is_contraction
from irkit.context import make_context
from irkit.dialects.mma import (
    CpAsyncOp,
    MbarrierWaitOp,
    SyncOp,
    TmaLoadOp,
    WarpgroupMmaOp,
)
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import TF32_TOLERANCE, assert_pass_preserves_semantics, check_pass
from irkit.transforms.bufferize import BufferizePass
from irkit.transforms.convert_linalg_to_mma import ConvertLinalgToMmaPass
from irkit.transforms.linalg_generalize_named_ops import LinalgGeneralizeNamedOpsPass
from irkit.transforms.pipelines import LowerToCudaPipeline

PASS = ConvertLinalgToMmaPass()
TF32_PASS = ConvertLinalgToMmaPass(tf32=True)
# Exact products, f32 sums in another order than the interpreter's.
TOLERANCE = {"rtol": 1e-4, "atol": 1e-4}
TF32_RTOL, TF32_ATOL = TF32_TOLERANCE
TF32_TOLERANCE_KW = {"rtol": TF32_RTOL, "atol": TF32_ATOL}


EPILOGUES = (
    "bias_gelu",
    "residual_truncf",
    "column_index",
    "product_returned",
    "corner_relu",
)


@st.composite
def half_matmuls(
    draw: st.DrawFn,
    elements: tuple[str, ...] = ("f16", "bf16"),
    epilogues: tuple[str, ...] = (),
    ks: tuple[int, ...] = (),
    partial: bool = False,
) -> str:
    """With `partial`, extents no tile divides: M never a multiple of 16
    (so every kernel has a partial row of blocks), N and K any multiples of
    a 16-byte chunk (4 f32, 8 f16/bf16) that keep operand rows 16-byte
    multiples (N any where B is stored n-major)."""
    element = draw(st.sampled_from(elements))
    chunk = 4 if element == "f32" else 8
    if partial:
        m = draw(st.integers(17, 150).filter(lambda extent: extent % 16 != 0))
        n = draw(st.integers(9, 150))
        k = chunk * draw(st.integers(1, 100 // chunk))
    else:
        m = draw(st.sampled_from([64, 128, 192]))
        n = draw(st.sampled_from([64, 128, 192]))
        default_ks = [8, 16, 24, 32, 48, 64] if element == "f32" else [16, 32, 48, 64]
        k = draw(st.sampled_from(ks or default_ks))
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    a_batched = draw(st.booleans()) if batch else False
    b_batched = draw(st.booleans()) if batch else False
    k_major = draw(st.booleans())
    if partial and k_major:
        n = -(-n // chunk) * chunk  # rows of B (N long) 16-byte multiples
    filled = draw(st.booleans())
    loops = [f"d{i}" for i in range(len(batch) + 3)]
    batch_loops = loops[: len(batch)]
    dm, dn, dk = loops[len(batch) :]

    def shape(dims: list[int]) -> str:
        return "x".join(str(d) for d in dims)

    a_dims = [*(batch if a_batched else []), m, k]
    b_dims = [*(batch if b_batched else []), *((k, n) if k_major else (n, k))]
    c_dims = [*batch, m, n]
    a_type = f"tensor<{shape(a_dims)}x{element}>"
    b_type = f"tensor<{shape(b_dims)}x{element}>"
    c_type = f"tensor<{shape(c_dims)}xf32>"
    domain = f"({', '.join(loops)})"
    a_map = [*(batch_loops if a_batched else []), dm, dk]
    b_map = [*(batch_loops if b_batched else []), *((dk, dn) if k_major else (dn, dk))]
    c_map = [*batch_loops, dm, dn]
    maps = ", ".join(
        f"affine_map<{domain} -> ({', '.join(r)})>" for r in (a_map, b_map, c_map)
    )
    kinds = ", ".join(['"parallel"'] * (len(batch) + 2) + ['"reduction"'])
    args = [f"%a: {a_type}", f"%b: {b_type}"]
    lines = []
    if filled:
        lines += [
            "%zero = arith.constant 0.0 : f32",
            f"%e = tensor.empty() : {c_type}",
            f"%init = linalg.fill ins(%zero : f32) outs(%e : {c_type}) -> {c_type}",
        ]
    else:
        args.append(f"%init: {c_type}")
    widen = (
        ""
        if element == "f32"
        else f"    %xf = arith.extf %x : {element} to f32\n"
        f"    %yf = arith.extf %y : {element} to f32\n"
    )
    x, y = ("%x", "%y") if element == "f32" else ("%xf", "%yf")
    lines.append(
        f"%r = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{kinds}]}} "
        f"ins(%a, %b : {a_type}, {b_type}) outs(%init : {c_type}) {{\n"
        f"  ^bb0(%x: {element}, %y: {element}, %acc: f32):\n"
        f"{widen}"
        f"    %p = arith.mulf {x}, {y} : f32\n"
        "    %s = arith.addf %acc, %p : f32\n"
        "    linalg.yield %s : f32\n"
        f"  }} -> {c_type}"
    )
    results = [("%r", c_type)]
    if epilogues:
        kind = draw(st.sampled_from(epilogues))
        if kind != "none":
            results = _epilogue(kind, element, batch, m, n, args, lines, c_type)
    body = "\n  ".join(lines)
    returned = ", ".join(name for name, _ in results)
    types = ", ".join(type_ for _, type_ in results)
    return (
        f"func.func @main({', '.join(args)}) -> ({types}) {{\n  {body}\n"
        f"  return {returned} : {types}\n}}\n"
    )


def _epilogue(
    kind: str,
    element: str,
    batch: list[int],
    m: int,
    n: int,
    args: list[str],
    lines: list[str],
    c_type: str,
) -> list[tuple[str, str]]:
    """An elementwise consumer of the product `%r`, as torch-mlir writes a
    linear layer's bias and activation, a residual add with the cast back
    to half precision, a use of `linalg.index`, one whose product is
    returned too (then still stored), or a ReLU of the product's leading
    corner (as padding leaves it: guarded by the corner's bounds); appended
    to `lines`, its results returned."""
    rank = len(batch) + 2
    loops = [f"d{i}" for i in range(rank)]
    domain = f"({', '.join(loops)})"
    identity = f"affine_map<{domain} -> ({', '.join(loops)})>"
    kinds = ", ".join(['"parallel"'] * rank)
    corner = kind == "corner_relu"
    # The corner of a padded product: 8 rows and 4 columns short.
    rows, cols = (m - 8, n - 4) if corner else (m, n)
    dims = "x".join(str(d) for d in [*batch, rows, cols])
    out_element = element if kind == "residual_truncf" else "f32"
    out_type = f"tensor<{dims}x{out_element}>"
    ins, maps = ["%r"], [identity]
    types = [c_type]
    if corner:
        zeros = ", ".join(["0"] * rank)
        sizes = ", ".join(str(d) for d in [*batch, rows, cols])
        ones = ", ".join(["1"] * rank)
        corner_type = f"tensor<{dims}xf32>"
        lines.append(
            f"%rc = tensor.extract_slice %r[{zeros}] [{sizes}] [{ones}] : "
            f"{c_type} to {corner_type}"
        )
        ins, types = ["%rc"], [corner_type]
    if kind == "bias_gelu":
        args.append(f"%bias: tensor<{n}xf32>")
        ins.append("%bias")
        types.append(f"tensor<{n}xf32>")
        maps.append(f"affine_map<{domain} -> ({loops[-1]})>")
        body = [
            "^bb0(%c: f32, %t: f32, %o: f32):",
            "  %u = arith.addf %c, %t : f32",
            "  %h = math.tanh %u : f32",
            "  %g = arith.mulf %u, %h : f32",
            "  linalg.yield %g : f32",
        ]
    elif kind == "residual_truncf":
        args.append(f"%res: {c_type}")
        ins.append("%res")
        types.append(c_type)
        maps.append(identity)
        body = [
            f"^bb0(%c: f32, %t: f32, %o: {element}):",
            "  %u = arith.addf %c, %t : f32",
            f"  %h = arith.truncf %u : f32 to {element}",
            f"  linalg.yield %h : {element}",
        ]
    elif corner:
        body = [
            "^bb0(%c: f32, %o: f32):",
            "  %zero_relu = arith.constant 0.0 : f32",
            "  %u = arith.maximumf %c, %zero_relu : f32",
            "  linalg.yield %u : f32",
        ]
    else:
        body = [
            "^bb0(%c: f32, %o: f32):",
            f"  %col = linalg.index {rank - 1} : index",
            "  %i = arith.index_cast %col : index to i32",
            "  %f = arith.sitofp %i : i32 to f32",
            "  %u = arith.addf %c, %f : f32",
            "  linalg.yield %u : f32",
        ]
    lines.append(f"%ee = tensor.empty() : {out_type}")
    lines.append(
        f"%y = linalg.generic {{indexing_maps = [{', '.join([*maps, identity])}], "
        f"iterator_types = [{kinds}]}} ins({', '.join(ins)} : {', '.join(types)}) "
        f"outs(%ee : {out_type}) {{\n  " + "\n  ".join(body) + f"\n  }} -> {out_type}"
    )
    if kind == "product_returned":
        return [("%y", out_type), ("%r", c_type)]
    return [("%y", out_type)]


def _bufferized(text: str) -> ModuleOp:
    """`text` as the pass sees it in `lower-to-cuda`: generic, on buffers."""
    module = parse_module(text)
    LinalgGeneralizeNamedOpsPass().apply(make_context(), module)
    BufferizePass().apply(make_context(), module)
    return module


def test_tensor_core_kernels_keep_meaning_and_fire() -> None:
    reach = check_pass(PASS, half_matmuls().map(_bufferized), **TOLERANCE)
    assert reach.changed == reach.examples


def test_epilogues_run_on_the_accumulators() -> None:
    """Bias and activation, residual and the cast to half precision, an
    index, and a product also returned: the epilogue runs in the kernel
    (no linalg op is left), and the product buffer is stored only when
    something else reads it."""
    programs = half_matmuls(epilogues=EPILOGUES).map(_bufferized)
    # Per-dtype tolerances: a half-precision result may round either way
    # after the reassociated f32 sum.
    reach = check_pass(PASS, programs)
    assert reach.changed == reach.examples


@given(half_matmuls(epilogues=EPILOGUES))
def test_an_epilogue_leaves_no_linalg_op(text: str) -> None:
    module = _bufferized(text)
    PASS.apply(make_context(), module)
    names = [op.name for op in module.walk()]
    assert "linalg.generic" not in names
    stores_product = "%r" in text.split("return")[-1]
    allocations = names.count("memref.alloc")
    # The product's buffer survives only when it is returned too (then an
    # output argument, not an allocation) or initialised by something else.
    assert allocations == 0 or stores_product or "%init:" in text


def test_small_tiles_and_deep_pipelines_keep_meaning() -> None:
    """64x64 blocks with K steps of 16, four copy buffers deep: more blocks,
    more reduction steps than buffers, and a warp tile of one 16-row
    fragment."""
    small = ConvertLinalgToMmaPass(block=(64, 64, 16), stages=4)
    reach = check_pass(small, half_matmuls().map(_bufferized), **TOLERANCE)
    assert reach.changed == reach.examples


@given(half_matmuls())
def test_one_launch_of_mma_ops_replaces_the_matmul(text: str) -> None:
    module = _bufferized(text)
    PASS.apply(make_context(), module)
    names = [op.name for op in module.walk()]
    assert names.count("gpu.launch") == 1
    assert "linalg.generic" not in names or names.count("linalg.generic") == 0
    assert {"mma.sync", "mma.ldmatrix", "mma.cp_async"} <= set(names)


@pytest.mark.parametrize(
    ("warps", "stages"),
    [((2, 2), 4), ((4, 1), 3), ((1, 2), 2)],
    ids=["2x2-warps-4-stages", "4x1-warps-3-stages", "1x2-warps"],
)
def test_other_warp_grids_keep_meaning(warps: tuple[int, int], stages: int) -> None:
    """Other warp grids: 64x64 warp tiles (2 x 2 on 128x128 blocks, copy
    loops of two rounds per thread), a column of four warps, and fewer warps
    than copies need (each thread copies several chunks), with the budget of
    dynamic shared memory so the deep pipelines are kept."""
    grid = ConvertLinalgToMmaPass(warps=warps, stages=stages, max_shared_bytes=232448)
    reach = check_pass(grid, half_matmuls().map(_bufferized), **TOLERANCE)
    assert reach.changed == reach.examples


def f32_matmuls() -> st.SearchStrategy[str]:
    return half_matmuls(("f32",))


def _tf32_products(module: ModuleOp) -> list[bool]:
    """For each `mma.sync` of `module`, whether it is a TF32 product."""
    return [op.rounds_to_tf32 for op in module.walk() if isinstance(op, SyncOp)]


def _all_tf32(module: ModuleOp) -> bool:
    """Whether `module` has `mma.sync` ops, all of them TF32 products."""
    products = _tf32_products(module)
    return bool(products) and all(products)


def test_tf32_kernels_keep_meaning_and_fire() -> None:
    reach = check_pass(
        TF32_PASS, f32_matmuls().map(_bufferized), rtol=TF32_RTOL, atol=TF32_ATOL
    )
    assert reach.changed == reach.examples


def test_tf32_small_tiles_and_other_warp_grids_keep_meaning() -> None:
    """64x64 blocks with K steps of 16 (two 8-deep products a step), four
    copy buffers, 4 x 1 warps: every fragment row and column of the f32
    tiles' plain loads is read by another lane than on 2 x 4 warps."""
    small = ConvertLinalgToMmaPass(
        block=(64, 64, 16), stages=4, warps=(4, 1), tf32=True, max_shared_bytes=232448
    )
    reach = check_pass(
        small, f32_matmuls().map(_bufferized), rtol=TF32_RTOL, atol=TF32_ATOL
    )
    assert reach.changed == reach.examples


@given(f32_matmuls())
def test_f32_matmuls_stay_exact_without_tf32(text: str) -> None:
    """Off by default: an f32 matmul is never rounded to TF32 unless asked."""
    module = _bufferized(text)
    before = str(module)
    PASS.apply(make_context(), module)
    assert str(module) == before


@given(f32_matmuls())
def test_tf32_kernels_use_tf32_products_and_plain_loads(text: str) -> None:
    module = _bufferized(text)
    TF32_PASS.apply(make_context(), module)
    names = [op.name for op in module.walk()]
    assert names.count("gpu.launch") == 1
    assert "linalg.generic" not in names
    assert "mma.ldmatrix" not in names
    assert _all_tf32(module)


@st.composite
def unaligned_f32_matmuls(draw: st.DrawFn) -> tuple[str, int, int, int]:
    """Tensor-level f32 matmuls of extents no tile of 64x64x16 divides (most
    draws), larger than one tile and close enough below a multiple that
    padding at most doubles the iterations (`linalg-pad-contractions` pads
    only those)."""
    m, n = draw(st.integers(100, 128)), draw(st.integers(100, 128))
    k = draw(st.integers(29, 32) | st.integers(45, 48))
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    text = (
        f"func.func @main(%a: {a}, %b: {b}) -> {c} {{\n"
        "  %zero = arith.constant 0.0 : f32\n"
        f"  %e = tensor.empty() : {c}\n"
        f"  %init = linalg.fill ins(%zero : f32) outs(%e : {c}) -> {c}\n"
        f"  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%init : {c}) -> {c}\n"
        f"  return %r : {c}\n}}\n"
    )
    return text, m, n, k


# The pipeline with 64x64 blocks (extents pad to multiples of 64): the
# emulator runs fewer padded elements than with the default 128x128.
ALLOW_TF32 = LowerToCudaPipeline(
    allow_tf32=True, matmul_block=(64, 64, 16), mma_block=(64, 64, 16)
)


@settings(max_examples=6)
@given(unaligned_f32_matmuls(), st.integers(0, 2**16))
def test_lower_to_cuda_with_tf32_keeps_meaning_on_unaligned_matmuls(
    drawn: tuple[str, int, int, int], seed: int
) -> None:
    """Through the whole pipeline, which runs extents no tile divides on
    partial tiles where the rows are 16-byte multiples (K a multiple of 4)
    and pads the others (`linalg-pad-contractions`), run as one
    pass (checking each stage on its own runs scalar loop nests on the
    interpreter: minutes), its kernels on the grid emulator."""
    after = assert_pass_preserves_semantics(
        ALLOW_TF32, drawn[0], trials=1, seed=seed, rtol=TF32_RTOL, atol=TF32_ATOL
    )
    assert _all_tf32(after)


@settings(max_examples=8)
@given(unaligned_f32_matmuls())
def test_lower_to_cuda_takes_the_tf32_path_only_when_allowed(
    drawn: tuple[str, int, int, int],
) -> None:
    text = drawn[0]
    allowed, default = parse_module(text), parse_module(text)
    ALLOW_TF32.apply(make_context(), allowed)
    Pipeline.parse("lower-to-cuda").run(make_context(), default)
    assert _all_tf32(allowed)
    assert not _tf32_products(default)


# Warpgroup products: 128x128 blocks (halved to 64 where 192 needs it: one
# warpgroup, m64n64 products), three stages, the H100's opt-in budget; tiles
# copied by cp.async (TMA's are `TMA_WGMMA_PASS`'s).
WGMMA_PASS = ConvertLinalgToMmaPass(
    wgmma=True,
    wgmma_block=(128, 128),
    stages=3,
    max_shared_bytes=232448,
    tma=False,
)


@dataclass(frozen=True)
class _WarpgroupProductsFire(ModulePass):
    """`WGMMA_PASS`, failing where it left a matmul to the mma.sync kernel:
    every drawn program's K is a multiple of 64, so every one must take
    warpgroup products."""

    name = "test-warpgroup-products-fire"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        WGMMA_PASS.apply(ctx, op)
        assert any(isinstance(inner, WarpgroupMmaOp) for inner in op.walk())
        assert not any(isinstance(inner, SyncOp) for inner in op.walk())


def test_warpgroup_kernels_keep_meaning_and_fire() -> None:
    """f16 and bf16, B stored k-major (panels, `transpose_b`) or n-major,
    batch loops, a fill or an initial output, and the epilogues: the
    emulator reads the swizzled tiles and the m64nN accumulators as the
    hardware does, so a wrong swizzle, K offset or accumulator index shows
    as a wrong element. K up to 5 steps of 64 on 3 buffers: each is reused,
    so a copy into a buffer that products may still read is a race."""
    programs = half_matmuls(epilogues=(*EPILOGUES, "none"), ks=(64, 192, 320))
    reach = check_pass(_WarpgroupProductsFire(), programs.map(_bufferized))
    assert reach.changed == reach.examples


# The same kernels with their tiles copied by the Tensor Memory Accelerator
# (the default): thread 0's `mma.tma_load`s, an mbarrier per stage.
TMA_WGMMA_PASS = replace(WGMMA_PASS, tma=True)


@dataclass(frozen=True)
class _TmaCopiesFire(ModulePass):
    """`TMA_WGMMA_PASS`, failing where a warpgroup kernel's tiles are not
    all copied by TMA."""

    name = "test-tma-copies-fire"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        TMA_WGMMA_PASS.apply(ctx, op)
        ops = list(op.walk())
        assert any(isinstance(inner, WarpgroupMmaOp) for inner in ops)
        assert any(isinstance(inner, TmaLoadOp) for inner in ops)
        assert any(isinstance(inner, MbarrierWaitOp) for inner in ops)
        assert not any(isinstance(inner, CpAsyncOp) for inner in ops)


def test_tma_warpgroup_kernels_keep_meaning_and_fire() -> None:
    """The warpgroup kernels of the test above with TMA copies: the
    emulator lands each box in the swizzled layout only at the mbarrier
    wait that completes its phase (a wait of the wrong phase, or bytes the
    barrier does not expect, never completes: an error), and records the
    copy's writes from its issue, so a copy into a buffer products may still
    read is a race. K up to 5 steps on 3 buffers: every mbarrier runs
    through both parities."""
    programs = half_matmuls(epilogues=("none", "bias"), ks=(64, 192, 320))
    reach = check_pass(_TmaCopiesFire(), programs.map(_bufferized))
    assert reach.changed == reach.examples


def _matmul_into_f32(m: int, n: int, k: int, element: str) -> str:
    """`@main`: a tensor-level `linalg.matmul` of `element` operands (m x k,
    k x n) into a zero-filled f32 m x n."""
    a, b = f"tensor<{m}x{k}x{element}>", f"tensor<{k}x{n}x{element}>"
    c = f"tensor<{m}x{n}xf32>"
    return (
        f"func.func @main(%a: {a}, %b: {b}) -> {c} {{\n"
        "  %zero = arith.constant 0.0 : f32\n"
        f"  %e = tensor.empty() : {c}\n"
        f"  %init = linalg.fill ins(%zero : f32) outs(%e : {c}) -> {c}\n"
        f"  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%init : {c}) -> {c}\n"
        f"  return %r : {c}\n}}\n"
    )


@st.composite
def unaligned_half_matmuls(draw: st.DrawFn) -> str:
    """Tensor-level f16/bf16 matmuls of extents 64 does not divide (most
    draws), close enough below a multiple that padding to 64 at most doubles
    the iterations."""
    element = draw(st.sampled_from(["f16", "bf16"]))
    m, n = draw(st.integers(104, 128)), draw(st.integers(104, 128))
    # Above 64: an extent within one multiple is not padded.
    k = draw(st.integers(116, 128))
    return _matmul_into_f32(m, n, k, element)


# `lower-to-cuda` with warpgroup products, 64x64 blocks (one warpgroup of
# m64n64 products; extents pad to multiples of 64, K too) three stages deep.
WGMMA_PIPELINE = LowerToCudaPipeline(
    wgmma=True,
    wgmma_block=(64, 64),
    matmul_block=(64, 64, 16),
    mma_stages=3,
    max_dynamic_shared_bytes=232448,
)


@settings(max_examples=4)
@given(unaligned_half_matmuls(), st.integers(0, 2**16))
def test_lower_to_cuda_with_wgmma_keeps_meaning_on_unaligned_matmuls(
    text: str, seed: int
) -> None:
    """Through the whole pipeline, which runs the matmul on partial tiles
    (TMA boxes past the edges) where K and N are multiples of 8, and pads
    M, N and K to 64 before the warpgroup kernel otherwise; its kernels on
    the grid emulator."""
    after = assert_pass_preserves_semantics(
        WGMMA_PIPELINE, text, trials=1, seed=seed, **TOLERANCE
    )
    assert any(isinstance(op, WarpgroupMmaOp) for op in after.walk())


# TF32 warpgroup products (m64nNk8 over f32 tiles of 32-element rows):
# the same blocks and stages as `WGMMA_PASS`.
# The 4-byte transposing copies of a k-major B (`tf32-transpose-b=false`);
# the default, B transposed once before the kernel, is
# tests/properties/test_linalg_tile_transposes_for_gpu.py's.
TF32_WGMMA_PASS = replace(WGMMA_PASS, tf32=True, tf32_transpose_b=False)


@dataclass(frozen=True)
class _Tf32WarpgroupProductsFire(ModulePass):
    """`TF32_WGMMA_PASS`, failing where it left a matmul to the mma.sync
    kernel: every drawn K is a multiple of 32 (one 128-byte row of f32),
    so every matmul must take TF32 warpgroup products."""

    name = "test-tf32-warpgroup-products-fire"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        TF32_WGMMA_PASS.apply(ctx, op)
        products = [inner for inner in op.walk() if isinstance(inner, WarpgroupMmaOp)]
        assert products
        assert all(product.reads_tf32 for product in products)
        assert not any(isinstance(inner, SyncOp) for inner in op.walk())


def test_tf32_warpgroup_kernels_keep_meaning_and_fire() -> None:
    """f32 matmuls with `tf32` and `wgmma`: B stored n-major (rows copied
    as A's) or k-major (copied element by element into the K-major tile
    the TF32 products need, PTX having no transposed 32-bit B), batch
    loops, a fill or an initial output, the epilogues (but the cast to
    half precision); K up to 5 steps of
    32 on 3 buffers. The emulator truncates the operands to TF32 as the
    tensor cores do: within `TF32_TOLERANCE`, which a wrong transpose, K
    advance or swizzle passes by far."""
    f32_epilogues = tuple(kind for kind in EPILOGUES if kind != "residual_truncf")
    programs = half_matmuls(
        ("f32",), epilogues=(*f32_epilogues, "none"), ks=(32, 96, 160)
    )
    reach = check_pass(
        _Tf32WarpgroupProductsFire(),
        programs.map(_bufferized),
        rtol=TF32_RTOL,
        atol=TF32_ATOL,
    )
    assert reach.changed == reach.examples


def test_tf32_warpgroup_copies_with_three_warpgroups() -> None:
    """192-row blocks: 12 warps, which the 8 k chunks of a 32-element row
    do not divide (nor they it), so each transposing copy's block is
    divided out of its index and the last round (of 64 blocks, 12 a
    round) is guarded; the matmul still takes TF32 warpgroup products."""
    a, b, c = "tensor<192x64xf32>", "tensor<64x64xf32>", "tensor<192x64xf32>"
    text = (
        f"func.func @main(%a: {a}, %b: {b}) -> {c} {{\n"
        "  %zero = arith.constant 0.0 : f32\n"
        f"  %e = tensor.empty() : {c}\n"
        f"  %f = linalg.fill ins(%zero : f32) outs(%e : {c}) -> {c}\n"
        f"  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}\n"
        f"  return %r : {c}\n}}\n"
    )
    three = replace(TF32_WGMMA_PASS, wgmma_block=(192, 64))
    after = assert_pass_preserves_semantics(
        three, str(_bufferized(text)), trials=1, rtol=TF32_RTOL, atol=TF32_ATOL
    )
    products = [op for op in after.walk() if isinstance(op, WarpgroupMmaOp)]
    assert products
    assert all(op.reads_tf32 for op in products)


@st.composite
def unaligned_tf32_matmuls(draw: st.DrawFn) -> str:
    """Tensor-level f32 matmuls of extents 64 does not divide (most draws),
    K padded to 64 (two steps of 32): padding grows the iterations by at
    most 1.5x, within the bound."""
    m, n = draw(st.integers(112, 128)), draw(st.integers(112, 128))
    k = draw(st.integers(57, 64))
    return _matmul_into_f32(m, n, k, "f32")


@settings(max_examples=3)
@given(unaligned_tf32_matmuls(), st.integers(0, 2**16))
def test_lower_to_cuda_with_wgmma_and_tf32_keeps_meaning(text: str, seed: int) -> None:
    """`lower-to-cuda{wgmma allow-tf32}` whole (as `irkit.compile(...,
    allow_tf32=True)` on sm_90a): the f32 matmul (on partial tiles where K
    is a multiple of 4, else padded) runs as TF32
    warpgroup products, B transposed once by a tiled transpose kernel
    (`linalg-tile-transposes-for-gpu`), on the emulator."""
    pipeline = replace(WGMMA_PIPELINE, allow_tf32=True)
    after = assert_pass_preserves_semantics(
        pipeline, text, trials=1, seed=seed, rtol=TF32_RTOL, atol=TF32_ATOL
    )
    products = [op for op in after.walk() if isinstance(op, WarpgroupMmaOp)]
    assert products
    assert all(op.reads_tf32 for op in products)


# --------------------------------------------------------------------------
# Partial tiles (`partial-tiles`): extents no tile divides, no padding
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _PartialTilesFire(ModulePass):
    """`kernel` with `partial-tiles`, failing where the partial-tile path
    did not fire: every drawn M is a partial tile, so every matmul must be
    a kernel with zero-filling copies (TMA boxes, which zero-fill past the
    operands by themselves, with `tma`; and with `wgmma`, warpgroup
    products); no contraction is left (a TF32 B's transposing generic
    may be)."""

    kernel: ConvertLinalgToMmaPass
    name = "test-partial-tiles-fire"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        replace(self.kernel, partial_tiles=True).apply(ctx, op)
        assert not any(
            isinstance(inner, GenericOp) and is_contraction(inner)
            for inner in op.walk()
        )
        if self.kernel.wgmma and self.kernel.tma:
            assert any(isinstance(inner, TmaLoadOp) for inner in op.walk())
        else:
            assert any(
                isinstance(inner, CpAsyncOp) and inner.valid_bytes is not None
                for inner in op.walk()
            )
        if self.kernel.wgmma:
            assert any(isinstance(inner, WarpgroupMmaOp) for inner in op.walk())
            assert not any(isinstance(inner, SyncOp) for inner in op.walk())


# Small blocks: fewer emulated threads and elements per drawn program.
PARTIAL_SYNC = ConvertLinalgToMmaPass(block=(64, 64, 32), warps=(2, 2), stages=3)
PARTIAL_WGMMA = replace(WGMMA_PASS, wgmma_block=(64, 64))


@pytest.mark.parametrize(
    ("kernel", "elements", "tolerance"),
    [
        # Per-dtype tolerances: the epilogue's cast to half precision may
        # round either way after the reassociated f32 sum.
        (PARTIAL_SYNC, ("f16", "bf16"), {}),
        (replace(PARTIAL_SYNC, tf32=True), ("f32",), TF32_TOLERANCE_KW),
        (PARTIAL_WGMMA, ("f16", "bf16"), {}),
        (replace(PARTIAL_WGMMA, tma=True), ("f16", "bf16"), {}),
        # B k-major: transposed once into B's own N x K by a generic (run
        # by the interpreter here), read by zero-filling 16-byte copies.
        (replace(PARTIAL_WGMMA, tf32=True), ("f32",), TF32_TOLERANCE_KW),
    ],
    ids=["mma-sync", "mma-sync-tf32", "wgmma", "wgmma-tma", "wgmma-tf32"],
)
def test_partial_tiles_keep_meaning_and_fire(
    kernel: ConvertLinalgToMmaPass,
    elements: tuple[str, ...],
    tolerance: dict[str, float],
) -> None:
    """Random M, N and K that no tile divides (M never does), B either way,
    batches, a fill or an initial output, the epilogues (a corner's among
    them): the rows, columns and K steps past the operands' edges are
    copied as zeros (a copy that read its clamped address instead adds
    another row's products), the stores past the output's are skipped
    (else out of bounds), on the grid emulator."""
    epilogues = (*EPILOGUES, "none") if elements != ("f32",) else ("none",)
    programs = half_matmuls(elements, epilogues=epilogues, partial=True)
    reach = check_pass(
        _PartialTilesFire(kernel), programs.map(_bufferized), **tolerance
    )
    assert reach.changed == reach.examples


@st.composite
def partial_matmuls_for_lower_to_cuda(draw: st.DrawFn) -> str:
    """Tensor-level f16, bf16 or f32 matmuls whose extents 64 does not
    divide, with rows of 16-byte multiples (K and N multiples of 8, or 4 in
    f32): what `lower-to-cuda` now runs on partial tiles, unpadded."""
    element = draw(st.sampled_from(["f16", "bf16", "f32"]))
    chunk = 4 if element == "f32" else 8
    m = draw(st.integers(65, 127))
    n = chunk * draw(st.integers(65 // chunk + 1, 127 // chunk))
    k = chunk * draw(st.integers(1, 80 // chunk))
    return _matmul_into_f32(m, n, k, element)


@settings(max_examples=4)
@given(partial_matmuls_for_lower_to_cuda(), st.integers(0, 2**16))
def test_lower_to_cuda_runs_partial_tiles_unpadded(text: str, seed: int) -> None:
    """`lower-to-cuda{wgmma allow-tf32}` whole (the TF32 path with its
    default, B transposed once into an N x K buffer of B's own extents;
    f16/bf16 with TMA copies): the matmul takes warpgroup products on
    partial tiles, with zero-filling copies (or TMA boxes) and no padded
    buffer, and keeps its meaning on the emulator."""
    pipeline = replace(WGMMA_PIPELINE, allow_tf32=True)
    tolerance = TF32_TOLERANCE_KW if "xf32>, %b" in text else {}
    after = assert_pass_preserves_semantics(
        pipeline, text, trials=1, seed=seed, **tolerance
    )
    ops = list(after.walk())
    assert any(isinstance(op, WarpgroupMmaOp) for op in ops)
    assert any(
        isinstance(op, TmaLoadOp)
        or (isinstance(op, CpAsyncOp) and op.valid_bytes is not None)
        for op in ops
    )
    assert not any(op.name == "memref.copy" for op in ops)
    assert not any(
        op.name == "memref.alloc" and op.results[0].name_hint == "padded" for op in ops
    )
