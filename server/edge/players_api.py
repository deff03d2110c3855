"""Players' profiles under /api/v1/players (the web client's page /@/NAME): an account's
public facts, and the games its seats were taken in, finished and running, with the
listing's filters. A deleted account has no profile (its seats show the placeholder
name); a guest has none either: only accounts do. Each request costs its address one
look-up (LOOKUPS_PER_MINUTE): it reads the account store, which several nodes share."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from dominion.protocol import ErrorCode

from ..accounts import Account
from ..accounts.service import MAX_NAME_INPUT
from ..errors import GameError
from .filters import MAX_PAGE, game_filters
from .prefixes import client_key
from .sessions import ACCOUNTS
from .state import DIRECTORY, STATE

LOOKUPS_PER_MINUTE = 120
"""Profile requests an address may make a minute (bursts of as many)."""
BUDGET = "profiles"


async def profile_of(request: web.Request) -> Account:
    """The live account the path's name (or a look-alike of it) is, or `unknown_player`
    (or `rate_limited`, once the address has looked up too many)."""
    request.config_dict[STATE].budgets.charge(BUDGET, client_key(request), 1)
    name = request.match_info["name"]
    account = None
    if 0 < len(name) <= MAX_NAME_INPUT:
        account = await request.config_dict[ACCOUNTS].holder_of(name)
    if account is None or account.deleted_at is not None:
        raise GameError(ErrorCode.UNKNOWN_PLAYER, "no player has this name")
    return account


def add_player_routes(app: web.Application) -> None:
    routes = web.RouteTableDef()

    @routes.get("/players/{name}")
    async def player(request: web.Request) -> web.Response:
        account = await profile_of(request)
        return web.json_response({"player": public_facts(account)})

    @routes.get("/players/{name}/games")
    async def player_games(request: web.Request) -> web.Response:
        account = await profile_of(request)
        filters = game_filters(request, default_limit=20, max_limit=MAX_PAGE)
        filters["account"] = account.name  # the path says whose; a query cannot widen it
        page = await request.config_dict[DIRECTORY].listing(filters)
        return web.json_response(page.body(filters["limit"], filters["offset"]))

    app.router.add_routes(routes)


def public_facts(account: Account) -> dict[str, Any]:
    """What anyone may know of an account: its name and when it joined."""
    return {"name": account.name,
            "created_at": account.created_at.strftime("%Y-%m-%dT%H:%M:%SZ")}
