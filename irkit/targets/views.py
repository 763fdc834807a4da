"""A memref in C: a view of a buffer, and the index arithmetic it is built of.

A `View` is what a memref value is while a function prints: the C name of a
base pointer, an element offset, sizes and strides. Each quantity is an
`Index`: a static int, or the name (or expression) of an `int64_t` the
printed code computes. `index_add` and `index_mul` fold static parts, so a
load from a static layout prints as `p[i * 64 + j]` and one from a dynamic
subview as `p[view_offset + i * view_stride + j]`. Views are only
rewritten, never materialised: subviews, casts and reshapes make new views
of the same pointer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from irkit.targets.language import IDENTIFIER

# An index quantity of a view: a static value or the name of an int64_t local.
Index = int | str

# MLIR's marker for a dynamic value in a static list (sizes, offsets, strides).
DYNAMIC = -(2**63)


def _atom(expr: str) -> str:
    """`expr` parenthesised unless it is an identifier or a literal."""
    if IDENTIFIER.fullmatch(expr) or re.fullmatch(r"[0-9]+", expr):
        return expr
    return f"({expr})"


def index_literal(value: int) -> str:
    """An `int64_t` literal (negative ones parenthesised)."""
    if value == -(2**63):
        return "INT64_MIN"
    text = str(value) if -(2**31) < value < 2**31 else f"INT64_C({value})"
    return f"({text})" if value < 0 else text


def index_add(lhs: Index, rhs: Index) -> Index:
    """`lhs + rhs`, folded where static."""
    if isinstance(lhs, int) and isinstance(rhs, int):
        return lhs + rhs
    if lhs == 0:
        return rhs
    if rhs == 0:
        return lhs
    return f"{index_text(lhs)} + {index_text(rhs)}"


def index_mul(lhs: Index, rhs: Index) -> Index:
    """`lhs * rhs`, folded where static (0 and 1 too)."""
    if isinstance(lhs, int) and isinstance(rhs, int):
        return lhs * rhs
    if lhs == 0 or rhs == 0:
        return 0
    if lhs == 1:
        return rhs
    if rhs == 1:
        return lhs
    return f"{_atom(index_text(lhs))} * {_atom(index_text(rhs))}"


def index_text(value: Index) -> str:
    """`value` as a C expression."""
    return index_literal(value) if isinstance(value, int) else value


@dataclass(frozen=True)
class View:
    """A memref in C: base pointer, element offset, sizes and strides."""

    pointer: str
    element_key: str
    sizes: tuple[Index, ...]
    strides: tuple[Index, ...]
    offset: Index
    read_only: bool

    def element(self, indices: Sequence[str]) -> str:
        """The C lvalue of the element at `indices`."""
        linear: Index = self.offset
        for index, stride in zip(indices, self.strides, strict=True):
            linear = index_add(linear, index_mul(index, stride))
        return f"{self.pointer}[{index_text(linear)}]"

    def is_contiguous(self) -> bool:
        """Row-major with static sizes and no gaps (a `memcpy` copies it)."""
        expected = 1
        for size, stride in reversed(list(zip(self.sizes, self.strides))):
            if not isinstance(size, int) or stride != expected:
                return False
            expected *= size
        return True
