"""Attention on buffers: `softmax(score(Q K^T)) V` as a chain of linalg ops.

torch-mlir writes attention (`q @ k.transpose(-2, -1) * scale`, a mask,
`softmax(-1)`, `@ v`) as separate linalg ops; after `bufferize` a block
holds, in this order (views, allocations, deallocations and constants may
sit between them):

```mlir
linalg.generic ins(%zero) outs(%s)                  // score fill
linalg.generic ins(%q, %k) outs(%s)                 // scores: out + q * k
linalg.generic ins(%s, %mask...) outs(%x)           // modifier (optional):
                                                    // scale, mask, any body
linalg.generic ins(%init) outs(%m)                  // max fill
linalg.generic ins(%x) outs(%m)                     // row max: maximumf
linalg.generic ins(%x, %m) outs(%e)                 // exp(x - m)
linalg.generic ins(%zero) outs(%l)                  // sum fill (0)
linalg.generic ins(%e) outs(%l)                     // row sum: addf
linalg.generic ins(%e, %l) outs(%p)                 // e / l
linalg.generic ins(%zero) outs(%o)                  // output fill (0)
linalg.generic ins(%p, %v) outs(%o)                 // values: out + p * v
```

In half precision (f16, bf16) torch-mlir's products take half operands
into f32 sums (`extf` in their bodies) and the chain rounds at three more
points, each optional: a *score rounding* (a parallel generic
`yield(truncf(in))`, `rounded_type`) between the scores and the modifier
(or the row max), whose result the modifier reads in half; the division's
body `truncf(e / l)` (`probability_type`: the probabilities in half, read
by the values' half product); and an *output rounding* of the values' f32
output into a half buffer, read whole with identity maps right after the
values. LLaMA's block rounds the scores at the top of the modifier's body
instead: the modifier is any body.

`attention_chains(block)` finds them. The softmax's operands are *row
buffers*: each op reads and writes them through plain loops, its *row
loops* (outer to inner) and, for the score-shaped ones (`s`, `x`, `e`,
`p`), a last *key loop*; every view of them is a reshape of a fresh
allocation, whose row-major order then numbers rows the same way in every
op, whatever shape it sees them in (`6x8x8`, `2x3x8x8`, `48x8`). The
scores' and the values' row loops are the batch loops and the query loop;
the scores' key loop is the values' reduction loop.

What a fused kernel needs holds too (`linalg-fuse-attention`):

- the fills of `l` and `o` write 0 (an online softmax rescales both);
- the score and value ops are contractions (`is_contraction`) with one
  reduction loop; `q` does not use the key loop, and `k` and `v` do not use
  the innermost row loop (a block's query rows share its key tiles);
- the bodies are exactly `maximumf`/`maxnumf`, `exp(x - m)`, `addf` and
  `e / l`; only the modifier may use `linalg.index`;
- the intermediate buffers (`s`, `x`, `m`, `e`, `l`, `p`, the rounded
  scores, and the values' f32 output when the output rounding is the
  chain's) are allocations that nothing but the chain, views and
  deallocations use; between the chain's first op and its last only
  allocations, deallocations, views, constants and ops that may run first
  sit; the output (`chain.output`) may alias nothing the chain reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import FloatAttr, MemRefType, NoneAttr
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from irkit.analysis.aliasing import VIEW_OPS, may_alias, root_buffer
from irkit.analysis.structured import is_contraction, shaped_inputs

# Ops that may sit between the chain's ops: they touch no element.
_BETWEEN = frozenset({"memref.alloc", "memref.dealloc", "arith.constant", *VIEW_OPS})
_RESHAPES = frozenset({"memref.collapse_shape", "memref.expand_shape"})
# The row max's combiners.
MAXIMA = (arith.MaximumfOp, arith.MaxnumfOp)


@dataclass(frozen=True)
class RowLoops:
    """An op's loops over the rows (outer to inner) and over the keys."""

    rows: tuple[int, ...]
    key: int | None


