"""Fuzzing irkit with mutated IR text: bad input must never crash irkit.

Seeds are valid IR (`examples/*.mlir`, the torch-mlir corpus, and the inputs
of the non-`invalid` FileCheck tests split on `// -----`). A mutant is a seed
after a few token-level edits (delete, duplicate, swap, replace a shape or
type, change an integer, change an op to a sibling op of its dialect,
truncate, insert a token from the seeds' vocabulary). Each mutant goes
in-process through parse + verify, the interpreter on random inputs, every
irkit pass on its own (the named pipelines stage by stage, as below),
`lower-to-c` nested under `func.func` (each function on its own), the
`lower-to-c` pipeline and the C target, and the `lower-to-cuda` pipeline
and the CUDA target (`emit_cuda` and the launch plans as `irkit-opt -t cuda`
prints them; the CUDA C is not compiled here: nvcc takes seconds per unit,
and `tests/targets` compiles what the target prints).
The C and CUDA targets also see each module as parsed, not lowered, so that
IR they cannot print is met with a located error rather than a crash.

The property: only irkit's documented user errors (`IRKitError` and its
subclasses: `DiagnosticError`, `InterpretationError`, `PipelineError`,
`PassFailure`, `InputError`, ...) may escape. Anything else (`IndexError`,
`KeyError`, `AssertionError`, `InvalidPassOutput`, `PassCrashed` (a pass
that raised one of those), ...) is an internal error,
which `irkit-opt` would report with exit code 70: a test failure here, with
the mutant in the message.

Counts come from the Hypothesis profile (tests/conftest.py):
`HYPOTHESIS_PROFILE=thorough` runs thousands of mutants. For a survey that
groups the internal errors of many mutants by where they are raised, run
`python tests/fuzz/test_fuzz_ir.py [COUNT] [SEED]`.
"""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from types import FrameType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from irkit.context import make_context
from irkit.diagnostics import IRKitError
from irkit.interpreter import run_function
from irkit.interpreter.core import Interpreter
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline, build_pipeline
from irkit.targets.c import emit_c
from irkit.targets.cuda import describe_plans, emit_cuda
from irkit.testing import random_arguments
from irkit.transforms import get_irkit_passes
from irkit.transforms.pipelines import NamedPipeline

ROOT = Path(__file__).resolve().parents[2]

# Per-stage wall-clock bound: a mutant may legitimately describe a long loop
# (a larger bound, a bigger shape); that is slow input, not a crash.
STAGE_SECONDS = 2.0


# --- seeds --------------------------------------------------------------------


def _strip_test_lines(chunk: str) -> str:
    """Drop the `// RUN:`/`// CHECK` (and other comment-only) lines."""
    kept = [line for line in chunk.splitlines() if not line.lstrip().startswith("//")]
    return "\n".join(kept).strip() + "\n"


def _seed_files() -> list[Path]:
    files = sorted((ROOT / "examples").glob("*.mlir"))
    files += sorted((ROOT / "tests/corpus/torch_mlir").glob("*.mlir"))
    for path in sorted((ROOT / "tests/filecheck").rglob("*.mlir")):
        if "invalid" in path.name or "Output" in path.parts:
            continue
        files.append(path)
    return files


# The seeds as parsed by `seeds()`, by text, for tests that only read them.
_PARSED_SEEDS: dict[str, ModuleOp] = {}


def parsed_seed(text: str) -> ModuleOp:
    """Seed `text` as `seeds()` parsed it: not to be changed (clone it)."""
    seeds()
    return _PARSED_SEEDS[text]


@cache
def seeds() -> tuple[str, ...]:
    """Every seed chunk that parses and verifies on its own."""
    found: list[str] = []
    for path in _seed_files():
        text = path.read_text()
        if "expected-error" in text:
            continue
        for chunk in re.split(r"^// -----.*$", text, flags=re.MULTILINE):
            source = _strip_test_lines(chunk)
            if not source.strip():
                continue
            try:
                _PARSED_SEEDS[source] = parse_module(source)
            except IRKitError:
                continue
            found.append(source)
    return tuple(found)


# --- tokens and mutations -----------------------------------------------------

