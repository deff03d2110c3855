"""A client whose server dies (SIGKILL) finds it again within seconds of its return: the
waits between tries are bounded by `RECONNECT_MAX_DELAY`, drawn with full jitter."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from dominion.clients.lobby import Lobby
from dominion.clients.net import RECONNECT_MAX_DELAY, Backoff, Client
from tests.eventually import eventually
from tests.server.test_process import start_server

from .serverproc import stop

TRIES_DOWN = 7
"""Tries while the server is down: by the 7th, a backoff doubling from 0.2 s without a
low bound (as the client's once did, up to 30 s) would wait over 6 s."""


def test_the_waits_double_up_to_the_bound_and_start_again_once_connected() -> None:
    longest = Backoff(draw=lambda: 1.0)
    assert [longest.next() for _ in range(8)] == [0.25, 0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0]
    longest.reset()
    assert longest.next() == 0.25
    assert longest.tries == 9 and longest.longest == RECONNECT_MAX_DELAY
    shortest = Backoff(draw=lambda: 0.0)  # full jitter: any wait from zero up to the bound
    assert {shortest.next() for _ in range(8)} == {0.0}
    assert Backoff(most=0.1, draw=lambda: 1.0).next() == 0.1


@pytest.mark.slow  # the server stays down for several tries
async def test_a_client_finds_a_restarted_server_within_the_longest_wait(tmp_path: Path
                                                                         ) -> None:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db)
    port = int(url.rsplit(":", 1)[1])
    try:
        async with aiohttp.ClientSession() as session:
            created = await Lobby(url, session).create("Ann", 2, kingdom="First Game",
                                                       bots={1: "big_money"})
            game = created["game"]["id"]
            async with Client(url, session=session) as client:
                state = await client.join(game, created["token"])
                await eventually(lambda: state.decision is not None
                                 and state.decision["player"] == state.seat)
                decision = state.decision
                stop(process)  # SIGKILL: no goodbye
                await eventually(lambda: client.backoff.tries >= TRIES_DOWN, 60)
                process, _ = start_server(db, port=port)
                tries_when_back = client.backoff.tries
                await eventually(lambda: client.reconnects == 1, 30)
                # the wait under way when the server came back ends in a try that reaches
                # it (or, at worst, one more): within two waits of at most the bound
                assert client.backoff.tries - tries_when_back <= 1
                assert client.backoff.longest <= RECONNECT_MAX_DELAY
                # the seat is resumed: its answer to the decision still pending counts
                await client.answer(game, decision["id"], [decision["options"][-1]["id"]])
    finally:
        stop(process)
