"""What a C dialect spells differently, and how names are made in it.

`Language` is the table a C-family target fills in (C in `irkit.targets.c`,
CUDA C in `irkit.targets.cuda`): type names, qualifiers, math function names
per float width, barrier, thread indices, pragmas. The walk
(`irkit.targets.cstyle`) reads only this, never the target's name, so the
targets differ in data, not in branches (tinygrad's `CStyleLanguage` /
`CUDARenderer` split).

Also here: irkit's keys for scalar types (`f32`, `i8`, `index`) and what
follows from a key (its width, its unsigned type, the type wrapping
arithmetic runs in), and the identifiers a printed unit may not use for
its own names: C keywords, the macros and library functions of the headers
it includes, the `irkit_` prefix of the generated helpers. `mangle_symbol`
turns an IR symbol into an identifier outside those.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute


@dataclass(frozen=True)
class Language:
    """What one C dialect spells differently; the walk reads only this.

    `scalar_types` maps irkit's type keys (`f16 bf16 f32 f64 i1 i8 i16 i32
    i64 index`) to type names. `math_functions[width]` maps a `math`/`arith`
    op name to a format template over its operands (`"expf({0})"`) for floats
    of that width; the half keys (f16, bf16) use the f32 templates on values
    widened to `half_compute_type`, by a cast, or, for the keys in
    `helper_converted`, which the language stores as raw bits it cannot
    compute on (bf16 in C), by the generated helpers `widen`/`narrow`.
    `bits_literals` spells a constant of a half key from its bit pattern
    (`{bits}`, an int) where a float literal would not do: raw bits in C's
    bf16, and in CUDA a constant expression (a `__device__` global's
    initialiser may not call `__half`'s or `__nv_bfloat16`'s conversions).
    `parallel_loop_pragma` is printed line by line before a parallel loop
    nest, `{collapse}` filled with ` collapse(n)` and `{simd}` with ` simd`
    for a collapsed nest whose body has no loop.
    `unroll_pragma` goes before an `scf.for` marked `irkit.unroll` (the
    loop's constant trip count fills `{count}`).
    `math_helpers` maps a `math` op to the kind of a generated f32 helper
    (`CStyleEmitter.helper`) that computes it in place of its
    `math_functions` template, for f32 and the halves computed in f32 (C:
    the vectorisable `exp`, `tanh`, `erf` of `irkit.targets.c_math`).
    `vector_typedef` declares the type of a 1-D `vector` value (`{name}`,
    `{element}`'s type name, `{bytes}` its size), None where the language
    has no vector types.
    """

    target_name: str
    includes: tuple[str, ...]
    scalar_types: Mapping[str, str]
    half_compute_type: str
    helper_converted: frozenset[str]
    bits_literals: Mapping[str, str]
    function_qualifier: str
    helper_qualifier: str
    restrict: str
    # Whether a buffer a function both writes and reads may be `restrict`:
    # in C one thread owns each element it writes; in CUDA a kernel's threads
    # read what others wrote before a barrier, and NVRTC/nvcc then kept a
    # stale value for a `__restrict__` buffer (every thread but the one that
    # stored saw a row maximum's initial -inf on the H100).
    restrict_read_write: bool
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
    math_helpers: Mapping[str, str] = field(default_factory=dict)
    vector_typedef: str | None = None

    def type_name(self, key: str) -> str:
        """The name of scalar type `key` (`float`, `int64_t`)."""
        return self.scalar_types[key]

    def compute_type_name(self, key: str) -> str:
        """The type arithmetic on `key` is done in (f16 and bf16 widen)."""
        return self.half_compute_type if is_half(key) else self.scalar_types[key]


# ---------------------------------------------------------------------------
# Identifiers
# ---------------------------------------------------------------------------

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

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MACRO_LIKE = re.compile(r"[A-Z][A-Z0-9_]*")
HELPER_PREFIX = "irkit_"


def is_reserved(name: str, reserved: frozenset[str]) -> bool:
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
    if is_reserved(mangled, reserved):
        mangled += "_fn"
    if mangled in taken:
        mangled += "_h" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    unique, counter = mangled, 1
    while unique in taken:
        unique, counter = f"{mangled}_{counter}", counter + 1
    taken.add(unique)
    return unique


# ---------------------------------------------------------------------------
# Scalar types
# ---------------------------------------------------------------------------

_INTEGER_WIDTHS = (1, 8, 16, 32, 64)


def type_key(mlir_type: Attribute) -> str | None:
    """irkit's key for a scalar type (`f32`, `i8`, `index`), None if unsupported."""
    if isinstance(mlir_type, Float16Type):
        return "f16"
    if isinstance(mlir_type, BFloat16Type):
        return "bf16"
    if isinstance(mlir_type, Float32Type):
        return "f32"
    if isinstance(mlir_type, Float64Type):
        return "f64"
    if isinstance(mlir_type, IndexType):
        return "index"
    if isinstance(mlir_type, IntegerType) and mlir_type.width.data in _INTEGER_WIDTHS:
        return f"i{mlir_type.width.data}"
    return None


# The 16-bit float keys: stored in 16 bits, computed in `half_compute_type`.
HALF_KEYS = frozenset({"f16", "bf16"})


def width_of(key: str) -> int:
    if key == "index":
        return 64
    return 16 if key == "bf16" else int(key[1:])


def is_float(key: str) -> bool:
    return key.startswith("f") or key == "bf16"


def is_half(key: str) -> bool:
    """Whether `key` is stored in 16 bits and computed in the compute type."""
    return key in HALF_KEYS


def unsigned_type(key: str) -> str:
    """The unsigned type of the same width (`uint8_t`; i1 reads as 0/1)."""
    return "uint32_t" if key == "i1" else f"uint{width_of(key)}_t"


def wrap_type(key: str) -> str:
    """Where wrapping arithmetic of `key` is computed: at least 32 bits, so
    promotion to `int` never happens (a `uint16_t` product would overflow)."""
    return "uint64_t" if width_of(key) == 64 else "uint32_t"
