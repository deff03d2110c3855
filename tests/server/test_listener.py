"""The listener's parts on their own: the count of plain connections per address key
(trusted proxies not counted) and the warnings logged at most once a minute per address.
tests/adversarial/test_http_limits.py runs them through a real server."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import pytest

from dominion.server.edge.transport.listener import ConnectionCount, Warnings, awaiting
from dominion.server.settings import Settings


class Transport(asyncio.BaseTransport):
    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self.address, 50000) if name == "peername" else default


class Clock:
    now = 100.0

    def __call__(self) -> float:
        return self.now


def test_connections_are_counted_per_prefix_and_trusted_proxies_not_at_all() -> None:
    settings = Settings(http_connections_per_address=2, ipv6_prefix=64,
                        trusted_proxies=("10.0.0.0/8",))
    count = ConnectionCount(settings, Warnings())
    first, second = Transport("2001:db8::1"), Transport("2001:db8::2")
    assert count.admit(first) and count.admit(second)
    assert not count.admit(Transport("2001:db8::ffff"))  # the same /64
    assert count.admit(Transport("2001:db8:0:1::1"))  # the next /64
    assert all(count.admit(Transport("10.1.2.3")) for _ in range(10))  # the proxy
    assert len(count) == 3
    count.release(first)
    count.release(first)  # once only
    assert count.admit(Transport("2001:db8::3"))
    assert not count.admit(Transport("2001:db8::4"))


def test_a_warning_is_logged_once_a_minute_per_address(caplog: pytest.LogCaptureFixture
                                                       ) -> None:
    clock = Clock()
    warnings = Warnings(clock=clock)
    with caplog.at_level(logging.WARNING, "dominion.server"):
        for _ in range(5):
            warnings.warn("refused", "192.0.2.0/24")
        warnings.warn("refused", "198.51.100.7/32")
        warnings.warn("stalled", "192.0.2.0/24")
        clock.now += 61
        warnings.warn("refused", "192.0.2.0/24")
    logged = [(r.getMessage(), r.address, r.unlogged_since)  # type: ignore[attr-defined]
              for r in caplog.records]
    assert logged == [("refused", "192.0.2.0/24", 0), ("refused", "198.51.100.7/32", 0),
                      ("stalled", "192.0.2.0/24", 0), ("refused", "192.0.2.0/24", 4)]


async def test_a_task_says_each_coroutine_of_its_await_chain() -> None:
    """What a slow stop logs of each task (listener.SLOW_STOP_SECONDS): where it waits,
    down to the innermost coroutine, not only the outermost one."""
    never = asyncio.Event()

    async def innermost_wait() -> None:
        await never.wait()

    async def middle() -> None:
        await innermost_wait()

    task = asyncio.ensure_future(middle())
    await asyncio.sleep(0)
    chain = awaiting(task)
    assert [line.rsplit(" ", 1)[1] for line in chain[:2]] == ["middle", "innermost_wait"]
    assert chain[-1].endswith(" wait")  # the Event's own wait, the leaf
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
