"""Today's upstream MLIR: the specialized corpus (tests/corpus/specialized).

Each program is a torch-mlir program of `tests/corpus/torch_mlir/` (or
`models/mlp_m64`) as `iree-opt --linalg-specialize-generic-ops` (LLVM 24)
prints it: `linalg.elementwise <kind>` with `indexing_maps` for broadcasts
and scalars, `linalg.matmul`, `batch_matmul`, `transpose`, `broadcast`.
Saved with the source's inputs and PyTorch's outputs, so CI needs no
iree-opt. Every program

- parses, and prints text that parses back to the same text (custom and
  generic forms);
- runs on the reference interpreter and matches PyTorch;
- is lowered with `lower-to-c`, compiled, run, and matches PyTorch;
- is lowered with `lower-to-cuda` and printed as CUDA C; `CUBIN` ones are
  also compiled for sm_90 (nvcc or NVRTC; no GPU needed).
"""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

import irkit
from irkit.runtime import lower
from irkit.runtime.cuda import (
    CudaUnavailableError,
    compile_cubin,
    cuda_compiler,
    program_architecture,
)
from irkit.targets.cuda import emit_cuda
from irkit.targets.target import H100

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "specialized"
CASES = sorted(
    path.stem for path in CORPUS.glob("*.mlir") if path.with_suffix(".npz").exists()
)
# nvcc takes seconds a program: the ones with the new ops in every role
# (broadcast rows and scalars, unit dimensions, batch matmuls, transposes).
CUBIN = ("attention", "layernorm", "mlp_m64", "softmax")

# As the torch-mlir corpus: rtol 1e-4 / atol 1e-5, widened where the IR itself
# computes something else than PyTorch (torch-mlir writes sqrt(2/pi) in
# gelu(approximate="tanh") as 7.977240e-01, 5e-5 off).
TOLERANCE = (1e-4, 1e-5)
KNOWN_DEVIATIONS = {"gelu_tanh": (1e-4, 1e-4)}


def _load(case: str) -> tuple[str, str, list[np.ndarray], list[np.ndarray]]:
    text = (CORPUS / f"{case}.mlir").read_text()
    entry = re.search(r"func\.func @([\w$.]+)", text)
    assert entry is not None
    with np.load(CORPUS / f"{case}.npz") as data:
        count_args = sum(key.startswith("arg") for key in data.files)
        count_results = sum(key.startswith("result") for key in data.files)
        args = [data[f"arg{i}"] for i in range(count_args)]
        results = [data[f"result{i}"] for i in range(count_results)]
    return text, entry.group(1), args, results


def _assert_matches_pytorch(
    case: str, got: tuple[np.ndarray, ...], pytorch: list[np.ndarray]
) -> None:
    assert len(got) == len(pytorch)
    rtol, atol = KNOWN_DEVIATIONS.get(case, TOLERANCE)
    for index, (g, want) in enumerate(zip(got, pytorch, strict=True)):
        g = np.asarray(g)
        assert g.shape == want.shape, f"result{index}"
        assert g.dtype == want.dtype, f"result{index}"
        if want.dtype.kind == "f":
            np.testing.assert_allclose(
                g, want, rtol=rtol, atol=atol, err_msg=f"result{index}"
            )
        else:
            np.testing.assert_array_equal(g, want, err_msg=f"result{index}")


def _generic(module: ModuleOp) -> str:
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(module)
    return stream.getvalue()


def test_corpus_holds_todays_ops() -> None:
    text = "".join((CORPUS / f"{case}.mlir").read_text() for case in CASES)
    assert len(CASES) >= 40
    for op in ("linalg.elementwise <add>", "indexing_maps = [", "linalg.matmul"):
        assert op in text
    assert set(CUBIN) <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_round_trip(case: str) -> None:
    text, _, _, _ = _load(case)
    module = irkit.parse(text, filename=f"{case}.mlir")
    printed = str(module)
    assert str(irkit.parse(printed)) == printed
    assert str(irkit.parse(_generic(module))) == printed


@pytest.mark.parametrize("case", CASES)
def test_interpreter_matches_pytorch(case: str) -> None:
    text, entry, args, pytorch = _load(case)
    got = irkit.interpret(irkit.parse(text, filename=f"{case}.mlir"), entry, *args)
    _assert_matches_pytorch(case, got, pytorch)


@pytest.mark.parametrize("case", CASES)
def test_runs_as_c(case: str) -> None:
    text, entry, args, pytorch = _load(case)
    got = irkit.compile(text, target="c", entry=entry)(*args)
    got = got if isinstance(got, tuple) else (got,)
    _assert_matches_pytorch(case, got, pytorch)


@functools.cache
def _lowered_for_cuda(case: str) -> ModuleOp:
    module = irkit.parse((CORPUS / f"{case}.mlir").read_text(), filename=case)
    lower(module, "lower-to-cuda", target="cuda")
    return module


@pytest.mark.parametrize("case", CASES)
def test_lowers_to_cuda_c(case: str) -> None:
    unit = emit_cuda(_lowered_for_cuda(case))
    assert unit.plans, "no launch plan"


@pytest.mark.parametrize("case", CUBIN)
def test_compiles_for_cuda(case: str) -> None:
    try:
        cuda_compiler()
    except CudaUnavailableError as error:
        pytest.skip(f"no CUDA compiler (NVRTC or nvcc): CUDA C NOT compiled: {error}")
    unit = emit_cuda(_lowered_for_cuda(case))
    # Lowered with the H100's facts: warpgroup products compile for sm_90a.
    arch = program_architecture(unit.source, "sm_90", H100.architecture_specific)
    assert compile_cubin(unit.source, arch).stat().st_size > 0
