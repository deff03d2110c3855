"""Automatch's timers on a virtual clock, in process: the waves, the polls that push a
seek's changes, the confirm window and the wait a decline earns, on the in-memory queue
(`MemoryStore`) and a lobby on a games file of the test's own; and what a node does when
making a game fails, the queue loses a seek or an account leaves. Over real WebSockets:
tests/automatch/test_seek.py; across nodes: tests/automatch/test_two_nodes.py."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest

from dominion.protocol import (
    ErrorCode,
    MatchCancelled,
    MatchEnd,
    MatchFound,
    MatchReady,
    SeekState,
    SeekStatus,
    ServerMessage,
)
from dominion.server.accounts import Account
from dominion.server.automatch import Automatch
from dominion.server.automatch.penalty import FIRST_PENALTY_SECONDS
from dominion.server.automatch.queue import Queue, Table
from dominion.server.automatch.service import POLL_SECONDS
from dominion.server.automatch.store import MemoryStore, Writes
from dominion.server.metrics import Metrics
from dominion.server.play.lobby import Lobby
from dominion.server.play.seat_tokens import hash_token
from dominion.server.ratings.model import INITIAL, Pool, Rating
from dominion.server.refusal import Refusal
from dominion.server.settings import Settings
from dominion.server.storage import GameState, Storage
from tests.eventually import eventually
from tests.virtual_clock import VirtualClock

ADDRESS = "192.0.2.1"
WAVES = 3 * Settings().automatch_wave_seconds
"""Long enough for a wave to form a table of whoever waits."""
WALL = 1_800_000_000.0
"""The wall clock's time when the virtual clock is at 0."""
Pushed = TypeVar("Pushed", bound=ServerMessage)


class Seeker:
    """A connection that keeps what it is pushed."""

    def __init__(self) -> None:
        self.pushed: list[ServerMessage] = []

    def send(self, message: ServerMessage) -> None:
        self.pushed.append(message)

    def of(self, kind: type[Pushed]) -> list[Pushed]:
        """What it was pushed of one kind, in order."""
        return [message for message in self.pushed if isinstance(message, kind)]


def accepted() -> None:
    """A request's acknowledgement (a connection sends its ack here)."""


async def initial(account: Account | None, name: str, pool: Pool) -> Rating:
    return INITIAL


class Node:
    """One node's automatch, its loop's turns run by moving `clock`."""

    def __init__(self, automatch: Automatch, lobby: Lobby, storage: Storage,
                 clock: VirtualClock) -> None:
        self.automatch, self.lobby, self.storage, self.clock = automatch, lobby, storage, clock
        self.queue = automatch.queue

    async def seek(self, name: str | None, account: Account | None = None) -> Seeker:
        seeker = Seeker()
        await self.automatch.seek(seeker, ADDRESS, account, name, (2,), 2, False, None,
                                  accepted)
        return seeker

    async def waiting(self) -> int:
        """How many seeks wait in the queue."""
        return sum((await self.automatch.queue_counts()).waiting.values())

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
    started = Node(automatch, lobby, storage, clock)
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
        await node.automatch.answer(seeker, found.table, True, accepted)
    await node.moved(POLL_SECONDS)  # Ann hears at the next poll
    ready = [seeker.of(MatchReady)[0] for seeker in (ann, bob)]
    assert isinstance(ready[0], MatchReady) and isinstance(ready[1], MatchReady)
    assert ready[0].game == ready[1].game
    assert node.lobby.room(ready[0].game).state == GameState.PLAYING


async def test_a_table_nobody_answers_lapses_at_the_end_of_its_confirm_window(
        node: Node) -> None:
    ann, bob, found = await matched(node)
    await node.automatch.answer(ann, found.table, True, accepted)
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
    await node.automatch.answer(bob, found.table, False, accepted)
    await node.turned()
    assert bob.of(MatchCancelled) == [MatchCancelled(found.table, MatchEnd.DECLINED)]
    again = await node.seek("Bob")
    await node.moved(FIRST_PENALTY_SECONDS - POLL_SECONDS)
    assert len(ann.of(MatchFound)) == 1 and not again.of(MatchFound), "Bob waits his turn"
    await node.moved(Settings().automatch_wave_seconds + POLL_SECONDS)
    assert len(ann.of(MatchFound)) == 2 and len(again.of(MatchFound)) == 1


