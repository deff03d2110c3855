"""The export's own query: its opaque cursor (a keyset on the games' end time and id) and
the filters for analysts that the listings do not take. Declared once as a query model
(query.py): read, checked and documented from the same declaration."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from ...refusal import Refusal
from ...storage.keyset import Keyset, decode_keyset
from .filters import CARD_ID, kingdom_card
from .query import param, query_model, read_query

MAX_CARDS = 10
"""A Kingdom's cards: asking for more than it holds matches nothing."""


def _flag(raw: str) -> bool:
    if raw not in ("true", "false"):
        raise ValueError(raw)
    return raw == "true"


def _cards(raw: str) -> tuple[str, ...]:
    cards = tuple(dict.fromkeys(raw.split(",")))
    if len(cards) > MAX_CARDS:
        raise Refusal(ErrorCode.BAD_FILTER, f"cards names at most {MAX_CARDS} cards")
    return tuple(kingdom_card(card) for card in cards)


FLAG = {"type": "string", "enum": ["true", "false"]}


@query_model
class ExportFilters:
    """What an analyst narrows an export to, besides the listings' filters, and where a
    page starts."""

    cursor: Keyset | None = param(
        {"type": "string"},
        "where this page starts: the `X-Dominion-Next-Cursor` of the page before (opaque; "
        "absent: the newest ended game). Not with `offset`", code=ErrorCode.BAD_CURSOR,
        message="cursor is not one this server gave: start again without one",
        read=decode_keyset)
    rated: bool | None = param(FLAG, "`true`: rated games only; `false`: unrated only",
                               read=_flag, message="rated is true or false")
    people: bool | None = param(
        FLAG, "`true`: no seat was a bot from the start (in-server or a bot account); "
        "`false`: games with one", read=_flag, message="people is true or false")
    takeovers: bool | None = param(
        FLAG, "`false`: no bot took a seat over from an absent player; `true`: one did",
        read=_flag, message="takeovers is true or false")
    rating_min: int | None = param(
        {"type": "integer", "minimum": 0, "maximum": 10_000},
        "rated games whose every seat's rating before the game (from the ratings ledger) "
        "is at least this; read from each selected game's replay, so a page may hold fewer "
        "replays than `limit` (keep following the cursor)",
        message="rating_min is 0 to 10000")
    cards: tuple[str, ...] = param(
        {"type": "string", "pattern": "^[a-z_]+(,[a-z_]+)*$"},
        f"comma-separated Kingdom card ids, at most {MAX_CARDS}: the Kingdom holds every "
        f"one ({CARD_ID['description']}s)", read=_cards, default=())


def export_filters(request: web.Request, filters: dict[str, Any]) -> ExportFilters:
    """The export's own query, checked, added to the listing's `filters` as the storage
    takes them (a cursor and an offset together are refused: `bad_paging`)."""
    chosen = read_query(request, ExportFilters)
    if chosen.cursor is not None and filters["offset"]:
        raise Refusal(ErrorCode.BAD_PAGING, "give a cursor or an offset, not both")
    filters.update(before=chosen.cursor, cards=chosen.cards, people=chosen.people,
                   takeovers=chosen.takeovers,
                   rated=True if chosen.rating_min is not None else chosen.rated)
    return chosen
