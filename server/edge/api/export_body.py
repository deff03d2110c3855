"""How an export's replays are written: NDJSON or a msgpack stream (by Accept), and
compressed by Accept-Encoding (zstd, else gzip, else as they are)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import msgspec
import zstandard
from aiohttp import web


class Media(StrEnum):
    NDJSON = "application/x-ndjson"
    """One compact JSON replay and a newline each."""
    MSGPACK = "application/msgpack"
    """One msgpack map each, back to back (a msgpack stream: msgpack.Unpacker reads it)."""


class Coding(StrEnum):
    ZSTD = "zstd"
    GZIP = "gzip"


class _Compressor(Protocol):
    def compress(self, data: bytes) -> bytes: ...

    def flush(self) -> bytes: ...


def media_of(request: web.Request) -> Media:
    return Media.MSGPACK if Media.MSGPACK in request.headers.get("Accept", "") else Media.NDJSON


def coding_of(request: web.Request) -> Coding | None:
    """The coding the client takes, zstd first (the smaller and faster), else none. A
    coding offered with `q=0` is one the client refuses (RFC 9110, 12.5.3)."""
    offered = set()
    for part in request.headers.get("Accept-Encoding", "").split(","):
        name, *parameters = (piece.strip().lower() for piece in part.split(";"))
        if name and all(not _refuses(parameter) for parameter in parameters):
            offered.add(name)
    return next((coding for coding in Coding if coding in offered), None)


def _refuses(parameter: str) -> bool:
    """Whether a parameter is a weight of zero (`q=0`, `q=0.0`, `q=0.000`)."""
    key, _, value = parameter.partition("=")
    if key.strip() != "q":
        return False
    try:
        return float(value) == 0
    except ValueError:
        return False


_JSON = msgspec.json.Decoder()
_MSGPACK = msgspec.msgpack.Encoder()
"""A replay's msgpack from its line: the bytes of msgpack's `packb(orjson.loads(line),
use_bin_type=True)`, as a download's, in two thirds of its CPU (docs/BENCHMARKS.md, "The
replay export")."""


@dataclass
class ExportBody:
    """Turns replays into the response's bytes, compressed as a whole stream."""

    media: Media
    coding: Coding | None

    def __post_init__(self) -> None:
        self._compressor: _Compressor | None = (
            zstandard.ZstdCompressor().compressobj() if self.coding is Coding.ZSTD
            else zlib.compressobj(6, zlib.DEFLATED, 31) if self.coding is Coding.GZIP
            else None)

    def headers(self) -> dict[str, str]:
        coded = {} if self.coding is None else {"Content-Encoding": self.coding.value}
        return {"Content-Type": self.media.value, **coded}

    def replay(self, line: bytes, replay: dict[str, Any] | None = None) -> bytes:
        """A replay's bytes, from its NDJSON line (and its map, when it was read already:
        msgpack is made from it rather than from parsing the line again)."""
        data: bytes = line
        if self.media is Media.MSGPACK:
            data = _MSGPACK.encode(_JSON.decode(line) if replay is None else replay)
        return data if self._compressor is None else self._compressor.compress(data)

    def end(self) -> bytes:
        return b"" if self._compressor is None else self._compressor.flush()
