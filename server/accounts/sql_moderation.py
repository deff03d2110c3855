"""Moderation's part of the account store (moderation.ModerationStore): admins,
sanctions, reports and the audit log, written once over a `Database` (database.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from .database import Database, Duplicate, Queries, moment, moment_or_none
from .moderation import (
    AdminAction,
    AuditEntry,
    Report,
    Sanction,
    SanctionKind,
    already_reported,
    report_of,
)
from .sql_rows import ACCOUNT_COLUMNS, account_of, columns
from .store import Account

SANCTION_COLUMNS = ("id, kind, account_id, prefix, reason, created_at, expires_at, lifted_at, "
                    "by_account_id")
REPORT_COLUMNS = ("game_id, reporter_seat, reporter_name, reporter_account_id, reported_seat, "
                  "reported_name, reported_account_id, reason, text, created_at")
AUDIT_COLUMNS = "at, admin_id, admin_name, action, target, reason"


class ModerationQueries:
    db: Database

    async def set_admin(self, account_id: int, granted_at: datetime | None) -> bool:
        if granted_at is None:
            changed = await self.db.execute("DELETE FROM admins WHERE account_id = ?",
                                            account_id)
        else:
            changed = await self.db.execute("INSERT INTO admins (account_id, granted_at) "
                                            "VALUES (?, ?) ON CONFLICT DO NOTHING",
                                            account_id, granted_at)
        return changed == 1

    async def is_admin(self, account_id: int) -> bool:
        return await self.db.fetchrow("SELECT 1 FROM admins JOIN accounts a ON "
                                      "a.id = account_id WHERE account_id = ? AND "
                                      "a.deleted_at IS NULL", account_id) is not None

    async def admins(self) -> list[Account]:
        rows = await self.db.fetch(f"SELECT {columns(ACCOUNT_COLUMNS, 'a')} FROM admins JOIN "
                                   "accounts a ON a.id = account_id ORDER BY a.name_key")
        return [account_of(row) for row in rows]

    async def add_sanction(self, sanction: Sanction, audit: AuditEntry) -> Sanction:
        async with self.db.transaction() as tx:
            row = await tx.fetchrow(
                "INSERT INTO sanctions (kind, account_id, prefix, reason, created_at, "
                "expires_at, by_account_id) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                sanction.kind.value, sanction.account_id, sanction.prefix, sanction.reason,
                sanction.created_at, sanction.expires_at, sanction.by_account_id)
            assert row is not None
            await append_audit(tx, audit)
        return replace(sanction, id=row[0])

    async def lift_sanction(self, sanction_id: int, now: datetime, audit: AuditEntry
                            ) -> bool:
        async with self.db.transaction() as tx:
            lifted = await tx.execute(
                "UPDATE sanctions SET lifted_at = ? WHERE id = ? AND lifted_at IS NULL "
                "AND (expires_at IS NULL OR expires_at > ?)", now, sanction_id, now) == 1
            if lifted:
                await append_audit(tx, audit)
        return lifted

    async def live_sanctions(self, now: datetime) -> list[Sanction]:
        rows = await self.db.fetch(
            f"SELECT {SANCTION_COLUMNS} FROM sanctions WHERE lifted_at IS NULL AND "
            "(expires_at IS NULL OR expires_at > ?) ORDER BY id", now)
        return [Sanction(SanctionKind(kind), reason, moment(created), by, account_id, prefix,
                         moment_or_none(expires), moment_or_none(lifted), sanction_id)
                for (sanction_id, kind, account_id, prefix, reason, created, expires, lifted,
                     by) in rows]

    async def add_report(self, report: Report) -> Report:
        try:
            row = await self.db.fetchrow(
                f"INSERT INTO reports ({REPORT_COLUMNS}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                report.game_id, report.reporter_seat, report.reporter_name,
                report.reporter_account_id, report.reported_seat, report.reported_name,
                report.reported_account_id, report.reason.value, report.text,
                report.created_at)
        except Duplicate:
            raise already_reported() from None
        assert row is not None
        return replace(report, id=row[0])

    async def reports(self, limit: int, offset: int) -> list[Report]:
        rows = await self.db.fetch(f"SELECT {REPORT_COLUMNS}, id FROM reports ORDER BY id "
                                   "DESC LIMIT ? OFFSET ?", limit, offset)
        return [report_of(row, moment(row[9])) for row in rows]

    async def append_audit(self, entry: AuditEntry) -> None:
        await append_audit(self.db, entry)

    async def audit_log(self, limit: int, offset: int) -> list[AuditEntry]:
        rows = await self.db.fetch(f"SELECT {AUDIT_COLUMNS}, id FROM audit_log ORDER BY id "
                                   "DESC LIMIT ? OFFSET ?", limit, offset)
        return [AuditEntry(moment(at), admin_id, name, AdminAction(action), target, reason,
                           entry_id)
                for at, admin_id, name, action, target, reason, entry_id in rows]

    async def latest_audit_id(self) -> int:
        row = await self.db.fetchrow("SELECT coalesce(max(id), 0) FROM audit_log")
        assert row is not None
        return int(row[0])

    async def deleted_since(self, moment: datetime) -> list[int]:
        rows = await self.db.fetch("SELECT id FROM accounts WHERE deleted_at >= ?", moment)
        return [row[0] for row in rows]


async def append_audit(db: Queries, entry: AuditEntry) -> None:
    await db.execute(f"INSERT INTO audit_log ({AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                     entry.at, entry.admin_id, entry.admin_name, entry.action.value,
                     entry.target, entry.reason)
