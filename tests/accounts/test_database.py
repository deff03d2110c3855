"""The database interface the account store is written over once: each query written
with `?` marks and rendered per dialect, the schema's steps written once, and the two
drivers' transactions and errors alike (run against each)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from dominion.server.accounts import migrations
from dominion.server.accounts.database import POSTGRES, SQLITE, Duplicate
from dominion.server.accounts.sql_store import SqlAccountStore

from .conftest import new_database, schema_template
from .postgres import PostgresServer

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
INSERT = ("INSERT INTO accounts (name, name_key, password_hash, created_at) "
          "VALUES (?, ?, ?, ?)")


class Refused(Exception):
    """What the tests' transactions end with, to see them rolled back."""


def test_a_query_is_written_once_and_each_dialect_marks_its_parameters() -> None:
    written = "SELECT ? FROM t WHERE a = ?::bigint AND b = ANY(?::bytea[]) LIMIT ?"
    assert SQLITE.sql(written) == "SELECT ? FROM t WHERE a = ? AND b = ANY(?) LIMIT ?"
    assert POSTGRES.sql(written) == ("SELECT $1 FROM t WHERE a = $2::bigint AND "
                                     "b = ANY($3::bytea[]) LIMIT $4")


def test_each_schema_step_is_written_once_with_types_for_each_dialect() -> None:
    for dialect in (SQLITE, POSTGRES):
        scripts = migrations.scripts(dialect)
        assert len(scripts) == migrations.LATEST == len(migrations.STEPS)
        assert not any("{" in script for script in scripts)  # every type named
    sqlite, postgres = migrations.scripts(SQLITE), migrations.scripts(POSTGRES)
    assert "created_at TEXT NOT NULL" in sqlite[0]
    assert "created_at TIMESTAMPTZ NOT NULL" in postgres[0]
    assert "DROP IDENTITY" in postgres[5] and "IDENTITY" not in sqlite[5]


async def test_a_transaction_that_fails_changes_nothing(store: SqlAccountStore) -> None:
    with pytest.raises(Refused):
        async with store.db.transaction() as tx:
            await tx.execute(INSERT, "Ada", "ada", "h", NOW)
            raise Refused
    assert await store.account_by_key("ada") is None
    await store.db.execute(INSERT, "Ada", "ada", "h", NOW)  # the store goes on
    assert await store.account_by_key("ada") is not None


async def test_no_other_call_sees_a_transaction_before_it_commits(
        store: SqlAccountStore) -> None:
    """SQLite has one connection: a call made meanwhile waits for the transaction's end
    rather than run inside it; PostgreSQL's reads what was committed."""
    count = "SELECT count(*) FROM accounts"
    with pytest.raises(Refused):
        async with store.db.transaction() as tx:
            await tx.execute(INSERT, "Ada", "ada", "h", NOW)
            meanwhile = asyncio.create_task(store.db.fetchrow(count))
            await asyncio.sleep(0)  # its turn to start
            raise Refused
    assert await meanwhile == (0,)
    async with store.db.transaction() as tx:
        await tx.execute(INSERT, "Ada", "ada", "h", NOW)
        meanwhile = asyncio.create_task(store.db.fetchrow(count))
        await asyncio.sleep(0)
    assert await meanwhile in {(0,), (1,)}  # before the commit or after, never inside
    assert await store.db.fetchrow(count) == (1,)


async def test_a_taken_unique_key_is_one_error_on_both(store: SqlAccountStore) -> None:
    await store.db.execute(INSERT, "Ada", "ada", "h", NOW)
    with pytest.raises(Duplicate):
        await store.db.execute(INSERT, "ADA", "ada", "h", NOW)
    with pytest.raises(Duplicate):
        async with store.db.transaction() as tx:
            await tx.execute(INSERT, "ADA", "ada", "h", NOW)
    assert await store.db.fetchrow("SELECT count(*) FROM accounts") == (1,)


async def test_a_cancelled_transaction_is_rolled_back_and_the_store_goes_on(
        store: SqlAccountStore) -> None:
    inserted, never = asyncio.Event(), asyncio.Event()

    async def interrupted() -> None:
        async with store.db.transaction() as tx:
            await tx.execute(INSERT, "Ada", "ada", "h", NOW)
            inserted.set()
            await never.wait()

    task = asyncio.create_task(interrupted())
    await inserted.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.account_by_key("ada") is None
    await store.create_account("Ada", "ada", "h", NOW)
    assert await store.account_by_key("ada") is not None


def test_the_modules_that_test_against_postgresql_share_the_workers_server(
        postgres_server: PostgresServer, worker_postgres: PostgresServer) -> None:
    # a module importing `postgres_server` has a session fixture of its own: each had a
    # server of its own too, started (initdb and all) and kept until the session's end
    assert postgres_server is worker_postgres
    assert postgres_server.psql("SELECT 1").strip() == "1"


def test_a_tests_database_is_a_copy_of_the_schema_the_store_built_once(
        postgres_server: PostgresServer, postgres_url: str, empty_postgres_url: str) -> None:
    # CREATE DATABASE … TEMPLATE: the schema is built once a worker, not once a test
    assert schema_template(postgres_server) == schema_template(postgres_server)
    for url in (postgres_url, new_database(postgres_server, migrated=True)):
        copied = postgres_server.psql("SELECT max(version) FROM accounts_schema",
                                      url.rsplit("/", 1)[1])
        assert copied.strip() == str(migrations.LATEST)
    tables = postgres_server.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
                                  empty_postgres_url.rsplit("/", 1)[1])
    assert tables.strip() == "0"
