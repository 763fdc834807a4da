"""The GPU grid emulator: kernels against NumPy, and every misuse it reports.

Kernels are `gpu.launch` bodies (and one `gpu.func` reached through
`gpu.launch_func`) run with `irkit.interpret` through the calling convention
of `irkit.abi`. The emulator runs all threads of a grid in lockstep and
checks workgroup memory for races, so a missing `gpu.barrier` is reported
deterministically even though lockstep alone would compute the right
numbers.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irkit
from irkit.interpreter import InterpretationError

EXAMPLES = settings()
BARRIER = "gpu.barrier"
WORKGROUP = "#gpu.address_space<workgroup>"
PRIVATE = "#gpu.address_space<private>"


def launch(
    grid: tuple[str, str, str],
    block: tuple[str, str, str],
    body: str,
    workgroup: tuple[str, ...] = (),
    private: tuple[str, ...] = (),
) -> str:
    """A `gpu.launch` of `body` with ids `%bx..%bz`, `%tx..%tz` and sizes
    `%gx..%gz`, `%sx..%sz`; attributions are text like `%t : memref<4xf32, ...>`."""
    gx, gy, gz = grid
    sx, sy, sz = block
    attributions = ""
    if workgroup:
        attributions += f" workgroup({', '.join(workgroup)})"
    if private:
        attributions += f" private({', '.join(private)})"
    return f"""
    gpu.launch blocks(%bx, %by, %bz) in (%gx = {gx}, %gy = {gy}, %gz = {gz})
               threads(%tx, %ty, %tz) in (%sx = {sx}, %sy = {sy}, %sz = {sz})
               {attributions} {{
      {body}
      gpu.terminator
    }}
    """


def run(text: str, *inputs: Any) -> tuple[np.ndarray, ...]:
    return irkit.interpret(text, "main", *inputs)


def fails(text: str, *inputs: Any) -> str:
    with pytest.raises(InterpretationError) as caught:
        run(text, *inputs)
    return caught.value.message


# --------------------------------------------------------------------------
# Elementwise kernel over a grid with a remainder guard
# --------------------------------------------------------------------------


def elementwise_add(n: int, threads: int) -> str:
    blocks = -(-n // threads)
    body = f"""
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %inside = arith.cmpi slt, %i, %n : index
      scf.if %inside {{
        %x = memref.load %a[%i] : memref<{n}xf32>
        %y = memref.load %b[%i] : memref<{n}xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %out[%i] : memref<{n}xf32>
      }}
    """
    return f"""
    func.func @main(%a: memref<{n}xf32>, %b: memref<{n}xf32>,
                    %out: memref<{n}xf32> {{irkit.output}}) {{
      %one = arith.constant 1 : index
      %blocks = arith.constant {blocks} : index
      %threads = arith.constant {threads} : index
      %n = arith.constant {n} : index
      {launch(("%blocks", "%one", "%one"), ("%threads", "%one", "%one"), body)}
      return
    }}
    """


@EXAMPLES
@given(
    n=st.integers(1, 150),
    threads=st.sampled_from([1, 7, 32, 64]),
    seed=st.integers(0, 2**16),
)
def test_elementwise_kernel_with_remainder_guard(
    n: int, threads: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, n).astype(np.float32)
    b = rng.uniform(-1, 1, n).astype(np.float32)
    (out,) = run(elementwise_add(n, threads), a, b)
    np.testing.assert_array_equal(out, a + b)


def test_unguarded_remainder_is_out_of_bounds() -> None:
    text = elementwise_add(40, 32).replace(
        "%inside = arith.cmpi slt", "%inside = arith.cmpi sge"
    )
    message = fails(text, np.ones(40, np.float32), np.ones(40, np.float32))
    assert (
        "is out of bounds of a 40 memref in thread (8,0,0) of block (1,0,0)" in message
    )


# --------------------------------------------------------------------------
# Tiled matmul through workgroup memory
# --------------------------------------------------------------------------


def tiled_matmul(n: int, tile: int, first: str = BARRIER, second: str = BARRIER) -> str:
    """`C = A @ B` for n x n matrices, one tile x tile block of threads per
    output tile, both operands staged through workgroup memory."""
    shared = f"memref<{tile}x{tile}xf32, {WORKGROUP}>"
    body = f"""
      %r0 = arith.muli %by, %tile : index
      %row = arith.addi %r0, %ty : index
      %q0 = arith.muli %bx, %tile : index
      %col = arith.addi %q0, %tx : index
      %acc = scf.for %t = %c0 to %tiles step %c1 iter_args(%a = %zero) -> (f32) {{
        %k0 = arith.muli %t, %tile : index
        %ka = arith.addi %k0, %tx : index
        %kb = arith.addi %k0, %ty : index
        %x = memref.load %A[%row, %ka] : memref<{n}x{n}xf32>
        memref.store %x, %As[%ty, %tx] : {shared}
        %y = memref.load %B[%kb, %col] : memref<{n}x{n}xf32>
        memref.store %y, %Bs[%ty, %tx] : {shared}
        {first}
        %a2 = scf.for %k = %c0 to %tile step %c1 iter_args(%s = %a) -> (f32) {{
          %p = memref.load %As[%ty, %k] : {shared}
          %q = memref.load %Bs[%k, %tx] : {shared}
          %m = arith.mulf %p, %q : f32
          %s2 = arith.addf %s, %m : f32
          scf.yield %s2 : f32
        }}
        {second}
        scf.yield %a2 : f32
      }}
      memref.store %acc, %C[%row, %col] : memref<{n}x{n}xf32>
    """
    grid = ("%tiles", "%tiles", "%c1")
    threads = ("%tile", "%tile", "%c1")
    kernel = launch(grid, threads, body, (f"%As : {shared}", f"%Bs : {shared}"))
    return f"""
    func.func @main(%A: memref<{n}x{n}xf32>, %B: memref<{n}x{n}xf32>,
                    %C: memref<{n}x{n}xf32> {{irkit.output}}) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tile = arith.constant {tile} : index
      %tiles = arith.constant {n // tile} : index
      %zero = arith.constant 0.0 : f32
      {kernel}
      return
    }}
    """


def matrices(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (
        rng.uniform(-1, 1, (n, n)).astype(np.float32),
        rng.uniform(-1, 1, (n, n)).astype(np.float32),
    )


def test_tiled_matmul_64_with_16x16_threads_matches_numpy() -> None:
    a, b = matrices(64)
    start = time.perf_counter()
    (c,) = run(tiled_matmul(64, 16), a, b)
    elapsed = time.perf_counter() - start
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-5)
    assert elapsed < 5.0  # about 0.06 s on the 2-core development machine


@EXAMPLES
@given(
    tiles=st.integers(1, 3), tile=st.sampled_from([2, 4, 8]), seed=st.integers(0, 99)
)
def test_tiled_matmul_on_drawn_sizes(tiles: int, tile: int, seed: int) -> None:
    n = tiles * tile
    a, b = matrices(n, seed)
    (c,) = run(tiled_matmul(n, tile), a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-5)


def test_missing_barrier_before_the_reads_is_a_read_after_write_race() -> None:
    message = fails(tiled_matmul(8, 4, first=""), *matrices(8))
    assert message == (
        "'memref.load' op data race on workgroup memory: thread (1,0,0) of block "
        "(0,0,0) reads element [0, 0] that thread (0,0,0) wrote with no "
        "gpu.barrier in between"
    )


def test_missing_barrier_after_the_reads_is_a_write_after_read_race() -> None:
    message = fails(tiled_matmul(8, 4, second=""), *matrices(8))
    assert message == (
        "'memref.store' op data race on workgroup memory: thread (0,0,0) of block "
        "(0,0,0) writes element [0, 0] that thread (3,0,0) read with no "
        "gpu.barrier in between"
    )


def test_one_tile_needs_no_second_barrier() -> None:
    # With a single k-tile nothing is overwritten after the reads.
    a, b = matrices(4)
    (c,) = run(tiled_matmul(4, 4, second=""), a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-5)


# --------------------------------------------------------------------------
# Block reduction with shuffles
# --------------------------------------------------------------------------


def block_sum(blocks: int, threads: int) -> str:
    """Each block sums its `threads` inputs: a warp-level xor butterfly with
    gpu.shuffle, one partial per warp in workgroup memory, then thread 0."""
    n = blocks * threads
    warps = -(-threads // 32)
    butterfly = "\n".join(
        f"""
      %off{k} = arith.constant {k} : i32
      %got{k}, %ok{k} = gpu.shuffle xor %v{k}, %off{k}, %width : f32
      %v{k // 2} = arith.addf %v{k}, %got{k} : f32"""
        for k in (16, 8, 4, 2, 1)
    )
    body = f"""
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %v16 = memref.load %in[%i] : memref<{n}xf32>
      {butterfly}
      %lane = gpu.lane_id
      %warp = arith.divui %tx, %c32 : index
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {{
        memref.store %v0, %partial[%warp] : memref<{warps}xf32, {WORKGROUP}>
      }}
      {BARRIER}
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {{
        %total = scf.for %w = %c0 to %warps step %c1 iter_args(%s = %zero) -> (f32) {{
          %p = memref.load %partial[%w] : memref<{warps}xf32, {WORKGROUP}>
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }}
        memref.store %total, %out[%bx] : memref<{blocks}xf32>
      }}
    """
    kernel = launch(
        ("%blocks", "%c1", "%c1"),
        ("%threads", "%c1", "%c1"),
        body,
        (f"%partial : memref<{warps}xf32, {WORKGROUP}>",),
    )
    return f"""
    func.func @main(%in: memref<{n}xf32>, %out: memref<{blocks}xf32> {{irkit.output}}) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %width = arith.constant 32 : i32
      %zero = arith.constant 0.0 : f32
      %blocks = arith.constant {blocks} : index
      %threads = arith.constant {threads} : index
      %warps = arith.constant {warps} : index
      {kernel}
      return
    }}
    """


