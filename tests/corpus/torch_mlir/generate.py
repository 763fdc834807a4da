"""Regenerate the torch-mlir linalg-on-tensors test corpus.

Each case is a small PyTorch module that is exported with torch-mlir's FX importer
(``torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")``).  For
every case this script writes, next to itself:

* ``<name>.mlir``: the lowered module printed with its default (pretty, custom)
  assembly, no debug locations.  The text is exactly ``str(module)``.
* ``<name>.npz``: the inputs ``arg0, arg1, ...`` (in function-argument order) and
  PyTorch's outputs ``result0, result1, ...`` as NumPy arrays whose shapes and
  dtypes match the function signature (``i1`` -> ``bool``).
* ``MANIFEST.md``: one entry per case (description, function name, inputs, ops
  used, non-core dialects) plus the cases that were dropped and why.

Module weights are never emitted as ``dense_resource`` blobs (which would add a
``{-# dialect_resources ... #-}`` section that many parsers cannot read).  Cases
marked ``weights="inline"`` install an ``FxImporterHooks.resolve_literal`` hook that
turns every literal tensor into an inline ``DenseElementsAttr`` (printed as
``dense<...>``; MLIR prints attributes with more than 100 elements as a hex string
``dense<"0x...">``).  Cases marked ``weights="args"`` are wrapped with
``torch.func.functional_call`` so that the parameters become extra function
arguments after the real inputs.  No post-processing of the IR text is done; the
script fails if ``dense_resource``, ``__elided__``, a resource section or any
``torch.`` dialect op is present in the output.

Environment (CPU only; CI does not need it, it only reads the saved files)::

    python3.11 -m venv /tmp/tmvenv
    /tmp/tmvenv/bin/pip install torch==2.13.0 torch-mlir==20261001 numpy

Run (from the repository root)::

    /tmp/tmvenv/bin/python tests/corpus/torch_mlir/generate.py

The output is deterministic: each case seeds ``torch.manual_seed`` before it
builds its module and inputs.
"""

from __future__ import annotations

import io
import math
import re
import sys
import traceback
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn
from torch_mlir import fx, ir
from torch_mlir.extras.fx_importer import (
    TORCH_DTYPE_TO_MLIR_TYPE,
    TORCH_DTYPE_TO_NPY_TYPE,
    FxImporterHooks,
    GraphNodeImporter,
    InputInfo,
)

OUT_DIR = Path(__file__).resolve().parent

# Op names reported in the manifest: `dialect.op` tokens of these dialects.
OP_RE = re.compile(r"\b([a-z_]+\.[a-z_0-9.]+)\b")
CORE_DIALECTS = ("func", "arith", "math", "linalg", "tensor")
# Operation names at the start of an operation (after optional `%x = `), used to
# detect any dialect outside CORE_DIALECTS.
OP_START_RE = re.compile(
    r'^\s*(?:%[\w#:, %]+=\s*)?"?([a-z_][a-z_0-9]*)\.([a-z_][a-z_0-9.]*)', re.M
)
FORBIDDEN = ("dense_resource", "__elided__", "{-#", "dialect_resources")

WeightMode = Literal["none", "inline", "args"]
Inputs = tuple[torch.Tensor, ...]
Outputs = torch.Tensor | tuple[torch.Tensor, ...]
# [(shape, dtype)] for the inputs or the results of a function signature.
Sig = list[tuple[tuple[int, ...], np.dtype]]


@dataclass(frozen=True)
class Case:
    name: str
    description: str
    build: Callable[[], tuple[nn.Module, Inputs]]
    weights: WeightMode = "none"


# --------------------------------------------------------------------------
# Importer plumbing
# --------------------------------------------------------------------------


class InlineLiteralHooks(FxImporterHooks):
    """Import every literal tensor as an inline DenseElementsAttr."""

    def resolve_literal(
        self, gni: GraphNodeImporter, literal: object, info: InputInfo | None
    ) -> ir.Value | None:
        if not isinstance(literal, torch.Tensor):
            return None
        tensor = literal.detach()
        array = np.array(tensor.tolist(), dtype=TORCH_DTYPE_TO_NPY_TYPE[tensor.dtype])
        element_type = TORCH_DTYPE_TO_MLIR_TYPE[tensor.dtype]()
        attr = ir.DenseElementsAttr.get(
            array, type=element_type, shape=list(array.shape)
        )
        op = ir.Operation.create(
            name="torch.vtensor.literal",
            results=[gni._cc.tensor_to_vtensor_type(tensor)],
            attributes={"value": attr},
        )
        return op.result


