"""The route other nodes call: this node's own part of a listing (nginx keeps it private)."""

from __future__ import annotations

from aiohttp import web

from ..cluster.listing import NODE_PAGE_MAX
from .filters import game_filters
from .state import STATE


async def node_games(request: web.Request) -> web.Response:
    """GET /api/v1/node/games: this node's games only, up to NODE_PAGE_MAX of them."""
    filters = game_filters(request, default_limit=20, max_limit=NODE_PAGE_MAX)
    games, total = request.config_dict[STATE].lobby.listing(filters)
    return web.json_response({"games": games, "total": total})


def add_node_routes(app: web.Application) -> None:
    app.router.add_get("/node/games", node_games)
