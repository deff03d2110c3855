"""The Grafana dashboard and the Prometheus alert rules shipped in deploy/: every metric
they name is one a live node exports (a node among several, on a real redis-server, so
that the cluster's metrics are there too); the rules have Prometheus's structure; and
`promtool check rules` accepts them where promtool is installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from dominion.server.edge.app import create_app
from dominion.server.settings import Settings
from tests.eventually import eventually

from ..cluster.cluster import Redis, needs_redis, redis
from .proxy import DEPLOY

__all__ = ["redis"]  # a fixture

DASHBOARD = DEPLOY / "grafana" / "dominion.json"
ALERTS = DEPLOY / "prometheus" / "alerts.yml"
OURS = re.compile(r"\b((?:dominion|process)_[a-z0-9_]+)\b")
"""The server's metric names (and the process's, which it exports too)."""
PROMETHEUS_OWN = {"up"}
"""Series Prometheus makes itself for every target; the rules may use them."""
SUFFIXES = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_count", "_sum",
                                                             "_created"),
            "summary": ("_count", "_sum", "_created"), "gauge": ("",), "info": ("_info",)}
DURATION = re.compile(r"^([0-9]+(ms|s|m|h|d|w|y))+$")


def dashboard_expressions() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    expressions = [target["expr"] for panel in dashboard["panels"]
                   for target in panel.get("targets", ())]
    expressions += [variable["definition"] for variable in dashboard["templating"]["list"]
                    if "definition" in variable]
    return expressions


def rules() -> list[dict[str, Any]]:
    document = yaml.safe_load(ALERTS.read_text())
    return [rule for group in document["groups"] for rule in group["rules"]]


def names_in(expressions: list[str]) -> set[str]:
    without_strings = [re.sub(r'"[^"]*"', '""', expr) for expr in expressions]
    return {name for expr in without_strings for name in OURS.findall(expr)}


@needs_redis
async def test_every_metric_the_dashboard_and_rules_name_is_exported(
        aiohttp_client: Any, tmp_path: Path, redis: Redis) -> None:
    app = create_app(Settings(db=str(tmp_path / "games.sqlite3"), node="a", redis=redis.url))
    client = await aiohttp_client(app)

    async def scraped() -> str:
        response = await client.get("/metrics")
        assert response.status == 200
        return await response.text()

    async def redis_reached() -> bool:
        return 'dominion_cluster_redis_up{node="a"} 1.0' in await scraped()
    await eventually(redis_reached)
    exported = set()
    for family in text_string_to_metric_families(await scraped()):
        exported |= {family.name + suffix for suffix in SUFFIXES.get(family.type, ("",))}
        exported |= {sample.name for sample in family.samples}
    named = names_in(dashboard_expressions()) | names_in([rule["expr"] for rule in rules()])
    assert len(named) > 15  # the check reads the files' expressions, not nothing
    assert named - exported == set()
    used = {name for expr in [*dashboard_expressions(), *(r["expr"] for r in rules())]
            for name in re.findall(r"\b[a-z_]+\b", re.sub(r'"[^"]*"', "", expr))}
    for wanted in ("process_cpu_seconds_total", "process_resident_memory_bytes",
                   "dominion_event_loop_lag_seconds_bucket", "dominion_answer_seconds_bucket",
                   "dominion_accounts_up", "dominion_rating_outbox_backlog",
                   "dominion_build_info"):
        assert wanted in used, f"{wanted} is neither on the dashboard nor in the rules"


def test_the_rules_have_prometheus_structure() -> None:
    document = yaml.safe_load(ALERTS.read_text())
    assert set(document) == {"groups"} and document["groups"]
    alerts = []
    for group in document["groups"]:
        assert set(group) <= {"name", "interval", "rules"} and group["name"] and group["rules"]
        for rule in group["rules"]:
            assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule
            assert isinstance(rule["alert"], str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*",
                                                                   rule["alert"])
            assert isinstance(rule["expr"], str) and rule["expr"].strip()
            assert DURATION.match(rule.get("for", "0s")), rule
            assert rule["labels"]["severity"] in {"critical", "warning"}
            assert rule["annotations"]["summary"]
            alerts.append(rule["alert"])
            prometheus_own = {name for name in PROMETHEUS_OWN
                              if re.search(rf"\b{name}\{{", rule["expr"])}
            assert prometheus_own or names_in([rule["expr"]]), rule
    assert len(alerts) == len(set(alerts))


@pytest.mark.integration  # real programs
def test_promtool_accepts_the_rules() -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed (Debian's package `prometheus` has it)")
    checked = subprocess.run([promtool, "check", "rules", str(ALERTS)], capture_output=True,
                             text=True, timeout=60, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_dashboard_is_grafana_json_on_a_chosen_prometheus() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 36
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        assert panel["targets"] and all(target["expr"] for target in panel["targets"])
