"""The HTTP and WebSocket edge: everything that speaks to clients over the network.

The app factory and the resources it opens (`app.py`), the state its handlers share
(`state.py`), one `Connection` per WebSocket with its `Outbox` and frame rate limit, what
an address may cost over time (`budgets.py`, `addresses.py`), the REST lobby and its
OpenAPI document, replay downloads, the route other nodes call (`node_api.py`), and the
web client's files. Requests become calls on live play (`server/play/`), the cluster's
directory (`server/cluster/`) and replays; nothing below the edge imports it.
"""
