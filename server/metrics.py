"""Prometheus metrics, one registry per app (so several apps can live in one process)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
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

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
