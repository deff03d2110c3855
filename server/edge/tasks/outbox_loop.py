"""What the node's outboxes share (rating_outbox.py, archive_outbox.py): a task that hands
waiting rows on at start, whenever woken, and after a failure again, waiting twice as long
each time from 1 second up to a longest wait."""

from __future__ import annotations

import asyncio
import contextlib
import logging

FIRST_RETRY_SECONDS = 1.0


class OutboxLoop:
    log = logging.getLogger("dominion")
    what = "the outbox"
    """What the log calls it."""
    idle_seconds: float | None = None
    """After a drain that succeeded, drain again this often even if nobody wakes the task
    (None: only when woken)."""

    def __init__(self, longest_wait: float) -> None:
        self._longest_wait = longest_wait
        self._wake = asyncio.Event()

    def wake(self) -> None:
        """Something was stored to hand on: do it now."""
        self._wake.set()

    async def drain(self) -> bool:
        """Hand every waiting row on; False when the other side cannot be reached (the
        rest wait for the next try)."""
        raise NotImplementedError

    async def run(self) -> None:
        """Drain at start (rows stored before a restart), whenever woken, and again after
        a failure, waiting longer each time."""
        first = wait = min(FIRST_RETRY_SECONDS, self._longest_wait)
        while True:
            self._wake.clear()
            try:
                drained = await self.drain()
            except Exception:  # the games' database failing, say: they wait, the task goes on
                self.log.exception("%s cannot be handed on now", self.what)
                drained = False
            if drained:
                wait = first
                await self._sleep(self.idle_seconds)
                continue
            await self._sleep(wait)
            wait = min(2 * wait, self._longest_wait)

    async def _sleep(self, seconds: float | None) -> None:
        """Until woken, or `seconds` have passed (None: until woken)."""
        if seconds is None:
            await self._wake.wait()
            return
        with contextlib.suppress(TimeoutError):  # not wait_for: see health_watch.py
            async with asyncio.timeout(seconds):
                await self._wake.wait()
