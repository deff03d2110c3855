"""What the storage keeps, as records: games, seats and answer logs, and their checks."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dominion.server.engine import Answer, Resignation


class GameState(StrEnum):
    """Where a game is in its life; stored as its value."""

    OPEN = "open"
    """Waiting for players to take its seats."""
    PLAYING = "playing"
    FINISHED = "finished"
    """Played to its end (or every other player resigned)."""
    ABANDONED = "abandoned"
    """Ended without a winner: a player stayed away and no bot took the seat."""


GAME_STATES = tuple(GameState)
UNFINISHED_STATES = (GameState.OPEN, GameState.PLAYING)
ENDED_STATES = (GameState.FINISHED, GameState.ABANDONED)
ENDED = "ended"
"""A listing's state filter for games that have ended either way (finished or abandoned)."""
LISTING_STATES = (*GAME_STATES, ENDED)


class StorageError(Exception):
    """The database cannot be used or written: the message says what is wrong and what to do."""


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    name: str | None = None
    token_hash: str | None = None  # hex SHA-256 of the seat token, never the token
    bot: str | None = None  # strategy of the in-server bot that sits here from the start
    joined_at: str | None = None
    account_id: int | None = None  # the account it was taken as, if signed in
    bot_account: bool = False  # taken by a bot account: marked as a bot wherever shown
    taken_over_at: str | None = None  # when a bot first took over from its absent player


@dataclass(frozen=True)
class GameRecord:
    id: str
    created_at: str
    state: GameState
    edition: int
    seats: int
    kingdom: tuple[str, ...]
    kingdom_name: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    started_at: str | None = None
    finished_at: str | None = None
    seed: int | None = None
    commitment: str | None = None
    setup: dict[str, Any] | None = None
    result: dict[str, Any] | None = None

    @property
    def rated(self) -> bool:
        """Its creator asked for a rated game (`rated` in the options): every seat is an
        account or an in-server bot."""
        return bool(self.options.get("rated", False))


@dataclass(frozen=True)
class StoredGame:
    game: GameRecord
    seats: tuple[SeatRecord, ...]
    answers: tuple[Answer | Resignation, ...]
    charged_ms: tuple[int, ...] = ()
    """Per answer, the milliseconds it charged its player's clock (0: none ran; empty
    for a store that keeps none)."""


def check_seed(seed: int | None) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"a seed is a non-negative integer, not {seed!r}")


def check_game(game: GameRecord) -> None:
    if game.state not in GAME_STATES:
        raise ValueError(f"state must be one of {', '.join(GAME_STATES)}, not {game.state!r}")
    if not 2 <= game.seats <= 6:
        raise ValueError(f"a game has 2-6 seats, not {game.seats}")
    check_seed(game.seed)


def check_seat(seat: SeatRecord, seats: int | None) -> None:
    if seat.seat < 0 or (seats is not None and seat.seat >= seats):
        raise ValueError(f"bad seat number {seat.seat}")
