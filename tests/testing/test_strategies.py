"""Random programs: they verify, they run, and `check_pass` finds wrong passes
and shrinks their counterexamples to a few ops."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)

from irkit.dtypes import numpy_dtype
from irkit.interpreter import interpret
from irkit.parsing import parse_module
from irkit.testing import PassNeverFired, SemanticsMismatch, random_arguments
from irkit.testing.strategies import (
    FLOAT_ELEMENTS,
    _Builder,
    _finish,
    _matmul,
    changed_by_pass,
    check_pass,
    database_key,
    linalg_programs,
    lowered,
    nn_programs,
)
from irkit.transforms.convert_nn_to_linalg import ConvertNnToLinalgPass
from tests.testing.mutants import (
    OffByOneLoopBoundPass,
    SwapNnSubOperandsPass,
    WrongReductionInitPass,
)


@pytest.fixture
def derandomised() -> Iterator[None]:
    """The `ci` profile whatever HYPOTHESIS_PROFILE says: how small a shrunk
    counterexample gets depends on the examples drawn (a random 25 sometimes
    hold no failing one at all), and these tests assert it."""
    previous = settings.get_current_profile_name()
    settings.load_profile("ci")
    yield
    settings.load_profile(previous)


def _main(module: ModuleOp) -> FuncOp:
    func = module.body.block.first_op
    assert isinstance(func, FuncOp)
    return func


def _op_count(text: str) -> int:
    """The `nn`/`linalg` ops of `@main`'s body (not the ops inside their bodies)."""
    module = parse_module(text)
    return sum(
        1
        for op in _main(module).body.block.ops
        if op.name.startswith(("nn.", "linalg."))
    )


@given(nn_programs())
def test_nn_programs_run_to_finite_results(module: ModuleOp) -> None:
    args = random_arguments(_main(module), np.random.default_rng(0))
    results = interpret(module, "main", *args)
    assert results
    for result in results:
        assert np.all(np.isfinite(result))


@given(linalg_programs())
def test_linalg_programs_run_to_finite_results(module: ModuleOp) -> None:
    args = random_arguments(_main(module), np.random.default_rng(0))
    (result,) = interpret(module, "main", *args)
    assert np.all(np.isfinite(result))
    assert any(op.name.startswith("linalg.") for op in _main(module).walk())


@given(linalg_programs(named_ops=False))
def test_linalg_programs_without_named_ops_hold_only_generics(module: ModuleOp) -> None:
    structured = {
        op.name
        for op in _main(module).walk()
        if op.name.startswith("linalg.") and op.name != "linalg.yield"
    }
    assert structured <= {"linalg.generic", "linalg.fill"}
    assert "linalg.generic" in structured


@pytest.mark.parametrize("element", ["f16", "bf16"])
def test_programs_compute_in_the_element_type_asked_for(element: str) -> None:
    """Half-precision programs: every argument and result in the half type
    (inputs drawn in it too), finite."""
    dtype = np.dtype(numpy_dtype(FLOAT_ELEMENTS[element]))

    @settings(database=None, max_examples=15)
    @given(
        st.one_of(
            nn_programs(element=FLOAT_ELEMENTS[element]),
            linalg_programs(element=element),
        )
    )
    def run(module: ModuleOp) -> None:
        args = random_arguments(_main(module), np.random.default_rng(0))
        assert {np.asarray(a).dtype for a in args} == {dtype}
        for result in interpret(module, "main", *args):
            assert result.dtype == dtype
            assert np.all(np.isfinite(result))

    run()


def test_element_types_other_than_floats_are_refused() -> None:
    @settings(database=None, max_examples=1)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        with pytest.raises(ValueError, match="float type"):
            data.draw(nn_programs(element=i32))
        with pytest.raises(ValueError, match="f16, bf16 or f32"):
            data.draw(linalg_programs(element="i32"))

    draw()


@pytest.mark.parametrize("element", ["f16", "bf16"])
def test_check_pass_in_half_precision(element: str) -> None:
    """The property tests' machinery on half programs: a lowering keeps their
    meaning within the half type's tolerance."""
    check_pass(
        ConvertNnToLinalgPass(), nn_programs(max_ops=4, element=FLOAT_ELEMENTS[element])
    )
    check_pass("lower-to-c", linalg_programs(max_ops=2, element=element))


def test_linalg_programs_draw_named_ops() -> None:
    seen: set[str] = set()

    # Derandomised and long enough that a rare op is certain to be drawn.
    @settings(database=None, derandomize=True, max_examples=200)
    @given(linalg_programs())
    def collect(module: ModuleOp) -> None:
        seen.update(op.name for op in _main(module).walk())

    collect()
    assert {"linalg.matmul", "linalg.transpose", "linalg.generic"} <= seen


def test_check_pass_is_quiet_on_a_correct_pass() -> None:
    check_pass(CommonSubexpressionElimination(), nn_programs(max_ops=4))


@pytest.mark.usefixtures("derandomised")
def test_check_pass_catches_swapped_operands_with_a_small_program() -> None:
    with pytest.raises(SemanticsMismatch) as caught:
        check_pass(
            SwapNnSubOperandsPass(),
            nn_programs(max_ops=6, ops={"nn.sub", "nn.add", "nn.mul", "nn.relu"}),
        )
    assert caught.value.pass_name == "test-swap-nn-sub-operands"
    # Shrunk to the sub and at most one op feeding it.
    assert _op_count(caught.value.before) <= 2, caught.value.before


