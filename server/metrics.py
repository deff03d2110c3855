"""Prometheus metrics, one registry per app (so several apps can live in one process)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

ANSWER_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""An answer is usually committed and acknowledged within milliseconds (group commit)."""
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_bound_text: Callable[[float], str] = floatToGoString
"""A bucket's bound as prometheus_client writes it (`0.001`, `+Inf`)."""


class StorageCounters(Protocol):
    """What the storage counts on its writer thread (read here without a lock: each is
    one int, replaced whole)."""

    @property
    def commits(self) -> int: ...
    @property
    def committed_writes(self) -> int: ...
    @property
    def failed_batches(self) -> int: ...
    @property
    def healthy(self) -> bool: ...


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.exported = self.registry
        """What /metrics shows: the registry, or for a node among several the registry
        with every sample labelled by node (`cluster.open_directory`)."""
        self.connections = Gauge("dominion_connections", "Open WebSocket connections",
                                 registry=self.registry)
        self.live_games = Gauge("dominion_live_games", "Games being played",
                                registry=self.registry)
        self.games_created = Counter("dominion_games_created", "Tables created",
                                     registry=self.registry)
        self.answers = LoopCounter("dominion_answers",
                                   "Answers accepted (rate: answers per second)",
                                   registry=self.registry)
        self.errors = Counter("dominion_errors", "Requests refused, by error code", ["code"],
                              registry=self.registry)
        self.disconnects = Counter("dominion_disconnects",
                                   "Connections the server closed, by close code", ["code"],
                                   registry=self.registry)
        self.answer_seconds = LoopHistogram(
            "dominion_answer_seconds",
            "Seconds from an answer's frame read to its ack: the wait for the game, the "
            "check and the commit", buckets=ANSWER_BUCKETS, registry=self.registry)
        self.loop_lag = Histogram(
            "dominion_event_loop_lag_seconds",
            "How late the event loop ran a timer, measured every few tenths of a second "
            "(every request and game on this node waits that long)",
            buckets=LAG_BUCKETS, registry=self.registry)
        self.accounts_up = Gauge(
            "dominion_accounts_up",
            "1 while the account store (SQLite or PostgreSQL) answers, 0 when it does not",
            registry=self.registry)
        self._build = Info("dominion_build", "The server's version and engine",
                           registry=self.registry)
        # CPU seconds, resident memory, open files (Linux; nothing elsewhere)
        ProcessCollector(registry=self.registry)

    def describe_build(self, version: str, engine: str) -> None:
        """Say which release runs, and whether its engine is compiled."""
        self._build.info({"version": version, "engine": engine})

    def watch_rating_backlog(self, count: Callable[[], int]) -> None:
        """Export the rated games waiting for the ledger, counted when /metrics is scraped."""
        Gauge("dominion_rating_outbox_backlog",
              "Finished rated games this node has not yet handed to the rating ledger",
              registry=self.registry).set_function(count)

    def watch_archive_backlog(self, count: Callable[[], int]) -> None:
        """Export the ended games waiting for the archive, counted when /metrics is
        scraped."""
        Gauge("dominion_archive_backlog",
              "Ended games this node has not yet handed to the archive of ended games",
              registry=self.registry).set_function(count)

    def watch_storage(self, storage: StorageCounters) -> None:
        """Export the storage's counters, read when /metrics is scraped."""
        self.registry.register(_StorageCollector(storage))

    def exposition(self) -> bytes:
        return generate_latest(self.exported)


class LoopCounter(Collector):
    """A counter that only the event loop's thread adds to, once per answer: a plain int,
    read when /metrics is scraped. prometheus_client's `Counter` takes a lock for each
    increment, which cost more of an answer's CPU than the check of the answer itself."""

    def __init__(self, name: str, documentation: str, *, registry: CollectorRegistry) -> None:
        self._name = name
        self._documentation = documentation
        self.value = 0
        registry.register(self)

    def inc(self, amount: int = 1) -> None:
        self.value += amount

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily(self._name, self._documentation, value=self.value)


class LoopHistogram(Collector):
    """A histogram that only the event loop's thread observes, once per answer: plain
    counts per bucket, made cumulative when /metrics is scraped (`LoopCounter` says why)."""

    def __init__(self, name: str, documentation: str, *, buckets: Sequence[float],
                 registry: CollectorRegistry) -> None:
        self._name = name
        self._documentation = documentation
        self._bounds = [*buckets, float("inf")]
        self._counts = [0] * len(self._bounds)
        self._sum = 0.0
        registry.register(self)

    def observe(self, amount: float) -> None:
        self._counts[bisect_left(self._bounds, amount)] += 1
        self._sum += amount

    def collect(self) -> Iterator[Metric]:
        buckets, total = [], 0
        for bound, count in zip(self._bounds, self._counts, strict=True):
            total += count
            buckets.append((_bound_text(bound), total))
        yield HistogramMetricFamily(self._name, self._documentation, buckets=buckets,
                                    sum_value=self._sum)


class _StorageCollector(Collector):
    def __init__(self, storage: StorageCounters) -> None:
        self._storage = storage

    def collect(self) -> Iterator[Metric]:
        storage = self._storage
        yield CounterMetricFamily(
            "dominion_storage_commits", "SQLite transactions committed (group commits)",
            value=storage.commits)
        yield CounterMetricFamily(
            "dominion_storage_writes",
            "Writes committed: answers, game and seat records, chat lines (writes per "
            "commit: how many a group commit carries)", value=storage.committed_writes)
        yield CounterMetricFamily(
            "dominion_storage_failed_batches",
            "Group commits that failed and were rolled back (each of their writes was then "
            "tried alone)",
            value=storage.failed_batches)
        yield GaugeMetricFamily(
            "dominion_storage_healthy",
            "0 while the database itself fails writes (full disk, I/O error), else 1",
            value=int(storage.healthy))
