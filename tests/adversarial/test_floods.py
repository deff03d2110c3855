"""Finding 7: chat and game creation are limited over time, per address, by settings a
host chooses; a game's creator can keep spectators out of its chat."""

from __future__ import annotations

import sqlite3

from dominion.protocol import Ack, Chat, Error, Hello, Join, Resign, Watch, Welcome
from tests.server.wsclient import TestClient
from tests.server.wsplay import ServerFactory, Site, ws_server

from .attacks import chatter_token

__all__ = ["ws_server"]


def chat_lines(db: str) -> int:
    with sqlite3.connect(db) as connection:
        lines = int(connection.execute("SELECT count(*) FROM chat").fetchone()[0])
    connection.close()
    return lines


async def signed_in(site: Site, access_token: str) -> TestClient:
    ws = await site.session.ws_connect(site.ws_url, protocols=("dominion.v2.msgpack",))
    client = TestClient(ws)
    welcome = await client.request(Hello, versions=[2], client="tests",
                                   access_token=access_token)
    assert isinstance(welcome, Welcome), welcome
    return client


async def test_a_chat_flood_from_one_address_is_cut_to_its_allowance(
        ws_server: ServerFactory) -> None:
    site = await ws_server(chat_per_minute=5, password_time_cost=1, password_memory_kib=64)
    game, _ = await site.create(seats=2)
    token = await chatter_token(site.url("/").rstrip("/"))
    # four connections, one address, signed in as one account (spectators chat signed in)
    watchers = [await signed_in(site, token) for _ in range(4)]
    replies = []
    for watcher in watchers:
        await watcher.request(Watch, game=game)
    for line in range(6):
        for watcher in watchers:
            replies.append(await watcher.request(Chat, game=game, text=f"{'x' * 400} {line}"))
    accepted = [r for r in replies if isinstance(r, Ack)]
    refused = [r for r in replies if isinstance(r, Error)]
    assert len(accepted) == 5  # the burst; a minute refills it
    assert {r.code for r in refused} == {"rate_limited"}
    assert chat_lines(site.app_state().settings.db) == 5


async def test_spectator_chat_can_be_switched_off_for_a_game(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    async with site.session.post(site.url("/api/v1/games"), json={
            "name": "Ann", "seats": 2, "spectator_chat": False}) as created:
        body = await created.json()
    assert body["game"]["spectator_chat"] is False
    game, token = body["game"]["id"], body["token"]
    ann, watcher = await site.connect(), await site.connect()
    await ann.request(Join, game=game, token=token)
    await watcher.request(Watch, game=game)
    refused = await watcher.request(Chat, game=game, text="hello")
    assert isinstance(refused, Error) and refused.code == "not_a_player"
    assert isinstance(await ann.request(Chat, game=game, text="hello"), Ack)
    assert chat_lines(site.app_state().settings.db) == 1


async def test_chat_that_would_steer_a_terminal_is_refused(ws_server: ServerFactory) -> None:
    site = await ws_server()
    game, _ = await site.create(seats=2)
    watcher = await site.connect()
    await watcher.request(Watch, game=game)
    refused = await watcher.request(Chat, game=game, text="\x1b]0;owned\x07\x1b[2J")
    assert isinstance(refused, Error) and refused.code == "bad_text"
    assert chat_lines(site.app_state().settings.db) == 0


async def test_create_and_resign_cycles_stop_at_the_hourly_allowance(
        ws_server: ServerFactory) -> None:
    site = await ws_server(games_per_hour=4, games_per_address=2)
    for _ in range(4):  # each game ends at once: the open-games limit never bites
        game, token = await site.create(seats=2, bots={1: "big_money"})
        player = await site.connect()
        await player.request(Join, game=game, token=token)
        assert isinstance(await player.request(Resign, game=game), Ack)
        await player.close()
    async with site.session.post(site.url("/api/v1/games"),
                                 json={"name": "Ann", "seats": 2}) as refused:
        assert refused.status == 429
        assert (await refused.json())["error"]["code"] == "rate_limited"
    async with site.session.get(site.url("/api/v1/games")) as listing:
        assert (await listing.json())["total"] == 4
