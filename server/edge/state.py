"""What the edge's handlers share: one typed `ServerState`, and the app's `AppKey`s.

Its own module, apart from the app factory (`app.py`), so that a handler imports the
state it reads without importing the app that mounts it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from ..accounts.moderation import Moderation
from ..accounts.store import RatingStore
from ..cluster import Directory
from ..settings import Settings
from ..storage import Storage
from ..version import package_version
from .tasks.rating_outbox import RatingOutbox

if TYPE_CHECKING:
    from ..automatch import Automatch
    from ..metrics import Metrics
    from ..play.lobby import Lobby
    from .transport.budgets import Budgets
    from .transport.connection import Connection
    from .transport.outbox import Waiting


@dataclass
class ServerState:
    """Everything the handlers share, under one typed AppKey."""

    settings: Settings
    metrics: Metrics
    storage: Storage
    lobby: Lobby
    budgets: Budgets
    waiting: Waiting
    version: str = field(default_factory=package_version)
    connections: set[Connection] = field(default_factory=set)
    per_address: dict[str, int] = field(default_factory=dict)
    automatch: Automatch | None = None
    """Set once the directory is open (app.py, `_automatch`)."""
    restored_games: int = 0
    """Unfinished games the start rebuilt (said once the server listens)."""


STATE = web.AppKey("state", ServerState)
STORAGE = web.AppKey("storage", Storage)
SETTINGS = web.AppKey("settings", Settings)
DIRECTORY = web.AppKey("directory", Directory)
MODERATION = web.AppKey("moderation", Moderation)
RATING_STORE = web.AppKey("rating_store", RatingStore)
"""The account store's rating ledger (the same store as the accounts')."""
RATING_OUTBOX = web.AppKey("rating_outbox", RatingOutbox)
"""Where listings come from and lobby-level changes go: local, or shared by several nodes."""
