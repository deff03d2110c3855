"""Accounts under attack, through a real socket: credential stuffing is throttled, a
session is never one the client chose, no password or session secret appears in a log
or a response, another site's page cannot act with the cookie, bad bodies are typed
errors, and a sign-in for an unknown name costs what one for a known name costs."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest

from dominion.server.accounts import Accounts, Hasher
from dominion.server.accounts.devices import known_device, parse_device
from dominion.server.accounts.service import (
    PER_ACCOUNT,
    PER_ADDRESS,
    REGISTRATIONS,
    new_session_secret,
)
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.accounts.throttle import LocalThrottle
from dominion.server.edge.api.sessions import DEVICE_COOKIE, SESSION_COOKIE
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.engine import Resignation
from dominion.server.play.lobby import DELETED_PLAYER
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings
from tests.accounts.postgres import free_port
from tests.server.restapi import Api, case

CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
"""Hashing that costs next to nothing: the tests count hashes, they do not time them."""
PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple battery horse"
NEW_PASSWORDS = {"old_password": PASSWORD, "new_password": NEW_PASSWORD}
MakeApi = Callable[..., Awaitable[Api]]


@pytest.fixture
def make_api(aiohttp_client: Any, tmp_path: Path) -> MakeApi:
    async def make(**settings: Any) -> Api:
        values = {"db": str(tmp_path / "games.sqlite3"), **CHEAP, **settings}
        return Api(await aiohttp_client(create_app(Settings(**values))))
    return make


@pytest.fixture
async def api(make_api: MakeApi) -> Api:
    return await make_api()


async def register(api: Api, name: str = "Ada", password: str = PASSWORD,
                   expect: int = 201) -> dict[str, Any]:
    body: dict[str, Any] = await api.call("POST", "/api/v1/account/register", expect,
                                          json={"name": name, "password": password})
    return body


async def sign_in(api: Api, name: str = "Ada", password: str = PASSWORD,
                  expect: int = 200) -> dict[str, Any]:
    body: dict[str, Any] = await api.call("POST", "/api/v1/account/sign-in", expect,
                                          json={"name": name, "password": password})
    return body


def session_of(api: Api) -> str | None:
    cookie = api.client.session.cookie_jar.filter_cookies(api.client.make_url("/"))
    morsel = cookie.get(SESSION_COOKIE)
    return None if morsel is None or not morsel.value else morsel.value


def stranger_bucket(api: Api) -> str:
    """The key Ada's failures from the test client's address prefix count under."""
    throttle = accounts_of(api).failures_by_account
    assert isinstance(throttle, LocalThrottle)
    return next(key for key in throttle.backoff._held if key.startswith("ada "))


def plant(api: Api, secret: str) -> None:
    """Set the browser's session cookie, as a page of the attacker's could."""
    api.client.session.cookie_jar.update_cookies({SESSION_COOKIE: secret},
                                                 response_url=api.client.make_url("/"))


def accounts_of(api: Api) -> Accounts:
    return api.client.app[STATE].accounts  # type: ignore[index]


async def test_register_sign_out_and_sign_in_again(api: Api) -> None:
    response = await api.client.post("/api/v1/account/register",
                                     json={"name": "Ada", "password": PASSWORD})
    assert response.status == 201
    cookie = SimpleCookie(response.headers["Set-Cookie"])[SESSION_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    assert cookie["path"] == "/" and int(cookie["max-age"]) == 30 * 86400
    assert response.headers["Cache-Control"] == "no-store"
    me = await api.call("GET", "/api/v1/account", 200)
    assert me["account"]["name"] == "Ada"
    await api.call("POST", "/api/v1/account/sign-out", 200)
    assert session_of(api) is None
    await api.error("GET", "/api/v1/account", 401, "not_signed_in")
    await sign_in(api, "ADA")  # any case, any look-alike: the same account
    assert (await api.call("GET", "/api/v1/account", 200))["account"]["name"] == "Ada"


async def test_the_cookie_is_secure_behind_https(make_api: MakeApi) -> None:
    api = await make_api(public_url="https://dominion.example")
    response = await api.client.post("/api/v1/account/register",
                                     headers={"Host": "dominion.example"},
                                     json={"name": "Ada", "password": PASSWORD})
    assert response.status == 201
    cookies = [SimpleCookie(header) for header in response.headers.getall("Set-Cookie")]
    assert [cookie[name]["secure"] for cookie, name in zip(
        cookies, (SESSION_COOKIE, DEVICE_COOKIE), strict=True)] == [True, True]


BAD_REGISTRATIONS: list[tuple[Any, Any, int, str]] = [
    ("A", PASSWORD, 400, "bad_account_name"),
    ("with space", PASSWORD, 400, "bad_account_name"),
    (["Ada"], PASSWORD, 400, "bad_account_name"),
    ("p\u0430ypal", PASSWORD, 400, "mixed_scripts"),
    ("Admin", PASSWORD, 400, "name_reserved"),
    ("big_money", PASSWORD, 400, "name_reserved"),
    ("Ada", "short", 400, "weak_password"),
    ("Ada", "password1", 400, "weak_password"),
    ("Ada", "Ada's password", 400, "weak_password"),
    ("Ada", None, 400, "weak_password"),
]


async def test_each_bad_name_or_password_has_its_code_and_registers_nothing(api: Api) -> None:
    for name, password, status, code in BAD_REGISTRATIONS:  # on one app
        with case(f"{name!r} {password!r}"):
            await api.error("POST", "/api/v1/account/register", status, code,
                            json={"name": name, "password": password})
            assert session_of(api) is None
    await register(api)  # nothing was taken


async def test_a_name_is_taken_whatever_its_case_or_look_alike_letters(api: Api) -> None:
    await register(api, "Cope")
    # all Cyrillic (one script: not refused as mixed), and fullwidth Latin
    for other in ("cope", "COPE", "\u0441\u043e\u0440\u0435", "\u0421\u041e\u0420\u0415",
                  "\uff23ope"):
        await api.error("POST", "/api/v1/account/register", 409, "name_taken",
                        json={"name": other, "password": PASSWORD})


async def test_sign_in_failures_say_nothing_about_which_part_was_wrong(api: Api) -> None:
    await register(api)
    wrong_password = await api.error("POST", "/api/v1/account/sign-in", 401,
                                     "wrong_credentials",
                                     json={"name": "Ada", "password": "not the password"})
    unknown_name = await api.error("POST", "/api/v1/account/sign-in", 401,
                                   "wrong_credentials",
                                   json={"name": "Nobody", "password": "not the password"})
    assert wrong_password == unknown_name
    for body in ({"name": 3, "password": PASSWORD}, {"name": "Ada"}, {}):
        await api.error("POST", "/api/v1/account/sign-in", 401, "wrong_credentials", json=body)


async def test_an_unknown_name_costs_one_hash_like_a_known_one(
        api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    await register(api)
    hasher = accounts_of(api)._hasher
    checked: list[str] = []
    real = hasher._matches

    def counted(stored: str, password: str) -> bool:
        checked.append(stored.split("$")[3])  # the parameters, m=...,t=...,p=...
        return real(stored, password)

    monkeypatch.setattr(hasher, "_matches", counted)
    await sign_in(api, "Ada", "a wrong guess", expect=401)
    await sign_in(api, "Nobody", "a wrong guess", expect=401)
    assert len(checked) == 2 and checked[0] == checked[1]  # the same work, the same cost


async def test_guessing_one_accounts_password_is_throttled_more_and_more(api: Api) -> None:
    await register(api)
    api.client.session.cookie_jar.clear()  # a stranger: no device cookie
    for _ in range(PER_ACCOUNT.free + 1):
        await api.error("POST", "/api/v1/account/sign-in", 401, "wrong_credentials",
                        json={"name": "Ada", "password": "a wrong guess"})
    refused = await api.error("POST", "/api/v1/account/sign-in", 429, "rate_limited",
                              json={"name": "ada", "password": PASSWORD})  # even the right one
    assert 0 < refused["retry_after_ms"] <= PER_ACCOUNT.first_wait * 1000
    throttle = accounts_of(api).failures_by_account
    assert isinstance(throttle, LocalThrottle)
    throttle.backoff.failed(stranger_bucket(api))
    assert await throttle.wait(stranger_bucket(api)) > PER_ACCOUNT.first_wait  # it doubles


def device_of(api: Api) -> str | None:
    """The browser's device cookie (sent to the sign-in's path only)."""
    cookie = api.client.session.cookie_jar.filter_cookies(
        api.client.make_url("/api/v1/account/sign-in"))
    morsel = cookie.get(DEVICE_COOKIE)
    return None if morsel is None or not morsel.value else morsel.value


async def test_a_sign_in_sets_a_long_lived_http_only_device_cookie(api: Api) -> None:
    response = await api.client.post("/api/v1/account/register",
                                     json={"name": "Ada", "password": PASSWORD})
    assert response.status == 201
    cookie = SimpleCookie(response.headers.getall("Set-Cookie")[1])[DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    assert cookie["path"] == "/api/v1/account/sign-in"
    assert int(cookie["max-age"]) >= 365 * 86400
    ada = await accounts_of(api).holder_of("Ada")
    assert ada is not None and cookie.value.startswith(f"{ada.id}.")


async def test_strangers_failures_do_not_lock_out_the_owners_known_device(api: Api) -> None:
    # eight wrong passwords from anyone locked the owner out for 300 s, renewable for ever
    await register(api)
    device = device_of(api)
    assert device is not None
    api.client.session.cookie_jar.clear()  # a stranger, from the owner's own address even
    for _ in range(PER_ACCOUNT.free + 1):
        await sign_in(api, password="a wrong guess", expect=401)
    throttle = accounts_of(api).failures_by_account
    assert isinstance(throttle, LocalThrottle)
    for _ in range(4):  # a wait longer than the test
        throttle.backoff.failed(stranger_bucket(api))
    await api.error("POST", "/api/v1/account/sign-in", 429, "rate_limited",
                    json={"name": "Ada", "password": PASSWORD})
    forged = device.rsplit(".", 1)[0] + "." + "A" * 43
    for value, expect in ((forged, 429), (device, 200)):
        api.client.session.cookie_jar.update_cookies(
            {DEVICE_COOKIE: value}, response_url=api.client.make_url("/api/v1/account/sign-in"))
        await api.call("POST", "/api/v1/account/sign-in", expect,
                       json={"name": "Ada", "password": PASSWORD})
    # the device's own failures are throttled in its own bucket
    for _ in range(PER_ACCOUNT.free + 1):
        await sign_in(api, password="my own typo", expect=401)
    refused = await api.error("POST", "/api/v1/account/sign-in", 429, "rate_limited",
                              json={"name": "Ada", "password": PASSWORD})
    assert "this device" in refused["message"]


async def test_a_new_password_voids_the_old_device_cookies(api: Api) -> None:
    await register(api)
    old = device_of(api)
    await api.call("POST", "/api/v1/account/password", 200, json=NEW_PASSWORDS)
    new = device_of(api)
    ada = await accounts_of(api).holder_of("Ada")
    assert new is not None and new != old and ada is not None
    assert known_device(parse_device(new), ada)
    assert not known_device(parse_device(old), ada)  # a copy taken before is a stranger's


async def test_strangers_elsewhere_do_not_lock_out_the_owner(tmp_path: Path) -> None:
    accounts = Accounts(SqliteAccountStore(tmp_path / "a.sqlite3"),
                        Hasher(2, time_cost=1, memory_kib=64), session_days=1)
    await accounts.store.start()
    try:
        await accounts.register("Ada", PASSWORD, "10.0.0.9/32")
        for _ in range(PER_ACCOUNT.free + 1):
            with pytest.raises(Refusal):
                await accounts.sign_in("Ada", "a wrong guess", "198.51.100.7/32", None)
        assert await accounts.failures_by_account.wait("ada 198.51.100.7/32") > 0
        account, _ = await accounts.sign_in("Ada", PASSWORD, "10.0.0.9/32", None)
        assert account.name == "Ada"
    finally:
        await accounts.close()


async def test_credential_stuffing_from_one_address_is_throttled(api: Api) -> None:
    for index in range(PER_ADDRESS.free + 1):
        await api.error("POST", "/api/v1/account/sign-in", 401, "wrong_credentials",
                        json={"name": f"victim{index}", "password": "leaked password"})
    refused = await api.error("POST", "/api/v1/account/sign-in", 429, "rate_limited",
                              json={"name": "another", "password": "leaked password"})
    assert refused["retry_after_ms"] > 0


async def test_registrations_from_one_address_are_throttled(api: Api) -> None:
    for index in range(REGISTRATIONS.free + 1):  # the last one makes the next one wait
        await register(api, f"Player{index}")
    await api.error("POST", "/api/v1/account/register", 429, "rate_limited",
                    json={"name": "OneMore", "password": PASSWORD})


async def test_a_session_id_the_client_chose_is_never_taken(api: Api) -> None:
    await register(api)
    await api.call("POST", "/api/v1/account/sign-out", 200)
    chosen = new_session_secret()  # well-formed, but the server never made it
    plant(api, chosen)
    await api.error("GET", "/api/v1/account", 401, "not_signed_in")
    await sign_in(api)
    assert session_of(api) not in (None, chosen)
    assert await accounts_of(api).account_of(chosen) is None


async def test_signing_in_ends_the_session_the_browser_held(make_api: MakeApi) -> None:
    # an attacker plants their own (real) session in a victim's browser: when the victim
    # signs in, that session ends and a new one is made
    api = await make_api()
    await register(api, "Mallory")
    planted = session_of(api)
    await register(api, "Victim")
    plant(api, planted or "")
    await sign_in(api, "Victim")
    assert session_of(api) != planted
    assert await accounts_of(api).account_of(planted or "") is None


async def test_sign_out_everywhere_ends_every_session_at_once(api: Api) -> None:
    await register(api)
    first = session_of(api)
    api.client.session.cookie_jar.clear()  # another browser
    await sign_in(api)
    second = session_of(api)
    accounts = accounts_of(api)
    assert first and second and first != second
    assert await accounts.account_of(first) is not None
    ended = await api.call("POST", "/api/v1/account/sign-out-everywhere", 200)
    assert ended == {"signed_out": True, "sessions_ended": 2, "tokens_revoked": 0}
    assert await accounts.account_of(first) is None and await accounts.account_of(second) is None
    await api.error("POST", "/api/v1/account/sign-out-everywhere", 401, "not_signed_in")


OTHER_SITES = (
    {"Origin": "https://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},  # a sibling subdomain is another site's page too
)


async def test_requests_from_another_sites_page_are_refused(api: Api) -> None:
    await register(api)
    for headers in OTHER_SITES:  # on one app
        with case(repr(headers)):
            for method, path, body in [("POST", "/api/v1/account/register",
                                        {"name": "Bob", "password": PASSWORD}),
                                       ("POST", "/api/v1/account/sign-in",
                                        {"name": "Ada", "password": PASSWORD}),
                                       ("POST", "/api/v1/account/sign-out", None),
                                       ("POST", "/api/v1/account/sign-out-everywhere", None),
                                       ("POST", "/api/v1/account/password", NEW_PASSWORDS),
                                       ("DELETE", "/api/v1/account", {"password": PASSWORD})]:
                await api.error(method, path, 403, "cross_site_request", headers=headers,
                                json=body)
            assert (await api.call("GET", "/api/v1/account", 200))["account"]["name"] == "Ada"


async def test_the_servers_own_page_may_act(api: Api) -> None:
    own = str(api.client.make_url("/")).rstrip("/")
    await api.call("POST", "/api/v1/account/register", 201,
                   headers={"Origin": own, "Sec-Fetch-Site": "same-origin"},
                   json={"name": "Ada", "password": PASSWORD})


BAD_BODIES: list[tuple[dict[str, Any], int, str]] = [
    ({"data": b"{not json", "headers": {"Content-Type": "application/json"}}, 400, "bad_json"),
    ({"data": b"[1, 2]", "headers": {"Content-Type": "application/json"}}, 400, "bad_json"),
    ({"data": b"name=Ada", "headers": {"Content-Type": "text/plain"}}, 415,
     "unsupported_media_type"),
    ({"json": {"name": "Ada", "password": "x" * 70_000}}, 413, "body_too_large"),
]


async def test_malformed_and_oversized_bodies_are_typed_errors(api: Api) -> None:
    for path in ("/api/v1/account/register", "/api/v1/account/sign-in"):  # on one app
        for kwargs, status, code in BAD_BODIES:
            with case(f"{path} {code}"):
                await api.error("POST", path, status, code, **kwargs)


async def test_deleting_an_account_needs_its_password_and_keeps_its_name(api: Api) -> None:
    await register(api)
    secret = session_of(api)
    game_id = (await api.create(name="Ada", seats=2, bots={"1": "big_money"}))["game"]["id"]
    open_table = (await api.create(name="Ada", seats=3))["game"]["id"]
    await api.error("DELETE", "/api/v1/account", 401, "wrong_credentials",
                    json={"password": "not the password"})
    await api.call("DELETE", "/api/v1/account", 200, json={"password": PASSWORD})
    assert session_of(api) is None
    assert await accounts_of(api).account_of(secret) is None
    await api.error("DELETE", "/api/v1/account", 401, "not_signed_in",
                    json={"password": PASSWORD})
    await sign_in(api, expect=401)
    await api.error("POST", "/api/v1/account/register", 409, "name_taken",
                    json={"name": "ada", "password": PASSWORD})
    # its seats are given up (its seat tokens play no more: a running game is resigned,
    # an open table's seat freed), and its games keep a placeholder, live and stored
    game = await api.game(game_id)
    assert game["seats"][0]["name"] == DELETED_PLAYER and game["state"] == "finished"
    assert api.state.storage.seats(game_id)[0].name == DELETED_PLAYER
    stored = api.state.storage.load_game(game_id)
    assert stored is not None and [answer.player for answer in stored.answers
                                   if isinstance(answer, Resignation)] == [0]
    assert (await api.game(open_table))["seats"][0]["name"] is None


async def test_guessing_the_password_to_delete_an_account_is_throttled(api: Api) -> None:
    # a session left open on a shared computer: the password is still needed, and guessed
    # at no faster than at sign-in
    await register(api)
    for _ in range(PER_ACCOUNT.free + 1):
        await api.error("DELETE", "/api/v1/account", 401, "wrong_credentials",
                        json={"password": "a wrong guess"})
    # sign-in waits too
    assert await accounts_of(api).failures_by_account.wait(stranger_bucket(api)) > 0
    await api.error("DELETE", "/api/v1/account", 429, "rate_limited",
                    json={"password": PASSWORD})


async def test_sign_out_everywhere_revokes_every_access_token_too(api: Api) -> None:
    await register(api)
    for _ in range(2):
        await api.call("POST", "/api/v1/account/tokens", 201,
                       json={"description": "a bot", "scopes": ["read"]})
    ended = await api.call("POST", "/api/v1/account/sign-out-everywhere", 200)
    assert ended == {"signed_out": True, "sessions_ended": 1, "tokens_revoked": 2}
    ada = await accounts_of(api).holder_of("Ada")
    assert ada is not None and await accounts_of(api).access_tokens.of(ada) == []


async def test_changing_the_password_ends_the_other_sessions_and_keeps_this_one(
        api: Api) -> None:
    await register(api)
    other = session_of(api)
    api.client.session.cookie_jar.clear()  # another browser
    await sign_in(api)
    this = session_of(api)
    await api.call("POST", "/api/v1/account/tokens", 201,
                   json={"description": "a bot", "scopes": ["read"]})
    changed = await api.call("POST", "/api/v1/account/password", 200, json=NEW_PASSWORDS)
    assert changed == {"password_changed": True, "sessions_ended": 1, "tokens_revoked": 0}
    accounts = accounts_of(api)
    assert await accounts.account_of(other or "") is None
    assert session_of(api) == this and await accounts.account_of(this) is not None
    ada = await accounts.holder_of("Ada")
    assert ada is not None and len(await accounts.access_tokens.of(ada)) == 1  # tokens stay
    await sign_in(api, expect=401)
    await sign_in(api, password=NEW_PASSWORD)


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"old_password": "not the password", "new_password": NEW_PASSWORD}, 403,
     "wrong_old_password"),
    ({"old_password": PASSWORD, "new_password": "password1"}, 400, "weak_password"),
    ({"old_password": PASSWORD, "new_password": "Ada's password"}, 400, "weak_password"),
    ({"old_password": PASSWORD, "new_password": " " * 8}, 400, "weak_password"),
    ({"old_password": PASSWORD}, 400, "weak_password"),
])
async def test_a_password_change_refused_changes_nothing_and_ends_no_session(
        api: Api, body: dict[str, Any], status: int, code: str) -> None:
    await register(api)
    other = session_of(api)
    api.client.session.cookie_jar.clear()
    await sign_in(api)
    await api.error("POST", "/api/v1/account/password", status, code, json=body)
    assert await accounts_of(api).account_of(other or "") is not None
    await sign_in(api)  # the old password still


async def test_guessing_the_old_password_is_throttled_like_signing_in(api: Api) -> None:
    await register(api)
    for _ in range(PER_ACCOUNT.free + 1):
        await api.error("POST", "/api/v1/account/password", 403, "wrong_old_password",
                        json={"old_password": "a wrong guess", "new_password": NEW_PASSWORD})
    # sign-in waits too
    assert await accounts_of(api).failures_by_account.wait(stranger_bucket(api)) > 0
    await api.error("POST", "/api/v1/account/password", 429, "rate_limited",
                    json=NEW_PASSWORDS)  # even the right one


async def test_a_guest_cannot_take_a_registered_name_but_its_owner_can(
        make_api: MakeApi) -> None:
    api = await make_api()
    await register(api, "Ada")
    await api.call("POST", "/api/v1/account/sign-out", 200)
    for name in ("Ada", "ADA", "\u0430da"):
        await api.error("POST", "/api/v1/games", 409, "name_taken",
                        json={"name": name, "seats": 2})
    created = await api.create(name="Grace", seats=2)
    await api.error("POST", f"/api/v1/games/{created['game']['id']}/join", 409, "name_taken",
                    json={"name": "ada"})
    await sign_in(api)
    await api.join(created["game"]["id"], "Ada")
    await api.create(name="Ada", seats=2)


@pytest.mark.parametrize("headers", [
    {"Origin": "https://evil.example"},
    {"Sec-Fetch-Site": "cross-site"},
])
async def test_another_sites_page_cannot_create_or_join_with_the_cookie(
        api: Api, headers: dict[str, str]) -> None:
    # the lobby's routes read the cookie without the cross-site check the others made
    created = await api.create(name="Grace", seats=3)
    await register(api)
    game = created["game"]["id"]
    await api.error("POST", "/api/v1/games", 403, "cross_site_request", headers=headers,
                    json={"name": "Ada", "seats": 2})
    await api.error("POST", f"/api/v1/games/{game}/join", 403, "cross_site_request",
                    headers=headers, json={"name": "Ada"})
    assert [seat["name"] for seat in (await api.game(game))["seats"]] == ["Grace", None, None]
    joined = await api.join(game, "Someone")  # from the server's own page: as the account
    assert joined["game"]["seats"][1]["name"] == "Ada"


async def test_the_cookie_without_an_origin_is_a_guests_request(api: Api) -> None:
    await register(api)
    api.browser = False  # a program holding the cookie: no Origin, no Sec-Fetch-Site
    await api.error("GET", "/api/v1/account", 401, "not_signed_in")
    await api.error("POST", "/api/v1/account/sign-out-everywhere", 401, "not_signed_in")
    created = await api.create(name="Guest", seats=2)  # as a guest: its own name
    assert created["game"]["seats"][0]["name"] == "Guest"
    # a POST from the page carries its Origin; Sec-Fetch-Site alone counts for reads only
    await api.error("POST", "/api/v1/account/sign-out-everywhere", 401, "not_signed_in",
                    headers={"Sec-Fetch-Site": "same-origin"})
    me = await api.call("GET", "/api/v1/account", 200, headers={"Sec-Fetch-Site": "none"})
    assert me["account"]["name"] == "Ada"


async def test_a_bearer_token_is_not_refused_from_another_site(api: Api) -> None:
    await register(api)
    token = await api.call("POST", "/api/v1/account/tokens", 201,
                           json={"description": "a client", "scopes": ["play", "read"]})
    secret = token["token"]["secret"]
    evil = {"Origin": "https://evil.example", "Authorization": f"Bearer {secret}"}
    created = await api.call("POST", "/api/v1/games", 201, headers=evil,
                             json={"name": "Whoever", "seats": 2})
    assert created["game"]["seats"][0]["name"] == "Ada"
    me = await api.call("GET", "/api/v1/account", 200, headers=evil)
    assert me["account"]["name"] == "Ada"


async def test_no_password_or_session_in_logs_or_other_responses(
        api: Api, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    await register(api)
    secrets = [PASSWORD, session_of(api) or "missing"]
    await sign_in(api, password="a wrong guess", expect=401)
    await sign_in(api)
    secrets.append(session_of(api) or "missing")
    await api.call("GET", "/api/v1/account", 200)
    await api.call("DELETE", "/api/v1/account", 200, json={"password": PASSWORD})
    logged = "\n".join(f"{record.getMessage()} {record.__dict__}" for record in caplog.records)
    for secret in secrets:
        assert secret not in logged
        assert all(secret not in text for text in api.get_texts)
    assert "argon2" not in logged and all("argon2" not in text for text in api.get_texts)


async def test_sign_in_without_its_store_is_a_typed_503(make_api: MakeApi) -> None:
    # nothing listens on this port: the accounts' PostgreSQL is down
    api = await make_api(accounts_url=f"postgresql://nobody@127.0.0.1:{free_port()}/none")
    await api.error("POST", "/api/v1/account/sign-in", 503, "accounts_unavailable",
                    json={"name": "Ada", "password": PASSWORD})
    await api.error("POST", "/api/v1/account/register", 503, "accounts_unavailable",
                    json={"name": "Ada", "password": PASSWORD})
    await api.call("GET", "/api/v1/server", 200)  # the rest of the server answers


async def test_a_second_browser_of_the_account_takes_up_its_seat(api: Api) -> None:
    guest_game = (await api.create(name="Grace", seats=2))["game"]["id"]  # not signed in
    await register(api)
    created = await api.create(name="Ada", seats=3)
    game_id, first_token = created["game"]["id"], created["token"]
    account_id = (await api.call("GET", "/api/v1/account", 200))["account"]["id"]
    assert api.state.storage.seats(game_id)[0].account_id == account_id
    api.client.session.cookie_jar.clear()  # another browser, signed in to the same account
    await sign_in(api)
    mine = await api.call("GET", "/api/v1/account/games", 200)
    assert [(entry["game"]["id"], entry["seat"]) for entry in mine["games"]] == [(game_id, 0)]
    await api.error("POST", f"/api/v1/games/{guest_game}/reclaim", 403, "not_a_player")
    await api.error("POST", f"/api/v1/games/{game_id}/reclaim", 403, "cross_site_request",
                    headers={"Sec-Fetch-Site": "cross-site"})
    taken = await api.call("POST", f"/api/v1/games/{game_id}/reclaim", 200)
    assert taken["seat"] == 0 and taken["token"] != first_token
    # the first browser's token no longer holds the seat; the new one does
    await api.error("POST", f"/api/v1/games/{game_id}/leave", 403, "bad_token",
                    json={"token": first_token})
    await api.call("POST", f"/api/v1/games/{game_id}/leave", 200, json={"token": taken["token"]})
    api.client.session.cookie_jar.clear()
    await api.error("GET", "/api/v1/account/games", 401, "not_signed_in")
    await api.error("POST", f"/api/v1/games/{game_id}/reclaim", 401, "not_signed_in")
