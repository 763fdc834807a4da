"""`bufferize` keeps meaning: tensors before, memrefs and output buffers after.

Random programs are DAGs over two pools of tensors, `NxN` ("small") and
`2NxN` ("big"), in which values have several uses on purpose, so that an
unsafe in-place write shows up as a wrong result: inits reused by later ops,
ops whose input is their own init (also transposed), values returned twice,
arguments returned directly, slices of values that are overwritten
afterwards, insert_slice chains, pads, concats, reshapes, reductions and
calls. Each is checked before vs after with the interpreter, and the output is
checked for leftover tensors and for one `memref.dealloc` per `memref.alloc`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp, TensorType, UnrankedTensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.passes import ModulePass

from irkit.parsing import parse_module
from irkit.pass_manager import build_pipeline
from irkit.testing import assert_pass_preserves_semantics
from irkit.testing.strategies import check_pass, linalg_programs
from irkit.transforms import get_irkit_passes
from irkit.transforms.bufferize import BufferizePass

PASS = BufferizePass()
CORPUS = Path(__file__).parents[1] / "corpus" / "torch_mlir"

ID = "affine_map<(d0, d1) -> (d0, d1)>"
TRANSPOSED = "affine_map<(d0, d1) -> (d1, d0)>"
ROWS = "affine_map<(d0, d1) -> (d0)>"


def assert_bufferized(module: ModuleOp) -> None:
    """No tensor is left, and each allocation is freed exactly once, after it."""
    for op in module.walk():
        for value in (*op.operands, *op.results):
            assert not isinstance(value.type, TensorType | UnrankedTensorType), op
    for op in module.walk():
        if isinstance(op, memref.AllocOp):
            frees = [
                use.operation
                for use in op.memref.uses
                if isinstance(use.operation, memref.DeallocOp)
            ]
            assert len(frees) == 1, f"{op} is freed {len(frees)} times"
            block = op.parent_block()
            assert block is not None
            order = list(block.ops)
            last_use = max(
                order.index(block.find_ancestor_op_in_block(use.operation))  # type: ignore[arg-type]
                for use in op.memref.uses
            )
            assert order.index(frees[0]) == last_use
        if isinstance(op, memref.DeallocOp):
            assert isinstance(op.memref.owner, memref.AllocOp)
        if isinstance(op, LinalgStructuredOperation):
            _assert_no_overlapping_read(op)


def _assert_no_overlapping_read(op: LinalgStructuredOperation) -> None:
    """An input may share an output's buffer only when each element is read
    where it is written: equal maps, parallel loops. (The interpreter reads
    all inputs before writing, so only loops would show the difference.)"""
    maps = op.get_indexing_maps().data
    parallel = all(
        it.data == IteratorType.PARALLEL for it in op.get_iterator_types().data
    )
    for i, value in enumerate(op.inputs):
        for j, output in enumerate(op.outputs):
            if value is output:
                assert parallel, op
                assert maps[i] == maps[len(op.inputs) + j], op


# --------------------------------------------------------------------------
# Random programs
# --------------------------------------------------------------------------


class Program:
    """IR text for a `@main` over small (NxN) and big (2NxN) f32 tensors."""

    def __init__(self, draw: st.DrawFn, n: int) -> None:
        self.draw = draw
        self.n = n
        self.small_type = f"tensor<{n}x{n}xf32>"
        self.big_type = f"tensor<{2 * n}x{n}xf32>"
        self.lines: list[str] = []
        self.count = 0
        self.small = ["%a", "%b"]
        self.big = ["%big"]
        self.uses_helper = False

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def pick(self, pool: list[str]) -> str:
        """A value of `pool`, mostly a recent one: reusing what was just
        computed is what puts several uses on one buffer."""
        recent = st.sampled_from(pool[-3:])
        return self.draw(st.one_of(recent, recent, st.sampled_from(pool)))

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)

    def empty(self, type_: str) -> str:
        name = self.fresh()
        self.emit(f"{name} = tensor.empty() : {type_}")
        return name

    def elementwise(
        self,
        pool: list[str],
        type_: str,
        inputs: list[str] | None = None,
        init: str | None = None,
    ) -> str:
        """An elementwise generic; its init is a fresh empty or a pool value
        (maybe one of its inputs), its first input maybe transposed."""
        if inputs is None:
            inputs = [self.pick(pool) for _ in range(self.draw(st.integers(1, 2)))]
        if init is None and self.draw(st.integers(0, 2)):
            init = self.pick(pool)
        reads_init = init is not None and self.draw(st.booleans())
        if init is None:
            init = self.empty(type_)
        square = type_ == self.small_type
        first_map = TRANSPOSED if square and self.draw(st.booleans()) else ID
        maps = [first_map] + [ID] * (len(inputs) - 1) + [ID]
        args = ", ".join(f"%in{i}: f32" for i in range(len(inputs)))
        body = ["%s0 = arith.mulf %in0, %in0 : f32"]
        last = "%s0"
        for i in range(1, len(inputs)):
            body.append(f"%s{i} = arith.subf {last}, %in{i} : f32")
            last = f"%s{i}"
        if reads_init:
            body.append(f"%t = arith.addf {last}, %o : f32")
            last = "%t"
        else:
            body.append(f"%t = arith.addf {last}, %in0 : f32")
            last = "%t"
        name = self.fresh()
        self.emit(
            f"{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
            f'iterator_types = ["parallel", "parallel"]}} '
            f"ins({', '.join(inputs)} : {', '.join([type_] * len(inputs))}) "
            f"outs({init} : {type_}) {{"
        )
        self.emit(f"^bb0({args}, %o: f32):")
        for line in body:
            self.emit("  " + line)
        self.emit(f"  linalg.yield {last} : f32")
        self.emit(f"}} -> {type_}")
        pool.append(name)
        return name

    def overwrite_then_read(self) -> None:
        """Write over a value's init, then read the old value again: the
        write must not happen in place."""
        old = self.pick(self.small)
        new = self.elementwise(self.small, self.small_type, init=old)
        self.elementwise(self.small, self.small_type, inputs=[old, new])

    def self_update(self) -> None:
        """An op whose input is its own init, maybe read transposed."""
        value = self.pick(self.small)
        self.elementwise(self.small, self.small_type, inputs=[value], init=value)

    def slice_then_overwrite(self) -> None:
        """Slice a computed big value, overwrite the value, then read the
        slice."""
        self.concat()
        self.slice(self.big[-1])
        view = self.small[-1]
        self.elementwise(self.big, self.big_type, init=self.big[-1])
        self.elementwise(self.small, self.small_type, inputs=[view])

    def slice(self, source: str | None = None) -> None:
        """A contiguous or strided NxN slice of a big value."""
        source = source or self.pick(self.big)
        name = self.fresh()
        if self.draw(st.booleans()):
            row = self.draw(st.integers(0, self.n))
            where = f"[{row}, 0] [{self.n}, {self.n}] [1, 1]"
        else:
            where = f"[0, 0] [{self.n}, {self.n}] [2, 1]"
        self.emit(
            f"{name} = tensor.extract_slice {source}{where} : "
            f"{self.big_type} to {self.small_type}"
        )
        self.small.append(name)

    def insert(self) -> None:
        source, dest = self.pick(self.small), self.pick(self.big)
        row = self.draw(st.integers(0, self.n))
        name = self.fresh()
        self.emit(
            f"{name} = tensor.insert_slice {source} into {dest}"
            f"[{row}, 0] [{self.n}, {self.n}] [1, 1] : "
            f"{self.small_type} into {self.big_type}"
        )
        self.big.append(name)

    def pad(self) -> None:
        source = self.pick(self.small)
        low = self.draw(st.integers(0, self.n))
        name = self.fresh()
        self.emit(
            f"{name} = tensor.pad {source} low[{low}, 0] high[{self.n - low}, 0] {{"
        )
        self.emit("^bb0(%i: index, %j: index):")
        self.emit("  tensor.yield %pad : f32")
        self.emit(f"}} : {self.small_type} to {self.big_type}")
        self.big.append(name)

    def concat(self) -> None:
        first, second = self.pick(self.small), self.pick(self.small)
        name = self.fresh()
        self.emit(
            f"{name} = tensor.concat dim(0) {first}, {second} : "
            f"({self.small_type}, {self.small_type}) -> {self.big_type}"
        )
        self.big.append(name)

    def reshape(self) -> None:
        source = self.pick(self.small)
        flat, back = self.fresh(), self.fresh()
        n = self.n
        self.emit(
            f"{flat} = tensor.collapse_shape {source} [[0, 1]] : "
            f"{self.small_type} into tensor<{n * n}xf32>"
        )
        self.emit(
            f"{back} = tensor.expand_shape {flat} [[0, 1]] output_shape [{n}, {n}] "
            f": tensor<{n * n}xf32> into {self.small_type}"
        )
        self.small.append(back)

    def reduce_and_broadcast(self) -> None:
        """Row sums of a small value, added back onto another small value."""
        source, other = self.pick(self.small), self.pick(self.small)
        n = self.n
        rows = f"tensor<{n}xf32>"
        empty, filled, sums, name = (
            self.empty(rows),
            self.fresh(),
            self.fresh(),
            self.fresh(),
        )
        self.emit(
            f"{filled} = linalg.fill ins(%zero : f32) outs({empty} : {rows}) -> {rows}"
        )
        self.emit(
            f"{sums} = linalg.generic {{indexing_maps = [{ID}, {ROWS}], "
            f'iterator_types = ["parallel", "reduction"]}} '
            f"ins({source} : {self.small_type}) outs({filled} : {rows}) {{"
        )
        self.emit("^bb0(%x: f32, %acc: f32):")
        self.emit("  %r = arith.addf %x, %acc : f32")
        self.emit("  linalg.yield %r : f32")
        self.emit(f"}} -> {rows}")
        init = self.empty(self.small_type)
        self.emit(
            f"{name} = linalg.generic {{indexing_maps = [{ROWS}, {ID}, {ID}], "
            f'iterator_types = ["parallel", "parallel"]}} '
            f"ins({sums}, {other} : {rows}, {self.small_type}) "
            f"outs({init} : {self.small_type}) {{"
        )
        self.emit("^bb0(%s: f32, %y: f32, %o: f32):")
        self.emit("  %r = arith.addf %s, %y : f32")
        self.emit("  linalg.yield %r : f32")
        self.emit(f"}} -> {self.small_type}")
        self.small.append(name)

    def call(self) -> None:
        source = self.pick(self.small)
        name = self.fresh()
        self.emit(
            f"{name} = func.call @helper({source}) : ({self.small_type}) -> "
            f"{self.small_type}"
        )
        self.uses_helper = True
        self.small.append(name)

    def helper(self) -> str:
        t = self.small_type
        return (
            f"func.func private @helper(%x: {t}) -> {t} {{\n"
            f"  %e = tensor.empty() : {t}\n"
            f"  %r = linalg.generic {{indexing_maps = [{TRANSPOSED}, {ID}], "
            f'iterator_types = ["parallel", "parallel"]}} '
            f"ins(%x : {t}) outs(%e : {t}) {{\n"
            "  ^bb0(%in: f32, %o: f32):\n"
            "    %n = arith.negf %in : f32\n"
            "    linalg.yield %n : f32\n"
            f"  }} -> {t}\n"
            f"  return %r : {t}\n"
            "}\n"
        )

    def text(self, results: list[str]) -> str:
        types = [self.small_type if r in self.small else self.big_type for r in results]
        header = (
            f"func.func @main(%a: {self.small_type}, %b: {self.small_type}, "
            f"%big: {self.big_type}) -> ({', '.join(types)}) {{\n"
            "  %zero = arith.constant 0.0 : f32\n"
            "  %pad = arith.constant 0.5 : f32\n"
        )
        body = "\n".join(self.lines)
        ret = f"  return {', '.join(results)} : {', '.join(types)}\n}}\n"
        helper = self.helper() if self.uses_helper else ""
        return helper + header + body + "\n" + ret


@st.composite
def bufferize_programs(draw: st.DrawFn, max_ops: int = 10) -> str:
    program = Program(draw, draw(st.integers(1, 3)))
    steps = {
        "small": lambda: program.elementwise(program.small, program.small_type),
        "big": lambda: program.elementwise(program.big, program.big_type),
        "slice": lambda: program.slice(),
        "insert": program.insert,
        "pad": program.pad,
        "concat": program.concat,
        "reshape": program.reshape,
        "reduce": program.reduce_and_broadcast,
        "call": program.call,
        "overwrite": program.overwrite_then_read,
        "self": program.self_update,
        "view": program.slice_then_overwrite,
    }
    last = ""
    for _ in range(draw(st.integers(3, max_ops))):
        steps[draw(st.sampled_from(sorted(steps)))]()
        last = max(program.small[-1], program.big[-1], key=_definition_order)
    # The last value depends on much of the program; more results (repeats
    # and arguments included) check what the ops left behind.
    others = draw(st.lists(st.sampled_from(program.small + program.big), max_size=2))
    return program.text([last, *others])


def _definition_order(name: str) -> int:
    """Arguments first, then `%v<n>` by `n`."""
    return int(name[2:]) if name.startswith("%v") else -1


@given(program=bufferize_programs(), seed=st.integers(0, 2**16))
def test_random_programs_keep_meaning(program: str, seed: int) -> None:
    after = assert_pass_preserves_semantics(PASS, program, trials=1, seed=seed)
    assert_bufferized(after)


def test_random_linalg_programs_keep_meaning() -> None:
    check_pass(PASS, linalg_programs())


# --------------------------------------------------------------------------
# The torch-mlir corpus
# --------------------------------------------------------------------------

# Ops bufferize takes only once generalized.
_NEEDS_GENERALIZING = ("linalg.broadcast", "linalg.reduce", "linalg.map")


@pytest.mark.parametrize(
    "path",
    sorted(CORPUS.glob("*.mlir")),
    ids=lambda path: path.stem,
)
def test_corpus_keeps_meaning(path: Path) -> None:
    text = path.read_text()
    arrays = np.load(path.with_suffix(".npz"))
    inputs = [
        [arrays[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in arrays))]
    ]
    passes: list[ModulePass] = [PASS]
    if any(name in text for name in _NEEDS_GENERALIZING):
        assert "linalg-generalize-named-ops" in get_irkit_passes()
        passes = [*build_pipeline("linalg-generalize-named-ops"), PASS]
    after = assert_pass_preserves_semantics(passes, text, inputs=inputs)
    assert_bufferized(after)


# --------------------------------------------------------------------------
# Where it writes
# --------------------------------------------------------------------------


def _chain(last_input_map: str) -> str:
    """Three elementwise ops, each writing over the previous result; the last
    reads its own init through `last_input_map`."""
    return f"""
