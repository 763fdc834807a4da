"""irkit's `scf` dialect: MLIR's structured control flow, in MLIR's exact syntax.

Mirrors MLIR's `mlir/include/mlir/Dialect/SCF/IR/SCFOps.td`. The ops are
xDSL's (so `isinstance` checks against `xdsl.dialects.scf` keep working), with
these differences:

- `scf.parallel` parses and prints MLIR's custom form (xDSL has only the
  generic one) and verifies like MLIR: as many bounds, steps and induction
  variables, positive constant steps, one `scf.reduce` operand per init value
  and result, of the same types.
- `scf.forall` and its terminator `scf.forall.in_parallel` are new: both
  forms (`in (4, %n)` and `= (lbs) to (ubs) step (steps)`), `shared_outs` and
  the optional `mapping` attribute.
- `scf.for` / `scf.if` accept a bare result type (`-> f32`) as MLIR does.
- `scf.execute_region` keeps its attribute dictionary and always prints its
  terminator (xDSL dropped both, which MLIR then rejects).
- `scf.while` prints no `()` when it carries no values, as MLIR does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects import scf as upstream
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects.utils import (
    parse_assignment,
    parse_dynamic_index_list_without_types,
    print_assignment,
    print_dynamic_index_list,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    NoTerminator,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from irkit.dialects.static_values import constant_int

# --------------------------------------------------------------------------
# Shared syntax helpers
# --------------------------------------------------------------------------


# A unit attribute on `scf.for`: unroll this loop fully where it is compiled
# (the C-style targets print `#pragma unroll`). The loop keeps its meaning; a
# target may ignore the hint.
UNROLL_ATTRIBUTE = "irkit.unroll"

# An integer attribute on a thread-mapped `scf.forall` (and on the `scf.if`
# guard `convert-parallel-loops-to-gpu` makes of it) that is one step `h` of
# a reduction tree in workgroup memory: `partial[t] = partial[t + h] (op)
# partial[t]` for `t < h`. `linalg-tile-rows-for-gpu` sets it;
# `gpu-shuffle-reductions` turns the last steps into warp shuffles.
REDUCTION_STEP_ATTRIBUTE = "irkit.reduction_step"


def parse_optional_arrow_type_list(parser: Parser) -> list[Attribute]:
    """Parse MLIR's optional `-> T` or `-> (T1, T2)`; [] when absent."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    types = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_type
    )
    return list(types) if types is not None else [parser.parse_type()]


def print_optional_arrow_type_list(
    printer: Printer, types: Sequence[Attribute]
) -> None:
    """Print ` -> T` for one type, ` -> (T1, T2)` otherwise (nothing when empty)."""
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def _print_ssa_list(printer: Printer, values: Sequence[SSAValue]) -> None:
    with printer.in_parens():
        printer.print_list(values, printer.print_ssa_value)


def _parse_operand_list(
    parser: Parser, count: int | None, what: str
) -> list[UnresolvedOperand]:
    """Parse `(%a, %b)`, checking there are `count` operands when given."""
    pos = parser.pos
    operands = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_unresolved_operand, f" in {what}"
    )
    if count is not None and len(operands) != count:
        parser.raise_error(f"expected {count} operands", pos, parser.pos)
    return operands


def _verify_terminator_is(
    op: Operation, region: Region, kind: type[Operation]
) -> Operation:
    block = region.blocks.first
    last = block.last_op if block is not None else None
    if not isinstance(last, kind):
        raise VerifyException(f"expects body to terminate with '{kind.name}'")
    return last


# --------------------------------------------------------------------------
# scf.for, scf.if, scf.execute_region, scf.while: syntax fixes
# --------------------------------------------------------------------------


