"""A room's bot loop: while the pending decision is a bot's, its strategy answers it
through the room's change path, like any player (one task per room)."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from dominion.bots import BotPace, Strategy, make_strategy
from dominion.protocol import ErrorCode

from ..engine import Decision, Game
from ..refusal import Refusal
from ..storage import GameRecord, GameState
from . import clock
from .bots import seat_table
from .clock import LOOP_CLOCK, Clock

if TYPE_CHECKING:
    from .room import Room
    from .seats import Seat
    from .thinking import BotWorkers

log = logging.getLogger("dominion.room")


class BotLoop:
    __slots__ = ("_clock", "_rng", "_room", "_task", "_workers")

    def __init__(self, room: Room, workers: BotWorkers | None,
                 timers: Clock = LOOP_CLOCK) -> None:
        self._room = room
        self._clock = timers
        """What a bot's pause runs on (a test's virtual clock moves it at once)."""
        self._workers = workers
        """Where the bots that think answer (None: all of them in the event loop)."""
        self._task: asyncio.Future[None] | None = None
        self._rng: random.Random | None = None  # made when a bot first plays (memory)

    @property
    def task(self) -> asyncio.Future[None] | None:
        """The running loop, if any (the room cancels it when it closes)."""
        return self._task

    def wake(self) -> None:
        """Let bots answer while the pending decision is a bot's (one task per room)."""
        room = self._room
        game = room.game
        if game is None or game.pending is None \
                or room.seats[game.pending.player].played_by is None:
            return
        if (self._task is None or self._task.done()) and not room.closed:
            self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        room = self._room
        while True:
            game = room.game
            # closed: the server stops. The room cancels this loop, but a cancellation can
            # be lost (3.11's wait_for returns a result that came with it), and a loop
            # retrying the answers a closed room refuses would hold the stop for good
            if game is None or game.pending is None or room.state != GameState.PLAYING \
                    or room.closed:
                return
            decision = game.pending
            seat = room.seats[decision.player]
            played_by = seat.played_by
            if played_by is None:
                return
            if seat.strategy is None:
                self._rng = self._rng or random.Random()
                seat.strategy = make_strategy(played_by, random.Random(self._rng.random()))
            delay = room.settings.bot_delay_seconds or table_bot_pace(room.record).seconds
            if delay:
                await clock.sleep(self._clock, delay)
                if game.pending is not decision or seat.played_by is None:
                    continue  # while it waited, its player came back (or someone answered)
            try:
                choice = await self._choice(seat, seat.strategy, game, decision)
                if game.pending is not decision or seat.played_by is None:
                    continue  # while it thought, its player came back (or someone answered)
                game.check_answer(seat.index, decision.id, choice)
            except Exception:
                # a strategy's bug must not stall the game: take the first legal answer
                log.exception("a bot strategy failed", extra={"game": room.id})
                choice = list(range(decision.min))
            try:
                await room.answer(seat.index, decision.id, choice, by_bot=True)
            except Refusal as error:
                if error.code == ErrorCode.STALE_DECISION:
                    continue  # a person answered first
                if error.code == ErrorCode.INTERNAL_ERROR:
                    await asyncio.sleep(clock.retry_seconds())  # storage may recover
                    continue
                if error.code == ErrorCode.GAME_OVER:  # a player's resignation ended it meanwhile
                    return
                log.error("a bot's answer was refused: %s", error.message,
                          extra={"game": room.id})
                return

    async def _choice(self, seat: Seat, strategy: Strategy, game: Game,
                      decision: Decision) -> list[int]:
        """The strategy's answer: from a worker process if it is one that thinks."""
        table = seat_table(game, seat.index)
        workers = self._workers
        if workers is None or not workers.takes(strategy):
            return strategy.choose(decision, table)
        choice, after = await workers.choose(strategy, decision, table)
        if seat.strategy is strategy:
            seat.strategy = after  # what it remembers (its plan) for its next decision
        return choice


def table_bot_pace(record: GameRecord) -> BotPace:
    """The pace the table's creator chose; instant at a table made before tables had one."""
    return BotPace(record.options.get("bot_pace", BotPace.INSTANT))
