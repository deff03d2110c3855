"""Rated tables over REST and the WebSocket: only accounts (and in-server bots) sit at
them; a finished one reaches the account store's ledger once, from the node's outbox."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest

from dominion.protocol import Ack, RatingChanged, Resign, SeatRatingChange
from dominion.protocol.spec import write_fields
from dominion.server.edge.state import STATE
from dominion.server.play import lobby
from dominion.server.ratings import INITIAL, Pool
from dominion.server.ratings.ledger import bot_ratings
from dominion.server.replays.fields import public_account_id
from dominion.server.settings import Settings
from dominion.server.storage import GameState
from tests.eventually import eventually

from .replay_schema import check_replay
from .wsplay import Player, ServerFactory, Site, ws_server

__all__ = ["ws_server"]
PASSWORD = "correct horse battery"
ACCOUNTS = {"password_time_cost": 1, "password_memory_kib": 64,
            "rated_min_turns": 0}  # its games are resigned at once: rated all the same


async def post(site: Site, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with site.session.post(site.url(path), json=body) as response:
        return response.status, await response.json()


async def open_site(ws_server: ServerFactory, **overrides: Any) -> Site:
    """A server with accounts, and a session that keeps its cookie (the default jar
    refuses cookies from an IP address such as the test server's)."""
    started = await ws_server(**(ACCOUNTS | overrides))
    await started.session.close()
    started.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                            headers=own_page(started))
    return started


@pytest.fixture
async def site(ws_server: ServerFactory) -> AsyncIterator[Site]:
    started = await open_site(ws_server)
    try:
        yield started
    finally:
        await started.session.close()


def own_page(site: Site) -> dict[str, str]:
    """What the server's own page sends, so that the session cookie counts."""
    return {"Origin": site.url("").rstrip("/")}


async def register(site: Site, name: str) -> None:
    status, body = await post(site, "/api/v1/account/register",
                              {"name": name, "password": PASSWORD})
    assert status == 201, body


async def resign_a_rated_game(site: Site, name: str,
                              bot: str = "big_money") -> tuple[str, Player]:
    """`name` registers, creates a rated table against `bot` and resigns at once; a bot
    plays the seat on to the end, and the ledger applies the game. Returns its id and the
    player still connected."""
    await register(site, name)
    status, created = await post(site, "/api/v1/games", {"seats": 2, "rated": True,
                                                         "bots": {"1": bot}})
    assert status == 201
    game = created["game"]["id"]
    player = await Player.join(site, game, created["token"])
    assert isinstance(await player.client.request(Resign, game=game), Ack)
    player.strategy = None  # a bot plays the seat on
    await player.play(timeout=30)  # to game over: the seat that resigned is ranked last
    await eventually(lambda: site.app[STATE].storage.pending_ratings() == [])
    return str(game), player


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


async def test_a_rated_table_always_has_a_clock(site: Site) -> None:
    await register(site, "Ada")
    status, body = await post(site, "/api/v1/games", {"seats": 2, "rated": True,
                                                      "time_control": None})
    assert (status, body["error"]["code"]) == (400, "bad_time_control")
    status, created = await post(site, "/api/v1/games", {"seats": 2, "rated": True})
    assert status == 201  # the server's default, 10+5
    assert created["game"]["time_control"] == {"initial_seconds": 600, "increment_seconds": 5}
    status, chosen = await post(site, "/api/v1/games", {
        "seats": 2, "time_control": {"initial_seconds": 60, "increment_seconds": 0}})
    assert status == 201
    assert chosen["game"]["time_control"] == {"initial_seconds": 60, "increment_seconds": 0}


async def test_a_rated_table_takes_no_bot_without_a_fixed_rating(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "BOT_MU", {"big_money": {}})
    await register(site, "Ada")
    status, body = await post(site, "/api/v1/games", {"seats": 2, "rated": True,
                                                      "bots": {"1": "strong"}})
    assert (status, body["error"]["code"]) == (400, "bad_bots")


