"""Query-string filters for listing games and exporting replays."""

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
from .operation import Param, Where

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
STATE_FILTER = Param("state", Where.QUERY, {"type": "string", "enum": list(STATES)},
                     "only games in this state, or `ended` for finished and abandoned ones "
                     "(all games if absent)")
CARD_ID: Schema = {"type": "string", "pattern": "^[a-z_]+$", "description": "a card id"}


@dataclass(frozen=True)
class Paging:
    """A listing's `limit` (1 to `max_limit`, `default_limit` when absent) and `offset`:
    documented (`parameters`) and read (`of`) from this one declaration."""

    default_limit: int
    max_limit: int

    def parameters(self) -> tuple[Param, Param]:
        return (Param("limit", Where.QUERY, {"type": "integer", "minimum": 1,
                                             "maximum": self.max_limit,
                                             "default": self.default_limit}),
                Param("offset", Where.QUERY, {"type": "integer", "minimum": 0,
                                              "maximum": MAX_OFFSET, "default": 0}))

    def of(self, request: web.Request) -> tuple[int, int]:
        """The request's `limit` and `offset`, checked (`bad_paging`)."""
        limit = _int(request, "limit", self.default_limit, ErrorCode.BAD_PAGING)
        offset = _int(request, "offset", 0, ErrorCode.BAD_PAGING)
        assert limit is not None and offset is not None
        if not 1 <= limit <= self.max_limit or not 0 <= offset <= MAX_OFFSET:
            raise Refusal(ErrorCode.BAD_PAGING,
                            f"limit is 1 to {self.max_limit}; offset is 0 to {MAX_OFFSET}")
        return limit, offset


LISTING = Paging(20, MAX_PAGE)
"""A page of games (the lobby's listing, a profile's games)."""
EXPORT = Paging(100, EXPORT_MAX)
"""An export's replays."""


def filter_parameters(paging: Paging) -> tuple[Param, ...]:
    """The query filters shared by the game listing and the replay export."""
    return (
        Param("player", Where.QUERY, {"type": "string"}, "a seat's exact name"),
        Param("account", Where.QUERY, {"type": "string"},
              "an account's name, in any case or look-alike spelling: the games its seats "
              "were taken in (a profile's games), found by the account, not by seat names; "
              "a name no account holds matches nothing"),
        Param("since", Where.QUERY, {"type": "string"},
              "ISO 8601 date or time, e.g. 2026-11-30 or 2026-11-30T12:00:00Z (inclusive; "
              "ended games by when they ended, others by creation)"),
        Param("until", Where.QUERY, {"type": "string"}, "ISO 8601 date or time (exclusive)"),
        Param("edition", Where.QUERY, {"type": "integer", "enum": [1, 2]}),
        Param("players", Where.QUERY,
              {"type": "integer", "minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS}),
        Param("card", Where.QUERY, CARD_ID, "only games with this Kingdom card"),
        *paging.parameters(),
    )


def _int(request: web.Request, name: str, default: int | None = None,
         code: ErrorCode = ErrorCode.BAD_FILTER) -> int | None:
    raw = request.query.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise Refusal(code, f"{name} is a whole number") from None


def _time(request: web.Request, name: str) -> str | None:
    raw = request.query.get(name)
    if raw is None:
        return None
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (ValueError, OverflowError):  # not a time, or one outside years 1 to 9999 in UTC
        raise Refusal(ErrorCode.BAD_FILTER, f"{name} is a date or time in ISO 8601 (years 1 to "
                                      "9999 in UTC), e.g. 2026-11-30 or "
                                      "2026-11-30T12:00:00Z") from None


def game_filters(request: web.Request, paging: Paging) -> dict[str, Any]:
    """state, player, since, until, edition, players, card, limit and offset, checked (an
    account's games are found by its id: `players_api.by_account`)."""
    state = request.query.get("state")
    if state is not None and state not in STATES:
        raise Refusal(ErrorCode.BAD_STATE, f"state is one of {', '.join(STATES)}")
    edition = _int(request, "edition")
    if edition is not None and edition not in (1, 2):
        raise Refusal(ErrorCode.BAD_FILTER, "edition is 1 or 2")
    players = _int(request, "players")
    if players is not None and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise Refusal(ErrorCode.BAD_FILTER, f"players is {MIN_PLAYERS} to {MAX_PLAYERS}")
    card = request.query.get("card")
    if card is not None and card not in set(kingdom_cards(1)) | set(kingdom_cards(2)):
        raise Refusal(ErrorCode.BAD_FILTER, f"no Kingdom card {card!r}")
    limit, offset = paging.of(request)
    return {"state": state, "player": request.query.get("player"),
            "since": _time(request, "since"), "until": _time(request, "until"),
            "edition": edition, "players": players, "card": card,
            "limit": limit, "offset": offset}
