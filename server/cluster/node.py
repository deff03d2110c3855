"""A node's identity: its name, the game ids that carry it, and where others reach it.

A game is owned by the node that created it for its whole life, and its id says which
(`g-NODE-xxxxxxxxxxxx`): a proxy routes a game's REST paths and WebSocket to the owner
by reading the id, with no lookup anywhere (docs/HOSTING.md, "Growing past one process").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..settings import Settings

NODE_NAME = re.compile(r"[a-z0-9]{1,16}")
"""What a node may be called: it goes into game ids and nginx upstream names."""
_OWNER = re.compile(r"g-([a-z0-9]{1,16})-[0-9a-f]+")
WEBSOCKET_PATH = "/api/v1/ws"


class NodeNameTaken(Exception):
    """Another node with this name is alive: starting would make two owners of its games."""


def node_problem(settings: Settings) -> str | None:
    """What is wrong with the node settings: a node needs a Redis, and a name that fits
    in a game id."""
    if bool(settings.node) != bool(settings.redis):
        return "--node and --redis go together (several processes), or neither (one)"
    if settings.node and not NODE_NAME.fullmatch(settings.node):
        return "--node is 1 to 16 characters from a to z and 0 to 9"
    if settings.redis and not settings.redis.startswith(("redis://", "rediss://", "unix://")):
        return "--redis is a redis://, rediss:// or unix:// URL"
    if settings.node and not settings.node_url and settings.host in ("0.0.0.0", "::", ""):
        return "--node-url is needed when listening on every address (other nodes call it)"
    if settings.cluster_refresh_seconds <= 0:
        return "--cluster-refresh-seconds must be more than 0"
    return None


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
