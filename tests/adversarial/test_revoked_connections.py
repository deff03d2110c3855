"""What an access token or the web page's session signed in ends when the token or the
session does, through a real server on each account store (SQLite, and a real
PostgreSQL): a revoked token, a session signed out (here or everywhere: its tokens too),
ended by a password change made in another session, or expired, a deleted account or a
banned one closes the WebSocket connections it signed in, at once
on the node that acted (however long the nodes wait between their looks at the store)
and within a look on another node sharing the store; 4007 for a revoked token, an ended
session or a deleted account (its reason naming no secret), 4008 for a ban. Other
connections (another token's or session's, a seat token's) go on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dominion.protocol import SUBPROTOCOLS, SUPPORTED_VERSIONS, Ack, Hello, Join, Ping, Welcome
from dominion.server.accounts.service import new_session_secret, session_hash
from dominion.server.edge.api.sessions import SESSION_COOKIE
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
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
    await api.client.app[STATE].moderation.set_admin("Ada", True)  # type: ignore[index]
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
    await here.client.app[STATE].moderation.set_admin("Ada", True)  # type: ignore[index]
    await here.call("POST", "/api/v1/admin/bans", 201, json={"name": "Bob", "reason": "r"})
    assert await close_code_sent(bob, timeout=5) == 4008


# -- the web page's session: a socket it signed in closes when the session ends --------


def cookie(session: str) -> dict[str, str]:
    return {"Cookie": f"{SESSION_COOKIE}={session}"}


async def new_session(api: Api, name: str) -> str:
    """Another session of the account (registered at its first): its secret, as the
    browser's cookie holds it (never in the test client's jar, which would send it on)."""
    accounts = api.client.app[STATE].accounts  # type: ignore[index]
    if await accounts.holder_of(name) is None:
        return str((await accounts.register(name, PASSWORD, "10.0.0.1"))[1])
    return str((await accounts.sign_in(name, PASSWORD, "10.0.0.1", None))[1])


async def by_session(api: Api, session: str) -> TestClient:
    """A WebSocket connection the session signed in, as the server's own page opens one
    (its Origin, and the cookie)."""
    origin = str(api.client.make_url("/")).rstrip("/")
    ws = await api.client.session.ws_connect(api.client.make_url("/api/v1/ws"), protocols=V2,
                                             headers={"Origin": origin, **cookie(session)})
    client = TestClient(ws)
    welcome = await client.request(Hello, versions=[2])
    assert isinstance(welcome, Welcome) and welcome.account is not None, welcome
    return client


async def closed_with(client: TestClient, *secrets: str) -> int:
    """The close code the server sent, once its reason is checked to hold no secret
    (neither a session's nor its hash)."""
    message = await asyncio.wait_for(client.ws.receive(), timeout=5)
    assert message.type is aiohttp.WSMsgType.CLOSE, message
    for secret in secrets:
        assert secret not in message.extra
        assert session_hash(secret).hex() not in message.extra.lower()
    return int(message.data)


async def test_signing_out_closes_the_sockets_that_session_signed_in_at_once(
        make_api: MakeApi) -> None:
    api = await make_api()
    ada, other_ada, bob = (await new_session(api, "Ada"), await new_session(api, "Ada"),
                           await new_session(api, "Bob"))
    game = (await api.call("POST", "/api/v1/games", 201, json={"seats": 2},
                           headers=cookie(ada)))["game"]["id"]
    seated = await by_session(api, ada)
    assert isinstance(await seated.request(Join, game=game), Ack)  # the account's seat
    idle = await by_session(api, ada)
    others = [await by_session(api, other_ada), await by_session(api, bob)]
    await api.call("POST", "/api/v1/account/sign-out", 200, headers=cookie(ada))
    assert await closed_with(seated, ada) == 4007
    assert await closed_with(idle, ada) == 4007
    for other in others:  # the account's other session, and another account's
        assert await still_open(other)


async def test_signing_out_everywhere_closes_every_session_socket_of_the_account(
        make_api: MakeApi) -> None:
    api = await make_api()
    ada, other_ada, bob = (await new_session(api, "Ada"), await new_session(api, "Ada"),
                           await new_session(api, "Bob"))
    closing = [await by_session(api, ada), await by_session(api, other_ada)]
    bobs = await by_session(api, bob)
    accounts = api.client.app[STATE].accounts  # type: ignore[index]
    _, secret = await accounts.access_tokens.create(
        await accounts.holder_of("Ada"), "a bot", ["play"])
    bot = await signed_in(api, secret)
    _, bobs_secret = await accounts.access_tokens.create(
        await accounts.holder_of("Bob"), "b", ["play"])
    bobs_bot = await signed_in(api, bobs_secret)
    await api.call("POST", "/api/v1/account/sign-out-everywhere", 200, headers=cookie(ada))
    for client in closing:
        assert await closed_with(client, ada, other_ada) == 4007
    assert await closed_with(bot, secret) == 4007  # everywhere: its access tokens too
    assert await still_open(bobs)
    assert await still_open(bobs_bot)


async def test_changing_the_password_closes_the_other_sessions_sockets_at_once(
        make_api: MakeApi) -> None:
    api = await make_api()
    ada, other_ada = await new_session(api, "Ada"), await new_session(api, "Ada")
    kept, closing = await by_session(api, ada), await by_session(api, other_ada)
    bobs = await by_session(api, await new_session(api, "Bob"))
    accounts = api.client.app[STATE].accounts  # type: ignore[index]
    _, secret = await accounts.access_tokens.create(
        await accounts.holder_of("Ada"), "a bot", ["play"])
    bot = await signed_in(api, secret)
    await api.call("POST", "/api/v1/account/password", 200, headers=cookie(ada),
                   json={"old_password": PASSWORD, "new_password": "staple battery horse"})
    assert await closed_with(closing, ada, other_ada) == 4007
    for client in (kept, bobs, bot):  # this session, another account's, a token's
        assert await still_open(client)


async def test_deleting_the_account_closes_its_session_sockets_at_once(
        make_api: MakeApi) -> None:
    api = await make_api()
    ada, other_ada = await new_session(api, "Ada"), await new_session(api, "Ada")
    closing = [await by_session(api, ada), await by_session(api, other_ada)]
    bobs = await by_session(api, await new_session(api, "Bob"))
    await api.call("DELETE", "/api/v1/account", 200, headers=cookie(ada),
                   json={"password": PASSWORD})
    for client in closing:
        assert await closed_with(client, ada, other_ada) == 4007
    assert await still_open(bobs)


async def test_a_ban_closes_the_accounts_session_sockets_as_banned(make_api: MakeApi) -> None:
    api = await make_api()
    bob = await by_session(api, await new_session(api, "Bob"))
    admin = await new_session(api, "Ada")
    await api.client.app[STATE].moderation.set_admin("Ada", True)  # type: ignore[index]
    admins = await by_session(api, admin)
    await api.call("POST", "/api/v1/admin/bans", 201, headers=cookie(admin),
                   json={"name": "Bob", "reason": "r"})
    assert await close_code_sent(bob, timeout=5) == 4008
    assert await still_open(admins)


async def test_an_expired_session_closes_its_sockets_at_the_next_look(
        make_api: MakeApi) -> None:
    api = await make_api(moderation_refresh_seconds=0.05)
    accounts = api.client.app[STATE].accounts  # type: ignore[index]
    moderation = api.client.app[STATE].moderation  # type: ignore[index]
    ada, _ = await accounts.register("Ada", PASSWORD, "10.0.0.1")
    short, now = new_session_secret(), moderation.now()
    await accounts.store.add_session(session_hash(short), ada.id, now, now + timedelta(hours=1))
    expiring = await by_session(api, short)
    lasting = await by_session(api, await new_session(api, "Bob"))  # for session_days
    moderation._clock = lambda: now + timedelta(hours=2)
    assert await closed_with(expiring, short) == 4007
    assert await still_open(lasting)  # looked at in the same pass: not expired


async def test_a_session_ended_on_another_node_closes_its_sockets_here(
        make_api: MakeApi) -> None:
    here, there = await two_nodes(make_api)
    ada, other_ada = await new_session(here, "Ada"), await new_session(here, "Ada")
    bob, other_bob = await new_session(here, "Bob"), await new_session(here, "Bob")
    cy = await new_session(here, "Cy")
    signed_out, kept = await by_session(there, ada), await by_session(there, other_ada)
    bobs = [await by_session(there, bob), await by_session(there, other_bob)]
    cys = await by_session(there, cy)
    await here.call("POST", "/api/v1/account/sign-out", 200, headers=cookie(ada))
    assert await closed_with(signed_out, ada) == 4007
    assert await still_open(kept)
    accounts = here.client.app[STATE].accounts  # type: ignore[index]
    _, token = await accounts.access_tokens.create(
        await accounts.holder_of("Bob"), "a bot", ["play"])
    bobs.append(await signed_in(there, token))
    await here.call("POST", "/api/v1/account/sign-out-everywhere", 200, headers=cookie(bob))
    for client in bobs:
        assert await closed_with(client, bob, other_bob) == 4007
    await here.call("DELETE", "/api/v1/account", 200, headers=cookie(cy),
                    json={"password": PASSWORD})
    assert await closed_with(cys, cy) == 4007
    assert await still_open(kept)


async def test_a_ban_on_another_node_closes_the_session_sockets_here_as_banned(
        make_api: MakeApi) -> None:
    """4008, not 4007, though the ban ends the account's sessions too: whenever in a look
    it lands, the ban is seen with them."""
    here, there = await two_nodes(make_api)
    bobs = [await by_session(there, await new_session(here, "Bob")) for _ in range(3)]
    admin = await new_session(here, "Ada")
    await here.client.app[STATE].moderation.set_admin("Ada", True)  # type: ignore[index]
    await here.call("POST", "/api/v1/admin/bans", 201, headers=cookie(admin),
                    json={"name": "Bob", "reason": "r"})
    for client in bobs:
        assert await close_code_sent(client, timeout=5) == 4008
