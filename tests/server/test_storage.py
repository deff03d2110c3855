"""Storage: schema and migration, durability, group commit, faults, listings."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from dominion.bots import make_strategy
from dominion.server.engine import (
    Answer,
    Game,
    Resignation,
    ResignReason,
    Setup,
    event_record,
    replay,
)
from dominion.server.play.bots import play_out
from dominion.server.play.seat_tokens import hash_token, new_game_id
from dominion.server.replays import logged_events
from dominion.server.storage import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    GameRecord,
    SeatRecord,
    Storage,
    StorageError,
    rows,
    schema,
)
from dominion.server.storage import store as store_module
from tests.eventually import eventually

KINGDOM = ("cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy",
           "village", "workshop")


def game_record(game_id: str = "g-1", **changes: Any) -> GameRecord:
    values: dict[str, Any] = {"id": game_id, "created_at": "2024-05-01T10:00:00Z",
                              "state": "open", "edition": 2, "seats": 2, "kingdom": KINGDOM}
    values.update(changes)
    return GameRecord(**values)

async def old_file(path: Path, version: int, monkeypatch: pytest.MonkeyPatch,
                   record: GameRecord | None = None) -> None:
    """A games file as schema `version` wrote it, holding one game (`game_record()`)."""
    with monkeypatch.context() as old:
        old.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:version])
        old.setattr(schema, "SCHEMA_VERSION", version)
        storage = Storage.open(path)
        await storage.start()
        await storage.create_game(record or game_record(), [])
        await storage.close()


def raw(path: Path) -> sqlite3.Connection:
    """A connection of its own: what a restarted server (or another process) would see."""
    return sqlite3.connect(path)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    storage = Storage.open(tmp_path / "games.db")
    await storage.start()
    yield storage
    await storage.close()


def db_path(storage: Storage) -> Path:
    return Path(storage.path)


# -- creation, migration, settings ------------------------------------------------

async def test_fresh_file_gets_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    storage = Storage.open(path)
    await storage.close()
    with raw(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 9
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        names = "SELECT name FROM sqlite_master WHERE type = ?"
        tables = {row[0] for row in conn.execute(names, ["table"])}
        assert {"games", "seats", "answers", "chat", "kingdom_cards"} <= tables
        assert "events" not in tables  # derived from the answers, never stored
        indexes = {row[0] for row in conn.execute(names, ["index"])}
        assert {"games_state_created", "games_state_finished", "games_finished", "seats_name",
                "chat_game", "kingdom_cards_game"} <= indexes
    # Opening again is a no-op migration.
    storage = Storage.open(path)
    await storage.close()


async def test_foreign_keys_are_checked_after_a_migration_not_at_each_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every connection of the server writes with foreign keys on; reading every row for
    orphans at each start cost 1.4 s of CPU before a server of 100,000 unfinished games
    could listen. A migration, which rewrites tables, still checks them all."""
    path = tmp_path / "orphan.db"
    await Storage.open(path).close()
    with raw(path) as conn:  # foreign keys off: a row no server would have written
        conn.execute("INSERT INTO seats (game_id, seat) VALUES ('g-none', 0)")
    await Storage.open(path).close()
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, lambda db: None))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(StorageError, match="rows refer to missing games"):
        Storage.open(path)


