"""A real server killed mid-game gives its players back their clocks: the restarted
server rebuilds each bank from the answers' stored charges, and the time it was down is
charged to nobody."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path

import aiohttp
import pytest

from dominion.bots import NoTable, make_strategy
from dominion.bots.wire import WireDecision
from dominion.protocol import Ack, ClockState, Join, Resume, Snapshot, Update
from dominion.protocol import Answer as AnswerMessage

from .test_process import start_server
from .wsclient import TestClient

DOWN_SECONDS = 4.0
"""How long the server stays down: what a clock that charged the downtime would lose."""
ANSWERS = 6


class Seat:
    """One player over a real socket: the latest frame's clocks, decision and seq."""

    def __init__(self, game: str, token: str) -> None:
        self.game, self.token = game, token
        self.client: TestClient | None = None
        self.seat = -1
        self.seq = 0
        self.clocks: ClockState | None = None
        self.decision: dict[str, object] | None = None

    async def connect(self, session: aiohttp.ClientSession, url: str, resume: bool) -> None:
        self.client = await TestClient.connect(session, url + "/api/v1/ws", version=2)
        ack = await (self.client.request(Resume, game=self.game, token=self.token,
                                         last_seq=self.seq) if resume
                     else self.client.request(Join, game=self.game, token=self.token))
        assert isinstance(ack, Ack), ack
        assert ack.seat is not None
        self.seat = ack.seat

    async def next_frame(self) -> None:
        """Read pushes until the next snapshot or update; keep what it says."""
        assert self.client is not None
        while True:
            message = await self.client.push(timeout=30)
            if isinstance(message, Snapshot):
                self.seq, self.clocks = message.seq, message.clocks
                self.decision = message.view["decision"]
                return
            if isinstance(message, Update):
                self.seq, self.clocks, self.decision = message.seq, message.clocks, \
                    message.decision
                return


@pytest.mark.system  # kills a server
async def test_clocks_survive_a_restart_and_charge_nobody_for_the_downtime(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db)
    try:
        async with aiohttp.ClientSession() as session:
            created = await (await session.post(f"{url}/api/v1/games", json={
                "name": "Ann", "seats": 2, "kingdom": "First Game",
                "time_control": {"initial_seconds": 600, "increment_seconds": 0}})).json()
            game = created["game"]["id"]
            joined = await (await session.post(f"{url}/api/v1/games/{game}/join",
                                               json={"name": "Bob"})).json()
            seats = [Seat(game, created["token"]), Seat(game, joined["token"])]
            for seat in seats:
                await seat.connect(session, url, resume=False)
            await asyncio.gather(*(seat.next_frame() for seat in seats))
            strategy = make_strategy("random", random.Random(7))
            for _ in range(ANSWERS):  # whoever must answer does; both see the change
                decider = next(s for s in seats if s.decision and "options" in s.decision)
                assert decider.client is not None and decider.decision is not None
                wire = WireDecision.from_map(decider.decision)
                reply = await decider.client.request(
                    AnswerMessage, game=game, decision=wire.id,
                    options=strategy.choose(wire, NoTable()))
                assert isinstance(reply, Ack), reply
                await asyncio.gather(*(seat.next_frame() for seat in seats))
            before = seats[0].clocks
            assert before is not None and before.running is not None
            assert min(before.remaining_ms) < 600_000, "the answers were charged"

            process.send_signal(signal.SIGKILL)
            process.wait(10)
            killed = time.monotonic()
            for seat in seats:
                assert seat.client is not None
                await seat.client.close()
            # the downtime is the point of the test, not a wait for something to happen
            await asyncio.sleep(max(0.0, killed + DOWN_SECONDS - time.monotonic()))

            process, url = start_server(db)
            for seat in seats:
                await seat.connect(session, url, resume=True)
                await seat.next_frame()
            after = seats[0].clocks
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(15)

    assert after is not None and after.running == before.running
    running = before.running
    waiting = 1 - running
    assert after.remaining_ms[waiting] == before.remaining_ms[waiting]
    spent = before.remaining_ms[running] - after.remaining_ms[running]
    # only the time since the restart and the resume runs; the downtime was nobody's
    assert 0 <= spent < DOWN_SECONDS * 1000 / 2, (before, after)
