"""How Hypothesis prints IR in a falsifying example: as IR text.

Hypothesis reports a failure by pretty-printing the example's arguments, and
prints a dataclass field by field. xDSL's operations, blocks, regions and
values are dataclasses linked both ways (parents, uses, next and previous
ops), so the printer walks a small module's object graph over and over:
10 to 30 minutes and gigabytes of memory, with no counterexample at the end.
Like IPython, Hypothesis first asks an object for `_repr_pretty_`;
`install_ir_printers()` (run on importing `irkit.testing`) gives xDSL's IR
classes one that prints their IR text, so a failing module reads as

    parse_module(
        '''
        builtin.module {
          ...
        }
        ''',
    )

`IRText` is a `str` that prints the same way: what `check_pass` hands its
test, so the counterexample is the exact text the pass was given.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue


def print_text_block(text: str, printer: Any) -> None:
    """`text` as a triple-quoted string, one of its lines per output line
    (rather than one line of `\\n` escapes: IR is read, and pasted into
    `irkit-opt`)."""
    printer.text("'''")
    for line in text.splitlines():
        printer.break_()
        printer.text(line)
    printer.break_()
    printer.text("'''")


class IRText(str):
    """IR text that Hypothesis prints as it reads, one IR line per line."""

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        print_text_block(self, printer)


def _ir_text(node: Operation | Block | Region) -> str | None:
    try:
        return str(node)
    except Exception:  # a half-rewritten op, say: print what is known instead
        return None


def _pretty_operation(op: Operation, printer: Any, cycle: bool) -> None:
    text = None if cycle else _ir_text(op)
    if text is None:
        printer.text(f"<{op.name} op>")
        return
    if isinstance(op, ModuleOp):
        # `irkit.parsing.parse_module(...)` rebuilds it: valid Python.
        printer.text("parse_module(")
        with printer.indent(4):
            printer.break_()
            print_text_block(text, printer)
            printer.text(",")
        printer.break_()
        printer.text(")")
        return
    printer.text(f"<{op.name} op: ")
    print_text_block(text, printer)
    printer.text(">")


def _pretty_nested(node: Block | Region, printer: Any, cycle: bool) -> None:
    kind = type(node).__name__.lower()
    text = None if cycle else _ir_text(node)
    if text is None:
        printer.text(f"<{kind}>")
        return
    printer.text(f"<{kind}: ")
    print_text_block(text, printer)
    printer.text(">")


def _pretty_value(value: SSAValue, printer: Any, cycle: bool) -> None:
    name = value.name_hint or "?"
    printer.text(f"<value %{name} : {value.type}>")


def install_ir_printers() -> None:
    """Give xDSL's IR classes the `_repr_pretty_` Hypothesis prints them with."""
    Operation._repr_pretty_ = _pretty_operation  # type: ignore[attr-defined]
    Block._repr_pretty_ = _pretty_nested  # type: ignore[attr-defined]
    Region._repr_pretty_ = _pretty_nested  # type: ignore[attr-defined]
    SSAValue._repr_pretty_ = _pretty_value  # type: ignore[attr-defined]
