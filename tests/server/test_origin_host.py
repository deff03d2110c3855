"""Which names and pages the server answers to, over real sockets
(server/edge/transport/origins.py): on a loopback address only loopback names and the
public_url's host (DNS rebinding is refused on every route), and a browser's WebSocket
only from a bare Origin naming public_url, the address it connected to, or an allowed
Origin."""

from __future__ import annotations

from typing import Any
from unittest import mock

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from dominion.protocol import SUBPROTOCOL, Hello, Welcome
from dominion.server.edge.state import STATE, ServerState
from dominion.server.edge.transport.origins import host_allowed, origin_allowed
from dominion.server.settings import Settings

from .wsclient import TestClient
from .wsplay import ServerFactory, Site, ws_server

__all__ = ["ws_server"]


async def upgrade(site: Site, headers: dict[str, str]) -> int:
    """The status of a WebSocket upgrade with these headers (101 when it is accepted and
    the connection then speaks the protocol)."""
    try:
        ws = await site.session.ws_connect(site.ws_url, protocols=(SUBPROTOCOL,),
                                           headers=headers)
    except aiohttp.WSServerHandshakeError as refused:
        return refused.status
    client = TestClient(ws)
    assert isinstance(await client.request(Hello, versions=[2]), Welcome)
    await client.close()
    return 101


def port_of(site: Site) -> int:
    port = site.server.port
    assert port is not None
    return port


async def test_a_dns_rebinding_page_is_refused_on_every_route(ws_server: ServerFactory) -> None:
    """The rebinding page's Origin and Host both name its own site: equal, and foreign."""
    site = await ws_server()
    port = port_of(site)
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}"):
        rebinding = {"Host": host, "Origin": f"http://{host}"}
        assert await upgrade(site, rebinding) == 421, host
        for path in ("/api/v1/server", "/api/v1/games", "/", "/healthz", "/metrics",
                     "/nothing/here"):
            response = await site.session.get(site.url(path), headers={"Host": host})
            assert response.status == 421, (host, path)
            body = await response.json()
            assert body["error"]["code"] == "unknown_host", body
            assert "evil" not in body["error"]["message"]  # the header is not echoed
        created = await site.session.post(site.url("/api/v1/games"), headers={"Host": host},
                                          json={"name": "Ann", "seats": 2})
        assert created.status == 421
    assert site.app_state().lobby.rooms == {}  # the refused creation changed nothing


async def test_loopback_names_are_one_name(ws_server: ServerFactory) -> None:
    site = await ws_server()
    port = port_of(site)
    for host in (f"localhost:{port}", "LOCALHOST", f"127.0.0.1:{port}", "127.0.0.2",
                 f"[::1]:{port}"):
        response = await site.session.get(site.url("/api/v1/server"), headers={"Host": host})
        assert response.status == 200, host
    for origin in (f"http://localhost:{port}", f"http://127.0.0.1:{port}",
                   f"http://[::1]:{port}", f"http://LocalHost:{port}"):
        assert await upgrade(site, {"Origin": origin}) == 101, origin


async def test_an_origin_must_be_bare_and_name_this_server(ws_server: ServerFactory) -> None:
    site = await ws_server(allowed_origins=("https://play.example",))
    port = port_of(site)
    for origin in (f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port}/lobby",
                   f"http://127.0.0.1:{port}?x", f"http://127.0.0.1:{port}#x",
                   f"http://me@127.0.0.1:{port}", "https://play.example/",
                   "https://play.example/page", f"http://127.0.0.1:{port + 1}",
                   f"http://10.0.0.1:{port}", "https://play.example:444",
                   "http://play.example", "null", f"ws://127.0.0.1:{port}",
                   f"http://127.0.0.1:{port}\\", f"http://127.0.0.1:{port}, evil.example"):
        assert await upgrade(site, {"Origin": origin}) == 403, origin
    for origin in (f"http://127.0.0.1:{port}", "https://play.example",
                   "https://play.example:443", "HTTPS://Play.Example"):
        assert await upgrade(site, {"Origin": origin}) == 101, origin
    assert await upgrade(site, {}) == 101  # no Origin: not a browser


async def test_behind_a_proxy_the_public_name_and_origin_are_the_servers(
        ws_server: ServerFactory) -> None:
    """nginx passes its own Host on (without a port) and the page's Origin is public_url."""
    site = await ws_server(public_url="https://play.example")
    public = {"Host": "play.example", "Origin": "https://play.example"}
    assert await upgrade(site, public) == 101
    assert await upgrade(site, {"Host": "play.example"}) == 101
    assert await upgrade(site, {"Host": "play.example",
                                "Origin": "https://evil.example"}) == 403
    assert await upgrade(site, {"Host": "play.example",
                                "Origin": "http://play.example"}) == 403  # not https
    response = await site.session.get(site.url("/api/v1/server"),
                                      headers={"Host": "play.example"})
    assert response.status == 200
    assert (await site.session.get(site.url("/api/v1/server"),
                                   headers={"Host": "evil.example"})).status == 421


def request_on(local: tuple[str, int], headers: dict[str, str], **settings: Any
               ) -> web.Request:
    """A request that arrived on the address `local` (a socket's name)."""
    app = web.Application()
    app[STATE] = ServerState(Settings(**settings))
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: {
        "sockname": local, "peername": ("192.0.2.99", 5555)}.get(name, default)
    return make_mocked_request("GET", "/api/v1/ws", headers=headers, app=app,
                               transport=transport)


@pytest.mark.parametrize(("local", "headers", "host_ok", "origin_ok"), [
    # on an address that is not loopback any Host is allowed (no rebinding to a
    # victim's own machine), and the Origin is that address, public_url or allowed ones
    (("192.0.2.5", 8080), {"Host": "evil.example", "Origin": "http://evil.example"},
     True, False),
    (("192.0.2.5", 8080), {"Host": "192.0.2.5:8080", "Origin": "http://192.0.2.5:8080"},
     True, True),
    (("192.0.2.5", 8080), {"Origin": "http://localhost:8080"}, True, False),
    (("::ffff:192.0.2.5", 8080), {"Origin": "http://192.0.2.5:8080"}, True, True),
    (("2001:db8::5", 8080, 0, 0), {"Origin": "http://[2001:DB8::5]:8080"}, True, True),
    (("::1", 8080, 0, 0), {"Host": "[::1]:8080", "Origin": "http://localhost:8080"},
     True, True),
    (("127.0.0.1", 8080), {"Host": "[::1"}, False, True),  # not a host at all
    (("127.0.0.1", 8080), {"Host": "localhost:99999"}, False, True),
])
def test_the_rules_on_other_addresses(local: tuple[str, int], headers: dict[str, str],
                                      host_ok: bool, origin_ok: bool) -> None:
    request = request_on(local, headers)
    assert host_allowed(request) is host_ok
    assert origin_allowed(request) is origin_ok


def test_any_origin_allowed_is_still_a_bare_one() -> None:
    anywhere = {"allowed_origins": ("*",)}
    assert origin_allowed(request_on(("127.0.0.1", 1), {"Origin": "https://a.example"},
                                     **anywhere))
    assert not origin_allowed(request_on(("127.0.0.1", 1), {"Origin": "null"}, **anywhere))
