"""Finding 11, decided: unmasked client frames are accepted (RFC 6455 says a server MUST
close; masking only protects proxies from browser scripts, which always mask), and a
connection whose peer has vanished is closed by the idle timeout. docs/SERVER.md,
"Threat model", gives the reasons; these tests pin the behaviour down."""

from __future__ import annotations

import asyncio

from dominion.protocol import Ack, Hello, Ping, Welcome, decode_server, encode_client
from tests.server.wsplay import ServerFactory, ws_server

from .rawws import BINARY, RawSocket

__all__ = ["ws_server"]


async def test_unmasked_client_frames_are_read_like_masked_ones(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    client = await RawSocket.open(site.url(""))
    client.send(encode_client(Hello(id=1, versions=[2], client="unmasked")), mask=False)
    opcode, payload = await client.read()
    assert opcode == BINARY and isinstance(decode_server(payload), Welcome)
    client.send(encode_client(Ping(id=2)), mask=False)
    client.send(encode_client(Ping(id=3)), mask=True)  # either kind, in any order
    assert [await client.message() for _ in range(2)] == [Ack(id=2, seat=None, cards=None),
                                                          Ack(id=3, seat=None, cards=None)]
    client.close()


async def test_a_peer_that_vanished_is_let_go_after_the_idle_timeout(
        ws_server: ServerFactory) -> None:
    site = await ws_server(idle_timeout_seconds=1, heartbeat_seconds=1)
    state = site.app_state()
    # says hello, then neither reads nor writes (nor answers pings): from the server's
    # side, what a peer that vanished without a FIN or a reset looks like
    vanished = await RawSocket.open(site.url(""), receive_buffer=4096)
    await vanished.hello()
    assert len(state.connections) == 1

    async def released() -> None:
        while state.connections:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(released(), 10)  # 1 s idle, the sweep, the close timeout
    closes = state.metrics.disconnects.labels(code="4005")
    assert closes._value.get() == 1  # type: ignore[attr-defined]
    vanished.close()