@dataclass(frozen=True)
class AttentionChain:
    """The ops of one attention (see the module doc) and their row loops."""

    score_fill: GenericOp
    scores: GenericOp
    modifier: GenericOp | None
    max_fill: GenericOp
    row_max: GenericOp
    exp: GenericOp
    sum_fill: GenericOp
    row_sum: GenericOp
    normalize: GenericOp
    output_fill: GenericOp
    values: GenericOp
    # Per op of the chain.
    loops: dict[GenericOp, RowLoops]
    rows: int
    keys: int
    # Half precision (see the module doc): the scores rounded to half before
    # the modifier, the half type the division rounds the probabilities to,
    # and the values' f32 output rounded to half.
    score_rounding: GenericOp | None = None
    probability_type: Attribute | None = None
    output_rounding: GenericOp | None = None

    @property
    def ops(self) -> list[GenericOp]:
        ops = [
            self.score_fill,
            self.scores,
            self.score_rounding,
            self.modifier,
            self.max_fill,
            self.row_max,
            self.exp,
            self.sum_fill,
            self.row_sum,
            self.normalize,
            self.output_fill,
            self.values,
            self.output_rounding,
        ]
        return [op for op in ops if op is not None]

    @property
    def score_modifiers(self) -> list[GenericOp]:
        """The elementwise ops from the scores to what the softmax reads, in
        order: the scores' rounding to half, the modifier."""
        ops = [self.score_rounding, self.modifier]
        return [op for op in ops if op is not None]

    @property
    def softmax_input(self) -> SSAValue:
        """What the row max and the exp read (`x`)."""
        ops = self.score_modifiers
        return (ops[-1] if ops else self.scores).outputs[0]

    @property
    def last(self) -> GenericOp:
        """The chain's last op: the fused kernel runs in its place."""
        return self.output_rounding or self.values

    @property
    def output(self) -> SSAValue:
        """The buffer the chain's result is written to."""
        return self.last.outputs[0]

    @property
    def row_ops(self) -> list[GenericOp]:
        """The ops that walk the row loops (all but the output's fill and
        rounding, which walk the output's elements)."""
        return [
            op
            for op in self.ops
            if op is not self.output_fill and op is not self.output_rounding
        ]

    @property
    def innermost_row_extents(self) -> set[int]:
        """The innermost row loop's extent in each op that walks rows
        (`8x12x128` rows beside `12288`: several extents)."""
        return {self.row_extents(op)[-1] for op in self.row_ops}

    @property
    def shortest_innermost_rows(self) -> int:
        """The shortest innermost row loop (the run a ragged row tile stays
        within: every other one holds whole runs of it)."""
        return min(self.innermost_row_extents)

    @property
    def tile_element_types(self) -> list[Attribute]:
        """The element types of the score-shaped tiles a fused kernel holds,
        once each, in the chain's order: the scores' (the products'
        accumulator), the rounded scores', the modifier's, the numerators'
        and the rounded probabilities'."""
        values = [self.scores.outputs[0], self.exp.outputs[0]]
        if self.score_rounding is not None:
            values.insert(1, self.score_rounding.outputs[0])
        if self.modifier is not None:
            values.insert(-1, self.modifier.outputs[0])
        types = [_element_type(value) for value in values]
        if self.probability_type is not None:
            types.append(self.probability_type)
        unique: list[Attribute] = []
        for element in types:
            if element not in unique:
                unique.append(element)
        return unique

    def row_extents(self, op: GenericOp) -> list[int]:
        ranges = loop_ranges(op)
        return [ranges[loop] for loop in self.loops[op].rows]

    def operand_of(self, op: GenericOp, buffer: SSAValue) -> int:
        """The operand index of `op` that views `buffer`'s root."""
        for index, operand in enumerate(op.operands):
            if root_buffer(operand) is root_buffer(buffer):
                return index
        raise ValueError("not an operand")  # pragma: no cover - callers checked

    @property
    def intermediates(self) -> list[SSAValue]:
        """The buffers the fused kernel no longer writes (allocations): the
        row buffers, and the values' output when the output's rounding is
        the chain's."""
        roots = self.row_buffers
        if self.output_rounding is not None:
            roots.append(root_buffer(self.values.outputs[0]))
        return roots

    @property
    def row_buffers(self) -> list[SSAValue]:
        """The roots of `s`, `x`, `m`, `e`, `l`, `p` and the rounded scores
        (allocations), once each."""
        values = [
            self.scores.outputs[0],
            self.row_max.outputs[0],
            self.exp.outputs[0],
            self.row_sum.outputs[0],
            self.normalize.outputs[0],
        ]
        if self.modifier is not None:
            values.append(self.modifier.outputs[0])
        if self.score_rounding is not None:
            values.append(self.score_rounding.outputs[0])
        roots: list[SSAValue] = []
        for value in values:
            root = root_buffer(value)
            if all(root is not seen for seen in roots):
                roots.append(root)
        return roots


