"""The replay's JSON Schema (protocol/replay.schema.json), as a checker for tests."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema


@cache
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("dominion.protocol").joinpath("replay.schema.json").read_text()
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check_replay(replay: dict[str, Any]) -> None:
    """Fails with the first place the replay breaks its documented schema."""
    _validator().validate(replay)
