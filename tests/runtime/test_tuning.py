"""`irkit.compile(..., tune=True)` / `irkit.runtime.tuning.tune` on the C
target (the CUDA candidates are timed the same way, on the GPU: reported in
docs/benchmarks.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import irkit
from irkit.context import make_context
from irkit.diagnostics import IRKitError
from irkit.parsing import parse_module
from irkit.runtime import tuning
from irkit.runtime.cache import ArtifactCache
from irkit.runtime.tuning import CANDIDATES, tune

MATMUL = """
func.func @main(%a: tensor<24x16xf32>, %b: tensor<16x40xf32>) -> tensor<24x40xf32> {
  %c = nn.matmul %a, %b : tensor<24x16xf32>, tensor<16x40xf32> -> tensor<24x40xf32>
  return %c : tensor<24x40xf32>
}
"""
ELEMENTWISE = """
func.func @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %c = nn.add %a, %b : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  return %c : tensor<64xf32>
}
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ArtifactCache:
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(tmp_path / "cache"))
    return ArtifactCache.open()


def test_tuning_times_candidates_and_remembers_the_choice(
    cache: ArtifactCache,
) -> None:
    module = parse_module(MATMUL, make_context())
    first = tune(module, "c", "main", runs=2)
    assert not first.from_cache
    assert first.pipeline in CANDIDATES["c"]
    assert first.pipeline == min(first.timings_ms, key=first.timings_ms.__getitem__)
    # Tile sizes change a matmul's code: more than one candidate was timed.
    assert len(first.timings_ms) > 1
    assert first.seconds > 0
    assert list(cache.directory.glob("*.tune.json"))
    again = tune(module, "c", "main", runs=2)
    assert again.from_cache
    assert again.pipeline == first.pipeline
    assert again.timings_ms == first.timings_ms


def test_candidates_that_print_the_same_code_run_once(cache: ArtifactCache) -> None:
    module = parse_module(ELEMENTWISE, make_context())
    result = tune(module, "c", "main", runs=2)
    # No matmul: every tile option leaves the add as it is.
    assert list(result.timings_ms) == ["lower-to-c"]
    assert all(reason.startswith("same code as") for reason in result.skipped.values())
    assert len(result.skipped) == len(CANDIDATES["c"]) - 1


def test_a_corrupt_record_is_tuned_again(cache: ArtifactCache) -> None:
    module = parse_module(ELEMENTWISE, make_context())
    tune(module, "c", "main", runs=1)
    (record,) = cache.directory.glob("*.tune.json")
    record.write_text("{ not json")
    result = tune(module, "c", "main", runs=1)
    assert not result.from_cache
    assert result.pipeline == "lower-to-c"
    assert "not json" not in record.read_text()


def test_failing_or_disagreeing_candidates_are_skipped(
    cache: ArtifactCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = parse_module(MATMUL, make_context())
    # A pipeline that stops at linalg leaves nothing the C target can print.
    broken = "convert-nn-to-linalg"
    # Unpacked tiles of 2 x 16 differ from the default code on every host
    # (packed panels where vectors are 512 bits wide, 4 x 16 tiles elsewhere).
    other = "lower-to-c{pack=false register-tile-sizes=2,16,0}"
    candidates = ("lower-to-c", broken, other)
    monkeypatch.setattr(
        tuning, "_disagreement", lambda expected, actual, *_: "result 0 differs: forced"
    )
    result = tune(module, "c", "main", runs=1, candidates=candidates)
    assert result.pipeline == "lower-to-c"
    assert list(result.timings_ms) == ["lower-to-c"]
    assert result.skipped[broken].startswith("failed:")
    assert result.skipped[candidates[2]] == "rejected: result 0 differs: forced"


def test_compile_with_tune_uses_the_choice(cache: ArtifactCache) -> None:
    compiled = irkit.compile(MATMUL, target="c", tune=True)
    assert compiled.tuning is not None
    assert compiled.tuning.pipeline in CANDIDATES["c"]
    a = np.random.default_rng(0).uniform(-1, 1, (24, 16)).astype(np.float32)
    b = np.random.default_rng(1).uniform(-1, 1, (16, 40)).astype(np.float32)
    (c,) = compiled(a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    assert irkit.compile(MATMUL, target="c").tuning is None
    with pytest.raises(IRKitError, match="tune=True chooses the pipeline"):
        irkit.compile(MATMUL, target="c", pipeline="lower-to-c", tune=True)


def _run(*args: str, cache_dir: Path) -> subprocess.CompletedProcess[str]:
    code = "from irkit.tools.irkit_run import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
        env={"IRKIT_CACHE_DIR": str(cache_dir), "PATH": "/usr/bin:/bin"},
    )


def test_irkit_run_tune(tmp_path: Path) -> None:
    path = tmp_path / "mm.mlir"
    path.write_text(MATMUL)
    cache_dir = tmp_path / "cache"
    tuned_c = (str(path), "--target", "c", "--tune", "--random-inputs", "0")
    first = _run(*tuned_c, cache_dir=cache_dir)
    assert first.returncode == 0, first.stderr
    assert first.stderr.startswith("tune: lower-to-c"), first.stderr
    assert "candidates timed" in first.stderr
    assert "cached" not in first.stderr
    second = _run(*tuned_c, cache_dir=cache_dir)
    assert second.returncode == 0, second.stderr
    assert "cached)" in second.stderr
    assert second.stdout == first.stdout
    interp = _run(str(path), "--tune", "--random-inputs", "0", cache_dir=cache_dir)
    assert interp.returncode == 1
    assert "--tune chooses how to compile" in interp.stderr


@pytest.mark.gpu
def test_tuning_on_the_gpu(cache: ArtifactCache) -> None:
    from irkit.runtime.cuda import gpu_unavailable_reason

    reason = gpu_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    compiled = irkit.compile(MATMUL, target="cuda", tune=True)
    assert compiled.tuning is not None
    assert compiled.tuning.pipeline in CANDIDATES["cuda"]
    assert len(compiled.tuning.timings_ms) > 1
    a = np.random.default_rng(0).uniform(-1, 1, (24, 16)).astype(np.float32)
    b = np.random.default_rng(1).uniform(-1, 1, (16, 40)).astype(np.float32)
    (c,) = compiled(a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)
    again = irkit.compile(MATMUL, target="cuda", tune=True)
    assert again.tuning is not None
    assert again.tuning.from_cache
