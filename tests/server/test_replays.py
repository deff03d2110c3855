"""Replays: downloads in three formats, spectator-only for running games, verification."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from aiohttp.test_utils import TestClient as HttpClient

from dominion.protocol import GameOver, Join, Resign
from dominion.server.edge.app import create_app
from dominion.server.edge.state import STATE
from dominion.server.engine import EventKind
from dominion.server.replays import verify as verify_module
from dominion.server.replays import verify_replay
from dominion.server.settings import Settings
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .replay_schema import check_replay
from .wsclient import TestClient

BOTS = {"1": "big_money", "2": "smithy_big_money"}


@pytest.fixture
async def http(aiohttp_client: Any, tmp_path: Path) -> HttpClient:
    settings = Settings(db=str(tmp_path / "replays.sqlite3"))
    client: HttpClient = await aiohttp_client(create_app(settings))
    return client


async def create(http: HttpClient, **body: Any) -> dict[str, Any]:
    response = await http.post("/api/v1/games", json={"name": "Ann", "seats": 3,
                                                       "kingdom": "First Game", "bots": BOTS,
                                                       **body})
    assert response.status == 201
    data: dict[str, Any] = await response.json()
    return data


GRACE = 10.0
"""A seat's grace on a virtual clock: within the heartbeat and the idle timeout, so that
moving the clock past it leaves the other connections open."""


async def gone_past_the_grace(http: HttpClient, game: str, clock: VirtualClock) -> None:
    """Once the server saw seat 0's connection close, the clock past its grace."""
    seat = http.server.app[STATE].lobby.room(game).seats[0]
    await eventually(lambda: seat.connection is None)
    clock.advance(GRACE)


async def finish_by_resigning(http: HttpClient, created: dict[str, Any]) -> None:
    """Resign seat 0: bots play the rest of the game."""
    game = created["game"]["id"]
    client = await TestClient.connect(http.session, str(http.make_url("/api/v1/ws")))
    await client.request(Join, game=game, token=created["token"])
    await client.request(Resign, game=game)
    while not isinstance(await client.push(30), GameOver):
        pass
    await client.close()
    room = http.server.app[STATE].lobby.room(game)
    storage = http.server.app[STATE].storage
    # the end is stored before game_over is sent
    await eventually(lambda: storage.load_game(game).game.state == "finished")  # type: ignore[union-attr]
    assert room.state == "finished"


async def test_a_running_game_gives_only_what_a_spectator_sees(http: HttpClient) -> None:
    created = await create(http)
    game = created["game"]["id"]
    replay = await (await http.get(f"/api/v1/games/{game}/replay")).json()
    assert replay["complete"] is False
    assert replay["seed"] is None and replay["answers"] is None
    true_game = http.server.app[STATE].lobby.room(game).game
    assert str(true_game.seed) not in json.dumps(replay)
    for event in replay["events"]:
        if event["kind"] in ("drew", "shuffled"):
            assert "cards" not in event
    assert all("hand" not in p for p in replay["view"]["players"])


async def test_a_finished_game_in_three_formats(http: HttpClient) -> None:
    created = await create(http)
    game = created["game"]["id"]
    await finish_by_resigning(http, created)

    response = await http.get(f"/api/v1/games/{game}/replay")
    assert response.status == 200 and response.content_type == "application/json"
    replay = await response.json()
    assert replay["format"] == "dominion-replay" and replay["version"] == 1
    assert replay["complete"] is True
    assert [p["name"] for p in replay["players"]] == ["Ann", "Bot 2 (big_money)",
                                                      "Bot 3 (smithy_big_money)"]
    assert {"player": 0, "resign": True} in replay["answers"]
    assert replay["events"][-1]["kind"] == "game_ended"
    assert any(e.get("secrecy") == "owner" for e in replay["events"])  # hidden ones too
    assert replay["result"]["resigned"] == [0]
    # where a viewer steps answer by answer: the set-up's events, then each answer's
    steps = replay["events_by_answer"]
    assert len(steps) == len(replay["answers"]) + 1 and steps[-1] == len(replay["events"])
    assert steps == sorted(steps) and replay["events"][steps[0] - 1]["kind"] != "game_ended"
    # and what the end shows beyond the stored result: why, and the points card by card
    assert replay["ending"]["ended_by"] in ("provinces", "piles")  # the bots played it out
    assert [sum(e["points"] for e in seat) for seat in replay["ending"]["points_by_card"]] \
        == replay["result"]["scores"]

    for request in ({"params": {"format": "msgpack"}},
                    {"headers": {"Accept": "application/msgpack"}}):
        packed = await http.get(f"/api/v1/games/{game}/replay", **request)
        assert packed.content_type == "application/msgpack"
        assert msgpack.unpackb(await packed.read()) == replay

    text = await (await http.get(f"/api/v1/games/{game}/replay?format=text")).text()
    assert "Ann's turn 1" in text and "Ann resigns." in text
    assert "seen only by Ann" in text
    assert "The game ends." in text
    assert verify_replay(replay).ok


