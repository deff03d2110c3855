"""Moderation through a real server, on each account store (SQLite, and a real
PostgreSQL): a non-admin can do none of it; a banned account's cookie, sign-in and seats
hold nothing; a banned prefix is refused over HTTP and WebSocket; a muted account cannot
chat; a removed chat line is gone for everyone and from the replay; an abandoned game
tells its players; reports are bounded, one per seat and reported seat; and every admin
action is in the audit log."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dominion.clients.net import Client
from dominion.protocol import (
    SUBPROTOCOLS,
    SUPPORTED_VERSIONS,
    Ack,
    Chat,
    ChatLine,
    ChatRemoved,
    CloseCode,
    Error,
    GameAbandoned,
    Hello,
    Join,
    ServerMessage,
    Watch,
    Welcome,
)
from dominion.server.accounts.moderation import MAX_REASON, MAX_REPORT_TEXT
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.play.archive import prune
from dominion.server.ratings.ledger import RatedGame, RatedSeat, ledger_time
from dominion.server.settings import Settings
from tests.accounts.conftest import postgres_server, postgres_url
from tests.eventually import eventually
from tests.server.restapi import Api
from tests.server.wsclient import TestClient
from tests.server.wsplay import FAST, close_code_sent

__all__ = ["postgres_server", "postgres_url"]
CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"
BANNED = "203.0.113.7"
"""An address of the banned prefix, as the trusted proxy in front names it."""
MakeApi = Callable[..., Awaitable[Api]]
V2 = (SUBPROTOCOLS[SUPPORTED_VERSIONS.index(2)],)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
async def make_api(request: pytest.FixtureRequest, aiohttp_client: Any, tmp_path: Path
                   ) -> AsyncIterator[MakeApi]:
    """`await make_api()`: a server on a socket, its accounts in SQLite or PostgreSQL; the
    same store for every server a test makes (as every node of a cluster shares one)."""
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else ""

    async def make(**settings: Any) -> Api:
        values = {**FAST, "db": str(tmp_path / "games.sqlite3"), "accounts_url": url,
                  "trusted_proxies": ("127.0.0.1",), **CHEAP, **settings}
        return Api(await aiohttp_client(create_app(Settings(**values))))
    yield make


@pytest.fixture
async def api(make_api: MakeApi) -> Api:
    return await make_api()


async def register(api: Api, name: str) -> None:
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": name, "password": PASSWORD})


async def sign_in(api: Api, name: str, expect: int = 200) -> Any:
    return await api.call("POST", "/api/v1/account/sign-in", expect,
                          json={"name": name, "password": PASSWORD})


async def sign_out(api: Api) -> None:
    await api.call("POST", "/api/v1/account/sign-out", 200)


async def make_admin(api: Api, name: str = "Ada") -> None:
    """Register `name`, grant it admin rights as the host does, and stay signed in."""
    await register(api, name)
    await api.client.app[STATE].moderation.set_admin(name, True)  # type: ignore[index]


async def connect(api: Api, **headers: str) -> TestClient:
    session = api.client.session
    url = str(api.client.make_url("/api/v1/ws"))
    if not headers:
        return await TestClient.connect(session, url, version=2)
    ws = await session.ws_connect(url, protocols=V2, headers=headers)
    client = TestClient(ws)
    assert isinstance(await client.request(Hello, versions=[2]), Welcome)
    return client


async def push_of(client: TestClient, kind: type[ServerMessage]) -> ServerMessage:
    while True:
        message = await client.push()
        if isinstance(message, kind):
            return message


async def two_player_game(api: Api) -> tuple[str, str, str]:
    """Bob (signed in) creates a table and Cy (a guest, with no cookie) joins: the game
    runs. The game's id and both tokens; Bob stays signed in."""
    created = await api.create(name="Bob", seats=2)
    game = created["game"]["id"]
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as guest, \
            guest.post(api.client.make_url(f"/api/v1/games/{game}/join"),
                       json={"name": "Cy"}) as joined:
        assert joined.status == 200
        cy_token = (await joined.json())["token"]
    return game, created["token"], cy_token