async def test_an_empty_file_is_a_fresh_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    storage = Storage.open(path)
    await storage.close()
    with raw(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


async def test_older_schema_is_migrated_step_by_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    storage = Storage.open(path)
    await storage.start()
    await storage.create_game(game_record(), [])
    await storage.close()
    ran: list[int] = []

    def step_2(db: Any) -> None:
        ran.append(2)
        db.table("games").add_column("note", str)

    newer = SCHEMA_VERSION + 1
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, step_2))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", newer)
    storage = Storage.open(path)
    assert ran == [2]
    assert storage.load_game("g-1") is not None  # data kept across the migration
    await storage.close()
    with raw(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == newer
        assert "note" in [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    await Storage.open(path).close()  # already there: the step does not run again
    assert ran == [2]


async def test_version_1_files_lose_the_events_table_and_keep_their_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v1.db"
    await old_file(path, 1, monkeypatch)
    with raw(path) as conn:
        conn.execute("INSERT INTO events VALUES ('g-1', 1, '{}')")
        conn.commit()
    storage = Storage.open(path)
    assert storage.load_game("g-1") is not None
    await storage.close()
    with raw(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        assert "events" not in tables and "games" in tables


async def test_a_version_6_file_gets_the_takeover_column_and_keeps_its_seats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v6.db"
    await old_file(path, 6, monkeypatch, game_record(state="playing"))
    with raw(path) as conn:  # seats as version 6 wrote them
        columns = [row[1] for row in conn.execute("PRAGMA table_info(seats)")]
        assert "taken_over_at" not in columns
        conn.execute("INSERT INTO seats (game_id, seat, name, token_hash, account_id) "
                     "VALUES ('g-1', 0, 'Ada', 'h0', 7), ('g-1', 1, 'Bob', 'h1', 8)")
    conn.close()
    storage = Storage.open(path)
    await storage.start()
    try:
        assert [(seat.name, seat.account_id, seat.taken_over_at)
                for seat in storage.seats("g-1")] == [("Ada", 7, None), ("Bob", 8, None)]
        await storage.take_over_seat("g-1", 1, "2024-05-01T10:05:00Z")
        await storage.take_over_seat("g-1", 1, "2024-05-01T10:09:00Z")  # again: the first stays
        assert [seat.taken_over_at for seat in storage.seats("g-1")] == [
            None, "2024-05-01T10:05:00Z"]
        with pytest.raises(StorageError, match="no seat 2 to take over"):
            await storage.take_over_seat("g-1", 2, "2024-05-01T10:05:00Z")
    finally:
        await storage.close()
    with raw(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 9
    conn.close()


async def test_a_version_7_file_gets_the_clock_columns_and_keeps_its_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v7.db"
    await old_file(path, 7, monkeypatch, game_record(state="playing"))
    with raw(path) as conn:  # answers as version 7 wrote them: no charge, no reason
        columns = [row[1] for row in conn.execute("PRAGMA table_info(answers)")]
        assert "ms" not in columns and "reason" not in columns
        conn.execute("INSERT INTO answers (game_id, idx, player, kind, decision, choices, at) "
                     "VALUES ('g-1', 0, 0, 'answer', 1, '[0]', 'x'), "
                     "('g-1', 1, 1, 'resign', NULL, NULL, 'x')")
    conn.close()
    storage = Storage.open(path)
    await storage.start()
    try:
        stored = storage.load_game("g-1")
        assert stored is not None
        assert stored.answers == (Answer(0, 1, (0,)), Resignation(1))
        assert stored.charged_ms == (0, 0)
        await storage.append_answers("g-1", 2, [Answer(0, 2, (1,)),
                                                Resignation(0, ResignReason.TIMED_OUT)],
                                     "y", [1500, 30000])
        stored = storage.load_game("g-1")
        assert stored is not None
        assert stored.answers[2:] == (Answer(0, 2, (1,)),
                                      Resignation(0, ResignReason.TIMED_OUT))
        assert stored.charged_ms == (0, 0, 1500, 30000)
    finally:
        await storage.close()


def migrations_logged(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [{key: getattr(record, key) for key in (
                "store", "db", "from_version", "to_version", "migration", "seconds")}
            for record in caplog.records if record.getMessage() == "schema migrated"]


async def test_opening_an_old_file_logs_each_migration_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "v4.db"
    await old_file(path, 4, monkeypatch)
    caplog.clear()
    caplog.set_level("INFO", logger="dominion.storage")
    await Storage.open(path).close()
    steps = migrations_logged(caplog)
    assert [(step["from_version"], step["to_version"]) for step in steps] == [
        (4, 5), (5, 6), (6, 7), (7, 8), (8, 9)] and SCHEMA_VERSION == 9
    assert [step["migration"] for step in steps] == ["_migrate_5", "_migrate_6", "_migrate_7",
                                                     "_migrate_8", "_migrate_9"]
    assert all(step["store"] == "games" and step["db"] == str(path)
               and 0 <= step["seconds"] < 60 for step in steps)
    assert all(record.levelname == "INFO" for record in caplog.records)
    caplog.clear()
    await Storage.open(path).close()  # already at the version: nothing ran, nothing said
    assert migrations_logged(caplog) == []


async def test_a_failing_migration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "old.db"
    await Storage.open(path).close()
    caplog.clear()
    caplog.set_level("INFO", logger="dominion.storage")

    def broken(db: Any) -> None:
        db.table("games").add_column("note", str)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, broken))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(StorageError, match="disk I/O error"):
        Storage.open(path)
    assert migrations_logged(caplog) == []  # rolled back: no step is said to have run
    with raw(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert "note" not in [row[1] for row in conn.execute("PRAGMA table_info(games)")]


@pytest.mark.parametrize(("mode", "level"), [("FULL", 2), ("NORMAL", 1), ("normal", 1)])
async def test_wal_foreign_keys_and_synchronous(tmp_path: Path, mode: str, level: int) -> None:
    storage = Storage.open(tmp_path / "s.db", synchronous=mode)
    try:
        writer = storage._writer
        assert writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert writer.execute("PRAGMA synchronous").fetchone()[0] == level
        assert writer.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert storage._reader.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    finally:
        await storage.close()
    with raw(tmp_path / "s.db") as conn:  # WAL is a property of the file
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_synchronous_must_be_full_or_normal(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="synchronous must be one of FULL, NORMAL"):
        Storage.open(tmp_path / "s.db", synchronous="OFF")
    assert not (tmp_path / "s.db").exists()


async def test_the_read_connection_cannot_write(tmp_path: Path) -> None:
    storage = Storage.open(tmp_path / "s.db")
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        storage._reader.execute("DELETE FROM games")
    await storage.close()


# -- refusals ----------------------------------------------------------------------

def test_refuses_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    data = random.Random(5).randbytes(4096)
    path.write_bytes(data)
    with pytest.raises(StorageError, match="is not a SQLite database"):
        Storage.open(path)
    assert path.read_bytes() == data  # left as it was


def test_refuses_a_damaged_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    with raw(path) as conn:
        conn.execute("CREATE TABLE t (x)")
    data = path.read_bytes()
    # A valid header with garbage after it: SQLite itself must notice.
    path.write_bytes(data[:16] + b"\xff" * (len(data) - 16))
    with pytest.raises(StorageError, match=r"not a SQLite database|damaged|malformed"):
        Storage.open(path)


def test_refuses_another_programs_database(tmp_path: Path) -> None:
    path = tmp_path / "foreign.db"
    with raw(path) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)")
        conn.execute("INSERT INTO users (email) VALUES ('a@example.com')")
    with pytest.raises(StorageError, match="database of another program"):
        Storage.open(path)
    with raw(path) as conn:  # untouched: no tables of ours, no marker
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master")]
        assert tables == ["users"]
        assert conn.execute("PRAGMA application_id").fetchone()[0] == 0


def test_refuses_a_database_marked_by_another_program(tmp_path: Path) -> None:
    path = tmp_path / "marked.db"
    with raw(path) as conn:
        conn.execute("PRAGMA application_id = 1234")
    with pytest.raises(StorageError, match="database of another program"):
        Storage.open(path)


async def test_refuses_a_newer_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    await Storage.open(path).close()
    with raw(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    newer = (f"has schema version {SCHEMA_VERSION + 1} .* created by a newer version of "
             "dominion-server; upgrade")
    with pytest.raises(StorageError, match=newer):
        Storage.open(path)


def test_refuses_a_missing_folder(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "folder" / "games.db"
    with pytest.raises(StorageError, match="does not exist; create it first"):
        Storage.open(path)
    assert not path.parent.exists()


def test_refuses_a_folder_as_the_file(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="is a folder"):
        Storage.open(tmp_path)


async def test_refuses_a_read_only_file(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    await Storage.open(path).close()
    if os.geteuid() == 0:
        pytest.skip("root writes through chmod 0o444; "
                    "test_refuses_a_file_sqlite_can_only_read provokes the same refusal")
    path.chmod(0o444)
    try:
        with pytest.raises(StorageError, match="read-only"):
            Storage.open(path)
    finally:
        path.chmod(0o644)


async def test_refuses_a_file_sqlite_can_only_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As root, chmod 0o444 stops nothing, so the previous test cannot fail the open.
    # Here every connection is opened read-only (mode=ro), as SQLite does for a file
    # it may not write: the open must refuse with the same message, for any user.
    path = tmp_path / "ro.db"
    await Storage.open(path).close()

    def read_only(filename: str, *, check_same_thread: bool = False) -> sqlite3.Connection:
        return sqlite3.connect(f"file:{filename}?mode=ro", uri=True,
                               check_same_thread=check_same_thread)

    monkeypatch.setattr(schema, "connect", read_only)
    with pytest.raises(StorageError, match="read-only"):
        Storage.open(path)


# -- round trips ----------------------------------------------------------------------

async def test_every_record_round_trips(store: Storage) -> None:
    seed = 2**128 - 1
    game = game_record(
        "g-full", kingdom_name="First Game", options={"timer": 60, "private": True, "x": [1]},
    )
    seats = [SeatRecord(0, "Alice", hash_token("secret"), None, "2024-05-01T10:00:01Z",
                        account_id=7, taken_over_at="2024-05-01T10:03:00Z"),
             SeatRecord(1)]
    await store.create_game(game, seats)
    stored = store.load_game("g-full")
    assert stored is not None
    assert stored.game == game
    assert stored.seats == tuple(seats)
    assert stored.answers == ()
    assert store.load_game("g-nope") is None

    bot = SeatRecord(1, "Bot 2 (big_money)", None, "big_money", "2024-05-01T10:00:02Z")
    await store.save_seat("g-full", bot)
    setup = Setup.create(["Alice", "Bot"], kingdom="First Game").to_dict()
    await store.start_game("g-full", started_at="2024-05-01T10:00:03Z", seed=seed,
                           commitment="ab" * 32, setup=setup)
    entries: list[Answer | Resignation] = [
        Answer(0, 0, (3,)), Answer(1, 1, ()), Answer(0, 2, (4, 1, 0)), Resignation(1)]
    await store.append_answers("g-full", 0, entries[:2], "2024-05-01T10:00:04Z")
    await store.append_answers("g-full", 2, entries[2:], "2024-05-01T10:00:05Z")
    await store.append_chat("g-full", at="2024-05-01T10:00:06Z", seat=0, name="Alice",
                            text="gl hf — zażółć")
    await store.append_chat("g-full", at="2024-05-01T10:00:07Z", seat=None, name="watcher",
                            text="hi")

    stored = store.load_game("g-full")
    assert stored is not None
    assert stored.game.state == "playing"
    assert stored.game.seed == seed and isinstance(stored.game.seed, int)
    assert stored.game.commitment == "ab" * 32
    assert stored.game.setup == setup
    assert stored.game.started_at == "2024-05-01T10:00:03Z"
    assert stored.seats == (seats[0], bot)
    assert stored.answers == tuple(entries)
    assert all(isinstance(a.choices, tuple) for a in stored.answers if isinstance(a, Answer))
    assert isinstance(stored.answers[-1], Resignation)
    assert store.chat("g-full") == [
        {"id": 1, "at": "2024-05-01T10:00:06Z", "seat": 0, "name": "Alice",
         "text": "gl hf — zażółć"},
        {"id": 2, "at": "2024-05-01T10:00:07Z", "seat": None, "name": "watcher", "text": "hi"},
    ]
    with raw(db_path(store)) as conn:  # what is on disk: decimal text, kinds, no token
        assert conn.execute("SELECT seed, typeof(seed) FROM games").fetchone() == (
            str(seed), "text")
        kinds = [row[0] for row in conn.execute("SELECT kind FROM answers ORDER BY idx")]
        assert kinds == ["answer", "answer", "answer", "resign"]
        assert conn.execute("SELECT token_hash FROM seats WHERE seat = 0").fetchone()[0] == (
            hash_token("secret"))

    result = {"scores": [10, 3], "winners": [0]}
    await store.finish_game("g-full", state="finished", finished_at="2024-05-01T10:30:00Z",
                            result=result)
    stored = store.load_game("g-full")
    assert stored is not None
    assert stored.game.state == "finished"
    assert stored.game.result == result
    assert stored.game.finished_at == "2024-05-01T10:30:00Z"


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1, 2**63, 2**64, 2**128 - 1, 2**128])
async def test_seeds_round_trip_exactly(store: Storage, seed: int) -> None:
    await store.create_game(game_record(seed=seed, state="playing"), [])
    stored = store.load_game("g-1")
    assert stored is not None
    assert stored.game.seed == seed


async def test_a_real_game_is_rebuilt_from_setup_seed_and_answers(store: Storage) -> None:
    setup = Setup.create(["Ann", "Ben", "Cy"], kingdom="First Game")
    seed = 2**127 + 12345
    game = Game(setup, seed)
    play_out(game, [make_strategy("big_money", random.Random(i)) for i in range(3)])
    await store.create_game(game_record(seats=3, kingdom=setup.kingdom),
                            [SeatRecord(i, name) for i, name in enumerate(setup.players)])
    await store.start_game("g-1", started_at="2024-05-01T10:00:01Z", seed=seed,
                           commitment="00" * 32, setup=setup.to_dict())
    # Appended in uneven slices, all queued at once: order must survive the queue.
    cuts = sorted(random.Random(1).sample(range(1, len(game.answers)), 20))
    slices = zip([0, *cuts], [*cuts, len(game.answers)], strict=True)
    await asyncio.gather(*(store.append_answers("g-1", a, game.answers[a:b], "t")
                           for a, b in slices))
    assert game.result is not None
    await store.finish_game("g-1", state="finished", finished_at="2024-05-01T11:00:00Z",
                            result=game.result.to_dict())

    stored = store.load_game("g-1")
    assert stored is not None and stored.game.setup is not None and stored.game.seed is not None
    assert stored.answers == tuple(game.answers)
    again = replay(Setup.from_dict(stored.game.setup), stored.game.seed, stored.answers)
    assert [event_record(e) for e in again.events] == [event_record(e) for e in game.events]
    assert logged_events(stored) == [event_record(e) for e in game.events]


# -- durability and group commit -------------------------------------------------------

async def test_a_write_is_on_disk_when_its_await_returns(store: Storage) -> None:
    path = db_path(store)
    await store.create_game(game_record(), [SeatRecord(0, "Ann")])
    with raw(path) as conn:
        assert conn.execute("SELECT state FROM games WHERE id = 'g-1'").fetchone() == ("open",)
    for index in range(30):
        await store.append_answers("g-1", index, [Answer(index % 2, index, (index,))], "t")
        # A new connection each time: nothing cached, only what was committed.
        conn = raw(path)
        try:
            count = conn.execute("SELECT count(*) FROM answers").fetchone()[0]
        finally:
            conn.close()
        assert count == index + 1


async def test_concurrent_answers_share_transactions_and_keep_their_order(
    store: Storage,
) -> None:
    games = [f"g-{i}" for i in range(5)]
    for game_id in games:
        await store.create_game(game_record(game_id), [])
    commits_before = store.commits
    per_game = 100

    async def play(game_id: str) -> None:
        for index in range(per_game):
            await store.append_answers(game_id, index, [Answer(index % 2, index, (index, 1))],
                                       f"2024-05-01T10:00:{index % 60:02d}Z")

    # 5 games answering at once, plus a burst of single writes all queued together.
    await asyncio.gather(*(play(game_id) for game_id in games))
    writes = len(games) * per_game
    transactions = store.commits - commits_before
    assert store.committed_writes >= writes
    assert transactions < writes / 2, (transactions, writes)

    await store.create_game(game_record("g-burst"), [])
    before = store.commits
    await asyncio.gather(*(store.append_answers("g-burst", i, [Answer(0, i, ())], "t")
                           for i in range(200)))
    assert store.commits - before < 20  # typically 1 or 2

    with raw(db_path(store)) as conn:
        for game_id in [*games, "g-burst"]:
            idx = [row[0] for row in conn.execute(
                "SELECT decision FROM answers WHERE game_id = ? ORDER BY idx", [game_id])]
            assert idx == list(range(per_game if game_id != "g-burst" else 200))


async def test_close_saves_everything_still_queued(tmp_path: Path) -> None:
    path = tmp_path / "close.db"
    storage = Storage.open(path)
    await storage.start()
    await storage.create_game(game_record(), [])
    tasks = [asyncio.create_task(storage.append_answers("g-1", i, [Answer(0, i, (i,))], "t"))
             for i in range(300)]
    tasks.append(asyncio.create_task(storage.append_chat("g-1", at="t", seat=0, name="a",
                                                         text="bye")))
    await asyncio.sleep(0)  # let every task queue its write
    await storage.close()
    assert all(task.done() and task.exception() is None for task in tasks)
    await storage.close()  # idempotent
    with raw(path) as conn:
        assert conn.execute("SELECT count(*) FROM answers").fetchone()[0] == 300
        assert conn.execute("SELECT count(*) FROM chat").fetchone()[0] == 1
    with pytest.raises(StorageError, match="closed"):
        await storage.append_chat("g-1", at="t", seat=0, name="a", text="late")
    with pytest.raises(StorageError, match="closed"):
        storage.load_game("g-1")


async def test_writes_need_start(tmp_path: Path) -> None:
    storage = Storage.open(tmp_path / "s.db")
    with pytest.raises(StorageError, match=r"start\(\) was not called"):
        await storage.create_game(game_record(), [])
    await storage.close()


# -- faults ------------------------------------------------------------------------------

async def wait_until_taken(storage: Storage) -> None:
    """Until the writer thread has taken every queued job (it may be blocked on a lock)."""
    await eventually(lambda: not storage._handing and storage._queue.empty())


async def hold_writer_then_queue(
    storage: Storage, writes: list[Callable[[], Any]]
) -> list[BaseException | None]:
    """Queue `writes` while the writer waits for a lock, so they form one batch."""
    blocker = raw(db_path(storage))
    blocker.isolation_level = None
    blocker.execute("BEGIN IMMEDIATE")  # the writer's next BEGIN IMMEDIATE waits
    first = asyncio.create_task(storage.append_chat("g-1", at="t", seat=None, name="x",
                                                    text="first"))
    await asyncio.sleep(0)  # "first" is queued
    await wait_until_taken(storage)  # the writer holds "first" alone, waiting for the lock
    tasks = [asyncio.create_task(write()) for write in writes]
    await asyncio.sleep(0.05)  # all queued
    blocker.execute("ROLLBACK")
    blocker.close()
    await first
    return list(await asyncio.gather(*tasks, return_exceptions=True))


async def test_one_bad_write_fails_alone_and_the_rest_of_its_batch_is_committed(
        store: Storage) -> None:
    await store.create_game(game_record(), [])
    await store.append_answers("g-1", 0, [Answer(0, 0, ())], "t")
    assert store.healthy and store.failed_batches == 0
    committed = store.commits
    outcomes = await hold_writer_then_queue(store, [
        lambda: store.append_answers("g-1", 1, [Answer(1, 1, (2,))], "t"),
        lambda: store.append_chat("g-1", at="t", seat=0, name="a", text="kept"),
        # A bug: the same log position twice. It fails; the others are stored.
        lambda: store.append_answers("g-1", 1, [Answer(1, 1, (9,))], "t"),
        lambda: store.create_game(game_record("g-2"), []),
        # A value SQLite cannot store (a lone surrogate): it fails alone too.
        lambda: store.append_chat("g-1", at="t", seat=0, name="a", text="\ud800"),
    ])
    assert [not isinstance(outcome, BaseException) for outcome in outcomes] == [
        True, True, False, True, False]
    assert "not saved: game g-1 has 2 stored answers; cannot append at 1" in str(outcomes[2])
    assert "UnicodeEncodeError" in str(outcomes[4])
    # the batch failed once, then each write was committed alone (the holder's too)
    assert store.failed_batches == 1 and store.commits == committed + 1 + 3
    assert store.last_error is outcomes[4]
    assert store.healthy  # the writes' own faults, not the database's
    stored = store.load_game("g-1")
    assert stored is not None and stored.answers == (Answer(0, 0, ()), Answer(1, 1, (2,)))
    assert [line["text"] for line in store.chat("g-1")] == ["first", "kept"]
    assert store.load_game("g-2") is not None


async def test_appends_in_one_statement_are_each_checked(store: Storage) -> None:
    """Consecutive appends go to SQLite together; one that overlaps its game's log fails,
    is named, and the others are committed without it."""
    await store.create_game(game_record(), [])
    await store.create_game(game_record("g-2"), [])
    await store.append_answers("g-1", 0, [Answer(0, 0, ())], "t")
    outcomes = await hold_writer_then_queue(store, [
        lambda: store.append_answers("g-2", 0, [Answer(0, 0, ()), Answer(1, 1, (2,))], "t"),
        lambda: store.append_answers("g-1", 1, [Answer(1, 1, (2,))], "t"),
        lambda: store.append_answers("g-1", 1, [Answer(1, 1, (9,))], "t"),  # overlaps
    ])
    assert outcomes[:2] == [None, None] and isinstance(outcomes[2], StorageError)
    assert "game g-1 has 2 stored answers; cannot append at 1" in str(outcomes[2])
    assert [len(store.load_game(g).answers) for g in ("g-1", "g-2")] == [2, 2]  # type: ignore[union-attr]
    # appends that fit are one batch that succeeds
    failed = store.failed_batches
    outcomes = await hold_writer_then_queue(store, [
        lambda: store.append_answers("g-2", 2, [Answer(0, 2, ()), Answer(1, 3, (2,))], "t"),
        lambda: store.append_answers("g-1", 2, [Answer(1, 2, (2,))], "t"),
        lambda: store.append_answers("g-1", 3, [Answer(0, 3, (9,))], "t"),
    ])
    assert outcomes == [None, None, None] and store.failed_batches == failed
    loaded = store.load_game("g-1")
    assert loaded is not None and loaded.answers == (Answer(0, 0, ()), Answer(1, 1, (2,)),
                                                     Answer(1, 2, (2,)), Answer(0, 3, (9,)))


@pytest.mark.parametrize("kept", [1, 10_000])
async def test_the_writer_knows_each_log_length(store: Storage, monkeypatch: pytest.MonkeyPatch,
                                                kept: int) -> None:
    """Gaps and overlaps are refused whether the writer remembers a log's length or has
    forgotten it (it keeps `LOG_ENDS_KEPT` of them)."""
    monkeypatch.setattr(store_module, "LOG_ENDS_KEPT", kept)
    games = ["g-1", "g-2", "g-3"]
    for game in games:
        await store.create_game(game_record(game), [])
    for index in range(3):
        for game in games:
            await store.append_answers(game, index, [Answer(0, index, ())], "t")
    assert len(store._log_ends) <= kept
    for game in games:
        for wrong in (2, 4):
            with pytest.raises(StorageError, match=f"{game} has 3 stored answers; cannot "
                                                   f"append at {wrong}"):
                await store.append_answers(game, wrong, [Answer(0, wrong, ())], "t")
        await store.append_answers(game, 3, [Answer(0, 3, ())], "t")
        assert len(store.load_game(game).answers) == 4  # type: ignore[union-attr]


async def test_a_constraint_violation_fails_its_write_alone(store: Storage) -> None:
    await store.create_game(game_record(), [])
    outcomes = await hold_writer_then_queue(store, [
        lambda: store.create_game(game_record("g-2"), []),
        lambda: store.create_game(game_record("g-1"), []),  # primary key taken
    ])
    assert outcomes[0] is None and isinstance(outcomes[1], StorageError)
    assert "UNIQUE constraint failed" in str(outcomes[1])
    assert "a bug in the server" in str(outcomes[1])
    assert isinstance(outcomes[1].__cause__, sqlite3.IntegrityError)
    assert store.load_game("g-2") is not None
    assert store.healthy


async def test_a_full_disk_fails_the_write_and_health_returns_with_the_space(
        store: Storage) -> None:
    await store.create_game(game_record(), [])
    writer = store._writer
    # SQLite's page limit gives the same SQLITE_FULL error as a full disk.
    pages = writer.execute("PRAGMA page_count").fetchone()[0]
    writer.execute(f"PRAGMA max_page_count = {pages}")
    answers = [Answer(0, i, tuple(range(50))) for i in range(2000)]
    with pytest.raises(StorageError, match="full") as failure:
        await store.append_answers("g-1", 0, answers, "t")
    assert "free space" in str(failure.value)
    assert not store.healthy
    stored = store.load_game("g-1")
    assert stored is not None and stored.answers == ()
    writer.execute("PRAGMA max_page_count = 1073741823")  # space freed
    await store.append_answers("g-1", 0, answers, "t")
    stored = store.load_game("g-1")
    assert stored is not None and len(stored.answers) == 2000
    assert store.healthy


async def test_an_unhealthy_storage_probes_with_a_write_at_most_once_a_second(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    store._healthy = False  # a write failed a moment ago
    commits = store.commits
    assert await store.probe()  # the write went through: healthy again
    assert store.commits == commits + 1
    store._healthy = False
    assert not await store.probe()  # too soon to try again
    assert store.commits == commits + 1
    monkeypatch.setattr(store, "_next_probe", 0.0)
    assert await store.probe()


async def test_refused_writes(store: Storage) -> None:
    await store.create_game(game_record(), [])
    with pytest.raises(StorageError, match="has 0 stored answers; cannot append at 3"):
        await store.append_answers("g-1", 3, [Answer(0, 0, ())], "t")
    with pytest.raises(StorageError, match="unknown game g-x"):
        await store.save_seat("g-x", SeatRecord(0, "a"))
    with pytest.raises(StorageError, match="has 2 seats, no seat 2"):
        await store.save_seat("g-1", SeatRecord(2, "a"))
    with pytest.raises(StorageError, match="cannot start game g-x: no such game"):
        await store.start_game("g-x", started_at="t", seed=1, commitment="c", setup={})
    await store.finish_game("g-1", state="abandoned", finished_at="t", result=None)
    with pytest.raises(StorageError, match="cannot start game g-1: it is abandoned"):
        await store.start_game("g-1", started_at="t", seed=1, commitment="c", setup={})
    with pytest.raises(StorageError, match="cannot finish game g-1: it is abandoned"):
        await store.finish_game("g-1", state="finished", finished_at="t", result=None)
    # Caller mistakes are refused before anything is queued.
    with pytest.raises(ValueError, match="state must be one of"):
        await store.finish_game("g-1", state="won", finished_at="t", result=None)
    with pytest.raises(ValueError, match="2-6 seats"):
        await store.create_game(game_record("g-7", seats=7), [])
    with pytest.raises(ValueError, match="seat number is given twice"):
        await store.create_game(game_record("g-8"), [SeatRecord(0), SeatRecord(0)])
    with pytest.raises(ValueError, match="non-negative"):
        await store.start_game("g-1", started_at="t", seed=-1, commitment="c", setup={})
    with pytest.raises(TypeError):
        await store.append_answers("g-1", 0, [(0, 0, ())], "t")  # type: ignore[list-item]


# -- listings ------------------------------------------------------------------------------

async def add_game(store: Storage, game_id: str, *, created: str, state: str = "finished",
                   finished: str | None = None, edition: int = 2, seats: int = 2,
                   names: tuple[str, ...] = ("Ann", "Ben"),
                   kingdom: tuple[str, ...] = KINGDOM) -> None:
    await store.create_game(
        game_record(game_id, created_at=created, edition=edition, seats=seats, kingdom=kingdom),
        [SeatRecord(i, name) for i, name in enumerate(names)],
    )
    if state != "open":
        await store.start_game(game_id, started_at=created, seed=7, commitment="c", setup={})
    if state in ("finished", "abandoned"):
        await store.finish_game(game_id, state=state, finished_at=finished or created,
                                result=None)


@pytest.fixture
async def listed(store: Storage) -> Storage:
    witch = ("witch", *KINGDOM[1:])
    await add_game(store, "g-a", created="2024-01-01T10:00:00Z", finished="2024-01-01T11:00:00Z")
    await add_game(store, "g-b", created="2024-01-05T10:00:00Z", finished="2024-01-05T11:00:00Z",
                   edition=1, names=("Cy", "Ann"), kingdom=witch)
    await add_game(store, "g-c", created="2024-01-10T10:00:00Z", finished="2024-01-20T11:00:00Z",
                   seats=3, names=("Dee", "Ed", "Ann"), kingdom=witch)
    await add_game(store, "g-d", created="2024-01-15T10:00:00Z", state="abandoned",
                   finished="2024-01-16T10:00:00Z", names=("Ann", "Fay"))
    await add_game(store, "g-e", created="2024-01-12T10:00:00Z", state="playing",
                   names=("Gus", "Ann"))
    await add_game(store, "g-f", created="2024-01-18T10:00:00Z", state="open", names=("Hal",))
    return store


def ids(page: tuple[list[GameRecord], int]) -> tuple[list[str], int]:
    return [game.id for game in page[0]], page[1]


async def test_list_games_newest_first(listed: Storage) -> None:
    # A game's time: finished_at once ended, created_at before.
    assert ids(listed.list_games()) == (["g-c", "g-f", "g-d", "g-e", "g-b", "g-a"], 6)
    assert ids(listed.list_games(state="finished")) == (["g-c", "g-b", "g-a"], 3)
    assert ids(listed.list_games(state="open")) == (["g-f"], 1)
    assert ids(listed.list_games(state="playing")) == (["g-e"], 1)
    assert ids(listed.list_games(state="abandoned")) == (["g-d"], 1)


async def test_list_games_by_player(listed: Storage) -> None:
    assert ids(listed.list_games(player="Ann", state="finished")) == (["g-c", "g-b", "g-a"], 3)
    assert ids(listed.list_games(player="Cy")) == (["g-b"], 1)
    assert ids(listed.list_games(player="ann")) == ([], 0)  # exact match
    assert ids(listed.list_games(player="Nobody")) == ([], 0)


async def test_list_games_by_date(listed: Storage) -> None:
    # Finished games compare finished_at: g-c was created on the 10th, finished on the 20th.
    assert ids(listed.list_games(state="finished", since="2024-01-15")) == (["g-c"], 1)
    assert ids(listed.list_games(state="finished", until="2024-01-15")) == (["g-b", "g-a"], 2)
    # since is inclusive, until exclusive.
    assert ids(listed.list_games(state="finished", since="2024-01-05T11:00:00Z",
                                 until="2024-01-20T11:00:00Z")) == (["g-b"], 1)
    # Open and playing games compare created_at.
    assert ids(listed.list_games(since="2024-01-12", until="2024-01-19")) == (
        ["g-f", "g-d", "g-e"], 3)


async def test_list_games_by_edition_players_and_card(listed: Storage) -> None:
    assert ids(listed.list_games(edition=1)) == (["g-b"], 1)
    assert ids(listed.list_games(edition=2, state="finished")) == (["g-c", "g-a"], 2)
    assert ids(listed.list_games(players=3)) == (["g-c"], 1)
    assert ids(listed.list_games(card="witch")) == (["g-c", "g-b"], 2)
    assert ids(listed.list_games(card="cellar", state="finished")) == (["g-a"], 1)
    assert ids(listed.list_games(card="chapel")) == ([], 0)
    assert ids(listed.list_games(card="witch", edition=2, player="Ann", players=3,
                                 state="finished", since="2024-01-01")) == (["g-c"], 1)


async def test_list_games_pages(listed: Storage) -> None:
    everything = ids(listed.list_games())[0]
    assert ids(listed.list_games(limit=2)) == (everything[:2], 6)
    assert ids(listed.list_games(limit=2, offset=2)) == (everything[2:4], 6)
    assert ids(listed.list_games(limit=4, offset=4)) == (everything[4:], 6)
    assert ids(listed.list_games(limit=3, offset=10)) == ([], 6)
    assert ids(listed.list_games(limit=0)) == ([], 6)
    assert ids(listed.list_games(player="Ann", limit=1, offset=1)) == (["g-d"], 5)


async def test_list_games_refuses_bad_filters(listed: Storage) -> None:
    with pytest.raises(ValueError, match="state must be one of"):
        listed.list_games(state="won")
    with pytest.raises(ValueError, match=">= 0"):
        listed.list_games(limit=-1)
    with pytest.raises(ValueError, match=">= 0"):
        listed.list_games(offset=-5)


async def test_list_games_uses_indexes(listed: Storage) -> None:
    def plan(sql: str, *params: Any) -> str:
        rows = listed._reader.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
        return " | ".join(row[-1] for row in rows)

    finished = plan("SELECT g.* FROM games g WHERE g.state = ? AND g.finished_at >= ?"
                    " ORDER BY g.finished_at DESC, g.id DESC", "finished", "2024")
    assert "games_state_finished" in finished
    by_player = plan("SELECT count(*) FROM games g WHERE EXISTS (SELECT 1 FROM seats s"
                     " WHERE s.name = ? AND s.game_id = g.id)", "Ann")
    assert "seats_name" in by_player
    by_card = plan("SELECT count(*) FROM games g WHERE EXISTS (SELECT 1 FROM kingdom_cards k"
                   " WHERE k.card = ? AND k.game_id = g.id)", "witch")
    assert "kingdom_cards" in by_card and "SCAN kingdom_cards" not in by_card


async def test_unfinished_games_are_open_and_playing_oldest_first(listed: Storage) -> None:
    await listed.append_answers("g-e", 0, [Answer(1, 0, (2,)), Answer(0, 1, ())], "t")
    await listed.append_answers("g-e", 2, [Resignation(0)], "t")
    unfinished = listed.unfinished_games()
    assert [stored.game.id for stored in unfinished] == ["g-e", "g-f"]
    playing, waiting = unfinished
    assert playing.game.state == "playing" and waiting.game.state == "open"
    assert playing.answers == (Answer(1, 0, (2,)), Answer(0, 1, ()), Resignation(0))
    assert [seat.name for seat in playing.seats] == ["Gus", "Ann"]
    assert waiting.answers == ()


async def test_unfinished_games_are_read_a_page_at_a_time(listed: Storage) -> None:
    """A restart reads them by keyset (created time, id), at most `limit` at a time; a
    game created at the same time as the last one read comes after it by id."""
    await add_game(listed, "g-g", created="2024-01-18T10:00:00Z", state="playing",
                   names=("Ida", "Jo"))
    first = listed.unfinished_games(limit=2)
    assert [stored.game.id for stored in first] == ["g-e", "g-f"]
    assert [seat.name for seat in first[0].seats] == ["Gus", "Ann"]
    last = first[-1].game
    rest = listed.unfinished_games((last.created_at, last.id), limit=2)
    assert [stored.game.id for stored in rest] == ["g-g"]
    assert [seat.name for seat in rest[0].seats] == ["Ida", "Jo"]
    assert listed.unfinished_games(("2024-01-18T10:00:00Z", "g-g"), limit=2) == []


async def test_a_page_reads_each_games_answers_as_one_row_and_keeps_their_order(
    listed: Storage,
) -> None:
    """A restart reads a game's answers as one row (`group_concat`, whose order SQLite 3.40
    does not promise): each game's resignations keep their place and reason, and a game
    whose answers came out of order is put back in order by their index."""
    await listed.append_answers("g-e", 0, [Answer(1, 0, (2,)), Resignation(0),
                                           Answer(1, 2, (3, 1)),
                                           Resignation(1, ResignReason.TIMED_OUT)],
                                "t", [5, 0, 7, 9])
    await add_game(listed, "g-g", created="2024-01-18T10:00:00Z", state="playing",
                   names=("Ida", "Jo"))
    await listed.append_answers("g-g", 0, [Answer(0, 0, ())], "t")
    playing, waiting, other = listed.unfinished_games()
    assert playing.answers == (Answer(1, 0, (2,)), Resignation(0), Answer(1, 2, (3, 1)),
                               Resignation(1, ResignReason.TIMED_OUT))
    assert playing.charged_ms == (5, 0, 7, 9)
    assert waiting.answers == () and other.answers == (Answer(0, 0, ()),)
    assert other.charged_ms == (0,)
    games = [{**rows.game_row(playing.game)}]
    shuffled = ("g-e", "2,0,3,1", "1,1,1,0", "2,0,0,0", "[3,1],[2],[],[]", "7,5,9,0",
                "timed_out,;0,0,1,1")  # (the resignations' kinds in the rows' order too)
    read = rows.stored_games((games, [], [shuffled]))[0]
    assert read.answers == playing.answers and read.charged_ms == playing.charged_ms


def test_helpers() -> None:
    assert new_game_id().startswith("g-") and new_game_id() != new_game_id()
    assert len(hash_token("x")) == 64 and hash_token("x") != "x"


async def test_a_game_is_read_alone_while_every_unfinished_game_is_read(
    listed: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read of every unfinished game (seconds, at a restart of 100,000) has a
    connection of its own: a game a player asks for meanwhile is read at once."""
    reading, read_alone = threading.Event(), threading.Event()
    rows_of = store_module.game_rows

    def slow_rows(conn: sqlite3.Connection, where: str, params: Any = (),
                  limit: int | None = None) -> Any:
        if "state IN" in where:  # the read of them all: it waits for the other read
            reading.set()
            assert read_alone.wait(10), "the game alone waited for the read of them all"
        return rows_of(conn, where, params, limit)

    monkeypatch.setattr(store_module, "game_rows", slow_rows)
    everything = asyncio.ensure_future(asyncio.to_thread(listed.unfinished_games))
    assert await asyncio.to_thread(reading.wait, 10)
    alone = await asyncio.to_thread(listed.load_game, "g-e")
    read_alone.set()
    assert alone is not None and alone.game.id == "g-e"
    assert [stored.game.id for stored in await everything] == ["g-e", "g-f"]
