"""Each HTTP operation declared once, beside its handler: the route, what it answers and
every refusal it may give. The route table mounts the handler; the OpenAPI document
(openapi.py) is generated from the same declarations, so the two cannot disagree.

A handler returns either a response it made itself (cookies, other media types) or the
body of its success: a JSON value, or a model (models.py), sent with the operation's
first reply's status.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from http import HTTPStatus
from typing import Any

from aiohttp import hdrs, web
from aiohttp.http_exceptions import HttpProcessingError

from dominion.protocol import ErrorCode

from ...accounts.moderation import (
    LONGEST_SANCTION_SECONDS,
    MAX_REASON,
    MAX_REPORT_TEXT,
    SHORTEST_SANCTION_SECONDS,
    ReportReason,
)
from ...engine.setup import KINGDOM_SIZE, MAX_PLAYERS, MIN_PLAYERS
from ...play.text import MAX_NAME_LENGTH
from ...refusal import Refusal
from ..rest import error_schema
from ..state import STATE
from ..transport.prefixes import client_key
from .models import Model, component, decode, encode, ref
from .sessions import SAFE_METHODS, honour_cookie

JSON = "application/json"
Schema = dict[str, Any]
Handler = Callable[[web.Request], Awaitable[Any]]
API_PREFIX = "/api/v1"
"""Where the REST sub-application is mounted."""


class Tag(StrEnum):
    """The document's groups of operations, and what each is."""

    description: str

    def __new__(cls, value: str, description: str) -> Tag:
        member = str.__new__(cls, value)
        member._value_ = value
        member.description = description
        return member

    SERVER = "server", "About the server"
    GAMES = "games", "The lobby"
    PLAY = "play", "WebSocket play: see docs/PROTOCOL.md"
    REPLAYS = "replays", "Replays: see docs/REPLAYS.md"
    ACCOUNTS = "accounts", "Accounts and sign-in: see docs/SERVER.md"
    ADMIN = "admin", "Moderation: see docs/SERVER.md"
    OPERATIONS = "operations", "Health and metrics"
    WEB = "web", "The web client, served as static files"


def json_body(schema: Schema, description: str) -> Schema:
    return {"description": description, "content": {JSON: {"schema": schema}}}


@dataclass(frozen=True)
class Reply:
    """An answer that is not a refusal: its status, and its body's schema (a component's
    name, or a schema) in `media` (None: no body)."""

    status: int
    description: str
    schema: str | type[Any] | Schema | None = None
    media: str = JSON
    more: Mapping[str, Any] = field(default_factory=dict)
    """Anything else the document says of it (headers, other media types)."""

    def document(self) -> Schema:
        answer: Schema = {"description": self.description, **self.more}
        if self.schema is not None:
            schema = self.schema if isinstance(self.schema, dict) else ref(self.schema)
            answer["content"] = {self.media: {"schema": schema},
                                 **answer.get("content", {})}
        return answer


class Where(StrEnum):
    """Where a parameter is sent."""

    PATH = "path"
    QUERY = "query"
    HEADER = "header"


@dataclass(frozen=True)
class Param:
    """A path, query or header parameter; one named `shared` is defined once, among the
    document's components, and referred to."""

    name: str
    where: Where
    schema: Schema
    description: str = ""
    required: bool = False
    shared: str = ""

    def definition(self) -> Schema:
        parameter: Schema = {"name": self.name, "in": self.where.value,
                             "required": self.required or self.where is Where.PATH,
                             "schema": self.schema}
        if self.description:
            parameter["description"] = self.description
        return parameter

    def document(self) -> Schema:
        if self.shared:
            return {"$ref": f"#/components/parameters/{self.shared}"}
        return self.definition()


GAME_ID = Param("game_id", Where.PATH, {"type": "string"}, "a game id, e.g. g-0123456789ab "
                "(or g-a-0123456789ab behind several nodes)", shared="GameId")
"""The game id in a path."""
BODY_ERRORS = (ErrorCode.BAD_JSON, ErrorCode.UNSUPPORTED_MEDIA_TYPE, ErrorCode.BODY_TOO_LARGE,
               ErrorCode.BODY_TIMEOUT)
"""What reading any JSON body may answer (read_json, and the body's size)."""


