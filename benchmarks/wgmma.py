"""Check and time `convert-linalg-to-mma{wgmma}` (warpgroup products, sm_90a)
against the `mma.sync` kernel and cuBLAS in one GPU run.

    python benchmarks/wgmma.py
    python benchmarks/wgmma.py --sizes 4096 --types f16 --configs "128,256/4;128,128/4"
    python benchmarks/wgmma.py --mn-offsets swapped
    python benchmarks/wgmma.py --sizes 4096 --layouts kn --mn-offsets both
    python benchmarks/wgmma.py --types tf32 --sizes 1024,4096,3000
    python benchmarks/wgmma.py --types tf32 --sizes 4096 --layouts kn --tf32-copy-k all
    python benchmarks/wgmma.py --types f16,tf32 --sizes 3000 --tiles partial,padded

For each size, type (f16, bf16) and layout of B (`kn`: `a @ b` with b stored
(k, n), as `torch.mm`, the `transpose_b` products; `nk`: `a @ w.T` with w
stored (n, k), as `nn.Linear`, K-major products), every configuration is
compiled through `irkit.compile` with `lower-to-cuda{wgmma=... wgmma-block=
BM,BN mma-stages=STAGES}` (`mma` is the `mma.sync` kernel: `wgmma=false`),
run on fresh random inputs, checked against a float64 product (relative L2
error; FAIL past the tolerance) and timed with CUDA events beside cuBLAS
(PyTorch's matmul on the same half-precision inputs). A size the tiles do
not divide (1000, 3000) runs on partial tiles (zero-filling cp.async,
guarded stores; `convert-linalg-to-mma{partial-tiles}`); `--tiles
partial,padded` times each configuration both ways, `padded` with
`mma-partial-tiles=false` (padded by `linalg-pad-contractions` first).

`tf32`: f32 operands with `allow-tf32=true` (m64nNk8 TF32 products; `mma`
is then `mma.sync`'s m16n8k8), cuBLAS with TF32 allowed; `kn` transposes
B once by a tiled transpose kernel before the products (`--tf32-b copies`:
copies B element by element into the K-major tile TF32 products need),
`nk` copies no differently from A; a `kn` row "B transposed (torch)" times
a transpose of B alone, for scale. The error is shown against the float64 product of
the operands truncated to TF32 (what `irkit.dtypes.truncate_to_tf32` says
the tensor cores read from shared memory) and rounded (`to_tf32`, what
`mma.sync`'s `cvt.rna` gives): the smaller one says which the device did
(FAIL only when both pass 5e-3: a wrong product).

The descriptor bits cannot be checked without a GPU. If `nk` passes and
`kn` fails, the N-major descriptor's offsets are read the other way round:
`--mn-offsets swapped` exchanges them (`irkit.dialects.mma.
mn_major_descriptor_offsets`, the one function to change then) and compiles
into a fresh cache. If both fail, the K-major descriptor or the swizzle is
at fault.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable

import torch

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--sizes", default="1024,4096,1000")
parser.add_argument("--types", default="f16,bf16", help="f16, bf16 and/or tf32")
parser.add_argument("--layouts", default="kn,nk", help="B stored (k, n) and/or (n, k)")
parser.add_argument(
    "--tiles",
    default="partial",
    help="sizes no tile divides on 'partial' tiles (the default pipeline) "
    "and/or 'padded' (lower-to-cuda{mma-partial-tiles=false})",
)
parser.add_argument(
    "--configs",
    default="mma;128,256/4;128,256/3;128,128/4",
    help="';'-separated: 'mma' (the mma.sync kernel) or BM,BN/STAGES (wgmma)",
)
parser.add_argument(
    "--mn-offsets",
    choices=("standard", "swapped", "both"),
    default="standard",
    help="the N-major (k-major B) descriptor's leading/stride byte offsets; "
    "both: this run once with each, one process each",
)
parser.add_argument(
    "--tf32-copy-k",
    choices=("1", "2", "4", "all"),
    default="4",
    help="tf32, B stored (k, n): the k each warp's 4-byte transposing copies "
    "cover (by 32 / it n; `convert_linalg_to_mma.TF32_TRANSPOSE_K`, 4 by "
    "default); all: this run once with each, one process each",
)
parser.add_argument(
    "--tf32-b",
    choices=("transposed", "copies"),
    default="transposed",
    help="tf32, B stored (k, n): transposed once by a tiled transpose kernel "
    "before the products (the default, `tf32-transpose-b`) or copied "
    "transposed by 4-byte cp.async (`tf32-transpose-b=false`; --tf32-copy-k "
    "other than 4 implies it)",
)
parser.add_argument("--repeats", type=int, default=30)
args = parser.parse_args()

if args.tf32_copy_k == "all":
    for variant in ("4", "2", "1"):
        print(f"\n## tf32 copies of {variant} k a warp")
        command = [sys.executable, *sys.argv, "--tf32-copy-k", variant]
        subprocess.run(command, check=False)
    sys.exit(0)

if args.mn_offsets == "both":
    for variant in ("standard", "swapped"):
        command = [sys.executable, *sys.argv, "--mn-offsets", variant]
        subprocess.run(command, check=False)
    sys.exit(0)

if args.mn_offsets == "swapped" or args.tf32_copy_k != "4":
    # A fresh cache: the on-disk program cache keys irkit's source files,
    # not these patches.
    os.environ["IRKIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="irkit-wgmma-")

import irkit  # noqa: E402
from irkit.dialects import mma  # noqa: E402
from irkit.transforms import convert_linalg_to_mma  # noqa: E402

convert_linalg_to_mma.TF32_TRANSPOSE_K = int(args.tf32_copy_k)

if args.mn_offsets == "swapped":
    standard_offsets = mma.mn_major_descriptor_offsets

    def swapped_offsets(panel_bytes: int) -> tuple[int, int]:
        leading, stride = standard_offsets(panel_bytes)
        return stride, leading

    mma.mn_major_descriptor_offsets = swapped_offsets

sys.path.insert(0, "benchmarks")
from gpu import median_ms, relative_error  # noqa: E402

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "tf32": torch.float32}
# Exact products summed in f32 in another order than the float64 reference.
TOLERANCE = 1e-3
# TF32 products against either reference: a wrong operand is off by far more.
TF32_TOLERANCE = 5e-3


def program(n: int, kind: str, layout: str) -> str:
    """C = A B (f32) of n x n `kind` operands (tf32: f32), B stored as
    `layout`."""
    element = "f32" if kind == "tf32" else kind
    t = f"tensor<{n}x{n}x{element}>"
    c = f"tensor<{n}x{n}xf32>"
    b_map = "(d2, d1)" if layout == "kn" else "(d1, d2)"
    widen = (
        ""
        if element == "f32"
        else f"    %xf = arith.extf %x : {element} to f32\n"
        f"    %yf = arith.extf %y : {element} to f32\n"
    )
    x, y = ("%x", "%y") if element == "f32" else ("%xf", "%yf")
    return f"""
