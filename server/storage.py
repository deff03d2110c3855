"""Durable storage of games in one SQLite file (through sqlite-utils).

Write-ahead: every write method returns only after its transaction has been
COMMITted, so the server can tell clients about an answer once the `await`
returns. A restarted server rebuilds unfinished games from what is stored here:
set-up, seed and the ordered answers. Events are not stored: they follow from
those, and replays derive them (schema version 2 dropped the events table).

Writes go through one writer thread that groups every operation queued so far
into one transaction (group commit): one fsync covers many answers. Reads run on
the caller's thread through a second connection; WAL lets them run beside the
writer. The schema is documented in docs/STORAGE.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import sqlite_utils

from dominion.server.engine import Answer, Resignation

__all__ = [
    "APPLICATION_ID",
    "GAME_STATES",
    "SCHEMA_VERSION",
    "GameRecord",
    "SeatRecord",
    "Storage",
    "StorageError",
    "StoredGame",
]

# "DOMN": marks the file as ours in the SQLite header (PRAGMA application_id), so
# another program's database is refused instead of being written into.
APPLICATION_ID = 0x444F4D4E
GAME_STATES = ("open", "playing", "finished", "abandoned")
UNFINISHED_STATES = ("open", "playing")
ENDED_STATES = ("finished", "abandoned")
SYNCHRONOUS_MODES = ("FULL", "NORMAL")


class StorageError(Exception):
    """The database cannot be used or written: the message says what is wrong and what to do."""


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    name: str | None = None
    token_hash: str | None = None  # hex SHA-256 of the seat token, never the token
    bot: str | None = None  # strategy name when a bot holds the seat
    joined_at: str | None = None


@dataclass(frozen=True)
class GameRecord:
    id: str
    created_at: str
    state: str
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


@dataclass(frozen=True)
class StoredGame:
    game: GameRecord
    seats: tuple[SeatRecord, ...]
    answers: tuple[Answer | Resignation, ...]


# ---------------------------------------------------------------------------
# Schema and migrations

def _migrate_1(db: sqlite_utils.Database) -> None:
    """Version 1: the initial schema."""
    db.create_table(
        "games",
        {
            "id": str,
            "created_at": str,
            "started_at": str,
            "finished_at": str,
            "state": str,
            "edition": int,
            "seats": int,
            "kingdom": str,
            "kingdom_name": str,
            "seed": str,  # decimal text: seeds have up to 128 bits, SQLite ints 64
            "commitment": str,
            "setup": str,
            "result": str,
            "options": str,
        },
        pk="id",
        not_null=["created_at", "state", "edition", "seats", "kingdom", "options"],
    )
    db.create_table(
        "seats",
        {
            "game_id": str,
            "seat": int,
            "name": str,
            "token_hash": str,
            "bot": str,
            "joined_at": str,
        },
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "seat"],
    )
    db.create_table(
        "answers",
        {
            "game_id": str,
            "idx": int,
            "player": int,
            "kind": str,
            "decision": int,
            "choices": str,
            "at": str,
        },
        pk=("game_id", "idx"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "idx", "player", "kind", "at"],
    )
    db.create_table(
        "events",
        {"game_id": str, "seq": int, "event": str},
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "seq", "event"],
    )
    db.create_table(
        "chat",
        {"id": int, "game_id": str, "at": str, "seat": int, "name": str, "text": str},
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "at", "name", "text"],
    )
    # The Kingdom once more, one row per card, so "games with Witch" is an index lookup.
    db.create_table(
        "kingdom_cards",
        {"card": str, "game_id": str},
        pk=("card", "game_id"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["card", "game_id"],
    )
    games = db.table("games")
    games.create_index(["state", "created_at"], index_name="games_state_created")
    games.create_index(["state", "finished_at"], index_name="games_state_finished")
    games.create_index(["finished_at"], index_name="games_finished")
    # (name, game_id) also serves as the index on seats(name), and covers the player filter.
    db.table("seats").create_index(["name", "game_id"], index_name="seats_name")
    db.table("chat").create_index(["game_id", "id"], index_name="chat_game")
    db.table("kingdom_cards").create_index(["game_id"], index_name="kingdom_cards_game")


def _migrate_2(db: sqlite_utils.Database) -> None:
    """Version 2: no events table; a game's events are derived from its answers."""
    db.execute("DROP TABLE events")