async def signed_in(site: Site, name: str) -> aiohttp.ClientSession:
    """A session of its own, registered and signed in as `name`."""
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                    headers=own_page(site))
    async with session.post(site.url("/api/v1/account/register"),
                            json={"name": name, "password": PASSWORD}) as response:
        assert response.status == 201, await response.text()
    return session


async def post_as(session: aiohttp.ClientSession, site: Site, path: str,
                  body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with session.post(site.url(path), json=body) as response:
        return response.status, await response.json()


@pytest.mark.parametrize("rated", [False, True])
async def test_an_account_takes_one_seat_at_a_table(site: Site, rated: bool) -> None:
    # the same cookie creating a table and joining it again: two seats of one person
    # would rate each other (0 -> 2,902 in 20 games), or play two hands at once
    await register(site, "Ada")
    status, created = await post(site, "/api/v1/games", {"seats": 3, "rated": rated})
    assert status == 201
    game = created["game"]["id"]
    status, body = await post(site, f"/api/v1/games/{game}/join", {})
    assert (status, body["error"]["code"]) == (409, "already_seated")
    assert "reclaim" in body["error"]["message"]  # how to take the seat up again
    room = site.room(game)
    assert [seat.free for seat in room.seats] == [False, True, True]


async def test_an_account_sits_in_one_live_rated_game_at_a_time(site: Site) -> None:
    await register(site, "Ada")
    status, first = await post(site, "/api/v1/games", {"seats": 2, "rated": True})
    assert status == 201
    status, body = await post(site, "/api/v1/games", {"seats": 2, "rated": True})
    assert (status, body["error"]["code"]) == (409, "already_seated")
    assert first["game"]["id"] in body["error"]["message"]
    bob = await signed_in(site, "Bob")
    try:
        status, other = await post_as(bob, site, "/api/v1/games", {"seats": 2, "rated": True})
        assert status == 201
        status, body = await post(site, f"/api/v1/games/{other['game']['id']}/join", {})
        assert (status, body["error"]["code"]) == (409, "already_seated")
        assert site.room(other["game"]["id"]).seats[1].free
    finally:
        await bob.close()
    status, _ = await post(site, "/api/v1/games", {"seats": 2})
    assert status == 201  # unrated tables are not limited
    assert len(site.app[STATE].lobby.rooms) == 3


async def test_joins_sent_together_take_one_rated_seat(site: Site) -> None:
    # the check and the seat are one step: sent at once, only one join passes it
    hosts = [await signed_in(site, name) for name in ("Bob", "Cat", "Dan", "Eve")]
    try:
        games = []
        for host in hosts:
            status, created = await post_as(host, site, "/api/v1/games",
                                             {"seats": 2, "rated": True})
            assert status == 201
            games.append(created["game"]["id"])
        await register(site, "Ada")
        answers = await asyncio.gather(*(post(site, f"/api/v1/games/{game}/join", {})
                                         for game in games))
    finally:
        for host in hosts:
            await host.close()
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200, 409, 409, 409], answers
    account = await site.app[STATE].accounts.holder_of("Ada")
    assert account is not None
    assert len(site.app[STATE].lobby.seats_of(account)) == 1


