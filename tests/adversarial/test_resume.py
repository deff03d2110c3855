"""Finding 3: a resume (or a running game's replay) costs what it sends, never reads the
database, and is paid for, per connection and per address, before any work is done."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from dominion.protocol import Ack, Answer, Error, Resume, Snapshot, Update
from dominion.server.engine import fan_out
from dominion.server.play.room import Room
from tests.server.wsplay import Player, ServerFactory, Site, ws_server

__all__ = ["ws_server"]


@dataclass
class Running:
    """A game waiting on Ann (seat 0), her token and player, its room and event count."""

    game: str
    token: str
    ann: Player
    room: Room
    latest: int


async def a_running_game(site: Site, answers: int = 16) -> Running:
    """Ann against a bot, `answers` answers in (a game has ~30 each); the game then
    waits on Ann."""
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token, version=2)
    await asyncio.wait_for(ann.play(until=lambda p: p.answered >= answers), 20)
    ann.strategy = None  # Ann stops answering: the game waits on her
    room = site.room(game)
    while room.game is None or room.game.pending is None or room.game.pending.player != 0:
        assert room.state != "finished"
        await asyncio.sleep(0.01)
    return Running(game, token, ann, room, room.game.event_count)


def no_database_reads(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise AssertionError("a resume read the database")
    monkeypatch.setattr(site.app_state().storage, "load_game", refuse)


async def test_repeated_resumes_re_derive_the_game_once_and_read_no_database(
        ws_server: ServerFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    site = await ws_server()
    running = await a_running_game(site)
    game, latest = running.game, running.latest
    no_database_reads(site, monkeypatch)
    watcher = await site.connect(version=2)
    for last_seq in (0, 0, latest // 2, latest - 3, 0):
        assert isinstance(await watcher.request(Resume, game=game, last_seq=last_seq), Ack)
        update = await watcher.push()
        assert isinstance(update, Update) and len(update.events) == latest - last_seq
    # the game's history was re-derived once, by the first resume; the others sent it
    assert site.app_state().lobby.histories.replayed == latest


async def test_a_seat_resuming_from_zero_gets_its_whole_history_as_it_saw_it(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    running = await a_running_game(site)
    game, token, room = running.game, running.token, running.room
    again = await site.connect(version=2)
    reply = await again.request(Resume, game=game, last_seq=0, token=token)
    assert isinstance(reply, Ack) and reply.seat == 0
    update = await again.push()
    assert isinstance(update, Update)
    truth = fan_out(room.events_so_far(), [0])[0]
    assert list(update.events) == [dict(e) for e in truth]
    own_draws = [e for e in update.events if e["kind"] == "drew" and e["player"] == 0]
    assert own_draws and all("cards" in e for e in own_draws)  # her own cards, shown
    assert update.decision is not None and "options" in update.decision


async def test_a_resume_flood_is_refused_before_any_work_and_the_game_goes_on(
        ws_server: ServerFactory) -> None:
    site = await ws_server(work_per_second=50, work_burst=500, resume_cache_events=1)
    running = await a_running_game(site)
    game, ann, room, latest = running.game, running.ann, running.room, running.latest
    assert room.game is not None
    assert 200 < latest * 2 <= 500  # one resume from 0 (replay and send) fits the burst
    histories = site.app_state().lobby.histories
    flooders = [await site.connect(version=2) for _ in range(3)]  # one address
    replies = []
    for _ in range(10):
        for flooder in flooders:
            replies.append(await flooder.request(Resume, game=game, last_seq=0))
    refused = [r for r in replies if isinstance(r, Error)]
    assert all(r.code == "rate_limited" for r in refused)
    served = len(replies) - len(refused)
    assert 1 <= served <= 2  # the burst, and the little that refilled
    # the cache holds nothing (resume_cache_events=1): each served resume replayed it all
    assert histories.replayed == served * latest
    # refused resumes changed nothing: only the served ones subscribed
    assert len(room.subscribers()) == 1 + min(served, len(flooders))
    # the seat's own game goes on
    decision = room.game.pending
    assert decision is not None and decision.player == 0
    reply = await ann.client.request(Answer, game=game, decision=decision.id,
                                     options=[0])
    assert isinstance(reply, Ack)


async def test_a_running_games_replay_is_paid_for_and_reads_no_database(
        ws_server: ServerFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    site = await ws_server(work_per_second=1, work_burst=200)
    running = await a_running_game(site, answers=10)
    game, latest = running.game, running.latest
    # the first replay re-derives and sends the game; a second would send it again
    assert latest * 2 <= 200 < latest * 3
    no_database_reads(site, monkeypatch)
    url = site.url(f"/api/v1/games/{game}/replay")
    async with site.session.get(url) as first:
        assert first.status == 200
        assert len((await first.json())["events"]) == latest
    async with site.session.get(url) as second:
        assert second.status == 429
        assert (await second.json())["error"]["code"] == "rate_limited"


async def test_a_seat_gets_its_history_past_the_window_and_the_burst_a_spectator_does_not(
        ws_server: ServerFactory) -> None:
    site = await ws_server(resume_window=5, work_per_second=1, work_burst=50)
    running = await a_running_game(site)
    game, token, latest = running.game, running.token, running.latest
    watcher = await site.connect(version=2)
    assert isinstance(await watcher.request(Resume, game=game, last_seq=0), Ack)
    assert isinstance(await watcher.push(), Snapshot)  # a spectator: a snapshot says it all
    # the seat's own cards are in no snapshot: it gets every event, though they cost more
    # work than the burst (paid from a full allowance, which then owes the rest)
    seat = await site.connect(version=2)
    assert isinstance(await seat.request(Resume, game=game, last_seq=0, token=token), Ack)
    update = await seat.push()
    assert isinstance(update, Update) and len(update.events) == latest
    again = await seat.request(Resume, game=game, last_seq=0, token=token)
    assert isinstance(again, Error) and again.code == "rate_limited"
