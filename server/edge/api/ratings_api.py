"""Ratings over REST, the read side: a pool's leaderboard (accounts and in-server bots
together, bots marked) and a player's ratings (per pool: the number shown, its history,
the record against each in-server bot). Both read the account store, which several nodes
share: each request costs its address one profile look-up (players_api.py)."""

from __future__ import annotations

from aiohttp import web

from dominion.bots import STRATEGIES
from dominion.protocol import ErrorCode

from ...ratings import INITIAL, Pool, Rating
from ...ratings.ledger import BotRecord, HistoryPoint, LeaderboardRow
from ...refusal import Refusal
from ..state import STATE
from ..transport.prefixes import client_key
from .filters import Paging
from .models import TIMESTAMP, Schema, member, model, ref
from .operation import Operation, Param, Reply, Routes, Tag, Where
from .players_api import BUDGET, PLAYER_NAME, PROFILE_ERRORS, PROFILE_NOTES, profile_of

LEADERBOARD_PAGE = 50
"""A leaderboard page's rows unless `limit` says otherwise (at most MAX_PAGE)."""
MAX_PAGE = 100
LEADERBOARD = Paging(LEADERBOARD_PAGE, MAX_PAGE)
HISTORY_POINTS = 200
"""A player's latest games per pool that the history holds (a chart's worth)."""


COUNT: Schema = {"type": "integer", "minimum": 0}


@model("A rating as it is shown (a leaderboard's row and a player's pool hold one).")
class ShownRating:

    rating: int = member({"type": "integer"}, "the number shown: conservative, mu - 3 sigma "
                                              "(a new player's is 0)")
    provisional: bool = member({"type": "boolean"}, "not settled yet")
    games: int = member({"type": "integer", "minimum": 0}, "rated games played")


@model()
class BoardRow(ShownRating):
    rank: int = member({"type": "integer", "minimum": 1})
    name: str = member({"type": "string"})
    bot: bool = member({"type": "boolean"}, "a bot account or an in-server bot")
    in_server: bool = member({"type": "boolean"}, "an in-server bot (its name is its "
                                                  "strategy): a fixed point of the scale")

    @classmethod
    def of(cls, rank: int, row: LeaderboardRow) -> BoardRow:
        return cls(row.rating.display, row.rating.provisional, row.rating.games, rank,
                   row.name, row.bot, row.in_server)


@model("A page of a pool's leaderboard, highest shown rating first.")
class Leaderboard:
    pool: Pool = member({"type": "string", "enum": [pool.value for pool in Pool]})
    total: int = member(COUNT, "the pool's rated accounts and in-server bots, over all pages")
    limit: int = member({"type": "integer", "minimum": 1, "maximum": MAX_PAGE})
    offset: int = member({"type": "integer", "minimum": 0})
    players: list[BoardRow] = member({"type": "array", "items": ref(BoardRow)})


@model()
class RatingPoint:
    game: str = member({"type": "string"})
    finished_at: str = member(TIMESTAMP)
    rating: int = member({"type": "integer"}, "the number shown after that game")
    record_lost: bool = member({"type": "boolean"}, "the game's record is gone from its node "
                               "(restored from an older copy): it answers 404, its result "
                               "stays counted")


@model()
class RecordAgainstBot:
    bot: str = member({"type": "string", "enum": list(STRATEGIES)})
    wins: int = member(COUNT)
    losses: int = member(COUNT)
    ties: int = member(COUNT)


@model()
class PoolRatings(ShownRating):
    history: list[RatingPoint] = member({"type": "array", "items": ref(RatingPoint)},
                                        "the latest games, oldest first")
    bots: list[RecordAgainstBot] = member(
        {"type": "array", "items": ref(RecordAgainstBot)},
        "the record against each in-server bot met in the pool (a game counts once per seat "
        "the bot held)")

    @classmethod
    def of(cls, rating: Rating, history: list[HistoryPoint], bots: list[BotRecord]
           ) -> PoolRatings:
        return cls(rating.display, rating.provisional, rating.games,
                   [RatingPoint(point.game_id, point.finished_at, point.rating.display,
                                point.record_lost) for point in history],
                   [RecordAgainstBot(record.bot, record.wins, record.losses, record.ties)
                    for record in bots])


@model("A player's ratings: 2-player (2p) and 3-6-player (3-6p).")
class PlayerRatings:
    player: str = member({"type": "string"})
    pools: dict[str, PoolRatings] = member({
        "type": "object", "properties": {pool.value: ref(PoolRatings) for pool in Pool},
        "required": [pool.value for pool in Pool], "additionalProperties": False})


ROUTES = Routes()


@ROUTES(Operation(
    "GET", "/ratings/{pool}", "leaderboard", Tag.ACCOUNTS,
    "A pool's leaderboard: accounts and in-server bots, bots marked",
    (Reply(200, "A page of the leaderboard", Leaderboard),),
    (ErrorCode.BAD_PAGING, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED,
     ErrorCode.ACCOUNTS_UNAVAILABLE),
    parameters=(Param("pool", Where.PATH, {"type": "string", "enum": [pool.value for pool in Pool]},
                      "2p: 2-player games; 3-6p: 3 to 6 players"),
                *LEADERBOARD.parameters()),
    notes={404: "No such pool", **PROFILE_NOTES}))
async def leaderboard(request: web.Request) -> Leaderboard:
    pool = pool_of(request.match_info["pool"])
    limit, offset = LEADERBOARD.of(request)
    request.config_dict[STATE].budgets.charge(BUDGET, client_key(request), 1)
    rows, total = await request.config_dict[STATE].rating_store.leaderboard(pool, limit, offset)
    return Leaderboard(pool, total, limit, offset,
                       [BoardRow.of(rank, row) for rank, row in enumerate(rows, offset + 1)])


@ROUTES(Operation(
    "GET", "/players/{name}/ratings", "playerRatings", Tag.ACCOUNTS,
    "A player's ratings per pool: the number shown, its history, the record against each "
    "in-server bot", (Reply(200, "The player's ratings", PlayerRatings),),
    (*PROFILE_ERRORS, ErrorCode.ACCOUNTS_UNAVAILABLE), parameters=(PLAYER_NAME,),
    notes=PROFILE_NOTES))
async def player_ratings(request: web.Request) -> PlayerRatings:
    account = await profile_of(request)
    store = request.config_dict[STATE].rating_store
    current = await store.ratings_of(account.id)
    pools = {pool.value: PoolRatings.of(
        current.get(pool, INITIAL), await store.rating_history(account.id, pool, HISTORY_POINTS),
        await store.record_against_bots(account.id, pool)) for pool in Pool}
    return PlayerRatings(account.name, pools)


def pool_of(raw: str) -> Pool:
    try:
        return Pool(raw)
    except ValueError:
        raise Refusal(ErrorCode.NOT_FOUND, f"no rating pool {raw[:20]!r}: "
                                             f"{', '.join(Pool)}") from None
