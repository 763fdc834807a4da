"""Autotuning: the pipeline options for one program on this machine, chosen by
timing candidates, and remembered.

`irkit.compile(text, target=..., tune=True)` (and `irkit-run --tune`) lowers
the program with each candidate pipeline of its target (`CANDIDATES`: tile
sizes of `lower-to-c`; block and thread tiles, cyclic or blocked, and
threads per row of `lower-to-cuda`), keeps one candidate per distinct
printed source (options that do not apply to the program's ops change
nothing and are not run twice), compiles and runs each on the same random
inputs, rejects any whose results differ from the first candidate's beyond
the dtype's tolerance, and keeps the fastest median. The choice is stored in
the artifact cache (`irkit.runtime.cache`) under a key of the program text,
the target, the machine (the GPU's name and architecture, or the CPU's) and
the candidate list, so the next compile of the same program goes straight to
it. A corrupt entry is tuned again.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from irkit.diagnostics import IRKitError
from irkit.runtime.cache import ArtifactCache, cache_key
from irkit.targets.registry import TARGETS, get_target

# Each target's candidates (`Target.tuning_candidates`), by target name.
CANDIDATES: dict[str, tuple[str, ...]] = {
    name: target.tuning_candidates for name, target in TARGETS.items()
}
_CACHE_SUFFIX = ".tune.json"
_FORMAT = "irkit-tune-1"


@dataclass(frozen=True)
class TuningResult:
    """What tuning chose and what it measured (median ms per candidate run)."""

    pipeline: str
    timings_ms: dict[str, float] = field(default_factory=dict)
    # Candidates not timed: same source as an earlier one, or failed/mismatched.
    skipped: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0  # wall time spent tuning (0 when from the cache)
    from_cache: bool = False


def machine_identity(target: str) -> list[str]:
    """What the choice depends on besides the program: the device, or the
    host CPU for targets without one."""
    identity = get_target(target).machine_identity()
    if identity:
        return identity
    return [platform.machine(), platform.processor(), str(os.cpu_count())]


def _entry_function(module: ModuleOp, entry: str) -> FuncOp:
    for op in module.walk():
        if isinstance(op, FuncOp) and op.sym_name.data == entry:
            return op
    raise IRKitError(f"no function @{entry} to tune")


def _disagreement(
    expected: Sequence[Any], actual: Sequence[Any], allow_tf32: bool = False
) -> str | None:
    """How two candidates' results differ beyond their dtypes' tolerances
    (for f32 results TF32's, where f32 matmuls may run on TF32 tensor cores:
    one candidate's matmul may take them where another's does not)."""
    from irkit.testing.compare import TF32_TOLERANCE, compare_arrays

    for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
        expected_array, actual_array = np.asarray(want), np.asarray(got)
        rtol, atol = (
            TF32_TOLERANCE
            if allow_tf32 and expected_array.dtype == np.float32
            else (None, None)
        )
        difference = compare_arrays(expected_array, actual_array, rtol=rtol, atol=atol)
        if difference is not None:
            return f"result {index} differs: {difference.describe()}"
    return None


def _read(
    cache: ArtifactCache, key: str, candidates: Sequence[str]
) -> TuningResult | None:
    data = cache.read_bytes(key, _CACHE_SUFFIX)
    if data is None:
        return None
    try:
        record = json.loads(data)
        if record.get("format") != _FORMAT or record["pipeline"] not in candidates:
            raise ValueError("not a tuning record of this version")
        timings = {str(k): float(v) for k, v in record["timings_ms"].items()}
        skipped = {str(k): str(v) for k, v in record["skipped"].items()}
        return TuningResult(record["pipeline"], timings, skipped, 0.0, True)
    except (ValueError, KeyError, TypeError, AttributeError):
        cache.discard(key, _CACHE_SUFFIX)  # corrupt: tune again
        return None


def tune(
    module: ModuleOp,
    target: str,
    entry: str,
    *,
    runs: int = 5,
    candidates: Sequence[str] | None = None,
    cache: ArtifactCache | None = None,
    allow_tf32: bool = False,
) -> TuningResult:
    """The fastest candidate pipeline for function `entry` of `module` on
    `target` here (see the module doc); `module` is not changed. With
    `allow_tf32`, every candidate lets f32 matmuls run on TF32 tensor cores
    (`Target.allowing_tf32`)."""
    from irkit.runtime import compile as compile_module
    from irkit.runtime import lower
    from irkit.testing.inputs import random_arguments

    if target not in TARGETS:
        raise IRKitError(f"cannot tune for target '{target}'")
    if runs < 1:
        raise IRKitError("tuning needs a positive number of runs")
    options = tuple(candidates if candidates is not None else CANDIDATES[target])
    if allow_tf32:
        options = tuple(get_target(target).allowing_tf32(p) for p in options)
    if not options:
        raise IRKitError("tuning needs at least one candidate pipeline")
    cache = cache if cache is not None else ArtifactCache.open()
    key = cache_key(
        _FORMAT, target, str(module), entry, machine_identity(target), options
    )
    remembered = _read(cache, key, options)
    if remembered is not None:
        return remembered

    started = time.perf_counter()
    inputs = random_arguments(_entry_function(module, entry), np.random.default_rng(0))
    sources: dict[str, str] = {}
    timings: dict[str, float] = {}
    skipped: dict[str, str] = {}
    reference: Sequence[Any] | None = None
    for pipeline in options:
        lowered = module.clone()
        try:
            lower(lowered, pipeline, target)
        except IRKitError as error:
            skipped[pipeline] = f"does not lower: {error}"
            continue
        printed = str(lowered)
        if printed in sources:
            skipped[pipeline] = f"same code as {sources[printed]}"
            continue
        sources[printed] = pipeline
        try:
            # Already lowered: compile it as it is rather than lower it again.
            # Checked: a candidate that leaves an output element unwritten
            # shows poison there and disagrees with the first.
            compiled: Any = compile_module(lowered, target, "", entry, checked=True)
            results = [np.asarray(r) for r in compiled(*inputs)]
        except IRKitError as error:
            skipped[pipeline] = f"failed: {error}"
            continue
        if reference is None:
            reference = results
        else:
            mismatch = _disagreement(reference, results, allow_tf32)
            if mismatch is not None:
                skipped[pipeline] = f"rejected: {mismatch}"
                continue
        # The code alone (its arguments laid out once): CUDA events around
        # the plan on a GPU, the wall clock around the C function on a CPU.
        timings[pipeline] = compiled.time(*inputs, runs=runs, warmup=1).median_ms
    if not timings:
        reasons = "; ".join(f"{p}: {r}" for p, r in skipped.items())
        raise IRKitError(f"no candidate pipeline could run the program ({reasons})")
    best = min(timings, key=lambda p: timings[p])
    result = TuningResult(best, timings, skipped, time.perf_counter() - started)
    record = {
        "format": _FORMAT,
        "pipeline": best,
        "timings_ms": timings,
        "skipped": skipped,
        "seconds": result.seconds,
    }
    cache.write_bytes(key, _CACHE_SUFFIX, json.dumps(record, indent=1).encode())
    return result