async def test_a_game_that_cannot_be_made_puts_everyone_back_at_the_front(
        node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise OSError("disk full")
    monkeypatch.setattr(node.lobby, "create_matched", broken)
    ann, bob, found = await matched(node)
    await node.automatch.answer(ann, found.table, True, accepted)
    acks: list[str] = []
    await node.automatch.answer(bob, found.table, True, lambda: acks.append("ack"))
    assert acks == ["ack"], "acknowledged, once: the failure is the server's"
    await node.moved(POLL_SECONDS)
    for seeker in (ann, bob):
        status = seeker.of(SeekStatus)[-1]
        assert isinstance(status, SeekStatus)
        assert status.state is SeekState.WAITING and status.waited_ms > 0
    monkeypatch.undo()
    await node.until(lambda: len(ann.of(MatchFound)) == 2, WAVES)
    assert set(found.players) == {"Ann", "Bob"}


async def test_a_game_whose_table_lapsed_first_is_abandoned_and_nobody_told(
        node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    """The node making the game was slow: the table lapsed and its players went back to
    the queue. The game made is abandoned before it starts, and told to nobody."""
    seat = node.queue.seat

    async def late(table: Table, *args: Any) -> bool:
        await node.queue.dissolve(table, 0.0)  # as `expire` does, past the starting time
        return await seat(table, *args)
    monkeypatch.setattr(node.queue, "seat", late)
    ann, bob, found = await matched(node)
    for seeker in (ann, bob):
        await node.automatch.answer(seeker, found.table, True, accepted)
    await node.moved(POLL_SECONDS)
    for seeker in (ann, bob):
        assert [cancelled.table for cancelled in seeker.of(MatchCancelled)] == [found.table]
        status = seeker.of(SeekStatus)[-1]
        assert isinstance(status, SeekStatus) and status.state is SeekState.WAITING
    [game], _ = node.storage.list_games()
    assert game.state == GameState.ABANDONED and game.started_at is None
    monkeypatch.undo()
    await node.until(lambda: len(ann.of(MatchFound)) == 2, WAVES)  # they wait on
    assert not ann.of(MatchReady) and not bob.of(MatchReady)


async def test_seats_whose_hand_out_failed_on_its_way_back_are_asked_for_again(
        node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    """The queue took the seats but its answer was lost: the node asks again a poll
    later, learns they went out, and starts the game."""
    seat, tries = node.queue.seat, []

    async def lost(*args: Any) -> bool:
        handed = await seat(*args)
        tries.append(handed)
        if len(tries) == 1:
            raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, "the answer was lost")
        return handed
    monkeypatch.setattr(node.queue, "seat", lost)
    ann, bob, found = await matched(node)
    for seeker in (ann, bob):
        await node.automatch.answer(seeker, found.table, True, accepted)
    assert tries == [True]
    await node.clock.settled(2)  # the loop, and the hand-out waiting to ask again
    # both wake: the hand-out ends, so no turn waits for it to sleep again
    node.clock.advance(POLL_SECONDS)
    await eventually(lambda: len(tries) == 2)
    assert tries == [True, True]
    await node.moved(POLL_SECONDS)
    ready = [seeker.of(MatchReady) for seeker in (ann, bob)]
    assert len(ready[0]) == len(ready[1]) == 1
    game = ready[0][0].game
    await eventually(lambda: node.lobby.room(game).state == GameState.PLAYING)

    async def unmarked() -> bool:  # started: its mark (seats out, not started) is gone
        return not await node.queue.handed(game)
    await eventually(unmarked)


async def test_a_guests_seek_stored_whose_answer_was_lost_is_withdrawn(
        node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused, the guest holds no token for it: were it left, it would be matched, lapse
    and strike their address."""
    stored = node.queue.seek

    async def lost(*args: Any) -> Any:
        await stored(*args)
        raise Refusal(ErrorCode.CLUSTER_UNAVAILABLE, "the answer was lost")
    monkeypatch.setattr(node.queue, "seek", lost)
    with pytest.raises(Refusal):
        await node.seek("Ann")
    await eventually(lambda: not node.automatch._background)
    assert await node.queue.store.members("tickets") == set()


async def test_a_seek_the_queue_lost_is_said_to_have_ended(node: Node) -> None:
    """As when a cluster's Redis restarts empty: the player is told, not left waiting."""
    ann = await node.seek("Ann")
    status = ann.of(SeekStatus)[-1]
    assert isinstance(status, SeekStatus) and status.token is not None
    lost = f"ticket:g{hash_token(status.token)[:32]}"
    await node.queue.store.change([lost], lambda found: (None, Writes(delete={lost})))
    await node.moved(POLL_SECONDS)
    ended = ann.of(SeekStatus)[-1]
    assert isinstance(ended, SeekStatus)
    assert ended.state is SeekState.ENDED and ended.reason is None
    with pytest.raises(Refusal) as refusal:
        await node.automatch.cancel(ann)
    assert refusal.value.code is ErrorCode.NOT_SEEKING


async def test_a_banned_or_deleted_accounts_seek_leaves_the_queue(node: Node) -> None:
    # a banned account's seek stayed queued, and a real player was matched with it
    ada = Account(7, "Ada", "ada", None, datetime.now(UTC))
    await node.seek(None, ada)
    assert await node.waiting() == 1
    # what a ban and a deletion do to the account's seats, on every node that hears of it
    await node.lobby.remove_account(ada.id, "banned")
    await eventually(lambda: not node.automatch._background)
    assert await node.waiting() == 0


async def test_closing_ends_the_loop_even_when_a_queue_call_swallowed_its_cancellation(
        node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    """On Python 3.11 redis-py's every command can swallow a cancellation that comes as it
    ends (its `wait_for`): the loop turned again and closing waited for ever (a worker
    crashed at a test's teardown in CI). Here the wave lease's call swallows it."""
    inside, lead = asyncio.Event(), node.queue.store.lead

    async def swallowing(*args: Any) -> bool:
        inside.set()
        # Redis answering as the cancellation comes: lost, as 3.11's wait_for loses it
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.Event().wait()
        return await lead(*args)
    monkeypatch.setattr(node.queue.store, "lead", swallowing)
    node.clock.advance(POLL_SECONDS)
    await inside.wait()
    # a task of its own: awaited here, a timeout's cancellation would reach the loop too
    closing = asyncio.ensure_future(node.automatch.close())
    done, _ = await asyncio.wait({closing}, timeout=20)
    assert closing in done, "closing waits for a loop that lost its cancellation"
    assert node.automatch._task is not None and node.automatch._task.cancelled()
