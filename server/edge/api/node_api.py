"""The routes other nodes call, and only they: a node's own part of a listing (the games
the archive does not have), and an account's seats in its live games. nginx refuses them
from outside, and each asks for the cluster's peer key as well (`Directory.is_peer`)."""

from __future__ import annotations

from aiohttp import web

from dominion.protocol import ErrorCode

from ...cluster.listing import NODE_PAGE_MAX
from ...cluster.node import PEER_KEY_HEADER
from ...refusal import Refusal
from ..rest import Handler
from ..state import STATE
from .export_query import export_filters
from .filters import Paging, game_filters
from .seats import seats_body

NODE_PAGING = Paging(20, NODE_PAGE_MAX)
"""A node's own part of a listing."""


def peers_only(handler: Handler) -> Handler:
    """The handler, for requests that carry the cluster's peer key only."""

    async def guarded(request: web.Request) -> web.StreamResponse:
        if not request.config_dict[STATE].directory.is_peer(request.headers.get(PEER_KEY_HEADER)):
            # to anyone else the route is not there
            raise Refusal(ErrorCode.NOT_FOUND, f"no resource at {request.path}")
        return await handler(request)
    return guarded


@peers_only
async def node_games(request: web.Request) -> web.StreamResponse:
    """GET /api/v1/node/games: this node's games only, up to NODE_PAGE_MAX of them; with
    `account_id` (the node that asked found the account by its name), that account's."""
    filters = game_filters(request, NODE_PAGING)
    export_filters(request, filters)  # the export's own, when an export asks
    account_id = request.query.get("account_id")
    if account_id is not None:
        if not account_id.isascii() or not account_id.isdigit() or len(account_id) > 18:
            raise Refusal(ErrorCode.BAD_FILTER, "account_id is an account's id")
        filters["account_id"] = int(account_id)
    games, total = request.config_dict[STATE].lobby.listing(filters)
    return web.json_response({"games": games, "total": total})


@peers_only
async def node_account_games(request: web.Request) -> web.StreamResponse:
    """GET /api/v1/node/accounts/{account_id}/games: the account's seats in this node's
    open and running games (another node gathers them for the account's own list)."""
    lobby = request.config_dict[STATE].lobby
    return web.json_response({"games": seats_body(lobby.seats_of_account(
        int(request.match_info["account_id"])))})


def add_node_routes(app: web.Application) -> None:
    app.router.add_get("/node/games", node_games)
    app.router.add_get(r"/node/accounts/{account_id:\d{1,18}}/games", node_account_games)
