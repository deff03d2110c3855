"""docs/PROTOCOL.md cannot drift: its example frames are fixtures for the codec and schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgpack
import pytest

from dominion.protocol import (
    CLIENT_MESSAGES,
    MAX_CHAT_LENGTH,
    MAX_CLIENT_FRAME_BYTES,
    MAX_DEPTH,
    MAX_SERVER_FRAME_BYTES,
    SERVER_MESSAGES,
    SUBPROTOCOL,
    SUBPROTOCOLS,
    SUPPORTED_VERSIONS,
    VERSION,
    CloseCode,
    ErrorCode,
    decode_client,
    decode_server,
    encode_client,
    encode_server,
)
from dominion.protocol.limits import MAX_UPDATE_EVENTS

from .test_schema import CLIENT, SERVER

DOC = Path(__file__).parents[2] / "docs" / "PROTOCOL.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(json|hex) (client-to-server|server-to-client)\n(.*?)^```$",
                   re.MULTILINE | re.DOTALL)
MATCHES = list(BLOCK.finditer(TEXT))
BLOCKS = [(m[1], m[2], m[3], TEXT.count("\n", 0, m.start()) + 1) for m in MATCHES]
JSON_BLOCKS = [(direction, json.loads(body), line)
               for form, direction, body, line in BLOCKS if form == "json"]
SESSION_LINE = TEXT.count("\n", 0, TEXT.index("\n## 13. ")) + 1
SESSION = [(direction, frame) for direction, frame, line in JSON_BLOCKS if line > SESSION_LINE]
"""Section 13, the annotated session, frame by frame."""
ONLY_IN = {"update": 2, "event": 1, "decision": 1}
"""The server messages that one version sends and the other does not."""


def test_the_document_has_examples_of_every_message_in_both_directions() -> None:
    shown = {(direction, frame["type"]) for direction, frame, _ in JSON_BLOCKS}
    assert {("client-to-server", t) for t in CLIENT_MESSAGES} <= shown
    assert {("server-to-client", t) for t in SERVER_MESSAGES} <= shown
    assert any(form == "hex" for form, *_ in BLOCKS)


@pytest.mark.parametrize(("direction", "frame"), [(d, f) for d, f, _ in JSON_BLOCKS],
                         ids=[f"line{line}-{f['type']}" for _, f, line in JSON_BLOCKS])
def test_every_example_decodes_matches_the_schema_and_re_encodes_exactly(
        direction: str, frame: dict[str, Any]) -> None:
    data = msgpack.packb(frame)
    if direction == "client-to-server":
        CLIENT.validate(frame)
        assert encode_client(decode_client(data)) == data
    else:
        SERVER.validate(frame)
        assert encode_server(decode_server(data)) == data


def test_hex_examples_are_the_real_bytes_of_the_frame_before_them() -> None:
    checked = 0
    for i, (form, direction, body, line) in enumerate(BLOCKS):
        if form != "hex":
            continue
        data = bytes.fromhex(body)
        previous_form, previous_direction, previous_body, _ = BLOCKS[i - 1]
        assert (previous_form, previous_direction) == ("json", direction), line
        assert data == msgpack.packb(json.loads(previous_body)), line
        if direction == "client-to-server":
            assert encode_client(decode_client(data)) == data
        else:
            assert encode_server(decode_server(data)) == data
        checked += 1
    assert checked


HEX_SPAN = re.compile(r"`((?:[0-9a-f]{2} )+[0-9a-f]{2})`")
BYTE_COUNT = re.compile(r"(\d+) bytes|(\d+) of them")


def test_the_prose_around_hex_examples_tells_their_true_length_and_bytes() -> None:
    """Byte counts and quoted byte runs in the paragraph before a hex example's frame,
    or between the frame and the hex, are those of the hex example."""
    checked = 0
    for i, match in enumerate(MATCHES):
        if match[1] != "hex":
            continue
        data = bytes.fromhex(match[3])
        frame, before = MATCHES[i - 1], MATCHES[i - 2].end() if i >= 2 else 0
        prose = (TEXT[before:frame.start()].strip().split("\n\n")[-1]
                 + TEXT[frame.end():match.start()])
        line = BLOCKS[i][3]
        counts = [int(a or b) for a, b in BYTE_COUNT.findall(prose)]
        spans = [bytes.fromhex(span) for span in HEX_SPAN.findall(prose)]
        assert counts or spans, f"line {line}: say something about these bytes"
        assert all(count == len(data) for count in counts), (line, counts, len(data))
        for span in spans:
            assert span in data, (line, span.hex(" "))
        checked += 1
    assert checked >= 3


def test_every_message_has_its_section_marked_with_its_version() -> None:
    for direction, registry in (("6", CLIENT_MESSAGES), ("7", SERVER_MESSAGES)):
        section = TEXT[TEXT.index(f"\n## {direction}. "):TEXT.index(f"\n## {int(direction) + 1}. ")]
        for kind in registry:
            heading = re.search(rf"^### `{kind}` — (.*)$", section, re.MULTILINE)
            assert heading, kind
            only = ONLY_IN.get(kind) if direction == "7" else None
            if only is None:
                assert "version" not in heading[1], kind
            else:
                assert heading[1].endswith(f"(version {only} only)"), kind
    assert set(ONLY_IN) <= set(SERVER_MESSAGES)
    assert set(ONLY_IN.values()) == set(SUPPORTED_VERSIONS)


def updates() -> list[tuple[dict[str, Any], int]]:
    return [(frame, line) for _, frame, line in JSON_BLOCKS if frame["type"] == "update"]


def test_update_examples_are_consistent() -> None:
    """`seq` numbers the events; a nil decision means the game has ended."""
    assert len(updates()) >= 5
    for frame, line in updates():
        kinds = [event["kind"] for event in frame["events"]]
        assert frame["seq"] >= len(kinds), line
        assert "game_ended" not in kinds[:-1], line
        ended = bool(kinds) and kinds[-1] == "game_ended"
        if frame["decision"] is not None:
            assert not ended, line
        else:
            assert ended or not kinds, line


def test_the_version_1_form_of_an_update_is_its_events_then_its_decision() -> None:
    """Where the document shows a change both ways (an update, then `event` frames in the
    same section), the two say the same."""
    shown_json = [m for m in MATCHES if m[1] == "json"]
    frames = [json.loads(m[3]) for m in shown_json]
    compared = 0
    for i, frame in enumerate(frames):
        if frame["type"] != "update" or frames[i + 1]["type"] != "event":
            continue
        if "\n#" in TEXT[shown_json[i].end():shown_json[i + 1].start()]:
            continue  # another section: not the same change
        events = frame["events"]
        shown = frames[i + 1:i + 1 + len(events)]
        first = frame["seq"] - len(events) + 1
        assert [(f["type"], f["seq"], f["event"]) for f in shown] == [
            ("event", first + n, event) for n, event in enumerate(events)]
        after = frames[i + 1 + len(events)]
        if frame["decision"] is None:
            assert after["type"] == "game_over"
        else:
            assert (after["type"], after["decision"]) == ("decision", frame["decision"])
        compared += 1
    assert compared


def test_the_annotated_session_speaks_the_current_version() -> None:
    kinds = {frame["type"] for _, frame in SESSION}
    assert {"hello", "welcome", "update", "snapshot", "game_over"} <= kinds
    for _, frame in SESSION:
        assert ONLY_IN.get(frame["type"], VERSION) == VERSION, frame["type"]
        if frame["type"] == "hello":
            assert frame["versions"] == list(SUPPORTED_VERSIONS)
        if frame["type"] == "welcome":
            assert frame["version"] == VERSION
    assert f"Sec-WebSocket-Protocol: {', '.join(SUBPROTOCOLS)}" in " ".join(TEXT.split())


def test_the_annotated_session_follows_the_rules_of_section_8() -> None:
    """Answers follow their requests; events are numbered without overlaps, a resume
    continues at `last_seq + 1`; decisions count up and carry options only for Ann's
    seat; a nil decision is followed by `game_over`."""
    seat = last_seq = decision_id = resumed = None
    for i, (direction, frame) in enumerate(SESSION):
        kind = frame["type"]
        if direction == "client-to-server":
            answer = SESSION[i + 1]
            assert answer[0] == "server-to-client" and answer[1]["id"] == frame["id"], frame
            if kind == "resume":
                resumed = frame["last_seq"]
            continue
        decision = None
        if kind == "ack" and "seat" in frame:
            seat = frame["seat"]
        elif kind == "snapshot":
            assert frame["view"]["viewer"] == seat
            last_seq, decision = frame["seq"], frame["view"]["decision"]
            resumed = None
        elif kind == "update":
            first = frame["seq"] - len(frame["events"]) + 1
            assert last_seq is not None and first > last_seq, frame["seq"]
            if resumed is not None:
                assert first == resumed + 1, frame["seq"]
                resumed = None
            last_seq, decision = frame["seq"], frame["decision"]
            if decision is None:
                assert SESSION[i + 1][1]["type"] == "game_over"
        elif kind == "game_over":
            assert SESSION[i - 1][1]["type"] == "update"
            assert SESSION[i - 1][1]["decision"] is None
        if decision is not None:
            assert decision_id is None or decision["id"] >= decision_id
            decision_id = decision["id"]
            assert ("options" in decision) == (decision["player"] == seat), decision["id"]
    assert resumed is None and decision_id is not None


def test_every_error_code_and_close_code_is_documented() -> None:
    for code in ErrorCode:
        assert f"| `{code.value}` |" in TEXT, code
    for close in CloseCode:
        assert f"| {close.value} |" in TEXT, close


def test_the_documented_limits_are_the_real_ones() -> None:
    assert TEXT.startswith(f"# The Dominion wire protocol, version {VERSION}\n")
    assert SUBPROTOCOLS[0] == SUBPROTOCOL
    for name in SUBPROTOCOLS:
        assert f"`{name}`" in TEXT, name
    spoken = ", ".join(map(str, SUPPORTED_VERSIONS))
    assert f'"message": "this server speaks versions {spoken}"' in TEXT
    assert f"| events in one `update` (version 2) | at most {MAX_UPDATE_EVENTS} |" in TEXT
    assert f"| client frame size | {MAX_CLIENT_FRAME_BYTES} bytes" in TEXT
    assert f"| server frame size | {MAX_SERVER_FRAME_BYTES} bytes" in TEXT
    assert f"nesting of maps and arrays | {MAX_DEPTH} levels" in TEXT
    assert f"chat text | 1 to {MAX_CHAT_LENGTH} code points" in TEXT


def test_every_example_block_is_tested() -> None:
    fences = re.findall(r"^```(\w*)", TEXT, re.MULTILINE)
    examples = [f for f in fences if f in ("json", "hex")]
    assert len(examples) == len(BLOCKS), "give every json/hex block a direction"
