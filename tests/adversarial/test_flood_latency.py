"""The floods of findings 3, 4 and 7 against a real server with its default limits, while
an unrelated game is played and timed: the floods are cut short, the game goes on.

The latency itself is measured and printed here, not asserted (tests make no timed
assertions): `bench/abuse.py` runs the long version and docs/BENCHMARKS.md records it
against its target (p99 under 100 ms)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.eventually import eventually

from .attacks import (
    Probe,
    ServerProcess,
    chat_flood,
    chatter_token,
    finished_game,
    resume_flood,
    slow_readers,
)

SECONDS = 2.0


async def beside_a_game(session: aiohttp.ClientSession, url: str,
                        flood: Coroutine[Any, Any, Any]) -> tuple[Any, Probe]:
    """The flood's result while a probe plays: its game under way first (on a busy
    machine its set-up alone can outlast a flood of two seconds), and an answer timed
    since the flood began before it stops (a game the flood wedged fails here)."""
    probe = Probe(url)
    stop = asyncio.Event()
    playing = asyncio.ensure_future(probe.play(session, until=stop))
    await eventually(lambda: bool(probe.latencies_ms))
    timed_before = len(probe.latencies_ms)
    result = await flood
    await eventually(lambda: len(probe.latencies_ms) > timed_before)
    stop.set()
    await playing
    return result, probe


@pytest.mark.integration  # a real server or socket
async def test_floods_are_cut_short_while_an_unrelated_game_goes_on(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path, "--seat-grace-seconds", "0.1")
    seen: dict[str, Any] = {}
    try:
        async with aiohttp.ClientSession() as session:
            game = await finished_game(session, server.url)
            before = server.rss_kib()
            for name, flood in (
                    ("slow readers", slow_readers(server.url, connections=20, requests=300)),
                    ("resume", resume_flood(server.url, game, connections=10,
                                            seconds=SECONDS)),
                    ("chat", chat_flood(server.url, game, connections=10, seconds=SECONDS,
                                        access_token=await chatter_token(server.url)))):
                seen[name], probe = await beside_a_game(session, server.url, flood)
                seen[name + " probe"] = probe.percentiles()
                seen[name + " RSS KiB"] = server.rss_kib() - before
    finally:
        assert server.stop() == 0
    print(seen)
    # what waits for slow readers is bounded (1 MiB each, 64 MiB in all, by default)
    assert seen["slow readers RSS KiB"] < 64 * 1024
    resumed = seen["resume"]
    assert resumed["rate_limited"] > resumed["update"]  # most resumes refused, cheaply
    chats = seen["chat"]
    assert 0 < chats["accepted"] <= 20 + SECONDS * 20 / 60 + 1  # one address's allowance
    assert server.faults() == []