@pytest.mark.usefixtures("derandomised")
def test_check_pass_catches_a_wrong_reduction_init() -> None:
    with pytest.raises(SemanticsMismatch) as caught:
        check_pass(
            WrongReductionInitPass(), linalg_programs(max_ops=3, named_ops=False)
        )
    assert caught.value.pass_name == "test-wrong-reduction-init"
    # Shrunk to at most two generics (one of them a reduction, with its fill).
    assert _op_count(caught.value.before) <= 3, caught.value.before


def test_nn_programs_cover_every_nn_op() -> None:
    from irkit.dialects.nn import NN
    from irkit.testing.strategies import NN_OPS

    # nn.cmp appears inside select, and/or/xor/not programs.
    drawable = set(NN_OPS) | {"nn.cmp"}
    assert {op.name for op in NN.operations} <= drawable


def test_nn_programs_rejects_unknown_ops() -> None:
    @given(nn_programs(ops={"nn.frobnicate"}))
    def draw(module: ModuleOp) -> None:
        pass

    with pytest.raises(ValueError, match=r"nn\.frobnicate"):
        draw()


@pytest.mark.usefixtures("derandomised")
def test_check_pass_catches_an_off_by_one_loop_bound() -> None:
    small = nn_programs(max_ops=1, ops={"nn.add", "nn.relu"}, max_rank=2, max_dim=3)
    loops = lowered(small, "lower-to-c")
    with pytest.raises(SemanticsMismatch) as caught:
        check_pass(OffByOneLoopBoundPass(), loops)
    assert caught.value.pass_name == "test-off-by-one-loop-bound"
    # The last iteration's element is never written: reported as such.
    assert "never written" in str(caught.value)
    assert caught.value.before.count("scf.parallel") == 1, caught.value.before


@given(st.data())
def test_matmul_of_a_0d_value_gets_a_2d_left_operand(data: st.DataObject) -> None:
    # A full reduction leaves a 0-D value; nn_programs once made it a 1-D
    # left operand and crashed generation (issue 23, item 3).
    builder = _Builder(data.draw)
    builder.input(())
    product = _matmul(builder, "nn.matmul")
    assert product is not None
    lhs = product.owner.operands[0]
    assert len(lhs.type.get_shape()) == 2
    _finish(builder, [product])


def test_saved_failures_are_keyed_by_pass_and_strategy() -> None:
    # Issue 23, item 2: one key for every call let a failure saved by one
    # test be replayed, and deleted, by another.
    programs = nn_programs(max_ops=6, ops={"nn.sub", "nn.add"})
    swap = SwapNnSubOperandsPass()
    assert database_key(swap, programs) == database_key(swap, programs)
    assert database_key(swap, programs) != database_key(swap, nn_programs())
    assert database_key(swap, programs) != database_key("cse", programs)
    assert database_key(swap, programs, 1) != database_key(swap, programs, 2)

    database = InMemoryExampleDatabase()
    previous = settings.get_current_profile_name()
    settings.register_profile(
        "test-database",
        parent=settings.get_profile("ci"),
        derandomize=False,
        database=database,
    )
    settings.load_profile("test-database")
    try:
        # Subtractions only: random examples are sure to catch the swap.
        for max_ops in (3, 4):
            strategy = nn_programs(max_ops=max_ops, ops={"nn.sub"})
            with pytest.raises(SemanticsMismatch):
                check_pass(swap, strategy)
    finally:
        settings.load_profile(previous)
    failures = [
        key
        for key, saved in database.data.items()
        if saved and not key.endswith((b".secondary", b".pareto"))
    ]
    assert len(failures) == 2


@dataclass(frozen=True)
class _LeavesEverything(ModulePass):
    """A pass whose rewrite never applies (as `x * 1.0 -> x` on programs that
    draw such a constant once in a thousand)."""

    name = "test-leaves-everything"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx, op


@pytest.mark.usefixtures("derandomised")
def test_check_pass_fails_when_the_pass_never_fired() -> None:
    with pytest.raises(PassNeverFired, match=r"changed 0 of the \d+ programs"):
        check_pass(_LeavesEverything(), nn_programs(max_ops=3))


@pytest.mark.usefixtures("derandomised")
def test_check_pass_reports_how_often_the_pass_fired() -> None:
    reach = check_pass(ConvertNnToLinalgPass(), nn_programs(max_ops=3))
    assert 0 < reach.changed <= reach.examples
    # Asking for more than happened fails, with the counts.
    with pytest.raises(PassNeverFired, match=f"changed {reach.changed} of"):
        check_pass(
            ConvertNnToLinalgPass(),
            nn_programs(max_ops=3),
            min_fired=reach.examples + 1,
        )


def test_a_program_changes_when_it_prints_differently() -> None:
    # What check_pass counts as fired: a structural difference (another
    # operand), and a result type alone, which xDSL's structural comparison
    # leaves out; a clone, or the same text parsed again, is no change.
    text = """
    func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) -> memref<4xf32> {
      %v = memref.subview %a[0] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1]>>
      return %a : memref<4xf32>
    }
    """
    before = parse_module(text)
    assert not changed_by_pass(before.clone(), before)
    assert not changed_by_pass(parse_module(text), before)
    assert changed_by_pass(parse_module(text.replace("return %a", "return %b")), before)
    retyped = parse_module(text.replace("strided<[1]>>", "strided<[1], offset: ?>>"))
    assert retyped.is_structurally_equivalent(before)
    assert changed_by_pass(retyped, before)
