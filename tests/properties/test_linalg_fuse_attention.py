"""`linalg-fuse-attention` keeps meaning up to reassociation, and fires.

Hypothesis draws attention as torch-mlir writes it, on tensors: batched
scores `q k^T`, an optional modifier (a scale; a causal mask from
`linalg.index`; a boolean mask argument through `arith.select`), a row
softmax (max, `exp(x - max)`, sum, divide), over the scores' own shape or
over rows collapsed to two dimensions with `tensor.collapse_shape` as
`linalg-collapse-dims` leaves them, then `p v`. Each is bufferized, then
fused with small blocks (rows and keys of 2 or 4), and compared on the
interpreter with a tolerance for the online softmax's reassociated sums; the
whole GPU lowering runs on the grid emulator too.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

import irkit
from irkit.analysis.gpu_mapping import is_block_forall
from irkit.context import make_context
from irkit.dialects.scf import ForallOp
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import (
    assert_pass_preserves_semantics,
    check_pass,
    compare_arrays,
    random_arguments,
)
from irkit.testing.compare import TOLERANCES
from irkit.transforms.bufferize import BufferizePass
from irkit.transforms.linalg_fuse_attention import LinalgFuseAttentionPass
from irkit.transforms.linalg_generalize_named_ops import (
    LinalgGeneralizeNamedOpsPass,
)

OPTIONS = "block-rows=4 block-keys=4 threads=16 threads-x=4 min-block=1"
PASS = LinalgFuseAttentionPass(
    block_rows=4, block_keys=4, threads=16, threads_x=4, min_block=1
)
# The online softmax rescales its sums once per block of keys: f32 rounding
# differs by a few ulps.
RTOL, ATOL = 1e-4, 1e-5

_ROW3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
_ROWS3 = "affine_map<(d0, d1, d2) -> (d0, d1)>"
_ROW2 = "affine_map<(d0, d1) -> (d0, d1)>"
_ROWS2 = "affine_map<(d0, d1) -> (d0)>"


def _generic(
    maps: list[str],
    iterators: list[str],
    ins: list[tuple[str, str]],
    out: tuple[str, str],
    result: str,
    args: list[str],
    body: list[str],
) -> str:
    names = ", ".join(name for name, _ in ins)
    types = ", ".join(type_ for _, type_ in ins)
    kinds = ", ".join(f'"{kind}"' for kind in iterators)
    inputs = f"ins({names} : {types}) " if ins else ""
    lines = "\n".join(f"    {line}" for line in body)
    return (
        f"{result} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
        f"iterator_types = [{kinds}]}} {inputs}outs({out[0]} : {out[1]}) {{\n"
        f"  ^bb0({', '.join(args)}):\n{lines}\n  }} -> {out[1]}"
    )


def _diagonal_mask(draw: st.DrawFn) -> list[str]:
    """A signed mask of the keys past the query's plus `past` (0: causal),
    as torch-mlir writes it (`j - i <= past` kept, then `and true`, `xor
    true`) or as a direct comparison `j > i + past`: the key steps past
    every row of a block are skipped (`masked_beyond_diagonal`); or the
    skewed `j > 2 i + past`, which must not be."""
    past = draw(st.integers(0, 3))
    head = [
        "%i = linalg.index 1 : index",
        "%j = linalg.index 2 : index",
        f"%past = arith.constant {past} : index",
    ]
    form = draw(st.sampled_from(["torch", "direct", "skewed"]))
    if form == "torch":
        test = [
            "%i64 = arith.index_cast %i : index to i64",
            "%j64 = arith.index_cast %j : index to i64",
            "%past64 = arith.index_cast %past : index to i64",
            "%d = arith.subi %j64, %i64 : i64",
            "%keep = arith.cmpi sle, %d, %past64 : i64",
            "%true = arith.constant true",
            "%both = arith.andi %keep, %true : i1",
            "%later = arith.xori %both, %true : i1",
        ]
    elif form == "direct":
        test = [
            "%last = arith.addi %i, %past : index",
            "%later = arith.cmpi sgt, %j, %last : index",
        ]
    else:
        # j > 2 i + past: not a function of j - i, so no bound is read.
        test = [
            "%two = arith.constant 2 : index",
            "%twice = arith.muli %i, %two : index",
            "%last = arith.addi %twice, %past : index",
            "%later = arith.cmpi sgt, %j, %last : index",
        ]
    return [
        *head,
        *test,
        "%ninf2 = arith.constant 0xFF800000 : f32",
        "%z = arith.select %later, %ninf2, %in : f32",
    ]


MODIFIERS = ("none", "scale", "causal", "diagonal", "mask")


@st.composite
def attention_programs(
    draw: st.DrawFn,
    modifiers: tuple[str, ...] = MODIFIERS,
    batches: tuple[int, ...] = (1, 2),
    row_counts: tuple[int, ...] = (2, 4, 8),
    key_counts: tuple[int, ...] = (2, 4, 8, 12),
    min_head: int = 1,
) -> str:
    batch = draw(st.sampled_from(batches))
    rows = draw(st.sampled_from(row_counts))
    keys = draw(st.sampled_from(key_counts))
    head = draw(st.integers(min_head, 4))
    value_head = draw(st.integers(min_head, 4))
    modifier = draw(st.sampled_from(modifiers))
    collapsed = draw(st.booleans())
    s_type = f"tensor<{batch}x{rows}x{keys}xf32>"
    o_type = f"tensor<{batch}x{rows}x{value_head}xf32>"
    args = [
        f"%q: tensor<{batch}x{rows}x{head}xf32>",
        f"%k: tensor<{batch}x{keys}x{head}xf32>",
        f"%v: tensor<{batch}x{keys}x{value_head}xf32>",
    ]
    if modifier == "mask":
        args.append(f"%mask: tensor<{rows}x{keys}xi1>")
    lines = [
        "%zero = arith.constant 0.0 : f32",
        "%ninf = arith.constant 0xFF800000 : f32",
        f"%se = tensor.empty() : {s_type}",
        f"%s0 = linalg.fill ins(%zero : f32) outs(%se : {s_type}) -> {s_type}",
        _generic(
            [
                "affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>",
                "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>",
                "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>",
            ],
            ["parallel", "parallel", "parallel", "reduction"],
            [
                ("%q", f"tensor<{batch}x{rows}x{head}xf32>"),
                ("%k", f"tensor<{batch}x{keys}x{head}xf32>"),
            ],
            ("%s0", s_type),
            "%s",
            ["%a: f32", "%b: f32", "%c: f32"],
            [
                "%p = arith.mulf %a, %b : f32",
                "%t = arith.addf %c, %p : f32",
                "linalg.yield %t : f32",
            ],
        ),
    ]
    scores = "%s"
    if modifier != "none":
        lines.append(f"%xe = tensor.empty() : {s_type}")
        ins = [("%s", s_type)]
        maps = [_ROW3]
        body_args = ["%in: f32"]
        if modifier == "scale":
            body = [
                "%half = arith.constant 0.5 : f32",
                "%z = arith.mulf %in, %half : f32",
            ]
        elif modifier == "causal":
            body = [
                "%i = linalg.index 1 : index",
                "%j = linalg.index 2 : index",
                "%later = arith.cmpi ugt, %j, %i : index",
                "%ninf2 = arith.constant 0xFF800000 : f32",
                "%z = arith.select %later, %ninf2, %in : f32",
            ]
        elif modifier == "diagonal":
            body = _diagonal_mask(draw)
        else:
            ins.append(("%mask", f"tensor<{rows}x{keys}xi1>"))
            maps.append("affine_map<(d0, d1, d2) -> (d1, d2)>")
            body_args.append("%keep: i1")
            body = [
                "%ninf2 = arith.constant 0xFF800000 : f32",
                "%z = arith.select %keep, %in, %ninf2 : f32",
            ]
        lines.append(
            _generic(
                [*maps, _ROW3],
                ["parallel"] * 3,
                ins,
                ("%xe", s_type),
                "%x",
                [*body_args, "%o: f32"],
                [*body, "linalg.yield %z : f32"],
            )
        )
        scores = "%x"
    if collapsed:
        flat = batch * rows
        r_type, v_type = f"tensor<{flat}x{keys}xf32>", f"tensor<{flat}xf32>"
        lines.append(
            f"%xr = tensor.collapse_shape {scores} [[0, 1], [2]] : "
            f"{s_type} into {r_type}"
        )
        scores, row_map, rows_map, kinds = "%xr", _ROW2, _ROWS2, ["parallel"]
    else:
        r_type, v_type = s_type, f"tensor<{batch}x{rows}xf32>"
        row_map, rows_map, kinds = _ROW3, _ROWS3, ["parallel", "parallel"]
    lines += [
        f"%me = tensor.empty() : {v_type}",
        f"%m0 = linalg.fill ins(%ninf : f32) outs(%me : {v_type}) -> {v_type}",
        _generic(
            [row_map, rows_map],
            [*kinds, "reduction"],
            [(scores, r_type)],
            ("%m0", v_type),
            "%m",
            ["%in: f32", "%acc: f32"],
            ["%y = arith.maximumf %in, %acc : f32", "linalg.yield %y : f32"],
        ),
        f"%ee = tensor.empty() : {r_type}",
        _generic(
            [row_map, rows_map, row_map],
            [*kinds, "parallel"],
            [(scores, r_type), ("%m", v_type)],
            ("%ee", r_type),
            "%e",
            ["%in: f32", "%mx: f32", "%o: f32"],
            [
                "%d = arith.subf %in, %mx : f32",
                "%y = math.exp %d : f32",
                "linalg.yield %y : f32",
            ],
        ),
        f"%le = tensor.empty() : {v_type}",
        f"%l0 = linalg.fill ins(%zero : f32) outs(%le : {v_type}) -> {v_type}",
        _generic(
            [row_map, rows_map],
            [*kinds, "reduction"],
            [("%e", r_type)],
            ("%l0", v_type),
            "%l",
            ["%in: f32", "%acc: f32"],
            ["%y = arith.addf %in, %acc : f32", "linalg.yield %y : f32"],
        ),
        f"%pe = tensor.empty() : {r_type}",
        _generic(
            [row_map, rows_map, row_map],
            [*kinds, "parallel"],
            [("%e", r_type), ("%l", v_type)],
            ("%pe", r_type),
            "%p",
            ["%in: f32", "%sum: f32", "%o: f32"],
            ["%y = arith.divf %in, %sum : f32", "linalg.yield %y : f32"],
        ),
    ]
    probabilities = "%p"
    if collapsed:
        lines.append(
            f"%pr = tensor.expand_shape %p [[0, 1], [2]] output_shape "
            f"[{batch}, {rows}, {keys}] : {r_type} into {s_type}"
        )
        probabilities = "%pr"
    lines += [
        f"%oe = tensor.empty() : {o_type}",
        f"%o0 = linalg.fill ins(%zero : f32) outs(%oe : {o_type}) -> {o_type}",
        _generic(
            [
                "affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>",
                "affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>",
                "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>",
            ],
            ["parallel", "parallel", "parallel", "reduction"],
            [
                (probabilities, s_type),
                ("%v", f"tensor<{batch}x{keys}x{value_head}xf32>"),
            ],
            ("%o0", o_type),
            "%out",
            ["%a: f32", "%b: f32", "%c: f32"],
            [
                "%pv = arith.mulf %a, %b : f32",
                "%t = arith.addf %c, %pv : f32",
                "linalg.yield %t : f32",
            ],
        ),
    ]
    text = "\n  ".join(line.replace("\n", "\n  ") for line in lines)
    return (
        f"func.func @main({', '.join(args)}) -> {o_type} {{\n  {text}\n"
        f"  return %out : {o_type}\n}}\n"
    )


def _bufferized(text: str) -> ModuleOp:
    """`text` as the pass sees it in `lower-to-cuda`: generic, on buffers."""
    module = parse_module(text)
    LinalgGeneralizeNamedOpsPass().apply(make_context(), module)
    BufferizePass().apply(make_context(), module)
    return module


def test_fusion_keeps_meaning_and_fires() -> None:
    reach = check_pass(
        PASS, attention_programs().map(_bufferized), rtol=RTOL, atol=ATOL
    )
    assert reach.changed == reach.examples


# Rows and keys no power of two divides (3, 5, 7: ViT's 197 tokens) take
# ragged tiles under `min-block=2`: the last tile of rows and of keys moves
# back to end at the extent.
RAGGED_OPTIONS = "block-rows=4 block-keys=4 threads=16 threads-x=4 min-block=2"
# Blocks of 8 rows over 4 threads x: the row-wise steps (the reductions'
# last step, the rescaling) see the rows as 2 x 4, on threads y and x.
SPREAD_OPTIONS = "block-rows=8 block-keys=4 threads=16 threads-x=4 min-block=2"
RAGGED = LinalgFuseAttentionPass(
    block_rows=4, block_keys=4, threads=16, threads_x=4, min_block=2
)


def ragged_attention_programs() -> st.SearchStrategy[str]:
    return attention_programs(row_counts=(3, 5, 7), key_counts=(3, 5, 7, 9))


def test_ragged_tiles_keep_meaning_and_fire() -> None:
    """The moved-back key step masks the keys an earlier step took (else
    they count twice), and the moved-back row tile writes only its own
    rows; every draw is fused."""
    reach = check_pass(
        RAGGED, ragged_attention_programs().map(_bufferized), rtol=RTOL, atol=ATOL
    )
    assert reach.changed == reach.examples


def test_fused_attention_keeps_meaning_on_the_grid_emulator() -> None:
    """Divisible and ragged tiles through the whole GPU lowering: the
    emulator also checks that no two threads write one element of the
    output (a moved-back row tile writing rows its neighbour wrote)."""
    pipeline = (
        f"linalg-generalize-named-ops,bufferize,linalg-fuse-attention{{{RAGGED_OPTIONS}}},"
        "linalg-tile-for-gpu{elementwise-block=16},gpu-promote-shared,"
        "convert-linalg-to-loops,fold-memref-alias-ops,convert-parallel-loops-to-gpu,"
        # The output rows in registers across the key loop, beside the
        # products' thread tiles; the emulator checks the block's races.
        "gpu-promote-accumulators"
    )
    programs = attention_programs(row_counts=(2, 3, 4, 5), key_counts=(2, 4, 5, 7))
    check_pass(pipeline, programs.map(parse_module), rtol=RTOL, atol=ATOL)


def test_rows_spread_over_the_block_keep_meaning_on_the_grid_emulator() -> None:
    """Rows of 8 in blocks of 16 threads, 4 along x: the row-wise steps run
    on 2 x 4 threads (`_spread_rows`); the emulator checks values and races."""
    pipeline = (
        f"linalg-generalize-named-ops,bufferize,linalg-fuse-attention{{{SPREAD_OPTIONS}}},"
        "linalg-tile-for-gpu{elementwise-block=16},gpu-promote-shared,"
        "convert-linalg-to-loops,fold-memref-alias-ops,convert-parallel-loops-to-gpu,"
        "gpu-promote-accumulators"
    )
    programs = attention_programs(batches=(1,), row_counts=(8,), key_counts=(4, 8))
    reach = check_pass(pipeline, programs.map(parse_module), rtol=RTOL, atol=ATOL)
    assert reach.changed == reach.examples


def test_diagonal_masks_keep_meaning_key_by_key() -> None:
    """With one key a step, a key loop ending one key short (or a skewed
    mask read as a diagonal one) drops an unmasked key of some row."""
    keywise = LinalgFuseAttentionPass(
        block_rows=4, block_keys=1, threads=16, threads_x=4, min_block=1
    )
    programs = attention_programs(modifiers=("diagonal",)).map(_bufferized)
    reach = check_pass(keywise, programs, rtol=RTOL, atol=ATOL)
    assert reach.changed == reach.examples


@given(attention_programs())
def test_key_steps_past_a_diagonal_mask_are_skipped(text: str) -> None:
    """A block's key loop ends at its rows' last unmasked key (an
    `affine.min` of the row origin) exactly when the mask is a signed
    diagonal one; the semantics are the tests above."""
    module = _bufferized(text)
    PASS.apply(make_context(), module)
    bounded = any(op.name == "affine.min" for op in module.walk())
    diagonal = "arith.cmpi sle, %d" in text or "cmpi sgt, %j" in text
    skewed = "%twice = arith.muli %i, %two" in text  # j > 2 i + past: no bound
    assert bounded == (diagonal and not skewed)


@given(attention_programs())
def test_one_block_forall_replaces_the_chain(text: str) -> None:
    module = _bufferized(text)
    PASS.apply(make_context(), module)
    names = [op.name for op in module.walk()]
    grids = [op for op in module.walk() if is_block_forall(op)]
    assert len(grids) == 1
    # Only the fused kernel computes: no linalg op is left outside it.
    outside = [
        op
        for op in module.walk()
        if op.name == "linalg.generic" and not grids[0].is_ancestor(op)
    ]
    assert not outside
    assert names.count("scf.for") == 1


@given(ragged_attention_programs())
def test_ragged_tiles_move_back_mask_and_write_their_own_rows(text: str) -> None:
    """Every draw is ragged in rows and keys: the row origin and the key
    step's origin are `affine.min`s, the seen keys are masked, and the last
    row tile writes its rows under an `scf.if` (the tests above check the
    semantics)."""
    module = _bufferized(text)
    RAGGED.apply(make_context(), module)
    hints = {result.name_hint for op in module.walk() for result in op.results}
    assert {"key_origin", "seen"} <= hints
    names = [op.name for op in module.walk()]
    assert names.count("scf.if") == 1
    minima = [
        op.results[0].name_hint for op in module.walk() if op.name == "affine.min"
    ]
    assert {"row", "key_origin"} <= set(minima)


# The C target's lowering with the fused attention (`linalg-fuse-attention
# {cpu}`) on tiles small enough for these programs; AVX-512's facts, so that
# the 16 x 32 score tiles take the packed micro-kernels inside the loop.
C_PIPELINE = (
    "lower-to-c{attention-block=16,32 attention-min-block=2 "
    "vector-bits=512 vector-registers=32}"
)


@settings(max_examples=8)
@given(
    attention_programs(
        modifiers=("none", "scale", "causal", "diagonal"),
        # Ragged rows and keys too (5, 7: tiles moved back to the end).
        row_counts=(4, 5, 16),
        key_counts=(4, 7, 8, 32),
        # `lower-to-c` drops loops of extent 1: a head of 1 leaves the
        # scores no reduction, and no chain to fuse.
        min_head=2,
    )
)
def test_fused_attention_in_c_matches_the_interpreter(text: str) -> None:
    """Through `lower-to-c` and the C compiler: one parallel loop of stack
    tiles replaces the chain (no heap buffer in it, so OpenMP runs it), and
    the results match the interpreter's up to the reassociated sums."""
    lowered = parse_module(text)
    Pipeline.parse(C_PIPELINE).run(make_context(), lowered)
    (kernel,) = [op for op in lowered.walk() if isinstance(op, ForallOp)]
    inside = [op.name for op in kernel.walk()]
    assert "memref.alloca" in inside
    assert "memref.alloc" not in inside
    compiled = irkit.compile(lowered, target="c")
    module = parse_module(text)
    main = module.body.block.first_op
    assert isinstance(main, FuncOp)
    arguments = random_arguments(main, np.random.default_rng(0))
    got = compiled(*arguments)
    expected = irkit.interpret(module, "main", *arguments)
    for g, want in zip(got, expected, strict=True):
        difference = compare_arrays(want, g, rtol=RTOL, atol=ATOL)
        assert difference is None, difference.describe()


