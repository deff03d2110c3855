"""The database file: recognising it as ours, its pragmas, its schema and migrations,
and SQLite's errors in words for the people who host the server."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import sqlite_utils

from .records import StorageError

# "DOMN": marks the file as ours in the SQLite header (PRAGMA application_id), so
# another program's database is refused instead of being written into.
APPLICATION_ID = 0x444F4D4E
SYNCHRONOUS_MODES = ("FULL", "NORMAL")
log = logging.getLogger("dominion.storage")


def _migrate_1(db: sqlite_utils.Database) -> None:
    """Version 1: the initial schema."""
    db.create_table(
        "games",
        {
            "id": str,
            "created_at": str,
            "started_at": str,
            "finished_at": str,
            "state": str,
            "edition": int,
            "seats": int,
            "kingdom": str,
            "kingdom_name": str,
            "seed": str,  # decimal text: seeds have up to 128 bits, SQLite ints 64
            "commitment": str,
            "setup": str,
            "result": str,
            "options": str,
        },
        pk="id",
        not_null=["created_at", "state", "edition", "seats", "kingdom", "options"],
    )
    db.create_table(
        "seats",
        {
            "game_id": str,
            "seat": int,
            "name": str,
            "token_hash": str,
            "bot": str,
            "joined_at": str,
        },
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "seat"],
    )
    db.create_table(
        "answers",
        {
            "game_id": str,
            "idx": int,
            "player": int,
            "kind": str,
            "decision": int,
            "choices": str,
            "at": str,
        },
        pk=("game_id", "idx"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "idx", "player", "kind", "at"],
    )
    db.create_table(
        "events",
        {"game_id": str, "seq": int, "event": str},
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "seq", "event"],
    )
    db.create_table(
        "chat",
        {"id": int, "game_id": str, "at": str, "seat": int, "name": str, "text": str},
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null=["game_id", "at", "name", "text"],
    )
    # The Kingdom once more, one row per card, so "games with Witch" is an index lookup.
    db.create_table(
        "kingdom_cards",
        {"card": str, "game_id": str},
        pk=("card", "game_id"),
        foreign_keys=[("game_id", "games", "id")],
        not_null=["card", "game_id"],
    )
    games = db.table("games")
    games.create_index(["state", "created_at"], index_name="games_state_created")
    games.create_index(["state", "finished_at"], index_name="games_state_finished")
    games.create_index(["finished_at"], index_name="games_finished")
    # (name, game_id) also serves as the index on seats(name), and covers the player filter.
    db.table("seats").create_index(["name", "game_id"], index_name="seats_name")
    db.table("chat").create_index(["game_id", "id"], index_name="chat_game")
    db.table("kingdom_cards").create_index(["game_id"], index_name="kingdom_cards_game")


def _migrate_2(db: sqlite_utils.Database) -> None:
    """Version 2: no events table; a game's events are derived from its answers."""
    db.execute("DROP TABLE events")


def _migrate_3(db: sqlite_utils.Database) -> None:
    """Version 3: a seat taken while signed in names its account (the accounts' own store,
    server/accounts/, holds the account; null for guests and bots)."""
    db.execute("ALTER TABLE seats ADD COLUMN account_id INTEGER")
    db.table("seats").create_index(["account_id", "game_id"], index_name="seats_account")


def _migrate_4(db: sqlite_utils.Database) -> None:
    """Version 4: a seat taken by a bot account says so (bots are marked wherever a name
    is shown; the accounts' store says which accounts are bots)."""
    db.execute("ALTER TABLE seats ADD COLUMN bot_account INTEGER NOT NULL DEFAULT 0")


def _migrate_5(db: sqlite_utils.Database) -> None:
    """Version 5: a chat line an admin removed keeps its row, marked, and is never served
    again (not live, not in a replay)."""
    db.execute("ALTER TABLE chat ADD COLUMN removed_at TEXT")


