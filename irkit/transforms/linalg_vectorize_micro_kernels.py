"""`linalg-vectorize-micro-kernels`: register-tile contractions as vector code.

MLIR vectorises a linalg contraction into the `vector` dialect
(`linalg::vectorize`: `vector.transfer_read`s, a `vector.contract`, which
lowers to `vector.outerproduct` and then `vector.fma`), and LLVM keeps the
vectors in registers. This pass does that for the micro-kernels
`linalg-pack-operands` marks `irkit.register_tile`: an MR x NR output tile
over packed panels,

```mlir
linalg.generic {irkit.register_tile}
    ins(%lhs : memref<1xKCxMRxf32>, %rhs : memref<1xKCxNRxf32>)
    outs(%c : memref<1xMRx1xNRxf32, strided<[?, ldc, ?, 1]>>)   // += lhs * rhs
```

becomes its accumulators as MR x NR/VL vector values, carried through the K
loop's `iter_args` (VL: the lanes of one vector register), and per K step
NR/VL vector loads of the rhs row, MR broadcasts of lhs elements and MR x
NR/VL fused multiply-adds:

```mlir
%acc_0_0 = vector.load %c[%c0, %c0, %c0, %c0] : ..., vector<16xf32>   // MR x NR/VL
%r:28 = scf.for %k = %c0 to %cKC step %c1
    iter_args(%a_0_0 = %acc_0_0, ...) -> (vector<16xf32>, ...) {
  %rhs_0 = vector.load %rhs[%c0, %k, %c0] : ..., vector<16xf32>      // NR/VL
  %lhs_0 = memref.load %lhs[%c0, %k, %c0] : ...                      // MR
  %lhs_0_v = vector.broadcast %lhs_0 : f32 to vector<16xf32>
  %n_0_0 = vector.fma %lhs_0_v, %rhs_0, %a_0_0 : vector<16xf32>     // MR x NR/VL
  ...
  scf.yield %n_0_0, ... : vector<16xf32>, ...
}
vector.store %r#0, %c[%c0, %c0, %c0, %c0] : ..., vector<16xf32>
```

which the C target prints in GCC's vector extensions: every accumulator a
named vector local, so the C compiler keeps all of them in registers (gcc
did not, for the scalar tile: it left the 14-row loop rolled and the
accumulators on the stack).

Contract
--------
Input: linalg on memrefs. The pass looks at contractions marked
`irkit.register_tile` (`irkit.analysis.structured.is_register_tile`) and
ignores every other op; a marked contraction on tensors is rejected with a
located error. It rewrites one whose

- loops are all parallel but one reduction loop K, and every parallel loop
  indexes the output;
- operands are two inputs and one output, memrefs of one element type, f32
  or f64, with static shapes and static strides, each indexing map a
  projection of the loops, each loop at most once (`(d0, d4, d2)`), and no
  input may alias the
  output (`irkit.analysis.aliasing.may_alias`);
- body is `yield(out + lhs * rhs)` (`arith.mulf`, `arith.addf`, either
  operand order), no widening;
- output's innermost dimension (with unit stride) is indexed by a loop J
  that also indexes the innermost dimension (unit stride) of one input, the
  rhs, and no dimension of the other, the lhs; J's extent is a multiple of
  VL = `vector-bits` / the element's bits, or else of a narrower power of
  two of lanes at least 128 bits wide, which is then VL (`vector_lanes`:
  a packed matmul's column tail of 8 f32 runs on 256-bit vectors);
- accumulators (the output tile's elements / VL), the rhs vectors of one K
  step and one broadcast fit in `vector-registers`.

Anything else stays a scalar linalg op. Output: as above, the generic
replaced by vector loads of the output tile, an `scf.for` over K carrying
the accumulators, and vector stores. The loops other than K and J are
unrolled completely (their extents multiply to the accumulator rows).

Preserves: every output element's accumulation order (K ascending, from the
output's value), but each `out + lhs * rhs` is one fused multiply-add, as
MLIR's `vector.contract` lowering and OpenBLAS make it: one rounding per
step instead of two, so results differ from the unfused reference by the
products' rounding (the fused result is the closer to the exact one) and
are not bit-identical to the scalar micro-kernel's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IndexType,
    MemRefType,
    ModuleOp,
    VectorType,
)
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.memref import LoadOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.aliasing import may_alias
from irkit.analysis.structured import (
    is_contraction,
    is_register_tile,
    require_buffers,
)
from irkit.dialects import vector
from irkit.dialects.scf import ForOp
from irkit.transforms.utils.builders import index_constant
from irkit.transforms.utils.tiling import vector_lanes

PASS_NAME = "linalg-vectorize-micro-kernels"


# --------------------------------------------------------------------------
# Which ops: a register tile and its vector loop
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MicroKernel:
    """A register-tile contraction this pass vectorises, in loop terms."""

    generic: GenericOp
    extents: tuple[int, ...]  # per loop
    reduction: int  # the K loop
    vector_loop: int  # J: the innermost dimension of the output and the rhs
    lanes: int  # VL
    lhs: SSAValue
    rhs: SSAValue
    out: SSAValue
    lhs_loops: tuple[int, ...]  # the loop indexing each dimension
    rhs_loops: tuple[int, ...]
    out_loops: tuple[int, ...]

    @property
    def unrolled_loops(self) -> list[int]:
        """The loops other than K and J, unrolled into distinct accumulators."""
        return [
            loop
            for loop in range(len(self.extents))
            if loop not in (self.reduction, self.vector_loop)
        ]

    @property
    def chunks(self) -> int:
        """Vectors along J."""
        return self.extents[self.vector_loop] // self.lanes


def _loops(generic: GenericOp) -> list[tuple[int, ...]] | None:
    maps = []
    for attr in generic.indexing_maps:
        results = attr.data.results
        if not all(isinstance(e, AffineDimExpr) for e in results):
            return None
        loops = tuple(e.position for e in results if isinstance(e, AffineDimExpr))
        # A loop twice in one map (a diagonal) is not a block of consecutive
        # elements along it.
        if len(set(loops)) != len(loops):
            return None
        maps.append(loops)
    return maps


def _unit_stride_innermost(memref_type: MemRefType[Attribute]) -> bool:
    strides = memref_type.get_strides()
    return (
        strides is not None
        and all(stride is not None for stride in strides)
        and bool(strides)
        and strides[-1] == 1
    )


def _is_multiply_add_body(generic: GenericOp) -> bool:
    """`yield(out + lhs * rhs)` in `arith.mulf`/`arith.addf`, no widening."""
    block = generic.body.block
    ops = list(block.ops)
    if len(ops) != 3:
        return False
    multiply, add, yield_op = ops
    lhs, rhs, acc = block.args
    return (
        isinstance(multiply, arith.MulfOp)
        and isinstance(add, arith.AddfOp)
        and isinstance(yield_op, LinalgYieldOp)
        and {multiply.lhs, multiply.rhs} == {lhs, rhs}
        and {add.lhs, add.rhs} == {acc, multiply.result}
        and list(yield_op.operands) == [add.result]
    )


def _accumulators_fit(kernel: MicroKernel, vector_registers: int) -> bool:
    rows = prod(kernel.extents[loop] for loop in kernel.unrolled_loops)
    rhs_rows = prod(
        kernel.extents[loop]
        for loop in kernel.rhs_loops
        if loop not in (kernel.reduction, kernel.vector_loop)
    )
    # The accumulators, one K step's rhs vectors, one broadcast lhs element.
    return rows * kernel.chunks + rhs_rows * kernel.chunks + 1 <= vector_registers


def match_micro_kernel(
    generic: GenericOp, vector_bits: int, vector_registers: int
) -> MicroKernel | None:
    """The micro-kernel `generic` is, in the terms of the contract, or None."""
    if not is_register_tile(generic) or not is_contraction(generic):
        return None
    require_buffers(generic, PASS_NAME)
    if len(generic.inputs) != 2 or any(
        isinstance(op, IndexOp) for op in generic.body.walk()
    ):
        return None
    operands = [*generic.inputs, *generic.outputs]
    types = [value.type for value in operands]
    if not all(
        isinstance(t, MemRefType) and t.has_static_shape() and _unit_stride_innermost(t)
        for t in types
    ):
        return None
    memref_types = [t for t in types if isinstance(t, MemRefType)]
    element = memref_types[2].get_element_type()
    if not isinstance(element, Float32Type | Float64Type) or any(
        t.get_element_type() != element for t in memref_types
    ):
        return None
    if not _is_multiply_add_body(generic):
        return None
    maps = _loops(generic)
    if maps is None:
        return None
    kinds = [kind.data.value for kind in generic.get_iterator_types()]
    reductions = [loop for loop, kind in enumerate(kinds) if kind == "reduction"]
    out_loops = maps[2]
    if len(reductions) != 1 or set(out_loops) != set(range(len(kinds))) - {
        reductions[0]
    }:
        return None
    extents: list[int] = [0] * len(kinds)
    for loops, memref_type in zip(maps, memref_types, strict=True):
        for loop, size in zip(loops, memref_type.get_shape(), strict=True):
            extents[loop] = size
    vector_loop = out_loops[-1]
    rhs_index = [i for i in (0, 1) if maps[i] and maps[i][-1] == vector_loop]
    if len(rhs_index) != 1:
        return None
    lhs_loops, rhs_loops = maps[1 - rhs_index[0]], maps[rhs_index[0]]
    if vector_loop in lhs_loops or any(
        reductions[0] not in loops for loops in (lhs_loops, rhs_loops)
    ):
        return None
    lanes = vector_lanes(extents[vector_loop], vector_bits, element.bitwidth)
    if lanes is None:
        return None
    output = generic.outputs[0]
    if any(may_alias(value, output) for value in generic.inputs):
        return None
    kernel = MicroKernel(
        generic,
        tuple(extents),
        reductions[0],
        vector_loop,
        lanes,
        lhs=generic.inputs[1 - rhs_index[0]],
        rhs=generic.inputs[rhs_index[0]],
        out=output,
        lhs_loops=lhs_loops,
        rhs_loops=rhs_loops,
        out_loops=out_loops,
    )
    return kernel if _accumulators_fit(kernel, vector_registers) else None


# --------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------


class _Constants:
    """`index` constants inserted once each, before the micro-kernel."""

    def __init__(self, at: InsertPoint) -> None:
        self._at = at
        self._values: dict[int, SSAValue] = {}

    def __call__(self, value: int) -> SSAValue:
        if value not in self._values:
            constant = index_constant(value, self._at)
            constant.name_hint = f"c{value}"
            self._values[value] = constant
        return self._values[value]


def _indices(
    loops: Sequence[int], values: Mapping[int, SSAValue | int], constants: _Constants
) -> list[SSAValue]:
    """The operand's indices where each loop takes its value in `values`."""
    found: list[SSAValue] = []
    for loop in loops:
        value = values[loop]
        found.append(constants(value) if isinstance(value, int) else value)
    return found


