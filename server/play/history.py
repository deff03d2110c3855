"""Live games' histories, re-derived from their answer logs and kept for the next resume.

A live `Game` keeps no history (memory: a server holds thousands of games), so a resume
that must send missed events, or a running game's replay, replays the game's answer log
(`answer_log.py`) into a game that keeps its events. This cache keeps such games,
the most recently used first, up to `max_events` events in all (~170 bytes each): the
next resume of the same game only applies the answers given since, so repeated resumes
cost what they send. A game not in the cache costs one replay of its log; the caller
accounts for that before asking (`replay_cost`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

from ..engine import Event, Game
from .answer_log import AnswerLog

GAME_WEIGHT = 150
"""A game's state without its events, counted in events (~22 KiB / ~170 bytes)."""


class HistoryCache:
    def __init__(self, max_events: int) -> None:
        self.max_events = max_events
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._held = 0
        self.replayed = 0
        """Events re-derived so far (for tests and metrics: the work done)."""

    def replay_cost(self, key: str, events: int) -> int:
        """Events to re-derive before the first `events` events of game `key` can be
        sent: those not yet in its cached history."""
        cached = self._games.get(key)
        return events - cached.event_count if cached is not None \
            and cached.event_count <= events else events

    def events(self, key: str, new_game: Callable[[], Game], log: AnswerLog,
               answers: int) -> Sequence[Event]:
        """Every event of game `key` after its first `answers` answers (of `log`);
        `new_game` makes the game at its start (with its history kept) when needed."""
        game = self._games.pop(key, None)
        if game is not None:
            self._held -= _weight(game)
            if game.answer_count > answers:
                game = None
        before = 0 if game is None else game.event_count
        if game is None:
            game = new_game()
        for entry in log.entries(game.answer_count, answers):
            game.apply(entry)
        self.replayed += game.event_count - before
        self._keep(key, game)
        return game.events

    def forget(self, key: str) -> None:
        game = self._games.pop(key, None)
        if game is not None:
            self._held -= _weight(game)

    def _keep(self, key: str, game: Game) -> None:
        weight = _weight(game)
        if weight > self.max_events:
            return  # larger than the whole cache: replayed each time, within the budgets
        self._games[key] = game
        self._held += weight
        while self._held > self.max_events:
            _, oldest = self._games.popitem(last=False)
            self._held -= _weight(oldest)

    def __len__(self) -> int:
        return len(self._games)

    @property
    def held(self) -> int:
        return self._held


def _weight(game: Game) -> int:
    return game.event_count + GAME_WEIGHT