async def test_colluders_giving_games_away_at_once_gain_nothing(
        ws_server: ServerFactory) -> None:
    # the red team's collusion: Bob resigned to Ada before his second turn, game after
    # game (0 -> 1,521 in 40 games in 5.8 s); such games are aborted, never rated
    site = await open_site(ws_server, rated_min_turns=Settings().rated_min_turns)
    await register(site, "Ada")
    bob = await signed_in(site, "Bob")
    try:
        for _ in range(3):
            status, created = await post(site, "/api/v1/games", {"seats": 2, "rated": True})
            assert status == 201
            game = created["game"]["id"]
            status, joined = await post_as(bob, site, f"/api/v1/games/{game}/join", {})
            assert status == 200
            loser = await Player.join(site, game, joined["token"])
            assert isinstance(await loser.client.request(Resign, game=game), Ack)
            await loser.client.close()
            await eventually(lambda game=game: site.app[STATE].storage.load_game(game)
                             .game.state is GameState.FINISHED)
    finally:
        await bob.close()
    await eventually(lambda: site.app[STATE].storage.pending_ratings() == [])
    assert site.app[STATE].rating_outbox.applied == 3  # all kept in the ledger...
    store, accounts = site.app[STATE].rating_store, site.app[STATE].accounts
    for name in ("Ada", "Bob"):  # ...and none moved either rating
        account = await accounts.holder_of(name)
        assert account is not None
        assert (await store.ratings_of(account.id)).get(Pool.TWO_PLAYER, INITIAL) == INITIAL


async def test_a_finished_rated_game_is_applied_to_the_ledger_once(site: Site) -> None:
    # the ledger applies the server's per-day pair limit (tests/accounts/test_ledger_store.py)
    outbox, settings = site.app[STATE].rating_outbox, site.app[STATE].settings
    assert outbox.pair_limit == settings.rated_games_per_pair_per_day == 5
    game, player = await resign_a_rated_game(site, "Ada")
    store, outbox = site.app[STATE].rating_store, site.app[STATE].rating_outbox
    account = await site.app[STATE].accounts.holder_of("Ada")
    assert account is not None

    rating = (await store.ratings_of(account.id))[Pool.TWO_PLAYER]
    assert rating.games == 1 and rating.mu < INITIAL.mu
    assert outbox.applied == 1
    assert await outbox.drain() is True  # again: nothing left to apply
    assert (await store.ratings_of(account.id))[Pool.TWO_PLAYER] == rating

    # her next rated table shows her rating beside her name, read as she sat down
    status, again = await post(site, "/api/v1/games", {"seats": 2, "rated": True})
    assert status == 201
    assert again["game"]["seats"][0]["rating"] == {"rating": rating.display,
                                                   "provisional": True}
    bob = await signed_in(site, "Bob")
    try:
        status, _ = await post_as(bob, site, f"/api/v1/games/{again['game']['id']}/join", {})
        assert status == 200
    finally:
        await bob.close()
    async with site.session.get(site.url("/api/v1/games?state=playing")) as response:
        listed = (await response.json())["games"]
    assert [seat.get("rating") for seat in listed[0]["seats"]] == [
        {"rating": rating.display, "provisional": True}, {"rating": 1500, "provisional": True}]
    status, unrated = await post(site, "/api/v1/games", {"seats": 2})
    assert status == 201 and "rating" not in unrated["game"]["seats"][0]

    # the player is told, once applied; the game's summary and her games say it later
    while not isinstance(told := await player.client.push(10), RatingChanged):
        pass
    change = SeatRatingChange(0, 1500, rating.display, True)
    assert told == RatingChanged(game, (change,))  # Big Money's seat never moves
    async with site.session.get(site.url(f"/api/v1/games/{game}")) as response:
        summary = await response.json()
    assert summary["ratings"] == {"changes": [write_fields(change)], "unrated": None}
    async with site.session.get(site.url("/api/v1/players/Ada/games")) as response:
        games = (await response.json())["games"]
    assert {listed["id"]: listed.get("rating_change") for listed in games} == {
        unrated["game"]["id"]: None, again["game"]["id"]: None, game: write_fields(change)}


