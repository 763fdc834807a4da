"""Reading a constant `tensor.pad` through its source, with predicated loads.

torch-mlir writes a padded convolution or pooling as a `tensor.pad` of its
input by one value (zero, or `-inf` before a max pool) and a window op
reading the padded tensor. An op that reads the pad at computed indices (an
im2col gather, `linalg-conv-to-im2col`; a window read moved into the body,
`linalg-extract-windows`) can read the pad's source instead: at the index
where it lies in the source's bounds (0 where not, so the read stays in
bounds), selecting the padding value where the padded position falls
outside them. No padded copy is made (on the GPU, a
fill and a copy kernel each).

- `constant_padding(value)`: `value`'s padding when it is a `tensor.pad` of
  static sizes whose body yields one value defined outside it;
- `read_padded(padding, indices, element, add)`: the ops reading element
  `indices` of the padded tensor from the source, appended through `add`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, TensorType
from xdsl.dialects.tensor import ExtractOp
from xdsl.ir import Attribute, Operation, SSAValue

from irkit.dialects import tensor


@dataclass(frozen=True)
class ConstantPadding:
    """A `tensor.pad` of `source` by `low` elements before each dimension,
    with one `value` everywhere outside the source."""

    source: SSAValue
    low: tuple[int, ...]
    extent: tuple[int, ...]  # the source's shape
    value: SSAValue
    grown: tuple[int, ...]  # the dimensions the pad grows


def constant_padding(value: SSAValue) -> ConstantPadding | None:
    """`value`'s padding when `value` is a `tensor.pad` of static sizes and
    source, by a value defined outside the pad's body (not computed from
    the position)."""
    pad = value.owner
    if not isinstance(pad, tensor.PadOp) or pad.low or pad.high:
        return None  # dynamic sizes
    low = [int(v) for v in pad.static_low.get_values()]
    high = [int(v) for v in pad.static_high.get_values()]
    yielded = pad.region.block.last_op
    if yielded is None or len(yielded.operands) != 1:
        return None
    padding_value = yielded.operands[0]
    block = pad.region.block
    owner = padding_value.owner
    inner = isinstance(owner, Operation) and owner.parent_block() is block
    if owner is block or inner:
        return None  # computed from the indices: not one value
    source_type = pad.source.type
    if not isinstance(source_type, TensorType) or not source_type.has_static_shape():
        return None
    grown = tuple(dim for dim, (lo, hi) in enumerate(zip(low, high)) if lo or hi)
    return ConstantPadding(
        pad.source,
        tuple(low),
        tuple(source_type.get_shape()),
        padding_value,
        grown,
    )


def read_padded(
    padding: ConstantPadding,
    indices: Sequence[SSAValue],
    element: Attribute,
    add: Callable[[Operation], SSAValue],
) -> SSAValue:
    """Element `indices` of the padded tensor: for each padded dimension the
    source position `index - low`, whether it lies in `[0, extent)` (one
    unsigned comparison: a position before the source wraps past it), and
    the position where it does, 0 where not, so the read stays in bounds
    either way; the source read there; the padding value selected where any
    position lies outside. (Clamping, `max(min(position, extent - 1), 0)`,
    reads the same in-bounds elements for two comparisons more per
    dimension: on the GPU each is two 64-bit compares and selects per
    element of an im2col gather.)"""

    def constant(number: int) -> SSAValue:
        return add(arith.ConstantOp(IntegerAttr(number, IndexType())))

    source_indices = list(indices)
    inside: SSAValue | None = None
    for dim in padding.grown:
        position = add(arith.SubiOp(indices[dim], constant(padding.low[dim])))
        extent = constant(padding.extent[dim])
        dim_inside = add(arith.CmpiOp(position, extent, "ult"))
        source_indices[dim] = add(arith.SelectOp(dim_inside, position, constant(0)))
        inside = dim_inside if inside is None else add(arith.AndIOp(inside, dim_inside))
    read = add(ExtractOp(padding.source, source_indices, element))
    if inside is None:
        return read
    return add(arith.SelectOp(inside, read, padding.value))
