"""The OpenAPI 3.1 document of the server's HTTP API, generated from the operations each
handler module declares (operation.py) and the bodies they send (models.py); only the
top matter is written here. The route tables listed here are the ones the application
mounts (app.py), so every route is documented and every documented operation routed.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from . import (
    access_tokens_api,
    accounts_api,
    admin_api,
    automatch_api,
    health,
    lobby_api,
    passkeys_api,
    play_socket,
    players_api,
    ratings_api,
    replay_api,
    stats_api,
)
from . import web as web_client
from .models import components
from .operation import GAME_ID, Operation, Reply, Routes, Tag, error, paths

ROUTES = Routes()


@ROUTES(Operation("GET", "/openapi.json", "openapi", Tag.SERVER, "This document",
                  (Reply(200, "The OpenAPI 3.1 document",
                         {"type": "object", "required": ["openapi", "paths"]}),)))
async def openapi(request: web.Request) -> dict[str, Any]:
    return openapi_document()


ROOT_TABLES = (play_socket.ROUTES, health.ROOT_ROUTES, web_client.ROUTES, stats_api.FILE_ROUTES)
"""Mounted at the server's root."""
API_TABLES = (lobby_api.ROUTES, replay_api.ROUTES, accounts_api.ROUTES, access_tokens_api.ROUTES,
              players_api.ROUTES, ratings_api.ROUTES, automatch_api.ROUTES,
              passkeys_api.ROUTES, admin_api.ROUTES, stats_api.ROUTES, health.ROUTES, ROUTES)
"""Mounted under /api/v1, in the sub-application with the JSON errors."""

DESCRIPTION = (
    "The lobby of an authoritative Dominion server (base game, first and second edition, "
    "2 to 6 players). Create a table, join or leave it, list and look at games; play over "
    "the WebSocket at /api/v1/ws (docs/PROTOCOL.md).\n\n"
    "Every refusal under /api/v1/ is a JSON body `{\"error\": {\"code\", \"message\"}}` "
    "(schema Error) with a stable code, and a refused request changes nothing. Besides the "
    "codes listed per operation, any path under /api/v1/ that does not exist answers 404 "
    "`not_found`, and a method a path does not have answers 405 `method_not_allowed` with an "
    "Allow header (so does any other path of the server, and a CONNECT). A request that "
    "arrives on a loopback address with a Host header that names neither a loopback "
    "host nor public_url's host answers 421 `unknown_host`, on every path, and a request "
    "from an address prefix an admin banned answers 403 `address_banned`, on every path "
    "(the WebSocket's upgrade too).\n\n"
    "A request that is not well-formed HTTP/1.1 (a method that is not a registered HTTP "
    "method, a request line or header that is too long or holds bytes HTTP does not allow, "
    "too many headers) never reaches this API: the HTTP layer answers it with a plain-text "
    "400 and closes the connection."
)


@cache
def _document() -> dict[str, Any]:
    operations = paths((*ROOT_TABLES, *API_TABLES))
    responses = {
        "NotFound": error("No resource at this path", ErrorCode.NOT_FOUND),
        "MethodNotAllowed": error("The path does not have this method",
                                  ErrorCode.METHOD_NOT_ALLOWED),
        "UnknownHost": error("The Host header is not one of this server's names",
                             ErrorCode.UNKNOWN_HOST),
        "AddressBanned": error("The client's address is banned", ErrorCode.ADDRESS_BANNED),
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Dominion server", "version": "1", "description": DESCRIPTION,
                 "license": {"name": "MIT", "identifier": "MIT"}},
        "servers": [{"url": "/"}],
        "tags": [{"name": tag.value, "description": tag.description} for tag in Tag],
        "paths": operations,
        "components": {
            "schemas": components(operations, responses),
            "parameters": {GAME_ID.shared: GAME_ID.definition()},
            "securitySchemes": {
                "session": {"type": "apiKey", "in": "cookie", "name": "dominion-session",
                            "description": "the web client's session, set by signIn"},
                "accessToken": {"type": "http", "scheme": "bearer",
                                "description": "a personal access token (`dom_…`, createToken) "
                                               "with the scope the operation needs; never in "
                                               "the query string"}},
            "responses": responses},
    }


def openapi_document() -> dict[str, Any]:
    """The document (a fresh copy: callers may change it)."""
    return copy.deepcopy(_document())
