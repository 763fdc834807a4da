"""irkit's passes and conversions, one per file, and their registry.

A conversion lives in `convert_<from>_to_<to>.py` and is the pass
`convert-<from>-to-<to>`; an in-dialect transform is `<dialect>-<verb>`.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass

# pass name -> (module, class). The name is the module's stem with '-' for '_'
# (a test checks this).
_PASSES: dict[str, tuple[str, str]] = {}


def _loader(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        return getattr(import_module(module), cls)

    return load


def get_irkit_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Factories for every irkit pass, keyed by pass name."""
    return {name: _loader(*where) for name, where in _PASSES.items()}
