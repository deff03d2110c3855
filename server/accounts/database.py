"""The small database interface the account store is written over once (sql_store.py),
and the `Dialect` that holds what SQLite and PostgreSQL spell differently.

Two drivers implement it: `sqlite_store.SqliteDatabase` (one file, one thread) and
`postgres_store.PostgresDatabase` (asyncpg's pool). Queries are written once with `?`
for each parameter, `?::type` where PostgreSQL cannot infer the type; the driver's
dialect renders them (`$1`, `$2::float8` for asyncpg). Every driver turns a unique key
that is taken into `Duplicate`, and a database it cannot reach into
`accounts_unavailable`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from enum import Enum, StrEnum, auto
from functools import lru_cache
from typing import Any, Protocol

Row = tuple[Any, ...]

MARK = re.compile(r"\?(::\w+(?:\[\])?)?")
"""A parameter's mark in a query as written: `?`, or `?::type` (its PostgreSQL type)."""


class Duplicate(Exception):
    """A row's unique key (other than one an `ON CONFLICT` names) is taken already."""


class Isolation(Enum):
    """What a transaction needs from the others running meanwhile."""

    WRITE = auto()
    """Writes that commit together (reads see what others committed before each one)."""
    SNAPSHOT = auto()
    """Reads only, all of them of the same moment."""


class Listed(StrEnum):
    """What a list of values passed as one parameter holds (its PostgreSQL array type)."""

    BYTES = "bytea"
    IDS = "bigint"
    TEXTS = "text"


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the two databases spell differently, in one place. `RETURNING`, `ON CONFLICT
    ... DO NOTHING` and `TRUE` are spelled alike by both (SQLite from 3.35), so queries
    use them as they are."""

    name: str
    """The dialect as logs name it (each migration step: `SQLITE[3]`, `POSTGRES[3]`)."""
    numbered_marks: bool
    """`$1, $2` (asyncpg) rather than `?` (sqlite3)."""
    lists_as_json: bool
    """A list parameter is one JSON text (SQLite: `json_each`; it bounds the number of
    parameters), not an array."""
    for_update: str
    """What locks the rows a SELECT reads until the transaction ends (SQLite: nothing;
    its writer holds the whole file)."""
    types: Mapping[str, str]
    """The schema's column types by the names migrations.py writes (`{TIME}`...)."""

    def sql(self, query: str) -> str:
        """The query as written (`?` marks) in this dialect's marks."""
        return _render(query, self.numbered_marks)

    def among(self, listed: Listed) -> str:
        """`column <this>`: the column's value is one of a `listed` parameter's values."""
        if not self.lists_as_json:
            return f"= ANY(?::{listed}[])"
        value = "from_hex(value)" if listed is Listed.BYTES else "value"
        return f"IN (SELECT {value} FROM json_each(?))"

    def listed(self, values: Collection[bytes] | Collection[int] | Collection[str],
               listed: Listed) -> Any:
        """Values as the one parameter `among(listed)` takes."""
        if not self.lists_as_json:
            return list(values)
        # JSON holds no bytes: hex (the SQLite driver defines from_hex)
        return json.dumps([value.hex() if isinstance(value, bytes) else value
                           for value in values])


def moment(value: str | datetime) -> datetime:
    """A stored moment: SQLite keeps ISO 8601 text (it has no time type; its driver writes
    each datetime so), asyncpg reads TIMESTAMPTZ as a datetime."""
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def moment_or_none(value: str | datetime | None) -> datetime | None:
    return None if value is None else moment(value)


@lru_cache(maxsize=512)
def _render(query: str, numbered: bool) -> str:
    if not numbered:
        return MARK.sub("?", query)
    numbers = iter(range(1, query.count("?") + 1))
    return MARK.sub(lambda mark: f"${next(numbers)}{mark.group(1) or ''}", query)


SQLITE = Dialect(
    name="SQLITE", numbered_marks=False, lists_as_json=True,
    for_update="",
    types={"KEY": "INTEGER PRIMARY KEY", "BIGINT": "INTEGER", "TIME": "TEXT",
           "BYTES": "BLOB", "FLOAT": "REAL", "FLAG": "INTEGER NOT NULL DEFAULT 0"})
POSTGRES = Dialect(
    name="POSTGRES", numbered_marks=True, lists_as_json=False,
    for_update=" FOR UPDATE",
    types={"KEY": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "BIGINT": "BIGINT",
           "TIME": "TIMESTAMPTZ", "BYTES": "BYTEA", "FLOAT": "DOUBLE PRECISION",
           "FLAG": "BOOLEAN NOT NULL DEFAULT FALSE"})


class Queries(Protocol):
    """Statements, each written with `?` marks; on a `Database` each is a transaction of
    its own, in `Database.transaction` each is part of that one."""

    async def fetch(self, query: str, *parameters: Any) -> list[Row]: ...

    async def fetchrow(self, query: str, *parameters: Any) -> Row | None: ...

    async def execute(self, query: str, *parameters: Any) -> int:
        """How many rows the statement changed."""

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None: ...


class Database(Queries, Protocol):
    dialect: Dialect

    async def start(self) -> None:
        """Open, and bring the schema to the latest version (migrations.py); or try again
        at the first statement, when the database cannot be reached now."""

    async def close(self) -> None: ...

    def transaction(self, isolation: Isolation = Isolation.WRITE,
                    lock_tables: Sequence[str] = ()) -> AbstractAsyncContextManager[Queries]:
        """Statements that take effect together or not at all; with `lock_tables`, nothing
        else writes to those tables until it ends."""


class OneStatementEach:
    """A driver's `Queries` outside a transaction: each statement runs in the
    `_statement()` the driver gives (a connection, its turn), a transaction of its own."""

    def _statement(self) -> AbstractAsyncContextManager[Queries]:
        raise NotImplementedError

    async def fetch(self, query: str, *parameters: Any) -> list[Row]:
        async with self._statement() as statement:
            return await statement.fetch(query, *parameters)

    async def fetchrow(self, query: str, *parameters: Any) -> Row | None:
        async with self._statement() as statement:
            return await statement.fetchrow(query, *parameters)

    async def execute(self, query: str, *parameters: Any) -> int:
        async with self._statement() as statement:
            return await statement.execute(query, *parameters)

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._statement() as statement:
            await statement.executemany(query, rows)
