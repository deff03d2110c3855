"""The client speaks protocol version 2 (one `update` per change, carrying the view):
pushes give their numbered events, and a game kept from pushes alone, through a resume
with nothing missed, agrees with a fresh snapshot of it. The server still speaks version
1 to older clients (`event` frames, then a `decision`), checked here through a raw
socket, since the client no longer offers it."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import aiohttp

from dominion.bots import make_strategy
from dominion.bots.seat import SeatTable
from dominion.bots.strategies import NoTable
from dominion.bots.wire import WireDecision
from dominion.clients.lobby import Lobby
from dominion.clients.net import Client, events_of
from dominion.clients.state import GameState
from dominion.protocol import (
    Answer,
    ChatLine,
    GameEvent,
    Join,
    PendingDecision,
    ServerMessage,
    Snapshot,
    Update,
)
from dominion.server.play.bots import CARD_FACTS
from tests.server.wsclient import TestClient

from .serverproc import Proxy, server_url

__all__ = ["server_url"]


# -- without a server -------------------------------------------------------------------


def test_events_of_numbers_the_events_of_an_update() -> None:
    first, second = {"kind": "drew", "player": 0, "count": 5}, {"kind": "phase"}
    update = Update(game="g", seq=7, events=(first, second), decision=None, view={})
    assert list(events_of(update)) == [(6, first), (7, second)]
    assert list(events_of(Update(game="g", seq=7, events=(), decision=None, view={}))) == []
    assert list(events_of(ChatLine(game="g", sender="Ann", text="hi"))) == []
    assert list(events_of(Snapshot(game="g", seq=3, view={}))) == []


# -- against a real server ----------------------------------------------------------------


def numbers(state: GameState) -> dict[str, Any]:
    """What a snapshot says and a client keeps from the pushes."""
    mine = state.players[state.seat] if state.seat is not None else None
    return {
        "seq": state.seq, "decision": state.decision, "supply": state.supply,
        "trash": state.trash, "turn": (state.turn_number, state.turn_player, state.phase,
                                       state.player_turn),
        "coins": state.coins, "actions": state.actions, "buys": state.buys,
        "players": [(p.hand_size, p.in_play, p.discard_top, p.turns, p.owned, p.points)
                    for p in state.players],
        "hand": sorted(mine.hand or ()) if mine is not None else None,
    }


async def answer_until(client: Client, state: GameState, answers: int,
                       pushes: list[ServerMessage]) -> dict[str, Any]:
    """Answer `answers` of our decisions (Big Money); return the next one, left pending
    so that the game waits. Every push read is kept in `pushes`."""
    strategy = make_strategy("big_money", random.Random(0))
    answered: set[int] = set()
    while True:
        assert not state.over, "the game ended too soon"
        decision = state.my_decision()
        if decision is not None and decision["id"] not in answered:
            if len(answered) == answers:
                return decision
            assert state.view is not None
            choice = strategy.choose(WireDecision.from_map(decision),
                                     SeatTable.from_view(state.view, CARD_FACTS))
            await client.answer(state.game, decision["id"], choice)
            answered.add(decision["id"])
            continue
        pushes.append(await client.next_push(timeout=20))


async def fresh_snapshot(client: Client, state: GameState) -> None:
    """Wait for the snapshot that follows a join or a watch."""
    while not state.snapshots:
        await client.next_push(timeout=20)


async def test_a_game_kept_from_pushes_equals_a_fresh_snapshot(server_url: str) -> None:
    proxy = Proxy(int(server_url.rsplit(":", 1)[1]))
    port = await proxy.start()
    async with aiohttp.ClientSession() as session:
        lobby = Lobby(server_url, session)
        created = await lobby.create("Ann", 2, kingdom="First Game", bots={1: "big_money"})
        game, token = created["game"]["id"], created["token"]
        seat = Client(f"http://127.0.0.1:{port}", session=session)
        spectator = Client(server_url, session=session)
        await seat.connect()
        await spectator.connect()
        assert seat.welcome is not None and seat.welcome.version == 2
        watched = await spectator.watch(game)
        state = await seat.join(game, token)
        pushes: list[ServerMessage] = []
        decision = await asyncio.wait_for(answer_until(seat, state, 12, pushes), 60)
        kinds = {type(push) for push in pushes}
        assert Update in kinds and not kinds & {GameEvent, PendingDecision}
        assert any(len(push.events) > 1 for push in pushes if isinstance(push, Update))
        assert state.snapshots == 1  # everything since came as changes

        # The game waits for us; a dropped connection resumes with nothing missed.
        with contextlib.suppress(TimeoutError):
            while True:  # read what is queued: the next push then comes from the resume
                await seat.next_push(timeout=0.5)
        proxy.cut()
        resumed = await seat.next_push(timeout=20)
        assert seat.reconnects == 1
        assert isinstance(resumed, Update) and resumed.events == ()
        assert resumed.seq == state.seq and resumed.decision == decision
        assert state.my_decision() == decision and state.snapshots == 1

        # The spectator catches up with the same change.
        while watched.seq < state.seq or watched.decision is None \
                or watched.decision["id"] != decision["id"]:
            await spectator.next_push(timeout=20)
        assert watched.snapshots == 1 and "options" not in watched.decision

        # Fresh snapshots (taking the seat again replaces the first connection).
        async with Client(server_url, session=session) as again, \
                Client(server_url, session=session) as looker:
            assert again.welcome is not None and again.welcome.version == 2
            seat_view = await again.join(game, token)
            spectator_view = await looker.watch(game)
            await fresh_snapshot(again, seat_view)
            await fresh_snapshot(looker, spectator_view)
            assert numbers(state) == numbers(seat_view)
            assert numbers(watched) == numbers(spectator_view)
            assert state.seq > 0 and numbers(state)["hand"]
        await seat.close()
        await spectator.close()
    await proxy.stop()


async def test_the_server_still_speaks_version_1_to_older_clients(server_url: str) -> None:
    """A seat on version 1 gets a snapshot, then `event` frames numbered without gaps and
    a `decision` frame per change, and never an `update`."""
    async with aiohttp.ClientSession() as session:
        created = await Lobby(server_url, session).create(
            "Ann", 2, kingdom="First Game", bots={1: "big_money"})
        game, token = created["game"]["id"], created["token"]
        old = await TestClient.connect(session, server_url.replace("http", "ws", 1)
                                       + "/api/v1/ws", version=1)
        await old.request(Join, game=game, token=token)
        snapshot = await old.push()
        assert isinstance(snapshot, Snapshot)
        seq, decision = snapshot.seq, snapshot.view["decision"]
        strategy = make_strategy("random", random.Random(0))
        answered = 0
        while answered < 6:
            if decision is not None and decision["player"] == 0 and "options" in decision:
                choice = strategy.choose(WireDecision.from_map(decision), NoTable())
                await old.request(Answer, game=game, decision=decision["id"], options=choice)
                answered, decision = answered + 1, None
                continue
            frame = await old.push(timeout=20)
            assert not isinstance(frame, Update)
            if isinstance(frame, GameEvent):
                assert frame.seq == seq + 1  # numbered without gaps
                seq = frame.seq
            elif isinstance(frame, PendingDecision):
                decision = frame.decision
        assert seq > snapshot.seq
        await old.ws.close()
