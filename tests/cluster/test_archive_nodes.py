"""Two real nodes sharing a real PostgreSQL (accounts and the archive of ended games) and
their Redis: a game ended on one node is served by the other, from the archive; and a
node whose disk is lost (its games' SQLite file deleted) loses no ended game: restarted
on an empty file, both nodes serve every replay, and an export holds them all."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest

from dominion.protocol import GameOver, Join, Resign
from dominion.server.replays import verify_replay
from tests.accounts.conftest import postgres_server, postgres_url
from tests.eventually import eventually
from tests.server.wsclient import TestClient
from tests.tiers import Tier, starts

from ..server.test_process import start_server
from .cluster import FAST, Redis, needs_redis, stop_process, wait_until_every_node_knows_the_others

__all__ = ["postgres_server", "postgres_url"]
pytestmark = [needs_redis, pytest.mark.slow]


class Nodes:
    def __init__(self, folder: Path, redis: Redis, accounts_url: str) -> None:
        self.folder, self.redis, self.accounts_url = folder, redis, accounts_url
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.urls: dict[str, str] = {}

    def db(self, name: str) -> Path:
        return self.folder / f"node-{name}.sqlite3"

    def start(self, name: str) -> None:
        self.processes[name], self.urls[name] = start_server(
            self.db(name), "--node", name, "--redis", self.redis.url,
            "--accounts-url", self.accounts_url, *FAST)

    def stop(self, name: str) -> None:
        stop_process(self.processes.pop(name))


@pytest.fixture
@starts(Tier.SYSTEM)
def nodes(tmp_path: Path, postgres_url: str) -> Iterator[Nodes]:
    redis = Redis(tmp_path)
    started = Nodes(tmp_path, redis, postgres_url)
    try:
        redis.start()
        for name in ("a", "b"):
            started.start(name)
        wait_until_every_node_knows_the_others(
            {name: SimpleNamespace(url=url) for name, url in started.urls.items()})  # type: ignore[misc]
        yield started
    finally:
        for name in list(started.processes):
            started.stop(name)
        redis.stop()


async def finished_game(session: aiohttp.ClientSession, node: str) -> str:
    """A game on `node`: its creator resigns at once, and its bot wins."""
    async with session.post(f"{node}/api/v1/games", json={
            "name": "Ann", "seats": 2, "bots": {"1": "big_money"}}) as response:
        assert response.status == 201
        created = await response.json()
    game: str = created["game"]["id"]
    client = await TestClient.connect(session, node.replace("http", "ws") + "/api/v1/ws")
    await client.request(Join, game=game, token=created["token"])
    await client.request(Resign, game=game)
    while not isinstance(await client.push(30), GameOver):
        pass
    await client.close()
    return game


async def replay(session: aiohttp.ClientSession, node: str, game: str) -> dict[str, Any] | None:
    async with session.get(f"{node}/api/v1/games/{game}/replay") as response:
        if response.status != 200:
            return None
        found: dict[str, Any] = await response.json()
        return found


async def every_replay_from_every_node(session: aiohttp.ClientSession, nodes: Nodes,
                                       games: list[str]) -> dict[str, dict[str, Any]]:
    """Each game's replay, the same from every node, once they all serve it."""
    found: dict[str, dict[str, Any]] = {}

    async def served() -> bool:
        for game in games:
            replays = [await replay(session, url, game) for url in nodes.urls.values()]
            if any(one is None for one in replays):
                return False
            first = replays[0]
            assert first is not None and all(one == first for one in replays)
            found[game] = first
        return True
    await eventually(served)
    return found


async def test_a_nodes_lost_disk_loses_no_ended_game(nodes: Nodes) -> None:
    async with aiohttp.ClientSession() as session:
        games = [await finished_game(session, nodes.urls[name])
                 for name in ("a", "a", "b", "b")]
        before = await every_replay_from_every_node(session, nodes, games)
        for found in before.values():
            assert verify_replay(found).ok

        nodes.stop("a")  # its disk is lost: the games' file and its journal go
        for suffix in ("", "-wal", "-shm"):
            Path(f"{nodes.db('a')}{suffix}").unlink(missing_ok=True)
        nodes.start("a")
        wait_until_every_node_knows_the_others(
            {name: SimpleNamespace(url=url) for name, url in nodes.urls.items()})  # type: ignore[misc]

        after = await every_replay_from_every_node(session, nodes, games)
        assert after == before
        for url in nodes.urls.values():
            async with session.get(f"{url}/api/v1/replays/export") as response:
                assert response.status == 200
                exported = {line.split(b'"id":"')[1].split(b'"')[0].decode()
                            for line in (await response.read()).splitlines()}
            assert exported == set(games)
            async with session.get(f"{url}/api/v1/games", params={"state": "finished"}) as \
                    response:
                listing = await response.json()
            assert {game["id"] for game in listing["games"]} == set(games)
