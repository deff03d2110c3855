"""The web client's session cookie on the WebSocket, through a real socket: the server's
own page is signed in as its account (it seeks rated automatches as it), but another
site's page is not, even one allowed to connect; nor is a bot account's session, or a
session signed out; and an access token in hello still names its own account."""

from __future__ import annotations

from typing import Any

import pytest

from dominion.protocol import Ack, Error, Hello, Seek, Welcome
from dominion.server.edge.api.sessions import SESSION_COOKIE
from dominion.server.edge.state import STATE
from tests.server.wsclient import TestClient
from tests.server.wsplay import ServerFactory, Site, ws_server

__all__ = ["ws_server"]
CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"
OTHER_SITE = "https://other.example"


@pytest.fixture
async def site(ws_server: ServerFactory) -> Site:
    return await ws_server(allowed_origins=(OTHER_SITE,), **CHEAP)


def own_origin(site: Site) -> str:
    return site.url("/").rstrip("/")


async def hello(site: Site, session: str | None, origin: str | None,
                **fields: Any) -> tuple[TestClient, Any]:
    headers = {} if origin is None else {"Origin": origin}
    if session is not None:
        headers["Cookie"] = f"{SESSION_COOKIE}={session}"
    ws = await site.session.ws_connect(site.ws_url, protocols=("dominion.v2.msgpack",),
                                       headers=headers)
    client = TestClient(ws)
    return client, await client.request(Hello, versions=[2], client="tests", **fields)


async def test_the_servers_own_page_seeks_rated_as_its_account(site: Site) -> None:
    _, session = await site.app[STATE].accounts.register("Ada", PASSWORD, "10.0.0.1")
    client, welcome = await hello(site, session, own_origin(site))
    assert isinstance(welcome, Welcome) and welcome.account == "Ada"
    reply = await client.request(Seek, sizes=(2,), edition=2, rated=True)
    assert isinstance(reply, Ack), reply
    await client.close()


async def test_an_upgrade_with_the_cookie_and_no_origin_is_a_guest(site: Site) -> None:
    # the docs said only the server's own page is signed in by the cookie; an upgrade
    # without an Origin (any program holding a stolen cookie) was signed in too
    _, session = await site.app[STATE].accounts.register("Ada", PASSWORD, "10.0.0.1")
    client, welcome = await hello(site, session, None)
    assert isinstance(welcome, Welcome) and welcome.account is None
    reply = await client.request(Seek, sizes=(2,), edition=2, rated=True, name="Eve")
    assert isinstance(reply, Error) and reply.code == "not_signed_in", reply
    await client.close()


async def test_another_sites_page_is_a_guest_even_with_the_cookie(site: Site) -> None:
    _, session = await site.app[STATE].accounts.register("Ada", PASSWORD, "10.0.0.1")
    client, welcome = await hello(site, session, OTHER_SITE)
    assert isinstance(welcome, Welcome) and welcome.account is None
    reply = await client.request(Seek, sizes=(2,), edition=2, rated=True, name="Eve")
    assert isinstance(reply, Error) and reply.code == "not_signed_in", reply
    await client.close()


async def test_a_bot_accounts_session_or_an_ended_one_signs_no_socket_in(site: Site) -> None:
    accounts = site.app[STATE].accounts
    robo, robo_session = await accounts.register("Robo", PASSWORD, "10.0.0.2")
    await accounts.access_tokens.make_bot(robo, has_played=False)
    _, ended = await accounts.register("Bea", PASSWORD, "10.0.0.3")
    await accounts.sign_out(ended)
    for session in (robo_session, ended, "not-a-session"):
        client, welcome = await hello(site, session, own_origin(site))
        assert isinstance(welcome, Welcome) and welcome.account is None, session
        await client.close()


async def test_an_access_token_in_hello_names_its_own_account(site: Site) -> None:
    accounts = site.app[STATE].accounts
    _, session = await accounts.register("Ada", PASSWORD, "10.0.0.1")
    cy, _ = await accounts.register("Cy", PASSWORD, "10.0.0.4")
    _, secret = await accounts.access_tokens.create(cy, "tests", ["play"])
    client, welcome = await hello(site, session, own_origin(site), access_token=secret)
    assert isinstance(welcome, Welcome) and welcome.account == "Cy"
    await client.close()
