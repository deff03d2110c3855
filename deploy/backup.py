#!/usr/bin/env python3
"""Back up a running dominion-server's SQLite file with SQLite's online backup API.

    python3 backup.py /data/dominion.sqlite3 /backups/

Safe while the server runs: the backup API copies one consistent snapshot, including
the transactions still in the write-ahead log (dominion.sqlite3-wal), which a file copy
of dominion.sqlite3 alone would miss or tear. The copy is written beside its target,
checked with PRAGMA integrity_check, and only then renamed into place, so a backup file
that exists is complete. The source is opened read-only: a wrong path is an error, never
a new empty database. Standard library only (the container image has no sqlite3 CLI).
"""

from __future__ import annotations

import datetime
import os
import sqlite3
import sys
from pathlib import Path


def backup(source: str | Path, target: str | Path) -> Path:
    """Copy `source` to `target` (a file, or a folder for a time-stamped name)."""
    destination = Path(target)
    if destination.is_dir():
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H%M%SZ")
        destination = destination / f"dominion-{stamp}.sqlite3"
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    reader = sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
    try:
        copy = sqlite3.connect(partial)
        try:
            reader.backup(copy)
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"the copy fails its integrity check: {verdict}")
        finally:
            copy.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        reader.close()
    os.replace(partial, destination)
    return destination


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        print(backup(argv[0], argv[1]))
    except sqlite3.Error as error:
        print(f"backup failed: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
