"""Typed query strings, declared once: a query model is a frozen dataclass whose fields
say each parameter's JSON Schema, its description and the refusal a bad value gets, so
the same declaration reads and checks a request's query (`read_query`) and documents it
among the operation's `parameters` (`Operation.query`).

A value is read by its schema: an integer (within `minimum`/`maximum` and `enum`), a
string (within `enum`), or by the field's own `read` (a time, a card). An absent
parameter is the field's default.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, dataclass_transform

from aiohttp import web

from dominion.protocol import ErrorCode

from ...refusal import Refusal
from .models import Schema
from .operation import Param, Where

Query = TypeVar("Query")


@dataclass(frozen=True)
class QueryField:
    """One query parameter: how it is documented, read and refused."""

    name: str
    schema: Schema
    description: str = ""
    code: ErrorCode = ErrorCode.BAD_FILTER
    """The refusal of a bad value."""
    message: str = ""
    """What the refusal says (else: what the schema allows)."""
    read: Callable[[str], Any] | None = None
    """Reads a value the schema's type cannot (a time, a card); ValueError: refused."""
    default: Any = None

    def parameter(self) -> Param:
        return Param(self.name, Where.QUERY, self.schema, self.description)

    def value(self, request: web.Request) -> Any:
        raw = request.query.get(self.name)
        if raw is None:
            return self.default
        if self.read is not None:
            try:
                return self.read(raw)
            except ValueError:
                raise self._refusal() from None
        value: Any = raw
        if self.schema.get("type") == "integer":
            try:
                value = int(raw)
            except ValueError:
                raise Refusal(self.code, f"{self.name} is a whole number") from None
            if not self.schema.get("minimum", value) <= value <= self.schema.get("maximum",
                                                                                 value):
                raise self._refusal()
        if "enum" in self.schema and value not in self.schema["enum"]:
            raise self._refusal()
        return value

    def _refusal(self) -> Refusal:
        return Refusal(self.code, self.message or f"{self.name} is not one the server takes")


def param(schema: Schema, description: str = "", *, code: ErrorCode = ErrorCode.BAD_FILTER,
          message: str = "", read: Callable[[str], Any] | None = None,
          default: Any = None) -> Any:
    """A query model's field (its name is the parameter's)."""
    return dataclasses.field(default=default, metadata={"query": QueryField(
        "", schema, description, code, message, read, default)})


@dataclass_transform(frozen_default=True, field_specifiers=(param,))
def query_model(cls: type[Query]) -> type[Query]:
    """Declare a frozen dataclass as a query string (a class decorator)."""
    return dataclasses.dataclass(frozen=True)(cls)


def query_fields(cls: type[Any]) -> tuple[QueryField, ...]:
    return tuple(dataclasses.replace(f.metadata["query"], name=f.name)
                 for f in dataclasses.fields(cls))


class Source(Protocol):
    """Anything that declares query parameters of its own (`Paging`)."""

    def parameters(self) -> tuple[Param, ...]: ...


def query_parameters(*sources: Param | type[Any] | Source) -> tuple[Param, ...]:
    """An operation's `parameters`, in order, from what it reads: a query model's fields,
    a `Paging`'s, or a `Param` written out (one that documents a model's parameter
    otherwise for this operation: the model's of the same name is then left out)."""
    written = {source.name for source in sources if isinstance(source, Param)}
    found: list[Param] = []
    for source in sources:
        if isinstance(source, Param):
            found.append(source)
        elif isinstance(source, type):
            found += [f.parameter() for f in query_fields(source) if f.name not in written]
        else:
            found += source.parameters()
    return tuple(found)


def read_query(request: web.Request, cls: type[Query]) -> Query:
    """The request's query as `cls`, each parameter checked in the model's order (the
    first bad one is refused with its code)."""
    return cls(**{field.name: field.value(request) for field in query_fields(cls)})
