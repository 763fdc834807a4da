"""Conv nets of the model corpus (tests/corpus/models) with
`lower-to-c{nhwc=true}`: `linalg-convert-to-nhwc` right after
`convert-nn-to-linalg`, the rest of `lower-to-c` on the NHWC net.

Each program's small twin is compiled as C through the option, run on its
stored inputs, and compared with the reference interpreter on the original
(NCHW) program and with PyTorch's stored outputs, at the corpus's
tolerances. Before that, the pass alone must have changed the program and
left no NCHW window op, so the test is about the NHWC net, and
`linalg-conv-to-im2col` must have left no NHWC convolution (an im2col
gather and a matmul each, as `lower-to-c` runs them where it packs).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irkit
from irkit.context import make_context
from irkit.dtypes import loaded_array
from irkit.testing import compare_arrays
from irkit.transforms import get_irkit_passes
from irkit.transforms.linalg_convert_to_nhwc import convert_to_nhwc
from irkit.transforms.pipelines import LowerToCPipeline, LowerToCudaPipeline

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "models"
# The corpus's tolerances against PyTorch (test_model_corpus.py).
PYTORCH_TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
# A ResNet basic block (BN, ReLU, residual), the whole ResNet-18 (stem, max
# pool, downsample, the classifier head), MobileNet-v2's depthwise block.
CASES = ("resnet_basic_s1", "resnet18_b1", "mobilenet_v2_block")
NCHW_OPS = (
    "linalg.conv_2d_nchw_fchw",
    "linalg.depthwise_conv_2d_nchw_chw",
    "linalg.pooling_nchw_max",
    "linalg.pooling_nchw_sum",
)


def _load(case: str) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    text = (CORPUS / f"{case}.mlir").read_text()
    with np.load(CORPUS / f"{case}.npz") as data:
        args = [
            loaded_array(data[f"arg{i}"])
            for i in range(sum(key.startswith("arg") for key in data.files))
        ]
        results = [
            loaded_array(data[f"result{i}"])
            for i in range(sum(key.startswith("result") for key in data.files))
        ]
    return text, args, results


def test_the_option_runs_the_pass_after_the_front_end() -> None:
    for pipeline in (LowerToCPipeline, LowerToCudaPipeline):
        names = [stage.name for stage in pipeline(nhwc=True).stages()]
        assert names[:2] == ["convert-nn-to-linalg", "linalg-convert-to-nhwc"]
        assert "linalg-convert-to-nhwc" not in [
            stage.name for stage in pipeline().stages()
        ]


@pytest.mark.parametrize("case", CASES)
def test_runs_as_c_in_nhwc(case: str) -> None:
    text, args, pytorch = _load(case)
    module = irkit.parse(text, filename=case)
    get_irkit_passes()["convert-nn-to-linalg"]()().apply(make_context(), module)
    assert convert_to_nhwc(module)
    assert not any(op.name in NCHW_OPS for op in module.walk())
    # Every NHWC convolution takes the im2col path (`lower-to-c` runs the
    # pass where it packs matmuls, with `column-tile-bytes`); depthwise ones
    # stay window loops.
    get_irkit_passes()["linalg-conv-to-im2col"]()(column_tile_bytes=1 << 19).apply(
        make_context(), module
    )
    assert "linalg.conv_2d_nhwc_hwcf" not in {op.name for op in module.walk()}
    got = irkit.compile(text, target="c", entry=case, pipeline="lower-to-c{nhwc=true}")(
        *args
    )
    reference = irkit.interpret(irkit.parse(text), case, *args)
    for index, (g, want, torch_out) in enumerate(
        zip(got, reference, pytorch, strict=True)
    ):
        difference = compare_arrays(want, g)
        assert difference is None, f"result{index}: {difference.describe()}"
        np.testing.assert_allclose(
            g.astype(np.float32),
            torch_out.astype(np.float32),
            rtol=PYTORCH_TOLERANCE["rtol"],
            atol=PYTORCH_TOLERANCE["atol"],
            err_msg=f"result{index}",
        )
