"""Export the model zoo (`zoo.py`) with torch-mlir, weights as function arguments.

Every workload is wrapped in `zoo.WeightsAsArguments` (`torch.func.functional_call`)
and exported with `torch_mlir.fx.export_and_import(...,
output_type="linalg-on-tensors")`, so its function takes the inputs and then
every state-dict tensor (`zoo.export_arguments`), and the IR holds no weights.
Writes, from the repository root:

* `benchmarks/models/<name>.mlir`: `WORKLOADS`, the real sizes;
* `tests/corpus/models/<name>.mlir` and `<name>.npz`: `SMALL_WORKLOADS`, the
  same programs at tiny sizes, with the inputs `arg0..` (function-argument
  order) and PyTorch's outputs `result0..` (float32, seeded, deterministic);
  and for `zoo.HALF_PRECISION`, `<name>_f16.{mlir,npz}` and
  `<name>_bf16.{mlir,npz}`: the module and its inputs in float16 or bfloat16
  (`zoo.SMALL_HALF_WORKLOADS`), PyTorch's outputs in the same type (bfloat16
  arrays as `ml_dtypes.bfloat16`, which `np.savez` stores as raw 2-byte
  records, `|V2`; `irkit.dtypes.loaded_array` reads them back);
* `tests/corpus/models/MANIFEST.md` and `benchmarks/models/README.md`.

Each file is exactly `str(module)`. The script fails (exit 1) if any output
holds `dense_resource`, an elided or resource section, or a `torch` dialect
op, if its signature does not match the arguments, or if PyTorch re-run on the
saved inputs does not give the saved outputs.

Environment (CPU only; irkit's own venv does not need it)::

    python3.11 -m venv /work/tmvenv
    /work/tmvenv/bin/pip install torch==2.13.0 torch-mlir==20261001 numpy \
        ml_dtypes==0.6.0

Run from anywhere::

    /work/tmvenv/bin/python benchmarks/models/export.py [NAME ...]
"""

from __future__ import annotations

import io
import re
import sys
import warnings
from importlib.metadata import version
from pathlib import Path

import ml_dtypes
import numpy as np
import torch
import zoo
from torch_mlir import fx, ir

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = ROOT / "tests" / "corpus" / "models"
FORBIDDEN = ("dense_resource", "__elided__", "{-#", "dialect_resources")
OP_RE = re.compile(r"\b((?:arith|linalg|math|tensor|func|cf)\.[a-z_0-9]+)\b")
TORCH_RE = re.compile(r"\btorch\.[a-z_]")
# Real-size files hold no weights: anything above this is a constant that
# slipped in.
MAX_REAL_BYTES = 64 * 1024
# Except a whole ResNet-18: 20 convolutions, each with its batch norm
# decomposed into six elementwise generics, its padding and its ReLU or
# residual, and the head: about 85 KB of IR, weights still arguments.
MAX_REAL_BYTES_OF = {"resnet18_b1": 128 * 1024, "resnet18_b32": 128 * 1024}


