"""A connection's outbound frames: held in a bounded list, written in one go per loop turn.

Each answer sends a few frames to each player (the ack, events, the next decision).
Writing them as one transport write, instead of one `send_bytes` each, spares a
system call and a task switch per frame; it was the largest cost of the server under
load (measured when it was built: `git log -p docs/BENCHMARKS.md`). The frames are
ordinary unmasked binary WebSocket frames, so aiohttp's own writes (pings, close)
interleave safely: every write is appended to the same transport buffer in order.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable

WRITE_BUFFER_BYTES = 256 * 1024
"""Unsent bytes in the transport beyond which the peer counts as not reading: frames
then wait here, and a peer that lets `max_frames` or `max_bytes` pile up is
disconnected (as is one that lets any pile up while the server's total is over its
bound)."""
BACKPRESSURE_POLL = 0.005
WRITE_NOW_BYTES = 64 * 1024
"""Pending bytes that are written at once instead of at the end of the loop turn: what
waits for a reading peer stays small."""
PING = b"\x89\x00"
"""A WebSocket ping control frame with no payload."""


def frame_header(size: int) -> bytes:
    """The header of a final, unmasked, binary WebSocket frame of `size` bytes (RFC 6455)."""
    if size < 126:
        return bytes((0x82, size))
    if size < 1 << 16:
        return struct.pack("!BBH", 0x82, 126, size)
    return struct.pack("!BBQ", 0x82, 127, size)


class Waiting:
    """Bytes waiting in every connection's outbox together (not yet handed to the
    transport), and their bound: what slow readers may cost the server's memory in all."""

    __slots__ = ("bytes", "limit")

    def __init__(self, limit: int) -> None:
        self.bytes = 0
        self.limit = limit


class Outbox:
    __slots__ = ("_bytes", "_held_back", "_loop", "_max_bytes", "_max_frames", "_now",
                 "_on_overflow", "_pending", "_scheduled", "_transport", "_waiting", "closed",
                 "last_write", "writes")

    def __init__(self, transport: asyncio.WriteTransport, *, max_frames: int, max_bytes: int,
                 waiting: Waiting, on_overflow: Callable[[], None],
                 now: Callable[[], float] | None = None) -> None:
        self._transport = transport
        self._loop = asyncio.get_running_loop()
        self._now = now or self._loop.time
        """The timers' clock (the connection's: its heartbeat compares with it)."""
        self._pending: list[bytes] = []
        self._bytes = 0
        """The size of `_pending` (counted in `_waiting` too)."""
        self._held_back = False
        """The peer is not reading: frames wait for the transport to drain."""
        self._scheduled = False
        self._max_frames = max_frames
        self._max_bytes = max_bytes
        self._waiting = waiting
        self._on_overflow = on_overflow
        self.closed = False
        self.last_write = self._now()
        """When a frame was last written (on `_now`), for the heartbeat."""
        self.writes = 0
        """Transport writes of frames so far: the rate limit asks whether an answer has
        gone out (server/edge/transport/ratelimit.py)."""

    def push(self, payload: bytes) -> None:
        if self.closed:
            return
        pending = self._pending
        pending.append(payload)
        size = len(payload)
        self._bytes += size
        waiting = self._waiting
        waiting.bytes += size
        unsent = self._transport.get_write_buffer_size()
        if len(pending) > self._max_frames or self._bytes + unsent > self._max_bytes or (
                self._held_back and waiting.bytes > waiting.limit):
            self.close()
            self._on_overflow()
            return
        if not self._scheduled:
            self._scheduled = True
            self._loop.call_soon(self.flush)
        if self._bytes >= WRITE_NOW_BYTES and unsent <= WRITE_BUFFER_BYTES:
            # much in one turn (a large resume, many requests): out now rather than wait
            # for the turn to end (the scheduled flush then finds nothing to do)
            self._write()

    def flush(self) -> None:
        """Write every pending frame now, unless the peer has stopped reading."""
        self._scheduled = False
        if not self._pending:
            return
        transport = self._transport
        if transport.is_closing():
            self._drop()
            return
        if transport.get_write_buffer_size() > WRITE_BUFFER_BYTES:
            self._held_back = self._scheduled = True
            self._loop.call_later(BACKPRESSURE_POLL, self.flush)
            return
        self._write()

    def _write(self) -> None:
        """Every pending frame, in one transport write."""
        self._held_back = False
        transport = self._transport
        parts: list[bytes] = []
        for payload in self._pending:
            parts.append(frame_header(len(payload)))
            parts.append(payload)
        self._drop()
        transport.write(b"".join(parts))
        self.last_write = self._now()
        self.writes += 1

    @property
    def peer_gone(self) -> bool:
        """The connection is lost (or closing): nothing written now would arrive."""
        return self._transport.is_closing()

    def ping(self) -> None:
        if not self._transport.is_closing():
            self._transport.write(PING)

    def close(self) -> None:
        """Drop whatever is pending and accept nothing more."""
        self.closed = True
        self._drop()

    def _drop(self) -> None:
        self._pending.clear()
        self._waiting.bytes -= self._bytes
        self._bytes = 0
