from __future__ import annotations

import json
from typing import Any

import jsonschema
import msgpack
from hypothesis import given
from hypothesis import strategies as st

from dominion.protocol import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    ClientMessage,
    ProtocolError,
    ServerMessage,
    decode_client,
    encode_client,
    encode_server,
)
from dominion.protocol.schema import SCHEMA_PATH, generate, render

from .strategies import client_messages, server_messages

SCHEMA = generate()


def validator(direction: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        {"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{direction}_message"})


CLIENT = validator("client")
SERVER = validator("server")


def test_schema_file_is_generated_from_the_definitions() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == render(), (
        "run: python -m dominion.protocol.schema")
    assert json.loads(render()) == SCHEMA


def test_schema_is_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_schema_has_every_message() -> None:
    defs = SCHEMA["$defs"]
    assert {f"client.{t}" for t in CLIENT_MESSAGES} <= set(defs)
    assert {f"server.{t}" for t in SERVER_MESSAGES} <= set(defs)


@given(client_messages)
def test_client_frames_match_the_schema(message: ClientMessage) -> None:
    CLIENT.validate(msgpack.unpackb(encode_client(message)))


@given(server_messages)
def test_server_frames_match_the_schema(message: ServerMessage) -> None:
    SERVER.validate(msgpack.unpackb(encode_server(message)))


json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=70),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8,
)


@given(client_messages, st.data())
def test_schema_and_decoder_agree(message: ClientMessage, data: st.DataObject) -> None:
    frame = msgpack.unpackb(encode_client(message))
    key = data.draw(st.sampled_from(sorted(frame)))
    if data.draw(st.booleans()):
        del frame[key]
    else:
        frame[key] = data.draw(json_values)
    try:
        decode_client(msgpack.packb(frame))
        accepted = True
    except ProtocolError:
        accepted = False
    assert accepted == CLIENT.is_valid(frame)
