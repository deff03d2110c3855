"""HOSTING.md's backup and restore, on a running server: deploy/backup.py (SQLite's online
backup API) and the sqlite3 shell's .backup make a consistent copy while the server
writes; a server started on the restored copy has every game."""

from __future__ import annotations

import asyncio
import datetime
import importlib.util
import os
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from dominion.server.accounts.postgres_store import PostgresAccountStore

from ..accounts.postgres import BIN, PostgresServer, missing
from ..server.test_process import start_server
from .proxy import DEPLOY, ROOT

BACKUP = DEPLOY / "backup.py"
HOSTING = ROOT / "docs" / "HOSTING.md"
NOW = datetime.datetime(2026, 12, 1, 10, 0, tzinfo=datetime.UTC)
_SPEC = importlib.util.spec_from_file_location("backup_script", BACKUP)
assert _SPEC is not None and _SPEC.loader is not None
backup_script = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(backup_script)


async def game_ids(url: str) -> set[str]:
    async with aiohttp.ClientSession() as session:
        listing = await (await session.get(f"{url}/api/v1/games")).json()
        return {game["id"] for game in listing["games"]}


def run(*command: str, stdin: Path | None = None) -> subprocess.CompletedProcess[str]:
    with open(stdin or "/dev/null") as source:
        return subprocess.run(command, stdin=source, capture_output=True, text=True,
                              timeout=60, check=False)


@pytest.mark.integration  # real programs
async def test_backups_of_a_running_server_restore(tmp_path: Path) -> None:
    db = tmp_path / "live" / "dominion.sqlite3"
    db.parent.mkdir()
    backups = tmp_path / "backups"
    backups.mkdir()
    process, url = start_server(db)
    try:
        async with aiohttp.ClientSession() as session:
            for name in ("Ann", "Bob", "Cid"):
                created = await session.post(f"{url}/api/v1/games", json={
                    "name": name, "seats": 2, "kingdom": "First Game",
                    "bots": {"1": "big_money"} if name == "Cid" else {}})
                assert created.status == 201
        games = await game_ids(url)
        assert len(games) == 3
        assert Path(f"{db}-wal").exists()  # the games may be in the WAL only

        # as HOSTING.md runs it: a file, and stdin into the container's python
        made = await asyncio.to_thread(run, sys.executable, str(BACKUP), str(db), str(backups))
        assert made.returncode == 0, made.stderr
        by_script = Path(made.stdout.strip())
        piped = await asyncio.to_thread(run, sys.executable, "-", str(db),
                                        str(backups / "piped.sqlite3"), stdin=BACKUP)
        assert piped.returncode == 0, piped.stderr
        copies = [by_script, backups / "piped.sqlite3"]
        if shutil.which("sqlite3"):
            shell = await asyncio.to_thread(
                run, "sqlite3", str(db), f".backup {backups / 'shell.sqlite3'}")
            assert shell.returncode == 0, shell.stderr
            copies.append(backups / "shell.sqlite3")
        assert by_script.parent == backups and by_script.name.startswith("dominion-")
        assert not list(backups.glob("*.partial"))
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(process.wait, 15)

    for copy in copies:
        with sqlite3.connect(copy) as check:
            assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        restored = tmp_path / copy.stem / "dominion.sqlite3"
        restored.parent.mkdir()
        shutil.copyfile(copy, restored)  # a backup no one has open: a plain copy is fine
        process, url = start_server(restored)
        try:
            assert await game_ids(url) == games
        finally:
            process.send_signal(signal.SIGTERM)
            await asyncio.to_thread(process.wait, 15)


@pytest.mark.integration  # real programs
def test_a_backup_of_a_missing_database_fails_and_creates_nothing(tmp_path: Path) -> None:
    result = run(sys.executable, str(BACKUP), str(tmp_path / "nope.sqlite3"), str(tmp_path))
    assert result.returncode == 1 and "backup failed" in result.stderr
    assert list(tmp_path.iterdir()) == []


# -- names: unique per source, never replacing a file --------------------------------------

