"""Card statistics and the dumps they are read from, over REST (docs/STATISTICS.md): per
Kingdom card, openings, the first player's advantage and game lengths, each under the
same filters, every rate with its sample size and 95 % Wilson interval; the list of dumps
with their manifests, and the dump files themselves (`GET /dumps/NAME`, with range
requests; nginx serves the folder itself in front of a host: deploy/nginx)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from ...refusal import Refusal
from ...replays.dump import LICENCE
from ...replays.statistics import (
    BAND_WIDTH,
    CardFigures,
    Filters,
    FirstPlayer,
    Length,
    Opening,
    Rate,
    Statistics,
    Who,
)
from ..rest import error_response
from ..state import STATE
from ..transport.prefixes import client_key
from .models import TIMESTAMP, Schema, member, model, ref
from .operation import Operation, Param, Reply, Routes, Tag, Where
from .players_api import BUDGET
from .query import param, query_model, query_parameters, read_query

MAX_OPENINGS = 100
OPENINGS = 20
"""The openings an answer lists unless `limit` says otherwise."""
MAX_BAND = 4000
DUMP_FILE = re.compile(r"^dominion-(all|\d{4}-\d{2}(-\d{2})?)\."
                       r"(replays\.ndjson\.zst|games\.parquet|seats\.parquet|gains\.parquet|"
                       r"manifest\.json)$")
"""The names of the files a dump is made of: nothing else in the folder is served."""
COUNT: Schema = {"type": "integer", "minimum": 0}
SHARE: Schema = {"type": "number", "minimum": 0, "maximum": 1}
NO_STATISTICS = {404: "The server keeps no dumps (`--dumps`), or has no DuckDB to read "
                      "them (the `[stats]` extra)", 429: "The address asked too often"}


def _rated(raw: str) -> bool:
    if raw not in ("true", "false"):
        raise ValueError(raw)
    return raw == "true"


def _band(raw: str) -> int:
    band = int(raw)
    if band % BAND_WIDTH or not 0 <= band <= MAX_BAND:
        raise ValueError(raw)
    return band


@query_model
class StatsFilters:
    edition: int | None = param({"type": "integer", "enum": [1, 2]},
                                message="edition is 1 or 2")
    players: int | None = param({"type": "integer", "minimum": 2, "maximum": 6},
                                message="players is 2 to 6")
    rated: bool = param({"type": "boolean"}, "rated games only", read=_rated,
                        message="rated is true or false", default=False)
    band: int | None = param(
        {"type": "integer", "minimum": 0, "maximum": MAX_BAND, "multipleOf": BAND_WIDTH},
        f"a rating band's lower end: seats rated (before the game) from it to {BAND_WIDTH} "
        "more (for a game's figures, games whose seats' mean rating is in it); rated games "
        "only", read=_band, message=f"band is a multiple of {BAND_WIDTH} from 0 to {MAX_BAND}",
        default=None)
    who: Who = param({"type": "string", "enum": [who.value for who in Who]},
                     "people's seats (games a person played in), or bots' (games only bots "
                     "played)", read=Who, message="who is people or bots", default=Who.PEOPLE)

    def filters(self) -> Filters:
        return Filters(self.edition, self.players, self.rated, self.band, self.who)


@query_model
class OpeningsLimit:
    limit: int = param({"type": "integer", "minimum": 1, "maximum": MAX_OPENINGS},
                       f"how many (default {OPENINGS})",
                       message=f"limit is 1 to {MAX_OPENINGS}", default=OPENINGS)


@model("`hits` of `n`, and the 95 % Wilson score interval of the rate (all 0 when n is 0).")
class StatShare:
    n: int = member(COUNT)
    hits: int = member(COUNT)
    rate: float = member(SHARE)
    low: float = member(SHARE)
    high: float = member(SHARE)

    @classmethod
    def of(cls, rate: Rate) -> StatShare:
        return cls(rate.n, rate.hits, round(rate.rate, 4), round(rate.low, 4),
                   round(rate.high, 4))


@model()
class CardStat:
    card: str = member({"type": "string"}, "the card's id")
    in_supply: int = member(COUNT, "seats in games with the card in the Supply")
    gain_rate: StatShare = member(ref(StatShare), "of those, the seats that gained or bought "
                                                  "it at least once")
    with_card: StatShare = member(ref(StatShare), "the wins of the seats that gained it")
    without_card: StatShare = member(ref(StatShare), "the wins of the seats that did not")

    @classmethod
    def of(cls, figures: CardFigures) -> CardStat:
        return cls(figures.card, figures.in_supply, StatShare.of(figures.gain_rate),
                   StatShare.of(figures.with_card), StatShare.of(figures.without_card))


PERIODS: Schema = {"type": "array", "items": {"type": "string"},
                   "description": "the dumps counted, by period (docs/STATISTICS.md)"}


@model("Each Kingdom card's figures under the filters, by card id.")
class CardStats:
    periods: list[str] = member(PERIODS)
    cards: list[CardStat] = member({"type": "array", "items": ref(CardStat)})


@model()
class OpeningStat:
    cards: list[str] = member({"type": "array", "items": {"type": "string"}},
                              "what a player gained on their turns 1 and 2, sorted (none: "
                              "nothing)")
    share: StatShare = member(ref(StatShare), "the seats that opened so, of all counted")
    wins: StatShare = member(ref(StatShare), "their wins")

    @classmethod
    def of(cls, opening: Opening) -> OpeningStat:
        return cls(list(opening.cards), StatShare.of(opening.share), StatShare.of(opening.wins))


@model("The most frequent openings under the filters, most frequent first.")
class OpeningStats:
    periods: list[str] = member(PERIODS)
    seats: int = member(COUNT, "the seats counted")
    openings: list[OpeningStat] = member({"type": "array", "items": ref(OpeningStat)})


@model()
class FirstPlayerStat:
    players: int = member({"type": "integer", "minimum": 2, "maximum": 6})
    wins: StatShare = member(ref(StatShare), "the first player's wins (a shared win counts)")
    fair: float = member(SHARE, "the share if the order made no difference: 1 / players")

    @classmethod
    def of(cls, row: FirstPlayer) -> FirstPlayerStat:
        return cls(row.players, StatShare.of(row.wins), round(row.fair, 4))


@model()
class LengthStat:
    turns: int = member(COUNT, "the most turns any player of the game took")
    games: int = member(COUNT)


@model("The first player's advantage by player count, and how long games last.")
class GameStats:
    periods: list[str] = member(PERIODS)
    first_player: list[FirstPlayerStat] = member({"type": "array",
                                                  "items": ref(FirstPlayerStat)})
    lengths: list[LengthStat] = member({"type": "array", "items": ref(LengthStat)},
                                       "games by length, shortest first")


@model()
class DumpFileEntry:
    name: str = member({"type": "string"})
    url: str = member({"type": "string"}, "where to download it: /dumps/NAME")
    rows: int = member(COUNT)
    bytes: int = member(COUNT)
    sha256: str = member({"type": "string", "pattern": "^[0-9a-f]{64}$"})


@model()
class DumpEntry:
    period: str = member({"type": "string"}, "a month (2026-12), a day (2026-12-02) or all")
    made_at: str = member(TIMESTAMP)
    licence: str = member({"type": "string"})
    files: list[DumpFileEntry] = member({"type": "array", "items": ref(DumpFileEntry)})


@model("The dumps the server keeps, newest period first (docs/REPLAYS.md, \"Dumps\").")
class DumpList:
    licence: str = member({"type": "string"}, "the files' licence: CC0 1.0")
    dumps: list[DumpEntry] = member({"type": "array", "items": ref(DumpEntry)})


ROUTES = Routes()
STATS_ERRORS = (ErrorCode.BAD_FILTER, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED)


async def _statistics(request: web.Request) -> tuple[Statistics, Filters]:
    state = request.config_dict[STATE]
    if state.statistics is None:
        raise Refusal(ErrorCode.NOT_FOUND, "this server keeps no card statistics")
    filters = read_query(request, StatsFilters).filters()
    state.budgets.charge(BUDGET, client_key(request), 1)
    return state.statistics, filters


def _periods(statistics: Statistics) -> list[str]:
    return sorted(part.period for part in statistics.parts)


@ROUTES(Operation(
    "GET", "/stats/cards", "cardStatistics", Tag.REPLAYS,
    "Each Kingdom card's gain rate and the win rates of the seats that gained it and that "
    "did not, among games with it in the Supply",
    (Reply(200, "The cards' figures", CardStats),), STATS_ERRORS,
    parameters=query_parameters(StatsFilters), notes=NO_STATISTICS))
async def card_statistics(request: web.Request) -> CardStats:
    statistics, filters = await _statistics(request)
    cards = await asyncio.to_thread(statistics.cards, filters)
    return CardStats(_periods(statistics), [CardStat.of(figures) for figures in cards])


@ROUTES(Operation(
    "GET", "/stats/openings", "openingStatistics", Tag.REPLAYS,
    "The most frequent openings (a player's gains on their turns 1 and 2) and their win "
    "rates", (Reply(200, "The openings", OpeningStats),), STATS_ERRORS,
    parameters=query_parameters(StatsFilters, OpeningsLimit), notes=NO_STATISTICS))
async def opening_statistics(request: web.Request) -> OpeningStats:
    statistics, filters = await _statistics(request)
    limit = read_query(request, OpeningsLimit).limit
    seats, openings = await asyncio.to_thread(statistics.openings, filters, limit)
    return OpeningStats(_periods(statistics), seats, [OpeningStat.of(o) for o in openings])


@ROUTES(Operation(
    "GET", "/stats/games", "gameStatistics", Tag.REPLAYS,
    "The first player's win rate by player count, and the distribution of game lengths",
    (Reply(200, "The games' figures", GameStats),), STATS_ERRORS,
    parameters=query_parameters(StatsFilters), notes=NO_STATISTICS))
async def game_statistics(request: web.Request) -> GameStats:
    statistics, filters = await _statistics(request)
    first = await asyncio.to_thread(statistics.first_player, filters)
    lengths: list[Length] = await asyncio.to_thread(statistics.lengths, filters)
    return GameStats(_periods(statistics), [FirstPlayerStat.of(row) for row in first],
                     [LengthStat(row.turns, row.games) for row in lengths])


@ROUTES(Operation(
    "GET", "/dumps", "dumps", Tag.REPLAYS,
    "The dumps the server keeps: each period's files with their rows, sizes and SHA-256",
    (Reply(200, "The dumps", DumpList),), (ErrorCode.NOT_FOUND,),
    notes={404: "The server keeps no dumps (`--dumps`)"}))
async def dump_list(request: web.Request) -> DumpList:
    folder = _dumps_folder(request)
    return DumpList(LICENCE, await asyncio.to_thread(_read_manifests, folder))


def _dumps_folder(request: web.Request) -> Path:
    folder = request.config_dict[STATE].settings.dumps
    if not folder:
        raise Refusal(ErrorCode.NOT_FOUND, "this server keeps no dumps")
    return Path(folder)


def _read_manifests(folder: Path) -> list[DumpEntry]:
    entries = []
    for path in sorted(folder.glob("dominion-*.manifest.json"), reverse=True):
        try:
            manifest: dict[str, Any] = json.loads(path.read_text())
            entries.append(DumpEntry(
                manifest["period"], manifest["made_at"], manifest["licence"],
                [DumpFileEntry(entry["name"], f"/dumps/{entry['name']}", entry["rows"],
                               entry["bytes"], entry["sha256"])
                 for entry in manifest["files"]]))
        except (OSError, ValueError, KeyError):  # being written, or not a dump's
            continue
    return entries


FILE_ROUTES = Routes(prefix="")
"""`GET /dumps/NAME`: a dump's file, as nginx serves the folder in front of a host."""


@FILE_ROUTES(Operation(
    "GET", "/dumps/{name}", "dumpFile", Tag.REPLAYS,
    "A dump's file (range requests answered)",
    (Reply(200, "The file", {"type": "string", "format": "binary"},
           "application/octet-stream"),
     Reply(206, "The range asked for", {"type": "string", "format": "binary"},
           "application/octet-stream")),
    (ErrorCode.NOT_FOUND,),
    parameters=(Param("name", Where.PATH, {"type": "string"},
                      "as the dump's manifest names it"),),
    notes={404: "No such file, or the server keeps no dumps"}))
async def dump_file(request: web.Request) -> web.StreamResponse:
    name, folder = request.match_info["name"], request.config_dict[STATE].settings.dumps
    path = Path(folder) / name
    if not folder or not DUMP_FILE.match(name) or not path.is_file():
        # at the root, outside /api/v1: the JSON error made here (as web.py's files)
        return error_response(ErrorCode.NOT_FOUND, f"no dump file {name!r}")
    return web.FileResponse(path, headers={"Content-Type": "application/octet-stream"
                                           if not name.endswith(".json")
                                           else "application/json"})
