"""Named pipelines: `lower-to-c` (and, later, `lower-to-cuda`).

A named pipeline is a pass whose options choose a list of stages. `irkit-opt`
and `irkit.compile` expand it into those stages (`NamedPipeline.stages`), so
`--print-ir-after-all` shows every level and `--check-semantics` checks every
stage on its own, with verification at each boundary. Applied as a single pass
(e.g. from stock `xdsl-opt`), it runs the stages in order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from irkit.transforms import get_irkit_passes


def _stage(name: str, **options: object) -> ModulePass:
    return get_irkit_passes()[name]()(**options)


class NamedPipeline(ModulePass, ABC):
    """A pass that stands for a list of passes chosen by its options."""

    @abstractmethod
    def stages(self) -> list[ModulePass]:
        """The passes this pipeline runs, in order."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for stage in self.stages():
            stage.apply(ctx, op)


@dataclass(frozen=True)
class LowerToCPipeline(NamedPipeline):
    """From the tensor level (`nn`, or `linalg` on tensors) to C-ready loops.

    Stages: `convert-nn-to-linalg` (a no-op on upstream input),
    `linalg-generalize-named-ops`, `linalg-fuse-elementwise` (unless
    `fuse=false`), `bufferize`, `convert-linalg-to-loops`. The output is what
    the C target prints: `func.func`s over memrefs following `docs/abi.md`,
    with `scf` loops, `memref` and `arith`/`math` ops.
    """

    name = "lower-to-c"

    fuse: bool = True

    def stages(self) -> list[ModulePass]:
        names = ["convert-nn-to-linalg", "linalg-generalize-named-ops"]
        if self.fuse:
            names.append("linalg-fuse-elementwise")
        names += ["bufferize", "convert-linalg-to-loops"]
        return [_stage(name) for name in names]
