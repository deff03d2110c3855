"""A real server brings a restart's games back dormant (play/dormant.py): each counts live
at once, a player who joins one has it replayed and plays, and one whose log does not
replay is refused as unknown, as if it had been replayed at the start, and stays stored."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import aiohttp
import pytest

from dominion.protocol import Ack, Error, ErrorCode, Join, Snapshot
from dominion.server.engine import Answer
from dominion.server.storage import Storage
from tests.eventually import eventually

from .test_process import start_server
from .test_restart import store_running_games
from .wsclient import TestClient

GAMES = 4


async def live_games(session: aiohttp.ClientSession, url: str) -> str:
    metrics = await (await session.get(f"{url}/metrics")).text()
    return next(line for line in metrics.splitlines()
                if line.startswith("dominion_live_games "))


@pytest.mark.integration  # a real server
async def test_a_dormant_game_is_replayed_for_the_player_who_joins_it(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    games = await store_running_games(db, GAMES)
    damaged, _ = games[0]
    storage = Storage.open(db)
    await storage.start()
    await storage.append_answers(damaged, 0, [Answer(0, 999, (0,))], "t")
    await storage.close()
    process, url = start_server(db, "--seat-grace-seconds", "86400")
    try:
        async with aiohttp.ClientSession() as session:
            async def all_back() -> bool:  # the damaged one too: nothing has replayed it
                return await live_games(session, url) == f"dominion_live_games {GAMES}.0"

            await eventually(all_back, seconds=60)
            game, tokens = games[-1]
            client = await TestClient.connect(session, url + "/api/v1/ws")
            ack = await client.request(Join, game=game, token=tokens[1])
            assert isinstance(ack, Ack) and ack.seat == 1
            snapshot = await client.push()
            assert isinstance(snapshot, Snapshot) and snapshot.view["decision"] is not None
            refused = await client.request(Join, game=damaged, token=games[0][1][0])
            assert isinstance(refused, Error) and refused.code == ErrorCode.UNKNOWN_GAME
            assert await live_games(session, url) == f"dominion_live_games {GAMES - 1}.0"
            await client.ws.close()
    finally:
        process.send_signal(signal.SIGTERM)
        output = (await asyncio.to_thread(process.communicate, timeout=15))[0].decode()
    assert "a game could not be restored" in output
    kept = Storage.open(db)
    stored = kept.load_game(damaged)
    assert stored is not None and stored.game.state == "playing" and len(stored.answers) == 1
