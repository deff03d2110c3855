"""Findings 3 and 12: SIGTERM stops the server under any load, and shutting down stops
rooms, bots and timers before the storage closes (in either order of failure)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from dominion.protocol import SUBPROTOCOLS, Hello, Join, Resign, Resume, encode_client
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.engine import Answer, Setup
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, SeatRecord, Storage
from tests.server.test_process import start_server
from tests.server.wsplay import ServerFactory, ws_server

__all__ = ["ws_server"]

FLOODERS = 10


async def a_finished_four_player_game(session: aiohttp.ClientSession, url: str) -> str:
    """Ann resigns at once; three bots play the game out (~600 events)."""
    created = await session.post(f"{url}/api/v1/games", json={
        "name": "Ann", "seats": 4, "kingdom": "First Game",
        "bots": {"1": "big_money", "2": "big_money", "3": "big_money"}})
    body = await created.json()
    game, token = body["game"]["id"], body["token"]
    ann = await session.ws_connect(f"{url}/api/v1/ws", protocols=(SUBPROTOCOLS[0],))
    for frame in (Hello(id=1, versions=[2], client="tests"), Join(id=2, game=game, token=token),
                  Resign(id=3, game=game)):
        await ann.send_bytes(encode_client(frame))
    while (await (await session.get(f"{url}/api/v1/games/{game}")).json())["state"] \
            != "finished":
        await asyncio.sleep(0.1)
    await ann.close()
    return game


async def flood_resumes(session: aiohttp.ClientSession, url: str, game: str) -> None:
    """Send resumes from 0 as fast as the socket takes them, reading nothing."""
    ws = await session.ws_connect(f"{url}/api/v1/ws", protocols=(SUBPROTOCOLS[0],))
    await ws.send_bytes(encode_client(Hello(id=1, versions=[2], client="flood")))
    request = 2
    with contextlib.suppress(ConnectionError, aiohttp.ClientError):
        while True:
            await ws.send_bytes(encode_client(Resume(id=request, game=game, last_seq=0)))
            request += 1
            if request % 50 == 0:
                await asyncio.sleep(0)


@pytest.mark.integration  # a real server or socket
async def test_sigterm_stops_a_server_flooded_with_costly_resumes(tmp_path: Path) -> None:
    # every resume replays the whole game (no cache, no budget): the most work a frame
    # can ask for, queued faster than it is done
    process, url = start_server(
        tmp_path / "games.sqlite3", "--messages-per-second", "1000000", "--burst", "1000000",
        "--work-per-second", "100000000", "--work-burst", "100000000",
        "--resume-cache-events", "1")
    try:
        async with aiohttp.ClientSession() as session:
            game = await a_finished_four_player_game(session, url)
            floods = [asyncio.ensure_future(flood_resumes(session, url, game))
                      for _ in range(FLOODERS)]
            await asyncio.sleep(5)  # the server is far behind by now
            process.send_signal(signal.SIGTERM)
            # within its own shutdown timeout (10 s) and close timeouts (2 s), with room
            # to spare; before the fix it went on with the queued work for 30-60 s more
            assert await asyncio.to_thread(process.wait, 30) == 0
            for flood in floods:
                flood.cancel()
            await asyncio.gather(*floods, return_exceptions=True)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def test_shutdown_stops_a_bot_only_game_before_the_storage_closes(
        ws_server: ServerFactory, caplog: pytest.LogCaptureFixture) -> None:
    site = await ws_server(bot_delay_seconds=0.005)
    game, token = await site.create(seats=3, bots={1: "big_money", 2: "big_money"})
    ann = await site.connect()
    await ann.request(Join, game=game, token=token)
    await ann.request(Resign, game=game)  # bots alone play on, an answer every 5 ms
    room = site.room(game)
    assert room.game is not None
    while room.game.answer_count < 10:
        await asyncio.sleep(0.01)
    storage = site.app_state().storage
    with caplog.at_level("INFO"):
        await site.server.close()  # what SIGTERM does: shut down, then clean up
        answered = room.game.answer_count
        await asyncio.sleep(0.2)
    assert room.game.answer_count == answered  # nobody plays on after the shutdown
    assert storage._closed and not any(t.name.startswith("storage-writer")
                                       for t in threading.enumerate())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert room.state == "playing"  # the game is resumed from its log at the next start


async def test_a_game_that_does_not_replay_stays_stored_and_the_others_come_back(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "games.sqlite3"
    storage = Storage.open(db)
    await storage.start()
    setup = Setup.create(["Ann", "Bob"], kingdom="First Game")
    for game_id in ("g-000000000001", "g-000000000002"):
        await storage.create_game(GameRecord(id=game_id, created_at="2026-01-01T00:00:00Z",
                                             state="open", edition=2, seats=2,
                                             kingdom=setup.kingdom),
                                  [SeatRecord(0, "Ann", None, "big_money", "2026-01-01T00:00:00Z"),
                                   SeatRecord(1, "Bob", None, "big_money", "2026-01-01T00:00:00Z")])
        await storage.start_game(game_id, started_at="2026-01-01T00:00:00Z", seed=1,
                                 commitment="0" * 64, setup=setup.to_dict())
    # a log that does not replay (a damaged file, or a bug): restoring it raises
    await storage.append_answers("g-000000000001", 0, [Answer(0, 999, (0,))], "t")
    await storage.close()
    app = create_app(Settings(db=str(db)))
    runner = web.AppRunner(app)
    await runner.setup()
    lobby = app[STATE].lobby
    await lobby.all_restored()
    assert "g-000000000001" not in lobby.rooms and "g-000000000002" in lobby.rooms
    assert [record.game for record in caplog.records  # type: ignore[attr-defined]
            if record.levelno >= logging.ERROR] == ["g-000000000001"]
    await runner.cleanup()
    assert not any(t.name.startswith("storage-writer") for t in threading.enumerate())
    again = Storage.open(db)  # kept as it was, for the next start
    kept = again.load_game("g-000000000001")
    assert kept is not None and kept.game.state == "playing" and len(kept.answers) == 1