def _migrate_6(db: sqlite_utils.Database) -> None:
    """Version 6: the outbox of finished rated games (a rated game says so in its
    options): written in the transaction that stores the end, kept until the account
    store's ledger has the game (docs/RATINGS.md, "The ledger")."""
    db.execute("CREATE TABLE rating_outbox (game_id TEXT PRIMARY KEY REFERENCES games (id), "
               "game TEXT NOT NULL, created_at TEXT NOT NULL, applied_at TEXT)")
    db.execute("CREATE INDEX rating_outbox_pending ON rating_outbox (created_at) "
               "WHERE applied_at IS NULL")


def _migrate_7(db: sqlite_utils.Database) -> None:
    """Version 7: a seat a bot took over from its absent player says when it first did (a
    rated game ranks it last, after a restart too); written before the bot's first answer."""
    db.execute("ALTER TABLE seats ADD COLUMN taken_over_at TEXT")


def _migrate_8(db: sqlite_utils.Database) -> None:
    """Version 8: each answer says the milliseconds it charged its player's clock (null:
    no clock ran), so that a restart rebuilds the clocks; a resignation the server made
    says why (`timed_out`; null: the player's own)."""
    db.execute("ALTER TABLE answers ADD COLUMN ms INTEGER")
    db.execute("ALTER TABLE answers ADD COLUMN reason TEXT")


def _migrate_9(db: sqlite_utils.Database) -> None:
    """Version 9: each ended game says when the shared archive took it (`archived_at`;
    null while it waits: the archive's outbox, docs/STORAGE.md), so that archived games can
    be pruned from the node's file; the ratings' outbox keeps its rows without a foreign key
    to the games (its rows outlive a pruned game, for `ratings reconcile`)."""
    db.execute("ALTER TABLE games ADD COLUMN archived_at TEXT")
    db.execute("CREATE INDEX games_unarchived ON games (finished_at, id) "
               "WHERE archived_at IS NULL AND finished_at IS NOT NULL")
    db.execute("CREATE INDEX games_archived ON games (archived_at) "
               "WHERE archived_at IS NOT NULL")
    db.execute("CREATE TABLE rating_outbox_kept (game_id TEXT PRIMARY KEY, game TEXT NOT NULL, "
               "created_at TEXT NOT NULL, applied_at TEXT)")
    db.execute("INSERT INTO rating_outbox_kept SELECT game_id, game, created_at, applied_at "
               "FROM rating_outbox")
    db.execute("DROP TABLE rating_outbox")
    db.execute("ALTER TABLE rating_outbox_kept RENAME TO rating_outbox")
    db.execute("CREATE INDEX rating_outbox_pending ON rating_outbox (created_at) "
               "WHERE applied_at IS NULL")


# MIGRATIONS[i] turns schema version i into version i + 1. Append, never edit.
MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _migrate_1, _migrate_2, _migrate_3, _migrate_4, _migrate_5, _migrate_6, _migrate_7,
    _migrate_8, _migrate_9)
SCHEMA_VERSION = len(MIGRATIONS)


def connect(path: str, *, check_same_thread: bool = False) -> sqlite3.Connection:
    """Every connection is made here (tests replace it to provoke read-only files as root)."""
    # The writer connection is made on the opener's thread and used on the writer
    # thread; the read connection is guarded by a lock. Hence check_same_thread=False.
    return sqlite3.connect(path, timeout=10.0, check_same_thread=check_same_thread)


def pragma(db: sqlite_utils.Database, sql: str) -> Any:
    row = db.execute(sql).fetchone()
    return None if row is None else row[0]


