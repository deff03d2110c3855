"""Failed sign-ins cost more and more: after a few free failures, each one makes the
next attempt wait twice as long as the previous one did, per account and per address
(prefix), so a password cannot be guessed online and a flood of guesses cannot keep the
hashers busy. A success clears the account's count; an address's decays on its own.

An attempt is checked and counted in one step (`take`), before the costly work, and
given back (`refund`) when it did not fail: checking first and counting after the hash
let requests sent together all pass the check (40 guesses at once, 32 of them hashed).

One node counts in memory (`LocalThrottle`); several count in the cluster's Redis
(`RedisThrottle`), so that N nodes do not give a guesser N times the attempts."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from dominion.protocol import ErrorCode

from ..refusal import Refusal

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

    def take(self, key: str) -> float:
        """Count an attempt now unless `key` must wait; the wait (0: counted)."""
        waiting = self.wait(key)
        if waiting == 0:
            self.failed(key)
        return waiting

    def refund(self, key: str) -> None:
        """An attempt `take` counted did not fail: it no longer counts."""
        failures = self._held.get(key)
        if failures is not None:
            failures.count = max(0, failures.count - 1)

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
        """Seconds until `key` may try again (0: now), counting nothing."""

    async def take(self, key: str) -> float:
        """Count an attempt as a failure now unless `key` must wait, in one step; the wait
        (0: counted)."""

    async def refund(self, key: str) -> None:
        """An attempt `take` counted did not fail: it no longer counts."""

    async def forget(self, key: str) -> None:
        """A success: `key` starts afresh."""


class LocalThrottle:
    """This node's own counts (a single server)."""

    def __init__(self, policy: Policy) -> None:
        self.backoff = Backoff(policy)

    async def wait(self, key: str) -> float:
        return self.backoff.wait(key)

    async def take(self, key: str) -> float:
        return self.backoff.take(key)

    async def refund(self, key: str) -> None:
        self.backoff.refund(key)

    async def forget(self, key: str) -> None:
        self.backoff.forget(key)


def local_throttle(policy: Policy, name: str) -> Throttle:
    """This node's own counts for the policy named `name` (the name is Redis's)."""
    return LocalThrottle(policy)


_TAKE = """
local held = redis.call('HMGET', KEYS[1], 'count', 'last')
local now, quiet = tonumber(ARGV[1]), tonumber(ARGV[2])
local free, first, longest = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local count, last = tonumber(held[1]) or 0, tonumber(held[2])
if last and now - last > quiet then count = 0 end
if last and count > free then
  local waiting = math.min(longest, first * 2 ^ math.min(count - free - 1, 64)) - (now - last)
  if waiting > 0 then return tostring(waiting) end
end
redis.call('HSET', KEYS[1], 'count', count + 1, 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil(quiet * 1000))
return '0'
"""
"""`Backoff.take` in one step on the shared counts: the wait as text (Redis would cut a
Lua number to an integer), or '0' and the attempt counted; the count starts afresh
after a long quiet, and the key expires once it would anyway."""
_REFUND = """
local count = tonumber(redis.call('HGET', KEYS[1], 'count'))
if count and count > 0 then redis.call('HSET', KEYS[1], 'count', count - 1) end
"""


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

    async def take(self, key: str) -> float:
        from redis.exceptions import RedisError

        policy = self.policy
        try:
            waiting = await self._redis.eval(
                _TAKE, 1, self._prefix + key, repr(self._clock()),
                repr(2 * policy.longest_wait), str(policy.free), repr(policy.first_wait),
                repr(policy.longest_wait))
        except (RedisError, OSError):
            return self._local.take(key)  # counted here meanwhile: a guess is never free
        if float(waiting) == 0:
            self._local.failed(key)  # mirrored, for when Redis cannot be reached
        return float(waiting)

    async def refund(self, key: str) -> None:
        from redis.exceptions import RedisError

        self._local.refund(key)
        with contextlib.suppress(RedisError, OSError):
            await self._redis.eval(_REFUND, 1, self._prefix + key)

    async def forget(self, key: str) -> None:
        from redis.exceptions import RedisError

        self._local.forget(key)
        with contextlib.suppress(RedisError, OSError):
            await self._redis.delete(self._prefix + key)


class OnSuccess(Enum):
    """What an attempt that succeeded does to its count."""

    FORGET = "forget"
    """Start afresh (an account signed in: its failures are behind it)."""
    REFUND = "refund"
    """No longer count it (an address: a success there is no guess)."""
    KEEP = "keep"
    """Count it all the same (a registration: each one costs)."""


@dataclass(frozen=True)
class Attempt:
    throttle: Throttle
    key: str
    whose: str
    """Who waits, for the refusal: "this account", "your address"."""
    on_success: OnSuccess


@contextlib.asynccontextmanager
async def attempting(*attempts: Attempt, failures: Collection[ErrorCode] = ()
                     ) -> AsyncIterator[None]:
    """Count one attempt for each of `attempts` before the costly work inside, in one step
    with the check: or raise `rate_limited`, counting none (what was taken is given back).
    The work refused with a code in `failures` (a wrong password) keeps them counted; any
    other error gives them back (the store failing is no guess); a success does what each
    attempt's `on_success` says."""
    taken: list[Attempt] = []
    try:
        for attempt in attempts:
            waiting = await attempt.throttle.take(attempt.key)
            if waiting > 0:
                refuse_while_waiting((waiting, attempt.whose))
            taken.append(attempt)
        yield
    except Refusal as refused:
        if refused.code not in failures:
            await _refund(taken)
        raise
    except BaseException:
        await _refund(taken)
        raise
    for attempt in taken:
        if attempt.on_success is OnSuccess.FORGET:
            await attempt.throttle.forget(attempt.key)
        elif attempt.on_success is OnSuccess.REFUND:
            await attempt.throttle.refund(attempt.key)


async def _refund(taken: list[Attempt]) -> None:
    for attempt in taken:
        await attempt.throttle.refund(attempt.key)


def refuse_while_waiting(*waits: tuple[float, str]) -> None:
    """Raise `rate_limited` with the longest of the `(seconds, whose)` waits, if any."""
    seconds, whose = max(waits)
    if seconds > 0:
        raise Refusal(ErrorCode.RATE_LIMITED,
                        f"too many failed sign-ins for {whose}; retry in {seconds:.1f} s",
                        retry_after_ms=max(1, math.ceil(seconds * 1000)))
