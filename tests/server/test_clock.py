"""The server's timestamps: ISO 8601 in UTC, to the second, however often asked."""

from __future__ import annotations

import pytest

from dominion.server.play import clock


def test_utc_now_formats_the_current_second(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_796_000_000.25]
    monkeypatch.setattr(clock.time, "time", lambda: now[0])
    assert clock.utc_now() == "2026-11-30T00:53:20Z"
    now[0] += 0.5  # the same second: the same text
    assert clock.utc_now() == "2026-11-30T00:53:20Z"
    now[0] += 0.5
    assert clock.utc_now() == "2026-11-30T00:53:21Z"
    now[0] = 0.0  # any second, not only later ones
    assert clock.utc_now() == "1970-01-01T00:00:00Z"