def describe(error: BaseException, path: str) -> str:
    """A sentence for people about a failed SQLite operation, with what to do."""
    name = getattr(error, "sqlite_errorname", "")
    text = str(error)
    if name.startswith("SQLITE_FULL") or "full" in text:
        hint = "the disk (or the database's size limit) is full: free space, then restart"
    elif name.startswith("SQLITE_READONLY") or "readonly" in text:
        hint = "the file or its folder is read-only: make both writable by the server's user"
    elif name.startswith("SQLITE_BUSY") or "locked" in text:
        hint = "another process holds a lock on the file: stop it, one server per file"
    elif name.startswith("SQLITE_IOERR"):
        hint = "the disk reported an I/O error: check the disk and the file system"
    elif name.startswith("SQLITE_CONSTRAINT"):
        hint = "a database constraint refused the write: this is a bug in the server"
    elif name.startswith("SQLITE_CANTOPEN"):
        hint = ("cannot open the file or create its -wal and -shm files beside it: "
                "check the folder's permissions")
    elif name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        hint = "the file is damaged: restore it from a backup"
    else:
        hint = "see the SQLite error"
    return f"database {path}: {text} ({name or type(error).__name__}); {hint}"


_SQLITE_HEADER = b"SQLite format 3\x00"


def check_header(filename: str) -> None:
    """Refuse a file that is not SQLite before SQLite touches it."""
    try:
        with open(filename, "rb") as file:
            header = file.read(len(_SQLITE_HEADER))
    except OSError as error:
        raise StorageError(f"database {filename}: cannot read it: {error}") from error
    if header and header != _SQLITE_HEADER:
        raise StorageError(
            f"{filename} is not a SQLite database (or it is damaged); give the path of "
            "the server's database file, or a new path to start an empty one"
        )


def configure(db: sqlite_utils.Database, filename: str, synchronous: str) -> None:
    try:
        mode = pragma(db, "PRAGMA journal_mode = WAL")
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error) or "malformed" in str(error):
            raise StorageError(
                f"{filename} is not a SQLite database (or it is damaged); give the path "
                "of the server's database file, or restore it from a backup"
            ) from error
        raise
    if str(mode).lower() != "wal":
        raise StorageError(
            f"database {filename}: cannot switch to WAL mode (got {mode!r}); put the file "
            "on a local, writable file system"
        )
    db.execute(f"PRAGMA synchronous = {synchronous}")  # one of two fixed words, checked
    db.execute("PRAGMA foreign_keys = ON")


def create_or_migrate(db: sqlite_utils.Database, filename: str) -> None:
    """Bring the file to SCHEMA_VERSION in one transaction, or refuse it."""
    # IMMEDIATE: two servers started on one file cannot both migrate. Its first write
    # also proves the file writable before the server accepts anything.
    took: list[float] = []  # each step's seconds
    db.execute("BEGIN IMMEDIATE")
    try:
        app_id = pragma(db, "PRAGMA application_id")
        version = pragma(db, "PRAGMA user_version")
        tables = pragma(db, "SELECT count(*) FROM sqlite_master")
        if app_id != APPLICATION_ID:
            if app_id != 0 or tables or version:
                raise StorageError(
                    f"{filename} is a SQLite database of another program (it has no "
                    "dominion-server schema marker); give the server a file of its own"
                )
            version = 0  # empty file: create from scratch
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"database {filename} has schema version {version} (this server knows up "
                f"to {SCHEMA_VERSION}): created by a newer version of dominion-server; upgrade"
            )
        for step in range(version, SCHEMA_VERSION):
            started = time.perf_counter()
            MIGRATIONS[step](db)
            took.append(time.perf_counter() - started)
        # Written even when unchanged: a read-only file fails here, at start.
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        # After a migration only: every connection writes with foreign keys on, so a file
        # at this version has no orphans of ours, and the check reads every row (1.4 s
        # of CPU at 100,000 unfinished games, before the server could listen).
        problem = pragma(db, "PRAGMA foreign_key_check") if took else None
        if problem is not None:
            raise StorageError(
                f"database {filename}: rows refer to missing games (table {problem}); "
                "restore it from a backup"
            )
        db.commit()
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.rollback()
        raise
    # said once committed: every step or none of them took effect
    for step, seconds in enumerate(took, start=version):
        log.info("schema migrated", extra={
            "store": "games", "db": filename, "from_version": step,
            "to_version": step + 1, "migration": MIGRATIONS[step].__name__,
            "seconds": round(seconds, 3)})
