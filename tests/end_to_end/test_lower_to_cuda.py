"""Tensor programs through `lower-to-cuda`, compiled with NVRTC and run on a GPU.

The GPU twin of `test_lower_to_c.py`: every `nn` op (random programs focused
on it) and every torch-mlir corpus program is lowered with `lower-to-cuda`,
compiled, run on the device, and compared with the reference interpreter on
the original program (and, for the corpus, with PyTorch's results), with
per-dtype tolerances. The runtime poisons outputs, so an element no kernel
writes shows up as a mismatch.

These tests need a GPU (marker `gpu`; skipped without one, which CI has not).
Without a GPU the same pipeline is checked on the grid emulator
(`tests/properties/test_lower_to_cuda_pipeline.py`) and every kernel it
prints is compiled with nvcc (`tests/targets/test_cuda_corpus_compiles.py`).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from test_lower_to_c import (
    CASES,
    CORPUS,
    EXAMPLES_PER_OP,
    _assert_same,
    check_corpus_case_on_target,
    check_program_on_target,
)

import irkit
from irkit.dtypes import BFLOAT16, to_tf32, truncate_to_tf32
from irkit.runtime import AssertionFailure
from irkit.runtime.cuda import gpu_unavailable_reason
from irkit.targets.registry import get_target
from irkit.targets.target import GpuHardware
from irkit.testing import TF32_TOLERANCE
from irkit.testing.strategies import NN_OPS, nn_programs

GPU_REASON = gpu_unavailable_reason()
pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(GPU_REASON is not None, reason=str(GPU_REASON)),
]


@pytest.mark.parametrize("op", sorted(NN_OPS))
def test_every_nn_op_runs_on_the_gpu(op: str) -> None:
    @settings(max_examples=EXAMPLES_PER_OP, deadline=None)
    @given(nn_programs(max_ops=2, ops={op}).map(str))
    def lowered_cuda_matches_interpreter(program: str) -> None:
        check_program_on_target(program, "cuda")

    lowered_cuda_matches_interpreter()


@pytest.mark.parametrize("case", CASES)
def test_corpus_runs_on_the_gpu(case: str) -> None:
    check_corpus_case_on_target(case, "cuda")


def test_a_failed_assertion_in_a_kernel_raises() -> None:
    # torch-mlir's embedding checks its indices with cf.assert inside the
    # gather's body, which lower-to-cuda puts in a kernel.
    text = (CORPUS / "embedding.mlir").read_text()
    compiled = irkit.compile(text, target="cuda")
    good = np.array([[0, 1, 2], [3, 4, 5]], dtype=np.int64)
    (result,) = compiled(good)
    assert np.isfinite(result).all()
    bad = np.array([[0, 1, 2], [3, 4, 99]], dtype=np.int64)
    with pytest.raises(
        AssertionFailure,
        match="@embedding: assertion failed: index must be smaller than dim size",
    ):
        compiled(bad)
    # A reported failure is cleared: the next good call succeeds.
    (again,) = compiled(good)
    np.testing.assert_array_equal(again, result)


def test_a_failed_assertion_on_torch_tensors_raises_from_a_later_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On PyTorch CUDA tensors the call does not wait for the GPU: the status
    # word is copied to pinned host memory at the end of each run and read
    # by the next call, as PyTorch reports device-side assertions.
    torch = pytest.importorskip("torch")
    text = (CORPUS / "embedding.mlir").read_text()
    compiled = irkit.compile(text, target="cuda")
    good = torch.tensor([[0, 1, 2], [3, 4, 5]], dtype=torch.int64, device="cuda")
    bad = torch.tensor([[0, 1, 2], [3, 4, 99]], dtype=torch.int64, device="cuda")
    (expected,) = compiled(good)
    compiled(bad)  # queued; its failure is not known yet
    torch.cuda.synchronize()
    with pytest.raises(AssertionFailure, match=r"index must be smaller.*earlier call"):
        compiled(good)
    # Reported once, then cleared.
    (again,) = compiled(good)
    torch.testing.assert_close(again, expected, rtol=0, atol=0)
    # CUDA_LAUNCH_BLOCKING=1 raises from the failing call itself.
    monkeypatch.setenv("CUDA_LAUNCH_BLOCKING", "1")
    with pytest.raises(AssertionFailure, match="index must be smaller") as failure:
        compiled(bad)
    assert "earlier call" not in str(failure.value)
    (after,) = compiled(good)
    torch.testing.assert_close(after, expected, rtol=0, atol=0)


@pytest.mark.parametrize("shape", [(64, 64, 64), (37, 29, 23), (256, 128, 96)])
def test_matmul_with_partial_tiles_runs_on_the_gpu(shape: tuple[int, int, int]) -> None:
    m, k, n = shape
    program = f"""
