"""Every per-address limit counts by network prefix, through a real server: addresses of
one IPv6 /64 (forwarded by a trusted proxy) share a budget, as do 127.0.0.1 and
127.0.0.2 with --ipv4-prefix 24 (their budgets and their WebSockets); many addresses
together cannot spend more work than the server-wide allowance; the server holds at
most --open-tables open tables."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from dominion.protocol import SUBPROTOCOLS
from dominion.server.settings import Settings
from tests.eventually import eventually

from .restapi import Api, check_response
from .test_rest import MakeApi, db, make_api

__all__ = ["db", "make_api"]


class From:
    """Requests to the test server from one loopback source address, each checked
    against the OpenAPI document."""

    def __init__(self, api: Api, source: str) -> None:
        self.api = api
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(source, 0)))

    async def call(self, method: str, path: str, expect: int, **kwargs: Any) -> Any:
        async with self.session.request(method, self.api.client.make_url(path),
                                        **kwargs) as response:
            text = await response.text()
            assert response.status == expect, (method, path, response.status, text[:300])
            return check_response(self.api.document, method, path, response.status,
                                  response.content_type, text)


@pytest.fixture
async def sources() -> AsyncIterator[list[From]]:
    made: list[From] = []
    yield made
    for source in made:
        await source.session.close()


TABLE = {"name": "Ann", "seats": 2}


@pytest.mark.parametrize(("prefix", "second"), [(32, 201), (24, 429)])
async def test_two_ipv4_addresses_share_a_budget_in_one_prefix(
        make_api: MakeApi, sources: list[From], prefix: int, second: int) -> None:
    api = await make_api(games_per_hour=1, ipv4_prefix=prefix)
    one, two = From(api, "127.0.0.1"), From(api, "127.0.0.2")
    sources += [one, two]
    await one.call("POST", "/api/v1/games", 201, json=TABLE)
    refused = await two.call("POST", "/api/v1/games", second, json=TABLE)
    if second == 429:
        assert refused["error"]["code"] == "rate_limited"
        assert len(api.state.lobby.rooms) == 1


async def test_two_ipv6_addresses_share_a_budget_in_one_64(make_api: MakeApi) -> None:
    api = await make_api(games_per_hour=1, trusted_proxies=("127.0.0.1",))

    def forwarded(address: str) -> dict[str, Any]:
        return {"headers": {"X-Forwarded-For": address}, "json": TABLE}

    await api.call("POST", "/api/v1/games", 201, **forwarded("2001:db8:5:6::1"))
    refused = await api.error("POST", "/api/v1/games", 429, "rate_limited",
                              **forwarded("2001:db8:5:6:a:b:c:d"))
    assert refused["retry_after_ms"] > 0
    await api.call("POST", "/api/v1/games", 201, **forwarded("2001:db8:5:7::1"))
    # the IPv4-mapped form of an IPv4 address is that address
    await api.call("POST", "/api/v1/games", 201, **forwarded("203.0.113.9"))
    await api.error("POST", "/api/v1/games", 429, "rate_limited",
                    **forwarded("::ffff:203.0.113.9"))


async def test_many_addresses_together_cannot_spend_more_than_the_server_allows(
        make_api: MakeApi, sources: list[From]) -> None:
    # each address could download the replay (~10 events of work) a thousand times; the
    # server allows 100 events of work in all (and refills by one a second)
    api = await make_api(work_burst=10_000, server_work_burst=100,
                         server_work_per_second=1)
    game = (await api.create(name="Ann", seats=2, bots={"1": "big_money"}))["game"]["id"]
    room, replay = api.state.lobby.rooms[game], f"/api/v1/games/{game}/replay"
    # the bot plays its turn first, if it has the first: then the game waits for Ann
    await eventually(lambda: room.game is not None and room.game.pending is not None
                     and room.game.pending.player == 0)
    paid = 0
    for n in range(2, 40):
        source = From(api, f"127.0.0.{n}")
        sources.append(source)
        cost = room.replay_work()
        if paid + cost > 100:
            refused = await source.call("GET", replay, 429)
            assert refused["error"]["code"] == "rate_limited"
            assert refused["error"]["retry_after_ms"] > 1000
            break
        await source.call("GET", replay, 200)
        paid += cost
    else:
        raise AssertionError("the addresses together were never refused")
    assert n > 3  # several addresses were served, each within its own allowance


async def test_the_server_holds_at_most_its_open_tables(make_api: MakeApi) -> None:
    api = await make_api(open_tables=2)
    await api.create(name="Ann", seats=2, bots={"1": "big_money"})  # starts: not open
    await api.create(**TABLE)
    await api.create(**TABLE)
    await api.error("POST", "/api/v1/games", 429, "too_many_games", json=TABLE)
    assert len(api.state.lobby.rooms) == 3


def test_prefix_lengths_are_checked() -> None:
    assert Settings(ipv4_prefix=0).problem() is not None
    assert Settings(ipv6_prefix=129).problem() is not None
    assert Settings(ipv4_prefix=24, ipv6_prefix=48).problem() is None


@pytest.mark.parametrize(("prefix", "second"), [(32, 101), (24, 429)])
async def test_two_ipv4_addresses_share_the_websockets_of_one_prefix(
        make_api: MakeApi, sources: list[From], prefix: int, second: int) -> None:
    api = await make_api(connections_per_address=1, ipv4_prefix=prefix)
    one, two = From(api, "127.0.0.1"), From(api, "127.0.0.2")
    sources += [one, two]
    url = api.client.make_url("/api/v1/ws")
    async with one.session.ws_connect(url, protocols=(SUBPROTOCOLS[0],)):
        if second == 101:
            async with two.session.ws_connect(url, protocols=(SUBPROTOCOLS[0],)):
                pass
        else:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await two.session.ws_connect(url, protocols=(SUBPROTOCOLS[0],))
            assert refused.value.status == 429
