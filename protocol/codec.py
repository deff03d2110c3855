"""The only code that turns frames into messages and messages into frames."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeVar

import msgpack  # type: ignore[import-untyped]
import msgspec

from .errors import ErrorCode, ProtocolError
from .limits import MAX_CLIENT_FRAME_BYTES, MAX_DEPTH, MAX_INT, MAX_SERVER_FRAME_BYTES
from .messages import CLIENT_MESSAGES, SERVER_MESSAGES, ClientMessage, ServerMessage
from .spec import fields_of, read_fields, write_fields

M = TypeVar("M")

__all__ = ["decode_client", "decode_server", "encode_client", "encode_server"]


def decode_client(data: object, max_frame_bytes: int = MAX_CLIENT_FRAME_BYTES) -> ClientMessage:
    """A client's frame as a message (for the server), or ProtocolError."""
    return _decode(data, CLIENT_MESSAGES, max_frame_bytes)


def decode_server(data: object, max_frame_bytes: int = MAX_SERVER_FRAME_BYTES) -> ServerMessage:
    """A server's frame as a message (for clients), or ProtocolError."""
    return _decode(data, SERVER_MESSAGES, max_frame_bytes)


def encode_client(message: ClientMessage) -> bytes:
    """A client's message as a frame; ProtocolError if it breaks a limit."""
    return _encode(message, CLIENT_MESSAGES, MAX_CLIENT_FRAME_BYTES)


def encode_server(message: ServerMessage, *, checked: bool = True) -> bytes:
    """A server's message as a frame; ProtocolError if it breaks a limit.

    `checked=False` skips the receiver's checks of nesting and fields (the frame
    size is still checked). The server uses it on its hot path for frames built
    from the engine's views, whose shapes the test suite checks by decoding every
    frame its clients receive; skipping halves the cost of a frame.
    """
    return _encode(message, SERVER_MESSAGES, MAX_SERVER_FRAME_BYTES, checked)


def _decode(data: object, registry: Mapping[str, type[M]], max_frame_bytes: int) -> M:
    # `data: object`, checked here: compiled (mypyc), a narrower annotation would refuse
    # anything else with a TypeError of its own before the typed error below
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ProtocolError(ErrorCode.NOT_MSGPACK, "frames are binary")
    if len(data) > max_frame_bytes:
        raise ProtocolError(ErrorCode.FRAME_TOO_LARGE,
                            f"the frame has {len(data)} bytes; the limit is {max_frame_bytes}")
    try:
        frame = _unpack(bytes(data), max_frame_bytes)
    except ProtocolError as error:
        if error.code is ErrorCode.TOO_DEEP:
            error.request_id = id_beside_deep_nesting(bytes(data))
        raise
    if not isinstance(frame, dict):
        raise ProtocolError(ErrorCode.NOT_A_MAP, "a frame is one msgpack map")
    request_id = frame.get("id")
    if type(request_id) is not int or not 0 <= request_id <= MAX_INT:
        request_id = None
    try:
        return _read(frame, registry)
    except ProtocolError as error:
        error.request_id = request_id
        raise


def _unpack(data: bytes, limit: int) -> Any:
    try:
        frame = msgpack.unpackb(
            data, raw=False, strict_map_key=True, use_list=True, max_str_len=limit,
            max_bin_len=limit, max_array_len=limit, max_map_len=limit, max_ext_len=0,
        )
    except (msgpack.StackError, RecursionError):
        raise ProtocolError(ErrorCode.TOO_DEEP,
                            f"maps and arrays nest at most {MAX_DEPTH} deep") from None
    except Exception as error:  # msgpack signals bad input with several exception types
        text = str(error)
        if "max_ext_len" in text:
            raise ProtocolError(ErrorCode.NOT_MSGPACK, "extension types are not used") from None
        if "exceeds max_" in text:
            raise ProtocolError(ErrorCode.TOO_LONG, "a length exceeds the frame") from None
        raise ProtocolError(ErrorCode.NOT_MSGPACK, "the frame is not one msgpack value") from None
    _check_shape(frame)
    return frame


_CONTAINERS = (dict, list, tuple)


def _check_shape(value: Any, depth: int = 1) -> None:
    """Nesting depth and string map keys. Recursive, but no input can exhaust the stack:
    it never goes deeper than MAX_DEPTH + 1. Scalars (most of a frame) are not visited."""
    if not isinstance(value, _CONTAINERS):
        return
    if depth > MAX_DEPTH:
        raise ProtocolError(ErrorCode.TOO_DEEP, f"maps and arrays nest at most {MAX_DEPTH} deep")
    depth += 1
    if isinstance(value, dict):
        for key, child in value.items():
            if type(key) is not str:
                raise ProtocolError(ErrorCode.NOT_MSGPACK, "map keys must be strings")
            if isinstance(child, _CONTAINERS):
                _check_shape(child, depth)
        return
    for child in value:
        if isinstance(child, _CONTAINERS):
            _check_shape(child, depth)


# -- the id of a frame too deep to decode ------------------------------------------------

_MAP_HEADS: Final = {0xDE: 2, 0xDF: 4}
"""map 16 and map 32: how many bytes count the entries."""
_ARRAY_HEADS: Final = {0xDC: 2, 0xDD: 4}
_SIZED_HEADS: Final = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xC7: 1, 0xC8: 2, 0xC9: 4,
                       0xD9: 1, 0xDA: 2, 0xDB: 4}
