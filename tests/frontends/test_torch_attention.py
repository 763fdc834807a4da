"""`F.scaled_dot_product_attention` through the PyTorch frontend.

The importer keeps `aten.scaled_dot_product_attention` out of PyTorch's
decomposition and writes it as the spelled-out attention
`linalg-fuse-attention` fuses (`convert_attention`). These tests import
SDPA modules the user's way (`irkit.torch.import_module` /
`irkit.torch.compile`: export, decomposition table, import), compare them
with PyTorch's eager result (C target and reference interpreter), check the
cases it leaves to PyTorch's decomposition or refuses, and run the lowered
CUDA program on the grid emulator. The launch counts are in
`test_torch_launch_plans.py`.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import irkit  # noqa: E402
import irkit.torch  # noqa: E402
from irkit.frontends.torch import UnsupportedOperatorError  # noqa: E402
from irkit.runtime.frameworks import as_host_array  # noqa: E402
from irkit.testing import compare_arrays  # noqa: E402

Tensor = Any


class Attention(torch.nn.Module):
    """`F.scaled_dot_product_attention(q, k, v[, mask], **options)`."""

    def __init__(self, **options: Any) -> None:
        super().__init__()
        self.options = options

    def forward(self, q: Tensor, k: Tensor, v: Tensor, *mask: Tensor) -> Tensor:
        return F.scaled_dot_product_attention(q, k, v, *mask, **self.options)


def _inputs(
    dtype: Any = torch.float32, rows: int = 6, keys: int = 6
) -> tuple[Tensor, Tensor, Tensor]:
    generator = torch.Generator().manual_seed(0)
    return tuple(  # type: ignore[return-value]
        torch.randn(2, 3, length, 8, generator=generator).to(dtype)
        for length in (rows, keys, keys)
    )


def _imported(module: Any, *inputs: Tensor, lower: bool = True) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's own deprecation notes
        return irkit.torch.import_module(module, *inputs, lower=lower)


def _assert_close(expected: Any, got: Any, **tolerance: float) -> None:
    difference = compare_arrays(
        as_host_array(expected), as_host_array(got), **tolerance
    )
    assert difference is None, difference.describe()


OPTIONS = (
    pytest.param({}, id="plain"),
    pytest.param({"is_causal": True}, id="causal"),
    pytest.param({"scale": 0.3}, id="scale"),
    pytest.param({"is_causal": True, "scale": 0.3}, id="causal-scale"),
)
DTYPES = (
    pytest.param(torch.float32, id="f32"),
    pytest.param(torch.float16, id="f16"),
    pytest.param(torch.bfloat16, id="bf16"),
)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("options", OPTIONS)
def test_attention_matches_pytorch_on_the_c_target(
    options: dict[str, Any], dtype: Any
) -> None:
    module = Attention(**options)
    inputs = _inputs(dtype, rows=5, keys=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = irkit.torch.compile(module, *inputs, target="c")
    got = compiled(*inputs)
    assert got.dtype == dtype
    with torch.no_grad():
        _assert_close(module(*inputs), got)


def test_import_is_the_spelled_out_attention() -> None:
    """No trace of the decomposition (the q and k scaled apart, the
    fully-masked-row fix, the final permutes): one multiplication by the
    scale, the causal select, softmax, two batched matmuls."""
    text = str(_imported(Attention(is_causal=True), *_inputs(), lower=False))
    assert text.count("nn.matmul") == 2
    assert text.count("nn.mul ") == 1
    assert text.count("nn.softmax") == 1
    assert text.count("nn.select") == 1
    assert text.count("nn.transpose") == 1  # k's, nothing after v
    assert "nn.reduce_max" not in text  # no `any(scores != -inf)`


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_fully_masked_rows_are_zero_as_in_pytorch(kind: str) -> None:
    """An explicit mask that admits no key in a row: PyTorch's kernels give
    0 there (not softmax's NaN), and so does the import."""
    q, k, v = _inputs(rows=4, keys=5)
    keep = torch.rand(4, 5, generator=torch.Generator().manual_seed(1)) > 0.4
    keep[2] = False
    mask = keep
    if kind == "float":
        mask = torch.zeros(4, 5).masked_fill(~keep, float("-inf"))
    module = Attention()
    imported = _imported(module, q, k, v, mask)
    arrays = [as_host_array(t) for t in (q, k, v, mask)]
    (got,) = irkit.interpret(imported.module, "main", *arrays)
    expected = module(q, k, v, mask)
    assert torch.all(expected[:, :, 2] == 0)
    _assert_close(expected, got)


def test_grouped_query_heads_fall_back_to_the_decomposition() -> None:
    q = _inputs()[0]
    k, v = (torch.randn(2, 1, 6, 8) for _ in range(2))
    module = Attention(enable_gqa=True)
    imported = _imported(module, q, k, v, lower=False)
    assert "nn.softmax" in str(imported)
    arrays = [as_host_array(t) for t in (q, k, v)]
    (got,) = irkit.interpret(imported.module, "main", *arrays)
    _assert_close(module(q, k, v), got)


def test_dropout_is_refused_naming_it() -> None:
    with pytest.raises(UnsupportedOperatorError, match=r"dropout_p=0\.5") as raised:
        _imported(Attention(dropout_p=0.5), *_inputs())
    assert raised.value.operator == "aten.scaled_dot_product_attention.default"


@pytest.mark.parametrize(
    ("causal", "dtype"),
    [
        pytest.param(False, torch.float32, id="plain"),
        pytest.param(True, torch.float32, id="causal"),
        pytest.param(False, torch.float16, id="plain-f16"),
        pytest.param(True, torch.bfloat16, id="causal-bf16"),
    ],
)
def test_attention_through_lower_to_cuda_on_the_grid_emulator(
    causal: bool, dtype: Any
) -> None:
    """The imported SDPA, fused by `linalg-fuse-attention` under
    `lower-to-cuda` (one launch: the attention kernel writes the output
    through its reshape; a copy into the output was a second one), run
    by the grid emulator (no GPU needed). 64 keys take two steps of the
    fused kernel's 32-key loop. In half precision the converter computes in
    f32 and rounds the output once: that rounding is the kernel's last step
    (a kernel of its own before). Half products stay unfused where tensor
    cores would take them: the fused kernel is reached without them."""
    from irkit.runtime import lower
    from irkit.targets.cuda import KernelLaunch, emit_cuda

    module = Attention(is_causal=causal)
    generator = torch.Generator().manual_seed(2)
    inputs = tuple(
        torch.randn(1, 2, length, 16, generator=generator).to(dtype)
        for length in (32, 64, 64)
    )
    lowered = _imported(module, *inputs).module.clone()
    pipeline = (
        "lower-to-cuda"
        if dtype == torch.float32
        else ("lower-to-cuda{tensor-cores=false}")
    )
    lower(lowered, pipeline, target="cuda")
    (plan,) = emit_cuda(lowered.clone()).plans.values()
    kernels = [step for step in plan.steps if isinstance(step, KernelLaunch)]
    assert len(kernels) == 1, kernels
    (got,) = irkit.interpret(lowered, "main", *(as_host_array(t) for t in inputs))
    with torch.no_grad():
        _assert_close(module(*inputs), got)
