"""C for the MLIR semantics that C lacks: the generated helper functions.

Where MLIR's result is poison or undefined, or C's operator means something
else, the walk calls a small helper printed once per type (by
`CStyleEmitter.helper`, `static inline` in C, `static __device__
__forceinline__` in CUDA) that computes the interpreter's documented result:

- integer division and remainder: C truncates toward zero as MLIR does;
  `x / 0` is 0 and `INT_MIN / -1` wraps; `floordivsi`/`ceildivsi` round
  toward minus/plus infinity, and affine `mod` is never negative;
- shifts by the width or more give 0, or the sign fill for `shrsi`;
- `ipowi`, `ctpop`, `ctlz`, `cttz` as loops C has no operator for;
- `maximumf`/`minimumf` propagate NaN and order -0 below +0 (C's `fmaxf`
  drops NaN);
- float to integer saturates to the type's range and maps NaN to 0
  (`cvt.rzi.sat`; C leaves out-of-range conversions undefined);
- `bitcast` goes through `memcpy` (a pointer cast would break aliasing);
- bf16 where the language has no bf16 type (C: `uint16_t` bits) widens to
  float exactly (the bits shifted up) and narrows with round to nearest
  even, NaN kept NaN (quieted), overflow to infinity; from double it rounds
  to odd into float first, so it rounds once as MLIR's `truncf` does;
- i1 is -1 or 0 as a signed number, so its signed division is its own case;
- where the language asks for them (`Language.math_helpers`, C), f32
  `exp`, `tanh` and `erf` as polynomials the compiler vectorises
  (`irkit.targets.c_math`); `tanh` and `erf` call `exp`
  (`HELPER_DEPENDENCIES`).
"""

from __future__ import annotations

from irkit.targets.c_math import MATH_HELPER_DEPENDENCIES, math_helper_body
from irkit.targets.language import Language, unsigned_type, width_of, wrap_type

# The helpers each helper's body calls, by the placeholder naming it.
HELPER_DEPENDENCIES: dict[str, tuple[str, ...]] = {**MATH_HELPER_DEPENDENCIES}


def helper_body(language: Language, kind: str, key: str, other: str | None) -> str:
    """The C text of helper `kind` for type `key` (and target type `other`
    for conversions), `{name}` left to fill."""
    if kind in ("maximumf", "minimumf"):
        return _float_extremum_helper(language, kind, key)
    if kind in ("fptosi", "fptoui"):
        assert other is not None
        return _float_to_integer_helper(language, kind, key, other)
    if kind == "bitcast":
        assert other is not None
        return _bitcast_helper(language, key, other)
    if kind == "widen":
        return _bf16_widen_helper(language, key)
    if kind == "narrow":
        return _bf16_narrow_helper(language, key, other)
    if kind in language.math_helpers.values():
        assert key == "f32"
        return math_helper_body(language, kind)
    return _integer_helper(language, kind, key)


def _integer_helper(language: Language, kind: str, key: str) -> str:
    """Division, remainder, shifts, `ipowi` and bit counts of integer `key`."""
    t = language.type_name(key)
    u = unsigned_type(key)
    wide = wrap_type(key)
    width = width_of(key)
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
        "affine_mod": f"if (b == 0) return 0;\n    {t} r = a % b;\n"
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
    raise AssertionError(f"no helper {kind}")


def _float_extremum_helper(language: Language, kind: str, key: str) -> str:
    """`maximumf`/`minimumf`: NaN propagates, -0 orders below +0."""
    t = language.type_name(key)
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


def _float_to_integer_helper(
    language: Language, kind: str, key: str, other: str
) -> str:
    """`fptosi`/`fptoui` from float `key` to integer `other`, saturating."""
    t = language.type_name(key)
    target = language.type_name(other)
    compute = language.compute_type_name(key)
    target_width = width_of(other)
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


def _bitcast_helper(language: Language, key: str, other: str) -> str:
    """The bits of a `key` value read as an `other` value."""
    t = language.type_name(key)
    target = language.type_name(other)
    return (
        f"{target} {{name}}({t} a) {{\n"
        f"    {target} result;\n"
        f"    memcpy(&result, &a, sizeof result);\n"
        f"    return result;\n}}"
    )


def _bf16_widen_helper(language: Language, key: str) -> str:
    """bf16 bits to float: the top half of float's bits, exact."""
    assert key == "bf16"
    t = language.type_name(key)
    return (
        f"float {{name}}({t} a) {{\n"
        f"    uint32_t bits = (uint32_t)a << 16;\n"
        f"    float result;\n"
        f"    memcpy(&result, &bits, sizeof result);\n"
        f"    return result;\n}}"
    )


def _bf16_narrow_helper(language: Language, key: str, source: str | None) -> str:
    """Float (or double, `source` f64) to bf16 bits, to nearest even.

    Adding 0x7fff plus the kept half's lowest bit to float's bits rounds the
    dropped half to nearest, ties to even, and carries into the exponent
    (to infinity past bf16's largest). A NaN would carry into the sign or
    become infinity: it keeps its top half with the quiet bit set instead.
    From double, float is reached by rounding to odd (toward zero, the last
    bit set if inexact), which cannot make a tie the final rounding did not
    see: one rounding in all."""
    assert key == "bf16"
    t = language.type_name(key)
    if source == "f64":
        head = (
            f"{t} {{name}}(double a) {{\n"
            f"    float single = (float)a;\n"
            f"    uint32_t bits;\n"
            f"    memcpy(&bits, &single, sizeof bits);\n"
            f"    if (isfinite(single) && (double)single != a) {{\n"
            f"        if (fabs((double)single) > fabs(a)) bits -= 1u;\n"
            f"        bits |= 1u;\n"
            f"    }}\n"
        )
    else:
        head = (
            f"{t} {{name}}(float a) {{\n"
            f"    uint32_t bits;\n"
            f"    memcpy(&bits, &a, sizeof bits);\n"
        )
    return head + (
        f"    if ((bits & 0x7fffffffu) > 0x7f800000u) "
        f"return ({t})((bits >> 16) | 0x0040u);\n"
        f"    bits += 0x7fffu + ((bits >> 16) & 1u);\n"
        f"    return ({t})(bits >> 16);\n}}"
    )