func.func @main(%a: {t}, %b: {t}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : {c}
  %init = linalg.fill ins(%zero : f32) outs(%empty : {c}) -> {c}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
      affine_map<(d0, d1, d2) -> {b_map}>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %b : {t}, {t}) outs(%init : {c}) {{
  ^bb0(%x: {element}, %y: {element}, %acc: f32):
{widen}    %p = arith.mulf {x}, {y} : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> {c}
  return %r : {c}
}}
"""


def pipeline(config: str, kind: str, tiles: str = "partial") -> str:
    copies = args.tf32_b == "copies" or args.tf32_copy_k != "4"
    tf32 = (
        f" allow-tf32=true{' tf32-transpose-b=false' if copies else ''}"
        if kind == "tf32"
        else ""
    )
    if tiles == "padded":
        tf32 += " mma-partial-tiles=false"
    if config == "mma":
        return f"lower-to-cuda{{wgmma=false{tf32}}}"
    block, stages = config.split("/")
    return f"lower-to-cuda{{wgmma=true wgmma-block={block} mma-stages={stages}{tf32}}}"


def tf32_operands(x: torch.Tensor, rounded: bool) -> torch.Tensor:
    """`x` (f32) as TF32, in float64: truncated (the low 13 mantissa bits
    dropped) or rounded to nearest, ties away (`cvt.rna`)."""
    bits = x.contiguous().view(torch.int32)
    if rounded:
        bits = bits + (1 << 12)
    return (bits & ~((1 << 13) - 1)).view(torch.float32).double()


def cublas_tf32(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    torch.backends.cuda.matmul.allow_tf32 = True
    try:
        return torch.matmul(a, b)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False


def kernel_kinds(compiled: object) -> str:
    """Which product the compiled program's source uses."""
    source = getattr(getattr(compiled, "unit", None), "source", "")
    if "wgmma.mma_async" in source:
        return "wgmma"
    if "mma.sync" in source:
        return "mma.sync"
    return "SIMT"


