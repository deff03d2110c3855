"""Network bots play whole games against each other on a real server (every seat a
network bot, none on the server), survive a dropped connection, and the minimal bot of
docs/CLIENTS.md plays a full game."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from typing import Any

import aiohttp
import pytest

from dominion.clients.cli import _parser, answer_delay
from dominion.clients.lobby import Lobby
from dominion.clients.net import Client
from dominion.clients.network_bot import NetworkBot, play_seat
from dominion.clients.state import GameState
from dominion.server.engine.cards import catalogue

from .serverproc import Proxy, refused_for_rate, server_url

__all__ = ["server_url"]


async def open_table(lobby: Lobby, seats: int, kingdom: str | None = None) -> tuple[str, list[str]]:
    """A table of `seats` people (no server bots); every seat's token."""
    created = await lobby.create("Seat 1", seats, kingdom=kingdom)
    game = created["game"]["id"]
    tokens = [created["token"]]
    for seat in range(1, seats):
        tokens.append((await lobby.join(game, f"Seat {seat + 1}"))["token"])
    return game, tokens


COSTS = {card: spec.cost for edition in (1, 2) for card, spec in catalogue(edition).items()}
"""The engine's costs: what the bots' coins (the server's view) are checked against."""


def check_buy(state: GameState, decision: dict[str, Any], choice: list[int]) -> None:
    """The bot's coins are never fewer than a card the server offers it costs, and the
    Provinces run out only in the turn's Buy phase that ends the game (a +Buy card can
    leave buys after the last one, never Treasures to play)."""
    if decision["kind"] == "buy":
        offered = [COSTS[o["card"]] for o in decision["options"] if o["kind"] == "buy"]
        assert max(offered, default=0) <= state.coins
        bought = not any(o["kind"] == "play_all_treasures" for o in decision["options"])
        assert state.supply_of("province") >= 1 or bought


@pytest.mark.parametrize("strategies", [
    ("big_money", "smithy_big_money"),
    ("random", "big_money", "smithy_big_money", "random"),
    ("strong", "smithy_big_money", "strong"),
])
async def test_network_bots_play_whole_games(server_url: str, strategies: tuple[str, ...]
                                             ) -> None:
    async with aiohttp.ClientSession() as session:
        lobby = Lobby(server_url, session)
        game, tokens = await open_table(lobby, len(strategies), "First Game")
        clients = [Client(server_url, session=session) for _ in strategies]
        bots = []
        for seat, (client, token, strategy) in enumerate(zip(clients, tokens, strategies,
                                                             strict=True)):
            await client.connect()
            bots.append(NetworkBot(client, game, token, strategy, seed=seat,
                                   on_decision=check_buy))
        results = await asyncio.wait_for(asyncio.gather(*(bot.play() for bot in bots)), 60)
        for client in clients:
            await client.close()
        # the newest version in common: every change came as one `update`
        assert all(client.welcome and client.welcome.version == 2 for client in clients)
        assert all(result == results[0] for result in results)
        assert len(results[0]["scores"]) == len(strategies) and results[0]["winners"]
        assert all(bot.answers > 0 for bot in bots)
        summary = await lobby.game(game)
        assert summary["state"] == "finished"
        # full speed, default limits: waiting for each ack is never limited
        assert await refused_for_rate(server_url) == 0
        # Each bot's count of its own cards (the view's) is the result's at the end.
        for seat, bot in enumerate(bots):
            assert bot.state is not None
            owned = {c: n for c, n in bot.state.players[seat].owned.items() if n}
            assert owned == results[0]["decks"][seat]


async def test_play_seat_helper(server_url: str) -> None:
    async with aiohttp.ClientSession() as session:
        game, tokens = await open_table(Lobby(server_url, session), 2)
    results = await asyncio.wait_for(asyncio.gather(
        play_seat(server_url, game, tokens[0], "big_money"),
        play_seat(server_url, game, tokens[1], "random", seed=3)), 60)
    assert results[0] == results[1]


async def test_a_dropped_bot_resumes_and_finishes(server_url: str) -> None:
    proxy = Proxy(int(server_url.rsplit(":", 1)[1]))
    port = await proxy.start()
    async with aiohttp.ClientSession() as session:
        lobby = Lobby(server_url, session)
        game, tokens = await open_table(lobby, 2, "First Game")
        dropped = Client(f"http://127.0.0.1:{port}", session=session)
        steady = Client(server_url, session=session)
        await dropped.connect()
        await steady.connect()
        assert dropped.welcome is not None and dropped.welcome.version == 2
        bots = [NetworkBot(dropped, game, tokens[0], "smithy_big_money", on_decision=check_buy),
                NetworkBot(steady, game, tokens[1], "big_money")]
        tasks = [asyncio.ensure_future(bot.play()) for bot in bots]
        for _ in range(2):  # cut twice, some answers apart
            answers = bots[0].answers
            while bots[0].answers < answers + 8:
                assert not tasks[0].done()
                await asyncio.sleep(0.005)
            proxy.cut()
        results = await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert dropped.reconnects >= 2
        assert results[0] == results[1]
        state = bots[0].state
        assert state is not None
        owned = {c: n for c, n in state.players[0].owned.items() if n}
        assert owned == results[0]["decks"][0]
        await dropped.close()
        await steady.close()
    await proxy.stop()


async def test_the_minimal_bot_plays_a_full_game(server_url: str) -> None:
    async with aiohttp.ClientSession() as session:
        game, tokens = await open_table(Lobby(server_url, session), 2)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dominion.clients.examples.minimal_bot", server_url, game,
        tokens[0], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))
    result = await asyncio.wait_for(play_seat(server_url, game, tokens[1], "big_money"), 60)
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, err.decode()
    assert out.decode().strip() == f"scores {result['scores']}, winners {result['winners']}"
    # it ignores errors, so one `rate_limited` would have hung the game
    assert "refused" not in err.decode()
    # its counters are the view's: its first Buy phase starts with no coins, and has 2
    # to 5 once it played its Treasures; 3 VP (its Estates)
    first, second = err.decode().splitlines()[:2]
    assert first == "turn 1: $0, 1 buys, 3 VP", first
    assert re.fullmatch(r"turn 1: \$[2-5], 1 buys, 3 VP", second), second
    assert await refused_for_rate(server_url) == 0


@pytest.mark.parametrize(("options", "seconds"), [
    ((), 0.0), (("--pace", "fast"), 0.3), (("--pace", "slow"), 1.5),
    (("--pace", "slow", "--delay", "0.1"), 0.1)])
def test_dominion_bot_answers_at_once_unless_given_a_pace(options: tuple[str, ...],
                                                          seconds: float) -> None:
    assert answer_delay(_parser().parse_args(["bot", *options])) == seconds
