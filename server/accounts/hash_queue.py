"""Whose password is hashed next: a fair queue in front of the hashing threads.

A hash costs tens of milliseconds of a core, so a flood of sign-ins from many addresses
can keep every hashing thread busy, and a plain first-come queue then makes the owner of
an account wait behind every stranger. So:

- sign-ins from a known device (a valid device cookie) and the signed-in owner's own
  checks (a password change) go first, in their own lane with a hashing thread of its
  own (`KNOWN_AT_ONCE`): they never wait for a stranger's hash to finish;
- strangers are served by network prefix in turn (round robin), each prefix with at
  most one hash running and `PER_PREFIX` in all (running or waiting): more from it are
  refused at once, so that forty addresses get forty turns, not forty queues;
- a full queue refuses strangers first: they may fill it only up to `STRANGERS_SHARE`
  of its length, the rest is the known devices'.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator
from dataclasses import dataclass

from dominion.protocol import ErrorCode

from ..refusal import Refusal

PER_PREFIX = 2
"""A stranger prefix's hashes running or waiting at once (one running, one waiting)."""
STRANGERS_SHARE = 0.5
"""How much of the queue strangers may fill; the rest waits for known devices only."""
BUSY_RETRY_MS = 1000
KNOWN_AT_ONCE = 1
"""Hashes the known lane runs at once, on threads of its own beside the strangers'."""


@dataclass(frozen=True)
class Asker:
    """Who a hash is for: a network prefix, and whether the request proved it is the
    account's own device (or its signed-in owner)."""

    prefix: str
    known: bool


SERVER = Asker("", known=True)
"""The server's own hashes (the dummy one, the command line's)."""


class HashQueue:
    """Turns at `at_once` hashing threads for strangers, their prefixes in turn, and
    `known_at_once` for known askers; at most `most_waiting` waiting."""

    def __init__(self, at_once: int, most_waiting: int,
                 known_at_once: int = KNOWN_AT_ONCE) -> None:
        self._idle = at_once
        self._known_idle = known_at_once
        self._most_waiting = most_waiting
        self._strangers_most = max(1, int(most_waiting * STRANGERS_SHARE))
        self._known: deque[asyncio.Future[None]] = deque()
        self._strangers: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._waiting_strangers = 0
        self._held: Counter[str] = Counter()
        """A stranger prefix's hashes, running or waiting."""
        self._running: Counter[str] = Counter()
        self._known_held = 0
        """Known askers' hashes, running or waiting."""

    @property
    def waiting(self) -> int:
        return len(self._known) + self._waiting_strangers

    @contextlib.asynccontextmanager
    async def turn(self, asker: Asker) -> AsyncIterator[None]:
        """Wait for a hashing thread's turn (or `rate_limited` at once), then hold it."""
        self._admit(asker)
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if asker.known:
            self._known_held += 1
            self._known.append(turn)
        else:
            self._held[asker.prefix] += 1
            self._strangers.setdefault(asker.prefix, deque()).append(turn)
            self._waiting_strangers += 1
        self._hand_out()
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self._finish(asker)  # given a turn as it was cancelled: give it back
            else:
                self._withdraw(asker, turn)
            raise
        try:
            yield
        finally:
            self._finish(asker)

    def _admit(self, asker: Asker) -> None:
        if asker.known:
            if self._known_held < self._most_waiting:
                return
        elif self._held[asker.prefix] < PER_PREFIX and self.waiting < self._strangers_most:
            return
        raise Refusal(ErrorCode.RATE_LIMITED, "the server is busy checking passwords; try "
                                              "again in a moment",
                      retry_after_ms=BUSY_RETRY_MS)

    def _hand_out(self) -> None:
        """Give the known lane's idle threads to the known, and the strangers' to the
        next stranger prefix that has none running."""
        while self._known_idle > 0 and self._known:
            turn = self._known.popleft()
            if not turn.cancelled():  # (a cancelled one is counted out by _withdraw)
                self._known_idle -= 1
                turn.set_result(None)
        while self._idle > 0:
            chosen = self._next()
            if chosen is None:
                return
            self._idle -= 1
            chosen.set_result(None)

    def _next(self) -> asyncio.Future[None] | None:
        for prefix, turns in list(self._strangers.items()):
            while turns and turns[0].cancelled():  # its waiter is leaving (_withdraw)
                turns.popleft()
                self._waiting_strangers -= 1
            if not turns:
                del self._strangers[prefix]
                continue
            if self._running[prefix] == 0:
                turn = turns.popleft()
                self._waiting_strangers -= 1
                self._running[prefix] += 1
                if turns:
                    self._strangers.move_to_end(prefix)  # its next turn after the others'
                else:
                    del self._strangers[prefix]
                return turn
        return None

    def _finish(self, asker: Asker) -> None:
        if asker.known:
            self._known_idle += 1
            self._known_held -= 1
        else:
            self._idle += 1
            self._forget_one(self._running, asker.prefix)
            self._forget_one(self._held, asker.prefix)
        self._hand_out()

    def _withdraw(self, asker: Asker, turn: asyncio.Future[None]) -> None:
        """A waiter gone before its turn (its client left)."""
        if asker.known:
            if turn in self._known:
                self._known.remove(turn)
            self._known_held -= 1
            return
        turns = self._strangers.get(asker.prefix)
        if turns is not None and turn in turns:
            turns.remove(turn)
            self._waiting_strangers -= 1
            if not turns:
                del self._strangers[asker.prefix]
        self._forget_one(self._held, asker.prefix)

    @staticmethod
    def _forget_one(counts: Counter[str], key: str) -> None:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]
