"""Printers of the scalar ops: `arith`, `math` and `affine.apply/min/max`.

Each printer declares one local per result (`CStyleEmitter.declare`). What C
computes differently from MLIR is handled here or in a helper
(`irkit.targets.semantics`, generated on first use by `emitter.helper`):

- integer constants are literals, not variables, so the C compiler sees
  loop bounds and steps;
- `addi`/`subi`/`muli` and `absi` wrap: computed in `uint32_t`/`uint64_t`
  (never `int`, whose overflow is undefined) and converted back;
- signed comparisons and conversions read i1 as -1 or 0, unsigned ones go
  through the unsigned type of the width;
- division, remainder, shifts, `ipowi`, bit counts, `maximumf`/`minimumf`,
  float to integer and `bitcast` call helpers;
- `cmpf`'s unordered predicates are the negation of the opposite ordered
  comparison (C's relational operators are false on NaN);
- f16 and bf16 operands are widened to the language's compute type and the
  result narrowed back (`CStyleEmitter.widen`/`narrow`: casts, or C's bf16
  helpers), so each op rounds once to its type; conversions to bf16 from
  f64 or a wide integer round once too;
- math functions are the language's templates per float width
  (`Language.math_functions`), except those the language computes with a
  generated helper (`Language.math_helpers`: C's vectorisable f32 `exp`,
  `tanh` and `erf`, `irkit.targets.c_math`);
- `affine` expressions use MLIR's `floordiv`, `ceildiv` and `mod`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import AffineMapAttr, FloatAttr, IntegerAttr, MemRefType
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from irkit.targets.language import (
    IDENTIFIER,
    is_float,
    is_half,
    unsigned_type,
    width_of,
    wrap_type,
)
from irkit.targets.views import index_literal

if TYPE_CHECKING:
    from irkit.targets.cstyle import CStyleEmitter, Printer

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


# ---------------------------------------------------------------------------
# arith: constants and integers
# ---------------------------------------------------------------------------


def _constant(emitter: CStyleEmitter, op: Operation) -> None:
    value = op.properties["value"]
    result = op.results[0]
    key = emitter.key_of(result.type, op)
    if isinstance(value, FloatAttr):
        emitter.declare(result, emitter.literal(value.value.data, key), op)
    elif isinstance(value, IntegerAttr):
        # Integer and index constants are used as literals, not variables:
        # loop bounds and steps the C compiler can see are what lets it
        # count iterations (and vectorise) inside OpenMP-outlined loops.
        literal = emitter.literal(value.value.data, key)
        if not IDENTIFIER.fullmatch(literal) and not literal.isdigit():
            literal = f"({literal})"
        emitter.scope.values[result] = literal
    else:
        raise emitter.error(op, "only scalar constants can be printed")


def _signed(expr: str, key: str) -> str:
    """`expr` read as a signed integer (i1: true is -1)."""
    return f"(-(int32_t){expr})" if key == "i1" else expr


def _wrap(emitter: CStyleEmitter, expr: str, key: str) -> str:
    """An unsigned result `expr` converted back to type `key` (mod 2^w)."""
    if key == "i1":
        return f"(bool)(({expr}) & 1u)"
    return f"({emitter.type_name(key)})({expr})"


def _wrapping_binary(emitter: CStyleEmitter, op: Operation) -> None:
    key = emitter.key_of(op.results[0].type, op)
    lhs, rhs = emitter.operands(op)
    wide = wrap_type(key)
    operator = _WRAPPING_BINARY[op.name]
    expr = f"({wide}){lhs} {operator} ({wide}){rhs}"
    emitter.declare(op.results[0], _wrap(emitter, expr, key), op)


def _bitwise_binary(emitter: CStyleEmitter, op: Operation) -> None:
    key = emitter.key_of(op.results[0].type, op)
    lhs, rhs = emitter.operands(op)
    expr = f"{lhs} {_BITWISE_BINARY[op.name]} {rhs}"
    emitter.declare(op.results[0], f"({emitter.type_name(key)})({expr})", op)


def _integer_helper(emitter: CStyleEmitter, op: Operation) -> None:
    key = emitter.key_of(op.operands[0].type, op)
    if is_float(key):
        raise emitter.unprintable(op)
    helper = emitter.helper(_INTEGER_HELPERS[op.name], key)
    result_key = emitter.key_of(op.results[0].type, op)
    call = f"{helper}({', '.join(emitter.operands(op))})"
    if result_key != key:  # ctlz etc. may produce another width
        call = f"({emitter.type_name(result_key)}){call}"
    emitter.declare(op.results[0], call, op)


def _integer_extremum(emitter: CStyleEmitter, op: Operation) -> None:
    key = emitter.key_of(op.results[0].type, op)
    lhs, rhs = emitter.operands(op)
    if op.name.endswith("ui"):
        unsigned = unsigned_type(key)
        left, right = f"({unsigned}){lhs}", f"({unsigned}){rhs}"
    else:
        left, right = _signed(lhs, key), _signed(rhs, key)
    operator = ">" if "max" in op.name else "<"
    emitter.declare(op.results[0], f"{left} {operator} {right} ? {lhs} : {rhs}", op)


def _cmpi(emitter: CStyleEmitter, op: Operation) -> None:
    predicate_attr = op.properties["predicate"]
    assert isinstance(predicate_attr, IntegerAttr)
    predicate = _CMPI_PREDICATES[predicate_attr.value.data]
    key = emitter.key_of(op.operands[0].type, op)
    lhs, rhs = emitter.operands(op)
    if predicate[0] == "u":
        unsigned = unsigned_type(key)
        lhs, rhs = f"({unsigned}){lhs}", f"({unsigned}){rhs}"
    elif predicate[0] == "s":
        lhs, rhs = _signed(lhs, key), _signed(rhs, key)
    operator = _CMPI_OPERATORS[predicate[-2:]]
    emitter.declare(op.results[0], f"{lhs} {operator} {rhs}", op)


def _select(emitter: CStyleEmitter, op: Operation) -> None:
    if isinstance(op.results[0].type, MemRefType):
        raise emitter.error(op, "selecting between memrefs is not supported")
    condition, on_true, on_false = emitter.operands(op)
    emitter.declare(op.results[0], f"{condition} ? {on_true} : {on_false}", op)


# ---------------------------------------------------------------------------
# arith: casts
# ---------------------------------------------------------------------------


def _integer_cast(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.key_of(op.operands[0].type, op)
    target = emitter.key_of(op.results[0].type, op)
    (value,) = emitter.operands(op)
    if target == "i1":
        expr = f"(bool)({value} & 1)"
    elif op.name in ("arith.extui", "arith.index_castui"):
        expr = f"({emitter.type_name(target)})({unsigned_type(source)}){value}"
    else:
        # Through the unsigned target type: wraps mod 2^w on truncation.
        expr = (
            f"({emitter.type_name(target)})({unsigned_type(target)})"
            f"{_signed(value, source)}"
        )
    emitter.declare(op.results[0], expr, op)


def _integer_to_float(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.key_of(op.operands[0].type, op)
    target = emitter.key_of(op.results[0].type, op)
    (value,) = emitter.operands(op)
    if op.name == "arith.uitofp":
        value = f"({unsigned_type(source)}){value}"
    else:
        value = _signed(value, source)
    if target in emitter.language.helper_converted:
        emitter.declare(op.results[0], emitter.narrow(target, value, source), op)
        return
    emitter.declare(op.results[0], f"({emitter.type_name(target)}){value}", op)


def _float_to_integer(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.key_of(op.operands[0].type, op)
    target = emitter.key_of(op.results[0].type, op)
    kind = op.name.split(".")[1]
    (value,) = emitter.operands(op)
    if source in emitter.language.helper_converted:
        # Bits the helper could not compare: widened (exactly) first.
        value, source = emitter.widen(source, value), "f32"
    helper = emitter.helper(kind, source, target)
    emitter.declare(op.results[0], f"{helper}({value})", op)


def _float_cast(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.key_of(op.operands[0].type, op)
    target = emitter.key_of(op.results[0].type, op)
    (value,) = emitter.operands(op)
    converted = emitter.language.helper_converted
    if is_half(source) and (is_half(target) or source in converted):
        # Exactly to float first: f16 <-> bf16 has no direct conversion, and
        # bits are no number.
        value, source = emitter.widen(source, value), "f32"
        if target == "f32":
            emitter.declare(op.results[0], value, op)
            return
    if target in converted or (is_half(source) and is_half(target)):
        emitter.declare(op.results[0], emitter.narrow(target, value, source), op)
        return
    emitter.declare(op.results[0], f"({emitter.type_name(target)}){value}", op)


def _bitcast(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.key_of(op.operands[0].type, op)
    target = emitter.key_of(op.results[0].type, op)
    (value,) = emitter.operands(op)
    if source == target:
        emitter.declare(op.results[0], value, op)
        return
    helper = emitter.helper("bitcast", source, target)
    emitter.declare(op.results[0], f"{helper}({value})", op)


# ---------------------------------------------------------------------------
# arith and math: floats
# ---------------------------------------------------------------------------


def _widened(emitter: CStyleEmitter, op: Operation) -> tuple[str, list[str]]:
    """The result key and the operands as the compute type (f16 and bf16
    widen)."""
    key = emitter.key_of(op.results[0].type, op)
    operands = [emitter.widen(key, operand) for operand in emitter.operands(op)]
    return key, operands


def _narrowed(emitter: CStyleEmitter, expr: str, key: str) -> str:
    return emitter.narrow(key, expr)


def _float_binary(emitter: CStyleEmitter, op: Operation) -> None:
    key, (lhs, rhs) = _widened(emitter, op)
    expr = f"{lhs} {_FLOAT_BINARY[op.name]} {rhs}"
    emitter.declare(op.results[0], _narrowed(emitter, expr, key), op)


def _negf(emitter: CStyleEmitter, op: Operation) -> None:
    key, (value,) = _widened(emitter, op)
    emitter.declare(op.results[0], _narrowed(emitter, f"-{value}", key), op)


def _nan_propagating_extremum(emitter: CStyleEmitter, op: Operation) -> None:
    key, operands = _widened(emitter, op)
    compute_key = "f32" if is_half(key) else key
    helper = emitter.helper(_MATH_HELPERS[op.name], compute_key)
    emitter.declare(
        op.results[0], _narrowed(emitter, f"{helper}({', '.join(operands)})", key), op
    )


def _cmpf(emitter: CStyleEmitter, op: Operation) -> None:
    predicate_attr = op.properties["predicate"]
    assert isinstance(predicate_attr, IntegerAttr)
    predicate = _CMPF_PREDICATES[predicate_attr.value.data]
    key = emitter.key_of(op.operands[0].type, op)
    lhs, rhs = (emitter.widen(key, operand) for operand in emitter.operands(op))
    emitter.declare(op.results[0], _CMPF_TEMPLATES[predicate].format(lhs, rhs), op)


def _math_template(emitter: CStyleEmitter, op: Operation, key: str) -> str:
    width = 32 if is_half(key) else width_of(key)
    template = emitter.language.math_functions[width].get(op.name)
    if template is None:
        raise emitter.unprintable(op)
    return template


def _math_function(emitter: CStyleEmitter, op: Operation) -> None:
    key, operands = _widened(emitter, op)
    if not is_float(key):
        raise emitter.unprintable(op)
    helper_kind = emitter.language.math_helpers.get(op.name)
    if helper_kind is not None and (key == "f32" or is_half(key)):
        expr = f"{emitter.helper(helper_kind, 'f32')}({', '.join(operands)})"
    else:
        expr = _math_template(emitter, op, key).format(*operands)
    emitter.declare(op.results[0], _narrowed(emitter, expr, key), op)


def _fpowi(emitter: CStyleEmitter, op: Operation) -> None:
    key = emitter.key_of(op.results[0].type, op)
    base, exponent = emitter.operands(op)
    compute = emitter.compute_name(key)
    template = emitter.language.math_functions[32 if is_half(key) else width_of(key)][
        "math.powf"
    ]
    expr = template.format(emitter.widen(key, base), f"({compute}){exponent}")
    emitter.declare(op.results[0], _narrowed(emitter, expr, key), op)


def _absi(emitter: CStyleEmitter, op: Operation) -> None:
    key = emitter.key_of(op.results[0].type, op)
    (value,) = emitter.operands(op)
    if key == "i1":
        emitter.declare(op.results[0], value, op)
        return
    wide = wrap_type(key)
    expr = f"{value} < 0 ? ({wide})0 - ({wide}){value} : ({wide}){value}"
    emitter.declare(op.results[0], _wrap(emitter, expr, key), op)


# ---------------------------------------------------------------------------
# affine
# ---------------------------------------------------------------------------


def _affine_expr(
    emitter: CStyleEmitter, expr: AffineExpr, operands: Sequence[str], dims: int
) -> str:
    if isinstance(expr, AffineConstantExpr):
        return index_literal(expr.value)
    if isinstance(expr, AffineDimExpr):
        return operands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return operands[dims + expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = _affine_expr(emitter, expr.lhs, operands, dims)
    rhs = _affine_expr(emitter, expr.rhs, operands, dims)
    if expr.kind == AffineBinaryOpKind.Add:
        return f"({lhs} + {rhs})"
    if expr.kind == AffineBinaryOpKind.Mul:
        return f"({lhs} * {rhs})"
    helper = {
        AffineBinaryOpKind.FloorDiv: "floordivsi",
        AffineBinaryOpKind.CeilDiv: "ceildivsi",
        AffineBinaryOpKind.Mod: "affine_mod",
    }[expr.kind]
    return f"{emitter.helper(helper, 'index')}({lhs}, {rhs})"


def _affine(emitter: CStyleEmitter, op: Operation) -> None:
    map_attr = op.properties.get("map")
    if not isinstance(map_attr, AffineMapAttr):
        raise emitter.unprintable(op)
    affine_map = map_attr.data
    operands = emitter.operands(op)
    results = [
        _affine_expr(emitter, result, operands, affine_map.num_dims)
        for result in affine_map.results
    ]
    if op.name == "affine.apply" or len(results) == 1:
        emitter.declare(op.results[0], results[0], op)
        return
    name = emitter.declare(op.results[0], results[0], op)
    operator = "<" if op.name == "affine.min" else ">"
    for result in results[1:]:
        emitter.writer.line(f"if ({result} {operator} {name}) {name} = {result};")


# The ops printed through the language's math templates.
_MATH_FUNCTIONS = (
    "math.absf", "math.acos", "math.acosh", "math.asin", "math.asinh",
    "math.atan", "math.atanh", "math.cbrt", "math.ceil", "math.cos",
    "math.cosh", "math.erf", "math.exp", "math.exp2", "math.expm1",
    "math.floor", "math.log", "math.log10", "math.log1p", "math.log2",
    "math.round", "math.roundeven", "math.rsqrt", "math.sin", "math.sinh",
    "math.sqrt", "math.tan", "math.tanh", "math.trunc", "math.atan2",
    "math.copysign", "math.powf", "math.fma", "arith.remf",
    "arith.maxnumf", "arith.minnumf",
)  # fmt: skip

ARITH_PRINTERS: dict[str, Printer] = {
    "arith.constant": _constant,
    **dict.fromkeys(_WRAPPING_BINARY, _wrapping_binary),
    **dict.fromkeys(_BITWISE_BINARY, _bitwise_binary),
    **dict.fromkeys(_INTEGER_HELPERS, _integer_helper),
    **dict.fromkeys(
        ("arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"),
        _integer_extremum,
    ),
    "arith.cmpi": _cmpi,
    "arith.select": _select,
    **dict.fromkeys(
        (
            "arith.extsi",
            "arith.extui",
            "arith.trunci",
            "arith.index_cast",
            "arith.index_castui",
        ),
        _integer_cast,
    ),
    **dict.fromkeys(("arith.sitofp", "arith.uitofp"), _integer_to_float),
    **dict.fromkeys(("arith.fptosi", "arith.fptoui"), _float_to_integer),
    **dict.fromkeys(("arith.extf", "arith.truncf"), _float_cast),
    "arith.bitcast": _bitcast,
    **dict.fromkeys(_FLOAT_BINARY, _float_binary),
    "arith.negf": _negf,
    **dict.fromkeys(_MATH_HELPERS, _nan_propagating_extremum),
    "arith.cmpf": _cmpf,
    **dict.fromkeys(_MATH_FUNCTIONS, _math_function),
    "math.fpowi": _fpowi,
    "math.absi": _absi,
    **dict.fromkeys(("affine.apply", "affine.min", "affine.max"), _affine),
}