func.func @chain(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {{
  %e = tensor.empty() : tensor<4x4xf32>
  %0 = linalg.generic {{indexing_maps = [{ID}, {ID}], iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  }} -> tensor<4x4xf32>
  %1 = linalg.generic {{indexing_maps = [{ID}, {ID}], iterator_types = ["parallel", "parallel"]}}
      ins(%b : tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  }} -> tensor<4x4xf32>
  %2 = linalg.generic {{indexing_maps = [{last_input_map}, {ID}], iterator_types = ["parallel", "parallel"]}}
      ins(%1 : tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }} -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}}
"""


def _op_names(module: ModuleOp) -> list[str]:
    return [op.name for op in module.walk()]


def test_elementwise_chain_writes_the_output_in_place() -> None:
    after = assert_pass_preserves_semantics(PASS, _chain(ID))
    names = _op_names(after)
    assert "memref.alloc" not in names
    assert "memref.copy" not in names
    assert names.count("linalg.generic") == 3


def test_transposed_self_update_is_not_in_place() -> None:
    """`outs(%v)` with `%v` read transposed must not overwrite `%v` while
    reading it."""
    text = _chain(TRANSPOSED)
    after = assert_pass_preserves_semantics(PASS, text)
    assert "memref.alloc" in _op_names(after)
    assert_bufferized(after)


def test_temporaries_are_freed() -> None:
    after = assert_pass_preserves_semantics(
        PASS, (CORPUS / "mlp.mlir").read_text(), trials=1
    )
    names = _op_names(after)
    assert names.count("memref.alloc") == names.count("memref.dealloc") > 0
    assert_bufferized(after)
    assert parse_module(str(after))  # the output reads back
