"""The account tests run against both stores: SQLite in the test's folder, and a real
PostgreSQL server started once per worker (a fresh database for each test; a real
program, so those are in the slow tier)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
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


def new_database(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty database on the shared server."""
    name = f"test_{next(_databases)}"
    postgres_server.psql(f"CREATE DATABASE {name}")
    return postgres_server.url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A new, empty database on the shared server."""
    return new_database(postgres_server)


def make_store(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> SqlAccountStore:
    if kind == "sqlite":
        return SqliteAccountStore(tmp_path / "games.accounts.sqlite3")
    from dominion.server.accounts.postgres_store import PostgresAccountStore

    return PostgresAccountStore(request.getfixturevalue("postgres_url"))


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
