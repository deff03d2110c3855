"""A real PostgreSQL server for tests: Debian's binaries, a data folder in a temporary
folder, listening on a free port of 127.0.0.1 only, run as the `postgres` user (it
refuses to run as root)."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "postgres"


def binaries() -> Path:
    """Debian's newest PostgreSQL (15 on Debian 12; the folder is named by version)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


BIN = binaries()


def missing() -> str | None:
    """Why a server cannot be started here, if it cannot."""
    if not (BIN / "pg_ctl").exists():
        return f"PostgreSQL's binaries are not in {BIN} (apt-get install postgresql)"
    try:
        pwd.getpwnam(USER)
    except KeyError:
        return f"no {USER!r} user to run PostgreSQL as"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresServer:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="dominion-pg-"))
        user = pwd.getpwnam(USER)
        os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.data = self.folder / "data"
        self.port = free_port()
        self._as_postgres(BIN / "initdb", "-D", self.data, "-U", USER, "--auth=trust",
                          "--no-sync", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        self._as_postgres(
            BIN / "pg_ctl", "-D", self.data, "-l", self.folder / "log", "-w", "start", "-o",
            # no fsync: quick, and safe against the process being killed (what the tests
            # do); only the machine's crash would lose commits
            f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off "
            "-c full_page_writes=off")

    def stop(self) -> None:
        self._as_postgres(BIN / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def psql(self, sql: str, database: str = "postgres") -> str:
        result = subprocess.run(
            ["runuser", "-u", USER, "--", BIN / "psql", "-h", "127.0.0.1", "-p",
             str(self.port), "-U", USER, "-d", database, "-At", "-c", sql],
            check=True, capture_output=True, text=True, timeout=60)
        return result.stdout

    def dump(self, database: str) -> Path:
        """`pg_dump --format=custom` of the database, as docs/HOSTING.md backs it up."""
        path = self.folder / f"{database}.dump"
        self._as_postgres(BIN / "pg_dump", *self._where(), "--format=custom", "-f", path,
                          database)
        return path

    def restore(self, database: str, dump: Path) -> None:
        """The dump restored over the database, as docs/HOSTING.md restores it."""
        self._as_postgres(BIN / "pg_restore", *self._where(), "--clean", "--if-exists",
                          "-d", database, dump)

    def _where(self) -> tuple[str, ...]:
        return ("-h", "127.0.0.1", "-p", str(self.port), "-U", USER)

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def _as_postgres(self, *command: str | Path) -> None:
        subprocess.run(["runuser", "-u", USER, "--", *map(str, command)], check=True,
                       capture_output=True, timeout=120, cwd=self.folder)
