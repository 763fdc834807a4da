"""The targets irkit compiles for: the one list that the runtime, the tuner
and both tools read (`get_target`, `TARGETS`). A new target is one more
entry here (see `irkit.targets.target`)."""

from __future__ import annotations

from irkit.diagnostics import IRKitError
from irkit.targets.c import emit_c
from irkit.targets.cuda import describe_plans, emit_cuda
from irkit.targets.target import Target

# What `tune=True` times on each target: the default first, then tile sizes
# (cache and register tiles on the CPU; block and thread tiles, cyclic or
# blocked, and threads per row on the GPU).
CPU_TUNING_CANDIDATES = (
    "lower-to-c",
    # Where the host packs matmuls (vectors of 512 bits), the tile options
    # below change nothing: the unpacked tiles are the alternative there.
    "lower-to-c{pack=false}",
    "lower-to-c{matmul-tile-sizes=32,256,64}",
    "lower-to-c{matmul-tile-sizes=64,128,128}",
    "lower-to-c{register-tile-sizes=4,8,0}",
    "lower-to-c{register-tile-sizes=2,16,0}",
)
GPU_TUNING_CANDIDATES = (
    "lower-to-cuda",
    "lower-to-cuda{matmul-block=64,64,16 matmul-thread=4,4}",
    "lower-to-cuda{matmul-block=64,64,16 matmul-thread=4,4 matmul-cyclic=false}",
    "lower-to-cuda{matmul-block=128,128,8 matmul-thread=8,8}",
    "lower-to-cuda{matmul-block=128,128,16 matmul-thread=8,4}",
    "lower-to-cuda{matmul-block=128,32,32 matmul-thread=4,4 matmul-cyclic=false}",
    "lower-to-cuda{reduction-block=128}",
    "lower-to-cuda{reduction-block=256}",
    "lower-to-cuda{reduction-block=1024}",
)

# The element types both printers handle (NumPy names).
SCALAR_DTYPES = (
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "bool",
)

C = Target(
    name="c",
    description="C99 for the host CPU: the system C compiler, loaded with ctypes",
    pipeline="lower-to-c",
    tuning_candidates=CPU_TUNING_CANDIDATES,
    dtypes=SCALAR_DTYPES,
    emit=emit_c,
    source=lambda unit: unit.source,
    loader="irkit.runtime.cpu:load_function",
    hardware="irkit.runtime.cpu:host_hardware",
    hardware_options=(
        ("vector-bits", "vector_bits"),
        ("vector-registers", "vector_registers"),
        ("l1-cache-bytes", "l1_cache_bytes"),
        ("l2-cache-bytes", "l2_cache_bytes"),
        ("l3-cache-bytes", "l3_cache_bytes"),
    ),
)

CUDA = Target(
    name="cuda",
    description="CUDA C for NVIDIA GPUs: NVRTC (or nvcc), run through cuda-python",
    pipeline="lower-to-cuda",
    tuning_candidates=GPU_TUNING_CANDIDATES,
    dtypes=SCALAR_DTYPES,
    emit=emit_cuda,
    source=lambda unit: unit.source + "\n" + describe_plans(unit),
    loader="irkit.runtime.cuda:load_cuda_function",
    availability="irkit.runtime.cuda:gpu_unavailable_reason",
    machine="irkit.runtime.cuda:device_identity",
    hardware="irkit.runtime.cuda:device_hardware",
    uses_graphs=True,
    hardware_options=(
        ("warp-size", "warp_size"),
        ("max-threads-per-block", "max_threads_per_block"),
        ("registers-per-block", "registers_per_block"),
        ("max-shared-bytes", "shared_memory_per_block"),
        ("max-dynamic-shared-bytes", "shared_memory_per_block_optin"),
        ("multiprocessors", "multiprocessors"),
        ("wgmma", "warpgroup_mma"),
    ),
    tf32_option="allow-tf32",
)

TARGETS: dict[str, Target] = {target.name: target for target in (C, CUDA)}


def get_target(name: str) -> Target:
    """The target called `name`, or an error listing the others."""
    if name not in TARGETS:
        raise IRKitError(f"unknown target '{name}' (available: {', '.join(TARGETS)})")
    return TARGETS[name]
