"""Ratings over REST, the read side: a pool's leaderboard (accounts and in-server bots
together, bots marked) and a player's ratings (per pool: the number shown, its history,
the record against each in-server bot). Both read the account store, which several nodes
share: each request costs its address one profile look-up (players_api.py)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from ..errors import GameError
from ..ratings import INITIAL, Pool, Rating
from ..ratings.ledger import BotRecord, HistoryPoint, LeaderboardRow
from .filters import page_of
from .players_api import BUDGET, profile_of
from .prefixes import client_key
from .state import RATING_STORE, STATE

LEADERBOARD_PAGE = 50
"""A leaderboard page's rows unless `limit` says otherwise (at most MAX_PAGE)."""
MAX_PAGE = 100
HISTORY_POINTS = 200
"""A player's latest games per pool that the history holds (a chart's worth)."""


def add_ratings_routes(app: web.Application) -> None:
    routes = web.RouteTableDef()

    @routes.get("/ratings/{pool}")
    async def leaderboard(request: web.Request) -> web.Response:
        pool = pool_of(request.match_info["pool"])
        limit, offset = page_of(request, default_limit=LEADERBOARD_PAGE, max_limit=MAX_PAGE)
        request.config_dict[STATE].budgets.charge(BUDGET, client_key(request), 1)
        rows, total = await request.config_dict[RATING_STORE].leaderboard(pool, limit, offset)
        return web.json_response({
            "pool": pool.value, "total": total, "limit": limit, "offset": offset,
            "players": [board_row(rank, row) for rank, row in enumerate(rows, offset + 1)]})

    @routes.get("/players/{name}/ratings")
    async def player_ratings(request: web.Request) -> web.Response:
        account = await profile_of(request)
        store = request.config_dict[RATING_STORE]
        current = await store.ratings_of(account.id)
        pools = {pool.value: pool_view(
            current.get(pool, INITIAL),
            await store.rating_history(account.id, pool, HISTORY_POINTS),
            await store.record_against_bots(account.id, pool)) for pool in Pool}
        return web.json_response({"player": account.name, "pools": pools})

    app.router.add_routes(routes)


def pool_of(raw: str) -> Pool:
    try:
        return Pool(raw)
    except ValueError:
        raise GameError(ErrorCode.NOT_FOUND, f"no rating pool {raw[:20]!r}: "
                                             f"{', '.join(Pool)}") from None


def shown(rating: Rating) -> dict[str, Any]:
    return {"rating": rating.display, "provisional": rating.provisional,
            "games": rating.games}


def board_row(rank: int, row: LeaderboardRow) -> dict[str, Any]:
    return {"rank": rank, "name": row.name, **shown(row.rating), "bot": row.bot,
            "in_server": row.in_server}


def pool_view(rating: Rating, history: list[HistoryPoint], bots: list[BotRecord]
              ) -> dict[str, Any]:
    return {**shown(rating),
            "history": [{"game": point.game_id, "finished_at": point.finished_at,
                         "rating": point.rating.display, "record_lost": point.record_lost}
                        for point in history],
            "bots": [{"bot": record.bot, "wins": record.wins, "losses": record.losses,
                      "ties": record.ties} for record in bots]}
