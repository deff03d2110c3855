"""Automatch's queue as the lobby shows it: GET /api/v1/automatch, seeks waiting per
table size and their median wait (every node's: behind several nodes the queue is
Redis's). Each request costs its address one look-up (LOOKUPS_PER_MINUTE): it reads the
whole queue."""

from __future__ import annotations

from aiohttp import web

from dominion.protocol import ErrorCode

from ..errors import GameError
from .prefixes import client_key
from .state import STATE

LOOKUPS_PER_MINUTE = 120
"""Queue look-ups an address may make a minute (bursts of as many)."""
BUDGET = "automatch"


def add_automatch_routes(app: web.Application) -> None:
    routes = web.RouteTableDef()

    @routes.get("/automatch")
    async def automatch_counts(request: web.Request) -> web.Response:
        state = request.config_dict[STATE]
        state.budgets.charge(BUDGET, client_key(request), 1)
        if state.automatch is None:
            raise GameError(ErrorCode.CLUSTER_UNAVAILABLE, "automatch is not running")
        counts = await state.automatch.queue_counts()
        return web.json_response({
            "waiting": {str(size): count for size, count in counts.waiting.items()},
            "median_wait_seconds": round(counts.median_wait, 1)})

    app.add_routes(routes)
