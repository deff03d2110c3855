"""Hostile input: a message or ProtocolError, never anything else; fast, in bounded memory."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominion.protocol import (
    MAX_CLIENT_FRAME_BYTES,
    ClientMessage,
    ProtocolError,
    ServerMessage,
    decode_client,
    decode_server,
    encode_client,
    encode_server,
)

from .strategies import client_messages, server_messages, values

Decoder = Callable[[bytes], Any]
DECODERS = [decode_client, decode_server]


def decodes_or_refuses(decode: Decoder, frame: bytes) -> None:
    try:
        message = decode(frame)
    except ProtocolError:
        return
    assert hasattr(type(message), "TYPE")


@pytest.mark.parametrize("decode", DECODERS)
@given(frame=st.binary(max_size=200))
def test_random_bytes(decode: Decoder, frame: bytes) -> None:
    decodes_or_refuses(decode, frame)


@pytest.mark.parametrize("decode", DECODERS)
@given(value=values)
def test_random_msgpack_values(decode: Decoder, value: Any) -> None:
    decodes_or_refuses(decode, msgpack.packb(value))


mutations = st.lists(
    st.tuples(st.sampled_from(["flip", "insert", "delete", "truncate"]),
              st.integers(0, 10_000), st.binary(min_size=1, max_size=8)),
    min_size=1, max_size=4,
)


def mutate(frame: bytes, steps: list[tuple[str, int, bytes]]) -> bytes:
    data = bytearray(frame)
    for op, where, noise in steps:
        at = where % (len(data) + 1)
        if op == "flip" and data:
            data[at % len(data)] ^= noise[0] or 1
        elif op == "insert":
            data[at:at] = noise
        elif op == "delete":
            del data[at:at + len(noise)]
        else:
            del data[at:]
    return bytes(data)


@given(client_messages, mutations)
def test_mutated_client_frames(message: ClientMessage, steps: list[tuple[str, int, bytes]]) -> None:
    decodes_or_refuses(decode_client, mutate(encode_client(message), steps))


@given(server_messages, mutations)
def test_mutated_server_frames(message: ServerMessage, steps: list[tuple[str, int, bytes]]) -> None:
    decodes_or_refuses(decode_server, mutate(encode_server(message), steps))


@given(client_messages, st.data())
def test_fields_replaced_or_dropped(message: ClientMessage, data: st.DataObject) -> None:
    frame = msgpack.unpackb(encode_client(message))
    key = data.draw(st.sampled_from(sorted(frame)))
    if data.draw(st.booleans()):
        del frame[key]
    else:
        frame[key] = data.draw(values)
    decodes_or_refuses(decode_client, msgpack.packb(frame))


HOSTILE = {
    "deep arrays": b"\x91" * (MAX_CLIENT_FRAME_BYTES - 1) + b"\x00",
    "deep maps": b"\x81\xa0" * (MAX_CLIENT_FRAME_BYTES // 2 - 1) + b"\x00",
    "array32 of 4G": b"\xdd\xff\xff\xff\xff",
    "map32 of 4G": b"\xdf\xff\xff\xff\xff",
    "str32 of 4G": b"\xdb\xff\xff\xff\xff" + b"a" * 100,
    "bin32 of 4G": b"\xc6\xff\xff\xff\xff" + b"a" * 100,
    "ext32 of 4G": b"\xc9\xff\xff\xff\xff\x01",
    "many arrays of 4G": b"\x9f" + b"\xdd\xff\xff\xff\xff" * 15,
    "wide array at the limit": b"\xdd\x00\x00\x3f\xfb" + b"\xc0" * (MAX_CLIENT_FRAME_BYTES - 5),
    "wide map at the limit": b"\xdf\x00\x00\x1f\xfd" + b"\xa0\xc0" * 8189,
    "nested arrays, wide and deep": (b"\x9f" * 16 + b"\xc0" * 15) * 400,
    "frame over the limit": b"\x00" * 10_000_000,
}


@pytest.mark.parametrize("frame", HOSTILE.values(), ids=list(HOSTILE))
def test_hostile_frames_are_refused_fast_and_small(frame: bytes) -> None:
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(ProtocolError):
            decode_client(frame)
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < 0.5
    assert peak < 4 * 1024 * 1024
