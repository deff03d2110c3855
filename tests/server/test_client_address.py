"""The client's address: X-Forwarded-For is believed only from trusted proxies."""

from __future__ import annotations

from unittest import mock

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from dominion.server.edge.addresses import client_address
from dominion.server.edge.state import SETTINGS
from dominion.server.settings import Settings


def address(remote: str, forwarded: str | None, trusted: tuple[str, ...]) -> str:
    app = web.Application()
    app[SETTINGS] = Settings(trusted_proxies=trusted)
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
])
def test_client_address(remote: str, forwarded: str | None, trusted: tuple[str, ...],
                        expected: str) -> None:
    assert address(remote, forwarded, trusted) == expected
