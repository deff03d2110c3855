"""Finding 6: every game ends or is taken over, whatever order things fail in. (Seats
nobody ever connects to: tests/play/test_lobby_timers.py.)"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from dominion.protocol import Ack, GameOver, Join, Resign, Watch
from tests.eventually import eventually
from tests.server.wsplay import ServerFactory, Site, fail_writes, ws_server
from tests.virtual_clock import VirtualClock

__all__ = ["ws_server"]


async def ended(site: Site, game: str, timeout: float = 30) -> str:
    """The game's state once it is no longer open or playing."""
    async def wait() -> str:
        while (state := site.room(game).state) in ("open", "playing"):
            await asyncio.sleep(0.02)
        return state
    return await asyncio.wait_for(wait(), timeout)


async def test_a_seat_left_for_watching_is_let_go(ws_server: ServerFactory) -> None:
    clock = VirtualClock()
    site = await ws_server(clock=clock, seat_grace_seconds=10)  # within the heartbeat
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await site.connect()
    assert isinstance(await ann.request(Join, game=game, token=token), Ack)
    room = site.room(game)
    if isinstance(await ann.request(Watch, game=game), Ack):  # now only watching
        assert room.seats[0].connection is None  # (a server may refuse instead)
        assert not room.summary()["seats"][0]["connected"]
    await ann.close()
    await eventually(lambda: room.seats[0].connection is None)
    clock.advance(site.app_state().settings.seat_grace_seconds)
    assert await ended(site, game) == "finished"  # her seat was let go, and taken over
    assert not room.summary()["seats"][0]["connected"]


async def test_a_restart_finishes_a_game_whose_log_shows_it_over(
        ws_server: ServerFactory, tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    site = await ws_server(db=db)
    game, token = await site.create(seats=3, bots={1: "big_money", 2: "big_money"})
    ann = await site.connect()
    await ann.request(Join, game=game, token=token)
    await ann.request(Resign, game=game)
    assert await ended(site, game) == "finished"
    result = site.room(game).record.result
    await site.server.close()
    # what a crash between the last answer's commit and the end's commit leaves behind
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET state = 'playing', finished_at = NULL, "
                           "result = NULL WHERE id = ?", [game])
    connection.close()
    again = await ws_server(db=db)
    assert again.room(game).state == "finished"
    assert again.room(game).record.result == result
    async with again.session.get(again.url(f"/api/v1/games/{game}/replay")) as reply:
        replay = await reply.json()
    assert replay["complete"] and replay["seed"] is not None and replay["result"] == result
    async with again.session.get(again.url("/api/v1/games?state=playing")) as listing:
        assert (await listing.json())["total"] == 0
    metrics = again.app_state().metrics
    assert metrics.live_games._value.get() == 0  # type: ignore[attr-defined]


async def test_an_end_that_cannot_be_stored_is_announced_and_stored_later(
        ws_server: ServerFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    import dominion.server.play.clock as clock_module

    monkeypatch.setattr(clock_module, "RETRY_SECONDS", 0.01)
    site = await ws_server()
    storage = site.app_state().storage
    failures = fail_writes(monkeypatch, storage, "finish_game", times=2)
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await site.connect(version=2)
    await ann.request(Join, game=game, token=token)
    assert isinstance(await ann.request(Resign, game=game), Ack)
    while not isinstance(await ann.push(), GameOver):  # the end is announced all the same
        pass
    assert site.room(game).state == "finished"
    while (stored := storage.load_game(game)) is None or stored.game.state != "finished":
        await asyncio.sleep(0.01)
    assert failures["left"] == 0
