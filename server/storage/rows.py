"""Records to SQLite rows and back (the schema is in schema.py and docs/STORAGE.md)."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from itertools import compress, count
from typing import Any

import msgpack  # type: ignore[import-untyped]
import orjson
import sqlite_utils
import zstandard

from dominion.server.engine import Answer, Resignation, ResignReason
from dominion.server.engine.decisions import new_answer

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
        kingdom=tuple(map(sys.intern, orjson.loads(row["kingdom"]))),
        kingdom_name=row["kingdom_name"],
        options=orjson.loads(row["options"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        seed=None if row["seed"] is None else int(row["seed"]),
        commitment=row["commitment"],
        setup=None if row["setup"] is None else _setup(row["setup"]),
        result=None if row["result"] is None else orjson.loads(row["result"]),
    )


def _setup(text: str) -> dict[str, Any]:
    """A stored set-up, its card ids one string each however many games name them: a
    restart holds every unfinished game's, a hundred thousand of them."""
    setup: dict[str, Any] = orjson.loads(text)
    if "kingdom" in setup:  # (always, but for a test's made-up set-up)
        setup["kingdom"] = list(map(sys.intern, setup["kingdom"]))
    return setup


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


SEAT_COLUMNS = "seat, name, token_hash, bot, joined_at, account_id, bot_account, taken_over_at"


def _seat_record(row: Sequence[Any]) -> SeatRecord:
    """A SeatRecord from SEAT_COLUMNS' values, in their order."""
    seat, name, token_hash, bot, joined_at, account_id, bot_account, taken_over_at = row
    return SeatRecord(seat=seat, name=name, token_hash=token_hash, bot=bot,
                      joined_at=joined_at, account_id=account_id,
                      bot_account=bool(bot_account), taken_over_at=taken_over_at)


