"""A WebSocket client written by hand on a plain TCP socket, as an attacker's would be: it
sends any frame (masked or not, any opcode, any length field) and reads only when asked.
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
from dataclasses import dataclass

from dominion.protocol import SUBPROTOCOL, Hello, ServerMessage, decode_server, encode_client

CLOSE, BINARY, TEXT, PING = 0x8, 0x2, 0x1, 0x9


def frame(payload: bytes, *, opcode: int = BINARY, mask: bool = True, fin: bool = True,
          rsv: int = 0) -> bytes:
    """One WebSocket frame (RFC 6455 section 5.2)."""
    first = (0x80 if fin else 0) | (rsv & 7) << 4 | opcode & 0xF
    size = len(payload)
    mask_bit = 0x80 if mask else 0
    if size < 126:
        header = struct.pack("!BB", first, mask_bit | size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", first, mask_bit | 126, size)
    else:
        header = struct.pack("!BBQ", first, mask_bit | 127, size)
    if not mask:
        return header + payload
    key = os.urandom(4)
    return header + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


@dataclass
class RawSocket:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    @classmethod
    async def open(cls, url: str, *, receive_buffer: int | None = None,
                   path: str = "/api/v1/ws") -> RawSocket:
        """Connect to the http://host:port `url` and upgrade to WebSocket (101 or fail)."""
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        sock = socket.socket()
        if receive_buffer is not None:  # set before connecting: the window follows it
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
        reader, writer = await asyncio.open_connection(sock=sock)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                      f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: {SUBPROTOCOL}"
                      "\r\n\r\n").encode())
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(reader, writer)

    async def hello(self) -> None:
        self.send(encode_client(Hello(id=1, versions=(2,), client="raw")))
        assert (await self.read())[0] == BINARY

    def send(self, payload: bytes, **options: bool | int) -> None:
        self.writer.write(frame(payload, **options))  # type: ignore[arg-type]

    def send_bytes(self, data: bytes) -> None:
        """Anything at all, framed or not."""
        self.writer.write(data)

    async def read(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next frame from the server: its opcode and payload."""
        async def read_one() -> tuple[int, bytes]:
            first, second = await self.reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", await self.reader.readexactly(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
            return first & 0xF, await self.reader.readexactly(size)
        return await asyncio.wait_for(read_one(), timeout)

    async def message(self, timeout: float = 10) -> ServerMessage:
        opcode, payload = await self.read(timeout)
        assert opcode == BINARY, (opcode, payload)
        return decode_server(payload)

    async def close_code(self, timeout: float = 10) -> int | None:
        """Read up to the server's close frame: its code (None if the socket just ends)."""
        try:
            while True:
                opcode, payload = await self.read(timeout)
                if opcode == CLOSE:
                    return int.from_bytes(payload[:2], "big") if payload else None
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    def close(self) -> None:
        self.writer.transport.abort()
