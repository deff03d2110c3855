"""Automatch's queue as the lobby shows it: GET /api/v1/automatch, seeks waiting per
table size and their median wait (every node's: behind several nodes the queue is
Redis's). Each request costs its address one look-up (LOOKUPS_PER_MINUTE): it reads the
whole queue."""

from __future__ import annotations

from aiohttp import web

from dominion.protocol import ErrorCode

from ...refusal import Refusal
from ..state import STATE
from ..transport.prefixes import client_key
from .models import member, model
from .operation import Operation, Reply, Routes, Tag

LOOKUPS_PER_MINUTE = 120
"""Queue look-ups an address may make a minute (bursts of as many)."""
BUDGET = "automatch"


@model("Automatch's queue: behind several nodes, every node's.")
class AutomatchQueue:
    waiting: dict[str, int] = member(
        {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
        "table size (2 to 6) -> seeks waiting that accept it (a seek of 3 or 4 counts for "
        "both)")
    median_wait_seconds: float = member({"type": "number", "minimum": 0})


ROUTES = Routes()


@ROUTES(Operation(
    "GET", "/automatch", "automatchQueue", Tag.GAMES,
    "Automatch's queue: seeks waiting per table size, the median wait",
    (Reply(200, "The queue now", AutomatchQueue),),
    (ErrorCode.RATE_LIMITED, ErrorCode.CLUSTER_UNAVAILABLE),
    description="Seeking, accepting and playing are on the WebSocket (docs/PROTOCOL.md, "
                "`seek`).",
    notes={429: "Too many look-ups from this address (retry_after_ms)",
           503: "Redis is unreachable"}))
async def automatch_counts(request: web.Request) -> AutomatchQueue:
    state = request.config_dict[STATE]
    state.budgets.charge(BUDGET, client_key(request), 1)
    if state.automatch is None:
        raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, "automatch is not running")
    counts = await state.automatch.queue_counts()
    return AutomatchQueue({str(size): count for size, count in counts.waiting.items()},
                          round(counts.median_wait, 1))
