"""The aiohttp application: the factory that mounts every route, and the resources it
opens and closes in order (one `cleanup_ctx` each); the WebSocket upgrade and `/metrics`
(health is in `health.py`). What handlers share is in `state.py`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

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
from ..play.lobby import Lobby
from ..play.thinking import BotWorkers
from ..refusal import Refusal
from ..settings import Settings
from ..storage import Storage
from .automatch_api import BUDGET as AUTOMATCH_BUDGET
from .automatch_api import LOOKUPS_PER_MINUTE as AUTOMATCH_LOOKUPS_PER_MINUTE
from .budgets import Budgets
from .connection import watch_connections, watch_interval
from .game_ratings import rating_changed
from .health_watch import ACCOUNTS_PROBE, AccountsProbe, measure_loop_lag
from .listener import COUNT, WARNINGS, ConnectionCount, Warnings
from .moderation_watch import ModerationWatch, banned_addresses_refused
from .node_api import add_node_routes
from .openapi import API_TABLES, ROOT_TABLES
from .operation import API_PREFIX
from .origins import known_hosts_only
from .outbox import Waiting
from .passkeys_api import BUDGET as PASSKEY_BUDGET
from .passkeys_api import CEREMONIES_PER_MINUTE, PASSKEYS
from .players_api import BUDGET as PROFILE_BUDGET
from .players_api import LOOKUPS_PER_MINUTE
from .rating_outbox import RatingOutbox
from .rest import (
    MAX_BODY_BYTES,
    declared_body_fits,
    json_errors,
    unmatched_as_json,
)
from .sessions import ACCOUNTS
from .state import (
    DIRECTORY,
    MODERATION,
    RATING_OUTBOX,
    RATING_STORE,
    SETTINGS,
    STATE,
    STORAGE,
    ServerState,
)

if TYPE_CHECKING:
    from redis.asyncio import Redis

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


RATINGS: web.AppKey[RatingLookup | None] = web.AppKey("ratings")
"""How automatch reads a seeker's rating: None, the ratings store's (tests give others)."""


def create_app(settings: Settings, ratings: RatingLookup | None = None) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY_BYTES, handler_args=HANDLER_ARGS,
                          middlewares=[known_hosts_only, banned_addresses_refused,
                                       declared_body_fits, unmatched_as_json])
    app[SETTINGS] = settings
    app[RATINGS] = ratings
    app[WARNINGS] = warnings = Warnings()
    app[COUNT] = ConnectionCount(settings, warnings)
    app.on_response_prepare.append(_no_sniffing)
    # one context per resource, opened in this order and closed in the reverse one
    app.cleanup_ctx.append(_storage)
    app.cleanup_ctx.append(_accounts)
    app.cleanup_ctx.append(_bot_workers)
    app.cleanup_ctx.append(_live_games)
    app.cleanup_ctx.append(_rating_outbox)
    app.cleanup_ctx.append(_open_directory)
    app.cleanup_ctx.append(_automatch)
    app.cleanup_ctx.append(_moderation)
    app.cleanup_ctx.append(_health_watch)
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
    settings = app[SETTINGS]
    storage = Storage.open(settings.db, synchronous=settings.sqlite_synchronous.upper())
    app[STORAGE] = storage
    try:
        await storage.start()
        yield
    finally:
        await storage.close()


async def _accounts(app: web.Application) -> AsyncIterator[None]:
    """The account store (accounts/): SQLite beside the games, or PostgreSQL. A
    PostgreSQL that cannot be reached does not stop the start: games need none."""
    settings = app[SETTINGS]
    store = open_account_store(settings.accounts_url, settings.db)
    hasher = Hasher(settings.hashes_at_once, settings.password_time_cost,
                    settings.password_memory_kib)
    redis, throttle = shared_throttle(settings)
    accounts = app[ACCOUNTS] = Accounts(store, hasher, settings.session_days,
                                        throttle=throttle)
    app[PASSKEYS] = Passkeys(accounts)
    moderation = app[MODERATION] = Moderation(store)
    app[RATING_STORE] = store
    try:
        await store.start()
        with contextlib.suppress(Refusal):  # unreachable now: the watch tries again
            await moderation.refresh()
    except BaseException:
        await accounts.close()
        await app[STORAGE].close()
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


BOT_WORKERS: web.AppKey[BotWorkers | None] = web.AppKey("bot_workers")


async def _bot_workers(app: web.Application) -> AsyncIterator[None]:
    """The processes the strong bot thinks in (none with `bot_workers` 0): made when a
    bot first thinks, stopped once the rooms have stopped."""
    count = app[SETTINGS].bot_workers
    workers = app[BOT_WORKERS] = BotWorkers(count) if count else None
    try:
        yield
    finally:
        if workers is not None:
            await workers.close()


async def _live_games(app: web.Application) -> AsyncIterator[None]:
    """The lobby with every unfinished game restored, and the connections' watchdog; on
    the way out, every room is stopped (no more changes, bots or timers) before the
    storage closes."""
    settings, storage = app[SETTINGS], app[STORAGE]
    metrics = Metrics()
    metrics.watch_storage(storage)
    metrics.watch_rating_backlog(storage.pending_rating_count)
    lobby = Lobby(storage, settings, metrics, app[ACCOUNTS], app[MODERATION],
                  workers=app[BOT_WORKERS])
    lobby.ratings_of = app[RATING_STORE].ratings_of  # shown beside rated tables' names
    state = app[STATE] = ServerState(settings, metrics, storage, lobby, budgets_of(settings),
                                     Waiting(settings.outbound_total_bytes))
    metrics.describe_build(state.version, ENGINE.value)
    try:
        state.restored_games = await lobby.restore()
    except BaseException:
        await _close_after_a_failed_start(app)
        raise
    watchdog = asyncio.ensure_future(
        watch_connections(state.connections, watch_interval(settings)))
    try:
        yield
    finally:
        watchdog.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watchdog
        await lobby.close()


async def _rating_outbox(app: web.Application) -> AsyncIterator[None]:
    """Finished rated games handed from this node's outbox to the account store's ledger
    (rating_outbox.py): those that waited across a restart at once, then each as it ends."""
    state = app[STATE]
    outbox = app[RATING_OUTBOX] = RatingOutbox(
        state.storage, app[RATING_STORE], state.settings.ratings_retry_seconds,
        state.settings.rated_games_per_pair_per_day)
    state.lobby.on_rated_finished = outbox.wake
    outbox.on_applied = lambda ratings: state.lobby.broadcast(ratings.game_id,
                                                              rating_changed(ratings))
    task = asyncio.ensure_future(outbox.run())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _open_directory(app: web.Application) -> AsyncIterator[None]:
    """The directory, after the rooms are restored (a node publishes them at start)."""
    state = app[STATE]
    directory = open_directory(state.settings, state.lobby, state.storage, state.metrics,
                               state.connections)
    state.lobby.on_room_changed = directory.changed
    app[DIRECTORY] = directory
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
    ratings = app[RATINGS] or stored_ratings(app[RATING_STORE])
    automatch = state.automatch = open_automatch(state.settings, state.lobby, state.metrics,
                                                 ratings)
    await automatch.start()
    try:
        yield
    finally:
        await automatch.close()


async def _moderation(app: web.Application) -> AsyncIterator[None]:
    """Bans, mutes and deletions made on other nodes, applied to this one's games."""
    state = app[STATE]
    watch = ModerationWatch(app[MODERATION], state.lobby, state.connections)
    task = asyncio.ensure_future(watch.run(state.settings.moderation_refresh_seconds))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _health_watch(app: web.Application) -> AsyncIterator[None]:
    """The account store probed every few seconds (its first answer before the node
    listens: /readyz never reports a state nobody checked), and the event loop's lag."""
    state = app[STATE]
    probe = app[ACCOUNTS_PROBE] = AccountsProbe(app[ACCOUNTS].store, state.metrics.accounts_up)
    await probe.probe()
    tasks = [asyncio.ensure_future(probe.run()),
             asyncio.ensure_future(measure_loop_lag(state.metrics.loop_lag))]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _close_after_a_failed_start(app: web.Application) -> None:
    """aiohttp cleans up only the contexts of an application that started (and run_app
    none at all when the start fails): stop the rooms and close the storage here."""
    if STATE in app:
        await app[STATE].lobby.close()
    await app[ACCOUNTS].close()
    await app[STORAGE].close()


async def _close_connections(app: web.Application) -> None:
    """On shutdown, tell every client we are going away (they reconnect and resume), and
    wait for the close frames to go out (each close is bounded by CLOSE_TIMEOUT)."""
    state = app[STATE]
    for connection in list(state.connections):
        connection.close_soon(CloseCode.GOING_AWAY, "the server is restarting")
    await asyncio.gather(*(connection.closed() for connection in list(state.connections)))


async def _no_sniffing(request: web.Request, response: web.StreamResponse) -> None:
    """Every response is what its Content-Type says: a browser must not guess that a JSON
    answer or a replay holding players' names is a page or a script."""
    response.headers["X-Content-Type-Options"] = "nosniff"
