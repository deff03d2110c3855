"""What a node watches in the background for its health and metrics: whether the account
store answers (probed every few seconds, so that /readyz never waits on a network), and
how late the event loop runs (every request and game on the node waits as long)."""

from __future__ import annotations

import asyncio
import logging

from prometheus_client import Gauge, Histogram

from dominion.protocol import ErrorCode

from ...accounts.store import AccountStore
from ...refusal import Refusal

log = logging.getLogger("dominion.health")
PROBE_SECONDS = 5.0
"""How often the account store is asked whether it answers."""
PROBE_TIMEOUT = 3.0
"""The longest a probe waits: a store slower than this counts as down."""
LAG_PERIOD = 0.25
"""How often the event loop's lateness is measured."""


class AccountsProbe:
    """The account store's state as last probed (`dominion_accounts_up`)."""

    def __init__(self, store: AccountStore, gauge: Gauge) -> None:
        self._store = store
        self._gauge = gauge
        self.up = True

    async def probe(self) -> None:
        """Ask once: down when the store refuses, fails or takes over PROBE_TIMEOUT."""
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
            # cancellation that arrives as the ping ends, and the task would never stop
            async with asyncio.timeout(PROBE_TIMEOUT):
                await self._store.ping()
        except Exception as error:
            unreachable = isinstance(error, TimeoutError) or (
                isinstance(error, Refusal) and error.code is ErrorCode.ACCOUNTS_UNAVAILABLE)
            if not unreachable and self.up:  # a wrong password, say: logged as it begins
                log.exception("probing the account store failed")
            self._set(False)
        else:
            self._set(True)

    def _set(self, up: bool) -> None:
        if up != self.up:
            log.warning("the account store %s", "answers again" if up else "does not answer")
        self.up = up
        self._gauge.set(int(up))

    async def run(self) -> None:
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            await self.probe()


async def measure_loop_lag(histogram: Histogram) -> None:
    """Sleep LAG_PERIOD at a time and record how much later than asked each wake came."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time() + LAG_PERIOD
        await asyncio.sleep(LAG_PERIOD)
        histogram.observe(max(0.0, loop.time() - asked))


