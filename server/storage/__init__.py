"""Durable storage of games in one SQLite file (through sqlite-utils).

A restarted server rebuilds unfinished games from what is stored here: set-up, seed
and the ordered answers. Events are not stored: they follow from those, and replays
derive them (schema version 2 dropped the events table). The schema is documented in
docs/STORAGE.md.

  records  what is kept: games, seats, answer logs (and StorageError)
  schema   the file: recognising it, its pragmas, schema and migrations
  rows     records to rows and back
  store    `Storage`: the writer thread with group commit (write-ahead), and reads
  lock     one server per file: the lock `Storage` holds while it is open
  game_log `GameLog`: what a live game needs of storage; `MemoryGameLog` for tests
"""

from __future__ import annotations

from .game_log import GameLog, MemoryGameLog
from .lock import DatabaseInUse
from .records import GAME_STATES, GameRecord, GameState, SeatRecord, StorageError, StoredGame
from .schema import APPLICATION_ID, SCHEMA_VERSION
from .store import Storage

__all__ = [
    "APPLICATION_ID",
    "GAME_STATES",
    "SCHEMA_VERSION",
    "DatabaseInUse",
    "GameLog",
    "GameRecord",
    "GameState",
    "MemoryGameLog",
    "SeatRecord",
    "Storage",
    "StorageError",
    "StoredGame",
]