_TOKEN = re.compile(
    r"""\s+                          # whitespace (kept, so text round-trips)
      | "(?:[^"\\\n]|\\.)*"          # string literal
      | [%@^#!]?[A-Za-z0-9_.$-]+     # names, numbers, shapes like 2x3xf32
      | ->                           # arrow
      | .                            # any single punctuation character
    """,
    re.VERBOSE,
)
_SHAPE = re.compile(r"^(?:\?|\d+)(?:x(?:\?|\d+))*x[a-z]\w*$|^[if]\d+$|^index$|^bf16$")
_OP_NAME = re.compile(r"^[a-z_]+\.[a-z_.]+$")
_INTEGER = re.compile(r"-?\d+")
SMALL_INTEGERS = (0, 1, 2, 3, 4, 5, 8, 16, -1, -2)


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text)


@cache
def vocabulary() -> tuple[tuple[str, ...], tuple[str, ...], dict[str, list[str]]]:
    """(all tokens, shape/type tokens, op names by dialect) of the seeds."""
    tokens: set[str] = set()
    for seed in seeds():
        tokens.update(t for t in tokenize(seed) if not t.isspace())
    shapes = sorted(t for t in tokens if _SHAPE.match(t))
    ops_by_dialect: dict[str, list[str]] = {}
    for name in sorted(t for t in tokens if _OP_NAME.match(t)):
        ops_by_dialect.setdefault(name.split(".", 1)[0], []).append(name)
    return tuple(sorted(tokens)), tuple(shapes), ops_by_dialect


MUTATIONS = (
    "delete",
    "duplicate",
    "swap",
    "replace_shape",
    "change_integer",
    "sibling_op",
    "truncate",
    "insert",
)


def mutate(text: str, kind: str, choose: Callable[[int], int]) -> str:
    """`text` after one mutation of kind `kind`; `choose(n)` picks in [0, n)."""
    tokens = tokenize(text)
    words = [i for i, t in enumerate(tokens) if not t.isspace()]
    if not words:
        return text
    all_tokens, shapes, ops_by_dialect = vocabulary()
    at = words[choose(len(words))]
    if kind == "delete":
        del tokens[at]
    elif kind == "duplicate":
        tokens.insert(at, tokens[at] + " ")
    elif kind == "swap":
        other = words[choose(len(words))]
        tokens[at], tokens[other] = tokens[other], tokens[at]
    elif kind == "replace_shape":
        candidates = [i for i in words if _SHAPE.match(tokens[i])]
        if candidates:
            tokens[candidates[choose(len(candidates))]] = shapes[choose(len(shapes))]
    elif kind == "change_integer":
        candidates = [i for i in words if _INTEGER.search(tokens[i])]
        if candidates:
            index = candidates[choose(len(candidates))]
            numbers = list(_INTEGER.finditer(tokens[index]))
            match = numbers[choose(len(numbers))]
            new = str(SMALL_INTEGERS[choose(len(SMALL_INTEGERS))])
            token = tokens[index]
            tokens[index] = token[: match.start()] + new + token[match.end() :]
    elif kind == "sibling_op":
        candidates = [i for i in words if _OP_NAME.match(tokens[i])]
        if candidates:
            index = candidates[choose(len(candidates))]
            siblings = ops_by_dialect.get(tokens[index].split(".", 1)[0], [])
            if siblings:
                tokens[index] = siblings[choose(len(siblings))]
    elif kind == "truncate":
        tokens = tokens[:at]
    elif kind == "insert":
        tokens.insert(at, all_tokens[choose(len(all_tokens))] + " ")
    return "".join(tokens)


# --- driving a mutant through irkit -------------------------------------------


