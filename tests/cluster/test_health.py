"""The cluster's health through real nodes sharing a real redis-server: a node killed
shows as not fresh in the others' view of the cluster while they stay ready, and with
Redis gone each node stays ready for its games and reports Redis down, with no address
in any answer."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.eventually import eventually
from tests.tiers import Tier, starts

from ..server.test_process import start_server
from .cluster import Redis, needs_redis, redis, stop_process

__all__ = ["redis"]  # a fixture
pytestmark = [needs_redis, pytest.mark.slow]
REFRESH = "0.5"
"""Seconds between heartbeats: a node is not fresh after three missed ones."""


@pytest.fixture
@starts(Tier.SYSTEM)
def nodes(tmp_path: Path, redis: Redis) -> Iterator[dict[str, tuple[subprocess.Popen[bytes], str]]]:
    started = {name: start_server(tmp_path / f"node-{name}.sqlite3", "--node", name,
                                  "--redis", redis.url, "--cluster-refresh-seconds", REFRESH)
               for name in ("a", "b")}
    try:
        yield started
    finally:
        for process, _ in started.values():
            stop_process(process)


async def get(session: aiohttp.ClientSession, url: str) -> tuple[int, Any, str]:
    async with session.get(url) as response:
        text = await response.text()
        return response.status, await response.json(), text


async def test_a_killed_node_is_not_fresh_and_a_lost_redis_unreadies_no_node(
        nodes: dict[str, tuple[subprocess.Popen[bytes], str]], redis: Redis) -> None:
    (_, a_url), (b, b_url) = nodes["a"], nodes["b"]
    answers: list[str] = []
    async with aiohttp.ClientSession() as session:
        async def view_is(wanted: list[tuple[str, bool, bool | None]]) -> bool:
            status, body, text = await get(session, f"{a_url}/api/v1/cluster/health")
            answers.append(text)
            return status == 200 and [(node["node"], node["fresh"], node["ready"])
                                      for node in body["nodes"]] == wanted
        await eventually(lambda: view_is([("a", True, True), ("b", True, True)]))

        b.kill()  # SIGKILL: no goodbye, its heartbeat just stops
        b.wait()
        await eventually(lambda: view_is([("a", True, True), ("b", False, None)]))
        _, view, _ = await get(session, f"{a_url}/api/v1/cluster/health")
        a_entry, b_entry = view["nodes"]
        assert a_entry["heartbeat_age_seconds"] < b_entry["heartbeat_age_seconds"]
        assert b_entry["heartbeat_age_seconds"] >= 3 * float(REFRESH) - 0.5

        async def b_missed_by_a() -> bool:  # as of a's next heartbeat
            status, body, text = await get(session, f"{a_url}/readyz")
            answers.append(text)
            return status == 200 and body["status"] == "degraded" and body["ready"] and \
                body["dependencies"]["peers"]["state"] == "degraded" and \
                body["dependencies"]["peers"]["nodes"] == ["b"]
        await eventually(b_missed_by_a)

        redis.stop()

        async def redis_down_and_still_ready() -> bool:
            status, body, text = await get(session, f"{a_url}/readyz")
            answers.append(text)
            return status == 200 and body["ready"] and \
                body["dependencies"]["redis"]["state"] == "down"
        await eventually(redis_down_and_still_ready)
        status, refused, text = await get(session, f"{a_url}/api/v1/cluster/health")
        answers.append(text)
        assert (status, refused["error"]["code"]) == (503, "cluster_unavailable")
        status, _, text = await get(session, f"{a_url}/healthz")
        answers.append(text)
        assert status == 200
    for text in answers:
        for address in (str(redis.port), b_url.removeprefix("http://"), "127.0.0.1"):
            assert address not in text, (address, text)
