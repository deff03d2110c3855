"""`Storage`: one database file, a writer thread with group commit, and a read connection.

Write-ahead: every write method returns only after its transaction has been
COMMITted, so the server can tell clients about an answer once the `await`
returns. Writes go through one writer thread that groups every operation queued so
far into one transaction (group commit): one fsync covers many answers. Reads run
on the caller's thread through a second connection; WAL lets them run beside the
writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import sqlite_utils

from dominion.server.engine import Answer, Resignation

from . import schema
from .lock import DatabaseLock
from .records import (
    ENDED,
    ENDED_STATES,
    LISTING_STATES,
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
from .rows import (
    INSERT_ANSWER,
    answer_row,
    game_record,
    game_row,
    game_rows,
    insert,
    scalar,
    seat_row,
    seats_of,
    state_of,
    stored_games,
    to_json,
)

PROBE_SECONDS = 1.0
"""How often an unhealthy storage tries a write to see whether it has recovered."""
PRUNED_AT_ONCE = 500
"""Archived games one write deletes at most (a long delete would hold up the answers)."""
LOG_ENDS_KEPT = 10_000
"""Games whose log length the writer remembers (more live games only cost a query each)."""


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


def _database_fault(error: BaseException) -> bool:
    """Is this the database's failure (full disk, I/O error, read-only or damaged file)
    rather than one write's (a constraint, a value SQLite cannot bind, a server bug)?"""
    return isinstance(error, sqlite3.DatabaseError) and not isinstance(
        error, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.DataError)


