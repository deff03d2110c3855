"""The client's address: X-Forwarded-For is believed only from trusted proxies, and only
its hops that are IP addresses (any other hop is skipped)."""

from __future__ import annotations

from unittest import mock

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from dominion.server.edge.state import STATE, ServerState
from dominion.server.edge.transport.addresses import client_address
from dominion.server.settings import Settings

from .wsplay import ServerFactory, ws_server

__all__ = ["ws_server"]


def address(remote: str, forwarded: str | None, trusted: tuple[str, ...]) -> str:
    app = web.Application()
    app[STATE] = ServerState(Settings(trusted_proxies=trusted))
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    transport = mock.Mock()
    transport.get_extra_info.return_value = (remote, 1234)
    request = make_mocked_request("GET", "/", headers=headers, app=app, transport=transport)
    return client_address(request)


@pytest.mark.parametrize(("remote", "forwarded", "trusted", "expected"), [
    ("203.0.113.9", None, (), "203.0.113.9"),
    ("203.0.113.9", "198.51.100.7", (), "203.0.113.9"),  # nobody trusted: header ignored
    ("127.0.0.1", "198.51.100.7", ("127.0.0.1",), "198.51.100.7"),
    ("10.1.2.3", "198.51.100.7", ("10.0.0.0/8",), "198.51.100.7"),  # a trusted network
    ("10.1.2.3", "198.51.100.7", ("192.168.0.0/16",), "10.1.2.3"),
    # a client's own forged hop before the real one is skipped: the last untrusted hop wins
    ("127.0.0.1", "6.6.6.6, 198.51.100.7", ("127.0.0.1",), "198.51.100.7"),
    ("127.0.0.1", "198.51.100.7, 10.0.0.5", ("127.0.0.1", "10.0.0.0/8"), "198.51.100.7"),
    # hops that are not IP addresses are skipped, one with a port too; the rest is walked
    ("127.0.0.1", "<script>", ("127.0.0.1",), "127.0.0.1"),
    ("127.0.0.1", "198.51.100.7, 1.2.3.4:80", ("127.0.0.1",), "198.51.100.7"),
    ("127.0.0.1", "[::1]:80, unknown", ("127.0.0.1",), "127.0.0.1"),
    ("127.0.0.1", "10.0.0.5, _hidden", ("127.0.0.1", "10.0.0.0/8"), "127.0.0.1"),
    # an address is written one way, whichever way the header wrote it
    ("127.0.0.1", "2001:DB8:0:0::7", ("127.0.0.1",), "2001:db8::7"),
])
def test_client_address(remote: str, forwarded: str | None, trusted: tuple[str, ...],
                        expected: str) -> None:
    assert address(remote, forwarded, trusted) == expected


GARBAGE_HOPS = ["<script>alert(1)</script>", "a" * 4096, "1.2.3.4:80", "[::1]:80",
                "1.2.3.4.5", "::ffff:1.2.3.4%", "unknown"]


async def create_from(session: aiohttp.ClientSession, url: str,
                      forwarded: str | None) -> int:
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
    async with session.post(url, json={"name": "Ann", "seats": 2},
                            headers=headers) as response:
        return response.status


@pytest.mark.parametrize("hop", GARBAGE_HOPS,
                         ids=lambda hop: hop if len(hop) < 40 else f"{len(hop)} characters")
async def test_a_hop_that_is_no_address_is_not_a_client(ws_server: ServerFactory,
                                                         hop: str) -> None:
    """Through a real trusted proxy's socket (the test's own, on 127.0.0.1): a table made
    claiming a garbage hop counts against 127.0.0.1, as if the header said nothing."""
    site = await ws_server(trusted_proxies=("127.0.0.1",), games_per_address=1)
    url = site.url("/api/v1/games")
    assert await create_from(site.session, url, hop) == 201
    assert await create_from(site.session, url, None) == 429
    assert await create_from(site.session, url, f"{hop}, 198.51.100.7") == 201


async def test_one_address_written_two_ways_is_one_client(ws_server: ServerFactory) -> None:
    site = await ws_server(trusted_proxies=("127.0.0.1",), games_per_address=1)
    url = site.url("/api/v1/games")
    assert await create_from(site.session, url, "2001:DB8::7") == 201
    assert await create_from(site.session, url, "2001:db8:0:0:0:0:0:7") == 429
