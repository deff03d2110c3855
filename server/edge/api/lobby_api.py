"""The lobby over REST under /api/v1: the server's facts and cards, tables created, listed,
joined and left (each operation declared once: operation.py)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from dominion.bots import STRATEGIES
from dominion.protocol import SUBPROTOCOL, SUBPROTOCOLS, SUPPORTED_VERSIONS, ErrorCode
from dominion.protocol.limits import MAX_CHAT_LENGTH, MAX_CLIENT_FRAME_BYTES
from dominion.protocol.schema import SCHEMA_PATH
from dominion.protocol.spec import Int

from ...cluster import ws_url
from ...engine import RECOMMENDED_KINGDOMS, catalogue_dict
from ...play.lobby import rated_option
from ...play.room import OPEN, Room
from ...refusal import Refusal
from ..state import STATE
from ..transport.prefixes import client_key
from .bearer import SEATING_ERRORS, Use, acting_as
from .filters import (
    ACCOUNT_FILTER_ERRORS,
    ACCOUNT_FILTER_NOTES,
    LISTING,
    GameFilters,
    game_filters,
)
from .game_ratings import rated_games, summary_ratings
from .lobby_models import (
    BOT_PACE,
    MAX_SEAT,
    NAME,
    TOKEN,
    WS_URL,
    Cards,
    CreateGameRequest,
    GameList,
    GameSummary,
)
from .models import encode, member, model, nullable, ref
from .operation import GAME_ID, Operation, Reply, Routes, Tag, read_body, read_json
from .players_api import by_account
from .query import query_parameters

SCHEMA_URL = "/api/v1/protocol/schema.json"
"""The protocol's JSON Schema (every message), as in the repository's protocol/schema.json."""


@model(closed=False, description="Other members are ignored.")
class JoinRequest:
    name: object = member(ref(NAME), "the display name to sit under")


@model(closed=False, description="Other members are ignored.")
class LeaveRequest:
    token: object = member(ref(TOKEN), "the token of the seat to free")


@model()
class Seated:
    """A seat taken, and the token that holds it (shown only here)."""

    game: dict[str, Any] = member(ref(GameSummary))
    seat: int = member({"type": "integer", "minimum": 0, "maximum": MAX_SEAT},
                       "the seat taken: the lowest free one (seat 0 too, if its creator left)")
    token: str = member(ref(TOKEN))
    ws_url: str = member(WS_URL)

    @classmethod
    def of(cls, room: Room, seat: int, token: str) -> Seated:
        return cls(room.summary(), seat, token, ws_url(room.id))


@model()
class Left:
    left: bool = member({"type": "boolean", "const": True})


@model()
class Limits:
    max_frame_bytes: int = member(Int(1024, MAX_CLIENT_FRAME_BYTES))
    messages_per_second: int = member({"type": "integer", "minimum": 1})
    burst: int = member({"type": "integer", "minimum": 1})
    heartbeat_seconds: int = member({"type": "integer", "minimum": 1})
    idle_timeout_seconds: int = member({"type": "integer", "minimum": 1})
    max_chat_length: int = member(Int(1, MAX_CHAT_LENGTH))
    seat_grace_seconds: float = member({"type": "number", "minimum": 0})
    games_per_address: int = member({"type": "integer", "minimum": 0})


@model()
class ServerInfo:
    name: str = member({"type": "string"})
    version: str = member({"type": "string"}, "the server package's version")
    protocol_versions: tuple[int, ...] = member(
        {"type": "array", "items": {"type": "integer"}, "minItems": 1},
        f"WebSocket protocol versions spoken (now {list(SUPPORTED_VERSIONS)})")
    subprotocol: str = member({"type": "string", "const": SUBPROTOCOL},
                              "the newest version's WebSocket subprotocol")
    subprotocols: tuple[str, ...] = member(
        {"type": "array", "items": {"type": "string", "enum": list(SUBPROTOCOLS)}},
        "every subprotocol accepted, newest first")
    websocket: str = member({"type": "string", "const": "/api/v1/ws"})
    schema: str = member({"type": "string", "const": SCHEMA_URL},
                         "the JSON Schema of every protocol message")
    public_url: str | None = member(nullable({"type": "string"}))
    bot_strategies: tuple[str, ...] = member(
        {"type": "array", "items": {"type": "string", "enum": list(STRATEGIES)}},
        "the strategies a table's bot seats may play")
    bot_pace: str = member(BOT_PACE, "the pace of a table whose creator does not choose "
                           "one (the server's `bot_pace`, docs/SERVER.md)")
    limits: Limits = member(ref(Limits))


ROUTES = Routes()
GAME_CODES = (ErrorCode.UNKNOWN_GAME,)


@ROUTES(Operation(
    "GET", "/protocol/schema.json", "protocolSchema", Tag.PLAY,
    "The JSON Schema of every WebSocket protocol message (docs/PROTOCOL.md; generated from "
    "the decoder's definitions)",
    (Reply(200, "A JSON Schema (draft 2020-12)",
           {"type": "object", "required": ["$schema", "$defs"]}),)))
async def protocol_schema(request: web.Request) -> web.Response:
    return web.Response(body=SCHEMA_PATH.read_bytes(), content_type="application/json")


@ROUTES(Operation("GET", "/server", "serverInfo", Tag.SERVER,
                  "The server's name, version, protocol versions and limits",
                  (Reply(200, "The server", ServerInfo),)))
async def server_info(request: web.Request) -> ServerInfo:
    state = request.config_dict[STATE]
    settings = state.settings
    return ServerInfo(
        settings.server_name, state.version, SUPPORTED_VERSIONS, SUBPROTOCOL, SUBPROTOCOLS,
        "/api/v1/ws", SCHEMA_URL, settings.public_url or None, tuple(STRATEGIES),
        settings.bot_pace.value,
        Limits(settings.max_frame_bytes, settings.messages_per_second, settings.burst,
               settings.heartbeat_seconds, settings.idle_timeout_seconds,
               settings.max_chat_length, settings.seat_grace_seconds,
               settings.games_per_address))


@ROUTES(Operation("GET", "/cards", "cards", Tag.SERVER, "The card catalogue, per edition",
                  (Reply(200, "Every card", Cards),)))
async def cards(request: web.Request) -> dict[str, Any]:
    kingdoms = {str(edition): {name: list(cards) for name, cards in sets.items()}
                for edition, sets in RECOMMENDED_KINGDOMS.items()}
    return {"editions": catalogue_dict(), "kingdoms": kingdoms}


@ROUTES(Operation(
    "POST", "/games", "createGame", Tag.GAMES, "Create a table",
    (Reply(201, "The table, and the creator's seat and token", Seated),),
    (ErrorCode.BAD_NAME, ErrorCode.BAD_SEATS, ErrorCode.BAD_EDITION, ErrorCode.BAD_KINGDOM,
     ErrorCode.UNKNOWN_KINGDOM_SET, ErrorCode.BAD_KINGDOM_SIZE, ErrorCode.UNKNOWN_CARD,
     ErrorCode.CARD_NOT_IN_EDITION, ErrorCode.DUPLICATE_CARD, ErrorCode.BAD_BOTS,
     ErrorCode.BAD_OPTION, ErrorCode.BAD_TIME_CONTROL, *SEATING_ERRORS, ErrorCode.NAME_TAKEN,
     ErrorCode.ALREADY_SEATED,
     ErrorCode.TOO_MANY_GAMES, ErrorCode.RATE_LIMITED, ErrorCode.STORAGE_UNAVAILABLE,
     ErrorCode.CLUSTER_UNAVAILABLE, ErrorCode.ACCOUNTS_UNAVAILABLE),
    description="Creates a table with the creator in seat 0 and bots in the seats asked for. "
                "When every seat is taken the game starts at once. The token of seat 0 is "
                "returned only here. A refused request creates nothing.",
    body=CreateGameRequest, cookie=True,
    notes={429: "Too many games from this address (open at once, or created this hour)"}))
async def create_game(request: web.Request) -> web.Response:
    state = request.config_dict[STATE]
    if not await state.storage.probe():
        raise Refusal(ErrorCode.STORAGE_UNAVAILABLE, "the server is not taking new games now")
    directory = request.config_dict[STATE].directory
    if directory.problem is not None:
        raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, f"no new games now: {directory.problem}")
    body = await read_json(request)  # the lobby reads the set-up (CreateGameRequest)
    rated = rated_option(body.get("rated", False))
    open_tables = sum(room.state == OPEN for room in state.lobby.rooms.values())
    if open_tables >= state.settings.open_tables:
        raise Refusal(ErrorCode.TOO_MANY_GAMES, "the server holds as many open tables as it "
                                          "allows; join one, or try again later")
    address = client_key(request)
    state.budgets.charge("games", address, 1)
    room, token = await state.lobby.create(body, address, await acting_as(request, Use.PLAY),
                                           rated=rated)
    await directory.created(room)
    return web.json_response(encode(Seated.of(room, 0, token)), status=201)


@ROUTES(Operation(
    "GET", "/games", "listGames", Tag.GAMES, "List games, newest first",
    (Reply(200, "A page of games", GameList),),
    (ErrorCode.BAD_PAGING, ErrorCode.BAD_STATE, ErrorCode.BAD_FILTER, *ACCOUNT_FILTER_ERRORS),
    parameters=query_parameters(GameFilters, LISTING),
    notes=ACCOUNT_FILTER_NOTES))
async def list_games(request: web.Request) -> dict[str, Any]:
    filters = game_filters(request, LISTING)
    await by_account(request, filters)
    page = await request.config_dict[STATE].directory.listing(filters)
    return page.body(filters["limit"], filters["offset"])


@ROUTES(Operation("GET", "/games/{game_id}", "getGame", Tag.GAMES, "One game's public summary",
                  (Reply(200, "The game", GameSummary),), GAME_CODES, parameters=(GAME_ID,)))
async def get_game(request: web.Request) -> dict[str, Any]:
    state, game_id = request.config_dict[STATE], request.match_info["game_id"]
    try:
        summary: dict[str, Any] = state.lobby.summary(game_id)
    except Refusal as error:  # ended, archived and pruned here, or another node's
        if error.code is not ErrorCode.UNKNOWN_GAME:
            raise
        summary = await state.archive.summary(game_id)
    rated = (await rated_games(request, [summary])).get(summary["id"])
    return summary if rated is None else {**summary, "ratings": summary_ratings(rated)}


@ROUTES(Operation(
    "POST", "/games/{game_id}/join", "joinGame", Tag.GAMES,
    "Take the lowest free seat of an open table",
    (Reply(200, "The seat taken and its token", Seated),),
    (ErrorCode.BAD_NAME, *GAME_CODES, ErrorCode.GAME_FULL, ErrorCode.GAME_STARTED,
     ErrorCode.ALREADY_SEATED, ErrorCode.NAME_TAKEN, *SEATING_ERRORS,
     ErrorCode.ACCOUNTS_UNAVAILABLE, ErrorCode.CLUSTER_UNAVAILABLE),
    description="The game starts as soon as its last seat is taken. The seat's token is "
                "returned only here.",
    body=JoinRequest, parameters=(GAME_ID,), cookie=True))
async def join_game(request: web.Request) -> Seated:
    body = await read_body(request, JoinRequest)
    room, seat, token = await request.config_dict[STATE].lobby.join(
        request.match_info["game_id"], body.name, await acting_as(request, Use.PLAY))
    return Seated.of(room, seat.index, token)


@ROUTES(Operation(
    "POST", "/games/{game_id}/leave", "leaveGame", Tag.GAMES,
    "Free your seat before the game starts",
    (Reply(200, "The seat is free; its token is void", Left),),
    (ErrorCode.BAD_TOKEN, *GAME_CODES, ErrorCode.GAME_STARTED),
    description="A running game cannot be left: resign over the WebSocket.",
    body=LeaveRequest, parameters=(GAME_ID,)))
async def leave_game(request: web.Request) -> Left:
    body = await read_body(request, LeaveRequest)
    await request.config_dict[STATE].lobby.leave(request.match_info["game_id"], body.token)
    return Left(True)
