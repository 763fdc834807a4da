"""A target: where compiled programs run, and everything irkit knows of it.

A `Target` gathers what used to be spread over the runtime, the tuner and
both tools as `target == "cuda"` branches: its name, the element types its
printer handles, its default pipeline and tuning candidates, its printer
(`emit`, and `source` for what `irkit-opt -t NAME` prints), its loader and its
hardware facts. `irkit.targets.registry` lists the targets; everything that
takes a target name looks it up there, so a new target (HIP, Metal) is one
printer module, one loader and one registry line.

The loader belongs to the runtime (it builds and loads code), which sits
above the targets in irkit's layers (`docs/architecture.md`), so a target
names its loader as `"module:function"` and the runtime imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from irkit.analysis.memory import DEFAULT_CACHE_BYTES
from irkit.diagnostics import IRKitError


@dataclass(frozen=True)
class GpuHardware:
    """What kernels may use on one GPU: the facts passes and the runtime
    need, read from the device when one is present (`Target.hardware`)."""

    name: str
    architecture: str  # as compilers name it: sm_90
    warp_size: int
    max_threads_per_block: int
    # Shared memory a block gets without asking, and with the opt-in
    # attribute the runtime sets for launches that need more.
    shared_memory_per_block: int
    shared_memory_per_block_optin: int
    registers_per_block: int
    multiprocessors: int
    # Warp-level matrix-multiply shapes (m, n, k) per operand type.
    mma_shapes: tuple[tuple[str, tuple[int, int, int]], ...] = ()
    # The architecture-specific target (PTX's `a` suffix: sm_90a) whose
    # instructions only this architecture has, or "" where there is none:
    # kernels using them (`wgmma`) are compiled for it.
    architecture_specific: str = ""
    # Warpgroup matrix multiplies (`wgmma.mma_async`, sm_90a): f16/bf16
    # matmuls (and f32 ones as TF32, where allowed) read their operands
    # straight from shared memory (`convert-linalg-to-mma{wgmma}`).
    warpgroup_mma: bool = False


# The H100 SXM the project measures on: what the CUDA target assumes when
# no device is there to ask (printing and compiling need none).
H100 = GpuHardware(
    name="NVIDIA H100 80GB HBM3",
    architecture="sm_90",
    warp_size=32,
    max_threads_per_block=1024,
    shared_memory_per_block=48 * 1024,
    shared_memory_per_block_optin=227 * 1024,
    registers_per_block=65536,
    multiprocessors=132,
    mma_shapes=(("f16", (16, 8, 16)), ("bf16", (16, 8, 16)), ("tf32", (16, 8, 8))),
    architecture_specific="sm_90a",
    warpgroup_mma=True,
)


@dataclass(frozen=True)
class CpuHardware:
    """The host CPU's vector unit, as the C compiler builds for it
    (`-march=native`), and its data caches: what sizes the matmul
    micro-kernel's register tile and the packed blocks around it
    (`linalg-pack-operands`). Read from the host (`Target.hardware`)."""

    name: str
    vector_bits: int  # the widest vector registers the compiler uses
    vector_registers: int  # how many of them
    # Data cache sizes in bytes: L1 and L2 of one core, L3 as a whole (what
    # the cores running one program share). Defaults: `DEFAULT_CACHE_BYTES`.
    l1_cache_bytes: int = DEFAULT_CACHE_BYTES[0]
    l2_cache_bytes: int = DEFAULT_CACHE_BYTES[1]
    l3_cache_bytes: int = DEFAULT_CACHE_BYTES[2]


# What the C target assumes when the host cannot be asked: x86-64 with AVX2
# (sixteen 256-bit registers), as on every x86 server since 2013.
AVX2 = CpuHardware(name="x86-64 AVX2", vector_bits=256, vector_registers=16)


def _option_text(value: object) -> str:
    """A hardware fact as a pipeline option's value (booleans as MLIR
    writes them: `true`, `false`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def resolve(reference: str) -> Any:
    """The object a `"module:attribute"` reference names (imported now)."""
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class Target:
    """One target (see the module doc).

    The hooks that need the runtime (loading code, asking the device) are
    `"module:function"` references, imported when first used.
    """

    name: str
    description: str
    pipeline: str  # the default lowering of tensor-level input
    tuning_candidates: tuple[str, ...]  # what `tune=True` times, first = default
    # NumPy names of the element types the printer handles.
    dtypes: tuple[str, ...]
    emit: Callable[[ModuleOp], Any]  # the printer: module -> translation unit
    source: Callable[[Any], str]  # what `irkit-opt -t NAME` prints of a unit
    # (unit, symbol, *, cache, names, checked, graphs) -> a callable function
    loader: str
    # () -> why no program can run here now, or None; checked before
    # lowering, so a missing GPU is one clear error instead of a late one.
    availability: str | None = None
    # () -> what compiled code and tuning choices depend on besides the
    # program (the GPU's architecture; the C build keys its own machine).
    machine: str | None = None
    # () -> GpuHardware of the device (or the default device's), or the
    # host CPU's CpuHardware.
    hardware: str | None = None
    uses_graphs: bool = False  # takes the `graphs` option of irkit.compile
    # Options of the target's pipeline that carry the device's facts:
    # (option name, `GpuHardware` or `CpuHardware` field). Passes read
    # hardware facts from these options, never from constants of their own.
    hardware_options: tuple[tuple[str, str], ...] = ()
    # The option of the target's pipeline that lets f32 matmuls round their
    # operands to TF32 on tensor cores (`irkit.compile(..., allow_tf32=True)`);
    # None: the target's f32 matmuls are always exact.
    tf32_option: str | None = None

    def load(self, unit: Any, symbol: str, **options: Any) -> Any:
        """Build (or find) `unit`'s code and return `@symbol`, callable."""
        if not self.uses_graphs:
            options.pop("graphs", None)
        return resolve(self.loader)(unit, symbol, **options)

    def unavailable_reason(self) -> str | None:
        return None if self.availability is None else resolve(self.availability)()

    def machine_identity(self) -> list[str]:
        return [] if self.machine is None else list(resolve(self.machine)())

    def hardware_facts(self) -> GpuHardware | CpuHardware | None:
        return None if self.hardware is None else resolve(self.hardware)()

    def _named_options(self, pipeline: str) -> list[str] | None:
        """The options of `pipeline` when it is the target's named pipeline
        (`lower-to-cuda` or `lower-to-cuda{...}`), else None."""
        text = pipeline.strip()
        name = self.pipeline
        if text == name:
            return []
        if text.startswith(name + "{") and text.endswith("}"):
            return text[len(name) + 1 : -1].split()
        return None

    def _with_options(self, pipeline: str, defaults: dict[str, str]) -> str:
        """`pipeline` (the target's named pipeline) with `defaults` as its
        options where it does not set them itself."""
        options = self._named_options(pipeline)
        if options is None:
            return pipeline
        given = {option.split("=")[0] for option in options}
        filled = [
            f"{key}={value}" for key, value in defaults.items() if key not in given
        ]
        if not filled:
            return pipeline
        return f"{self.pipeline}{{{' '.join([*options, *filled])}}}"

    def with_hardware(self, pipeline: str) -> str:
        """`pipeline` with the device's facts as options of the target's
        named pipeline (`lower-to-cuda{... warp-size=32 ...}`) where it does
        not set them itself; any other pipeline is returned as it is."""
        if not self.hardware_options or self._named_options(pipeline) is None:
            return pipeline
        facts = self.hardware_facts()
        if facts is None:
            return pipeline
        return self._with_options(
            pipeline,
            {
                option: _option_text(getattr(facts, field))
                for option, field in self.hardware_options
            },
        )

    def allowing_tf32(self, pipeline: str) -> str:
        """`pipeline` letting f32 matmuls run on TF32 tensor cores: the
        target's named pipeline with `tf32_option` on (unless it sets the
        option itself). A target without TF32 computes f32 exactly, which
        the allowance permits: its pipeline is returned as it is. Any other
        pipeline is refused: it must say so itself."""
        if self.tf32_option is None or not pipeline.strip():
            return pipeline
        if self._named_options(pipeline) is None:
            raise IRKitError(
                f"allow_tf32 applies to the {self.name} target's pipeline "
                f"'{self.pipeline}': a pipeline of your own turns TF32 on with "
                f"its own options (`{self.pipeline}{{{self.tf32_option}=true}}`, "
                "`convert-linalg-to-mma{tf32=true}`)"
            )
        return self._with_options(pipeline, {self.tf32_option: "true"})
