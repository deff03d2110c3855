"""JSON Schema of every message, generated from the definitions in messages.py.

`python -m dominion.protocol.schema` rewrites protocol/schema.json; a test checks
the file equals `generate()`. msgpack maps, arrays, strings, integers and nil are
described as JSON objects, arrays, strings, integers and null. One schema covers
every version the package speaks: they share all messages but `update` (version 2)
and `event` and `decision` (version 1), whose descriptions say so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .limits import SUBPROTOCOLS, SUPPORTED_VERSIONS, VERSION
from .messages import CLIENT_MESSAGES, SERVER_MESSAGES
from .spec import JSON, object_schema

SCHEMA_PATH = Path(__file__).with_name("schema.json")
SCHEMA_ID = f"urn:dominion:protocol:v{VERSION}"
"""The schema's `$id`: a URN (RFC 8141) that JSON Schema validators accept as a base URI
(Ajv 8 refuses one without a namespace, such as `urn:dominion.v2.msgpack`)."""


def _list_text(items: tuple[object, ...]) -> str:
    """`2 and 1`, `3, 2 and 1`."""
    words = [str(item) for item in items]
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def _message_schema(cls: type[Any]) -> JSON:
    description = " ".join((cls.__doc__ or "").split())  # docstrings' line breaks and indents
    schema = {"title": cls.__name__, "description": description, **object_schema(cls)}
    schema["properties"] = {"type": {"const": cls.TYPE}, **schema["properties"]}
    schema["required"] = ["type", *schema["required"]]
    return schema


def _direction(registry: dict[str, type[Any]], prefix: str) -> tuple[JSON, JSON]:
    defs = {f"{prefix}.{kind}": _message_schema(cls) for kind, cls in registry.items()}
    one_of = {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in defs]}
    return defs, one_of


def generate() -> JSON:
    client_defs, client = _direction(dict(CLIENT_MESSAGES), "client")
    server_defs, server = _direction(dict(SERVER_MESSAGES), "server")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": (f"Dominion protocol versions {_list_text(SUPPORTED_VERSIONS)} "
                  f"(WebSocket subprotocols {', '.join(SUBPROTOCOLS)})"),
        "description": ("Every frame is one msgpack map. The versions share every message but "
                        "the game traffic: version 2 servers send `update`, version 1 servers "
                        "`event` and `decision` instead. The connection speaks the version in "
                        "`welcome`. See docs/PROTOCOL.md."),
        "anyOf": [{"$ref": "#/$defs/client_message"}, {"$ref": "#/$defs/server_message"}],
        "$defs": {"client_message": client, "server_message": server,
                  **client_defs, **server_defs},
    }


def render() -> str:
    return json.dumps(generate(), indent=2, sort_keys=False) + "\n"


def main() -> None:
    SCHEMA_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")


if __name__ == "__main__":
    main()
