"""Metrics of a node among several: every sample labelled with the node's name, and the
cluster's totals as the node last read them from Redis."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector, CollectorRegistry

if TYPE_CHECKING:
    from .redis_directory import RedisDirectory


class NodeLabelled(Collector):
    """A registry's metrics with a `node` label added to every sample."""

    def __init__(self, registry: CollectorRegistry, node: str) -> None:
        self._registry = registry
        self._node = node

    def collect(self) -> Iterator[Metric]:
        for family in self._registry.collect():
            labelled = Metric(family.name, family.documentation, family.type, family.unit)
            labelled.samples = [sample._replace(labels={**sample.labels, "node": self._node})
                                for sample in family.samples]
            yield labelled


class ClusterCollector(Collector):
    def __init__(self, directory: RedisDirectory) -> None:
        self._directory = directory

    def collect(self) -> Iterator[Metric]:
        directory = self._directory
        totals = directory.totals
        yield GaugeMetricFamily("dominion_cluster_nodes", "Nodes whose heartbeat is current",
                                value=totals["nodes"])
        yield GaugeMetricFamily("dominion_cluster_connections",
                                "WebSocket connections on every node (from Redis)",
                                value=totals["connections"])
        yield GaugeMetricFamily("dominion_cluster_live_games",
                                "Games being played on every node (from Redis)",
                                value=totals["live_games"])
        yield GaugeMetricFamily("dominion_cluster_redis_up",
                                "1 while this node reaches Redis, 0 when it does not",
                                value=int(directory.problem is None))
