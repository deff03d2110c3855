"""Complete games over real WebSockets: scripted network clients, bots, spectators,
reconnecting, resigning, absent players and chat."""

from __future__ import annotations

import asyncio
import random

import pytest

from dominion.protocol import (
    Ack,
    Answer,
    Chat,
    ChatLine,
    Error,
    GameEvent,
    GameOver,
    Join,
    PendingDecision,
    Resign,
    Resume,
    Snapshot,
    Update,
    codec,
    encode_server,
)
from dominion.server.play.room import Room
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

from .wsplay import Player, ServerFactory, Site, expect_error, raw_request, ws_server

__all__ = ["ws_server"]


async def wait_for_decision(site: Site, game: str, seat: int) -> None:
    """Let the bots play until `seat` must decide."""
    room = site.room(game)
    for _ in range(200):
        if room.game is not None and room.game.pending is not None \
                and room.game.pending.player == seat:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"seat {seat} never had to decide")


def check_complete(site: Site, game: str, players: list[Player],
                   from_start: bool = True) -> None:
    """Everyone saw every event number once, in order, and the true result."""
    room = site.room(game)
    assert room.game is not None and room.game.result is not None
    total = room.game.event_count
    for player in players:
        assert player.seq == total, (player.seat, player.seq, total)
        first = player.frames[0]
        assert isinstance(first, Snapshot)
        assert player.seqs == list(range(first.seq + 1, total + 1))
        assert player.result == room.game.result.end_dict()
        assert isinstance(player.frames[-1], GameOver)
        if from_start:
            assert first.seq < 20  # joined near the start: the events are the game
        for frame in player.frames:
            if isinstance(frame, PendingDecision | Update) and frame.decision is not None:
                assert ("options" in frame.decision) == (frame.decision["player"]
                                                         == player.seat)
        versions = {type(f) for f in player.frames} & {GameEvent, PendingDecision, Update}
        assert versions == ({Update} if player.client.welcome.version == 2
                            else {GameEvent, PendingDecision})


@pytest.mark.parametrize("version", [1, 2])
async def test_two_seats_client_against_bot(ws_server: ServerFactory, version: int) -> None:
    site = await ws_server()
    site.version = version
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token, "big_money")
    result = await asyncio.wait_for(ann.play(), 30)
    assert result is not None and set(result) >= {"scores", "winners", "turns", "decks"}
    assert ann.answered > 10
    check_complete(site, game, [ann])
    await eventually(lambda: site.room(game).state == "finished")


async def test_six_seats_clients_bots_and_spectator(ws_server: ServerFactory) -> None:
    site = await ws_server()
    game, token = await site.create(seats=6, bots={2: "smithy_big_money", 4: "random"})
    rng = random.Random(6)
    # connections of both protocol versions in one game
    players = [await Player.join(site, game, token, "big_money", rng, version=2)]
    spectator = await Player.watch(site, game, version=1)  # before the game starts
    for name, strategy, version in (("Bob", "random", 1), ("Cid", "smithy_big_money", 2),
                                    ("Dee", "big_money", 1)):
        _, seat_token = await site.join(game, name)
        players.append(await Player.join(site, game, seat_token, strategy, rng, version))
    assert sorted(p.seat for p in players) == [0, 1, 3, 5]
    late = await Player.watch(site, game, version=2)  # after it started: a snapshot first
    results = await asyncio.wait_for(
        asyncio.gather(*(p.play() for p in [*players, spectator, late])), 50)
    assert all(r == results[0] for r in results)
    check_complete(site, game, [players[0], spectator])
    # the last seat filled starts the game over REST: until these connect and get their
    # snapshot, the others (people and bots) may have played a while
    check_complete(site, game, [*players[1:], late], from_start=False)
    for watcher in (spectator, late):
        for frame in watcher.frames:
            if isinstance(frame, PendingDecision | Update) and frame.decision is not None:
                assert "options" not in frame.decision
            if isinstance(frame, Snapshot):
                assert all("hand" not in p for p in frame.view["players"])
    assert all(p.answered > 0 for p in players)


async def dropped_mid_game(site: Site, answers: int = 12) -> tuple[str, Player, Room]:
    """Ann plays `answers` decisions against a bot; then her connection drops with events
    unread. Returns her token, her player (`ann.game` is the game) and the room, once the
    game waits on her seat again."""
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token)
    await asyncio.wait_for(ann.play(until=lambda p: p.answered >= answers), 20)
    await ann.client.close()
    await wait_for_decision(site, game, 0)
    room = site.room(game)
    assert room.game is not None and room.game.event_count > ann.seq
    return token, ann, room


