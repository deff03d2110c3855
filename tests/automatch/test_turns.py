"""Automatch's timers on a virtual clock, in process: the waves, the polls that push a
seek's changes, the confirm window and the wait a decline earns, on the in-memory queue
(`MemoryStore`) and a lobby on a games file of the test's own. Over real WebSockets:
tests/automatch/test_seek.py; across nodes: tests/automatch/test_two_nodes.py."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from dominion.protocol import (
    MatchCancelled,
    MatchEnd,
    MatchFound,
    MatchReady,
    SeekState,
    SeekStatus,
    ServerMessage,
)
from dominion.server.accounts import Account
from dominion.server.automatch import Automatch, Queue
from dominion.server.automatch.penalty import FIRST_PENALTY_SECONDS
from dominion.server.automatch.service import POLL_SECONDS
from dominion.server.automatch.store import MemoryStore
from dominion.server.metrics import Metrics
from dominion.server.play.lobby import Lobby
from dominion.server.ratings.model import INITIAL, Pool, Rating
from dominion.server.settings import Settings
from dominion.server.storage import GameState, Storage
from tests.virtual_clock import VirtualClock

ADDRESS = "192.0.2.1"
WALL = 1_800_000_000.0
"""The wall clock's time when the virtual clock is at 0."""


class Seeker:
    """A connection that keeps what it is pushed."""

    def __init__(self) -> None:
        self.pushed: list[ServerMessage] = []

    def send(self, message: ServerMessage) -> None:
        self.pushed.append(message)

    def of(self, kind: type) -> list[ServerMessage]:
        return [message for message in self.pushed if isinstance(message, kind)]


async def initial(account: Account | None, name: str, pool: Pool) -> Rating:
    return INITIAL


class Node:
    """One node's automatch, its loop's turns run by moving `clock`."""

    def __init__(self, automatch: Automatch, lobby: Lobby, clock: VirtualClock) -> None:
        self.automatch, self.lobby, self.clock = automatch, lobby, clock

    async def seek(self, name: str, seeker: Seeker | None = None) -> Seeker:
        seeker = seeker or Seeker()
        await self.automatch.seek(seeker, ADDRESS, None, name, (2,), 2, False, None,
                                  lambda: None)
        return seeker

    async def moved(self, seconds: float) -> None:
        """The clock `seconds` on, a poll's turn at a time, each turn run to its end."""
        await self.clock.run(seconds, POLL_SECONDS)

    async def until(self, check: Callable[[], bool], seconds: float) -> None:
        """A poll's turn at a time until `check` is true; fail if `seconds` pass first."""
        end = self.clock.now() + seconds
        while not check():
            assert self.clock.now() < end, f"never happened in {seconds} s on the clock"
            await self.moved(POLL_SECONDS)

    async def turned(self) -> None:
        """Until the loop waits on the clock again."""
        await self.clock.settled(1)


@pytest.fixture
async def node(tmp_path: Path) -> AsyncIterator[Node]:
    storage = Storage.open(tmp_path / "games.sqlite3", synchronous="NORMAL")
    await storage.start()
    clock = VirtualClock()
    settings = Settings()
    lobby = Lobby(storage, settings, Metrics(), clock=clock)
    queue = Queue(MemoryStore(), settings.automatch_confirm_seconds,
                  settings.automatch_grace_seconds)
    automatch = Automatch(queue, lobby, settings, Metrics(), initial,
                          clock=lambda: WALL + clock.now(), timers=clock)
    await automatch.start()
    started = Node(automatch, lobby, clock)
    await started.turned()
    yield started
    await automatch.close()
    await lobby.close()
    await storage.close()


async def matched(node: Node) -> tuple[Seeker, Seeker, MatchFound]:
    """Ann and Bob seek and are offered a table at the next wave (the clock is then at
    the time it was formed)."""
    ann, bob = await node.seek("Ann"), await node.seek("Bob")
    await node.until(lambda: bool(ann.of(MatchFound)), Settings().automatch_wave_seconds)
    found = ann.of(MatchFound)
    assert len(found) == 1 and bob.of(MatchFound) == found
    assert isinstance(found[0], MatchFound)
    return ann, bob, found[0]


async def test_a_wave_offers_a_table_and_everyone_accepting_makes_the_game(node: Node
                                                                          ) -> None:
    ann, bob, found = await matched(node)
    confirm = Settings().automatch_confirm_seconds
    assert set(found.players) == {"Ann", "Bob"} and found.deadline_ms == confirm * 1000
    for seeker in (ann, bob):
        await node.automatch.answer(seeker, found.table, True, lambda: None)
    await node.moved(POLL_SECONDS)  # Ann hears at the next poll
    ready = [seeker.of(MatchReady)[0] for seeker in (ann, bob)]
    assert isinstance(ready[0], MatchReady) and isinstance(ready[1], MatchReady)
    assert ready[0].game == ready[1].game
    assert node.lobby.room(ready[0].game).state == GameState.PLAYING


async def test_a_table_nobody_answers_lapses_at_the_end_of_its_confirm_window(
        node: Node) -> None:
    ann, bob, found = await matched(node)
    await node.automatch.answer(ann, found.table, True, lambda: None)
    await node.moved(found.deadline_ms / 1000 - POLL_SECONDS)
    assert not ann.of(MatchCancelled) and not bob.of(MatchCancelled)
    await node.moved(2 * POLL_SECONDS)
    lapsed = MatchCancelled(found.table, MatchEnd.LAPSED)
    assert ann.of(MatchCancelled) == [lapsed] and bob.of(MatchCancelled) == [lapsed]
    ann_status, bob_status = ann.of(SeekStatus)[-1], bob.of(SeekStatus)[-1]
    assert isinstance(ann_status, SeekStatus) and isinstance(bob_status, SeekStatus)
    assert ann_status.state is SeekState.WAITING, "Ann accepted: back in the queue"
    assert bob_status.state is SeekState.ENDED and bob_status.reason is MatchEnd.LAPSED


async def test_who_declines_waits_before_being_matched_again(node: Node) -> None:
    ann, bob, found = await matched(node)
    await node.automatch.answer(bob, found.table, False, lambda: None)
    await node.turned()
    assert bob.of(MatchCancelled) == [MatchCancelled(found.table, MatchEnd.DECLINED)]
    again = await node.seek("Bob")
    await node.moved(FIRST_PENALTY_SECONDS - POLL_SECONDS)
    assert len(ann.of(MatchFound)) == 1 and not again.of(MatchFound), "Bob waits his turn"
    await node.moved(Settings().automatch_wave_seconds + POLL_SECONDS)
    assert len(ann.of(MatchFound)) == 2 and len(again.of(MatchFound)) == 1
