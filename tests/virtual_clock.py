"""A clock for the server's timers that moves only when a test moves it: a seat's grace of
two minutes passes in one call, and a test may look just before a deadline as well as
just after it (server/play/clock.py)."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from dominion.server.play import clock


@dataclass(order=True)
class VirtualTimer:
    when: float
    order: int
    callback: Callable[..., object] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """`server.play.clock.Clock`, moved by `advance`."""

    def __init__(self) -> None:
        self._now = 0.0
        self._timers: list[VirtualTimer] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[..., object],
                   *args: Any) -> VirtualTimer:
        timer = VirtualTimer(self._now + max(0.0, delay), next(self._order), callback, args)
        heapq.heappush(self._timers, timer)
        return timer

    @property
    def waiting(self) -> int:
        """How many timers are set and not cancelled."""
        return sum(not timer.cancelled for timer in self._timers)

    @property
    def asleep(self) -> int:
        """How many loops wait in `clock.sleep` on this clock (a loop's turn is over)."""
        return sum(not timer.cancelled and timer.callback is clock.wake_sleeper
                   for timer in self._timers)

    def advance(self, seconds: float) -> None:
        """Move `seconds` on, running each timer due by then in order, at its own time
        (one a callback sets within the span runs too)."""
        until = self._now + seconds
        while self._timers and self._timers[0].when <= until:
            timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                self._now = timer.when
                timer.callback(*timer.args)
        self._now = until

    async def run(self, seconds: float, step: float) -> None:
        """Move `seconds` on, `step` at a time, the loops that sleep on this clock
        (`clock.sleep`: automatch's turns, the connections' watchdog) each running the
        turn a step woke up to its end (back asleep) before the next step."""
        end = self._now + seconds
        while self._now < end - 1e-9:
            sleepers = self.asleep
            self.advance(min(step, end - self._now))
            await self.settled(sleepers)

    async def settled(self, sleepers: int) -> None:
        """Until `sleepers` loops sleep on this clock again. (A turn may wait on a thread
        or a socket: a bounded wait, not a fixed one.)"""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while self.asleep < sleepers:
            assert loop.time() < deadline, "a loop never came back to sleep on the clock"
            await asyncio.sleep(0)

    @contextlib.asynccontextmanager
    async def ticking(self, step: float) -> AsyncIterator[None]:
        """While the block runs, `step` on every millisecond: the bots of a table with a
        pace (they pause on this clock between answers) play on while a test waits on
        something else."""
        async def tick() -> None:
            while True:
                self.advance(step)
                await asyncio.sleep(0.001)

        ticker = asyncio.ensure_future(tick())
        try:
            yield
        finally:
            ticker.cancel()

    def advancing(self, check: Callable[[], bool], step: float = 1.0) -> Callable[[], bool]:
        """`check`, the clock moving `step` on each time it is asked: for `eventually`
        while the work waited for sets timers of its own (a retry after a failed write)."""
        def moved_then_checked() -> bool:
            self.advance(step)
            return check()
        return moved_then_checked