async def test_a_non_admin_can_do_nothing_of_moderation(api: Api) -> None:
    routes = [("GET", "/api/v1/admin"), ("GET", "/api/v1/admin/reports"),
              ("GET", "/api/v1/admin/audit"), ("GET", "/api/v1/admin/sanctions"),
              ("GET", "/api/v1/admin/pairs"),
              ("POST", "/api/v1/admin/bans"), ("POST", "/api/v1/admin/mutes"),
              ("POST", "/api/v1/admin/address-bans"), ("POST", "/api/v1/admin/sanctions/1/lift")]
    body = {"name": "Bob", "prefix": "198.51.100.0/24", "reason": "no", "seconds": 600}
    for method, path in routes:  # signed out
        await api.error(method, path, 401, "not_signed_in", json=body)
    await register(api, "Bob")
    game, _, _ = await two_player_game(api)
    routes += [("GET", f"/api/v1/games/{game}/admin/chat"),
               ("POST", f"/api/v1/games/{game}/admin/chat/1/remove"),
               ("POST", f"/api/v1/games/{game}/admin/abandon")]
    for method, path in routes:  # signed in, not an admin
        await api.error(method, path, 403, "not_an_admin", json=body)
    moderation = api.client.app[STATE].moderation  # type: ignore[index]
    assert moderation.live_sanctions() == [] and await moderation.store.latest_audit_id() == 0
    assert (await api.game(game))["state"] == "playing"


async def test_a_ban_ends_the_session_refuses_sign_in_and_resigns_the_seat(api: Api) -> None:
    await register(api, "Bob")
    game, bob_token, _ = await two_player_game(api)
    bob_cookies = api.client.session.cookie_jar.filter_cookies(api.client.make_url("/"))
    await sign_out(api)  # first: a socket the cookie signed in would close at the sign-out
    bob = await connect(api)  # the seat's, by its seat token
    assert isinstance(await bob.request(Join, game=game, token=bob_token), Ack)
    await make_admin(api)
    made = await api.call("POST", "/api/v1/admin/bans", 201,
                          json={"name": "bob", "reason": "cheating", "seconds": None})
    assert made["sanction"]["kind"] == "ban" and made["sanction"]["expires_at"] is None
    # its seat is resigned (a bot plays on) and its connection closed
    assert await close_code_sent(bob) == CloseCode.REPLACED
    room = api.state.lobby.room(game)
    assert room.game is not None and 0 in room.game.resigned
    # its token holds nothing, its old cookie signs no one in, and it cannot sign in
    again = await connect(api)
    refused = await again.request(Join, game=game, token=bob_token)
    assert isinstance(refused, Error) and refused.code == "account_banned"
    await sign_out(api)
    await api.error("GET", "/api/v1/account", 401, "not_signed_in", cookies=bob_cookies)
    error = await api.error("POST", "/api/v1/account/sign-in", 403, "account_banned",
                            json={"name": "Bob", "password": PASSWORD})
    assert "cheating" in error["message"]
    await api.error("GET", "/api/v1/account", 401, "not_signed_in")
    # the audit log says who did what to whom, and why
    await sign_in(api, "Ada")
    log = await api.call("GET", "/api/v1/admin/audit", 200)
    newest = log["entries"][0]
    assert (newest["admin"], newest["action"], newest["target"], newest["reason"]) == (
        "Ada", "ban", "account Bob for ever", "cheating")
    # lifted, Bob may sign in again
    await api.call("POST", f"/api/v1/admin/sanctions/{made['sanction']['id']}/lift", 200,
                   json={"reason": "appeal granted"})
    await api.error("POST", f"/api/v1/admin/sanctions/{made['sanction']['id']}/lift", 404,
                    "not_found", json={"reason": "again"})
    await sign_out(api)
    await sign_in(api, "Bob")


async def test_a_muted_account_cannot_chat_until_the_mute_is_lifted(api: Api) -> None:
    await register(api, "Bob")
    game, bob_token, _ = await two_player_game(api)
    await sign_out(api)
    await make_admin(api)
    made = await api.call("POST", "/api/v1/admin/mutes", 201,
                          json={"name": "Bob", "reason": "insults", "seconds": 600})
    await api.error("POST", "/api/v1/admin/mutes", 400, "bad_duration",
                    json={"name": "Bob", "reason": "insults"})  # a mute is for a time
    bob = await connect(api)
    await bob.request(Join, game=game, token=bob_token)
    refused = await bob.request(Chat, game=game, text="you are all ...")
    assert isinstance(refused, Error) and refused.code == "muted"
    assert api.state.storage.chat(game) == []
    # nor from a second connection watching the game: as a guest, or signed in as Bob
    url = str(api.client.make_url("/api/v1/ws"))
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as guest:
        watcher = await TestClient.connect(guest, url, version=2)
        await watcher.request(Watch, game=game)
        refused = await watcher.request(Chat, game=game, text="still here ...")
        assert isinstance(refused, Error) and refused.code == "not_signed_in"
        await watcher.close()
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     headers=api.own_page()) as own:  # the server's page
        async with own.post(api.client.make_url("/api/v1/account/sign-in"),
                            json={"name": "Bob", "password": PASSWORD}) as signed_in:
            assert signed_in.status == 200
        watcher = await TestClient.connect(own, url, version=2)
        await watcher.request(Watch, game=game)
        refused = await watcher.request(Chat, game=game, text="as a spectator then")
        assert isinstance(refused, Error) and refused.code == "muted"
        await watcher.close()
    assert api.state.storage.chat(game) == []
    await api.call("POST", f"/api/v1/admin/sanctions/{made['sanction']['id']}/lift", 200,
                   json={"reason": "served"})
    assert isinstance(await bob.request(Chat, game=game, text="sorry"), Ack)


