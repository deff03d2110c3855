"""Wall-clock time for records and logs (the engine never reads the clock)."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    """Now, as ISO 8601 in UTC with seconds: '2026-11-30T01:14:20Z'."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