def main() -> None:
    g = torch.Generator(device="cuda").manual_seed(0)
    print(
        f"descriptor offsets: {args.mn_offsets}; tf32 B {args.tf32_b}, copies of "
        f"{args.tf32_copy_k} k a warp; device {torch.cuda.get_device_name()}"
    )
    print(
        "| size | type | B | config | kernel | ms | TFLOP/s | vs cuBLAS | rel. error |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    failures = 0
    torch.backends.cuda.matmul.allow_tf32 = False
    for element in args.types.split(","):
        dtype = DTYPES[element]
        tf32 = element == "tf32"
        for n in [int(s) for s in args.sizes.split(",")]:
            for layout in args.layouts.split(","):
                a = (torch.rand((n, n), generator=g, device="cuda") * 2 - 1).to(dtype)
                b = (torch.rand((n, n), generator=g, device="cuda") * 2 - 1).to(dtype)
                b_kn = b if layout == "kn" else b.t()
                expected = a.double() @ b_kn.double()
                # Truncated and rounded TF32 operands' products (tf32 only).
                as_tf32 = [
                    tf32_operands(a, rounded) @ tf32_operands(b_kn, rounded)
                    for rounded in (False, True)
                ]
                multiply = cublas_tf32 if tf32 else torch.matmul
                reference: Callable[[], object] = lambda: multiply(a, b_kn)  # noqa: E731
                cublas = median_ms(reference, args.repeats)
                flops = 2 * n**3 / 1e9
                print(
                    f"| {n} | {element} | {layout} | cuBLAS | - | {cublas:.3f} | "
                    f"{flops / cublas:.0f} | 1.00 | - |"
                )
                if tf32 and layout == "kn":
                    # The other way to a K-major B: a transpose kernel
                    # first (then the `nk` kernel): what it would add.
                    transpose = median_ms(lambda: b.t().contiguous(), args.repeats)
                    print(
                        f"| {n} | {element} | {layout} | B transposed (torch) | - | "
                        f"{transpose:.3f} | - | - | - |"
                    )
                for config, tiles in [
                    (config, tiles)
                    for config in args.configs.split(";")
                    for tiles in args.tiles.split(",")
                ]:
                    label = config if tiles == "partial" else f"{config} {tiles}"
                    try:
                        f = irkit.compile(
                            program(n, element, layout),
                            target="cuda",
                            pipeline=pipeline(config, element, tiles),
                        )
                        (out,) = f(a, b)
                        if tf32:
                            truncated, rounded = (
                                relative_error(out, product) for product in as_tf32
                            )
                            failed = min(truncated, rounded) > TF32_TOLERANCE
                            error_text = f"trunc {truncated:.1e} / rna {rounded:.1e}"
                        else:
                            error = relative_error(out, expected)
                            failed = error > TOLERANCE
                            error_text = f"{error:.1e}"
                        ms = median_ms(lambda: f(a, b), args.repeats)
                        verdict = " FAIL" if failed else ""
                        failures += failed
                        print(
                            f"| {n} | {element} | {layout} | {label} | "
                            f"{kernel_kinds(f)} | {ms:.3f} | {flops / ms:.0f} | "
                            f"{cublas / ms:.2f} | {error_text}{verdict} |"
                        )
                    except Exception as exc:  # one failure must not end the run
                        failures += 1
                        print(
                            f"| {n} | {element} | {layout} | {label} | failed: {exc} |"
                        )
    print(f"{failures} failure(s)")


if __name__ == "__main__":
    main()
