"""The outbox on its own, on a transport that records its writes: framing, one write per
loop turn, waiting while the peer does not read, and the bound on what may wait.
(test_ws_limits closes a real slow reader through it.)"""

from __future__ import annotations

import asyncio

import pytest

from dominion.server.edge.transport.outbox import (
    BACKPRESSURE_POLL,
    WRITE_BUFFER_BYTES,
    WRITE_NOW_BYTES,
    Outbox,
    Waiting,
    frame_header,
)


class Transport:
    """What the outbox uses of an asyncio transport; `unsent` plays the kernel's buffer."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.unsent = 0
        self.closing = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def is_closing(self) -> bool:
        return self.closing


def outbox(transport: Transport, max_frames: int = 4, max_bytes: int = 1 << 30,
           waiting: Waiting | None = None) -> tuple[Outbox, list[str]]:
    overflows: list[str] = []
    box = Outbox(transport, max_frames=max_frames,  # type: ignore[arg-type]
                 max_bytes=max_bytes, waiting=waiting or Waiting(10_000),
                 on_overflow=lambda: overflows.append("overflow"))
    return box, overflows


async def turn() -> None:
    await asyncio.sleep(0)


@pytest.mark.parametrize(("size", "header"), [
    (0, b"\x82\x00"),
    (125, b"\x82\x7d"),  # RFC 6455: up to 125 the length is in the second byte
    (126, b"\x82\x7e\x00\x7e"),  # then 126 and two bytes
    (65535, b"\x82\x7e\xff\xff"),
    (65536, b"\x82\x7f" + (65536).to_bytes(8, "big")),  # then 127 and eight bytes
    (1 << 20, b"\x82\x7f" + (1 << 20).to_bytes(8, "big")),
])
def test_frames_are_final_unmasked_binary_frames(size: int, header: bytes) -> None:
    assert frame_header(size) == header


async def test_a_turns_frames_go_out_in_one_write_in_order() -> None:
    transport = Transport()
    box, _ = outbox(transport)
    before = box.last_write
    for payload in (b"a", b"bb", b"c" * 200):
        box.push(payload)
    assert transport.writes == []  # nothing until the turn ends
    await asyncio.sleep(0.01)
    expected = b"\x82\x01a" + b"\x82\x02bb" + b"\x82\x7e\x00\xc8" + b"c" * 200
    assert transport.writes == [expected]
    assert box.last_write > before  # the heartbeat counts from the last write
    box.push(b"d")
    await turn()
    assert transport.writes[1:] == [b"\x82\x01d"]


async def test_frames_wait_while_the_peer_does_not_read_then_go_in_order() -> None:
    transport = Transport()
    box, overflows = outbox(transport)
    transport.unsent = WRITE_BUFFER_BYTES + 1
    box.push(b"a")
    box.push(b"b")
    await asyncio.sleep(3 * BACKPRESSURE_POLL)
    assert transport.writes == [] and overflows == []
    transport.unsent = WRITE_BUFFER_BYTES  # the peer reads again: down to the mark will do
    await asyncio.sleep(3 * BACKPRESSURE_POLL)
    assert transport.writes == [b"\x82\x01a\x82\x01b"]


async def test_a_peer_that_lets_too_many_frames_wait_is_given_up() -> None:
    transport = Transport()
    box, overflows = outbox(transport, max_frames=3)
    transport.unsent = WRITE_BUFFER_BYTES + 1
    for payload in (b"1", b"2", b"3"):  # the bound itself is allowed
        box.push(payload)
    await turn()
    assert overflows == [] and not box.closed
    box.push(b"4")
    assert overflows == ["overflow"] and box.closed
    box.push(b"5")  # a closed outbox takes nothing more, and says so once
    transport.unsent = 0
    await asyncio.sleep(3 * BACKPRESSURE_POLL)
    assert transport.writes == [] and overflows == ["overflow"]


async def test_nothing_is_written_to_a_closing_transport() -> None:
    transport = Transport()
    box, _ = outbox(transport)
    box.push(b"a")
    transport.closing = True
    await turn()
    transport.closing = False
    box.push(b"b")
    await turn()
    assert transport.writes == [b"\x82\x01b"]  # what was pending for the old one is gone


async def test_a_peer_that_lets_too_many_bytes_wait_is_given_up() -> None:
    """Four large frames are fewer than `max_frames`, but with what the transport still
    holds, more than `max_bytes`."""
    transport = Transport()
    waiting = Waiting(10_000)
    transport.unsent = WRITE_BUFFER_BYTES + 1
    box, overflows = outbox(transport, max_frames=100, max_bytes=transport.unsent + 1000,
                            waiting=waiting)
    for _ in range(4):
        box.push(b"x" * 250)  # the bound itself is allowed
    await turn()
    assert overflows == [] and waiting.bytes == 1000
    box.push(b"y")
    assert overflows == ["overflow"] and box.closed
    assert waiting.bytes == 0  # what it held is given back


async def test_over_the_servers_total_only_peers_that_do_not_read_are_given_up() -> None:
    waiting = Waiting(1000)
    slow, reader = Transport(), Transport()
    slow_box, slow_overflows = outbox(slow, max_frames=100, waiting=waiting)
    box, overflows = outbox(reader, max_frames=100, waiting=waiting)
    slow.unsent = WRITE_BUFFER_BYTES + 1
    for _ in range(8):
        slow_box.push(b"s" * 100)
    await turn()  # the slow peer's frames wait; the total is 800
    box.push(b"r" * 300)  # the total goes over: the reading peer is not to blame
    assert overflows == [] and slow_overflows == []
    await turn()
    assert reader.writes and waiting.bytes == 800  # the reader's frame went out
    slow_box.push(b"s")  # 801 of 1000: still within the total
    assert slow_overflows == []
    box.push(b"r" * 300)  # 1101: over, but this peer reads
    slow_box.push(b"s")  # over the total while not reading: given up
    assert slow_overflows == ["overflow"] and overflows == []
    assert waiting.bytes == 300


async def test_much_in_one_turn_is_written_at_once() -> None:
    transport = Transport()
    waiting = Waiting(1 << 30)
    box, _ = outbox(transport, max_frames=1000, waiting=waiting)
    for _ in range(WRITE_NOW_BYTES // 1000):
        box.push(b"x" * 1000)
    assert transport.writes == []  # under the mark: at the end of the turn
    box.push(b"x" * 1000)
    assert len(transport.writes) == 1 and waiting.bytes == 0
    box.push(b"y")
    await turn()
    assert transport.writes[1:] == [b"\x82\x01y"]
