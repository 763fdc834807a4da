"""The target registry: one list of targets that the runtime, the tuner and
the tools read; a new target is one more entry."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import irkit
from irkit.pass_manager import Pipeline
from irkit.runtime.program_cache import LOADED
from irkit.runtime.tuning import CANDIDATES
from irkit.targets import registry
from irkit.targets.target import AVX2, H100, CpuHardware, GpuHardware

MLP = (Path(__file__).parents[2] / "examples" / "mlp.mlir").read_text()


def test_every_target_names_pipelines_that_parse() -> None:
    for target in registry.TARGETS.values():
        Pipeline.parse(target.pipeline)
        assert target.tuning_candidates[0] == target.pipeline
        for candidate in target.tuning_candidates:
            Pipeline.parse(candidate)
        assert CANDIDATES[target.name] == target.tuning_candidates


def test_an_unknown_target_lists_the_known_ones() -> None:
    with pytest.raises(
        irkit.IRKitError, match=r"unknown target 'hip' \(available: c, cuda\)"
    ):
        registry.get_target("hip")
    with pytest.raises(irkit.IRKitError, match="unknown target 'hip'"):
        irkit.compile(MLP, target="hip")


def test_the_cuda_target_knows_its_hardware_without_a_device() -> None:
    facts = registry.CUDA.hardware_facts()
    assert isinstance(facts, GpuHardware)
    if irkit.runtime.cuda.gpu_unavailable_reason() is not None:
        assert facts == H100
    assert facts.warp_size == 32
    host = registry.C.hardware_facts()
    assert isinstance(host, CpuHardware)
    assert host.vector_bits >= 128
    assert host.vector_registers >= 16


def test_the_hosts_vector_unit_comes_from_its_feature_flags() -> None:
    from irkit.runtime.cpu import vector_unit

    assert vector_unit({"avx2", "avx512f"}, "x86_64").vector_bits == 512
    assert vector_unit({"avx2", "fma"}, "x86_64") == AVX2
    assert vector_unit(set(), "aarch64").vector_registers == 32
    assert vector_unit(set(), "unknown") == AVX2
    filled = registry.C.with_hardware("lower-to-c")
    assert "vector-bits=" in filled
    assert "vector-registers=" in filled
    Pipeline.parse(filled)


def test_the_hosts_caches_come_from_sysfs(tmp_path: Path) -> None:
    from irkit.runtime.cpu import host_caches

    for index, (level, kind, size) in enumerate(
        [
            (1, "Data", "48K"),
            (1, "Instruction", "32K"),
            (2, "Unified", "1024K"),
            (3, "Unified", "32M"),
        ]
    ):
        folder = tmp_path / f"index{index}"
        folder.mkdir()
        (folder / "level").write_text(f"{level}\n")
        (folder / "type").write_text(f"{kind}\n")
        (folder / "size").write_text(f"{size}\n")
    assert host_caches(tmp_path) == {
        "l1_cache_bytes": 48 * 1024,
        "l2_cache_bytes": 1024 * 1024,
        "l3_cache_bytes": 32 * 1024 * 1024,
    }
    # Nothing described: every level keeps CpuHardware's default.
    assert host_caches(tmp_path / "missing") == {}


def test_a_new_target_is_one_registry_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A second host target built from the C target's parts, under its own name.
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(tmp_path / "cache"))
    LOADED.clear()
    host = dataclasses.replace(registry.C, name="host", description="C again")
    monkeypatch.setitem(registry.TARGETS, "host", host)
    compiled = irkit.compile(MLP, target="host")
    rng = np.random.default_rng(0)
    shapes = [(4, 16), (16, 32), (32,), (32, 10), (10,)]
    args = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
    (expected,) = irkit.interpret(MLP, "main", *args)
    np.testing.assert_allclose(compiled(*args)[0], expected, rtol=1e-5, atol=1e-6)
    LOADED.clear()


def test_the_devices_facts_fill_the_targets_pipeline() -> None:
    facts = registry.CUDA.hardware_facts()
    assert facts is not None
    filled = registry.CUDA.with_hardware("lower-to-cuda")
    assert filled == (
        f"lower-to-cuda{{warp-size={facts.warp_size} "
        f"max-threads-per-block={facts.max_threads_per_block} "
        f"registers-per-block={facts.registers_per_block} "
        f"max-shared-bytes={facts.shared_memory_per_block} "
        f"max-dynamic-shared-bytes={facts.shared_memory_per_block_optin} "
        f"multiprocessors={facts.multiprocessors} "
        f"wgmma={'true' if facts.warpgroup_mma else 'false'}}}"
    )
    Pipeline.parse(filled)
    # Options the caller gives win; other pipelines are left as they are.
    tuned = registry.CUDA.with_hardware(
        "lower-to-cuda{warp-size=16 reduction-block=128}"
    )
    assert tuned.startswith("lower-to-cuda{warp-size=16 reduction-block=128 ")
    assert "warp-size=32" not in tuned
    assert registry.CUDA.with_hardware("bufferize,cse") == "bufferize,cse"
    given = (
        "lower-to-c{vector-bits=256 vector-registers=16 l1-cache-bytes=32768 "
        "l2-cache-bytes=524288 l3-cache-bytes=4194304}"
    )
    assert registry.C.with_hardware(given) == given
    cpu = registry.C.hardware_facts()
    assert isinstance(cpu, CpuHardware)
    filled_c = registry.C.with_hardware("lower-to-c")
    assert f"l1-cache-bytes={cpu.l1_cache_bytes}" in filled_c
    assert f"l3-cache-bytes={cpu.l3_cache_bytes}" in filled_c
    Pipeline.parse(filled_c)


F32_MATMUL = """
func.func @main(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>)
      outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
"""


def _tf32_products(allow_tf32: bool) -> int:
    """TF32 products of `F32_MATMUL` lowered for the CUDA target: warp-level
    (`mma.sync {tf32}`) or, on the H100 the target assumes without a
    device, warpgroup products (`mma.warpgroup_mma {tf32}`)."""
    from irkit.dialects.mma import SyncOp, WarpgroupMmaOp
    from irkit.runtime import lower

    module = irkit.parse(F32_MATMUL)
    lower(module, None, "cuda", allow_tf32=allow_tf32)
    return sum(
        (isinstance(op, SyncOp) and op.rounds_to_tf32)
        or (isinstance(op, WarpgroupMmaOp) and op.reads_tf32)
        for op in module.walk()
    )


def test_allow_tf32_turns_on_the_targets_tf32_option() -> None:
    """`irkit.compile(..., allow_tf32=True)`'s lowering: off by default (f32
    matmuls stay exact SIMT kernels), on through the named pipeline's
    `allow-tf32`; the C target, exact either way, keeps its pipeline; a
    pipeline of the caller's own must say so itself."""
    assert _tf32_products(False) == 0
    assert _tf32_products(True) > 0
    assert registry.CUDA.allowing_tf32("lower-to-cuda") == (
        "lower-to-cuda{allow-tf32=true}"
    )
    assert registry.CUDA.allowing_tf32("lower-to-cuda{allow-tf32=false}") == (
        "lower-to-cuda{allow-tf32=false}"
    )
    assert registry.C.allowing_tf32("lower-to-c") == "lower-to-c"
    assert registry.CUDA.allowing_tf32("") == ""
    with pytest.raises(irkit.IRKitError, match="allow-tf32=true"):
        registry.CUDA.allowing_tf32("bufferize,cse")
    for candidate in registry.CUDA.tuning_candidates:
        Pipeline.parse(registry.CUDA.allowing_tf32(candidate))
