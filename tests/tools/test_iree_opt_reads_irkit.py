"""Upstream MLIR reads what irkit prints: `iree-opt` (LLVM 24) over the IR
after every tensor-level stage of `lower-to-c` and `lower-to-cuda`.

Each stage's output is printed in both forms (custom and generic) and handed
to `iree-opt`, which must parse and verify it. The programs are today's
upstream MLIR (the specialized corpus: `linalg.elementwise`,
`linalg.matmul`, ...) and irkit's own `nn` programs after
`convert-nn-to-linalg`. Skipped where `iree-opt` is absent: install it with
`pip install iree-base-compiler` (into its own venv) and put it on PATH, or
set IREE_OPT to its path.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer

import irkit
from irkit.context import make_context
from irkit.transforms.pipelines import (
    LowerToCPipeline,
    LowerToCudaPipeline,
    NamedPipeline,
)

ROOT = Path(__file__).resolve().parents[2]
IREE_OPT = os.environ.get("IREE_OPT") or shutil.which("iree-opt")
pytestmark = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt not found")

PROGRAMS = {
    "mlp_m64": ROOT / "tests/corpus/specialized/mlp_m64.mlir",
    "attention": ROOT / "tests/corpus/specialized/attention.mlir",
    "layernorm": ROOT / "tests/corpus/specialized/layernorm.mlir",
    "nn_mlp": ROOT / "examples/mlp.mlir",
}
PIPELINES: dict[str, NamedPipeline] = {
    "lower-to-c": LowerToCPipeline(),
    "lower-to-cuda": LowerToCudaPipeline(),
}


def _tensor_stages(pipeline: NamedPipeline) -> list[ModulePass]:
    """The stages before `bufferize`: their output is linalg on tensors."""
    stages = pipeline.stages()
    names = [stage.name for stage in stages]
    return stages[: names.index("bufferize")]


def _print(module: ModuleOp, generic: bool) -> str:
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue()


def _iree_reads(text: str, where: str) -> None:
    assert IREE_OPT is not None
    done = subprocess.run(
        [IREE_OPT, "-"], input=text, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"iree-opt rejects irkit's {where}:\n{done.stderr}"


@pytest.mark.parametrize("pipeline", sorted(PIPELINES))
@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_iree_opt_reads_every_tensor_level_stage(program: str, pipeline: str) -> None:
    module = irkit.parse(PROGRAMS[program].read_text(), filename=program)
    ctx: Context = make_context()
    for stage in _tensor_stages(PIPELINES[pipeline]):
        stage.apply(ctx, module)
        module.verify()
        if "nn." in str(module):
            continue  # irkit's own dialect: upstream cannot read it
        for generic in (False, True):
            form = "generic" if generic else "custom"
            _iree_reads(_print(module, generic), f"{form} form after {stage.name}")


@pytest.mark.parametrize("pipeline", sorted(PIPELINES))
@pytest.mark.parametrize("program", ["mlp_m64", "layernorm", "nn_mlp"])
def test_iree_opt_reads_every_stage_past_bufferize(program: str, pipeline: str) -> None:
    """Past `bufferize`: `lower-to-c`'s tiles, packed panels and loops, and
    `lower-to-cuda`'s loops, `gpu.launch`es (whose generic form has LLVM
    24's twelve operand segments) and outlined kernels: every stage whose
    output holds only upstream dialects."""
    module = irkit.parse(PROGRAMS[program].read_text(), filename=program)
    ctx: Context = make_context()
    stages = PIPELINES[pipeline].stages()
    first = [stage.name for stage in stages].index("bufferize")
    for position, stage in enumerate(stages):
        stage.apply(ctx, module)
        module.verify()
        if position < first:
            continue  # the tensor stages: the test above
        text = str(module)
        if "mma." in text or "nn." in text:
            continue  # irkit's own dialects: upstream cannot read them
        for generic in (False, True):
            form = "generic" if generic else "custom"
            _iree_reads(_print(module, generic), f"{form} form after {stage.name}")
