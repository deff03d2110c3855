"""The REST lobby under /api/v1 (JSON). Every refusal is a JSON error with a stable code."""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from dominion.clients.bots import STRATEGIES
from dominion.protocol import SUBPROTOCOL, SUBPROTOCOLS, SUPPORTED_VERSIONS, ErrorCode
from dominion.protocol.schema import SCHEMA_PATH

from ..cluster import ws_url
from ..engine import RECOMMENDED_KINGDOMS, catalogue_dict
from ..errors import GameError
from ..play.lobby import rated_option
from ..play.room import OPEN
from .bearer import Use, acting_as
from .filters import MAX_PAGE, game_filters
from .listener import WARNINGS
from .openapi import openapi_document
from .players_api import by_account
from .prefixes import client_key
from .state import DIRECTORY, STATE

log = logging.getLogger("dominion.rest")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
SCHEMA_URL = "/api/v1/protocol/schema.json"
"""The protocol's JSON Schema (every message), as in the repository's protocol/schema.json."""
MAX_BODY_BYTES = 64 * 1024
"""The largest request body the server reads."""

def error_response(code: ErrorCode, message: str, retry_after_ms: int | None = None
                   ) -> web.Response:
    if retry_after_ms is None:
        return web.json_response({"error": {"code": code, "message": message}},
                                 status=code.status)
    # a refusal for the rate says when to come back, in the body and as HTTP says it
    return web.json_response(
        {"error": {"code": code, "message": message, "retry_after_ms": retry_after_ms}},
        status=code.status,
        headers={"Retry-After": str(math.ceil(retry_after_ms / 1000))})


def method_not_allowed(method: str, allowed: Iterable[str]) -> web.Response:
    return web.json_response(
        {"error": {"code": ErrorCode.METHOD_NOT_ALLOWED,
                   "message": f"{method} is not allowed here"}},
        status=405, headers={"Allow": ",".join(sorted(allowed))})