@EXAMPLES
@given(
    blocks=st.integers(1, 4),
    warps=st.integers(1, 4),
    seed=st.integers(0, 99),
)
def test_block_reduction_with_shuffles(blocks: int, warps: int, seed: int) -> None:
    values = np.random.default_rng(seed).uniform(-1, 1, blocks * warps * 32)
    values = values.astype(np.float32)
    (sums,) = run(block_sum(blocks, warps * 32), values)
    expected = values.reshape(blocks, -1).sum(axis=1)
    np.testing.assert_allclose(sums, expected, rtol=1e-4, atol=1e-5)


def shuffle_program(mode: str, offset: int, width: int) -> str:
    body = f"""
      %v = arith.index_cast %tx : index to i32
      %off = arith.constant {offset} : i32
      %width = arith.constant {width} : i32
      %got, %ok = gpu.shuffle {mode} %v, %off, %width : i32
      memref.store %got, %values[%tx] : memref<64xi32>
      memref.store %ok, %valid[%tx] : memref<64xi1>
    """
    return f"""
    func.func @main(%values: memref<64xi32> {{irkit.output}},
                    %valid: memref<64xi1> {{irkit.output}}) {{
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      {launch(("%c1", "%c1", "%c1"), ("%c64", "%c1", "%c1"), body)}
      return
    }}
    """