@dataclass(frozen=True)
class Operation:
    """One method on one path: everything the document says of it."""

    method: str
    path: str
    """As the router takes it, relative to the table's prefix (`{name:regex}` allowed)."""
    operation_id: str
    tag: Tag
    summary: str
    replies: tuple[Reply, ...]
    errors: tuple[ErrorCode, ...] = ()
    """The codes of the refusals it may give, beside those of reading a body and
    `internal_error` (added for every operation under /api/v1)."""
    description: str = ""
    body: type[Any] | None = None
    """The model of its JSON request body, if it reads one (read_body)."""
    parameters: tuple[Param, ...] = ()
    """Its path, header and query parameters; those of a query model or a page, as
    `query_parameters` (query.py) writes them."""
    notes: Mapping[int, str] = field(default_factory=dict)
    """What a refusal of this status means here, when more can be said than its phrase."""
    failures: Mapping[int, Schema] = field(default_factory=dict)
    """Refusals that are not the JSON error shape (the WebSocket upgrade's)."""
    secret: bool = False
    """Its answer holds a secret (a token, a challenge): no cache may keep it."""
    cookie: bool = False
    """It may be signed in by the session cookie: one that changes something is refused
    from another site's page with the cookie (`cross_site_request`, sessions.py's rule,
    which also says whether the cookie counts)."""

    @property
    def refused_cross_site(self) -> bool:
        return self.cookie and self.method not in SAFE_METHODS

    def refusals(self, under_api: bool) -> dict[str, Schema]:
        codes = [*self.errors]
        if self.refused_cross_site and ErrorCode.CROSS_SITE_REQUEST not in codes:
            codes.append(ErrorCode.CROSS_SITE_REQUEST)
        if self.body is not None:
            codes += [code for code in BODY_ERRORS if code not in codes]
        if under_api and ErrorCode.INTERNAL_ERROR not in codes:
            codes.append(ErrorCode.INTERNAL_ERROR)
        by_status: dict[int, list[ErrorCode]] = {}
        for code in codes:
            by_status.setdefault(code.status, []).append(code)
        answers = {str(status): error(self.notes.get(status) or HTTPStatus(status).phrase,
                                      *found)
                   for status, found in sorted(by_status.items())}
        return answers | {str(status): failure for status, failure in self.failures.items()}

    def document(self, under_api: bool) -> Schema:
        operation: Schema = {"operationId": self.operation_id, "tags": [self.tag.value],
                             "summary": self.summary}
        if self.description:
            operation["description"] = self.description
        query = [p.document() for p in self.parameters if p.where is not Where.PATH]
        if query:
            operation["parameters"] = query
        if self.body is not None:
            operation["requestBody"] = {"required": True,
                                        "content": {JSON: {"schema": ref(self.body)}}}
        operation["responses"] = {str(reply.status): reply.document() for reply in self.replies}
        operation["responses"] |= self.refusals(under_api)
        return operation

    def path_parameters(self) -> list[Schema]:
        return [p.document() for p in self.parameters if p.where is Where.PATH]


ERROR_LIMITS = {"MAX_NAME_LENGTH": MAX_NAME_LENGTH, "MIN_PLAYERS": MIN_PLAYERS,
                "MAX_PLAYERS": MAX_PLAYERS, "KINGDOM_SIZE": KINGDOM_SIZE,
                "MAX_REASON": MAX_REASON, "MAX_REPORT_TEXT": MAX_REPORT_TEXT,
                "REPORT_REASONS": ", ".join(ReportReason),
                "SHORTEST_SANCTION_SECONDS": SHORTEST_SANCTION_SECONDS,
                "LONGEST_SANCTION_SECONDS": LONGEST_SANCTION_SECONDS}
"""The server's limits that error codes' descriptions name (protocol/errors.py)."""


REST_CODES = tuple(code for code in ErrorCode if code.description)
"""Every error code a REST route may answer with (the others are the WebSocket's)."""
ERROR = component("Error", error_schema(REST_CODES))


def described(code: ErrorCode) -> str:
    """What a refusal with `code` means over REST, the server's limits filled in."""
    return code.description.format_map(ERROR_LIMITS)


def error(status_description: str, *codes: ErrorCode) -> Schema:
    """A refusal: the Error body, with `code` narrowed to the codes this answer can carry."""
    listed = "; ".join(f"`{code}`: {described(code)}" for code in codes)
    schema: Schema = {
        "allOf": [ref(ERROR),
                  {"properties": {"error": {"properties": {"code": {
                      "enum": [code.value for code in codes]}}}}}],
    }
    return json_body(schema, f"{status_description}. Codes: {listed}.")


