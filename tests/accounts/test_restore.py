"""Restores from older copies, as docs/HOSTING.md does them, on each account store: an
account store restored (the SQLite file by deploy/backup.py, PostgreSQL by pg_dump and
pg_restore) hands no new account an id it gave before, and `dominion-server ratings
reconcile` hands the ledger the rated games it lost, once; a node's games database
restored has its lost games listed and marked, no rating changed. Each run twice
changes nothing the second time. And the random ids themselves: an account made before
them keeps its id, and an id drawn that is taken is drawn again."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import pytest

from dominion.protocol import ErrorCode
from dominion.server.accounts import migrations, open_account_store, sql_store
from dominion.server.accounts.database import POSTGRES, SQLITE
from dominion.server.accounts.moderation import FullStore
from dominion.server.accounts.store import (
    FIRST_RANDOM_ID,
    LAST_ID,
    Account,
    sqlite_path_beside,
)
from dominion.server.edge.tasks.rating_outbox import RatingOutbox
from dominion.server.main import main
from dominion.server.ratings import Pool, Rating
from dominion.server.ratings.ledger import LedgerEntry, RatedGame, RatedSeat
from dominion.server.refusal import Refusal
from dominion.server.storage import Storage
from tests.deploy.test_backup import BACKUP
from tests.process_cpu import run
from tests.ratings.test_outbox import finish_rated

from .test_admin_cli import store_options

T = TypeVar("T")
FINISHED = "2026-12-01T10:00:00Z"  # finish_rated's
OTHER_NODE_GAME = "g-b-0123456789ab"


def sqlite_backup(source: Path, target: Path) -> None:
    made = run([sys.executable, str(BACKUP), str(source), str(target)], cpu_limit=30)
    assert made.returncode == 0, made.stderr


def sqlite_restore(copy: Path, live: Path) -> None:
    """HOSTING's restore: the live file, its -wal and -shm gone (moved aside there), the
    copy in."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{live}{suffix}").unlink(missing_ok=True)
    live.write_bytes(copy.read_bytes())


