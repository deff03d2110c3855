"""The node's dumps (`--dumps`): made on a schedule (`--dump-every`: each UTC day's or
month's ended games, once it has ended), and the card statistics read from them, refreshed
after each dump the node makes and every `--stats-refresh-seconds` for dumps made by
others (a timer, another node, a person): docs/STATISTICS.md."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ...play.archive import read_archive
from ...play.clock import Clock, sleep
from ...replays.dump import dump, period_bounds
from ...replays.statistics import Statistics
from ...settings import DumpEvery, Settings
from ...storage import StorageError

log = logging.getLogger("dominion.dumps")


def ended_period(every: DumpEvery, now: datetime) -> str:
    """The latest UTC day (2026-12-01) or month (2026-11) that has ended by `now`."""
    if every is DumpEvery.DAY:
        return (now - timedelta(days=1)).strftime("%Y-%m-%d")
    return (now.replace(day=1) - timedelta(days=1)).strftime("%Y-%m")


def next_period_start(every: DumpEvery, now: datetime) -> datetime:
    """When the period running at `now` ends."""
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if every is DumpEvery.DAY:
        return start + timedelta(days=1)
    return (start.replace(day=1) + timedelta(days=32)).replace(day=1)


class Dumps:
    """Makes the dumps that are due and keeps the statistics up to date with the folder."""

    def __init__(self, settings: Settings, statistics: Statistics | None, clock: Clock) -> None:
        self.folder = Path(settings.dumps)
        self.db = settings.db
        self.accounts_url = settings.accounts_url
        self.every = settings.dump_every
        self.refresh_seconds = settings.stats_refresh_seconds
        self.statistics = statistics
        self.clock = clock

    def make_due(self, now: datetime) -> str | None:
        """Dump the latest ended period unless its manifest is there; the period made."""
        if self.every is DumpEvery.OFF:
            return None
        period = ended_period(self.every, now)
        if (self.folder / f"dominion-{period}.manifest.json").exists():
            return None
        since, until = period_bounds(period)  # the archive holds every node's ended games
        done = dump(read_archive(self.accounts_url, self.db, since, until), self.folder, period)
        log.info("dumped %d games of %s in %.1f s", done.games, period, done.seconds)
        return period

    async def run(self) -> None:
        while True:
            now = datetime.now(UTC)
            try:
                await asyncio.to_thread(self.make_due, now)
            except (StorageError, OSError) as error:
                log.warning("the dump of %s failed: %s", ended_period(self.every, now), error)
            if self.statistics is not None:
                try:
                    read = await asyncio.to_thread(self.statistics.refresh)
                except Exception:  # a bad file must not stop the refreshes to come
                    log.exception("the statistics could not read the dumps")
                else:
                    if read:
                        log.info("the statistics read the dumps of %s", ", ".join(read))
            wait = self.refresh_seconds
            if self.every is not DumpEvery.OFF:
                until = next_period_start(self.every, now) - datetime.now(UTC)
                wait = min(wait, max(1.0, until.total_seconds() + 1))
            await sleep(self.clock, wait)
