"""The archive of ended games inside one server: a game that ends is handed to it by the
node's outbox, pruned from the node's file (`archive_keep_hours` 0), and still served
whole from the archive: its replay (spliced from the replay the archive keeps), its
summary, the listings and the export."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from aiohttp.test_utils import TestClient as HttpClient

from dominion.server.edge.api.replay_api import FORMATS
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.play.archive import hand_over, prune
from dominion.server.play.fill import store_one
from dominion.server.replays import build, verify_replay
from dominion.server.replays.build import Derived
from dominion.server.settings import Settings
from dominion.server.storage import StoredGame
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


async def test_an_archived_games_replay_is_spliced_in_with_the_bytes_of_its_play_back(
        aiohttp_client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every player count and both editions, in every format, with chat: the same bytes as
    the node's play-back before the game was pruned, the archive's replay read and nothing
    played back, downloaded or exported (a msgpack export's replays are a download's
    bytes); a replay kept under another version is played back, to the same bytes."""
    settings = Settings(db=str(tmp_path / "games.sqlite3"), work_burst=10**9,
                        server_work_burst=10**9)
    http: HttpClient = await aiohttp_client(create_app(settings))
    state = http.server.app[STATE]
    rng = random.Random(40)
    for players in range(2, 7):
        for edition in (1, 2):
            await store_one(state.storage, rng, ("big_money", "smithy_big_money"), players,
                            edition)
    games = [stored.game.id for stored, _ in state.storage.unarchived_games()]
    assert len(games) == 10
    await state.storage.append_chat(games[0], at="2026-12-03T10:00:00Z", seat=0, name="Ada",
                                    text='hi "there"\nł')
    await state.storage.append_chat(games[3], at="2026-12-03T10:01:00Z", seat=1, name="Bo",
                                    text="gg")

    async def bodies() -> list[bytes]:
        return [await (await http.get(f"/api/v1/games/{game}/replay?format={chosen}")).read()
                for game in games for chosen in FORMATS]

    played = await bodies()
    await hand_over(state.storage, state.archive.store)
    await prune(state.storage, timedelta(0))
    assert all(state.storage.load_game(game) is None for game in games)
    plays: list[str] = []
    derive = build.derive

    def counted(stored: StoredGame) -> Derived:
        plays.append(stored.game.id)
        return derive(stored)

    monkeypatch.setattr(build, "derive", counted)
    assert await bodies() == played
    assert plays == []
    downloaded = dict(zip([(game, chosen) for game in games for chosen in FORMATS], played,
                          strict=True))
    lines = (await (await http.get("/api/v1/replays/export")).read()).splitlines()
    assert {json.loads(line)["game"]["id"]: json.loads(line) for line in lines} == {
        game: json.loads(downloaded[game, "json"]) for game in games}
    stream = await (await http.get("/api/v1/replays/export",
                                   headers={"Accept": "application/msgpack"})).read()
    unpacker, start, packed = msgpack.Unpacker(), 0, []
    unpacker.feed(stream)
    for _ in unpacker:
        packed.append(stream[start:unpacker.tell()])
        start = unpacker.tell()
    assert sorted(packed) == sorted(downloaded[game, "msgpack"] for game in games)
    assert plays == []
    await state.archive.store.db.execute(
        "UPDATE archived_games SET replay_version = replay_version - 1")
    assert await bodies() == played
    assert sorted(set(plays)) == sorted(games)
