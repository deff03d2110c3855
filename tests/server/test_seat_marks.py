"""A person's seat is never marked as a bot's, in any summary (the REST game, the lists
and profiles, live or from storage), though a bot played it on: it says why instead
(`left`: resigned, or taken over after the grace period). A bot that sat there from the
start is a bot's seat."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dominion.server.edge.app import create_app
from dominion.server.settings import Settings
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .restapi import Api


def marks(summary: dict[str, Any]) -> list[tuple[str | None, str | None]]:
    return [(seat["bot"], seat.get("left")) for seat in summary["seats"]]


WANT = [(None, "taken_over"), (None, "resigned"), ("big_money", None)]


SETTINGS = Settings(absent_seat="bot", bot_delay_seconds=0.005)


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
async def api(aiohttp_client: Any, tmp_path: Path, clock: VirtualClock) -> Api:
    settings = replace(SETTINGS, db=str(tmp_path / "x.sqlite3"))
    return Api(await aiohttp_client(create_app(settings, clock=clock)))


async def test_seats_a_bot_played_on_for_a_person_say_why_and_are_not_bots(
        api: Api, clock: VirtualClock) -> None:
    created = await api.create(name="Ann", seats=3, kingdom="First Game",
                               bots={"2": "big_money"})
    game = created["game"]["id"]
    await api.join(game, "Bob")  # the game starts; Ann never connects
    room = api.state.lobby.room(game)
    clock.advance(SETTINGS.seat_grace_seconds)
    await eventually(lambda: room.seats[0].taken_over)
    await room.resign(1)
    assert marks(room.summary()) == WANT, "a running game's"
    assert marks(await api.game(game)) == WANT

    async with clock.ticking(SETTINGS.bot_delay_seconds):  # their pause between answers
        await eventually(lambda: room.state == "finished", seconds=60)  # played out
    # its end stored, the room is retired: the clock moves on until it leaves memory
    await eventually(clock.advancing(lambda: game not in api.state.lobby.rooms,
                                     step=SETTINGS.ended_room_seconds))
    ended = await api.game(game)
    assert ended["state"] == "finished" and marks(ended) == WANT, "an ended game's, stored"
    listed = await api.listing("?state=ended")
    assert [marks(summary) for summary in listed["games"]] == [WANT]
    stored = api.state.storage.seats(game)
    assert [seat.bot for seat in stored] == [None, None, "big_money"]
