"""Which neighbours of a tiled contraction can run in its tiles.

A matmul on buffers, as `bufferize` leaves torch-mlir's `nn.Linear`, comes
with a fill of its output before it and an elementwise op reading that output
after it (bias, activation, residual):

```mlir
linalg.generic {... ["parallel", "parallel"]} ins(%zero : f32) outs(%c ...)
linalg.generic {... matmul ...} ins(%a, %b ...) outs(%c ...)
%d = memref.alloc() : memref<1024x2304xf32>
linalg.generic {... ["parallel", "parallel"]} ins(%c, %bias ...) outs(%d ...)
```

Tiled as the matmul is, with the same thread owning the same output
elements, the fill can run in the matmul's kernel before its reduction loop
and the elementwise op after it (the same holds for any reduction on
buffers, such as the sum of a split matmul's parts, `linalg-split-reduction`,
whatever plan tiles it): each thread writes, accumulates and reads
back only its own elements, so nothing but the kernel boundary kept them
apart. This module says when that holds (`fusable_prologue`,
`fusable_epilogue`); `linalg-tile-for-gpu` does the tiling.

Both neighbours are `linalg.generic`s on memrefs over the contraction's
output space: all loops parallel, one loop per output dimension, and the
output read (epilogue) or written (prologue) through the identity map, the
same value the contraction writes. Between a neighbour and the contraction
only *inert* ops may sit: allocations, views and constants, which touch no
element (`INERT_OPS`), and after the contraction deallocations too; the
fused nest takes the contraction's place, and the inert ops between it and
its epilogue move before it (the deallocations stay after it).

- The **prologue** writes only the contraction's output `C`, without reading
  its old value, and reads nothing that may alias `C`.
- The **epilogue** reads `C` only as itself through the identity map (or,
  when `linalg-pad-contractions` padded the product, its leading corner, the
  view the padded product's readers see: the epilogue then spans the corner,
  and the tiling clamps its tiles to it); writes
  nothing the contraction reads (its inputs `A`, `B` are read by every block
  until the last K step, so an output aliasing them would race); and any of
  its inputs that may alias `C` or one of its outputs is that very value,
  read through the identity map as outputs are written, and an output that
  may alias `C` is `C`: each thread reads and writes only the elements it
  owns.

A contraction's input can also have a **staged producer** (issue 18's
implicit GEMM: the im2col gather of `linalg-conv-to-im2col`), which the
tiling runs while staging each K step's operand tile in workgroup memory,
so that the operand never exists in global memory (`fusable_staged_producers`):

- the input is a `memref.alloc` of static shape, used only as the
  producer's output, as that one input of the contraction (read through a
  map whose results are plain loops, a tile is a box) and by
  `memref.dealloc`s: nothing else reads it, no view of it escapes; or an
  `expand_shape` of such an allocation that only the contraction reads (a
  split matmul's parts of K, `linalg-split-reduction`), when the producer
  has no inputs (its indices are then the expanded ones, linearised);
- the producer is an all-parallel `linalg.generic` without results that
  writes the whole buffer through the identity map, without reading its old
  value; its body is a pure function of its `linalg.index` values and of
  loads (`memref.load`) of other buffers (an im2col gather with its
  padding's `select`), its inputs (if any) read through plain loops too;
- it comes before the contraction in the same block, and nothing between
  them writes a buffer it reads (it then computes the same values later);
  deallocations between them of buffers it reads (`bufferize` frees a
  buffer after its last reader, the producer) are listed, to move after
  the contraction.

Aliasing is `irkit.analysis.aliasing.may_alias`: an allocation aliases no
other root, an `{irkit.output}` argument no other argument, while two input
arguments, or anything it cannot see into, may alias.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free

from irkit.analysis.aliasing import VIEW_OPS, may_alias
from irkit.dialects import memref

# Ops that touch no element of any buffer: the fused nest may move past them.
INERT_OPS = frozenset({"memref.alloc", "arith.constant", *VIEW_OPS})


def _maps(op: GenericOp) -> list[AffineMap]:
    return [attr.data for attr in op.indexing_maps]


def output_loops(contraction: GenericOp) -> list[int] | None:
    """The contraction loop each output dimension is indexed by, when its
    output map is a plain list of loops (`(d0, d1, d2) -> (d0, d1)`)."""
    output_map = _maps(contraction)[len(contraction.inputs)]
    loops = [e.position for e in output_map.results if isinstance(e, AffineDimExpr)]
    if len(loops) != len(output_map.results):
        return None
    return loops


def _over_output_space(neighbour: GenericOp, output: SSAValue) -> bool:
    """All parallel, with one loop per dimension of `output` (static)."""
    output_type = output.type
    if not isinstance(output_type, MemRefType):
        return False
    shape = output_type.get_shape()
    return (
        len(neighbour.res) == 0
        and len(neighbour.iterator_types) == len(shape)
        and all(kind.data == IteratorType.PARALLEL for kind in neighbour.iterator_types)
        and all(size >= 0 for size in shape)
    )


def _neighbours(op: Operation, forward: bool) -> Iterator[Operation]:
    """The ops after (`forward`) or before `op` in its block, nearest first."""
    current = op.next_op if forward else op.prev_op
    while current is not None:
        yield current
        current = current.next_op if forward else current.prev_op


def _first_non_inert(op: Operation, forward: bool) -> Operation | None:
    """The nearest op before or after `op` that is not inert. After it, a
    `memref.dealloc` counts as inert too: the epilogue moves before it, and
    cannot read what it frees (that would be a use after free already)."""
    for neighbour in _neighbours(op, forward):
        if forward and neighbour.name == "memref.dealloc":
            continue
        if neighbour.name not in INERT_OPS or neighbour.regions:
            return neighbour
    return None


def _fusable_reduction(contraction: GenericOp) -> SSAValue | None:
    """The output of a reduction on memrefs (a contraction, or the sum of a
    split matmul's parts) that neighbours can fuse with: one output, no
    results, some reduction loop."""
    if contraction.res or len(contraction.outputs) != 1:
        return None
    if not any(
        kind.data == IteratorType.REDUCTION for kind in contraction.iterator_types
    ):
        return None
    if output_loops(contraction) is None:
        return None
    (output,) = contraction.outputs
    return output


def is_corner_of(value: SSAValue, output: SSAValue) -> bool:
    """Whether `value` is `output`, or the view of its leading corner that
    `linalg-pad-contractions` leaves readers of a padded product (a
    `memref.subview` at offsets 0, strides 1, of the same rank)."""
    if value is output:
        return True
    view = value.owner
    if not isinstance(view, memref.SubviewOp) or view.source is not output:
        return False
    offsets = view.static_offsets.get_values()
    strides = view.static_strides.get_values()
    return (
        not view.offsets
        and not view.sizes
        and not view.strides
        and all(offset == 0 for offset in offsets)
        and all(stride == 1 for stride in strides)
        and len(offsets) == len(view.static_sizes.get_values())
        and isinstance(value.type, MemRefType)
        and isinstance(output.type, MemRefType)
        and value.type.get_num_dims() == output.type.get_num_dims()
    )


def fusable_prologue(contraction: GenericOp) -> GenericOp | None:
    """The op before `contraction` that initialises its whole output, when it
    can run in the contraction's thread tiles (see the module docstring)."""
    output = _fusable_reduction(contraction)
    if output is None:
        return None
    prologue = _first_non_inert(contraction, forward=False)
    if not isinstance(prologue, GenericOp) or not _over_output_space(prologue, output):
        return None
    if list(prologue.outputs) != [output]:
        return None
    identity = AffineMap.identity(len(prologue.iterator_types))
    if _maps(prologue)[len(prologue.inputs)] != identity:
        return None
    if prologue.body.block.args[len(prologue.inputs)].uses:
        return None  # reads the old value
    if any(
        isinstance(value.type, MemRefType) and may_alias(value, output)
        for value in prologue.inputs
    ):
        return None
    return prologue


def fusable_epilogue(contraction: GenericOp) -> GenericOp | None:
    """The op after `contraction` that reads its output elementwise, when it
    can run in the contraction's thread tiles (see the module docstring)."""
    output = _fusable_reduction(contraction)
    if output is None:
        return None
    epilogue = _first_non_inert(contraction, forward=True)
    if not isinstance(epilogue, GenericOp):
        return None
    product = next(
        (value for value in epilogue.inputs if is_corner_of(value, output)), None
    )
    if product is None or not _over_output_space(epilogue, product):
        return None
    maps = _maps(epilogue)
    identity = AffineMap.identity(len(epilogue.iterator_types))
    inputs = list(zip(epilogue.inputs, maps, strict=False))
    outputs = list(zip(epilogue.outputs, maps[len(epilogue.inputs) :], strict=True))
    if any(map_ != identity for _, map_ in outputs):
        return None
    for value, map_ in inputs:
        if not isinstance(value.type, MemRefType):
            continue
        for written in [product, *epilogue.outputs]:
            # The element a thread reads is the one it owns: the same view.
            if may_alias(value, written) and (value is not written or map_ != identity):
                return None
    for written in epilogue.outputs:
        if may_alias(written, output) and written is not product:
            return None
    if any(
        may_alias(out, read)
        for out, _ in outputs
        for read in contraction.inputs
        if isinstance(read.type, MemRefType)
    ):
        return None
    return epilogue


def _plain_loops(map_: AffineMap) -> bool:
    """Whether every result of `map_` is a loop of its own (`(d0, d3, d2)`)."""
    loops = [e.position for e in map_.results if isinstance(e, AffineDimExpr)]
    return len(loops) == len(map_.results) == len(set(loops))


def _written_buffers(op: Operation) -> list[SSAValue] | None:
    """The memrefs `op` may write; None when it may write what it cannot
    name (an op with regions other than a `linalg` op, a call)."""
    if op.name in INERT_OPS or op.name == "memref.dealloc":
        return []
    if isinstance(op, GenericOp) or op.name.startswith("linalg."):
        return list(getattr(op, "outputs", ()))
    if isinstance(op, memref.StoreOp):
        return [op.memref]
    if isinstance(op, memref.CopyOp):
        return [op.destination]
    if not op.regions and is_side_effect_free(op):
        return []
    return None


# Dialects of value ops only: none reads or writes memory (xDSL declares no
# effects on some of them, such as `arith.remui`).
_VALUE_DIALECTS = ("arith.", "math.")


def _computes_only(op: Operation) -> bool:
    """Whether `op` (without regions) only computes values: no memory
    effects, or none but reads; an op with unknown effects does not."""
    if op.regions:
        return False
    if op.name.startswith(_VALUE_DIALECTS):
        return True
    effects = get_effects(op)
    return effects is not None and all(
        effect.kind == MemoryEffectKind.READ for effect in effects
    )


def _producer_reads(producer: GenericOp) -> list[SSAValue] | None:
    """The memrefs the producer's body loads and its inputs, when its body
    is otherwise pure (see the module docstring); None when it is not."""
    reads = [value for value in producer.inputs if isinstance(value.type, MemRefType)]
    for op in producer.body.walk():
        if isinstance(op, memref.LoadOp):
            reads.append(op.memref)
        elif not isinstance(op, IndexOp | YieldOp) and not _computes_only(op):
            return None
    return reads


@dataclass(frozen=True)
class StagedProducer:
    """The producer of a contraction's input that its staging runs: it
    writes `buffer`, which the contraction reads as itself or through
    `reshape`."""

    producer: GenericOp
    buffer: SSAValue
    reshape: memref.ExpandShapeOp | None
    # Deallocations, between the producer and the contraction, of buffers
    # the producer reads: they must move after the contraction's kernel.
    frees: tuple[Operation, ...] = ()


def _staged_buffer(
    operand: SSAValue,
) -> tuple[SSAValue, memref.ExpandShapeOp | None] | None:
    """The allocation of static shape a contraction input is, or is an
    `expand_shape` of (read by nothing else), and that reshape."""
    buffer = operand
    reshape: memref.ExpandShapeOp | None = None
    if isinstance(operand.owner, memref.ExpandShapeOp):
        if not operand.has_one_use():
            return None
        reshape = operand.owner
        buffer = reshape.src
    if not isinstance(buffer, OpResult) or not isinstance(buffer.op, memref.AllocOp):
        return None
    buffer_type = buffer.type
    if not isinstance(buffer_type, MemRefType) or not buffer_type.has_static_shape():
        return None
    return buffer, reshape


def _sole_writer(
    buffer: SSAValue, reader: Operation, contraction: GenericOp
) -> GenericOp | None:
    """The one `linalg.generic` writing `buffer` (its only output), when
    `reader` (the contraction, as one input, or the reshape it reads) reads
    it once and nothing but deallocations otherwise uses it."""
    producer: GenericOp | None = None
    readers = 0
    for use in buffer.uses:
        user = use.operation
        if user is reader and (
            user is not contraction or use.index < len(contraction.inputs)
        ):
            readers += 1
        elif isinstance(user, GenericOp) and user is not contraction:
            if producer is not None or list(user.outputs) != [buffer]:
                return None
            producer = user
        elif user.name != "memref.dealloc":
            return None  # another reader, a view, an escape
    return producer if readers == 1 else None


def _is_elementwise_writer(producer: GenericOp, rank: int) -> bool:
    """All parallel over `rank` loops, writing its output through the
    identity map without reading it, reading its inputs through plain loops."""
    maps = _maps(producer)
    return not (
        producer.res
        or len(producer.iterator_types) != rank
        or not all(k.data == IteratorType.PARALLEL for k in producer.iterator_types)
        or maps[-1] != AffineMap.identity(rank)
        or not all(_plain_loops(map_) for map_ in maps[:-1])
        or producer.body.block.args[len(producer.inputs)].uses
    )


def _staged_producer(
    contraction: GenericOp, operand: SSAValue
) -> StagedProducer | None:
    """The producer of contraction input `operand` that its staging can run
    (see the module docstring), or None."""
    found = _staged_buffer(operand)
    if found is None:
        return None
    buffer, reshape = found
    producer = _sole_writer(buffer, reshape or contraction, contraction)
    if producer is None or (reshape is not None and producer.inputs):
        return None
    if producer.parent is not contraction.parent or not producer.is_before_in_block(
        contraction
    ):
        return None
    assert isinstance(buffer.type, MemRefType)
    if not _is_elementwise_writer(producer, buffer.type.get_num_dims()):
        return None
    reads = _producer_reads(producer)
    if reads is None or any(may_alias(read, buffer) for read in reads):
        return None
    frees: list[Operation] = []
    between = producer.next_op
    while between is not None and between is not contraction:
        if between.name == "memref.dealloc" and any(
            may_alias(between.operands[0], read) for read in reads
        ):
            frees.append(between)
        written = _written_buffers(between)
        if written is None or any(
            may_alias(target, read) for target in written for read in reads
        ):
            return None
        between = between.next_op
    return StagedProducer(producer, buffer, reshape, tuple(frees))


def fusable_staged_producers(contraction: GenericOp) -> dict[int, StagedProducer]:
    """Per input position of `contraction`, the producer its tiling can run
    while staging that input's tiles in workgroup memory (see the module
    docstring)."""
    if _fusable_reduction(contraction) is None:
        return {}
    maps = _maps(contraction)
    staged: dict[int, StagedProducer] = {}
    for position, operand in enumerate(contraction.inputs):
        if not _plain_loops(maps[position]):
            continue
        found = _staged_producer(contraction, operand)
        if found is not None and all(
            found.producer is not other.producer for other in staged.values()
        ):
            staged[position] = found
    return staged


def has_gathered_operand(contraction: GenericOp) -> bool:
    """Whether an operand of `contraction` is produced, in its staging
    (`fusable_staged_producers`), by a gather such as an im2col: a producer
    reading an input through a map that is not a projection of its loops
    (window sums, divisions), or loading elements at computed indices. Such
    implicit GEMMs take tiles of their own on the GPU
    (`lower-to-cuda{conv-block}`)."""
    for found in fusable_staged_producers(contraction).values():
        producer = found.producer
        maps = [m.data for m in producer.indexing_maps.data[: len(producer.inputs)]]
        if any(
            not all(
                isinstance(e, AffineDimExpr | AffineConstantExpr) for e in m.results
            )
            for m in maps
        ) or any(
            op.name in ("memref.load", "tensor.extract") for op in producer.body.walk()
        ):
            return True
    return False
