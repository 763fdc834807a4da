"""Compiled programs without the pipeline: `irkit.compile`'s two caches.

Lowering a program (parse, verify, run the pipeline, print C or CUDA C) costs
tens of milliseconds to seconds; loading its built library or cubin costs
far less. So `irkit.compile` keys each compile by everything that decides
the printed unit, and keeps what the pipeline produced:

- in memory: the loaded function itself, returned again to a later compile
  of the same program in the same process (so a call site that compiles on
  every call pays a dictionary look-up);
- on disk, in the artifact cache (`irkit.runtime.cache`): the printed
  translation unit, the entry's argument names and the tuning choice, as a
  pickle (`<key>.program`), so a new process goes straight to building or
  finding the library. The cache directory is private to its user and
  already holds the shared libraries irkit loads into the process, so a
  pickle there adds no new trust.

The key covers the program text, the target, the pipeline, the entry, the
tuning flag, the device for CUDA (name and architecture), xDSL's version and
a fingerprint of irkit's own source files (a changed pass must not return
yesterday's lowering). A record that does not load is rebuilt.

xDSL builds IR through process-wide state (`ImplicitBuilder` patches a class
for all threads), so everything that touches IR in `irkit.compile` runs under
`IR_LOCK`; compiles of one key from several threads wait for the first.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import importlib.metadata
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from irkit.runtime.cache import ArtifactCache, cache_key

# Held while irkit.compile parses, lowers or prints IR (see the module doc).
IR_LOCK = threading.RLock()

_FORMAT = "irkit-program-1"
_SUFFIX = ".program"
_LOADED_LIMIT = 256  # loaded functions kept in memory (least recently used go)


@functools.cache
def irkit_fingerprint() -> str:
    """A digest of irkit's source files: any change to irkit changes it."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    digest.update(importlib.metadata.version("xdsl").encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class LoweredProgram:
    """What the pipeline and printer made of one program, for one entry."""

    unit: Any  # CTranslationUnit or CudaTranslationUnit
    symbol: str
    names: tuple[str, ...]  # the entry's argument names, for messages
    tuning: Any  # TuningResult or None


def program_key(*parts: object) -> str:
    """The cache key of a compile: irkit's fingerprint and `parts`."""
    return cache_key(_FORMAT, irkit_fingerprint(), *map(repr, parts))


def read_program(cache: ArtifactCache, key: str) -> LoweredProgram | None:
    data = cache.read_bytes(key, _SUFFIX)
    if data is None:
        return None
    try:
        program = pickle.loads(data)
    except Exception:  # any damage: a record that does not load is rebuilt
        program = None
    if not isinstance(program, LoweredProgram):
        cache.discard(key, _SUFFIX)
        return None
    return program


def write_program(cache: ArtifactCache, key: str, program: LoweredProgram) -> None:
    cache.write_bytes(key, _SUFFIX, pickle.dumps(program))


def remembered(function: Any) -> Any:
    """`function` as a later compile returns it: a tuned function's copy
    whose `tuning` says the choice came from the cache (the copy shares the
    loaded code, workspaces and graphs)."""
    if function.tuning is None or function.tuning.from_cache:
        return function
    again = copy.copy(function)
    again.tuning = dataclasses.replace(function.tuning, from_cache=True, seconds=0.0)
    return again


Loaded = TypeVar("Loaded")


class LoadedFunctions:
    """Loaded functions by key, least recently used dropped past a limit;
    `get_or_load` runs `load` once per key however many threads ask."""

    def __init__(self, limit: int = _LOADED_LIMIT) -> None:
        self._limit = limit
        self._functions: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict[Hashable, threading.Lock] = {}

    def get_or_load(
        self, key: Hashable, load: Callable[[], Loaded]
    ) -> tuple[Loaded, bool]:
        """The function for `key` and whether this call loaded it."""
        with self._lock:
            if key in self._functions:
                self._functions.move_to_end(key)
                found: Loaded = self._functions[key]
                return found, False
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._functions:
                    found = self._functions[key]
                    return found, False
            loaded = load()
            with self._lock:
                self._functions[key] = loaded
                while len(self._functions) > self._limit:
                    self._functions.popitem(last=False)
                self._key_locks.pop(key, None)
            return loaded, True

    def clear(self) -> None:
        with self._lock:
            self._functions.clear()


LOADED = LoadedFunctions()