func.func @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %c = nn.matmul %a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32> -> tensor<{m}x{n}xf32>
  return %c : tensor<{m}x{n}xf32>
}}"""
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    compiled = irkit.compile(program, target="cuda")
    _assert_same(compiled(a, b), irkit.interpret(irkit.parse(program), "main", a, b))


@pytest.mark.parametrize("element", ["f16", "bf16"])
@pytest.mark.parametrize(
    "shape",
    [(128, 128, 64), (256, 384, 96), (100, 200, 72), (1024, 1024, 1024), (37, 29, 23)],
    ids=lambda shape: "x".join(map(str, shape)),
)
def test_half_matmul_runs_on_tensor_cores(
    element: str, shape: tuple[int, int, int]
) -> None:
    """f16/bf16 matmuls into f32 against float64 products of the same
    inputs: on tensor cores (`convert-linalg-to-mma`: ldmatrix, mma.sync,
    cp.async; on sm_90a warpgroup products) where the operands' rows are
    16-byte multiples (K and N multiples of 8): 100x200x72 on partial
    tiles, unpadded (zero-filling copies or TMA boxes past the edges,
    guarded stores); 37x29x23 (odd K, rows of 46 bytes) would have to be
    padded past the growth bound, and stays on the SIMT kernels."""
    m, n, k = shape
    a_type, b_type = f"tensor<{m}x{k}x{element}>", f"tensor<{k}x{n}x{element}>"
    c_type = f"tensor<{m}x{n}xf32>"
    text = f"""
