"""How the secrets a client holds are checked, and where they never go.

On each account store, a guess at an access token or a session secret takes one path
whatever it shares with a real one: its shape is checked (public knowledge: anything
else is refused before any work), then the store is asked for its SHA-256, and only
for that. So a guess that is a real token but for its last character and a random one
of the same shape cost the same lookup, and take as long (medians of interleaved
samples). A seat token is compared in constant time with a stored hash.

And through a whole game played with every kind of secret (a session cookie, an access
token, seat tokens), then the token's revocation, none of them appears in a log line, a
metric, a replay in any format, the export, or a close frame's reason.
"""

from __future__ import annotations

import contextlib
import logging
import statistics
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest

from dominion.protocol import SUBPROTOCOLS, SUPPORTED_VERSIONS, Ack, Hello, Join, Welcome
from dominion.server.accounts import AccountStore
from dominion.server.accounts.access_tokens import play_scope, token_hash
from dominion.server.accounts.passwords import Hasher
from dominion.server.accounts.service import Accounts, session_hash
from dominion.server.accounts.store import AccessToken, Account, Scope
from dominion.server.edge.app import create_app
from dominion.server.play import seat_tokens
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings
from tests.accounts.conftest import postgres_server, postgres_url, store, store_kind
from tests.server.restapi import Api
from tests.server.wsclient import TestClient
from tests.server.wsplay import FAST

__all__ = ["postgres_server", "postgres_url", "store", "store_kind"]
PASSWORD = "correct horse battery"
CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
V2 = (SUBPROTOCOLS[SUPPORTED_VERSIONS.index(2)],)
SAMPLES = 300


class Recording:
    """An account store that records every hash it is asked to look up a secret by."""

    def __init__(self, store: AccountStore) -> None:
        self._store = store
        self.asked: list[bytes] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def token_account(self, wanted: bytes, now: datetime
                            ) -> tuple[AccessToken, Account] | None:
        self.asked.append(wanted)
        return await self._store.token_account(wanted, now)

    async def session_account(self, wanted: bytes, now: datetime) -> Account | None:
        self.asked.append(wanted)
        return await self._store.session_account(wanted, now)


def near_and_far(secret: str, prefix: str = "") -> tuple[str, str]:
    """A guess that is `secret` but for its last character, and one of the same shape
    that shares nothing with it past `prefix`."""
    near = secret[:-1] + ("B" if secret[-1] != "B" else "C")
    far = prefix + "".join("B" if c != "B" else "C" for c in secret[len(prefix):])
    return near, far


@pytest.fixture
def recording(store: AccountStore) -> Recording:
    return Recording(store)


@pytest.fixture
def accounts(recording: Recording) -> Iterator[Accounts]:
    """The accounts' service on the recording store (each store in turn)."""
    hasher = Hasher(1, 1, 64)
    try:
        yield Accounts(cast(AccountStore, recording), hasher, 30.0)
    finally:
        hasher.close()


async def median_seconds(check: Callable[[str], Awaitable[object]],
                         guesses: dict[str, str]) -> dict[str, float]:
    """Each guess's median CPU time to be refused, sampled in turns: the process's own
    work, which a busy machine does not stretch as it does wall time (under load the
    wall's medians of one path differed threefold)."""
    times: dict[str, list[float]] = {name: [] for name in guesses}
    for _ in range(SAMPLES):
        for name, guess in guesses.items():
            started = time.process_time()
            with contextlib.suppress(Refusal):
                await check(guess)
            times[name].append(time.process_time() - started)
    return {name: statistics.median(samples) for name, samples in times.items()}


def about_the_same(medians: dict[str, float]) -> bool:
    """Within half of each other: a margin for a busy machine, far below what a
    character-by-character comparison, or a different path, would show."""
    return max(medians.values()) - min(medians.values()) < 0.5 * max(medians.values())


