"""The REST lobby through a real server: happy paths, every refusal, tokens that never leak.

Every response is checked against the OpenAPI document (tests/server/restapi.py).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from prometheus_client.parser import text_string_to_metric_families

from dominion.bots import BotPace
from dominion.protocol.schema import SCHEMA_PATH
from dominion.server.edge.app import create_app
from dominion.server.engine.cards import kingdom_cards
from dominion.server.engine.setup import RECOMMENDED_KINGDOMS
from dominion.server.play.seat_tokens import hash_token
from dominion.server.settings import Settings
from dominion.server.storage import Storage

from .restapi import TOKEN, Api, case, stored_counts

FIRST_GAME = list(RECOMMENDED_KINGDOMS[2]["First Game"])
MakeApi = Callable[..., Awaitable[Api]]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "x.sqlite3")


@pytest.fixture
def make_api(aiohttp_client: Any, db: str) -> MakeApi:
    async def make(**settings: Any) -> Api:
        app = create_app(Settings(db=db, **settings))
        return Api(await aiohttp_client(app))

    return make


@pytest.fixture
async def api(make_api: MakeApi) -> Api:
    return await make_api()


async def assert_nothing_created(api: Api, db: str, games: int = 0, seats: int = 0) -> None:
    listing = await api.listing()
    assert listing["total"] == games and len(listing["games"]) == games
    assert len(api.state.lobby.rooms) == games
    assert stored_counts(db) == (games, seats)


# -- happy paths ----------------------------------------------------------------------


async def test_server_info(api: Api) -> None:
    info = await api.call("GET", "/api/v1/server", 200)
    assert info["name"] == "dominion-server"
    assert info["protocol_versions"] == [2, 1]
    assert info["subprotocols"] == ["dominion.v2.msgpack", "dominion.v1.msgpack"]
    assert info["subprotocol"] == "dominion.v2.msgpack"
    assert info["websocket"] == "/api/v1/ws"
    assert info["public_url"] is None
    assert info["limits"]["games_per_address"] == 20


async def test_the_protocol_schema_is_served_where_the_server_info_says(api: Api) -> None:
    info = await api.call("GET", "/api/v1/server", 200)
    schema = await api.call("GET", info["schema"], 200)
    assert schema == json.loads(SCHEMA_PATH.read_text())
    assert "retry_after_ms" in schema["$defs"]["server.error"]["properties"]


async def test_cards_for_both_editions(api: Api) -> None:
    cards = (await api.call("GET", "/api/v1/cards", 200))["editions"]
    assert set(cards) == {"1", "2"}
    for edition in (1, 2):
        ids = {card["id"] for card in cards[str(edition)]}
        kingdom = {card["id"] for card in cards[str(edition)] if card["kingdom"]}
        assert kingdom == set(kingdom_cards(edition))
        assert {"copper", "silver", "gold", "estate", "duchy", "province", "curse"} <= ids
    one = {card["id"] for card in cards["1"]}
    two = {card["id"] for card in cards["2"]}
    assert "woodcutter" in one - two and "artisan" in two - one
    points = {card["id"]: (card.get("vp"), card.get("vp_per_cards")) for card in cards["2"]}
    assert {card: points[card] for card in ("estate", "duchy", "province", "curse", "gardens",
                                            "copper", "smithy")} == {
        "estate": (1, None), "duchy": (3, None), "province": (6, None), "curse": (-1, None),
        "gardens": (None, 10), "copper": (None, None), "smithy": (None, None)}
    coins = {card["id"]: card.get("coins") for card in cards["2"]}
    assert {card: coins[card] for card in ("copper", "silver", "gold", "market", "estate")} \
        == {"copper": 1, "silver": 2, "gold": 3, "market": None, "estate": None}


async def test_openapi_is_served(api: Api) -> None:
    document = await api.call("GET", "/api/v1/openapi.json", 200)
    assert document == api.document


async def test_health_and_metrics(api: Api) -> None:
    health = await api.call("GET", "/healthz", 200)
    assert (health["status"], health["games"], health["connections"]) == ("ok", 0, 0)
    text = await api.call("GET", "/metrics", 200)
    assert "# TYPE" in text


def scraped(text: str) -> dict[str, float]:
    return {sample.name: sample.value for family in text_string_to_metric_families(text)
            for sample in family.samples}


async def test_metrics_show_the_storage_commits(api: Api,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    before = scraped(await api.call("GET", "/metrics", 200))
    await api.create(name="Alice", seats=2)
    after = scraped(await api.call("GET", "/metrics", 200))
    assert after["dominion_storage_commits_total"] > before["dominion_storage_commits_total"]
    # the game, its creator's seat and its Kingdom: at least one write per commit
    assert (after["dominion_storage_writes_total"] - before["dominion_storage_writes_total"]
            >= after["dominion_storage_commits_total"] - before["dominion_storage_commits_total"])
    assert after["dominion_storage_failed_batches_total"] == 0
    assert after["dominion_storage_healthy"] == 1
    monkeypatch.setattr(Storage, "healthy", property(lambda self: False))
    assert scraped(await api.call("GET", "/metrics", 200))["dominion_storage_healthy"] == 0


async def test_create_without_bots(api: Api, db: str) -> None:
    created = await api.create(name="  Alice ", seats=3)
    game = created["game"]
    assert created["seat"] == 0
    assert TOKEN.match(created["token"])
    assert game["state"] == "open" and game["edition"] == 2 and game["kingdom_name"] is None
    assert len(set(game["kingdom"])) == 10 and set(game["kingdom"]) <= set(kingdom_cards(2))
    assert [seat["name"] for seat in game["seats"]] == ["Alice", None, None]
    assert all(seat["bot"] is None and not seat["connected"] for seat in game["seats"])
    assert game["started_at"] is None and game["commitment"] is None and game["turn"] == 0
    assert await api.game(game["id"]) == game
    assert (await api.listing())["games"] == [game]
    assert stored_counts(db)[0] == 1


async def test_create_with_a_set_a_list_and_edition_one(api: Api) -> None:
    by_name = (await api.create(name="A", seats=2, edition=1, kingdom="Big Money"))["game"]
    assert by_name["edition"] == 1 and by_name["kingdom_name"] == "Big Money"
    assert by_name["kingdom"] == list(RECOMMENDED_KINGDOMS[1]["Big Money"])
    listed = (await api.create(name="B", seats=2, kingdom=FIRST_GAME))["game"]
    assert listed["kingdom"] == FIRST_GAME and listed["kingdom_name"] is None
    random_one = (await api.create(name="C", seats=2, edition=1, kingdom=None))["game"]
    assert set(random_one["kingdom"]) <= set(kingdom_cards(1))
    # a set's name in any case (and spacing), kept as the set is called
    lower = (await api.create(name="D", seats=2, kingdom="first  game"))["game"]
    assert lower["kingdom"] == FIRST_GAME and lower["kingdom_name"] == "First Game"


async def test_a_table_has_the_clock_it_chose_or_the_servers_default(
        make_api: MakeApi) -> None:
    api = await make_api(unrated_time_control="3+2")
    chosen = (await api.create(name="A", seats=2, time_control={
        "initial_seconds": 30, "increment_seconds": 180}))["game"]
    assert chosen["time_control"] == {"initial_seconds": 30, "increment_seconds": 180}
    assert (await api.game(chosen["id"]))["time_control"] == chosen["time_control"]
    default = (await api.create(name="B", seats=2))["game"]
    assert default["time_control"] == {"initial_seconds": 180, "increment_seconds": 2}
    none = (await api.create(name="C", seats=2, time_control=None))["game"]
    assert none["time_control"] is None


async def test_a_table_keeps_the_bot_pace_it_chose_or_the_servers_default(
        make_api: MakeApi, db: str) -> None:
    api = await make_api(bot_pace=BotPace.FAST)
    chosen = (await api.create(name="A", seats=2, bot_pace="slow"))["game"]
    assert chosen["bot_pace"] == "slow"
    assert (await api.create(name="B", seats=2))["game"]["bot_pace"] == "fast"
    # the server says its pace, so that a form can show what "the server's" means
    assert (await api.call("GET", "/api/v1/server", 200))["bot_pace"] == "fast"
    with sqlite3.connect(db) as connection:  # in its stored options: a restart keeps it
        [options] = connection.execute("SELECT options FROM games WHERE id = ?",
                                       (chosen["id"],)).fetchone()
    connection.close()
    assert json.loads(options)["bot_pace"] == "slow"


async def test_create_with_some_bots_stays_open(api: Api) -> None:
    game = (await api.create(name="Alice", seats=4, bots={"2": "big_money", "3": "random"}))[
        "game"]
    assert game["state"] == "open"
    assert [seat["bot"] for seat in game["seats"]] == [None, None, "big_money", "random"]
    assert game["seats"][2]["name"] and game["seats"][1]["name"] is None
    joined = await api.join(game["id"], "Bob")
    assert joined["seat"] == 1 and joined["game"]["state"] == "playing"


async def test_a_bot_seat_asks_for_the_strong_bots_level_by_name(api: Api) -> None:
    game = (await api.create(name="Alice", seats=3, bots={"1": "strong:1", "2": "strong"}))[
        "game"]
    assert [seat["bot"] for seat in game["seats"]] == [None, "strong:1", "strong"]
    assert game["state"] == "playing"  # the bots play on while Alice's seat waits for her


async def test_a_table_filled_with_bots_starts_at_once(api: Api, db: str) -> None:
    bots = {str(seat): "smithy_big_money" for seat in range(1, 6)}
    game = (await api.create(name="Alice", seats=6, bots=bots))["game"]
    assert game["state"] == "playing"
    assert game["started_at"] is not None and len(game["commitment"]) == 64
    assert game["turn"] >= 1
    assert (await api.listing("?state=playing"))["total"] == 1
    assert (await api.listing("?state=open"))["total"] == 0
    await api.join(game["id"], "Late", expect=409)
    assert stored_counts(db) == (1, 6)


async def test_join_fills_the_table_and_starts_it(api: Api) -> None:
    created = await api.create(name="Alice", seats=3)
    game_id = created["game"]["id"]
    bob = await api.join(game_id, "Bob")
    assert bob["seat"] == 1 and bob["game"]["state"] == "open" and TOKEN.match(bob["token"])
    carol = await api.join(game_id, "Carol")
    assert carol["seat"] == 2 and carol["game"]["state"] == "playing"
    assert [seat["name"] for seat in carol["game"]["seats"]] == ["Alice", "Bob", "Carol"]
    assert len({created["token"], bob["token"], carol["token"]}) == 3
    assert (await api.game(game_id))["state"] == "playing"


async def test_leave_frees_a_seat_before_the_start(api: Api, db: str) -> None:
    game_id = (await api.create(name="Alice", seats=3))["game"]["id"]
    bob = await api.join(game_id, "Bob")
    left = await api.call("POST", f"/api/v1/games/{game_id}/leave", 200,
                          json={"token": bob["token"]})
    assert left == {"left": True}
    game = await api.game(game_id)
    assert game["seats"][1]["name"] is None and game["state"] == "open"
    # the old token is void; the seat can be taken again
    await api.error("POST", f"/api/v1/games/{game_id}/leave", 403, "bad_token",
                    json={"token": bob["token"]})
    carol = await api.join(game_id, "Carol")
    assert carol["seat"] == 1
    with_bob_gone = stored_counts(db)
    assert with_bob_gone[0] == 1


async def test_list_by_state_with_paging(api: Api) -> None:
    ids = []
    for number in range(5):
        bots = {"1": "big_money"} if number % 2 else {}
        ids.append((await api.create(name=f"P{number}", seats=2, bots=bots))["game"]["id"])
    everything = await api.listing()
    assert everything["total"] == 5 and everything["limit"] == 20 and everything["offset"] == 0
    assert {game["id"] for game in everything["games"]} == set(ids)
    open_ids = {ids[0], ids[2], ids[4]}
    pages = []
    for offset in (0, 2, 4):
        page = await api.listing(f"?state=open&limit=2&offset={offset}")
        assert page["total"] == 3 and page["limit"] == 2 and page["offset"] == offset
        pages.append([game["id"] for game in page["games"]])
    assert [len(page) for page in pages] == [2, 1, 0]
    assert set(pages[0] + pages[1]) == open_ids
    playing = await api.listing("?state=playing&limit=100")
    assert {game["id"] for game in playing["games"]} == {ids[1], ids[3]}
    assert all(game["state"] == "playing" for game in playing["games"])
    assert (await api.listing("?state=finished"))["total"] == 0
    assert (await api.listing("?state=abandoned"))["games"] == []
    stamps = [game["created_at"] for game in everything["games"]]
    assert stamps == sorted(stamps, reverse=True)  # newest first


async def test_replays(api: Api) -> None:
    created = await api.create(name="Alice", seats=2, bots={"1": "big_money"})
    game_id = created["game"]["id"]
    replay = await api.call("GET", f"/api/v1/games/{game_id}/replay", 200)
    assert replay["complete"] is False and replay["seed"] is None
    assert replay["game"]["id"] == game_id
    text = await api.call("GET", f"/api/v1/games/{game_id}/replay?format=text", 200)
    assert "Alice" in text
    packed = await api.call("GET", f"/api/v1/games/{game_id}/replay", 200,
                            headers={"Accept": "application/msgpack"})
    assert msgpack.unpackb(packed)["game"]["id"] == game_id
    await api.error("GET", f"/api/v1/games/{game_id}/replay?format=xml", 400, "bad_format")
    await api.error("GET", "/api/v1/games/g-000000000000/replay", 404, "unknown_game")
    assert await api.call("GET", "/api/v1/replays/export", 200) == ""
    await api.error("GET", "/api/v1/replays/export?edition=3", 400, "bad_filter")
    await api.error("GET", "/api/v1/replays/export?limit=0", 400, "bad_paging")


# -- refusals ------------------------------------------------------------------------

GOOD = {"name": "Alice", "seats": 3}

BAD_CREATES: list[tuple[str, dict[str, Any], int, str]] = [
    ("not JSON", {"data": b"{nope", "headers": {"Content-Type": "application/json"}},
     400, "bad_json"),
    ("not UTF-8", {"data": b"\xff\xfe\xfa", "headers": {"Content-Type": "application/json"}},
     400, "bad_json"),
    ("too deep", {"data": b"[" * 50_000, "headers": {"Content-Type": "application/json"}},
     400, "bad_json"),
    ("empty body", {"data": b"", "headers": {"Content-Type": "application/json"}},
     400, "bad_json"),
    ("wrong content type", {"data": json.dumps(GOOD), "headers": {"Content-Type": "text/plain"}},
     415, "unsupported_media_type"),
    ("no content type", {"data": json.dumps(GOOD).encode()}, 415, "unsupported_media_type"),
    ("form", {"data": {"name": "Alice", "seats": "3"}}, 415, "unsupported_media_type"),
    ("a list", {"json": [GOOD]}, 400, "bad_json"),
    ("a string", {"json": "Alice"}, 400, "bad_json"),
    ("null", {"data": b"null", "headers": {"Content-Type": "application/json"}},
     400, "bad_json"),
    ("too large", {"json": GOOD | {"padding": "x" * 70_000}}, 413, "body_too_large"),
    ("no name", {"json": {"seats": 3}}, 400, "bad_name"),
    ("empty name", {"json": {"name": "", "seats": 3}}, 400, "bad_name"),
    ("blank name", {"json": {"name": "   ", "seats": 3}}, 400, "bad_name"),
    ("long name", {"json": {"name": "x" * 41, "seats": 3}}, 400, "bad_name"),
    ("number name", {"json": {"name": 7, "seats": 3}}, 400, "bad_name"),
    ("no seats", {"json": {"name": "A"}}, 400, "bad_seats"),
    ("one seat", {"json": {"name": "A", "seats": 1}}, 400, "bad_seats"),
    ("seven seats", {"json": {"name": "A", "seats": 7}}, 400, "bad_seats"),
    ("seats string", {"json": {"name": "A", "seats": "3"}}, 400, "bad_seats"),
    ("seats float", {"json": {"name": "A", "seats": 3.0}}, 400, "bad_seats"),
    ("seats true", {"json": {"name": "A", "seats": True}}, 400, "bad_seats"),
    ("edition 3", {"json": GOOD | {"edition": 3}}, 400, "bad_edition"),
    ("edition true", {"json": GOOD | {"edition": True}}, 400, "bad_edition"),
    ("edition float", {"json": GOOD | {"edition": 2.0}}, 400, "bad_edition"),
    ("edition string", {"json": GOOD | {"edition": "2"}}, 400, "bad_edition"),
    ("edition null", {"json": GOOD | {"edition": None}}, 400, "bad_edition"),
    ("unknown set", {"json": GOOD | {"kingdom": "No Such Set"}}, 400, "unknown_kingdom_set"),
    ("set of the other edition", {"json": GOOD | {"edition": 2, "kingdom": "Big Money"}},
     400, "unknown_kingdom_set"),
    ("kingdom a number", {"json": GOOD | {"kingdom": 10}}, 400, "bad_kingdom"),
    ("kingdom a map", {"json": GOOD | {"kingdom": {"cellar": 1}}}, 400, "bad_kingdom"),
    ("nine cards", {"json": GOOD | {"kingdom": FIRST_GAME[:9]}}, 400, "bad_kingdom_size"),
    ("eleven cards", {"json": GOOD | {"kingdom": [*FIRST_GAME, "witch"]}},
     400, "bad_kingdom_size"),
    ("empty kingdom", {"json": GOOD | {"kingdom": []}}, 400, "bad_kingdom_size"),
    ("duplicate card", {"json": GOOD | {"kingdom": [*FIRST_GAME[:9], FIRST_GAME[0]]}},
     400, "duplicate_card"),
    ("unknown card", {"json": GOOD | {"kingdom": [*FIRST_GAME[:9], "dragon"]}},
     400, "unknown_card"),
    ("base card", {"json": GOOD | {"kingdom": [*FIRST_GAME[:9], "copper"]}},
     400, "unknown_card"),
    ("card not a string", {"json": GOOD | {"kingdom": [*FIRST_GAME[:9], 5]}},
     400, "unknown_card"),
    ("card not in edition 2", {"json": GOOD | {"kingdom": [*FIRST_GAME[:9], "woodcutter"]}},
     400, "card_not_in_edition"),
    ("card not in edition 1",
     {"json": GOOD | {"edition": 1,
                      "kingdom": [*RECOMMENDED_KINGDOMS[1]["First Game"][:9], "artisan"]}},
     400, "card_not_in_edition"),
    ("clock a string", {"json": GOOD | {"time_control": "10+5"}}, 400, "bad_time_control"),
    ("unknown bot pace", {"json": GOOD | {"bot_pace": "glacial"}}, 400, "bad_option"),
    ("bot pace in seconds", {"json": GOOD | {"bot_pace": 0.8}}, 400, "bad_option"),
    ("clock too short", {"json": GOOD | {"time_control": {"initial_seconds": 29,
                                                          "increment_seconds": 0}}},
     400, "bad_time_control"),
    ("clock too long", {"json": GOOD | {"time_control": {"initial_seconds": 10801,
                                                         "increment_seconds": 0}}},
     400, "bad_time_control"),
    ("increment too long", {"json": GOOD | {"time_control": {"initial_seconds": 600,
                                                             "increment_seconds": 181}}},
     400, "bad_time_control"),
    ("increment negative", {"json": GOOD | {"time_control": {"initial_seconds": 600,
                                                             "increment_seconds": -1}}},
     400, "bad_time_control"),
    ("clock a fraction", {"json": GOOD | {"time_control": {"initial_seconds": 60.5,
                                                           "increment_seconds": 0}}},
     400, "bad_time_control"),
    ("clock without a bank", {"json": GOOD | {"time_control": {"increment_seconds": 5}}},
     400, "bad_time_control"),
    ("bots a list", {"json": GOOD | {"bots": ["big_money"]}}, 400, "bad_bots"),
    ("bots null", {"json": GOOD | {"bots": None}}, 400, "bad_bots"),
    ("bot in seat 0", {"json": GOOD | {"bots": {"0": "big_money"}}}, 400, "bad_bots"),
    ("bot seat out of range", {"json": GOOD | {"bots": {"3": "big_money"}}}, 400, "bad_bots"),
    ("bot seat negative", {"json": GOOD | {"bots": {"-1": "big_money"}}}, 400, "bad_bots"),
    ("bot seat not a number", {"json": GOOD | {"bots": {"one": "big_money"}}}, 400, "bad_bots"),
    ("bot seat padded", {"json": GOOD | {"bots": {" 1": "big_money"}}}, 400, "bad_bots"),
    ("bot seat huge", {"json": GOOD | {"bots": {"9" * 5000: "big_money"}}}, 400, "bad_bots"),
    ("bot seat leading zero", {"json": GOOD | {"bots": {"01": "big_money"}}}, 400, "bad_bots"),
    ("unknown strategy", {"json": GOOD | {"bots": {"1": "genius"}}}, 400, "bad_bots"),
    ("unknown level", {"json": GOOD | {"bots": {"1": "strong:4"}}}, 400, "bad_bots"),
    ("strategy a list", {"json": GOOD | {"bots": {"1": ["big_money"]}}}, 400, "bad_bots"),
    ("strategy null", {"json": GOOD | {"bots": {"1": None}}}, 400, "bad_bots"),
]


async def test_a_bad_create_creates_nothing(api: Api, db: str) -> None:
    # every case on one server (a server a case cost more than all the requests): each
    # still creates nothing, checked after each
    for name, request_kwargs, status, code in BAD_CREATES:
        with case(name):
            await api.error("POST", "/api/v1/games", status, code, **request_kwargs)
            await assert_nothing_created(api, db)


async def test_too_many_games_from_one_address(make_api: MakeApi, db: str) -> None:
    api = await make_api(games_per_address=2)
    first = await api.create(name="A", seats=2)
    await api.create(name="B", seats=2)
    await api.error("POST", "/api/v1/games", 429, "too_many_games", json={"name": "C",
                                                                          "seats": 2})
    await assert_nothing_created(api, db, games=2, seats=4)
    # a game someone else fills is still running, so it still counts
    await api.join(first["game"]["id"], "Bob")
    await api.error("POST", "/api/v1/games", 429, "too_many_games", json={"name": "C",
                                                                          "seats": 2})
    assert stored_counts(db)[0] == 2
    # once it has ended it no longer counts (though its room stays a while for resumes)
    room = api.state.lobby.room(first["game"]["id"])
    await room.resign(0)  # of two players: the game ends
    assert room.state == "finished" and api.state.lobby.room(room.id) is room
    await api.create(name="C", seats=2)
    await api.error("POST", "/api/v1/games", 429, "too_many_games", json={"name": "D",
                                                                          "seats": 2})


async def test_storage_unavailable(api: Api, db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Storage, "healthy", property(lambda self: False))
    await api.error("POST", "/api/v1/games", 503, "storage_unavailable", json=GOOD)
    health = await api.call("GET", "/healthz", 503)
    assert health["status"] == "down"
    monkeypatch.undo()
    await assert_nothing_created(api, db)


async def test_an_unexpected_failure_is_a_json_500(api: Api, db: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(api.state.lobby, "create", broken)
    await api.error("POST", "/api/v1/games", 500, "internal_error", json=GOOD)
    monkeypatch.undo()
    await assert_nothing_created(api, db)


async def test_bad_joins(api: Api, db: str) -> None:
    game_id = (await api.create(name="Alice", seats=2))["game"]["id"]
    path = f"/api/v1/games/{game_id}/join"
    await api.error("POST", path, 400, "bad_json", data=b"{",
                    headers={"Content-Type": "application/json"})
    await api.error("POST", path, 400, "bad_json", json=["Bob"])
    await api.error("POST", path, 415, "unsupported_media_type", data=b'{"name": "Bob"}')
    await api.error("POST", path, 413, "body_too_large", json={"name": "B" * 70_000})
    await api.error("POST", path, 400, "bad_name", json={})
    await api.error("POST", path, 400, "bad_name", json={"name": "x" * 41})
    await api.error("POST", "/api/v1/games/g-000000000000/join", 404, "unknown_game",
                    json={"name": "Bob"})
    await assert_nothing_created(api, db, games=1, seats=2)
    assert (await api.game(game_id))["seats"][1]["name"] is None
    await api.join(game_id, "Bob")
    # full and started: nothing more can join
    await api.error("POST", path, 409, "game_started", json={"name": "Carol"})
    assert [s["name"] for s in (await api.game(game_id))["seats"]] == ["Alice", "Bob"]


async def test_bad_leaves(api: Api) -> None:
    created = await api.create(name="Alice", seats=2)
    game_id = created["game"]["id"]
    path = f"/api/v1/games/{game_id}/leave"
    await api.error("POST", path, 403, "bad_token", json={"token": "x" * 32})
    await api.error("POST", path, 403, "bad_token", json={})
    await api.error("POST", path, 403, "bad_token", json={"token": 5})
    await api.error("POST", path, 400, "bad_json", json="token")
    await api.error("POST", path, 415, "unsupported_media_type", data=created["token"])
    await api.error("POST", "/api/v1/games/g-000000000000/leave", 404, "unknown_game",
                    json={"token": created["token"]})
    other = await api.create(name="Zed", seats=2)
    await api.error("POST", f"/api/v1/games/{other['game']['id']}/leave", 403, "bad_token",
                    json={"token": created["token"]})  # a token of another game
    assert (await api.game(game_id))["seats"][0]["name"] == "Alice"
    bob = await api.join(game_id, "Bob")
    for token in (created["token"], bob["token"]):
        await api.error("POST", path, 409, "game_started", json={"token": token})
    game = await api.game(game_id)
    assert game["state"] == "playing"
    assert [s["name"] for s in game["seats"]] == ["Alice", "Bob"]


BAD_PAGING = ("?limit=0", "?limit=101", "?limit=x", "?limit=", "?offset=-1", "?offset=1.5",
              "?limit=10&offset=abc")
BAD_STATES = ("?state=bogus", "?state=", "?state=OPEN")


async def test_bad_paging_and_state(api: Api) -> None:
    for query in BAD_PAGING:
        with case(query):
            await api.error("GET", f"/api/v1/games{query}", 400, "bad_paging")
    for query in BAD_STATES:
        with case(query):
            await api.error("GET", f"/api/v1/games{query}", 400, "bad_state")


async def test_unknown_game(api: Api) -> None:
    await api.error("GET", "/api/v1/games/g-000000000000", 404, "unknown_game")
    await api.error("GET", "/api/v1/games/nonsense", 404, "unknown_game")


UNKNOWN_PATHS = ("/api/v1/nothing", "/api/v1/games/g-1/kick", "/api/v1/games/g-1/join/more",
                 "/api/v1/")


async def test_unknown_path_is_a_json_404(api: Api) -> None:
    for path in UNKNOWN_PATHS:
        with case(path):
            await api.error("GET", path, 404, "not_found")
            await api.error("POST", path, 404, "not_found", json={})


WRONG_METHODS = [
    ("DELETE", "/api/v1/games", {"GET", "HEAD", "POST"}),
    ("PUT", "/api/v1/games/g-000000000000", {"GET", "HEAD"}),
    ("GET", "/api/v1/games/g-000000000000/join", {"POST"}),
    ("GET", "/api/v1/games/g-000000000000/leave", {"POST"}),
    ("POST", "/api/v1/server", {"GET", "HEAD"}),
    ("PATCH", "/api/v1/cards", {"GET", "HEAD"}),
    ("POST", "/api/v1/openapi.json", {"GET", "HEAD"}),
    ("POST", "/api/v1/ws", {"GET"}),
]


async def test_wrong_method_is_a_json_405(api: Api, db: str) -> None:
    for method, path, allowed in WRONG_METHODS:
        with case(f"{method} {path}"):
            response = await api.client.request(method, path, json=GOOD)
            assert response.status == 405
            assert set(response.headers["Allow"].split(",")) == allowed
            await api.error(method, path, 405, "method_not_allowed", json=GOOD)
            await assert_nothing_created(api, db)


# -- tokens ------------------------------------------------------------------------------


async def test_tokens_are_random_and_never_leak(api: Api, db: str,
                                                caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    tokens = []
    open_game = await api.create(name="Alice", seats=3)
    tokens.append(open_game["token"])
    bob = await api.join(open_game["game"]["id"], "Bob")
    tokens.append(bob["token"])
    leaver = await api.create(name="Leaver", seats=2)
    tokens.append(leaver["token"])
    await api.call("POST", f"/api/v1/games/{leaver['game']['id']}/leave", 200,
                   json={"token": leaver["token"]})
    playing = await api.create(name="Carol", seats=2, bots={"1": "big_money"})
    tokens.append(playing["token"])
    started = await api.create(name="Dan", seats=2)
    tokens.append(started["token"])
    tokens.append((await api.join(started["game"]["id"], "Eve"))["token"])
    # a refused leave with a real token of another game must not log it either
    await api.error("POST", f"/api/v1/games/{open_game['game']['id']}/leave", 403, "bad_token",
                    json={"token": started["token"]})

    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert TOKEN.match(token), token
        assert len(token) * 6 >= 128 + 6  # URL-safe base64: 6 bits a character

    for path in ("/api/v1/server", "/api/v1/cards", "/api/v1/games",
                 "/api/v1/games?state=open", "/api/v1/games?state=playing", "/healthz",
                 "/metrics", "/api/v1/openapi.json"):
        await api.call("GET", path, 200)
    for game in (open_game, leaver, playing, started):
        await api.game(game["game"]["id"])
        for form in ("json", "text", "msgpack"):
            await api.call("GET", f"/api/v1/games/{game['game']['id']}/replay?format={form}",
                           200)
    await api.call("GET", "/api/v1/replays/export", 200)
    assert len(api.get_texts) >= 12
    for token in tokens:
        for text in api.get_texts:
            assert token not in text
            assert hash_token(token) not in text
    logged = "\n".join(
        f"{record.getMessage()} {record.args!r} {record.__dict__!r}" for record in caplog.records)
    assert caplog.records  # the server does log (storage, lobby, access log)
    for token in tokens:
        assert token not in logged and token not in caplog.text
    with open(db, "rb") as stored:
        data = stored.read()
    for token in tokens:
        assert token.encode() not in data  # only hashes are stored
