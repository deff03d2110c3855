"""Personal access tokens on the WebSocket, through a real socket: a client signs in with
one in `hello` or in the upgrade's Authorization header, then joins and resumes as its
account; every refusal is typed and closes with 4007; the token never shows in a log,
an error, a metric or a replay; and malformed and oversized tokens cost nothing (how a
well-formed guess is checked, on each store: test_secret_checks.py)."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgpack
import pytest

from dominion.protocol import Ack, Error, Hello, Join, Resume, Welcome, encode_client
from dominion.server.accounts import Account
from dominion.server.accounts.access_tokens import AccessTokens, play_scope, token_hash
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.accounts.store import AccessToken, Scope
from dominion.server.edge.state import STATE
from dominion.server.play.room import Room
from dominion.server.refusal import Refusal
from tests.server.wsclient import TestClient
from tests.server.wsplay import ServerFactory, Site, close_code_sent, expect_error, ws_server

__all__ = ["ws_server"]
CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"


@pytest.fixture
async def site(ws_server: ServerFactory) -> Site:
    return await ws_server(**CHEAP)


async def account_with_token(site: Site, *scopes: str, name: str = "Ada", bot: bool = False,
                             **more: Any) -> tuple[Account, str]:
    accounts = site.app[STATE].accounts
    account, _ = await accounts.register(name, PASSWORD, f"10.0.0.{len(name)}")
    if bot:
        account = await accounts.access_tokens.make_bot(account, has_played=False)
    _, secret = await accounts.access_tokens.create(account, "tests", list(scopes), **more)
    return account, secret


async def hello(site: Site, access_token: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[TestClient, Any]:
    ws = await site.session.ws_connect(site.ws_url, protocols=("dominion.v2.msgpack",),
                                       headers=headers or {})
    client = TestClient(ws)
    fields: dict[str, Any] = {"versions": [2], "client": "tests"}
    if access_token is not None:
        fields["access_token"] = access_token
    return client, await client.request(Hello, **fields)


async def test_a_client_signed_in_by_hello_joins_and_resumes_as_its_account(
        site: Site) -> None:
    account, secret = await account_with_token(site, "play")
    game_id, _ = await site.create(seats=2, name="Ann")
    client, welcome = await hello(site, secret)
    assert isinstance(welcome, Welcome) and welcome.account == "Ada"
    joined = await client.request(Join, game=game_id)
    assert isinstance(joined, Ack) and joined.seat == 1
    room: Room = site.room(game_id)
    assert (room.seats[1].name, room.seats[1].account_id) == ("Ada", account.id)
    # another device, signed in with the same token by its header, takes the seat back
    other, welcome = await hello(site, headers={"Authorization": f"Bearer {secret}"})
    assert isinstance(welcome, Welcome) and welcome.account == "Ada"
    resumed = await other.request(Resume, game=game_id, last_seq=0)
    assert isinstance(resumed, Ack) and resumed.seat == 1
    assert await close_code_sent(client) == 4006
    again = await other.request(Join, game=game_id)  # the seat it holds, not a new one
    assert isinstance(again, Ack) and again.seat == 1


async def test_a_guest_joins_only_with_a_seat_token_and_cannot_take_the_name(
        site: Site) -> None:
    await account_with_token(site, "play")
    game_id, _ = await site.create(seats=2, name="Ann")
    client, welcome = await hello(site)
    assert isinstance(welcome, Welcome) and welcome.account is None
    await expect_error(client, Join, "not_signed_in", game=game_id)
    async with site.session.post(site.url(f"/api/v1/games/{game_id}/join"),
                                 json={"name": "ADA"}) as response:
        assert response.status == 409 and (await response.json())["error"]["code"] == \
            "name_taken"


async def test_a_bot_account_plays_with_bot_play(site: Site) -> None:
    _, secret = await account_with_token(site, "bot:play", name="Robo", bot=True)
    game_id, _ = await site.create(seats=2, name="Ann")
    client, welcome = await hello(site, secret)
    assert isinstance(welcome, Welcome) and welcome.account == "Robo"
    assert isinstance(await client.request(Join, game=game_id), Ack)


@pytest.mark.parametrize(("scopes", "bot", "code"), [
    (["read"], False, "scope_missing"),
    (["bot:play"], False, "scope_missing"),  # a person's account
    (["bot:play", "read"], True, None),
])
async def test_hello_needs_the_scope_to_play(site: Site, scopes: list[str], bot: bool,
                                             code: str | None) -> None:
    _, secret = await account_with_token(site, *scopes, bot=bot)
    client, reply = await hello(site, secret)
    if code is None:
        assert isinstance(reply, Welcome)
        return
    assert isinstance(reply, Error) and reply.code == code and reply.id == 1
    assert await close_code_sent(client) == 4007


async def refused(site: Site, code: str, access_token: str | None = None,
                  headers: dict[str, str] | None = None) -> Error:
    client, reply = await hello(site, access_token, headers)
    assert isinstance(reply, Error) and reply.code == code, reply
    assert await close_code_sent(client) == 4007
    return reply


async def test_every_refused_token_is_typed_and_closes_4007(site: Site) -> None:
    _, secret = await account_with_token(site, "play")
    _, other = await account_with_token(site, "play", name="Bob")
    await refused(site, "token_invalid", "dom_" + "A" * 43)
    await refused(site, "token_invalid", "not a token")
    await refused(site, "token_invalid", headers={"Authorization": "Basic QWRhOng="})
    await refused(site, "token_invalid", secret,
                  headers={"Authorization": f"Bearer {other}"})  # two different tokens
    tokens = site.app[STATE].accounts.access_tokens
    account, expiring = await account_with_token(site, "play", name="Cy", expires_in_days=1)
    now = tokens._clock()
    tokens._clock = lambda: now + timedelta(days=2)
    await refused(site, "token_expired", expiring)
    tokens._clock = lambda: now
    for token in await tokens.of(account):
        await tokens.revoke(account, token.id)
    await refused(site, "token_invalid", expiring)


async def test_an_oversized_token_in_hello_is_a_frame_error(site: Site) -> None:
    ws = await site.session.ws_connect(site.ws_url, protocols=("dominion.v2.msgpack",))
    client = TestClient(ws)
    await ws.send_bytes(msgpack.packb({"type": "hello", "id": 1, "versions": [2],
                                       "access_token": "dom_" + "A" * 10_000}))
    reply = await client.receive()
    assert isinstance(reply, Error) and reply.code == "too_long"
    assert "AAAA" not in reply.message
    assert await close_code_sent(client) == 4000


async def test_no_token_shows_in_logs_errors_metrics_or_replays(
        site: Site, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        _, secret = await account_with_token(site, "play")
        game_id, _ = await site.create(seats=2, name="Ann", bots={})
        client, _ = await hello(site, secret)
        assert isinstance(await client.request(Join, game=game_id), Ack)
        wrong = secret[:-4] + ("AAAA" if not secret.endswith("AAAA") else "BBBB")
        error = await refused(site, "token_invalid", wrong)
        await refused(site, "token_invalid", headers={"Authorization": f"Bearer {wrong}"})
        async with site.session.get(site.url("/metrics")) as response:
            metrics = await response.text()
        async with site.session.get(site.url(f"/api/v1/games/{game_id}/replay")) as response:
            replay = await response.read()
        async with site.session.get(site.url("/api/v1/account"),
                                    headers={"Authorization": f"Bearer {wrong}"}) as response:
            rest_error = await response.text()
    logged = "\n".join(f"{record.getMessage()} {record.__dict__}" for record in caplog.records)
    for secret_text in (secret, wrong, secret[4:], wrong[4:]):
        assert secret_text not in logged
        assert secret_text not in error.message and secret_text not in rest_error
        assert secret_text not in metrics
        assert secret_text.encode() not in replay
    assert repr(Hello(id=1, versions=(2,), access_token=secret)).count(secret) == 0


async def test_a_join_before_hello_repeats_no_token(site: Site) -> None:
    _, secret = await account_with_token(site, "play")
    ws = await site.session.ws_connect(site.ws_url, protocols=("dominion.v2.msgpack",))
    await ws.send_bytes(encode_client(Join(id=1, game="g-0123456789ab", token=secret)))
    client = TestClient(ws)
    reply = await client.receive()
    assert isinstance(reply, Error) and reply.code == "hello_required"
    assert secret not in reply.message
    assert await close_code_sent(client) == 4000


class CountingStore(SqliteAccountStore):
    """The SQLite store, recording the hashes it is asked for."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.asked: list[bytes] = []

    async def token_account(self, token_hash: bytes, now: Any
                            ) -> tuple[AccessToken, Account] | None:
        self.asked.append(token_hash)
        return await super().token_account(token_hash, now)


