"""Whether the event loop has turned since a mark: told apart without a clock.

A connection reads the frames a client has queued one after the other without a pause;
after a request that never let the loop run, it pauses for a turn of it (connection.py).
A request that waited (an answer waits for its group commit) has let the loop run, and
needs no pause. One callback per loop turn at most, shared by every connection: a mark
costs a comparison while one is pending.
"""

from __future__ import annotations

import asyncio


class LoopTurns:
    """Counts the turns of one event loop in which somebody asked (`mark`)."""

    __slots__ = ("_loop", "_pending", "count")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._pending = False
        self.count = 0
        """Grows once a marked turn has passed: the callbacks ready at `mark` have run."""

    def mark(self) -> int:
        """The count now; `count` differs from it once the loop has run other callbacks."""
        if not self._pending:
            self._pending = True
            self._loop.call_soon(self._turned)
        return self.count

    def _turned(self) -> None:
        self._pending = False
        self.count += 1
