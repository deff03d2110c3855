"""Two real `dominion-server` nodes sharing a real PostgreSQL and their Redis: what was
each node's own about accounts is the same on both. Failed sign-ins count across nodes,
an account's games list holds every node's, a deletion's placeholder and a ban reach
the other node's games, an address ban is refused on both, and a token revoked on one
closes the connections it signed in on the other."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from dominion.protocol import SUBPROTOCOLS, SUPPORTED_VERSIONS, Ack, CloseCode, Hello, Ping, Welcome
from dominion.server.accounts.service import PER_ACCOUNT
from tests.accounts.conftest import new_database, postgres_server
from tests.accounts.postgres import PostgresServer
from tests.eventually import eventually
from tests.server.wsclient import TestClient
from tests.server.wsplay import close_code_sent
from tests.tiers import Tier, starts

from ..server.test_process import start_server
from .cluster import FAST, Redis, needs_redis, stop_process, wait_until_every_node_knows_the_others

__all__ = ["postgres_server"]
pytestmark = [needs_redis, pytest.mark.slow]
PASSWORD = "correct horse battery"
V2 = (SUBPROTOCOLS[SUPPORTED_VERSIONS.index(2)],)
CHEAP = ("--password-time-cost", "1", "--password-memory-kib", "64",
         "--moderation-refresh-seconds", "0.2")


@pytest.fixture(scope="module")
@starts(Tier.SYSTEM)
def nodes(tmp_path_factory: pytest.TempPathFactory,
          postgres_server: PostgresServer) -> Iterator[dict[str, str]]:
    """Nodes a and b: their URLs. One pair for the file's tests (each test's people have
    names of their own): starting them costs more than a test."""
    tmp_path = tmp_path_factory.mktemp("nodes")
    postgres_url = new_database(postgres_server)
    redis = Redis(tmp_path)
    processes: list[subprocess.Popen[bytes]] = []
    try:
        redis.start()
        urls = {}
        for name in ("a", "b"):
            process, urls[name] = start_server(
                tmp_path / f"node-{name}.sqlite3", "--node", name, "--redis", redis.url,
                "--accounts-url", postgres_url, *FAST, *CHEAP)
            processes.append(process)
        wait_until_every_node_knows_the_others(
            {name: SimpleNamespace(url=url) for name, url in urls.items()})  # type: ignore[misc]
        urls["accounts_url"] = postgres_url
        yield urls
    finally:
        for process in processes:
            stop_process(process)
        redis.stop()


def browser() -> aiohttp.ClientSession:
    """A browser of its own: its cookie goes to both nodes (one host, two ports)."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def call(session: aiohttp.ClientSession, method: str, url: str, expect: int,
               **kwargs: Any) -> Any:
    """A request from the node's own page (its Origin), as a browser sends it: the
    session cookie counts only with it."""
    parts = urlsplit(url)
    headers = {"Origin": f"{parts.scheme}://{parts.netloc}"}
    async with session.request(method, url, headers=headers, **kwargs) as response:
        body = await response.json()
        assert response.status == expect, (method, url, response.status, body)
        return body


async def register(session: aiohttp.ClientSession, node: str, name: str) -> None:
    await call(session, "POST", f"{node}/api/v1/account/register", 201,
               json={"name": name, "password": PASSWORD})


