"""Passkeys with each account store: a signed-in account registers one (named, listed,
removed), anyone signs in with one without a name or password; a challenge is good once
and for a while only; a passkey's counter must grow; deleting an account takes its
passkeys. Over REST through the server (the authenticator is tests/accounts'
software one), and the store's own guarantees directly."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dominion.server.accounts import AccountStore
from dominion.server.accounts.store import Ceremony
from dominion.server.edge.app import create_app
from dominion.server.settings import Settings
from tests.server.restapi import Api

from .authenticator import SoftKey, assertion, registration

CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"
ORIGIN = "http://localhost:8000"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def api(aiohttp_client: Any, tmp_path: Path, store_kind: str,
              request: pytest.FixtureRequest) -> Api:
    settings: dict[str, Any] = {"db": str(tmp_path / "games.sqlite3"), "public_url": ORIGIN,
                                **CHEAP}
    if store_kind == "postgres":
        settings["accounts_url"] = request.getfixturevalue("postgres_url")
    return Api(await aiohttp_client(create_app(Settings(**settings))))


async def add_passkey(api: Api, name: str = "laptop") -> tuple[SoftKey, dict[str, Any]]:
    options = await api.call("POST", "/api/v1/account/passkeys/register/options", 200)
    key, credential = registration(options, ORIGIN)
    body = await api.call("POST", "/api/v1/account/passkeys/register", 201,
                          json={"name": name, "credential": credential})
    return key, body["passkey"]


async def sign_in_with(api: Api, key: SoftKey, expect: int = 200) -> dict[str, Any]:
    options = await api.call("POST", "/api/v1/passkeys/sign-in/options", 200)
    body: dict[str, Any] = await api.call("POST", "/api/v1/passkeys/sign-in", expect,
                                          json={"credential": assertion(key, options, ORIGIN)})
    return body


async def test_register_a_passkey_sign_out_and_sign_in_with_it(api: Api) -> None:
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": "Ada", "password": PASSWORD})
    options = await api.call("POST", "/api/v1/account/passkeys/register/options", 200)
    assert options["rp"]["id"] == "localhost"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    key, credential = registration(options, ORIGIN)
    created = await api.call("POST", "/api/v1/account/passkeys/register", 201,
                             json={"name": " laptop ", "credential": credential})
    assert created["passkey"]["name"] == "laptop"
    assert created["passkey"]["last_used_at"] is None
    # a second ceremony excludes the passkey the account has
    again = await api.call("POST", "/api/v1/account/passkeys/register/options", 200)
    assert [held["id"] for held in again["excludeCredentials"]] == [credential["id"]]

    await api.call("POST", "/api/v1/account/sign-out", 200)
    await api.error("GET", "/api/v1/account", 401, "not_signed_in")
    signed = await sign_in_with(api, key)
    assert signed["account"]["name"] == "Ada"
    assert (await api.call("GET", "/api/v1/account", 200))["account"]["name"] == "Ada"
    listed = (await api.call("GET", "/api/v1/account/passkeys", 200))["passkeys"]
    assert [(p["name"], p["last_used_at"] is not None) for p in listed] == [("laptop", True)]

    # removed, it signs no one in
    await api.call("DELETE", f"/api/v1/account/passkeys/{listed[0]['id']}", 200)
    assert (await api.call("GET", "/api/v1/account/passkeys", 200))["passkeys"] == []
    await api.error("DELETE", f"/api/v1/account/passkeys/{listed[0]['id']}", 404,
                    "unknown_passkey")
    await api.call("POST", "/api/v1/account/sign-out", 200)
    options = await api.call("POST", "/api/v1/passkeys/sign-in/options", 200)
    await api.error("POST", "/api/v1/passkeys/sign-in", 401, "passkey_refused",
                    json={"credential": assertion(key, options, ORIGIN)})


async def test_deleting_the_account_takes_its_passkeys(api: Api) -> None:
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": "Ada", "password": PASSWORD})
    key, _ = await add_passkey(api)
    await api.call("DELETE", "/api/v1/account", 200, json={"password": PASSWORD})
    options = await api.call("POST", "/api/v1/passkeys/sign-in/options", 200)
    await api.error("POST", "/api/v1/passkeys/sign-in", 401, "passkey_refused",
                    json={"credential": assertion(key, options, ORIGIN)})


async def test_a_challenge_is_good_once_for_its_ceremony_and_until_it_expires(
        store: AccountStore) -> None:
    account = await store.create_account("Ada", "ada", "hash", NOW)
    later = NOW + timedelta(seconds=120)
    await store.add_passkey_challenge(b"r" * 32, Ceremony.REGISTER, account.id, NOW, later)
    await store.add_passkey_challenge(b"s" * 32, Ceremony.SIGN_IN, None, NOW, later)
    await store.add_passkey_challenge(b"x" * 32, Ceremony.SIGN_IN, None, NOW, later)
    # another ceremony's challenge does not answer this one (and stays)
    assert await store.take_passkey_challenge(b"r" * 32, Ceremony.SIGN_IN, NOW) is None
    taken = await store.take_passkey_challenge(b"r" * 32, Ceremony.REGISTER, NOW)
    assert taken is not None and taken.account_id == account.id
    assert await store.take_passkey_challenge(b"r" * 32, Ceremony.REGISTER, NOW) is None
    assert await store.take_passkey_challenge(b"s" * 32, Ceremony.SIGN_IN, later) is None
    # expired ones go when the next is made
    await store.add_passkey_challenge(b"y" * 32, Ceremony.SIGN_IN, None, later,
                                      later + timedelta(seconds=120))
    assert await store.take_passkey_challenge(b"x" * 32, Ceremony.SIGN_IN, NOW) is None
    assert await store.take_passkey_challenge(b"y" * 32, Ceremony.SIGN_IN, later) is not None


async def test_a_passkeys_count_moves_only_from_the_count_it_was_read_at(
        store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "hash", NOW)
    bea = await store.create_account("Bea", "bea", "hash", NOW)
    passkey = await store.add_passkey(ada.id, b"cred", b"key", 3, "phone", NOW)
    with pytest.raises(Exception, match="registered already"):
        await store.add_passkey(bea.id, b"cred", b"other", 0, "mine", NOW)
    assert await store.passkey_used(passkey.id, 3, 4, NOW)
    assert not await store.passkey_used(passkey.id, 3, 5, NOW)  # a sign-in meanwhile
    holder = await store.passkey_holder(b"cred")
    assert holder is not None
    assert (holder[0].sign_count, holder[0].last_used_at, holder[1].name) == (4, NOW, "Ada")
    assert not await store.remove_passkey(bea.id, passkey.id)  # not Bea's to remove
    assert [p.name for p in await store.passkeys_of(ada.id)] == ["phone"]
    await store.delete_account(ada.id, NOW)
    assert await store.passkey_holder(b"cred") is None
    assert await store.passkeys_of(ada.id) == []