async def test_a_replay_says_what_analysts_need(http: HttpClient) -> None:
    """docs/REPLAYS.md, "What analysts read": seats' kinds, the clock, who started, why it
    ended and each event's turn, in a download and an export line alike, as the schema
    documents them; and the replay still verifies."""
    created = await create(http, bots={"1": "big_money", "2": "strong:2"})
    game = created["game"]["id"]
    running = await (await http.get(f"/api/v1/games/{game}/replay")).json()
    check_replay(running)
    assert running["game"]["end_reason"] is None
    await finish_by_resigning(http, created)
    replay = await (await http.get(f"/api/v1/games/{game}/replay")).json()
    exported = json.loads(await (await http.get("/api/v1/replays/export")).text())
    assert exported == replay
    check_replay(replay)
    assert replay["minor"] == 1
    facts = replay["game"]
    started = replay["events"][0]
    assert facts["first_player"] == started["data"]["first_player"]
    assert facts["rated"] is False and facts["time_control"] is None
    assert facts["end_reason"] == replay["ending"]["ended_by"]
    assert [(p["kind"], p["strategy"], p["level"], p["account"]) for p in replay["players"]] \
        == [("person", None, None, None), ("bot", "big_money", None, None),
            ("bot", "strong", 2, None)]
    turns = [event["turn"] for event in replay["events"]]
    assert turns == sorted(turns) and turns[0] == 0
    assert all(e["turn"] == e["data"]["turn"] for e in replay["events"]
               if e["kind"] == "turn_started")
    assert verify_replay(replay).ok
    moved = copy.deepcopy(replay)
    moved["events"][-1]["turn"] += 1
    assert not verify_replay(moved).ok


async def test_a_game_whose_end_is_being_stored_gives_its_whole_replay(
        http: HttpClient) -> None:
    """The room says the game has ended before its end is written: a replay asked for in
    between is the ended game's, not a refusal (seen in CI, tests/server/test_rematch.py)."""
    created = await create(http)
    game = created["game"]["id"]
    storage = http.server.app[STATE].storage
    finish_game, written = storage.finish_game, asyncio.Event()

    async def slow_finish(*args: Any, **kwargs: Any) -> None:
        await written.wait()
        await finish_game(*args, **kwargs)

    storage.finish_game = slow_finish  # type: ignore[method-assign]
    client = await TestClient.connect(http.session, str(http.make_url("/api/v1/ws")))
    await client.request(Join, game=game, token=created["token"])
    await client.request(Resign, game=game)
    room = http.server.app[STATE].lobby.room(game)
    await eventually(lambda: room.state == "finished", 60)
    assert storage.load_game(game).game.state == "playing"  # type: ignore[union-attr]
    response = await http.get(f"/api/v1/games/{game}/replay")
    assert response.status == 200, await response.text()
    replay = await response.json()
    assert replay["complete"] is True and replay["result"] == room.record.result
    assert verify_replay(replay).ok
    written.set()
    while not isinstance(await client.push(30), GameOver):
        pass
    await client.close()
    assert storage.load_game(game).game.state == "finished"  # type: ignore[union-attr]


async def test_verification_finds_the_first_tampered_place(http: HttpClient) -> None:
    created = await create(http)
    await finish_by_resigning(http, created)
    replay = await (await http.get(f"/api/v1/games/{created['game']['id']}/replay")).json()
    assert verify_replay(replay).ok

    seed = copy.deepcopy(replay)
    seed["seed"] = str(int(seed["seed"]) + 1)
    assert any("commitment" in p for p in verify_replay(seed).problems)

    event = copy.deepcopy(replay)
    drew = next(i for i, e in enumerate(event["events"]) if e["kind"] == "drew")
    event["events"][drew]["cards"][0] = "province"
    problems = verify_replay(event).problems
    assert problems and problems[0].startswith(f"event {drew + 1} differs")

    answer = copy.deepcopy(replay)
    # a bot-played game's length varies: change its last answer, which every game has
    last = answer["answers"][-1]
    last["choices"] = [*last.get("choices", []), 999]
    assert not verify_replay(answer).ok

    result = copy.deepcopy(replay)
    result["result"]["winners"] = [0]
    assert any("result differs" in p for p in verify_replay(result).problems)

    assert not verify_replay({"format": "something else"}).ok