# MIGRATIONS[i] turns schema version i into version i + 1. Append, never edit.
MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (_migrate_1, _migrate_2)
SCHEMA_VERSION = len(MIGRATIONS)


# ---------------------------------------------------------------------------
# Connections

def _connect(path: str, *, check_same_thread: bool = False) -> sqlite3.Connection:
    """Every connection is made here (tests replace it to provoke read-only files as root)."""
    # The writer connection is made on the opener's thread and used on the writer
    # thread; the read connection is guarded by a lock. Hence check_same_thread=False.
    return sqlite3.connect(path, timeout=10.0, check_same_thread=check_same_thread)


def _pragma(db: sqlite_utils.Database, sql: str) -> Any:
    row = db.execute(sql).fetchone()
    return None if row is None else row[0]


def _describe(error: BaseException, path: str) -> str:
    """A sentence for people about a failed SQLite operation, with what to do."""
    name = getattr(error, "sqlite_errorname", "")
    text = str(error)
    if name.startswith("SQLITE_FULL") or "full" in text:
        hint = "the disk (or the database's size limit) is full: free space, then restart"
    elif name.startswith("SQLITE_READONLY") or "readonly" in text:
        hint = "the file or its folder is read-only: make both writable by the server's user"
    elif name.startswith("SQLITE_BUSY") or "locked" in text:
        hint = "another process holds a lock on the file: stop it, one server per file"
    elif name.startswith("SQLITE_IOERR"):
        hint = "the disk reported an I/O error: check the disk and the file system"
    elif name.startswith("SQLITE_CONSTRAINT"):
        hint = "a database constraint refused the write: this is a bug in the server"
    elif name.startswith("SQLITE_CANTOPEN"):
        hint = ("cannot open the file or create its -wal and -shm files beside it: "
                "check the folder's permissions")
    elif name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        hint = "the file is damaged: restore it from a backup"
    else:
        hint = "see the SQLite error"
    return f"database {path}: {text} ({name or type(error).__name__}); {hint}"


def _json(value: Any) -> str:
    """Compact JSON text (orjson: fast, and exact for the ints and strings stored)."""
    return orjson.dumps(value).decode()


# ---------------------------------------------------------------------------
# The write queue

@dataclass(slots=True)
class _Append:
    """Entries for one game's answer log, from position `first_index` on. The answers are
    the bulk of all writes: the appends in a row of a batch go to SQLite as one
    `executemany` (few calls, so few hand-overs of the GIL between the writer thread and
    the event loop), checked against the lengths of the logs, which the writer thread
    remembers rather than asks SQLite for each time."""

    game_id: str
    first_index: int
    rows: list[tuple[Any, ...]]


# A write operation runs on the writer thread inside the batch's transaction.
Operation = Callable[[sqlite_utils.Database], None] | _Append


@dataclass
class _Job:
    operation: Operation | None  # None: stop after everything queued before
    future: asyncio.Future[None]


