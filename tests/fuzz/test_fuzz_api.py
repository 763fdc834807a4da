"""Fuzzing irkit's Python API: mutated programs and bad arrays.

`test_fuzz_ir.py` drives mutants through irkit's stages one by one; here
they go through what a Python user calls: `irkit.parse`, `irkit.interpret`
(on text and on modules, with and without an entry) and `irkit.compile` for
the C target, whose functions are then called. Valid seeds are also called
with bad arguments: wrong counts, shapes, dtypes and ranks, Python lists,
scalars for tensors, `None`, strings, object and structured arrays,
non-contiguous views.

The property: only irkit's documented exceptions (`IRKitError` and its
subclasses: `DiagnosticError`, `InputError`, `PipelineError`,
`PassFailure`, `CompileError`, `AssertionFailure`, ...) escape; never a bare
`AssertionError`, `ValueError`, `TypeError` or `IndexError` from inside.

Compiling C is the slow part, so only a few mutants per run are compiled
(`COMPILE_EXAMPLES`); `HYPOTHESIS_PROFILE=thorough` compiles a hundred.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz_ir import (
    InternalError,
    _Timeout,
    interpreted,
    mutants,
    mutate,
    parsed_seed,
    seeds,
    time_limit,
)
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

import irkit
from irkit.abi import input_types
from irkit.diagnostics import IRKitError
from irkit.interpreter import InputError
from irkit.testing import random_arguments

# A mutant's C compile (and run) gets longer than a parse or an interpretation.
API_SECONDS = 2.0
COMPILE_SECONDS = 20.0
COMPILE_EXAMPLES = 6

ADD = """\
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
"""


def _call(stage: str, text: str, action: Callable[[], Any], seconds: float) -> Any:
    """`action()`, or None on a documented error, a timeout or too little
    memory (as `test_fuzz_ir`'s stages: a mutant's 4096^3 matmul asks the
    interpreter for 256 GiB, failing before or after the timeout by the
    machine's speed); anything else is an internal error naming the stage
    and the program."""
    try:
        with time_limit(seconds):
            return action()
    except IRKitError:
        return None
    except (_Timeout, MemoryError):
        return None
    except Exception as error:
        raise InternalError(stage, error, text) from None


def _functions(module: ModuleOp) -> list[FuncOp]:
    return [op for op in module.ops if isinstance(op, FuncOp) and op.body.blocks]


def drive_api(text: str, *, compile_c: bool) -> None:
    """Put `text` through the Python API; raises `InternalError` on a crash."""
    module = _call("irkit.parse", text, lambda: irkit.parse(text), API_SECONDS)
    # Text straight to interpret: the default entry, no inputs.
    _call("irkit.interpret(text)", text, lambda: irkit.interpret(text), API_SECONDS)
    if module is None:
        return
    # The functions the interpreter ran to the end: native code runs only
    # those, since a mutant's loop may never end (step 0) or index out of
    # bounds, which no signal stops or catches in compiled code.
    finished: set[str] = set()
    for func in _functions(module):

        def run(func: FuncOp = func) -> object:
            arguments = random_arguments(func, np.random.default_rng(0))
            return irkit.interpret(module, func.sym_name.data, *arguments)

        name = func.sym_name.data
        if _call(f"irkit.interpret @{name}", text, run, API_SECONDS) is not None:
            finished.add(name)
    if not compile_c:
        return
    compiled = _call(
        "irkit.compile",
        text,
        lambda: irkit.compile(module, target="c"),
        COMPILE_SECONDS,
    )
    if compiled is None or compiled.symbol not in finished:
        return
    entry = next(f for f in _functions(module) if f.sym_name.data == compiled.symbol)

    def call() -> object:
        return compiled(*random_arguments(entry, np.random.default_rng(0)))

    _call("compiled call", text, call, API_SECONDS)


# The edits after which a program most often still parses (a deleted or
# inserted token almost never does): these mutants reach interpret and compile.
PARSING_MUTATIONS = ("change_integer", "sibling_op", "replace_shape", "swap")


@st.composite
def parsing_mutants(draw: st.DrawFn) -> str:
    """A mutant that parses and verifies, found in a few tries (the last
    try is returned when none does)."""
    text = ""
    for _ in range(8):
        text = mutate(
            draw(st.sampled_from(seeds())),
            draw(st.sampled_from(PARSING_MUTATIONS)),
            lambda n: draw(st.integers(0, max(n - 1, 0))),
        )
        try:
            irkit.parse(text)
        except IRKitError:
            continue
        return text
    return text


@settings(deadline=None)
@given(st.one_of(mutants(), parsing_mutants()))
def test_api_on_mutants_raises_only_documented_errors(text: str) -> None:
    drive_api(text, compile_c=False)


# A twentieth of the profile's examples compile (6 at least; 100 thorough).
@settings(
    deadline=None,
    max_examples=max(COMPILE_EXAMPLES, settings.default.max_examples // 20),
)
@given(parsing_mutants())
def test_compile_on_mutants_raises_only_documented_errors(text: str) -> None:
    drive_api(text, compile_c=True)


# --- bad arrays ---------------------------------------------------------------


def _strided(array: np.ndarray) -> np.ndarray:
    """The same values as a strided (not C-contiguous) view."""
    if not array.ndim:
        return array
    return np.repeat(array[..., None], 2, axis=-1)[..., 0]


# How to spoil a valid argument (or make it oddly valid: a view, NaNs).
BAD_VALUES: dict[str, Callable[[np.ndarray], Any]] = {
    "float64": lambda a: a.astype(np.float64),
    "int8": lambda a: a.astype(np.int8),
    "bool": lambda a: a.astype(bool),
    "complex": lambda a: a.astype(np.complex64),
    "one_more_dim": lambda a: a[None],
    "one_less_dim": lambda a: a.reshape(-1)[0] if a.ndim <= 1 else a[0],
    "longer": lambda a: np.concatenate([a.reshape(-1), a.reshape(-1)]),
    "empty": lambda a: np.zeros((0,) * max(a.ndim, 1), a.dtype),
    "list": lambda a: a.tolist(),
    "python_scalar": lambda a: 1.5,
    "none": lambda a: None,
    "string": lambda a: "not an array",
    "object": lambda a: np.full(a.shape, None, dtype=object),
    "structured": lambda a: np.zeros(a.shape, [("x", np.float32), ("y", np.int32)]),
    "transposed": lambda a: a.T,
    "strided": _strided,
    "nan": lambda a: np.full_like(a, np.nan) if a.dtype.kind == "f" else a,
}
BAD_KINDS = tuple(BAD_VALUES)
# Kinds no tensor argument may accept (the others may be right by chance:
# a bool tensor stays bool, a square matrix transposes to its own shape).
CLEARLY_WRONG = ("one_more_dim", "longer", "none", "string", "object", "structured")


def _bad_value(kind: str, good: Any) -> Any:
    return BAD_VALUES[kind](np.asarray(good))


@cache
def callable_seeds() -> tuple[str, ...]:
    """Seeds whose entry takes inputs and runs on the interpreter."""
    found: list[str] = []
    for seed in seeds():
        module = parsed_seed(seed)
        try:
            entry = irkit.interpreter.default_entry(module)
            func = next(f for f in _functions(module) if f.sym_name.data == entry)
        except (IRKitError, StopIteration):
            continue
        # Too large to interpret here (a real-size 4096^3 matmul) is not
        # callable for these tests either. The run is `test_fuzz_ir`'s
        # (`irkit.interpret` is `run_function` on an `Interpreter`).
        if input_types(func) and interpreted(seed, module, func):
            found.append(seed)
    return tuple(found)


@cache
def compiled_seeds() -> tuple[tuple[str, Any], ...]:
    """Three callable seeds from across the list, compiled for C once per run."""
    chosen: list[tuple[str, Any]] = []
    for text in callable_seeds()[:: max(len(callable_seeds()) // 6, 1)]:
        try:
            chosen.append((text, irkit.compile(text, target="c")))
        except IRKitError:
            continue
        if len(chosen) == 3:
            break
    return tuple(chosen)


def _arguments(text: str) -> list[Any]:
    module = irkit.parse(text)
    entry = irkit.interpreter.default_entry(module)
    func = next(f for f in _functions(module) if f.sym_name.data == entry)
    return random_arguments(func, np.random.default_rng(1))


@st.composite
def bad_calls(draw: st.DrawFn) -> tuple[str, list[Any]]:
    text = draw(st.sampled_from(callable_seeds()))
    arguments = _arguments(text)
    change = draw(st.sampled_from(("value", "value", "drop", "extra")))
    if change == "drop":
        return text, arguments[:-1]
    if change == "extra":
        return text, [*arguments, arguments[0]]
    position = draw(st.integers(0, len(arguments) - 1))
    kind = draw(st.sampled_from(BAD_KINDS))
    arguments[position] = _bad_value(kind, arguments[position])
    return text, arguments


def test_callable_seeds_are_found() -> None:
    assert len(callable_seeds()) > 20


@settings(deadline=None)
@given(bad_calls())
def test_bad_arrays_raise_only_input_errors(call: tuple[str, list[Any]]) -> None:
    text, arguments = call
    module = irkit.parse(text)
    _call(
        "interpret (bad arrays)",
        text,
        lambda: irkit.interpret(module, None, *arguments),
        API_SECONDS,
    )


# The compiled side: a few seeds (each compiled once), every kind of bad value.
@pytest.mark.parametrize("kind", [*BAD_KINDS, "drop", "extra"])
def test_compiled_functions_reject_bad_arrays_with_input_errors(kind: str) -> None:
    assert compiled_seeds()
    for text, compiled in compiled_seeds():
        arguments = _arguments(text)
        wrong = kind in ("drop", "extra") or (
            kind in CLEARLY_WRONG and isinstance(arguments[0], np.ndarray)
        )
        if kind == "drop":
            arguments = arguments[:-1]
        elif kind == "extra":
            arguments = [*arguments, arguments[0]]
        else:
            arguments[0] = _bad_value(kind, arguments[0])
        if wrong:  # both sides refuse it, with the documented error
            with pytest.raises(InputError):
                irkit.interpret(text, None, *arguments)
            with pytest.raises(InputError):
                compiled(*arguments)
            continue
        interpreted = _call(
            f"interpreted call ({kind})",
            text,
            lambda: irkit.interpret(text, None, *arguments),
            API_SECONDS,
        )
        # Native code runs only what the interpreter ran to the end: odd
        # values (a scalar index of 1.5) might index out of bounds.
        if interpreted is not None:
            _call(
                f"compiled call ({kind})",
                text,
                lambda: compiled(*arguments),
                API_SECONDS,
            )


# --- the API's own conveniences -----------------------------------------------


def test_interpret_without_an_entry_takes_the_arrays_as_inputs() -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.full((2, 3), 0.5, np.float32)
    (result,) = irkit.interpret(ADD, a, b)
    np.testing.assert_array_equal(result, a + b)
    (named,) = irkit.interpret(irkit.parse(ADD), "main", a, b)
    np.testing.assert_array_equal(named, result)
    (explicit,) = irkit.interpret(ADD, None, a, b)
    np.testing.assert_array_equal(explicit, result)


def test_interpret_with_too_few_arrays_is_an_input_error() -> None:
    a = np.zeros((2, 3), np.float32)
    with pytest.raises(InputError, match=r"@main takes 2 argument\(s\), 1 given"):
        irkit.interpret(ADD, a)
