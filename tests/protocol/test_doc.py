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
    CloseCode,
    ErrorCode,
    decode_client,
    decode_server,
    encode_client,
    encode_server,
)

from .test_schema import CLIENT, SERVER

DOC = Path(__file__).parents[2] / "docs" / "PROTOCOL.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(json|hex) (client-to-server|server-to-client)\n(.*?)^```$",
                   re.MULTILINE | re.DOTALL)
BLOCKS = [(m[1], m[2], m[3], TEXT.count("\n", 0, m.start()) + 1) for m in BLOCK.finditer(TEXT)]
JSON_BLOCKS = [(direction, json.loads(body), line)
               for form, direction, body, line in BLOCKS if form == "json"]


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


def test_every_error_code_and_close_code_is_documented() -> None:
    for code in ErrorCode:
        assert f"| `{code.value}` |" in TEXT, code
    for close in CloseCode:
        assert f"| {close.value} |" in TEXT, close


def test_the_documented_limits_are_the_real_ones() -> None:
    assert SUBPROTOCOL in TEXT
    assert f"| client frame size | {MAX_CLIENT_FRAME_BYTES} bytes" in TEXT
    assert f"| server frame size | {MAX_SERVER_FRAME_BYTES} bytes" in TEXT
    assert f"nesting of maps and arrays | {MAX_DEPTH} levels" in TEXT
    assert f"chat text | 1 to {MAX_CHAT_LENGTH} code points" in TEXT


def test_every_example_block_is_tested() -> None:
    fences = re.findall(r"^```(\w*)", TEXT, re.MULTILINE)
    examples = [f for f in fences if f in ("json", "hex")]
    assert len(examples) == len(BLOCKS), "give every json/hex block a direction"
