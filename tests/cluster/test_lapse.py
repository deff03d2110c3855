"""An open table nobody joins lapses on a node among several: its node abandons it, tells
its creator, and the cluster's listing (from Redis, asked on another node) drops it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from dominion.protocol import Ack, GameAbandoned, Join
from dominion.server.play.lapse import LAPSED
from tests.eventually import eventually
from tests.server.wsclient import TestClient
from tests.tiers import Tier, starts

from .cluster import Node, Redis, needs_redis, wait_until_every_node_knows_the_others

pytestmark = needs_redis


@pytest.fixture
@starts(Tier.SYSTEM)
def nodes(tmp_path: Path) -> Iterator[dict[str, Node]]:
    """Two nodes sharing a Redis, whose open tables lapse after 2 s."""
    redis = Redis(tmp_path)
    nodes = {name: Node(name, tmp_path / f"node-{name}.sqlite3", redis, "")
             for name in ("a", "b")}
    try:
        redis.start()
        for node in nodes.values():
            node.start(env={"DOMINION_OPEN_TABLE_SECONDS": "2"})
        wait_until_every_node_knows_the_others(nodes)
        yield nodes
    finally:
        for node in nodes.values():
            node.stop()
        redis.stop()


async def test_an_open_table_lapses_from_the_whole_clusters_listing(
        nodes: dict[str, Node]) -> None:
    a, b = nodes["a"].url, nodes["b"].url

    async def listed_on_a(game: str) -> bool:
        async with session.get(f"{a}/api/v1/games", params={"state": "open"}) as response:
            return game in [summary["id"] for summary in (await response.json())["games"]]

    async def gone_from_a(game: str) -> bool:
        return not await listed_on_a(game)

    async with aiohttp.ClientSession() as session:
        async with session.post(f"{b}/api/v1/games", json={"name": "Ann", "seats": 2}
                                ) as response:
            created = await response.json()
        game = created["game"]["id"]
        assert game.startswith("g-b-")
        creator = await TestClient.connect(session, b + "/api/v1/ws")
        assert isinstance(await creator.request(Join, game=game, token=created["token"]),
                          Ack)
        await eventually(lambda: listed_on_a(game))  # published, then
        assert await creator.push(timeout=30) == GameAbandoned(game=game, reason=LAPSED)
        await eventually(lambda: gone_from_a(game))
        async with session.get(f"{b}/api/v1/games/{game}") as response:
            assert (await response.json())["state"] == "abandoned"
        await creator.close()

