"""Wall-clock time for records and logs (the engine never reads the clock)."""

from __future__ import annotations

import time

_formatted: tuple[int, str] = (-1, "")
"""The last second formatted, and its text: every answer is stamped, and formatting a
time costs as much as the rest of storing the answer on the event loop's thread."""


def utc_now() -> str:
    """Now, as ISO 8601 in UTC with seconds: '2026-11-30T01:14:20Z'."""
    global _formatted
    second = int(time.time())
    if second != _formatted[0]:
        _formatted = (second, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second)))
    return _formatted[1]