# --------------------------------------------------------------------------
# Half precision, as torch-mlir writes it
# --------------------------------------------------------------------------

HALF_TYPES = ("f16", "bf16")
# The fused kernel rounds the numerators `exp(s - running max)` to half
# where the program rounds the probabilities `e / l` (the row sum is known
# only after the last step): each term of `p v` differs by up to a half
# ulp of its own, which the half types' tolerances cover.
HALF_TOLERANCES = {"f16": TOLERANCES["float16"], "bf16": TOLERANCES["bfloat16"]}
HALF_MINUS_INFINITY = {"f16": "0xFC00", "bf16": "0xFF80"}


@st.composite
def half_attention_programs(
    draw: st.DrawFn,
    half: str | None = None,
    row_counts: tuple[int, ...] = (2, 4, 8),
    key_counts: tuple[int, ...] = (2, 4, 8, 12),
    exact: bool = False,
    min_head: int = 1,
) -> tuple[str, str]:
    """Attention in `half` (drawn from f16 and bf16 when None) as torch-mlir
    exports it after fusion (`benchmarks/models/attention_s128_causal_f16.mlir`
    through `lower-to-cuda`'s tensor stages): half q, k, v; products in f32
    (`extf` in their bodies); the scores rounded to half by an op of their
    own or at the top of the modifier's body (LLaMA's block); a modifier in
    half (a scale, a causal mask, or nothing) widened to f32; the softmax in
    f32, its probabilities rounded to half or kept in f32 (irkit's own
    frontend), or the whole softmax in half; the output rounded to half or
    kept in f32. With `exact`,
    the probabilities and the output stay f32 and the head is one element
    (see `test_half_rounding_points_are_the_programs`). The program's text
    and its half type."""
    half = half or draw(st.sampled_from(HALF_TYPES))
    batch = draw(st.sampled_from((1, 2)))
    rows = draw(st.sampled_from(row_counts))
    keys = draw(st.sampled_from(key_counts))
    head = 1 if exact else draw(st.integers(min_head, 4))
    value_head = draw(st.integers(min_head, 4))
    modifier = draw(st.sampled_from(("none", "scale", "causal")))
    rounding_op = draw(st.booleans())  # else rounded in the modifier's body
    round_probabilities = not exact and draw(st.booleans())
    round_output = not exact and draw(st.booleans())
    # The softmax itself in half, reading the rounded scores (an op of their
    # own, then a half modifier or none).
    softmax_in_half = not exact and rounding_op and draw(st.booleans())
    s32 = f"tensor<{batch}x{rows}x{keys}xf32>"
    s16 = f"tensor<{batch}x{rows}x{keys}x{half}>"
    p_type = s16 if round_probabilities or softmax_in_half else s32
    p_element = half if round_probabilities or softmax_in_half else "f32"
    o32 = f"tensor<{batch}x{rows}x{value_head}xf32>"
    o16 = f"tensor<{batch}x{rows}x{value_head}x{half}>"
    q_type = f"tensor<{batch}x{rows}x{head}x{half}>"
    k_type = f"tensor<{batch}x{keys}x{head}x{half}>"
    v_type = f"tensor<{batch}x{keys}x{value_head}x{half}>"
    product = [
        "affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>",
        "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>",
        "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>",
    ]
    kinds = ["parallel", "parallel", "parallel", "reduction"]
    lines = [
        "%zero = arith.constant 0.0 : f32",
        "%ninf = arith.constant 0xFF800000 : f32",
        f"%se = tensor.empty() : {s32}",
        f"%s0 = linalg.fill ins(%zero : f32) outs(%se : {s32}) -> {s32}",
        _generic(
            product,
            kinds,
            [("%q", q_type), ("%k", k_type)],
            ("%s0", s32),
            "%s",
            [f"%a: {half}", f"%b: {half}", "%c: f32"],
            [
                "%a32 = arith.extf %a : " + half + " to f32",
                "%b32 = arith.extf %b : " + half + " to f32",
                "%p = arith.mulf %a32, %b32 : f32",
                "%t = arith.addf %c, %p : f32",
                "linalg.yield %t : f32",
            ],
        ),
    ]
    scores, score_type, score_element = "%s", s32, "f32"
    if rounding_op:
        lines += [
            f"%re = tensor.empty() : {s16}",
            _generic(
                [_ROW3, _ROW3],
                ["parallel"] * 3,
                [("%s", s32)],
                ("%re", s16),
                "%r",
                ["%in: f32", f"%o: {half}"],
                [f"%y = arith.truncf %in : f32 to {half}", f"linalg.yield %y : {half}"],
            ),
        ]
        scores, score_type, score_element = "%r", s16, half
    body = [] if rounding_op else [f"%h = arith.truncf %in : f32 to {half}"]
    value = "%in" if rounding_op else "%h"
    if modifier == "scale":
        body += [
            f"%c8 = arith.constant 0.125 : {half}",
            f"%z = arith.mulf {value}, %c8 : {half}",
        ]
        value = "%z"
    elif modifier == "causal":
        body += [
            "%i = linalg.index 1 : index",
            "%j = linalg.index 2 : index",
            "%later = arith.cmpi ugt, %j, %i : index",
            f"%ninf16 = arith.constant {HALF_MINUS_INFINITY[half]} : {half}",
            f"%z = arith.select %later, %ninf16, {value} : {half}",
        ]
        value = "%z"
    # The softmax's type: f32 (widened by the modifier) or half.
    soft = half if softmax_in_half else "f32"
    x_type = f"tensor<{batch}x{rows}x{keys}x{soft}>"
    row_type = f"tensor<{batch}x{rows}x{soft}>"
    if not softmax_in_half:
        body += [f"%x32 = arith.extf {value} : {half} to f32"]
        value = "%x32"
    x = scores
    if body:
        x = "%x"
        lines += [
            f"%xe = tensor.empty() : {x_type}",
            _generic(
                [_ROW3, _ROW3],
                ["parallel"] * 3,
                [(scores, score_type)],
                ("%xe", x_type),
                "%x",
                [f"%in: {score_element}", f"%o: {soft}"],
                [*body, f"linalg.yield {value} : {soft}"],
            ),
        ]
    minus_infinity = HALF_MINUS_INFINITY[half] if softmax_in_half else "0xFF800000"
    lines += [
        f"%ninf_s = arith.constant {minus_infinity} : {soft}",
        f"%zero_s = arith.constant 0.0 : {soft}",
        f"%me = tensor.empty() : {row_type}",
        f"%m0 = linalg.fill ins(%ninf_s : {soft}) outs(%me : {row_type}) -> {row_type}",
        _generic(
            [_ROW3, _ROWS3],
            ["parallel", "parallel", "reduction"],
            [(x, x_type)],
            ("%m0", row_type),
            "%m",
            [f"%in: {soft}", f"%acc: {soft}"],
            [f"%y = arith.maximumf %in, %acc : {soft}", f"linalg.yield %y : {soft}"],
        ),
        f"%ee = tensor.empty() : {x_type}",
        _generic(
            [_ROW3, _ROWS3, _ROW3],
            ["parallel"] * 3,
            [(x, x_type), ("%m", row_type)],
            ("%ee", x_type),
            "%e",
            [f"%in: {soft}", f"%mx: {soft}", f"%o: {soft}"],
            [
                f"%d = arith.subf %in, %mx : {soft}",
                f"%y = math.exp %d : {soft}",
                f"linalg.yield %y : {soft}",
            ],
        ),
        f"%le = tensor.empty() : {row_type}",
        f"%l0 = linalg.fill ins(%zero_s : {soft}) outs(%le : {row_type}) -> {row_type}",
        _generic(
            [_ROW3, _ROWS3],
            ["parallel", "parallel", "reduction"],
            [("%e", x_type)],
            ("%l0", row_type),
            "%l",
            [f"%in: {soft}", f"%acc: {soft}"],
            [f"%y = arith.addf %in, %acc : {soft}", f"linalg.yield %y : {soft}"],
        ),
        f"%pe = tensor.empty() : {p_type}",
        _generic(
            [_ROW3, _ROWS3, _ROW3],
            ["parallel"] * 3,
            [("%e", x_type), ("%l", row_type)],
            ("%pe", p_type),
            "%pr",
            [f"%in: {soft}", f"%sum: {soft}", f"%o: {p_element}"],
            [f"%y = arith.divf %in, %sum : {soft}"]
            + (
                [
                    f"%y16 = arith.truncf %y : f32 to {half}",
                    f"linalg.yield %y16 : {half}",
                ]
                if round_probabilities and not softmax_in_half
                else [f"linalg.yield %y : {p_element}"]
            ),
        ),
        f"%oe = tensor.empty() : {o32}",
        f"%o0 = linalg.fill ins(%zero : f32) outs(%oe : {o32}) -> {o32}",
        _generic(
            [
                "affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>",
                "affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>",
                "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>",
            ],
            kinds,
            [("%pr", p_type), ("%v", v_type)],
            ("%o0", o32),
            "%out",
            [f"%a: {p_element}", f"%b: {half}", "%c: f32"],
            ([f"%a32 = arith.extf %a : {half} to f32"] if p_element == half else [])
            + [
                f"%b32 = arith.extf %b : {half} to f32",
                f"%pv = arith.mulf {'%a32' if p_element == half else '%a'}, %b32 : f32",
                "%t = arith.addf %c, %pv : f32",
                "linalg.yield %t : f32",
            ],
        ),
    ]
    result, result_type = "%out", o32
    if round_output:
        lines += [
            f"%he = tensor.empty() : {o16}",
            _generic(
                [_ROW3, _ROW3],
                ["parallel"] * 3,
                [("%out", o32)],
                ("%he", o16),
                "%half",
                ["%in: f32", f"%o: {half}"],
                [f"%y = arith.truncf %in : f32 to {half}", f"linalg.yield %y : {half}"],
            ),
        ]
        result, result_type = "%half", o16
    args = [f"%q: {q_type}", f"%k: {k_type}", f"%v: {v_type}"]
    text = "\n  ".join(line.replace("\n", "\n  ") for line in lines)
    program = (
        f"func.func @main({', '.join(args)}) -> {result_type} {{\n  {text}\n"
        f"  return {result} : {result_type}\n}}\n"
    )
    return program, half


