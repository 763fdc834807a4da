"""irkit's dialects: its own (`nn`) and its extensions of upstream MLIR dialects.

An extension keeps the upstream dialect's name and MLIR's exact syntax, and
replaces xDSL's definition inside irkit's context (see `irkit.context`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.ir import Dialect

# Importing irkit's affine dialect makes every `affine_map<...>` print as MLIR's.
import irkit.dialects.affine

# Importing irkit's arith dialect declares the effects xDSL leaves out.
import irkit.dialects.arith  # noqa: F401

# dialect name -> (module, attribute) of its `Dialect` object.
_DIALECTS: dict[str, tuple[str, str]] = {
    "nn": ("irkit.dialects.nn", "NN"),
    "tensor": ("irkit.dialects.tensor", "Tensor"),
    "arith": ("irkit.dialects.arith", "Arith"),
    "linalg": ("irkit.dialects.linalg", "Linalg"),
    "scf": ("irkit.dialects.scf", "Scf"),
    "affine": ("irkit.dialects.affine", "Affine"),
    "memref": ("irkit.dialects.memref", "MemRef"),
    "gpu": ("irkit.dialects.gpu", "GPU"),
    "mma": ("irkit.dialects.mma", "MMA"),
    "vector": ("irkit.dialects.vector", "Vector"),
}

# Dialects that are irkit's own (not extensions of an upstream dialect); only
# these are offered to stock `xdsl-opt`, which refuses duplicate dialect names.
OWN_DIALECTS: frozenset[str] = frozenset({"nn"})


def _loader(module: str, attribute: str) -> Callable[[], Dialect]:
    def load() -> Dialect:
        return getattr(import_module(module), attribute)

    return load


def get_irkit_dialects() -> dict[str, Callable[[], Dialect]]:
    """Factories for every irkit dialect, keyed by dialect name."""
    return {name: _loader(*where) for name, where in _DIALECTS.items()}
