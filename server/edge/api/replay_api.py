"""Downloading replays: one game (JSON, msgpack or a text log), or many a page at a time
(NDJSON or msgpack, compressed or not: export_body.py)."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace
from importlib import resources
from typing import Any

import msgpack  # type: ignore[import-untyped]
from aiohttp import web

from dominion.protocol import ErrorCode

from ...refusal import Refusal
from ...replays import finished_replay, replay_work, text_log
from ...replays.build import chat_records
from ...replays.dump import ended_replay
from ...replays.fields import SeatRating, seat_ratings
from ...storage.keyset import encode_keyset
from ...storage.records import ENDED, ENDED_STATES, UNFINISHED_STATES
from ..state import STATE
from ..transport.prefixes import client_key
from .export_body import ExportBody, Media, coding_of, media_of
from .export_query import ExportFilters, export_filters
from .filters import (
    ACCOUNT_FILTER_ERRORS,
    ACCOUNT_FILTER_NOTES,
    EXPORT,
    GameFilters,
    game_filters,
)
from .models import component, ref
from .operation import GAME_ID, Operation, Param, Reply, Routes, Tag, Where
from .players_api import by_account
from .query import query_parameters

log = logging.getLogger("dominion.replays")
FORMATS = ("json", "msgpack", "text")
DOWNLOAD_POLICY = {"Content-Security-Policy": "default-src 'none'; sandbox"}
"""Replays hold strangers' names and chat: a browser that opens one runs and loads
nothing of it (every response also says nosniff: app.py)."""
NEXT_CURSOR_HEADER = "X-Dominion-Next-Cursor"
"""On a full page of an export: the `cursor` that asks for the next one."""


def _format(request: web.Request) -> str:
    chosen = request.query.get("format")
    if chosen is None:
        accept = request.headers.get("Accept", "")
        chosen = ("msgpack" if "application/msgpack" in accept
                  else "text" if "text/plain" in accept else "json")
    if chosen not in FORMATS:
        raise Refusal(ErrorCode.BAD_FORMAT, f"format is one of {', '.join(FORMATS)}")
    return chosen


async def ledger_ratings(request: web.Request, game_id: str) -> dict[int, SeatRating] | None:
    """A finished rated game's seats' ratings before and after it, as the ledger has them
    (None: not in the ledger yet, or the account store cannot be reached: the replay is
    worth having without them)."""
    try:
        found = await request.config_dict[STATE].rating_store.game_ratings([game_id])
    except Refusal:
        return None
    rated = found.get(game_id)
    if rated is None:
        return None
    return seat_ratings(rated)


async def with_ratings(request: web.Request, line: bytes
                       ) -> tuple[bytes, dict[str, Any] | None]:
    """An export's line with its rated game's ratings filled in from the ledger (the nodes
    that build the lines know games, not accounts), and the replay when it was read (None:
    an unrated game's line, passed on unread)."""
    if b'"rated":true' not in line:  # compact JSON: in a string, the quotes are escaped
        return line, None
    replay = json.loads(line)
    ratings = await ledger_ratings(request, replay["game"]["id"])
    if ratings is None:
        return line, replay
    for player in replay["players"]:
        rating = ratings.get(player["seat"])
        if rating is not None:
            player["rating_before"], player["rating_after"] = rating.before, rating.after
    return json.dumps(replay, separators=(",", ":")).encode() + b"\n", replay


def rated_at_least(replay: dict[str, Any] | None, rating: int) -> bool:
    """Whether every seat of a rated game had at least `rating` before it (the ledger's
    ratings, read after the selection: the games table holds none)."""
    return replay is not None and all(
        player.get("rating_before") is not None and player["rating_before"] >= rating
        for player in replay["players"])


async def replay_of(request: web.Request, game_id: str) -> dict[str, Any]:
    """The replay of a game: complete once it has ended, a spectator's view before. Its
    work is charged to the client's address first (`rate_limited` if it cannot pay)."""
    state = request.config_dict[STATE]
    address = client_key(request)
    room = state.lobby.rooms.get(game_id)
    if room is not None and room.state in UNFINISHED_STATES:
        state.budgets.charge("work", address, room.replay_work())
        return room.spectator_replay()
    stored = state.storage.load_game(game_id)
    if stored is None:  # ended, archived and pruned here, or played on another node
        return await _archived_replay(request, game_id)
    if room is not None and stored.game.state in UNFINISHED_STATES:
        # the room has ended and its end is still being stored (or stored again later):
        # every answer is durable already, and the room's record says how it ended
        stored = replace(stored, game=room.record)
    if stored.game.state in UNFINISHED_STATES:
        raise Refusal(ErrorCode.UNKNOWN_GAME, f"game {game_id!r} is not loaded")
    state.budgets.charge("work", address, replay_work(len(stored.answers)))
    ratings = await ledger_ratings(request, game_id) if stored.game.rated else None
    return finished_replay(stored, state.storage.chat(game_id), ratings)


async def _archived_replay(request: web.Request, game_id: str) -> dict[str, Any]:
    """An archived game's replay, spliced from the replay the archive keeps (made again
    when the archive kept none, or under another version); paid as a play-back is, so
    that what an address may ask for does not depend on where the game is kept."""
    state = request.config_dict[STATE]
    found = await state.archive.from_archive(game_id)
    if found is None:
        raise Refusal(ErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
    game, chat = found
    state.budgets.charge("work", client_key(request), replay_work(len(game.stored.answers)))
    if game.stored.game.rated:
        game = game._replace(ratings=await ledger_ratings(request, game_id))
    return ended_replay(game, chat_records(chat))


def _replay_component() -> str:
    """The replay's one description, its format's JSON Schema (protocol/replay.schema.json,
    which the tests check every replay against), as the document's `Replay`; its
    definitions become components of their own (`ReplayTime`...)."""
    text = resources.files("dominion.protocol").joinpath("replay.schema.json").read_text()
    schema = json.loads(text)
    del schema["$schema"]
    names = {f"#/$defs/{name}": component("Replay" + name.title().replace("_", ""), value)
             for name, value in schema.pop("$defs").items()}

    def referring(value: Any) -> Any:
        if isinstance(value, dict):
            if "$ref" in value:
                return ref(names[value["$ref"]])
            return {key: referring(item) for key, item in value.items()}
        return [referring(item) for item in value] if isinstance(value, list) else value
    return component("Replay", referring(schema))


REPLAY = _replay_component()
ROUTES = Routes()


@ROUTES(Operation(
    "GET", "/games/{game_id}/replay", "downloadReplay", Tag.REPLAYS,
    "Download one game's replay (docs/REPLAYS.md)",
    (Reply(200, "The replay, as an attachment", REPLAY, more={"content": {
        "application/msgpack": {"schema": {
            "type": "string", "contentMediaType": "application/msgpack",
            "description": "the same map as the JSON replay, in msgpack"}},
        "text/plain": {"schema": {"type": "string",
                                  "description": "the game as players tell it"}}}}),),
    (ErrorCode.BAD_FORMAT, ErrorCode.UNKNOWN_GAME, ErrorCode.RATE_LIMITED),
    description="The format comes from the `format` parameter, else from the Accept header "
                "(application/msgpack, text/plain), else JSON.",
    parameters=(GAME_ID, Param("format", Where.QUERY, {"type": "string", "enum": list(FORMATS)})),
    notes={429: "This address has asked for too many replays for now"}))
async def download(request: web.Request) -> web.Response:
    chosen = _format(request)
    replay = await replay_of(request, request.match_info["game_id"])
    extension = {"json": "json", "msgpack": "msgpack", "text": "txt"}[chosen]
    name = f"{replay['game']['id']}.{extension}"
    headers = {**DOWNLOAD_POLICY, "Content-Disposition": f'attachment; filename="{name}"'}
    if chosen == "msgpack":
        return web.Response(body=msgpack.packb(replay, use_bin_type=True),
                            content_type="application/msgpack", headers=headers)
    if chosen == "text":
        return web.Response(text=text_log(replay), content_type="text/plain", headers=headers)
    return web.json_response(replay, headers=headers)


MEDIA_NOTE = {"schema": {"type": "string"}, "x-itemSchema": ref(REPLAY)}


@ROUTES(Operation(
    "GET", "/replays/export", "exportReplays", Tag.REPLAYS,
    "Ended games' replays (finished and abandoned), newest first, a page at a time",
    (Reply(200, "One Replay each: NDJSON, or a msgpack stream for `Accept: "
           "application/msgpack`", {"type": "string"}, "application/x-ndjson", more={
        "content": {Media.NDJSON.value: MEDIA_NOTE, Media.MSGPACK.value: MEDIA_NOTE},
        "headers": {
            NEXT_CURSOR_HEADER: {
                "description": "The `cursor` of the next page; absent on the last page",
                "schema": {"type": "string"}},
            "Content-Encoding": {
                "description": "`zstd` or `gzip` when Accept-Encoding offers it (zstd "
                               "first)", "schema": {"type": "string"}}}}),),
    (ErrorCode.BAD_FILTER, ErrorCode.BAD_PAGING, ErrorCode.BAD_CURSOR, ErrorCode.BAD_STATE,
     *ACCOUNT_FILTER_ERRORS),
    description="Page with `cursor` (the `X-Dominion-Next-Cursor` header of the page "
                "before), not `offset` (still taken, alone: it stops at 10,000 across "
                "nodes). docs/REPLAYS.md, \"Exporting many replays\".",
    parameters=query_parameters(
        Param("state", Where.QUERY, {"type": "string", "enum": [*ENDED_STATES, ENDED]},
              "only games that ended this way (`ended`, the default: either way)"),
        GameFilters, ExportFilters, EXPORT),
    notes=ACCOUNT_FILTER_NOTES))
async def export(request: web.Request) -> web.StreamResponse:
    """Ended games' replays (finished and abandoned, or the one `state` asked for), newest
    first, a page at a time (from the archive every node reads, and this node's games it
    has not taken yet: play/archive.py), and no faster than the client's address may cost
    (server/edge/transport/budgets.py)."""
    state = request.config_dict[STATE]
    address = client_key(request)
    filters = game_filters(request, EXPORT)
    chosen = export_filters(request, filters)
    await by_account(request, filters)
    if filters["state"] not in (None, ENDED, *ENDED_STATES):
        raise Refusal(ErrorCode.BAD_STATE, "the export holds ended games: state is "
                                     f"{', '.join(ENDED_STATES)} or {ENDED}")
    filters["state"] = filters["state"] or ENDED

    async def pay(work: int) -> None:
        """Before each replay's work: stop if the client has left; else slow down to what
        the address may cost, rather than fail midway."""
        if request.transport is None or request.transport.is_closing():
            raise ConnectionResetError("the client has left")
        while wait := state.budgets.seconds_until("work", address, work):
            await asyncio.sleep(wait)
        state.budgets.charge("work", address, work)

    export = await state.archive.export(filters, pay)
    body = ExportBody(media_of(request), coding_of(request))
    headers = {**DOWNLOAD_POLICY, **body.headers()}
    if export.next_key is not None:
        headers[NEXT_CURSOR_HEADER] = encode_keyset(export.next_key)
    response = web.StreamResponse(headers=headers)
    await response.prepare(request)
    if request.method == "HEAD":
        # the headers only: aiohttp would send what is written next, and a client would
        # read it as the next response on the connection
        await response.write_eof()
        return response
    try:
        async for stored_line in export.lines:
            line, replay = await with_ratings(request, stored_line)
            if chosen.rating_min is None or rated_at_least(replay, chosen.rating_min):
                await response.write(body.replay(line, replay))
            await asyncio.sleep(0)  # each replay lets the games run (its work is paid)
        await response.write(body.end())
        await response.write_eof()
    except ConnectionError:  # the client left mid-stream: its doing, not the server's
        log.debug("an export's client left", extra={"address": address})
    return response