async def test_export_streams_finished_games_with_filters(http: HttpClient) -> None:
    first, second = await create(http), await create(http, seats=2, bots={"1": "big_money"})
    await finish_by_resigning(http, first)
    await finish_by_resigning(http, second)
    lines = (await (await http.get("/api/v1/replays/export")).text()).splitlines()
    assert len(lines) == 2 and all(json.loads(line)["complete"] for line in lines)
    three = (await (await http.get("/api/v1/replays/export?players=3")).text()).splitlines()
    assert [json.loads(line)["game"]["id"] for line in three] == [first["game"]["id"]]
    none = await (await http.get("/api/v1/replays/export?card=witch")).text()
    assert none == ""


async def test_export_holds_abandoned_games_too_and_takes_an_ended_state(
        aiohttp_client: Any, tmp_path: Path) -> None:
    clock = VirtualClock()
    settings = Settings(db=str(tmp_path / "ended.sqlite3"), absent_seat="abandon",
                        seat_grace_seconds=GRACE)
    http: HttpClient = await aiohttp_client(create_app(settings, clock=clock))
    finished = await create(http)
    await finish_by_resigning(http, finished)
    left = await create(http, seats=2, bots={"1": "big_money"})
    game = left["game"]["id"]
    client = await TestClient.connect(http.session, str(http.make_url("/api/v1/ws")))
    await client.request(Join, game=game, token=left["token"])
    await client.close()  # Ann goes away for longer than the grace period
    await gone_past_the_grace(http, game, clock)
    storage = http.server.app[STATE].storage
    await eventually(lambda: storage.load_game(game).game.state == "abandoned")  # type: ignore[union-attr]

    async def exported(query: str = "") -> list[dict[str, Any]]:
        text = await (await http.get(f"/api/v1/replays/export{query}")).text()
        return [json.loads(line) for line in text.splitlines()]

    every = {r["game"]["id"]: r for r in await exported()}
    assert set(every) == {game, finished["game"]["id"]}
    assert every[game]["game"]["state"] == "abandoned" and every[game]["result"]["abandoned"]
    assert [r["game"]["id"] for r in await exported("?state=abandoned")] == [game]
    assert [r["game"]["id"] for r in await exported("?state=finished")] == [
        finished["game"]["id"]]
    refused = await http.get("/api/v1/replays/export?state=playing")
    assert refused.status == 400 and (await refused.json())["error"]["code"] == "bad_state"


@pytest.mark.parametrize(("path", "status", "code"), [
    ("/api/v1/games/g-nope/replay", 404, "unknown_game"),
    ("/api/v1/games/{game}/replay?format=pdf", 400, "bad_format"),
    ("/api/v1/replays/export?edition=3", 400, "bad_filter"),
    ("/api/v1/replays/export?since=yesterday", 400, "bad_filter"),
    ("/api/v1/replays/export?card=dragon", 400, "bad_filter"),
    ("/api/v1/replays/export?limit=0", 400, "bad_paging"),
])
async def test_bad_requests_get_typed_errors(http: HttpClient, path: str, status: int,
                                             code: str) -> None:
    created = await create(http)
    response = await http.get(path.format(game=created["game"]["id"]))
    assert response.status == status
    assert (await response.json())["error"]["code"] == code


async def test_listing_filters_finished_games_and_survives_retirement(
        aiohttp_client: Any, tmp_path: Path) -> None:
    clock = VirtualClock()
    settings = Settings(db=str(tmp_path / "list.sqlite3"))
    http: HttpClient = await aiohttp_client(create_app(settings, clock=clock))
    three = await create(http)
    two = await create(http, name="Bea", seats=2, bots={"1": "big_money"},
                       kingdom="Size Distortion")
    open_one = await create(http, name="Cid", seats=2, bots={})
    await finish_by_resigning(http, three)
    await finish_by_resigning(http, two)
    # ended rooms leave memory (once retired, after storing their end); storage answers
    # from then on
    rooms = http.server.app[STATE].lobby.rooms
    await eventually(clock.advancing(
        lambda: three["game"]["id"] not in rooms and two["game"]["id"] not in rooms,
        step=settings.ended_room_seconds))

    async def ids(query: str) -> list[str]:
        body = await (await http.get(f"/api/v1/games?{query}")).json()
        return [game["id"] for game in body["games"]]

    finished = {two["game"]["id"], three["game"]["id"]}  # same second: order by id
    assert set(await ids("state=finished")) == finished
    assert await ids("state=open") == [open_one["game"]["id"]]
    assert await ids("state=finished&player=Bea") == [two["game"]["id"]]
    assert await ids("players=3") == [three["game"]["id"]]
    assert await ids("card=witch") == [two["game"]["id"]]  # Size Distortion has Witch
    assert set(await ids("state=finished&since=2000-01-01&until=2100-01-01")) == finished
    assert await ids("state=finished&until=2000-01-01") == []
    pages = await ids("state=finished&limit=1") + await ids("state=finished&limit=1&offset=1")
    assert set(pages) == finished
    summary = await (await http.get(f"/api/v1/games/{three['game']['id']}")).json()
    assert summary["state"] == "finished" and summary["result"]["resigned"] == [0]
    assert summary["seats"][0]["name"] == "Ann"


