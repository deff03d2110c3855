"""A node's identity: its name, the game ids that carry it, and where others reach it.

A game is owned by the node that created it for its whole life, and its id says which
(`g-NODE-xxxxxxxxxxxx`): a proxy routes a game's REST paths and WebSocket to the owner
by reading the id, with no lookup anywhere (docs/HOSTING.md, "Growing past one process").
"""

from __future__ import annotations

import re

from ..settings import NODE_NAME, Settings

_OWNER = re.compile(rf"g-({NODE_NAME.pattern})-[0-9a-f]+")
WEBSOCKET_PATH = "/api/v1/ws"
PEER_KEY_HEADER = "X-Dominion-Peer-Key"
"""The header that carries the cluster's peer key on a node's calls to another's private
routes (/api/v1/node/)."""


class NodeNameTaken(Exception):
    """Another node with this name is alive: starting would make two owners of its games."""


def owner_of(game_id: str) -> str | None:
    """The node that owns a game, from its id (None: a single server's id)."""
    found = _OWNER.fullmatch(game_id)
    return found.group(1) if found else None


def ws_url(game_id: str) -> str:
    """The WebSocket URL for a game, relative to the server's base URL: the `game`
    argument is for the proxy (it picks the owner); the server itself ignores it."""
    return f"{WEBSOCKET_PATH}?game={game_id}"


def node_url(settings: Settings) -> str:
    """Where the other nodes reach this one (for listings that span every node)."""
    if settings.node_url:
        return settings.node_url.rstrip("/")
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"http://{host}:{settings.port}"