def _resolve_all(outcomes: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    # Runs on the loop's thread. A caller that stopped waiting (cancelled) is skipped;
    # its write was committed or failed all the same.
    for future, error in outcomes:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


class Storage:
    """One database file: a writer thread with group commit, and a read connection."""

    def __init__(
        self, path: str, writer: sqlite_utils.Database, reader: sqlite_utils.Database
    ) -> None:
        # Use Storage.open(): it checks, creates or migrates the file first.
        self.path = path
        self._writer = writer
        self._reader = reader
        self._read_lock = threading.Lock()
        self._queue: queue.SimpleQueue[list[_Job]] = queue.SimpleQueue()
        self._handing: list[_Job] = []  # this loop turn's jobs, handed over together
        self._log_ends: dict[str, int] = {}  # writer thread only: committed log lengths
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop that started it
        self._closed = False
        self._healthy = True
        self.last_error: StorageError | None = None
        # Counted on the writer thread; read by tests and the health page.
        self.commits = 0  # transactions committed
        self.committed_writes = 0  # write operations committed
        self.failed_batches = 0

    # -- opening ------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, synchronous: str = "FULL") -> Storage:
        """Open the database at `path`, creating or migrating it; StorageError if unusable.

        `synchronous` is "FULL" (default: a commit survives power loss) or "NORMAL"
        (a commit survives a crash of the server process; the last commits may be
        lost on power loss, in exchange for fewer fsyncs).
        """
        mode = synchronous.upper()
        if mode not in SYNCHRONOUS_MODES:
            raise StorageError(
                f"synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}, not {synchronous!r}"
            )
        filename = os.fspath(path)
        if filename == ":memory:" or filename.startswith("file:"):
            raise StorageError(f"{filename!r}: give the path of a database file")
        folder = Path(filename).resolve().parent
        if not folder.is_dir():
            raise StorageError(
                f"database {filename}: the folder {folder} does not exist; create it first"
            )
        if Path(filename).is_dir():
            raise StorageError(f"database {filename} is a folder; give a file path")
        if os.path.exists(filename):
            _check_header(filename)
        elif not os.access(folder, os.W_OK):
            raise StorageError(
                f"database {filename}: cannot create it, the folder {folder} is read-only; "
                "make it writable by the server's user"
            )
        if os.path.exists(filename) and not os.access(filename, os.W_OK):
            raise StorageError(
                f"database {filename} is read-only; make it (and its folder) writable by "
                "the server's user"
            )
        writer = reader = None
        try:
            writer = sqlite_utils.Database(_connect(filename), execute_plugins=False)
            _configure(writer, filename, mode)
            _create_or_migrate(writer, filename)
            reader = sqlite_utils.Database(_connect(filename), execute_plugins=False)
            reader.execute("PRAGMA foreign_keys = ON")
            # The read connection must never write: everything goes through the writer.
            reader.execute("PRAGMA query_only = ON")
        except sqlite3.Error as error:
            for db in (writer, reader):
                if db is not None:
                    db.close()
            raise StorageError(_describe(error, filename)) from error
        except BaseException:
            for db in (writer, reader):
                if db is not None:
                    db.close()
            raise
        return cls(filename, writer, reader)

    # -- life cycle ---------------------------------------------------------

    async def start(self) -> None:
        """Start the writer thread. Writes before this raise StorageError; writes after it
        must come from the event loop that called it (their futures belong to it)."""
        if self._closed:
            raise StorageError(f"database {self.path} is closed")
        if self._thread is not None:
            return
        # Bound once: asyncio.get_running_loop() makes a getpid system call on Python
        # 3.11, which costs several microseconds per answer on a virtual machine.
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(
            target=self._write_loop, name=f"storage-writer {self.path}", daemon=True
        )
        self._thread.start()

    async def close(self) -> None:
        """Commit everything queued, stop the writer thread, close both connections."""
        if self._closed:
            return
        self._closed = True  # refuse new writes from here on
        thread, loop = self._thread, self._loop
        if thread is not None and loop is not None:
            done: asyncio.Future[None] = loop.create_future()
            self._hand(_Job(None, done))
            await done  # resolved after every write queued before it is done
            await asyncio.to_thread(thread.join)
        self._writer.close()
        with self._read_lock:
            self._reader.close()

    @property
    def healthy(self) -> bool:
        """False once a write batch has failed (full disk, read-only file, ...).

        It stays False until restart: the server should stop taking new games and
        say why (`last_error`). Later writes are still attempted.
        """
        return self._healthy

    # -- writes -------------------------------------------------------------

    async def _submit(self, operation: Operation) -> None:
        """Queue `operation` for the writer; return once its transaction is committed."""
        if self._closed:
            raise StorageError(f"database {self.path} is closed; nothing more can be saved")
        loop = self._loop
        if loop is None:
            raise StorageError("Storage.start() was not called; nothing can be saved yet")
        future: asyncio.Future[None] = loop.create_future()
        self._hand(_Job(operation, future))
        await future

    def _hand(self, job: _Job) -> None:
        """Queue `job` for the writer thread at the end of this loop turn, with every other
        job of the turn: one wake-up of the writer (a futex call, and a GIL hand-over)
        for many answers instead of one each."""
        handing = self._handing
        handing.append(job)
        if len(handing) == 1:
            job.future.get_loop().call_soon(self._hand_over)

    def _hand_over(self) -> None:
        jobs, self._handing = self._handing, []
        self._queue.put(jobs)

    async def create_game(self, game: GameRecord, seats: Sequence[SeatRecord]) -> None:
        """Insert a new game with its seats (seats not given can be saved later)."""
        _check_game(game)
        row = _game_row(game)
        for seat in seats:
            _check_seat(seat, game.seats)
        if len({seat.seat for seat in seats}) != len(seats):
            raise ValueError(f"game {game.id}: a seat number is given twice")
        seat_rows = [_seat_row(game.id, seat) for seat in seats]
        cards = [{"card": card, "game_id": game.id} for card in dict.fromkeys(game.kingdom)]

        def operation(db: sqlite_utils.Database) -> None:
            _insert(db, "games", [row])
            _insert(db, "seats", seat_rows)
            _insert(db, "kingdom_cards", cards)

        await self._submit(operation)

    async def save_seat(self, game_id: str, seat: SeatRecord) -> None:
        """Insert or replace one seat of an existing game."""
        _check_seat(seat, None)
        row = _seat_row(game_id, seat)

        def operation(db: sqlite_utils.Database) -> None:
            found = db.execute("SELECT seats FROM games WHERE id = ?", [game_id]).fetchone()
            if found is None:
                raise StorageError(f"cannot save a seat of unknown game {game_id}")
            if seat.seat >= found[0]:
                raise StorageError(f"game {game_id} has {found[0]} seats, no seat {seat.seat}")
            _insert(db, "seats", [row], replace=True)

        await self._submit(operation)

    async def start_game(
        self,
        game_id: str,
        *,
        started_at: str,
        seed: int,
        commitment: str,
        setup: dict[str, Any],
    ) -> None:
        """Record the start of an open game: its seed, the seed's commitment and set-up."""
        _check_seed(seed)
        values = [started_at, str(seed), commitment, _json(setup), game_id]

        def operation(db: sqlite_utils.Database) -> None:
            cursor = db.execute(
                "UPDATE games SET state = 'playing', started_at = ?, seed = ?,"
                " commitment = ?, setup = ? WHERE id = ? AND state = 'open'",
                values,
            )
            if cursor.rowcount != 1:
                raise StorageError(f"cannot start game {game_id}: {_state_of(db, game_id)}")

        await self._submit(operation)

    async def append_answers(
        self,
        game_id: str,
        first_index: int,
        entries: Sequence[Answer | Resignation],
        at: str,
    ) -> None:
        """Append answers and resignations at log positions first_index, first_index + 1, ...

        The log has no gaps: `first_index` must be the number of entries already stored.
        """
        if first_index < 0:
            raise ValueError(f"first_index must be >= 0, not {first_index}")
        rows = [_answer_row(game_id, first_index + i, entry, at) for i, entry in enumerate(entries)]
        if not rows:
            return
        await self._submit(_Append(game_id, first_index, rows))

    async def finish_game(
        self,
        game_id: str,
        *,
        state: str,
        finished_at: str,
        result: dict[str, Any] | None,
    ) -> None:
        """Mark a game finished or abandoned, with its result."""
        if state not in ENDED_STATES:
            raise ValueError(f"state must be one of {', '.join(ENDED_STATES)}, not {state!r}")
        result_json = None if result is None else _json(result)

        def operation(db: sqlite_utils.Database) -> None:
            cursor = db.execute(
                "UPDATE games SET state = ?, finished_at = ?, result = ?"
                " WHERE id = ? AND state IN ('open', 'playing')",
                [state, finished_at, result_json, game_id],
            )
            if cursor.rowcount != 1:
                raise StorageError(f"cannot finish game {game_id}: {_state_of(db, game_id)}")

        await self._submit(operation)

    async def append_chat(
        self, game_id: str, *, at: str, seat: int | None, name: str, text: str
    ) -> None:
        """Store one chat line of a game (seat None: a spectator or the server)."""
        row = {"game_id": game_id, "at": at, "seat": seat, "name": name, "text": text}

        def operation(db: sqlite_utils.Database) -> None:
            db.execute(
                "INSERT INTO chat (game_id, at, seat, name, text) VALUES (?, ?, ?, ?, ?)",
                [row["game_id"], row["at"], row["seat"], row["name"], row["text"]],
            )

        await self._submit(operation)

    def _write_loop(self) -> None:
        """The writer thread: take all queued jobs, run them in one transaction, commit."""
        while True:
            batch = self._queue.get()
            with contextlib.suppress(queue.Empty):
                while True:
                    batch += self._queue.get_nowait()
            # close() refuses new writes before it queues its stop job, so normally
            # nothing follows a stop job; anything that does is still saved, in order.
            work = [job for job in batch if job.operation is not None]
            stops = [job for job in batch if job.operation is None]
            if work:
                self._run_batch(work)
            if stops:
                self._reply_all([(job, None) for job in stops])
                return

    def _run_batch(self, batch: list[_Job]) -> None:
        db = self._writer
        error: BaseException | None = None
        try:
            db.execute("BEGIN IMMEDIATE")
            appends: list[_Append] = []
            ends: dict[str, int] = {}  # the logs' lengths once this batch is committed
            for job in batch:
                operation = job.operation
                assert operation is not None
                if isinstance(operation, _Append):
                    appends.append(operation)
                    continue
                if appends:
                    self._append_all(db, appends, ends)
                    appends = []
                operation(db)
            if appends:
                self._append_all(db, appends, ends)
            db.commit()
            if len(self._log_ends) + len(ends) > LOG_ENDS_KEPT:
                self._log_ends.clear()
            self._log_ends.update(ends)
        except Exception as exc:
            error = exc
            with contextlib.suppress(sqlite3.Error):
                db.rollback()  # nothing of a failed batch is kept
        if error is None:
            self.commits += 1
            self.committed_writes += len(batch)
            self._reply_all([(job, None) for job in batch])
            return
        self.failed_batches += 1
        self._healthy = False
        if isinstance(error, StorageError):
            message = str(error)
        elif isinstance(error, sqlite3.Error):
            message = _describe(error, self.path)
        else:
            message = f"database {self.path}: {type(error).__name__}: {error}"
        message = f"not saved ({len(batch)} writes in the failed transaction): {message}"
        self.last_error = StorageError(message)
        replies: list[tuple[_Job, BaseException | None]] = []
        for job in batch:
            # One exception object per waiter: each raise sets its own traceback.
            failure = StorageError(message)
            failure.__cause__ = error
            replies.append((job, failure))
        self._reply_all(replies)

    def _append_all(self, db: sqlite_utils.Database, appends: list[_Append],
                    ends: dict[str, int]) -> None:
        """Write `appends` in order; StorageError for the first that would leave a gap or
        an overlap in its game's log (the whole batch is then rolled back)."""
        rows: list[tuple[Any, ...]] = []
        for append in appends:
            game_id = append.game_id
            end = ends.get(game_id, self._log_ends.get(game_id))
            if end is None:
                end = _scalar(db, "SELECT coalesce(max(idx) + 1, 0) FROM answers"
                                  " WHERE game_id = ?", [game_id])
            if end != append.first_index:
                # the caller's log and ours disagree: refuse rather than store a log that
                # cannot be replayed
                raise StorageError(f"game {game_id} has {end} stored answers; cannot append "
                                   f"at {append.first_index}")
            ends[game_id] = end + len(append.rows)
            rows += append.rows
        db.conn.executemany(_INSERT_ANSWER, rows)

    def _reply_all(self, replies: list[tuple[_Job, BaseException | None]]) -> None:
        """Resolve futures in submission order, one wake-up of the event loop per batch."""
        loop = self._loop
        assert loop is not None  # the writer thread runs only after start()
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(_resolve_all, [(job.future, error) for job, error in replies])

    # -- reads --------------------------------------------------------------

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite_utils.Database]:
        """One read transaction: every query inside sees the same committed snapshot."""
        if self._closed:
            raise StorageError(f"database {self.path} is closed")
        with self._read_lock:
            db = self._reader
            db.execute("BEGIN")
            try:
                yield db
            finally:
                db.rollback()  # read-only: ending it is all that is needed

    def load_game(self, game_id: str) -> StoredGame | None:
        """A game with its seats and ordered answers, or None if there is no such game."""
        with self._read() as db:
            rows = list(db.query("SELECT * FROM games WHERE id = ?", [game_id]))
            if not rows:
                return None
            return _stored_game(db, rows[0])

    def unfinished_games(self) -> list[StoredGame]:
        """Every open or playing game, oldest first, to rebuild after a restart."""
        with self._read() as db:
            rows = db.query(
                "SELECT * FROM games WHERE state IN ('open', 'playing')"
                " ORDER BY created_at, id"
            )
            return [_stored_game(db, row) for row in list(rows)]

    def list_games(
        self,
        *,
        state: str | None = None,
        player: str | None = None,
        since: str | None = None,
        until: str | None = None,
        edition: int | None = None,
        players: int | None = None,
        card: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[GameRecord], int]:
        """A page of games, newest first, and how many match in all.

        A game's time is `finished_at` once it has ended (finished or abandoned),
        `created_at` before; `since` (inclusive) and `until` (exclusive) compare it
        as text, so give them in the same ISO 8601 UTC form as the stored times.
        `player` matches a seat name exactly; `card` is a card id in the Kingdom;
        `players` is the number of seats. Bad values raise ValueError.
        """
        if state is not None and state not in GAME_STATES:
            raise ValueError(f"state must be one of {', '.join(GAME_STATES)}, not {state!r}")
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must be >= 0")
        # Name the column when the state fixes it, so the (state, time) indexes serve.
        if state in ENDED_STATES:
            when = "g.finished_at"
        elif state in UNFINISHED_STATES:
            when = "g.created_at"
        else:
            when = "coalesce(g.finished_at, g.created_at)"
        where: list[str] = []
        params: list[Any] = []
        if state is not None:
            where.append("g.state = ?")
            params.append(state)
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM seats s WHERE s.name = ? AND s.game_id = g.id)")
            params.append(player)
        if since is not None:
            where.append(f"{when} >= ?")
            params.append(since)
        if until is not None:
            where.append(f"{when} < ?")
            params.append(until)
        if edition is not None:
            where.append("g.edition = ?")
            params.append(edition)
        if players is not None:
            where.append("g.seats = ?")
            params.append(players)
        if card is not None:
            where.append(
                "EXISTS (SELECT 1 FROM kingdom_cards k WHERE k.card = ? AND k.game_id = g.id)"
            )
            params.append(card)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        with self._read() as db:
            total = _scalar(db, f"SELECT count(*) FROM games g{clause}", params)
            rows = list(
                db.query(
                    f"SELECT g.* FROM games g{clause} ORDER BY {when} DESC, g.id DESC"
                    " LIMIT ? OFFSET ?",
                    [*params, limit, offset],
                )
            )
        return [_game_record(row) for row in rows], int(total)

    def seats(self, game_id: str) -> tuple[SeatRecord, ...]:
        """A game's seats in order (empty if there is no such game)."""
        with self._read() as db:
            return _seats(db, game_id)

    def chat(self, game_id: str) -> list[dict[str, Any]]:
        """A game's chat lines in order: {id, at, seat, name, text}."""
        with self._read() as db:
            return list(
                db.query(
                    "SELECT id, at, seat, name, text FROM chat WHERE game_id = ? ORDER BY id",
                    [game_id],
                )
            )


