"""How fast the reference interpreter runs tensor-level programs.

Times `irkit.interpret` on 10-op programs over 64x64 (and 256x256) float32
inputs, at the `nn` level and at the upstream `linalg` level, next to the same
computation written directly in NumPy, and prints a Markdown table.

    .venv/bin/python benchmarks/interpreter.py
"""

from __future__ import annotations

import numpy as np
from timing import median_seconds

import irkit
from irkit.interpreter import Interpreter
from irkit.interpreter.values import coerce_arguments


def nn_program(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    row = f"tensor<{n}xf32>"
    return f"""
func.func @main(%a: {t}, %b: {t}, %bias: {row}) -> {t} {{
  %0 = nn.matmul %a, %b : {t}, {t} -> {t}
  %1 = nn.add %0, %bias : {t}, {row} -> {t}
  %2 = nn.relu %1 : {t}
  %3 = nn.mul %2, %a : {t}, {t} -> {t}
  %4 = nn.tanh %3 : {t}
  %5 = nn.sub %4, %b : {t}, {t} -> {t}
  %6 = nn.exp %5 : {t}
  %7 = nn.softmax %6 axis 1 : {t}
  %8 = nn.transpose %7 perm [1, 0] : {t} -> {t}
  %9 = nn.add %8, %a : {t}, {t} -> {t}
  return %9 : {t}
}}
"""


def linalg_program(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    row = f"tensor<{n}xf32>"
    ident = "affine_map<(d0, d1) -> (d0, d1)>"
    col = "affine_map<(d0, d1) -> (d1)>"
    par = '["parallel", "parallel"]'
    return f"""
func.func @main(%a: {t}, %b: {t}, %bias: {row}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %f = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %0 = linalg.matmul ins(%a, %b : {t}, {t}) outs(%f : {t}) -> {t}
  %1 = linalg.generic {{indexing_maps = [{ident}, {col}, {ident}], iterator_types = {par}}} ins(%0, %bias : {t}, {row}) outs(%e : {t}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }} -> {t}
  %2 = linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}, {ident}], iterator_types = {par}}} ins(%1, %a, %b : {t}, {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %h = math.tanh %m : f32
    %s = arith.subf %h, %z : f32
    %x2 = math.exp %s : f32
    linalg.yield %x2 : f32
  }} -> {t}
  %3 = linalg.transpose ins(%2 : {t}) outs(%e : {t}) permutation = [1, 0]
  %4 = arith.addf %3, %a : {t}
  return %4 : {t}
}}
"""


def numpy_reference(a: np.ndarray, b: np.ndarray, bias: np.ndarray) -> np.ndarray:
    x = np.exp(np.tanh(np.maximum(a @ b + bias, 0) * a) - b)
    x = np.exp(x - x.max(axis=1, keepdims=True))
    x = x / x.sum(axis=1, keepdims=True)
    return x.T + a


def main() -> None:
    rows = []
    for n in (64, 256):
        rng = np.random.default_rng(0)
        args = [rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2)]
        args.append(rng.uniform(-1, 1, (n,)).astype(np.float32))
        numpy_time = median_seconds(lambda: numpy_reference(*args), 50)
        for level, text in (("nn", nn_program(n)), ("linalg", linalg_program(n))):
            module = irkit.parse(text)
            interp = Interpreter(module)
            values = coerce_arguments(interp.function("main"), args)
            seconds = median_seconds(lambda: interp.call("main", values), 20)
            parse_seconds = median_seconds(lambda: irkit.parse(text), 5)
            rows.append((level, n, seconds, parse_seconds, seconds / numpy_time))
    print("| level | size | interpret (ms) | parse+verify (ms) | vs NumPy |")
    print("|---|---|---|---|---|")
    for level, n, seconds, parse_seconds, ratio in rows:
        print(
            f"| {level} | {n}x{n} | {seconds * 1e3:.2f} | {parse_seconds * 1e3:.1f} "
            f"| {ratio:.1f}x |"
        )


if __name__ == "__main__":
    main()
