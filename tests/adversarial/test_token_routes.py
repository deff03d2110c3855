"""Personal access tokens and bot accounts over REST, through a real socket, against both
account stores: created and revoked by their owner's session, shown once, good for what
their scopes say and nothing else, and bot accounts that play only with bot:play."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.play.archive import prune
from dominion.server.settings import Settings
from tests.accounts.conftest import postgres_server, postgres_url, store_kind
from tests.eventually import eventually
from tests.server.restapi import Api, case

__all__ = ["postgres_server", "postgres_url", "store_kind"]  # both account stores

CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"
SECRET = re.compile(r"^dom_[A-Za-z0-9_-]{43}$")


@pytest.fixture
async def api(aiohttp_client: Any, tmp_path: Path, store_kind: str,
              request: pytest.FixtureRequest) -> Api:
    url = request.getfixturevalue("postgres_url") if store_kind == "postgres" else ""
    settings = Settings(db=str(tmp_path / "games.sqlite3"), accounts_url=url, **CHEAP)
    made = Api(await aiohttp_client(create_app(settings)))
    await made.call("POST", "/api/v1/account/register", 201,
                    json={"name": "Ada", "password": PASSWORD})
    return made


async def new_token(api: Api, *scopes: str, **more: Any) -> dict[str, Any]:
    body: dict[str, Any] = await api.call("POST", "/api/v1/account/tokens", 201,
                                          json={"description": "my bot",
                                                "scopes": list(scopes), **more})
    token: dict[str, Any] = body["token"]
    return token


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def without_session(api: Api) -> None:
    api.client.session.cookie_jar.clear()


Call = Callable[..., Awaitable[Any]]


async def test_a_token_is_shown_once_listed_without_its_secret_and_revoked(api: Api) -> None:
    response = await api.client.post("/api/v1/account/tokens", headers=api.own_page(),
                                     json={"description": "laptop", "scopes": ["read"],
                                           "expires_in_days": 30})
    assert response.status == 201 and response.headers["Cache-Control"] == "no-store"
    token = (await response.json())["token"]
    assert SECRET.match(token["secret"]) and token["scopes"] == ["read"]
    assert token["expires_at"] is not None and token["last_used_at"] is None
    listed = await api.call("GET", "/api/v1/account/tokens", 200)
    assert [t["id"] for t in listed["tokens"]] == [token["id"]]
    assert token["secret"] not in "".join(api.get_texts)
    me = await api.call("GET", "/api/v1/account", 200, headers=bearer(token["secret"]))
    assert me["account"]["name"] == "Ada" and me["account"]["bot"] is False
    [used] = (await api.call("GET", "/api/v1/account/tokens", 200))["tokens"]
    assert used["last_used_at"] is not None
    await api.call("DELETE", f"/api/v1/account/tokens/{token['id']}", 200)
    await api.error("DELETE", f"/api/v1/account/tokens/{token['id']}", 404, "not_found")
    without_session(api)
    await api.error("GET", "/api/v1/account", 401, "token_invalid",
                    headers=bearer(token["secret"]))


async def test_a_play_token_creates_and_joins_games_as_its_account(api: Api) -> None:
    token = await new_token(api, "play")
    without_session(api)
    created = await api.call("POST", "/api/v1/games", 201, headers=bearer(token["secret"]),
                             json={"name": "Ada", "seats": 2})
    room = api.client.app[STATE].lobby.rooms[created["game"]["id"]]  # type: ignore[index]
    account = await api.client.app[STATE].accounts.holder_of("Ada")  # type: ignore[index]
    assert account is not None and room.seats[0].account_id == account.id
    # a guest cannot take the account's name; the token's holder can, at another table
    other = await api.call("POST", "/api/v1/games", 201, json={"name": "Bob", "seats": 2})
    await api.error("POST", f"/api/v1/games/{other['game']['id']}/join", 409, "name_taken",
                    json={"name": "ada"})
    await api.call("POST", f"/api/v1/games/{other['game']['id']}/join", 200,
                   headers=bearer(token["secret"]), json={"name": "Ada"})
    reclaimed = await api.call("POST", f"/api/v1/games/{created['game']['id']}/reclaim", 200,
                               headers=bearer(token["secret"]))
    assert reclaimed["seat"] == 0


OUT_OF_SCOPE: list[tuple[list[str], str, str, Any]] = [
    (["read"], "POST", "/api/v1/games", {"name": "Ada", "seats": 2}),
    (["bot:play"], "POST", "/api/v1/games", {"name": "Ada", "seats": 2}),  # not a bot
    (["play"], "GET", "/api/v1/account", None),
    (["play"], "GET", "/api/v1/account/games", None),
]


async def test_a_token_does_only_what_its_scopes_say(api: Api) -> None:
    tokens = [await new_token(api, *scopes) for scopes, *_ in OUT_OF_SCOPE]
    without_session(api)
    for token, (scopes, method, path, body) in zip(tokens, OUT_OF_SCOPE, strict=True):
        with case(f"{scopes} {method} {path}"):
            await api.error(method, path, 403, "scope_missing",
                            headers=bearer(token["secret"]), json=body)


ACCOUNT_MANAGEMENT: list[tuple[str, str, Any]] = [
    ("POST", "/api/v1/account/tokens", {"scopes": ["read"]}),
    ("GET", "/api/v1/account/tokens", None),
    ("DELETE", "/api/v1/account/tokens/1", None),
    ("POST", "/api/v1/account/bot", None),
    ("POST", "/api/v1/account/sign-out-everywhere", None),
    ("POST", "/api/v1/account/password", {"old_password": PASSWORD,
                                          "new_password": "staple battery horse"}),
    ("DELETE", "/api/v1/account", {"password": PASSWORD}),
]


async def test_no_token_can_manage_the_account(api: Api) -> None:
    token = await new_token(api, "play", "bot:play", "read")
    without_session(api)
    for method, path, body in ACCOUNT_MANAGEMENT:
        with case(f"{method} {path}"):
            await api.error(method, path, 403, "scope_missing",
                            headers=bearer(token["secret"]), json=body)
            await api.error(method, path, 401, "not_signed_in", json=body)


BAD_AUTHORIZATIONS = (
    "Basic QWRhOnBhc3N3b3Jk", "Bearer", "Bearer dom_short", "Bearer " + "x" * 5000,
    "Bearer dom_" + "A" * 43 + "\u00e9", "Bearer dom_" + "A" * 43,
)


async def test_a_malformed_or_unknown_token_is_token_invalid(api: Api) -> None:
    without_session(api)
    for header in BAD_AUTHORIZATIONS:
        with case(header[:40]):
            error = await api.error(
                "GET", "/api/v1/account", 401, "token_invalid",
                headers={"Authorization": header.encode("utf-8").decode("latin-1")})
            assert "dom_" not in error["message"]


async def test_an_expired_token_is_token_expired(api: Api) -> None:
    token = await new_token(api, "read", expires_in_days=1)
    tokens = api.client.app[STATE].accounts.access_tokens  # type: ignore[index]
    now = tokens._clock()
    tokens._clock = lambda: now + timedelta(days=1, seconds=1)
    without_session(api)
    await api.error("GET", "/api/v1/account", 401, "token_expired",
                    headers=bearer(token["secret"]))


async def test_a_token_in_the_query_string_signs_nobody_in(api: Api) -> None:
    token = await new_token(api, "read")
    without_session(api)
    for name in ("token", "access_token", "bearer"):
        await api.error("GET", f"/api/v1/account?{name}={token['secret']}", 401,
                        "not_signed_in")


BAD_TOKEN_REQUESTS: list[tuple[dict[str, Any], str]] = [
    ({"scopes": []}, "bad_scopes"),
    ({"scopes": "read"}, "bad_scopes"),
    ({"scopes": ["read", "read"]}, "bad_scopes"),
    ({"scopes": ["admin"]}, "bad_scopes"),
    ({"scopes": [1]}, "bad_scopes"),
    ({}, "bad_scopes"),
    ({"scopes": ["read"], "description": "x" * 101}, "bad_token_request"),
    ({"scopes": ["read"], "description": "two\nlines"}, "bad_token_request"),
    ({"scopes": ["read"], "description": 7}, "bad_token_request"),
    ({"scopes": ["read"], "expires_in_days": 0}, "bad_token_request"),
    ({"scopes": ["read"], "expires_in_days": 3651}, "bad_token_request"),
    ({"scopes": ["read"], "expires_in_days": 1.5}, "bad_token_request"),
    ({"scopes": ["read"], "expires_in_days": True}, "bad_token_request"),
]


async def test_a_bad_token_request_has_its_code_and_makes_nothing(api: Api) -> None:
    for body, code in BAD_TOKEN_REQUESTS:
        with case(repr(body)):
            await api.error("POST", "/api/v1/account/tokens", 400, code, json=body)
            assert (await api.call("GET", "/api/v1/account/tokens", 200))["tokens"] == []


async def test_an_account_holds_at_most_fifty_tokens(api: Api) -> None:
    for _ in range(50):
        await new_token(api, "read")
    await api.error("POST", "/api/v1/account/tokens", 409, "too_many_tokens",
                    json={"scopes": ["read"]})


async def test_tokens_asked_for_together_stay_within_the_cap(api: Api) -> None:
    # each request counted the same tokens: 120 sent at once left 64 against a cap of 50
    async def ask() -> int:
        async with api.client.post("/api/v1/account/tokens", json={"scopes": ["read"]},
                                   headers=api.own_page()) as got:
            return got.status

    statuses = await asyncio.gather(*(ask() for _ in range(60)))
    assert sorted(set(statuses)) == [201, 409], statuses
    assert len((await api.call("GET", "/api/v1/account/tokens", 200))["tokens"]) == 50


async def test_a_bot_account_plays_only_with_bot_play(api: Api) -> None:
    person_token = await new_token(api, "play")
    made = await api.call("POST", "/api/v1/account/bot", 200)
    assert made["account"]["bot"] is True
    assert (await api.call("POST", "/api/v1/account/bot", 200))["account"]["bot"] is True
    await api.error("POST", "/api/v1/account/tokens", 400, "bad_scopes",
                    json={"scopes": ["play"]})
    await api.error("POST", "/api/v1/games", 403, "bot_account", json={"name": "Ada",
                                                                       "seats": 2})
    bot_token = await new_token(api, "bot:play")
    without_session(api)
    await api.error("POST", "/api/v1/games", 403, "scope_missing",
                    headers=bearer(person_token["secret"]), json={"name": "Ada", "seats": 2})
    created = await api.call("POST", "/api/v1/games", 201,
                             headers=bearer(bot_token["secret"]),
                             json={"name": "Ada", "seats": 2})
    assert created["seat"] == 0 and created["game"]["seats"][0]["bot_account"] is True
    listed = await api.call("GET", "/api/v1/games", 200)
    [seat, free] = listed["games"][0]["seats"]
    assert (seat["name"], seat["bot_account"], free["bot_account"]) == ("Ada", True, False)


async def test_an_account_that_has_played_cannot_become_a_bot(api: Api) -> None:
    await api.call("POST", "/api/v1/games", 201, json={"name": "Ada", "seats": 2})
    await api.error("POST", "/api/v1/account/bot", 409, "already_played")
    me = await api.call("GET", "/api/v1/account", 200)
    assert me["account"]["bot"] is False


async def test_an_account_whose_games_are_only_in_the_archive_has_played(api: Api) -> None:
    created = await api.call("POST", "/api/v1/games", 201,
                             json={"name": "Ada", "seats": 2, "bots": {"1": "big_money"}})
    await api.state.lobby.room(created["game"]["id"]).resign(0)
    storage = api.state.storage
    await eventually(lambda: not storage.unarchived_games())
    assert await prune(storage, timedelta(0)) == 1  # the archive alone holds the game
    await api.error("POST", "/api/v1/account/bot", 409, "already_played")


async def test_another_sites_page_cannot_make_tokens_or_a_bot(api: Api) -> None:
    for path, body in (("/api/v1/account/tokens", {"scopes": ["read"]}),
                       ("/api/v1/account/bot", None)):
        await api.error("POST", path, 403, "cross_site_request", json=body,
                        headers={"Origin": "https://evil.example", "Sec-Fetch-Site":
                                 "cross-site"})
    assert (await api.call("GET", "/api/v1/account/tokens", 200))["tokens"] == []
    assert (await api.call("GET", "/api/v1/account", 200))["account"]["bot"] is False
