"""The archive of ended games inside one server: a game that ends is handed to it by the
node's outbox, pruned from the node's file (`archive_keep_hours` 0), and still served
whole from the archive: its replay, its summary, the listings and the export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient as HttpClient

from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.replays import verify_replay
from dominion.server.settings import Settings
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .test_replays import create, finish_by_resigning


async def test_an_ended_game_pruned_from_the_node_is_served_from_the_archive(
        aiohttp_client: Any, tmp_path: Path) -> None:
    settings = Settings(db=str(tmp_path / "games.sqlite3"), archive_keep_hours=0)
    clock = VirtualClock()
    http: HttpClient = await aiohttp_client(create_app(settings, clock=clock))
    state = http.server.app[STATE]
    created = await create(http, seats=2, bots={"1": "big_money"})
    game = created["game"]["id"]
    before = await (await http.get(f"/api/v1/games/{game}")).json()
    await finish_by_resigning(http, created)
    rooms = state.lobby.rooms
    await eventually(clock.advancing(lambda: game not in rooms,
                                     step=settings.ended_room_seconds))
    outbox = state.archive_outbox
    await eventually(lambda: outbox.archived == 1 and outbox.pruned == 1)
    assert state.storage.load_game(game) is None  # archived, then pruned from the node

    replay = await (await http.get(f"/api/v1/games/{game}/replay")).json()
    assert replay["game"]["id"] == game and verify_replay(replay).ok
    summary = await (await http.get(f"/api/v1/games/{game}")).json()
    assert summary["state"] == "finished" and summary["seats"][0]["name"] == \
        before["seats"][0]["name"]
    listing = await (await http.get("/api/v1/games?state=finished")).json()
    assert [entry["id"] for entry in listing["games"]] == [game] and listing["total"] == 1
    everything = await (await http.get("/api/v1/games")).json()
    assert [entry["id"] for entry in everything["games"]] == [game]
    export = await http.get("/api/v1/replays/export")
    lines = (await export.read()).splitlines()
    assert [json.loads(line)["game"]["id"] for line in lines] == [game]
    assert (await http.get("/api/v1/games/g-000000000000")).status == 404