@web.middleware
async def json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turn every failure under /api/v1 into the JSON error shape (the REST sub-application
    only: the WebSocket route is outside it, so its connections carry no middleware)."""
    try:
        return await handler(request)
    except GameError as error:
        return error_response(error.code, error.message, error.retry_after_ms)
    except web.HTTPRequestEntityTooLarge:
        return error_response(ErrorCode.BODY_TOO_LARGE, "the request body is too large")
    except web.HTTPNotFound:
        return error_response(ErrorCode.NOT_FOUND, f"no resource at {request.path}")
    except web.HTTPMethodNotAllowed as error:
        return method_not_allowed(request.method, error.allowed_methods)
    except web.HTTPException:
        raise
    except Exception:
        log.exception("a REST request failed", extra={"path": request.path})
        return error_response(ErrorCode.INTERNAL_ERROR, "the server failed; try again later")


@web.middleware
def unmatched_as_json(request: web.Request, handler: Handler) -> Awaitable[web.StreamResponse]:
    """The main application's requests that match no route (a path outside /api/v1, a
    CONNECT whose target is not a path) get the JSON error shape too. A plain function,
    not a coroutine: a matched request (a WebSocket's, above all) goes on to its handler
    without a middleware frame on its stack for its whole life."""
    error = request.match_info.http_exception
    if error is None:
        return handler(request)
    return _refusal(request, error)


@web.middleware
def declared_body_fits(request: web.Request, handler: Handler
                       ) -> Awaitable[web.StreamResponse]:
    """A body declared larger than the server reads is refused at once, before any of it
    is waited for (a plain function, like `unmatched_as_json`)."""
    declared = request.content_length
    if declared is None or declared <= request.client_max_size:
        return handler(request)
    return _too_large()


async def _too_large() -> web.Response:
    return error_response(ErrorCode.BODY_TOO_LARGE, "the request body is larger than "
                                            f"{MAX_BODY_BYTES} bytes")


async def _refusal(request: web.Request, error: web.HTTPException) -> web.Response:
    if isinstance(error, web.HTTPMethodNotAllowed):
        return method_not_allowed(request.method, error.allowed_methods)
    return error_response(ErrorCode.NOT_FOUND, f"no resource at {request.path or request.raw_path}")


async def read_json(request: web.Request) -> dict[str, Any]:
    if request.content_type != "application/json":
        raise GameError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "send a JSON body (application/json)")
    timeout = request.config_dict[STATE].settings.body_timeout_seconds
    try:
        async with asyncio.timeout(timeout):
            raw = await request.read()
    except (ConnectionError, HttpProcessingError):  # the client: gone, or a short body
        raise GameError(ErrorCode.BAD_JSON, "the body ended before its length") from None
    except TimeoutError:  # the connection is closed after the answer (the body is unread)
        request.config_dict[WARNINGS].warn("a request body stopped arriving",
                                           client_key(request))
        raise GameError(ErrorCode.BODY_TIMEOUT, f"the body did not arrive within {timeout:g} s"
                        ) from None
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise GameError(ErrorCode.BAD_JSON, "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise GameError(ErrorCode.BAD_JSON, "the body must be a JSON object")
    return body


def add_rest_routes(app: web.Application) -> None:
    routes = web.RouteTableDef()

    @routes.get("/protocol/schema.json")
    async def protocol_schema(request: web.Request) -> web.Response:
        return web.Response(body=SCHEMA_PATH.read_bytes(), content_type="application/json")

    @routes.get("/server")
    async def server_info(request: web.Request) -> web.Response:
        state = request.config_dict[STATE]
        settings = state.settings
        return web.json_response({
            "name": settings.server_name,
            "version": state.version,
            "protocol_versions": list(SUPPORTED_VERSIONS),
            "subprotocol": SUBPROTOCOL,
            "subprotocols": list(SUBPROTOCOLS),
            "websocket": "/api/v1/ws",
            "schema": SCHEMA_URL,
            "public_url": settings.public_url or None,
            "bot_strategies": list(STRATEGIES),
            "limits": {
                "max_frame_bytes": settings.max_frame_bytes,
                "messages_per_second": settings.messages_per_second,
                "burst": settings.burst,
                "heartbeat_seconds": settings.heartbeat_seconds,
                "idle_timeout_seconds": settings.idle_timeout_seconds,
                "max_chat_length": settings.max_chat_length,
                "seat_grace_seconds": settings.seat_grace_seconds,
                "games_per_address": settings.games_per_address,
            },
        })

    @routes.get("/cards")
    async def cards(request: web.Request) -> web.Response:
        kingdoms = {str(edition): {name: list(cards) for name, cards in sets.items()}
                    for edition, sets in RECOMMENDED_KINGDOMS.items()}
        return web.json_response({"editions": catalogue_dict(), "kingdoms": kingdoms})

    @routes.post("/games")
    async def create_game(request: web.Request) -> web.Response:
        state = request.config_dict[STATE]
        if not await state.storage.probe():
            raise GameError(ErrorCode.STORAGE_UNAVAILABLE, "the server is not taking new games now")
        directory = request.config_dict[DIRECTORY]
        if directory.problem is not None:
            raise GameError(ErrorCode.CLUSTER_UNAVAILABLE, f"no new games now: {directory.problem}")
        body = await read_json(request)
        rated = rated_option(body.get("rated", False))
        open_tables = sum(room.state == OPEN for room in state.lobby.rooms.values())
        if open_tables >= state.settings.open_tables:
            raise GameError(ErrorCode.TOO_MANY_GAMES, "the server holds as many open tables as it "
                                              "allows; join one, or try again later")
        address = client_key(request)
        state.budgets.charge("games", address, 1)
        room, token = await state.lobby.create(body, address, await acting_as(request, Use.PLAY),
                                               rated=rated)
        await directory.created(room)
        return web.json_response({"game": room.summary(), "seat": 0, "token": token,
                                  "ws_url": ws_url(room.id)}, status=201)

    @routes.get("/games")
    async def list_games(request: web.Request) -> web.Response:
        filters = game_filters(request, default_limit=20, max_limit=MAX_PAGE)
        await by_account(request, filters)
        page = await request.config_dict[DIRECTORY].listing(filters)
        return web.json_response(page.body(filters["limit"], filters["offset"]))

    @routes.get("/games/{game_id}")
    async def get_game(request: web.Request) -> web.Response:
        lobby = request.config_dict[STATE].lobby
        return web.json_response(lobby.summary(request.match_info["game_id"]))

    @routes.post("/games/{game_id}/join")
    async def join_game(request: web.Request) -> web.Response:
        body = await read_json(request)
        room, seat, token = await request.config_dict[STATE].lobby.join(
            request.match_info["game_id"], body.get("name"), await acting_as(request, Use.PLAY))
        return web.json_response({"game": room.summary(), "seat": seat.index, "token": token,
                                  "ws_url": ws_url(room.id)})

    @routes.post("/games/{game_id}/leave")
    async def leave_game(request: web.Request) -> web.Response:
        body = await read_json(request)
        lobby = request.config_dict[STATE].lobby
        await lobby.leave(request.match_info["game_id"], body.get("token"))
        return web.json_response({"left": True})

    @routes.get("/openapi.json")
    async def openapi(request: web.Request) -> web.Response:
        return web.json_response(openapi_document())

    app.router.add_routes(routes)
