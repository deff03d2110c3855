"""Records to SQLite rows and back (the schema is in schema.py and docs/STORAGE.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
import sqlite_utils

from dominion.server.engine import Answer, Resignation, ResignReason

from .records import GameRecord, GameState, SeatRecord, StoredGame


def to_json(value: Any) -> str:
    """Compact JSON text (orjson: fast, and exact for the ints and strings stored)."""
    return orjson.dumps(value).decode()


def scalar(db: sqlite_utils.Database, sql: str, params: Sequence[Any]) -> Any:
    return db.execute(sql, list(params)).fetchone()[0]


def state_of(db: sqlite_utils.Database, game_id: str) -> str:
    row = db.execute("SELECT state FROM games WHERE id = ?", [game_id]).fetchone()
    return "no such game" if row is None else f"it is {row[0]}"


def game_row(game: GameRecord) -> dict[str, Any]:
    return {
        "id": game.id,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "state": str(game.state),
        "edition": game.edition,
        "seats": game.seats,
        "kingdom": to_json(list(game.kingdom)),
        "kingdom_name": game.kingdom_name,
        "seed": None if game.seed is None else str(game.seed),
        "commitment": game.commitment,
        "setup": None if game.setup is None else to_json(game.setup),
        "result": None if game.result is None else to_json(game.result),
        "options": to_json(game.options),
    }


def game_record(row: dict[str, Any]) -> GameRecord:
    return GameRecord(
        id=row["id"],
        created_at=row["created_at"],
        state=GameState(row["state"]),
        edition=row["edition"],
        seats=row["seats"],
        kingdom=tuple(orjson.loads(row["kingdom"])),
        kingdom_name=row["kingdom_name"],
        options=orjson.loads(row["options"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        seed=None if row["seed"] is None else int(row["seed"]),
        commitment=row["commitment"],
        setup=None if row["setup"] is None else orjson.loads(row["setup"]),
        result=None if row["result"] is None else orjson.loads(row["result"]),
    )


def seat_row(game_id: str, seat: SeatRecord) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seat": seat.seat,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "bot": seat.bot,
        "joined_at": seat.joined_at,
        "account_id": seat.account_id,
        "bot_account": int(seat.bot_account),
        "taken_over_at": seat.taken_over_at,
    }


def insert(db: sqlite_utils.Database, table: str, rows: list[dict[str, Any]], *,
            replace: bool = False) -> None:
    """Insert rows that share their keys, as one prepared statement. sqlite-utils'
    `insert` would also work out the table's columns each time: Python on the writer
    thread that holds the GIL the event loop needs (~0.1 ms per game created)."""
    if not rows:
        return
    columns = list(rows[0])
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    # the table and column names are the storage's own constants, never input
    sql = (f"{verb} INTO {table} ({', '.join(columns)})"
           f" VALUES ({', '.join('?' * len(columns))})")
    db.conn.executemany(sql, [[row[column] for column in columns] for row in rows])


INSERT_ANSWER = (
    "INSERT INTO answers (game_id, idx, player, kind, decision, choices, at, ms, reason)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def answer_row(game_id: str, idx: int, entry: Answer | Resignation, at: str,
               ms: int | None = None) -> tuple[Any, ...]:
    """`ms`: what the entry charged its player's clock (None: no clock ran)."""
    if isinstance(entry, Resignation):
        reason = None if entry.reason is None else entry.reason.value
        return (game_id, idx, entry.player, "resign", None, None, at, ms, reason)
    if isinstance(entry, Answer):
        return (game_id, idx, entry.player, "answer", entry.decision,
                to_json([int(c) for c in entry.choices]), at, ms, None)
    raise TypeError(f"an answer log entry is an Answer or a Resignation, not {entry!r}")


def seats_of(db: sqlite_utils.Database, game_id: str) -> tuple[SeatRecord, ...]:
    return tuple(
        SeatRecord(
            seat=seat["seat"],
            name=seat["name"],
            token_hash=seat["token_hash"],
            bot=seat["bot"],
            joined_at=seat["joined_at"],
            account_id=seat["account_id"],
            bot_account=bool(seat["bot_account"]),
            taken_over_at=seat["taken_over_at"],
        )
        for seat in db.query("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", [game_id])
    )


def stored_game(db: sqlite_utils.Database, row: dict[str, Any]) -> StoredGame:
    game_id = row["id"]
    seats = seats_of(db, game_id)
    answers: list[Answer | Resignation] = []
    charged: list[int] = []
    for answer in db.query(
        "SELECT player, kind, decision, choices, ms, reason FROM answers WHERE game_id = ?"
        " ORDER BY idx",
        [game_id],
    ):
        if answer["kind"] == "resign":
            reason = answer["reason"]
            answers.append(Resignation(answer["player"],
                                       None if reason is None else ResignReason(reason)))
        else:
            answers.append(
                Answer(answer["player"], answer["decision"], tuple(orjson.loads(answer["choices"])))
            )
        charged.append(answer["ms"] or 0)
    return StoredGame(game=game_record(row), seats=seats, answers=tuple(answers),
                      charged_ms=tuple(charged))
