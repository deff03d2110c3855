"""The server's two clocks: wall-clock time for records and logs (the engine never reads
the clock), and `Clock`, the timers' clock (a seat's grace, a rematch offer, an ended room
kept a while, an open table's lapse, automatch's turns, the connections' watchdog),
which production runs on the event loop and tests replace with a virtual
one they move forward, so that a timer's behaviour is tested in milliseconds."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable
from typing import Any, Protocol

RETRY_SECONDS = 1.0
"""A room's write that storage refused (a bot's answer, a takeover, a game's end) is
tried again after this long."""


def retry_seconds() -> float:
    """`RETRY_SECONDS`, read when it is needed (tests shorten it)."""
    return RETRY_SECONDS


def utc_now() -> str:
    """Now, as ISO 8601 in UTC with seconds: '2026-11-30T01:14:20Z'."""
    return _formatted(int(time.time()))


@functools.lru_cache(maxsize=1)
def _formatted(second: int) -> str:
    # Every answer is stamped: formatting once a second, not once an answer, saves as
    # much time on the event loop's thread as the rest of storing the answer takes.
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))


class Timer(Protocol):
    """A callback set to run later (asyncio's `TimerHandle` is one)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Monotonic seconds, and callbacks run after a delay in them."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer: ...


class LoopClock:
    """The running event loop's clock: production's."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback, *args)


LOOP_CLOCK = LoopClock()


async def sleep(clock: Clock, seconds: float) -> None:
    """`asyncio.sleep` on `clock`: a loop that waits between turns (automatch's polls, the
    connections' watchdog) takes as long on a virtual clock as the test moves it."""
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    timer = clock.call_later(seconds, wake_sleeper, future)
    try:
        await future
    finally:
        timer.cancel()


def wake_sleeper(future: asyncio.Future[None]) -> None:
    if not future.done():  # cancelled while it slept
        future.set_result(None)
