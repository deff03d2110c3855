"""Bot games played to their end in memory, with nothing stored: what `dominion-server
fill` stores, whether in the server's own process or in worker processes
(`fill --direct`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from dominion.bots import Strategy, make_strategy
from dominion.bots.strategies import DecisionLike, Table

from ..engine import Game, Setup
from ..storage import SeatRecord
from .bots import play_out
from .clock import utc_now


@dataclass(frozen=True, slots=True)
class Filled:
    games: int
    answers: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def bot_seats(strategies: Sequence[str], players: int) -> list[SeatRecord]:
    """The seats, strategies in turn, named as the lobby names its bots."""
    at = utc_now()
    chosen = [strategies[seat % len(strategies)] for seat in range(players)]
    return [SeatRecord(seat, f"Bot {seat + 1} ({strategy})", bot=strategy, joined_at=at)
            for seat, strategy in enumerate(chosen)]


@dataclass(frozen=True, slots=True)
class Played:
    """A bot game played to its end, not stored yet."""

    seats: list[SeatRecord]
    setup: Setup
    seed: int
    game: Game
    event_counts: list[int]
    """The game's event count once set up and after each answer (`build.derived_from`)."""


def play_one(rng: random.Random, strategies: Sequence[str], players: int,
             edition: int) -> Played:
    """Play one game with in-server bots to its end."""
    seats = bot_seats(strategies, players)
    setup = Setup.create([seat.name or "" for seat in seats], edition=edition, rng=rng)
    seed = rng.getrandbits(128)
    game = Game(setup, seed)
    counts: list[int] = []
    play_out(game, [EventCounting(make_strategy(seat.bot or "", rng), game, counts)
                    for seat in seats])
    counts.append(game.event_count)
    return Played(seats, setup, seed, game, counts)


class EventCounting:
    """A seat's strategy that notes the game's event count before each of its answers:
    with the count at the end, a replay's `events_by_answer` (kept here, not in `play_out`,
    which is compiled with the engine)."""

    __slots__ = ("counts", "game", "name", "strategy")

    def __init__(self, strategy: Strategy, game: Game, counts: list[int]) -> None:
        self.name = strategy.name
        self.strategy, self.game, self.counts = strategy, game, counts

    def choose(self, decision: DecisionLike, table: Table) -> list[int]:
        self.counts.append(self.game.event_count)
        return self.strategy.choose(decision, table)
