"""Finding 4: what waits for slow readers is bounded in bytes, per connection and for the
server as a whole; a reader that lets too much wait is closed (4004); nothing stays."""

from __future__ import annotations

import asyncio

from dominion.protocol import Catalogue, encode_client
from dominion.server.edge.transport.outbox import WRITE_NOW_BYTES
from tests.server.wsplay import Player, ServerFactory, ws_server

from .rawws import RawSocket

__all__ = ["ws_server"]

SLOW = 8
REQUESTS = 600
"""Fewer frames than the outbound queue's frame bound (1,024), ~4 MB of catalogues."""


async def test_readers_that_let_bytes_pile_up_are_closed_and_their_bytes_freed(
        ws_server: ServerFactory) -> None:
    # the slow readers pipeline their requests: a rate limit high enough that the bytes
    # waiting for them, not their frame rate, is what closes them
    site = await ws_server(outbound_bytes=256 * 1024, outbound_total_bytes=1024 * 1024,
                           messages_per_second=100_000, burst=100_000)
    state = site.app_state()
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token)
    slow = [await RawSocket.open(site.url(""), receive_buffer=4096) for _ in range(SLOW)]
    for client in slow:
        await client.hello()
    peak = 0

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, state.waiting.bytes)
            await asyncio.sleep(0.001)

    sampler = asyncio.ensure_future(sample())
    for request_id in range(2, REQUESTS + 2):
        for client in slow:  # each asks for the catalogue and never reads
            client.send(encode_client(Catalogue(id=request_id)))
        if request_id % 20 == 0:
            await asyncio.sleep(0)
    result = await asyncio.wait_for(ann.play(), 30)  # the game goes on meanwhile
    disconnects = state.metrics.disconnects.labels(code="4004")
    while disconnects._value.get() < SLOW:  # type: ignore[attr-defined]
        await asyncio.sleep(0.01)
    sampler.cancel()
    assert result is not None
    # the bound held, give or take what a reading connection may hold in one loop turn
    assert peak <= 1024 * 1024 + SLOW * (WRITE_NOW_BYTES + 8 * 1024)
    for client in slow:
        client.close()
    while len(state.connections) > 1:
        await asyncio.sleep(0.01)
    assert state.waiting.bytes == 0  # nothing left behind
