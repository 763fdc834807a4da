"""Paired stores in CUDA C: two `memref.store`s of adjacent elements as one.

A warpgroup product leaves each thread the accumulators of two adjacent
columns (`mma.warpgroup_mma`'s D layout: elements `2i` and `2i + 1`), and
the kernels store them one after the other. Two 4-byte stores where one
8-byte store would do cost the H100 35 of 242 us on a 4096^3 f16 GEMM into
f32 (its 64 MB result leaves the SMs at half the sector efficiency), as a
hand-edited copy of the printed kernel measured. The printer therefore
pairs them, as a compiler's store merging would:

- two `memref.store`s of the same block to the same memref, the second's
  indices the first's (the same values, or equal `arith` ops of them: the
  kernels recompute `row + 8` per element) but the last, which is the
  first's last plus one (`x + 1` against `x`, or `x + c + 1` against
  `x + c`, through `arith.addi` of a constant);
- of f32 (an 8-byte pair, PTX's `st.v2.f32`), f16 or bf16 (4 bytes,
  `st.b32` of both elements' bits), on a memref whose innermost stride is
  1;
- with nothing between them that could see the difference: only ops with
  no regions that write no memory and read nothing that may alias the
  stored memref (`irkit.analysis.aliasing.may_alias`; the first store is
  printed at the second's place).

The paired store checks the address at run time: where the first element
is aligned to the pair's size, one vector store; elsewhere (an `out=`
array at an odd offset) the two stores as before. No alignment is assumed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import is_side_effect_free

from irkit.analysis.aliasing import may_alias
from irkit.dialects.gpu import address_space_of
from irkit.dialects.static_values import constant_int
from irkit.targets.cstyle_memory import stored_element

if TYPE_CHECKING:
    from irkit.targets.cuda import CudaEmitter

# Element key -> (the pair's bytes, PTX's store of it, the register kind
# and how the pair's register is made of the two values). The store is
# inline PTX: printed as a `float2` store under the alignment test, nvcc
# merged it with the other branch's scalar stores and split it again.
PAIR_STORES = {
    "f32": (8, "st.v2.f32 [%0], {%1, %2};", ("f", "f"), ("{low}", "{high}")),
    "f16": (
        4,
        "st.b32 [%0], %1;",
        ("r",),
        (
            "(unsigned)__half_as_ushort({low}) | "
            "((unsigned)__half_as_ushort({high}) << 16)",
        ),
    ),
    "bf16": (
        4,
        "st.b32 [%0], %1;",
        ("r",),
        (
            "(unsigned)__bfloat16_as_ushort({low}) | "
            "((unsigned)__bfloat16_as_ushort({high}) << 16)",
        ),
    ),
}


def _same_value(a: SSAValue, b: SSAValue, depth: int = 3) -> bool:
    """Whether `a` and `b` are one value: the same SSA value, or the results
    of two equal pure arithmetic ops of the same operands (the kernels
    recompute `row + 8` for each element that needs it)."""
    if a is b:
        return True
    if depth == 0 or a.type != b.type:
        return False
    x, y = a.owner, b.owner
    if not (isinstance(x, Operation) and isinstance(y, Operation)):
        return False
    if x.name != y.name or not x.name.startswith("arith.") or x.regions:
        return False
    if x.name == "arith.constant":
        return x.properties == y.properties and x.attributes == y.attributes
    return (
        len(x.operands) == len(y.operands)
        and x.properties == y.properties
        and all(_same_value(p, q, depth - 1) for p, q in zip(x.operands, y.operands))
    )


def _base_and_offset(value: SSAValue) -> tuple[SSAValue, int]:
    """`value` as `base + offset` for a constant offset (`arith.addi` of a
    constant, either way round; offset 0 otherwise)."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.addi":
        lhs, rhs = owner.operands
        for base, constant in ((lhs, rhs), (rhs, lhs)):
            offset = constant_int(constant)
            if offset is not None:
                return base, offset
    return value, 0


def _is_next_index(second: SSAValue, first: SSAValue) -> bool:
    """Whether `second` is `first + 1`."""
    second_base, second_offset = _base_and_offset(second)
    if second_offset == 1 and _same_value(second_base, first):
        return True
    first_base, first_offset = _base_and_offset(first)
    return second_offset == first_offset + 1 and _same_value(second_base, first_base)


def _unit_innermost_stride(memref_type: MemRefType) -> bool:
    strides = memref_type.get_strides()
    return strides is not None and bool(strides) and strides[-1] == 1


def _may_sit_between(op: Operation, memref: SSAValue) -> bool:
    """Whether `op` may sit between two paired stores to `memref`: no
    regions, and no memory effects but a load of memory `memref` cannot
    alias."""
    if op.regions:
        return False
    if op.name == "memref.load":
        read = op.operands[0]
        # Memory of another address space (an accumulator in registers, a
        # workgroup tile) is never the stored buffer's.
        if address_space_of(read.type) != address_space_of(memref.type):
            return True
        return not may_alias(read, memref)
    return is_side_effect_free(op)


def paired_stores(
    block: Block, element_key: dict[Operation, str]
) -> dict[Operation, Operation]:
    """The pairs of `block` (the first store -> the second), per the module
    doc; `element_key` gives each store's element key."""
    pairs: dict[Operation, Operation] = {}
    ops = list(block.ops)
    for position, first in enumerate(ops):
        if first.name != "memref.store" or first in pairs.values():
            continue
        key = element_key.get(first)
        memref = first.operands[1]
        memref_type = memref.type
        if (
            key not in PAIR_STORES
            or not isinstance(memref_type, MemRefType)
            or not _unit_innermost_stride(memref_type)
        ):
            continue
        first_indices = list(first.operands[2:])
        if not first_indices:
            continue
        for later in ops[position + 1 :]:
            if later.name == "memref.store":
                indices = list(later.operands[2:])
                if (
                    later.operands[1] is memref
                    and len(indices) == len(first_indices)
                    and all(
                        _same_value(a, b)
                        for a, b in zip(indices[:-1], first_indices[:-1])
                    )
                    and _is_next_index(indices[-1], first_indices[-1])
                    and element_key.get(later) == key
                ):
                    pairs[first] = later
                break
            if not _may_sit_between(later, memref):
                break
    return pairs


def print_paired_store(
    emitter: CudaEmitter, first: Operation, second: Operation, key: str
) -> None:
    """The two stores as one where the first element is aligned to the
    pair, else one after the other."""
    size, instruction, kinds, values = PAIR_STORES[key]
    low = emitter.name_of(first.operands[0])
    high = emitter.name_of(second.operands[0])
    element = stored_element(emitter, first)
    pointer = emitter.fresh_name("pair")
    scalar = emitter.type_name(key)
    emitter.writer.line(f"{scalar} *{pointer} = &{element};")
    operands = ", ".join(
        f'"{kind}"({value.format(low=low, high=high)})'
        for kind, value in zip(kinds, values, strict=True)
    )
    with emitter.writer.block(
        f"if (((unsigned long long){pointer} & {size - 1}) == 0)"
    ):
        emitter.writer.line(
            f'asm volatile("{instruction}" :: "l"({pointer}), {operands} : "memory");'
        )
    with emitter.writer.block("else"):
        emitter.writer.line(f"*{pointer} = {low};")
        emitter.writer.line(f"{stored_element(emitter, second)} = {high};")
