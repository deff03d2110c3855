"""`dominion-server`: run the server until SIGTERM or SIGINT, then shut down gracefully."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence

from aiohttp import web

from . import logs
from .cluster.node import NodeNameTaken
from .edge.app import create_app
from .engine import ENGINE
from .gc_tuning import tune_gc
from .settings import Settings
from .storage import StorageError


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


def listening_urls(settings: Settings) -> tuple[str, str]:
    """The base URL and the WebSocket URL the server listens on."""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"http://{host}:{settings.port}", f"ws://{host}:{settings.port}/api/v1/ws"


def main(argv: Sequence[str] | None = None) -> int:
    settings = Settings.from_sources(argv)
    logs.configure(settings.log_level)
    tune_gc()
    log = logging.getLogger("dominion.server")
    base, websocket = listening_urls(settings)

    def say_where(*_: object) -> None:  # run_app calls it once the socket listens
        log.info("listening on %s (WebSocket %s)", base, websocket,
                 extra={"url": base, "websocket": websocket,
                        "public_url": settings.public_url or None,
                        "engine": ENGINE.value})  # compiled or pure Python, and why

    try:
        # run_app stops accepting on SIGTERM/SIGINT, runs on_shutdown (clients hear
        # "going away"), then cleanup (pending writes are flushed).
        web.run_app(create_app(settings), host=settings.host, port=settings.port,
                    print=say_where, access_log=None, shutdown_timeout=10,
                    loop=new_event_loop(settings.event_loop))
    except StorageError as error:
        log.error("cannot open the database: %s", error, extra={"db": settings.db})
        return 2
    except NodeNameTaken as error:
        log.error("cannot join the cluster: %s", error, extra={"node": settings.node})
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
