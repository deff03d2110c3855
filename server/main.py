"""`dominion-server`: run the server until SIGTERM or SIGINT, then shut down gracefully
(`dominion-server admin ...` manages admins instead: accounts/admin_cli.py; `dominion-server
ratings recompute` rebuilds the ratings from the ledger: accounts/ratings_cli.py; `ratings
reconcile` makes the ledger and a node agree after a restore: edge/tasks/reconcile.py;
`archive reconcile` re-fills a restored archive from a node: edge/tasks/archive_reconcile.py;
`fill` stores games played by bots: play/fill.py; `dump` writes a period's games as files:
replays/dump.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
import sys
from collections.abc import Sequence

from dominion.protocol.loader import describe

from . import logs
from .accounts.admin_cli import admin_main
from .accounts.ratings_cli import ratings_main
from .automatch import RatingLookup
from .cluster.node import NodeNameTaken
from .edge.app import create_app
from .edge.state import STATE
from .edge.tasks.archive_reconcile import archive_reconcile_main
from .edge.tasks.reconcile import reconcile_main
from .edge.transport.listener import run
from .gc_tuning import tune_gc
from .play.archive import read_archive
from .play.fill import fill_main
from .replays.dump import dump_main
from .settings import Settings
from .storage import DatabaseInUse, StorageError
from .version import package_version


def new_event_loop(kind: str) -> asyncio.AbstractEventLoop:
    """uvloop when asked for, or when installed and the choice is 'auto'."""
    if kind in ("auto", "uvloop"):
        try:
            import uvloop
        except ImportError:
            if kind == "uvloop":
                raise SystemExit("--event-loop uvloop: uvloop is not installed") from None
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()


def address_of(settings: Settings) -> str:
    """HOST:PORT as a URL writes it (an IPv6 address in brackets)."""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"{host}:{settings.port}"


def listening_urls(settings: Settings) -> tuple[str, str]:
    """The base URL and the WebSocket URL the server listens on."""
    where = address_of(settings)
    return f"http://{where}", f"ws://{where}/api/v1/ws"


def bind(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address `host` names (every interface if empty), as the
    event loop's create_server binds them, but before the games are restored: a port
    that is taken is then the first and only thing the server says. Port 0: the one the
    system chooses for the first address, for them all."""
    found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(found):
            sockets.append(bound := socket.socket(family, kind, proto))
            bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # "::" is IPv6 only, as create_server has it
                bound.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            bound.bind((address[0], port or chosen_port(sockets[:-1]), *address[2:]))
    except OSError:
        for unused in sockets:
            unused.close()
        raise
    return sockets


def chosen_port(sockets: Sequence[socket.socket]) -> int:
    """The port the first of `sockets` is bound to; 0 (the system's choice) if none is."""
    return int(sockets[0].getsockname()[1]) if sockets else 0


def main(argv: Sequence[str] | None = None, ratings: RatingLookup | None = None) -> int:
    """`ratings`: where automatch finds a seeker's rating (tests give their own)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["admin"]:  # a sub-command on the host; the server does not start
        return admin_main(arguments[1:])
    if arguments[:2] == ["archive", "reconcile"]:  # needs the node's games, as below
        return archive_reconcile_main(arguments[2:])
    if arguments[:2] == ["ratings", "reconcile"]:  # needs the node's games: not accounts'
        return reconcile_main(arguments[2:])
    if arguments[:1] == ["ratings"]:
        return ratings_main(arguments[1:])
    if arguments[:1] in (["fill"], ["dump"]):
        tune_gc()  # a game's events are short-lived objects by the thousand, as in the server
    if arguments[:1] == ["fill"]:
        return fill_main(arguments[1:])
    if arguments[:1] == ["dump"]:
        return dump_main(arguments[1:], lambda given, since, until: read_archive(
            given.accounts_url, given.db, since, until))
    settings = Settings.from_sources(arguments)
    logs.configure(settings.log_level, settings.log_format)
    tune_gc()
    log = logging.getLogger("dominion.server")
    try:
        sockets = bind(settings.host, settings.port)
    except OSError as error:
        log.error("cannot listen on %s: %s; choose another port with --port or address "
                  "with --host (env DOMINION_PORT, DOMINION_HOST)", address_of(settings),
                  error.strerror or error, extra={"host": settings.host, "port": settings.port})
        return 2
    # --port 0: the port the system chose, which the log line says and the app knows
    settings = dataclasses.replace(settings, port=chosen_port(sockets))
    app = create_app(settings, ratings)
    base, websocket = listening_urls(settings)

    def say_where() -> None:  # called once the sockets listen
        log.info("listening on %s (WebSocket %s)", base, websocket,
                 extra={"url": base, "websocket": websocket,
                        "public_url": settings.public_url or None,
                        "version": package_version(),
                        "engine": describe()})  # compiled or pure Python, and why
        ready.append(asyncio.ensure_future(say_ready()))

    ready: list[asyncio.Future[None]] = []  # (held: a task nobody holds may be collected)

    async def say_ready() -> None:  # once every unfinished game is back
        await app[STATE].lobby.all_restored()
        restored = app[STATE].restored_games
        if restored is not None:  # (None: the restore failed, or the server is stopping)
            log.info("server ready", extra={"db": settings.db, "restored_games": restored})

    try:
        # as web.run_app (with connections counted per address): stops accepting on
        # SIGTERM/SIGINT, runs on_shutdown (clients hear "going away"), then cleanup
        # (pending writes are flushed).
        run(app, sockets, new_event_loop(settings.event_loop), on_listening=say_where,
            shutdown_timeout=10)
    except DatabaseInUse as error:
        log.error("cannot open the database: %s; stop that one, or give this one another "
                  "file with --db (env DOMINION_DB)", error, extra={"db": settings.db})
        return 2
    except StorageError as error:
        log.error("cannot open the database: %s", error, extra={"db": settings.db})
        return 2
    except NodeNameTaken as error:
        log.error("cannot join the cluster: %s", error, extra={"node": settings.node})
        return 2
    finally:
        for listening in sockets:  # closed already, unless the start failed before
            listening.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