async def test_a_removed_chat_line_is_gone_for_everyone_and_from_the_replay(api: Api) -> None:
    await register(api, "Bob")
    game, bob_token, cy_token = await two_player_game(api)
    await sign_out(api)  # guests' sockets: one the cookie signed in would close with it
    bob, cy, watcher = await connect(api), await connect(api), await connect(api)
    await bob.request(Join, game=game, token=bob_token)
    await cy.request(Join, game=game, token=cy_token)
    await watcher.request(Watch, game=game)
    await bob.request(Chat, game=game, text="something vile")
    await bob.request(Chat, game=game, text="gg")
    said = [await push_of(watcher, ChatLine), await push_of(watcher, ChatLine)]
    assert [(line.text, line.line is not None) for line in said] == [  # type: ignore[attr-defined]
        ("something vile", True), ("gg", True)]
    vile = said[0].line  # type: ignore[attr-defined]
    await sign_out(api)
    await make_admin(api)
    await api.call("POST", f"/api/v1/games/{game}/admin/chat/{vile}/remove", 200,
                   json={"reason": "slur"})
    for client in (cy, watcher):
        removed = await push_of(client, ChatRemoved)
        assert removed == ChatRemoved(game=game, line=vile)
    await api.error("POST", f"/api/v1/games/{game}/admin/chat/{vile}/remove", 404,
                    "not_found", json={"reason": "slur"})  # once
    lines = (await api.call("GET", f"/api/v1/games/{game}/admin/chat", 200))["lines"]
    assert [(line["text"], line["removed_at"] is not None) for line in lines] == [
        ("something vile", True), ("gg", False)]  # kept in the log, marked
    # abandoned: everyone is told, with no result; the replay has no removed line
    await api.call("POST", f"/api/v1/games/{game}/admin/abandon", 200,
                   json={"reason": "the chat went too far"})
    told = await push_of(cy, GameAbandoned)
    assert told == GameAbandoned(game=game, reason="the chat went too far")
    await api.error("POST", f"/api/v1/games/{game}/admin/abandon", 409, "game_over",
                    json={"reason": "again"})
    summary = await api.game(game)
    assert summary["state"] == "abandoned" and summary["result"] is None
    replay = await api.call("GET", f"/api/v1/games/{game}/replay", 200)
    assert [line["text"] for line in replay["chat"]] == ["gg"]
    actions = [e["action"] for e in (await api.call("GET", "/api/v1/admin/audit", 200))[
        "entries"]]
    assert actions[:2] == ["abandon_game", "remove_chat_line"]


async def test_an_archived_games_chat_is_moderated_in_the_archive(api: Api) -> None:
    """Once the game is archived and pruned from the node, an admin reads and removes its
    chat lines in the archive, and the replay served from there holds no removed line."""
    await register(api, "Bob")
    game, bob_token, _ = await two_player_game(api)
    await sign_out(api)
    bob = await connect(api)
    await bob.request(Join, game=game, token=bob_token)
    await bob.request(Chat, game=game, text="gg")
    await bob.request(Chat, game=game, text="something vile")
    await make_admin(api)
    await api.call("POST", f"/api/v1/games/{game}/admin/abandon", 200,
                   json={"reason": "over"})
    storage = api.state.storage
    await eventually(lambda: not storage.unarchived_games())
    assert await prune(storage, timedelta(0)) == 1 and storage.load_game(game) is None
    lines = (await api.call("GET", f"/api/v1/games/{game}/admin/chat", 200))["lines"]
    assert [line["text"] for line in lines] == ["gg", "something vile"]
    await api.call("POST", f"/api/v1/games/{game}/admin/chat/{lines[1]['id']}/remove", 200,
                   json={"reason": "slur"})
    await api.error("POST", f"/api/v1/games/{game}/admin/chat/{lines[1]['id']}/remove", 404,
                    "not_found", json={"reason": "slur"})
    replay = await api.call("GET", f"/api/v1/games/{game}/replay", 200)
    assert [line["text"] for line in replay["chat"]] == ["gg"]
    await api.error("GET", "/api/v1/games/g-000000000000/admin/chat", 404, "unknown_game")