# ---------------------------------------------------------------------------
# Helpers: checks, rows to records and back

_SQLITE_HEADER = b"SQLite format 3\x00"


def _check_header(filename: str) -> None:
    """Refuse a file that is not SQLite before SQLite touches it."""
    try:
        with open(filename, "rb") as file:
            header = file.read(len(_SQLITE_HEADER))
    except OSError as error:
        raise StorageError(f"database {filename}: cannot read it: {error}") from error
    if header and header != _SQLITE_HEADER:
        raise StorageError(
            f"{filename} is not a SQLite database (or it is damaged); give the path of "
            "the server's database file, or a new path to start an empty one"
        )


def _configure(db: sqlite_utils.Database, filename: str, synchronous: str) -> None:
    try:
        mode = _pragma(db, "PRAGMA journal_mode = WAL")
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error) or "malformed" in str(error):
            raise StorageError(
                f"{filename} is not a SQLite database (or it is damaged); give the path "
                "of the server's database file, or restore it from a backup"
            ) from error
        raise
    if str(mode).lower() != "wal":
        raise StorageError(
            f"database {filename}: cannot switch to WAL mode (got {mode!r}); put the file "
            "on a local, writable file system"
        )
    db.execute(f"PRAGMA synchronous = {synchronous}")  # one of two fixed words, checked
    db.execute("PRAGMA foreign_keys = ON")


