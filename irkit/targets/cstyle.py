"""The walk shared by irkit's C-family printers (C and CUDA C).

Loop-level IR (`func`, `scf`, `memref`, `arith`, `math`, `affine`, `cf.assert`)
is printed as one C translation unit by a structured emitter in the manner of
MLIR's `TranslateToCpp.cpp`: `CStyleEmitter` holds what printing one module
needs (a code writer that owns indentation and braces, a scoped name table
copied on entering a function, loop or `if`, the symbols, the helpers
printed so far) and prints the module, its globals and its functions; every
other op goes through one dispatch table, op name -> printer function, whose
printers live by concern:

- `irkit.targets.cstyle_arith`: `arith`, `math` and `affine` scalar ops;
- `irkit.targets.cstyle_memory`: `memref` ops (views, loads, stores,
  allocations, copies);
- `irkit.targets.cstyle_control`: `scf` loops and ifs, `func.call` and
  `cf.assert`;
- `irkit.targets.cstyle_vector`: `vector` loads, stores, broadcasts and
  fused multiply-adds on 1-D vectors, in the language's vector types (GCC
  vector extensions in C);
- `irkit.targets.semantics`: the C of the helpers for MLIR semantics that C
  lacks (rounding divisions, over-wide shifts, saturating float to int, ...).

Everything that differs between C dialects (type names, `restrict`, the
function qualifier, math function names per float width, barriers, thread
indices, the shared-memory qualifier, the parallel-loop pragma) is data in a
`Language` (`irkit.targets.language`), never a branch in the walk (tinygrad's
`CStyleLanguage` / `CUDARenderer` split). A target with ops of its own
subclasses `CStyleEmitter` and extends `print_op` (CUDA's `gpu` ops).

How values are printed:
- every op result becomes a local variable `T name = expr;` (nothing is
  inlined, so no precedence table is needed and C's usual arithmetic
  conversions never apply to a shared subexpression); a result nothing uses
  is followed by `(void)name;` so `-Wall -Wextra -Werror` stays quiet;
- integers are stored in `intN_t` (`bool` for i1, `int64_t` for index);
  wrapping arithmetic is done in `uint32_t`/`uint64_t` and converted back,
  so no signed overflow is ever undefined; division, remainder, shifts and
  float-to-integer conversions go through small `static inline` helpers that
  give the interpreter's documented result where MLIR says poison or UB
  (division by zero is 0, `INT_MIN / -1` wraps, over-wide shifts give 0 or
  the sign fill, float-to-integer saturates and maps NaN to 0);
- f16 and bf16 are stored as the language's 16-bit type and computed in
  float: every op widens its operands and narrows its result (a cast, or
  for bf16 in C, which has no bf16 arithmetic type, `uint16_t` bits and the
  helpers `irkit_widen_bf16`/`irkit_narrow_bf16`, printed only into
  sources that use bf16), so each op rounds to the element type as the
  interpreter's does;
- a memref is a *view* (`irkit.targets.views`): the buffer's base pointer
  plus an element offset, sizes and strides, each a static int or the name
  of an `int64_t` local; a load is `p[offset + i * s0 + j * s1]` with static
  parts folded.

Names: SSA name hints become local names (`%sum` -> `sum`, `%0` -> `v0`),
made valid and unique and kept away from C keywords, the macros and library
functions the translation unit uses, and the helpers' `irkit_` prefix.
Symbols (`func.func`, `memref.global`) are mangled by `mangle_symbol`, which
keeps `[A-Za-z0-9_]` and writes every other byte as `_xHH_`, so no IR text can
put C syntax into the output; IR text never appears in comments either.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    UnitAttr,
    VectorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from irkit.abi import is_output_argument
from irkit.analysis.aliasing import reads_buffer
from irkit.diagnostics import DiagnosticError, location_of
from irkit.dtypes import (
    BFLOAT16,
    convert,
    dense_resource_to_array,
    dense_to_array,
)
from irkit.targets.cstyle_arith import ARITH_PRINTERS
from irkit.targets.cstyle_control import CONTROL_PRINTERS
from irkit.targets.cstyle_memory import MEMORY_PRINTERS
from irkit.targets.cstyle_vector import VECTOR_PRINTERS, vector_type_name
from irkit.targets.language import (
    HELPER_PREFIX,
    IDENTIFIER,
    Language,
    is_float,
    is_half,
    is_reserved,
    mangle_symbol,
    type_key,
    width_of,
)
from irkit.targets.semantics import HELPER_DEPENDENCIES, helper_body
from irkit.targets.views import DYNAMIC, Index, View, index_literal

__all__ = [
    "CStyleEmitter",
    "CodeWriter",
    "EmittedFunction",
    "EmittedModule",
    "Printer",
    "Scope",
]


# ---------------------------------------------------------------------------
# Writer, scopes, results
# ---------------------------------------------------------------------------


class CodeWriter:
    """Lines of C with indentation owned by `block()`."""

    INDENT = "    "

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._prefix = ""

    def line(self, text: str) -> None:
        self.lines.append(self._prefix + text if text else "")

    @contextmanager
    def indented(self) -> Iterator[None]:
        saved = self._prefix
        self._prefix += self.INDENT
        try:
            yield
        finally:
            self._prefix = saved

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        """`header {`, the body indented, `}`."""
        self.line(f"{header} {{" if header else "{")
        with self.indented():
            yield
        self.line("}")

    @contextmanager
    def else_block(self) -> Iterator[None]:
        """Continue the `if` block just closed with `} else {`."""
        assert self.lines
        assert self.lines[-1] == self._prefix + "}"
        self.lines[-1] = self._prefix + "} else {"
        with self.indented():
            yield
        self.line("}")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


@dataclass
class Scope:
    """What is visible at a point of the output: C names of values and views,
    and the identifiers already declared."""

    values: dict[SSAValue, str] = field(default_factory=dict[SSAValue, str])
    views: dict[SSAValue, View] = field(default_factory=dict[SSAValue, View])
    names: set[str] = field(default_factory=set[str])
    # What `malloc` returned for an aligned `memref.alloc` (the view points
    # past it, to the aligned address): what `memref.dealloc` frees.
    allocation_bases: dict[SSAValue, str] = field(default_factory=dict[SSAValue, str])

    def copy(self) -> Scope:
        return Scope(
            dict(self.values),
            dict(self.views),
            set(self.names),
            dict(self.allocation_bases),
        )


@dataclass(frozen=True)
class EmittedFunction:
    """What a caller of one printed function needs besides the source."""

    symbol: str
    c_name: str
    parameter_names: tuple[str, ...]
    assertions: tuple[str, ...]


@dataclass(frozen=True)
class EmittedModule:
    source: str
    functions: dict[str, EmittedFunction]


# How one op prints: a function of the emitter and the op (the printers of the
# shared ops are in cstyle_arith, cstyle_memory and cstyle_control).
Printer = Callable[["CStyleEmitter", Operation], None]
_PRINTERS: dict[str, Printer] = {
    **ARITH_PRINTERS,
    **MEMORY_PRINTERS,
    **CONTROL_PRINTERS,
    **VECTOR_PRINTERS,
}


_FLOAT_DTYPES = {
    "f16": np.dtype(np.float16),
    "bf16": BFLOAT16,
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}

# Marks a function's prototype in the writer's lines: `_assemble` moves the
# prototypes before every body, so calls may go either way.
_PROTOTYPE_MARK = "\x00prototype:"


def _terminator(block: Block) -> Operation | None:
    last = block.last_op
    if last is not None and last.has_trait(IsTerminator):
        return last
    return None


def _body_ops(block: Block) -> Iterator[Operation]:
    terminator = _terminator(block)
    for op in block.ops:
        if op is not terminator:
            yield op


class CStyleEmitter:
    """Prints one module; `emit()` returns the translation unit."""

    def __init__(self, language: Language, module: ModuleOp) -> None:
        self.language = language
        self.module = module
        self.writer = CodeWriter()
        self.scope = Scope()
        self.helpers: dict[str, str] = {}
        self.symbols: dict[str, str] = {}
        self.global_views: dict[str, View] = {}
        self.functions: dict[str, FuncOp] = {}
        self.assertions: tuple[str, ...] = ()
        self.assertion_status: dict[Operation, int] = {}
        self.variable_types: dict[str, str] = {}
        # The key `index` values are printed as: `index` (int64_t), or `i32`
        # in a CUDA kernel whose every index fits (`irkit.targets.cuda`).
        self.index_key = "index"
        self._counter = 0
        # Set inside a parallel loop nest: only the outermost gets the pragma.
        self.in_parallel_loop = False

    # -- errors ------------------------------------------------------------

    def error(self, op: Operation, message: str) -> DiagnosticError:
        return DiagnosticError(
            f"{self.language.target_name}: {message}", location_of(op)
        )

    def unprintable(self, op: Operation) -> DiagnosticError:
        return DiagnosticError(
            f"{self.language.target_name} cannot print op '{op.name}'",
            location_of(op),
        )

    # -- types -------------------------------------------------------------

    def key_of(self, mlir_type: Attribute, op: Operation) -> str:
        key = type_key(mlir_type)
        if key is None:
            raise self.error(op, f"unsupported type {mlir_type}")
        return self.index_key if key == "index" else key

    def type_name(self, key: str) -> str:
        return self.language.type_name(self.index_key if key == "index" else key)

    def value_type_name(self, mlir_type: Attribute, op: Operation) -> str:
        """The C type of a value of `mlir_type`: a scalar's, or a vector's
        typedef (`irkit.targets.cstyle_vector`)."""
        if isinstance(mlir_type, VectorType):
            return vector_type_name(self, mlir_type, op)
        return self.type_name(self.key_of(mlir_type, op))

    def compute_name(self, key: str) -> str:
        """The type arithmetic on `key` is done in (f16 and bf16 widen)."""
        return self.language.compute_type_name(
            self.index_key if key == "index" else key
        )

    def widen(self, key: str, expr: str) -> str:
        """`expr` of type `key` as its compute type (exact; halves only)."""
        if not is_half(key):
            return expr
        if key in self.language.helper_converted:
            return f"{self.helper('widen', key)}({expr})"
        return f"({self.language.half_compute_type}){expr}"

    def narrow(self, key: str, expr: str, source: str = "f32") -> str:
        """`expr` of the compute type (or of float `source`, which is
        wider only for f64 and the integers) rounded once to `key`."""
        if not is_half(key):
            return expr
        if key in self.language.helper_converted:
            # From f64 or a 32/64-bit integer, through float would round
            # twice: the helper from double rounds once.
            wide = None if source in ("f32", "f16", "i1", "i8", "i16") else "f64"
            return f"{self.helper('narrow', key, wide)}({expr})"
        return f"({self.type_name(key)})({expr})"

    # -- names -------------------------------------------------------------

    def reserved(self) -> frozenset[str]:
        return self.language.reserved_names | frozenset(self.symbols.values())

    def fresh_name(self, hint: str | None) -> str:
        """A new local identifier from an SSA name hint, unique in scope."""
        if hint:
            base = re.sub(r"[^A-Za-z0-9_]", "_", hint)
            if base[0].isdigit() or base[0] == "_":
                base = "v" + base
            if is_reserved(base, self.reserved()):
                base = "v_" + base
        else:
            base = f"v{self._counter}"
            self._counter += 1
        name, suffix = base, 1
        while name in self.scope.names or is_reserved(name, self.reserved()):
            name, suffix = f"{base}_{suffix}", suffix + 1
        self.scope.names.add(name)
        return name

    def name_of(self, value: SSAValue) -> str:
        """The C expression holding scalar `value`."""
        if value not in self.scope.values:
            owner = value.owner
            op = owner if isinstance(owner, Operation) else owner.parent_op()
            message = (
                f"{self.language.target_name}: a memref cannot be used as a scalar"
            )
            raise DiagnosticError(message, location_of(op) if op else None)
        return self.scope.values[value]

    def view_of(self, value: SSAValue, op: Operation) -> View:
        if value not in self.scope.views:
            raise self.error(op, f"memref operand {value.name_hint or ''} has no view")
        return self.scope.views[value]

    @contextmanager
    def nested_scope(self) -> Iterator[None]:
        saved = self.scope
        self.scope = saved.copy()
        try:
            yield
        finally:
            self.scope = saved

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        """A braced C block with a scope of its own."""
        with self.writer.block(header), self.nested_scope():
            yield

    def declare(self, value: SSAValue, expr: str, op: Operation) -> str:
        """`T name = expr;` for the result `value` (a scalar or a vector)."""
        type_name = self.value_type_name(value.type, op)
        name = self.fresh_name(value.name_hint)
        self.writer.line(f"{type_name} {name} = {expr};")
        self.scope.values[value] = name
        if not value.uses:
            self.writer.line(f"(void){name};")
        return name

    def declare_index(self, hint: str, expr: Index) -> Index:
        """An `int64_t` local for a dynamic view quantity (static ones fold)."""
        if isinstance(expr, int) or IDENTIFIER.fullmatch(expr):
            return expr
        name = self.fresh_name(hint)
        self.writer.line(f"{self.type_name('index')} {name} = {expr};")
        self.writer.line(f"(void){name};")
        return name

    # -- helpers -----------------------------------------------------------

    def helper(self, kind: str, key: str, other: str | None = None) -> str:
        """The name of helper `kind` for type `key`, generated on first use."""
        key = self.index_key if key == "index" else key
        name = f"{HELPER_PREFIX}{kind}_{key}" + (f"_{other}" if other else "")
        if name not in self.helpers:
            # What it calls is printed first (helpers keep their order).
            body = helper_body(self.language, kind, key, other)
            for dependency in HELPER_DEPENDENCIES.get(kind, ()):
                called = self.helper(dependency, key)
                body = body.replace(f"{{{dependency}}}", called)
            qualifier = self.language.helper_qualifier
            self.helpers[name] = f"{qualifier} " + body.replace("{name}", name)
        return name

    # -- module ------------------------------------------------------------

    def emit(self) -> EmittedModule:
        """Print the module: its read globals, then every function."""
        self._collect_symbols()
        functions: dict[str, EmittedFunction] = {}
        # Only globals something reads are printed: an unused `static` array
        # would trip -Wunused-variable.
        used_globals = {
            getattr(
                getattr(op.properties.get("name"), "root_reference", None), "data", None
            )
            for op in self.module.walk()
            if op.name == "memref.get_global"
        }
        for op in self.module.ops:
            if op.name == "memref.global":
                symbol = getattr(op.properties.get("sym_name"), "data", None)
                if symbol in used_globals:
                    self.emit_global(op)
            elif not isinstance(op, FuncOp):
                raise self.unprintable(op)
        for op in self.module.ops:
            if isinstance(op, FuncOp) and op.body.blocks:
                functions[op.sym_name.data] = self.emit_function(op)
        return EmittedModule(self._assemble(functions), functions)

    def _collect_symbols(self) -> None:
        taken: set[str] = set()
        for op in self.module.ops:
            if isinstance(op, FuncOp):
                self.functions[op.sym_name.data] = op
                if op.body.blocks:
                    self.symbols[op.sym_name.data] = mangle_symbol(
                        op.sym_name.data, taken, self.language.reserved_names
                    )
            elif op.name == "memref.global":
                symbol = op.properties["sym_name"]
                assert hasattr(symbol, "data")
                self.symbols[symbol.data] = mangle_symbol(
                    symbol.data, taken, self.language.reserved_names
                )
        self.number_assertions()

    def number_assertions(self) -> None:
        """Status k for the k-th `cf.assert` of the module, in program order,
        so a status keeps its meaning wherever it is reported."""
        messages: list[str] = []
        for op in self.module.walk():
            if op.name == "cf.assert":
                message = op.properties["msg"]
                messages.append(str(getattr(message, "data", "")))
                self.assertion_status[op] = len(messages)
        self.assertions = tuple(messages)

    def _assemble(self, functions: Mapping[str, EmittedFunction]) -> str:
        parts = [
            "// Generated by irkit. One self-contained translation unit.",
            *(f"#include <{header}>" for header in self.language.includes),
            "",
        ]
        for text in self.helpers.values():
            parts += [text, ""]
        prototypes = [
            line for line in self.writer.lines if line.startswith(_PROTOTYPE_MARK)
        ]
        body = [
            line for line in self.writer.lines if not line.startswith(_PROTOTYPE_MARK)
        ]
        parts += [line[len(_PROTOTYPE_MARK) :] for line in prototypes]
        if prototypes:
            parts.append("")
        parts += body
        return "\n".join(parts).rstrip("\n") + "\n"

    # -- globals -----------------------------------------------------------

    def emit_global(self, op: Operation) -> None:
        memref_type = op.properties["type"]
        if not isinstance(memref_type, MemRefType):
            raise self.unprintable(op)
        key = self.key_of(memref_type.get_element_type(), op)
        shape = memref_type.get_shape()
        if any(size < 0 for size in shape):
            raise self.error(op, "a global needs a static shape")
        count = int(np.prod(shape)) if shape else 1
        symbol = op.properties["sym_name"]
        assert hasattr(symbol, "data")
        name = self.symbols[symbol.data]
        constant = isinstance(op.properties.get("constant"), UnitAttr)
        qualifier = self.global_qualifier(constant)
        declaration = f"{qualifier} {self.type_name(key)} {name}[{max(count, 1)}]"
        initial = op.properties.get("initial_value")
        if isinstance(initial, DenseIntOrFPElementsAttr | DenseResourceAttr):
            values = (
                dense_to_array(initial)
                if isinstance(initial, DenseIntOrFPElementsAttr)
                else dense_resource_to_array(initial)
            ).reshape(-1)
            if values.size == 1 and count != 1:
                values = np.full(count, values[0])
            literals = [self.literal(value, key) for value in values]
            self.writer.line(f"{declaration} = {{")
            with self.writer.indented():
                for start in range(0, len(literals), 8):
                    self.writer.line(", ".join(literals[start : start + 8]) + ",")
            self.writer.line("};")
        elif initial is None or isinstance(initial, UnitAttr):
            self.writer.line(f"{declaration};")
        else:
            raise self.error(op, f"unsupported initial value {initial}")
        self.writer.line("")
        strides, offset = self.layout(memref_type, op)
        self.global_views[symbol.data] = View(
            name, key, tuple(shape), tuple(strides), offset, constant
        )

    def global_qualifier(self, constant: bool) -> str:
        """How a module-level array is declared (C: `static [const]`)."""
        return "static const" if constant else "static"

    # -- literals ----------------------------------------------------------

    def literal(self, value: Any, key: str) -> str:
        """`value` as an exact C literal of type `key`."""
        if is_float(key):
            # Rounded to the type's precision first (a FloatAttr holds a double).
            rounded = convert(value, _FLOAT_DTYPES[key])
            number = float(rounded)
            template = self.language.bits_literals.get(key)
            if template is not None:
                return template.format(bits=int(rounded.view(np.uint16)))
            width = 32 if is_half(key) else width_of(key)
            suffix = self.language.float_literal_suffix[width]
            if np.isnan(number):
                text = self.language.nan
            elif np.isinf(number):
                text = ("-" if number < 0 else "") + self.language.infinity
            else:
                mantissa, exponent = float.hex(number).split("p")
                text = mantissa.rstrip("0").rstrip(".") + "p" + exponent + suffix
            return f"({self.type_name(key)}){text}" if is_half(key) else text
        number = int(value)
        if key == "i1":
            return "true" if number & 1 else "false"
        width = width_of(key)
        number &= (1 << width) - 1
        if number >= 1 << (width - 1):
            number -= 1 << width
        if number == -(1 << (width - 1)):
            return f"INT{width}_MIN"
        if width == 64:
            return index_literal(number)
        return f"({number})" if number < 0 else str(number)

    # -- functions ---------------------------------------------------------

    def layout(
        self, memref_type: MemRefType, op: Operation
    ) -> tuple[list[Index], Index]:
        """The static strides and offset of `memref_type` (an error for
        other layouts: a view needs them)."""
        layout = memref_type.layout
        if not isinstance(layout, NoneAttr | StridedLayoutAttr):
            raise self.error(op, f"memref layout {layout} is not strided")
        strides = memref_type.get_strides()
        offset = memref_type.get_offset()
        if strides is None or offset is None or any(s is None for s in strides):
            raise self.error(op, f"{memref_type} needs a static layout here")
        return [int(s) for s in strides if s is not None], offset

    def start_function(self) -> None:
        """Names start over: a function sees only its own locals."""
        self.scope = Scope()
        self._counter = 0

    def emit_function(self, func: FuncOp) -> EmittedFunction:
        if func.function_type.outputs.data:
            raise self.error(func, "functions return through output buffers")
        if len(func.body.blocks) != 1:
            raise self.error(func, "function bodies must be a single block")
        self.start_function()
        block = func.body.blocks[0]
        parameters: list[str] = []
        names: list[str] = []
        for index, argument in enumerate(block.args):
            name = self.fresh_name(argument.name_hint or f"arg{index}")
            names.append(name)
            parameters.append(self._parameter(func, index, argument, name))
        c_name = self.symbols[func.sym_name.data]
        signature = f"int {c_name}({', '.join(parameters) or 'void'})"
        if self.language.function_qualifier:
            signature = f"{self.language.function_qualifier} {signature}"
        self.writer.line(f"{_PROTOTYPE_MARK}{signature};")
        with self.writer.block(signature):
            for argument, name in zip(block.args, names, strict=True):
                if not argument.uses:
                    self.writer.line(f"(void){name};")
            terminator = self.emit_ops(block)
            if terminator is None or terminator.name != "func.return":
                raise self.error(func, "function body must end in func.return")
            if terminator.operands:
                raise self.error(terminator, "functions return through output buffers")
            self.writer.line("return 0;")
        self.writer.line("")
        return EmittedFunction(
            func.sym_name.data, c_name, tuple(names), self.assertions
        )

    def _parameter(
        self, func: FuncOp, index: int, argument: SSAValue, name: str
    ) -> str:
        argument_type = argument.type
        if isinstance(argument_type, MemRefType):
            key = self.key_of(argument_type.get_element_type(), func)
            shape = argument_type.get_shape()
            if any(size < 0 for size in shape):
                raise self.error(func, f"argument #{index} needs a static shape")
            strides, offset = self.layout(argument_type, func)
            read_only = not is_output_argument(func, index)
            self.scope.views[argument] = View(
                name, key, tuple(shape), tuple(strides), offset, read_only
            )
            return self.pointer_parameter(func, argument, name, key, read_only)
        key = self.key_of(argument_type, func)
        self.scope.values[argument] = name
        return f"{self.type_name(key)} {name}"

    def pointer_parameter(
        self,
        func: Operation,
        argument: SSAValue,
        name: str,
        key: str,
        read_only: bool,
    ) -> str:
        """A buffer parameter: `const` when the function only reads it, and
        `restrict` unless the language forbids it on a buffer the function
        both writes and reads (`Language.restrict_read_write`)."""
        const = "const " if read_only else ""
        restrict = self.language.restrict
        if (
            not read_only
            and not self.language.restrict_read_write
            and reads_buffer(func, argument)
        ):
            restrict = ""
        return f"{const}{self.type_name(key)} *{restrict} {name}"

    # -- blocks ------------------------------------------------------------

    def emit_ops(self, block: Block) -> Operation | None:
        """Print the ops of `block` but its terminator, which is returned."""
        for op in _body_ops(block):
            self.print_op(op)
        return _terminator(block)

    def print_op(self, op: Operation) -> None:
        """Print `op` with its printer; a target with ops of its own extends
        this (its table first, then the shared one)."""
        printer = _PRINTERS.get(op.name)
        if printer is None:
            raise self.unprintable(op)
        printer(self, op)

    def operands(self, op: Operation) -> list[str]:
        """The C expressions of `op`'s scalar operands."""
        return [self.name_of(operand) for operand in op.operands]

    def dynamic_or_static(
        self, static: Sequence[int], dynamic: Sequence[SSAValue]
    ) -> list[Index]:
        """Mix `static` values with the C names of `dynamic` operands where a
        static value is MLIR's dynamic marker."""
        operands = iter(dynamic)
        values: list[Index] = []
        for value in static:
            if value == DYNAMIC:
                values.append(self.name_of(next(operands)))
            else:
                values.append(value)
        return values
