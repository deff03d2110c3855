"""A rematch's rules at an ended table, in process (a lobby on a games file of the
test's own, its timers on a virtual clock): an offer expires unanswered, a decline ends it
and another may be made, and it counts against the offerer's games. Over real WebSockets
(each player's token to them alone, bots accepting, bad frames):
tests/server/test_rematch.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dominion.protocol import ErrorCode, RematchCancelled, RematchEnd, RematchOffered
from dominion.server.metrics import Metrics
from dominion.server.play.lobby import Lobby
from dominion.server.play.room import Room
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings
from dominion.server.storage import GameState, Storage
from tests.virtual_clock import VirtualClock

from .test_room import Listener

ADDRESS = "192.0.2.1"


def accepted() -> None:
    """A request's acknowledgement (a connection sends its ack here)."""


class Table:
    """Ann and Bob's ended table, each listening at their seat, and a spectator."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.ann, self.bob, self.spectator = Listener(), Listener(), Listener()
        room.subscribe(self.ann, room.seats[0])
        room.subscribe(self.bob, room.seats[1])
        room.subscribe(self.spectator, None)

    @classmethod
    async def ended(cls, lobby: Lobby) -> Table:
        room, _ = await lobby.create({"name": "Ann", "seats": 2}, ADDRESS)
        await lobby.join(room.id, "Bob")
        table = cls(room)
        await room.resign(0)
        assert room.state == GameState.FINISHED
        return table


async def refused(code: ErrorCode, room: Room, seat: int, accept: bool) -> None:
    with pytest.raises(Refusal) as refusal:
        await room.answer_rematch(seat, accept, accepted)
    assert refusal.value.code is code


async def test_an_offer_nobody_answers_expires(storage: Storage) -> None:
    clock = VirtualClock()
    settings = Settings()
    lobby = Lobby(storage, settings, Metrics(), clock=clock)
    table = await Table.ended(lobby)
    room = table.room
    await room.offer_rematch(0, None, ADDRESS, accepted)
    offered = table.bob.received[-1]
    assert isinstance(offered, RematchOffered)
    assert offered.expires_ms == settings.rematch_seconds * 1000
    clock.advance(settings.rematch_seconds - 0.001)
    assert room.rematch_standing and table.bob.received[-1] == offered
    clock.advance(0.001)
    expired = RematchCancelled(game=room.id, reason=RematchEnd.EXPIRED, by=None)
    assert [listener.received[-1] for listener in (table.ann, table.bob, table.spectator)
            ] == [expired] * 3
    await refused(ErrorCode.REMATCH_EXPIRED, room, 1, True)
    await lobby.close()


async def test_a_decline_ends_the_offer_and_another_may_be_made(storage: Storage) -> None:
    lobby = Lobby(storage, Settings(), Metrics(), clock=VirtualClock())
    table = await Table.ended(lobby)
    room = table.room
    await room.offer_rematch(0, None, ADDRESS, accepted)
    await room.answer_rematch(1, False, accepted)
    declined = RematchCancelled(game=room.id, reason=RematchEnd.DECLINED, by=1)
    assert table.ann.received[-1] == declined and table.spectator.received[-1] == declined
    await refused(ErrorCode.NO_REMATCH, room, 0, True)
    await room.offer_rematch(1, None, ADDRESS, accepted)
    offered = table.ann.received[-1]
    assert isinstance(offered, RematchOffered) and offered.by == 1
    await lobby.close()


async def test_a_rematch_counts_against_the_offerers_games(storage: Storage) -> None:
    lobby = Lobby(storage, replace(Settings(), games_per_address=1), Metrics(),
                  clock=VirtualClock())
    room, _ = await lobby.create({"name": "Ann", "seats": 2, "bots": {"1": "big_money"}},
                                 ADDRESS)
    await room.resign(0)  # ended: it no longer counts
    await lobby.create({"name": "Ann", "seats": 2}, ADDRESS)  # the address's one game
    with pytest.raises(Refusal) as refusal:
        await room.offer_rematch(0, None, ADDRESS, accepted)
    assert refusal.value.code is ErrorCode.TOO_MANY_GAMES
    assert room.rematch is None
    await lobby.close()