async def test_resume_mid_game_gets_missed_events_then_decision(
        ws_server: ServerFactory) -> None:
    site = await ws_server()
    token, ann, room = await dropped_mid_game(site)
    assert room.game is not None
    held = ann.seq
    await ann.resume(site, token)
    first = await ann.step()
    assert isinstance(first, GameEvent) and first.seq == held + 1
    while ann.seq < room.game.event_count:
        assert isinstance(await ann.step(), GameEvent)
    decision = await ann.step()
    assert isinstance(decision, PendingDecision) and "options" in decision.decision
    await asyncio.wait_for(ann.play(), 30)
    assert ann.seq == room.game.event_count
    assert ann.result == room.game.result.end_dict()


async def test_resume_mid_game_in_version_2_gets_one_update(ws_server: ServerFactory) -> None:
    site = await ws_server()
    site.version = 2
    token, ann, room = await dropped_mid_game(site)
    assert room.game is not None
    held, latest = ann.seq, room.game.event_count
    strategy, ann.strategy = ann.strategy, None  # hold the answer: the game waits on it
    await ann.resume(site, token)
    update = await ann.step()  # the missed events and the decision, in one frame
    assert isinstance(update, Update) and update.seq == latest
    assert len(update.events) == update.seq - held > 0
    assert update.decision is not None and "options" in update.decision
    assert ann.seqs[-len(update.events):] == list(range(held + 1, update.seq + 1))
    # nothing missed: an update without events, with the decision again
    await ann.resume(site, token)
    again = await ann.step()
    assert isinstance(again, Update) and again.events == () and again.seq == update.seq
    assert again.decision == update.decision
    ann.strategy = strategy
    await ann.answer(again.decision)
    await asyncio.wait_for(ann.play(), 30)
    assert ann.seq == room.game.event_count
    assert ann.result == room.game.result.end_dict()
    assert isinstance(ann.frames[-1], GameOver)
    assert isinstance(ann.frames[-2], Update) and ann.frames[-2].decision is None


async def test_a_resume_too_large_for_one_update_gets_a_snapshot(
        ws_server: ServerFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    site = await ws_server()
    site.version = 2
    token, ann, room = await dropped_mid_game(site)
    assert room.game is not None
    # a frame limit the snapshot fits and every event since the start does not
    monkeypatch.setattr(codec, "MAX_SERVER_FRAME_BYTES", 2500)
    assert len(room.snapshot_frame(0)) < 2500
    ann.client = await site.connect()
    reply = await ann.client.request(Resume, game=room.id, last_seq=0, token=token)
    assert isinstance(reply, Ack) and reply.seat == 0
    snapshot = await ann.client.push()
    assert isinstance(snapshot, Snapshot) and snapshot.seq == room.game.event_count
    monkeypatch.undo()
    reply = await ann.client.request(Resume, game=room.id, last_seq=0, token=token)
    update = await ann.client.push()
    assert isinstance(update, Update) and len(update.events) == room.game.event_count
    assert len(encode_server(update)) > 2500


async def test_resume_with_unknown_seq_gets_a_snapshot(ws_server: ServerFactory) -> None:
    site = await ws_server()
    token, ann, room = await dropped_mid_game(site, answers=5)
    game = room.id
    ann.client = await site.connect()
    reply = await ann.client.request(Resume, game=game, last_seq=1_000_000, token=token)
    assert isinstance(reply, Ack) and reply.seat == 0
    assert room.game is not None
    expected = room.game.event_count
    snapshot = await ann.step()  # answers the decision the snapshot carries
    assert isinstance(snapshot, Snapshot)
    assert snapshot.seq == expected
    assert snapshot.view["decision"]["player"] == 0 and "options" in snapshot.view["decision"]
    # a spectator's resume (no token) from 0 gets every event, without options
    watcher = Player(await site.connect(), game, None)
    reply = await watcher.client.request(Resume, game=game, last_seq=0)
    assert isinstance(reply, Ack) and reply.seat is None
    await asyncio.wait_for(asyncio.gather(ann.play(), watcher.play()), 30)
    assert watcher.seqs[0] == 1 and watcher.seq == ann.seq


async def test_second_connection_on_a_seat_replaces_the_first(ws_server: ServerFactory) -> None:
    site = await ws_server()
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token)
    await asyncio.wait_for(ann.play(until=lambda p: p.answered >= 3), 20)
    old = ann.client
    again = await site.connect()
    reply = await again.request(Join, game=game, token=token)
    assert isinstance(reply, Ack) and reply.seat == 0
    assert await old.close_code() == 4006
    ann.client, ann.frames, ann.seqs = again, [], []
    await asyncio.wait_for(ann.play(), 30)
    check_complete(site, game, [ann], from_start=False)


