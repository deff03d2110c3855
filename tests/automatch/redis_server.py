"""A redis-server of the test's own on a free loopback port (tests/cluster/cluster.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.cluster import Redis, needs_redis
from tests.tiers import Tier, starts

__all__ = ["needs_redis", "redis_server"]


@pytest.fixture(scope="module")
@starts(Tier.INTEGRATION)
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    server = Redis(Path(tmp_path_factory.mktemp("redis")))
    server.start()
    try:
        yield server
    finally:
        server.stop()
