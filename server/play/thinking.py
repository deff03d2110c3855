"""Bots that think in worker processes, never on the server's event loop (docs/BOTS.md,
"Worker processes").

Each decision crosses to a worker as what the seat may know and nothing more: the decision
as a network bot receives it (`WireDecision`), the seat's view map (the one the server
sends that seat, read there as a `SeatTable`), and the bot itself (its level and plan, a
few hundred bytes). The worker answers with the choice and the bot as it is after it,
which the seat keeps for its next decision: workers keep nothing, so any of them may
answer, and a worker that dies loses nothing. A bot rebuilt after a server restart
chooses its plan again from the Kingdom, as it first did.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import Process
from typing import Any

from dominion.bots import Strategy
from dominion.bots.seat import SeatTable
from dominion.bots.strong import StrongBot
from dominion.bots.wire import WireDecision, WireOption

from ..engine import Decision
from .bots import CARD_FACTS

log = logging.getLogger("dominion.bots")

ATTEMPTS = 2
"""A decision is asked again once of fresh workers when its worker died or hung."""
DECISION_SECONDS = 30.0
"""How long a decision may take once the workers have started (microseconds to a few
milliseconds): a worker past it is taken for hung."""
START_SECONDS = 120.0
"""How long a pool's workers may take to start (importing the bots: 0.4-1.7 s on a busy
machine, but past 30 s at a load average of 20 and more), apart from any decision's time:
a worker still starting is not hung."""
CLOSE_SECONDS = 5.0
"""How long closing waits for the ended workers to exit before it kills them."""
PARENT_CHECK_SECONDS = 0.5


class WorkersFailed(RuntimeError):
    """No worker could answer (each one asked died or hung): the room takes a legal
    answer."""


def wire_decision(decision: Decision) -> WireDecision:
    """The decision as its seat receives it over the network."""
    return WireDecision(decision.id, decision.player, str(decision.kind), decision.source,
                        tuple(WireOption(str(option.kind), option.card)
                              for option in decision.options),
                        decision.min, decision.max)


def _leave_with_the_server(server: int) -> None:
    """In a worker, from its start: exit once the server is gone (killed, it cannot say
    so, and a worker waiting for work would wait forever)."""
    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def _ready() -> None:
    """In a worker: nothing; its answer says the worker has started."""


def think(strategy: Strategy, decision: WireDecision, view: Mapping[str, Any]
          ) -> tuple[list[int], Strategy]:
    """In a worker: the strategy's answer from the seat's `view` map, and the strategy as
    it is after it (the catalogue is each process's own: it does not cross)."""
    return strategy.choose(decision, SeatTable.from_view(view, CARD_FACTS)), strategy


class BotWorkers:
    """Worker processes, at most `count`, in which the strong bot thinks; made when the
    first decision needs one, and made again when one dies."""

    def __init__(self, count: int, decision_seconds: float = DECISION_SECONDS,
                 start_seconds: float = START_SECONDS) -> None:
        if count < 1:
            raise ValueError("a pool of bot workers needs at least one")
        self.count = count
        self.decision_seconds = decision_seconds
        self.start_seconds = start_seconds
        self._pool: ProcessPoolExecutor | None = None
        self._started: asyncio.Future[list[None]] | None = None
        """Every worker of `_pool` answering once: the pool has started."""
        self._closed = False

    @staticmethod
    def takes(strategy: Strategy) -> bool:
        """Whether `strategy` thinks in a worker (the others answer in microseconds)."""
        return isinstance(strategy, StrongBot)

    async def _running(self) -> ProcessPoolExecutor:
        """The pool, its workers started (within `start_seconds`: TimeoutError)."""
        if self._closed:
            raise WorkersFailed("the bot workers are closed (the server is stopping)")
        if self._pool is None:
            # spawned, not forked: a worker shares nothing with the server but what it is sent
            self._pool = ProcessPoolExecutor(self.count,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_leave_with_the_server,
                                             initargs=(os.getpid(),))
            # one call a worker, sent together: the pool starts a process for each
            self._started = asyncio.gather(*(asyncio.wrap_future(self._pool.submit(_ready))
                                             for _ in range(self.count)))
        pool, started = self._pool, self._started
        assert started is not None
        try:
            async with asyncio.timeout(self.start_seconds):
                await asyncio.shield(started)  # every decision waiting on it shares one start
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if started.cancelled() and not (task and task.cancelling()):
                # the pool was shut down under the start (closed, or discarded by another
                # decision), not this task cancelled: as if its workers had died
                raise BrokenProcessPool("the bot workers were stopped as they started") from None
            raise
        return pool

    async def choose(self, strategy: Strategy, decision: Decision, table: SeatTable
                     ) -> tuple[list[int], Strategy]:
        """`strategy`'s answer, thought out in a worker, and the strategy after it."""
        request = (strategy, wire_decision(decision), table.view)
        for _ in range(ATTEMPTS):
            try:
                pool = await self._running()
            except BrokenProcessPool:
                log.warning("a bot worker died starting; starting the workers again")
                self._discard(self._pool)
                continue
            except TimeoutError:
                log.warning("the bot workers took over %s s to start; starting them again",
                            self.start_seconds)
                self._discard(self._pool, stop=True)
                continue
            try:
                # asyncio.timeout, not 3.11's wait_for: that one swallows a cancellation
                # that comes as the answer does, and the room's stop waited on its bots
                async with asyncio.timeout(self.decision_seconds):
                    return await asyncio.wrap_future(pool.submit(think, *request))
            except BrokenProcessPool:
                log.warning("a bot worker died; starting the workers again")
                self._discard(pool)
            except TimeoutError:
                log.warning("a bot worker took over %s s; starting the workers again",
                            self.decision_seconds)
                self._discard(pool, stop=True)
        raise WorkersFailed(f"every bot worker asked died or hung ({ATTEMPTS} tries)")

    def _discard(self, pool: ProcessPoolExecutor | None, *, stop: bool = False) -> None:
        """Forget `pool` (the next decision starts another); `stop`: end its workers first
        (a hung one never would end)."""
        if pool is None:
            return
        if self._pool is pool:
            self._pool = self._started = None
        if stop:
            _end_workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers, once the rooms no longer ask them anything. A worker keeps
        nothing, so it is ended at once rather than asked to finish: finishing (the
        decision in hand, a start still importing, then the interpreter's own clean-up of
        every module it loaded) takes seconds on a loaded machine, and the server's stop
        waited for it. One that outlives `CLOSE_SECONDS` of that is killed."""
        pool, self._pool, self._started = self._pool, None, None
        self._closed = True
        if pool is None:
            return
        workers = _end_workers(pool)
        stopped = asyncio.ensure_future(asyncio.to_thread(pool.shutdown, wait=True,
                                                          cancel_futures=True))
        try:
            await asyncio.wait_for(asyncio.shield(stopped), CLOSE_SECONDS)
        except TimeoutError:
            log.warning("a bot worker did not stop in %s s; killing it", CLOSE_SECONDS)
            for process in workers:
                process.kill()
            await stopped


def _end_workers(pool: ProcessPoolExecutor) -> list[Process]:
    """Terminate `pool`'s processes, and return them. The executor has no public way to
    before Python 3.14 (`terminate_workers`), hence its private `_processes`."""
    workers = list((pool._processes or {}).values())
    for process in workers:
        process.terminate()
    return workers
