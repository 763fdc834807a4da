"""irkit's `xdsl.universe` entry point: stock `xdsl-opt` sees irkit's own
dialects and passes.

Upstream-dialect extensions (irkit's `linalg`, `tensor`, ...) and passes that
replace an xDSL pass of the same name (`convert-linalg-to-loops`) are only in
irkit's own tools: xDSL refuses two dialects or passes of the same name, so
inside stock `xdsl-opt` xDSL's own version of those runs.
"""

from __future__ import annotations

from xdsl.transforms import get_all_passes
from xdsl.universe import Universe

from irkit.dialects import OWN_DIALECTS, get_irkit_dialects
from irkit.transforms import get_irkit_passes

IRKIT_UNIVERSE = Universe(
    all_dialects={
        name: factory
        for name, factory in get_irkit_dialects().items()
        if name in OWN_DIALECTS
    },
    all_passes={
        name: factory
        for name, factory in get_irkit_passes().items()
        if name not in get_all_passes()
    },
)
