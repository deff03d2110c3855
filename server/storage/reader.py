"""A node's games database read by another process while its server may run (a host's
command such as `dominion-server ratings reconcile`): read-only, through SQLite's own
locking (WAL readers never block the server's writer), without the server's lock."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

import orjson

from .records import ENDED_STATES, StorageError, StoredGame
from .rows import game_rows, stored_games
from .schema import APPLICATION_ID, SCHEMA_VERSION, check_header, describe

OUTBOX_SINCE = 6
"""The schema version that made the ratings' outbox (schema.py)."""


class GamesReader:
    """Open with `GamesReader.open`; a context manager that closes it."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self._db = db
        self.path = path

    @classmethod
    def open(cls, path: str) -> GamesReader:
        """The database at `path`, or StorageError: missing (never made: read-only),
        another program's, or of a schema without the outbox or newer than this server's."""
        if not Path(path).is_file():
            raise StorageError(f"database {path}: no such file; give the node's --db")
        check_header(path)
        try:
            db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                 timeout=10.0)
            app_id, version = (db.execute(f"PRAGMA {pragma}").fetchone()[0]
                               for pragma in ("application_id", "user_version"))
        except sqlite3.Error as error:
            raise StorageError(describe(error, path)) from None
        if app_id != APPLICATION_ID or not OUTBOX_SINCE <= version <= SCHEMA_VERSION:
            db.close()
            raise StorageError(
                f"database {path} is not a dominion-server games database of schema "
                f"{OUTBOX_SINCE} to {SCHEMA_VERSION} (it has {version}); start the server "
                "on it once to migrate it, or give the node's own --db")
        return cls(db, path)

    def rated_games(self) -> list[dict[str, Any]]:
        """Every finished rated game of the outbox, handed on or not, oldest first (each
        as `Storage.finish_game` was given it)."""
        rows = self._read("SELECT game FROM rating_outbox ORDER BY created_at, game_id")
        return [orjson.loads(row[0]) for row in rows]

    def games_present(self, game_ids: Collection[str]) -> set[str]:
        """Which of these games the database has: its games, and the rated games it pruned
        once the archive had them (their ratings' outbox rows stay)."""
        listed = json.dumps(list(game_ids))
        rows = self._read("SELECT id FROM games WHERE id IN (SELECT value FROM json_each(?)) "
                          "UNION SELECT game_id FROM rating_outbox WHERE game_id IN "
                          "(SELECT value FROM json_each(?))", listed, listed)
        return {row[0] for row in rows}

    def ended_games(self, batch: int = 500
                    ) -> Iterator[list[tuple[StoredGame, list[dict[str, Any]]]]]:
        """The database's ended games, archived or not, oldest first, a batch at a time
        (memory stays bounded however many it holds), each with every chat line (removed
        ones too, marked), as the archive takes them."""
        after = ("", "")
        while True:
            keys = self._read(
                "SELECT finished_at, id FROM games WHERE state IN (?, ?) AND "
                "(finished_at, id) > (?, ?) ORDER BY finished_at, id LIMIT ?",
                *ENDED_STATES, *after, batch)
            if not keys:
                return
            listed = json.dumps([game_id for _, game_id in keys])
            chosen = "id IN (SELECT value FROM json_each(?))"
            try:  # the batch's games, seats, answers and chat in four queries
                rows = game_rows(self._db, chosen, [listed])
            except sqlite3.Error as error:
                raise StorageError(describe(error, self.path)) from None
            lines = self._read("SELECT game_id, id, at, seat, name, text, removed_at FROM chat "
                               "WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY id",
                               listed)
            chat: dict[str, list[dict[str, Any]]] = {}
            for game_id, *line in lines:
                chat.setdefault(game_id, []).append(dict(zip(
                    ("id", "at", "seat", "name", "text", "removed_at"), line, strict=True)))
            yield [(stored, chat.get(stored.game.id, [])) for stored in stored_games(rows)]
            after = keys[-1]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GamesReader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _read(self, query: str, *parameters: Any) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(query, parameters).fetchall()
        except sqlite3.Error as error:
            raise StorageError(describe(error, self.path)) from None
