from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominion.protocol import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    Ack,
    Answer,
    Chat,
    ChatLine,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    Ping,
    Pong,
    ProtocolError,
    ServerMessage,
    Snapshot,
    Update,
    decode_client,
    decode_server,
    encode_client,
    encode_server,
    error_for,
)
from dominion.protocol.codec import id_beside_deep_nesting
from dominion.protocol.limits import MAX_SERVER_FRAME_BYTES, MAX_UPDATE_EVENTS

from .strategies import client_messages, instances, server_messages, values


def test_every_message_type_is_registered() -> None:
    """The tests parametrised by the registries cover exactly these messages."""
    assert set(CLIENT_MESSAGES) == {"hello", "join", "watch", "resume", "answer", "chat",
                                    "resign", "leave", "ping", "catalogue", "rematch_offer",
                                    "rematch_answer", "seek", "seek_cancel", "match_accept",
                                    "match_decline"}
    assert set(SERVER_MESSAGES) == {"welcome", "ack", "error", "snapshot", "event", "decision",
                                    "update", "chat", "chat_removed", "game_over",
                                    "game_abandoned", "rematch_offered", "rematch_cancelled",
                                    "rematch_started", "seek_status", "match_found",
                                    "match_cancelled", "match_ready", "rating_changed",
                                    "pong"}
    assert SERVER_MESSAGES["update"] is Update


@pytest.mark.parametrize("cls", CLIENT_MESSAGES.values(), ids=list(CLIENT_MESSAGES))
@given(data=st.data())
def test_every_client_message_round_trips(cls: type[ClientMessage], data: st.DataObject) -> None:
    message = data.draw(instances(cls))
    assert decode_client(encode_client(message)) == message


@pytest.mark.parametrize("cls", SERVER_MESSAGES.values(), ids=list(SERVER_MESSAGES))
@given(data=st.data())
def test_every_server_message_round_trips(cls: type[ServerMessage], data: st.DataObject) -> None:
    message = data.draw(instances(cls))
    assert decode_server(encode_server(message)) == message


@given(client_messages,
       st.dictionaries(st.text(max_size=10), st.integers(-(2**63), 2**64 - 1), max_size=3))
def test_unknown_fields_are_ignored(message: ClientMessage, extra: dict[str, int]) -> None:
    frame = msgpack.unpackb(encode_client(message))
    frame.update({f"x_{key}": value for key, value in extra.items()})
    assert decode_client(msgpack.packb(frame)) == message


def test_frames_are_maps_with_type_first() -> None:
    frame = encode_client(Hello(1, (1,), "bot"))
    assert frame == msgpack.packb({"type": "hello", "id": 1, "versions": [1], "client": "bot"})


def test_optional_fields_are_left_out_or_may_be_nil() -> None:
    assert msgpack.unpackb(encode_server(Ack(3))) == {"type": "ack", "id": 3}
    assert decode_client(msgpack.packb({"type": "hello", "id": 1, "versions": [1],
                                        "client": None})) == Hello(1, (1,))


def test_nullable_error_id_is_always_sent() -> None:
    assert msgpack.unpackb(encode_server(Error(None, "not_msgpack", "no"))) == {
        "type": "error", "id": None, "code": "not_msgpack", "message": "no"}


def test_from_is_the_wire_name_of_the_chat_sender() -> None:
    frame = msgpack.unpackb(encode_server(ChatLine("g", "ann", "hi")))
    assert frame == {"type": "chat", "game": "g", "from": "ann", "text": "hi"}


DECISION = {"id": 3, "player": 1, "kind": "buy", "prompt": "Buy.", "source": None}
DREW = {"kind": "drew", "player": 0, "count": 5}
VIEW = {"viewer": 0, "edition": 2, "kingdom": [], "supply": {}, "trash": [], "turn": {},
        "players": [], "result": None, "event_count": 9}
"""An update's `view`: a snapshot's keys but `decision` (their values pass through)."""