class ParamsAsArgs(nn.Module):
    """Calls `inner` with its parameters supplied as trailing forward arguments."""

    def __init__(self, inner: nn.Module, num_inputs: int) -> None:
        super().__init__()
        # Kept in a list so that `inner` is not registered as a submodule (its
        # parameters must not be lifted as constants by torch.export).
        self._inner = [inner]
        self.num_inputs = num_inputs
        self.param_names = [name for name, _ in inner.named_parameters()]

    def params(self) -> Inputs:
        return tuple(p.detach().clone() for _, p in self._inner[0].named_parameters())

    def forward(self, *args: torch.Tensor) -> Outputs:
        inputs = args[: self.num_inputs]
        params = dict(zip(self.param_names, args[self.num_inputs :], strict=True))
        return torch.func.functional_call(self._inner[0], params, inputs)


def prepare(case: Case) -> tuple[nn.Module, Inputs, list[str]]:
    """Build (seeded) module and inputs; returns module, args and arg labels."""
    torch.manual_seed(0)
    module, inputs = case.build()
    module = module.eval()
    labels = ["input"] * len(inputs)
    if case.weights == "args":
        wrapper = ParamsAsArgs(module, len(inputs))
        params = wrapper.params()
        labels += [f"param `{name}`" for name in wrapper.param_names]
        return wrapper, inputs + params, labels
    if case.weights == "none" and any(True for _ in module.parameters()):
        raise ValueError(f"{case.name}: has parameters but weights='none'")
    return module, inputs, labels


def run_torch(module: nn.Module, args: Inputs) -> list[np.ndarray]:
    with torch.no_grad():
        out = module(*args)
    outs = out if isinstance(out, tuple | list) else (out,)
    return [o.detach().numpy().copy() for o in outs]


def import_case(case: Case, module: nn.Module, args: Inputs) -> str:
    hooks = InlineLiteralHooks() if case.weights == "inline" else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mlir_module = fx.export_and_import(
            module,
            *args,
            output_type="linalg-on-tensors",
            func_name=case.name,
            hooks=hooks,
        )
    return str(mlir_module)


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

MLIR_TO_NPY = {
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
}


def signature(text: str, func_name: str) -> tuple[Sig, Sig]:
    """Parse the text back and return [(shape, np.dtype)] for inputs/results."""
    with ir.Context():
        module = ir.Module.parse(text)
        if str(module) != text:
            raise AssertionError("printed text does not round-trip through parser")
        funcs = [
            op
            for op in module.body.operations
            if op.operation.name == "func.func"
            and ir.StringAttr(op.attributes["sym_name"]).value == func_name
        ]
        if len(funcs) != 1:
            raise AssertionError(f"expected one func.func @{func_name}")
        ftype = ir.FunctionType(ir.TypeAttr(funcs[0].attributes["function_type"]).value)

        def conv(types: Iterable[ir.Type]) -> Sig:
            result: Sig = []
            for t in types:
                rt = ir.RankedTensorType(t)
                dtype = np.dtype(MLIR_TO_NPY[str(rt.element_type)])
                result.append((tuple(rt.shape), dtype))
            return result

        return conv(ftype.inputs), conv(ftype.results)


def check_arrays(kind: str, arrays: list[np.ndarray], sig: Sig) -> None:
    if len(arrays) != len(sig):
        raise AssertionError(f"{kind}: {len(arrays)} arrays vs {len(sig)} in sig")
    for i, (arr, (shape, dtype)) in enumerate(zip(arrays, sig, strict=True)):
        if arr.shape != shape or arr.dtype != dtype:
            raise AssertionError(
                f"{kind}{i}: array {arr.shape}/{arr.dtype} vs sig {shape}/{dtype}"
            )


def check_text(text: str) -> tuple[list[str], list[str]]:
    """Return (core op names, ops of other dialects); fail on bad content."""
    for bad in FORBIDDEN:
        if bad in text:
            raise AssertionError(f"forbidden text {bad!r} in output")
    starts = {(m.group(1), m.group(2)) for m in OP_START_RE.finditer(text)}
    if any(d == "torch" for d, _ in starts) or re.search(r"\btorch\.[a-z_]", text):
        raise AssertionError("torch dialect op left in output")
    others = sorted(
        f"{d}.{op}" for d, op in starts if d not in (*CORE_DIALECTS, "builtin")
    )
    ops = sorted(
        {op for op in OP_RE.findall(text) if op.split(".", 1)[0] in CORE_DIALECTS}
    )
    return ops, others


