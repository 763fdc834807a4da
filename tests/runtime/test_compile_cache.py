"""`irkit.compile`'s caches and its thread safety (`irkit.runtime.program_cache`).

Every test points `$IRKIT_CACHE_DIR` at its own directory and empties the
in-memory cache first, so each starts from nothing.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import irkit
import irkit.runtime
from irkit.runtime.program_cache import LOADED
from irkit.testing.compare import compare_arrays

MLP = (Path(__file__).parents[2] / "examples" / "mlp.mlir").read_text()
SHAPES = [(4, 16), (16, 32), (32,), (32, 10), (10,)]


@pytest.fixture(autouse=True)
def fresh_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(directory))
    LOADED.clear()
    yield directory
    LOADED.clear()


@pytest.fixture
def lowerings(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The pipelines `irkit.compile` runs, in order."""
    ran: list[str | None] = []
    real_lower = irkit.runtime.lower

    def counting_lower(
        module: Any, pipeline: str | None, target: str = "c", **options: Any
    ) -> None:
        ran.append(pipeline)
        real_lower(module, pipeline, target, **options)

    monkeypatch.setattr(irkit.runtime, "lower", counting_lower)
    return ran


def mlp_inputs(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, shape).astype(np.float32) for shape in SHAPES]


def test_a_second_compile_skips_the_pipeline(lowerings: list[str | None]) -> None:
    first = irkit.compile(MLP)
    assert lowerings == [None]
    # The same process: the loaded function itself.
    assert irkit.compile(MLP) is first
    # A new process (the in-memory cache emptied): the printed unit comes
    # from the artifact cache and the pipeline does not run.
    LOADED.clear()
    second = irkit.compile(MLP)
    assert second is not first
    assert lowerings == [None]
    assert second.source == first.source
    args = mlp_inputs(0)
    (expected,) = irkit.interpret(MLP, "main", *args)
    assert compare_arrays(expected, second(*args)[0]) is None
    # Anything that changes the unit is a different compile.
    irkit.compile(MLP, pipeline="lower-to-c{register-tile-sizes=2,16,0}")
    assert len(lowerings) == 2
    # The checked mode shares the unit (and the library), not the function.
    checked = irkit.compile(MLP, checked=True)
    assert len(lowerings) == 2
    assert checked.checked
    assert not second.checked
    assert checked.library_path == second.library_path


def test_a_damaged_record_is_rebuilt(
    fresh_caches: Path, lowerings: list[str | None]
) -> None:
    irkit.compile(MLP)
    records = list(fresh_caches.glob("*.program"))
    assert len(records) == 1
    records[0].write_bytes(b"not a pickle")
    LOADED.clear()
    compiled = irkit.compile(MLP)
    assert lowerings == [None, None]
    args = mlp_inputs(1)
    (expected,) = irkit.interpret(MLP, "main", *args)
    assert compare_arrays(expected, compiled(*args)[0]) is None


@pytest.mark.parametrize("round_", range(6))
def test_compiling_from_sixteen_threads_at_once(
    round_: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(tmp_path / f"cache{round_}"))
    # Four threads compile one program, the others twelve distinct texts (a
    # comment apart), so the pipeline runs in many threads at once.
    texts = [MLP if i % 4 == 0 else f"// thread {i}\n{MLP}" for i in range(16)]
    start = threading.Barrier(16)
    compiled: list[Any] = [None] * 16
    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            start.wait()
            compiled[index] = irkit.compile(texts[index])
        except BaseException as error:  # reported below, with its thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    # One load of the shared program, shared by every thread that asked.
    assert len({id(c) for c in compiled[0::4]}) == 1
    args = mlp_inputs(round_)
    (expected,) = irkit.interpret(MLP, "main", *args)
    for function in compiled:
        assert compare_arrays(expected, function(*args)[0]) is None


def test_calls_from_threads_at_once_are_correct() -> None:
    compiled = irkit.compile(MLP)
    sets = [mlp_inputs(seed) for seed in range(8)]
    expected = [irkit.interpret(MLP, "main", *args)[0] for args in sets]
    results: list[Any] = [None] * 8

    def work(index: int) -> None:
        for _ in range(20):
            (results[index],) = compiled(*sets[index])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for want, got in zip(expected, results, strict=True):
        assert compare_arrays(want, got) is None


def test_pytorch_cpu_tensors_in_tensors_out() -> None:
    torch = pytest.importorskip("torch")
    compiled = irkit.compile(MLP)
    args = mlp_inputs(2)
    (result,) = compiled(*(torch.from_numpy(a) for a in args))
    assert isinstance(result, torch.Tensor)
    (expected,) = irkit.interpret(MLP, "main", *args)
    assert compare_arrays(expected, result.numpy()) is None
    out = torch.empty(4, 10)
    (written,) = compiled(*args, out=out)
    assert written is out
    assert compare_arrays(expected, out.numpy()) is None


def test_timing_the_c_alone_runs_the_function() -> None:
    compiled = irkit.compile(MLP)
    timing = compiled.time(*mlp_inputs(3), runs=3)
    assert len(timing.times_ms) == 3
    assert timing.min_ms <= timing.median_ms
