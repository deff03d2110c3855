"""A restart's games come back in the background: every unfinished game is rebuilt, and a
client that asks for one before its turn has it rebuilt at once and plays it (it waits,
never hears "no such game")."""

from __future__ import annotations

import asyncio
import threading

import pytest

from dominion.bots import make_strategy
from dominion.protocol import ErrorCode
from dominion.server.metrics import Metrics
from dominion.server.play import lobby as lobby_module
from dominion.server.play.bots import seat_table
from dominion.server.play.lobby import Lobby, SeatHolder
from dominion.server.play.room import Room
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings
from dominion.server.storage import Storage, StoredGame

HOLDERS = [SeatHolder("Ada", None, False), SeatHolder("Bob", None, False)]
GAMES = 5



async def stored_games(storage: Storage) -> list[str]:
    """GAMES running games left behind by a server that stopped; their ids, oldest first."""
    lobby = Lobby(storage, Settings(), Metrics())
    ids = []
    for _ in range(GAMES):
        room, _ = await lobby.create_matched(HOLDERS, 2, rated=False)
        await room.start_if_full()
        ids.append(room.id)
    await lobby.close()
    return ids


def read_held_until(storage: Storage, monkeypatch: pytest.MonkeyPatch,
                    what: str) -> threading.Event:
    """The restore's reads of stored games wait until the returned event is set (by the
    test, once `what` has happened)."""
    released = threading.Event()
    read = storage.unfinished_games

    def held(after: tuple[str, str] | None = None,
             limit: int | None = None) -> list[StoredGame]:
        assert released.wait(10), f"{what} waited for the restore's read"
        return read(after, limit)

    monkeypatch.setattr(storage, "unfinished_games", held)
    return released


async def play_one_answer(room: Room) -> None:
    game = room.game
    assert game is not None and game.pending is not None
    decision = game.pending
    seat = decision.player
    choices = make_strategy("big_money", 1).choose(decision, seat_table(game, seat))
    await room.answer(seat, decision.id, list(choices))


async def test_a_restart_restores_every_unfinished_game(storage: Storage) -> None:
    ids = await stored_games(storage)
    again = Lobby(storage, Settings(), Metrics())
    assert await again.restore() == GAMES
    assert sorted(again.rooms) == sorted(ids)
    assert all(again.rooms[game_id].game is not None for game_id in ids)
    await again.close()


async def test_a_game_asked_for_during_the_restore_is_rebuilt_at_once_and_plays(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = await stored_games(storage)
    asked = read_held_until(storage, monkeypatch, "the game asked for")
    again = Lobby(storage, Settings(), Metrics())
    again.expect_restore()  # as the server does before it listens
    restoring = asyncio.ensure_future(again.restore())
    room = await again.find(ids[-1])  # the newest: the restore's last
    assert not restoring.done() and list(again.rooms) == [ids[-1]]  # ahead of its turn
    asked.set()
    before = len(room.answers)
    await play_one_answer(room)
    assert len(room.answers) == before + 1
    stored = storage.load_game(ids[-1])
    assert stored is not None and len(stored.answers) == before + 1
    with pytest.raises(Refusal) as refused:  # one that is not stored: refused, once read
        await again.find("g-000000000000")
    assert refused.value.code == ErrorCode.UNKNOWN_GAME
    assert await restoring == GAMES
    assert sorted(again.rooms) == sorted(ids) and again.rooms[ids[-1]] is room
    await again.close()


async def test_a_restart_reads_its_games_a_page_at_a_time(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """At most a page of stored games is held at once (100,000 at once are gigabytes);
    a game asked for before its page is read is read alone, and its page skips it."""
    ids = await stored_games(storage)
    monkeypatch.setattr(lobby_module, "RESTORE_PAGE_GAMES", 2)
    pages: list[list[str]] = []
    read = storage.unfinished_games

    def paged(after: tuple[str, str] | None = None,
              limit: int | None = None) -> list[StoredGame]:
        assert limit == 2
        found = read(after, limit)
        pages.append([stored.game.id for stored in found])
        return found

    monkeypatch.setattr(storage, "unfinished_games", paged)
    again = Lobby(storage, Settings(), Metrics())
    again.expect_restore()
    restoring = asyncio.ensure_future(again.restore())
    room = await again.find(ids[-1])  # the newest: in the last page
    before = len(room.answers)
    await play_one_answer(room)
    assert await restoring == GAMES
    assert [len(page) for page in pages] == [2, 2, 1, 0]
    assert sorted(game_id for page in pages for game_id in page) == sorted(ids)
    assert sorted(again.rooms) == sorted(ids) and again.rooms[ids[-1]] is room
    assert len(room.answers) == before + 1  # not rebuilt again from its page
    await again.close()


async def test_a_game_started_while_the_restart_reads_is_not_rebuilt_over_itself(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game created and played after the server started is no restart's game: if the
    restore's read comes to it (its row is stored by then), the room playing it stays,
    and is not replaced by a second one rebuilt from its log (two rooms of one game each
    append at their own count, and every answer after is refused: seen under load)."""
    await stored_games(storage)
    started = read_held_until(storage, monkeypatch, "the new game")
    again = Lobby(storage, Settings(), Metrics())
    again.expect_restore()
    restoring = asyncio.ensure_future(again.restore())
    room, _ = await again.create_matched(HOLDERS, 2, rated=False)
    await room.start_if_full()
    await play_one_answer(room)
    started.set()
    assert await restoring == GAMES  # the restart's games, not the new one
    assert again.rooms[room.id] is room
    await play_one_answer(room)  # the log and the room still agree
    stored = storage.load_game(room.id)
    assert stored is not None and len(stored.answers) == len(room.answers) == 2
    await again.close()
