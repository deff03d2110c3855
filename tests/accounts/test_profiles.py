"""Players' profiles over REST, through the server with each account store: an account's
public facts and its games (finished and running, filtered and paged), seats that name
their account, a guest with no profile, and a deleted account's page gone while its games
keep the placeholder name. The page /@/NAME is the web client's."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dominion.server.edge.app import create_app
from dominion.server.play.archive import prune
from dominion.server.play.lobby import DELETED_PLAYER
from dominion.server.settings import Settings
from tests.eventually import eventually
from tests.server.restapi import Api

CHEAP = {"password_time_cost": 1, "password_memory_kib": 64}
PASSWORD = "correct horse battery"


@pytest.fixture
async def api(aiohttp_client: Any, tmp_path: Path, store_kind: str,
              request: pytest.FixtureRequest) -> Api:
    settings: dict[str, Any] = {"db": str(tmp_path / "games.sqlite3"), **CHEAP}
    if store_kind == "postgres":
        settings["accounts_url"] = request.getfixturevalue("postgres_url")
    return Api(await aiohttp_client(create_app(Settings(**settings))))


async def register(api: Api, name: str) -> None:
    await api.call("POST", "/api/v1/account/register", 201,
                   json={"name": name, "password": PASSWORD})


async def games_of(api: Api, name: str, query: str = "") -> dict[str, Any]:
    body: dict[str, Any] = await api.call("GET", f"/api/v1/players/{name}/games{query}", 200)
    return body


async def test_a_profile_lists_the_accounts_games_finished_and_running(api: Api) -> None:
    await register(api, "Ada")
    # signed in, a seat takes the account's name whatever the form said
    finished = await api.create(name="Someone", seats=2, bots={"1": "big_money"})
    assert finished["game"]["seats"][0] | {"connected": False} == {
        "seat": 0, "name": "Ada", "bot": None, "bot_account": False, "left": None,
        "connected": False, "account": True}
    assert finished["game"]["seats"][1]["account"] is False
    await api.state.lobby.room(finished["game"]["id"]).resign(0)
    running = await api.create(seats=3, edition=1, bots={"1": "big_money", "2": "random"})
    await api.call("POST", "/api/v1/account/sign-out", 200)
    await api.create(name="Guest", seats=2, bots={"1": "big_money"})

    profile = await api.call("GET", "/api/v1/players/ADA", 200)  # any case
    assert profile["player"]["name"] == "Ada"
    assert set(profile["player"]) == {"name", "created_at"}  # nothing private

    every = await games_of(api, "Ada")
    assert {game["id"] for game in every["games"]} == {running["game"]["id"],
                                                       finished["game"]["id"]}
    assert every["total"] == 2
    ended = (await games_of(api, "Ada", "?state=finished"))["games"]
    assert [g["id"] for g in ended] == [finished["game"]["id"]]
    # she resigned and a bot played on: her seat says so, and is not a bot's
    assert [(seat["bot"], seat["left"]) for seat in ended[0]["seats"]] == [
        (None, "resigned"), ("big_money", None)]
    assert [g["id"] for g in (await games_of(api, "Ada", "?state=playing"))["games"]] == [
        running["game"]["id"]]
    assert (await games_of(api, "Ada", "?players=3&edition=1"))["total"] == 1
    assert (await games_of(api, "Ada", "?players=2&edition=1"))["total"] == 0
    paged = await games_of(api, "Ada", "?limit=1&offset=1")
    assert [g["id"] for g in paged["games"]] == [every["games"][1]["id"]]
    assert paged["total"] == 2
    # the path says whose games: a query's own account filter cannot widen it
    assert (await games_of(api, "Ada", "?account=Guest"))["total"] == 2

    await api.error("GET", "/api/v1/players/Guest", 404, "unknown_player")
    await api.error("GET", "/api/v1/players/Nobody/games", 404, "unknown_player")
    await api.error("GET", "/api/v1/players/" + "x" * 500, 404, "unknown_player")
    await api.error("GET", "/api/v1/players/Ada/games?edition=3", 400, "bad_filter")
    await api.error("GET", "/api/v1/players/Ada/games?limit=0", 400, "bad_paging")
    await api.error("GET", "/api/v1/players/Ada/games?state=won", 400, "bad_state")


async def test_an_accounts_games_are_its_seats_not_every_seat_of_its_name(api: Api) -> None:
    """Two seats named Ada, one signed in: a guest's, taken before the account existed, is
    not the account's; nor is a seat of another account that shows the same name. The
    profile, the listing's `account=` and the export find the account's seats by id."""
    as_guest = await api.create(name="Ada", seats=2, bots={"1": "big_money"})
    await api.state.lobby.room(as_guest["game"]["id"]).resign(0)
    await register(api, "Bob")
    bobs = await api.create(seats=2, bots={"1": "big_money"})
    bob_id = api.state.lobby.room(bobs["game"]["id"]).seats[0].account_id
    assert bob_id is not None
    await api.state.storage.rename_account_seats(bob_id, "Ada")  # a name, not an account
    await api.call("POST", "/api/v1/account/sign-out", 200)
    await register(api, "Ada")
    signed_in = await api.create(seats=2, bots={"1": "big_money"})
    await api.state.lobby.room(signed_in["game"]["id"]).resign(0)
    running = await api.create(seats=2, bots={"1": "big_money"})
    ada_games = {signed_in["game"]["id"], running["game"]["id"]}

    assert {game["id"] for game in (await games_of(api, "Ada"))["games"]} == ada_games
    assert (await games_of(api, "Ada", "?state=playing"))["total"] == 1
    assert {game["id"] for game in (await api.listing("?account=ada"))["games"]} == ada_games
    assert (await api.listing("?account=Nobody"))["total"] == 0
    assert (await api.listing("?player=Ada"))["total"] == 4  # by name: every seat of it
    async with api.client.get("/api/v1/replays/export?account=Ada") as exported:
        assert exported.status == 200
        lines = (await exported.read()).splitlines()
    assert [json.loads(line)["game"]["id"] for line in lines] == [signed_in["game"]["id"]]


async def test_a_deleted_accounts_profile_is_gone_and_its_games_show_the_placeholder(
        api: Api) -> None:
    await register(api, "Ada")
    created = await api.create(seats=2, bots={"1": "big_money"})
    ended = await api.create(seats=2, bots={"1": "big_money"})
    await api.state.lobby.room(ended["game"]["id"]).resign(0)
    storage = api.state.storage
    await eventually(lambda: not storage.unarchived_games())  # archived, and pruned:
    assert await prune(storage, timedelta(0)) == 1  # the archive alone holds it
    await api.call("DELETE", "/api/v1/account", 200, json={"password": PASSWORD})
    await api.error("GET", "/api/v1/players/Ada", 404, "unknown_player")
    await api.error("GET", "/api/v1/players/Ada/games", 404, "unknown_player")
    for game in (created, ended):
        seats = (await api.game(game["game"]["id"]))["seats"]
        assert seats[0]["name"] == DELETED_PLAYER
    replay = await api.call("GET", f"/api/v1/games/{ended['game']['id']}/replay", 200)
    assert replay["players"][0]["name"] == DELETED_PLAYER
    assert (await api.listing("?account=Ada"))["total"] == 0


async def test_the_profile_page_is_the_web_clients(api: Api) -> None:
    response = await api.client.get("/@/Ada")
    assert response.status == 200 and response.content_type == "text/html"
    assert "js/main.js" in await response.text()
