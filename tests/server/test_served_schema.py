"""The served JSON Schema as a JavaScript client uses it: Ajv 8, the usual validator, loads
it in strict mode and accepts the frames of a real game, as Python's jsonschema does."""

from __future__ import annotations

import json
from typing import Any

import msgpack
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from dominion.protocol import ServerMessage, decode_server
from dominion.protocol.schema import SCHEMA_ID

from ..web.node import needs_npm, npm_folder, run_node
from .wsplay import Player, ServerFactory, ws_server

__all__ = ["ws_server"]

pytestmark = [needs_npm, pytest.mark.slow]  # npm installs Ajv from the registry, once

AJV_CHECK = """
const {createRequire} = require("node:module");
const fromFolder = createRequire(process.argv[1] + "/package.json");
const Ajv2020 = fromFolder("ajv/dist/2020").default;
const {schema, frames} = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
// strict: every strict check Ajv has (strictSchema, strictNumbers, strictTypes,
// strictTuples, strictRequired) fails the compile instead of logging
const ajv = new Ajv2020({strict: true, allErrors: true});
ajv.addSchema(schema);
const verdicts = {};
for (const [direction, list] of Object.entries(frames)) {
  const validate = ajv.getSchema(schema.$id + "#/$defs/" + direction + "_message");
  verdicts[direction] = list.map((frame) => validate(frame) ? null : validate.errors);
}
console.log(JSON.stringify(verdicts));
"""


def recorded_game_frames(player: Player) -> tuple[list[Any], list[Any]]:
    """Record every frame the player's connection sends and receives from now on, as
    msgpack maps (JSON objects); the two lists fill as it plays."""
    sent: list[Any] = []
    received: list[Any] = []
    client = player.client
    send_bytes = client.ws.send_bytes

    async def sending(data: bytes, *args: Any, **kwargs: Any) -> None:
        sent.append(msgpack.unpackb(data))
        await send_bytes(data, *args, **kwargs)

    async def receiving(timeout: float = 10) -> ServerMessage | None:
        message = await client.ws.receive(timeout=timeout)
        if not isinstance(message.data, bytes):
            return None
        received.append(msgpack.unpackb(message.data))
        return decode_server(message.data)

    client.ws.send_bytes = sending  # type: ignore[method-assign]
    client.receive = receiving  # type: ignore[method-assign]
    return sent, received


async def test_ajv_and_jsonschema_accept_the_served_schema_and_a_real_game(
        ws_server: ServerFactory, request: pytest.FixtureRequest) -> None:
    site = await ws_server()
    async with site.session.get(site.url("/api/v1/protocol/schema.json")) as response:
        assert response.status == 200
        schema = await response.json()
    assert schema["$id"] == SCHEMA_ID
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token, version=2)
    sent, received = recorded_game_frames(ann)
    assert await ann.play(timeout=30) is not None
    kinds = {frame["type"] for frame in received}
    assert {"ack", "snapshot", "update", "game_over"} <= kinds, kinds
    assert {"answer"} <= {frame["type"] for frame in sent}
    frames = {"client": sent, "server": received}

    folder = npm_folder(request.config.cache)  # type: ignore[union-attr]
    verdicts = run_node("-e", AJV_CHECK, str(folder),
                        stdin=json.dumps({"schema": schema, "frames": frames}))
    assert verdicts == {direction: [None] * len(list_) for direction, list_ in frames.items()}

    registry: Registry[Any] = Registry().with_resource(SCHEMA_ID, Resource.from_contents(schema))
    for direction, list_ in frames.items():
        validator = Draft202012Validator({"$ref": f"{SCHEMA_ID}#/$defs/{direction}_message"},
                                         registry=registry)
        for frame in list_:
            validator.validate(frame)


async def test_ajv_refuses_a_frame_the_server_would_refuse(
        ws_server: ServerFactory, request: pytest.FixtureRequest) -> None:
    site = await ws_server()
    async with site.session.get(site.url("/api/v1/protocol/schema.json")) as response:
        schema = await response.json()
    frames = {"client": [{"type": "ping", "id": 1}, {"type": "ping", "id": -1},
                         {"type": "answer", "id": 2, "game": "g", "decision": 1}],
              "server": [{"type": "pong"}, {"type": "ack"}]}
    folder = npm_folder(request.config.cache)  # type: ignore[union-attr]
    verdicts = run_node("-e", AJV_CHECK, str(folder),
                        stdin=json.dumps({"schema": schema, "frames": frames}))
    assert [verdict is None for verdict in verdicts["client"]] == [True, False, False]
    assert [verdict is None for verdict in verdicts["server"]] == [True, False]
