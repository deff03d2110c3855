#!/usr/bin/env python3
"""Back up a running dominion-server's SQLite file with SQLite's online backup API.

    python3 backup.py [--keep N] /data/dominion.sqlite3 /backups/

Safe while the server runs: the backup API copies one consistent snapshot, including
the transactions still in the write-ahead log (dominion.sqlite3-wal), which a file copy
of dominion.sqlite3 alone would miss or tear. The copy is written beside its target,
checked with PRAGMA integrity_check, and only then linked into place, so a backup file
that exists is complete. The source is opened read-only: a wrong path is an error, never
a new empty database. Standard library only (the container image has no sqlite3 CLI).

Given a folder, the copy is named after its source, so that several servers (the nodes
of a cluster) can back up into one folder:

    dominion-<node>-<file>-<hash>-<UTC time>.sqlite3

<node> is DOMINION_NODE, or the host name where there is none; <file> the source's name
without .sqlite3; <hash> eight hex digits of a hash of the host name and the source's
full path; the time has microseconds. A target that exists is never replaced: the backup
fails instead. --keep N then deletes this source's older copies in the folder, keeping
the newest N.
"""

from __future__ import annotations

import argparse
import datetime
import errno
import hashlib
import os
import re
import socket
import sqlite3
import sys
from pathlib import Path

SUFFIX = ".sqlite3"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
# Errors of a file system that has no hard links: the copy is renamed instead.
_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EMLINK}


class BackupError(Exception):
    """A backup that was refused or failed; nothing was written in its target's place."""


def _safe(text: str) -> str:
    return _UNSAFE.sub("_", text).strip("._-") or "_"


def source_prefix(source: str | Path) -> str:
    """The start of every copy's name of `source` on this host: `dominion-NODE-FILE-HASH-`."""
    path = Path(source).resolve()
    host = socket.gethostname()
    label = os.environ.get("DOMINION_NODE") or host
    digest = hashlib.sha256(f"{host}\0{path}".encode()).hexdigest()[:8]
    stem = path.name.removesuffix(SUFFIX)
    return f"dominion-{_safe(label)}-{_safe(stem)}-{digest}-"


def copy_name(source: str | Path, now: datetime.datetime | None = None) -> str:
    stamp = (now or datetime.datetime.now(datetime.UTC)).strftime("%Y-%m-%dT%H%M%S.%fZ")
    return f"{source_prefix(source)}{stamp}{SUFFIX}"


def _publish(partial: Path, destination: Path) -> None:
    """Give the finished copy its name, unless that name is taken: never replace a file."""
    try:
        os.link(partial, destination)
    except FileExistsError:
        raise BackupError(f"{destination} exists; a backup never replaces a file") from None
    except OSError as error:
        if error.errno not in _NO_LINKS:
            raise
        if destination.exists():  # no hard links here: check, then rename
            raise BackupError(
                f"{destination} exists; a backup never replaces a file") from None
        os.rename(partial, destination)
        return
    partial.unlink()


def backup(source: str | Path, target: str | Path,
           now: datetime.datetime | None = None) -> Path:
    """Copy `source` to `target`: a new file, or a folder for a name of its own."""
    destination = Path(target)
    if destination.is_dir():
        destination = destination / copy_name(source, now)
    if destination.exists():
        raise BackupError(f"{destination} exists; a backup never replaces a file")
    partial = destination.with_name(destination.name + ".partial")
    try:
        partial.open("x").close()
    except FileExistsError:
        raise BackupError(f"{partial} exists: another backup is writing it, or one was "
                          "interrupted (then delete it)") from None
    try:
        reader = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
        try:
            copy = sqlite3.connect(partial)
            try:
                reader.backup(copy)
                (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
                if verdict != "ok":
                    raise BackupError(f"the copy fails its integrity check: {verdict}")
            finally:
                copy.close()
        finally:
            reader.close()
        _publish(partial, destination)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return destination


def prune(source: str | Path, folder: str | Path, keep: int) -> list[Path]:
    """Delete the copies of `source` in `folder` but the newest `keep` (at least 1)."""
    prefix = source_prefix(source)
    copies = sorted(path for path in Path(folder).iterdir()  # by name: by time
                    if path.name.startswith(prefix) and path.name.endswith(SUFFIX))
    old = copies[:-max(keep, 1)]
    for path in old:
        path.unlink()
    return old


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="backup.py", description="Online backup of a dominion-server SQLite file.")
    parser.add_argument("--keep", type=int, metavar="N",
                        help="then delete this source's older copies in the folder, "
                             "keeping the newest N (at least 1)")
    parser.add_argument("source", help="the server's SQLite file")
    parser.add_argument("target", help="a folder, or a file that does not exist yet")
    arguments = parser.parse_args(argv)
    if arguments.keep is not None and arguments.keep < 1:
        parser.error("--keep must be at least 1")
    if arguments.keep is not None and not Path(arguments.target).is_dir():
        parser.error("--keep needs a folder as the target")
    try:
        made = backup(arguments.source, arguments.target)
        if arguments.keep is not None:
            prune(arguments.source, arguments.target, arguments.keep)
    except (sqlite3.Error, BackupError, OSError) as error:
        print(f"backup failed: {error}", file=sys.stderr)
        return 1
    print(made)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