def test_an_update_is_its_fields_in_order_and_a_nil_decision_is_sent() -> None:
    frame = encode_server(Update("g", 9, (DREW, {"kind": "game_ended"}), None, VIEW))
    assert frame == msgpack.packb({"type": "update", "game": "g", "seq": 9,
                                   "events": [DREW, {"kind": "game_ended"}], "decision": None,
                                   "view": VIEW})
    assert decode_server(frame) == Update("g", 9, (DREW, {"kind": "game_ended"}), None, VIEW)
    empty = Update("g", 0, (), DECISION, VIEW)
    assert decode_server(encode_server(empty)) == empty


UPDATE = {"type": "update", "game": "g", "seq": 4, "events": [DREW], "decision": DECISION,
          "view": VIEW}


@pytest.mark.parametrize(("frame", "code"), [
    ({k: v for k, v in UPDATE.items() if k != "decision"}, ErrorCode.MISSING_FIELD),
    ({k: v for k, v in UPDATE.items() if k != "events"}, ErrorCode.MISSING_FIELD),
    ({k: v for k, v in UPDATE.items() if k != "seq"}, ErrorCode.MISSING_FIELD),
    ({k: v for k, v in UPDATE.items() if k != "view"}, ErrorCode.MISSING_FIELD),
    ({**UPDATE, "view": None}, ErrorCode.BAD_FIELD_TYPE),
    ({**UPDATE, "view": {k: v for k, v in VIEW.items() if k != "turn"}},
     ErrorCode.MISSING_FIELD),
    ({**UPDATE, "events": None}, ErrorCode.BAD_FIELD_TYPE),
    ({**UPDATE, "events": DREW}, ErrorCode.BAD_FIELD_TYPE),
    ({**UPDATE, "events": [DREW, 5]}, ErrorCode.BAD_FIELD_TYPE),
    ({**UPDATE, "events": [{"player": 0}]}, ErrorCode.MISSING_FIELD),
    ({**UPDATE, "events": [DREW] * (MAX_UPDATE_EVENTS + 1)}, ErrorCode.TOO_LONG),
    ({**UPDATE, "decision": [DECISION]}, ErrorCode.BAD_FIELD_TYPE),
    ({**UPDATE, "decision": {**DECISION, "prompt": None}}, None),  # values pass through
    ({**UPDATE, "decision": {k: v for k, v in DECISION.items() if k != "prompt"}},
     ErrorCode.MISSING_FIELD),
    ({**UPDATE, "seq": -1}, ErrorCode.OUT_OF_RANGE),
    ({**UPDATE, "seq": True}, ErrorCode.BAD_FIELD_TYPE),
    ({**UPDATE, "game": ""}, ErrorCode.OUT_OF_RANGE),
    ({**UPDATE, "events": [DREW] * MAX_UPDATE_EVENTS}, None),
    ({**UPDATE, "decision": None, "extra": [1]}, None),
])
def test_update_frames_are_checked(frame: dict[str, Any], code: ErrorCode | None) -> None:
    data = msgpack.packb(frame)
    if code is None:
        message = decode_server(data)
        assert isinstance(message, Update)
        assert message.events == tuple(frame["events"])
        assert message.decision == frame["decision"]
        return
    with pytest.raises(ProtocolError) as caught:
        decode_server(data)
    assert caught.value.code is code


def test_an_update_with_too_many_events_cannot_be_sent() -> None:
    with pytest.raises(ProtocolError) as caught:
        encode_server(Update("g", MAX_UPDATE_EVENTS + 1, (DREW,) * (MAX_UPDATE_EVENTS + 1),
                             DECISION, VIEW))
    assert caught.value.code is ErrorCode.TOO_LONG


def test_pong_has_only_a_type() -> None:
    assert encode_server(Pong()) == msgpack.packb({"type": "pong"})


