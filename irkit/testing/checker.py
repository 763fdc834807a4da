"""`assert_pass_preserves_semantics`: run a module before and after a pass.

The module is cloned, the pass (or pipeline) applied and the result verified;
then every function is interpreted on both sides with the same inputs and the
results compared with per-dtype tolerances. A difference raises
`SemanticsMismatch`, which names the pass, the function and the error figures,
and carries both IRs and the inputs (it can write them as a reproducer).

Both sides are called through the calling convention of `irkit.abi`: inputs
only, results followed by output buffers. So a function returning a tensor
before `bufferize` and writing an `irkit.output` buffer after it compare
result by result; outputs start as poison on every run, and an output
element the program after the pass never writes is a mismatch.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from irkit.context import make_context
from irkit.diagnostics import DiagnosticError
from irkit.interpreter import Interpreter, run_function
from irkit.interpreter.values import coerce_arguments
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline, build_pipeline
from irkit.testing.compare import Difference, compare_arrays
from irkit.testing.inputs import random_arguments

PassLike = ModulePass | Sequence[ModulePass] | str
# A module's runs by (function, input set): the inputs and what it returned.
Runs = MutableMapping[tuple[str, int], tuple[list[Any], tuple[np.ndarray, ...]]]

# The program text `assert_pass_preserves_semantics` parsed last, and its
# module (which it never changes: the passes run on a clone), for
# `parse_program`.
_last_parsed: dict[str, ModuleOp] = {}


def parse_program(text: str) -> ModuleOp:
    """`parse_module(text)`, for a program the checker may just have parsed.

    `check_pass` parses each drawn program twice: in the checker, and again
    to tell whether the pass changed it. The second time is a clone of the
    checker's parse (the same ops, names and locations, so it prints the
    same; a tenth of the time of parsing a lowered GPU program); other text
    is parsed.
    """
    known = _last_parsed.get(text)
    if known is not None:
        return known.clone()
    return parse_module(text)


class SemanticsMismatch(AssertionError):
    """A pass changed what a function computes."""

    def __init__(
        self,
        pass_name: str,
        entry: str,
        result_index: int | None,
        difference: Difference,
        *,
        seed: int | None,
        inputs: Sequence[Any],
        before: str,
        after: str,
    ) -> None:
        self.pass_name = pass_name
        self.entry = entry
        self.result_index = result_index
        self.difference = difference
        self.seed = seed
        self.inputs = list(inputs)
        self.before = before
        self.after = after
        origin = f"input seed {seed}" if seed is not None else "given inputs"
        which = f"result #{result_index}: " if result_index is not None else ""
        super().__init__(
            f"pass '{pass_name}' changed the semantics of @{entry}: "
            f"{which}{difference.describe()} ({origin})"
        )

    def write_reproducer(self, path: str | Path) -> Path:
        """Write the IR before the pass, the IR after it, and the inputs.

        `path` gets the IR (before, then after, as `// -----` chunks that
        `irkit-opt --split-input-file` reads); the inputs go beside it as
        `<path>.inputs.npz` (`arg0`, `arg1`, ...).
        """
        target = Path(path)
        target.write_text(
            f"// pass '{self.pass_name}' changed @{self.entry}: {self}\n"
            f"// before the pass:\n{self.before}\n// -----\n"
            f"// after the pass:\n{self.after}\n"
        )
        arrays: dict[str, Any] = {
            f"arg{i}": np.asarray(v) for i, v in enumerate(self.inputs)
        }
        np.savez(target.with_suffix(target.suffix + ".inputs.npz"), **arrays)
        return target


def _as_passes(pass_or_pipeline: PassLike) -> list[ModulePass]:
    if isinstance(pass_or_pipeline, str):
        return build_pipeline(pass_or_pipeline)
    if isinstance(pass_or_pipeline, ModulePass):
        return [pass_or_pipeline]
    return list(pass_or_pipeline)


def _entries(module: ModuleOp, entry: str | None) -> list[str]:
    if entry is not None:
        return [entry]
    return [
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, FuncOp) and not op.is_declaration
    ]


def _input_sets(
    func: FuncOp, inputs: Sequence[Sequence[Any]] | None, trials: int, seed: int
) -> list[tuple[int | None, list[Any]]]:
    if inputs is not None:
        return [(None, coerce_arguments(func, args)) for args in inputs]
    return [
        (seed + trial, random_arguments(func, np.random.default_rng(seed + trial)))
        for trial in range(trials)
    ]


def _copy(values: Sequence[Any]) -> list[Any]:
    return [np.copy(v) if isinstance(v, np.ndarray) else v for v in values]


def _structural(reason: str) -> Difference:
    """A difference that is not about values (a count, an error)."""
    return Difference(0.0, 0.0, (), None, None, 0, 0, reason=reason)


def _same_values(known: Sequence[Any], values: Sequence[Any]) -> bool:
    """Bit for bit the same arguments (dtype and shape included)."""
    return len(known) == len(values) and all(
        np.asarray(a).dtype == np.asarray(b).dtype
        and np.shape(a) == np.shape(b)
        and np.asarray(a).tobytes() == np.asarray(b).tobytes()
        for a, b in zip(known, values, strict=True)
    )


def check_semantics_between(
    before: ModuleOp,
    after: ModuleOp,
    pass_name: str,
    *,
    entry: str | None = None,
    inputs: Sequence[Sequence[Any]] | None = None,
    trials: int = 3,
    seed: int = 0,
    rtol: float | None = None,
    atol: float | None = None,
    reuse: Runs | None = None,
) -> None:
    """Compare two versions of a module function by function.

    Raises `SemanticsMismatch` blaming `pass_name` on the first difference.

    `reuse`, for the passes of a pipeline compared one after another, holds
    the runs of the previous comparison's `after`, which must be this
    `before` (the IR after one pass is the IR before the next): a function
    run there on the same inputs, bit for bit, is not run again (the
    interpreter is deterministic). On return it holds the runs of `after`.
    """
    known: Runs = dict(reuse) if reuse is not None else {}
    ran_after: Runs = {}
    run_before = Interpreter(before)
    run_after = Interpreter(after)
    for name in _entries(before, entry):
        func = run_before.function(name)
        for set_index, (input_seed, args) in enumerate(
            _input_sets(func, inputs, trials, seed)
        ):

            def mismatch(
                index: int | None, difference: Difference
            ) -> SemanticsMismatch:
                return SemanticsMismatch(
                    pass_name,
                    name,
                    index,
                    difference,
                    seed=input_seed,
                    inputs=args,
                    before=str(before),
                    after=str(after),
                )

            earlier = known.get((name, set_index))
            if earlier is not None and _same_values(earlier[0], args):
                expected = earlier[1]
            else:
                expected = run_function(run_before, name, _copy(args))
            try:
                actual = run_function(run_after, name, _copy(args))
            except DiagnosticError as error:
                # It ran before the pass: failing after it is the pass's doing.
                raise mismatch(
                    None, _structural(f"it fails after the pass: {error.message}")
                ) from error
            if len(expected) != len(actual):
                raise mismatch(
                    None,
                    _structural(
                        f"{len(expected)} results and outputs before the pass, "
                        f"{len(actual)} after it"
                    ),
                )
            for index, (e, a) in enumerate(zip(expected, actual, strict=True)):
                difference = compare_arrays(
                    np.asarray(e), np.asarray(a), rtol=rtol, atol=atol
                )
                if difference is not None:
                    raise mismatch(index, difference)
            ran_after[(name, set_index)] = (_copy(args), actual)
    if reuse is not None:
        reuse.clear()
        reuse.update(ran_after)


def assert_pass_preserves_semantics(
    pass_or_pipeline: PassLike,
    module: ModuleOp | str,
    *,
    entry: str | None = None,
    inputs: Sequence[Sequence[Any]] | None = None,
    trials: int = 3,
    seed: int = 0,
    rtol: float | None = None,
    atol: float | None = None,
) -> ModuleOp:
    """Apply a pass to a clone of `module`; fail if any function's results change.

    `inputs` is a list of argument lists; without it, `trials` random input
    sets are drawn with seeds `seed, seed + 1, ...`. Every pass of a pipeline
    is checked on its own, so a failure names the pass that broke semantics.
    Returns the transformed module.
    """
    if isinstance(module, str):
        text = module
        module = parse_module(text)
        _last_parsed.clear()
        _last_parsed[text] = module
    # The module after one pass is the module before the next: its runs are
    # kept for the next comparison rather than repeated.
    runs: Runs = {}

    def check(pass_: ModulePass, before: ModuleOp, after: ModuleOp) -> None:
        check_semantics_between(
            before,
            after,
            pass_.name,
            entry=entry,
            inputs=inputs,
            trials=trials,
            seed=seed,
            rtol=rtol,
            atol=atol,
            reuse=runs,
        )

    transformed = module.clone()
    Pipeline(_as_passes(pass_or_pipeline), check_pass=check).run(
        make_context(), transformed
    )
    return transformed