async def test_a_token_guess_takes_one_path_whatever_it_shares(
        store: AccountStore, accounts: Accounts, recording: Recording) -> None:
    ada = await store.create_account("Ada", "ada", "h", datetime.now(UTC))
    _, secret = await accounts.access_tokens.create(ada, "", [Scope.PLAY.value])
    near, far = near_and_far(secret, prefix="dom_")
    for guess in (near, far):
        with pytest.raises(Refusal) as refused:
            await accounts.access_tokens.check(guess, play_scope)
        assert refused.value.code == "token_invalid"
    for malformed in ("a random string", "dom_" + "A" * 42, secret.upper() + "x"):
        with pytest.raises(Refusal):
            await accounts.access_tokens.check(malformed, play_scope)
    assert recording.asked == [token_hash(near), token_hash(far)]  # hashes, one each
    medians = await median_seconds(lambda guess: accounts.access_tokens.check(guess, play_scope),
                                   {"near": near, "far": far})
    assert about_the_same(medians), medians


async def test_a_session_guess_takes_one_path_whatever_it_shares(
        store: AccountStore, accounts: Accounts, recording: Recording) -> None:
    ada = await store.create_account("Ada", "ada", "h", datetime.now(UTC))
    secret = await accounts.open_session(ada)
    near, far = near_and_far(secret)
    assert await accounts.account_of(near) is None and await accounts.account_of(far) is None
    assert await accounts.account_of("a random string") is None
    assert recording.asked == [session_hash(near), session_hash(far)]
    assert (await accounts.account_of(secret)) == ada
    medians = await median_seconds(accounts.account_of, {"near": near, "far": far})
    assert about_the_same(medians), medians


def test_a_seat_token_is_compared_with_its_hash_in_constant_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    token = seat_tokens.new_token()
    stored = seat_tokens.hash_token(token)
    compared: list[tuple[str, str]] = []

    def compare(presented: str, kept: str) -> bool:
        compared.append((presented, kept))
        return presented == kept
    monkeypatch.setattr(seat_tokens.hmac, "compare_digest", compare)
    near, _ = near_and_far(token)
    assert seat_tokens.token_matches(token, stored)
    assert not seat_tokens.token_matches(near, stored)
    assert compared == [(stored, stored), (seat_tokens.hash_token(near), stored)]


async def test_no_secret_of_a_whole_game_shows_in_logs_metrics_replays_or_closes(
        aiohttp_client: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    api = Api(await aiohttp_client(create_app(Settings(
        **FAST, db=str(tmp_path / "games.sqlite3"), **CHEAP))))
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": "Ada", "password": PASSWORD})
    cookie = api.client.session.cookie_jar.filter_cookies(api.client.make_url("/"))
    session = cookie["dominion-session"].value
    made = await api.call("POST", "/api/v1/account/tokens", 201,
                          json={"description": "bot", "scopes": ["play"]})
    token = made["token"]["secret"]
    created = await api.create(name="Ada", seats=2)
    game = created["game"]["id"]
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as guest, \
            guest.post(api.client.make_url(f"/api/v1/games/{game}/join"),
                       json={"name": "Cy"}) as joined:
        cy_token = (await joined.json())["token"]
    ws = await api.client.session.ws_connect(api.client.make_url("/api/v1/ws"), protocols=V2,
                                             headers={"Authorization": f"Bearer {token}"})
    bot = TestClient(ws)
    assert isinstance(await bot.request(Hello, versions=[2]), Welcome)
    assert isinstance(await bot.request(Join, game=game), Ack)  # Ada's seat, by the token
    await api.state.lobby.room(game).resign(0)  # Cy wins: the game is over
    await api.call("DELETE", f"/api/v1/account/tokens/{made['token']['id']}", 200)
    closing = await bot.ws.receive()
    while closing.type is not aiohttp.WSMsgType.CLOSE:  # the game's last frames first
        closing = await bot.ws.receive()
    assert closing.data == 4007
    downloads = [await (await api.client.get(path)).read() for path in (
        f"/api/v1/games/{game}/replay", f"/api/v1/games/{game}/replay?format=msgpack",
        f"/api/v1/games/{game}/replay?format=text", "/api/v1/replays/export", "/metrics")]
    assert all(b"Cy" in body for body in downloads[:4])  # the game's, every one
    logged = "\n".join(f"{record.getMessage()} {record.__dict__}" for record in caplog.records)
    assert "aiohttp.access" in logged or "POST /api/v1/account/tokens" in logged
    for secret in (session, token, token[4:], created["token"], cy_token):
        assert secret not in logged
        assert secret not in str(closing.extra)
        assert all(secret.encode() not in body for body in downloads)
