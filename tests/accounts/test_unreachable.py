"""The accounts' PostgreSQL stops: the game in progress goes on, sign-in answers a typed
503, and once PostgreSQL is back everything works again without a restart."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dominion.server.edge.tasks import health_watch
from tests.eventually import eventually
from tests.server.wsplay import Player, ServerFactory, ws_server

from .postgres import PostgresServer

__all__ = ["ws_server"]
PASSWORD = "correct horse battery"


async def post(site: Any, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with site.session.post(site.url(path), json=body) as response:
        return response.status, await response.json()


@pytest.mark.slow
async def test_a_game_goes_on_while_sign_in_waits_for_postgresql(
        ws_server: ServerFactory, postgres_server: PostgresServer, postgres_url: str) -> None:
    site = await ws_server(accounts_url=postgres_url, password_time_cost=1,
                           password_memory_kib=64)
    status, _ = await post(site, "/api/v1/account/register",
                           {"name": "Ada", "password": PASSWORD})
    assert status == 201
    game, token = await site.create(seats=2, bots={1: "big_money"}, name="Grace")
    player = await Player.join(site, game, token)
    postgres_server.stop()
    try:
        await player.play(timeout=30)  # to the end of the game, without accounts
        assert player.result is not None
        status, body = await post(site, "/api/v1/account/sign-in",
                                  {"name": "Ada", "password": PASSWORD})
        assert (status, body["error"]["code"]) == (503, "accounts_unavailable")
    finally:
        postgres_server.start()
    status, body = await post(site, "/api/v1/account/sign-in",
                              {"name": "Ada", "password": PASSWORD})
    assert status == 200 and body["account"]["name"] == "Ada"


@pytest.mark.slow
async def test_postgresql_down_leaves_the_node_ready_with_its_accounts_down(
        ws_server: ServerFactory, postgres_server: PostgresServer, postgres_url: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health_watch, "PROBE_SECONDS", 0.05)
    site = await ws_server(accounts_url=postgres_url)
    answers: list[str] = []

    async def accounts_are(state: str) -> bool:
        async with site.session.get(site.url("/readyz")) as response:
            answers.append(await response.text())
            body = await response.json()
            assert response.status == 200 and body["ready"], body  # never unready for it
            return bool(body["dependencies"]["accounts"]["state"] == state)
    await eventually(lambda: accounts_are("ok"))
    postgres_server.stop()
    try:
        await eventually(lambda: accounts_are("down"))
        # as its impact says: a guest's name cannot be checked, so no new table
        status, body = await post(site, "/api/v1/games", {"name": "Grace", "seats": 2})
        assert (status, body["error"]["code"]) == (503, "accounts_unavailable")
        assert "impact" in json.loads(answers[-1])["dependencies"]["accounts"]
    finally:
        postgres_server.start()
    await eventually(lambda: accounts_are("ok"))
    for text in answers:
        assert str(postgres_server.port) not in text and "postgresql://" not in text
