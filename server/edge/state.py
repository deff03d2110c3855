"""What the edge's handlers share: one typed `ServerState`, under the app's one `AppKey`.

Its own module, apart from the app factory (`app.py`), so that a handler imports the
state it reads without importing the app that mounts it. The factory makes the state
with the settings; each resource opened later, in its cleanup context (`app.py`), is set
on it there. Those fields have no value before their context runs (reading one then is a
bug: AttributeError); a field that may stay empty while the node serves is Optional and
says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from ..play.clock import LOOP_CLOCK, Clock
from ..settings import Settings
from ..version import package_version

if TYPE_CHECKING:
    from ..accounts import Accounts
    from ..accounts.archive import ArchiveStore
    from ..accounts.moderation import Moderation
    from ..accounts.passkeys import Passkeys
    from ..accounts.store import RatingStore
    from ..automatch import Automatch, RatingLookup
    from ..cluster import Directory
    from ..metrics import Metrics
    from ..play.archive import Archive
    from ..play.lobby import Lobby
    from ..play.thinking import BotWorkers
    from ..replays.statistics import Statistics
    from ..storage import Storage
    from .api.web import WebFiles
    from .tasks.archive_outbox import ArchiveOutbox
    from .tasks.health_watch import AccountsProbe
    from .tasks.rating_outbox import RatingOutbox
    from .transport.budgets import Budgets
    from .transport.connection import Connection
    from .transport.listener import ConnectionCount, Warnings
    from .transport.outbox import Waiting
    from .transport.turns import LoopTurns


@dataclass
class ServerState:
    """Everything the handlers share, under one typed AppKey (`STATE`)."""

    settings: Settings
    ratings: RatingLookup | None = None
    """How automatch reads a seeker's rating: None, the rating store's (tests give others)."""
    version: str = field(default_factory=package_version)
    connections: set[Connection] = field(default_factory=set)
    per_address: dict[str, int] = field(default_factory=dict)
    clock: Clock = LOOP_CLOCK
    """The timers' clock (server/play/clock.py): the connections' deadlines count on it."""
    restored_games: int | None = None
    """Unfinished games the start rebuilt (in the background, once the server listens;
    said in `server ready` when all are back); None until then."""

    # made by the factory (app.py, `create_app`)
    warnings: Warnings = field(init=False, repr=False)
    connection_count: ConnectionCount = field(init=False, repr=False)
    """Open connections per network prefix (listener.py), released by a WebSocket."""
    web_files: WebFiles = field(init=False, repr=False)
    """The web client's files, read once when the application is built (web.py)."""
    # opened by the cleanup contexts, in this order (app.py)
    storage: Storage = field(init=False, repr=False)
    accounts: Accounts = field(init=False, repr=False)
    passkeys: Passkeys = field(init=False, repr=False)
    moderation: Moderation = field(init=False, repr=False)
    rating_store: RatingStore = field(init=False, repr=False)
    """The account store's rating ledger (the same store as the accounts')."""
    bot_workers: BotWorkers | None = field(init=False, repr=False)
    """The strong bot's processes; None with `bot_workers` 0."""
    metrics: Metrics = field(init=False, repr=False)
    lobby: Lobby = field(init=False, repr=False)
    budgets: Budgets = field(init=False, repr=False)
    waiting: Waiting = field(init=False, repr=False)
    turns: LoopTurns = field(init=False, repr=False)
    """The event loop's turns: whether a request let it run (connection.py)."""
    rating_outbox: RatingOutbox = field(init=False, repr=False)
    archive_store: ArchiveStore = field(init=False, repr=False)
    """The archive of ended games (the same store as the accounts')."""
    archive: Archive = field(init=False, repr=False)
    """Ended games, from this node's database while it holds them, else from the archive
    every node reads (play/archive.py)."""
    archive_outbox: ArchiveOutbox = field(init=False, repr=False)
    directory: Directory = field(init=False, repr=False)
    """Where listings come from and lobby-level changes go: local, or shared by several
    nodes."""
    automatch: Automatch | None = None
    """Set once the directory is open (app.py, `_automatch`)."""
    accounts_probe: AccountsProbe = field(init=False, repr=False)
    """Whether the account store answers (health_watch.py), for /readyz."""
    statistics: Statistics | None = None
    """The card statistics of the dumps (tasks/dumps.py); None without `--dumps` or
    without DuckDB (the `[stats]` extra)."""


STATE = web.AppKey("state", ServerState)
"""The one key: aiohttp keeps what an application shares under typed keys
(`request.config_dict[STATE]` reaches it from the REST sub-application too)."""
