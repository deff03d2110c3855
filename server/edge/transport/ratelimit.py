"""The per-connection frame rate limit: pipelined frames spend tokens, waiting costs nothing.

The rule (docs/PROTOCOL.md section 5, docs/SERVER.md):

- A frame that arrives after the server has written its answer to the connection's
  previous request is free: the client may have waited for that answer. A client with
  at most one request in flight therefore never spends a token, whatever its speed.
- A frame that arrives before that answer went out was sent without waiting for it
  (pipelined); it takes a token from a bucket of `burst` tokens that refills at
  `messages_per_second`. With the bucket empty, the frame is refused with `rate_limited`
  and the time until a token is back (`retry_after_ms`), and not carried out.
- After `burst` refusals with no waiting in between (no frame that arrived after the
  previous answer went out), the next frame that would be refused closes the connection
  (4003): the client went on flooding after being told to stop. Frames let through by a
  refilled token do not reset the count: a flood faster than the refill is closed, not
  merely slowed to it.

Why not a plain token bucket: a correct bot on loopback answers in well under a
millisecond, faster than any fixed rate that still stops a flood (one hit 50 frames a
second two seconds into a game). What a flood costs the server is frames queued while
it is busy; what a correct client sends is one request after each answer.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class TokenBucket:
    __slots__ = ("_clock", "burst", "rate", "tokens", "updated")

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self._clock = clock
        self.updated = clock()

    def take(self) -> bool:
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def seconds_to_next(self) -> float:
        """How long until the bucket holds a whole token again (0 if it does)."""
        return max(0.0, (1 - self.tokens) / self.rate)


class FrameLimiter:
    """Decides, frame by frame, whether a connection's request is carried out."""

    __slots__ = ("_bucket", "_refused", "_written_at_reply", "max_refused")

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._bucket = TokenBucket(rate, burst, clock)
        self.max_refused = burst
        self._refused = 0
        self._written_at_reply = -1
        """The outbox's write count when the latest answer was queued (-1: no answer yet,
        so nothing is outstanding)."""

    def replied(self, writes: int) -> None:
        """An answer (ack, error, welcome) was queued; `writes` is the outbox's count of
        transport writes so far. The answer goes out with the next write."""
        self._written_at_reply = writes

    def admit(self, writes: int) -> int | None:
        """A frame arrived and `writes` transport writes have happened. None: carry it
        out. Otherwise it is refused: the milliseconds until a token is back."""
        if writes > self._written_at_reply:  # it waited for the answer: it is no flood
            self._refused = 0
            return None
        if self._bucket.take():
            return None
        self._refused += 1
        return max(1, math.ceil(self._bucket.seconds_to_next() * 1000))

    @property
    def flooding(self) -> bool:
        """The latest refusal came after `max_refused` others with no waiting in between:
        close the connection."""
        return self._refused > self.max_refused