def _create_or_migrate(db: sqlite_utils.Database, filename: str) -> None:
    """Bring the file to SCHEMA_VERSION in one transaction, or refuse it."""
    # IMMEDIATE: two servers started on one file cannot both migrate. Its first write
    # also proves the file writable before the server accepts anything.
    db.execute("BEGIN IMMEDIATE")
    try:
        app_id = _pragma(db, "PRAGMA application_id")
        version = _pragma(db, "PRAGMA user_version")
        tables = _pragma(db, "SELECT count(*) FROM sqlite_master")
        if app_id != APPLICATION_ID:
            if app_id != 0 or tables or version:
                raise StorageError(
                    f"{filename} is a SQLite database of another program (it has no "
                    "dominion-server schema marker); give the server a file of its own"
                )
            version = 0  # empty file: create from scratch
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"database {filename} has schema version {version} (this server knows up "
                f"to {SCHEMA_VERSION}): created by a newer version of dominion-server; upgrade"
            )
        for step in range(version, SCHEMA_VERSION):
            MIGRATIONS[step](db)
        # Written even when unchanged: a read-only file fails here, at start.
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        problem = _pragma(db, "PRAGMA foreign_key_check")
        if problem is not None:
            raise StorageError(
                f"database {filename}: rows refer to missing games (table {problem}); "
                "restore it from a backup"
            )
        db.commit()
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.rollback()
        raise