# --------------------------------------------------------------------------
# Small checks
# --------------------------------------------------------------------------


def _memref_type(value: SSAValue) -> MemRefType[Attribute]:
    memref_type = value.type
    assert isinstance(memref_type, MemRefType)
    return memref_type


def _element_type(value: SSAValue) -> Attribute:
    return _memref_type(value).get_element_type()


def _maps(op: GenericOp) -> list[AffineMap]:
    return [attr.data for attr in op.indexing_maps]


def _plain_loops(indexing_map: AffineMap) -> list[int] | None:
    loops = [e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    return loops if len(loops) == len(indexing_map.results) else None


def loop_ranges(op: GenericOp) -> list[int]:
    """Each loop's extent, from the operands it indexes alone (-1 if none)."""
    ranges = [-1] * len(op.iterator_types)
    for operand, indexing_map in zip(op.operands, _maps(op), strict=True):
        if not isinstance(operand.type, MemRefType):
            continue
        shape = operand.type.get_shape()
        for position, expr in enumerate(indexing_map.results):
            if isinstance(expr, AffineDimExpr) and ranges[expr.position] < 0:
                ranges[expr.position] = shape[position]
    return ranges


def _kinds(op: GenericOp) -> list[IteratorType]:
    return [kind.data for kind in op.iterator_types]


def _is_reshaped_allocation(value: SSAValue) -> bool:
    """A fresh allocation with the identity layout, maybe seen through
    reshapes only: its elements in row-major order in every view."""
    while isinstance(value, OpResult) and value.op.name in _RESHAPES:
        value = value.op.operands[0]
    if not (isinstance(value, OpResult) and value.op.name == "memref.alloc"):
        return False
    memref_type = value.type
    return isinstance(memref_type, MemRefType) and isinstance(
        memref_type.layout, NoneAttr
    )


def _writer(buffer: SSAValue, before: Operation) -> Operation | None:
    """The nearest op before `before` in its block whose output views `buffer`'s
    root (None if some op before it that is not a generic may write it)."""
    root = root_buffer(buffer)
    current = before.prev_op
    while current is not None:
        if isinstance(current, GenericOp):
            if any(root_buffer(out) is root for out in current.outputs):
                return current
        elif current.name not in _BETWEEN:
            if any(root_buffer(v) is root for v in current.operands):
                return None
        current = current.prev_op
    return None


def _generic_writer(buffer: SSAValue, before: Operation) -> GenericOp | None:
    writer = _writer(buffer, before)
    return writer if isinstance(writer, GenericOp) else None


def _float_constant(value: SSAValue) -> float | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, FloatAttr):
            return float(attr.value.data)
    return None


def _fill_value(fill: GenericOp) -> SSAValue | None:
    """The scalar a fill writes (its body yields its scalar input)."""
    if shaped_inputs(fill) or len(fill.inputs) != 1 or len(fill.outputs) != 1:
        return None
    body = fill.body.block
    yielded = body.last_op
    if not isinstance(yielded, LinalgYieldOp) or len(list(body.ops)) != 1:
        return None
    if yielded.operands[0] is not body.args[0]:
        return None
    return fill.inputs[0]