class Routes:
    """A module's operations, and their handlers; mounted under `prefix` (the REST
    sub-application's, or the server's root)."""

    def __init__(self, prefix: str = API_PREFIX,
                 setup: Callable[[web.Application], None] | None = None,
                 cookie: bool = False) -> None:
        self.prefix = prefix
        self.setup = setup
        self.cookie = cookie
        """Every operation of the table may be signed in by the session cookie."""
        """What the handlers need in the application first (called when mounted)."""
        self.operations: list[tuple[Operation, Handler]] = []
        self.undocumented: list[tuple[str, str, Handler]] = []

    def __call__(self, operation: Operation) -> Callable[[Handler], Handler]:
        def declare(handler: Handler) -> Handler:
            declared = replace(operation, cookie=True) if self.cookie else operation
            self.operations.append((declared, handler))
            return handler
        return declare

    def also(self, method: str, path: str, handler: Handler) -> None:
        """A route outside the document: one that refuses other methods."""
        self.undocumented.append((method, path, handler))

    def add_to(self, app: web.Application) -> None:
        if self.setup is not None:
            self.setup(app)
        for operation, handler in self.operations:
            answer = _answering(handler, operation)
            if operation.method == hdrs.METH_GET:  # and HEAD, as HTTP wants
                app.router.add_get(operation.path, answer)
            else:
                app.router.add_route(operation.method, operation.path, answer)
        for method, path, handler in self.undocumented:
            app.router.add_route(method, path, handler)


def _answering(handler: Handler, operation: Operation) -> Callable[[web.Request], Awaitable[
        web.StreamResponse]]:
    """The handler, its answer sent as the operation says."""
    status = operation.replies[0].status

    async def answer(request: web.Request) -> web.StreamResponse:
        if operation.cookie:
            honour_cookie(request)  # the one cross-site rule, before anything is read
        result = await handler(request)
        if not isinstance(result, web.StreamResponse):
            result = web.json_response(encode(result), status=status)
        return no_store(result) if operation.secret else result
    return answer


async def read_json(request: web.Request) -> dict[str, Any]:
    """The request's JSON object, or the refusal that says what is wrong with it."""
    if request.content_type != JSON:
        raise Refusal(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "send a JSON body (application/json)")
    timeout = request.config_dict[STATE].settings.body_timeout_seconds
    try:
        async with asyncio.timeout(timeout):
            raw = await request.read()
    except (ConnectionError, HttpProcessingError):  # the client: gone, or a short body
        raise Refusal(ErrorCode.BAD_JSON, "the body ended before its length") from None
    except TimeoutError:  # the connection is closed after the answer (the body is unread)
        request.config_dict[STATE].warnings.warn("a request body stopped arriving",
                                           client_key(request))
        raise Refusal(ErrorCode.BODY_TIMEOUT, f"the body did not arrive within {timeout:g} s"
                        ) from None
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise Refusal(ErrorCode.BAD_JSON, "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise Refusal(ErrorCode.BAD_JSON, "the body must be a JSON object")
    return body


async def read_body(request: web.Request, cls: type[Model]) -> Model:
    """The request's body as its operation's model (`Operation.body`): read where the
    handler's checks put it (who asks is checked first)."""
    return decode(cls, await read_json(request))


def no_store(response: web.StreamResponse) -> web.StreamResponse:
    """An answer holding a secret: never kept by a cache."""
    response.headers[hdrs.CACHE_CONTROL] = "no-store"
    return response


def documented_path(prefix: str, path: str) -> str:
    """The path template as OpenAPI writes it: no `:regex` in its parameters."""
    return prefix + re.sub(r"\{(\w+):(?:[^{}]|\{[^{}]*\})*\}", r"{\1}", path)


def paths(tables: Iterable[Routes]) -> dict[str, Schema]:
    """The document's `paths`, from the tables' declarations."""
    found: dict[str, Schema] = {}
    for table in tables:
        for operation, _ in table.operations:
            path = documented_path(table.prefix, operation.path)
            item = found.setdefault(path, {})
            parameters = operation.path_parameters()
            if parameters:
                item["parameters"] = parameters
            item[operation.method.lower()] = operation.document(
                under_api=path.startswith(API_PREFIX + "/") and path != API_PREFIX + "/ws")
    return found