class _Timeout(BaseException):
    """A stage ran past STAGE_SECONDS (a BaseException so irkit cannot catch it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class InternalError(Exception):
    """A non-irkit exception escaped a stage: a crash."""

    stage: str
    error: BaseException
    text: str

    def __str__(self) -> str:
        frames = traceback.format_exception(self.error)
        return (
            f"internal error in stage '{self.stage}': "
            f"{type(self.error).__name__}: {self.error}\n"
            f"--- mutant ---\n{self.text}\n--- traceback ---\n{''.join(frames)}"
        )


def _stage(name: str, text: str, action: Callable[[], object]) -> bool:
    """Run `action`; True when it succeeded, False on a user error or timeout."""
    try:
        with time_limit(STAGE_SECONDS):
            action()
    except IRKitError:
        return False
    except _Timeout:
        return False
    except MemoryError:
        # A resource limit like the timeout, not a crash: the seeds include
        # real-size kernels (a 4096^3 matmul the interpreter would evaluate
        # as one 256 GiB broadcast product).
        return False
    except RecursionError as error:
        raise InternalError(name, error, text) from None
    except Exception as error:
        raise InternalError(name, error, text) from None
    return True


def _functions(module: ModuleOp) -> list[FuncOp]:
    return [op for op in module.ops if isinstance(op, FuncOp) and op.body.blocks]


# Each text's functions run on the interpreter, by (text, function): whether
# the run finished. `test_fuzz_api` picks the seeds it calls from the same
# runs (the same inputs, drawn with seed 0), so a seed is interpreted once a
# session rather than once per test: the interpreter is deterministic, and
# the real-size seeds (a 4096^3 matmul) spend seconds each reaching the
# stage's time limit.
_INTERPRETED: dict[tuple[str, str], bool] = {}


def interpreted(text: str, module: ModuleOp, func: FuncOp) -> bool:
    """Run `func` of `module` (parsed from `text`) on random inputs as a
    stage: True when it finished, False on a user error or the time limit
    (`InternalError` on a crash)."""
    name = func.sym_name.data
    if (text, name) not in _INTERPRETED:

        def interpret() -> None:
            arguments = random_arguments(func, np.random.default_rng(0))
            run_function(Interpreter(module), name, arguments)

        _INTERPRETED[(text, name)] = _stage(f"interpret @{name}", text, interpret)
    return _INTERPRETED[(text, name)]


def drive(text: str) -> None:
    """Put `text` through every irkit stage; raises `InternalError` on a crash."""
    holder: dict[str, ModuleOp] = {}

    def parse() -> None:
        holder["module"] = parse_module(text, make_context(), filename="mutant.mlir")

    if not _stage("parse+verify", text, parse):
        return
    module = holder["module"]

    for func in _functions(module):
        interpreted(text, module, func)

    for name, load in sorted(get_irkit_passes().items()):
        if name in STAGED_PIPELINES:
            continue

        def apply(load: Callable[[], type] = load) -> None:
            Pipeline([load()()]).run(make_context(), module.clone())

        _stage(f"pass {name}", text, apply)

    # A pipeline nested under func.func: each function on its own, with the
    # rule that a nested pass changes only the function's inside.
    for nested in ("func.func(lower-to-c)", "builtin.module(func.func(cse))"):

        def run_nested(nested: str = nested) -> None:
            Pipeline.parse(nested).run(make_context(), module.clone())

        _stage(f"pipeline {nested}", text, run_nested)

    for target, print_target in TARGETS:
        lowered = module.clone()

        def lower(lowered: ModuleOp = lowered, target: str = target) -> None:
            Pipeline.parse(f"lower-to-{target}").run(make_context(), lowered)

        if _stage(f"pipeline lower-to-{target}", text, lower):
            _stage(f"target {target} (lowered)", text, partial(print_target, lowered))
        _stage(
            f"target {target} (as parsed)", text, partial(print_target, module.clone())
        )


def _print_cuda(module: ModuleOp) -> str:
    """What `irkit-opt -t cuda` prints: the kernels, then the launch plans."""
    unit = emit_cuda(module)
    return unit.source + describe_plans(unit)


TARGETS: tuple[tuple[str, Callable[[ModuleOp], object]], ...] = (
    ("c", emit_c),
    ("cuda", _print_cuda),
)
# The named pipelines `drive` runs stage by stage before each target, each
# stage verified (`Pipeline.parse` expands them): that run also meets every
# crash and invalid output of the pipeline run as one pass, whose stages
# are the same, so the loop over every pass leaves them out.
STAGED_PIPELINES = frozenset(f"lower-to-{target}" for target, _ in TARGETS)


# --- the tests ----------------------------------------------------------------


@st.composite
def mutants(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(seeds()))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(MUTATIONS))
        text = mutate(text, kind, lambda n: draw(st.integers(0, max(n - 1, 0))))
    return text


def test_seeds_are_found() -> None:
    assert len(seeds()) > 50
    _, shapes, ops = vocabulary()
    assert "2x3xf32" in shapes or len(shapes) > 10
    assert len(ops.get("arith", [])) > 3


def test_named_pipelines_are_run_stage_by_stage() -> None:
    # What `drive` leaves out of its loop over every pass it runs through
    # `Pipeline.parse`, which expands exactly irkit's named pipelines.
    named = {
        name
        for name, load in get_irkit_passes().items()
        if issubclass(load(), NamedPipeline)
    }
    assert named == STAGED_PIPELINES
    for name in named:
        stages = build_pipeline(name)
        assert stages
        assert not any(isinstance(stage, NamedPipeline) for stage in stages)


def test_seeds_do_not_crash() -> None:
    for seed in dict.fromkeys(seeds()):  # some inputs are seeds twice
        drive(seed)


@settings(deadline=None)
@given(mutants())
def test_mutants_raise_only_user_errors(text: str) -> None:
    drive(text)


# A few mutants through the real command line, down to each target: exit 0 or
# 1, never a traceback, the input file untouched.
SMOKE_MUTATIONS = [
    ("delete", 7),
    ("swap", 3),
    ("replace_shape", 5),
    ("truncate", 11),
    ("change_integer", 0),
    ("sibling_op", 4),
]
SMOKE_TARGETS = [("lower-to-c", "c"), ("lower-to-cuda", "cuda")]


@pytest.mark.parametrize(("pipeline", "target"), SMOKE_TARGETS)
@pytest.mark.parametrize(("kind", "seed"), SMOKE_MUTATIONS)
def test_cli_on_mutants_never_crashes(
    kind: str, seed: int, pipeline: str, target: str, tmp_path: Path
) -> None:
    rng = random.Random(seed)
    text = mutate(
        seeds()[rng.randrange(len(seeds()))], kind, lambda n: rng.randrange(max(n, 1))
    )
    path = tmp_path / "mutant.mlir"
    path.write_text(text)
    code = "from irkit.tools.irkit_opt import main; main()"
    result = subprocess.run(
        [sys.executable, "-c", code, str(path), "-p", pipeline, "--target", target],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode in (0, 1), f"{result.stderr}\n--- mutant ---\n{text}"
    assert "Traceback" not in result.stderr
    if result.returncode == 1:
        assert result.stderr.startswith((f"{path}:", "error: ")), result.stderr
    assert path.read_text() == text


# --- survey (not a test) ------------------------------------------------------


def survey(count: int, seed: int) -> None:
    """Drive `count` random mutants; print each distinct crash site once and
    save its first mutant under a temporary directory."""
    import tempfile

    saved = Path(tempfile.mkdtemp(prefix="irkit-fuzz-"))
    rng = random.Random(seed)
    sites: dict[tuple[str, str], tuple[int, str]] = {}
    for _ in range(count):
        text = rng.choice(seeds())
        for _ in range(rng.randint(1, 3)):
            text = mutate(
                text, rng.choice(MUTATIONS), lambda n: rng.randrange(max(n, 1))
            )
        try:
            drive(text)
        except InternalError as crash:
            # A crashed pass chains what it raised: group by where that was.
            raised = crash.error.__cause__ or crash.error
            frames = traceback.extract_tb(raised.__traceback__)
            where = frames[-1] if frames else None
            site = f"{where.filename}:{where.lineno}" if where else "?"
            key = (type(raised).__name__, site)
            if key not in sites:
                (saved / f"crash{len(sites)}.mlir").write_text(text)
            hits, first = sites.get(key, (0, str(crash)))
            sites[key] = (hits + 1, first)
    print(f"{count} mutants, {len(sites)} distinct internal errors (in {saved})")
    for (kind, site), (hits, first) in sorted(sites.items(), key=lambda x: -x[1][0]):
        print(f"\n=== {kind} at {site} ({hits}x)\n{first[:3000]}")


if __name__ == "__main__":
    survey(
        int(sys.argv[1]) if len(sys.argv) > 1 else 500,
        int(sys.argv[2]) if len(sys.argv) > 2 else 0,
    )