def _fills_zero(fill: GenericOp) -> bool:
    value = _fill_value(fill)
    return value is not None and _float_constant(value) == 0.0


def _covers(fill: GenericOp, buffer: SSAValue) -> bool:
    """Whether `fill` writes every element of `buffer`'s root."""
    out = fill.outputs[0]
    if root_buffer(out) is not root_buffer(buffer):
        return False
    if not _is_reshaped_allocation(out):
        return False
    return _plain_loops(_maps(fill)[-1]) is not None


def _body_ops(op: GenericOp) -> list[Operation]:
    return list(op.body.block.ops)


def _is_combine(op: GenericOp, kinds: tuple[type, ...]) -> bool:
    """Body `yield(combine(in, out))` with one input and one output."""
    ops = _body_ops(op)
    if len(ops) != 2 or not isinstance(ops[0], kinds):
        return False
    args = op.body.block.args
    return (
        set(ops[0].operands) == {args[0], args[1]}
        and ops[1].operands[0] is (ops[0].results[0])
    )


def _two_inputs(op: GenericOp, binary: Operation) -> tuple[int, int] | None:
    """The positions of two distinct inputs of `op` that `binary` reads, in
    its operand order (None if it reads anything else)."""
    a, b = binary.operands
    if not (isinstance(a, BlockArgument) and isinstance(b, BlockArgument)):
        return None
    if a.index >= len(op.inputs) or b.index >= len(op.inputs) or a is b:
        return None
    return a.index, b.index


def _is_exp_of_difference(op: GenericOp) -> tuple[int, int] | None:
    """Body `yield(exp(in_a - in_b))`: the input positions (a, b)."""
    ops = _body_ops(op)
    if len(ops) != 3 or not isinstance(ops[0], arith.SubfOp):
        return None
    if not isinstance(ops[1], math.ExpOp) or ops[1].operands[0] is not ops[0].result:
        return None
    if ops[2].operands[0] is not ops[1].results[0]:
        return None
    return _two_inputs(op, ops[0])


def _is_quotient(op: GenericOp) -> tuple[int, int] | None:
    """Body `yield(in_a / in_b)` or, rounding the quotient to half,
    `yield(truncf(in_a / in_b))`: the input positions (a, b)."""
    ops = _body_ops(op)
    if not ops or not isinstance(ops[0], arith.DivfOp):
        return None
    if len(ops) == 3:
        if not _is_truncation_of(ops[1], ops[0].result):
            return None
    elif len(ops) != 2:
        return None
    if ops[-1].operands[0] is not ops[-2].results[0]:
        return None
    return _two_inputs(op, ops[0])


def _is_truncation_of(op: Operation, value: SSAValue) -> bool:
    return isinstance(op, arith.TruncFOp) and op.input is value


def rounded_type(op: GenericOp) -> Attribute | None:
    """The element type `op` rounds to, when it is a rounding: one input,
    one output, every loop parallel, body `yield(truncf(in))` (torch-mlir's
    conversion of an f32 result to f16 or bf16); else None."""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or op.res:
        return None
    if any(kind != IteratorType.PARALLEL for kind in _kinds(op)):
        return None
    ops = _body_ops(op)
    if len(ops) != 2 or not _is_truncation_of(ops[0], op.body.block.args[0]):
        return None
    if ops[1].operands[0] is not ops[0].results[0]:
        return None
    return ops[0].results[0].type


def _quotient_rounding(op: GenericOp) -> Attribute | None:
    """The type a quotient's body rounds it to (None: not rounded)."""
    ops = _body_ops(op)
    return ops[1].results[0].type if len(ops) == 3 else None


def _uses_index(op: GenericOp) -> bool:
    return any(isinstance(nested, IndexOp) for nested in op.body.walk())


