"""The edge's HTTP API: each operation declared once beside its handler (`operation.py`,
`models.py`), the OpenAPI document generated from them, the REST handlers (`*_api.py`), the
WebSocket's route, health and the web client's files. Handlers reach what the node shares
through `ServerState` (`../state.py`)."""