func.func @main(%a: {a_type}, %b: {b_type}) -> {c_type} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {c_type}
  %f = linalg.fill ins(%zero : f32) outs(%e : {c_type}) -> {c_type}
  %r = linalg.matmul ins(%a, %b : {a_type}, {b_type}) outs(%f : {c_type}) -> {c_type}
  return %r : {c_type}
}}"""
    compiled = irkit.compile(text, target="cuda", checked=True)
    source = compiled.unit.source
    warpgroup = "wgmma.mma_async" in source
    on_tensor_cores = "mma.sync.aligned.m16n8k16" in source or warpgroup
    assert on_tensor_cores == (k % 8 == 0 and n % 8 == 0)
    # On sm_90a the tensor-core matmuls are warpgroup products (K steps of
    # 64, the last one partial).
    facts = get_target("cuda").hardware_facts()
    assert isinstance(facts, GpuHardware)
    assert warpgroup == (on_tensor_cores and facts.warpgroup_mma)
    dtype = np.dtype(np.float16) if element == "f16" else BFLOAT16
    rng = np.random.default_rng(k)
    a = rng.uniform(-1, 1, (m, k)).astype(dtype)
    b = rng.uniform(-1, 1, (k, n)).astype(dtype)
    (result,) = compiled(a, b)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(result, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("element", ["f16", "bf16", "f32", "f32-copies"])
@pytest.mark.parametrize("b_layout", ["kn", "nk"])
@pytest.mark.parametrize(
    "config", ["128,256/4", "128,128/3", "64,64/2"], ids=lambda c: c.replace("/", "-")
)
def test_warpgroup_products_on_the_device(
    element: str, b_layout: str, config: str
) -> None:
    """The wgmma kernel on sm_90a against float64: B stored (k, n) (the
    N-major `transpose_b` descriptors) and (n, k) (K-major, as `nn.Linear`),
    128x256 blocks of two warpgroups four stages deep (a group of products
    left running into the next step), 128x128 on three, and 64x64 blocks of
    one warpgroup on two (each step's products retired in it), with a bias
    and a ReLU fused on the accumulators. f32 with `allow-tf32`: m64nNk8
    TF32 products, B stored (k, n) transposed once by a tiled transpose
    kernel (`f32-copies`: copied transposed by 4-byte copies,
    `tf32-transpose-b=false`), against the float64 product of the operands
    truncated to TF32 (as the tensor cores read them).
    `benchmarks/wgmma.py` times the same kernels."""
    facts = get_target("cuda").hardware_facts()
    if not (isinstance(facts, GpuHardware) and facts.warpgroup_mma):
        pytest.skip("the device has no warpgroup products (sm_90a)")
    copies = element == "f32-copies"
    element = "f32" if copies else element
    block, stages = config.split("/")
    # Enough blocks for the device (no tile shrunk to fill it, no split K),
    # five K steps: every buffer reused.
    m, n, k = 4096, 2048, 320
    b_shape = (k, n) if b_layout == "kn" else (n, k)
    widen = (
        ""
        if element == "f32"
        else f"    %xf = arith.extf %x : {element} to f32\n"
        f"    %yf = arith.extf %y : {element} to f32\n"
    )
    x, y = ("%x", "%y") if element == "f32" else ("%xf", "%yf")
    b_map = "(d2, d1)" if b_layout == "kn" else "(d1, d2)"
    a_type = f"tensor<{m}x{k}x{element}>"
    b_type = f"tensor<{b_shape[0]}x{b_shape[1]}x{element}>"
    c_type = f"tensor<{m}x{n}xf32>"
    text = f"""
func.func @main(%a: {a_type}, %b: {b_type}, %bias: tensor<{n}xf32>) -> {c_type} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {c_type}
  %f = linalg.fill ins(%zero : f32) outs(%e : {c_type}) -> {c_type}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
      affine_map<(d0, d1, d2) -> {b_map}>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %b : {a_type}, {b_type}) outs(%f : {c_type}) {{
  ^bb0(%x: {element}, %y: {element}, %acc: f32):
{widen}    %p = arith.mulf {x}, {y} : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> {c_type}
  %o = tensor.empty() : {c_type}
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}}
      ins(%r, %bias : {c_type}, tensor<{n}xf32>) outs(%o : {c_type}) {{
  ^bb0(%v: f32, %t: f32, %out: f32):
    %u = arith.addf %v, %t : f32
    %relu = arith.maximumf %u, %zero : f32
    linalg.yield %relu : f32
  }} -> {c_type}
  return %y : {c_type}
}}"""
    tf32 = element == "f32"
    pipeline = (
        f"lower-to-cuda{{wgmma=true wgmma-block={block} mma-stages={stages}"
        f"{' allow-tf32=true' if tf32 else ''}"
        f"{' tf32-transpose-b=false' if copies else ''}}}"
    )
    compiled = irkit.compile(text, target="cuda", pipeline=pipeline, checked=True)
    assert "wgmma.mma_async" in compiled.unit.source
    if tf32 and b_layout == "kn":
        assert ("cp.async.ca.shared.global" in compiled.unit.source) == copies
    assert ("k8.f32.tf32.tf32" in compiled.unit.source) == tf32
    dtype = {"f16": np.dtype(np.float16), "bf16": BFLOAT16, "f32": np.float32}
    rng = np.random.default_rng(m + k)
    a = rng.uniform(-1, 1, (m, k)).astype(dtype[element])
    b = rng.uniform(-1, 1, b_shape).astype(dtype[element])
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    (result,) = compiled(a, b, bias)
    if tf32:
        a, b = truncate_to_tf32(a), truncate_to_tf32(b)
    b_kn = b if b_layout == "kn" else b.T
    product = a.astype(np.float64) @ b_kn.astype(np.float64) + bias
    np.testing.assert_allclose(result, np.maximum(product, 0), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "shape",
    [(128, 128, 64), (256, 384, 96), (300, 200, 72), (1024, 1024, 1024)],
    ids=lambda shape: "x".join(map(str, shape)),
)
def test_f32_matmul_runs_on_tf32_tensor_cores_only_when_allowed(
    shape: tuple[int, int, int],
) -> None:
    """f32 matmuls with `allow_tf32=True` on the device's tensor cores
    (m16n8k8 tf32, or on sm_90a m64nNk8 warpgroup products: K = 72 as
    three K steps of 32, the last partial, and 300 rows as a partial last
    row of blocks, unpadded), against the product of the
    operands rounded as `cvt.rna.tf32.f32` rounds (`to_tf32`), or for
    warpgroup products truncated as the tensor cores read them from shared
    memory (`truncate_to_tf32`): close to it (sums in another order), and
    further from the exact f32 product. Without the option the kernel has
    no tensor-core instruction."""
    m, n, k = shape
    a_type, b_type = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>"
    c_type = f"tensor<{m}x{n}xf32>"
    text = f"""