def _scalar(db: sqlite_utils.Database, sql: str, params: Sequence[Any]) -> Any:
    return db.execute(sql, list(params)).fetchone()[0]


def _state_of(db: sqlite_utils.Database, game_id: str) -> str:
    row = db.execute("SELECT state FROM games WHERE id = ?", [game_id]).fetchone()
    return "no such game" if row is None else f"it is {row[0]}"


def _check_seed(seed: int | None) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"a seed is a non-negative integer, not {seed!r}")


def _check_game(game: GameRecord) -> None:
    if game.state not in GAME_STATES:
        raise ValueError(f"state must be one of {', '.join(GAME_STATES)}, not {game.state!r}")
    if not 2 <= game.seats <= 6:
        raise ValueError(f"a game has 2-6 seats, not {game.seats}")
    _check_seed(game.seed)


def _check_seat(seat: SeatRecord, seats: int | None) -> None:
    if seat.seat < 0 or (seats is not None and seat.seat >= seats):
        raise ValueError(f"bad seat number {seat.seat}")


def _game_row(game: GameRecord) -> dict[str, Any]:
    return {
        "id": game.id,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "state": game.state,
        "edition": game.edition,
        "seats": game.seats,
        "kingdom": _json(list(game.kingdom)),
        "kingdom_name": game.kingdom_name,
        "seed": None if game.seed is None else str(game.seed),
        "commitment": game.commitment,
        "setup": None if game.setup is None else _json(game.setup),
        "result": None if game.result is None else _json(game.result),
        "options": _json(game.options),
    }


