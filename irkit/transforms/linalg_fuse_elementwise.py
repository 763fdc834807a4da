"""`linalg-fuse-elementwise`: fuse elementwise producers into their consumers.

Mirrors MLIR's `linalg-fuse-elementwise-ops` (`ElementwiseOpFusion.cpp`),
producer into consumer, on tensors. Three generics computing `relu(a * b + c)`
become one:

```mlir
%m = linalg.generic {... ["parallel"]} ins(%a, %b ...) outs(%e ...) { mulf }
%s = linalg.generic {... ["parallel"]} ins(%m, %c ...) outs(%e ...) { addf }
%r = linalg.generic {... ["parallel"]} ins(%s ...) outs(%e ...) { maximumf }
```

becomes one `linalg.generic` over `ins(%a, %b, %c)` whose body is
`mulf; addf; maximumf`.

A producer `P` is fused into the consumer `C` at input operand `%x = P#r` when

- both are `linalg.generic` on tensors in the same block, and `P`'s loops
  are all parallel;
- `P`'s output map for `r` is a permutation of all loops, and so is `C`'s
  map for `%x`: each element of `%x` is computed once and read once, so
  fusing does not recompute anything (a broadcasting or projected read is not
  fused). `C`'s map may be any map when `P` only copies for `r` (its body
  yields an input's argument unchanged: a generalized `linalg.transpose`,
  `linalg.broadcast` or `linalg.copy`), since a copy has nothing to
  recompute: a matmul whose weight torch-mlir transposes first then reads
  the weight itself through the transposed map (MLIR's elementwise fusion
  takes such a producer too); and likewise when `P` only widens an input
  for `r` (`arith.extf`, `extsi`, `extui` of it), as torch-mlir's
  half-precision `torch.mm` widens each operand before an f32 matmul: the
  matmul then reads the narrow operands and widens them in its body;
- `%x` has no other use and `P`'s other results none at all (a value several
  users need stays materialised; multi-result producers fuse only in that case);
- except for *generators* (`is_index_generator`): a `P` that reads no tensor
  and computes a few integer ops of its loop indices (torch-mlir's `arange`,
  the causal mask compared from two of them) is fused into every consumer,
  through any map of dims and constants, and erased once none reads it:
  recomputing a few integer ops costs less than a kernel writing the tensor
  and the reads of it;
- `P`'s body does not read its outputs' initial values;
- every loop of `C` is still read by some operand of the fused op (MLIR's
  check too): `C`'s loop extents come from its operands' shapes, and a
  reduction loop that only `%x` read would be lost when `%x` is replaced by
  `P`'s inputs (a broadcast `1 -> 1x1` fused into `reduce_max` over its new
  axis left the fused op's maps `(d0, d1) -> (d1)`, not invertible).

The fused op takes `C`'s inputs with `P`'s inputs in place of `%x`, each
producer map composed as `producer_map o inverse(P's output map) o C's map for
%x`, and one operand for a (value, map) pair that occurs twice. Its body is
`P`'s body (its `linalg.index` renumbered through the same permutation) then
`C`'s, with `C`'s argument for `%x` replaced by `P`'s yielded value.

A splat constant read by a `linalg.generic` on tensors (`arith.constant
dense<true> : tensor<512x512xi1>`, as torch-mlir writes a causal mask's
fill) is folded into it, as MLIR's `FoldScalarOrSplatConstant` does: the
operand is dropped and its block argument becomes one scalar
`arith.constant` before the op, provided the other operands still read
every loop. Nothing then materialises the tensor (the printers wrote every
element of it: 27 MB of CUDA C for a 2048x2048 mask).

A fill (`linalg.fill`, or a generic that `is_fill`) that several linalg ops
take as their init, and nothing else reads, becomes one clone right before
each of them: torch-mlir gives two matmuls of one shape the same zero-filled
init, which then had to be materialised once and copied into each product.

A result of a multi-result `linalg.generic` on tensors that nothing uses is
dropped with its output and the body ops that only computed it (MLIR's
`EraseUnusedOperandsAndResults`): torch-mlir's softmax computes `argmax`
beside its `max` and never reads it. Not when the other results read that
output's value, or when it is the only result. Its init's producers (a fill,
an empty tensor) go too when nothing else reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as upstream
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead

from irkit.analysis.structured import is_fill
from irkit.dialects.linalg import GenericOp
from irkit.dtypes import dense_to_array, is_float_dtype

# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def _maps(op: GenericOp) -> list[AffineMap]:
    return [attr.data for attr in op.indexing_maps]


def _is_permutation(map_: AffineMap) -> bool:
    """Every loop appears exactly once, alone, as a result."""
    positions = [
        expr.position for expr in map_.results if isinstance(expr, AffineDimExpr)
    ]
    return (
        map_.num_symbols == 0
        and len(map_.results) == map_.num_dims
        and sorted(positions) == list(range(map_.num_dims))
    )


def _all_parallel(op: GenericOp) -> bool:
    return all(kind.data.value == "parallel" for kind in op.iterator_types)


def _on_tensors(op: GenericOp) -> bool:
    return len(op.res) == len(op.outputs) and all(
        isinstance(value.type, TensorType) for value in op.outputs
    )


def _reads_outputs(op: GenericOp) -> bool:
    return any(arg.uses for arg in op.body.block.args[len(op.inputs) :])


# --------------------------------------------------------------------------
# The fusion itself
# --------------------------------------------------------------------------


def fusable_producer(
    consumer: GenericOp,
    operand_index: int,
    fold_copies: bool = True,
    recompute_broadcasts: bool = False,
) -> GenericOp | None:
    """The producer of `consumer.inputs[operand_index]` when it can be fused
    into `consumer` there (see the module docstring), else None. With
    `fold_copies=False` a copy is fused only where its consumer reads it
    through a permutation, as any other producer. With
    `recompute_broadcasts=True` a cheap producer (`is_cheap_to_recompute`)
    that an elementwise consumer reads broadcast is fused too."""
    value = consumer.inputs[operand_index]
    producer = value.owner
    if not isinstance(producer, GenericOp) or producer is consumer:
        return None
    if producer.parent_block() is not consumer.parent_block():
        # E.g. a consumer in a loop body would recompute it every iteration.
        return None
    if not (_on_tensors(producer) and _on_tensors(consumer)):
        return None
    if not _all_parallel(producer) or _reads_outputs(producer):
        return None
    result_index = producer.res.index(value)
    generator = is_index_generator(producer)
    if not (
        _is_permutation(_maps(consumer)[operand_index])
        or (
            fold_copies
            and (
                is_copy_of_input(producer, result_index)
                or is_widening_of_input(producer, result_index)
            )
        )
        or generator
        or (
            recompute_broadcasts
            and _all_parallel(consumer)
            and _is_broadcast(_maps(consumer)[operand_index])
            and is_cheap_to_recompute(producer)
        )
    ):
        return None
    if not _is_permutation(_maps(producer)[len(producer.inputs) + result_index]):
        return None
    if not (value.has_one_use() or generator):
        return None
    if generator and not all(
        isinstance(expr, AffineDimExpr | AffineConstantExpr)
        for expr in _maps(consumer)[operand_index].results
    ):
        return None  # a window `d0 + d1` would need affine math in the body
    if any(result.uses for result in producer.res if result is not value):
        return None
    if not _keeps_every_loop(producer, consumer, operand_index):
        return None
    return producer


# Integer and index ops: what a mask or a position computes from the loop
# indices. A generator of these recomputes for nothing next to a load.
_GENERATOR_OPS = frozenset(
    {
        "linalg.index",
        "arith.constant",
        "arith.index_cast",
        "arith.index_castui",
        "arith.addi",
        "arith.subi",
        "arith.muli",
        "arith.andi",
        "arith.ori",
        "arith.xori",
        "arith.cmpi",
        "arith.select",
        "arith.extsi",
        "arith.extui",
        "arith.trunci",
        "arith.maxsi",
        "arith.minsi",
        "arith.maxui",
        "arith.minui",
    }
)
_GENERATOR_MAX_OPS = 8


def is_index_generator(producer: GenericOp) -> bool:
    """Whether `producer` computes its elements from the loop indices and
    scalars alone, in a few integer ops: it reads no tensor (torch-mlir's
    `arange`, the causal mask compared from two of them). Such a producer is
    fused into every consumer, through any map: recomputing a few integer
    ops is cheaper than writing the tensor and reading it back."""
    body = producer.body.block
    ops = [op for op in body.ops if op is not body.last_op]
    return (
        not any(isinstance(value.type, ShapedType) for value in producer.inputs)
        and len(ops) <= _GENERATOR_MAX_OPS
        and all(op.name in _GENERATOR_OPS for op in ops)
    )


# At most this many scalar ops in a producer recomputed per element of a
# consumer that reads it broadcast: a batch norm's `1 / sqrt(var + eps)` per
# channel (with torch-mlir's `cf.assert` that the root is not zero) is 6.
_RECOMPUTE_MAX_OPS = 8


def _is_broadcast(map_: AffineMap) -> bool:
    """Each result a distinct loop, or 0: a projected permutation, which
    reads every element once or many times (a per-channel vector over an
    image)."""
    positions = [
        expr.position for expr in map_.results if isinstance(expr, AffineDimExpr)
    ]
    return (
        map_.num_symbols == 0
        and len(set(positions)) == len(positions)
        and all(
            isinstance(expr, AffineDimExpr)
            or (isinstance(expr, AffineConstantExpr) and expr.value == 0)
            for expr in map_.results
        )
    )


def is_cheap_to_recompute(producer: GenericOp) -> bool:
    """Whether `producer`'s body is a few scalar ops without regions
    (`_RECOMPUTE_MAX_OPS`): recomputed for each element of an elementwise
    consumer that reads it broadcast, it costs a few instructions per element
    of a kernel bound by its memory traffic, where a kernel of its own costs
    a launch and a round trip through memory (the batch norm's per-channel
    `rsqrt` before a convolution's epilogue)."""
    body = producer.body.block
    ops = [op for op in body.ops if op is not body.last_op]
    return len(ops) <= _RECOMPUTE_MAX_OPS and not any(op.regions for op in ops)


def is_copy_of_input(producer: GenericOp, result_index: int) -> bool:
    """Whether result `result_index` of `producer` is a copy of one of its
    inputs, re-indexed: the body computes nothing for it (`linalg.yield` of
    an input's block argument), as a generalized `linalg.transpose`,
    `linalg.broadcast` or `linalg.copy` is. Read through any map, such a
    result costs no recomputation: fused, the consumer reads the input in
    its place (a matmul reads its weight through the transposed map)."""
    body = producer.body.block
    yield_op = body.last_op
    if not isinstance(yield_op, upstream.YieldOp) or body.first_op is not yield_op:
        return False
    element = yield_op.operands[result_index]
    return element in body.args[: len(producer.inputs)]


# Conversions that change an element's type without losing anything.
_WIDENING_OPS = frozenset({"arith.extf", "arith.extsi", "arith.extui"})


def is_widening_of_input(producer: GenericOp, result_index: int) -> bool:
    """Whether result `result_index` of `producer` is one of its inputs,
    re-indexed and widened (`linalg.yield` of one `arith.extf`/`extsi`/
    `extui` of an input's block argument): torch-mlir's half-precision
    `torch.mm` widens both operands in generics of their own before an f32
    matmul. Read through any map, such a result costs one conversion per
    read, less than writing the wide tensor and reading it back; fused, the
    matmul reads its half-precision operands and widens them in its body,
    the form tensor-core kernels take (`convert-linalg-to-mma`)."""
    body = producer.body.block
    yield_op = body.last_op
    conversion = body.first_op
    if (
        not isinstance(yield_op, upstream.YieldOp)
        or conversion is None
        or conversion.next_op is not yield_op
        or conversion.name not in _WIDENING_OPS
    ):
        return False
    return (
        yield_op.operands[result_index] is conversion.results[0]
        and conversion.operands[0] in body.args[: len(producer.inputs)]
    )


def _keeps_every_loop(
    producer: GenericOp, consumer: GenericOp, operand_index: int
) -> bool:
    """Whether the fused op's operands would still read every consumer loop:
    the consumer's other operands, and the producer's inputs through the
    composed maps."""
    consumer_maps = _maps(consumer)
    producer_maps = _maps(producer)
    result_index = producer.res.index(consumer.inputs[operand_index])
    inverse = producer_maps[len(producer.inputs) + result_index].inverse_permutation()
    assert inverse is not None  # a permutation (checked before)
    producer_loops = inverse.compose(consumer_maps[operand_index])
    maps = [m for i, m in enumerate(consumer_maps) if i != operand_index]
    maps += [m.compose(producer_loops) for m in producer_maps[: len(producer.inputs)]]
    read = {dim for m in maps for expr in m.results for dim in expr.used_dims()}
    return read == set(range(len(consumer.iterator_types)))


@dataclass
class _FusedOperands:
    """The fused op's inputs, one per distinct (value, map) pair."""

    values: list[SSAValue]
    maps: list[AffineMap]
    arg_types: list[Attribute]

    def add(self, value: SSAValue, map_: AffineMap, arg_type: Attribute) -> int:
        """The position of `(value, map_)`, appended if new."""
        for position, (known, known_map) in enumerate(
            zip(self.values, self.maps, strict=True)
        ):
            if known is value and known_map == map_:
                return position
        self.values.append(value)
        self.maps.append(map_)
        self.arg_types.append(arg_type)
        return len(self.values) - 1


def _renumber_indices(op: Operation, producer_to_consumer: AffineMap) -> None:
    """`linalg.index d` of the producer's loop d becomes the consumer's loop."""
    for nested in op.walk():
        if isinstance(nested, upstream.IndexOp):
            expr = producer_to_consumer.results[nested.dim.value.data]
            assert isinstance(expr, AffineDimExpr)
            nested.properties["dim"] = IntegerAttr(expr.position, i64)


def _index_at_constant(op: Operation, producer_to_consumer: AffineMap) -> int | None:
    """The constant a consumer reads the producer's loop at, when `op` is a
    `linalg.index` of such a loop (a generator read through a broadcast)."""
    if not isinstance(op, upstream.IndexOp):
        return None
    expr = producer_to_consumer.results[op.dim.value.data]
    return expr.value if isinstance(expr, AffineConstantExpr) else None


def _erase_dead(block: Block, ops: Sequence[Operation]) -> None:
    """Erase those of `ops` that only fed producer results no longer yielded."""
    for op in reversed(ops):
        if would_be_trivially_dead(op) and not any(r.uses for r in op.results):
            block.erase_op(op)


def fuse_producer_into_consumer(
    producer: GenericOp, consumer: GenericOp, operand_index: int
) -> GenericOp:
    """Build (without inserting) `consumer` with `producer` fused in at input
    `operand_index`. The caller checks `fusable_producer` first; neither op is
    changed."""
    fused_value = consumer.inputs[operand_index]
    result_index = producer.res.index(fused_value)
    consumer_maps = _maps(consumer)
    producer_maps = _maps(producer)
    producer_args = producer.body.block.args
    consumer_args = consumer.body.block.args
    num_consumer_inputs = len(consumer.inputs)
    inverse = producer_maps[len(producer.inputs) + result_index].inverse_permutation()
    assert inverse is not None
    # Consumer loops -> producer loops (a permutation).
    producer_loops = inverse.compose(consumer_maps[operand_index])

    # Inputs: the consumer's, with the producer's in place of the fused one.
    operands = _FusedOperands([], [], [])
    arg_position: dict[SSAValue, int] = {}
    for index, (value, map_) in enumerate(
        zip(consumer.inputs, consumer_maps[:num_consumer_inputs], strict=True)
    ):
        if index != operand_index:
            arg_position[consumer_args[index]] = operands.add(
                value, map_, consumer_args[index].type
            )
            continue
        for p_index, (p_value, p_map) in enumerate(
            zip(producer.inputs, producer_maps[: len(producer.inputs)], strict=True)
        ):
            arg_position[producer_args[p_index]] = operands.add(
                p_value, p_map.compose(producer_loops), producer_args[p_index].type
            )
    out_types = [arg.type for arg in consumer_args[num_consumer_inputs:]]
    block = Block(arg_types=[*operands.arg_types, *out_types])
    value_map: dict[SSAValue, SSAValue] = {}
    for old, position in arg_position.items():
        value_map[old] = block.args[position]
    for out_index, old in enumerate(consumer_args[num_consumer_inputs:]):
        value_map[old] = block.args[len(operands.values) + out_index]
    for old, new in value_map.items():
        # Keep the source's names (`%in`, `%out`) where the new argument has none.
        if new.name_hint is None:
            new.name_hint = old.name_hint

    # The producer's body computes the element the consumer reads.
    producer_yield = producer.body.block.last_op
    assert isinstance(producer_yield, upstream.YieldOp)
    producer_ops: list[Operation] = []
    for op in producer.body.block.ops:
        if op is producer_yield:
            break
        constant = _index_at_constant(op, producer_loops)
        if constant is not None:
            clone: Operation = arith.ConstantOp(IntegerAttr(constant, IndexType()))
            value_map[op.results[0]] = clone.results[0]
        else:
            clone = op.clone(value_mapper=value_map)
            _renumber_indices(clone, producer_loops)
        block.add_op(clone)
        producer_ops.append(clone)
    element = producer_yield.operands[result_index]
    value_map[consumer_args[operand_index]] = value_map.get(element, element)

    for op in consumer.body.block.ops:
        block.add_op(op.clone(value_mapper=value_map))
    _erase_dead(block, producer_ops)

    fused = GenericOp(
        operands.values,
        consumer.outputs,
        Region(block),
        [
            AffineMapAttr(map_)
            for map_ in (*operands.maps, *consumer_maps[num_consumer_inputs:])
        ],
        consumer.iterator_types,
        [result.type for result in consumer.res],
        consumer.doc,
        consumer.library_call,
    )
    fused.location = consumer.location
    return fused


# --------------------------------------------------------------------------
# Pattern and pass
# --------------------------------------------------------------------------


@dataclass
class FuseElementwiseProducer(RewritePattern):
    """Fuse the first fusable producer of a `linalg.generic` into it."""

    fold_copies: bool = True
    recompute_broadcasts: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, consumer: GenericOp, rewriter: PatternRewriter) -> None:
        for operand_index in range(len(consumer.inputs)):
            producer = fusable_producer(
                consumer, operand_index, self.fold_copies, self.recompute_broadcasts
            )
            if producer is None:
                continue
            fused = fuse_producer_into_consumer(producer, consumer, operand_index)
            rewriter.replace(consumer, fused)
            if not any(result.uses for result in producer.res):
                rewriter.erase(producer)  # a generator may have other readers
            return


