"""The accounts in a SQLite file of their own beside the games' database (one node): the
SQLite driver of `database.Database`, and the store over it.

A file of its own rather than tables in the games' one: the games' `Storage` funnels
every write through one writer thread tuned for group-committing answers, while account
writes are rare and must not wait behind a game's batch, nor a game's behind a sign-in;
and its schema is versioned in step with the PostgreSQL store's, not the games'. Calls
run on one thread of their own (sqlite3 blocks), one at a time; a transaction holds the
connection until it ends, so that no other call's statements land inside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from . import migrations
from .database import SQLITE, Duplicate, Isolation, OneStatementEach, Queries, Row
from .sql_store import SqlAccountStore
from .store import unavailable

T = TypeVar("T")
FROM_HEX = "from_hex"
"""bytes.fromhex in SQL (SQLite has `unhex` only from 3.41): `Dialect.among` uses it."""
TAKEN = {sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY}
"""The errors of a unique key that is taken (other constraints are the store's bugs)."""


class SqliteAccountStore(SqlAccountStore):
    def __init__(self, path: Path) -> None:
        super().__init__(SqliteDatabase(path))
        self.path = path


class SqliteDatabase(OneStatementEach):
    dialect = SQLITE

    def __init__(self, path: Path) -> None:
        self.path = path
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="accounts")
        self._db: sqlite3.Connection | None = None
        self._turn = asyncio.Lock()
        """Held by a transaction from its BEGIN to its end, and by each other call."""
        self._statements = _Statements(self._call)

    async def start(self) -> None:
        await self._call(lambda db: None)

    async def close(self) -> None:
        if self._db is not None:
            await asyncio.get_running_loop().run_in_executor(self._thread, self._db.close)
            self._db = None
        self._thread.shutdown()

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[Queries]:
        async with self._turn:
            yield self._statements

    @asynccontextmanager
    async def transaction(self, isolation: Isolation = Isolation.WRITE,
                          lock_tables: Sequence[str] = ()) -> AsyncIterator[Queries]:
        # IMMEDIATE: the write lock at once, before the first read (another process, such
        # as `dominion-server ratings recompute`, may share the file); a snapshot needs
        # none: in WAL mode a transaction reads the moment of its first read
        begin = "BEGIN IMMEDIATE" if lock_tables else "BEGIN"
        async with self._turn:
            try:
                await self._call(lambda db: db.execute(begin))
                yield self._statements
                await self._call(lambda db: db.commit())
            except BaseException:
                # the thread runs calls in order: this follows whatever still runs (even
                # when the caller is cancelled), and does nothing outside a transaction
                await asyncio.shield(self._call(lambda db: db.rollback()))
                raise

    def _connection(self) -> sqlite3.Connection:
        """On the thread: the connection, opened and migrated at the first call."""
        if self._db is None:
            # autocommit: each statement is its own transaction unless BEGIN says otherwise
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA foreign_keys = ON")
            db.create_function(FROM_HEX, 1, bytes.fromhex, deterministic=True)
            self._migrate(db)
            self._db = db
        return self._db

    def _migrate(self, db: sqlite3.Connection) -> None:
        """The version is the file's `PRAGMA user_version`; each step is committed with it."""
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for number, script in enumerate(migrations.scripts(SQLITE)[version:],
                                        start=version + 1):
            started = time.perf_counter()
            db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
            migrations.log_step(str(self.path), SQLITE, number, time.perf_counter() - started)

    async def _call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._thread, lambda: work(self._connection()))
        except sqlite3.IntegrityError as error:
            if error.sqlite_errorcode in TAKEN:
                raise Duplicate(str(error)) from None
            raise
        except sqlite3.Error as error:
            raise unavailable(f"the accounts database failed: {error}") from None


class _OnThread(Protocol):
    def __call__(self, work: Callable[[sqlite3.Connection], T]) -> Awaitable[T]: ...


class _Statements:
    """The statements, run on the driver's thread (the caller holds its turn)."""

    def __init__(self, call: _OnThread) -> None:
        self._call = call

    async def fetch(self, query: str, *parameters: Any) -> list[Row]:
        def rows(db: sqlite3.Connection) -> list[Row]:
            return db.execute(SQLITE.sql(query), _values(parameters)).fetchall()
        return await self._call(rows)

    async def fetchrow(self, query: str, *parameters: Any) -> Row | None:
        def first(db: sqlite3.Connection) -> Row | None:
            # closed at once: a write's RETURNING is done (and committed) only then
            with contextlib.closing(db.execute(SQLITE.sql(query), _values(parameters))) as rows:
                row: Row | None = rows.fetchone()
                return row
        return await self._call(first)

    async def execute(self, query: str, *parameters: Any) -> int:
        def changed(db: sqlite3.Connection) -> int:
            return db.execute(SQLITE.sql(query), _values(parameters)).rowcount
        return await self._call(changed)

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._call(lambda db: db.executemany(SQLITE.sql(query),
                                                   [_values(row) for row in rows]))


def _values(parameters: Sequence[Any]) -> tuple[Any, ...]:
    """Moments as ISO 8601 text, which SQLite compares in order (sqlite3's own adapter,
    deprecated, would write a space for the `T`)."""
    return tuple(value.isoformat() if isinstance(value, datetime) else value
                 for value in parameters)
