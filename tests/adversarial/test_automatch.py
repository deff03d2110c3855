"""Automatch under attack, through a real socket: a flood of queue look-ups from one
address, other methods on its path, and seeks past the address's allowance of games.
Each is a typed answer and changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from dominion.protocol import Ack, Seek, SeekCancel
from dominion.server.edge.api.automatch_api import LOOKUPS_PER_MINUTE
from dominion.server.edge.app import create_app
from dominion.server.settings import Settings
from tests.server.restapi import Api
from tests.server.wsplay import ServerFactory, expect_error, ws_server

__all__ = ["ws_server"]


@pytest.fixture
async def api(aiohttp_client: Any, tmp_path: Path) -> Api:
    return Api(await aiohttp_client(create_app(Settings(db=str(tmp_path / "games.sqlite3")))))


async def test_a_flood_of_queue_look_ups_from_one_address_is_refused(api: Api) -> None:
    since = asyncio.get_running_loop().time()
    for _ in range(LOOKUPS_PER_MINUTE):
        body = await api.call("GET", "/api/v1/automatch?waiting=999&x=%00", 200)
        assert body == {"waiting": {}, "median_wait_seconds": 0.0}
    error = await api.rate_limited(LOOKUPS_PER_MINUTE, since, "GET", "/api/v1/automatch")
    assert error["retry_after_ms"] > 0


async def test_other_methods_on_the_queue_are_refused(api: Api) -> None:
    for method in ("POST", "PUT", "DELETE"):
        await api.error(method, "/api/v1/automatch", 405, "method_not_allowed")


async def test_seeks_past_the_addresss_allowance_of_games_are_refused(
        ws_server: ServerFactory) -> None:
    site = await ws_server(games_per_hour=3)
    client = await site.connect()
    for _ in range(3):
        assert isinstance(await client.request(Seek, sizes=(2,), edition=2, rated=False,
                                               name="Ann"), Ack)
        assert isinstance(await client.request(SeekCancel), Ack)
    refused = await expect_error(client, Seek, "rate_limited", sizes=(2,), edition=2,
                                 rated=False, name="Ann")
    assert refused.retry_after_ms is not None
    await expect_error(client, SeekCancel, "not_seeking")
