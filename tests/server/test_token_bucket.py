"""The per-connection rate limit: a burst, then the rate, never more than the burst saved
up (test_ws_limits floods a real connection)."""

from __future__ import annotations

import time

import pytest

from dominion.server.connection import TokenBucket


def test_a_burst_then_the_rate_and_no_more_than_a_burst_saved_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    bucket = TokenBucket(rate=10, burst=3)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.1  # one frame's worth at 10 per second
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] += 60  # a long pause saves up the burst, not 600 frames
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