GRACE = 10.0
"""A seat's grace on a virtual clock: within the heartbeat and the idle timeout, so that
moving the clock past it leaves the connections that sent nothing open."""


async def gone_past_her_grace(site: Site, game: str, clock: VirtualClock) -> None:
    """Once the server saw seat 0's connection close, the clock past its grace."""
    seat = site.room(game).seats[0]
    await eventually(lambda: seat.connection is None)
    clock.advance(GRACE)


async def test_absent_player_is_replaced_by_a_bot(ws_server: ServerFactory) -> None:
    clock = VirtualClock()
    site = await ws_server(clock=clock, seat_grace_seconds=GRACE, absent_seat="bot")
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token)
    spectator = await Player.watch(site, game)
    await asyncio.wait_for(ann.play(until=lambda p: p.answered >= 4), 20)
    await ann.client.close()
    await gone_past_her_grace(site, game, clock)
    result = await asyncio.wait_for(spectator.play(), 30)
    assert result is not None and not result.get("abandoned")
    assert site.room(game).state == "finished"
    assert site.room(game).seats[0].played_by == "big_money"


async def test_returning_player_gets_the_seat_back_from_the_bot(
        ws_server: ServerFactory) -> None:
    clock = VirtualClock()
    site = await ws_server(clock=clock, seat_grace_seconds=GRACE, absent_seat="bot",
                           bot_delay_seconds=0.01)
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token)
    async with clock.ticking(0.01):  # the bot's pause between its answers
        await asyncio.wait_for(ann.play(until=lambda p: p.answered >= 2), 20)
    await ann.client.close()
    await gone_past_her_grace(site, game, clock)
    room = site.room(game)
    await eventually(lambda: room.seats[0].played_by == "big_money")  # the bot takes over
    await ann.resume(site, token)
    assert room.seats[0].played_by is None  # docs/SERVER.md: the seat is theirs again
    before = ann.answered
    ann.frames = []
    ann.seqs = []
    ann.raced = True
    async with clock.ticking(0.01):  # the bot's pause between its answers
        await asyncio.wait_for(ann.play(), 30)
    assert ann.answered > before


@pytest.mark.parametrize("version", [1, 2])
async def test_absent_player_abandons_the_game(ws_server: ServerFactory, version: int) -> None:
    clock = VirtualClock()
    site = await ws_server(clock=clock, seat_grace_seconds=GRACE, absent_seat="abandon")
    site.version = version
    game, token = await site.create(seats=3, bots={1: "big_money", 2: "random"})
    ann = await Player.join(site, game, token)
    spectator = await Player.watch(site, game)
    await asyncio.wait_for(ann.play(until=lambda p: p.answered >= 4), 20)
    await ann.client.close()
    await gone_past_her_grace(site, game, clock)
    result = await asyncio.wait_for(spectator.play(), 10)
    assert result is not None and result["abandoned"] is True and result["winners"] == []
    assert isinstance(spectator.frames[-1], GameOver)
    # no last event: game_over comes on its own (docs/PROTOCOL.md, game_over)
    before = spectator.frames[-2]
    assert isinstance(before, PendingDecision if version == 1 else Update)
    assert before.decision is not None
    assert site.room(game).state == "abandoned"


async def test_resign_two_players_ends_the_game(ws_server: ServerFactory) -> None:
    site = await ws_server()
    game, token = await site.create(seats=2, bots={1: "big_money"})
    ann = await Player.join(site, game, token)
    spectator = await Player.watch(site, game)
    await asyncio.wait_for(ann.play(until=lambda p: p.answered >= 6), 20)
    reply = await ann.client.request(Resign, game=game)
    assert isinstance(reply, Ack)
    ann.strategy = None  # a decision pushed before the resignation stays unanswered
    for player in (ann, spectator):
        result = await asyncio.wait_for(player.play(), 10)
        assert result is not None and result["winners"] == [1] and result["resigned"] == [0]
    resigned = [f for f in spectator.frames if isinstance(f, GameEvent)
                and f.event["kind"] == "resigned"]
    assert [f.event["player"] for f in resigned] == [0]
    await expect_error(ann.client, Resign, "game_over", game=game)
    assert site.room(game).state == "finished"