def splat_scalar(value: SSAValue) -> IntegerAttr | FloatAttr | None:
    """The one element of a splat `arith.constant` tensor, as a scalar
    attribute (None for anything else, and for a NaN splat)."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return None
    attr = owner.value
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    if not isinstance(attr.type, TensorType):
        return None
    array = dense_to_array(attr)
    if array.size == 0 or not bool((array == array.flat[0]).all()):
        return None
    element_type = attr.get_element_type()
    first = array.flat[0]
    if is_float_dtype(array.dtype):
        return FloatAttr(float(first), element_type)
    return IntegerAttr(int(first), element_type)


def fold_splat_input(op: GenericOp, operand_index: int) -> GenericOp | None:
    """`op` without input `operand_index` (a splat constant), its block
    argument replaced by a scalar constant inserted before `op` by the
    caller; None when that input is no splat, or the only reader of a loop."""
    scalar = splat_scalar(op.inputs[operand_index])
    if scalar is None:
        return None
    maps = _maps(op)
    kept_maps = [m for i, m in enumerate(maps) if i != operand_index]
    read = {dim for m in kept_maps for expr in m.results for dim in expr.used_dims()}
    if read != set(range(len(op.iterator_types))):
        return None
    args = op.body.block.args
    block = Block(arg_types=[a.type for i, a in enumerate(args) if i != operand_index])
    value_map: dict[SSAValue, SSAValue] = {}
    kept_args = [a for i, a in enumerate(args) if i != operand_index]
    for old, new in zip(kept_args, block.args, strict=True):
        new.name_hint = old.name_hint
        value_map[old] = new
    constant = arith.ConstantOp(scalar)
    value_map[args[operand_index]] = constant.result
    block.add_op(constant)
    for body_op in op.body.block.ops:
        block.add_op(body_op.clone(value_mapper=value_map))
    folded = GenericOp(
        [v for i, v in enumerate(op.inputs) if i != operand_index],
        op.outputs,
        Region(block),
        [AffineMapAttr(m) for m in kept_maps],
        op.iterator_types,
        [result.type for result in op.res],
        op.doc,
        op.library_call,
    )
    folded.location = op.location
    return folded


class FoldSplatConstantInput(RewritePattern):
    """Fold the first splat-constant input of a `linalg.generic` on tensors
    into its body (MLIR's `FoldScalarOrSplatConstant`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not _on_tensors(op):
            return
        for operand_index in range(len(op.inputs)):
            folded = fold_splat_input(op, operand_index)
            if folded is None:
                continue
            # The scalar is the body's first op: hoist it before the generic,
            # where every iteration shares it (MLIR creates it there).
            constant = folded.body.block.first_op
            assert isinstance(constant, arith.ConstantOp)
            constant.detach()
            rewriter.insert(constant, InsertPoint.before(op))
            rewriter.replace(op, folded)
            return


def _needed_ops(block: Block, results: Sequence[SSAValue]) -> set[Operation]:
    """The ops of `block` that `results` (values yielded) depend on."""
    needed: set[Operation] = set()
    pending = list(results)
    while pending:
        owner = pending.pop().owner
        if not isinstance(owner, Operation) or owner in needed:
            continue
        if owner.parent_block() is not block:
            continue
        needed.add(owner)
        for nested in owner.walk():  # the op and any region inside it
            pending += nested.operands
    return needed


def without_unused_result(op: GenericOp, result_index: int) -> GenericOp | None:
    """`op` without result `result_index`, which nothing uses, and without
    the body ops that only computed it; None when the other results read
    that result's output value (its init would then have to become an input),
    or when it is the only result."""
    if len(op.res) < 2 or op.res[result_index].uses or not _on_tensors(op):
        return None
    block = op.body.block
    yield_op = block.last_op
    assert isinstance(yield_op, upstream.YieldOp)
    kept = [v for i, v in enumerate(yield_op.operands) if i != result_index]
    needed = _needed_ops(block, kept)
    out_arg = block.args[len(op.inputs) + result_index]
    if any(use.operation in needed for use in out_arg.uses) or out_arg in kept:
        return None
    dropped_position = len(op.inputs) + result_index
    new_block = Block(
        arg_types=[a.type for i, a in enumerate(block.args) if i != dropped_position]
    )
    value_map: dict[SSAValue, SSAValue] = {}
    old_args = [a for i, a in enumerate(block.args) if i != dropped_position]
    for old, new in zip(old_args, new_block.args, strict=True):
        new.name_hint = old.name_hint
        value_map[old] = new
    for body_op in block.ops:
        if body_op in needed:
            new_block.add_op(body_op.clone(value_mapper=value_map))
    new_block.add_op(upstream.YieldOp(*(value_map.get(v, v) for v in kept)))
    maps = [m for i, m in enumerate(_maps(op)) if i != dropped_position]
    reduced = GenericOp(
        op.inputs,
        [v for i, v in enumerate(op.outputs) if i != result_index],
        Region(new_block),
        [AffineMapAttr(m) for m in maps],
        op.iterator_types,
        [r.type for i, r in enumerate(op.res) if i != result_index],
        op.doc,
        op.library_call,
    )
    reduced.location = op.location
    return reduced


class EraseUnusedResult(RewritePattern):
    """Drop a `linalg.generic`'s unused result, its output and the body ops
    that only computed it (MLIR's `EraseUnusedOperandsAndResults`, part of
    its elementwise-fusion patterns): torch-mlir's softmax takes `max` with
    `argmax` beside it and never reads the indices, and a reduction with one
    result is a row reduction. The output's producer goes too if nothing
    else reads it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        for result_index in range(len(op.res)):
            reduced = without_unused_result(op, result_index)
            if reduced is None:
                continue
            init = op.outputs[result_index]
            new_results: list[SSAValue | None] = list(reduced.res)
            new_results.insert(result_index, None)
            rewriter.replace(op, reduced, new_results)
            _erase_dead_producers(init, rewriter)
            return


def _erase_dead_producers(value: SSAValue, rewriter: PatternRewriter) -> None:
    """Erase the chain of pure producers (a fill, the empty tensor it fills)
    that built `value`, as long as nothing else uses them."""
    producer = value.owner
    while isinstance(producer, Operation) and not any(r.uses for r in producer.results):
        is_fill = isinstance(producer, upstream.FillOp | GenericOp) and all(
            isinstance(r.type, TensorType) for r in producer.results
        )
        if not (is_fill or would_be_trivially_dead(producer)):
            return
        tensors = [v for v in producer.operands if isinstance(v.type, TensorType)]
        rewriter.erase(producer)
        if len(tensors) != 1:
            return
        producer = tensors[0].owner


def _next_to(fill: Operation, user: Operation) -> bool:
    """Whether only other inits of `user` (fills, empty tensors) and
    constants lie between `fill` and `user`: a reader of several filled
    outputs has them all before it, and none moves again."""
    current = fill.next_op
    while current is not None and current is not user:
        is_init = any(value in user.operands for value in current.results)
        if current.name not in ("arith.constant", "tensor.empty") and not is_init:
            return False
        current = current.next_op
    return current is user


class CloneSharedFill(RewritePattern):
    """A fill (`linalg.fill`, or a generic that `is_fill`) on tensors that
    several linalg ops take as their init becomes a clone right before each
    of them (IREE clones fills into each dispatch the same way).
    torch-mlir gives two matmuls of one shape one zero-filled init; shared,
    it had to be materialised and copied into each product's buffer, and
    neither matmul could fill its own output in its kernel. A fill writes
    what it would otherwise read, so a clone costs nothing more. A fill with
    one reader moves right before it (torch-mlir fills a depthwise
    convolution's init at the top of a MobileNet block, far from it: its
    fill then ran as a kernel of its own)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, fill: GenericOp | upstream.FillOp, rewriter: PatternRewriter
    ) -> None:
        if len(fill.results) != 1 or not isinstance(fill.results[0].type, TensorType):
            return
        if isinstance(fill, GenericOp) and not is_fill(fill):
            return
        result = fill.results[0]
        init_users = [
            use.operation
            for use in result.uses
            if isinstance(use.operation, LinalgStructuredOperation)
            and use.operation.parent_block() is fill.parent_block()
            and use.index >= len(use.operation.inputs)
        ]
        if not init_users or len(init_users) != len(list(result.uses)):
            return
        if len(init_users) == 1:
            (user,) = init_users
            if not _next_to(fill, user):
                # Its one reader's prologue: next to it, as `linalg-tile-for-
                # gpu` wants it to run the fill in the reader's grid.
                fill.detach()
                rewriter.insert(fill, InsertPoint.before(user))
            return
        for user in init_users:
            clone = fill.clone()
            rewriter.insert(clone, InsertPoint.before(user))
            for index, operand in enumerate(user.operands):
                if operand is result:
                    user.operands[index] = clone.results[0]
            rewriter.notify_op_modified(user)
        rewriter.erase(fill)