def _game_record(row: dict[str, Any]) -> GameRecord:
    return GameRecord(
        id=row["id"],
        created_at=row["created_at"],
        state=row["state"],
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


def _seat_row(game_id: str, seat: SeatRecord) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seat": seat.seat,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "bot": seat.bot,
        "joined_at": seat.joined_at,
    }


def _insert(db: sqlite_utils.Database, table: str, rows: list[dict[str, Any]], *,
            replace: bool = False) -> None:
    """Insert rows that share their keys, as one prepared statement. sqlite-utils'
    `insert` would also work out the table's columns each time: Python on the writer
    thread that holds the GIL the event loop needs (~0.1 ms per game created)."""
    if not rows:
        return
    columns = list(rows[0])
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    # the table and column names are this module's own constants, never input
    sql = (f"{verb} INTO {table} ({', '.join(columns)})"
           f" VALUES ({', '.join('?' * len(columns))})")
    db.conn.executemany(sql, [[row[column] for column in columns] for row in rows])


_INSERT_ANSWER = (
    "INSERT INTO answers (game_id, idx, player, kind, decision, choices, at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
LOG_ENDS_KEPT = 10_000
"""Games whose log length the writer remembers (more live games only cost a query each)."""


def _answer_row(game_id: str, idx: int, entry: Answer | Resignation, at: str) -> tuple[Any, ...]:
    if isinstance(entry, Resignation):
        return (game_id, idx, entry.player, "resign", None, None, at)
    if isinstance(entry, Answer):
        return (game_id, idx, entry.player, "answer", entry.decision,
                _json([int(c) for c in entry.choices]), at)
    raise TypeError(f"an answer log entry is an Answer or a Resignation, not {entry!r}")


def _seats(db: sqlite_utils.Database, game_id: str) -> tuple[SeatRecord, ...]:
    return tuple(
        SeatRecord(
            seat=seat["seat"],
            name=seat["name"],
            token_hash=seat["token_hash"],
            bot=seat["bot"],
            joined_at=seat["joined_at"],
        )
        for seat in db.query("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", [game_id])
    )


def _stored_game(db: sqlite_utils.Database, row: dict[str, Any]) -> StoredGame:
    game_id = row["id"]
    seats = _seats(db, game_id)
    answers: list[Answer | Resignation] = []
    for answer in db.query(
        "SELECT player, kind, decision, choices FROM answers WHERE game_id = ? ORDER BY idx",
        [game_id],
    ):
        if answer["kind"] == "resign":
            answers.append(Resignation(answer["player"]))
        else:
            answers.append(
                Answer(answer["player"], answer["decision"], tuple(orjson.loads(answer["choices"])))
            )
    return StoredGame(game=_game_record(row), seats=seats, answers=tuple(answers))
