"""Players' profiles under /api/v1/players (the web client's page /@/NAME): an account's
public facts, and the games its seats were taken in, finished and running, with the
listing's filters. Games are found by the account's id (`seats.account_id`), never by
its name: a guest who played under that name before the account existed has no games
here. A deleted account has no profile (its seats show the placeholder name); a guest
has none either: only accounts do. Each request costs its address one look-up
(LOOKUPS_PER_MINUTE): it reads the account store, which several nodes share; so does
the listing's and the export's `account=NAME` (`by_account`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode
from dominion.protocol.spec import write_fields

from ...accounts import Account
from ...accounts.service import MAX_NAME_INPUT
from ...ratings.ledger import GameRatings
from ...refusal import Refusal
from ..state import STATE
from ..transport.prefixes import client_key
from .filters import LISTING, STATES, GameFilters, game_filters
from .game_ratings import rated_games, seat_change
from .lobby_models import GameList
from .models import TIMESTAMP, member, model, ref
from .operation import Operation, Param, Reply, Routes, Tag, Where
from .query import query_parameters

LOOKUPS_PER_MINUTE = 120
"""Profile requests an address may make a minute (bursts of as many)."""
BUDGET = "profiles"
NO_ACCOUNT = 0
"""The account id no account has (both stores count from 1): a name no live account holds
matches no game."""


async def live_account_named(request: web.Request, name: str) -> Account | None:
    """The live account `name` (or a look-alike of it) is, if any; `rate_limited` once the
    address has looked up too many."""
    request.config_dict[STATE].budgets.charge(BUDGET, client_key(request), 1)
    account = None
    if 0 < len(name) <= MAX_NAME_INPUT:
        account = await request.config_dict[STATE].accounts.holder_of(name)
    return None if account is None or account.deleted_at is not None else account


async def profile_of(request: web.Request) -> Account:
    """The live account the path's name is, or `unknown_player`."""
    account = await live_account_named(request, request.match_info["name"])
    if account is None:
        raise Refusal(ErrorCode.UNKNOWN_PLAYER, "no player has this name")
    return account


async def by_account(request: web.Request, filters: dict[str, Any]) -> None:
    """The query's `account=NAME` as a filter on that account's id (games its seats were
    taken in), for the listing and the export."""
    name = request.query.get("account")
    if name is not None:
        account = await live_account_named(request, name)
        filters["account_id"] = NO_ACCOUNT if account is None else account.id


@model()
class PublicFacts:
    """What anyone may know of an account: its name and when it joined."""

    name: str = member({"type": "string", "minLength": 2, "maxLength": 20})
    created_at: datetime = member(TIMESTAMP)


@model("An account's public facts.")
class Player:
    player: PublicFacts = member(ref(PublicFacts))


ROUTES = Routes()
PLAYER_NAME = Param("name", Where.PATH, {"type": "string"},
                    "an account's name (any case or look-alike spelling of it)")
PROFILE_ERRORS = (ErrorCode.UNKNOWN_PLAYER, ErrorCode.RATE_LIMITED)
"""What `profile_of` refuses."""
PROFILE_NOTES = {404: "No account has this name, or it was deleted",
                 429: "Too many profile requests from this address (retry_after_ms)"}


@ROUTES(Operation("GET", "/players/{name}", "player", Tag.ACCOUNTS,
                  "A player's profile: their name and when they joined",
                  (Reply(200, "The player", Player),),
                  (*PROFILE_ERRORS, ErrorCode.ACCOUNTS_UNAVAILABLE), parameters=(PLAYER_NAME,),
                  notes=PROFILE_NOTES))
async def player(request: web.Request) -> Player:
    account = await profile_of(request)
    return Player(PublicFacts(account.name, account.created_at))


@ROUTES(Operation(
    "GET", "/players/{name}/games", "playerGames", Tag.ACCOUNTS,
    "The games a player's account took a seat in, newest first",
    (Reply(200, "A page of the player's games", GameList),),
    (ErrorCode.BAD_PAGING, ErrorCode.BAD_STATE, ErrorCode.BAD_FILTER, *PROFILE_ERRORS,
     ErrorCode.CLUSTER_UNAVAILABLE, ErrorCode.ACCOUNTS_UNAVAILABLE),
    description="The listing's filters (listGames), narrowed to this account.",
    parameters=query_parameters(
        PLAYER_NAME, Param("state", Where.QUERY, {"type": "string", "enum": list(STATES)},
                           "only games in this state (`playing`: running), or `ended`"),
        GameFilters, LISTING),
    notes={**PROFILE_NOTES, 503: "Redis or the account store is unreachable"}))
async def player_games(request: web.Request) -> dict[str, Any]:
    account = await profile_of(request)
    filters = game_filters(request, LISTING)
    filters["account_id"] = account.id  # the path says whose; a query cannot widen it
    page = await request.config_dict[STATE].directory.listing(filters)
    body: dict[str, Any] = page.body(filters["limit"], filters["offset"])
    rated = await rated_games(request, body["games"])
    body["games"] = [with_own_change(summary, rated.get(summary["id"]), account.id)
                     for summary in body["games"]]
    return body


def with_own_change(summary: dict[str, Any], rated: GameRatings | None, account_id: int
                    ) -> dict[str, Any]:
    """A player's game with its rating change (a copy: listings may share summaries)."""
    own = None if rated is None else rated.of_account(account_id)
    return summary if own is None else {**summary,
                                        "rating_change": write_fields(seat_change(own))}
