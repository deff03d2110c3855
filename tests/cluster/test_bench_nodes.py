"""`bench/server_load.py --nodes N` still runs its nodes behind nginx with a Redis and
measures each part (a short run; the figures come from full runs, docs/BENCHMARKS.md)."""

from __future__ import annotations

import pytest

from ..bench_run import BENCH, run_json
from .cluster import needs_everything

pytestmark = [pytest.mark.system, *needs_everything]  # two nodes, nginx and Redis


def test_server_load_measures_two_nodes_nginx_and_redis() -> None:
    result = run_json(str(BENCH / "server_load.py"), "--nodes", "2", "--games", "4",
                      "--seconds", "2")
    cluster = result["cluster"]
    assert cluster["answers"] > 50 and cluster["refused"] == 0, cluster
    assert set(cluster["cpu_us_per_answer"]) == {"node a", "node b", "nginx", "redis",
                                                 "node a loop", "node b loop"}
    assert all(us > 0 for us in cluster["cpu_us_per_answer"].values()), cluster
    assert cluster["redis_commands_per_game"] > 0  # games were published...
    assert cluster["redis_commands_per_answer"] < 1  # ...but not answer by answer
    assert cluster["redis_commands_per_listing"] >= 1
