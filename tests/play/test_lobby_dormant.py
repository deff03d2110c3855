"""A restart brings a game nothing needs at once back dormant (dormant.py): its room, seats
and answers, counted live and listed, its engine replayed when first needed, with what a
restart that replays it at once would do: it plays on, it ends (its log shows it over),
or it is let go (its log does not replay) and stays stored."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from dominion.protocol import ErrorCode
from dominion.server.engine import Answer, Resignation
from dominion.server.metrics import Metrics
from dominion.server.play.dormant import may_stay_dormant
from dominion.server.play.lobby import Lobby
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings
from dominion.server.storage import GameState, Storage
from tests.eventually import eventually

from .test_lobby_restore import play_one_answer

GAMES = 3


async def stored_games(storage: Storage) -> list[str]:
    """GAMES running games without clocks or bots, left behind by a server that stopped;
    their ids, oldest first."""
    lobby = Lobby(storage, Settings(), Metrics())
    ids = []
    for _ in range(GAMES):
        room, _ = await lobby.create({"name": "Ada", "seats": 2}, "127.0.0.1")
        await lobby.join(room.id, "Bob")
        assert room.state == GameState.PLAYING
        ids.append(room.id)
    await lobby.close()
    return ids


def live_games(metrics: Metrics) -> float:
    return float(metrics.live_games._value.get())


async def test_a_restored_game_nothing_needs_is_dormant_until_found_then_plays(
        storage: Storage) -> None:
    ids = await stored_games(storage)
    metrics = Metrics()
    again = Lobby(storage, Settings(), metrics)
    assert await again.restore() == GAMES
    assert all(again.rooms[game_id].dormant for game_id in ids)
    assert live_games(metrics) == GAMES  # a dormant game is a live game
    room = await again.find(ids[0])
    assert not room.dormant and room.game is not None and room.game.pending is not None
    assert all(again.rooms[game_id].dormant for game_id in ids[1:])
    await play_one_answer(room)
    stored = storage.load_game(ids[0])
    assert stored is not None and len(stored.answers) == len(room.answers) == 1
    await again.close()


async def test_a_dormant_game_is_listed_with_its_turn(storage: Storage) -> None:
    ids = await stored_games(storage)
    first = Lobby(storage, Settings(), Metrics())
    await first.restore()
    await play_one_answer(await first.find(ids[0]))
    await first.close()
    again = Lobby(storage, Settings(), Metrics())
    await again.restore()
    assert again.rooms[ids[0]].dormant
    listed = again.summary(ids[0])
    assert listed["state"] == GameState.PLAYING
    game = again.rooms[ids[0]].game  # replayed for the listing's turn
    assert game is not None and listed["turn"] == game.turn.number
    await again.close()


async def test_a_dormant_game_whose_log_is_over_ends_when_found(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server stopped between a game's last answer and storing its end: the game ends
    when it is first needed, before anyone is given it (as an eager restore ends it)."""
    first = Lobby(storage, Settings(), Metrics())
    room, _ = await first.create({"name": "Ada", "seats": 2}, "127.0.0.1")
    await first.join(room.id, "Bob")
    finish = storage.finish_game

    async def never_stored(*args: object, **kwargs: object) -> None:
        """The server stops before the end is stored."""

    monkeypatch.setattr(storage, "finish_game", never_stored)
    while room.state == GameState.PLAYING:
        await play_one_answer(room)
    await first.close()
    monkeypatch.setattr(storage, "finish_game", finish)
    metrics = Metrics()
    again = Lobby(storage, Settings(), metrics)
    assert await again.restore() == 1
    assert again.rooms[room.id].dormant and live_games(metrics) == 1
    found = await again.find(room.id)
    assert found.state == GameState.FINISHED and live_games(metrics) == 0
    stored = storage.load_game(room.id)
    assert stored is not None and stored.game.state == GameState.FINISHED
    assert stored.game.result == room.record.result
    await again.close()


async def test_a_dormant_game_whose_log_does_not_replay_is_let_go_and_stays_stored(
        storage: Storage, caplog: pytest.LogCaptureFixture) -> None:
    ids = await stored_games(storage)
    await storage.append_answers(ids[0], 0, [Answer(0, 999, (0,))], "t")  # damaged
    metrics = Metrics()
    again = Lobby(storage, Settings(), metrics)
    assert await again.restore() == GAMES
    assert again.rooms[ids[0]].dormant and live_games(metrics) == GAMES
    with caplog.at_level(logging.ERROR), pytest.raises(Refusal) as refused:
        await again.find(ids[0])
    assert refused.value.code == ErrorCode.UNKNOWN_GAME
    assert [record.game for record in caplog.records  # type: ignore[attr-defined]
            if record.levelno >= logging.ERROR] == [ids[0]]
    assert ids[0] not in again.rooms and live_games(metrics) == GAMES - 1
    assert again.summary(ids[0])["state"] == GameState.PLAYING  # as stored
    kept = storage.load_game(ids[0])
    assert kept is not None and kept.game.state == GameState.PLAYING and len(kept.answers) == 1
    assert (await again.find(ids[1])).game is not None  # the others play on
    await again.close()


async def test_a_grace_timer_that_finds_a_dormant_games_log_broken_decides_nothing(
        storage: Storage, caplog: pytest.LogCaptureFixture) -> None:
    """Its players stayed away: the game is let go as when found, and no bot's takeover
    of a seat is stored for a game that cannot be played."""
    ids = await stored_games(storage)
    await storage.append_answers(ids[0], 0, [Answer(0, 999, (0,))], "t")  # damaged
    again = Lobby(storage, Settings(seat_grace_seconds=0.01), Metrics())
    with caplog.at_level(logging.ERROR):
        await again.restore()
        await eventually(lambda: ids[0] not in again.rooms)
        await eventually(lambda: all(not again.rooms[game_id].dormant for game_id in ids[1:]))
    kept = storage.load_game(ids[0])
    assert kept is not None and kept.game.state == GameState.PLAYING
    assert all(seat.taken_over_at is None for seat in kept.seats)
    assert [record.game for record in caplog.records  # type: ignore[attr-defined]
            if record.levelno >= logging.ERROR] == [ids[0]]
    await again.close()


async def test_a_dormant_game_replayed_for_a_listing_that_does_not_replay_is_listed_as_stored(
        storage: Storage) -> None:
    ids = await stored_games(storage)
    await storage.append_answers(ids[0], 0, [Answer(0, 999, (0,))], "t")
    again = Lobby(storage, Settings(), Metrics())
    await again.restore()
    listed, _ = again.listing({})
    assert {summary["id"] for summary in listed} == set(ids)
    assert ids[0] not in again.rooms
    await again.close()


async def test_only_a_game_that_needs_nothing_at_once_may_stay_dormant(
        storage: Storage) -> None:
    ids = await stored_games(storage)
    stored = storage.load_game(ids[0])
    assert stored is not None and may_stay_dormant(stored)
    bot = replace(stored, seats=(stored.seats[0], replace(stored.seats[1], bot="big_money")))
    clocked = replace(stored, game=replace(stored.game, options={
        "time_control": {"initial_seconds": 300, "increment_seconds": 5}}))
    resigned = replace(stored, answers=(Resignation(1),))
    still_open = replace(stored, game=replace(stored.game, state=GameState.OPEN))
    for eager in (bot, clocked, resigned, still_open):
        assert not may_stay_dormant(eager)
