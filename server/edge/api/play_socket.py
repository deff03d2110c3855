"""The WebSocket's route, where players and spectators play (connection.py serves each
socket), and the node's Prometheus metrics."""

from __future__ import annotations

from aiohttp import hdrs, web

from dominion.protocol import SUBPROTOCOL, SUBPROTOCOLS

from ...accounts import Account
from ...refusal import Refusal
from ..rest import method_not_allowed
from ..state import STATE
from ..transport.connection import Connection
from ..transport.origins import origin_allowed
from ..transport.prefixes import client_key
from .models import Schema
from .operation import Operation, Param, Reply, Routes, Tag, Where
from .sessions import signed_in_session


def _text(description: str) -> Schema:
    return {"description": description,
            "content": {"text/plain": {"schema": {"type": "string"}}}}


WEBSOCKET = (
    "Players and spectators play over a WebSocket at this path, with the subprotocol "
    f"`{SUBPROTOCOL}` (or an older one of {', '.join(SUBPROTOCOLS[1:])}) and binary msgpack "
    "frames: hello, join a seat with its token (from createGame or joinGame) or watch as a "
    "spectator, snapshots, updates (numbered events and the next decision), answers, chat, "
    "resign, game over and resume. The whole protocol is in docs/PROTOCOL.md; its limits are "
    "in GET /api/v1/server. Requests with an Origin header (browsers') must come from "
    "public_url, the server's own address or an allowed Origin. The session cookie signs "
    "the socket in only when the Origin names this server itself (public_url or its own "
    "address); without an Origin the socket is a guest's whatever cookie it sends."
)
ROUTES = Routes(prefix="")
"""On the main application: the WebSocket route is matched before the REST
sub-application's (the longest path wins) and runs without its middleware."""


async def websocket_methods(request: web.Request) -> web.Response:
    return method_not_allowed(request.method, ["GET"])


@ROUTES(Operation(
    "GET", "/api/v1/ws", "websocket", Tag.PLAY,
    "WebSocket play (protocol v2 or v1, binary msgpack frames)",
    (Reply(101, "Switching protocols: the version is settled by hello and welcome "
                "(docs/PROTOCOL.md)"),),
    description=WEBSOCKET,
    parameters=(
        Param("Upgrade", Where.HEADER, {"type": "string", "const": "websocket"}, required=True),
        Param("Sec-WebSocket-Protocol", Where.HEADER, {"type": "string"},
              "the subprotocols the client speaks, newest first, for example "
              f"`{', '.join(SUBPROTOCOLS)}`. Optional: the hello decides the version. "
              "Without it the upgrade has no subprotocol; with it, the server echoes the "
              "first name it knows, and refuses the upgrade (400) when it knows none")),
    failures={
        400: _text("Not a WebSocket upgrade request, or no subprotocol offered that this "
                   "server speaks"),
        403: _text("This Origin may not connect: it is not a bare scheme://host[:port] "
                   "naming public_url, the server's own address or one of allowed_origins"),
        429: _text("Too many connections from this address")},
    cookie=True))
async def websocket(request: web.Request) -> web.StreamResponse:
    state = request.config_dict[STATE]
    settings = state.settings
    if not origin_allowed(request):
        raise web.HTTPForbidden(text="this Origin may not connect")
    offered = request.headers.get("Sec-WebSocket-Protocol")
    if offered is not None and not {name.strip() for name in offered.split(",")} & set(
            SUBPROTOCOLS):
        # upgraded, a strict client library would abort on the missing subprotocol
        raise web.HTTPBadRequest(text="none of the offered subprotocols is spoken here; "
                                      f"this server speaks {', '.join(SUBPROTOCOLS)}")
    address = client_key(request)
    if state.per_address.get(address, 0) >= settings.connections_per_address:
        raise web.HTTPTooManyRequests(text="too many connections from your address")
    # No permessage-deflate: frames are small msgpack, and zlib state per connection costs
    # memory and CPU for little gain.
    ws = web.WebSocketResponse(protocols=SUBPROTOCOLS, compress=False, autoping=False,
                               max_msg_size=4 * settings.max_frame_bytes)
    if request.transport is not None:  # a WebSocket from here on: counted in per_address
        request.config_dict[STATE].connection_count.release(request.transport)
    await ws.prepare(request)
    transport = request.transport
    if transport is None:  # the client is already gone
        return ws
    connection = Connection(ws, state, address, transport,
                            request.config_dict[STATE].accounts.access_tokens,
                            request.headers.get(hdrs.AUTHORIZATION),
                            await _session_account(request))
    state.connections.add(connection)
    state.per_address[address] = state.per_address.get(address, 0) + 1
    state.metrics.connections.inc()
    try:
        await connection.serve()
    finally:
        state.connections.discard(connection)
        state.per_address[address] -= 1
        if not state.per_address[address]:
            del state.per_address[address]
        state.metrics.connections.dec()
    return ws


async def _session_account(request: web.Request) -> tuple[bytes, Account] | None:
    """The session (its hash) the server's own web page is signed in by (its cookie), and
    its account, for a socket without an access token: the web client seeks automatches
    as its account. None unless the cross-site rule let the cookie count (sessions.py:
    another site's page, or no Origin at all), for a bot account (it plays only with
    bot:play tokens) and while the accounts cannot be read (the socket is then a
    guest's, as the page is)."""
    if request.headers.get(hdrs.AUTHORIZATION) is not None:
        return None
    try:
        session = await signed_in_session(request)
    except Refusal:
        return None
    return None if session is None or session[1].bot else session


@ROUTES(Operation("GET", "/metrics", "metrics", Tag.OPERATIONS,
                  "Prometheus metrics (text exposition format)",
                  (Reply(200, "Connections, live games, answers, errors by code, and more",
                         {"type": "string"}, "text/plain"),)))
async def metrics(request: web.Request) -> web.Response:
    body = request.config_dict[STATE].metrics.exposition()
    return web.Response(body=body, content_type="text/plain", charset="utf-8")


# other methods are refused here: unmatched, they would fall through to the REST
# sub-application and be "not found"
ROUTES.also("*", "/api/v1/ws", websocket_methods)