async def test_a_check_looks_up_only_the_hash_and_malformed_tokens_cost_nothing(
        tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "accounts.sqlite3")
    await store.start()
    try:
        tokens = AccessTokens(store)
        ada = await store.create_account("Ada", "ada", "h", tokens._clock())
        _, secret = await tokens.create(ada, "", [Scope.PLAY.value])
        for malformed in ["", "dom_", "dom_" + "A" * 42, "dom_" + "A" * 44, "x" * 10**6,
                          "dom_" + "A" * 42 + "=", secret + "\n", None, 7, ["dom_"]]:
            with pytest.raises(Refusal) as refusal:
                await tokens.check(malformed, play_scope)
            assert refusal.value.code == "token_invalid"
        assert store.asked == []
        _, signed_in = await tokens.check(secret, play_scope)
        assert signed_in.id == ada.id
        assert store.asked == [token_hash(secret)]  # the hash, never the secret
    finally:
        await store.close()


async def test_a_connection_closes_when_its_token_expires(site: Site) -> None:
    # `live_tokens` knew only revoked tokens: an expired token's socket played on
    _, secret = await account_with_token(site, "play", expires_in_days=1)
    client, welcome = await hello(site, secret)
    assert isinstance(welcome, Welcome)
    tokens = site.app[STATE].accounts.access_tokens
    now = tokens._clock()
    tokens._clock = lambda: now + timedelta(days=1, seconds=1)  # a day later
    assert await close_code_sent(client) == 4007