def test_half_attention_keeps_meaning_and_fires() -> None:
    """Every drawn f16 attention is fused and matches the program within
    f16's tolerance (the numerators rounded where the program rounds the
    probabilities: see `HALF_TOLERANCES`); bf16's draws are the tests
    below."""
    rtol, atol = HALF_TOLERANCES["f16"]
    programs = half_attention_programs(half="f16").map(
        lambda pair: _bufferized(pair[0])
    )
    reach = check_pass(PASS, programs, rtol=rtol, atol=atol)
    assert reach.changed == reach.examples


def test_half_rounding_points_are_the_programs() -> None:
    """With the probabilities and the output kept in f32, every rounding
    the program does (the scores to half, in an op of their own or in the
    modifier) the fused kernel does at the same point, element for element:
    it matches at f32's tolerance. A kernel that skipped the scores'
    rounding would differ by a half ulp of each score (about 1e-3 of the
    output). One head element: the scores are exact products, so the order
    of the products' sums cannot move a rounding."""
    programs = half_attention_programs(exact=True).map(lambda pair: pair[0])
    reach = check_pass(PASS, programs.map(_bufferized), rtol=RTOL, atol=ATOL)
    assert reach.changed == reach.examples


@settings(max_examples=6, deadline=None)
@given(
    half_attention_programs(row_counts=(2, 3, 4), key_counts=(2, 4, 5)),
    st.integers(0, 2**16),
)
def test_half_attention_keeps_meaning_on_the_grid_emulator(
    pair: tuple[str, str], seed: int
) -> None:
    """The half chain through the GPU lowering (ragged tiles too), each pass
    checked on its own: half staging and score tiles in workgroup memory
    beside the f32 ones."""
    pipeline = (
        f"linalg-generalize-named-ops,bufferize,linalg-fuse-attention{{{RAGGED_OPTIONS}}},"
        "linalg-tile-for-gpu{elementwise-block=16},gpu-promote-shared,"
        "convert-linalg-to-loops,fold-memref-alias-ops,convert-parallel-loops-to-gpu,"
        "gpu-promote-accumulators"
    )
    rtol, atol = HALF_TOLERANCES[pair[1]]
    after = assert_pass_preserves_semantics(
        pipeline, pair[0], trials=1, seed=seed, rtol=rtol, atol=atol
    )
    assert any(op.name == "gpu.launch" for op in after.walk())