class AccountsBackup:
    """The account store's backup and restore, each store's way."""

    def __init__(self, kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
        self._kind = kind
        self._live = tmp_path / "games.accounts.sqlite3"
        self._copy = tmp_path / "accounts-backup.sqlite3"
        if kind == "postgres":
            self._server = request.getfixturevalue("postgres_server")
            self._database = request.getfixturevalue("postgres_url").rsplit("/", 1)[1]

    def save(self) -> None:
        if self._kind == "postgres":
            self._copy = self._server.dump(self._database)
        else:
            sqlite_backup(self._live, self._copy)

    def restore(self) -> None:
        if self._kind == "postgres":
            self._server.restore(self._database, self._copy)
        else:
            sqlite_restore(self._copy, self._live)


def with_store(options: list[str], work: Callable[[FullStore], Awaitable[T]]) -> T:
    """`work` on the account store the options name, opened and closed around it."""
    async def run() -> T:
        store = open_account_store(options[3] if len(options) > 2 else "", options[1])
        await store.start()
        try:
            return await work(store)
        finally:
            await store.close()
    return asyncio.run(run())


def with_node(options: list[str], work: Callable[[FullStore, Storage], Awaitable[T]]) -> T:
    """`work` on the account store and the node's games database (the server stopped)."""
    async def on_both(store: FullStore) -> T:
        storage = Storage.open(options[1], synchronous="NORMAL")
        await storage.start()
        try:
            return await work(store, storage)
        finally:
            await storage.close()
    return with_store(options, on_both)


async def rated_and_handed_on(store: FullStore, storage: Storage, account_id: int,
                              game_id: str) -> None:
    """A rated game of the account finished on the node, and its outbox handed it on."""
    await finish_rated(storage, account_id, game_id)
    assert await RatingOutbox(storage, store, 0.1).drain()
    assert storage.pending_ratings() == []


def reconcile(options: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["ratings", "reconcile", *options]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.integration  # sqlite3, the program
def test_an_accounts_restore_reuses_no_id_and_reconcile_hands_on_the_lost_game_once(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    options = store_options(store_kind, tmp_path, request)
    backup = AccountsBackup(store_kind, tmp_path, request)
    ada = with_store(options, lambda store: store.create_account("Ada", "ada", "h",
                                                                 datetime.now(UTC)))
    backup.save()

    async def bob_plays(store: FullStore, storage: Storage) -> int:  # after the backup
        bob = await store.create_account("Bob", "bob", "h", datetime.now(UTC))
        await rated_and_handed_on(store, storage, bob.id, "g-1")
        return bob.id
    bob = with_node(options, bob_plays)
    backup.restore()  # Bob and the ledger's g-1 are gone; the node's outbox says "applied"

    async def carol_registers(store: FullStore) -> tuple[int, list[LedgerEntry]]:
        carol = await store.create_account("Carol", "carol", "h", datetime.now(UTC))
        return carol.id, await store.ledger_entries()
    carol, entries = with_store(options, carol_registers)
    assert carol not in (ada.id, bob) and FIRST_RANDOM_ID <= carol <= LAST_ID
    assert entries == []

    assert reconcile(options, capsys) == [
        f"handed on g-1 (finished {FINISHED})",
        "1 rated game on this node, 1 handed on; 0 records lost (0 newly marked)"]
    assert reconcile(options, capsys) == [
        "1 rated game on this node, 0 handed on; 0 records lost (0 newly marked)"]

    async def ledger_of_bob(store: FullStore) -> tuple[list[LedgerEntry], int]:
        return (await store.ledger_entries(),
                (await store.ratings_of(bob))[Pool.TWO_PLAYER].games)
    assert with_store(options, ledger_of_bob) == ([LedgerEntry("g-1", FINISHED)], 1)


@pytest.mark.integration  # sqlite3, the program
def test_a_node_restored_from_an_older_copy_has_its_lost_games_marked_no_rating_changed(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    options = store_options(store_kind, tmp_path, request)
    games = Path(options[1])
    copy = tmp_path / "games-backup.sqlite3"

    async def ada_plays_once(store: FullStore, storage: Storage) -> int:
        ada = await store.create_account("Ada", "ada", "h", datetime.now(UTC))
        await rated_and_handed_on(store, storage, ada.id, "g-1")
        # another node's game, which this node never had
        assert await store.apply_rated_game(RatedGame(OTHER_NODE_GAME, FINISHED, (
            RatedSeat(0, 1, account_id=ada.id), RatedSeat(1, 0, bot="random"))),
            datetime.now(UTC))
        return ada.id
    ada = with_node(options, ada_plays_once)
    sqlite_backup(games, copy)
    with_node(options, lambda store, storage: rated_and_handed_on(store, storage, ada, "g-2"))
    sqlite_restore(copy, games)  # g-2 is gone from the node; the ledger counted it

    async def ratings(store: FullStore) -> tuple[dict[Pool, Rating],
                                                  list[tuple[str, Rating, bool]]]:
        return (await store.ratings_of(ada),
                [(point.game_id, point.rating, point.record_lost)
                 for point in await store.rating_history(ada, Pool.TWO_PLAYER, 10)])
    before = with_store(options, ratings)
    assert reconcile(options, capsys) == [
        f"record lost g-2 (finished {FINISHED}): rating kept",
        "1 rated game on this node, 0 handed on; 1 record lost (1 newly marked)"]
    assert reconcile(options, capsys) == [
        f"record lost g-2 (finished {FINISHED}): rating kept",
        "1 rated game on this node, 0 handed on; 1 record lost (0 newly marked)"]
    current, history = with_store(options, ratings)
    assert current == before[0]  # nothing undone
    assert history == [(game, rating, game == "g-2") for game, rating, _ in before[1]]
    assert [game for game, _, _ in history] == ["g-1", OTHER_NODE_GAME, "g-2"]


async def store_of_version_5(kind: str, options: list[str]) -> None:
    """An account store as the version before random ids left it, with Ada (id 1, from
    its counter) in it."""
    insert = ("INSERT INTO accounts (name, name_key, password_hash, created_at) VALUES "
              "('Ada', 'ada', 'h', '2026-01-01T00:00:00+00:00')")
    if kind == "postgres":
        import asyncpg

        db = await asyncpg.connect(options[3])
        try:
            await db.execute("CREATE TABLE accounts_schema (version INTEGER NOT NULL)")
            for number, script in enumerate(migrations.scripts(POSTGRES)[:5], start=1):
                await db.execute(script)
                await db.execute("INSERT INTO accounts_schema (version) VALUES ($1)", number)
            await db.execute(insert)
        finally:
            await db.close()
        return
    with sqlite3.connect(sqlite_path_beside(options[1])) as db:
        db.executescript(f"{''.join(migrations.scripts(SQLITE)[:5])}; PRAGMA user_version = 5;")
        db.execute(insert)


def test_accounts_made_before_random_ids_keep_theirs(
        store_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    options = store_options(store_kind, tmp_path, request, empty=True)
    asyncio.run(store_of_version_5(store_kind, options))

    async def migrated(store: FullStore) -> tuple[Account | None, Account]:
        return (await store.account_by_key("ada"),
                await store.create_account("Bob", "bob", "h", datetime.now(UTC)))
    ada, bob = with_store(options, migrated)
    assert ada is not None and ada.id == 1 and FIRST_RANDOM_ID <= bob.id <= LAST_ID
    if store_kind == "postgres":  # a node not yet upgraded names no id: drawn as well
        assert FIRST_RANDOM_ID <= asyncio.run(insert_naming_no_id(options[3])) <= LAST_ID


async def insert_naming_no_id(url: str) -> int:
    import asyncpg

    db = await asyncpg.connect(url)
    try:
        account_id: int = await db.fetchval(
            "INSERT INTO accounts (name, name_key, password_hash, created_at) VALUES "
            "('Old', 'old', 'h', now()) RETURNING id")
    finally:
        await db.close()
    return account_id


async def test_a_drawn_id_that_is_taken_is_drawn_again(
        store: FullStore, monkeypatch: pytest.MonkeyPatch) -> None:
    now = datetime.now(UTC)
    ada = await store.create_account("Ada", "ada", "h", now)
    draws = iter([ada.id, ada.id + 1, ada.id + 2])
    monkeypatch.setattr(sql_store, "new_account_id", lambda: next(draws))
    bob = await store.create_account("Bob", "bob", "h", now)
    assert bob.id == ada.id + 1 and (await store.account_by_key("bob")) == bob
    with pytest.raises(Refusal) as taken:  # the name's key, not the id: no second draw
        await store.create_account("Ada", "ada", "h", now)
    assert taken.value.code is ErrorCode.NAME_TAKEN
    monkeypatch.setattr(sql_store, "new_account_id", lambda: ada.id)
    with pytest.raises(Refusal) as drawn:
        await store.create_account("Cid", "cid", "h", now)
    assert drawn.value.code is ErrorCode.ACCOUNTS_UNAVAILABLE
    assert await store.account_by_key("cid") is None


def test_an_unreadable_outbox_row_is_reported_and_the_rest_are_handed_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    options = ["--db", str(tmp_path / "games.sqlite3")]

    async def two_games(store: FullStore, storage: Storage) -> None:
        ada = await store.create_account("Ada", "ada", "h", datetime.now(UTC))
        for game in ("g-1", "g-2"):
            await finish_rated(storage, ada.id, game)
    with_node(options, two_games)
    with sqlite3.connect(options[1]) as db:  # a bug's row: no seats
        db.execute("""UPDATE rating_outbox SET game = '{"game_id": "g-1"}' """
                   "WHERE game_id = 'g-1'")
    assert reconcile(options, capsys) == [
        f"handed on g-2 (finished {FINISHED})",
        "2 rated games on this node, 1 handed on; 0 records lost (0 newly marked)"]
    assert main(["ratings", "reconcile", *options]) == 0
    assert capsys.readouterr().err == "cannot read the outbox row of g-1: left as it is\n"


def test_reconcile_refuses_a_file_that_is_not_a_nodes_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "games.sqlite3"
    assert main(["ratings", "reconcile", "--db", str(missing)]) == 1
    assert "no such file" in capsys.readouterr().err and not missing.exists()
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    assert main(["ratings", "reconcile", "--db", str(other)]) == 1
    assert "not a dominion-server games database" in capsys.readouterr().err
