"""Query-string filters for listing games and exporting replays, declared once as query
models (query.py): read, checked and documented from the same declaration."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from ...engine.cards import kingdom_cards
from ...engine.setup import MAX_PLAYERS, MIN_PLAYERS
from ...refusal import Refusal
from ...storage.records import LISTING_STATES
from .models import Schema
from .operation import Param
from .query import QueryField, param, query_model, read_query

STATES = LISTING_STATES
MAX_OFFSET = 2**31 - 1
"""The furthest page start a listing takes (SQLite's integers stop at 2**63 - 1)."""
MAX_PAGE = 100
"""Most games one page of a listing holds."""
EXPORT_MAX = 1000
"""Most replays one export request streams."""
ACCOUNT_FILTER_ERRORS = (ErrorCode.RATE_LIMITED, ErrorCode.CLUSTER_UNAVAILABLE,
                         ErrorCode.ACCOUNTS_UNAVAILABLE)
"""What a listing with `account=` may answer besides its own refusals (by_account)."""
ACCOUNT_FILTER_NOTES = {
    429: "Too many `account=` look-ups from this address (as profiles; retry_after_ms)",
    503: "Redis (several nodes only) or, for `account=`, the account store is unreachable"}
CARD_ID: Schema = {"type": "string", "pattern": "^[a-z_]+$", "description": "a card id"}
TIME_MESSAGE = ("is a date or time in ISO 8601 (years 1 to 9999 in UTC), e.g. 2026-11-30 or "
                "2026-11-30T12:00:00Z")


@dataclass(frozen=True)
class Paging:
    """A listing's `limit` (1 to `max_limit`, `default_limit` when absent) and `offset`:
    documented (`parameters`) and read (`of`) from this one declaration."""

    default_limit: int
    max_limit: int

    def fields(self) -> tuple[QueryField, QueryField]:
        refused = f"limit is 1 to {self.max_limit}; offset is 0 to {MAX_OFFSET}"
        return (QueryField("limit", {"type": "integer", "minimum": 1, "maximum": self.max_limit,
                                     "default": self.default_limit},
                           code=ErrorCode.BAD_PAGING, message=refused,
                           default=self.default_limit),
                QueryField("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET,
                                      "default": 0},
                           code=ErrorCode.BAD_PAGING, message=refused, default=0))

    def parameters(self) -> tuple[Param, ...]:
        return tuple(field.parameter() for field in self.fields())

    def of(self, request: web.Request) -> tuple[int, int]:
        """The request's `limit` and `offset`, checked (`bad_paging`)."""
        limit, offset = (field.value(request) for field in self.fields())
        return limit, offset


LISTING = Paging(20, MAX_PAGE)
"""A page of games (the lobby's listing, a profile's games)."""
EXPORT = Paging(100, EXPORT_MAX)
"""An export's replays."""


def _time(raw: str) -> str:
    """A time in ISO 8601 as the games' records write it (UTC, to the second)."""
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except OverflowError:  # a time outside years 1 to 9999 in UTC
        raise ValueError(raw) from None


def kingdom_card(raw: str) -> str:
    if raw not in set(kingdom_cards(1)) | set(kingdom_cards(2)):
        raise Refusal(ErrorCode.BAD_FILTER, f"no Kingdom card {raw!r}")
    return raw


@query_model
class GameFilters:
    """The query filters of the game listing, a profile's games and the replay export
    (`account` is read by `players_api.by_account`: an account's games are found by its
    id)."""

    state: str | None = param({"type": "string", "enum": list(STATES)},
                              "only games in this state, or `ended` for finished and "
                              "abandoned ones (all games if absent)",
                              code=ErrorCode.BAD_STATE,
                              message=f"state is one of {', '.join(STATES)}")
    player: str | None = param({"type": "string"}, "a seat's exact name")
    account: str | None = param(
        {"type": "string"},
        "an account's name, in any case or look-alike spelling: the games its seats were "
        "taken in (a profile's games), found by the account, not by seat names; a name no "
        "account holds matches nothing")
    since: str | None = param({"type": "string"},
                              "ISO 8601 date or time, e.g. 2026-11-30 or 2026-11-30T12:00:00Z "
                              "(inclusive; ended games by when they ended, others by creation)",
                              read=_time, message=f"since {TIME_MESSAGE}")
    until: str | None = param({"type": "string"}, "ISO 8601 date or time (exclusive)",
                              read=_time, message=f"until {TIME_MESSAGE}")
    edition: int | None = param({"type": "integer", "enum": [1, 2]},
                                message="edition is 1 or 2")
    players: int | None = param({"type": "integer", "minimum": MIN_PLAYERS,
                                 "maximum": MAX_PLAYERS},
                                message=f"players is {MIN_PLAYERS} to {MAX_PLAYERS}")
    card: str | None = param(CARD_ID, "only games with this Kingdom card", read=kingdom_card)


def game_filters(request: web.Request, paging: Paging) -> dict[str, Any]:
    """The request's game filters (`GameFilters`) and page, checked, as the listings and
    the export take them."""
    filters = read_query(request, GameFilters)
    limit, offset = paging.of(request)
    return {"state": filters.state, "player": filters.player, "since": filters.since,
            "until": filters.until, "edition": filters.edition, "players": filters.players,
            "card": filters.card, "limit": limit, "offset": offset}
