"""HOSTING.md's backup and restore, on a running server: deploy/backup.py (SQLite's online
backup API) and the sqlite3 shell's .backup make a consistent copy while the server
writes; a server started on the restored copy has every game."""

from __future__ import annotations

import asyncio
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp

from ..server.test_process import start_server
from .proxy import DEPLOY

BACKUP = DEPLOY / "backup.py"


async def game_ids(url: str) -> set[str]:
    async with aiohttp.ClientSession() as session:
        listing = await (await session.get(f"{url}/api/v1/games")).json()
        return {game["id"] for game in listing["games"]}


def run(*command: str, stdin: Path | None = None) -> subprocess.CompletedProcess[str]:
    with open(stdin or "/dev/null") as source:
        return subprocess.run(command, stdin=source, capture_output=True, text=True,
                              timeout=60, check=False)


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


def test_a_backup_of_a_missing_database_fails_and_creates_nothing(tmp_path: Path) -> None:
    result = run(sys.executable, str(BACKUP), str(tmp_path / "nope.sqlite3"), str(tmp_path))
    assert result.returncode == 1 and "backup failed" in result.stderr
    assert list(tmp_path.iterdir()) == []
