"""The only code that turns frames into messages and messages into frames."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, TypeVar

import msgpack  # type: ignore[import-untyped]

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
    frame = _unpack(bytes(data), max_frame_bytes)
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


_packers = threading.local()


def _packer() -> Any:
    """This thread's msgpack Packer: `packb` makes (and allocates a buffer for) a new one
    per frame. One per thread, as a Packer's buffer is its state between calls; a failed
    `pack` empties it."""
    try:
        return _packers.packer
    except AttributeError:
        packer = _packers.packer = msgpack.Packer(use_bin_type=True)
        return packer


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
        data: bytes = _packer().pack(frame)
    except (TypeError, ValueError, OverflowError) as error:  # ValueError: bad UTF-8
        raise ProtocolError(ErrorCode.BAD_FIELD_TYPE, f"cannot encode: {error}") from None
    if len(data) > max_frame_bytes:
        raise ProtocolError(ErrorCode.FRAME_TOO_LARGE,
                            f"the frame has {len(data)} bytes; the limit is {max_frame_bytes}")
    return data
