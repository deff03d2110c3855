"""The accounts in PostgreSQL (asyncpg), shared by every node of a cluster: the asyncpg
driver of `database.Database`, and the store over it. A session made on one node is
valid on all, and ended on one it is ended on all at once.

When the server cannot be reached, every call is `accounts_unavailable` after at most
`TIMEOUT_SECONDS`, and the pool connects again by itself once it is back; the schema is
brought up to date at start, or at the first call that reaches the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from . import migrations
from .database import POSTGRES, Duplicate, Isolation, OneStatementEach, Queries, Row
from .sql_store import SqlAccountStore
from .store import unavailable

TIMEOUT_SECONDS = 5.0
"""The longest a sign-in waits for PostgreSQL before it is told accounts are unavailable."""
MIGRATION_LOCK = 0x444F4D4E
"""The advisory lock nodes starting together take to migrate one at a time ("DOMN")."""
UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.PostgresConnectionError,
               asyncpg.InterfaceError, asyncpg.CannotConnectNowError)
"""What asyncpg raises when the server is down, restarting or unreachable."""
ISOLATION = {Isolation.WRITE: {}, Isolation.SNAPSHOT: {"isolation": "repeatable_read",
                                                       "readonly": True}}
"""asyncpg's transaction options for each isolation."""


class PostgresAccountStore(SqlAccountStore):
    def __init__(self, url: str) -> None:
        super().__init__(PostgresDatabase(url))


class PostgresDatabase(OneStatementEach):
    dialect = POSTGRES

    def __init__(self, url: str) -> None:
        self._url = url
        self._pool: asyncpg.Pool | None = None
        self._migrated = False
        self._migrating = asyncio.Lock()

    async def start(self) -> None:
        # min_size=0: the pool is made without reaching the server, which may be down
        self._pool = await asyncpg.create_pool(self._url, min_size=0, max_size=10,
                                               timeout=TIMEOUT_SECONDS,
                                               command_timeout=TIMEOUT_SECONDS)
        with contextlib.suppress(*UNREACHABLE):  # unreachable now: the first call tries again
            await self._migrate_once()

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()

    @asynccontextmanager
    async def transaction(self, isolation: Isolation = Isolation.WRITE,
                          lock_tables: Sequence[str] = ()) -> AsyncIterator[Queries]:
        async with self._connection() as db, db.transaction(**ISOLATION[isolation]):
            if lock_tables:
                await db.execute(f"LOCK TABLE {', '.join(lock_tables)} IN EXCLUSIVE MODE")
            yield _Statements(db)

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[Queries]:
        async with self._connection() as db:
            yield _Statements(db)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool, once the schema is at the latest version."""
        with _outages_as_refusals():
            pool = await self._migrate_once()
            async with pool.acquire() as db:
                yield db

    async def _migrate_once(self) -> asyncpg.Pool:
        if self._pool is None:
            raise unavailable("the store is not started")
        if not self._migrated:
            async with self._migrating:
                if not self._migrated:
                    async with self._pool.acquire() as db:
                        await _migrate(db)
                    self._migrated = True
        return self._pool


class _Statements:
    """The statements, on one connection (in its transaction, if it is in one); their
    errors become the store's where the connection was taken (`_outages_as_refusals`)."""

    def __init__(self, db: asyncpg.Connection) -> None:
        self._db = db

    async def fetch(self, query: str, *parameters: Any) -> list[Row]:
        return [tuple(row) for row in await self._db.fetch(POSTGRES.sql(query), *parameters)]

    async def fetchrow(self, query: str, *parameters: Any) -> Row | None:
        row = await self._db.fetchrow(POSTGRES.sql(query), *parameters)
        return None if row is None else tuple(row)

    async def execute(self, query: str, *parameters: Any) -> int:
        status: str = await self._db.execute(POSTGRES.sql(query), *parameters)
        # "DELETE 2", "INSERT 0 1": the count is last
        count = status.rpartition(" ")[2]
        return int(count) if count.isdigit() else 0

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(POSTGRES.sql(query), rows)


@contextlib.contextmanager
def _outages_as_refusals() -> Iterator[None]:
    """asyncpg's errors as the store's: a unique key taken, or the server unreachable."""
    try:
        yield
    except asyncpg.UniqueViolationError as error:
        raise Duplicate(error.constraint_name or "") from None
    except UNREACHABLE as error:
        raise unavailable(type(error).__name__) from None


async def _migrate(db: asyncpg.Connection) -> None:
    """Bring the schema to the latest version, kept in the `accounts_schema` table: every
    step in one transaction, and nodes starting at once take turns."""
    took: dict[int, float] = {}  # each version's seconds
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await db.execute("CREATE TABLE IF NOT EXISTS accounts_schema (version INTEGER NOT NULL)")
        version = await db.fetchval("SELECT max(version) FROM accounts_schema") or 0
        for number, script in enumerate(migrations.scripts(POSTGRES)[version:],
                                        start=version + 1):
            started = time.perf_counter()
            await db.execute(script)
            await db.execute("INSERT INTO accounts_schema (version) VALUES ($1)", number)
            took[number] = time.perf_counter() - started
        database = f"postgresql database {await db.fetchval('SELECT current_database()')}"
    # said once committed: every step or none of them took effect
    for number, seconds in took.items():
        migrations.log_step(database, POSTGRES, number, seconds)