def vectorize_micro_kernel(kernel: MicroKernel) -> ForOp:
    """Replace `kernel.generic` by vector code (see the module doc); the K loop."""
    generic = kernel.generic
    at = InsertPoint.before(generic)
    constants = _Constants(at)
    out_type = kernel.out.type
    assert isinstance(out_type, MemRefType)
    element = out_type.get_element_type()
    vector_type = VectorType(element, [kernel.lanes])
    tiles = list(
        product(*(range(kernel.extents[loop]) for loop in kernel.unrolled_loops))
    )
    places: list[dict[int, SSAValue | int]] = []
    for tile in tiles:
        for chunk in range(kernel.chunks):
            place: dict[int, SSAValue | int] = dict(
                zip(kernel.unrolled_loops, tile, strict=True)
            )
            place[kernel.vector_loop] = chunk * kernel.lanes
            places.append(place)
    initial = []
    for place in places:
        load = vector.LoadOp(
            kernel.out, _indices(kernel.out_loops, place, constants), vector_type
        )
        load.result.name_hint = "acc"
        Rewriter.insert_op(load, at)
        initial.append(load.result)
    body = Block(arg_types=[IndexType(), *([vector_type] * len(places))])
    body.args[0].name_hint = "k"
    step = body.args[0]
    rhs_vectors: dict[tuple[int, ...], SSAValue] = {}
    broadcasts: dict[tuple[int, ...], SSAValue] = {}
    yielded: list[SSAValue] = []
    for place, accumulator in zip(places, body.args[1:], strict=True):
        accumulator.name_hint = "acc"
        at_step = {**place, kernel.reduction: step}
        rhs_key = tuple(
            value
            for loop, value in place.items()
            if loop in kernel.rhs_loops and isinstance(value, int)
        )
        if rhs_key not in rhs_vectors:
            load = vector.LoadOp(
                kernel.rhs, _indices(kernel.rhs_loops, at_step, constants), vector_type
            )
            load.result.name_hint = "rhs"
            body.add_op(load)
            rhs_vectors[rhs_key] = load.result
        lhs_key = tuple(
            value
            for loop, value in place.items()
            if loop in kernel.lhs_loops and isinstance(value, int)
        )
        if lhs_key not in broadcasts:
            element_load = LoadOp.get(
                kernel.lhs, _indices(kernel.lhs_loops, at_step, constants)
            )
            element_load.res.name_hint = "lhs"
            broadcast = vector.BroadcastOp(element_load.res, vector_type)
            broadcast.vector.name_hint = "lhs"
            body.add_ops([element_load, broadcast])
            broadcasts[lhs_key] = broadcast.vector
        fma = vector.FMAOp(broadcasts[lhs_key], rhs_vectors[rhs_key], accumulator)
        fma.res.name_hint = "acc"
        body.add_op(fma)
        yielded.append(fma.res)
    body.add_op(YieldOp(*yielded))
    loop = ForOp(
        constants(0),
        constants(kernel.extents[kernel.reduction]),
        constants(1),
        initial,
        Region(body),
    )
    Rewriter.insert_op(loop, at)
    for place, result in zip(places, loop.results, strict=True):
        result.name_hint = "acc"
        indices = _indices(kernel.out_loops, place, constants)
        Rewriter.insert_op(vector.StoreOp(result, kernel.out, indices), at)
    Rewriter.erase_op(generic)
    return loop


def vectorize_micro_kernels(
    module: ModuleOp, vector_bits: int, vector_registers: int
) -> int:
    """Vectorise every micro-kernel of `module` the contract accepts; how many."""
    if vector_bits < 8 or vector_registers < 4:
        raise PassFailedException(
            f"{PASS_NAME}: vector-bits must be >= 8 and vector-registers >= 4"
        )
    count = 0
    for op in list(module.walk()):
        if not isinstance(op, GenericOp):
            continue
        kernel = match_micro_kernel(op, vector_bits, vector_registers)
        if kernel is not None:
            vectorize_micro_kernel(kernel)
            count += 1
    return count


@dataclass(frozen=True)
class LinalgVectorizeMicroKernelsPass(ModulePass):
    """Register-tile contractions as vector loads, broadcasts and FMAs."""

    name = PASS_NAME

    # The vector unit (the target's `CpuHardware`; AVX2 by default).
    vector_bits: int = 256
    vector_registers: int = 16

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        vectorize_micro_kernels(op, self.vector_bits, self.vector_registers)