async def test_resign_three_players_a_bot_plays_on(ws_server: ServerFactory) -> None:
    site = await ws_server(bot_delay_seconds=0.002)
    game, token = await site.create(seats=3, bots={1: "big_money", 2: "big_money"})
    ann = await Player.join(site, game, token)
    await asyncio.wait_for(ann.play(until=lambda p: p.answered >= 6), 20)
    reply = await ann.client.request(Resign, game=game)
    assert isinstance(reply, Ack)
    await expect_error(ann.client, Resign, "already_resigned", game=game)
    ann.strategy = None  # the bot answers for the seat now
    room = site.room(game)
    while True:
        message = await asyncio.wait_for(ann.step(), 10)
        if isinstance(message, PendingDecision) and message.decision["player"] == 0:
            break
    # the resigned player may no longer answer for the seat (the bot does)
    await expect_error(ann.client, Answer, "already_resigned", game=game,
                       decision=message.decision["id"], options=[0])
    result = await asyncio.wait_for(ann.play(), 30)
    assert result is not None and result["resigned"] == [0] and 0 not in result["winners"]
    assert room.game is not None and room.game.turn.number > 3


async def test_a_player_who_resigned_may_leave_without_ending_the_game(
        ws_server: ServerFactory) -> None:
    """A resigned seat is a bot's: its player leaving starts no grace period, so even
    `absent_seat = abandon` does not end the game. (The grace is long enough for Ann's
    first join on a busy machine: the game starts full, before she connects.)"""
    site = await ws_server(seat_grace_seconds=30, absent_seat="abandon",
                           bot_delay_seconds=0.002)
    game, token = await site.create(seats=3, bots={1: "big_money", 2: "big_money"})
    ann = await Player.join(site, game, token)
    spectator = await Player.watch(site, game)
    await asyncio.wait_for(ann.play(until=lambda p: p.answered >= 4), 20)
    assert isinstance(await ann.client.request(Resign, game=game), Ack)
    await ann.client.close()
    seat = site.room(game).seats[0]
    await eventually(lambda: seat.connection is None)
    assert seat.absent_timer is None, "her leaving started a grace period"
    result = await asyncio.wait_for(spectator.play(), 30)
    assert result is not None and not result.get("abandoned") and result["resigned"] == [0]
    assert site.room(game).state == "finished"


async def test_chat_reaches_everyone_and_too_long_is_refused(ws_server: ServerFactory) -> None:
    site = await ws_server(max_chat_length=20)
    game, token = await site.create(seats=3, bots={2: "big_money"})
    ann = await Player.join(site, game, token)
    _, bob_token = await site.join(game, "Bob")
    bob = await Player.join(site, game, bob_token)
    spectator = await Player.watch(site, game)
    reply = await ann.client.request(Chat, game=game, text="good luck")
    assert isinstance(reply, Ack)
    for who in (ann, bob, spectator):
        line = None
        while line is None:  # game traffic may come first
            message = await who.client.push(5)
            if isinstance(message, ChatLine):
                line = message
        assert line.game == game and line.sender == "Ann" and line.text == "good luck"
    await expect_error(ann.client, Chat, "too_long", game=game, text="x" * 21)
    # beyond the protocol's own limit: the decoder refuses it, with the request's id
    reply = await raw_request(bob.client, {"type": "chat", "id": 77, "game": game,
                                           "text": "x" * 600})
    assert isinstance(reply, Error) and reply.code == "too_long" and reply.id == 77
    await expect_error(spectator.client, Chat, "not_in_game", game="g-other", text="hi")
    # a spectator chats signed in (tests/adversarial/test_moderation.py), not as a guest
    await expect_error(spectator.client, Chat, "not_signed_in", game=game, text="hello")
    # stored once acked, for the game's replay; only the accepted lines
    stored = site.app_state().storage.chat(game)
    assert [(line["seat"], line["name"], line["text"]) for line in stored] == [
        (0, "Ann", "good luck")]