def export(workload: zoo.Workload) -> tuple[str, list[torch.Tensor], list[str]]:
    """The exported text, and the arguments and their names."""
    module, inputs = zoo.build(workload)
    args, names = zoo.export_arguments(module, inputs)
    wrapper = zoo.WeightsAsArguments(module, len(inputs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exported = fx.export_and_import(
            wrapper,
            *args,
            output_type="linalg-on-tensors",
            func_name=workload.name,
        )
    text = str(exported)
    check_text(workload.name, text)
    check_signature(workload.name, text, [tuple(a.shape) for a in args])
    return text, args, names


def check_text(name: str, text: str) -> None:
    for bad in FORBIDDEN:
        if bad in text:
            raise AssertionError(f"{name}: forbidden text {bad!r} in the output")
    if TORCH_RE.search(text):
        raise AssertionError(f"{name}: torch dialect left in the output")


def check_signature(name: str, text: str, shapes: list[tuple[int, ...]]) -> None:
    """The text parses back to itself, and `@name` takes f32 tensors of
    `shapes` (f16 for a `_f16` twin, bf16 for a `_bf16` one)."""
    with ir.Context():
        module = ir.Module.parse(text)
        if str(module) != text:
            raise AssertionError(f"{name}: text does not round-trip")
        (func,) = (
            op
            for op in module.body.operations
            if op.operation.name == "func.func"
            and ir.StringAttr(op.attributes["sym_name"]).value == name
        )
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        got = [tuple(ir.RankedTensorType(t).shape) for t in ftype.inputs]
        types = {str(ir.RankedTensorType(t).element_type) for t in ftype.inputs}
    element = name.rsplit("_", 1)[-1] if name.endswith(("_f16", "_bf16")) else "f32"
    if got != shapes or types - {element}:
        raise AssertionError(f"{name}: signature {got} {types} vs arguments {shapes}")


def to_numpy(tensor: torch.Tensor) -> np.ndarray:
    """A tensor as a NumPy array (bfloat16 as `ml_dtypes.bfloat16`, whose bits
    PyTorch's `.numpy()` will not hand over as such)."""
    tensor = tensor.detach()
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(ml_dtypes.bfloat16).copy()
    return tensor.numpy().copy()


def from_numpy(array: np.ndarray) -> torch.Tensor:
    if array.dtype == ml_dtypes.bfloat16:
        return torch.from_numpy(array.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(array.copy())


def run_torch(workload: zoo.Workload, args: list[np.ndarray]) -> list[np.ndarray]:
    """The wrapped module on `args`, built afresh."""
    module, inputs = zoo.build(workload)
    wrapper = zoo.WeightsAsArguments(module, len(inputs))
    with torch.no_grad():
        out = wrapper(*(from_numpy(a) for a in args))
    outs = out if isinstance(out, tuple | list) else (out,)
    return [to_numpy(o) for o in outs]


def loaded(array: np.ndarray) -> np.ndarray:
    """A saved array read back: bfloat16 was saved as raw 2-byte records."""
    return array.view(ml_dtypes.bfloat16) if array.dtype == np.dtype("V2") else array


def write_small(workload: zoo.Workload) -> tuple[str, list[np.ndarray], list[str]]:
    text, args, names = export(workload)
    arrays = [to_numpy(a) for a in args]
    results = run_torch(workload, arrays)
    (CORPUS / f"{workload.name}.mlir").write_text(text)
    saved = {f"arg{i}": a for i, a in enumerate(arrays)}
    saved |= {f"result{i}": r for i, r in enumerate(results)}
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **saved)
    (CORPUS / f"{workload.name}.npz").write_bytes(buffer.getvalue())
    with np.load(CORPUS / f"{workload.name}.npz") as data:
        again = run_torch(
            workload, [loaded(data[f"arg{i}"]) for i in range(len(arrays))]
        )
        for i, got in enumerate(again):
            if got.tobytes() != loaded(data[f"result{i}"]).tobytes():
                raise AssertionError(f"{workload.name}: result{i} differs on re-run")
    return text, arrays + results, names


def manifest_entry(
    workload: zoo.Workload, text: str, arrays: list[np.ndarray], names: list[str]
) -> list[str]:
    """The MANIFEST.md section of one small program."""
    signature = "; ".join(
        f"{dims(a.shape)} `{n}`" for a, n in zip(arrays, names, strict=False)
    )
    results = "; ".join(dims(a.shape) for a in arrays[len(names) :])
    return [
        f"## {workload.name}",
        "",
        f"- what: {workload.description}",
        f"- arguments: {signature}",
        f"- results: {results}",
        f"- ops: {ops_of(text)}",
        "",
    ]


def ops_of(text: str) -> str:
    return ", ".join(f"`{op}`" for op in sorted(set(OP_RE.findall(text))))


def dims(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape))


def manifest(entries: list[str]) -> str:
    head = [
        "# Model corpus (small sizes)",
        "",
        f"Generated by `benchmarks/models/export.py` (torch {torch.__version__}, "
        f"torch-mlir {torch_mlir_version()}). Do not edit by hand; the real sizes "
        "and how to regenerate are in `benchmarks/models/README.md`.",
        "",
        "Each `<name>.mlir` holds `func.func @<name>`; `<name>.npz` holds the "
        "inputs `arg0..` (the model's inputs, then its state-dict tensors) and "
        "PyTorch's outputs `result0..`, all float32 (`_f16` and `_bf16` twins: "
        "float16 and bfloat16; bfloat16 arrays are stored as raw 2-byte "
        "records, `|V2`, which `irkit.dtypes.loaded_array` reads back).",
        "",
    ]
    return "\n".join(head + entries)


def torch_mlir_version() -> str:
    return version("torch-mlir")


README_HEAD = """# Model workloads

Transformer and conv-net workloads written in plain PyTorch (`zoo.py`, as
users write them: `nn.Linear`, `nn.LayerNorm`, `F.gelu`, `F.softmax`,
attention spelled out as `softmax(Q @ K^T * scale [masked]) @ V`; `nn.Conv2d`,
`nn.BatchNorm2d`), exported with torch-mlir's FX importer to linalg on
tensors. Weights are function arguments
(`torch.func.functional_call`): each function takes the model's inputs, then
every state-dict tensor (parameters, and LLaMA's rotary cos/sin tables, which
are persistent buffers) in state-dict order, so the files hold no weights and
stay small. `zoo.export_arguments(module, inputs)` gives that argument list
and its names; the exporter and the benchmarks both use it.

GELU: the GPT-2 block uses the tanh approximation (GPT-2's `gelu_new`); BERT,
ViT and the MLP use the exact (erf) GELU. Causal masks are built inside the
function (`torch.ones(s, s, dtype=bool).tril()`, `masked_fill(-inf)`), not
passed in.

Conv nets written out as torchvision writes them (NCHW, eval mode, the same
module and state-dict names): ResNet-18's basic block at its four stages (the
first block of each; stages 2 to 4 with the 1x1 stride-2 downsample; stage
1 also at batch 1, `resnet_basic_s1_b1`, issue 18's CPU bar), a
ResNet-50 bottleneck block, a ResNeXt-50 32x4d one (its 3x3 convolution in 32
groups, which torch-mlir exports as `linalg.conv_2d_ngchw_gfchw`, as it does
depthwise convolutions with a channel multiplier), the ResNet stem, a
MobileNet-v2 inverted-residual block (depthwise 3x3, `groups` = channels:
`linalg.depthwise_conv_2d_nchw_chw`; ReLU6) and the whole ResNet-18 (batch 1
and 32). Batch
norm has non-trivial running statistics (means N(0, 0.1^2), variances
U(0.5, 1.5), weights and biases perturbed), so a dropped normalisation shows;
torch-mlir decomposes it into elementwise generics. Its step counters
(`num_batches_tracked`, int64, never read in eval mode) are not arguments.
The whole ResNet-18 is about 85 KB of IR (weights still arguments; the limit
for it is 128 KiB, 64 KiB for the rest).

- `<name>.mlir` here: the real sizes (`zoo.WORKLOADS`).
- `tests/corpus/models/<name>.{mlir,npz}`: the same programs at tiny sizes
  (`zoo.SMALL_WORKLOADS`) with inputs and PyTorch's outputs; CI runs them on
  the C target and compiles them for CUDA
  (`tests/end_to_end/test_model_corpus.py`).
- `check.py` (irkit's venv) lowers the real sizes with `lower-to-cuda` and
  prints each launch plan's kernel launches, buffers and CUDA C size
  (`--cubin` also compiles them for sm_90).

Regenerate (CPU only, a venv of its own; irkit's does not need torch-mlir):

    python3.11 -m venv /work/tmvenv
    /work/tmvenv/bin/pip install torch==2.13.0 torch-mlir==20261001 numpy ml_dtypes==0.6.0
    /work/tmvenv/bin/python benchmarks/models/export.py

The output is deterministic (seeded). The script fails on `dense_resource`,
resource sections or `torch` dialect leftovers, on a signature that does not
match the arguments, and when PyTorch re-run on the saved inputs differs from
the saved outputs.
"""


def readme(rows: list[str]) -> str:
    versions = (
        f"Generated with torch {torch.__version__} and torch-mlir "
        f"{torch_mlir_version()}."
    )
    table = [
        "| name | what (real size) | small size (tests/corpus/models) | args | parameters | .mlir bytes (real) |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    return "\n".join([README_HEAD, versions, "", *table, ""])


def main(selected: list[str]) -> int:
    CORPUS.mkdir(parents=True, exist_ok=True)
    names = selected or list(zoo.WORKLOADS)
    unknown = [name for name in names if name not in zoo.WORKLOADS]
    if unknown:
        raise SystemExit(f"unknown workloads: {', '.join(unknown)}")
    entries: list[str] = []
    rows: list[str] = []
    for name in names:
        real, small = zoo.WORKLOADS[name], zoo.SMALL_WORKLOADS[name]
        text, args, arg_names = export(real)
        size = len(text.encode())
        if size > MAX_REAL_BYTES_OF.get(name, MAX_REAL_BYTES):
            raise AssertionError(f"{name}: {size} bytes; a constant slipped in?")
        (HERE / f"{name}.mlir").write_text(text)
        params = sum(a.numel() for a in args[len(real.inputs) :])
        smalls = [small]
        if name in zoo.HALF_PRECISION:
            half = zoo.HALF_WORKLOADS[f"{name}_f16"]
            half_text, _, _ = export(half)
            (HERE / f"{half.name}.mlir").write_text(half_text)
            print(f"ok {half.name}: real {len(half_text.encode())} B")
            smalls += [
                zoo.SMALL_HALF_WORKLOADS[f"{name}_{suffix}"]
                for suffix, _ in zoo.HALF_DTYPES.values()
            ]
        for twin in smalls:
            small_text, arrays, small_names = write_small(twin)
            npz = (CORPUS / f"{twin.name}.npz").stat().st_size
            print(f"ok {twin.name}: small {len(small_text)} B + npz {npz} B")
            entries += manifest_entry(twin, small_text, arrays, small_names)
        print(f"ok {name}: real {size} B")
        rows.append(
            f"| `{name}` | {real.description} | {small.description} "
            f"| {len(arg_names)} | {params:,} | {size:,} |"
        )
    if not selected:
        (CORPUS / "MANIFEST.md").write_text(manifest(entries))
        (HERE / "README.md").write_text(readme(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