def verify_saved(case: Case, text_sig: tuple[Sig, Sig]) -> None:
    """Reload files, rerun a freshly built module and compare with saved outputs."""
    module, _, _ = prepare(case)
    with np.load(OUT_DIR / f"{case.name}.npz") as data:
        n_args = sum(1 for k in data.files if k.startswith("arg"))
        n_res = sum(1 for k in data.files if k.startswith("result"))
        args = [data[f"arg{i}"] for i in range(n_args)]
        saved = [data[f"result{i}"] for i in range(n_res)]
    text = (OUT_DIR / f"{case.name}.mlir").read_text()
    if signature(text, case.name) != text_sig:
        raise AssertionError("re-read signature differs")
    check_arrays("arg", args, text_sig[0])
    check_arrays("result", saved, text_sig[1])
    for i, a in enumerate(args):
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            raise AssertionError(f"arg{i} has non-finite values")
        if not a.any():
            raise AssertionError(f"arg{i} is all zero")
    fresh = run_torch(module, tuple(torch.from_numpy(a.copy()) for a in args))
    for i, (got, want) in enumerate(zip(fresh, saved, strict=True)):
        if got.dtype != want.dtype or not np.array_equal(got, want, equal_nan=True):
            raise AssertionError(f"result{i} differs when re-run from saved inputs")


# --------------------------------------------------------------------------
# Input helpers
# --------------------------------------------------------------------------


def randn(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, dtype=torch.float32)


def positive(*shape: int) -> torch.Tensor:
    """Uniform in [0.25, 2.25): safe for log/sqrt/rsqrt."""
    return torch.rand(*shape, dtype=torch.float32) * 2.0 + 0.25


class Fn(nn.Module):
    """A parameter-free module wrapping a plain function."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: torch.Tensor) -> Outputs:
        return self.fn(*args)


def fn_case(
    name: str, description: str, fn: Callable[..., Any], *inputs: Callable[[], Any]
) -> Case:
    """A case for a parameter-free function; `inputs` are built after seeding."""

    def build() -> tuple[nn.Module, Inputs]:
        return Fn(fn), tuple(make() for make in inputs)

    return Case(name, description, build)


# --------------------------------------------------------------------------
# Modules with parameters / buffers
# --------------------------------------------------------------------------


def build_mlp() -> tuple[nn.Module, Inputs]:
    module = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
    return module, (randn(4, 16),)


def build_layernorm() -> tuple[nn.Module, Inputs]:
    module = nn.LayerNorm(16)
    with torch.no_grad():
        module.weight.copy_(randn(16) * 0.5 + 1.0)
        module.bias.copy_(randn(16) * 0.1)
    return module, (randn(4, 6, 16),)


def build_conv_relu_maxpool() -> tuple[nn.Module, Inputs]:
    module = nn.Sequential(
        nn.Conv2d(3, 4, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2d(2)
    )
    return module, (randn(2, 3, 8, 8),)


def build_conv_strided_dilated() -> tuple[nn.Module, Inputs]:
    module = nn.Conv2d(2, 3, 3, stride=2, padding=1, dilation=2)
    return module, (randn(1, 2, 9, 9),)


def build_batchnorm() -> tuple[nn.Module, Inputs]:
    module = nn.BatchNorm2d(3)
    with torch.no_grad():
        module.weight.copy_(randn(3) * 0.5 + 1.0)
        module.bias.copy_(randn(3) * 0.1)
        module.running_mean.copy_(randn(3) * 0.2)
        module.running_var.copy_(positive(3))
    return module, (randn(2, 3, 4, 4),)


def build_depthwise_conv() -> tuple[nn.Module, Inputs]:
    module = nn.Conv2d(4, 4, 3, groups=4)
    return module, (randn(1, 4, 6, 6),)


def build_embedding() -> tuple[nn.Module, Inputs]:
    module = nn.Embedding(10, 4)
    return module, (torch.tensor([[1, 3, 0], [9, 3, 7]], dtype=torch.int64),)


class ConstBuffer(nn.Module):
    """Buffers with -inf / huge values are embedded as dense constants."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer(
            "lo", torch.tensor([-math.inf, 1.0e30, 0.5, -2.0], dtype=torch.float32)
        )
        self.register_buffer(
            "scale", torch.tensor([1.0e30, -3.0e-20, 2.5, 7.0], dtype=torch.float32)
        )

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return torch.maximum(x, self.lo), x * self.scale


