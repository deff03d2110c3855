"""Both stores keep accounts and sessions the same way (run against each)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts import AccountStore, migrations
from dominion.server.refusal import Refusal

from .conftest import make_store

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
LATER = NOW + timedelta(days=1)


async def test_an_account_is_found_by_its_key_and_its_name_stays_taken(
        store: AccountStore) -> None:
    made = await store.create_account("Ada", "ada", "$argon2id$x", NOW)
    found = await store.account_by_key("ada")
    assert found is not None
    assert (found.id, found.name, found.password_hash, found.created_at) == (
        made.id, "Ada", "$argon2id$x", NOW)
    assert await store.account_by_key("bob") is None
    with pytest.raises(Refusal) as taken:
        await store.create_account("ADA", "ada", "$argon2id$y", NOW)
    assert taken.value.code is ErrorCode.NAME_TAKEN
    await store.delete_account(made.id, LATER)
    deleted = await store.account_by_key("ada")
    assert deleted is not None and deleted.password_hash is None and deleted.deleted_at == LATER
    with pytest.raises(Refusal):
        await store.create_account("Ada", "ada", "$argon2id$z", LATER)


async def test_sessions_sign_in_until_they_end_or_expire(store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    await store.add_session(b"a1", ada.id, NOW, LATER)
    await store.add_session(b"a2", ada.id, NOW, LATER)
    await store.add_session(b"b1", bob.id, NOW, LATER)
    signed = await store.session_account(b"a1", NOW)
    assert signed is not None and signed.id == ada.id
    assert await store.session_account(b"a1", LATER) is None  # expired
    assert await store.session_account(b"nope", NOW) is None
    await store.end_session(b"a1")
    assert await store.session_account(b"a1", NOW) is None
    assert await store.session_account(b"a2", NOW) is not None
    await store.end_sessions(ada.id)
    assert await store.session_account(b"a2", NOW) is None
    assert await store.session_account(b"b1", NOW) is not None  # someone else's stays
    await store.delete_account(bob.id, NOW)
    assert await store.session_account(b"b1", NOW) is None


async def test_live_sessions_are_those_neither_ended_nor_expired(store: AccountStore) -> None:
    """What a node asks about the sessions its connections signed in with, however many
    (one query): signed out, signed out everywhere, gone with the account, or expired by
    `now`, a session is not live."""
    ada = await store.create_account("Ada", "ada", "h", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    cy = await store.create_account("Cy", "cy", "h", NOW)
    await store.add_session(b"kept", ada.id, NOW, LATER + timedelta(days=1))
    await store.add_session(b"expiring", ada.id, NOW, LATER)
    await store.add_session(b"signed out", ada.id, NOW, LATER)
    await store.add_session(b"b1", bob.id, NOW, LATER)
    await store.add_session(b"b2", bob.id, NOW, LATER)
    await store.add_session(b"c1", cy.id, NOW, LATER)
    every = {b"kept", b"expiring", b"signed out", b"b1", b"b2", b"c1"}
    assert await store.live_sessions(every, NOW) == every
    await store.end_session(b"signed out")
    await store.end_sessions(bob.id)
    await store.delete_account(cy.id, NOW)
    unknown = {bytes([n % 256, n // 256]) * 16 for n in range(20_000)}
    assert await store.live_sessions(every | unknown, NOW) == {b"kept", b"expiring"}
    assert await store.live_sessions(every, LATER) == {b"kept"}
    assert await store.live_sessions(set(), NOW) == set()


async def test_a_new_session_clears_the_accounts_expired_ones(store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "h", NOW)
    await store.add_session(b"old", ada.id, NOW, LATER)
    await store.add_session(b"new", ada.id, LATER, LATER + timedelta(days=1))
    assert await store.session_account(b"new", LATER) is not None
    # gone, not just expired: a clock set back would not bring it back
    assert await store.session_account(b"old", NOW) is None


async def test_a_new_password_hash_replaces_the_old(store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "old", NOW)
    await store.set_password_hash(ada.id, "new")
    found = await store.account_by_key("ada")
    assert found is not None and found.password_hash == "new"


async def test_a_password_change_stores_the_hash_and_ends_the_other_sessions(
        store: AccountStore) -> None:
    ada = await store.create_account("Ada", "ada", "old", NOW)
    bob = await store.create_account("Bob", "bob", "h", NOW)
    for session, account in ((b"kept", ada), (b"other", ada), (b"bob", bob)):
        await store.add_session(session, account.id, NOW, LATER)
    assert await store.change_password(ada.id, "new", b"kept") == 1
    found = await store.account_by_key("ada")
    assert found is not None and found.password_hash == "new"
    live = await store.live_sessions([b"kept", b"other", b"bob"], NOW)
    assert live == {b"kept", b"bob"}


class Interrupted(Exception):
    """The process dying between two statements of a transaction."""


async def test_a_password_change_is_all_or_nothing(
        store: AccountStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # a password change stored the hash, then ended the sessions in a statement of its
    # own: a failure between the two left the new password with the old sessions alive
    ada = await store.create_account("Ada", "ada", "old", NOW)
    await store.add_session(b"kept", ada.id, NOW, LATER)
    await store.add_session(b"other", ada.id, NOW, LATER)
    db = store.db  # type: ignore[attr-defined]
    real = db.transaction

    @contextlib.asynccontextmanager
    async def dying(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        async with real(*args, **kwargs) as tx:
            yield Dying(tx)

    monkeypatch.setattr(db, "transaction", dying)
    with pytest.raises(Interrupted):
        await store.change_password(ada.id, "new", b"kept")
    monkeypatch.setattr(db, "transaction", real)
    found = await store.account_by_key("ada")
    assert found is not None and found.password_hash == "old"
    assert await store.live_sessions([b"kept", b"other"], NOW) == {b"kept", b"other"}


class Dying:
    """A transaction's statements, dying at the first one that ends sessions."""

    def __init__(self, tx: Any) -> None:
        self._tx = tx

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tx, name)

    async def execute(self, query: str, *parameters: Any) -> int:
        if query.startswith("DELETE FROM sessions"):
            raise Interrupted
        result: int = await self._tx.execute(query, *parameters)
        return result


