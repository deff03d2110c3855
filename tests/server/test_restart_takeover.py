"""A takeover survives a SIGKILL: the restarted server knows which seat a bot took over
(stored before the bot's first answer for it), so a rated game still ranks that seat
last, though its player came back after the restart and won on points."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

import aiohttp
import orjson
import pytest

from dominion.clients.network_bot import play_seat
from dominion.server.ratings.ledger import RatedGame
from tests.eventually import eventually

from .test_process import start_server

SETTINGS = ("--absent-seat", "bot", "--takeover-strategy", "big_money",
            "--bot-delay-seconds", "0.02", "--password-time-cost", "1",
            "--password-memory-kib", "64")
SHORT_GRACE = ("--seat-grace-seconds", "0.2")
LONG_GRACE = ("--seat-grace-seconds", "60")  # after the restart: time enough to come back
BOT_ANSWERS_BEFORE_CRASH = 3


def answers_of(db: Path, game: str, seat: int) -> int:
    with sqlite3.connect(db) as conn:  # WAL: a reader beside the running server
        return conn.execute("SELECT count(*) FROM answers WHERE game_id = ? AND player = ?",
                            [game, seat]).fetchone()[0]


def state_of(db: Path, game: str) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT state FROM games WHERE id = ?", [game]).fetchone()[0])


@pytest.mark.integration  # a real server or socket
async def test_a_seat_taken_over_before_a_restart_is_still_ranked_last(tmp_path: Path
                                                                       ) -> None:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db, *SETTINGS, *SHORT_GRACE)
    try:
        jar = aiohttp.CookieJar(unsafe=True)  # the test server's address is an IP
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            registered = await session.post(f"{url}/api/v1/account/register", json={
                "name": "Ada", "password": "correct horse battery"})
            assert registered.status == 201, await registered.text()
            created = await session.post(f"{url}/api/v1/games", headers={"Origin": url}, json={
                "seats": 2, "rated": True, "kingdom": "First Game", "bots": {"1": "random"}})
            assert created.status == 201, await created.text()
            body = await created.json()
            game, token = body["game"]["id"], body["token"]
            # Ada never connects: after the grace period Big Money plays her seat
            await eventually(lambda: answers_of(db, game, 0) >= BOT_ANSWERS_BEFORE_CRASH,
                             seconds=30)
            process.send_signal(signal.SIGKILL)
            process.wait(10)

            process, url = start_server(db, *SETTINGS, *LONG_GRACE)
            # Ada is back, and plays Big Money herself against the Random bot
            result = await asyncio.wait_for(
                play_seat(url, game, token, "big_money", session=session), 120)
            assert result["winners"] == [0], "she wins on points (and the test means it)"
            await eventually(lambda: state_of(db, game) == "finished")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(15)

    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT game FROM rating_outbox WHERE game_id = ?",
                           [game]).fetchone()
    assert row is not None, "a finished rated game is in the outbox"
    rated = RatedGame.from_dict(orjson.loads(row[0]))
    assert [(seat.seat, seat.rank) for seat in rated.seats] == [(0, 1), (1, 0)], \
        "the seat the bot took over is ranked last, below the Random bot"