def refused(frame: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decode_client(frame if isinstance(frame, bytes) else msgpack.packb(frame))
    return caught.value


ANSWER = {"type": "answer", "id": 7, "game": "g", "decision": 3, "options": [0]}


@pytest.mark.parametrize(("frame", "code", "request_id"), [
    (b"", ErrorCode.NOT_MSGPACK, None),
    (b"\xc1", ErrorCode.NOT_MSGPACK, None),
    (b"\x80\x80", ErrorCode.NOT_MSGPACK, None),  # two values
    (b"\xa2\xff\xfe", ErrorCode.NOT_MSGPACK, None),  # bad UTF-8
    (b"\xd4\x01\x00", ErrorCode.NOT_MSGPACK, None),  # ext type
    (b"\x81\x01\x02", ErrorCode.NOT_MSGPACK, None),  # integer key
    (b"\x82\xc4\x01k\x01\xa4type\xa4ping", ErrorCode.NOT_MSGPACK, None),  # bin key
    ([1, 2], ErrorCode.NOT_A_MAP, None),
    ("hello", ErrorCode.NOT_A_MAP, None),
    ({"id": 4}, ErrorCode.MISSING_FIELD, 4),
    ({"type": 5, "id": 4}, ErrorCode.BAD_FIELD_TYPE, 4),
    ({"type": "shout", "id": 4}, ErrorCode.UNKNOWN_TYPE, 4),
    ({"type": "welcome", "id": 4}, ErrorCode.UNKNOWN_TYPE, 4),  # wrong direction
    ({"type": "ping"}, ErrorCode.MISSING_FIELD, None),
    ({"type": "ping", "id": -1}, ErrorCode.OUT_OF_RANGE, None),
    ({"type": "ping", "id": 2**31}, ErrorCode.OUT_OF_RANGE, None),
    ({**ANSWER, "id": 0, "game": ""}, ErrorCode.OUT_OF_RANGE, 0),  # the id range's ends
    ({**ANSWER, "id": 2**31 - 1, "game": ""}, ErrorCode.OUT_OF_RANGE, 2**31 - 1),
    ({"type": "ping", "id": 1.0}, ErrorCode.BAD_FIELD_TYPE, None),
    ({"type": "ping", "id": True}, ErrorCode.BAD_FIELD_TYPE, None),
    ({"type": "ping", "id": "1"}, ErrorCode.BAD_FIELD_TYPE, None),
    ({**ANSWER, "game": ""}, ErrorCode.OUT_OF_RANGE, 7),
    ({**ANSWER, "game": "g" * 65}, ErrorCode.TOO_LONG, 7),
    ({**ANSWER, "game": b"g"}, ErrorCode.BAD_FIELD_TYPE, 7),
    ({**ANSWER, "options": 1}, ErrorCode.BAD_FIELD_TYPE, 7),
    ({**ANSWER, "options": [0] * 1025}, ErrorCode.TOO_LONG, 7),
    ({**ANSWER, "options": [None]}, ErrorCode.BAD_FIELD_TYPE, 7),
    ({**ANSWER, "decision": None}, ErrorCode.BAD_FIELD_TYPE, 7),
    ({"type": "hello", "id": 1, "versions": []}, ErrorCode.OUT_OF_RANGE, 1),
    ({"type": "chat", "id": 2, "game": "g", "text": "x" * 501}, ErrorCode.TOO_LONG, 2),
    (b"\x00" * 16385, ErrorCode.FRAME_TOO_LARGE, None),
    (b"\x91" * 17 + b"\x00", ErrorCode.TOO_DEEP, None),
    (b"\x91" * 5000 + b"\x00", ErrorCode.TOO_DEEP, None),
    (b"\xdd\xff\xff\xff\xff", ErrorCode.TOO_LONG, None),
    (b"\xdb\xff\xff\xff\xff", ErrorCode.NOT_MSGPACK, None),  # cut short
])
def test_malformed_frames_get_typed_errors(frame: Any, code: ErrorCode,
                                           request_id: int | None) -> None:
    error = refused(frame)
    assert (error.code, error.request_id) == (code, request_id)
    answer = error_for(error)
    assert (answer.id, answer.code) == (request_id, code.value)
    encode_server(answer)


def nested(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


DEEP = nested(20)
BEYOND_MSGPACK = b"\x91" * 5000 + b"\x00"
"""Deeper than msgpack's own stack: it refuses to decode the frame at all."""


@pytest.mark.parametrize(("frame", "request_id"), [
    ({"type": "ping", "id": 5, "pad": DEEP}, 5),
    ({"type": "ping", "pad": DEEP, "id": 5}, 5),
    ({"type": "ping", "id": 0, "pad": DEEP}, 0),
    ({"type": "ping", "id": 2**31 - 1, "pad": DEEP}, 2**31 - 1),
    (b"\x83\xa2id\x05\xa4type\xa4ping\xa3pad" + BEYOND_MSGPACK, 5),
    (b"\x83\xa4type\xa4ping\xa3pad" + BEYOND_MSGPACK + b"\xa2id\x05", 5),
    (b"\x82\xd9\x02id\xce\x00\x00\x01\x00\xa3pad" + BEYOND_MSGPACK, 256),  # wider forms
    (b"\x82\xa2id\xd2\x00\x00\x00\x07\xa3pad" + BEYOND_MSGPACK, 7),  # int 32
    (b"\x83\xa2id\x01\xa3pad" + BEYOND_MSGPACK + b"\xa2id\x02", 2),  # the last one counts
    (b"\x83\xa2id\x01\xa3pad" + BEYOND_MSGPACK + b"\xa2id\xa11", None),
    (b"\x82\xa2id\x05\xa3pad" + BEYOND_MSGPACK[:-1], None),  # cut short
    (b"\x82\xa2id\x05\x01" + BEYOND_MSGPACK, None),  # an integer key
    (b"\x83\xa2id\x05\xa3pad" + BEYOND_MSGPACK + b"\xa1x\xc1", None),  # a byte never used
    ({"type": "ping", "id": 2**31, "pad": DEEP}, None),
    ({"type": "ping", "id": -1, "pad": DEEP}, None),
    ({"type": "ping", "id": "5", "pad": DEEP}, None),
    ({"type": "ping", "id": 5.0, "pad": DEEP}, None),
    ({"type": "ping", "id": True, "pad": DEEP}, None),
    ({"type": "ping", "id": DEEP}, None),
    ([{"id": 5}, DEEP], None),
    (BEYOND_MSGPACK, None),
])
def test_a_frame_nested_too_deep_keeps_a_readable_id(frame: Any, request_id: int | None) -> None:
    """docs/PROTOCOL.md section 4: read from the top-level map without decoding the rest."""
    error = refused(frame)
    assert (error.code, error.request_id) == (ErrorCode.TOO_DEEP, request_id)


@given(frame=st.dictionaries(st.text(max_size=4), values, max_size=6),
       request_id=st.integers(-(2**63), 2**64 - 1) | values)
def test_the_id_beside_deep_nesting_is_the_one_msgpack_decodes(frame: dict[str, Any],
                                                               request_id: Any) -> None:
    frame = {**frame, "id": request_id, "pad": DEEP}
    read = frame["id"]
    expected = read if type(read) is int and 0 <= read <= 2**31 - 1 else None
    assert id_beside_deep_nesting(msgpack.packb(frame)) == expected
    assert refused(frame).request_id == expected


@pytest.mark.parametrize("data", ["text", 5, None, ["a frame"]])
@pytest.mark.parametrize("decode", [decode_client, decode_server])
def test_what_is_not_binary_gets_a_typed_error(decode: Any, data: object) -> None:
    # compiled (mypyc), a `bytes` annotation would refuse it with a TypeError of its own
    with pytest.raises(ProtocolError) as caught:
        decode(data)
    assert (caught.value.code, caught.value.request_id) == (ErrorCode.NOT_MSGPACK, None)


@pytest.mark.parametrize("frame", [
    {"type": "ping", "id": 0},
    {"type": "ping", "id": 2**31 - 1},
    {**ANSWER, "game": "g" * 64},
    {**ANSWER, "options": [0] * 1024},
    {"type": "chat", "id": 2, "game": "g", "text": "x" * 500},
], ids=["id 0", "largest id", "longest game id", "most options", "longest chat"])
def test_values_at_the_limits_are_accepted(frame: dict[str, Any]) -> None:
    assert decode_client(msgpack.packb(frame)).id == frame["id"]


@pytest.mark.parametrize(("frame", "message"), [
    ({"type": "ping", "id": "1"}, "id must be an integer, not string"),
    ({"type": "ping", "id": True}, "id must be an integer, not boolean"),
    ({"type": "ping", "id": 1.5}, "id must be an integer, not float"),
    ({**ANSWER, "game": 3}, "game must be a string, not integer"),
    ({**ANSWER, "decision": None}, "decision must be an integer, not nil"),
    ({**ANSWER, "options": [0, 1, "2"]}, "options[2] must be an integer, not string"),
])
def test_errors_say_which_field_and_what_it_held(frame: dict[str, Any], message: str) -> None:
    assert refused(frame).message == message


def test_sixteen_levels_of_nesting_are_allowed() -> None:
    nested: Any = 0
    for _ in range(15):
        nested = [nested]
    assert decode_client(msgpack.packb({"type": "ping", "id": 1, "x": nested})) == Ping(1)
    assert refused({"type": "ping", "id": 1, "x": [nested]}).code is ErrorCode.TOO_DEEP


def test_the_frame_limit_can_be_raised_or_lowered() -> None:
    frame = encode_client(Ping(1))
    with pytest.raises(ProtocolError):
        decode_client(frame, max_frame_bytes=len(frame) - 1)
    assert decode_client(frame, max_frame_bytes=len(frame)) == Ping(1)


def test_payload_maps_need_string_keys_and_their_required_fields() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_server(msgpack.packb({"type": "event", "game": "g", "seq": 1, "event": {}}))
    assert caught.value.code is ErrorCode.MISSING_FIELD
    with pytest.raises(ProtocolError) as caught:
        decode_server(msgpack.packb({"type": "event", "game": "g", "seq": 1,
                                     "event": {"kind": "drew", b"k": 1}}))
    assert caught.value.code is ErrorCode.NOT_MSGPACK


def test_encoding_checks_what_it_sends() -> None:
    with pytest.raises(ProtocolError) as caught:
        encode_client(Chat(1, "g", ""))
    assert caught.value.code is ErrorCode.OUT_OF_RANGE
    with pytest.raises(ProtocolError):
        encode_server(Snapshot("g", 0, {"viewer": None}))
    with pytest.raises(ProtocolError) as caught:
        encode_client(Answer(1, "g", 0, (True,)))
    assert caught.value.code is ErrorCode.BAD_FIELD_TYPE
    with pytest.raises(ProtocolError) as caught:
        encode_server(Snapshot("g", 0, {**VIEW, "trash": [2**70]}))
    assert caught.value.code is ErrorCode.BAD_FIELD_TYPE
    with pytest.raises(ProtocolError):
        encode_server(Snapshot("g", 0, {**VIEW, "trash": ["\ud800"]}))



def test_a_frame_that_cannot_be_packed_leaves_nothing_in_the_next() -> None:
    """A frame that fails half-way through (unchecked, as the server's hot path sends them)
    must not leave its bytes behind in the next."""
    with pytest.raises(ProtocolError) as caught:
        encode_server(Snapshot("g", 0, {**VIEW, "trash": ["copper", "\ud800"]}), checked=False)
    assert caught.value.code is ErrorCode.BAD_FIELD_TYPE
    after = Snapshot("g", 1, VIEW)
    assert encode_server(after, checked=False) == msgpack.packb(
        {"type": "snapshot", "game": "g", "seq": 1, "view": VIEW}, use_bin_type=True)

@given(server_messages)
def test_frames_are_the_bytes_msgpack_packs(message: ServerMessage) -> None:
    """The codec packs with msgspec (faster); its bytes are msgpack's Packer's, which the
    protocol's clients and the stored frames' hashes (test_frames_unchanged.py) expect."""
    data = encode_server(message)
    assert data == msgpack.packb(msgpack.unpackb(data), use_bin_type=True)


def test_an_unchecked_frame_nested_beyond_the_packer_gets_a_typed_error() -> None:
    nested: Any = 0
    for _ in range(5000):
        nested = [nested]
    with pytest.raises(ProtocolError) as caught:
        encode_server(Snapshot("g", 0, {**VIEW, "trash": nested}), checked=False)
    assert caught.value.code is ErrorCode.BAD_FIELD_TYPE


def test_encoding_refuses_nil_in_a_required_field() -> None:
    with pytest.raises(ProtocolError) as caught:
        encode_client(Answer(1, None, 0, (0,)))  # type: ignore[arg-type]
    assert caught.value.code is ErrorCode.BAD_FIELD_TYPE
    with pytest.raises(ProtocolError) as caught:
        encode_server(Snapshot("g", None, VIEW))  # type: ignore[arg-type]
    assert caught.value.code is ErrorCode.BAD_FIELD_TYPE


def test_encoding_refuses_what_nests_too_deep_or_has_other_keys_than_strings() -> None:
    nested: Any = 0
    for _ in range(15):  # the frame, the view and `trash` take three levels
        nested = [nested]
    with pytest.raises(ProtocolError) as caught:
        encode_server(Snapshot("g", 0, {**VIEW, "trash": nested}))
    assert caught.value.code is ErrorCode.TOO_DEEP
    with pytest.raises(ProtocolError) as caught:
        encode_server(Snapshot("g", 0, {**VIEW, "turn": {1: "x"}}))
    assert caught.value.code is ErrorCode.NOT_MSGPACK


def test_the_largest_server_frame_is_sent_and_one_byte_more_is_not() -> None:
    def snapshot(length: int) -> Snapshot:
        return Snapshot("g", 0, {**VIEW, "trash": ["x" * length]})

    base = 100_000  # a string this long and a ~1 MiB one have the same 5-byte header
    length = base + MAX_SERVER_FRAME_BYTES - len(encode_server(snapshot(base)))
    assert len(encode_server(snapshot(length))) == MAX_SERVER_FRAME_BYTES
    with pytest.raises(ProtocolError) as caught:
        encode_server(snapshot(length + 1))
    assert caught.value.code is ErrorCode.FRAME_TOO_LARGE


def test_each_direction_has_its_own_encoder() -> None:
    with pytest.raises(TypeError):
        encode_server(Ping(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        encode_client(Pong())  # type: ignore[arg-type]


VIEW = dict.fromkeys(("viewer", "edition", "kingdom", "supply", "trash", "turn", "players",
                      "decision", "result", "event_count"))


def test_oversized_server_frames_are_refused() -> None:
    view = {**VIEW, "trash": ["x" * 1000] * 1100}
    with pytest.raises(ProtocolError) as caught:
        encode_server(Snapshot("g", 0, view))
    assert caught.value.code is ErrorCode.FRAME_TOO_LARGE


@given(server_messages)
def test_server_frames_fit_the_server_limit(message: ServerMessage) -> None:
    assert decode_server(encode_server(message)) == message


def test_the_package_imports_neither_the_engine_nor_aiohttp() -> None:
    import ast
    from pathlib import Path

    import dominion.protocol

    for path in Path(dominion.protocol.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("dominion.server", "aiohttp")), path
