"""The standing fuzzers, short and seeded: random and mutated frames of every message type
over real sockets while a game plays on, and every REST path with every method.
`bench/abuse.py` runs the long versions."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiohttp
import pytest

from dominion.server.edge.api.openapi import openapi_document
from tests.server.restapi import check_response

from .attacks import Probe, ServerProcess, fuzz_rest, fuzz_websocket

FAST = ("--messages-per-second", "100000", "--burst", "100000")
"""The fuzzers test what frames do, not the rate limit (which would stop them early)."""
WS_FRAMES = 4_000
REST_REQUESTS = 600
RSS_GROWTH_KIB = 40 * 1024


@pytest.mark.integration  # a real server or socket
async def test_fuzzed_frames_break_nothing_while_a_game_plays_on(tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path, *FAST)
    try:
        async with aiohttp.ClientSession() as session:
            probe = Probe(server.url)
            await probe.play(session, games=1)  # warm up: the server's first game
            async with session.post(f"{server.url}/api/v1/games", json={
                    "name": "Target", "seats": 3}) as created:
                target = await created.json()
            before = server.rss_kib()
            games = [target["game"]["id"]]
            report, _ = await asyncio.gather(
                fuzz_websocket(server.url, frames=WS_FRAMES, seed=15, games=games,
                               tokens=[target["token"]]),
                probe.play(session, games=2))
            after = server.rss_kib()
            assert probe.games == 2  # the unrelated games finished
            # and the server still answers as it should
            async with session.get(f"{server.url}/healthz") as health:
                assert health.status == 200
    finally:
        assert server.stop() == 0
    print(report.as_dict(), probe.percentiles(), f"RSS {before} -> {after} KiB")
    # most frames were answered (an ack or an error): not those a connection had on its
    # way when it was closed (for ten malformed frames in a row, or bad framing)
    assert report.frames == WS_FRAMES and report.replies >= 0.8 * WS_FRAMES
    assert "internal_error" not in report.errors
    assert server.faults() == []  # no traceback, no error of the server's own
    assert after - before < RSS_GROWTH_KIB


@pytest.mark.integration  # a real server or socket
async def test_fuzzed_rest_requests_are_refused_cleanly_and_create_nothing(
        tmp_path: Path) -> None:
    server = ServerProcess.start(tmp_path, "--games-per-address", "1000",
                                 "--games-per-hour", "100000")
    document = openapi_document()
    try:
        report = await fuzz_rest(server.url, requests=REST_REQUESTS, seed=15,
                                 document=document, games=[])
    finally:
        assert server.stop() == 0
    print(dict(report.statuses), dict(report.codes.most_common()))
    # (a share of the requests meet the account, token, passkey and admin routes, which
    # refuse a stranger first: 401; the seeded run's 400s are 40 of its 600)
    assert 500 not in report.statuses and report.statuses[400] > 30
    for method, path, status, content_type, body in report.answers:
        if method == "HEAD" or (status == 405 and method == "OPTIONS"):
            continue
        check_response(document, method, path, status, content_type, body)
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        taken = db.execute("SELECT count(*) FROM seats WHERE name IS NOT NULL AND bot IS NULL"
                           ).fetchone()[0]
    db.close()
    assert games == report.created  # a refused request created nothing
    assert taken == report.created + report.joined - report.left
    assert server.faults() == []
