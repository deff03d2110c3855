from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import msgpack
from hypothesis import given
from hypothesis import strategies as st

from dominion.protocol import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    SUBPROTOCOLS,
    SUPPORTED_VERSIONS,
    ClientMessage,
    ProtocolError,
    ServerMessage,
    decode_client,
    decode_server,
    encode_client,
    encode_server,
)
from dominion.protocol.limits import MAX_UPDATE_EVENTS
from dominion.protocol.schema import SCHEMA_ID, SCHEMA_PATH, generate, render

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


def test_schema_id_is_a_urn_validators_accept() -> None:
    """RFC 8141: `urn:`, a namespace identifier, `:`, a namespace-specific string. Without
    the namespace (`urn:dominion.v2.msgpack`) Ajv 8 refuses to load the schema
    (tests/server/test_served_schema.py runs Ajv itself)."""
    assert re.fullmatch(r"urn:[a-z0-9][a-z0-9-]{0,30}[a-z0-9]:[\w()+,\-.:=@;$!*'/%]+",
                        SCHEMA["$id"]), SCHEMA["$id"]


def test_every_required_key_is_a_property_too() -> None:
    """Ajv's strict mode (strictRequired) refuses a schema that requires a key it does
    not list in `properties`."""
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "required" in node:
                assert set(node["required"]) <= set(node.get("properties", {})), node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(SCHEMA)


def test_schema_has_every_message() -> None:
    defs = SCHEMA["$defs"]
    assert {f"client.{t}" for t in CLIENT_MESSAGES} <= set(defs)
    assert {f"server.{t}" for t in SERVER_MESSAGES} <= set(defs)
    refs = [one["$ref"] for one in defs["server_message"]["oneOf"]]
    assert "#/$defs/server.update" in refs


def test_schema_names_every_version_and_subprotocol() -> None:
    for version in SUPPORTED_VERSIONS:
        assert f" {version}" in SCHEMA["title"]
    for name in SUBPROTOCOLS:
        assert name in SCHEMA["title"]
    assert SCHEMA["$id"] == SCHEMA_ID == f"urn:dominion:protocol:v{SUPPORTED_VERSIONS[0]}"
    for kind in ("update", "event", "decision"):
        assert "Version" in SCHEMA["$defs"][f"server.{kind}"]["description"]
        assert "\n" not in SCHEMA["$defs"][f"server.{kind}"]["description"]


def test_the_schema_of_update() -> None:
    update = SCHEMA["$defs"]["server.update"]
    assert update["required"] == ["type", "game", "seq", "events", "decision", "view"]
    view = update["properties"]["view"]["required"]
    snapshot = SCHEMA["$defs"]["server.snapshot"]["properties"]["view"]["required"]
    assert view == [key for key in snapshot if key != "decision"]  # the update has its own
    assert update["properties"]["events"]["maxItems"] == MAX_UPDATE_EVENTS
    assert update["properties"]["events"]["items"]["required"] == ["kind"]
    decision = update["properties"]["decision"]["anyOf"]
    assert {"type": "null"} in decision


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


def spoiled(frame: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """The frame with one field dropped or replaced."""
    key = data.draw(st.sampled_from(sorted(frame)))
    if data.draw(st.booleans()):
        del frame[key]
    else:
        frame[key] = data.draw(json_values)
    return frame


def accepts(decode: Any, frame: dict[str, Any]) -> bool:
    try:
        decode(msgpack.packb(frame))
    except ProtocolError:
        return False
    return True


@given(client_messages, st.data())
def test_schema_and_decoder_agree(message: ClientMessage, data: st.DataObject) -> None:
    frame = spoiled(msgpack.unpackb(encode_client(message)), data)
    assert accepts(decode_client, frame) == CLIENT.is_valid(frame)


@given(server_messages, st.data())
def test_schema_and_decoder_agree_on_server_frames(message: ServerMessage,
                                                   data: st.DataObject) -> None:
    frame = spoiled(msgpack.unpackb(encode_server(message)), data)
    assert accepts(decode_server, frame) == SERVER.is_valid(frame)


EVENT = {"kind": "drew", "player": 0, "count": 5}
DECISION = {"id": 3, "player": 1, "kind": "buy", "prompt": "Buy.", "source": None}
VIEW = {"viewer": 0, "edition": 2, "kingdom": [], "supply": {}, "trash": [], "turn": {},
        "players": [], "result": None, "event_count": 4}
UPDATE = {"type": "update", "game": "g", "seq": 4, "events": [EVENT], "decision": DECISION,
          "view": VIEW}


@given(st.sampled_from(["events", "decision", "view"]), st.data())
def test_schema_and_decoder_agree_inside_an_update(key: str, data: st.DataObject) -> None:
    """Events, the decision and the view spoiled one key deep."""
    frame = json.loads(json.dumps(UPDATE))
    payload = frame[key][0] if key == "events" else frame[key]
    spoiled(payload, data)
    assert accepts(decode_server, frame) == SERVER.is_valid(frame)


def test_schema_and_decoder_agree_on_the_length_of_an_update() -> None:
    for count, valid in ((0, True), (MAX_UPDATE_EVENTS, True), (MAX_UPDATE_EVENTS + 1, False)):
        frame = {**UPDATE, "events": [EVENT] * count}
        assert accepts(decode_server, frame) is valid
        assert SERVER.is_valid(frame) is valid