async def test_a_rated_games_replay_says_its_ratings_and_accounts(site: Site) -> None:
    """docs/REPLAYS.md, "What analysts read": once the ledger has the game, its replay and
    export line say each seat's rating before and after, and the public account id."""
    game, _ = await resign_a_rated_game(site, "Ada")
    account = await site.app[STATE].accounts.holder_of("Ada")
    assert account is not None
    rating = (await site.app[STATE].rating_store.ratings_of(account.id))[Pool.TWO_PLAYER]
    async with site.session.get(site.url(f"/api/v1/games/{game}/replay")) as response:
        replay = await response.json()
    async with site.session.get(site.url("/api/v1/replays/export")) as response:
        exported = json.loads(await response.text())
    assert exported == replay
    check_replay(replay)
    assert replay["game"]["rated"] is True
    assert replay["game"]["time_control"] == {"initial_seconds": 600, "increment_seconds": 5}
    ada, bot = replay["players"]
    assert (ada["kind"], ada["account"]) == ("person", public_account_id(account.id))
    assert (ada["rating_before"], ada["rating_after"]) == (1500, rating.display)
    assert bot["kind"] == "bot" and bot["rating_before"] == bot["rating_after"]


async def test_the_leaderboard_and_a_players_ratings_over_rest(site: Site) -> None:
    game, _ = await resign_a_rated_game(site, "Ada", bot="random")

    async with site.session.get(site.url("/api/v1/ratings/2p")) as response:
        board = await response.json()
    assert response.status == 200 and board["total"] == 1 + len(bot_ratings(Pool.TWO_PLAYER))
    names = [row["name"] for row in board["players"]]
    assert set(names) == {"Ada", *bot_ratings(Pool.TWO_PLAYER)}
    assert [row["rank"] for row in board["players"]] == list(range(1, len(names) + 1))
    ada = next(row for row in board["players"] if row["name"] == "Ada")
    assert ada | {"rating": 0} == {"rank": ada["rank"], "name": "Ada", "rating": 0,
                                   "provisional": True, "games": 1, "bot": False,
                                   "in_server": False}
    assert next(row for row in board["players"] if row["name"] == "random")["games"] == 1
    async with site.session.get(site.url("/api/v1/ratings/2p?limit=1&offset=1")) as response:
        page = await response.json()
    assert page["players"] == board["players"][1:2] and page["players"][0]["rank"] == 2

    async with site.session.get(site.url("/api/v1/players/ada/ratings")) as response:
        mine = await response.json()
    two = mine["pools"]["2p"]
    assert mine["player"] == "Ada" and two["games"] == 1 and two["rating"] == ada["rating"]
    assert [(point["game"], point["record_lost"]) for point in two["history"]] == [
        (game, False)]
    assert two["bots"] == [{"bot": "random", "wins": 0, "losses": 1, "ties": 0}]
    assert mine["pools"]["3-6p"] == {"rating": 1500, "provisional": True, "games": 0,
                                     "history": [], "bots": []}

    # the node restored from an older copy lost the game: `ratings reconcile` marked it,
    # and the history says why its id answers 404 (docs/RATINGS.md, "After a restore")
    assert await site.app[STATE].rating_store.mark_records_lost([game], datetime.now(UTC)) == 1
    async with site.session.get(site.url("/api/v1/players/ada/ratings")) as response:
        marked = (await response.json())["pools"]["2p"]
    assert [(point["game"], point["record_lost"]) for point in marked["history"]] == [
        (game, True)]
    assert marked["rating"] == two["rating"] and marked["games"] == 1  # the rating kept


@pytest.mark.parametrize(("path", "status", "code"), [
    ("/api/v1/ratings/4p", 404, "not_found"),
    ("/api/v1/ratings/2p?limit=0", 400, "bad_paging"),
    ("/api/v1/ratings/2p?offset=-1", 400, "bad_paging"),
    ("/api/v1/players/nobody/ratings", 404, "unknown_player"),
])
async def test_bad_ratings_requests_are_refused(site: Site, path: str, status: int,
                                                code: str) -> None:
    async with site.session.get(site.url(path)) as response:
        body = await response.json()
    assert (response.status, body["error"]["code"]) == (status, code)
