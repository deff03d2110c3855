"""Limits over real WebSockets: rate, slow readers, idle timeout and heartbeat, the
Origin allow-list and connections per address. Other games always go on."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest

from dominion.protocol import (
    SUBPROTOCOL,
    Ack,
    Catalogue,
    Error,
    Hello,
    Ping,
    Pong,
    Watch,
    Welcome,
    decode_server,
    encode_client,
)
from dominion.server.settings import Settings
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .wsclient import TestClient
from .wsplay import Player, ServerFactory, close_code_sent, watched, ws_server

__all__ = ["ws_server"]


async def test_flood_is_rate_limited_then_closed_while_a_game_goes_on(
        ws_server: ServerFactory) -> None:
    # Ann answers one frame per round trip, well under 1,000 a second even at full speed;
    # the flooder sends 3,000 frames as fast as it can, far over a burst of 40
    # (a large outbox: the flooder reads nothing until it is done, and must be closed for
    # its rate, not for its reading)
    site = await ws_server(messages_per_second=1000, burst=40, outbound_queue=100_000)
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token)
    flooder = await site.connect()  # its hello took one token
    assert isinstance(await flooder.request(Watch, game=game), Ack)
    sent = list(range(100, 3100))

    async def flood() -> None:
        for request_id in sent:
            if flooder.ws.closed:
                return
            try:
                await flooder.ws.send_bytes(encode_client(Ping(id=request_id)))
            except ConnectionError:
                return  # the server has closed it

    result, _ = await asyncio.gather(asyncio.wait_for(ann.play(), 60), flood())
    assert result is not None
    acks, limited = [], []
    while True:
        message = await flooder.ws.receive(timeout=10)
        if message.type is not aiohttp.WSMsgType.BINARY:
            assert message.type is aiohttp.WSMsgType.CLOSE and message.data == 4003, message
            break
        reply = decode_server(message.data)
        if isinstance(reply, Ack):
            acks.append(reply.id)
        elif isinstance(reply, Error):
            assert reply.code == "rate_limited", reply
            # told when a token is back: at 1,000 a second, within a millisecond or two
            assert reply.retry_after_ms is not None and 1 <= reply.retry_after_ms <= 2, reply
            limited.append(reply.id)
    assert 30 <= len(acks) < len(sent) // 2  # the burst and the refill, not the flood
    # a burst's worth of refusals, then the close: frames that refilled tokens let through
    # in between do not start the count again (the flooder never waits for an answer)
    assert len(limited) == 40  # the 41st closes instead
    assert set(acks).isdisjoint(limited) and set(acks) | set(limited) <= set(sent)
    assert limited == sorted(limited) and acks == sorted(acks)
    assert site.room(game).state == "finished"
    # the rate limit is per connection: a new one starts afresh
    again = await site.connect()
    assert isinstance(await again.request(Ping), Ack)


async def test_a_client_that_waits_for_each_answer_is_never_limited_whatever_its_speed(
        ws_server: ServerFactory) -> None:
    """With the default limits: 2,000 requests one after another, as fast as loopback
    goes (far over `messages_per_second`), and not one is refused."""
    defaults = Settings()
    site = await ws_server(messages_per_second=defaults.messages_per_second,
                           burst=defaults.burst)
    client = await site.connect()
    replies = [await client.request(Ping) for _ in range(2000)]
    assert all(isinstance(reply, Ack) for reply in replies), {
        reply.code for reply in replies if isinstance(reply, Error)}


async def test_slow_reader_is_closed_4004_and_the_game_goes_on(
        ws_server: ServerFactory) -> None:
    # it sends without waiting for answers: a rate limit high enough that the queue, not
    # the rate, is what closes it
    site = await ws_server(outbound_queue=32, messages_per_second=100_000, burst=100_000)
    game, token = await site.create(seats=2, bots={1: "random"})
    slow = await site.connect()
    # a smallish receive buffer (not tiny: that makes loopback TCP crawl), and it never
    # reads: the server's writes back up and its bounded queue fills
    sock = slow.ws._response.connection.transport.get_extra_info("socket")  # type: ignore
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    await slow.ws.send_bytes(encode_client(Watch(id=2, game=game)))
    ann = await Player.join(site, game, token, "random")
    spectator = await Player.watch(site, game)

    disconnects = site.app_state().metrics.disconnects.labels(code="4004")

    async def stall_then_read() -> int:
        # requests whose acks are large, sent without reading: their answers pile up
        # unread until the server gives up on this reader
        for request_id in range(10, 3000):
            if disconnects._value.get():  # type: ignore[attr-defined]
                break
            await slow.ws.send_bytes(encode_client(Catalogue(id=request_id)))
            await asyncio.sleep(0.001 if request_id % 2 else 0)
        else:
            raise AssertionError("3,000 unread answers and still not closed")
        # then it comes back, as a stalled client does, and finds the close code after
        # what was written before it. (A client that still sends, or reads again only
        # after the server's close timeout, may find a reset instead: the server stops
        # reading a connection it has given up on, and the kernel resets a socket closed
        # with unread input.)
        return await close_code_sent(slow)

    results = await asyncio.wait_for(
        asyncio.gather(ann.play(), spectator.play(), stall_then_read()), 40)
    assert results[0] is not None and results[0] == results[1]
    assert results[2] == 4004
    assert site.room(game).state == "finished"
    assert disconnects._value.get() == 1  # type: ignore[attr-defined]


async def test_idle_timeout_and_heartbeat(ws_server: ServerFactory) -> None:
    """On a virtual clock; in real time, with a peer that vanished:
    tests/adversarial/test_transport.py."""
    clock = VirtualClock()
    heartbeat, idle = 20, 50  # two heartbeats, then the idle deadline
    site = await ws_server(clock=clock, heartbeat_seconds=heartbeat, idle_timeout_seconds=idle)
    state = site.app_state()
    # a client that answers WebSocket pings (as libraries do) but sends nothing itself
    alive = await site.connect()
    # a client that neither answers pings nor sends
    ws = await site.session.ws_connect(site.ws_url, protocols=(SUBPROTOCOL,), autoping=False)
    silent = TestClient(ws)
    assert isinstance(await silent.request(Hello, versions=[1]), Welcome)
    for beat in (1, 2):
        await watched(site, clock, heartbeat)
        # read after the WebSocket ping that came first, which aiohttp answered
        assert isinstance(await alive.receive(), Pong)
        # the server has read that answer: input, as far as the idle deadline goes
        await eventually(lambda at=beat * heartbeat: any(
            connection._last_input == at for connection in state.connections))
    await watched(site, clock, idle - 2 * heartbeat)
    assert await close_code_sent(silent) == 4005
    assert isinstance(await alive.request(Ping), Ack)  # still open after the idle timeout


async def test_origin_allow_list(ws_server: ServerFactory) -> None:
    site = await ws_server(allowed_origins=("https://play.example",))
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await site.session.ws_connect(site.ws_url, protocols=(SUBPROTOCOL,),
                                      headers={"Origin": "https://evil.example"})
    assert refused.value.status == 403
    for headers in ({"Origin": "https://play.example"}, {}):
        ws = await site.session.ws_connect(site.ws_url, protocols=(SUBPROTOCOL,),
                                           headers=headers)
        client = TestClient(ws)
        assert isinstance(await client.request(Hello, versions=[1]), Welcome)
        await client.close()


async def test_connections_per_address(ws_server: ServerFactory) -> None:
    site = await ws_server(connections_per_address=2)
    first = await site.connect()
    second = await site.connect()  # kept: a dropped client object closes its socket
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await site.connect()
    assert refused.value.status == 429
    await first.close()
    await second.close()
    # the server notices the close
    await eventually(lambda: sum(site.app_state().per_address.values()) < 2)
    third = await site.connect()
    assert isinstance(await third.request(Ping), Ack)
