"""What an access token signed in ends when the token does, through a real server on each
account store (SQLite, and a real PostgreSQL): a revoked token, a deleted account or a
banned one closes the WebSocket connections it signed in, at once on the node that acted
(however long the nodes wait between their looks at the store) and within a look on
another node sharing the store; 4007 for a revoked token or a deleted account, 4008 for a
ban. Other connections (another token's, a seat token's) go on."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from dominion.protocol import SUBPROTOCOLS, SUPPORTED_VERSIONS, Ack, Hello, Join, Ping, Welcome
from dominion.server.edge.app import create_app
from dominion.server.edge.state import MODERATION
from dominion.server.settings import Settings
from tests.accounts.conftest import postgres_server, postgres_url
from tests.server.restapi import Api
from tests.server.wsclient import TestClient
from tests.server.wsplay import FAST, close_code_sent

__all__ = ["postgres_server", "postgres_url"]
CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"
NEVER = 3600.0
"""A look at the store so seldom that only what the acting node does at once is seen."""
V2 = (SUBPROTOCOLS[SUPPORTED_VERSIONS.index(2)],)
MakeApi = Callable[..., Awaitable[Api]]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
async def make_api(request: pytest.FixtureRequest, aiohttp_client: Any, tmp_path: Path
                   ) -> AsyncIterator[MakeApi]:
    """`await make_api(db=...)`: a server on a socket, its accounts in SQLite or
    PostgreSQL; every server a test makes shares the one store, as a cluster's nodes do."""
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else ""

    async def make(**settings: Any) -> Api:
        values = {**FAST, "db": str(tmp_path / "games.sqlite3"), "accounts_url": url,
                  "moderation_refresh_seconds": NEVER, **CHEAP, **settings}
        return Api(await aiohttp_client(create_app(Settings(**values))))
    yield make


async def register(api: Api, name: str) -> None:
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": name, "password": PASSWORD})


async def new_token(api: Api) -> tuple[int, str]:
    """A play token of the account signed in: its id and secret."""
    made = await api.call("POST", "/api/v1/account/tokens", 201,
                          json={"description": "a bot", "scopes": ["play"]})
    return made["token"]["id"], made["token"]["secret"]


async def signed_in(api: Api, secret: str) -> TestClient:
    """A WebSocket connection the token signed in (by the upgrade's header)."""
    ws = await api.client.session.ws_connect(api.client.make_url("/api/v1/ws"), protocols=V2,
                                             headers={"Authorization": f"Bearer {secret}"})
    client = TestClient(ws)
    assert isinstance(await client.request(Hello, versions=[2]), Welcome)
    return client


async def still_open(client: TestClient) -> bool:
    return isinstance(await client.request(Ping), Ack)


async def test_a_revoked_token_closes_its_connections_at_once(make_api: MakeApi) -> None:
    api = await make_api()
    await register(api, "Ada")
    token_id, secret = await new_token(api)
    _, other_secret = await new_token(api)
    game = (await api.create(seats=2))["game"]["id"]
    playing = await signed_in(api, secret)
    assert isinstance(await playing.request(Join, game=game), Ack)  # the account's seat
    watching = await signed_in(api, secret)
    other = await signed_in(api, other_secret)
    await api.call("DELETE", f"/api/v1/account/tokens/{token_id}", 200)
    assert await close_code_sent(playing, timeout=5) == 4007
    assert await close_code_sent(watching, timeout=5) == 4007
    assert await still_open(other)


async def test_deleting_the_account_closes_its_tokens_connections(make_api: MakeApi) -> None:
    api = await make_api()
    await register(api, "Ada")
    _, secret = await new_token(api)
    client = await signed_in(api, secret)
    await api.call("DELETE", "/api/v1/account", 200, json={"password": PASSWORD})
    assert await close_code_sent(client, timeout=5) == 4007


async def test_a_ban_closes_the_accounts_token_connections_as_banned(
        make_api: MakeApi) -> None:
    api = await make_api()
    await register(api, "Bob")
    _, secret = await new_token(api)
    game = (await api.create(seats=2))["game"]["id"]
    seated = await signed_in(api, secret)
    assert isinstance(await seated.request(Join, game=game), Ack)
    idle = await signed_in(api, secret)
    await api.call("POST", "/api/v1/account/sign-out", 200)
    await register(api, "Ada")
    await api.client.app[MODERATION].set_admin("Ada", True)  # type: ignore[index]
    _, admins = await new_token(api)
    admin_connection = await signed_in(api, admins)
    await api.call("POST", "/api/v1/admin/bans", 201, json={"name": "Bob", "reason": "r"})
    assert await close_code_sent(seated, timeout=5) == 4008  # not 4006: it is the account's
    assert await close_code_sent(idle, timeout=5) == 4008
    assert await still_open(admin_connection)
    room = api.state.lobby.room(game)
    assert room.seats[0].account_id is None  # the open table's seat was freed too


async def two_nodes(make_api: MakeApi) -> tuple[Api, Api]:
    """This node, where the account acts, and another on the same store (with its own
    games) that looks at the store often."""
    here = await make_api()
    if not here.state.settings.accounts_url:
        pytest.skip("one SQLite account store per node: several nodes share PostgreSQL")
    there = await make_api(db=str(Path(here.state.settings.db).with_name("there.sqlite3")),
                           moderation_refresh_seconds=0.05)
    return here, there


async def test_a_token_revoked_on_another_node_closes_its_connections_here(
        make_api: MakeApi) -> None:
    here, there = await two_nodes(make_api)
    await register(here, "Ada")
    token_id, secret = await new_token(here)
    _, other_secret = await new_token(here)
    client, other = await signed_in(there, secret), await signed_in(there, other_secret)
    await here.call("DELETE", f"/api/v1/account/tokens/{token_id}", 200)
    assert await close_code_sent(client, timeout=5) == 4007
    assert await still_open(other)


async def test_a_ban_or_deletion_on_another_node_closes_the_connections_here(
        make_api: MakeApi) -> None:
    here, there = await two_nodes(make_api)
    await register(here, "Bob")
    _, bobs = await new_token(here)
    bob = await signed_in(there, bobs)
    await here.call("POST", "/api/v1/account/sign-out", 200)
    await register(here, "Cy")
    _, cys = await new_token(here)
    cy = await signed_in(there, cys)
    await here.call("DELETE", "/api/v1/account", 200, json={"password": PASSWORD})
    assert await close_code_sent(cy, timeout=5) == 4007
    await register(here, "Ada")
    await here.client.app[MODERATION].set_admin("Ada", True)  # type: ignore[index]
    await here.call("POST", "/api/v1/admin/bans", 201, json={"name": "Bob", "reason": "r"})
    assert await close_code_sent(bob, timeout=5) == 4008