def make_database(path: Path, marker: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE marker (text TEXT)")
        db.execute("INSERT INTO marker VALUES (?)", (marker,))
    return path


def marker(path: Path) -> str:
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT text FROM marker").fetchone()
    return str(text)


def test_three_nodes_backing_up_into_one_folder_at_once_keep_three_copies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As HOSTING runs it, once per node into one folder, at the same instant: the nodes'
    files share a name (/data/dominion.sqlite3 in each container), so the copies are
    named after the node and the source's path."""
    backups = tmp_path / "backups"
    backups.mkdir()
    moment = datetime.datetime(2026, 11, 30, 3, 17, tzinfo=datetime.UTC)
    made = []
    for node in ("a", "b", "c"):
        monkeypatch.setenv("DOMINION_NODE", node)
        source = make_database(tmp_path / node / "dominion.sqlite3", node)
        made.append(backup_script.backup(source, backups, now=moment))
    monkeypatch.delenv("DOMINION_NODE")
    single = make_database(tmp_path / "single" / "dominion.sqlite3", "single")
    made.append(backup_script.backup(single, backups, now=moment))
    assert sorted(backups.iterdir()) == sorted(made) and len(set(made)) == 4
    assert [marker(path) for path in made] == ["a", "b", "c", "single"]
    assert made[0].name.startswith("dominion-a-dominion-")
    assert made[3].name.startswith(f"dominion-{socket.gethostname()}-dominion-")


@pytest.mark.integration  # real programs
def test_a_backup_never_replaces_a_file(tmp_path: Path) -> None:
    source = make_database(tmp_path / "live" / "dominion.sqlite3", "new")
    backups = tmp_path / "backups"
    backups.mkdir()
    moment = datetime.datetime(2026, 11, 30, 3, 17, tzinfo=datetime.UTC)
    first = backup_script.backup(source, backups, now=moment)
    with sqlite3.connect(source) as db:
        db.execute("UPDATE marker SET text = 'newer'")
    with pytest.raises(backup_script.BackupError, match="never replaces"):
        backup_script.backup(source, backups, now=moment)  # the same name: refused
    assert marker(first) == "new" and list(backups.iterdir()) == [first]
    # a second later, or a microsecond: a copy of its own
    later = backup_script.backup(source, backups)
    assert later != first and marker(later) == "newer"

    # a file target that exists, from the command line: refused, left as it was
    existing = make_database(tmp_path / "kept.sqlite3", "kept")
    result = run(sys.executable, str(BACKUP), str(source), str(existing))
    assert result.returncode == 1 and "never replaces" in result.stderr
    assert marker(existing) == "kept"
    assert not list(tmp_path.rglob("*.partial"))


def test_a_partial_copy_in_the_way_is_an_error_not_deleted(tmp_path: Path) -> None:
    source = make_database(tmp_path / "dominion.sqlite3", "live")
    target = tmp_path / "copy.sqlite3"
    partial = tmp_path / "copy.sqlite3.partial"
    partial.write_text("another backup's")
    with pytest.raises(backup_script.BackupError, match="another backup"):
        backup_script.backup(source, target)
    assert partial.read_text() == "another backup's" and not target.exists()


@pytest.mark.integration  # real programs
def test_keep_deletes_only_this_sources_oldest_copies(tmp_path: Path) -> None:
    backups = tmp_path / "backups"
    backups.mkdir()
    source = make_database(tmp_path / "node-a.sqlite3", "a")
    other = make_database(tmp_path / "node-b.sqlite3", "b")
    others = backup_script.backup(other, backups)
    for _ in range(3):
        result = run(sys.executable, str(BACKUP), "--keep", "2", str(source), str(backups))
        assert result.returncode == 0, result.stderr
        made = Path(result.stdout.strip())
    kept = sorted(backups.glob(backup_script.source_prefix(source) + "*"))
    assert len(kept) == 2 and kept[-1] == made
    assert others.exists()
    refused = run(sys.executable, str(BACKUP), "--keep", "0", str(source), str(backups))
    assert refused.returncode == 2 and "--keep" in refused.stderr


# -- the accounts' PostgreSQL: a dump as the timer takes it, restored as HOSTING says ------

def hosting_command(start: str) -> list[str]:
    """The command of HOSTING.md that begins with `start`, its continuation lines joined."""
    guide = HOSTING.read_text().replace("\\\n", " ")
    (line,) = [line for line in guide.splitlines() if line.startswith(start)]
    return shlex.split(line)


def test_hostings_pg_restore_commands_are_complete() -> None:
    systemd = hosting_command("sudo -u dominion pg_restore")
    compose = hosting_command("docker compose exec -T postgres pg_restore")
    for flag in ("--username=dominion", "--dbname=dominion", "--clean", "--if-exists",
                 "--single-transaction"):
        assert flag in systemd and flag in compose, flag
    assert {"--host=127.0.0.1", "--port=5432"} <= set(systemd)
    assert systemd[-1].startswith("/var/backups/dominion/accounts-")
    assert compose[-1].startswith("/backups/")


@pytest.mark.integration  # real programs
@pytest.mark.skipif(missing() is not None,
                    reason=f"no PostgreSQL ({missing()}): apt-get install postgresql")
async def test_a_dump_restored_with_hostings_command_is_the_dumps_state(
        tmp_path: Path) -> None:
    server = PostgresServer()
    server.start()
    try:
        server.psql("CREATE ROLE dominion LOGIN")
        server.psql("CREATE DATABASE dominion OWNER dominion")
        url = f"postgresql://dominion@127.0.0.1:{server.port}/dominion"
        store = PostgresAccountStore(url)
        await store.start()
        try:
            await store.create_account("Ada", "ada", "h", NOW)
            dump = tmp_path / "accounts-20261130T031700Z.dump"
            unit = (DEPLOY / "systemd" / "dominion-accounts-backup.service").read_text()
            environment = dict(re.findall(r"^Environment=(PG[A-Z]+)=(\S+)$", unit, re.M))
            dumped = await asyncio.to_thread(
                subprocess.run, [str(BIN / "pg_dump"), "--format=custom", f"--file={dump}"],
                env={**os.environ, **environment, "PGPORT": str(server.port)},
                capture_output=True, text=True, timeout=60, check=False)
            assert dumped.returncode == 0, dumped.stderr
            await store.create_account("Bob", "bob", "h", NOW)  # after the dump
        finally:
            await store.close()

        command = hosting_command("sudo -u dominion pg_restore")[3:]  # as the user
        command = [str(BIN / "pg_restore"), *[
            f"--port={server.port}" if part == "--port=5432" else
            str(dump) if part.startswith("/var/backups/") else part
            for part in command[1:]]]
        restored = await asyncio.to_thread(subprocess.run, command, capture_output=True,
                                           text=True, timeout=60, check=False)
        assert restored.returncode == 0, restored.stderr
        again = PostgresAccountStore(url)
        await again.start()
        try:
            assert await again.account_by_key("ada") is not None
            assert await again.account_by_key("bob") is None
        finally:
            await again.close()
    finally:
        server.stop()
        server.remove()
