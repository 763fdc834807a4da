"""The walk shared by irkit's C-family printers (C today, CUDA C later).

Loop-level IR (`func`, `scf`, `memref`, `arith`, `math`, `affine`, `cf.assert`)
is printed as one C translation unit by a structured emitter in the manner of
MLIR's `TranslateToCpp.cpp`: one dispatch table from op name to an emit
method, a code writer that owns indentation and braces, and a scoped name
table copied on entering a function, loop or `if`. Everything that differs
between C dialects (type names, `restrict`, the function qualifier, math
function names per float width, barriers, thread indices, the shared-memory
qualifier, the parallel-loop pragma) is data in a `Language`, never a branch in
the walk (tinygrad's `CStyleLanguage` / `CUDARenderer` split).

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
- f16 is stored as the language's half type and computed in float;
- a memref is a *view*: the buffer's base pointer plus an element offset,
  sizes and strides, each a static int or the name of an `int64_t` local; a
  load is `p[offset + i * s0 + j * s1]` with static parts folded.

Names: SSA name hints become local names (`%sum` -> `sum`, `%0` -> `v0`),
made valid and unique and kept away from C keywords, the macros and library
functions the translation unit uses, and the helpers' `irkit_` prefix.
Symbols (`func.func`, `memref.global`) are mangled by `mangle_symbol`, which
keeps `[A-Za-z0-9_]` and writes every other byte as `_xHH_`, so no IR text can
put C syntax into the output; IR text never appears in comments either.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    UnitAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.traits import IsTerminator

from irkit.abi import is_output_argument
from irkit.diagnostics import DiagnosticError, location_of
from irkit.dialects.scf import UNROLL_ATTRIBUTE
from irkit.interpreter.values import dense_resource_to_array, dense_to_array

# An index quantity of a view: a static value or the name of an int64_t local.
Index = int | str

# The status a function returns when `malloc` fails (assertions use 1..k).
ALLOCATION_FAILURE_STATUS = -1

# Larger `memref.alloca`s are refused rather than risking the stack.
MAX_STACK_BYTES = 64 * 1024


# ---------------------------------------------------------------------------
# The language tables
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Language:
    """What one C dialect spells differently; the walk reads only this.

    `scalar_types` maps irkit's type keys (`f16 f32 f64 i1 i8 i16 i32 i64
    index`) to type names. `math_functions[width]` maps a `math`/`arith` op
    name to a format template over its operands (`"expf({0})"`) for floats of
    that width; f16 uses the f32 templates on values widened to
    `half_compute_type`. `parallel_loop_pragma` is printed line by line
    before a parallel loop nest, `{collapse}` filled with ` collapse(n)`.
    `unroll_pragma` goes before an `scf.for` marked `irkit.unroll` (the
    loop's constant trip count fills `{count}`).
    """

    target_name: str
    includes: tuple[str, ...]
    scalar_types: Mapping[str, str]
    half_compute_type: str
    function_qualifier: str
    helper_qualifier: str
    restrict: str
    math_functions: Mapping[int, Mapping[str, str]]
    float_literal_suffix: Mapping[int, str]
    nan: str
    infinity: str
    barrier: str | None
    thread_index: Mapping[str, str]
    shared_qualifier: str | None
    parallel_loop_pragma: tuple[str, ...] | None
    unroll_pragma: str | None
    reserved_names: frozenset[str]


_C_KEYWORDS = frozenset(
    """auto break case char const continue default do double else enum extern
    float for goto if inline int long register restrict return short signed
    sizeof static struct switch typedef union unsigned void volatile while
    asm typeof bool true false main""".split()
)

# Lower-case macros and functions of the headers every unit includes; a local
# of one of these names would shadow or break it.
_LIBRARY_NAMES = frozenset(
    """isnan isinf isfinite isnormal signbit fpclassify isgreater
    isgreaterequal isless islessequal islessgreater isunordered offsetof
    errno math_errhandling alloca malloc calloc realloc free memcpy memset
    memmove abort exit abs labs llabs div ldiv lldiv""".split()
)

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MACRO_LIKE = re.compile(r"[A-Z][A-Z0-9_]*")
HELPER_PREFIX = "irkit_"


def _is_reserved(name: str, reserved: frozenset[str]) -> bool:
    return (
        name in reserved
        or name in _C_KEYWORDS
        or name in _LIBRARY_NAMES
        or name.startswith(HELPER_PREFIX)
        or name.startswith("_")
        or _MACRO_LIKE.fullmatch(name) is not None
    )


def mangle_symbol(name: str, taken: set[str], reserved: frozenset[str]) -> str:
    """A C identifier for the symbol `name`, not in `taken` (which it joins).

    `[A-Za-z0-9_]` is kept; every other UTF-8 byte becomes `_xHH_`. A result
    that starts with a digit or `_` gets the prefix `f`; one that is a keyword
    or a reserved or library name gets the suffix `_fn`; one already taken
    gets `_h` and 8 hex digits of the name's SHA-1 (then a counter).
    """
    pieces = [
        character
        if character.isascii() and (character.isalnum() or character == "_")
        else "".join(f"_x{byte:02X}_" for byte in character.encode("utf-8"))
        for character in name
    ]
    mangled = "".join(pieces)
    if not mangled or mangled[0].isdigit() or mangled[0] == "_":
        mangled = "f" + mangled
    if _is_reserved(mangled, reserved):
        mangled += "_fn"
    if mangled in taken:
        mangled += "_h" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    unique, counter = mangled, 1
    while unique in taken:
        unique, counter = f"{mangled}_{counter}", counter + 1
    taken.add(unique)
    return unique


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------

_INTEGER_WIDTHS = (1, 8, 16, 32, 64)


def _constant_int(value: SSAValue) -> int | None:
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if owner.name == "arith.constant" and isinstance(
        attribute := owner.attributes.get("value") or owner.properties.get("value"),
        IntegerAttr,
    ):
        return attribute.value.data
    return None


def type_key(mlir_type: Attribute) -> str | None:
    """irkit's key for a scalar type (`f32`, `i8`, `index`), None if unsupported."""
    if isinstance(mlir_type, Float16Type):
        return "f16"
    if isinstance(mlir_type, Float32Type):
        return "f32"
    if isinstance(mlir_type, Float64Type):
        return "f64"
    if isinstance(mlir_type, IndexType):
        return "index"
    if isinstance(mlir_type, IntegerType) and mlir_type.width.data in _INTEGER_WIDTHS:
        return f"i{mlir_type.width.data}"
    return None


def _width(key: str) -> int:
    return 64 if key == "index" else int(key[1:])


def _is_float(key: str) -> bool:
    return key.startswith("f")


def _unsigned_name(key: str) -> str:
    """The unsigned type of the same width (`uint8_t`; i1 reads as 0/1)."""
    return "uint32_t" if key == "i1" else f"uint{_width(key)}_t"


def _wrap_name(key: str) -> str:
    """Where wrapping arithmetic of `key` is computed: at least 32 bits, so
    promotion to `int` never happens (a `uint16_t` product would overflow)."""
    return "uint64_t" if _width(key) == 64 else "uint32_t"


def _atom(expr: str) -> str:
    """`expr` parenthesised unless it is an identifier or a literal."""
    if _IDENTIFIER.fullmatch(expr) or re.fullmatch(r"[0-9]+", expr):
        return expr
    return f"({expr})"


def index_literal(value: int) -> str:
    """An `int64_t` literal (negative ones parenthesised)."""
    if value == -(2**63):
        return "INT64_MIN"
    text = str(value) if -(2**31) < value < 2**31 else f"INT64_C({value})"
    return f"({text})" if value < 0 else text


def index_add(lhs: Index, rhs: Index) -> Index:
    if isinstance(lhs, int) and isinstance(rhs, int):
        return lhs + rhs
    if lhs == 0:
        return rhs
    if rhs == 0:
        return lhs
    return f"{_index_text(lhs)} + {_index_text(rhs)}"


def index_mul(lhs: Index, rhs: Index) -> Index:
    if isinstance(lhs, int) and isinstance(rhs, int):
        return lhs * rhs
    if lhs == 0 or rhs == 0:
        return 0
    if lhs == 1:
        return rhs
    if rhs == 1:
        return lhs
    return f"{_atom(_index_text(lhs))} * {_atom(_index_text(rhs))}"


def _index_text(value: Index) -> str:
    return index_literal(value) if isinstance(value, int) else value


# ---------------------------------------------------------------------------
# Writer, scopes, views
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
        return f"{self.pointer}[{_index_text(linear)}]"

    def is_contiguous(self) -> bool:
        expected = 1
        for size, stride in reversed(list(zip(self.sizes, self.strides))):
            if not isinstance(size, int) or stride != expected:
                return False
            expected *= size
        return True


@dataclass
class Scope:
    """What is visible at a point of the output: C names of values and views,
    and the identifiers already declared."""

    values: dict[SSAValue, str] = field(default_factory=dict[SSAValue, str])
    views: dict[SSAValue, View] = field(default_factory=dict[SSAValue, View])
    names: set[str] = field(default_factory=set[str])

    def copy(self) -> Scope:
        return Scope(dict(self.values), dict(self.views), set(self.names))


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


EmitFunction = Callable[["CStyleEmitter", Operation], None]
_EMITTERS: dict[str, EmitFunction] = {}


def emits(*names: str) -> Callable[[EmitFunction], EmitFunction]:
    """Register the decorated method as the printer of the ops `names`."""

    def register(method: EmitFunction) -> EmitFunction:
        for name in names:
            _EMITTERS[name] = method
        return method

    return register


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


# Ops whose C form returns from the function: they cannot sit inside an
# OpenMP loop (a structured block may not be left by `return`).
_EARLY_EXIT_OPS = frozenset({"cf.assert", "func.call", "memref.alloc"})

_FLOAT_BINARY = {
    "arith.addf": "+",
    "arith.subf": "-",
    "arith.mulf": "*",
    "arith.divf": "/",
}
_WRAPPING_BINARY = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*"}
_BITWISE_BINARY = {"arith.andi": "&", "arith.ori": "|", "arith.xori": "^"}
_INTEGER_HELPERS = {
    "arith.divsi": "divsi",
    "arith.remsi": "remsi",
    "arith.floordivsi": "floordivsi",
    "arith.ceildivsi": "ceildivsi",
    "arith.divui": "divui",
    "arith.remui": "remui",
    "arith.ceildivui": "ceildivui",
    "arith.shli": "shli",
    "arith.shrui": "shrui",
    "arith.shrsi": "shrsi",
    "math.ipowi": "ipowi",
    "math.ctpop": "ctpop",
    "math.ctlz": "ctlz",
    "math.cttz": "cttz",
}
_CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_CMPI_OPERATORS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_CMPF_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip
# Unordered predicates as the negation of the opposite ordered comparison
# (C's relational operators are false on NaN, `!=` is true).
_CMPF_TEMPLATES = {
    "false": "((void){0}, (void){1}, false)",
    "true": "((void){0}, (void){1}, true)",
    "oeq": "{0} == {1}",
    "ogt": "{0} > {1}",
    "oge": "{0} >= {1}",
    "olt": "{0} < {1}",
    "ole": "{0} <= {1}",
    "one": "({0} < {1} || {0} > {1})",
    "ord": "(!isnan({0}) && !isnan({1}))",
    "ueq": "!({0} < {1} || {0} > {1})",
    "ugt": "!({0} <= {1})",
    "uge": "!({0} < {1})",
    "ult": "!({0} >= {1})",
    "ule": "!({0} > {1})",
    "une": "{0} != {1}",
    "uno": "(isnan({0}) || isnan({1}))",
}
_MATH_HELPERS = {"arith.maximumf": "maximumf", "arith.minimumf": "minimumf"}


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
        self._counter = 0
        self._in_parallel_loop = False

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
        return key

    def type_name(self, key: str) -> str:
        return self.language.scalar_types[key]

    def compute_name(self, key: str) -> str:
        """The type arithmetic on `key` is done in (f16 widens)."""
        return self.language.half_compute_type if key == "f16" else self.type_name(key)

    # -- names -------------------------------------------------------------

    def reserved(self) -> frozenset[str]:
        return self.language.reserved_names | frozenset(self.symbols.values())

    def fresh_name(self, hint: str | None) -> str:
        """A new local identifier from an SSA name hint, unique in scope."""
        if hint:
            base = re.sub(r"[^A-Za-z0-9_]", "_", hint)
            if base[0].isdigit() or base[0] == "_":
                base = "v" + base
            if _is_reserved(base, self.reserved()):
                base = "v_" + base
        else:
            base = f"v{self._counter}"
            self._counter += 1
        name, suffix = base, 1
        while name in self.scope.names or _is_reserved(name, self.reserved()):
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
        with self.writer.block(header), self.nested_scope():
            yield

    def declare(self, value: SSAValue, expr: str, op: Operation) -> str:
        """`T name = expr;` for the scalar result `value`."""
        key = self.key_of(value.type, op)
        name = self.fresh_name(value.name_hint)
        self.writer.line(f"{self.type_name(key)} {name} = {expr};")
        self.scope.values[value] = name
        if not value.uses:
            self.writer.line(f"(void){name};")
        return name

    def declare_index(self, hint: str, expr: Index) -> Index:
        """An `int64_t` local for a dynamic view quantity (static ones fold)."""
        if isinstance(expr, int) or _IDENTIFIER.fullmatch(expr):
            return expr
        name = self.fresh_name(hint)
        self.writer.line(f"{self.type_name('index')} {name} = {expr};")
        self.writer.line(f"(void){name};")
        return name

    # -- helpers -----------------------------------------------------------

    def helper(self, kind: str, key: str, other: str | None = None) -> str:
        """The name of helper `kind` for type `key`, generated on first use."""
        name = f"{HELPER_PREFIX}{kind}_{key}" + (f"_{other}" if other else "")
        if name not in self.helpers:
            body = _helper_body(self, kind, key, other)
            qualifier = self.language.helper_qualifier
            self.helpers[name] = f"{qualifier} " + body.replace("{name}", name)
        return name

    # -- module ------------------------------------------------------------

    def emit(self) -> EmittedModule:
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
        strides, offset = self._layout(memref_type, op)
        self.global_views[symbol.data] = View(
            name, key, tuple(shape), tuple(strides), offset, constant
        )

    def global_qualifier(self, constant: bool) -> str:
        """How a module-level array is declared (C: `static [const]`)."""
        return "static const" if constant else "static"

    # -- literals ----------------------------------------------------------

    def literal(self, value: Any, key: str) -> str:
        """`value` as an exact C literal of type `key`."""
        if _is_float(key):
            # Rounded to the type's precision first (a FloatAttr holds a double).
            number = float(np.asarray(value).astype(_FLOAT_DTYPES[key]))
            width = 32 if key == "f16" else _width(key)
            suffix = self.language.float_literal_suffix[width]
            if np.isnan(number):
                text = self.language.nan
            elif np.isinf(number):
                text = ("-" if number < 0 else "") + self.language.infinity
            else:
                mantissa, exponent = float.hex(number).split("p")
                text = mantissa.rstrip("0").rstrip(".") + "p" + exponent + suffix
            return f"({self.type_name(key)}){text}" if key == "f16" else text
        number = int(value)
        if key == "i1":
            return "true" if number & 1 else "false"
        width = _width(key)
        number &= (1 << width) - 1
        if number >= 1 << (width - 1):
            number -= 1 << width
        if number == -(1 << (width - 1)):
            return f"INT{width}_MIN"
        if width == 64:
            return index_literal(number)
        return f"({number})" if number < 0 else str(number)

    # -- functions ---------------------------------------------------------

    def _layout(
        self, memref_type: MemRefType, op: Operation
    ) -> tuple[list[Index], Index]:
        layout = memref_type.layout
        if not isinstance(layout, NoneAttr | StridedLayoutAttr):
            raise self.error(op, f"memref layout {layout} is not strided")
        strides = memref_type.get_strides()
        offset = memref_type.get_offset()
        if strides is None or offset is None or any(s is None for s in strides):
            raise self.error(op, f"{memref_type} needs a static layout here")
        return [int(s) for s in strides if s is not None], offset

    def emit_function(self, func: FuncOp) -> EmittedFunction:
        if func.function_type.outputs.data:
            raise self.error(func, "functions return through output buffers")
        if len(func.body.blocks) != 1:
            raise self.error(func, "function bodies must be a single block")
        self.scope = Scope()
        self._counter = 0
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
            strides, offset = self._layout(argument_type, func)
            read_only = not is_output_argument(func, index)
            self.scope.views[argument] = View(
                name, key, tuple(shape), tuple(strides), offset, read_only
            )
            const = "const " if read_only else ""
            restrict = self.language.restrict
            return f"{const}{self.type_name(key)} *{restrict} {name}"
        key = self.key_of(argument_type, func)
        self.scope.values[argument] = name
        return f"{self.type_name(key)} {name}"

    # -- blocks ------------------------------------------------------------

    def emit_ops(self, block: Block) -> Operation | None:
        """Print the ops of `block` but its terminator, which is returned."""
        for op in _body_ops(block):
            emitter = self.emitter_for(op.name)
            if emitter is None:
                raise self.unprintable(op)
            emitter(self, op)
        return _terminator(block)

    def emitter_for(self, name: str) -> EmitFunction | None:
        """How op `name` prints; a target with ops of its own extends this."""
        return _EMITTERS.get(name)

    def emit_region_into(
        self, block: Block, arguments: Sequence[str], targets: Sequence[str]
    ) -> None:
        """Print `block` with its arguments bound to the C expressions
        `arguments`; assign what its terminator yields to `targets`."""
        for argument, expr in zip(block.args, arguments, strict=True):
            self.scope.values[argument] = expr
        terminator = self.emit_ops(block)
        yielded = [] if terminator is None else list(terminator.operands)
        if len(yielded) != len(targets):
            raise self.unprintable(terminator or block.parent_op() or self.module)
        self.assign_all(targets, [self.name_of(value) for value in yielded])

    def assign_all(self, targets: Sequence[str], values: Sequence[str]) -> None:
        """`targets = values` as a parallel assignment (a swap stays a swap)."""
        pairs = [(t, v) for t, v in zip(targets, values, strict=True) if t != v]
        if len(pairs) > 1 and any(v in targets for _, v in pairs):
            temporaries: list[tuple[str, str]] = []
            for target, value in pairs:
                temporary = self.fresh_name(f"{target}_next")
                type_name = self.variable_types[target]
                self.writer.line(f"{type_name} {temporary} = {value};")
                temporaries.append((target, temporary))
            pairs = temporaries
        for target, value in pairs:
            self.writer.line(f"{target} = {value};")

    def declare_carried(
        self,
        values: Sequence[SSAValue],
        op: Operation,
        initial: Sequence[SSAValue] | None = None,
    ) -> list[str]:
        """Variables for values carried across a region (loop iter_args,
        `if` results), named after `values`, holding `initial` (else 0)."""
        names: list[str] = []
        if any(isinstance(value.type, MemRefType) for value in values):
            raise self.error(op, "memref values cannot be carried by loops or ifs")
        starts = [self.name_of(v) for v in initial] if initial else ["0"] * len(values)
        for value, start in zip(values, starts, strict=True):
            key = self.key_of(value.type, op)
            name = self.fresh_name(value.name_hint)
            self.writer.line(f"{self.type_name(key)} {name} = {start};")
            self.variable_types[name] = self.type_name(key)
            names.append(name)
        return names

    # -- arith: constants and integers ---------------------------------------

    @emits("arith.constant")
    def _constant(self, op: Operation) -> None:
        value = op.properties["value"]
        result = op.results[0]
        key = self.key_of(result.type, op)
        if isinstance(value, FloatAttr):
            self.declare(result, self.literal(value.value.data, key), op)
        elif isinstance(value, IntegerAttr):
            # Integer and index constants are used as literals, not variables:
            # loop bounds and steps the C compiler can see are what lets it
            # count iterations (and vectorise) inside OpenMP-outlined loops.
            literal = self.literal(value.value.data, key)
            if not _IDENTIFIER.fullmatch(literal) and not literal.isdigit():
                literal = f"({literal})"
            self.scope.values[result] = literal
        else:
            raise self.error(op, "only scalar constants can be printed")

    def operands(self, op: Operation) -> list[str]:
        return [self.name_of(operand) for operand in op.operands]

    def signed(self, expr: str, key: str) -> str:
        """`expr` read as a signed integer (i1: true is -1)."""
        return f"(-(int32_t){expr})" if key == "i1" else expr

    def wrap(self, expr: str, key: str) -> str:
        """An unsigned result `expr` converted back to type `key` (mod 2^w)."""
        if key == "i1":
            return f"(bool)(({expr}) & 1u)"
        return f"({self.type_name(key)})({expr})"

    @emits(*_WRAPPING_BINARY)
    def _wrapping_binary(self, op: Operation) -> None:
        key = self.key_of(op.results[0].type, op)
        lhs, rhs = self.operands(op)
        wide = _wrap_name(key)
        operator = _WRAPPING_BINARY[op.name]
        expr = f"({wide}){lhs} {operator} ({wide}){rhs}"
        self.declare(op.results[0], self.wrap(expr, key), op)

    @emits(*_BITWISE_BINARY)
    def _bitwise_binary(self, op: Operation) -> None:
        key = self.key_of(op.results[0].type, op)
        lhs, rhs = self.operands(op)
        expr = f"{lhs} {_BITWISE_BINARY[op.name]} {rhs}"
        self.declare(op.results[0], f"({self.type_name(key)})({expr})", op)

    @emits(*_INTEGER_HELPERS)
    def _integer_helper(self, op: Operation) -> None:
        key = self.key_of(op.operands[0].type, op)
        if _is_float(key):
            raise self.unprintable(op)
        helper = self.helper(_INTEGER_HELPERS[op.name], key)
        result_key = self.key_of(op.results[0].type, op)
        call = f"{helper}({', '.join(self.operands(op))})"
        if result_key != key:  # ctlz etc. may produce another width
            call = f"({self.type_name(result_key)}){call}"
        self.declare(op.results[0], call, op)

    @emits("arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui")
    def _integer_extremum(self, op: Operation) -> None:
        key = self.key_of(op.results[0].type, op)
        lhs, rhs = self.operands(op)
        if op.name.endswith("ui"):
            unsigned = _unsigned_name(key)
            left, right = f"({unsigned}){lhs}", f"({unsigned}){rhs}"
        else:
            left, right = self.signed(lhs, key), self.signed(rhs, key)
        operator = ">" if "max" in op.name else "<"
        self.declare(op.results[0], f"{left} {operator} {right} ? {lhs} : {rhs}", op)

    @emits("arith.cmpi")
    def _cmpi(self, op: Operation) -> None:
        predicate_attr = op.properties["predicate"]
        assert isinstance(predicate_attr, IntegerAttr)
        predicate = _CMPI_PREDICATES[predicate_attr.value.data]
        key = self.key_of(op.operands[0].type, op)
        lhs, rhs = self.operands(op)
        if predicate[0] == "u":
            unsigned = _unsigned_name(key)
            lhs, rhs = f"({unsigned}){lhs}", f"({unsigned}){rhs}"
        elif predicate[0] == "s":
            lhs, rhs = self.signed(lhs, key), self.signed(rhs, key)
        operator = _CMPI_OPERATORS[predicate[-2:]]
        self.declare(op.results[0], f"{lhs} {operator} {rhs}", op)

    @emits("arith.select")
    def _select(self, op: Operation) -> None:
        if isinstance(op.results[0].type, MemRefType):
            raise self.error(op, "selecting between memrefs is not supported")
        condition, on_true, on_false = self.operands(op)
        self.declare(op.results[0], f"{condition} ? {on_true} : {on_false}", op)

    # -- arith: casts ----------------------------------------------------------

    @emits(
        "arith.extsi",
        "arith.extui",
        "arith.trunci",
        "arith.index_cast",
        "arith.index_castui",
    )
    def _integer_cast(self, op: Operation) -> None:
        source = self.key_of(op.operands[0].type, op)
        target = self.key_of(op.results[0].type, op)
        (value,) = self.operands(op)
        if target == "i1":
            expr = f"(bool)({value} & 1)"
        elif op.name in ("arith.extui", "arith.index_castui"):
            expr = f"({self.type_name(target)})({_unsigned_name(source)}){value}"
        else:
            # Through the unsigned target type: wraps mod 2^w on truncation.
            expr = (
                f"({self.type_name(target)})({_unsigned_name(target)})"
                f"{self.signed(value, source)}"
            )
        self.declare(op.results[0], expr, op)

    @emits("arith.sitofp", "arith.uitofp")
    def _integer_to_float(self, op: Operation) -> None:
        source = self.key_of(op.operands[0].type, op)
        target = self.key_of(op.results[0].type, op)
        (value,) = self.operands(op)
        if op.name == "arith.uitofp":
            value = f"({_unsigned_name(source)}){value}"
        else:
            value = self.signed(value, source)
        self.declare(op.results[0], f"({self.type_name(target)}){value}", op)

    @emits("arith.fptosi", "arith.fptoui")
    def _float_to_integer(self, op: Operation) -> None:
        source = self.key_of(op.operands[0].type, op)
        target = self.key_of(op.results[0].type, op)
        kind = op.name.split(".")[1]
        helper = self.helper(kind, source, target)
        (value,) = self.operands(op)
        self.declare(op.results[0], f"{helper}({value})", op)

    @emits("arith.extf", "arith.truncf")
    def _float_cast(self, op: Operation) -> None:
        target = self.key_of(op.results[0].type, op)
        (value,) = self.operands(op)
        self.declare(op.results[0], f"({self.type_name(target)}){value}", op)

    @emits("arith.bitcast")
    def _bitcast(self, op: Operation) -> None:
        source = self.key_of(op.operands[0].type, op)
        target = self.key_of(op.results[0].type, op)
        (value,) = self.operands(op)
        if source == target:
            self.declare(op.results[0], value, op)
            return
        helper = self.helper("bitcast", source, target)
        self.declare(op.results[0], f"{helper}({value})", op)

    # -- arith and math: floats ----------------------------------------------

    def widened(self, op: Operation) -> tuple[str, list[str]]:
        """The result key and the operands as the compute type (f16 widens)."""
        key = self.key_of(op.results[0].type, op)
        operands = self.operands(op)
        if key == "f16":
            compute = self.language.half_compute_type
            operands = [f"({compute}){operand}" for operand in operands]
        return key, operands

    def narrowed(self, expr: str, key: str) -> str:
        return f"({self.type_name(key)})({expr})" if key == "f16" else expr

    @emits(*_FLOAT_BINARY)
    def _float_binary(self, op: Operation) -> None:
        key, (lhs, rhs) = self.widened(op)
        expr = f"{lhs} {_FLOAT_BINARY[op.name]} {rhs}"
        self.declare(op.results[0], self.narrowed(expr, key), op)

    @emits("arith.negf")
    def _negf(self, op: Operation) -> None:
        key, (value,) = self.widened(op)
        self.declare(op.results[0], self.narrowed(f"-{value}", key), op)

    @emits(*_MATH_HELPERS)
    def _nan_propagating_extremum(self, op: Operation) -> None:
        key, operands = self.widened(op)
        compute_key = "f32" if key == "f16" else key
        helper = self.helper(_MATH_HELPERS[op.name], compute_key)
        self.declare(
            op.results[0], self.narrowed(f"{helper}({', '.join(operands)})", key), op
        )

    @emits("arith.cmpf")
    def _cmpf(self, op: Operation) -> None:
        predicate_attr = op.properties["predicate"]
        assert isinstance(predicate_attr, IntegerAttr)
        predicate = _CMPF_PREDICATES[predicate_attr.value.data]
        lhs, rhs = self.operands(op)
        if self.key_of(op.operands[0].type, op) == "f16":
            compute = self.language.half_compute_type
            lhs, rhs = f"({compute}){lhs}", f"({compute}){rhs}"
        self.declare(op.results[0], _CMPF_TEMPLATES[predicate].format(lhs, rhs), op)

    def math_template(self, op: Operation, key: str) -> str:
        width = 32 if key == "f16" else _width(key)
        template = self.language.math_functions[width].get(op.name)
        if template is None:
            raise self.unprintable(op)
        return template

    @emits(
        "math.absf", "math.acos", "math.acosh", "math.asin", "math.asinh",
        "math.atan", "math.atanh", "math.cbrt", "math.ceil", "math.cos",
        "math.cosh", "math.erf", "math.exp", "math.exp2", "math.expm1",
        "math.floor", "math.log", "math.log10", "math.log1p", "math.log2",
        "math.round", "math.roundeven", "math.rsqrt", "math.sin", "math.sinh",
        "math.sqrt", "math.tan", "math.tanh", "math.trunc", "math.atan2",
        "math.copysign", "math.powf", "math.fma", "arith.remf",
        "arith.maxnumf", "arith.minnumf",
    )  # fmt: skip
    def _math_function(self, op: Operation) -> None:
        key, operands = self.widened(op)
        if not _is_float(key):
            raise self.unprintable(op)
        expr = self.math_template(op, key).format(*operands)
        self.declare(op.results[0], self.narrowed(expr, key), op)

    @emits("math.fpowi")
    def _fpowi(self, op: Operation) -> None:
        key = self.key_of(op.results[0].type, op)
        base, exponent = self.operands(op)
        compute = self.compute_name(key)
        template = self.language.math_functions[32 if key == "f16" else _width(key)][
            "math.powf"
        ]
        expr = template.format(f"({compute}){base}", f"({compute}){exponent}")
        self.declare(op.results[0], self.narrowed(expr, key), op)

    @emits("math.absi")
    def _absi(self, op: Operation) -> None:
        key = self.key_of(op.results[0].type, op)
        (value,) = self.operands(op)
        if key == "i1":
            self.declare(op.results[0], value, op)
            return
        wide = _wrap_name(key)
        expr = f"{value} < 0 ? ({wide})0 - ({wide}){value} : ({wide}){value}"
        self.declare(op.results[0], self.wrap(expr, key), op)

    # -- affine ------------------------------------------------------------------

    def affine_expr(self, expr: AffineExpr, operands: Sequence[str], dims: int) -> str:
        if isinstance(expr, AffineConstantExpr):
            return index_literal(expr.value)
        if isinstance(expr, AffineDimExpr):
            return operands[expr.position]
        if isinstance(expr, AffineSymExpr):
            return operands[dims + expr.position]
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs = self.affine_expr(expr.lhs, operands, dims)
        rhs = self.affine_expr(expr.rhs, operands, dims)
        if expr.kind == AffineBinaryOpKind.Add:
            return f"({lhs} + {rhs})"
        if expr.kind == AffineBinaryOpKind.Mul:
            return f"({lhs} * {rhs})"
        helper = {
            AffineBinaryOpKind.FloorDiv: "floordivsi",
            AffineBinaryOpKind.CeilDiv: "ceildivsi",
            AffineBinaryOpKind.Mod: "affine_mod",
        }[expr.kind]
        return f"{self.helper(helper, 'index')}({lhs}, {rhs})"

    @emits("affine.apply", "affine.min", "affine.max")
    def _affine(self, op: Operation) -> None:
        map_attr = op.properties.get("map")
        if not isinstance(map_attr, AffineMapAttr):
            raise self.unprintable(op)
        affine_map = map_attr.data
        operands = self.operands(op)
        results = [
            self.affine_expr(result, operands, affine_map.num_dims)
            for result in affine_map.results
        ]
        if op.name == "affine.apply" or len(results) == 1:
            self.declare(op.results[0], results[0], op)
            return
        name = self.declare(op.results[0], results[0], op)
        operator = "<" if op.name == "affine.min" else ">"
        for result in results[1:]:
            self.writer.line(f"if ({result} {operator} {name}) {name} = {result};")

    # -- memref ----------------------------------------------------------------

    def dynamic_or_static(
        self, static: Sequence[int], dynamic: Sequence[SSAValue]
    ) -> list[Index]:
        """Mix `static` values with the C names of `dynamic` operands where a
        static value is MLIR's dynamic marker."""
        operands = iter(dynamic)
        values: list[Index] = []
        for value in static:
            if value == _DYNAMIC:
                values.append(self.name_of(next(operands)))
            else:
                values.append(value)
        return values

    @emits("memref.load")
    def _load(self, op: Operation) -> None:
        view = self.view_of(op.operands[0], op)
        indices = [self.name_of(index) for index in op.operands[1:]]
        self.declare(op.results[0], view.element(indices), op)

    @emits("memref.store")
    def _store(self, op: Operation) -> None:
        value = self.name_of(op.operands[0])
        view = self.view_of(op.operands[1], op)
        if view.read_only:
            raise self.error(
                op, "stores to a read-only buffer (an input or a constant)"
            )
        indices = [self.name_of(index) for index in op.operands[2:]]
        self.writer.line(f"{view.element(indices)} = {value};")

    def _allocation(self, op: Operation) -> tuple[MemRefType, str, list[Index]]:
        memref_type = op.results[0].type
        assert isinstance(memref_type, MemRefType)
        if not isinstance(memref_type.layout, NoneAttr):
            raise self.error(op, "only identity-layout allocations are supported")
        key = self.key_of(memref_type.get_element_type(), op)
        dynamic = [v for v in op.operands if isinstance(v.type, IndexType)]
        sizes = self.dynamic_or_static(memref_type.get_shape(), dynamic)
        return memref_type, key, sizes

    def _bind_allocation(
        self, op: Operation, name: str, key: str, sizes: list[Index]
    ) -> None:
        strides: list[Index] = []
        stride: Index = 1
        for size in reversed(sizes):
            strides.insert(0, stride)
            stride = self.declare_index(f"{name}_stride", index_mul(stride, size))
        self.scope.views[op.results[0]] = View(
            name, key, tuple(sizes), tuple(strides), 0, False
        )

    @emits("memref.alloc")
    def _alloc(self, op: Operation) -> None:
        _, key, sizes = self._allocation(op)
        count: Index = 1
        for size in sizes:
            count = index_mul(count, size)
        name = self.fresh_name(op.results[0].name_hint or "buffer")
        type_name = self.type_name(key)
        count_text = _index_text(count)
        if isinstance(count, int):
            bytes_text = f"sizeof({type_name}) * {max(count, 1)}"
        else:
            bytes_text = (
                f"sizeof({type_name}) * (size_t)({count_text} > 0 ? {count_text} : 1)"
            )
        self.writer.line(f"{type_name} *{name} = ({type_name} *)malloc({bytes_text});")
        self.writer.line(f"if ({name} == NULL) return {ALLOCATION_FAILURE_STATUS};")
        self._bind_allocation(op, name, key, sizes)

    @emits("memref.alloca")
    def _alloca(self, op: Operation) -> None:
        _, key, sizes = self._allocation(op)
        if not all(isinstance(size, int) for size in sizes):
            raise self.error(op, "memref.alloca needs a static shape")
        count = int(np.prod([int(s) for s in sizes])) if sizes else 1
        element_bytes = max(_width(key) // 8, 1)
        if count * element_bytes > MAX_STACK_BYTES:
            raise self.error(
                op,
                f"memref.alloca of {count * element_bytes} bytes is too large "
                f"for the stack (limit {MAX_STACK_BYTES})",
            )
        name = self.fresh_name(op.results[0].name_hint or "buffer")
        self.writer.line(f"{self.type_name(key)} {name}[{max(count, 1)}];")
        self._bind_allocation(op, name, key, sizes)

    @emits("memref.dealloc")
    def _dealloc(self, op: Operation) -> None:
        view = self.view_of(op.operands[0], op)
        self.writer.line(f"free({view.pointer});")

    @emits("memref.get_global")
    def _get_global(self, op: Operation) -> None:
        symbol = op.properties["name"]
        root = getattr(symbol, "root_reference", None)
        name = getattr(root, "data", None)
        if not isinstance(name, str) or name not in self.global_views:
            raise self.error(op, "refers to a global not defined before it")
        view = self.global_views[name]
        # Marks the global used even if no load reads it (-Wunused-variable).
        self.writer.line(f"(void){view.pointer};")
        self.scope.views[op.results[0]] = view

    @emits("memref.dim")
    def _dim(self, op: Operation) -> None:
        view = self.view_of(op.operands[0], op)
        index_op = op.operands[1].owner
        value = (
            index_op.properties.get("value")
            if isinstance(index_op, Operation) and index_op.name == "arith.constant"
            else None
        )
        if not isinstance(value, IntegerAttr):
            raise self.error(op, "memref.dim needs a constant dimension")
        self.declare(op.results[0], _index_text(view.sizes[value.value.data]), op)

    @emits("memref.cast")
    def _cast(self, op: Operation) -> None:
        self.scope.views[op.results[0]] = self.view_of(op.operands[0], op)

    @emits("memref.subview")
    def _subview(self, op: Operation) -> None:
        source = self.view_of(op.operands[0], op)
        properties = op.properties

        def values(name: str, operand_name: str) -> list[Index]:
            static = properties[name]
            assert hasattr(static, "get_values")
            return self.dynamic_or_static(
                static.get_values(), list(getattr(op, operand_name))
            )

        offsets = values("static_offsets", "offsets")
        sizes = values("static_sizes", "sizes")
        steps = values("static_strides", "strides")
        hint = op.results[0].name_hint or "view"
        offset: Index = source.offset
        for start, stride in zip(offsets, source.strides, strict=True):
            offset = index_add(offset, index_mul(start, stride))
        offset = self.declare_index(f"{hint}_offset", offset)
        strides = [
            self.declare_index(f"{hint}_stride", index_mul(stride, step))
            for stride, step in zip(source.strides, steps, strict=True)
        ]
        result_type = op.results[0].type
        assert isinstance(result_type, MemRefType)
        kept = self._kept_dimensions(op, sizes, strides, result_type)
        self.scope.views[op.results[0]] = replace(
            source,
            sizes=tuple(sizes[i] for i in kept),
            strides=tuple(strides[i] for i in kept),
            offset=offset,
        )

    def _kept_dimensions(
        self,
        op: Operation,
        sizes: Sequence[Index],
        strides: Sequence[Index],
        result_type: MemRefType,
    ) -> list[int]:
        """Which source dimensions a (possibly rank-reducing) subview keeps.

        Only unit dimensions may be dropped; where that is ambiguous the
        result type's static strides decide, else the leftmost unit
        dimensions are dropped (MLIR's choice for identity-like layouts).
        """
        result_shape = result_type.get_shape()
        rank = len(result_shape)
        if rank == len(sizes):
            return list(range(rank))
        result_strides = result_type.get_strides() or [None] * rank
        return self._match_dimensions(
            op, list(sizes), list(strides), list(result_shape), list(result_strides)
        )

    def _match_dimensions(
        self,
        op: Operation,
        sizes: list[Index],
        strides: list[Index],
        shape: list[int],
        result_strides: Sequence[int | None],
    ) -> list[int]:
        def search(source: int, target: int) -> list[int] | None:
            if target == len(shape):
                rest = sizes[source:]
                return [] if all(size == 1 for size in rest) else None
            if source == len(sizes):
                return None
            size, expected = sizes[source], shape[target]
            kept: list[int] | None
            stride_ok = (
                result_strides[target] is None
                or not isinstance(strides[source], int)
                or strides[source] == result_strides[target]
            )
            if (expected == _DYNAMIC or size == expected) and stride_ok:
                kept = search(source + 1, target + 1)
                if kept is not None:
                    return [source, *kept]
            if size == 1:
                return search(source + 1, target)
            return None

        kept = search(0, 0)
        if kept is None:
            raise self.error(op, "cannot tell which dimensions this subview drops")
        return kept

    @emits("memref.reinterpret_cast")
    def _reinterpret_cast(self, op: Operation) -> None:
        source = self.view_of(op.operands[0], op)
        properties = op.properties

        def values(name: str, operand_name: str) -> list[Index]:
            static = properties[name]
            assert hasattr(static, "get_values")
            return self.dynamic_or_static(
                static.get_values(), list(getattr(op, operand_name))
            )

        (offset,) = values("static_offsets", "offsets")
        self.scope.views[op.results[0]] = replace(
            source,
            sizes=tuple(values("static_sizes", "sizes")),
            strides=tuple(values("static_strides", "strides")),
            offset=offset,
        )

    @emits("memref.collapse_shape", "memref.expand_shape")
    def _reshape(self, op: Operation) -> None:
        source = self.view_of(op.operands[0], op)
        groups_attr = op.properties["reassociation"]
        assert isinstance(groups_attr, ArrayAttr)
        groups = [
            [int(dim.value.data) for dim in group.data]
            for group in groups_attr.data
            if isinstance(group, ArrayAttr)
        ]
        result_type = op.results[0].type
        assert isinstance(result_type, MemRefType)
        sizes: list[Index] = []
        strides: list[Index] = []
        if op.name == "memref.collapse_shape":
            for group in groups:
                size: Index = 1
                for dim in group:
                    size = index_mul(size, source.sizes[dim])
                sizes.append(size)
                # The group is contiguous: its innermost stride steps it.
                strides.append(source.strides[group[-1]] if group else 1)
        else:
            static = op.properties["static_output_shape"]
            assert hasattr(static, "get_values")
            output = self.dynamic_or_static(static.get_values(), list(op.operands[1:]))
            sizes = list(output)
            strides = [0] * len(output)
            for source_dim, group in enumerate(groups):
                stride: Index = source.strides[source_dim]
                for dim in reversed(group):
                    strides[dim] = stride
                    stride = index_mul(stride, output[dim])
        self.scope.views[op.results[0]] = replace(
            source, sizes=tuple(sizes), strides=tuple(strides)
        )

    @emits("memref.copy")
    def _copy(self, op: Operation) -> None:
        source = self.view_of(op.operands[0], op)
        target = self.view_of(op.operands[1], op)
        if target.read_only:
            raise self.error(
                op, "copies into a read-only buffer (an input or a constant)"
            )
        if source.is_contiguous() and target.is_contiguous():
            count = int(np.prod([int(s) for s in source.sizes])) if source.sizes else 1
            type_name = self.type_name(source.element_key)
            self.writer.line(
                f"memcpy({target.pointer} + {_index_text(target.offset)}, "
                f"{source.pointer} + {_index_text(source.offset)}, "
                f"sizeof({type_name}) * {count});"
            )
            return
        self._copy_loops(source, target, [])

    def _copy_loops(self, source: View, target: View, indices: list[str]) -> None:
        depth = len(indices)
        if depth == len(source.sizes):
            self.writer.line(f"{target.element(indices)} = {source.element(indices)};")
            return
        index = self.fresh_name(f"i{depth}")
        bound = _index_text(source.sizes[depth])
        header = f"for (int64_t {index} = 0; {index} < {bound}; {index} += 1)"
        with self.block(header):
            self._copy_loops(source, target, [*indices, index])

    # -- scf -------------------------------------------------------------------

    def loop_header(self, iv: str, key: str, lower: str, upper: str, step: str) -> str:
        return (
            f"for ({self.type_name(key)} {iv} = {lower}; {iv} < {upper}; "
            f"{iv} += {step})"
        )

    @emits("scf.for")
    def _for(self, op: Operation) -> None:
        lower, upper, step, *inits = op.operands
        body = op.regions[0].blocks[0]
        iv_arg, *carried_args = body.args
        key = self.key_of(iv_arg.type, op)
        carried = self.declare_carried(list(op.results), op, inits)
        iv = None
        with self.nested_scope():
            iv = self.fresh_name(iv_arg.name_hint or "i")
            self.scope.values[iv_arg] = iv
            header = self.loop_header(
                iv, key, self.name_of(lower), self.name_of(upper), self.name_of(step)
            )
            self._unroll_pragma(op)
            with self.block(header):
                self.emit_region_into(body, [iv, *carried], carried)
        self.bind_carried(op, carried, carried_args)

    def _unroll_pragma(self, op: Operation) -> None:
        pragma = self.language.unroll_pragma
        if pragma is None or UNROLL_ATTRIBUTE not in op.attributes:
            return
        lower, upper, step = (_constant_int(v) for v in op.operands[:3])
        if lower is None or upper is None or step is None or step <= 0:
            return  # only a constant trip count can be unrolled fully
        count = max(-(-(upper - lower) // step), 1)
        # 65534 is GCC's largest unroll count; CUDA's pragma takes none.
        self.writer.line(pragma.format(count=min(count, 65534)))

    def bind_carried(
        self, op: Operation, names: Sequence[str], arguments: Sequence[SSAValue] = ()
    ) -> None:
        for index, (result, name) in enumerate(zip(op.results, names, strict=True)):
            self.scope.values[result] = name
            argument_used = index < len(arguments) and bool(arguments[index].uses)
            if not result.uses and not argument_used:
                self.writer.line(f"(void){name};")

    @emits("scf.if")
    def _if(self, op: Operation) -> None:
        carried = self.declare_carried(list(op.results), op)
        condition = self.name_of(op.operands[0])
        then_region, else_region = op.regions
        with self.block(f"if ({condition})"):
            self.emit_region_into(then_region.blocks[0], [], carried)
        if else_region.blocks and list(else_region.blocks[0].ops):
            with self.writer.else_block(), self.nested_scope():
                self.emit_region_into(else_region.blocks[0], [], carried)
        self.bind_carried(op, carried)

    @emits("scf.while")
    def _while(self, op: Operation) -> None:
        before, after = (region.blocks[0] for region in op.regions)
        state = self.declare_carried(list(before.args), op, list(op.operands))
        results = self.declare_carried(list(op.results), op)
        with self.block("while (true)"):
            for argument, name in zip(before.args, state, strict=True):
                self.scope.values[argument] = name
            condition_op = self.emit_ops(before)
            if condition_op is None or condition_op.name != "scf.condition":
                raise self.error(
                    op, "scf.while's first region must end in scf.condition"
                )
            condition, *forwarded = (self.name_of(v) for v in condition_op.operands)
            self.assign_all(results, forwarded)
            self.writer.line(f"if (!{condition}) break;")
            with self.nested_scope():
                self.emit_region_into(after, results, state)
        for name in state:
            self.writer.line(f"(void){name};")
        self.bind_carried(op, results)

    def _parallel_bounds(
        self, op: Operation
    ) -> tuple[list[str], list[str], list[str], list[SSAValue]]:
        segments = op.properties.get("operandSegmentSizes")
        assert segments is not None
        assert hasattr(segments, "get_values")
        counts = list(segments.get_values())
        names = self.operands(op)
        starts = [sum(counts[:i]) for i in range(len(counts))]
        lower = names[starts[0] : starts[0] + counts[0]]
        upper = names[starts[1] : starts[1] + counts[1]]
        step = names[starts[2] : starts[2] + counts[2]]
        inits = list(op.operands[starts[3] : starts[3] + counts[3]])
        return lower, upper, step, inits

    def _may_run_in_parallel(self, op: Operation, has_reductions: bool) -> bool:
        """Whether the pragma may go on `op`: outermost, no reduction (the
        accumulators would race) and nothing that returns from the function."""
        if self.language.parallel_loop_pragma is None or self._in_parallel_loop:
            return False
        if has_reductions:
            return False
        return not any(inner.name in _EARLY_EXIT_OPS for inner in op.walk())

    @emits("scf.parallel")
    def _parallel(self, op: Operation) -> None:
        lower, upper, step, inits = self._parallel_bounds(op)
        self.parallel_loop(op, lower, upper, step, inits)

    @emits("scf.forall")
    def _forall(self, op: Operation) -> None:
        """`scf.forall` on memrefs: a parallel loop nest like `scf.parallel`."""
        if op.results:
            raise self.error(
                op, "scf.forall with shared_outs (tensors) is not loop-level"
            )
        body = op.regions[0].blocks[0]
        terminator = _terminator(body)
        if terminator is not None and any(
            region.blocks and list(region.blocks[0].ops)
            for region in terminator.regions
        ):
            raise self.error(op, "scf.forall.in_parallel must be empty at loop level")

        def bounds(static_name: str, operand_name: str) -> list[str]:
            static = op.properties[static_name]
            assert hasattr(static, "get_values")
            values = self.dynamic_or_static(
                static.get_values(), list(getattr(op, operand_name))
            )
            return [_index_text(value) for value in values]

        lower = bounds("staticLowerBound", "dynamicLowerBound")
        upper = bounds("staticUpperBound", "dynamicUpperBound")
        step = bounds("staticStep", "dynamicStep")
        self.parallel_loop(op, lower, upper, step, [])

    def parallel_loop(
        self,
        op: Operation,
        lower: list[str],
        upper: list[str],
        step: list[str],
        inits: list[SSAValue],
    ) -> None:
        """A loop nest over every induction variable of `op`, under the
        parallel-loop pragma where `_may_run_in_parallel` allows it."""
        body = op.regions[0].blocks[0]
        accumulators = self.declare_carried(list(op.results), op, inits)
        pragma = self._may_run_in_parallel(op, bool(inits))
        outer_flag = self._in_parallel_loop
        self._in_parallel_loop = True
        try:
            with self.nested_scope():
                if pragma and self.language.parallel_loop_pragma is not None:
                    collapse = f" collapse({len(lower)})" if len(lower) > 1 else ""
                    for line in self.language.parallel_loop_pragma:
                        self.writer.line(line.format(collapse=collapse))
                self._parallel_nest(op, body, lower, upper, step, accumulators, [])
        finally:
            self._in_parallel_loop = outer_flag
        self.bind_carried(op, accumulators)

    def _parallel_nest(
        self,
        op: Operation,
        body: Block,
        lower: list[str],
        upper: list[str],
        step: list[str],
        accumulators: list[str],
        ivs: list[str],
    ) -> None:
        depth = len(ivs)
        if depth == len(lower):
            for argument, iv in zip(body.args, ivs, strict=True):
                self.scope.values[argument] = iv
            reduce_op = self.emit_ops(body)
            if reduce_op is not None and reduce_op.operands:
                self._reduce(reduce_op, accumulators)
            return
        argument = body.args[depth]
        iv = self.fresh_name(argument.name_hint or f"i{depth}")
        header = self.loop_header(iv, "index", lower[depth], upper[depth], step[depth])
        with self.block(header):
            self._parallel_nest(op, body, lower, upper, step, accumulators, [*ivs, iv])

    def _reduce(self, op: Operation, accumulators: list[str]) -> None:
        """Fold each `scf.reduce` operand into its accumulator with the
        combiner region (sequentially: loops with reductions get no pragma)."""
        for value, region, accumulator in zip(
            op.operands, op.regions, accumulators, strict=True
        ):
            with self.block(""):
                block = region.blocks[0]
                for argument, expr in zip(
                    block.args, [accumulator, self.name_of(value)], strict=True
                ):
                    self.scope.values[argument] = expr
                terminator = self.emit_ops(block)
                if terminator is None or len(terminator.operands) != 1:
                    raise self.unprintable(op)
                self.writer.line(
                    f"{accumulator} = {self.name_of(terminator.operands[0])};"
                )

    # -- func and cf -------------------------------------------------------------

    @emits("func.call")
    def _call(self, op: Operation) -> None:
        callee_attr = op.properties.get("callee")
        root = getattr(callee_attr, "root_reference", None)
        symbol = getattr(root, "data", None)
        callee = self.functions.get(symbol) if isinstance(symbol, str) else None
        if callee is None or symbol not in self.symbols:
            raise self.error(op, "calls only functions defined in the module")
        if op.results:
            raise self.error(op, "functions return through output buffers")
        arguments: list[str] = []
        for index, operand in enumerate(op.operands):
            if isinstance(operand.type, MemRefType):
                view = self.view_of(operand, op)
                if view.read_only and is_output_argument(callee, index):
                    raise self.error(
                        op, f"passes a read-only buffer as output argument #{index}"
                    )
                arguments.append(view.pointer)
            else:
                arguments.append(self.name_of(operand))
        status = self.fresh_name("status")
        self.writer.line(
            f"int {status} = {self.symbols[symbol]}({', '.join(arguments)});"
        )
        self.writer.line(f"if ({status} != 0) return {status};")

    @emits("cf.assert")
    def _assert(self, op: Operation) -> None:
        (condition,) = self.operands(op)
        self.writer.line(f"if (!{condition}) return {self.assertion_status[op]};")


_DYNAMIC = -(2**63)
_FLOAT_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
_PROTOTYPE_MARK = "\x00prototype:"


# ---------------------------------------------------------------------------
# Helpers: `static inline` functions, generated on demand per type
# ---------------------------------------------------------------------------


def _helper_body(emitter: CStyleEmitter, kind: str, key: str, other: str | None) -> str:
    """The C text of helper `kind` for type `key` (`{name}` left to fill)."""
    t = emitter.type_name(key)
    u = _unsigned_name(key)
    wide = _wrap_name(key)
    width = _width(key)
    if kind in ("divsi", "remsi", "floordivsi", "ceildivsi") and key == "i1":
        # As signed i1 (-1 or 0), the only nonzero divisor is -1.
        results = {
            "divsi": "b ? (bool)(a & 1) : false",
            "remsi": "false",
            "floordivsi": "b ? (bool)(a & 1) : false",
            "ceildivsi": "b ? (bool)(a & 1) : false",
        }
        return (
            f"{t} {{name}}({t} a, {t} b) {{ (void)a; (void)b; "
            f"return {results[kind]}; }}"
        )
    bodies = {
        # C division truncates toward zero, as MLIR's does; /0 gives 0 and
        # INT_MIN / -1 wraps (the interpreter's choices for MLIR's UB).
        "divsi": (
            f"if (b == 0) return 0;\n"
            f"    if (b == -1) return ({t})(({wide})0 - ({wide})a);\n"
            f"    return a / b;"
        ),
        "remsi": "if (b == 0 || b == -1) return 0;\n    return a % b;",
        "floordivsi": (
            f"if (b == 0) return 0;\n"
            f"    if (b == -1) return ({t})(({wide})0 - ({wide})a);\n"
            f"    {t} q = a / b;\n"
            f"    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;"
        ),
        "ceildivsi": (
            f"if (b == 0) return 0;\n"
            f"    if (b == -1) return ({t})(({wide})0 - ({wide})a);\n"
            f"    {t} q = a / b;\n"
            f"    return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;"
        ),
        "affine_mod": "if (b == 0) return 0;\n    int64_t r = a % b;\n"
        "    return r < 0 ? r + (b < 0 ? -b : b) : r;",
        "divui": f"return b == 0 ? 0 : ({t})(({u})a / ({u})b);",
        "remui": f"return b == 0 ? 0 : ({t})(({u})a % ({u})b);",
        "ceildivui": (
            f"if (b == 0) return 0;\n"
            f"    return ({t})(({u})a / ({u})b + (({u})a % ({u})b != 0));"
        ),
        # Shifts by the width or more: 0, or the sign fill for shrsi.
        "shli": f"return ({u})b >= {width}u ? 0 : ({t})(({wide})a << ({u})b);",
        "shrui": f"return ({u})b >= {width}u ? 0 : ({t})(({u})a >> ({u})b);",
        "shrsi": (
            f"return ({t})(a < 0 ? ~(~({wide})a >> "
            f"(({u})b >= {width}u ? {width - 1}u : ({u})b)) : "
            f"({wide})a >> (({u})b >= {width}u ? {width - 1}u : ({u})b));"
        ),
        "ipowi": (
            f"if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);\n"
            f"    {wide} result = 1, base = ({wide})a;\n"
            f"    while (b != 0) {{\n"
            f"        if (b & 1) result *= base;\n"
            f"        base *= base;\n"
            f"        b >>= 1;\n"
            f"    }}\n"
            f"    return ({t})result;"
        ),
        "ctpop": (
            f"{t} count = 0;\n    {u} bits = ({u})a;\n"
            f"    while (bits != 0) {{ count += (bits & 1u); bits >>= 1; }}\n"
            f"    return count;"
        ),
        "ctlz": (
            f"{u} bits = ({u})a;\n    {t} count = {width};\n"
            f"    while (bits != 0) {{ count -= 1; bits >>= 1; }}\n"
            f"    return count;"
        ),
        "cttz": (
            f"{u} bits = ({u})a;\n    if (bits == 0) return {width};\n"
            f"    {t} count = 0;\n"
            f"    while ((bits & 1u) == 0) {{ count += 1; bits >>= 1; }}\n"
            f"    return count;"
        ),
    }
    if kind in ("ctpop", "ctlz", "cttz"):
        if key == "i1":
            expr = {"ctpop": "a", "ctlz": "!a", "cttz": "!a"}[kind]
            return f"{t} {{name}}({t} a) {{ return {expr}; }}"
        return f"{t} {{name}}({t} a) {{\n    {bodies[kind]}\n}}"
    if kind in bodies:
        if key == "i1" and kind in ("shli", "shrui", "shrsi", "ipowi"):
            expr = {
                "shli": "b ? false : a",
                "shrui": "b ? false : a",
                "shrsi": "a",
                "ipowi": "b == 0 ? true : a",
            }[kind]
            return f"{t} {{name}}({t} a, {t} b) {{ (void)b; return {expr}; }}"
        return f"{t} {{name}}({t} a, {t} b) {{\n    {bodies[kind]}\n}}"
    if kind in ("maximumf", "minimumf"):
        pick = ">" if kind == "maximumf" else "<"
        # Equal operands are either equal numbers or +0 and -0: keep `a` when
        # it is the zero with the sign this op prefers.
        prefer_a = "signbit(b)" if kind == "maximumf" else "signbit(a)"
        # Selects only, no branches: with -fno-trapping-math the C compiler
        # if-converts them and vectorises loops using this helper. The NaN test
        # is a bitwise `|` (both sides are pure): a short-circuit `||` gave
        # NVVM a branch after every load, which kept a row reduction's loads
        # from being issued together.
        return (
            f"{t} {{name}}({t} a, {t} b) {{\n"
            f"    {t} m = a {pick} b ? a : b;\n"
            f"    m = (a == b && {prefer_a}) ? a : m;\n"
            f"    return (isnan(a) | isnan(b)) ? a + b : m;\n}}"
        )
    if kind in ("fptosi", "fptoui"):
        assert other is not None
        target = emitter.type_name(other)
        compute = emitter.compute_name(key)
        target_width = _width(other)
        if other == "i1":
            # Saturating into i1's range: -1 or 0 signed, 0 or 1 unsigned.
            test = "<= -1" if kind == "fptosi" else ">= 1"
            return f"{target} {{name}}({t} a) {{ return ({compute})a {test}; }}"
        if kind == "fptosi":
            low = f"-0x1p{target_width - 1}"
            high = f"0x1p{target_width - 1}"
            low_value = f"INT{target_width}_MIN"
            high_value = f"INT{target_width}_MAX"
            converted = f"({target})x"
        else:
            low = "0"
            high = f"0x1p{target_width}"
            low_value = "0"
            high_value = f"({target})UINT{target_width}_MAX"
            converted = f"({target})(uint{target_width}_t)x"
        return (
            f"{target} {{name}}({t} a) {{\n"
            f"    {compute} x = ({compute})a;\n"
            f"    if (isnan(x)) return 0;\n"
            f"    if (x <= {low}) return {low_value};\n"
            f"    if (x >= {high}) return {high_value};\n"
            f"    return {converted};\n}}"
        )
    if kind == "bitcast":
        assert other is not None
        target = emitter.type_name(other)
        return (
            f"{target} {{name}}({t} a) {{\n"
            f"    {target} result;\n"
            f"    memcpy(&result, &a, sizeof result);\n"
            f"    return result;\n}}"
        )
    raise AssertionError(f"no helper {kind}")
