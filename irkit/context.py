"""The `Context` every irkit tool parses into: upstream dialects plus irkit's."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import get_all_dialects

from irkit.dialects import get_irkit_dialects


def make_context(*, allow_unregistered: bool = False) -> Context:
    """A context with all of xDSL's dialects, irkit's replacing same-named ones."""
    ctx = Context(allow_unregistered=allow_unregistered)
    dialects = get_all_dialects() | get_irkit_dialects()
    for name, factory in dialects.items():
        ctx.register_dialect(name, factory)
    return ctx
