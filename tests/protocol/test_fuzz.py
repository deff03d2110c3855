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
    MAX_SERVER_FRAME_BYTES,
    ClientMessage,
    ProtocolError,
    ServerMessage,
    Update,
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


def replace_or_drop(frame: dict[str, Any], data: st.DataObject) -> bytes:
    key = data.draw(st.sampled_from(sorted(frame)))
    if data.draw(st.booleans()):
        del frame[key]
    else:
        frame[key] = data.draw(values)
    return bytes(msgpack.packb(frame))


@given(client_messages, st.data())
def test_fields_replaced_or_dropped(message: ClientMessage, data: st.DataObject) -> None:
    decodes_or_refuses(decode_client, replace_or_drop(msgpack.unpackb(encode_client(message)),
                                                      data))


@given(server_messages, st.data())
def test_server_fields_replaced_or_dropped(message: ServerMessage, data: st.DataObject) -> None:
    decodes_or_refuses(decode_server, replace_or_drop(msgpack.unpackb(encode_server(message)),
                                                      data))


@given(st.lists(values, max_size=5), values)
def test_updates_with_any_events_and_decision(events: list[Any], decision: Any) -> None:
    frame = {"type": "update", "game": "g", "seq": 1, "events": events, "decision": decision}
    decodes_or_refuses(decode_server, msgpack.packb(frame))


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
    "deep, then many keys before the id": (b"\xdf\x00\x00\x1b\x5a\xa1z" + b"\x91" * 2000
                                           + b"\x00" + b"\xa0\xc0" * 7000 + b"\xa2id\x05"),
    "frame over the limit": b"\x00" * 10_000_000,
}


UPDATE_VIEW = dict.fromkeys(("viewer", "edition", "kingdom", "supply", "trash", "turn",
                             "players", "result", "event_count"))
UPDATE_HEAD = (b"\x86\xa4type\xa6update\xa4game\xa1g\xa3seq\x01\xa8decision\xc0\xa4view"
               + msgpack.packb(UPDATE_VIEW) + b"\xa6events")
"""An update's map up to its events: what follows is the events array."""
SERVER_HOSTILE = {
    "events array32 of 4G": UPDATE_HEAD + b"\xdd\xff\xff\xff\xff",
    "events nested deep": UPDATE_HEAD + b"\x91" * (MAX_SERVER_FRAME_BYTES // 2) + b"\x00",
    "events as maps nested deep": UPDATE_HEAD + b"\x91" + b"\x81\xa0" * 100_000 + b"\x00",
    "one more event than allowed": (UPDATE_HEAD + b"\xdd\x00\x00\x27\x11"
                                    + b"\x81\xa4kind\xa0" * 10_001),
    "a million nils as events": UPDATE_HEAD + b"\xdd\x00\x0f\x42\x40" + b"\xc0" * 1_000_000,
    "a million nils, then nested deep": (UPDATE_HEAD + b"\xdd\x00\x0f\x42\x41"
                                         + b"\xc0" * 1_000_000 + b"\x91" * 20 + b"\x00"),
    "frame over the limit": UPDATE_HEAD + b"\x90" + b"\x00" * MAX_SERVER_FRAME_BYTES,
}


def refused_fast_and_small(decode: Decoder, frame: bytes, max_peak: int) -> None:
    # the decoding thread's CPU time: the wall clock would count the other processes of
    # a busy machine too
    started = time.thread_time()
    with pytest.raises(ProtocolError):
        decode(frame)
    assert time.thread_time() - started < 0.5
    tracemalloc.start()  # a second run: tracing slows allocation-heavy decoding tenfold
    try:
        with pytest.raises(ProtocolError):
            decode(frame)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < max_peak


@pytest.mark.parametrize("frame", HOSTILE.values(), ids=list(HOSTILE))
def test_hostile_frames_are_refused_fast_and_small(frame: bytes) -> None:
    refused_fast_and_small(decode_client, frame, 4 * 1024 * 1024)


@pytest.mark.parametrize("frame", SERVER_HOSTILE.values(), ids=list(SERVER_HOSTILE))
def test_hostile_server_frames_are_refused_fast_and_small(frame: bytes) -> None:
    """What a client's decoder meets from a hostile or broken server. Server frames may be
    64 times larger than client frames, and a msgpack array of nils costs a pointer (8
    bytes) per byte of frame, so memory is bounded by the frame limit, not a constant."""
    refused_fast_and_small(decode_server, frame, 12 * MAX_SERVER_FRAME_BYTES)


def test_the_hostile_update_head_is_an_update() -> None:
    assert decode_server(UPDATE_HEAD + b"\x90") == Update("g", 1, (), None, UPDATE_VIEW)