async def test_accounts_survive_a_reopen_and_migrations_run_once(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    first = make_store(store_kind, tmp_path, request, empty=True)  # migrated by start
    await first.start()
    await first.create_account("Ada", "ada", "h", NOW)
    await first.close()
    again = make_store(store_kind, tmp_path, request, empty=True)  # the same file or database
    await again.start()  # a migration run twice would fail: its tables exist
    try:
        assert await again.account_by_key("ada") is not None
    finally:
        await again.close()


async def test_opening_an_old_store_logs_each_migration_step(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    scripts = "SQLITE" if store_kind == "sqlite" else "POSTGRES"
    with monkeypatch.context() as old:  # a store as version 3 left it
        old.setattr(migrations, "STEPS", migrations.STEPS[:3])
        first = make_store(store_kind, tmp_path, request, empty=True)
        await first.start()
        # as that version's code made accounts: its ids from a counter (PostgreSQL's
        # identity column refuses one given before version 6)
        await first.db.execute("INSERT INTO accounts (name, name_key, password_hash, "
                               "created_at) VALUES (?, ?, ?, ?)", "Ada", "ada", "h", NOW)
        await first.close()
    caplog.clear()
    caplog.set_level("INFO", logger="dominion.accounts")
    again = make_store(store_kind, tmp_path, request, empty=True)  # the same one
    await again.start()
    try:
        assert await again.account_by_key("ada") is not None
    finally:
        await again.close()
    steps = [record for record in caplog.records if record.getMessage() == "schema migrated"]
    assert [(step.from_version, step.to_version) for step in steps] == [
        (version - 1, version) for version in range(4, migrations.LATEST + 1)]
    assert [step.migration for step in steps] == [
        f"{scripts}[{version - 1}]" for version in range(4, migrations.LATEST + 1)]
    database = (str(tmp_path / "games.accounts.sqlite3") if store_kind == "sqlite"
                else "postgresql database test_")
    for step in steps:
        assert step.store == "accounts" and step.db.startswith(database)
        assert step.levelname == "INFO" and 0 <= step.seconds < 60
        assert "@" not in step.db  # never the URL, nor its password


def test_the_sqlite_file_sits_beside_the_games_database() -> None:
    from dominion.server.accounts.store import sqlite_path_beside

    assert sqlite_path_beside("/srv/games.sqlite3") == Path("/srv/games.accounts.sqlite3")
    assert sqlite_path_beside("dominion.db") == Path("dominion.accounts.db")
