"""The benchmark programs, written once in `nn`: `cpu.py` and `gpu.py` time
them beside their peers, and `tests/print_targets.py` prints their C and
CUDA. Each function returns the program's text at one size."""

from __future__ import annotations


def matmul(n: int) -> str:
    """C = A @ B, all n x n f32."""
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @main(%a: {t}, %b: {t}) -> {t} {{
  %c = nn.matmul %a, %b : {t}, {t} -> {t}
  return %c : {t}
}}"""


def half_matmul(n: int, element: str) -> str:
    """C = A @ B with n x n `element` (f16, bf16) operands and an f32 result,
    as torch-mlir exports `torch.mm` in half precision: a fill, then a
    mixed-precision `linalg.matmul`."""
    t = f"tensor<{n}x{n}x{element}>"
    c = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @main(%a: {t}, %b: {t}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : {c}
  %init = linalg.fill ins(%zero : f32) outs(%empty : {c}) -> {c}
  %r = linalg.matmul ins(%a, %b : {t}, {t}) outs(%init : {c}) -> {c}
  return %r : {c}
}}"""


def elementwise_chain(count: int) -> str:
    """relu(a * b + c) over `count` f32 elements."""
    t = f"tensor<{count}xf32>"
    return f"""
func.func @main(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %ab = nn.mul %a, %b : {t}, {t} -> {t}
  %s = nn.add %ab, %c : {t}, {t} -> {t}
  %r = nn.relu %s : {t}
  return %r : {t}
}}"""


def softmax(rows: int, cols: int) -> str:
    """Softmax over the rows of a rows x cols f32 matrix."""
    t = f"tensor<{rows}x{cols}xf32>"
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %y = nn.softmax %x axis 1 : {t}
  return %y : {t}
}}"""


def layer_norm(rows: int, cols: int) -> str:
    """Layer norm over the last axis, with scale and bias (eps 1e-5)."""
    t = f"tensor<{rows}x{cols}xf32>"
    v = f"tensor<{cols}xf32>"
    return f"""
func.func @main(%x: {t}, %g: {v}, %b: {v}) -> {t} {{
  %y = nn.layer_norm %x scale %g bias %b axes [-1] eps 1.0e-05 : {t}, {v}, {v} -> {t}
  return %y : {t}
}}"""


def gelu(rows: int, cols: int, approximation: str) -> str:
    """GELU of a rows x cols f32 matrix: exact (`none`, erf) or `tanh`."""
    t = f"tensor<{rows}x{cols}xf32>"
    spelled = "" if approximation == "none" else f" approximate {approximation}"
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %y = nn.gelu %x{spelled} : {t}
  return %y : {t}
}}"""


def transpose(rows: int, cols: int) -> str:
    """The rows x cols f32 matrix transposed (cols x rows)."""
    t = f"tensor<{rows}x{cols}xf32>"
    r = f"tensor<{cols}x{rows}xf32>"
    return f"""
func.func @main(%x: {t}) -> {r} {{
  %y = nn.transpose %x perm [1, 0] : {t} -> {r}
  return %y : {r}
}}"""


def copy(rows: int, cols: int) -> str:
    """A copy of a rows x cols f32 matrix (the same bytes as `transpose`, read
    and written along the rows): an identity `linalg.generic`."""
    t = f"tensor<{rows}x{cols}xf32>"
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%x : {t}) outs(%e : {t}) {{
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }} -> {t}
  return %y : {t}
}}"""