def fuse_elementwise_ops(
    module: ModuleOp, fold_copies: bool = True, recompute_broadcasts: bool = False
) -> None:
    """Drop unused results, fold splat-constant inputs and fuse producer
    generics into consumers in `module` until none applies."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [
                EraseUnusedResult(),
                CloneSharedFill(),
                FoldSplatConstantInput(),
                FuseElementwiseProducer(fold_copies, recompute_broadcasts),
            ]
        )
    ).rewrite_module(module)


@dataclass(frozen=True)
class LinalgFuseElementwisePass(ModulePass):
    """Fuse elementwise `linalg.generic` producers into their consumers.

    Input: any IR; only `linalg.generic` ops on tensors are considered (run
    `linalg-generalize-named-ops` first to include named ops). Nothing is
    rejected: a pair that does not meet the conditions in the module docstring
    is left as it is.

    Output: each fused producer/consumer pair is one `linalg.generic` with the
    consumer's results, outputs and iterators; chains fuse fully; fused
    producers are erased; a fill shared by several inits is one per init; a
    splat-constant input is a scalar `arith.constant` before the op instead
    (unless it alone reads a loop); unused results of
    multi-result generics are gone (see the module docstring).

    `fold-copies=false` keeps copies (transposes, broadcasts) that a consumer
    reads through a map other than a permutation: `lower-to-c` sets it, since
    its register tiles want a matmul's B rows contiguous (the MLP of
    `benchmarks/models` at M = 512 took 145 ms on the C target with the
    weight's transposed copy, 224 ms reading the weight through the
    transposed map; at M = 64 the fold was faster, 24 ms against 35).

    Preserves: semantics (each producer element is still computed exactly
    once, in the same element type, or, for a copy, read where it was
    copied from); unfused ops; the consumer's location.
    """

    name = "linalg-fuse-elementwise"

    fold_copies: bool = True
    # Cheap producers read broadcast by elementwise consumers are recomputed
    # there (`lower-to-cuda`: a kernel costs more than a few instructions per
    # element; `lower-to-c` keeps them, each element costs it the same).
    recompute_broadcasts: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fuse_elementwise_ops(op, self.fold_copies, self.recompute_broadcasts)
