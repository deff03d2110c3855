"""Profiles under attack, through a real socket: names that are no account's (too long,
control characters, broken escapes, paths, look-alikes of a deleted one), filters that
try to widen a profile to other players' games, and a flood of look-ups from one
address. Each is a typed answer and says nothing private."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from dominion.server.edge.api.players_api import LOOKUPS_PER_MINUTE
from dominion.server.edge.app import create_app
from dominion.server.settings import Settings
from tests.server.restapi import Api

CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"


@pytest.fixture
async def api(aiohttp_client: Any, tmp_path: Path) -> Api:
    return Api(await aiohttp_client(create_app(Settings(db=str(tmp_path / "games.sqlite3"),
                                                        **CHEAP))))


@pytest.mark.parametrize("name", [
    "x" * 81, "x" * 5000, "%00", "Ada%0A", "%E0%A4%A", "admin", "a", "%20",
    "%F0%9F%98%80", "Ada%00"])
async def test_a_name_that_is_no_accounts_is_unknown(api: Api, name: str) -> None:
    await api.error("GET", f"/api/v1/players/{name}", 404, "unknown_player")
    await api.error("GET", f"/api/v1/players/{name}/games", 404, "unknown_player")


async def test_a_look_alike_finds_the_account_and_its_facts_only(api: Api) -> None:
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": "Ada", "password": PASSWORD})
    body = await api.call("GET", "/api/v1/players/%D0%90da", 200)  # a Cyrillic capital A
    assert body == {"player": {"name": "Ada", "created_at": body["player"]["created_at"]}}
    assert PASSWORD not in str(body)


async def test_query_filters_cannot_widen_a_profile(api: Api) -> None:
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": "Ada", "password": PASSWORD})
    await api.call("POST", "/api/v1/account/sign-out", 200)
    await api.create(name="Guest", seats=2, bots={"1": "big_money"})
    for query in ("?account=Guest", "?player=Guest", "?account=&player=", "?account=Ada&x=1"):
        assert (await api.call("GET", f"/api/v1/players/Ada/games{query}", 200))["total"] == 0
    await api.error("GET", "/api/v1/players/Ada/games?players=7", 400, "bad_filter")
    await api.error("GET", "/api/v1/players/Ada/games?offset=-1", 400, "bad_paging")


async def test_a_flood_of_look_ups_from_one_address_is_refused(api: Api) -> None:
    since = asyncio.get_running_loop().time()
    for _ in range(LOOKUPS_PER_MINUTE):
        await api.error("GET", "/api/v1/players/Nobody", 404, "unknown_player")
    error = await api.rate_limited(LOOKUPS_PER_MINUTE, since, "GET", "/api/v1/players/Nobody/games")
    assert error["retry_after_ms"] > 0