func.func @main(%a: {a_type}, %b: {b_type}) -> {c_type} {{
  %c = nn.matmul %a, %b : {a_type}, {b_type} -> {c_type}
  return %c : {c_type}
}}"""
    exact = irkit.compile(text, target="cuda")
    assert "mma.sync" not in exact.unit.source
    compiled = irkit.compile(text, target="cuda", checked=True, allow_tf32=True)
    facts = get_target("cuda").hardware_facts()
    # Every shape here has rows of 16-byte multiples (K and N multiples of
    # 4): warpgroup products on partial tiles where K is not a multiple of 32.
    warpgroup = isinstance(facts, GpuHardware) and facts.warpgroup_mma and k % 4 == 0
    instruction = (
        "k8.f32.tf32.tf32" if warpgroup else "mma.sync.aligned.m16n8k8.row.col.f32.tf32"
    )
    assert instruction in compiled.unit.source
    rng = np.random.default_rng(k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    (result,) = compiled(a, b)
    as_tf32 = truncate_to_tf32 if warpgroup else to_tf32
    rounded = as_tf32(a).astype(np.float64) @ as_tf32(b).astype(np.float64)
    np.testing.assert_allclose(result, rounded, rtol=1e-4, atol=1e-4)
    rtol, atol = TF32_TOLERANCE
    # TF32_TOLERANCE's atol covers a few hundred products; the operands'
    # rounding errors add up as the square root of the reduction's length
    # (K = 1024 on the H100: 2 of 2^20 elements 0.0116 off).
    atol *= max(1.0, (k / 256) ** 0.5)
    np.testing.assert_allclose(
        result, a.astype(np.float64) @ b.astype(np.float64), rtol=rtol, atol=atol
    )


@pytest.mark.parametrize(
    ("shape", "perm"),
    [
        ((4096, 4096), (1, 0)),
        ((3000, 1000), (1, 0)),
        ((6, 37, 70), (0, 2, 1)),
        ((5, 33, 65), (2, 0, 1)),
    ],
    ids=lambda value: "x".join(map(str, value)),
)
def test_transposes_on_the_device(
    shape: tuple[int, ...], perm: tuple[int, ...]
) -> None:
    """Transposes as `linalg-tile-transposes-for-gpu` tiles them (ragged
    edges, batches on blocks z) against NumPy, with a scale fused."""
    source = f"tensor<{'x'.join(map(str, shape))}xf32>"
    result = f"tensor<{'x'.join(str(shape[p]) for p in perm)}xf32>"
    text = f"""
func.func @main(%x: {source}) -> {result} {{
  %t = nn.transpose %x perm [{", ".join(map(str, perm))}] : {source} -> {result}
  %y = nn.add %t, %t : {result}, {result} -> {result}
  return %y : {result}
}}"""
    compiled = irkit.compile(text, target="cuda", checked=True)
    assert "__syncthreads" in compiled.unit.source
    x = np.random.default_rng(len(shape)).uniform(-1, 1, shape).astype(np.float32)
    (y,) = compiled(x)
    np.testing.assert_array_equal(y, 2 * np.transpose(x, perm))
