"""Failed sign-ins cost more and more: after a few free failures, each one makes the
next attempt wait twice as long as the previous one did, per account and per address
(prefix), so a password cannot be guessed online and a flood of guesses cannot keep the
hashers busy. A success clears the account's count; an address's decays on its own.

One node counts in memory (`LocalThrottle`); several count in the cluster's Redis
(`RedisThrottle`), so that N nodes do not give a guesser N times the attempts."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from dominion.protocol import ErrorCode

from ..errors import GameError

if TYPE_CHECKING:
    from redis.asyncio import Redis

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
        return wait_after(self.policy, failures.count)

    def _prune(self, now: float) -> None:
        self._held = {key: held for key, held in self._held.items()
                      if now - held.last <= 2 * self.policy.longest_wait}
        self._prune_at = max(PRUNE_FROM, 2 * len(self._held))

    def __len__(self) -> int:
        return len(self._held)


def wait_after(policy: Policy, count: int) -> float:
    """Seconds a key must wait after its `count`-th failure in a row."""
    beyond = count - policy.free
    if beyond <= 0:
        return 0.0
    return min(policy.longest_wait, policy.first_wait * 2.0 ** min(beyond - 1, 64))


class Throttle(Protocol):
    """Failures by key, wherever they are counted."""

    async def wait(self, key: str) -> float:
        """Seconds until `key` may try again (0: now)."""

    async def failed(self, key: str) -> None: ...

    async def forget(self, key: str) -> None: ...


class LocalThrottle:
    """This node's own counts (a single server)."""

    def __init__(self, policy: Policy) -> None:
        self.backoff = Backoff(policy)

    async def wait(self, key: str) -> float:
        return self.backoff.wait(key)

    async def failed(self, key: str) -> None:
        self.backoff.failed(key)

    async def forget(self, key: str) -> None:
        self.backoff.forget(key)


def local_throttle(policy: Policy, name: str) -> Throttle:
    """This node's own counts for the policy named `name` (the name is Redis's)."""
    return LocalThrottle(policy)


_FAILED = """
local held = redis.call('HMGET', KEYS[1], 'count', 'last')
local count = tonumber(held[1]) or 0
if held[2] and tonumber(ARGV[1]) - tonumber(held[2]) > tonumber(ARGV[2]) then count = 0 end
redis.call('HSET', KEYS[1], 'count', count + 1, 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 1000))
return count + 1
"""
"""One failure, atomically: the count goes up, or starts afresh after a long quiet (as
`Backoff.failed`), and the key expires once it would start afresh anyway."""


class RedisThrottle:
    """Counts every node shares, in the cluster's Redis (`dominion:throttle:NAME:KEY`, a
    hash of count and last failure, expiring after a long quiet). While Redis cannot be
    reached, this node's own counts stand in (a guess is never free)."""

    def __init__(self, policy: Policy, redis: Redis, name: str,
                 clock: Callable[[], float] = time.time) -> None:
        self.policy = policy
        self._redis = redis
        self._prefix = f"dominion:throttle:{name}:"
        self._clock = clock
        self._local = Backoff(policy)

    async def wait(self, key: str) -> float:
        from redis.exceptions import RedisError

        try:
            count, last = await self._redis.hmget(self._prefix + key, ["count", "last"])
        except (RedisError, OSError):
            return self._local.wait(key)
        if count is None or last is None:
            return 0.0
        elapsed = self._clock() - float(last)
        return max(0.0, wait_after(self.policy, int(count)) - elapsed)

    async def failed(self, key: str) -> None:
        from redis.exceptions import RedisError

        self._local.failed(key)
        with contextlib.suppress(RedisError, OSError):  # counted here meanwhile
            await self._redis.eval(_FAILED, 1, self._prefix + key, repr(self._clock()),
                                   repr(2 * self.policy.longest_wait))

    async def forget(self, key: str) -> None:
        from redis.exceptions import RedisError

        self._local.forget(key)
        with contextlib.suppress(RedisError, OSError):
            await self._redis.delete(self._prefix + key)


def refuse_while_waiting(*waits: tuple[float, str]) -> None:
    """Raise `rate_limited` with the longest of the `(seconds, whose)` waits, if any."""
    seconds, whose = max(waits)
    if seconds > 0:
        raise GameError(ErrorCode.RATE_LIMITED,
                        f"too many failed sign-ins for {whose}; retry in {seconds:.1f} s",
                        retry_after_ms=max(1, math.ceil(seconds * 1000)))
