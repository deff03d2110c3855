"""Typed JSON bodies of the REST API, declared once: a model is a frozen dataclass whose
fields carry their JSON Schema (a schema, or one of protocol/spec.py's field specs with
its bounds), so the same declaration reads a request, writes an answer and documents
both in the OpenAPI document (`components/schemas`, under the class's name).

A request model's fields are read as sent (`object`): the services that use them refuse
a bad value with the code that names what is wrong (`bad_name`, `weak_password`...), as
the document says.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar, dataclass_transform

from dominion.protocol.spec import Spec

Schema = dict[str, Any]
Model = TypeVar("Model")
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
"""Every time in a body: UTC, ISO 8601 to the second."""
TIMESTAMP: Schema = {"type": "string", "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$",
                     "description": "UTC, ISO 8601 to the second"}

MODELS: dict[str, type[Any]] = {}
"""Every model, by name (the document holds those its operations refer to)."""
SCHEMAS: dict[str, Schema] = {}
"""The component schemas written by hand, declared beside the route that uses them: shared
strings (a name, a seat token) and a few records of other parts (moderation's)."""


def component(name: str, schema: Schema) -> str:
    """Register a hand-written component schema; its name, for a Reply or `ref`."""
    if name in SCHEMAS or name in MODELS:
        raise ValueError(f"two component schemas are named {name}")
    SCHEMAS[name] = schema
    return name


@dataclasses.dataclass(frozen=True)
class _Doc:
    description: str
    closed: bool
    """An answer's object holds no members beyond those declared; a request's may."""


def member(schema: Schema | Spec, description: str = "", *, omitted_if_none: bool = False,
           default: Any = dataclasses.MISSING) -> Any:
    """A model's field: its schema, and whether None leaves it out of the JSON (such a
    field is None unless given)."""
    described = schema.schema() if isinstance(schema, Spec) else dict(schema)
    if omitted_if_none and default is dataclasses.MISSING:
        default = None
    if description:
        described["description"] = description
    return dataclasses.field(default=default, metadata={"schema": described,
                                                        "omitted": omitted_if_none})


@dataclass_transform(frozen_default=True, field_specifiers=(member,))
def model(description: str = "", *, closed: bool = True
          ) -> Callable[[type[Model]], type[Model]]:
    """Declare a frozen dataclass as a body of the API (a class decorator)."""
    def declare(cls: type[Model]) -> type[Model]:
        made: type[Model] = dataclasses.dataclass(frozen=True)(cls)
        made.__dominion_doc__ = _Doc(description, closed)  # type: ignore[attr-defined]
        if made.__name__ in MODELS or made.__name__ in SCHEMAS:  # one name, one schema
            raise ValueError(f"two models are named {made.__name__}")
        MODELS[made.__name__] = made
        return made
    return declare


@model()
class Removed:
    """The answer of every removal that says no more than that it was done."""

    removed: bool = member({"type": "boolean", "const": True})


_SCHEMAS = "#/components/schemas/"


def ref(target: str | type[Any]) -> Schema:
    """A reference to a component schema: a model's, or one named."""
    name = target if isinstance(target, str) else target.__name__
    return {"$ref": _SCHEMAS + name}


def obj(properties: dict[str, Schema], *, required: list[str] | None = None,
        description: str = "", closed: bool = True) -> Schema:
    """A hand-written object schema; an answer's is closed (no members beyond those
    documented), as a model's."""
    schema: Schema = {"type": "object", "properties": properties,
                      "required": list(properties) if required is None else required}
    if closed:
        schema["additionalProperties"] = False
    if description:
        schema["description"] = description
    return schema


def nullable(schema: Schema) -> Schema:
    return {"oneOf": [schema, {"type": "null"}]}


def components(*roots: Any) -> dict[str, Schema]:
    """The component schemas `roots` refer to, directly or through each other (models'
    and those written by hand), by name."""
    found: dict[str, Schema] = {}
    waiting = list(roots)
    while waiting:
        value = waiting.pop()
        if isinstance(value, dict):
            target = value.get("$ref")
            if isinstance(target, str) and target.startswith(_SCHEMAS):
                name = target.removeprefix(_SCHEMAS)
                if name not in found:
                    found[name] = SCHEMAS[name] if name in SCHEMAS else schema_of(MODELS[name])
                    waiting.append(found[name])
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
    return dict(sorted(found.items()))


def schema_of(cls: type[Any]) -> Schema:
    doc: _Doc = cls.__dominion_doc__
    fields = dataclasses.fields(cls)
    schema: Schema = {
        "type": "object",
        "properties": {f.name: f.metadata["schema"] for f in fields},
        "required": [f.name for f in fields if not f.metadata["omitted"]
                     and (doc.closed or f.default is dataclasses.MISSING)],
    }
    if doc.closed:
        schema["additionalProperties"] = False
    if doc.description:
        schema["description"] = doc.description
    return schema


def encode(value: Any) -> Any:
    """The JSON value of a model (of any value holding models)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get("omitted") and getattr(value, f.name) is None)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.strftime(TIME_FORMAT)
    if isinstance(value, list | tuple):
        return [encode(item) for item in value]
    if isinstance(value, Mapping):
        return {key: encode(item) for key, item in value.items()}
    return value


def decode(cls: type[Model], body: Mapping[str, Any]) -> Model:
    """A request model of a JSON object: each member as sent, or the field's default
    (None for one without); members not declared are ignored."""
    values = {f.name: body.get(f.name, None if f.default is dataclasses.MISSING else f.default)
              for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    return cls(**values)
