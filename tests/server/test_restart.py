"""A real server killed with SIGKILL mid-game loses nothing: the restarted server rebuilds
every unfinished game from storage, players resume with their tokens, and each finished
game is exactly the game its stored set-up, seed and answers replay to."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dominion.bots import NoTable, make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import (
    Ack,
    GameEvent,
    GameOver,
    Join,
    PendingDecision,
    Resume,
    Snapshot,
)
from dominion.protocol import Answer as AnswerMessage
from dominion.server.engine import Answer, Setup, replay, visible_event
from dominion.server.play.seat_tokens import hash_token, new_token
from dominion.server.storage import GameRecord, GameState, SeatRecord, Storage
from tests.eventually import eventually

from .test_process import start_server
from .wsclient import TestClient

GAMES = 3
ANSWERS_BEFORE_CRASH = 25


class Player:
    """One seat played over the network by a seeded random strategy."""

    def __init__(self, game: str, token: str, seed: int) -> None:
        self.game, self.token = game, token
        self.strategy = make_strategy("random", random.Random(seed))
        self.client: TestClient | None = None
        self.seat: int | None = None
        self.events: dict[int, dict[str, Any]] = {}
        self.acked: list[int] = []
        self.decision: dict[str, Any] | None = None
        self.over = False

    def take(self, message: object) -> None:
        if isinstance(message, GameEvent):
            self.events[message.seq] = message.event
        elif isinstance(message, PendingDecision):
            self.decision = message.decision
        elif isinstance(message, Snapshot):
            self.decision = message.view["decision"]
        elif isinstance(message, GameOver):
            self.over = True

    async def connect(self, session: aiohttp.ClientSession, url: str, resume: bool) -> None:
        self.client = await TestClient.connect(session, url + "/api/v1/ws")
        if resume:
            ack = await self.client.request(Resume, game=self.game, token=self.token,
                                            last_seq=max(self.events, default=0))
        else:
            ack = await self.client.request(Join, game=self.game, token=self.token)
        assert isinstance(ack, Ack)
        self.seat = ack.seat

    async def run(self) -> None:
        """Answer every decision for our seat until the game ends or the server goes away."""
        client = self.client
        assert client is not None
        while not self.over:
            decision = self.decision
            if decision is not None and "options" in decision and decision["player"] == self.seat:
                self.decision = None
                wire = WireDecision.from_map(decision)
                choice = self.strategy.choose(wire, NoTable())
                reply = await client.request(AnswerMessage, game=self.game, decision=wire.id,
                                             options=choice)
                assert isinstance(reply, Ack), reply
                self.acked.append(wire.id)
                continue
            message = await client.receive_push()
            if message is None:
                return  # the server went away
            self.take(message)


async def play_until(players: list[Player], answers: int | None) -> None:
    """Run every player until `answers` answers were acked in all (or every game ended)."""
    tasks = [asyncio.ensure_future(p.run()) for p in players]
    try:
        while not all(task.done() for task in tasks):
            if answers is not None and sum(len(p.acked) for p in players) >= answers:
                return
            await asyncio.sleep(0.01)
        for task in tasks:
            task.result()
    finally:
        if answers is not None:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.system  # kills a server under load
async def test_sigkill_loses_no_accepted_answer(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db)
    players: list[Player] = []
    try:
        async with aiohttp.ClientSession() as session:
            for g in range(GAMES):
                created = await (await session.post(f"{url}/api/v1/games", json={
                    "name": f"A{g}", "seats": 2, "kingdom": "First Game"})).json()
                game = created["game"]["id"]
                joined = await (await session.post(f"{url}/api/v1/games/{game}/join",
                                                   json={"name": f"B{g}"})).json()
                players += [Player(game, created["token"], 2 * g),
                            Player(game, joined["token"], 2 * g + 1)]
            for player in players:
                await player.connect(session, url, resume=False)
            await play_until(players, ANSWERS_BEFORE_CRASH * GAMES)
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            for player in players:
                assert player.client is not None
                await player.client.close()

            process, url = start_server(db)
            for player in players:
                player.decision = None
                await player.connect(session, url, resume=True)
            await play_until(players, None)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(15)

    storage = Storage.open(db)
    try:
        for game_id in {p.game for p in players}:
            stored = storage.load_game(game_id)
            assert stored is not None and stored.game.state == "finished"
            assert stored.game.setup is not None and stored.game.seed is not None
            game = replay(Setup.from_dict(stored.game.setup), stored.game.seed, stored.answers)
            assert game.over
            stored_decisions = {a.decision for a in stored.answers if isinstance(a, Answer)}
            for player in (p for p in players if p.game == game_id):
                assert set(player.acked) <= stored_decisions, "an acked answer was lost"
                assert player.seat is not None
                for seq, seen in player.events.items():
                    assert seen == visible_event(game.events[seq - 1], player.seat)
    finally:
        await storage.close()


RESTORED_GAMES = 300


async def store_running_games(db: Path, count: int) -> list[tuple[str, list[str]]]:
    """`count` started two-seat games, as a stopped server leaves them; each game's id and
    its seats' tokens, oldest first."""
    storage = Storage.open(db, synchronous="NORMAL")
    await storage.start()
    games = []
    try:
        for index in range(count):
            game_id, tokens = f"g-{index:012x}", [new_token(), new_token()]
            created = f"2026-01-01T00:00:00.{index:06d}Z"
            setup = Setup.create(2, edition=2, kingdom="First Game")
            await storage.create_game(
                GameRecord(id=game_id, created_at=created, state=GameState.OPEN, edition=2,
                           seats=2, kingdom=tuple(setup.kingdom)),
                [SeatRecord(seat, f"P{seat}", hash_token(token), joined_at=created)
                 for seat, token in enumerate(tokens)])
            await storage.start_game(game_id, started_at=created, seed=index,
                                     commitment="c", setup=setup.to_dict())
            games.append((game_id, tokens))
    finally:
        await storage.close()
    return games


@pytest.mark.integration  # a real server
async def test_a_player_who_comes_back_while_games_are_restored_waits_and_plays(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    games = await store_running_games(db, RESTORED_GAMES)
    process, url = start_server(db)  # returns once it listens: the restore runs on
    try:
        async with aiohttp.ClientSession() as session:
            newest, tokens = games[-1]  # restored last
            players = [Player(newest, token, seat) for seat, token in enumerate(tokens)]
            for player in players:  # each waits for the game; never unknown_game
                await player.connect(session, url, resume=True)
            await play_until(players, 4)
            for player in players:
                assert player.client is not None
                await player.client.close()

            async def all_back() -> bool:  # every restored game counts as live
                metrics = await (await session.get(f"{url}/metrics")).text()
                return f"dominion_live_games {RESTORED_GAMES}.0" in metrics

            await eventually(all_back, seconds=120)
    finally:
        process.send_signal(signal.SIGTERM)
        output = (await asyncio.to_thread(process.communicate, timeout=15))[0].decode()
    assert f'"restored_games": {RESTORED_GAMES}' in output  # said once all were back
