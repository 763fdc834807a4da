"""Printers of the `vector` ops: 1-D vectors in the language's vector types.

A `vector<16xf32>` value is a local of the type the language's
`vector_typedef` declares (in C, GCC's vector extensions: `typedef float
irkit_v16f32 __attribute__((vector_size(64)));`, printed once per unit
before the helpers), which the C compiler keeps in a vector register where
the machine has one of that width. The ops print as statements, never as
calls: a function taking or returning a vector wider than the baseline
ABI's registers draws `-Wpsabi` from gcc when the unit is built without
`-march` flags, and a statement needs no ABI at all.

- `vector.load` / `vector.store`: `memcpy` between the local and the
  view's element at the indices (the memref's innermost dimension has unit
  stride, so the lanes are consecutive; `memcpy` makes no alignment or
  aliasing assumption, and gcc compiles it to one unaligned vector move);
- `vector.broadcast` of a scalar: the initialiser `{s, s, ..., s}` (exact
  for every value, -0.0 and NaN included);
- `vector.fma`: a loop over the lanes of the language's scalar `fma`
  (`fmaf` for f32): one rounding per lane, as MLIR's `vector.fma` (LLVM's
  `llvm.fma`); gcc turns the loop into one `vfmadd` where the target has
  FMA, and calls libm's `fmaf` lane by lane where it has not.

Only 1-D vectors of f32, f64 and integer elements are printed; the 16-bit
floats, which C computes in a wider type, and a language without vector
types (CUDA C here) get a located error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Operation

from irkit.targets.cstyle_memory import stored_element
from irkit.targets.language import HELPER_PREFIX, is_float, is_half, width_of

if TYPE_CHECKING:
    from irkit.targets.cstyle import CStyleEmitter, Printer


def vector_type_name(
    emitter: CStyleEmitter, vector_type: VectorType[Attribute], op: Operation
) -> str:
    """The C type of `vector_type`, its typedef added to the unit on first use."""
    template = emitter.language.vector_typedef
    if template is None:
        raise emitter.error(op, f"has no vector types ({vector_type})")
    key = emitter.key_of(vector_type.get_element_type(), op)
    if vector_type.get_num_dims() != 1 or vector_type.get_num_scalable_dims():
        raise emitter.error(
            op, f"prints 1-D fixed-size vectors only, not {vector_type}"
        )
    if is_half(key) or key == "i1":
        raise emitter.error(
            op, f"cannot hold {key} elements in a vector ({vector_type})"
        )
    lanes = vector_type.get_shape()[0]
    name = f"{HELPER_PREFIX}v{lanes}{key}"
    if name not in emitter.helpers:
        emitter.helpers[name] = template.format(
            element=emitter.type_name(key),
            name=name,
            bytes=lanes * width_of(key) // 8,
        )
    return name


def _declare_uninitialised(emitter: CStyleEmitter, op: Operation) -> str:
    """`T name;` for `op`'s vector result, bound in scope."""
    result = op.results[0]
    assert isinstance(result.type, VectorType)
    type_name = vector_type_name(emitter, result.type, op)
    name = emitter.fresh_name(result.name_hint)
    emitter.writer.line(f"{type_name} {name};")
    emitter.scope.values[result] = name
    return name


def _mark_unused(emitter: CStyleEmitter, op: Operation, name: str) -> None:
    if not op.results[0].uses:
        emitter.writer.line(f"(void){name};")


def _load(emitter: CStyleEmitter, op: Operation) -> None:
    view = emitter.view_of(op.operands[0], op)
    indices = [emitter.name_of(index) for index in op.operands[1:]]
    name = _declare_uninitialised(emitter, op)
    emitter.writer.line(f"memcpy(&{name}, &{view.element(indices)}, sizeof {name});")
    _mark_unused(emitter, op, name)


def _store(emitter: CStyleEmitter, op: Operation) -> None:
    vector_type = op.operands[0].type
    assert isinstance(vector_type, VectorType)
    vector_type_name(emitter, vector_type, op)
    value = emitter.name_of(op.operands[0])
    element = stored_element(emitter, op)
    emitter.writer.line(f"memcpy(&{element}, &{value}, sizeof {value});")


def _broadcast(emitter: CStyleEmitter, op: Operation) -> None:
    result_type = op.results[0].type
    assert isinstance(result_type, VectorType)
    if isinstance(op.operands[0].type, VectorType):
        raise emitter.error(op, "prints vector.broadcast of a scalar only")
    source = emitter.name_of(op.operands[0])
    lanes = result_type.get_shape()[0] if result_type.get_num_dims() == 1 else 1
    emitter.declare(op.results[0], "{" + ", ".join([source] * lanes) + "}", op)


def _fma(emitter: CStyleEmitter, op: Operation) -> None:
    result_type = op.results[0].type
    assert isinstance(result_type, VectorType)
    key = emitter.key_of(result_type.get_element_type(), op)
    if not is_float(key) or is_half(key):
        raise emitter.error(op, f"prints vector.fma of f32 and f64 only, not {key}")
    lhs, rhs, acc = emitter.operands(op)
    name = _declare_uninitialised(emitter, op)
    lane = emitter.fresh_name("lane")
    template = emitter.language.math_functions[width_of(key)]["math.fma"]
    lanes = result_type.get_shape()[0]
    index = emitter.type_name("index")
    header = f"for ({index} {lane} = 0; {lane} < {lanes}; {lane} += 1)"
    fused = template.format(f"{lhs}[{lane}]", f"{rhs}[{lane}]", f"{acc}[{lane}]")
    emitter.writer.line(f"{header} {name}[{lane}] = {fused};")
    _mark_unused(emitter, op, name)


VECTOR_PRINTERS: dict[str, Printer] = {
    "vector.load": _load,
    "vector.store": _store,
    "vector.broadcast": _broadcast,
    "vector.fma": _fma,
}