def _row_loops(indexing_map: AffineMap, keyed: bool) -> RowLoops | None:
    """Row loops (and the key loop, last, when `keyed`) of a row-buffer access."""
    loops = _plain_loops(indexing_map)
    if loops is None or len(set(loops)) != len(loops):
        return None
    if keyed:
        if not loops:
            return None
        return RowLoops(tuple(loops[:-1]), loops[-1])
    return RowLoops(tuple(loops), None)


# --------------------------------------------------------------------------
# Matching
# --------------------------------------------------------------------------


class _NoMatch(Exception):
    """The chain ends here (the reason is for tests and debugging)."""


def _require(condition: bool, reason: str) -> None:
    if not condition:
        raise _NoMatch(reason)


def _one_reduction(op: GenericOp) -> int:
    reductions = [
        i for i, kind in enumerate(_kinds(op)) if kind == IteratorType.REDUCTION
    ]
    _require(len(reductions) == 1, "not one reduction loop")
    return reductions[0]


def _access(op: GenericOp, index: int, keyed: bool) -> RowLoops:
    loops = _row_loops(_maps(op)[index], keyed)
    _require(loops is not None, "a row buffer read through a compound map")
    _require(_is_reshaped_allocation(op.operands[index]), "not a fresh buffer")
    assert loops is not None
    return loops


def _same(a: RowLoops, b: RowLoops, reason: str) -> None:
    _require(a == b, reason)


