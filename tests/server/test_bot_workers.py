"""The strong bot thinks in worker processes, never in the server's event loop: it
answers there as it would in-process, from what its seat may know; a worker that dies
is replaced and the decision asked again; when no worker can answer, the room takes a
legal answer and the game goes on; a server killed mid-game leaves no worker behind,
and the game goes on once it is back."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from pathlib import Path

import aiohttp
import pytest

from dominion.bots import DecisionLike, Table
from dominion.bots.seat import SeatTable
from dominion.bots.strategies import sensible_choice
from dominion.bots.strong import StrongBot
from dominion.server.engine import Decision, Game, Setup, replay
from dominion.server.metrics import Metrics
from dominion.server.play import thinking
from dominion.server.play.bots import seat_table
from dominion.server.play.clock import utc_now
from dominion.server.play.history import HistoryCache
from dominion.server.play.room import Room
from dominion.server.play.seats import Seat
from dominion.server.play.thinking import BotWorkers, WorkersFailed
from dominion.server.settings import Settings
from dominion.server.storage import GameRecord, GameState, MemoryGameLog, Storage
from tests.eventually import eventually

from .test_process import start_server
from .test_restart import Player, play_until

pytestmark = pytest.mark.integration  # bot worker processes


class WhereItRuns:
    """Answers sensibly, and remembers the process that answered and what it read."""

    name = "where"

    def __init__(self) -> None:
        self.pid = 0
        self.read: tuple[object, ...] = ()

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        self.pid = os.getpid()
        assert isinstance(table, SeatTable)
        self.read = (dict(table.view), tuple(table.hand()), table.coins,
                     [dict(table.holdings(seat)) for seat in range(table.seats)],
                     table.supply("province"))
        return sensible_choice(decision)


class DiesOnce:
    """Kills its worker the first time it is asked (the marker file says it did)."""

    name = "dies_once"

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        if not self.marker.exists():
            self.marker.touch()
            os._exit(1)
        return sensible_choice(decision)


class AlwaysDies:
    name = "always_dies"

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        os._exit(1)


def new_game(seed: int = 7) -> Game:
    return Game(Setup.create(["a", "b"], kingdom=("witch", "laboratory", "smithy", "militia",
                                                  "market", "village", "cellar", "moat",
                                                  "mine", "remodel")), seed)


async def test_the_strong_bot_answers_in_a_worker_as_it_does_in_process() -> None:
    workers = BotWorkers(1)
    try:
        game = new_game()
        in_process = [StrongBot(), StrongBot()]
        kept: list[object] = [StrongBot(), StrongBot()]
        while (decision := game.pending) is not None:
            seat = decision.player
            table = seat_table(game, seat)
            expected = in_process[seat].choose(decision, table)
            strategy = kept[seat]
            assert isinstance(strategy, StrongBot)
            choice, kept[seat] = await workers.choose(strategy, decision, table)
            assert choice == expected
            game.answer(seat, decision.id, choice)
        assert game.over
        assert all(isinstance(bot, StrongBot) and bot.plan is not None for bot in kept)
    finally:
        await workers.close()


async def test_it_thinks_in_another_process_from_a_copy_of_the_seats_view() -> None:
    workers = BotWorkers(1)
    try:
        decision, table = first_decision()
        _, after = await workers.choose(WhereItRuns(), decision, table)
        assert isinstance(after, WhereItRuns) and after.pid not in (0, os.getpid())
        assert after.read == (table.view, tuple(table.hand()), table.coins,
                              [table.holdings(seat) for seat in range(2)],
                              table.supply("province"))
    finally:
        await workers.close()


async def test_a_worker_that_dies_is_replaced_and_the_decision_asked_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    workers = BotWorkers(1)
    try:
        decision, table = first_decision()
        marker = tmp_path / "died"
        with caplog.at_level(logging.WARNING, "dominion.bots"):
            choice, _ = await workers.choose(DiesOnce(marker), decision, table)
        assert marker.exists() and choice == sensible_choice(decision)
        assert "a bot worker died" in caplog.text
        with pytest.raises(WorkersFailed):
            await workers.choose(AlwaysDies(), decision, table)
        again, _ = await workers.choose(StrongBot(), decision, table)  # and they work on
        assert again == StrongBot().choose(decision, table)
    finally:
        await workers.close()


def room_with_bots(log: MemoryGameLog, workers: BotWorkers) -> Room:
    kingdom = tuple(Setup.create(["a", "b"], kingdom="First Game").kingdom)
    record = GameRecord(id="g-000000000001", created_at=utc_now(), state=GameState.OPEN,
                        edition=2, seats=2, kingdom=kingdom)
    seats = [Seat(0, "Bot 1 (strong)", bot="strong"), Seat(1, "Bot 2 (strong:1)",
                                                          bot="strong:1")]
    return Room(record, seats, log, Settings(), Metrics(), HistoryCache(100_000),
                workers=workers)


async def test_a_rooms_strong_bots_never_think_in_its_event_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    thought_here: list[str] = []

    def not_here(self: StrongBot, decision: DecisionLike, table: Table) -> list[int]:
        thought_here.append(decision.kind)
        return sensible_choice(decision)

    monkeypatch.setattr(StrongBot, "choose", not_here)  # the spawned workers do not see it
    log = MemoryGameLog()
    workers = BotWorkers(1)
    try:
        room = room_with_bots(log, workers)
        await log.create_game(room.record, [seat.record() for seat in room.seats])
        await room.start_if_full()
        await eventually(lambda: room.state == GameState.FINISHED, seconds=120)
        levels = [seat.strategy.level for seat in room.seats
                  if isinstance(seat.strategy, StrongBot)]
        assert levels == [3, 1], "each seat kept its own bot, at its own level"
        assert thought_here == []
    finally:
        await workers.close()


async def test_a_room_whose_workers_all_die_takes_a_legal_answer_and_goes_on(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(BotWorkers, "takes", staticmethod(lambda strategy: True))
    log = MemoryGameLog()
    workers = BotWorkers(1)
    room = room_with_bots(log, workers)
    try:
        await log.create_game(room.record, [seat.record() for seat in room.seats])
        room.seats[0].strategy = AlwaysDies()
        with caplog.at_level(logging.ERROR, "dominion.room"):
            await room.start_if_full()
            await eventually(lambda: "a bot strategy failed" in caplog.text, seconds=120)
        game = room.game
        assert game is not None
        answered = game.answer_count
        await eventually(lambda: game.answer_count > answered + 2, seconds=120)
    finally:
        await room.close()
        await workers.close()


def test_a_pool_has_at_least_one_worker() -> None:
    with pytest.raises(ValueError, match="at least one"):
        BotWorkers(0)


@pytest.fixture
def slow_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> float:
    """Worker processes that take SLOW_START seconds to start (as on a machine at a load
    of 20 and more): every new interpreter sleeps in its `sitecustomize`."""
    (tmp_path / "sitecustomize.py").write_text(f"import time\ntime.sleep({SLOW_START})\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    return SLOW_START


SLOW_START = 6.0


async def test_a_worker_still_starting_is_not_taken_for_hung(slow_starts: float) -> None:
    workers = BotWorkers(1, decision_seconds=slow_starts / 2)
    try:
        decision, table = first_decision()
        chosen, _ = await workers.choose(StrongBot(), decision, table)
        assert chosen == StrongBot().choose(decision, table)
    finally:
        await workers.close()


async def test_workers_that_never_start_fail_the_decision_in_bounded_time(
        slow_starts: float, caplog: pytest.LogCaptureFixture) -> None:
    workers = BotWorkers(1, decision_seconds=3600, start_seconds=1)
    try:
        decision, table = first_decision()
        with caplog.at_level(logging.WARNING, "dominion.bots"), pytest.raises(WorkersFailed):
            await workers.choose(StrongBot(), decision, table)
        assert caplog.text.count("took over 1 s to start") == thinking.ATTEMPTS
        await eventually(no_worker_left, seconds=30)
    finally:
        await workers.close()


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def test_a_game_against_the_strong_bot_survives_a_server_killed_mid_game(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    process, url = start_server(db)
    try:
        async with aiohttp.ClientSession() as session:
            created = await (await session.post(f"{url}/api/v1/games", json={
                "name": "Ann", "seats": 2, "kingdom": "First Game",
                "bots": {"1": "strong"}})).json()
            game = created["game"]["id"]
            ann = Player(game, created["token"], 1)
            await ann.connect(session, url, resume=False)
            await play_until([ann], 20)
            workers = children_of(process.pid)
            assert workers, "the bot thought in a worker process"
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            assert ann.client is not None
            await ann.client.close()
            await eventually(lambda: not any(alive(pid) for pid in workers), seconds=30)

            process, url = start_server(db)
            ann.decision = None
            await ann.connect(session, url, resume=True)
            await play_until([ann], None)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(15)
    storage = Storage.open(db)
    try:
        stored = storage.load_game(game)
        assert stored is not None and stored.game.state == "finished"
        assert stored.game.setup is not None and stored.game.seed is not None
        assert replay(Setup.from_dict(stored.game.setup), stored.game.seed, stored.answers).over
        assert any(seat.bot == "strong" for seat in stored.seats)
    finally:
        await storage.close()


class Hangs:
    """Never answers (once it has touched `marker`, if given)."""

    name = "hangs"

    def __init__(self, marker: Path | None = None) -> None:
        self.marker = marker

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        if self.marker is not None:
            self.marker.touch()
        time.sleep(3600)
        return []


def first_decision() -> tuple[Decision, SeatTable]:
    """A new game's first decision, and its seat's table."""
    game = new_game()
    decision = game.pending
    assert decision is not None
    return decision, seat_table(game, decision.player)


def no_worker_left() -> bool:
    return not any(alive(pid) and "spawn_main" in command_of(pid)
                   for pid in children_of(os.getpid()))


async def test_a_worker_that_hangs_is_ended_and_the_decision_fails_in_bounded_time(
        caplog: pytest.LogCaptureFixture) -> None:
    workers = BotWorkers(1, decision_seconds=5)
    try:
        decision, table = first_decision()
        with caplog.at_level(logging.WARNING, "dominion.bots"), pytest.raises(WorkersFailed):
            await workers.choose(Hangs(), decision, table)
        assert "took over 5 s" in caplog.text
        await eventually(no_worker_left, seconds=30)
        again, _ = await workers.choose(StrongBot(), decision, table)  # and they work on
        assert again == StrongBot().choose(decision, table)
    finally:
        await workers.close()


def command_of(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


async def test_closing_ends_a_worker_mid_decision_at_once_and_refuses_any_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the server's stop (SIGTERM) closes the workers: it does not wait for the decision
    # in hand, nor for a worker's own clean exit (seconds on a loaded machine), so only
    # a worker that ignores being ended waits for CLOSE_SECONDS, here out of reach
    monkeypatch.setattr(thinking, "CLOSE_SECONDS", 3600.0)
    workers = BotWorkers(1, decision_seconds=3600)
    decision, table = first_decision()
    marker = tmp_path / "thinking"
    asking = asyncio.ensure_future(workers.choose(Hangs(marker), decision, table))
    try:
        await eventually(marker.exists, seconds=60)
        await asyncio.wait_for(workers.close(), 60)
        with pytest.raises(WorkersFailed, match="closed"):
            await asking
        await eventually(no_worker_left, seconds=30)
    finally:
        asking.cancel()
        await workers.close()
