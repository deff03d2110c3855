"""Field specs: what a field may hold on the wire.

Each message field is declared as `Annotated[python_type, spec]`; the one spec
checks decoded values, checks values before encoding, converts to the wire form,
and describes itself as JSON Schema. So the definitions, the validator and the
schema cannot disagree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, get_type_hints

from .errors import ErrorCode, ProtocolError
from .limits import MAX_INT

JSON = dict[str, Any]


def _type_name(value: object) -> str:
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {str: "string", bytes: "binary", float: "float", list: "array", tuple: "array",
            dict: "map"}.get(type(value), type(value).__name__)


def _bad_type(path: str, wanted: str, value: object) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_FIELD_TYPE,
                         f"{path} must be {wanted}, not {_type_name(value)}")


class Spec:
    """One field's wire type and bounds; each kind of field is a subclass. Not an ABC:
    mypyc compiles this module (docs/ENGINE.md, "Compiled engine"), and cannot compile
    dataclasses derived from one."""

    def check(self, value: object, path: str) -> Any:
        """The Python value of a decoded wire value, or ProtocolError."""
        raise NotImplementedError

    def wire(self, value: Any) -> Any:
        """The msgpack-ready form of a checked Python value."""
        return value

    def passes_through(self) -> bool:
        """Whether `wire` returns its value as it is (msgpack packs tuples as arrays), so
        that encoding may skip the call."""
        return True

    def schema(self) -> JSON:
        """This spec as JSON Schema (draft 2020-12)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Int(Spec):
    min: int = 0
    max: int = MAX_INT

    def check(self, value: object, path: str) -> int:
        if type(value) is not int:  # bool is an int in Python, not on the wire
            raise _bad_type(path, "an integer", value)
        if not self.min <= value <= self.max:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE,
                                f"{path} must be from {self.min} to {self.max}, not {value}")
        return value

    def schema(self) -> JSON:
        return {"type": "integer", "minimum": self.min, "maximum": self.max}


@dataclass(frozen=True, slots=True)
class Str(Spec):
    max_len: int
    min_len: int = 0

    def check(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            raise _bad_type(path, "a string", value)
        if len(value) > self.max_len:
            raise ProtocolError(ErrorCode.TOO_LONG,
                                f"{path} may be at most {self.max_len} characters long")
        if len(value) < self.min_len:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE,
                                f"{path} must be at least {self.min_len} characters long")
        return value

    def schema(self) -> JSON:
        return {"type": "string", "minLength": self.min_len, "maxLength": self.max_len}


@dataclass(frozen=True, slots=True)
class Bool(Spec):
    def check(self, value: object, path: str) -> bool:
        if type(value) is not bool:
            raise _bad_type(path, "true or false", value)
        return value

    def schema(self) -> JSON:
        return {"type": "boolean"}


@dataclass(frozen=True, slots=True)
class Choice(Spec):
    """One of a StrEnum's values; the member in Python."""

    values: type[StrEnum]

    def check(self, value: object, path: str) -> StrEnum:
        if not isinstance(value, str):
            raise _bad_type(path, "a string", value)
        try:
            return self.values(value)
        except ValueError:
            known = ", ".join(member.value for member in self.values)
            raise ProtocolError(ErrorCode.OUT_OF_RANGE,
                                f"{path} is one of {known}, not {value[:40]!r}") from None

    def wire(self, value: Any) -> Any:
        return str(value)

    def passes_through(self) -> bool:
        return False

    def schema(self) -> JSON:
        return {"type": "string", "enum": [member.value for member in self.values]}


@dataclass(frozen=True, slots=True)
class ListOf(Spec):
    """An array; a tuple in Python."""

    item: Spec
    max_len: int
    min_len: int = 0

    def check(self, value: object, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise _bad_type(path, "an array", value)
        if len(value) > self.max_len:
            raise ProtocolError(ErrorCode.TOO_LONG, f"{path} may hold at most {self.max_len} items")
        if len(value) < self.min_len:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE,
                                f"{path} must hold at least {self.min_len} items")
        check = self.item.check
        try:
            return tuple([check(v, path) for v in value])
        except ProtocolError:  # say which item: the paths are only worth building now
            for i, v in enumerate(value):
                check(v, f"{path}[{i}]")
            raise

    def wire(self, value: Any) -> Any:
        return value if self.item.passes_through() else [self.item.wire(v) for v in value]

    def passes_through(self) -> bool:
        return self.item.passes_through()

    def schema(self) -> JSON:
        return {"type": "array", "items": self.item.schema(),
                "minItems": self.min_len, "maxItems": self.max_len}


