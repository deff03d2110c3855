"""REST test helpers: a client that checks every response against the OpenAPI document."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import jsonschema
from aiohttp.test_utils import TestClient

from dominion.server.edge.api.openapi import openapi_document
from dominion.server.edge.state import STATE, ServerState

DOCUMENT = openapi_document()
TOKEN = re.compile(r"^[A-Za-z0-9_-]{22,}$")
"""At least 22 URL-safe base64 characters: at least 128 random bits."""


def template_of(document: dict[str, Any], path: str) -> str | None:
    """The documented path template that `path` (without query) matches, if any: a
    concrete path before a templated one (as OpenAPI says), and a parameter only where
    its declared `pattern` allows."""
    for template in sorted(document["paths"], key=lambda t: t.count("{")):
        patterns = {parameter["name"]: parameter["schema"]["pattern"].strip("^$")
                    for parameter in document["paths"][template].get("parameters", ())
                    if parameter.get("in") == "path" and "pattern" in parameter["schema"]}
        if re.match(_regex_of(template, patterns), path):
            return template
    return None


def _regex_of(template: str, patterns: dict[str, str]) -> str:
    parts = re.split(r"\{([^}]+)\}", template)  # text, name, text, name, ..., text
    return "^" + "".join(re.escape(part) if i % 2 == 0 else f"(?:{patterns.get(part, '[^/]+')})"
                         for i, part in enumerate(parts)) + "$"


def validate(document: dict[str, Any], schema: dict[str, Any], instance: Any) -> None:
    """Check `instance` against `schema`, whose $refs point into the document's components."""
    rooted = {"allOf": [schema], "components": document["components"]}
    validator = jsonschema.Draft202012Validator(
        rooted, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    validator.validate(instance)


def response_spec(document: dict[str, Any], method: str, path: str,
                  status: int) -> dict[str, Any]:
    """The documented response for this path, method and status (404/405 for unknown ones)."""
    template = template_of(document, path)
    if template is None:
        assert path.startswith("/api/v1/") and status == 404, (path, status)
        spec: dict[str, Any] = document["components"]["responses"]["NotFound"]
        return spec
    item = document["paths"][template]
    operation = item.get(method.lower())
    if operation is None and status == 404 and "{" in unquote(path):
        # the template itself, braces and all: no route's parameter takes a brace
        spec = document["components"]["responses"]["NotFound"]
        return spec
    if operation is None:
        assert status == 405, (method, path, status)
        spec = document["components"]["responses"]["MethodNotAllowed"]
        return spec
    responses = operation["responses"]
    assert str(status) in responses, f"{method} {template} answered {status}, not documented"
    spec = responses[str(status)]
    return spec


def check_response(document: dict[str, Any], method: str, path: str, status: int,
                   content_type: str, text: str) -> Any:
    """Validate a response against the document; return its decoded body."""
    spec = response_spec(document, method, path, status)
    content = spec.get("content")
    if content is None:
        return None
    assert content_type in content, (method, path, status, content_type, list(content))
    schema = content[content_type]["schema"]
    body: Any = json.loads(text) if content_type == "application/json" else text
    validate(document, schema, body)
    return body


def error_of(body: Any, code: str) -> dict[str, Any]:
    """The error of a body of the JSON error shape with this code."""
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    error: dict[str, Any] = body["error"]
    return error


@dataclass
class Api:
    """A test client whose every answer is checked against the OpenAPI document."""

    client: TestClient[Any, Any]
    document: dict[str, Any] = field(default_factory=lambda: DOCUMENT)
    get_texts: list[str] = field(default_factory=list)
    """Every GET response body, for the no-token-leak checks."""

    browser: bool = True
    """Send what a browser on the server's own page sends (Origin, Sec-Fetch-Site), so
    that the session cookie counts (edge/sessions.py); a test's own headers win."""

    def own_page(self) -> dict[str, str]:
        """The headers of a request from the server's own page."""
        return {"Origin": str(self.client.make_url("/")).rstrip("/"),
                "Sec-Fetch-Site": "same-origin"}

    async def call(self, method: str, path: str, expect: int, **kwargs: Any) -> Any:
        if self.browser:
            kwargs["headers"] = {**self.own_page(), **(kwargs.get("headers") or {})}
        response = await self.client.request(method, path, **kwargs)
        raw = await response.read()
        assert response.status == expect, (method, path, response.status, raw[:500])
        if response.content_type == "application/msgpack":
            spec = response_spec(self.document, method, response.url.path, response.status)
            assert "application/msgpack" in spec["content"]
            self.get_texts.append(raw.decode("latin-1"))
            return raw
        text = raw.decode()
        if method.upper() == "GET":
            self.get_texts.append(text)
        return check_response(self.document, method, response.url.path, response.status,
                              response.content_type, text)

    async def error(self, method: str, path: str, status: int, code: str,
                    **kwargs: Any) -> dict[str, Any]:
        """A refusal: the right status and the JSON error shape with this code."""
        return error_of(await self.call(method, path, status, **kwargs), code)

    async def rate_limited(self, per_minute: int, since: float, method: str, path: str,
                           **kwargs: Any) -> dict[str, Any]:
        """The refusal of an address that spent its allowance (a bucket refilled at
        `per_minute`) from `since` (the loop's time) on. A busy machine floods slowly: what
        the bucket refilled meanwhile may be answered first, and nothing more."""
        loop = asyncio.get_running_loop()
        answered = 0
        while True:
            response = await self.client.request(method, path, **kwargs)
            text = (await response.read()).decode()
            if response.status == 429:
                return error_of(check_response(self.document, method, response.url.path, 429,
                                               response.content_type, text), "rate_limited")
            answered += 1
            refilled = (loop.time() - since) * per_minute / 60
            assert answered <= refilled + 1, (method, path, response.status, text[:500])

    async def create(self, expect: int = 201, **request: Any) -> dict[str, Any]:
        body: dict[str, Any] = await self.call("POST", "/api/v1/games", expect, json=request)
        return body

    async def join(self, game_id: str, name: str = "Bob", expect: int = 200) -> dict[str, Any]:
        body: dict[str, Any] = await self.call("POST", f"/api/v1/games/{game_id}/join", expect,
                                               json={"name": name})
        return body

    async def game(self, game_id: str) -> dict[str, Any]:
        body: dict[str, Any] = await self.call("GET", f"/api/v1/games/{game_id}", 200)
        return body

    async def listing(self, query: str = "") -> dict[str, Any]:
        body: dict[str, Any] = await self.call("GET", f"/api/v1/games{query}", 200)
        return body

    @property
    def state(self) -> ServerState:
        return self.client.app[STATE]  # type: ignore[index]


@contextlib.contextmanager
def case(name: str) -> Iterator[None]:
    """One of a test's cases, which all run on one app (an app a case cost more than all
    their requests): a failure names its case."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{name}: {error}") from error


def stored_counts(db: str) -> tuple[int, int]:
    """How many games and seats the database holds (read with a separate connection)."""
    with sqlite3.connect(db) as connection:
        games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
        seats = connection.execute("SELECT count(*) FROM seats").fetchone()[0]
    connection.close()
    return int(games), int(seats)
