"""The on-disk cache of compiled artifacts (shared libraries, probe results).

One directory per user: `$IRKIT_CACHE_DIR`, else `$XDG_CACHE_HOME/irkit`, else
`~/.cache/irkit`. A cached shared library is code this process will load and
run, so the directory must be private: it is created with mode 0700, and an
existing one owned by another user or writable by group or others is refused.

Entries are named by a sha256 key of everything that determines their content
(source, compiler and its version, flags). They are written to a temporary file
in the same directory and renamed into place (`os.replace` is atomic within a
file system), so a reader never sees a partial entry and two processes building
the same key at once both succeed: the last rename wins with identical content.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from irkit.diagnostics import IRKitError

CACHE_DIR_VARIABLE = "IRKIT_CACHE_DIR"


class CacheError(IRKitError):
    """The cache directory cannot be used safely (ownership, permissions, I/O)."""


def default_cache_directory() -> Path:
    """Where the cache lives, from the environment (not created here)."""
    explicit = os.environ.get(CACHE_DIR_VARIABLE)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "irkit"
    return Path.home() / ".cache" / "irkit"


def _check_private(directory: Path) -> None:
    """Refuse a directory another user could plant files in."""
    try:
        info = directory.stat()
    except OSError as error:
        raise CacheError(
            f"cannot use cache directory '{directory}': {error.strerror}"
        ) from None
    if not stat.S_ISDIR(info.st_mode):
        raise CacheError(f"cache directory '{directory}' is not a directory")
    if info.st_uid != os.getuid():
        raise CacheError(
            f"cache directory '{directory}' is owned by another user (uid "
            f"{info.st_uid}); set ${CACHE_DIR_VARIABLE} to a directory of yours"
        )
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise CacheError(
            f"cache directory '{directory}' is writable by group or others (mode "
            f"{stat.S_IMODE(info.st_mode):04o}); run `chmod 700 {directory}` or "
            f"set ${CACHE_DIR_VARIABLE}"
        )


def ensure_cache_directory(directory: Path) -> Path:
    """Create `directory` with mode 0700 if needed and check that it is private."""
    if not directory.exists():
        try:
            directory.parent.mkdir(parents=True, exist_ok=True)
            directory.mkdir(mode=0o700, exist_ok=True)
            # mkdir's mode is masked by the umask; make it exactly 0700.
            directory.chmod(0o700)
        except OSError as error:
            raise CacheError(
                f"cannot create cache directory '{directory}': {error.strerror}"
            ) from None
    _check_private(directory)
    return directory


def cache_key(*parts: object) -> str:
    """A sha256 hex digest of `parts` (strings, numbers, lists of them)."""
    encoded = json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).hexdigest()


@dataclass(frozen=True)
class ArtifactCache:
    """A private directory of artifacts named `<key><suffix>`."""

    directory: Path

    @staticmethod
    def open(directory: Path | None = None) -> ArtifactCache:
        """The cache at `directory` (default: from the environment), created
        and checked."""
        return ArtifactCache(
            ensure_cache_directory(directory or default_cache_directory())
        )

    def path(self, key: str, suffix: str) -> Path:
        return self.directory / f"{key}{suffix}"

    @contextmanager
    def temporary_file(self, suffix: str) -> Iterator[Path]:
        """A fresh, empty file in the cache directory, removed on exit.

        The name is chosen here (never by a user), so it is safe to hand to a
        compiler command line.
        """
        try:
            fd, name = tempfile.mkstemp(
                prefix=".tmp-", suffix=suffix, dir=self.directory
            )
        except OSError as error:
            raise CacheError(
                f"cannot write to cache directory '{self.directory}': {error.strerror}"
            ) from None
        os.close(fd)
        path = Path(name)
        try:
            yield path
        finally:
            path.unlink(missing_ok=True)

    def publish(self, temporary: Path, key: str, suffix: str) -> Path:
        """Atomically move a finished `temporary` file to the entry `key`."""
        target = self.path(key, suffix)
        try:
            os.replace(temporary, target)
        except OSError as error:
            raise CacheError(
                f"cannot write cache entry '{target}': {error.strerror}"
            ) from None
        return target

    def write_bytes(self, key: str, suffix: str, data: bytes) -> Path:
        """Store `data` as entry `key`, atomically."""
        with self.temporary_file(suffix) as temporary:
            temporary.write_bytes(data)
            return self.publish(temporary, key, suffix)

    def read_bytes(self, key: str, suffix: str) -> bytes | None:
        """The entry `key`, or None when there is none (or it cannot be read)."""
        try:
            return self.path(key, suffix).read_bytes()
        except OSError:
            return None

    def discard(self, key: str, suffix: str) -> None:
        """Delete entry `key` (a corrupt one), if present."""
        self.path(key, suffix).unlink(missing_ok=True)

    def get_or_build(
        self,
        key: str,
        suffix: str,
        build: Callable[[Path], None],
        is_valid: Callable[[Path], bool],
    ) -> Path:
        """The entry `key`, built by `build(temporary_path)` when missing.

        An existing entry that fails `is_valid` (e.g. a truncated shared
        library) is deleted and rebuilt. A freshly built entry is published
        only after `build` returns without raising.
        """
        target = self.path(key, suffix)
        if target.exists():
            if is_valid(target):
                return target
            self.discard(key, suffix)
        with self.temporary_file(suffix) as temporary:
            build(temporary)
            return self.publish(temporary, key, suffix)
