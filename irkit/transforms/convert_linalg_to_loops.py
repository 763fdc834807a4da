"""`convert-linalg-to-loops`: linalg on memrefs to `scf.parallel` and `scf.for`.

irkit's own pass of this name replaces xDSL's, which nests `scf.for` loops
only, never produces parallel loops and leaves `linalg.reduce`/`broadcast`
behind. It mirrors MLIR's `-convert-linalg-to-parallel-loops`
(`mlir/lib/Dialect/Linalg/Transforms/Loops.cpp`).

Contract
--------
Input: linalg on memrefs, as `bufferize` leaves it (`docs/abi.md`): every
linalg op has memref (or scalar) operands and no results. `linalg.generic` may
have any indexing maps without symbols (permutations, projections, constant
results, affine expressions such as `d0 * 2 + d3`), several inputs and
outputs, and a body of arith/math ops and `linalg.index`. Every other linalg
op is first turned into a `linalg.generic` by
`irkit.transforms.utils.generalization.generalize_named_op`.

Output: no linalg ops. Each op becomes, in place:

- one `scf.parallel` over the parallel loops (in loop order) whose loop
  variable is a plain result of every output's indexing map, so different
  iterations write different elements; a parallel loop that some output does
  not index alone (e.g. `(d0, d1) -> (d0)`) runs sequentially instead, since
  its iterations write the same elements;
- inside it, one `scf.for` per remaining loop: such parallel loops first,
  then the reduction loops, each group in loop order;
- except when every output is a `memref.alloca` (a register accumulator that
  `linalg-promote-accumulator` made): then there is no `scf.parallel`, the
  reduction loops come first and all parallel loops run inside them as
  `scf.for`s, so the whole accumulator is live across the reduction;
- in the innermost body: a `memref.load` of each operand the body reads, at
  the indices its map gives (affine expressions become `arith` ops on
  `index`, constants folded), the body's ops, and a `memref.store` of each
  yielded value into its output. Reductions accumulate through memory.

Loop bounds are `arith.constant`s of the static sizes (`memref.dim` for
dynamic ones), lower bounds 0 and steps 1. An op without loops becomes
straight-line code. Linalg ops on tensors are rejected ("run bufferize
first"), as is any op whose loop ranges the maps do not determine.

Preserves: the order in which each output element receives its values, so
results are bit-identical to a sequential run of the linalg op; the values
and order of everything outside linalg ops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import (
    AffineDimExpr,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from irkit.analysis.structured import (
    StructuredComputation,
    is_on_tensors,
    loop_dimensions,
    parallel_loop_dims,
)
from irkit.diagnostics import op_error
from irkit.dialects.scf import ForOp, ParallelOp, ReduceOp
from irkit.transforms.utils.affine_index import AffineIndexEmitter
from irkit.transforms.utils.generalization import (
    generalize_named_op,
    is_named_linalg_op,
)

PASS_NAME = "convert-linalg-to-loops"


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------


def require_buffer_semantics(op: Operation) -> None:
    """Reject a linalg op on tensors: this pass lowers bufferized IR only."""
    if is_on_tensors(op):
        raise op_error(op, "on tensors cannot be lowered to loops: run bufferize first")


# --------------------------------------------------------------------------
# Helpers: constants, loop bounds, index arithmetic
# --------------------------------------------------------------------------


class _IndexConstants:
    """`arith.constant ... : index` values, one per value, placed before `anchor`.

    Placing them in front of the replaced op keeps them outside the loops (the
    C printer and later passes see them once) and dominating every use.
    """

    def __init__(self, rewriter: PatternRewriter, anchor: Operation) -> None:
        self._rewriter = rewriter
        self._anchor = anchor
        self._values: dict[int, SSAValue] = {}

    def get(self, value: int) -> SSAValue:
        if value not in self._values:
            constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
            constant.result.name_hint = f"c{value}" if value >= 0 else f"c_{-value}"
            self._rewriter.insert(constant, InsertPoint.before(self._anchor))
            self._values[value] = constant.result
        return self._values[value]

    def insert(self, op: Operation) -> None:
        """Insert another loop-invariant op (a `memref.dim`) beside the constants."""
        self._rewriter.insert(op, InsertPoint.before(self._anchor))


def loop_upper_bounds(
    computation: StructuredComputation, constants: _IndexConstants
) -> list[SSAValue]:
    """Each loop's range, from the first operand dimension that a loop indexes alone.

    Static sizes become constants, dynamic ones `memref.dim`, in the order
    `loop_dimensions` finds them.
    """
    bounds: list[SSAValue | None] = [None] * computation.num_loops
    for dimension in loop_dimensions(computation):
        if dimension.size == DYNAMIC_INDEX:
            dim = memref.DimOp(dimension.operand, constants.get(dimension.position))
            dim.result.name_hint = "dim"
            constants.insert(dim)
            bounds[dimension.loop] = dim.result
        else:
            bounds[dimension.loop] = constants.get(dimension.size)
    missing = [f"d{loop}" for loop, bound in enumerate(bounds) if bound is None]
    if missing:
        raise op_error(
            computation.op,
            f"has no operand dimension indexed by {', '.join(missing)} alone, "
            "so its loop range is unknown",
        )
    return [bound for bound in bounds if bound is not None]


def unit_stride_output_loop(
    computation: StructuredComputation, parallel: Sequence[int]
) -> int | None:
    """The parallel loop to run innermost, below the reduction loops, if any.

    With reductions innermost, a matmul's inner loop reads B with stride N
    and cannot be vectorised. Moving the loop that indexes the outputs'
    innermost dimension below the reductions (i, k, j order) makes the inner
    loop unit-stride over the output and the operands it shares with it. The
    accumulation order of every output element is unchanged, so results are
    bit-identical. At least one parallel loop stays outermost, for threads.
    """
    if len(parallel) < 2:
        return None
    candidates = set()
    for output_map in computation.output_maps:
        if not output_map.results:
            return None
        last = output_map.results[-1]
        if not isinstance(last, AffineDimExpr):
            return None
        candidates.add(last.position)
    if len(candidates) != 1:
        return None
    (loop,) = candidates
    return loop if loop in parallel else None


def accumulates_on_stack(computation: StructuredComputation) -> bool:
    """Whether every output is a `memref.alloca`: a register-sized accumulator.

    `linalg-promote-accumulator` puts a contraction's small output tile on the
    stack so that it lives in registers; that needs the reduction loops
    outermost and the (few) parallel loops inside them, run sequentially, so
    the whole tile is live across the reduction. Each element still receives
    its updates in reduction order: results are bit-identical.
    """
    return all(
        isinstance(output, OpResult) and output.op.name == "memref.alloca"
        for output in computation.outputs
    )


# --------------------------------------------------------------------------
# The lowering
# --------------------------------------------------------------------------


def _build_loop_nest(
    computation: StructuredComputation,
    bounds: Sequence[SSAValue],
    constants: _IndexConstants,
) -> tuple[Operation | None, list[SSAValue], InsertPoint | None]:
    """The (detached) loop nest, the loop variables by loop, and where the body goes.

    Returns no nest and no insertion point for an op without loops.
    """
    if not computation.num_loops:
        return None, [], None
    parallel = parallel_loop_dims(computation)
    reduction_kinds = (IteratorType.REDUCTION, IteratorType.WINDOW)
    sequential = [
        *(
            loop
            for loop, kind in enumerate(computation.iterator_types)
            if kind == IteratorType.PARALLEL and loop not in parallel
        ),
        *(
            loop
            for loop, kind in enumerate(computation.iterator_types)
            if kind in reduction_kinds
        ),
    ]
    innermost = unit_stride_output_loop(computation, parallel)
    if sequential and accumulates_on_stack(computation):
        sequential = [*sequential, *parallel]
        parallel = []
    elif sequential and innermost is not None:
        parallel.remove(innermost)
        sequential.append(innermost)
    loop_values: list[SSAValue | None] = [None] * computation.num_loops
    root: Operation | None = None
    insertion: InsertPoint | None = None
    zero, one = constants.get(0), constants.get(1)

    def nest(loop_op: Operation, block: Block, terminator: Operation) -> None:
        nonlocal root, insertion
        block.add_op(terminator)
        if insertion is None:
            root = loop_op
        else:
            Rewriter.insert_op(loop_op, insertion)
        insertion = InsertPoint.before(terminator)

    if parallel:
        block = Block(arg_types=[IndexType()] * len(parallel))
        parallel_op = ParallelOp(
            [zero] * len(parallel),
            [bounds[loop] for loop in parallel],
            [one] * len(parallel),
            Region(block),
        )
        for loop, value in zip(parallel, block.args, strict=True):
            value.name_hint = f"d{loop}"
            loop_values[loop] = value
        nest(parallel_op, block, ReduceOp())
    for loop in sequential:
        block = Block(arg_types=[IndexType()])
        block.args[0].name_hint = f"d{loop}"
        loop_values[loop] = block.args[0]
        loop_op = ForOp(zero, bounds[loop], one, [], Region(block))
        nest(loop_op, block, YieldOp())
    values = [value for value in loop_values if value is not None]
    return root, values, insertion


def lower_to_loops(
    computation: StructuredComputation, rewriter: PatternRewriter
) -> None:
    """Replace `computation.op` by loops over memrefs (see the module docstring)."""
    op = computation.op
    constants = _IndexConstants(rewriter, op)
    if computation.num_loops:  # lower bound and step first, then the sizes
        constants.get(0)
        constants.get(1)
    bounds = loop_upper_bounds(computation, constants)
    root, loops, insertion = _build_loop_nest(computation, bounds, constants)

    def emit(new_op: Operation) -> None:
        if insertion is None:
            rewriter.insert(new_op, InsertPoint.before(op))
        else:
            Rewriter.insert_op(new_op, insertion)

    indices = AffineIndexEmitter(loops, constants.get, emit)
    mapping: dict[SSAValue, SSAValue] = {}
    body = computation.body
    for operand, indexing_map, argument in zip(
        computation.operands, computation.indexing_maps, body.args, strict=True
    ):
        if not argument.uses:
            continue
        if isinstance(operand.type, MemRefType):
            load = memref.LoadOp.get(operand, indices.indices(indexing_map))
            load.res.name_hint = argument.name_hint
            emit(load)
            mapping[argument] = load.res
        else:
            mapping[argument] = operand  # a scalar operand is its own element

    yielded: Sequence[SSAValue] = ()
    for body_op in body.ops:  # `linalg.index` is only ever a direct child
        if isinstance(body_op, IndexOp):
            mapping[body_op.result] = loops[body_op.dim.value.data]
        elif isinstance(body_op, LinalgYieldOp):
            yielded = [mapping.get(value, value) for value in body_op.operands]
        else:
            emit(body_op.clone(value_mapper=mapping))

    for value, output, indexing_map in zip(
        yielded, computation.outputs, computation.output_maps, strict=True
    ):
        emit(memref.StoreOp.get(value, output, indices.indices(indexing_map)))

    if root is not None:
        rewriter.insert(root, InsertPoint.before(op))
    rewriter.erase(op)


# --------------------------------------------------------------------------
# Patterns, one per source op
# --------------------------------------------------------------------------


class LowerGenericOp(RewritePattern):
    """`linalg.generic` on memrefs to loops."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        require_buffer_semantics(op)
        lower_to_loops(StructuredComputation.of(op), rewriter)


class LowerNamedOp(RewritePattern):
    """Any other linalg op on memrefs, through its `linalg.generic` form."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_named_linalg_op(op):
            return
        require_buffer_semantics(op)
        generic = generalize_named_op(op)  # built, never inserted
        lower_to_loops(replace(StructuredComputation.of(generic), op=op), rewriter)


def convert_linalg_to_loops_patterns() -> list[RewritePattern]:
    """The patterns of this pass, for pipelines that combine them with others."""
    return [LowerGenericOp(), LowerNamedOp()]


def convert_linalg_to_loops(module: ModuleOp) -> None:
    """Lower every linalg op in `module` to loops; fail on any left over."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(convert_linalg_to_loops_patterns()),
        apply_recursively=False,
    ).rewrite_module(module)
    for op in module.walk():
        if op.name.startswith("linalg."):
            require_buffer_semantics(op)
            raise op_error(op, "cannot be lowered to loops yet")


@dataclass(frozen=True)
class ConvertLinalgToLoopsPass(ModulePass):
    """Linalg on memrefs to `scf.parallel` + `scf.for` + `memref.load/store`."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_linalg_to_loops(op)