async def test_account_facts_are_the_same_on_every_node(nodes: dict[str, str]) -> None:
    a, b = nodes["a"], nodes["b"]
    async with browser() as ada, browser() as bob, browser() as cy, browser() as guest:
        # failed guesses on node a count on node b
        await register(bob, a, "Bob")
        for _ in range(PER_ACCOUNT.free + 1):
            await call(guest, "POST", f"{a}/api/v1/account/sign-in", 401,
                       json={"name": "Bob", "password": "a wrong guess"})
        refused = await call(guest, "POST", f"{b}/api/v1/account/sign-in", 429,
                             json={"name": "Bob", "password": PASSWORD})
        assert refused["error"]["code"] == "rate_limited"
        # Bob's games on both nodes are in his list on either
        game_a = (await call(bob, "POST", f"{a}/api/v1/games", 201,
                             json={"name": "Bob", "seats": 2}))["game"]["id"]
        # three seats, a bot in one: the game goes on after Cy leaves it (below)
        created_b = await call(bob, "POST", f"{b}/api/v1/games", 201,
                               json={"name": "Bob", "seats": 3, "bots": {"2": "big_money"}})
        game_b = created_b["game"]["id"]
        for node in (a, b):
            mine = await call(bob, "GET", f"{node}/api/v1/account/games", 200)
            assert {entry["game"]["id"] for entry in mine["games"]} == {game_a, game_b}
            assert mine["missing_nodes"] == []
            # and his profile's open games, every node's, found by his account's id
            profile = await call(guest, "GET", f"{node}/api/v1/players/Bob/games?state=open",
                                 200)
            assert {game["id"] for game in profile["games"]} == {game_a, game_b}
        # Cy plays on node b, deletes her account on node a: node b shows the placeholder,
        # and resigns her seat
        await register(cy, a, "Cy")
        await call(cy, "POST", f"{b}/api/v1/games/{game_b}/join", 200, json={"name": "Cy"})
        await call(cy, "DELETE", f"{a}/api/v1/account", 200, json={"password": PASSWORD})

        async def placeholder_on_b() -> bool:
            summary = await call(guest, "GET", f"{b}/api/v1/games/{game_b}", 200)
            return [seat["name"] for seat in summary["seats"]][:2] == ["Bob", "deleted player"] \
                and summary["seats"][1]["left"] == "resigned"  # her seat given up too
        await eventually(placeholder_on_b)
        # an admin made on the host bans Bob on node a: node b ends his session at once,
        # and resigns his seat there
        await register(ada, a, "Ada")
        granted = subprocess.run(
            [sys.executable, "-m", "dominion.server.main", "admin", "grant", "Ada",
             "--accounts-url", nodes["accounts_url"]],
            capture_output=True, text=True, timeout=60, check=False)
        assert granted.returncode == 0, granted.stderr
        await call(ada, "POST", f"{a}/api/v1/admin/bans", 201,
                   json={"name": "Bob", "reason": "cheating"})
        await call(bob, "GET", f"{b}/api/v1/account", 401)

        async def resigned_on_b() -> bool:
            summary = await call(guest, "GET", f"{b}/api/v1/games/{game_b}", 200)
            return summary["seats"][0]["left"] == "resigned"  # a bot plays his seat on
        await eventually(resigned_on_b)
        # an address ban made on node a is refused by node b too
        await call(ada, "POST", f"{a}/api/v1/admin/address-bans", 201,
                   json={"prefix": "198.51.100.0/24", "reason": "a flood"})

        async def refused_on_b() -> bool:
            async with guest.get(f"{b}/api/v1/games",
                                 headers={"X-Forwarded-For": "198.51.100.9"}) as got:
                return got.status == 403 and (await got.json())["error"]["code"] == \
                    "address_banned"
        await eventually(refused_on_b)


async def test_a_token_revoked_on_one_node_closes_its_connections_on_the_other(
        nodes: dict[str, str]) -> None:
    """A bot signed in with its token on node b; its owner revokes the token on node a:
    node b closes the connection (4007) within its look at the store; another token's
    connection there goes on."""
    a, b = nodes["a"], nodes["b"]
    async with browser() as dee, aiohttp.ClientSession() as bots:
        await register(dee, a, "Dee")  # (Ada is the other test's: one pair of nodes)
        made = [(await call(dee, "POST", f"{a}/api/v1/account/tokens", 201,
                            json={"description": "bot", "scopes": ["play"]}))["token"]
                for _ in range(2)]
        connections = []
        for token in made:
            ws = await bots.ws_connect(f"{b}/api/v1/ws", protocols=V2,
                                       headers={"Authorization": f"Bearer {token['secret']}"})
            connections.append(TestClient(ws))
            assert isinstance(await connections[-1].request(Hello, versions=[2]), Welcome)
        revoked, kept = connections
        await call(dee, "DELETE", f"{a}/api/v1/account/tokens/{made[0]['id']}", 200)
        assert await close_code_sent(revoked, timeout=10) == CloseCode.UNAUTHORIZED
        assert isinstance(await kept.request(Ping), Ack)
