"""Stopping a background task for certain, even when a cancellation is lost.

`Task.cancel()` is delivered once, at the task's next await, and code below may swallow
it. On Python 3.11 `asyncio.wait_for` does so when the cancellation arrives just as the
wrapped work ends (it returns the work's result: fixed in 3.12), and redis-py wraps every
command's send in one. A loop that lost its cancellation turns again and waits for its
next turn, and a node's close that waited for it waited for ever (CI's "worker crashed":
automatch's loop, after a Redis call, at the test's teardown). So a stop asks again until
every task has ended.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("dominion.server")

AGAIN_SECONDS = 0.1
"""How long a stop waits for the tasks to end before it cancels them again."""


async def stop_tasks(tasks: Iterable[asyncio.Future[Any] | None]) -> None:
    """Cancel `tasks` (None: never started) and return once each has ended. An error a
    task had ended with is logged: the server is stopping, and its other parts must
    still close."""
    stopping = [task for task in tasks if task is not None]
    while pending := [task for task in stopping if not task.done()]:
        for task in pending:
            task.cancel()
        # not awaited one by one: a stop that is itself cancelled must not cancel them
        await asyncio.wait(pending, timeout=AGAIN_SECONDS)
    for task in stopping:
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("a background task had failed", exc_info=error)