async def test_reports_are_bounded_and_one_per_seat_and_reported_seat(api: Api) -> None:
    await register(api, "Bob")
    game, bob_token, cy_token = await two_player_game(api)
    path = f"/api/v1/games/{game}/reports"
    report = {"token": cy_token, "seat": 0, "reason": "abusive_chat", "text": "see the chat"}
    made = await api.call("POST", path, 201, json=report)
    assert made["report"]["reporter"]["name"] == "Cy"
    assert made["report"]["reported"]["name"] == "Bob"
    assert made["report"]["reported"]["account_id"] is not None
    await api.error("POST", path, 409, "already_reported", json=report)
    await api.error("POST", path, 400, "bad_reason", json=report | {"reason": "ugly"})
    await api.error("POST", path, 400, "bad_reason",
                    json=report | {"token": bob_token, "seat": 1,
                                   "text": "x" * (MAX_REPORT_TEXT + 1)})
    for seat in (0, 2, -1, "1", None):  # oneself, no such seat, not a number
        await api.error("POST", path, 403, "not_a_player",
                        json=report | {"token": bob_token, "seat": seat})
    await api.error("POST", path, 403, "bad_token", json=report | {"token": "x" * 43})
    await sign_out(api)
    await make_admin(api)
    reports = (await api.call("GET", "/api/v1/admin/reports", 200))["reports"]
    assert [(r["reason"], r["text"]) for r in reports] == [("abusive_chat", "see the chat")]
    await api.error("GET", "/api/v1/admin/reports?limit=1000", 400, "bad_paging")


async def test_reports_are_limited_per_address(make_api: MakeApi) -> None:
    api = await make_api(reports_per_hour=1)
    await register(api, "Bob")
    game, bob_token, cy_token = await two_player_game(api)
    path = f"/api/v1/games/{game}/reports"
    await api.call("POST", path, 201, json={"token": cy_token, "seat": 0, "reason": "other"})
    await api.error("POST", path, 429, "rate_limited",
                    json={"token": bob_token, "seat": 1, "reason": "other"})


