"""A real server lets open tables that nobody joins lapse: abandoned, gone from the open
tables' listing, and the creator's connection told why; a table whose time passed while
the server was stopped lapses as it starts again."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiohttp
import pytest

from dominion.protocol import Ack, GameAbandoned, Join
from dominion.server.play.lapse import LAPSED
from tests.eventually import eventually

from .test_process import start_server
from .wsclient import TestClient

LONG_AGO = "2026-01-01T00:00:00Z"


async def state_of(session: aiohttp.ClientSession, url: str, game: str) -> str:
    async with session.get(f"{url}/api/v1/games/{game}") as response:
        state: str = (await response.json())["state"]
    return state


async def open_ids(session: aiohttp.ClientSession, url: str) -> list[str]:
    async with session.get(f"{url}/api/v1/games", params={"state": "open"}) as response:
        return [summary["id"] for summary in (await response.json())["games"]]


async def create(session: aiohttp.ClientSession, url: str, seats: int = 2) -> dict[str, str]:
    async with session.post(f"{url}/api/v1/games", json={"name": "Ann", "seats": seats}
                            ) as response:
        assert response.status == 201, await response.text()
        created = await response.json()
    return {"game": created["game"]["id"], "token": created["token"]}


@pytest.mark.integration  # a real server or socket
async def test_an_open_table_nobody_joins_lapses_and_its_creator_is_told(tmp_path: Path
                                                                         ) -> None:
    process, url = start_server(tmp_path / "games.sqlite3", "--open-table-seconds", "1")
    try:
        async with aiohttp.ClientSession() as session:
            started = await create(session, url)  # made first, then full: never lapses
            async with session.post(f"{url}/api/v1/games/{started['game']}/join",
                                    json={"name": "Bob"}) as response:
                assert (await response.json())["game"]["state"] == "playing"
            table = await create(session, url, seats=3)
            creator = await TestClient.connect(session, url + "/api/v1/ws")
            assert isinstance(await creator.request(Join, game=table["game"],
                                                    token=table["token"]), Ack)
            assert table["game"] in await open_ids(session, url)
            told = await creator.push(timeout=30)
            assert told == GameAbandoned(game=table["game"], reason=LAPSED)
            assert await state_of(session, url, table["game"]) == "abandoned"
            assert table["game"] not in await open_ids(session, url)
            assert await state_of(session, url, started["game"]) == "playing"
            await creator.close()
    finally:
        process.kill()
        process.wait()


@pytest.mark.integration  # a real server
async def test_a_table_whose_time_passed_while_the_server_was_stopped_lapses_at_start(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db)  # the default: half an hour
    try:
        async with aiohttp.ClientSession() as session:
            table = await create(session, url)
        process.terminate()
        assert await asyncio.to_thread(process.wait, 15) == 0
        with sqlite3.connect(db) as stored:  # the server was away for a long time
            stored.execute("UPDATE games SET created_at = ?", (LONG_AGO,))
            stored.execute("UPDATE seats SET joined_at = ? WHERE joined_at IS NOT NULL",
                           (LONG_AGO,))
        stored.close()
        process, url = start_server(db)
        async with aiohttp.ClientSession() as session:
            await eventually(lambda: _is_abandoned(session, url, table["game"]))
            # the listing follows once the lapse's write is stored (the restore asked for
            # the table before its page was read): eventually, not at the same moment
            await eventually(lambda: _not_listed(session, url, table["game"]))
    finally:
        process.kill()
        process.wait()


async def _is_abandoned(session: aiohttp.ClientSession, url: str, game: str) -> bool:
    return await state_of(session, url, game) == "abandoned"


async def _not_listed(session: aiohttp.ClientSession, url: str, game: str) -> bool:
    return game not in await open_ids(session, url)
