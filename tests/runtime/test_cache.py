"""The artifact cache and the compiler driver, without the C printer.

Every test points `$IRKIT_CACHE_DIR` at its own temporary directory, so the
real per-user cache is never touched.
"""

from __future__ import annotations

import ctypes
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from irkit.runtime import cpu
from irkit.runtime.cache import (
    ArtifactCache,
    CacheError,
    cache_key,
    default_cache_directory,
    ensure_cache_directory,
)
from irkit.runtime.cpu import (
    LIBRARY_SUFFIX,
    CompileError,
    Toolchain,
    build_shared_library,
    shared_library_key,
    toolchain,
)
from irkit.targets.target import AVX2, CpuHardware

SOURCE = "int irkit_answer(void) { return 42; }\n"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(directory))
    return directory


def answer(path: Path) -> int:
    return int(ctypes.CDLL(str(path)).irkit_answer())


# --- the directory -----------------------------------------------------------


def test_cache_directory_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(tmp_path / "explicit"))
    assert default_cache_directory() == tmp_path / "explicit"
    monkeypatch.delenv("IRKIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_directory() == tmp_path / "xdg" / "irkit"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_directory() == tmp_path / "home" / ".cache" / "irkit"


def test_cache_directory_is_created_private_whatever_the_umask(cache_dir: Path) -> None:
    old = os.umask(0)
    try:
        ArtifactCache.open()
    finally:
        os.umask(old)
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700


@pytest.mark.parametrize("mode", [0o770, 0o777, 0o702])
def test_shared_writable_cache_directory_is_refused(tmp_path: Path, mode: int) -> None:
    directory = tmp_path / "shared"
    directory.mkdir()
    directory.chmod(mode)
    with pytest.raises(CacheError, match="writable by group or others"):
        ensure_cache_directory(directory)


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to give a directory away")
def test_cache_directory_of_another_user_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "theirs"
    directory.mkdir(mode=0o700)
    os.chown(directory, 65534, 65534)
    with pytest.raises(CacheError, match="owned by another user"):
        ensure_cache_directory(directory)


def test_cache_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_text("")
    with pytest.raises(CacheError, match="not a directory"):
        ensure_cache_directory(path)


# --- entries -------------------------------------------------------------------


def test_keys_depend_on_every_part() -> None:
    base = cache_key("src", ["cc", "12"], ["-O3"])
    assert base == cache_key("src", ["cc", "12"], ["-O3"])
    assert base != cache_key("src2", ["cc", "12"], ["-O3"])
    assert base != cache_key("src", ["cc", "13"], ["-O3"])
    assert base != cache_key("src", ["cc", "12"], ["-O2"])


def test_entries_are_written_whole_and_leave_no_temporaries(cache_dir: Path) -> None:
    cache = ArtifactCache.open()
    cache.write_bytes("k", ".bin", b"payload")
    assert cache.read_bytes("k", ".bin") == b"payload"
    assert sorted(p.name for p in cache_dir.iterdir()) == ["k.bin"]


def test_failed_build_publishes_nothing(cache_dir: Path) -> None:
    cache = ArtifactCache.open()

    def failing_build(path: Path) -> None:
        path.write_bytes(b"half")
        raise CompileError("no")

    with pytest.raises(CompileError):
        cache.get_or_build("k", ".bin", failing_build, lambda path: True)
    assert list(cache_dir.iterdir()) == []


def test_invalid_entry_is_rebuilt(cache_dir: Path) -> None:
    cache = ArtifactCache.open()
    cache.write_bytes("k", ".bin", b"corrupt")
    path = cache.get_or_build(
        "k",
        ".bin",
        lambda p: p.write_bytes(b"good"),
        lambda p: p.read_bytes() == b"good",
    )
    assert path.read_bytes() == b"good"


# --- the compiler ----------------------------------------------------------------


def test_shared_library_is_built_once_then_served_from_the_cache(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiles: list[Path] = []
    real_compile = Toolchain.compile

    def counting_compile(self: Toolchain, *args: object) -> None:
        compiles.append(args[1])  # type: ignore[arg-type]
        real_compile(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Toolchain, "compile", counting_compile)
    first = build_shared_library(SOURCE, ["irkit_answer"])
    second = build_shared_library(SOURCE, ["irkit_answer"])
    assert first == second
    assert len(compiles) == 1
    assert answer(first) == 42
    assert first.parent == cache_dir
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700


def test_truncated_library_is_deleted_and_rebuilt(cache_dir: Path) -> None:
    cache = ArtifactCache.open()
    # A distinct source, so this process has never loaded the entry.
    source = SOURCE.replace("42", "43")
    key = shared_library_key(source, toolchain(cache))
    cache.write_bytes(key, LIBRARY_SUFFIX, b"\x7fELF truncated")
    path = build_shared_library(source, ["irkit_answer"])
    assert path == cache.path(key, LIBRARY_SUFFIX)
    assert int(ctypes.CDLL(str(path)).irkit_answer()) == 43


def test_compile_error_carries_the_compiler_messages(cache_dir: Path) -> None:
    with pytest.raises(CompileError) as caught:
        build_shared_library("int broken( { return 1; }\n", ["broken"])
    message = str(caught.value)
    assert message.startswith("C compilation failed")
    assert "error" in caught.value.stderr
    assert "<irkit-generated>.c" in message
    assert ".tmp-" not in message  # the cache's temporary name stays hidden
    assert [p.suffix for p in cache_dir.iterdir()] == [".flags"]


def test_missing_compiler_is_a_clear_error(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", "no-such-compiler-irkit")
    with pytest.raises(CompileError, match="'no-such-compiler-irkit' not found"):
        build_shared_library(SOURCE, ["irkit_answer"])


def test_compiler_without_openmp_or_march_native_falls_back(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "fake-cc"
    fake.write_text(
        textwrap.dedent(
            """\
            #!/bin/sh
            for arg in "$@"; do
              case "$arg" in -fopenmp|-march=native|-mprefer-vector-width=*) echo "unsupported $arg" >&2; exit 1;; esac
            done
            exec cc "$@"
            """
        )
    )
    fake.chmod(0o755)
    monkeypatch.setenv("CC", str(fake))
    tools = toolchain()
    assert tools.optional_flags == ()
    assert "-fopenmp" not in tools.shared_library_flags
    assert (
        answer(build_shared_library(SOURCE.replace("42", "44"), ["irkit_answer"])) == 44
    )


def test_wide_vector_units_ask_the_compiler_for_their_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The micro-kernels are sized for the unit's width; the compiler's own
    # vectorisation (the vector.fma lane loops) must use it too.
    avx512 = CpuHardware("x86-64 AVX-512", 512, 32)
    monkeypatch.setattr(cpu, "host_hardware", lambda: avx512)
    assert cpu.optional_flags()["vector-width"] == "-mprefer-vector-width=512"
    monkeypatch.setattr(cpu, "host_hardware", lambda: AVX2)
    assert cpu.optional_flags() == cpu.OPTIONAL_FLAGS


def test_probe_result_is_kept_across_processes(cache_dir: Path) -> None:
    toolchain()
    assert len(list(cache_dir.glob("*.flags"))) == 1


CONCURRENT = """\
import sys
from irkit.runtime.cpu import build_shared_library
path = build_shared_library(sys.argv[1], ["irkit_answer"])
import ctypes
print(ctypes.CDLL(str(path)).irkit_answer())
"""


def test_two_processes_compiling_the_same_source_both_succeed(cache_dir: Path) -> None:
    source = SOURCE.replace("42", "45")
    env = {**os.environ, "IRKIT_CACHE_DIR": str(cache_dir)}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT, source],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=120) for process in processes]
    for process, (stdout, stderr) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, stderr
        assert stdout.strip() == "45"
    names = [p.name for p in cache_dir.iterdir()]
    assert len([n for n in names if n.endswith(LIBRARY_SUFFIX)]) == 1
    assert not [n for n in names if n.startswith(".tmp-")]


def test_compiler_runs_without_a_shell(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands: list[object] = []
    real_run = subprocess.run

    def recording_run(command: object, **kwargs: object) -> object:
        commands.append(command)
        assert not kwargs.get("shell")
        return real_run(command, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(cpu.subprocess, "run", recording_run)
    build_shared_library(SOURCE.replace("42", "46"), ["irkit_answer"])
    assert commands
    assert all(isinstance(command, list) for command in commands)