async def test_oversized_and_malformed_admin_input_is_refused_and_changes_nothing(
        api: Api) -> None:
    await make_admin(api)
    moderation = api.client.app[STATE].moderation  # type: ignore[index]
    logged = await moderation.store.latest_audit_id()
    await register(api, "Bob")
    await sign_out(api)
    await sign_in(api, "Ada")
    cases = [
        ("/api/v1/admin/bans", {"name": "Bob", "reason": "x" * (MAX_REASON + 1)}, 400,
         "bad_reason"),
        ("/api/v1/admin/bans", {"name": "Bob", "reason": ""}, 400, "bad_reason"),
        ("/api/v1/admin/bans", {"name": "Bob", "reason": "a\nb"}, 400, "bad_reason"),
        ("/api/v1/admin/bans", {"name": "Bob", "reason": "r", "seconds": 1}, 400,
         "bad_duration"),
        ("/api/v1/admin/bans", {"name": "Bob", "reason": "r", "seconds": "600"}, 400,
         "bad_duration"),
        ("/api/v1/admin/bans", {"name": "Nobody", "reason": "r"}, 404, "unknown_account"),
        ("/api/v1/admin/bans", {"name": ["Bob"], "reason": "r"}, 404, "unknown_account"),
        ("/api/v1/admin/address-bans", {"prefix": "0.0.0.0/0", "reason": "r"}, 400,
         "bad_prefix"),
        ("/api/v1/admin/address-bans", {"prefix": "not an address", "reason": "r"}, 400,
         "bad_prefix"),
    ]
    for path, body, status, code in cases:
        await api.error("POST", path, status, code, json=body)
    await api.error("POST", "/api/v1/admin/bans", 413, "body_too_large",
                    data=b"{" + b" " * 70_000 + b"}", headers={"Content-Type": "application/json"})
    await api.error("POST", "/api/v1/admin/bans", 400, "bad_json", data=b"[1]",
                    headers={"Content-Type": "application/json"})
    await api.error("POST", "/api/v1/admin/bans", 403, "cross_site_request",
                    json={"name": "Bob", "reason": "r"},
                    headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert moderation.live_sanctions() == [] and await moderation.store.latest_audit_id() == logged


async def test_admin_requests_are_limited_per_address(make_api: MakeApi) -> None:
    api = await make_api(admin_per_minute=3)
    for _ in range(3):
        await api.error("GET", "/api/v1/admin", 401, "not_signed_in")
    await api.error("GET", "/api/v1/admin", 429, "rate_limited")


async def test_a_banned_prefix_is_refused_over_http_and_websocket(api: Api) -> None:
    await make_admin(api)
    session = api.client.session
    ws_url = api.client.make_url("/api/v1/ws")
    from_banned = {"X-Forwarded-For": BANNED}
    open_one = await connect(api, **from_banned)  # connected before the ban
    await api.call("POST", "/api/v1/admin/address-bans", 201,
                   json={"prefix": "203.0.113.0/24", "reason": "a flood", "seconds": 3600})
    assert await close_code_sent(open_one) == CloseCode.BANNED
    async with session.get(api.client.make_url("/api/v1/games"), headers=from_banned) as got:
        assert got.status == 403
        assert (await got.json())["error"]["code"] == "address_banned"
    async with session.post(api.client.make_url("/api/v1/account/sign-in"),
                            headers={"X-Forwarded-For": "203.0.113.250"},
                            json={"name": "Ada", "password": PASSWORD}) as got:
        assert got.status == 403
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await session.ws_connect(ws_url, protocols=V2, headers=from_banned)
    assert refused.value.status == 403
    # a neighbouring prefix, and IPv6, are not banned
    await api.call("GET", "/api/v1/games", 200, headers={"X-Forwarded-For": "203.0.114.7"})
    await api.call("GET", "/api/v1/games", 200, headers={"X-Forwarded-For": "2001:db8::1"})
    sanctions = (await api.call("GET", "/api/v1/admin/sanctions", 200))["sanctions"]
    assert [(s["kind"], s["prefix"]) for s in sanctions] == [("address_ban", "203.0.113.0/24")]


@pytest.mark.parametrize(("prefix", "headers"), [
    ("127.0.0.0/8", {}),  # the admin's own address: they would lock themselves out
    ("198.51.0.0/16", {"X-Forwarded-For": "198.51.100.7"}),  # the admin, behind a proxy
    ("10.9.0.0/16", {}),  # a trusted proxy: everyone behind it would be locked out
])
async def test_an_address_ban_covering_the_admin_or_a_proxy_is_refused(
        make_api: MakeApi, prefix: str, headers: dict[str, str]) -> None:
    api = await make_api(trusted_proxies=("127.0.0.1", "10.9.8.0/24"))
    await make_admin(api)
    await api.error("POST", "/api/v1/admin/address-bans", 400, "bad_prefix",
                    json={"prefix": prefix, "reason": "oops", "seconds": 3600}, headers=headers)
    assert api.state.lobby.moderation is not None
    assert api.state.lobby.moderation.live_sanctions() == []
    await api.call("GET", "/api/v1/admin", 200, headers=headers)  # still in


async def bob_seated_on_another_node(make_api: MakeApi, refresh_seconds: float
                                     ) -> tuple[Api, Api, str, str, TestClient]:
    """Two servers on one account store, each with its own games, both looking at the
    store every `refresh_seconds`: an admin signed in here, Bob seated in a game there
    (his seat's socket a guest's, holding it by its seat token)."""
    here = await make_api(moderation_refresh_seconds=refresh_seconds)
    if not here.state.settings.accounts_url:
        pytest.skip("one SQLite account store per node: several nodes share PostgreSQL")
    there = await make_api(db=str(Path(here.state.settings.db).with_name("there.sqlite3")),
                           moderation_refresh_seconds=refresh_seconds)
    await register(there, "Bob")
    game, bob_token, _ = await two_player_game(there)
    await sign_out(there)
    bob = await connect(there)
    await bob.request(Join, game=game, token=bob_token)
    await make_admin(here)
    return here, there, game, bob_token, bob


async def test_a_ban_made_on_another_node_takes_the_seat_here(make_api: MakeApi) -> None:
    """Two servers on one account store (each its own games): the ban is made on one,
    the banned account's seat is on the other."""
    here, there, game, _, bob = await bob_seated_on_another_node(make_api, 0.05)
    await here.call("POST", "/api/v1/admin/bans", 201, json={"name": "Bob", "reason": "r"})
    assert await close_code_sent(bob) == CloseCode.REPLACED
    room = there.state.lobby.room(game)
    assert room.game is not None and 0 in room.game.resigned


async def test_a_mute_or_ban_made_on_another_node_holds_at_once(make_api: MakeApi) -> None:
    """However long the nodes wait between their looks, a mute or a ban from another node
    stops a chat line or a seat's taking up at once."""
    here, there, game, bob_token, bob = await bob_seated_on_another_node(make_api, 3600)
    await here.call("POST", "/api/v1/admin/mutes", 201,
                    json={"name": "Bob", "reason": "spam", "seconds": 600})
    refused = await bob.request(Chat, game=game, text="buy my gold")
    assert isinstance(refused, Error) and refused.code == "muted"
    await here.call("POST", "/api/v1/admin/bans", 201, json={"name": "Bob", "reason": "r"})
    again = await connect(there)
    refused = await again.request(Join, game=game, token=bob_token)
    assert isinstance(refused, Error) and refused.code == "account_banned"


async def test_the_client_library_sees_an_abandoned_game_as_over(api: Api) -> None:
    """A bot's loop (`while not state.over`) ends when an admin abandons its game."""
    await register(api, "Bob")
    game, bob_token, _ = await two_player_game(api)
    async with Client(str(api.client.make_url("")), reconnect=False) as client:
        state = await client.join(game, bob_token)
        assert not state.over
        await sign_out(api)
        await make_admin(api)
        await api.call("POST", f"/api/v1/games/{game}/admin/abandon", 200,
                       json={"reason": "harassment"})
        while not isinstance(await client.next_push(timeout=10), GameAbandoned):
            pass
        assert state.over and state.abandoned == "harassment" and state.decision is None


async def test_admins_see_the_pairs_that_play_each_other_most_one_sidedly(api: Api) -> None:
    await make_admin(api)
    for name in ("Bob", "Cy", "Dee"):
        await register(api, name)
    store = api.client.app[STATE].moderation.store  # type: ignore[index]
    ids: dict[str, int] = {}
    for name in ("Bob", "Cy", "Dee"):
        account = await store.account_by_key(name.lower())
        assert account is not None
        ids[name] = account.id
    now = datetime.now(UTC)

    async def duel(number: int, winner: str, loser: str, days_ago: float = 0,
                   aborted: bool = False) -> None:
        finished = ledger_time(now - timedelta(days=days_ago, hours=1) + timedelta(minutes=number))
        await store.apply_rated_game(RatedGame(f"g-{number}", finished, (
            RatedSeat(0, 0, account_id=ids[winner]), RatedSeat(1, 1, account_id=ids[loser])),
            aborted), now, pair_limit=3)
    for number in range(4):  # Cy hands Bob every game, the 4th over the day's limit
        await duel(number, "Bob", "Cy")
    await duel(7, "Bob", "Cy", aborted=True)  # and resigns one on the first turn
    await duel(4, "Bob", "Dee")
    await duel(5, "Dee", "Bob")
    await duel(6, "Cy", "Dee", days_ago=8)  # before the window
    await sign_in(api, "Ada")  # the admin
    pairs = (await api.call("GET", "/api/v1/admin/pairs", 200))["pairs"]

    def seen(pair: dict[str, Any]) -> tuple[Any, ...]:  # the pair's order is the ids'
        wins = {pair["name"]: pair["wins"], pair["other"]: pair["losses"]}
        return (frozenset(wins.items()), pair["games"], pair["counted"], pair["early"],
                pair["score"])
    assert [seen(pair) for pair in pairs] == [
        (frozenset({("Bob", 5), ("Cy", 0)}), 5, 3, 1, 5),
        (frozenset({("Bob", 1), ("Dee", 1)}), 2, 2, 0, 0)]
    paged = await api.call("GET", "/api/v1/admin/pairs?limit=1&offset=1", 200)
    assert [seen(pair) for pair in paged["pairs"]] == [seen(pairs[1])]
    await api.error("GET", "/api/v1/admin/pairs?limit=0", 400, "bad_paging")
