"""The aiohttp application: the factory that mounts every route (declared in `api/`), and
the resources it opens and closes in order (one `cleanup_ctx` each), each set on the one
`ServerState` the handlers share (`state.py`) by the context that opens it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from dominion.protocol import CloseCode

from ..accounts import Accounts, Hasher, open_account_store
from ..accounts.moderation import Moderation
from ..accounts.passkeys import Passkeys
from ..accounts.throttle import Policy, RedisThrottle, Throttle, local_throttle
from ..automatch import RatingLookup, open_automatch, stored_ratings
from ..cluster import open_directory
from ..engine import ENGINE
from ..metrics import Metrics
from ..play.archive import Archive
from ..play.clock import LOOP_CLOCK, Clock
from ..play.lobby import Lobby
from ..play.thinking import BotWorkers
from ..refusal import Refusal
from ..replays.statistics import Statistics
from ..settings import Settings
from ..stopping import stop_tasks
from ..storage import Storage
from .api.automatch_api import BUDGET as AUTOMATCH_BUDGET
from .api.automatch_api import LOOKUPS_PER_MINUTE as AUTOMATCH_LOOKUPS_PER_MINUTE
from .api.game_ratings import rating_changed
from .api.node_api import add_node_routes
from .api.openapi import API_TABLES, ROOT_TABLES
from .api.operation import API_PREFIX
from .api.passkeys_api import BUDGET as PASSKEY_BUDGET
from .api.passkeys_api import CEREMONIES_PER_MINUTE
from .api.players_api import BUDGET as PROFILE_BUDGET
from .api.players_api import LOOKUPS_PER_MINUTE
from .rest import (
    MAX_BODY_BYTES,
    declared_body_fits,
    json_errors,
    unmatched_as_json,
)
from .state import STATE, ServerState
from .tasks.archive_outbox import ArchiveOutbox
from .tasks.dumps import Dumps
from .tasks.health_watch import AccountsProbe, measure_loop_lag
from .tasks.moderation_watch import ModerationWatch, banned_addresses_refused
from .tasks.rating_outbox import RatingOutbox
from .transport.budgets import Budgets
from .transport.connection import watch_connections, watch_interval
from .transport.listener import ConnectionCount, Warnings
from .transport.origins import known_hosts_only
from .transport.outbox import Waiting
from .transport.turns import LoopTurns

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("dominion.server")

HANDLER_ARGS = {"keepalive_timeout": 75.0, "lingering_time": 1.0}
"""aiohttp's per-connection options: an idle connection (or one that never finishes its
request's head) is closed after 75 s, as `web.run_app` does; the unread rest of a
refused request's body is read and dropped for at most 1 s (so that a client still
sending reads the refusal rather than a reset), then the connection is closed."""


def budgets_of(settings: Settings) -> Budgets:
    """The per-address allowances of what costs the server most, and the server-wide
    one of work (budgets.py)."""
    return Budgets({
        "work": (settings.work_per_second, settings.work_burst),
        "chat": (settings.chat_per_minute / 60, settings.chat_per_minute),
        "games": (settings.games_per_hour / 3600, settings.games_per_hour),
        PASSKEY_BUDGET: (CEREMONIES_PER_MINUTE / 60, CEREMONIES_PER_MINUTE),
        PROFILE_BUDGET: (LOOKUPS_PER_MINUTE / 60, LOOKUPS_PER_MINUTE),
        AUTOMATCH_BUDGET: (AUTOMATCH_LOOKUPS_PER_MINUTE / 60, AUTOMATCH_LOOKUPS_PER_MINUTE),
        "admin": (settings.admin_per_minute / 60, settings.admin_per_minute),
        "reports": (settings.reports_per_hour / 3600, settings.reports_per_hour),
    }, server={"work": (settings.server_work_per_second, settings.server_work_burst)})


def create_app(settings: Settings, ratings: RatingLookup | None = None,
               clock: Clock = LOOP_CLOCK) -> web.Application:
    """The server; its timers (the rooms', the lobby's, automatch's, the connections'
    deadlines) on `clock` (tests give a virtual one and move it)."""
    app = web.Application(client_max_size=MAX_BODY_BYTES, handler_args=HANDLER_ARGS,
                          middlewares=[known_hosts_only, banned_addresses_refused,
                                       declared_body_fits, unmatched_as_json])
    state = app[STATE] = ServerState(settings, ratings, clock=clock)
    state.warnings = Warnings()
    state.connection_count = ConnectionCount(settings, state.warnings)
    app.on_response_prepare.append(_no_sniffing)
    # one context per resource, opened in this order and closed in the reverse one
    app.cleanup_ctx.append(_storage)
    app.cleanup_ctx.append(_accounts)
    app.cleanup_ctx.append(_bot_workers)
    app.cleanup_ctx.append(_live_games)
    app.cleanup_ctx.append(_rating_outbox)
    app.cleanup_ctx.append(_archive_outbox)
    app.cleanup_ctx.append(_open_directory)
    app.cleanup_ctx.append(_automatch)
    app.cleanup_ctx.append(_moderation)
    app.cleanup_ctx.append(_health_watch)
    app.cleanup_ctx.append(_dumps)
    app.cleanup_ctx.append(_restoring)  # last: the server listens while games come back
    app.on_shutdown.append(_close_connections)
    for table in ROOT_TABLES:  # the WebSocket, health, metrics, the web client
        table.add_to(app)
    # REST in a sub-application with the JSON-error middleware; the WebSocket route is
    # matched first (the longest path wins) and runs without it.
    api = web.Application(client_max_size=MAX_BODY_BYTES, middlewares=[json_errors])
    for table in API_TABLES:
        table.add_to(api)
    if settings.node:
        add_node_routes(api)
    app.add_subapp(API_PREFIX, api)
    return app


async def _storage(app: web.Application) -> AsyncIterator[None]:
    """The database: opened first, and closed last, once everything that writes to it has
    stopped (pending writes are committed first)."""
    settings = app[STATE].settings
    storage = app[STATE].storage = Storage.open(
        settings.db, synchronous=settings.sqlite_synchronous.upper())
    try:
        await storage.start()
        yield
    finally:
        await storage.close()


async def _accounts(app: web.Application) -> AsyncIterator[None]:
    """The account store (accounts/): SQLite beside the games, or PostgreSQL. A
    PostgreSQL that cannot be reached does not stop the start: games need none."""
    state = app[STATE]
    settings = state.settings
    store = open_account_store(settings.accounts_url, settings.db)
    hasher = Hasher(settings.hashes_at_once, settings.password_time_cost,
                    settings.password_memory_kib)
    redis, throttle = shared_throttle(settings)
    accounts = state.accounts = Accounts(store, hasher, settings.session_days,
                                         throttle=throttle)
    state.passkeys = Passkeys(accounts)
    moderation = state.moderation = Moderation(store)
    state.rating_store = state.archive_store = store
    try:
        await store.start()
        with contextlib.suppress(Refusal):  # unreachable now: the watch tries again
            await moderation.refresh()
    except BaseException:
        await accounts.close()
        await state.storage.close()
        raise
    try:
        yield
    finally:
        await accounts.close()
        if redis is not None:
            await redis.aclose()


def shared_throttle(settings: Settings) -> tuple[Redis | None, Callable[[Policy, str], Throttle]]:
    """Where failed sign-ins are counted: in the cluster's Redis when there is one (each
    node would otherwise give a guesser its own allowance), else in this process."""
    if not settings.redis:
        return None, local_throttle
    from redis.asyncio import Redis

    redis = Redis.from_url(settings.redis, socket_timeout=2, socket_connect_timeout=2)
    return redis, lambda policy, name: RedisThrottle(policy, redis, name)


async def _bot_workers(app: web.Application) -> AsyncIterator[None]:
    """The processes the strong bot thinks in (none with `bot_workers` 0): made when a
    bot first thinks, stopped once the rooms have stopped."""
    count = app[STATE].settings.bot_workers
    workers = app[STATE].bot_workers = BotWorkers(count) if count else None
    try:
        yield
    finally:
        if workers is not None:
            await workers.close()


async def _live_games(app: web.Application) -> AsyncIterator[None]:
    """The lobby with every unfinished game restored, and the connections' watchdog; on
    the way out, every room is stopped (no more changes, bots or timers) before the
    storage closes."""
    state = app[STATE]
    settings, storage = state.settings, state.storage
    metrics = state.metrics = Metrics()
    metrics.watch_storage(storage)
    metrics.watch_rating_backlog(storage.pending_rating_count)
    metrics.watch_archive_backlog(storage.unarchived_count)
    lobby = state.lobby = Lobby(storage, settings, metrics, state.accounts, state.moderation,
                                workers=state.bot_workers, clock=state.clock)
    state.budgets = budgets_of(settings)
    state.waiting = Waiting(settings.outbound_total_bytes)
    state.turns = LoopTurns(asyncio.get_running_loop())
    lobby.ratings_of = state.rating_store.ratings_of  # shown beside rated tables' names
    metrics.describe_build(state.version, ENGINE.value)
    lobby.expect_restore()  # from the start, a request for a game not back yet waits for it
    try:
        async with _running(watch_connections(state.connections, watch_interval(settings),
                                              state.clock)):
            yield
    finally:
        await lobby.close()


async def _restoring(app: web.Application) -> AsyncIterator[None]:
    """The unfinished games rebuilt in the background, begun as the last step of the
    start (begun earlier, the games would take turns with every other step's awaits and
    keep the server from listening); stopped first on the way out."""
    async with _running(_restore_games(app[STATE])):
        yield


async def _restore_games(state: ServerState) -> None:
    try:
        state.restored_games = await state.lobby.restore()
    except Exception:  # the storage failed: the games stay stored, for the next start
        log.exception("the unfinished games could not be restored")


async def _rating_outbox(app: web.Application) -> AsyncIterator[None]:
    """Finished rated games handed from this node's outbox to the account store's ledger
    (rating_outbox.py): those that waited across a restart at once, then each as it ends."""
    state = app[STATE]
    outbox = state.rating_outbox = RatingOutbox(
        state.storage, state.rating_store, state.settings.ratings_retry_seconds,
        state.settings.rated_games_per_pair_per_day)
    state.lobby.on_rated_finished = outbox.wake
    outbox.on_applied = lambda ratings: state.lobby.broadcast(ratings.game_id,
                                                              rating_changed(ratings))
    async with _running(outbox.run()):
        yield


async def _archive_outbox(app: web.Application) -> AsyncIterator[None]:
    """Ended games handed from this node's database to the archive every node reads, and
    pruned here once kept `archive_keep_hours` (archive_outbox.py): those that waited
    across a restart at once, then each as it ends."""
    state = app[STATE]
    settings = state.settings
    state.archive = Archive(state.storage, state.archive_store)
    outbox = state.archive_outbox = ArchiveOutbox(
        state.storage, state.archive_store, settings.ratings_retry_seconds,
        timedelta(hours=settings.archive_keep_hours))
    state.lobby.on_game_ended = outbox.wake
    state.lobby.rename_archived = state.archive_store.rename_archived_seats
    async with _running(outbox.run()):
        yield


async def _open_directory(app: web.Application) -> AsyncIterator[None]:
    """The directory, after the rooms are restored (a node publishes them at start)."""
    state = app[STATE]
    directory = open_directory(state.settings, state.lobby, state.archive, state.metrics,
                               state.connections)
    state.lobby.on_room_changed = directory.changed
    state.lobby.rated_claims.store = directory.rated_seats
    state.directory = directory
    try:
        await directory.start()
    except BaseException:
        await directory.close()
        await _close_after_a_failed_start(app)
        raise
    try:
        yield
    finally:
        await directory.close()


async def _automatch(app: web.Application) -> AsyncIterator[None]:
    """The automatch queue (in memory, or the cluster's in Redis) and this node's part."""
    state = app[STATE]
    ratings = state.ratings or stored_ratings(state.rating_store)
    automatch = state.automatch = open_automatch(state.settings, state.lobby, state.metrics,
                                                 ratings, state.clock)
    await automatch.start()
    try:
        yield
    finally:
        await automatch.close()


async def _moderation(app: web.Application) -> AsyncIterator[None]:
    """Bans, mutes and deletions made on other nodes, applied to this one's games."""
    state = app[STATE]
    watch = ModerationWatch(state.moderation, state.lobby, state.connections)
    async with _running(watch.run(state.settings.moderation_refresh_seconds)):
        yield


async def _health_watch(app: web.Application) -> AsyncIterator[None]:
    """The account store probed every few seconds (its first answer before the node
    listens: /readyz never reports a state nobody checked), and the event loop's lag."""
    state = app[STATE]
    probe = state.accounts_probe = AccountsProbe(state.accounts.store, state.metrics.accounts_up)
    await probe.probe()
    async with _running(probe.run(), measure_loop_lag(state.metrics.loop_lag)):
        yield


async def _dumps(app: web.Application) -> AsyncIterator[None]:
    """With `--dumps`: the dumps made on schedule and the statistics read from them
    (tasks/dumps.py)."""
    state = app[STATE]
    if not state.settings.dumps:
        yield
        return
    folder = Path(state.settings.dumps)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        state.statistics = Statistics(folder)
    except ImportError:
        log.warning("no card statistics: DuckDB is not installed (pip install '.[stats]')")
    try:
        async with _running(Dumps(state.settings, state.statistics, state.clock).run()):
            yield
    finally:
        if state.statistics is not None:
            state.statistics.close()


@contextlib.asynccontextmanager
async def _running(*work: Coroutine[Any, Any, None]) -> AsyncIterator[None]:
    """A node's background tasks, running while the block runs, cancelled and awaited
    when it ends."""
    tasks = [asyncio.ensure_future(each) for each in work]
    try:
        yield
    finally:
        await stop_tasks(tasks)


async def _close_after_a_failed_start(app: web.Application) -> None:
    """aiohttp cleans up only the contexts of an application that started (and run_app
    none at all when the start fails): stop the rooms and close the storage here (called
    once the lobby is open)."""
    state = app[STATE]
    await state.lobby.close()
    await state.accounts.close()
    await state.storage.close()


async def _close_connections(app: web.Application) -> None:
    """On shutdown, tell every client we are going away (they reconnect and resume), and
    wait for the close frames to go out (each close is bounded by CLOSE_TIMEOUT)."""
    state = app[STATE]
    for connection in list(state.connections):
        connection.close_soon(CloseCode.GOING_AWAY, "the server is restarting")
    await asyncio.gather(*(connection.wait_closed() for connection in list(state.connections)))


async def _no_sniffing(request: web.Request, response: web.StreamResponse) -> None:
    """Every response is what its Content-Type says: a browser must not guess that a JSON
    answer or a replay holding players' names is a page or a script."""
    response.headers["X-Content-Type-Options"] = "nosniff"
