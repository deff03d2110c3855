"""Ratings under attack, through a real socket: pools and names that are none, paging out
of range, `rated` that is not a boolean, a guest at a rated table, and a flood of
leaderboard look-ups from one address. Each is a typed answer, checked against the
OpenAPI document, and changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from dominion.server.edge.api.players_api import LOOKUPS_PER_MINUTE
from dominion.server.edge.app import create_app
from dominion.server.settings import Settings
from tests.server.restapi import Api, case

CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"


@pytest.fixture
async def api(aiohttp_client: Any, tmp_path: Path) -> Api:
    return Api(await aiohttp_client(create_app(Settings(db=str(tmp_path / "games.sqlite3"),
                                                        **CHEAP))))


# each test's cases on one app (an app a case cost more than all their requests)
NO_POOLS = ("2P", "4p", "%00", "2p%00", "x" * 5000, "3-6p%20", "..%2F2p")
BAD_PAGING = ("limit=0", "limit=101", "limit=x", "offset=-1", "offset=99999999999999",
              "limit=1e3", "limit=")
NO_ACCOUNTS = ("x" * 81, "%00", "Ada%0A", "admin", "big_money")
NOT_BOOLEANS: tuple[object, ...] = (1, 0, "true", None, [], {})


async def test_a_pool_that_is_none_is_not_found(api: Api) -> None:
    for pool in NO_POOLS:
        with case(pool[:20]):
            error = await api.error("GET", f"/api/v1/ratings/{pool}", 404, "not_found")
            assert error["message"].endswith(": 2p, 3-6p")  # the route's answer: its pools


async def test_paging_out_of_range_is_refused(api: Api) -> None:
    for query in BAD_PAGING:
        with case(query):
            await api.error("GET", f"/api/v1/ratings/2p?{query}", 400, "bad_paging")


async def test_a_name_that_is_no_accounts_has_no_ratings(api: Api) -> None:
    for name in NO_ACCOUNTS:
        with case(name[:20]):
            await api.error("GET", f"/api/v1/players/{name}/ratings", 404, "unknown_player")


async def test_an_empty_server_lists_its_bots_alone(api: Api) -> None:
    board = await api.call("GET", "/api/v1/ratings/3-6p", 200)
    assert {row["in_server"] for row in board["players"]} == {True}
    assert board["total"] == len(board["players"])


async def test_rated_is_a_boolean_or_nothing_is_made(api: Api) -> None:
    for rated in NOT_BOOLEANS:
        with case(repr(rated)):
            await api.error("POST", "/api/v1/games", 400, "bad_option",
                            json={"name": "Gus", "seats": 2, "rated": rated})
            assert (await api.listing())["total"] == 0


async def test_a_guest_cannot_take_a_seat_at_a_rated_table(api: Api) -> None:
    await api.error("POST", "/api/v1/games", 403, "rated_needs_account",
                    json={"name": "Gus", "seats": 2, "rated": True})
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": "Ada", "password": PASSWORD})
    created = await api.create(seats=3, rated=True)
    await api.call("POST", "/api/v1/account/sign-out", 200)
    game = created["game"]["id"]
    for name in ("Gus", "Ada"):  # a guest, even with the creator's name
        await api.error("POST", f"/api/v1/games/{game}/join", 403, "rated_needs_account",
                        json={"name": name})
    seats = (await api.game(game))["seats"]
    assert [seat["name"] for seat in seats] == ["Ada", None, None]


async def test_a_flood_of_leaderboard_look_ups_from_one_address_is_refused(api: Api) -> None:
    since = asyncio.get_running_loop().time()
    for _ in range(LOOKUPS_PER_MINUTE):
        await api.call("GET", "/api/v1/ratings/2p", 200)
    error = await api.rate_limited(LOOKUPS_PER_MINUTE, since, "GET", "/api/v1/ratings/2p")
    assert error["retry_after_ms"] > 0
