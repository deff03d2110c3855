"""Liveness, readiness and each dependency's state, through a real server: only the games'
database makes a node unready; the account store and Redis are reported, never fatal; and
no answer, refusal or health body names an internal host, port or URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dominion.server.accounts.sqlite_store import SqliteAccountStore
from dominion.server.accounts.store import unavailable
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.edge.tasks import health_watch
from dominion.server.settings import Settings
from dominion.server.storage import Storage
from tests.eventually import eventually

from .restapi import Api
from .test_process import free_port

SECRET = "s3cret-Password"


@pytest.fixture
def make_api(aiohttp_client: Any, tmp_path: Path) -> Any:
    async def make(**settings: Any) -> Api:
        app = create_app(Settings(db=str(tmp_path / "games.sqlite3"), **settings))
        api = Api(await aiohttp_client(app))
        await app[STATE].lobby.all_restored()  # (the start's restore runs in the background)
        return api
    return make


async def test_a_single_server_is_alive_and_ready_with_its_dependencies_ok(make_api: Any) -> None:
    api = await make_api()
    assert await api.call("GET", "/livez", 200) == {"status": "ok"}
    ready = await api.call("GET", "/readyz", 200)
    assert ready == {"status": "ok", "ready": True, "games": 0, "connections": 0,
                     "restoring": False,
                     "dependencies": {"storage": {"state": "ok"},
                                      "accounts": {"state": "ok"}}}
    assert await api.call("GET", "/healthz", 200) == ready  # its former name
    assert await api.call("GET", "/api/v1/cluster/health", 200) == {"nodes": []}


async def test_a_node_rebuilding_its_games_after_a_start_is_ready_and_says_so(
        make_api: Any) -> None:
    api = await make_api()
    lobby = api.client.server.app[STATE].lobby
    lobby.expect_restore()  # as a start does, before the games are read (none here)
    ready = await api.call("GET", "/readyz", 200)
    assert (ready["ready"], ready["restoring"]) == (True, True)
    assert (await lobby.restore(), lobby.restoring) == (0, False)
    assert (await api.call("GET", "/readyz", 200))["restoring"] is False


async def test_a_node_whose_database_fails_writes_is_alive_but_not_ready(
        make_api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    api = await make_api()
    monkeypatch.setattr(Storage, "healthy", property(lambda self: False))
    assert await api.call("GET", "/livez", 200) == {"status": "ok"}
    for path in ("/readyz", "/healthz"):
        body = await api.call("GET", path, 503)
        assert (body["status"], body["ready"]) == ("down", False)
        assert body["dependencies"]["storage"]["state"] == "down"
        assert "cannot go on" in body["dependencies"]["storage"]["impact"]


async def test_unreachable_accounts_and_redis_leave_the_node_ready_and_show_no_address(
        make_api: Any) -> None:
    """PostgreSQL and Redis at loopback ports where nothing listens: the node still serves
    its games, reports both down, and no body (health, refusals, metrics) names them."""
    pg_port, redis_port = free_port(), free_port()
    accounts_url = f"postgresql://dominion:{SECRET}@127.0.0.1:{pg_port}/accounts"
    redis_url = f"redis://:{SECRET}@127.0.0.1:{redis_port}/0"
    api = await make_api(node="a", redis=redis_url, accounts_url=accounts_url)
    ready = await api.call("GET", "/readyz", 200)
    assert (ready["status"], ready["ready"]) == ("degraded", True)
    dependencies = ready["dependencies"]
    assert {name: entry["state"] for name, entry in dependencies.items()} == {
        "storage": "ok", "accounts": "down", "redis": "down"}
    assert "running games go on" in dependencies["accounts"]["impact"]
    assert "running games go on" in dependencies["redis"]["impact"]
    assert await api.call("GET", "/healthz", 200) == ready
    await api.call("GET", "/livez", 200)
    await api.error("GET", "/api/v1/cluster/health", 503, "cluster_unavailable")
    await api.error("POST", "/api/v1/games", 503, "cluster_unavailable",
                    json={"name": "Ann", "seats": 2})
    await api.error("GET", "/api/v1/games?state=open", 503, "cluster_unavailable")
    await api.error("POST", "/api/v1/account/register", 503, "accounts_unavailable",
                    json={"name": "Ann", "password": "correct horse battery"})
    await api.error("GET", "/api/v1/automatch", 503, "cluster_unavailable")
    refusals = [await (await api.client.post(path, json=body)).text() for path, body in (
        ("/api/v1/games", {"name": "Ann", "seats": 2}),
        ("/api/v1/account/sign-in", {"name": "Ann", "password": "correct horse battery"}))]
    metrics = await api.call("GET", "/metrics", 200)
    assert 'dominion_accounts_up{node="a"} 0.0' in metrics
    for body in [*api.get_texts, *refusals, metrics]:
        for secret in (str(pg_port), str(redis_port), "127.0.0.1", SECRET, "postgresql://",
                       "redis://"):
            assert secret not in body, (secret, body[:300])


async def test_the_account_store_is_probed_again_until_it_answers(
        make_api: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health_watch, "PROBE_SECONDS", 0.02)
    api = await make_api()

    async def failing(self: SqliteAccountStore) -> None:
        raise unavailable("the accounts database failed: disk I/O error")
    monkeypatch.setattr(SqliteAccountStore, "ping", failing)

    async def accounts_are(state: str) -> bool:
        body = await api.call("GET", "/readyz", 200)
        return bool(body["dependencies"]["accounts"]["state"] == state)
    await eventually(lambda: accounts_are("down"))
    monkeypatch.undo()
    monkeypatch.setattr(health_watch, "PROBE_SECONDS", 0.02)
    await eventually(lambda: accounts_are("ok"))


async def test_a_store_failing_otherwise_is_down_too_and_logged_once(
        make_api: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(health_watch, "PROBE_SECONDS", 0.02)
    api = await make_api()
    probes: list[None] = []

    async def refused(self: SqliteAccountStore) -> None:
        probes.append(None)
        raise RuntimeError("password authentication failed")  # not an outage: still down
    monkeypatch.setattr(SqliteAccountStore, "ping", refused)
    await eventually(lambda: len(probes) >= 3)
    body = await api.call("GET", "/readyz", 200)
    assert body["dependencies"]["accounts"]["state"] == "down"
    logged = [r for r in caplog.records if r.getMessage() == "probing the account store failed"]
    assert len(logged) == 1  # as it began, not at every probe
