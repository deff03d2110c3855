"""The account tests run against both stores: SQLite in the test's folder, and a real
PostgreSQL server started once per worker (a fresh database for each test; a real
program, so those are in the slow tier). Each test's database is a copy of a template
whose schema the store built once per worker: a copy costs less than the migrations."""

from __future__ import annotations

import asyncio
import functools
import itertools
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from dominion.server.accounts import AccountStore
from dominion.server.accounts.sql_store import SqlAccountStore
from dominion.server.accounts.sqlite_store import SqliteAccountStore
from tests.tiers import Tier, starts

from .postgres import PostgresServer

_databases = itertools.count()


@pytest.fixture(scope="session")
@starts(Tier.INTEGRATION)
def postgres_server(worker_postgres: PostgresServer) -> PostgresServer:
    """The worker's PostgreSQL (tests/conftest.py). Each module that imports this fixture
    has a fixture of its own, and each started a server (initdb and all) for its tests."""
    return worker_postgres


def new_database(postgres_server: PostgresServer, *, migrated: bool = False) -> str:
    """The URL of a new database on the shared server: empty, or `migrated` (the account
    store's schema at the latest version, copied from the worker's template)."""
    name = f"test_{next(_databases)}"
    template = f" TEMPLATE {schema_template(postgres_server)}" if migrated else ""
    postgres_server.psql(f"CREATE DATABASE {name}{template}")
    return database_url(postgres_server, name)


def database_url(postgres_server: PostgresServer, name: str) -> str:
    return postgres_server.url.rsplit("/", 1)[0] + f"/{name}"


@functools.cache
def schema_template(postgres_server: PostgresServer) -> str:
    """A database the store has migrated to the latest version, once per server; closed,
    so that CREATE DATABASE may copy it."""
    name = "accounts_template"
    postgres_server.psql(f"CREATE DATABASE {name}")

    async def migrate() -> None:
        from dominion.server.accounts.postgres_store import PostgresAccountStore

        store = PostgresAccountStore(database_url(postgres_server, name))
        await store.start()
        try:
            await store.ping()  # reached: a server that was not would leave it unmigrated
        finally:
            await store.close()
    # a thread of its own: an async fixture's loop may be running here
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, migrate()).result()
    return name


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A new database on the shared server, its schema at the latest version."""
    return new_database(postgres_server, migrated=True)


@pytest.fixture
def empty_postgres_url(postgres_server: PostgresServer) -> str:
    """A new, empty database on the shared server (for a schema an older version left)."""
    return new_database(postgres_server)


def make_store(kind: str, tmp_path: Path, request: pytest.FixtureRequest, *,
               empty: bool = False) -> SqlAccountStore:
    """A store of the kind, not started; `empty`: a PostgreSQL store gets an empty
    database, not the migrated copy (SQLite's file is new either way)."""
    if kind == "sqlite":
        return SqliteAccountStore(tmp_path / "games.accounts.sqlite3")
    from dominion.server.accounts.postgres_store import PostgresAccountStore

    fixture = "empty_postgres_url" if empty else "postgres_url"
    return PostgresAccountStore(request.getfixturevalue(fixture))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def store_kind(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


@pytest.fixture
async def store(store_kind: str, tmp_path: Path, request: pytest.FixtureRequest
                ) -> AsyncIterator[AccountStore]:
    """A started store of each kind."""
    opened = make_store(store_kind, tmp_path, request)
    await opened.start()
    try:
        yield opened
    finally:
        await opened.close()
