"""Wall-clock time for records and logs (the engine never reads the clock)."""

from __future__ import annotations

import functools
import time


def utc_now() -> str:
    """Now, as ISO 8601 in UTC with seconds: '2026-11-30T01:14:20Z'."""
    return _formatted(int(time.time()))


@functools.lru_cache(maxsize=1)
def _formatted(second: int) -> str:
    # Every answer is stamped: formatting once a second, not once an answer, saves as
    # much time on the event loop's thread as the rest of storing the answer takes.
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))