class F64Internal(nn.Module):
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        d = x.double()
        total = d.sum().float()
        rows = (d * 2.0).exp().sum(dim=1).float()
        return total, rows


# --------------------------------------------------------------------------
# Case table
# --------------------------------------------------------------------------


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v


def amax_amin(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.amax(x, dim=1), torch.amin(x, dim=(0, 2))


def var_std(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.var(x, dim=1), torch.std(x, dim=-1, keepdim=True, correction=0)


def int_arith(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> Inputs:
    return a + b * c, a * b - c


def compare_bool(a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, ...]:
    return a > b, (a == b) | (a.float() * 0.5 < 0.25)


def cat3(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    return torch.cat([a, b, c], dim=1)


CASES: list[Case] = [
    Case(
        "mlp",
        "Linear(16,32)-ReLU-Linear(32,8), batch 4; inline weights",
        build_mlp,
        "inline",
    ),
    Case(
        "mlp_params_as_args",
        "same MLP; weights/biases as function arguments",
        build_mlp,
        "args",
    ),
    fn_case(
        "softmax",
        "softmax over last dim of 4x10",
        lambda x: torch.softmax(x, dim=-1),
        lambda: randn(4, 10),
    ),
    fn_case(
        "log_softmax",
        "log_softmax over last dim of 4x10",
        lambda x: torch.log_softmax(x, dim=-1),
        lambda: randn(4, 10),
    ),
    Case(
        "layernorm",
        "nn.LayerNorm(16) on 4x6x16; weight/bias as arguments",
        build_layernorm,
        "args",
    ),
    Case(
        "conv_relu_maxpool",
        "Conv2d(3,4,3,pad 1)-ReLU-MaxPool2d(2) on 2x3x8x8; inline weights",
        build_conv_relu_maxpool,
        "inline",
    ),
    Case(
        "batchnorm_eval",
        "BatchNorm2d(3) in eval mode on 2x3x4x4; inline weights/running stats",
        build_batchnorm,
        "inline",
    ),
    Case(
        "depthwise_conv",
        "Conv2d(4,4,3,groups=4) on 1x4x6x6; weights as arguments",
        build_depthwise_conv,
        "args",
    ),
    fn_case(
        "matmul_2d",
        "a @ b with a 3x5, b 5x2",
        lambda a, b: a @ b,
        lambda: randn(3, 5),
        lambda: randn(5, 2),
    ),
    fn_case(
        "avgpool",
        "AvgPool2d(2) on 1x2x6x6",
        lambda x: F.avg_pool2d(x, 2),
        lambda: randn(1, 2, 6, 6),
    ),
    Case(
        "conv_strided_dilated",
        "Conv2d(2,3,3,stride 2,pad 1,dilation 2) on 1x2x9x9; weights as arguments",
        build_conv_strided_dilated,
        "args",
    ),
    fn_case(
        "attention",
        "single-head attention softmax(q@k^T/sqrt(16))@v, q,k,v 2x8x16",
        attention,
        lambda: randn(2, 8, 16),
        lambda: randn(2, 8, 16),
        lambda: randn(2, 8, 16),
    ),
    fn_case(
        "gelu",
        "exact (erf) GELU on 4x8",
        lambda x: F.gelu(x),
        lambda: randn(4, 8) * 2.0,
    ),
    fn_case(
        "gelu_tanh",
        "tanh-approximation GELU on 4x8",
        lambda x: F.gelu(x, approximate="tanh"),
        lambda: randn(4, 8) * 2.0,
    ),
    fn_case("tanh", "tanh on 4x8", torch.tanh, lambda: randn(4, 8) * 2.0),
    fn_case("sigmoid", "sigmoid on 4x8", torch.sigmoid, lambda: randn(4, 8) * 2.0),
    fn_case(
        "broadcast_mul_add",
        "a*b+c with a 4x1x8, b 3x1, c 8 -> 4x3x8",
        lambda a, b, c: a * b + c,
        lambda: randn(4, 1, 8),
        lambda: randn(3, 1),
        lambda: randn(8),
    ),
    fn_case(
        "pow_int", "x**3 (integer exponent) on 4x8", lambda x: x**3, lambda: randn(4, 8)
    ),
    fn_case("rsqrt", "rsqrt of positive 4x8", torch.rsqrt, lambda: positive(4, 8)),
    fn_case(
        "exp_log",
        "exp(x) and log(y) (y positive), 4x8",
        lambda x, y: (torch.exp(x), torch.log(y)),
        lambda: randn(4, 8),
        lambda: positive(4, 8),
    ),
    fn_case(
        "where_select",
        "where(x > y, x, 2*y) on 4x8",
        lambda x, y: torch.where(x > y, x, y * 2.0),
        lambda: randn(4, 8),
        lambda: randn(4, 8),
    ),
    fn_case(
        "clamp",
        "clamp(x, -0.5, 0.75) on 4x8",
        lambda x: torch.clamp(x, -0.5, 0.75),
        lambda: randn(4, 8),
    ),
    fn_case(
        "sum_keepdim",
        "sum over dim 1 keepdim, 3x5x4",
        lambda x: torch.sum(x, dim=1, keepdim=True),
        lambda: randn(3, 5, 4),
    ),
    fn_case(
        "mean_dims",
        "mean over dims (0,2), 3x5x4",
        lambda x: torch.mean(x, dim=(0, 2)),
        lambda: randn(3, 5, 4),
    ),
    fn_case(
        "amax_amin",
        "amax over dim 1 and amin over dims (0,2), 3x5x4",
        amax_amin,
        lambda: randn(3, 5, 4),
    ),
    fn_case(
        "var_std",
        "var(dim 1, unbiased) and std(dim -1, keepdim, corr 0)",
        var_std,
        lambda: randn(3, 5, 4),
    ),
    fn_case(
        "argmax",
        "argmax over dim 1 of 4x7 (i64 result)",
        lambda x: torch.argmax(x, dim=1),
        lambda: randn(4, 7),
    ),
    fn_case(
        "reshape_view",
        "view 2x3x4 -> 6x4 and reshape -> 4x3x2",
        lambda x: (x.view(6, 4), x.reshape(4, 3, 2) * 2.0),
        lambda: randn(2, 3, 4),
    ),
    fn_case(
        "permute_transpose",
        "permute(2,0,1) and transpose(0,1) of 2x3x4",
        lambda x: (x.permute(2, 0, 1) + 1.0, x.transpose(0, 1) * 2.0),
        lambda: randn(2, 3, 4),
    ),
    fn_case(
        "flatten",
        "flatten(start_dim=1) of 2x3x4x5 then scale",
        lambda x: torch.flatten(x, 1) * 0.5,
        lambda: randn(2, 3, 4, 5),
    ),
    fn_case(
        "cat",
        "cat of 2x3, 2x1, 2x4 along dim 1",
        cat3,
        lambda: randn(2, 3),
        lambda: randn(2, 1),
        lambda: randn(2, 4),
    ),
    fn_case(
        "slice_step",
        "x[:, 1:5:2] and x[1:, -2:] of 3x7",
        lambda x: (x[:, 1:5:2] * 1.0, x[1:, -2:] + 0.0),
        lambda: randn(3, 7),
    ),
    fn_case(
        "unsqueeze_expand",
        "x.unsqueeze(1).expand(3,4,5) + y.unsqueeze(0)",
        lambda x, y: x.unsqueeze(1).expand(3, 4, 5) + y.unsqueeze(0),
        lambda: randn(3, 5),
        lambda: randn(4, 5),
    ),
    fn_case(
        "int32_arith",
        "int32 a+b*c and a*b-c, 3x4",
        int_arith,
        lambda: torch.randint(-100, 100, (3, 4), dtype=torch.int32),
        lambda: torch.randint(-100, 100, (3, 4), dtype=torch.int32),
        lambda: torch.randint(-100, 100, (3, 4), dtype=torch.int32),
    ),
    fn_case(
        "int64_arith",
        "int64 a+b*c and a*b-c, 3x4",
        int_arith,
        lambda: torch.randint(-1000, 1000, (3, 4), dtype=torch.int64),
        lambda: torch.randint(-1000, 1000, (3, 4), dtype=torch.int64),
        lambda: torch.randint(-1000, 1000, (3, 4), dtype=torch.int64),
    ),
    fn_case(
        "int_floordiv",
        "int64 floor division a // b (b in 1..4), 3x4",
        lambda a, b: torch.div(a, b, rounding_mode="floor"),
        lambda: torch.randint(-50, 50, (3, 4), dtype=torch.int64),
        lambda: torch.randint(1, 5, (3, 4), dtype=torch.int64),
    ),
    fn_case(
        "compare_bool",
        "int64 a > b, and (a == b) | (float(a)*0.5 < 0.25) (i1 outputs)",
        compare_bool,
        lambda: torch.randint(0, 4, (3, 4), dtype=torch.int64),
        lambda: torch.randint(0, 4, (3, 4), dtype=torch.int64),
    ),
    Case(
        "f64_internal",
        "x.double().sum().float() and f64 exp-sum per row",
        lambda: (F64Internal(), (randn(3, 4),)),
    ),
    Case(
        "const_buffer",
        "registered buffers with -inf/1e30 embedded as constants",
        lambda: (ConstBuffer(), (randn(3, 4),)),
        "inline",
    ),
    Case(
        "embedding",
        "nn.Embedding(10,4) lookup of 2x3 i64 indices; inline table",
        build_embedding,
        "inline",
    ),
]


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------


def fmt_sig(sig: Sig, labels: list[str] | None = None) -> str:
    parts = []
    for i, (shape, dtype) in enumerate(sig):
        dims = "x".join(str(d) for d in shape) or "scalar"
        label = f" ({labels[i]})" if labels and labels[i] != "input" else ""
        parts.append(f"{dims} {dtype}{label}")
    return "; ".join(parts)


def main() -> int:
    manifest: list[str] = [
        "# torch-mlir linalg-on-tensors corpus",
        "",
        "Generated by `generate.py` (see its docstring: torch 2.13.0, "
        "torch-mlir 20261001). Do not edit by hand.",
        "",
        "Each `<name>.mlir` holds `func.func @<name>`; `<name>.npz` holds inputs "
        "`arg0..` and PyTorch outputs `result0..`.",
        "",
    ]
    dropped: list[str] = []
    all_ops: set[str] = set()
    all_others: set[str] = set()
    for case in CASES:
        try:
            module, args, labels = prepare(case)
            results = run_torch(module, args)
            text = import_case(case, module, args)
        except Exception as exc:  # any import failure: report, drop the case
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            dropped.append(f"- `{case.name}`: {type(exc).__name__}: {first}")
            print(f"DROPPED {case.name}: {first}", file=sys.stderr)
            continue
        ops, others = check_text(text)
        sig = signature(text, case.name)
        arg_arrays = [a.detach().numpy().copy() for a in args]
        check_arrays("arg", arg_arrays, sig[0])
        check_arrays("result", results, sig[1])
        (OUT_DIR / f"{case.name}.mlir").write_text(text)
        arrays = {f"arg{i}": a for i, a in enumerate(arg_arrays)}
        arrays |= {f"result{i}": r for i, r in enumerate(results)}
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        (OUT_DIR / f"{case.name}.npz").write_bytes(buf.getvalue())
        verify_saved(case, sig)
        all_ops.update(ops)
        all_others.update(others)
        manifest += [
            f"## {case.name}",
            "",
            f"- what: {case.description}",
            f"- function: `@{case.name}`",
            f"- inputs: {fmt_sig(sig[0], labels)}",
            f"- results: {fmt_sig(sig[1])}",
            f"- ops: {', '.join(f'`{op}`' for op in ops)}",
            f"- other dialects: {', '.join(f'`{o}`' for o in others) or 'none'}",
            "",
        ]
        print(f"ok {case.name}: {len(text)} chars, {len(ops)} ops")
    manifest += ["## Dropped cases", ""]
    manifest += dropped or ["none"]
    manifest += [
        "",
        "## All ops in corpus",
        "",
        ", ".join(f"`{op}`" for op in sorted(all_ops)),
        "",
        "Ops of other dialects: "
        + (", ".join(f"`{op}`" for op in sorted(all_others)) or "none"),
        "",
    ]
    (OUT_DIR / "MANIFEST.md").write_text("\n".join(manifest))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:
        traceback.print_exc()
        sys.exit(1)
