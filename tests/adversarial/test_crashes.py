"""SIGKILL under load at every write boundary of an answer and of a game's end (before,
during and after its COMMIT): after a restart, no answer a player was told was accepted
is lost, and every game ends."""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from dominion.bots import NoTable, make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import Ack, Answer, Error, GameOver, Join, Resume, Snapshot, Update
from tests.server.wsclient import TestClient

from .attacks import ServerProcess

GAMES = 3
SERVER = ("--messages-per-second", "100000", "--burst", "100000",
          "--sqlite-synchronous", "NORMAL")


@dataclass
class Seat:
    """Seat 0 of a game against a bot, played over the network; what it was told."""

    game: str
    token: str
    acked: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    seq: int = 0
    over: bool = False

    async def play(self, session: aiohttp.ClientSession, url: str, *, resume: bool) -> None:
        """Play until the game ends or the connection is lost."""
        strategy = make_strategy("big_money", random.Random(self.game))
        with contextlib.suppress(ConnectionError, aiohttp.ClientError, TimeoutError):
            client = await TestClient.connect(session, f"{url}/api/v1/ws", version=2)
            if resume:
                reply = await client.request(Resume, game=self.game, last_seq=self.seq,
                                             token=self.token)
                if isinstance(reply, Error):  # the game ended, and left memory
                    assert reply.code == "unknown_game", reply
                    self.over = True
                    return
            else:
                await client.request(Join, game=self.game, token=self.token)
            while not self.over:
                push = await client.receive_push(timeout=20)
                if push is None:
                    return  # the server is gone
                decision = self._take(push)
                if decision is None or decision.get("player") != 0:
                    continue
                options = tuple(strategy.choose(WireDecision.from_map(decision), NoTable()))
                reply = await client.request(Answer, game=self.game, decision=decision["id"],
                                             options=options)
                if isinstance(reply, Ack):
                    self.acked.append((decision["id"], options))

    def _take(self, push: Any) -> dict[str, Any] | None:
        if isinstance(push, GameOver):
            self.over = True
        elif isinstance(push, Update):
            self.seq = push.seq
            return push.decision
        elif isinstance(push, Snapshot):
            self.seq = push.seq
            return push.view["decision"]
        return None


def in_order(wanted: list[Any], log: list[Any]) -> bool:
    """Is `wanted` a subsequence of `log`?"""
    entries = iter(log)
    return all(any(entry == item for entry in entries) for item in wanted)


async def new_games(session: aiohttp.ClientSession, url: str) -> list[Seat]:
    seats = []
    for _ in range(GAMES):
        async with session.post(f"{url}/api/v1/games", json={
                "name": "Ann", "seats": 2, "kingdom": "First Game",
                "bots": {"1": "big_money"}}) as created:
            body = await created.json()
        seats.append(Seat(body["game"]["id"], body["token"]))
    return seats


@pytest.mark.parametrize("boundary", [
    "answer-before:40", "answer-during:40", "answer-after:40",
    "finish-before", "finish-during", "finish-after",
])
@pytest.mark.integration  # a real server or socket
async def test_a_kill_at_any_write_boundary_loses_no_accepted_answer(
        tmp_path: Path, boundary: str) -> None:
    killable = ServerProcess.start(tmp_path, *SERVER, module="tests.adversarial.killable",
                                   env={"DOMINION_TEST_KILL": boundary})
    async with aiohttp.ClientSession() as session:
        seats = await new_games(session, killable.url)
        await asyncio.gather(*(seat.play(session, killable.url, resume=False)
                               for seat in seats))
        assert await asyncio.to_thread(killable.process.wait, 30) == -9  # SIGKILL, as armed
        assert not all(seat.over for seat in seats)  # it died under load
        server = ServerProcess.start(tmp_path, *SERVER)  # the same database
        try:
            await asyncio.gather(*(seat.play(session, server.url, resume=True)
                                   for seat in seats))
            for seat in seats:
                async with session.get(f"{server.url}/api/v1/games/{seat.game}/replay") as got:
                    replay = await got.json()
                assert replay["game"]["state"] == "finished", (boundary, replay["game"])
                stored = [(a["decision"], tuple(a["choices"])) for a in replay["answers"]
                          if a["player"] == 0 and not a.get("resign")]
                # every answer it was told was accepted is in the log, in order (the log
                # may hold one more: stored, and the server killed before it could say so)
                assert in_order(seat.acked, stored), boundary
                assert seat.acked, boundary
        finally:
            assert server.stop() == 0
        assert server.faults() == []
