"""Clocks over a real socket, in real time: a player who lets their clock run out is
resigned by the server, and everyone hears why."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dominion.protocol import Snapshot, Update
from dominion.server import time_control

from .wsplay import Player, ServerFactory, ws_server

__all__ = ["ws_server"]


@pytest.mark.integration
async def test_a_player_whose_clock_runs_out_loses(ws_server: ServerFactory,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time_control, "MIN_INITIAL_SECONDS", 1)  # a tiny control, for a test
    site = await ws_server()
    body: dict[str, Any] = {"name": "Ann", "seats": 2, "kingdom": "First Game",
                            "time_control": {"initial_seconds": 1, "increment_seconds": 0}}
    async with site.session.post(site.url("/api/v1/games"), json=body) as response:
        created = await response.json()
        assert response.status == 201, created
    game = created["game"]["id"]
    assert created["game"]["time_control"] == body["time_control"]
    ann = await Player.join(site, game, created["token"], version=2)
    _, bob_token = await site.join(game, "Bob")
    bob = await Player.join(site, game, bob_token, version=2)
    ann.strategy = bob.strategy = None  # nobody answers: the first player's clock runs out
    results = await asyncio.gather(*(asyncio.wait_for(player.play(), 20)
                                     for player in (ann, bob)))
    room = site.room(game)
    assert room.game is not None
    first = room.game.first_player
    for result in results:
        assert result is not None
        assert result["winners"] == [1 - first] and result["timed_out"] == [first]
    for player in (ann, bob):
        snapshot = next(f for f in player.frames if isinstance(f, Snapshot))
        assert snapshot.clocks is not None and snapshot.clocks.initial_ms == 1000
        assert snapshot.clocks.running == first
        update = next(f for f in player.frames if isinstance(f, Update))
        assert {"kind": "resigned", "player": first, "data": {"reason": "timed_out"}} \
            in update.events
        assert update.clocks is not None and update.clocks.remaining_ms[first] == 0
    assert room.state == "finished"