def _match_from(values: GenericOp) -> AttentionChain:
    _require(is_contraction(values) and not values.res, "not a contraction")
    # A sum of squares (`out + x * x`, one input) is a contraction too.
    _require(len(values.inputs) == 2, "not a contraction of two operands")
    key_loop = _one_reduction(values)
    _require(not _uses_index(values), "values use linalg.index")
    maps = _maps(values)
    out_loops = _plain_loops(maps[2])
    _require(out_loops is not None, "values written through a compound map")
    assert out_loops is not None
    # The probabilities: the input written by a quotient.
    for p_index in (0, 1):
        normalize = _generic_writer(values.inputs[p_index], values)
        if normalize is not None and _is_quotient(normalize) is not None:
            break
    else:
        raise _NoMatch("values do not read a softmax")
    p_loops = _access(values, p_index, keyed=True)
    _require(p_loops.key == key_loop, "probabilities not reduced along keys")
    _require(all(loop in out_loops for loop in p_loops.rows), "rows not in the output")
    values_loops = p_loops

    quotient = _is_quotient(normalize)
    assert quotient is not None
    e_index, l_index = quotient
    norm_loops = _access(normalize, len(normalize.inputs), keyed=True)
    _same(
        _access(normalize, e_index, keyed=True), norm_loops, "e read as it is written"
    )
    l_loops = _access(normalize, l_index, keyed=False)
    _same(l_loops, RowLoops(norm_loops.rows, None), "sums read per row")
    _require(all(k == IteratorType.PARALLEL for k in _kinds(normalize)), "")

    row_sum = _generic_writer(normalize.inputs[l_index], normalize)
    _require(row_sum is not None and _is_combine(row_sum, (arith.AddfOp,)), "no sum")
    assert row_sum is not None
    _require(len(row_sum.inputs) == 1 and len(row_sum.outputs) == 1, "")
    sum_loops = _access(row_sum, 0, keyed=True)
    _require(_kinds(row_sum)[sum_loops.key or 0] == IteratorType.REDUCTION, "")
    _same(_access(row_sum, 1, keyed=False), RowLoops(sum_loops.rows, None), "")
    _require(
        root_buffer(row_sum.inputs[0]) is root_buffer(normalize.inputs[e_index]),
        "the sum is not of the numerators",
    )
    sum_fill = _generic_writer(row_sum.outputs[0], row_sum)
    _require(sum_fill is not None and _fills_zero(sum_fill), "sum starts at 0")
    assert sum_fill is not None
    _require(_covers(sum_fill, row_sum.outputs[0]), "")

    exp = _generic_writer(normalize.inputs[e_index], row_sum)
    _require(exp is not None and _is_exp_of_difference(exp) is not None, "no exp")
    assert exp is not None
    x_index, m_index = _is_exp_of_difference(exp) or (0, 1)
    exp_loops = _access(exp, len(exp.inputs), keyed=True)
    _same(_access(exp, x_index, keyed=True), exp_loops, "")
    _same(_access(exp, m_index, keyed=False), RowLoops(exp_loops.rows, None), "")
    _require(all(k == IteratorType.PARALLEL for k in _kinds(exp)), "")

    row_max = _generic_writer(exp.inputs[m_index], exp)
    _require(row_max is not None and _is_combine(row_max, MAXIMA), "no max")
    assert row_max is not None
    _require(len(row_max.inputs) == 1 and len(row_max.outputs) == 1, "")
    max_loops = _access(row_max, 0, keyed=True)
    _require(_kinds(row_max)[max_loops.key or 0] == IteratorType.REDUCTION, "")
    _same(_access(row_max, 1, keyed=False), RowLoops(max_loops.rows, None), "")
    _require(root_buffer(row_max.inputs[0]) is root_buffer(exp.inputs[x_index]), "")
    max_fill = _generic_writer(row_max.outputs[0], row_max)
    _require(max_fill is not None and _fill_value(max_fill) is not None, "max fill")
    assert max_fill is not None
    _require(_covers(max_fill, row_max.outputs[0]), "")

    producer = _generic_writer(row_max.inputs[0], row_max)
    _require(producer is not None, "no scores")
    assert producer is not None
    modifier: GenericOp | None = None
    if not is_contraction(producer) and rounded_type(producer) is None:
        modifier = producer
        _require(len(modifier.outputs) == 1 and not modifier.res, "")
        _require(all(k == IteratorType.PARALLEL for k in _kinds(modifier)), "")
        modifier_loops = _access(modifier, len(modifier.inputs), keyed=True)
        candidates = [
            index
            for index, operand in enumerate(modifier.inputs)
            if isinstance(operand.type, MemRefType)
            and (scores := _generic_writer(operand, modifier)) is not None
            and (is_contraction(scores) or _rounds_scores(scores))
        ]
        _require(len(candidates) == 1, "the modifier reads no scores")
        (s_index,) = candidates
        _same(_access(modifier, s_index, keyed=True), modifier_loops, "")
        producer = _generic_writer(modifier.inputs[s_index], modifier)
        assert producer is not None
    # The scores rounded to half (the products accumulate in f32).
    score_rounding: GenericOp | None = None
    if rounded_type(producer) is not None:
        score_rounding = producer
        rounding_loops = _access(score_rounding, 1, keyed=True)
        _same(_access(score_rounding, 0, keyed=True), rounding_loops, "")
        producer = _generic_writer(score_rounding.inputs[0], score_rounding)
        _require(producer is not None and is_contraction(producer), "no scores")
        assert producer is not None
    scores = producer
    _require(not scores.res and not _uses_index(scores), "")
    reduction = _one_reduction(scores)
    score_loops = _access(scores, 2, keyed=True)
    _require(reduction not in (score_loops.key, *score_loops.rows), "")
    score_fill = _generic_writer(scores.outputs[0], scores)
    _require(
        score_fill is not None and _fill_value(score_fill) is not None, "score fill"
    )
    assert score_fill is not None
    _require(_covers(score_fill, scores.outputs[0]), "")
    output_fill = _generic_writer(values.outputs[0], values)
    _require(output_fill is not None and _fills_zero(output_fill), "output fill 0")
    assert output_fill is not None
    fill_loops = _plain_loops(_maps(output_fill)[-1])
    _require(
        output_fill.outputs[0] is values.outputs[0]
        and fill_loops is not None
        and sorted(fill_loops) == list(range(len(output_fill.iterator_types))),
        "the output fill covers another view",
    )

    # Which loops each op walks rows and keys with.
    loops: dict[GenericOp, RowLoops] = {
        scores: score_loops,
        max_fill: _row_loops(_maps(max_fill)[-1], keyed=False) or RowLoops((), None),
        row_max: max_loops,
        exp: exp_loops,
        sum_fill: _row_loops(_maps(sum_fill)[-1], keyed=False) or RowLoops((), None),
        row_sum: sum_loops,
        normalize: norm_loops,
        values: values_loops,
    }
    score_fill_loops = _row_loops(_maps(score_fill)[-1], keyed=True)
    _require(score_fill_loops is not None, "")
    assert score_fill_loops is not None
    loops[score_fill] = score_fill_loops
    loops[output_fill] = RowLoops(tuple(out_loops), None)
    if modifier is not None:
        loops[modifier] = modifier_loops
    if score_rounding is not None:
        loops[score_rounding] = rounding_loops
    chain = AttentionChain(
        score_fill,
        scores,
        modifier,
        max_fill,
        row_max,
        exp,
        sum_fill,
        row_sum,
        normalize,
        output_fill,
        values,
        loops,
        rows=0,
        keys=0,
        score_rounding=score_rounding,
        probability_type=_quotient_rounding(normalize),
    )
    # The values' f32 output rounded to half, when the rounding is what
    # reads it; else (or when it cannot join) the values' output is the
    # chain's.
    output_rounding = _output_rounding(values)
    if output_rounding is not None:
        loops[output_rounding] = RowLoops(tuple(out_loops), None)
        try:
            return _checked(replace(chain, output_rounding=output_rounding))
        except _NoMatch:
            del loops[output_rounding]
    return _checked(chain)