def seats_of(db: sqlite_utils.Database, game_id: str) -> tuple[SeatRecord, ...]:
    return tuple(_seat_record(row) for row in db.conn.execute(
        f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", [game_id]))


GameRows = tuple[list[dict[str, Any]], list[tuple[Any, ...]], list[tuple[Any, ...]]]
"""The rows of some games, their seats and their answers, as `game_rows` reads them. A
game's answers are one row, (game_id, idxs, players, decisions, choices, charged,
resignations), each field but the id its answers' values joined by commas in the order of
their index: idxs, players, decisions (0 for a resignation), choices (JSON lists, '[]' for
a resignation) and charged (ms, 0 when no clock ran); resignations is None, or the
resignations' reasons ('' for none) joined by commas, with the ones among the kinds
(`kind = 'resign'`: 0 or 1 per answer) after a ';'."""

ANSWERS_OF_GAMES = (
    "SELECT game_id, group_concat(idx), group_concat(player), group_concat(decision),"
    " group_concat(choices), group_concat(ms),"
    " CASE WHEN max(resign) THEN group_concat(reason) || ';' || group_concat(resign) END"
    " FROM (SELECT game_id, idx, player, coalesce(decision, 0) AS decision,"
    " coalesce(choices, '[]') AS choices, coalesce(ms, 0) AS ms, kind = 'resign' AS resign,"
    " CASE WHEN kind = 'resign' THEN coalesce(reason, '') END AS reason FROM answers"
    " WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY game_id, idx)"
    " GROUP BY game_id ORDER BY game_id")
"""Each chosen game's answers as one row (GameRows): a restart reads millions of answers,
and a row each cost SQLite and Python more than their decoding. SQLite 3.40 does not
promise that `group_concat` keeps the inner query's order, so `_answer_logs` checks each
game's idxs and puts a game whose answers came out of order back in order."""


def game_rows(conn: sqlite3.Connection, where: str, params: Sequence[Any] = (),
              limit: int | None = None) -> GameRows:
    """The rows of the games `where` selects (a condition on the games table), oldest
    first, at most `limit` of them, with their seats' and answers': three queries in all,
    however many games. Plain cursors, and only reading: the records are made by
    `stored_games`, once the read connection is free again."""
    page = "" if limit is None else " LIMIT ?"
    cursor = conn.execute(f"SELECT * FROM games WHERE {where} ORDER BY created_at, id{page}",
                          [*params, *([] if limit is None else [limit])])
    columns = [column[0] for column in cursor.description]
    games = [dict(zip(columns, row, strict=True)) for row in cursor]
    # The chosen games' rows by their ids (one JSON list: any number, one parameter); the
    # (game_id, ...) keys give them game by game, in order.
    chosen = [to_json([game["id"] for game in games])]
    seats = conn.execute(f"SELECT game_id, {SEAT_COLUMNS} FROM seats WHERE game_id IN"
                         " (SELECT value FROM json_each(?)) ORDER BY game_id, seat",
                         chosen).fetchall()
    answers = conn.execute(ANSWERS_OF_GAMES, chosen).fetchall()
    return games, seats, answers


def stored_games(rows: GameRows) -> list[StoredGame]:
    """The games of `game_rows`, each with its seats and ordered answers."""
    games_rows, seat_rows, answer_rows = rows
    games = [game_record(row) for row in games_rows]
    seats: dict[str, list[SeatRecord]] = {game.id: [] for game in games}
    for game_id, *seat in seat_rows:
        seats[game_id].append(_seat_record(seat))
    logs = _answer_logs(answer_rows)
    return [StoredGame(game=game, seats=tuple(seats[game.id]),
                       answers=logs[game.id][0] if game.id in logs else (),
                       charged_ms=logs[game.id][1] if game.id in logs else ())
            for game in games]


AnswerLogs = dict[str, tuple[tuple[Answer | Resignation, ...], tuple[int, ...]]]


def _answer_logs(rows: Sequence[tuple[Any, ...]]) -> AnswerLogs:
    """Each game's answers and what each charged, from its row (GameRows). A restart reads
    them by the million: each field of every game of a page is parsed as one JSON document,
    and the answers made without a Python call each; only resignations (rare) are made one
    by one."""
    if not rows:
        return {}
    game_ids, idxs, players, decisions, choices, charged, resignations = zip(
        *rows, strict=True)
    counts = [text.count(",") + 1 for text in idxs]
    flat_players = _joined(players)
    entries: list[Answer | Resignation] = list(map(new_answer, zip(
        flat_players, _joined(decisions), map(tuple, _joined(choices)), strict=True)))
    flat_charged = tuple(_joined(charged))
    logs: AnswerLogs = {}
    start = 0
    for game_id, length, order, resigned in zip(game_ids, counts, idxs, resignations,
                                                strict=True):
        end = start + length
        if resigned is not None:
            _resign(entries, flat_players, start, resigned)
        game_entries, game_charged = tuple(entries[start:end]), flat_charged[start:end]
        if order != _in_order(length):  # (SQLite's group_concat gave them out of order)
            ranks = sorted(range(length), key=orjson.loads(f"[{order}]").__getitem__)
            game_entries = tuple(game_entries[rank] for rank in ranks)
            game_charged = tuple(game_charged[rank] for rank in ranks)
        logs[game_id] = game_entries, game_charged
        start = end
    return logs


def _joined(fields: Sequence[str]) -> list[Any]:
    """Every value of these comma-joined fields, in order, parsed as one JSON list."""
    return orjson.loads("[" + ",".join(fields) + "]")  # type: ignore[no-any-return]


@cache
def _in_order(length: int) -> str:
    """The idxs of a log read in order: 0 to length - 1, joined by commas."""
    return ",".join(map(str, range(length)))


def _resign(entries: list[Answer | Resignation], players: Sequence[int], start: int,
            resignations: str) -> None:
    """A game's resignations in place of the answers made for their rows (its answers
    from `start` in `entries`, in their rows' order)."""
    reasons, kinds = resignations.split(";")
    for at, reason in zip(compress(count(start), orjson.loads(f"[{kinds}]")),
                          reasons.split(","), strict=True):
        entries[at] = Resignation(players[at], ResignReason(reason) if reason else None)


ARCHIVE_LEVEL = 3
"""zstd's level for an archived game: its default, fast (docs/BENCHMARKS.md, "Archive")."""


def pack_game(stored: StoredGame) -> bytes:
    """A stored game as the shared archive keeps it: its row, seats (without the seat
    tokens' hashes: nobody plays it again) and answers, as msgpack, compressed with zstd.
    `unpack_game` reads it back; chat is kept beside it (lines may be removed later)."""
    game_id = stored.game.id
    seats = [(*seat_row(game_id, replace(seat, token_hash=None)).values(),)[1:]
             for seat in stored.seats]
    charged = stored.charged_ms or (0,) * len(stored.answers)
    answers = [(*row[2:6], *row[7:]) for row in (  # no game id, index or time
        answer_row(game_id, 0, entry, "", ms)
        for entry, ms in zip(stored.answers, charged, strict=True))]
    body = msgpack.packb([game_row(stored.game), seats, answers], use_bin_type=True)
    return zstandard.ZstdCompressor(level=ARCHIVE_LEVEL).compress(body)


def unpack_game(data: bytes, answers: bool = True) -> StoredGame:
    """A game as `pack_game` packed it; without its answers when not `answers` (for a
    reader that has what it needs of them elsewhere: making them is most of the cost)."""
    return unpack_counted(data, answers)[0]


def unpack_counted(data: bytes, answers: bool = True) -> tuple[StoredGame, int]:
    """`unpack_game`'s game, and how many answers it has (made or not): what its replay's
    work is paid by."""
    game, seats, logged = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data),
                                          use_list=False)
    game_id = game["id"]
    # its answers as `game_rows` reads them (GameRows); packed without the time (`at`),
    # which a stored game does not carry, and a resignation's choices as none
    rows = [_answers_row(game_id, logged)] if logged and answers else []
    stored = stored_games(([dict(game)], [(game_id, *seat) for seat in seats], rows))[0]
    return stored, len(logged)


def _answers_row(game_id: str, answers: Sequence[Sequence[Any]]) -> tuple[Any, ...]:
    """A game's answers row (GameRows) from its answers' (player, kind, decision, choices,
    ms, reason), as `ANSWERS_OF_GAMES` reads it from their rows."""
    players, kinds, decisions, choices, charged, reasons = zip(*answers, strict=True)
    resigns = [int(kind == "resign") for kind in kinds]

    def joined(values: Iterable[Any]) -> str:
        return ",".join(map(str, values))

    return (game_id, joined(range(len(answers))), joined(players),
            joined(decision or 0 for decision in decisions),
            ",".join(text or "[]" for text in choices), joined(ms or 0 for ms in charged),
            (",".join(reason or "" for reason, resign in zip(reasons, resigns, strict=True)
                      if resign) + ";" + joined(resigns)) if any(resigns) else None)
