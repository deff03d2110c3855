"""Passkeys under attack, through a real socket: a replayed answer (its challenge is used
up), an answer from another origin or for another relying party, another account's
credential (its id with the wrong key, its user handle, its registration challenge, its
passkey's id to remove), a counter that does not grow, a credential registered twice,
malformed and oversized bodies, another site's page, and floods of ceremonies and of
failed sign-ins from one address."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from dominion.server.accounts.passkeys import MAX_CREDENTIAL_CHARS
from dominion.server.accounts.service import PER_ACCOUNT, PER_ADDRESS
from dominion.server.edge.api.passkeys_api import CEREMONIES_PER_MINUTE
from dominion.server.edge.app import create_app
from dominion.server.settings import Settings
from tests.accounts.authenticator import (
    SoftKey,
    assertion,
    b64,
    challenge_of,
    registration,
)
from tests.server.restapi import Api

CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"
ORIGIN = "http://localhost:8000"
SIGN_IN = "/api/v1/passkeys/sign-in"
MakeApi = Callable[..., Awaitable[Api]]


@pytest.fixture
def make_api(aiohttp_client: Any, tmp_path: Path) -> MakeApi:
    """A browser of the server (the first call starts it): a cookie jar of its own."""
    app = create_app(Settings(db=str(tmp_path / "games.sqlite3"), public_url=ORIGIN, **CHEAP))
    made: list[Api] = []

    async def make() -> Api:
        api = Api(await aiohttp_client(made[0].client.server if made else app))
        made.append(api)
        return api
    return make


@pytest.fixture
async def api(make_api: MakeApi) -> Api:
    return await make_api()


async def signed_up(api: Api, name: str) -> None:
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": name, "password": PASSWORD})


async def with_passkey(api: Api, name: str) -> SoftKey:
    """A new account with one passkey, signed out again."""
    await signed_up(api, name)
    options = await api.call("POST", "/api/v1/account/passkeys/register/options", 200)
    key, credential = registration(options, ORIGIN)
    await api.call("POST", "/api/v1/account/passkeys/register", 201,
                   json={"name": "key", "credential": credential})
    await api.call("POST", "/api/v1/account/sign-out", 200)
    return key


async def sign_in_options(api: Api) -> dict[str, Any]:
    options: dict[str, Any] = await api.call("POST", "/api/v1/passkeys/sign-in/options", 200)
    return options


async def refused(api: Api, credential: Any, code: str, status: int = 401) -> None:
    await api.error("POST", SIGN_IN, status, code, json={"credential": credential})
    await api.error("GET", "/api/v1/account", 401, "not_signed_in")


async def test_a_replayed_answer_finds_its_challenge_used_up(api: Api) -> None:
    key = await with_passkey(api, "Ada")
    answer = assertion(key, await sign_in_options(api), ORIGIN)
    await api.call("POST", SIGN_IN, 200, json={"credential": answer})
    await api.call("POST", "/api/v1/account/sign-out", 200)
    await refused(api, answer, "passkey_challenge_expired")
    # signed afresh with a higher count, the same challenge is still used up
    options = {"challenge": challenge_of(answer)}
    await refused(api, assertion(key, options, ORIGIN), "passkey_challenge_expired")
    # a challenge never issued
    await refused(api, assertion(key, {"challenge": b64(b"n" * 32)}, ORIGIN),
                  "passkey_challenge_expired")


async def test_an_answer_from_another_origin_or_for_another_party_is_refused(api: Api) -> None:
    key = await with_passkey(api, "Ada")
    for origin in ("http://localhost:8001", "https://localhost:8000", "http://evil.example"):
        await refused(api, assertion(key, await sign_in_options(api), origin), "passkey_refused")
    key.rp_id = "evil.example"  # signed for another relying party
    await refused(api, assertion(key, await sign_in_options(api), ORIGIN), "passkey_refused")
    # a registration from another origin is refused too, and keeps nothing
    await api.call("POST", "/api/v1/account/sign-in", 200,
                   json={"name": "Ada", "password": PASSWORD})
    options = await api.call("POST", "/api/v1/account/passkeys/register/options", 200)
    _, credential = registration(options, "http://evil.example")
    await api.error("POST", "/api/v1/account/passkeys/register", 401, "passkey_refused",
                    json={"name": "stolen", "credential": credential})
    assert len((await api.call("GET", "/api/v1/account/passkeys", 200))["passkeys"]) == 1


async def test_another_accounts_credential_is_refused(make_api: MakeApi) -> None:
    ada_browser = await make_api()
    ada = await with_passkey(ada_browser, "Ada")
    bea_browser = await make_api()
    bea = await with_passkey(bea_browser, "Bea")
    # Ada's credential id, signed with Bea's key
    forged = SoftKey(ada.rp_id, ada.user_handle, ada.credential_id, bea.key, count=50)
    await refused(bea_browser, assertion(forged, await sign_in_options(bea_browser), ORIGIN),
                  "passkey_refused")
    # Bea's credential claiming to be Ada's user
    claiming = copy.copy(bea)
    claiming.user_handle = ada.user_handle
    await refused(bea_browser, assertion(claiming, await sign_in_options(bea_browser), ORIGIN),
                  "passkey_refused")
    # Bea answers Ada's registration challenge: it is not hers to finish
    await ada_browser.call("POST", "/api/v1/account/sign-in", 200,
                           json={"name": "Ada", "password": PASSWORD})
    await bea_browser.call("POST", "/api/v1/account/sign-in", 200,
                           json={"name": "Bea", "password": PASSWORD})
    adas = await ada_browser.call("POST", "/api/v1/account/passkeys/register/options", 200)
    _, credential = registration(adas, ORIGIN)
    await bea_browser.error("POST", "/api/v1/account/passkeys/register", 401,
                            "passkey_challenge_expired",
                            json={"name": "x", "credential": credential})
    # Ada's credential id registered again by Bea: refused, Ada's stays hers
    beas = await bea_browser.call("POST", "/api/v1/account/passkeys/register/options", 200)
    _, credential = registration(beas, ORIGIN, credential_id=ada.credential_id)
    await bea_browser.error("POST", "/api/v1/account/passkeys/register", 401, "passkey_refused",
                            json={"name": "x", "credential": credential})
    # nor may Bea remove Ada's passkey
    adas_passkey = (await ada_browser.call("GET", "/api/v1/account/passkeys", 200))["passkeys"][0]
    await bea_browser.error("DELETE", f"/api/v1/account/passkeys/{adas_passkey['id']}", 404,
                            "unknown_passkey")
    await bea_browser.error("DELETE", "/api/v1/account/passkeys/0", 404, "unknown_passkey")
    for bad in ("-1", "x", "1" * 40, "%F0%9F%98%80"):  # no passkey's path at all
        await bea_browser.error("DELETE", f"/api/v1/account/passkeys/{bad}", 404, "not_found")
    await ada_browser.call("POST", "/api/v1/account/sign-out", 200)
    await ada_browser.call("POST", SIGN_IN, 200, json={"credential": assertion(
        ada, await sign_in_options(ada_browser), ORIGIN)})


async def test_a_counter_that_does_not_grow_is_refused(api: Api) -> None:
    key = await with_passkey(api, "Ada")
    await api.call("POST", SIGN_IN, 200, json={"credential": assertion(
        key, await sign_in_options(api), ORIGIN)})
    await api.call("POST", "/api/v1/account/sign-out", 200)
    key.count -= 1  # a clone of the authenticator, one use behind
    await refused(api, assertion(key, await sign_in_options(api), ORIGIN), "passkey_refused")


BAD_CREDENTIALS: list[tuple[str, Any]] = [
    ("none", None), ("a string", "credential"), ("a list", []), ("empty", {}),
    ("no response", {"id": "x", "rawId": "x", "type": "public-key"}),
    ("client data not base64", {"response": {"clientDataJSON": "!!!"}}),
    ("client data not JSON", {"response": {"clientDataJSON": b64(b"{nope")}}),
    ("client data a list", {"response": {"clientDataJSON": b64(b"[1]")}}),
    ("oversized", {"response": {"clientDataJSON": "A" * MAX_CREDENTIAL_CHARS}}),
]


@pytest.mark.parametrize(("what", "credential"), BAD_CREDENTIALS,
                         ids=[bad[0] for bad in BAD_CREDENTIALS])
async def test_a_malformed_credential_is_a_typed_refusal(api: Api, what: str,
                                                        credential: Any) -> None:
    await api.error("POST", SIGN_IN, 400, "bad_credential", json={"credential": credential})
    await signed_up(api, "Ada")
    await api.error("POST", "/api/v1/account/passkeys/register", 400, "bad_credential",
                    json={"name": "key", "credential": credential})
    assert (await api.call("GET", "/api/v1/account/passkeys", 200))["passkeys"] == []


async def test_a_live_challenge_with_a_broken_answer_is_refused_and_used_up(api: Api) -> None:
    key = await with_passkey(api, "Ada")
    good = assertion(key, await sign_in_options(api), ORIGIN)
    broken = copy.deepcopy(good)
    broken["response"]["signature"] = b64(b"\x30\x02\x00\x00")
    await refused(api, broken, "passkey_refused")
    await refused(api, good, "passkey_challenge_expired")  # the challenge went with it
    garbled = assertion(key, await sign_in_options(api), ORIGIN)
    garbled["response"]["authenticatorData"] = b64(b"short")
    await refused(api, garbled, "passkey_refused")
    unknown = assertion(key, await sign_in_options(api), ORIGIN)
    unknown["rawId"] = "***"  # read leniently: no credential has this id
    await refused(api, unknown, "passkey_refused")
    no_id = assertion(key, await sign_in_options(api), ORIGIN)
    no_id["rawId"] = 5
    await refused(api, no_id, "bad_credential", 400)


async def test_bad_bodies_and_names_change_nothing(api: Api) -> None:
    await api.error("POST", SIGN_IN, 400, "bad_json", data=b"{nope",
                    headers={"Content-Type": "application/json"})
    await api.error("POST", SIGN_IN, 415, "unsupported_media_type", data=b"{}",
                    headers={"Content-Type": "text/plain"})
    await signed_up(api, "Ada")
    for name in (None, "", "   ", "x" * 41, "tab\there", 7):
        options = await api.call("POST", "/api/v1/account/passkeys/register/options", 200)
        _, credential = registration(options, ORIGIN)
        await api.error("POST", "/api/v1/account/passkeys/register", 400, "bad_passkey_name",
                        json={"name": name, "credential": credential})
    assert (await api.call("GET", "/api/v1/account/passkeys", 200))["passkeys"] == []
    await api.call("POST", "/api/v1/account/sign-out", 200)
    await api.error("POST", "/api/v1/account/passkeys/register/options", 401, "not_signed_in")
    await api.error("GET", "/api/v1/account/passkeys", 401, "not_signed_in")


async def test_another_sites_page_cannot_start_or_finish_a_ceremony(api: Api) -> None:
    evil = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
    await signed_up(api, "Ada")
    for path in ("/api/v1/account/passkeys/register/options", "/api/v1/passkeys/sign-in/options",
                 "/api/v1/account/passkeys/register", SIGN_IN):
        await api.error("POST", path, 403, "cross_site_request", headers=evil, json={})
    await api.error("DELETE", "/api/v1/account/passkeys/1", 403, "cross_site_request",
                    headers=evil)


async def test_a_flood_of_ceremonies_from_one_address_is_refused(api: Api) -> None:
    since = asyncio.get_running_loop().time()
    for _ in range(CEREMONIES_PER_MINUTE):
        await sign_in_options(api)
    error = await api.rate_limited(CEREMONIES_PER_MINUTE, since, "POST",
                                   "/api/v1/passkeys/sign-in/options")
    assert error["retry_after_ms"] > 0


async def test_failed_passkey_sign_ins_are_throttled_per_address(api: Api) -> None:
    key = await with_passkey(api, "Ada")
    stranger = SoftKey(key.rp_id, b"\0" * 8)
    for _ in range(PER_ADDRESS.free + 1):
        await refused(api, assertion(stranger, {"challenge": b64(b"n" * 32)}, ORIGIN),
                      "passkey_challenge_expired")
    # the address must wait now for options, and even with the right passkey
    await api.error("POST", "/api/v1/passkeys/sign-in/options", 429, "rate_limited")
    error = await api.error("POST", SIGN_IN, 429, "rate_limited", json={
        "credential": assertion(key, {"challenge": b64(b"m" * 32)}, ORIGIN)})
    assert error["retry_after_ms"] > 0



async def test_failed_passwords_never_block_a_passkey_sign_in(api: Api) -> None:
    # a flood of wrong passwords for the account, from the owner's own address too, once
    # locked both password and passkey sign-in out
    key = await with_passkey(api, "Ada")
    api.client.session.cookie_jar.clear()  # strangers: no device cookie
    for index in range(PER_ADDRESS.free + 1):
        await api.error("POST", "/api/v1/account/sign-in", 401, "wrong_credentials",
                        json={"name": "Ada" if index <= PER_ACCOUNT.free else f"user{index}",
                              "password": "a wrong guess"})
    await api.error("POST", "/api/v1/account/sign-in", 429, "rate_limited",
                    json={"name": "Nobody", "password": "a wrong guess"})
    options = await sign_in_options(api)
    signed = await api.call("POST", SIGN_IN, 200,
                            json={"credential": assertion(key, options, ORIGIN)})
    assert signed["account"]["name"] == "Ada"
