"""What a live game needs of storage, as one small interface, and an in-memory one.

`Storage` (SQLite, store.py) is the server's. `MemoryGameLog` keeps the same records in
dictionaries, with the same checks, so that rooms can be tested directly: fast, with no
file, thread or socket (tests/play/).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from dominion.server.engine import Answer, Resignation

from .records import (
    ENDED_STATES,
    UNFINISHED_STATES,
    GameRecord,
    GameState,
    SeatRecord,
    StorageError,
    StoredGame,
    check_game,
    check_seat,
    check_seed,
)


class GameLog(Protocol):
    """The writes a live game makes, in the order it makes them, and the reads a restart
    makes. Each write is durable when it returns; one that raises changed nothing."""

    async def create_game(self, game: GameRecord, seats: Sequence[SeatRecord]) -> None: ...

    async def save_seat(self, game_id: str, seat: SeatRecord) -> None: ...

    async def start_game(self, game_id: str, *, started_at: str, seed: int, commitment: str,
                         setup: dict[str, Any]) -> None: ...

    async def take_over_seat(self, game_id: str, seat: int, at: str) -> None:
        """A bot takes the seat over (stored before its first answer for the seat)."""

    async def append_answers(self, game_id: str, first_index: int,
                             entries: Sequence[Answer | Resignation], at: str,
                             charged_ms: Sequence[int | None] = ()) -> None:
        """`charged_ms`: per entry, what it charged its player's clock (none given: no
        clock ran)."""

    async def finish_game(self, game_id: str, *, state: GameState, finished_at: str,
                          result: dict[str, Any] | None,
                          rated: dict[str, Any] | None = None) -> None:
        """`rated`: a rated game's seats and ranks, for the ratings' outbox (stored with
        the end, in one transaction)."""

    async def append_chat(self, game_id: str, *, at: str, seat: int | None, name: str,
                          text: str) -> int:
        """The line's id."""

    async def remove_chat(self, game_id: str, line: int, at: str) -> bool: ...

    def load_game(self, game_id: str) -> StoredGame | None: ...

    def unfinished_games(self, after: tuple[str, str] | None = None,
                         limit: int | None = None) -> list[StoredGame]:
        """Open and playing games, oldest first (by created time, then id): those after
        `after` (a game's created time and id), at most `limit`."""


class MemoryGameLog:
    """A `GameLog` in memory, refusing what `Storage` refuses. `fail_writes` makes every
    write raise `StorageError` (a full disk, say) until it is set back to False."""

    def __init__(self) -> None:
        self.games: dict[str, GameRecord] = {}
        self.seats: dict[str, list[SeatRecord]] = {}
        self.answers: dict[str, list[Answer | Resignation]] = {}
        self.charged_ms: dict[str, list[int]] = {}
        self.chat: dict[str, list[dict[str, Any]]] = {}
        self._chat_lines = 0
        self.rating_outbox: dict[str, dict[str, Any]] = {}
        self.fail_writes = False

    def _game(self, game_id: str) -> GameRecord:
        if self.fail_writes:
            raise StorageError("the database cannot be written (MemoryGameLog.fail_writes)")
        if game_id not in self.games:
            raise StorageError(f"no game {game_id}")
        return self.games[game_id]

    async def create_game(self, game: GameRecord, seats: Sequence[SeatRecord]) -> None:
        if self.fail_writes:
            raise StorageError("the database cannot be written (MemoryGameLog.fail_writes)")
        check_game(game)
        for seat in seats:
            check_seat(seat, game.seats)
        if game.id in self.games:
            raise StorageError(f"game {game.id} exists")
        self.games[game.id] = game
        self.seats[game.id] = list(seats)
        self.answers[game.id] = []
        self.chat[game.id] = []

    async def save_seat(self, game_id: str, seat: SeatRecord) -> None:
        game = self._game(game_id)
        check_seat(seat, None)
        if seat.seat >= game.seats:
            raise StorageError(f"game {game_id} has {game.seats} seats, no seat {seat.seat}")
        self.seats[game_id][seat.seat] = seat

    async def take_over_seat(self, game_id: str, seat: int, at: str) -> None:
        self._game(game_id)
        seats = self.seats[game_id]
        if not 0 <= seat < len(seats):
            raise StorageError(f"game {game_id} has no seat {seat} to take over")
        seats[seat] = replace(seats[seat], taken_over_at=seats[seat].taken_over_at or at)

    async def start_game(self, game_id: str, *, started_at: str, seed: int, commitment: str,
                         setup: dict[str, Any]) -> None:
        check_seed(seed)
        game = self._game(game_id)
        if game.state != GameState.OPEN:
            raise StorageError(f"cannot start game {game_id}: it is {game.state}")
        self.games[game_id] = replace(game, state=GameState.PLAYING, started_at=started_at,
                                      seed=seed, commitment=commitment, setup=setup)

    async def append_answers(self, game_id: str, first_index: int,
                             entries: Sequence[Answer | Resignation], at: str,
                             charged_ms: Sequence[int | None] = ()) -> None:
        self._game(game_id)
        log = self.answers[game_id]
        if first_index != len(log):
            raise StorageError(f"game {game_id} has {len(log)} answers, not {first_index}")
        log.extend(entries)
        charges = list(charged_ms) or [None] * len(entries)
        self.charged_ms.setdefault(game_id, []).extend(ms or 0 for ms in charges)

    async def finish_game(self, game_id: str, *, state: GameState, finished_at: str,
                          result: dict[str, Any] | None,
                          rated: dict[str, Any] | None = None) -> None:
        if state not in ENDED_STATES:
            raise ValueError(f"state must be one of {', '.join(ENDED_STATES)}, not {state!r}")
        game = self._game(game_id)
        if game.state == state:
            return  # a retry after a write whose outcome was not heard
        if game.state not in UNFINISHED_STATES:
            raise StorageError(f"cannot finish game {game_id}: it is {game.state}")
        self.games[game_id] = replace(game, state=state, finished_at=finished_at,
                                      result=result)
        if rated is not None:
            self.rating_outbox[game_id] = rated

    async def append_chat(self, game_id: str, *, at: str, seat: int | None, name: str,
                          text: str) -> int:
        self._game(game_id)
        self._chat_lines += 1
        self.chat[game_id].append({"id": self._chat_lines, "at": at, "seat": seat,
                                   "name": name, "text": text, "removed_at": None})
        return self._chat_lines

    async def remove_chat(self, game_id: str, line: int, at: str) -> bool:
        self._game(game_id)
        found = next((said for said in self.chat[game_id]
                      if said["id"] == line and said["removed_at"] is None), None)
        if found is not None:
            found["removed_at"] = at
        return found is not None

    def load_game(self, game_id: str) -> StoredGame | None:
        if game_id not in self.games:
            return None
        return StoredGame(self.games[game_id], tuple(self.seats[game_id]),
                          tuple(self.answers[game_id]),
                          tuple(self.charged_ms.get(game_id, ())))

    def unfinished_games(self, after: tuple[str, str] | None = None,
                         limit: int | None = None) -> list[StoredGame]:
        keys = sorted((game.created_at, game_id) for game_id, game in self.games.items()
                      if game.state in UNFINISHED_STATES
                      and (after is None or (game.created_at, game_id) > after))
        return [stored for _, game_id in keys[:limit]
                if (stored := self.load_game(game_id)) is not None]
