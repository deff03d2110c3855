"""What one client may make the server do over time, accounted before it is done.

The per-frame rate limit (`server/edge/transport/connection.py`) counts frames; some frames cost far
more than others. Here the costly things are counted in their own units, per address
(every connection and REST request from it together) and, for work, per connection
too, and a request that its allowances cannot pay is refused (`rate_limited`) before any
of its work is done:

- `work`: events a resume or a running game's replay re-derives or sends (a resume
  missing 10 events of a cached game costs ~10; one that must replay a 2,000-event
  game first costs ~2,000 more);
- `chat`: chat lines;
- `games`: games created.

Each allowance is a token bucket: `rate` units a second, holding at most `burst`. An
address is the network prefix its client's address is in (`prefixes.py`). A kind may
also have a server-wide allowance that every address's charge is taken from too: however
many addresses each stay within their own, together they cannot cost more than it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping

from dominion.protocol import ErrorCode

from ...refusal import Refusal

PRUNE_FROM = 1024
"""Addresses held before the full (idle) allowances are forgotten."""
TOO_MUCH = {"work": "too much resume and replay work", "chat": "too many chat lines",
            "games": "too many games", "passkeys": "too many passkey requests",
            "profiles": "too many profile requests", "admin": "too many admin requests",
            "reports": "too many reports", "automatch": "too many automatch queue look-ups"}
"""How a refusal names each kind of spending."""


class Allowance:
    """A token bucket counted in units: `rate` a second, at most `burst` saved up."""

    __slots__ = ("burst", "rate", "tokens", "updated")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.updated = burst, now

    def level(self, now: float) -> float:
        """The units available at `now`."""
        if now > self.updated:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
            self.updated = now
        return self.tokens

    def seconds_until(self, units: float, now: float) -> float:
        """How long until `units` are available (0: now)."""
        missing = min(units, self.burst) - self.level(now)
        return max(0.0, missing / self.rate)


class Budgets:
    """Every address's allowances, one per kind; made when first used, forgotten once
    idle long enough to be full again (a full allowance is the same as a new one)."""

    def __init__(self, kinds: Mapping[str, tuple[float, float]],
                 clock: Callable[[], float] = time.monotonic,
                 server: Mapping[str, tuple[float, float]] | None = None) -> None:
        self._kinds = dict(kinds)
        """kind -> (units a second, burst)."""
        self._clock = clock
        self._server = {kind: Allowance(rate, burst, clock())
                        for kind, (rate, burst) in (server or {}).items()}
        """kind -> the server-wide allowance every address's charge also draws from."""
        self._held: dict[tuple[str, str], Allowance] = {}
        self._prune_at = PRUNE_FROM

    def allowance(self, kind: str) -> Allowance:
        """A new allowance of this kind (a connection's own, say)."""
        rate, burst = self._kinds[kind]
        return Allowance(rate, burst, self._clock())

    def burst(self, kind: str) -> float:
        return self._kinds[kind][1]

    def charge(self, kind: str, address: str, units: float,
               own: Allowance | None = None) -> None:
        """Take `units` from the address's allowance (and `own`, if given, and the
        server's, if any) or, if one cannot pay them now, take nothing and raise
        `rate_limited`. A cost beyond the burst is paid from a full allowance, which then
        owes the rest."""
        if units <= 0:
            return
        server = self._server.get(kind)
        busy = 0.0 if server is None else server.seconds_until(units, self._clock())
        if busy > 0:
            raise Refusal(ErrorCode.RATE_LIMITED, f"the server is doing all the {kind} it allows "
                                            f"for now; retry in {busy:.1f} s",
                            retry_after_ms=max(1, math.ceil(busy * 1000)))
        wait = self.seconds_until(kind, address, units, own)
        if wait > 0:
            raise Refusal(ErrorCode.RATE_LIMITED, f"{TOO_MUCH[kind]} from your address for now; "
                                            f"retry in {wait:.1f} s",
                            retry_after_ms=max(1, math.ceil(wait * 1000)))
        shared = self._held[kind, address]
        shared.tokens -= units
        if own is not None:
            own.tokens -= units
        if server is not None:
            server.tokens -= units

    def seconds_until(self, kind: str, address: str, units: float,
                      own: Allowance | None = None) -> float:
        """How long until the address (and `own`, and the server) can pay `units`
        (0: now)."""
        now = self._clock()
        shared = self._held.get((kind, address))
        if shared is None:
            if len(self._held) >= self._prune_at:
                self._prune(now)
            shared = self._held[kind, address] = self.allowance(kind)
        wait = shared.seconds_until(units, now)
        if own is not None:
            wait = max(wait, own.seconds_until(units, now))
        server = self._server.get(kind)
        if server is not None:
            wait = max(wait, server.seconds_until(units, now))
        return wait

    def _prune(self, now: float) -> None:
        self._held = {key: held for key, held in self._held.items()
                      if held.level(now) < held.burst}
        self._prune_at = max(PRUNE_FROM, 2 * len(self._held))

    def __len__(self) -> int:
        return len(self._held)
