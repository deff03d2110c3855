"""The repository's nginx configuration in front of a real `dominion-server` process:
a whole bot game and its replay go through the proxy (TLS, WebSocket upgrade), and the
server believes X-Forwarded-For only from a trusted proxy."""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dominion.bots import NoTable, make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import Ack, Answer, GameOver, Join, PendingDecision, Snapshot
from dominion.server.replays import verify_replay

from ..server.wsclient import TestClient
from .proxy import (
    Proxy,
    needs_nginx,
    needs_openssl,
    nginx_command,
    proxied_server,
    write_configs,
)

# nginx in front of a real server
pytestmark = [pytest.mark.integration, needs_nginx, needs_openssl]

FAST = ("--sqlite-synchronous", "NORMAL")


def session_for(proxy: Proxy) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=proxy.ssl))


async def play_to_the_end(client: TestClient, game: str, seat: int) -> dict[str, Any]:
    """Answer seat `seat`'s decisions with the random strategy until game over."""
    strategy = make_strategy("random", random.Random(7))
    answered = 0
    while True:
        message = await client.push(timeout=15)
        decision: dict[str, Any] | None = None
        if isinstance(message, PendingDecision):
            decision = message.decision
        elif isinstance(message, Snapshot):
            decision = message.view["decision"]
        elif isinstance(message, GameOver):
            assert answered > 0
            return message.result
        if decision is not None and "options" in decision and decision["player"] == seat:
            wire = WireDecision.from_map(decision)
            reply = await client.request(Answer, game=game, decision=wire.id,
                                         options=strategy.choose(wire, NoTable()))
            assert isinstance(reply, Ack), reply
            answered += 1


async def download_replay(session: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    """The replay; retried briefly on 404, because the server pushes game_over before
    the game's final write is committed and, in between, answers 404 "not loaded"."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 5
    while True:
        response = await session.get(url)
        if response.status != 404 or loop.time() > deadline:
            assert response.status == 200, await response.text()
            replay: dict[str, Any] = await response.json()
            return replay
        await asyncio.sleep(0.05)


def test_the_derived_configuration_passes_nginx_t(tmp_path: Path) -> None:
    write_configs(tmp_path, upstream_port=8080)
    result = subprocess.run(nginx_command(tmp_path, "-t"), capture_output=True, text=True,
                            timeout=30, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "test is successful" in result.stderr


async def test_a_bot_game_and_its_replay_through_nginx(tmp_path: Path) -> None:
    with proxied_server(tmp_path, *FAST) as proxy:
        async with session_for(proxy) as session:
            health = await session.get(f"{proxy.https}/healthz")
            assert health.status == 200 and (await health.json())["status"] == "ok"
            assert health.headers["Strict-Transport-Security"].startswith("max-age=")

            created = await session.post(f"{proxy.https}/api/v1/games", json={
                "name": "Ann", "seats": 2, "kingdom": "First Game",
                "bots": {"1": "big_money"}})
            assert created.status == 201, await created.text()
            body = await created.json()
            game, token = body["game"]["id"], body["token"]

            client = await TestClient.connect(session, proxy.wss)
            joined = await client.request(Join, game=game, token=token)
            assert isinstance(joined, Ack) and joined.seat == 0, joined
            result = await play_to_the_end(client, game, 0)
            await client.close()
            assert result["scores"] and "winners" in result

            replay = await download_replay(session, f"{proxy.https}/api/v1/games/{game}/replay")
            assert replay["complete"] is True and replay["game"]["state"] == "finished"
            assert replay["result"]["scores"] == result["scores"]
            verification = verify_replay(replay)
            assert verification.ok, verification.problems
            text = await session.get(f"{proxy.https}/api/v1/games/{game}/replay",
                                     params={"format": "text"})
            assert text.status == 200 and "Ann" in await text.text()

            # metrics are not public; the server itself has them
            assert (await session.get(f"{proxy.https}/metrics")).status == 403
            metrics = await (await session.get(f"{proxy.server}/metrics")).text()
            assert "dominion_games_created_total 1.0" in metrics

        async with aiohttp.ClientSession() as plain:
            redirect = await plain.get(f"{proxy.http}/api/v1/server", allow_redirects=False)
            assert redirect.status == 301
            assert redirect.headers["Location"] == "https://127.0.0.1/api/v1/server"

    log = proxy.access_log()
    assert '"GET /api/v1/ws HTTP/1.1" 101' in log  # the WebSocket went through nginx
    assert f"GET /api/v1/games/{game}/replay HTTP/1.1\" 200" in log


async def statuses(session: aiohttp.ClientSession, url: str, times: int) -> set[int]:
    """The HTTP statuses of `times` requests for `url` in a row, from one address."""
    found = set()
    for _ in range(times):
        async with session.get(url) as response:
            await response.read()
            found.add(response.status)
    return found


async def test_the_pages_files_have_an_allowance_of_their_own(tmp_path: Path) -> None:
    """A page load fetches some 40 files: ten loads at once from one address (people
    behind one NAT, or a few reloads) are not refused, while the API's own request
    limit (20 a second, bursts of 100) still holds."""
    with proxied_server(tmp_path, *FAST) as proxy:
        async with session_for(proxy) as session:
            page = await (await session.get(f"{proxy.https}/")).text()
            script = re.search(r"/web/[0-9a-f]+/js/main\.js", page)
            assert script, page
            assert await statuses(session, proxy.https + script.group(0), 400) == {200}
            assert 429 in await statuses(session, f"{proxy.https}/api/v1/server", 400)


async def create_as(session: aiohttp.ClientSession, proxy: Proxy, forwarded: str) -> int:
    """Create an open table claiming to come from `forwarded`; the HTTP status."""
    response = await session.post(f"{proxy.https}/api/v1/games",
                                  json={"name": "Ann", "seats": 2},
                                  headers={"X-Forwarded-For": forwarded})
    return response.status


async def test_a_trusted_proxy_forwards_the_client_address(tmp_path: Path) -> None:
    """The test client and nginx are both 127.0.0.1, so the forged first hop plays a
    client behind a further trusted hop: with nginx trusted, each forwarded address has
    its own allowance of one game."""
    with proxied_server(tmp_path, "--games-per-address", "1",
                        "--trusted-proxies", "127.0.0.1") as proxy:
        async with session_for(proxy) as session:
            assert await create_as(session, proxy, "203.0.113.7") == 201
            assert await create_as(session, proxy, "203.0.113.8") == 201
            assert await create_as(session, proxy, "203.0.113.7") == 429


async def test_an_untrusted_proxy_is_one_address(tmp_path: Path) -> None:
    """Without trusted_proxies, X-Forwarded-For is ignored: everyone behind nginx is
    nginx's address and shares one allowance."""
    with proxied_server(tmp_path, "--games-per-address", "1") as proxy:
        async with session_for(proxy) as session:
            assert await create_as(session, proxy, "203.0.113.7") == 201
            assert await create_as(session, proxy, "203.0.113.8") == 429
