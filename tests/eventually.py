"""Waiting for something the server does in its own time (a room leaving memory, a
closed connection being counted) without guessing how long it takes: a loaded machine
only makes the wait longer, never the test wrong."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable

POLL_SECONDS = 0.02


async def eventually(check: Callable[[], bool | Awaitable[bool]], seconds: float = 20) -> None:
    """Return once `check()` is true; fail if it is still false after `seconds`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        outcome = check()
        if inspect.isawaitable(outcome):
            outcome = await outcome
        if outcome:
            return
        assert loop.time() < deadline, f"never happened in {seconds} s"
        await asyncio.sleep(POLL_SECONDS)
