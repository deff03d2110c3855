"""The edge's transport: one `Connection` per WebSocket with its `Outbox` and frame rate
limit, the listening socket and its per-prefix connection count, and what every request
is known by (its address, its prefix, the names and pages the server answers to) and may
cost over time (`budgets.py`). Imports neither the REST API nor the background tasks."""

from __future__ import annotations

from dominion.protocol.loader import choose

choose()  # before outbox.py is imported: compiled, or all from their sources
