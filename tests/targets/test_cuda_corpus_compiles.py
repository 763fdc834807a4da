"""Every kernel the CUDA target prints from `lower-to-cuda` output compiles.

Random programs focused on each `nn` op (a few per op; the count follows the
Hypothesis profile) and every torch-mlir corpus program go through
`lower-to-cuda` and `emit_cuda`. What the runtime compiles, each unit's
programs (a kernel each, `CudaTranslationUnit.programs`), is compiled for
sm_90 with nvcc (CI has it; no GPU is needed); each whole unit, as
`irkit-opt -t cuda` prints it, with NVRTC where cuda-python can load it (the
runtime prefers NVRTC, which has no C library headers).

nvcc starts slowly, so one call compiles every program: each in a namespace
of its own, its kernels without `extern "C"` so that equal kernel names of two
programs do not clash. Only when that call fails is each program compiled
alone, as printed, to name the one that fails. Running the kernels is
`tests/end_to_end/test_lower_to_cuda.py` (needs a GPU).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings

import irkit
from irkit.diagnostics import DiagnosticError
from irkit.runtime import lower
from irkit.runtime.cache import ArtifactCache
from irkit.runtime.cuda import CudaCompileError, CudaUnavailableError, cuda_compiler
from irkit.targets.cuda import CudaTranslationUnit, emit_cuda
from irkit.testing.strategies import NN_OPS, nn_programs

NVCC = shutil.which("nvcc")
ARCH = "sm_90"
CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "torch_mlir"
CASES = sorted(path.stem for path in CORPUS.glob("*.mlir"))
# cf.assert inside a kernel has no CUDA form yet: the C target returns a
# status, a kernel would need a device-side status the runtime reads back.
EXAMPLES_PER_OP = max(2, settings().max_examples // 8)

needs_nvcc = pytest.mark.skipif(
    NVCC is None, reason="nvcc is not on PATH: printed CUDA is NOT compiled (CI has it)"
)


@dataclass
class Sources:
    """Printed CUDA units by test id (an nn op or a corpus case)."""

    by_id: dict[str, list[CudaTranslationUnit]] = field(default_factory=dict)
    lowering_errors: dict[str, BaseException] = field(default_factory=dict)
    nvcc_failures: dict[str, str] = field(default_factory=dict)


def _print_cuda(program: str) -> CudaTranslationUnit:
    module = irkit.parse(program)
    lower(module, "lower-to-cuda")
    return emit_cuda(module)


def _programs_for(op: str) -> list[CudaTranslationUnit]:
    """Printed units of a few random programs using `op`; a program that
    does not lower or print fails here, shrunk by Hypothesis."""
    printed: list[CudaTranslationUnit] = []

    @settings(max_examples=EXAMPLES_PER_OP)
    @given(nn_programs(max_ops=2, ops={op}).map(str))
    def lowers_and_prints(program: str) -> None:
        unit = _print_cuda(program)
        if all(unit.source != seen.source for seen in printed):
            printed.append(unit)

    lowers_and_prints()
    return printed


def _batched(sources: list[str]) -> str:
    parts = ["#include <stdint.h>"]
    for index, source in enumerate(sources):
        unlinked = source.replace('extern "C" __global__', "__global__")
        parts.append(f"namespace irkit_source_{index} {{\n{unlinked}}}")
    return "\n".join(parts) + "\n"


def _nvcc(source: str, directory: Path, name: str) -> subprocess.CompletedProcess[str]:
    assert NVCC is not None
    path = directory / f"{name}.cu"
    path.write_text(source)
    command = [NVCC, f"-arch={ARCH}", "-cubin", "-std=c++17"]
    command += ["-o", str(directory / f"{name}.cubin"), str(path)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def sources() -> Sources:
    """Every printed unit, its programs compiled once with nvcc (when it is
    present)."""
    collected = Sources()
    for op in sorted(NN_OPS):
        try:
            collected.by_id[op] = _programs_for(op)
        except Exception as error:  # reported by that op's test
            collected.lowering_errors[op] = error
    for case in CASES:
        try:
            text = (CORPUS / f"{case}.mlir").read_text()
            collected.by_id[case] = [_print_cuda(text)]
        except DiagnosticError as error:
            collected.lowering_errors[case] = error
    if NVCC is None:
        return collected
    owners = [
        key
        for key, units in collected.by_id.items()
        for unit in units
        for _ in unit.compiled_programs()
    ]
    flat = [
        program.source
        for units in collected.by_id.values()
        for unit in units
        for program in unit.compiled_programs()
    ]
    with tempfile.TemporaryDirectory() as directory:
        done = _nvcc(_batched(flat), Path(directory), "all")
        if done.returncode != 0:
            for index, (owner, text) in enumerate(zip(owners, flat, strict=True)):
                alone = _nvcc(text, Path(directory), f"source{index}")
                if alone.returncode != 0:
                    collected.nvcc_failures.setdefault(owner, alone.stderr)
            if not collected.nvcc_failures:
                pytest.fail(f"only the batched sources fail to compile:\n{done.stderr}")
    return collected


def _check(sources: Sources, key: str) -> None:
    if key in sources.lowering_errors:
        raise sources.lowering_errors[key]
    assert sources.by_id[key], f"no program printed for {key}"
    assert key not in sources.nvcc_failures, sources.nvcc_failures[key]


@needs_nvcc
@pytest.mark.parametrize("op", sorted(NN_OPS))
def test_every_nn_op_compiles_with_nvcc(sources: Sources, op: str) -> None:
    _check(sources, op)


@needs_nvcc
@pytest.mark.parametrize("case", CASES)
def test_corpus_compiles_with_nvcc(sources: Sources, case: str) -> None:
    _check(sources, case)


def test_every_printed_source_compiles_with_nvrtc(
    sources: Sources, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("IRKIT_CUDA_COMPILER", "nvrtc")
    try:
        compiler = cuda_compiler()
    except CudaUnavailableError as error:
        pytest.skip(f"NVRTC is not loadable, printed CUDA NOT compiled by it: {error}")
    cache = ArtifactCache.open(tmp_path)
    failures: list[str] = []
    for key, units in sources.by_id.items():
        for unit in units:
            try:
                compiler.compile(cache, unit.source, ARCH)
            except CudaCompileError as error:
                failures.append(f"{key}: {error}")
    assert not failures, "\n".join(failures)