def _rounds_scores(op: GenericOp) -> bool:
    """Whether `op` rounds what a contraction wrote (the scores)."""
    if rounded_type(op) is None:
        return False
    writer = _generic_writer(op.inputs[0], op)
    return writer is not None and is_contraction(writer)


def _output_rounding(values: GenericOp) -> GenericOp | None:
    """The rounding of `values`' output to half (`rounded_type`) that
    follows it, with only allocations, deallocations, views and constants
    between, when it reads that output (a fresh allocation) whole, element
    for element (identity maps, the same shape)."""
    output = values.outputs[0]
    if not _is_reshaped_allocation(output):
        return None
    current = values.next_op
    while current is not None and current.name in _BETWEEN:
        current = current.next_op
    if not isinstance(current, GenericOp) or rounded_type(current) is None:
        return None
    source, target = current.inputs[0], current.outputs[0]
    if root_buffer(source) is not root_buffer(output) or source is not output:
        return None
    if not all(m == AffineMap.identity(m.num_dims) for m in _maps(current)):
        return None
    if _memref_type(target).get_shape() != _memref_type(output).get_shape():
        return None
    return current


def _checked(chain: AttentionChain) -> AttentionChain:
    """Check shapes, the operands' independence of the row tile, and uses."""
    extents: set[int] = set()
    keys: set[int] = set()
    for op in chain.row_ops:
        row_extents = chain.row_extents(op)
        _require(bool(row_extents) and min(row_extents) > 0, "no rows")
        extents.add(_product(row_extents))
        key = chain.loops[op].key
        if key is not None:
            keys.add(loop_ranges(op)[key])
    _require(len(extents) == 1 and len(keys) == 1, "ops disagree on rows or keys")
    # The row buffers' allocations hold exactly rows x keys (or rows).
    for root in chain.row_buffers:
        assert isinstance(root.type, MemRefType)
        size = _product(root.type.get_shape())
        _require(size in (extents | {e * k for e in extents for k in keys}), "")
    scores, values = chain.scores, chain.values
    score_rows = chain.loops[scores]
    q_uses = [_used_loops(_maps(scores)[i]) for i in (0, 1)]
    inner = score_rows.rows[-1]
    key = score_rows.key
    # The query operand uses the innermost row loop and not the key loop;
    # the key operand the reverse.
    operands = sorted((0, 1), key=lambda i: inner not in q_uses[i])
    q_index, k_index = operands
    _require(inner in q_uses[q_index] and key not in q_uses[q_index], "q")
    _require(key in q_uses[k_index] and inner not in q_uses[k_index], "k")
    value_rows = chain.loops[values]
    v_index = 1 - chain.operand_of(values, chain.normalize.outputs[0])
    _require(value_rows.rows[-1] not in _used_loops(_maps(values)[v_index]), "v")
    _require(
        all(_plain_loops(m) is not None for op in (scores, values) for m in _maps(op)),
        "",
    )
    _check_uses(chain)
    return replace(chain, rows=extents.pop(), keys=keys.pop())