@dataclass(frozen=True, slots=True)
class Payload(Spec):
    """A map made by the engine's view function: string keys, fields documented elsewhere.

    Only its shape and `required` keys are checked here; values pass through.
    """

    description: str
    required: tuple[str, ...] = ()

    def check(self, value: object, path: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise _bad_type(path, "a map", value)
        for key in value:
            if not isinstance(key, str):
                raise _bad_type(f"a key of {path}", "a string", key)
        for key in self.required:
            if key not in value:
                raise ProtocolError(ErrorCode.MISSING_FIELD, f"{path} has no {key!r}")
        return dict(value)

    def schema(self) -> JSON:
        # each required key named in `properties` too (with any value), as validators'
        # strict modes want (Ajv's strictRequired)
        return {"type": "object", "description": self.description,
                "properties": dict.fromkeys(self.required, True),
                "required": list(self.required), "additionalProperties": True}


@dataclass(frozen=True, slots=True)
class Struct(Spec):
    """A map with fixed fields, declared as another dataclass of annotated fields."""

    cls: type[Any]

    def check(self, value: object, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise _bad_type(path, "a map", value)
        return read_fields(self.cls, value, f"{path}.")

    def wire(self, value: Any) -> Any:
        return write_fields(value)

    def passes_through(self) -> bool:
        return False

    def schema(self) -> JSON:
        return object_schema(self.cls)


@dataclass(frozen=True, slots=True)
class Nullable(Spec):
    """Always present; may be nil."""

    inner: Spec

    def check(self, value: object, path: str) -> Any:
        return None if value is None else self.inner.check(value, path)

    def wire(self, value: Any) -> Any:
        return None if value is None else self.inner.wire(value)

    def passes_through(self) -> bool:
        return self.inner.passes_through()

    def schema(self) -> JSON:
        return {"anyOf": [self.inner.schema(), {"type": "null"}]}


@dataclass(frozen=True, slots=True)
class Omittable(Nullable):
    """May be left out (nil counts as left out); None in Python, and then not sent."""


@dataclass(frozen=True, slots=True)
class Key:
    """The wire name of a field whose name is a Python keyword (`from`)."""

    name: str


@dataclass(frozen=True, slots=True)
class Field:
    attr: str
    key: str
    spec: Spec

    @property
    def optional(self) -> bool:
        return isinstance(self.spec, Omittable)


_FIELDS: dict[type[Any], tuple[Field, ...]] = {}


def fields_of(cls: type[Any]) -> tuple[Field, ...]:
    """The wire fields of a dataclass whose fields are `Annotated[type, Spec, Key?]`."""
    if cls in _FIELDS:
        return _FIELDS[cls]
    hints = get_type_hints(cls, include_extras=True)
    found = []
    for f in dataclasses.fields(cls):
        meta = getattr(hints[f.name], "__metadata__", ())
        spec = next(m for m in meta if isinstance(m, Spec))
        key = next((m.name for m in meta if isinstance(m, Key)), f.name)
        found.append(Field(f.name, key, spec))
    _FIELDS[cls] = tuple(found)
    return _FIELDS[cls]


def read_fields(cls: type[Any], data: Mapping[Any, Any], prefix: str = "") -> Any:
    """An instance of `cls` from a decoded map; unknown keys are ignored."""
    values = {}
    for f in fields_of(cls):
        value = data.get(f.key)
        if value is None and f.key not in data and not f.optional:
            raise ProtocolError(ErrorCode.MISSING_FIELD, f"missing field {prefix}{f.key}")
        values[f.attr] = f.spec.check(value, prefix + f.key)
    return cls(**values)


_Writer = tuple[str, str, Callable[[Any], Any] | None, bool]
_WRITERS: dict[type[Any], tuple[_Writer, ...]] = {}


def _writers_of(cls: type[Any]) -> tuple[_Writer, ...]:
    """Per field: attribute, key, the spec's `wire` unless it passes values through, and
    whether the field is optional. Encoding is the server's hottest path."""
    writers = _WRITERS.get(cls)
    if writers is None:
        writers = _WRITERS[cls] = tuple(
            (f.attr, f.key, None if f.spec.passes_through() else f.spec.wire, f.optional)
            for f in fields_of(cls))
    return writers


def write_fields(obj: Any, out: dict[str, Any] | None = None) -> dict[str, Any]:
    """The wire map of an instance (unchecked), added to `out` if given; optional fields
    holding None are left out."""
    out = {} if out is None else out
    for attr, key, wire, optional in _writers_of(type(obj)):
        value = getattr(obj, attr)
        if value is None and optional:
            continue
        out[key] = value if wire is None else wire(value)
    return out


def object_schema(cls: type[Any]) -> JSON:
    fields = fields_of(cls)
    return {
        "type": "object",
        "properties": {f.key: f.spec.schema() for f in fields},
        "required": [f.key for f in fields if not f.optional],
        "additionalProperties": True,
    }