@settings(max_examples=4)
@given(half_attention_programs(row_counts=(4, 16), key_counts=(4, 32), min_head=2))
def test_half_attention_in_c_matches_the_interpreter(pair: tuple[str, str]) -> None:
    """Through `lower-to-c` and the C compiler: the half chain is one
    parallel loop of stack tiles, its half tiles `_Float16` arrays."""
    text, half = pair
    lowered = parse_module(text)
    Pipeline.parse(C_PIPELINE).run(make_context(), lowered)
    kernels = [op for op in lowered.walk() if isinstance(op, ForallOp)]
    assert len(kernels) == 1
    compiled = irkit.compile(lowered, target="c")
    module = parse_module(text)
    main = module.body.block.first_op
    assert isinstance(main, FuncOp)
    arguments = random_arguments(main, np.random.default_rng(0))
    got = compiled(*arguments)
    expected = irkit.interpret(module, "main", *arguments)
    rtol, atol = HALF_TOLERANCES[half]
    for g, want in zip(got, expected, strict=True):
        difference = compare_arrays(want, g, rtol=rtol, atol=atol)
        assert difference is None, difference.describe()


def test_lower_to_cuda_leaves_half_chains_to_tensor_cores() -> None:
    # With tensor cores (the default), half chains stay unfused so that
    # their products take them; without, the fused kernel takes the chain.
    from irkit.transforms.pipelines import LowerToCudaPipeline

    def fusion(pipeline: LowerToCudaPipeline) -> LinalgFuseAttentionPass:
        (stage,) = [
            stage
            for stage in pipeline.stages()
            if isinstance(stage, LinalgFuseAttentionPass)
        ]
        return stage

    assert fusion(LowerToCudaPipeline()).half_products_on_tensor_cores
    assert not fusion(
        LowerToCudaPipeline(tensor_cores=False)
    ).half_products_on_tensor_cores
