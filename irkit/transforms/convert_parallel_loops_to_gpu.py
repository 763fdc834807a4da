"""`convert-parallel-loops-to-gpu`: GPU-mapped `scf.forall`s to `gpu.launch`.

Mirrors MLIR's `-convert-parallel-loops-to-gpu` (`mlir/lib/Conversion/
SCFToGPU/SCFToGPU.cpp`) and the forall-to-launch mapping of the transform
dialect (`mapNestedForallToThreadsImpl`, `mlir/lib/Dialect/GPU/TransformOps/
GPUTransformOps.cpp`), on the loop nests `linalg-tile-for-gpu` builds.

Contract
--------
Input: `scf.forall`s with `mapping = [#gpu.block<...>]` whose bounds and
steps are static (or `arith.constant`s), holding, at any depth below
`scf.for`/`scf.if`, `scf.forall`s with `mapping = [#gpu.thread<...>]`. A thread
forall's lower bounds and steps are static, its upper bounds static or
bounded by a constant (`irkit.analysis.ranges.upper_bound`: e.g. an
`affine.min` with a constant result, a `memref.dim` of a view whose size is
one). Between the two levels only
code without side effects may run (index math, loads, views, loops holding
thread foralls), plus `memref.alloc`/`dealloc` of workgroup memory; this
code runs redundantly in every thread. Anything else there, a thread forall
outside a block forall, nested thread foralls, or a mapping that names one
dimension twice, is rejected with an error at the op.

Output: each outermost block forall becomes a `gpu.launch`:

- its grid is the forall's trip counts on the dimensions its mapping names
  (1 elsewhere), its block the largest trip count of its thread foralls on
  each dimension; both are `arith.constant`s before the launch;
- a block forall's induction variables become `lb + gpu.block_id * step`;
- each thread forall's become `lb + gpu.thread_id * step`, and its body runs
  under an `scf.if` for the lanes it owns: `iv < ub` on a dimension where the
  block has more threads than this forall has iterations (or where `ub` is
  dynamic: a partial tile), and `gpu.thread_id == 0` on a dimension the
  forall does not map but the block does; no `scf.if` when every thread owns
  an iteration;
- a `gpu.barrier` follows a thread forall that has more work after it in its
  block, or that ends the body of a sequential loop (against
  write-after-read across iterations);
- workgroup `memref.alloc`s become the launch's `workgroup(...)`
  attributions; their deallocs are dropped;
- `scf.parallel` loops inside thread foralls (from `convert-linalg-to-loops`:
  the per-thread work) become nested `scf.for`s, run by their thread alone.

Preserves: every iteration of every forall runs once, on its own
thread, with the same induction values; a thread forall completes (for the
threads of a block) before the work after it starts.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    ModuleOp,
)
from xdsl.dialects.scf import YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from irkit.analysis.gpu_mapping import is_block_forall, is_thread_forall, mapping_kinds
from irkit.analysis.ranges import upper_bound
from irkit.diagnostics import op_error
from irkit.dialects import affine, memref
from irkit.dialects.gpu import (
    BarrierOp,
    BlockIdOp,
    BlockMappingAttr,
    LaunchOp,
    TerminatorOp,
    ThreadIdOp,
    ThreadMappingAttr,
    is_workgroup_memref,
)
from irkit.dialects.scf import ForallOp, ForOp, IfOp, InParallelOp, ParallelOp
from irkit.dialects.static_values import constant_int

PASS_NAME = "convert-parallel-loops-to-gpu"

_DIMENSIONS = ("x", "y", "z")

# Names of `gpu.launch`'s 12 region arguments, as in docs/gpu.md.
_LAUNCH_ARGUMENT_NAMES = (
    *(f"b{d}" for d in _DIMENSIONS),
    *(f"t{d}" for d in _DIMENSIONS),
    *(f"g{d}" for d in _DIMENSIONS),
    *(f"s{d}" for d in _DIMENSIONS),
)


# --------------------------------------------------------------------------
# Reading foralls: mapping kinds, static bounds
# --------------------------------------------------------------------------


def _static(op: Operation, value: int | SSAValue, what: str) -> int:
    known = constant_int(value)
    if known is None:
        raise op_error(op, f"{PASS_NAME} needs a static {what}")
    return known


@dataclass(frozen=True)
class MappedLoop:
    """One dimension of a mapped forall: its grid or block dimension, bounds."""

    dimension: str
    lower: int
    upper: int | SSAValue
    step: int
    trip_count: int  # an upper bound of it when `upper` is dynamic

    @property
    def is_exact(self) -> bool:
        return constant_int(self.upper) is not None


def mapped_loops(forall: ForallOp) -> list[MappedLoop]:
    """The forall's dimensions with static lower bounds, steps and trip bounds."""
    assert forall.mapping is not None
    lowers, uppers, steps = forall.mixed_bounds()
    loops: list[MappedLoop] = []
    for attr, lower, upper, step in zip(
        forall.mapping.data, lowers, uppers, steps, strict=True
    ):
        assert isinstance(attr, BlockMappingAttr | ThreadMappingAttr)
        low = _static(forall, lower, "lower bound")
        stride = _static(forall, step, "step")
        bound = upper_bound(upper)
        if bound is None:
            raise op_error(
                forall, f"{PASS_NAME} needs a static bound on each upper bound"
            )
        trips = max(0, -(-(bound - low) // stride))
        loops.append(MappedLoop(attr.dimension, low, upper, stride, trips))
    dims = [loop.dimension for loop in loops]
    if len(set(dims)) != len(dims):
        raise op_error(forall, f"{PASS_NAME}: the mapping names a dimension twice")
    return loops


# --------------------------------------------------------------------------
# What runs between the block and thread levels
# --------------------------------------------------------------------------


def _block_level_ops(region_holder: Operation) -> Iterator[Operation]:
    """Ops under `region_holder` outside thread foralls (which are yielded too)."""
    for region in region_holder.regions:
        for block in region.blocks:
            for op in block.ops:
                yield op
                if not is_thread_forall(op):
                    yield from _block_level_ops(op)


def _is_workgroup_alloc(op: Operation) -> bool:
    return isinstance(op, memref.AllocOp) and is_workgroup_memref(op.memref.type)


def _is_workgroup_dealloc(op: Operation) -> bool:
    return isinstance(op, memref.DeallocOp) and is_workgroup_memref(op.memref.type)


_STRUCTURE = (ForOp, YieldOp, IfOp, InParallelOp)
# Ops without side effects whose xDSL definitions do not say so.
_PURE = (
    affine.ApplyOp,
    affine.MinOp,
    affine.MaxOp,
    memref.LoadOp,
    memref.SubviewOp,
    memref.DimOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.CastOp,
    memref.GetGlobalOp,
)


def _check_block_level(grid: ForallOp) -> list[ForallOp]:
    """Reject side effects that every thread would repeat; return thread foralls."""
    threads: list[ForallOp] = []
    for op in _block_level_ops(grid):
        if is_thread_forall(op):
            assert isinstance(op, ForallOp)
            for nested in op.walk():
                if nested is not op and isinstance(nested, ForallOp):
                    raise op_error(nested, f"{PASS_NAME}: nested thread foralls")
            threads.append(op)
        elif is_block_forall(op):
            raise op_error(op, f"{PASS_NAME}: a block forall inside a block forall")
        elif isinstance(op, ForallOp | ParallelOp):
            raise op_error(
                op,
                f"{PASS_NAME}: a loop between the block and thread levels "
                "must be an scf.for or a thread-mapped scf.forall",
            )
        elif not (
            is_side_effect_free(op)
            or isinstance(op, (*_STRUCTURE, *_PURE))
            or _is_workgroup_alloc(op)
            or _is_workgroup_dealloc(op)
        ):
            raise op_error(
                op,
                f"{PASS_NAME}: would run in every thread of a block (it is "
                "outside thread-mapped loops): only index math, loads, views "
                "and loops may run there",
            )
    return threads


# --------------------------------------------------------------------------
# Building the launch
# --------------------------------------------------------------------------


class _Builder:
    """Inserts index ops at one point and remembers the constants it made."""

    def __init__(self, insertion: InsertPoint) -> None:
        self.insertion = insertion
        self._constants: dict[int, SSAValue] = {}

    def insert(self, op: Operation) -> None:
        Rewriter.insert_op(op, self.insertion)

    def add(self, op: Operation) -> SSAValue:
        """Insert `op`, which has one result, and return that result."""
        self.insert(op)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            op.result.name_hint = f"c{value}"
            self._constants[value] = self.add(op)
        return self._constants[value]

    def induction_value(self, loop: MappedLoop, identifier: SSAValue) -> SSAValue:
        """`lb + id * step`, folded where lb is 0 or step is 1."""
        value = identifier
        if loop.step != 1:
            value = self.add(arith.MuliOp(value, self.constant(loop.step)))
        if loop.lower != 0:
            value = self.add(arith.AddiOp(value, self.constant(loop.lower)))
        return value

    def upper(self, bound: int | SSAValue) -> SSAValue:
        return self.constant(bound) if isinstance(bound, int) else bound


def _move_body(source: Block, insertion: InsertPoint) -> None:
    """Move every op of `source` but its terminator to `insertion`."""
    for op in list(source.ops)[:-1]:
        op.detach()
        Rewriter.insert_op(op, insertion)


def _needs_barrier_after(forall: ForallOp) -> bool:
    block = forall.parent_block()
    assert block is not None
    following = forall.next_op
    more_work = following is not None and following is not block.last_op
    return more_work or isinstance(forall.parent_op(), ForOp)


def _lower_thread_forall(forall: ForallOp, block_size: Sequence[int]) -> None:
    loops = mapped_loops(forall)
    builder = _Builder(InsertPoint.before(forall))
    conditions: list[SSAValue] = []
    mapped = {loop.dimension for loop in loops}
    for loop, iv in zip(loops, forall.induction_vars, strict=True):
        thread = builder.add(ThreadIdOp(loop.dimension))
        value = builder.induction_value(loop, thread)
        value.name_hint = iv.name_hint
        iv.replace_all_uses_with(value)
        threads = block_size[_DIMENSIONS.index(loop.dimension)]
        if not loop.is_exact or loop.trip_count < threads:
            conditions.append(
                builder.add(arith.CmpiOp(value, builder.upper(loop.upper), "slt"))
            )
    for dimension, threads in zip(_DIMENSIONS, block_size, strict=True):
        if dimension not in mapped and threads > 1:
            thread = builder.add(ThreadIdOp(dimension))
            conditions.append(
                builder.add(arith.CmpiOp(thread, builder.constant(1), "slt"))
            )
    barrier = _needs_barrier_after(forall)
    if conditions:
        condition = conditions[0]
        for other in conditions[1:]:
            condition = builder.add(arith.AndIOp(condition, other))
        then = Block()
        terminator = YieldOp()
        then.add_op(terminator)
        _move_body(forall.body.block, InsertPoint.before(terminator))
        guard = IfOp(condition, [], Region(then))
        # Discardable irkit.* annotations of the forall (e.g. a reduction
        # tree step) stay with the code that now runs in its place.
        guard.attributes |= {
            name: value
            for name, value in forall.attributes.items()
            if name.startswith("irkit.")
        }
        builder.insert(guard)
    else:
        _move_body(forall.body.block, builder.insertion)
    if barrier:
        builder.insert(BarrierOp())
    Rewriter.erase_op(forall)


def parallel_to_for(parallel: ParallelOp) -> None:
    """An `scf.parallel` without reductions as nested `scf.for`s (one thread's)."""
    if parallel.initVals:
        raise op_error(parallel, f"{PASS_NAME}: scf.parallel reductions in a thread")
    insertion = InsertPoint.before(parallel)
    body = parallel.body.block
    for lower, upper, step, iv in zip(
        parallel.lowerBound, parallel.upperBound, parallel.step, body.args, strict=True
    ):
        loop_body = Block(arg_types=[IndexType()])
        loop_body.args[0].name_hint = iv.name_hint
        terminator = YieldOp()
        loop_body.add_op(terminator)
        Rewriter.insert_op(ForOp(lower, upper, step, [], Region(loop_body)), insertion)
        iv.replace_all_uses_with(loop_body.args[0])
        insertion = InsertPoint.before(terminator)
    _move_body(body, insertion)
    Rewriter.erase_op(parallel)


def convert_block_forall(grid: ForallOp) -> LaunchOp:
    """Replace one block-mapped forall (and its thread foralls) by a `gpu.launch`."""
    block_loops = mapped_loops(grid)
    threads = _check_block_level(grid)
    grid_size, block_size = [1, 1, 1], [1, 1, 1]
    for loop in block_loops:
        if not loop.is_exact:
            raise op_error(grid, f"{PASS_NAME} needs static block-forall bounds")
        grid_size[_DIMENSIONS.index(loop.dimension)] = loop.trip_count
    for forall in threads:
        for loop in mapped_loops(forall):
            index = _DIMENSIONS.index(loop.dimension)
            block_size[index] = max(block_size[index], loop.trip_count)

    host = _Builder(InsertPoint.before(grid))
    allocs = [op for op in _block_level_ops(grid) if _is_workgroup_alloc(op)]
    launch = LaunchOp(
        [host.constant(size) for size in grid_size],
        [host.constant(size) for size in block_size],
        workgroup=[alloc.results[0].type for alloc in allocs],
    )
    Rewriter.insert_op(launch, InsertPoint.before(grid))
    body = launch.entry_block
    for argument, name in zip(body.args, _LAUNCH_ARGUMENT_NAMES, strict=False):
        argument.name_hint = name
    terminator = TerminatorOp()
    body.add_op(terminator)
    kernel = _Builder(InsertPoint.before(terminator))
    for loop, iv in zip(block_loops, grid.induction_vars, strict=True):
        value = kernel.induction_value(loop, kernel.add(BlockIdOp(loop.dimension)))
        value.name_hint = iv.name_hint
        iv.replace_all_uses_with(value)
    _move_body(grid.body.block, kernel.insertion)
    for alloc, attribution in zip(allocs, launch.workgroup_attributions, strict=True):
        for use in list(alloc.results[0].uses):
            if _is_workgroup_dealloc(use.operation):
                Rewriter.erase_op(use.operation)
        alloc.results[0].replace_all_uses_with(attribution)
        Rewriter.erase_op(alloc)
    for forall in threads:
        _lower_thread_forall(forall, block_size)
    for parallel in [op for op in launch.walk() if isinstance(op, ParallelOp)]:
        parallel_to_for(parallel)
    Rewriter.erase_op(grid)
    return launch


def convert_parallel_loops_to_gpu(module: ModuleOp) -> None:
    """Turn every outermost block-mapped forall of `module` into a `gpu.launch`."""
    grids: list[ForallOp] = []
    for op in module.walk():
        if not isinstance(op, ForallOp) or op.mapping is None:
            continue
        kinds = mapping_kinds(op)
        if kinds not in ({BlockMappingAttr}, {ThreadMappingAttr}, set()):
            raise op_error(op, f"{PASS_NAME}: a mapping mixes blocks and threads")
        if is_block_forall(op) and not any(g.is_ancestor(op) for g in grids):
            grids.append(op)
        elif is_thread_forall(op) and not any(g.is_ancestor(op) for g in grids):
            raise op_error(
                op, f"{PASS_NAME}: a thread-mapped forall outside a block-mapped one"
            )
    for grid in grids:
        convert_block_forall(grid)


@dataclass(frozen=True)
class ConvertParallelLoopsToGpuPass(ModulePass):
    """Block- and thread-mapped `scf.forall`s to `gpu.launch`."""

    name = PASS_NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_parallel_loops_to_gpu(op)