def _used_loops(indexing_map: AffineMap) -> set[int]:
    return {loop for expr in indexing_map.results for loop in expr.used_dims()}


def _product(values: Sequence[int]) -> int:
    total = 1
    for value in values:
        total *= value
    return total


def _check_uses(chain: AttentionChain) -> None:
    ops = chain.ops
    members = set(ops)
    block = chain.values.parent_block()
    _require(block is not None and all(op.parent_block() is block for op in ops), "")
    assert block is not None
    first = min(ops, key=block.get_operation_index)
    current: Operation | None = first
    earlier: list[GenericOp] = []
    while current is not None and current is not chain.last:
        if current in members:
            assert isinstance(current, GenericOp)
            earlier.append(current)
        elif current.name not in _BETWEEN or current.regions:
            _require(_may_run_first(current, chain, earlier), f"{current.name} between")
        current = current.next_op
    for root in chain.intermediates:
        _require(isinstance(root, OpResult) and root.op.name == "memref.alloc", "alloc")
        for user in _users_through_views(root):
            _require(user in members or user.name == "memref.dealloc", "used elsewhere")
    output = chain.output
    for op in ops:
        for operand in shaped_inputs(op):
            if any(root_buffer(operand) is r for r in chain.intermediates):
                continue
            _require(not may_alias(operand, output), "the output aliases an input")


def _may_run_first(
    op: Operation, chain: AttentionChain, earlier: Sequence[GenericOp]
) -> bool:
    """Whether `op`, between the chain's ops, may run before all of them
    (the fused kernel runs in the last one's place): a copy or a generic
    that touches none of the chain's intermediates nor its output, and
    writes nothing the chain's ops before it read."""
    if isinstance(op, GenericOp):
        if op.res or any(not isinstance(v.type, MemRefType) for v in op.outputs):
            return False
        written = list(op.outputs)
    elif op.name == "memref.copy":
        written = [op.operands[1]]
    else:
        return False
    output = chain.output
    for operand in op.operands:
        if not isinstance(operand.type, MemRefType):
            continue
        if any(root_buffer(operand) is r for r in chain.intermediates):
            return False
        if may_alias(operand, output):
            return False
    return not any(
        may_alias(read, target)
        for chain_op in earlier
        for read in shaped_inputs(chain_op)
        for target in written
    )


def _users_through_views(root: SSAValue) -> list[Operation]:
    users: list[Operation] = []
    pending = [root]
    while pending:
        value = pending.pop()
        for use in value.uses:
            if use.operation.name in VIEW_OPS:
                pending.extend(use.operation.results)
            else:
                users.append(use.operation)
    return users


def attention_chain(values: GenericOp) -> AttentionChain | None:
    """The attention whose values (`o = p v`) are `values`, if it is one."""
    try:
        return _match_from(values)
    except _NoMatch:
        return None


def attention_chains(block: Block) -> list[AttentionChain]:
    """The attention chains of `block`, in order."""
    chains: list[AttentionChain] = []
    for op in list(block.ops):
        if isinstance(op, GenericOp):
            chain = attention_chain(op)
            if chain is not None:
                chains.append(chain)
    return chains
