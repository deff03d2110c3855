"""Rated tables over REST and the WebSocket: only accounts (and in-server bots) sit at
them; a finished one reaches the account store's ledger once, from the node's outbox."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from dominion.protocol import Ack, Resign
from dominion.server.edge.sessions import ACCOUNTS as ACCOUNTS_KEY
from dominion.server.edge.state import RATING_OUTBOX, RATING_STORE, STATE
from dominion.server.play import lobby
from dominion.server.ratings import INITIAL, Pool
from tests.eventually import eventually

from .wsplay import Player, ServerFactory, Site, ws_server

__all__ = ["ws_server"]
PASSWORD = "correct horse battery"
ACCOUNTS = {"password_time_cost": 1, "password_memory_kib": 64}


async def post(site: Site, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with site.session.post(site.url(path), json=body) as response:
        return response.status, await response.json()


@pytest.fixture
async def site(ws_server: ServerFactory) -> AsyncIterator[Site]:
    """A server with accounts, and a session that keeps its cookie (the default jar
    refuses cookies from an IP address such as the test server's)."""
    started = await ws_server(**ACCOUNTS)
    await started.session.close()
    started.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    try:
        yield started
    finally:
        await started.session.close()


async def register(site: Site, name: str) -> None:
    status, body = await post(site, "/api/v1/account/register",
                              {"name": name, "password": PASSWORD})
    assert status == 201, body


async def test_a_guest_can_neither_create_nor_join_a_rated_table(site: Site) -> None:
    status, body = await post(site, "/api/v1/games", {"name": "Gus", "seats": 2,
                                                      "rated": True})
    assert (status, body["error"]["code"]) == (403, "rated_needs_account")
    status, body = await post(site, "/api/v1/games", {"name": "Gus", "seats": 2,
                                                      "rated": "yes"})
    assert (status, body["error"]["code"]) == (400, "bad_option")
    assert site.app[STATE].lobby.rooms == {}  # nothing was made

    await register(site, "Ada")  # the site's session is signed in from here
    status, created = await post(site, "/api/v1/games", {"seats": 2, "rated": True})
    assert status == 201 and created["game"]["rated"] is True
    game = created["game"]["id"]
    site.session.cookie_jar.clear()  # a guest again
    status, body = await post(site, f"/api/v1/games/{game}/join", {"name": "Gus"})
    assert (status, body["error"]["code"]) == (403, "rated_needs_account")
    assert site.room(game).seats[1].free
    status, unrated = await post(site, "/api/v1/games", {"name": "Gus", "seats": 2})
    assert status == 201 and unrated["game"]["rated"] is False


async def test_a_rated_table_takes_no_bot_without_a_fixed_rating(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "BOT_MU", {"big_money": {}})
    await register(site, "Ada")
    status, body = await post(site, "/api/v1/games", {"seats": 2, "rated": True,
                                                      "bots": {"1": "strong"}})
    assert (status, body["error"]["code"]) == (400, "bad_bots")


async def test_a_finished_rated_game_is_applied_to_the_ledger_once(site: Site) -> None:
    await register(site, "Ada")
    status, created = await post(site, "/api/v1/games", {"seats": 2, "rated": True,
                                                         "bots": {"1": "big_money"}})
    assert status == 201
    game = created["game"]["id"]
    player = await Player.join(site, game, created["token"])
    assert isinstance(await player.client.request(Resign, game=game), Ack)
    player.strategy = None  # a bot plays the seat on
    await player.play(timeout=30)  # to game over: the seat that resigned is ranked last
    store, outbox = site.app[RATING_STORE], site.app[RATING_OUTBOX]
    account = await site.app[ACCOUNTS_KEY].holder_of("Ada")
    assert account is not None

    async def applied() -> bool:
        return Pool.TWO_PLAYER in await store.ratings_of(account.id)
    await eventually(applied)
    rating = (await store.ratings_of(account.id))[Pool.TWO_PLAYER]
    assert rating.games == 1 and rating.mu < INITIAL.mu
    assert site.app[STATE].storage.pending_ratings() == []
    assert outbox.applied == 1
    assert await outbox.drain() is True  # again: nothing left to apply
    assert (await store.ratings_of(account.id))[Pool.TWO_PLAYER] == rating
