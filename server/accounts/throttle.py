"""Failed sign-ins cost more and more: after a few free failures, each one makes the
next attempt wait twice as long as the previous one did, per account and per address
(prefix), so a password cannot be guessed online and a flood of guesses cannot keep the
hashers busy. A success clears the account's count; an address's decays on its own."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from dominion.protocol import ErrorCode

from ..errors import GameError

PRUNE_FROM = 4096
"""Keys held before those whose wait is over are forgotten."""


@dataclass(frozen=True)
class Policy:
    free: int
    """Failures that cost nothing (a person mistyping)."""
    first_wait: float
    """Seconds to wait after the first failure beyond the free ones; then doubled."""
    longest_wait: float


@dataclass(slots=True)
class _Failures:
    count: int
    last: float


class Backoff:
    """Failures by key, and how long each key must wait before its next attempt."""

    def __init__(self, policy: Policy, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self._clock = clock
        self._held: dict[str, _Failures] = {}
        self._prune_at = PRUNE_FROM

    def wait(self, key: str) -> float:
        """Seconds until `key` may try again (0: now)."""
        failures = self._held.get(key)
        if failures is None:
            return 0.0
        return max(0.0, self._wait_after(failures) - (self._clock() - failures.last))

    def failed(self, key: str) -> None:
        now = self._clock()
        failures = self._held.get(key)
        if failures is not None and now - failures.last > 2 * self.policy.longest_wait:
            failures = None  # quiet long enough: start afresh
        if failures is None:
            if len(self._held) >= self._prune_at:
                self._prune(now)
            failures = self._held[key] = _Failures(0, now)
        failures.count += 1
        failures.last = now

    def forget(self, key: str) -> None:
        self._held.pop(key, None)

    def _wait_after(self, failures: _Failures) -> float:
        beyond = failures.count - self.policy.free
        if beyond <= 0:
            return 0.0
        return min(self.policy.longest_wait, self.policy.first_wait * 2.0 ** min(beyond - 1, 64))

    def _prune(self, now: float) -> None:
        self._held = {key: held for key, held in self._held.items()
                      if now - held.last <= 2 * self.policy.longest_wait}
        self._prune_at = max(PRUNE_FROM, 2 * len(self._held))

    def __len__(self) -> int:
        return len(self._held)


def refuse_while_waiting(*waits: tuple[float, str]) -> None:
    """Raise `rate_limited` with the longest of the `(seconds, whose)` waits, if any."""
    seconds, whose = max(waits)
    if seconds > 0:
        raise GameError(ErrorCode.RATE_LIMITED,
                        f"too many failed sign-ins for {whose}; retry in {seconds:.1f} s",
                        retry_after_ms=max(1, math.ceil(seconds * 1000)))
