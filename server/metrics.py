"""Prometheus metrics, one registry per app (so several apps can live in one process)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector


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
        self.answers = Counter("dominion_answers", "Answers accepted (rate: answers per second)",
                               registry=self.registry)
        self.errors = Counter("dominion_errors", "Requests refused, by error code", ["code"],
                              registry=self.registry)
        self.disconnects = Counter("dominion_disconnects",
                                   "Connections the server closed, by close code", ["code"],
                                   registry=self.registry)

    def watch_storage(self, storage: StorageCounters) -> None:
        """Export the storage's counters, read when /metrics is scraped."""
        self.registry.register(_StorageCollector(storage))

    def exposition(self) -> bytes:
        return generate_latest(self.exported)


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