class ForOp(upstream.ForOp):
    """A sequential loop with loop-carried values.

    ```mlir
    %sum = scf.for %i = %lb to %ub step %s iter_args(%acc = %zero) -> (f32) {
      %next = arith.addf %acc, %x : f32
      scf.yield %next : f32
    }
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        ub = parser.parse_unresolved_operand()
        parser.parse_keyword("step")
        step = parser.parse_unresolved_operand()

        pos = parser.pos
        pairs: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:
            pairs = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            if parser.parse_optional_punctuation("->") is None:
                parser.raise_error("expected '->' and the types of iter_args")
            parsed = parser.parse_optional_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_type
            )
            types = list(parsed) if parsed is not None else [parser.parse_type()]
            if len(types) != len(pairs):
                parser.raise_error(
                    "mismatch in number of loop-carried values and defined values",
                    pos,
                    parser.pos,
                )
        inits = parser.resolve_operands([p[1] for p in pairs], types, pos)
        iter_args = [arg.resolve(t) for (arg, _), t in zip(pairs, types, strict=True)]
        indvar_type: Attribute = (
            parser.parse_type()
            if parser.parse_optional_punctuation(":") is not None
            else IndexType()
        )
        bounds = [parser.resolve_operand(v, indvar_type) for v in (lb, ub, step)]
        body = parser.parse_region((indvar.resolve(indvar_type), *iter_args))
        attributes = parser.parse_optional_attr_dict()
        op = cls(bounds[0], bounds[1], bounds[2], inits, body)
        op.attributes |= attributes
        if not pairs:
            for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(op, trait)
        return op


class IfOp(upstream.IfOp):
    """A conditional with optional results.

    ```mlir
    %r = scf.if %cond -> (f32) {
      scf.yield %a : f32
    } else {
      scf.yield %b : f32
    }
    ```
    """

    def verify_(self) -> None:
        if self.output and not self.false_region.blocks:
            raise VerifyException("must have an else block if defining values")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        cond = parser.parse_operand(i1)
        result_types = parse_optional_arrow_type_list(parser)
        then_region = cls.parse_region_with_yield(parser)
        else_region = (
            cls.parse_region_with_yield(parser)
            if parser.parse_optional_keyword("else") is not None
            else Region()
        )
        attributes = parser.parse_optional_attr_dict()
        return cls(cond, result_types, then_region, else_region, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        has_results = bool(self.output)
        if has_results:
            printer.print_string(" -> ")
            with printer.in_parens():
                printer.print_list(self.output.types, printer.print_attribute)
        printer.print_string(" ")
        printer.print_region(
            self.true_region,
            print_entry_block_args=False,
            print_block_terminators=has_results,
        )
        if self.false_region.blocks:
            printer.print_string(" else ")
            printer.print_region(
                self.false_region,
                print_entry_block_args=False,
                print_block_terminators=has_results,
            )
        printer.print_op_attributes(self.attributes)


class ExecuteRegionOp(upstream.ExecuteRegionOp):
    """Runs its region once; the region's `scf.yield` gives the results.

    ```mlir
    %r = scf.execute_region -> i32 {
      scf.yield %x : i32
    }
    ```
    """

    def verify_(self) -> None:
        if not self.region.blocks:
            raise VerifyException("region needs to have at least one block")
        if self.region.blocks.first is not None and self.region.blocks.first.args:
            raise VerifyException("region cannot have any arguments")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        result_types = parse_optional_arrow_type_list(parser)
        region = parser.parse_region()
        op = cls(result_types, region)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        print_optional_arrow_type_list(printer, self.outs.types)
        printer.print_string(" ")
        # The region has no implicit terminator: MLIR always prints it.
        printer.print_region(self.region, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


class WhileOp(upstream.WhileOp):
    """A loop that tests its condition in `before` and runs `after` while true.

    ```mlir
    %r = scf.while (%a = %init) : (index) -> index {
      %c = arith.cmpi slt, %a, %n : index
      scf.condition(%c) %a : index
    } do {
    ^bb0(%b: index):
      scf.yield %b : index
    }
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        # MLIR writes a loop carrying no values as `scf.while : () -> () {`.
        if parser.parse_optional_punctuation(":") is not None:
            function_type = parser.parse_function_type()
            before = parser.parse_region()
            parser.parse_keyword("do")
            after = parser.parse_region()
            op = cls([], function_type.outputs.data, before, after)
            attrs = parser.parse_optional_attr_dict_with_keyword()
            if attrs is not None:
                op.attributes |= attrs.data
            return op
        return super().parse(parser)

    def print(self, printer: Printer) -> None:
        if self.arguments:
            super().print(printer)
            return
        printer.print_string(" : ")
        printer.print_operation_type(self)
        printer.print_string(" ")
        printer.print_region(self.before_region, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.after_region)
        printer.print_op_attributes(self.attributes, print_keyword=True)


# --------------------------------------------------------------------------
# scf.parallel
# --------------------------------------------------------------------------


class ParallelOp(upstream.ParallelOp):
    """A parallel loop nest; `scf.reduce` combines values across iterations.

    ```mlir
    %sum = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%zero) -> f32 {
      %v = memref.load %m[%i] : memref<?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%lhs: f32, %rhs: f32):
        %r = arith.addf %lhs, %rhs : f32
        scf.reduce.return %r : f32
      }
    }
    ```
    """

    def verify_(self) -> None:
        counts = (len(self.lowerBound), len(self.upperBound), len(self.step))
        if len(set(counts)) != 1:
            raise VerifyException(
                "expects the same number of lower bounds, upper bounds and steps, "
                f"got {counts[0]}, {counts[1]} and {counts[2]}"
            )
        if not self.step:
            raise VerifyException(
                "needs at least one tuple element for lowerBound, upperBound and step"
            )
        for step in self.step:
            constant = constant_int(step)
            if constant is not None and constant <= 0:
                raise VerifyException("constant step operand must be positive")
        body = self.body.block
        if len(body.args) != len(self.step):
            raise VerifyException(
                f"expects the same number of induction variables: {len(body.args)} "
                f"as bound and step values: {len(self.step)}"
            )
        if any(not isinstance(arg.type, IndexType) for arg in body.args):
            raise VerifyException(
                "expects arguments for the induction variable to be of index type"
            )
        reduce = cast(
            upstream.ReduceOp, _verify_terminator_is(self, self.body, upstream.ReduceOp)
        )
        results, reductions, inits = len(self.res), len(reduce.args), len(self.initVals)
        if results != reductions:
            raise VerifyException(
                f"expects number of results: {results} to be the same as number of "
                f"reductions: {reductions}"
            )
        if results != inits:
            raise VerifyException(
                f"expects number of results: {results} to be the same as number of "
                f"initial values: {inits}"
            )
        for index, (result, operand, init) in enumerate(
            zip(self.res, reduce.args, self.initVals, strict=True)
        ):
            if result.type != operand.type or result.type != init.type:
                raise VerifyException(
                    f"expects type of {index}-th reduction operand: {operand.type} and "
                    f"{index}-th initial value: {init.type} to be the same as the "
                    f"{index}-th result type: {result.type}"
                )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN,
            lambda: parser.parse_argument(expect_type=False),
            " in induction variables",
        )
        index = IndexType()
        pos = parser.pos
        parser.parse_punctuation("=")
        lower = _parse_operand_list(parser, len(ivs), "lower bounds")
        parser.parse_keyword("to")
        upper = _parse_operand_list(parser, len(ivs), "upper bounds")
        parser.parse_keyword("step")
        steps = _parse_operand_list(parser, len(ivs), "steps")
        bounds = [
            parser.resolve_operands(group, [index] * len(group), pos)
            for group in (lower, upper, steps)
        ]
        init_pos = parser.pos
        inits: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("init") is not None:
            inits = _parse_operand_list(parser, None, "initial values")
        result_types = parse_optional_arrow_type_list(parser)
        if len(result_types) != len(inits):
            parser.raise_error(
                f"expected {len(inits)} result types for {len(inits)} initial "
                f"values, got {len(result_types)}",
                init_pos,
                parser.pos,
            )
        init_values = parser.resolve_operands(inits, result_types, init_pos)
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        attributes = parser.parse_optional_attr_dict()
        # An `scf.reduce` with no operands may be left out of the text.
        if not body.blocks:
            body.add_block(Block())
        if not isinstance(body.block.last_op, upstream.ReduceOp):
            body.block.add_op(ReduceOp())
        op = cls(bounds[0], bounds[1], bounds[2], body, init_values)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(
                self.body.block.args,
                lambda arg: printer.print_block_argument(arg, print_type=False),
            )
        printer.print_string(" = ")
        _print_ssa_list(printer, self.lowerBound)
        printer.print_string(" to ")
        _print_ssa_list(printer, self.upperBound)
        printer.print_string(" step ")
        _print_ssa_list(printer, self.step)
        if self.initVals:
            printer.print_string(" init ")
            _print_ssa_list(printer, self.initVals)
        print_optional_arrow_type_list(printer, self.res.types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


class ReduceOp(upstream.ReduceOp):
    """The terminator of `scf.parallel`: one reduction region per value.

    ```mlir
    scf.reduce(%v : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %r = arith.addf %lhs, %rhs : f32
      scf.reduce.return %r : f32
    }
    ```
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        values: Sequence[SSAValue] = ()
        if parser.parse_optional_punctuation("(") is not None:
            pos = parser.pos
            operands = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_type
            )
            parser.parse_punctuation(")")
            values = parser.resolve_operands(operands, types, pos)
        # MLIR separates the regions of a variadic region list with commas.
        regions: list[Region] = []
        region = parser.parse_optional_region()
        while region is not None:
            regions.append(region)
            if parser.parse_optional_punctuation(",") is None:
                break
            region = parser.parse_region()
        op = cls(values, regions)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        if self.args:
            printer.print_string("(")
            printer.print_list(self.args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.args.types, printer.print_attribute)
            printer.print_string(")")
        if self.reductions:
            printer.print_string(" ")
            printer.print_list(self.reductions, printer.print_region)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if len(self.args) != len(self.reductions):
            raise VerifyException(
                f"expects one reduction region per operand, got {len(self.args)} "
                f"operands and {len(self.reductions)} regions"
            )
        for index, (operand, region) in enumerate(
            zip(self.args, self.reductions, strict=True)
        ):
            block = region.blocks.first
            if block is None or block.first_op is None:
                raise VerifyException(f"{index}-th reduction has an empty body")
            if len(block.args) != 2 or any(
                arg.type != operand.type for arg in block.args
            ):
                raise VerifyException(
                    f"expected two block arguments with type {operand.type} in the "
                    f"{index}-th reduction region"
                )
            if not isinstance(block.last_op, upstream.ReduceReturnOp):
                raise VerifyException(
                    "reduction bodies must be terminated with an 'scf.reduce.return' op"
                )
            if block.last_op.result.type != operand.type:
                raise VerifyException(
                    f"'scf.reduce.return' in the {index}-th reduction must have type "
                    f"{operand.type} (the type of the reduction inputs)"
                )


# --------------------------------------------------------------------------
# scf.forall
# --------------------------------------------------------------------------


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """The terminator of `scf.forall`: the parallel inserts into `shared_outs`.

    ```mlir
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %tile into %out[%i] [4] [1]
          : tensor<4xf32> into tensor<16xf32>
    }
    ```
    """

    name = "scf.forall.in_parallel"

    region = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (IsTerminator(), NoTerminator(), HasParent(ForallOp))
    )

    def __init__(self, ops: Sequence[Operation] = ()) -> None:
        super().__init__(regions=[Region(Block(ops))])

    def verify_(self) -> None:
        forall = self.parent_op()
        if not isinstance(forall, ForallOp):
            return
        outputs = forall.region_out_args
        for op in self.region.block.ops:
            dest = getattr(op, "dest", None)
            if not isinstance(dest, SSAValue) or op.results:
                raise VerifyException(
                    f"expected only parallel combining ops, found '{op.name}'"
                )
            if dest not in outputs:
                raise VerifyException(
                    f"'{op.name}' may only insert into an output block argument"
                )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls.build(regions=[region])
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(
            self.region, print_entry_block_args=False, print_block_terminators=False
        )
        printer.print_op_attributes(self.attributes)


def _known_values(
    values: Sequence[int], dynamic: Sequence[SSAValue]
) -> list[int | None]:
    """Each bound as an int when static (or a constant), None when dynamic."""
    pending = iter(dynamic)
    result: list[int | None] = []
    for value in values:
        result.append(constant_int(next(pending)) if value == DYNAMIC_INDEX else value)
    return result


@irdl_op_definition
class ForallOp(IRDLOperation):
    """A parallel loop nest; iterations insert into shared tensors or write memory.

    ```mlir
    %r = scf.forall (%i, %j) in (4, %n) shared_outs(%o = %t) -> (tensor<4x?xf32>) {
      ...
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %v into %o[%i, %j] [1, 1] [1, 1]
            : tensor<1x1xf32> into tensor<4x?xf32>
      }
    }
    scf.forall (%i) = (%lb) to (%ub) step (2) {
      memref.store %x, %m[%i] : memref<?xf32>
    } {mapping = [#gpu.thread<x>]}
    ```
    """

    name = "scf.forall"

    dynamicLowerBound = var_operand_def(IndexType)
    dynamicUpperBound = var_operand_def(IndexType)
    dynamicStep = var_operand_def(IndexType)
    outputs = var_operand_def(base(TensorType))

    staticLowerBound = prop_def(DenseArrayBase.constr(i64))
    staticUpperBound = prop_def(DenseArrayBase.constr(i64))
    staticStep = prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(ArrayAttr)

    res = var_result_def()

    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(
        SingleBlockImplicitTerminator(InParallelOp), RecursiveMemoryEffect()
    )

    def __init__(
        self,
        lower: Sequence[int | SSAValue],
        upper: Sequence[int | SSAValue],
        step: Sequence[int | SSAValue],
        body: Region,
        outputs: Sequence[SSAValue] = (),
        mapping: ArrayAttr | None = None,
    ) -> None:
        """Build from mixed static (int) and dynamic (SSA value) bounds."""

        def split(
            mixed: Sequence[int | SSAValue],
        ) -> tuple[list[SSAValue], DenseArrayBase]:
            dynamic = [v for v in mixed if isinstance(v, SSAValue)]
            static = [v if isinstance(v, int) else DYNAMIC_INDEX for v in mixed]
            return dynamic, DenseArrayBase.from_list(i64, static)

        (lbs, static_lbs), (ubs, static_ubs), (steps, static_steps) = (
            split(lower),
            split(upper),
            split(step),
        )
        properties: dict[str, Attribute] = {
            "staticLowerBound": static_lbs,
            "staticUpperBound": static_ubs,
            "staticStep": static_steps,
        }
        if mapping is not None:
            properties["mapping"] = mapping
        super().__init__(
            operands=[lbs, ubs, steps, outputs],
            result_types=[[value.type for value in outputs]],
            properties=properties,
            regions=[body],
        )

    @property
    def rank(self) -> int:
        return len(self.staticUpperBound)

    @property
    def induction_vars(self) -> Sequence[BlockArgument]:
        return self.body.block.args[: self.rank]

    @property
    def region_out_args(self) -> Sequence[BlockArgument]:
        return self.body.block.args[self.rank :]

    def mixed_bounds(self) -> tuple[list[int | SSAValue], ...]:
        """Lower bounds, upper bounds and steps: ints where static, values where not."""

        def mix(
            static: Sequence[int], dynamic: Sequence[SSAValue]
        ) -> list[int | SSAValue]:
            pending = iter(dynamic)
            return [
                next(pending) if value == DYNAMIC_INDEX else value for value in static
            ]

        return (
            mix(self.staticLowerBound.get_values(), self.dynamicLowerBound),
            mix(self.staticUpperBound.get_values(), self.dynamicUpperBound),
            mix(self.staticStep.get_values(), self.dynamicStep),
        )

    def is_normalized(self) -> bool:
        """Whether every lower bound is the literal 0 and every step the literal 1.

        MLIR also counts constant operands; irkit looks only at static values,
        so printing never changes the op.
        """
        return all(v == 0 for v in self.staticLowerBound.get_values()) and all(
            v == 1 for v in self.staticStep.get_values()
        )

    def verify_(self) -> None:
        rank = self.rank
        if len(self.res) != len(self.outputs):
            raise VerifyException(
                f"produces {len(self.res)} results, but has only "
                f"{len(self.outputs)} outputs"
            )
        for result, output in zip(self.res, self.outputs, strict=True):
            if result.type != output.type:
                raise VerifyException(
                    f"expects result type {result.type} to match its output type "
                    f"{output.type}"
                )
        args = self.body.block.args
        if len(args) != rank + len(self.outputs):
            raise VerifyException(f"region expects {rank} arguments")
        for index, arg in enumerate(args[:rank]):
            if not isinstance(arg.type, IndexType):
                raise VerifyException(
                    f"expects {index}-th block argument to be an index"
                )
        for index, (arg, output) in enumerate(
            zip(args[rank:], self.outputs, strict=True)
        ):
            if arg.type != output.type:
                raise VerifyException(
                    f"type mismatch between {index}-th output and corresponding block "
                    "argument"
                )
        if self.mapping is not None and self.mapping.data and len(self.mapping) != rank:
            raise VerifyException("mapping attribute size must match op rank")
        for name, static, dynamic in (
            ("lower bound", self.staticLowerBound.get_values(), self.dynamicLowerBound),
            ("upper bound", self.staticUpperBound.get_values(), self.dynamicUpperBound),
            ("step", self.staticStep.get_values(), self.dynamicStep),
        ):
            if len(static) != rank:
                raise VerifyException(
                    f"expected {rank} {name} values, got {len(static)}"
                )
            expected = sum(1 for value in static if value == DYNAMIC_INDEX)
            if len(dynamic) != expected:
                raise VerifyException(f"expected {expected} dynamic {name} values")
        steps = _known_values(self.staticStep.get_values(), self.dynamicStep)
        if any(step is not None and step <= 0 for step in steps):
            raise VerifyException("constant step must be positive")
        _verify_terminator_is(self, self.body, InParallelOp)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        index = IndexType()
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN,
            lambda: parser.parse_argument(expect_type=False),
            " in induction variables",
        )

        def parse_bounds() -> list[int | SSAValue]:
            pos = parser.pos
            dynamic, static = parse_dynamic_index_list_without_types(
                parser, DYNAMIC_INDEX, delimiter=Parser.Delimiter.PAREN
            )
            if len(static) != len(ivs):
                parser.raise_error(
                    f"expected {len(ivs)} bounds for {len(ivs)} induction variables",
                    pos,
                    parser.pos,
                )
            values = iter(parser.resolve_operands(dynamic, [index] * len(dynamic), pos))
            return [next(values) if v == DYNAMIC_INDEX else v for v in static]

        lower: list[int | SSAValue]
        step: list[int | SSAValue]
        if parser.parse_optional_keyword("in") is not None:
            upper = parse_bounds()
            lower, step = [0] * len(ivs), [1] * len(ivs)
        else:
            parser.parse_punctuation("=")
            lower = parse_bounds()
            parser.parse_keyword("to")
            upper = parse_bounds()
            parser.parse_keyword("step")
            step = parse_bounds()

        pos = parser.pos
        pairs: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("shared_outs") is not None:
            pairs = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            types = parse_optional_arrow_type_list(parser)
            if len(types) != len(pairs):
                parser.raise_error(
                    "mismatch between out operands and types", pos, parser.pos
                )
        outputs = parser.resolve_operands([p[1] for p in pairs], types, pos)
        args = [iv.resolve(index) for iv in ivs] + [
            arg.resolve(t) for (arg, _), t in zip(pairs, types, strict=True)
        ]
        body = parser.parse_region(args)
        attributes = parser.parse_optional_attr_dict()
        mapping = attributes.pop("mapping", None)
        if mapping is not None and not isinstance(mapping, ArrayAttr):
            parser.raise_error("expected 'mapping' to be an array attribute")
        # The printed form omits an empty terminator (when there are no
        # shared_outs): put it back.
        if not body.blocks:
            body.add_block(Block())
        if not isinstance(body.block.last_op, InParallelOp):
            body.block.add_op(InParallelOp())
        op = cls(lower, upper, step, body, outputs, cast(ArrayAttr | None, mapping))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(
                self.induction_vars,
                lambda arg: printer.print_block_argument(arg, print_type=False),
            )

        def print_bounds(static: Sequence[int], dynamic: Sequence[SSAValue]) -> None:
            print_dynamic_index_list(
                printer,
                DYNAMIC_INDEX,
                dynamic,
                static,
                delimiter=Parser.Delimiter.PAREN,
            )

        if self.is_normalized():
            printer.print_string(" in ")
            print_bounds(self.staticUpperBound.get_values(), self.dynamicUpperBound)
        else:
            printer.print_string(" = ")
            print_bounds(self.staticLowerBound.get_values(), self.dynamicLowerBound)
            printer.print_string(" to ")
            print_bounds(self.staticUpperBound.get_values(), self.dynamicUpperBound)
            printer.print_string(" step ")
            print_bounds(self.staticStep.get_values(), self.dynamicStep)
        if self.outputs:
            printer.print_string(" shared_outs")
            with printer.in_parens():
                printer.print_list(
                    zip(self.region_out_args, self.outputs, strict=True),
                    lambda pair: print_assignment(printer, pair[0], pair[1]),
                )
        printer.print_string(" ")
        if self.outputs:
            printer.print_string("-> ")
            with printer.in_parens():
                printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(" ")
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_block_terminators=bool(self.res),
        )
        # MLIR prints `mapping` (a property) in the attribute dictionary,
        # which it keeps sorted by name.
        attributes = dict(self.attributes)
        if self.mapping is not None:
            attributes["mapping"] = self.mapping
        printer.print_op_attributes(dict(sorted(attributes.items())))


_REPLACED = {
    op.name for op in (ForOp, IfOp, ExecuteRegionOp, WhileOp, ParallelOp, ReduceOp)
}

Scf = Dialect(
    "scf",
    [
        *(op for op in upstream.Scf.operations if op.name not in _REPLACED),
        ForOp,
        IfOp,
        ExecuteRegionOp,
        WhileOp,
        ParallelOp,
        ReduceOp,
        ForallOp,
        InParallelOp,
    ],
    list(upstream.Scf.attributes),
)