@pytest.mark.parametrize(
    ("mode", "offset", "width"),
    [("xor", 5, 32), ("down", 3, 32), ("up", 2, 16), ("idx", 7, 32), ("xor", 4, 8)],
)
def test_shuffle_modes_within_warps(mode: str, offset: int, width: int) -> None:
    values, valid = run(shuffle_program(mode, offset, width))
    lane = np.arange(64) % 32
    source = {
        "xor": lane ^ offset,
        "down": lane + offset,
        "up": lane - offset,
        "idx": np.full(64, offset),
    }[mode]
    expected_valid = (lane < width) & (source >= 0) & (source < width)
    expected = np.where(expected_valid, np.arange(64) - lane + source, np.arange(64))
    np.testing.assert_array_equal(valid, expected_valid)
    np.testing.assert_array_equal(values, expected)


# --------------------------------------------------------------------------
# gpu.launch_func into a gpu.module
# --------------------------------------------------------------------------

LAUNCH_FUNC = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<6x5xf32>, %y: memref<6x5xf32>, %alpha: f32) kernel {
      %i = gpu.block_id x
      %j = gpu.thread_id x
      %v = memref.load %x[%i, %j] : memref<6x5xf32>
      %w = arith.mulf %v, %alpha : f32
      memref.store %w, %y[%i, %j] : memref<6x5xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<6x5xf32>, %alpha: f32,
                  %y: memref<6x5xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    gpu.launch_func @kernels::@scale blocks in (%c6, %c1, %c1)
        threads in (%c5, %c1, %c1)
        args(%x : memref<6x5xf32>, %y : memref<6x5xf32>, %alpha : f32)
    return
  }
}
"""


def test_launch_func_runs_a_kernel_of_a_gpu_module() -> None:
    x = np.arange(30, dtype=np.float32).reshape(6, 5)
    (y,) = run(LAUNCH_FUNC, x, np.float32(0.5))
    np.testing.assert_array_equal(y, x * np.float32(0.5))


# --------------------------------------------------------------------------
# Control flow that differs between threads
# --------------------------------------------------------------------------


def test_loops_with_per_thread_trip_counts() -> None:
    # Thread t sums 0..t-1 with scf.for and counts down from t with scf.while.
    body = """
      %sum = scf.for %k = %c0 to %tx step %c1 iter_args(%s = %c0) -> (index) {
        %s2 = arith.addi %s, %k : index
        scf.yield %s2 : index
      }
      memref.store %sum, %sums[%tx] : memref<8xindex>
      %steps:2 = scf.while (%left = %tx, %n = %c0) : (index, index) -> (index, index) {
        %more = arith.cmpi sgt, %left, %c0 : index
        scf.condition(%more) %left, %n : index, index
      } do {
      ^bb0(%l: index, %m: index):
        %l2 = arith.subi %l, %c1 : index
        %m2 = arith.addi %m, %c1 : index
        scf.yield %l2, %m2 : index, index
      }
      memref.store %steps#1, %counts[%tx] : memref<8xindex>
    """
    text = f"""
    func.func @main(%sums: memref<8xindex> {{irkit.output}},
                    %counts: memref<8xindex> {{irkit.output}}) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      {launch(("%c1", "%c1", "%c1"), ("%c8", "%c1", "%c1"), body)}
      return
    }}
    """
    sums, counts = run(text)
    t = np.arange(8)
    np.testing.assert_array_equal(sums, t * (t - 1) // 2)
    np.testing.assert_array_equal(counts, t)


def test_if_results_take_each_threads_branch() -> None:
    body = """
      %even = arith.remui %tx, %c2 : index
      %is_even = arith.cmpi eq, %even, %c0 : index
      %r = scf.if %is_even -> (index) {
        %d = arith.muli %tx, %c2 : index
        scf.yield %d : index
      } else {
        scf.yield %c0 : index
      }
      memref.store %r, %out[%tx] : memref<8xindex>
    """
    text = f"""
    func.func @main(%out: memref<8xindex> {{irkit.output}}) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      {launch(("%c1", "%c1", "%c1"), ("%c8", "%c1", "%c1"), body)}
      return
    }}
    """
    (out,) = run(text)
    t = np.arange(8)
    np.testing.assert_array_equal(out, np.where(t % 2 == 0, 2 * t, 0))


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


def small_kernel(
    body: str, workgroup: tuple[str, ...] = (), private: tuple[str, ...] = ()
) -> str:
    return f"""
    func.func @main(%out: memref<8xf32> {{irkit.output}}) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1.0 : f32
      {launch(("%c2", "%c1", "%c1"), ("%c4", "%c1", "%c1"), body, workgroup, private)}
      return
    }}
    """


def test_divergent_barrier_is_reported() -> None:
    body = f"""
      %low = arith.cmpi slt, %tx, %c2 : index
      scf.if %low {{
        {BARRIER}
      }}
    """
    assert fails(small_kernel(body)) == (
        "'gpu.barrier' op is reached by thread (0,0,0) of block (0,0,0) but not "
        "by thread (2,0,0) of the same block (a gpu.barrier under control flow "
        "that differs between threads)"
    )


def test_barrier_under_a_condition_uniform_per_block_is_fine() -> None:
    body = f"""
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {{
        {BARRIER}
      }}
      %base = arith.muli %bx, %c4 : index
      %i = arith.addi %base, %tx : index
      memref.store %one, %out[%i] : memref<8xf32>
    """
    (out,) = run(small_kernel(body))
    np.testing.assert_array_equal(out, np.ones(8, np.float32))


def test_unwritten_workgroup_read_is_reported() -> None:
    body = """
      %next = arith.addi %tx, %c1 : index
      %inside = arith.cmpi slt, %next, %c4 : index
      scf.if %inside {
        memref.store %one, %tile[%next] : memref<4xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %v = memref.load %tile[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    """
    message = fails(
        small_kernel(body, ("%tile : memref<4xf32, #gpu.address_space<workgroup>>",))
    )
    assert message.startswith(
        "'memref.load' op reads element [0] of a buffer nothing wrote "
        "(workgroup attribution #0 of gpu.launch at "
    )
    assert message.endswith(") in thread (0,0,0) of block (0,0,0)")


def test_workgroup_memory_is_fresh_per_block() -> None:
    # Block 1 does not see what block 0 wrote: each block has its own copy.
    body = """
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        memref.store %one, %tile[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %v = memref.load %tile[%tx] : memref<4xf32, #gpu.address_space<workgroup>>
    """
    message = fails(
        small_kernel(body, ("%tile : memref<4xf32, #gpu.address_space<workgroup>>",))
    )
    assert message.endswith("in thread (0,0,0) of block (1,0,0)")


def test_global_write_write_conflict_is_reported() -> None:
    body = """
      memref.store %one, %out[%tx] : memref<8xf32>
    """
    assert fails(small_kernel(body)) == (
        "'memref.store' op data race on global memory: thread (0,0,0) of block "
        "(1,0,0) writes element [0] (output #0 of @main) that thread (0,0,0) of "
        "block (0,0,0) also writes in this launch"
    )


def test_private_memory_is_per_thread() -> None:
    body = """
      %v = arith.index_cast %tx : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %mine[%c0] : memref<1xf32, #gpu.address_space<private>>
      %w = memref.load %mine[%c0] : memref<1xf32, #gpu.address_space<private>>
      %base = arith.muli %bx, %c4 : index
      %i = arith.addi %base, %tx : index
      memref.store %w, %out[%i] : memref<8xf32>
    """
    (out,) = run(
        small_kernel(
            body, private=("%mine : memref<1xf32, #gpu.address_space<private>>",)
        )
    )
    np.testing.assert_array_equal(out, np.tile(np.arange(4, dtype=np.float32), 2))


# --------------------------------------------------------------------------
# Atomics, per-thread subviews, affine accesses
# --------------------------------------------------------------------------


def test_atomic_add_from_every_thread() -> None:
    body = """
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %in[%i] : memref<64xf32>
      %old = "memref.atomic_rmw"(%v, %out, %c0) <{kind = 0 : i64}>
          : (f32, memref<1xf32>, index) -> f32
    """
    text = f"""
    func.func @main(%in: memref<64xf32>, %out: memref<1xf32> {{irkit.output}}) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %out[%c0] : memref<1xf32>
      {launch(("%c4", "%c1", "%c1"), ("%c16", "%c1", "%c1"), body)}
      return
    }}
    """
    values = np.random.default_rng(1).uniform(-1, 1, 64).astype(np.float32)
    (total,) = run(text, values)
    np.testing.assert_allclose(total, [values.sum()], rtol=1e-5, atol=1e-6)


def test_subview_at_a_per_block_offset_and_affine_accesses() -> None:
    # Each block reverses its row of 8 through a subview at offset [%bx, 0].
    body = """
      %row = memref.subview %in[%bx, 0] [1, 8] [1, 1]
          : memref<3x8xf32> to memref<8xf32, strided<[1], offset: ?>>
      %v = affine.load %row[7 - %tx] : memref<8xf32, strided<[1], offset: ?>>
      affine.store %v, %out[%bx, %tx] : memref<3x8xf32>
    """
    text = f"""
    func.func @main(%in: memref<3x8xf32>, %out: memref<3x8xf32> {{irkit.output}}) {{
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      {launch(("%c3", "%c1", "%c1"), ("%c8", "%c1", "%c1"), body)}
      return
    }}
    """
    values = np.arange(24, dtype=np.float32).reshape(3, 8)
    (out,) = run(text, values)
    np.testing.assert_array_equal(out, values[:, ::-1])


def test_whole_memref_op_on_workgroup_memory_is_refused() -> None:
    body = """
      "memref.copy"(%tile, %tile) : (memref<4xf32, #gpu.address_space<workgroup>>,
          memref<4xf32, #gpu.address_space<workgroup>>) -> ()
    """
    message = fails(
        small_kernel(body, ("%tile : memref<4xf32, #gpu.address_space<workgroup>>",))
    )
    assert message == (
        "'memref.copy' op accesses a per-block or per-thread memref as a whole; "
        "in a GPU kernel only memref.load and memref.store reach it"
    )
