"""irkit's `xdsl.universe` entry point: stock `xdsl-opt` sees irkit's own
dialects and passes.

Upstream-dialect extensions (irkit's `linalg`, `tensor`, ...) are only in
irkit's own tools: xDSL refuses two dialects of the same name.
"""

from __future__ import annotations

from xdsl.universe import Universe

from irkit.dialects import OWN_DIALECTS, get_irkit_dialects
from irkit.transforms import get_irkit_passes

IRKIT_UNIVERSE = Universe(
    all_dialects={
        name: factory
        for name, factory in get_irkit_dialects().items()
        if name in OWN_DIALECTS
    },
    all_passes=get_irkit_passes(),
)
