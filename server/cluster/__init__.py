"""Several server processes behind one address: node identity, and the directory every
node must see (a local one for a single process, Redis for several)."""

from __future__ import annotations

from collections.abc import Sized
from typing import TYPE_CHECKING

from .directory import Directory, LocalDirectory, NodeHealth, Page
from .node import owner_of, ws_url

if TYPE_CHECKING:
    from ..metrics import Metrics
    from ..play.archive import Archive
    from ..play.lobby import Lobby
    from ..settings import Settings


def open_directory(settings: Settings, lobby: Lobby, archive: Archive, metrics: Metrics,
                   connections: Sized) -> Directory:
    """The local directory, or with --redis the shared one (redis is imported only then:
    one process needs no Redis client installed)."""
    if not settings.redis:
        return LocalDirectory(lobby, archive)
    from prometheus_client import CollectorRegistry

    from .metrics import ClusterCollector, NodeLabelled
    from .redis_directory import RedisDirectory

    directory = RedisDirectory(settings, lobby, archive, connections)
    metrics.registry.register(ClusterCollector(directory))
    metrics.exported = CollectorRegistry(auto_describe=True)
    metrics.exported.register(NodeLabelled(metrics.registry, settings.node))
    return directory


__all__ = ["Directory", "LocalDirectory", "NodeHealth", "Page", "open_directory", "owner_of",
           "ws_url"]
