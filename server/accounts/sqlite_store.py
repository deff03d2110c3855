"""The accounts in a SQLite file of their own beside the games' database (one node).

A file of its own rather than tables in the games' one: the games' `Storage` funnels
every write through one writer thread tuned for group-committing answers, while account
writes are rare and must not wait behind a game's batch, nor a game's behind a sign-in;
and its schema is versioned in step with the PostgreSQL store's, not the games'. Calls
run on one thread of their own (sqlite3 blocks), one at a time.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from . import migrations
from .moderation import (
    AdminAction,
    AuditEntry,
    Report,
    Sanction,
    SanctionKind,
    already_reported,
    report_of,
)
from .store import Account, name_taken, unavailable

T = TypeVar("T")
ACCOUNT_COLUMNS = "id, name, name_key, password_hash, created_at, deleted_at"
SANCTION_COLUMNS = ("id, kind, account_id, prefix, reason, created_at, expires_at, lifted_at, "
                    "by_account_id")
REPORT_COLUMNS = ("game_id, reporter_seat, reporter_name, reporter_account_id, reported_seat, "
                  "reported_name, reported_account_id, reason, text, created_at")


class SqliteAccountStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="accounts")
        self._db: sqlite3.Connection | None = None

    async def start(self) -> None:
        await self._call(self._open)

    async def close(self) -> None:
        if self._db is not None:
            await self._call(self._db.close)
            self._db = None
        self._thread.shutdown()

    async def create_account(self, name: str, name_key: str, password_hash: str,
                             now: datetime) -> Account:
        def insert(db: sqlite3.Connection) -> int:
            with db:
                cursor = db.execute(
                    "INSERT INTO accounts (name, name_key, password_hash, created_at) "
                    "VALUES (?, ?, ?, ?)", (name, name_key, password_hash, now.isoformat()))
            assert cursor.lastrowid is not None
            return cursor.lastrowid
        try:
            account_id = await self._run(insert)
        except sqlite3.IntegrityError:
            raise name_taken(name) from None
        return Account(account_id, name, name_key, password_hash, now)

    async def account_by_key(self, name_key: str) -> Account | None:
        return await self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?",
                               name_key)

    async def set_password_hash(self, account_id: int, password_hash: str) -> None:
        await self._write("UPDATE accounts SET password_hash = ? WHERE id = ?",
                          password_hash, account_id)

    async def delete_account(self, account_id: int, now: datetime) -> None:
        def delete(db: sqlite3.Connection) -> None:
            with db:
                db.execute("DELETE FROM sessions WHERE account_id = ?", (account_id,))
                db.execute("UPDATE accounts SET password_hash = NULL, deleted_at = ? "
                           "WHERE id = ?", (now.isoformat(), account_id))
        await self._run(delete)

    async def add_session(self, token_hash: bytes, account_id: int, now: datetime,
                          expires_at: datetime) -> None:
        def add(db: sqlite3.Connection) -> None:
            with db:
                db.execute("DELETE FROM sessions WHERE account_id = ? AND expires_at <= ?",
                           (account_id, now.isoformat()))
                db.execute("INSERT INTO sessions (token_hash, account_id, created_at, "
                           "expires_at) VALUES (?, ?, ?, ?)", (token_hash, account_id,
                                                               now.isoformat(),
                                                               expires_at.isoformat()))
        await self._run(add)

    async def session_account(self, token_hash: bytes, now: datetime) -> Account | None:
        columns = ", ".join(f"a.{column}" for column in ACCOUNT_COLUMNS.split(", "))
        return await self._one(
            f"SELECT {columns} FROM sessions s JOIN accounts a ON a.id = s.account_id "
            "WHERE s.token_hash = ? AND s.expires_at > ? AND a.deleted_at IS NULL",
            token_hash, now.isoformat())

    async def end_session(self, token_hash: bytes) -> None:
        await self._write("DELETE FROM sessions WHERE token_hash = ?", token_hash)

    async def end_sessions(self, account_id: int) -> None:
        await self._write("DELETE FROM sessions WHERE account_id = ?", account_id)

    # -- moderation (server/accounts/moderation.py): admins, sanctions, reports, audit --

    async def set_admin(self, account_id: int, granted_at: datetime | None) -> bool:
        def change(db: sqlite3.Connection) -> bool:
            with db:
                if granted_at is None:
                    cursor = db.execute("DELETE FROM admins WHERE account_id = ?",
                                        (account_id,))
                else:
                    cursor = db.execute("INSERT OR IGNORE INTO admins (account_id, granted_at) "
                                        "VALUES (?, ?)", (account_id, granted_at.isoformat()))
            return cursor.rowcount == 1
        return await self._run(change)

    async def is_admin(self, account_id: int) -> bool:
        rows = await self._rows("SELECT 1 FROM admins JOIN accounts a ON a.id = account_id "
                                "WHERE account_id = ? AND a.deleted_at IS NULL", account_id)
        return bool(rows)

    async def admins(self) -> list[Account]:
        columns = ", ".join(f"a.{column}" for column in ACCOUNT_COLUMNS.split(", "))
        rows = await self._rows(f"SELECT {columns} FROM admins JOIN accounts a ON "
                                "a.id = account_id ORDER BY a.name_key")
        return [_account(row) for row in rows]

    async def add_sanction(self, sanction: Sanction, audit: AuditEntry) -> Sanction:
        def add(db: sqlite3.Connection) -> int:
            with db:
                cursor = db.execute(
                    "INSERT INTO sanctions (kind, account_id, prefix, reason, created_at, "
                    "expires_at, by_account_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (sanction.kind.value, sanction.account_id, sanction.prefix, sanction.reason,
                     sanction.created_at.isoformat(), _moment(sanction.expires_at),
                     sanction.by_account_id))
                _audit(db, audit)
            assert cursor.lastrowid is not None
            return cursor.lastrowid
        return replace(sanction, id=await self._run(add))

    async def lift_sanction(self, sanction_id: int, now: datetime, audit: AuditEntry
                            ) -> bool:
        def lift(db: sqlite3.Connection) -> bool:
            with db:
                cursor = db.execute(
                    "UPDATE sanctions SET lifted_at = ? WHERE id = ? AND lifted_at IS NULL "
                    "AND (expires_at IS NULL OR expires_at > ?)",
                    (now.isoformat(), sanction_id, now.isoformat()))
                if cursor.rowcount == 1:
                    _audit(db, audit)
            return cursor.rowcount == 1
        return await self._run(lift)

    async def live_sanctions(self, now: datetime) -> list[Sanction]:
        rows = await self._rows(
            f"SELECT {SANCTION_COLUMNS} FROM sanctions WHERE lifted_at IS NULL AND "
            "(expires_at IS NULL OR expires_at > ?) ORDER BY id", now.isoformat())
        return [Sanction(SanctionKind(kind), reason, datetime.fromisoformat(created), by,
                         account_id, prefix, _parsed(expires), _parsed(lifted), sanction_id)
                for (sanction_id, kind, account_id, prefix, reason, created, expires, lifted,
                     by) in rows]

    async def add_report(self, report: Report) -> Report:
        def add(db: sqlite3.Connection) -> int:
            with db:
                cursor = db.execute(
                    f"INSERT INTO reports ({REPORT_COLUMNS}) VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (report.game_id, report.reporter_seat, report.reporter_name,
                     report.reporter_account_id, report.reported_seat, report.reported_name,
                     report.reported_account_id, report.reason.value, report.text,
                     report.created_at.isoformat()))
            assert cursor.lastrowid is not None
            return cursor.lastrowid
        try:
            return replace(report, id=await self._run(add))
        except sqlite3.IntegrityError:
            raise already_reported() from None

    async def reports(self, limit: int, offset: int) -> list[Report]:
        rows = await self._rows(f"SELECT {REPORT_COLUMNS}, id FROM reports ORDER BY id DESC "
                                "LIMIT ? OFFSET ?", limit, offset)
        return [report_of(tuple(row), datetime.fromisoformat(row[9])) for row in rows]

    async def append_audit(self, entry: AuditEntry) -> None:
        def append(db: sqlite3.Connection) -> None:
            with db:
                _audit(db, entry)
        await self._run(append)

    async def audit_log(self, limit: int, offset: int) -> list[AuditEntry]:
        rows = await self._rows("SELECT at, admin_id, admin_name, action, target, reason, id "
                                "FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?",
                                limit, offset)
        return [AuditEntry(datetime.fromisoformat(at), admin_id, name, AdminAction(action),
                           target, reason, entry_id)
                for at, admin_id, name, action, target, reason, entry_id in rows]

    async def latest_audit_id(self) -> int:
        rows = await self._rows("SELECT coalesce(max(id), 0) FROM audit_log")
        return int(rows[0][0])

    async def deleted_since(self, moment: datetime) -> list[int]:
        rows = await self._rows("SELECT id FROM accounts WHERE deleted_at >= ?",
                                moment.isoformat())
        return [row[0] for row in rows]

    async def _rows(self, query: str, *parameters: Any) -> list[tuple[Any, ...]]:
        def read(db: sqlite3.Connection) -> list[tuple[Any, ...]]:
            return db.execute(query, parameters).fetchall()
        return await self._run(read)

    # -- the store itself ----------------------------------------------------------------

    def _open(self) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for number, script in enumerate(migrations.SQLITE[version:], start=version + 1):
            # a script and its version number in one transaction: all of it or none
            db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
        self._db = db

    async def _one(self, query: str, *parameters: Any) -> Account | None:
        def read(db: sqlite3.Connection) -> tuple[Any, ...] | None:
            row: tuple[Any, ...] | None = db.execute(query, parameters).fetchone()
            return row
        row = await self._run(read)
        return None if row is None else _account(row)

    async def _write(self, statement: str, *parameters: Any) -> None:
        def write(db: sqlite3.Connection) -> None:
            with db:
                db.execute(statement, parameters)
        await self._run(write)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        def on_thread() -> T:
            if self._db is None:
                self._open()
            assert self._db is not None
            return work(self._db)
        return await self._call(on_thread)

    async def _call(self, work: Callable[[], T]) -> T:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, work)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as error:
            raise unavailable(f"the accounts database failed: {error}") from None


def _account(row: tuple[Any, ...]) -> Account:
    account_id, name, key, password_hash, created, deleted = row
    return Account(account_id, name, key, password_hash, datetime.fromisoformat(created),
                   _parsed(deleted))


def _moment(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _parsed(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _audit(db: sqlite3.Connection, entry: AuditEntry) -> None:
    db.execute("INSERT INTO audit_log (at, admin_id, admin_name, action, target, reason) "
               "VALUES (?, ?, ?, ?, ?, ?)", (entry.at.isoformat(), entry.admin_id,
                                             entry.admin_name, entry.action.value,
                                             entry.target, entry.reason))
