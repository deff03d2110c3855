"""`dominion-server fill`: bot games stored as the server stores finished games."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from contextlib import closing, suppress
from pathlib import Path

import pytest

from dominion.server.accounts.store import sqlite_path_beside
from dominion.server.main import main
from dominion.server.play import fill_direct
from dominion.server.play.archive import archived_game, read_archive
from dominion.server.play.fill import INTERRUPTED
from dominion.server.replays import build, finished_replay, verify_replay
from dominion.server.replays.dump import public_replay
from dominion.server.storage import Storage
from dominion.server.storage.rows import unpack_game
from tests.eventually import eventually

from .replay_schema import check_replay


def stored_replays(path: Path) -> list[dict[str, object]]:
    async def read() -> list[dict[str, object]]:
        storage = Storage.open(str(path))
        await storage.start()
        try:
            games = [storage.load_game(record.id)
                     for record in storage.list_games(state="finished", limit=100)[0]]
            return [finished_replay(stored, []) for stored in games if stored is not None]
        finally:
            await storage.close()

    return asyncio.run(read())


def test_fill_stores_finished_bot_games_that_verify(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "filled.sqlite3"
    assert main(["fill", "--db", str(db), "--games", "3", "--players", "3",
                 "--strategies", "big_money,strong:1", "--seed", "7"]) == 0
    assert "stored 3 games" in capsys.readouterr().out
    replays = stored_replays(db)
    assert len(replays) == 3
    for replay in replays:
        check_replay(replay)
        assert verify_replay(replay).ok
        players = replay["players"]
        assert isinstance(players, list)
        assert [(p["kind"], p["strategy"], p["level"]) for p in players] == [
            ("bot", "big_money", None), ("bot", "strong", 1), ("bot", "big_money", None)]
        game = replay["game"]
        assert isinstance(game, dict) and game["end_reason"] in ("provinces", "piles")


def test_fill_refuses_an_unknown_strategy(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fill", "--db", str(tmp_path / "x.sqlite3"), "--games", "1",
                 "--strategies", "nobody"]) == 2
    assert "unknown strategies nobody" in capsys.readouterr().err


def test_a_direct_fill_keeps_the_replays_of_the_games_it_played_without_playing_them_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every player count and both editions: the archive's rows are those a node's hand-over
    makes by playing the answers back, and nothing is played back."""
    tasks = [(seed, 1, ("big_money", "smithy_big_money"), players, edition, "")
             for seed, (players, edition) in enumerate((p, e) for p in range(2, 7)
                                                       for e in (1, 2))]
    with monkeypatch.context() as unplayable:
        unplayable.setattr(build, "derive", lambda stored: pytest.fail("played back"))
        chunks = [fill_direct.archived_chunk(task) for task in tasks]
    for [filled], _ in chunks:
        handed_over = archived_game(unpack_game(filled.body), [])
        assert (filled.replay, filled.replay_version) == \
            (handed_over.replay, handed_over.replay_version)
        assert filled == handed_over


@pytest.mark.integration  # its workers are processes
def test_a_direct_fill_archives_games_on_every_worker_that_verify(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(fill_direct, "CHUNK", 2)  # three chunks for the two workers
    archives = []
    for workers, folder in ((2, tmp_path / "a"), (1, tmp_path / "b")):
        folder.mkdir()
        db = folder / "games.sqlite3"
        assert main(["fill", "--db", str(db), "--games", "5", "--direct", "--workers",
                     str(workers), "--seed", "4"]) == 0
        assert "stored 5 games" in capsys.readouterr().out
        assert not db.exists()  # straight to the archive: no node's database
        archives.append(list(read_archive("", str(db), None, None)))
    two, one = archives
    for game in two:
        assert game.replay is not None  # its replay made as it was archived
        replay = public_replay(game)
        check_replay(replay)
        assert verify_replay(replay).ok
    assert sorted(game.stored.game.seed or 0 for game in two) == \
        sorted(game.stored.game.seed or 0 for game in one)  # the seed's games, any workers


@pytest.mark.integration  # its workers are processes
async def test_a_direct_fill_stops_at_once_when_its_process_group_is_interrupted(
        tmp_path: Path) -> None:
    """Ctrl-C in a terminal interrupts every process of the group, the workers too: the fill
    stops, its workers with it, and keeps the games it archived."""
    db = tmp_path / "games.sqlite3"
    archive = sqlite_path_beside(str(db))
    fill = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dominion.server.main", "fill", "--db", str(db), "--games",
        "100000", "--direct", "--workers", "2", "--seed", "5", start_new_session=True,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)

    def archived() -> int:
        if not archive.is_file():
            return 0
        with closing(sqlite3.connect(archive)) as conn:
            try:
                return int(conn.execute("SELECT count(*) FROM archived_games").fetchone()[0])
            except sqlite3.OperationalError:  # its schema not made yet
                return 0

    try:
        await eventually(lambda: archived() > 0, seconds=120)  # the workers are playing
        os.killpg(fill.pid, signal.SIGINT)
        await asyncio.wait_for(fill.wait(), timeout=STOP_SECONDS)
    finally:
        with suppress(ProcessLookupError):
            os.killpg(fill.pid, signal.SIGKILL)  # every process left in the group
    assert fill.returncode == INTERRUPTED
    await eventually(lambda: not group_alive(fill.pid))  # the workers went with it
    assert archived() % fill_direct.CHUNK == 0  # whole chunks, one transaction each


STOP_SECONDS = 5
"""An interrupted fill waits on its workers a second at a time (`fill_direct.WAIT_SECONDS`)."""


def group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
