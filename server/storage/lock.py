"""One server per database file: an exclusive lock on a lock file beside it.

Two servers on one file would each restore the same games and answer for them, and
neither would see the games the other creates. `Storage.open` takes the lock before it
touches the file and `Storage.close` gives it back. It is a `flock`, which the kernel
drops with the process that held it, so a killed server leaves no stale lock; the lock
file itself stays (empty but for the holder's process id) and is harmless. SQLite's own
locks are POSIX record locks, which `flock` does not meet, and backups (SQLite's backup
API) take no part in this lock.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from .records import StorageError

LOCK_SUFFIX = ".lock"


class DatabaseInUse(StorageError):
    """Another process holds the database's lock: another server runs on the file."""


def lock_path(database: str) -> Path:
    """The lock file of `database`: beside the file itself, so that every path to it (a
    relative one, a symbolic link) finds the same lock."""
    real = Path(database).resolve()
    return real.with_name(real.name + LOCK_SUFFIX)


class DatabaseLock:
    """Held from `acquire` until `release` (or the end of the process)."""

    def __init__(self, descriptor: int, path: Path) -> None:
        self._descriptor = descriptor
        self.path = path

    @classmethod
    def acquire(cls, database: str) -> DatabaseLock:
        """Lock `database`, or raise DatabaseInUse (another process has it) or
        StorageError (the lock file cannot be made or locked)."""
        path = lock_path(database)
        try:
            # not inherited by programs the server starts: the lock ends with the server
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise StorageError(
                f"database {database}: cannot open its lock file {path}: {error.strerror}"
            ) from error
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(descriptor)
            os.close(descriptor)
            raise DatabaseInUse(
                f"database {database} is in use by another server{holder}"
            ) from None
        except OSError as error:
            os.close(descriptor)
            raise StorageError(
                f"database {database}: cannot lock {path}: {error.strerror}"
            ) from error
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
        return cls(descriptor, path)

    def release(self) -> None:
        if self._descriptor >= 0:
            os.close(self._descriptor)  # closing the only descriptor drops the flock
            self._descriptor = -1


def _holder(descriptor: int) -> str:
    """Who holds the lock, as the holder wrote it (nothing if it has not yet)."""
    written = os.pread(descriptor, 32, 0).decode(errors="replace").strip()
    return f" (process {written})" if written.isdigit() else ""