def verify_command(*files: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`dominion replay verify`, as a person runs it."""
    return subprocess.run([sys.executable, "-m", "dominion.clients.cli", "replay", "verify",
                           *files], input=stdin, capture_output=True, text=True, check=False)


async def test_replay_verify_checks_a_whole_export_and_names_each_game_that_fails(
        aiohttp_client: Any, tmp_path: Path) -> None:
    """docs/REPLAYS.md, "Checking a game was played fairly": the export's NDJSON, saved or
    piped, checked game by game; a tampered replay is named by its game id, with what
    failed, and the command fails. Finished and abandoned games alike."""
    clock = VirtualClock()
    settings = Settings(db=str(tmp_path / "export.sqlite3"), absent_seat="abandon",
                        seat_grace_seconds=GRACE)
    http: HttpClient = await aiohttp_client(create_app(settings, clock=clock))
    for seats in (2, 3):
        await finish_by_resigning(http, await create(http, seats=seats,
                                                     bots={str(s): "big_money"
                                                           for s in range(1, seats)}))
    left = await create(http, seats=2, bots={"1": "big_money"})
    client = await TestClient.connect(http.session, str(http.make_url("/api/v1/ws")))
    await client.request(Join, game=left["game"]["id"], token=left["token"])
    await client.close()  # Ann goes away for longer than the grace period: abandoned
    await gone_past_the_grace(http, left["game"]["id"], clock)
    storage = http.server.app[STATE].storage
    await eventually(
        lambda: storage.load_game(left["game"]["id"]).game.state == "abandoned")  # type: ignore[union-attr]
    export = await (await http.get("/api/v1/replays/export")).text()
    replays = [json.loads(line) for line in export.splitlines()]
    games = [replay["game"]["id"] for replay in replays]
    assert len(games) == 3
    for replay in replays:
        check_replay(replay)
    ended = {replay["game"]["id"]: replay["game"]["end_reason"] for replay in replays}
    assert ended.pop(left["game"]["id"]) == "abandoned"
    assert "resignations" in ended.values()  # the 2-seat game: Ann resigned, one was left

    saved = tmp_path / "export.ndjson"
    saved.write_text(export)
    for verified in (verify_command(str(saved)), verify_command("-", stdin=export)):
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert [line.split(": ")[:2] for line in verified.stdout.splitlines()[:-1]] == [
            [game, "ok"] for game in games]
        assert verified.stdout.splitlines()[-1] == "replays checked: 3; failed: 0"

    tampered = replays[1]
    drew = next(i for i, e in enumerate(tampered["events"]) if e["kind"] == "drew")
    tampered["events"][drew]["cards"][0] = "province"
    saved.write_text("".join(json.dumps(replay) + "\n" for replay in replays))
    checked = verify_command(str(saved))
    assert checked.returncode == 1
    lines = checked.stdout.splitlines()
    assert lines[0].startswith(f"{games[0]}: ok")
    assert lines[1].startswith(f"{games[1]}: FAILED: event {drew + 1} differs")
    assert lines[-2].startswith(f"{games[2]}: ok")
    assert lines[-1] == "replays checked: 3; failed: 1"


def test_a_check_reads_the_engines_events_as_json_reads_them_back() -> None:
    """Replayed events are compared as the replay's JSON holds them: str enums as their
    values, tuples as lists, keys as strings."""
    plain = verify_module._plain({"kind": EventKind.BOUGHT, "cards": ("silver",),
                                  "data": {0: (1, None, True, 2.5)}})
    assert plain == {"kind": "bought", "cards": ["silver"], "data": {"0": [1, None, True, 2.5]}}
    assert type(plain["kind"]) is str
