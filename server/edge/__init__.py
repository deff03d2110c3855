"""The HTTP and WebSocket edge: everything that speaks to clients over the network.

Three folders by concern: `transport/` (connections, their outboxes and rate limits, the
listener, addresses and budgets), `api/` (the REST and WebSocket routes, each declared
once, and the OpenAPI document) and `tasks/` (what runs in the background: the rating
outbox, the moderation and health watches, reconcile). At the top, the app factory and
the resources it opens (`app.py`), the state its handlers share (`state.py`) and the JSON
error shape every part answers with (`rest.py`). Requests become calls on live play
(`server/play/`), the cluster's directory (`server/cluster/`) and replays; nothing below
the edge imports it.
"""