class Storage:
    """One database file: a writer thread with group commit, and a read connection."""

    def __init__(
        self, path: str, writer: sqlite_utils.Database, reader: sqlite_utils.Database,
        lock: DatabaseLock,
    ) -> None:
        # Use Storage.open(): it checks, locks, creates or migrates the file first.
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = lock
        self._read_lock = threading.Lock()
        self._queue: queue.SimpleQueue[list[_Job]] = queue.SimpleQueue()
        self._handing: list[_Job] = []  # this loop turn's jobs, handed over together
        self._log_ends: dict[str, int] = {}  # writer thread only: committed log lengths
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop that started it
        self._closed = False
        self._healthy = True
        self._next_probe = 0.0
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
        if mode not in schema.SYNCHRONOUS_MODES:
            modes = ", ".join(schema.SYNCHRONOUS_MODES)
            raise StorageError(f"synchronous must be one of {modes}, not {synchronous!r}")
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
            schema.check_header(filename)
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
        lock = DatabaseLock.acquire(filename)  # DatabaseInUse: another server has it
        writer = reader = None
        try:
            writer = sqlite_utils.Database(schema.connect(filename), execute_plugins=False)
            schema.configure(writer, filename, mode)
            schema.create_or_migrate(writer, filename)
            reader = sqlite_utils.Database(schema.connect(filename), execute_plugins=False)
            reader.execute("PRAGMA foreign_keys = ON")
            # The read connection must never write: everything goes through the writer.
            reader.execute("PRAGMA query_only = ON")
        except BaseException as error:
            for db in (writer, reader):
                if db is not None:
                    db.close()
            lock.release()
            if isinstance(error, sqlite3.Error):
                raise StorageError(schema.describe(error, filename)) from error
            raise
        return cls(filename, writer, reader, lock)

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
        self._lock.release()

    @property
    def healthy(self) -> bool:
        """False while the database itself fails writes (full disk, I/O error, read-only
        file): the server then takes no new games. One write's own failure (a row SQLite
        refuses) leaves it as it is; the next commit that succeeds makes it True again
        (`probe` tries one). `last_error` says what failed last."""
        return self._healthy

    async def probe(self) -> bool:
        """While unhealthy, try a write that changes nothing (at most once a second);
        whether the storage is healthy now."""
        if self.healthy or self._closed:
            return self.healthy
        now = time.monotonic()
        if now < self._next_probe:
            return False
        self._next_probe = now + PROBE_SECONDS
        version = schema.SCHEMA_VERSION

        def operation(db: sqlite_utils.Database) -> None:
            db.execute(f"PRAGMA user_version = {version}")  # rewrites the header page

        with contextlib.suppress(StorageError):
            await self._submit(operation)
        return self.healthy

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
        check_game(game)
        row = game_row(game)
        for seat in seats:
            check_seat(seat, game.seats)
        if len({seat.seat for seat in seats}) != len(seats):
            raise ValueError(f"game {game.id}: a seat number is given twice")
        seat_rows = [seat_row(game.id, seat) for seat in seats]
        cards = [{"card": card, "game_id": game.id} for card in dict.fromkeys(game.kingdom)]

        def operation(db: sqlite_utils.Database) -> None:
            insert(db, "games", [row])
            insert(db, "seats", seat_rows)
            insert(db, "kingdom_cards", cards)

        await self._submit(operation)

    async def save_seat(self, game_id: str, seat: SeatRecord) -> None:
        """Insert or replace one seat of an existing game."""
        check_seat(seat, None)
        row = seat_row(game_id, seat)

        def operation(db: sqlite_utils.Database) -> None:
            found = db.execute("SELECT seats FROM games WHERE id = ?", [game_id]).fetchone()
            if found is None:
                raise StorageError(f"cannot save a seat of unknown game {game_id}")
            if seat.seat >= found[0]:
                raise StorageError(f"game {game_id} has {found[0]} seats, no seat {seat.seat}")
            insert(db, "seats", [row], replace=True)

        await self._submit(operation)

    async def take_over_seat(self, game_id: str, seat: int, at: str) -> None:
        """A bot takes the seat over from its absent player: kept before the bot's first
        answer (write-ahead); the first takeover's time stays."""
        def operation(db: sqlite_utils.Database) -> None:
            changed = db.execute("UPDATE seats SET taken_over_at = coalesce(taken_over_at, ?) "
                                 "WHERE game_id = ? AND seat = ?", [at, game_id, seat])
            if changed.rowcount != 1:
                raise StorageError(f"game {game_id} has no seat {seat} to take over")

        await self._submit(operation)

    async def rename_account_seats(self, account_id: int, name: str) -> None:
        """Every seat the account took shows `name` from now on, and so do the chat lines
        said from it since (its account was deleted)."""
        def operation(db: sqlite_utils.Database) -> None:
            db.execute("UPDATE chat SET name = ? WHERE EXISTS (SELECT 1 FROM seats WHERE "
                       "seats.account_id = ? AND seats.game_id = chat.game_id AND "
                       "seats.seat = chat.seat AND chat.at >= seats.joined_at)",
                       [name, account_id])
            db.execute("UPDATE seats SET name = ? WHERE account_id = ?", [name, account_id])

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
        check_seed(seed)
        values = [started_at, str(seed), commitment, to_json(setup), game_id]

        def operation(db: sqlite_utils.Database) -> None:
            cursor = db.execute(
                "UPDATE games SET state = 'playing', started_at = ?, seed = ?,"
                " commitment = ?, setup = ? WHERE id = ? AND state = 'open'",
                values,
            )
            if cursor.rowcount != 1:
                raise StorageError(f"cannot start game {game_id}: {state_of(db, game_id)}")

        await self._submit(operation)

    async def append_answers(
        self,
        game_id: str,
        first_index: int,
        entries: Sequence[Answer | Resignation],
        at: str,
        charged_ms: Sequence[int | None] = (),
    ) -> None:
        """Append answers and resignations at log positions first_index, first_index + 1, ...

        The log has no gaps: `first_index` must be the number of entries already stored.
        `charged_ms`: per entry, what it charged its player's clock (none given: no clock).
        """
        if first_index < 0:
            raise ValueError(f"first_index must be >= 0, not {first_index}")
        charges = list(charged_ms) or [None] * len(entries)
        rows = [answer_row(game_id, first_index + i, entry, at, ms)
                for i, (entry, ms) in enumerate(zip(entries, charges, strict=True))]
        if not rows:
            return
        await self._submit(_Append(game_id, first_index, rows))

    async def finish_game(
        self,
        game_id: str,
        *,
        state: GameState,
        finished_at: str,
        result: dict[str, Any] | None,
        rated: dict[str, Any] | None = None,
    ) -> None:
        """Mark a game finished or abandoned, with its result; `rated` (a rated game's
        seats and ranks) goes into the ratings' outbox in the same transaction. Marking it
        again in the same state changes nothing (a retry after a write whose outcome was
        not heard)."""
        if state not in ENDED_STATES:
            raise ValueError(f"state must be one of {', '.join(ENDED_STATES)}, not {state!r}")
        result_json = None if result is None else to_json(result)
        rated_json = None if rated is None else to_json(rated)

        def operation(db: sqlite_utils.Database) -> None:
            cursor = db.execute(
                "UPDATE games SET state = ?, finished_at = ?, result = ?"
                " WHERE id = ? AND state IN ('open', 'playing')",
                [str(state), finished_at, result_json, game_id],
            )
            if cursor.rowcount != 1 and state_of(db, game_id) != f"it is {state}":
                raise StorageError(f"cannot finish game {game_id}: {state_of(db, game_id)}")
            if rated_json is not None:
                db.execute("INSERT OR IGNORE INTO rating_outbox (game_id, game, created_at)"
                           " VALUES (?, ?, ?)", [game_id, rated_json, finished_at])

        await self._submit(operation)

    async def rating_applied(self, game_id: str, at: str) -> None:
        """The account store's ledger has the game: its outbox row is done (kept, marked)."""
        def operation(db: sqlite_utils.Database) -> None:
            db.execute("UPDATE rating_outbox SET applied_at = ? WHERE game_id = ? AND "
                       "applied_at IS NULL", [at, game_id])

        await self._submit(operation)

    async def games_archived(self, game_ids: Sequence[str], at: str) -> None:
        """The shared archive has these ended games: their rows are marked (kept until
        pruned)."""
        def operation(db: sqlite_utils.Database) -> None:
            db.execute("UPDATE games SET archived_at = ? WHERE id IN (SELECT value FROM "
                       "json_each(?)) AND archived_at IS NULL", [at, to_json(list(game_ids))])

        await self._submit(operation)

    async def prune_archived(self, before: str, limit: int = PRUNED_AT_ONCE) -> int:
        """Delete up to `limit` games the archive took at or before `before` (ISO 8601
        UTC), with their seats, answers, chat and Kingdom rows; how many went. Their
        ratings' outbox rows stay (`ratings reconcile` reads them)."""
        pruned: list[int] = []

        def operation(db: sqlite_utils.Database) -> None:
            ids = [row[0] for row in db.execute(
                "SELECT id FROM games WHERE archived_at IS NOT NULL AND archived_at <= ? "
                "ORDER BY archived_at LIMIT ?", [before, limit])]
            listed = to_json(ids)
            for table in ("answers", "seats", "chat", "kingdom_cards"):
                db.execute(f"DELETE FROM {table} WHERE game_id IN "
                           "(SELECT value FROM json_each(?))", [listed])
            db.execute("DELETE FROM games WHERE id IN (SELECT value FROM json_each(?))",
                       [listed])
            pruned.append(len(ids))

        await self._submit(operation)
        return pruned[-1]

    async def append_chat(
        self, game_id: str, *, at: str, seat: int | None, name: str, text: str
    ) -> int:
        """Store one chat line of a game (seat None: a spectator or the server); its id."""
        row = {"game_id": game_id, "at": at, "seat": seat, "name": name, "text": text}
        ids: list[int] = []  # the last run's (a failed batch runs its jobs again alone)

        def operation(db: sqlite_utils.Database) -> None:
            cursor = db.execute(
                "INSERT INTO chat (game_id, at, seat, name, text) VALUES (?, ?, ?, ?, ?)",
                [row["game_id"], row["at"], row["seat"], row["name"], row["text"]],
            )
            assert cursor.lastrowid is not None
            ids.append(cursor.lastrowid)

        await self._submit(operation)
        return ids[-1]

    async def remove_chat(self, game_id: str, line: int, at: str) -> bool:
        """Mark a chat line removed (it stays, for the record, and is served no more);
        False when the game has no such line not removed already."""
        removed: list[bool] = []

        def operation(db: sqlite_utils.Database) -> None:
            cursor = db.execute("UPDATE chat SET removed_at = ? WHERE id = ? AND game_id = ? "
                                "AND removed_at IS NULL", [at, line, game_id])
            removed.append(cursor.rowcount == 1)

        await self._submit(operation)
        return removed[-1]

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
        """Commit the batch as one transaction; if it fails, commit each job alone, so
        that one bad write (a bug, a row SQLite refuses) fails alone."""
        error = self._transaction(batch)
        if error is None:
            self._reply_all([(job, None) for job in batch])
            return
        self.failed_batches += 1
        if len(batch) == 1:
            self._reply_all([(batch[0], self._failure(error))])
            return
        replies: list[tuple[_Job, BaseException | None]] = []
        for job in batch:
            alone = self._transaction([job])
            replies.append((job, None if alone is None else self._failure(alone)))
        self._reply_all(replies)

    def _transaction(self, jobs: list[_Job]) -> BaseException | None:
        """Run `jobs` in one transaction and commit it; the error if it was rolled back.
        A commit makes the storage healthy again; a failure that is the database's own
        (disk full, I/O error, read-only file), not one write's, makes it unhealthy."""
        db = self._writer
        try:
            db.execute("BEGIN IMMEDIATE")
            appends: list[_Append] = []
            ends: dict[str, int] = {}  # the logs' lengths once this batch is committed
            for job in jobs:
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
        except Exception as error:
            with contextlib.suppress(sqlite3.Error):
                db.rollback()  # nothing of a failed transaction is kept
            if _database_fault(error):
                self._healthy = False
            return error
        if len(self._log_ends) + len(ends) > LOG_ENDS_KEPT:
            self._log_ends.clear()
        self._log_ends.update(ends)
        self.commits += 1
        self.committed_writes += len(jobs)
        self._healthy = True
        return None

    def _failure(self, error: BaseException) -> StorageError:
        """What a writer whose write failed is told (one exception object per waiter:
        each raise sets its own traceback)."""
        if isinstance(error, StorageError):
            message = str(error)
        elif isinstance(error, sqlite3.Error):
            message = schema.describe(error, self.path)
        else:
            message = f"database {self.path}: {type(error).__name__}: {error}"
        failure = StorageError(f"not saved: {message}")
        failure.__cause__ = error
        self.last_error = failure
        return failure

    def _append_all(self, db: sqlite_utils.Database, appends: list[_Append],
                    ends: dict[str, int]) -> None:
        """Write `appends` in order; StorageError for the first that would leave a gap or
        an overlap in its game's log (the whole batch is then rolled back)."""
        rows: list[tuple[Any, ...]] = []
        for append in appends:
            game_id = append.game_id
            end = ends.get(game_id, self._log_ends.get(game_id))
            if end is None:
                end = scalar(db, "SELECT coalesce(max(idx) + 1, 0) FROM answers"
                                  " WHERE game_id = ?", [game_id])
            if end != append.first_index:
                # the caller's log and ours disagree: refuse rather than store a log that
                # cannot be replayed
                raise StorageError(f"game {game_id} has {end} stored answers; cannot append "
                                   f"at {append.first_index}")
            ends[game_id] = end + len(append.rows)
            rows += append.rows
        db.conn.executemany(INSERT_ANSWER, rows)

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
            rows = game_rows(db.conn, "id = ?", [game_id])
        found = stored_games(rows)
        return found[0] if found else None

    def unfinished_games(self, after: tuple[str, str] | None = None,
                         limit: int | None = None) -> list[StoredGame]:
        """Open and playing games, oldest first, to rebuild after a restart: those after
        `after` (a game's created time and id) in that order, at most `limit` of them (a
        restart reads them a page at a time: 100,000 games at once are gigabytes). Read on
        a connection of its own: a game asked for meanwhile (`load_game`, on the read
        connection) must not wait for it."""
        if self._closed:
            raise StorageError(f"database {self.path} is closed")
        where, params = "state IN ('open', 'playing')", []
        if after is not None:  # the keyset: `(created_at, id) > after`, by the index's range
            where += " AND created_at >= ? AND (created_at > ? OR id > ?)"
            params = [after[0], after[0], after[1]]
        conn = schema.connect(self.path)
        try:
            conn.execute("PRAGMA query_only = ON")
            conn.execute("BEGIN")  # one snapshot for the three queries
            rows = game_rows(conn, where, params, limit)
        finally:
            conn.close()
        return stored_games(rows)

    def list_games(
        self,
        *,
        state: str | None = None,
        player: str | None = None,
        account_id: int | None = None,
        since: str | None = None,
        until: str | None = None,
        edition: int | None = None,
        players: int | None = None,
        card: str | None = None,
        cards: Sequence[str] = (),
        rated: bool | None = None,
        people: bool | None = None,
        takeovers: bool | None = None,
        before: tuple[str, str] | None = None,
        limit: int = 50,
        offset: int = 0,
        counted: bool = True,
        archived: bool | None = None,
    ) -> tuple[list[GameRecord], int]:
        """A page of games, newest first, and how many match in all.

        A game's time is `finished_at` once it has ended (finished or abandoned),
        `created_at` before; `since` (inclusive) and `until` (exclusive) compare it
        as text, so give them in the same ISO 8601 UTC form as the stored times.
        `player` matches a seat name exactly, `account_id` a seat taken by that account
        (a profile's games: by id, not by a name a guest may have played under); `card`
        is a card id in the Kingdom; `players` is the number of seats; the state `ended`
        keeps the games that have ended either way (finished or abandoned). `cards`: every
        one of them is in the Kingdom; `rated`: rated games only; `people`: no seat was a
        bot from the start (in-server or a bot account); `takeovers=False`: no bot took a
        seat over. `before` (time, id) is a keyset: only games after it in this order (the
        export's cursor; `total` counts them too). `counted=False` skips counting (an
        export pages without a total: the count reads every match): `total` is then 0.
        `archived=False`: only games the shared archive does not have (live ones, and
        ended ones it has not taken yet: the archive lists the others). Bad values raise
        ValueError.
        """
        if state is not None and state not in LISTING_STATES:
            raise ValueError(f"state must be one of {', '.join(LISTING_STATES)}, not {state!r}")
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must be >= 0")
        # Name the column when the state fixes it, so the (state, time) indexes serve.
        if state in ENDED_STATES or state == ENDED:
            when = "g.finished_at"
        elif state in UNFINISHED_STATES:
            when = "g.created_at"
        else:
            when = "coalesce(g.finished_at, g.created_at)"
        conditions: list[tuple[object, str]] = [
            (None if state == ENDED else state, "g.state = ?"),
            (player, "EXISTS (SELECT 1 FROM seats s WHERE s.name = ? AND s.game_id = g.id)"),
            (account_id, "EXISTS (SELECT 1 FROM seats s WHERE s.account_id = ? "
                         "AND s.game_id = g.id)"),
            (since, f"{when} >= ?"),
            (until, f"{when} < ?"),
            (edition, "g.edition = ?"),
            (players, "g.seats = ?"),
            *((one, "EXISTS (SELECT 1 FROM kingdom_cards k WHERE k.card = ? "
                    "AND k.game_id = g.id)") for one in (card, *cards)),
            (rated, "coalesce(json_extract(g.options, '$.rated'), 0) = ?"),
            (None if people is None else not people,
             "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id "
             "AND (s.bot IS NOT NULL OR coalesce(s.bot_account, 0))) = ?"),
            (takeovers, "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id "
                        "AND s.taken_over_at IS NOT NULL) = ?"),
            (archived, "(g.archived_at IS NOT NULL) = ?"),
        ]
        where = [condition for value, condition in conditions if value is not None]
        if state == ENDED:
            where.append("g.finished_at IS NOT NULL")  # set when a game ends, either way
        params: list[Any] = [value for value, _ in conditions if value is not None]
        if before is not None:  # keyset: rows after it in the newest-first order
            # `<=` first: a range the time's index scans, the rest checked on its rows
            where.append(f"{when} <= ? AND ({when} < ? OR g.id < ?)")
            params += [before[0], before[0], before[1]]
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        with self._read() as db:
            total = scalar(db, f"SELECT count(*) FROM games g{clause}", params) if counted else 0
            rows = list(
                db.query(
                    f"SELECT g.* FROM games g{clause} ORDER BY {when} DESC, g.id DESC"
                    " LIMIT ? OFFSET ?",
                    [*params, limit, offset],
                )
            )
        return [game_record(row) for row in rows], int(total)

    def unarchived_games(self, limit: int = 100) -> list[tuple[StoredGame, list[dict[str, Any]]]]:
        """Ended games the shared archive does not have yet, oldest first, each with every
        chat line (removed ones too, marked)."""
        where = ("id IN (SELECT id FROM games WHERE archived_at IS NULL AND finished_at IS "
                 "NOT NULL AND state IN ('finished', 'abandoned') ORDER BY finished_at, id "
                 "LIMIT ?)")
        with self._read() as db:
            rows = game_rows(db.conn, where, [limit])
            lines = list(db.query(f"SELECT game_id, id, at, seat, name, text, removed_at FROM "
                                  f"chat WHERE game_id IN (SELECT id FROM games WHERE {where})"
                                  " ORDER BY id", [limit]))
        chat: dict[str, list[dict[str, Any]]] = {}
        for line in lines:
            chat.setdefault(line.pop("game_id"), []).append(line)
        return [(stored, chat.get(stored.game.id, [])) for stored in stored_games(rows)]

    def unarchived_count(self) -> int:
        """How many ended games the archive does not have yet (the archive's outbox's
        backlog; an index holds exactly those rows)."""
        with self._read() as db:
            return int(db.execute("SELECT count(*) FROM games WHERE archived_at IS NULL AND "
                                  "finished_at IS NOT NULL").fetchone()[0])

    def pending_ratings(self, limit: int = 100) -> list[dict[str, Any]]:
        """Finished rated games the ledger does not have yet, oldest first (each as
        `finish_game` was given it)."""
        with self._read() as db:
            rows = db.execute("SELECT game FROM rating_outbox WHERE applied_at IS NULL"
                              " ORDER BY created_at, game_id LIMIT ?", [limit]).fetchall()
        return [orjson.loads(row[0]) for row in rows]

    def pending_rating_count(self) -> int:
        """How many finished rated games the ledger does not have yet (the outbox's
        backlog; an index holds exactly those rows)."""
        with self._read() as db:
            return int(db.execute("SELECT count(*) FROM rating_outbox WHERE applied_at IS NULL"
                                  ).fetchone()[0])

    def account_has_seats(self, account_id: int) -> bool:
        """Whether the account took a seat in any game (has it played?)."""
        with self._read() as db:
            return db.execute("SELECT 1 FROM seats WHERE account_id = ? LIMIT 1",
                              [account_id]).fetchone() is not None

    def seats(self, game_id: str) -> tuple[SeatRecord, ...]:
        """A game's seats in order (empty if there is no such game)."""
        with self._read() as db:
            return seats_of(db, game_id)

    def chat(self, game_id: str, *, removed: bool = False) -> list[dict[str, Any]]:
        """A game's chat lines in order: {id, at, seat, name, text}; with `removed` (for
        admins), the removed lines too, each with its removed_at (null if it was not)."""
        columns, which = ("id, at, seat, name, text, removed_at", "") if removed else (
            "id, at, seat, name, text", " AND removed_at IS NULL")
        with self._read() as db:
            return list(
                db.query(
                    f"SELECT {columns} FROM chat WHERE game_id = ?{which} ORDER BY id",
                    [game_id],
                )
            )