"""bin, ext and str 8/16/32: how many bytes count the payload's length."""
_FIXED_SIZES: Final = {0xC0: 0, 0xC2: 0, 0xC3: 0, 0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2,
                       0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8, 0xD4: 2,
                       0xD5: 3, 0xD6: 5, 0xD7: 9, 0xD8: 17}
"""nil, booleans, floats, integers and fixext: the bytes after the first."""


def id_beside_deep_nesting(data: bytes) -> int | None:
    """The `id` of a frame that nests too deep to decode (docs/PROTOCOL.md, section 4):
    the top level's `id` value if the top level is a map whose (last) `id` is an integer
    from 0 to MAX_INT, else None. Reads only headers: nothing nested is decoded, and one
    loop (no recursion, no stack to exhaust) steps over the other values."""
    try:
        first = data[0]
        if not 0x80 <= first <= 0x8F and first not in _MAP_HEADS:
            return None
        at, _end, children = _extent(data, 0)
        request_id: int | None = None
        for _ in range(children // 2):
            key = data[at]
            if not (0xA0 <= key <= 0xBF or 0xD9 <= key <= 0xDB):
                return None  # not a string key: the frame's keys cannot be trusted
            start, at, _none = _extent(data, at)
            if data[start:at] == b"id":
                request_id = _plain_int(data, at)
            at = _skip(data, at)
        if at > len(data):
            return None
    except (IndexError, KeyError):  # cut short, or a byte msgpack never uses (0xc1)
        return None
    return request_id if request_id is not None and request_id <= MAX_INT else None


def _extent(data: bytes, at: int) -> tuple[int, int, int]:
    """The msgpack value at `at`, without its contents: (where its payload starts, where
    its own bytes end, how many values it holds: an array's items, a map's keys and
    values). A container's own bytes are its header."""
    first = data[at]
    if first <= 0x7F or first >= 0xE0:  # fixints
        return at + 1, at + 1, 0
    if first <= 0x8F:
        return at + 1, at + 1, 2 * (first & 0x0F)
    if first <= 0x9F:
        return at + 1, at + 1, first & 0x0F
    if first <= 0xBF:
        return at + 1, at + 1 + (first & 0x1F), 0
    fixed = _FIXED_SIZES.get(first)
    if fixed is not None:
        return at + 1, at + 1 + fixed, 0
    width = _MAP_HEADS.get(first) or _ARRAY_HEADS.get(first) or _SIZED_HEADS[first]
    start = at + 1 + width
    if start > len(data):
        raise IndexError("cut short")
    count = int.from_bytes(data[at + 1:start], "big")
    if first in _MAP_HEADS:
        return start, start, 2 * count
    if first in _ARRAY_HEADS:
        return start, start, count
    if 0xC7 <= first <= 0xC9:
        start += 1  # an ext's type byte
    return start, start + count, 0


def _skip(data: bytes, at: int) -> int:
    """Where the value at `at` ends, its contents included."""
    pending = 1
    while pending:
        _start, at, children = _extent(data, at)
        pending += children - 1
    return at


def _plain_int(data: bytes, at: int) -> int | None:
    """The non-negative integer at `at`, or None for any other value."""
    first = data[at]
    if first <= 0x7F:
        return first
    if not 0xCC <= first <= 0xD3:
        return None
    start, end, _none = _extent(data, at)
    if end > len(data):
        return None
    value = int.from_bytes(data[start:end], "big", signed=first >= 0xD0)
    return value if value >= 0 else None


def _read(frame: dict[Any, Any], registry: Mapping[str, type[M]]) -> M:
    kind = frame.get("type")
    if kind is None:
        raise ProtocolError(ErrorCode.MISSING_FIELD, "missing field type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_FIELD_TYPE, "type must be a string")
    cls = registry.get(kind)
    if cls is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}")
    message: M = read_fields(cls, frame)
    return message


def _check_fields(cls: type[Any], frame: Mapping[str, Any]) -> None:
    """The receiver's field checks (types, bounds, payloads' required keys) on a frame
    about to be sent. `_read` would also look up the type (known here), refuse missing
    fields (`write_fields` writes every required one; an optional one left out reads as
    nil, which its spec accepts) and construct the decoded message (thrown away)."""
    for f in fields_of(cls):
        f.spec.check(frame.get(f.key), f.key)


_ENCODER: Final = msgspec.msgpack.Encoder()
"""Packs every frame: the same bytes as msgpack's Packer(use_bin_type=True) for every value
a frame holds (maps, arrays, strings, integers, floats, booleans, nil, bytes; an enum as
its value), in about a third of its instructions (docs/BENCHMARKS.md). Shared by every
thread: it keeps no state between calls."""


def _encode(message: Any, registry: Mapping[str, type[Any]], max_frame_bytes: int,
            checked: bool = True) -> bytes:
    cls = type(message)
    if registry.get(getattr(cls, "TYPE", "")) is not cls:
        raise TypeError(f"{cls.__name__} is not a message of this direction")
    frame = write_fields(message, {"type": cls.TYPE})
    if checked:
        _check_shape(frame)
        _check_fields(cls, frame)  # the same checks a receiver makes
    try:
        data: bytes = _ENCODER.encode(frame)
    except (TypeError, ValueError, OverflowError, RecursionError) as error:  # bad UTF-8: a
        # ValueError; nesting too deep for the encoder: a RecursionError
        raise ProtocolError(ErrorCode.BAD_FIELD_TYPE, f"cannot encode: {error}") from None
    if len(data) > max_frame_bytes:
        raise ProtocolError(ErrorCode.FRAME_TOO_LARGE,
                            f"the frame has {len(data)} bytes; the limit is {max_frame_bytes}")
    return data
