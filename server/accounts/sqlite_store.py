"""The accounts in a SQLite file of their own beside the games' database (one node).

A file of its own rather than tables in the games' one: the games' `Storage` funnels
every write through one writer thread tuned for group-committing answers, while account
writes are rare and must not wait behind a game's batch, nor a game's behind a sign-in;
and its schema is versioned in step with the PostgreSQL store's, not the games'. Calls
run on one thread of their own (sqlite3 blocks), one at a time.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from ..ratings import Pool, Rating, ledger
from ..ratings.ledger import (
    BotRecord,
    HistoryPoint,
    LeaderboardRow,
    LedgerEntry,
    RatedGame,
    RatingChange,
    accounts_of,
    bot_ratings,
)
from . import ledger_sql, migrations
from .ledger_sql import sqlite_mark
from .moderation import (
    AdminAction,
    AuditEntry,
    Report,
    Sanction,
    SanctionKind,
    already_reported,
    report_of,
)
from .store import (
    ID_DRAWS,
    AccessToken,
    Account,
    Ceremony,
    Challenge,
    Passkey,
    Scope,
    name_taken,
    new_account_id,
    passkey_taken,
    scopes_of,
    scopes_text,
    too_many_draws,
    unavailable,
)

T = TypeVar("T")
ACCOUNT_COLUMNS = "id, name, name_key, password_hash, created_at, deleted_at, bot"
TOKEN_COLUMNS = "id, account_id, description, scopes, created_at, expires_at, last_used_at"
PASSKEY_COLUMNS = ("id, account_id, credential_id, public_key, sign_count, name, created_at, "
                   "last_used_at")
SANCTION_COLUMNS = ("id, kind, account_id, prefix, reason, created_at, expires_at, lifted_at, "
                    "by_account_id")
FROM_HEX = "from_hex"
"""bytes.fromhex in SQL (SQLite has `unhex` only from 3.41)."""
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

    async def ping(self) -> None:
        await self._run(lambda db: db.execute("SELECT 1").fetchone())

    async def create_account(self, name: str, name_key: str, password_hash: str,
                             now: datetime) -> Account:
        def insert(db: sqlite3.Connection) -> int:
            for _ in range(ID_DRAWS):
                account_id = new_account_id()
                try:
                    with db:
                        db.execute("INSERT INTO accounts (id, name, name_key, password_hash, "
                                   "created_at) VALUES (?, ?, ?, ?, ?)",
                                   (account_id, name, name_key, password_hash,
                                    now.isoformat()))
                    return account_id
                except sqlite3.IntegrityError as error:
                    if "accounts.id" not in str(error):  # the name's key: taken
                        raise
            raise too_many_draws()
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
                for table in ("sessions", "access_tokens", "passkeys", "passkey_challenges"):
                    db.execute(f"DELETE FROM {table} WHERE account_id = ?", (account_id,))
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

    async def live_sessions(self, token_hashes: Collection[bytes], now: datetime) -> set[bytes]:
        # one parameter, however many hashes (as live_tokens); JSON holds no bytes: hex
        rows = await self._rows(
            "SELECT token_hash FROM sessions WHERE token_hash IN "
            f"(SELECT {FROM_HEX}(value) FROM json_each(?)) AND expires_at > ?",
            json.dumps([token_hash.hex() for token_hash in token_hashes]), now.isoformat())
        return {row[0] for row in rows}

    # personal access tokens and bot accounts (tokens.py)

    async def add_token(self, token_hash: bytes, account_id: int, description: str,
                        scopes: frozenset[Scope], now: datetime,
                        expires_at: datetime | None) -> AccessToken:
        def insert(db: sqlite3.Connection) -> int:
            with db:
                cursor = db.execute(
                    "INSERT INTO access_tokens (token_hash, account_id, description, scopes, "
                    "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (token_hash, account_id, description, scopes_text(scopes),
                     now.isoformat(), _text(expires_at)))
            assert cursor.lastrowid is not None
            return cursor.lastrowid
        return AccessToken(await self._run(insert), account_id, description, scopes, now,
                           expires_at)

    async def tokens_of(self, account_id: int) -> list[AccessToken]:
        def read(db: sqlite3.Connection) -> list[tuple[Any, ...]]:
            return db.execute(f"SELECT {TOKEN_COLUMNS} FROM access_tokens WHERE "
                              "account_id = ? ORDER BY id", (account_id,)).fetchall()
        return [_token(row) for row in await self._run(read)]

    async def delete_token(self, account_id: int, token_id: int) -> bool:
        def delete(db: sqlite3.Connection) -> bool:
            with db:
                return db.execute("DELETE FROM access_tokens WHERE id = ? AND account_id = ?",
                                  (token_id, account_id)).rowcount > 0
        return await self._run(delete)

    async def token_account(self, token_hash: bytes, now: datetime
                            ) -> tuple[AccessToken, Account] | None:
        tokens = ", ".join(f"t.{column}" for column in TOKEN_COLUMNS.split(", "))
        accounts = ", ".join(f"a.{column}" for column in ACCOUNT_COLUMNS.split(", "))

        def use(db: sqlite3.Connection) -> tuple[Any, ...] | None:
            with db:
                row: tuple[Any, ...] | None = db.execute(
                    f"SELECT {tokens}, {accounts} FROM access_tokens t JOIN accounts a ON "
                    "a.id = t.account_id WHERE t.token_hash = ? AND a.deleted_at IS NULL",
                    (token_hash,)).fetchone()
                if row is not None:
                    db.execute("UPDATE access_tokens SET last_used_at = ? WHERE token_hash = ? "
                               "AND (expires_at IS NULL OR expires_at > ?)",
                               (now.isoformat(), token_hash, now.isoformat()))
            return row
        row = await self._run(use)
        if row is None:
            return None
        width = len(TOKEN_COLUMNS.split(", "))
        return _token(row[:width]), _account(row[width:])

    async def live_tokens(self, token_ids: Collection[int]) -> set[int]:
        # one parameter, however many ids: SQLite bounds the number of parameters
        rows = await self._rows("SELECT id FROM access_tokens WHERE id IN "
                                "(SELECT value FROM json_each(?))", json.dumps(list(token_ids)))
        return {row[0] for row in rows}

    async def make_bot(self, account_id: int) -> None:
        await self._write("UPDATE accounts SET bot = 1 WHERE id = ?", account_id)

    # -- passkeys (WebAuthn): their challenges, and the credentials accounts register --

    async def add_passkey_challenge(self, challenge: bytes, ceremony: Ceremony,
                                    account_id: int | None, now: datetime,
                                    expires_at: datetime) -> None:
        def add(db: sqlite3.Connection) -> None:
            with db:
                db.execute("DELETE FROM passkey_challenges WHERE expires_at <= ?",
                           (now.isoformat(),))
                db.execute("INSERT INTO passkey_challenges (challenge, ceremony, account_id, "
                           "expires_at) VALUES (?, ?, ?, ?)",
                           (challenge, ceremony, account_id, expires_at.isoformat()))
        await self._run(add)

    async def take_passkey_challenge(self, challenge: bytes, ceremony: Ceremony,
                                     now: datetime) -> Challenge | None:
        def take(db: sqlite3.Connection) -> tuple[Any, ...] | None:
            with db:
                row: tuple[Any, ...] | None = db.execute(
                    "DELETE FROM passkey_challenges WHERE challenge = ? AND ceremony = ? "
                    "RETURNING account_id, expires_at", (challenge, ceremony)).fetchone()
            return row
        row = await self._run(take)
        if row is None or datetime.fromisoformat(row[1]) <= now:
            return None
        return Challenge(ceremony, row[0])

    async def add_passkey(self, account_id: int, credential_id: bytes, public_key: bytes,
                          sign_count: int, name: str, now: datetime) -> Passkey:
        def insert(db: sqlite3.Connection) -> int:
            with db:
                cursor = db.execute(
                    "INSERT INTO passkeys (account_id, credential_id, public_key, sign_count, "
                    "name, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (account_id, credential_id, public_key, sign_count, name, now.isoformat()))
            assert cursor.lastrowid is not None
            return cursor.lastrowid
        try:
            passkey_id = await self._run(insert)
        except sqlite3.IntegrityError:
            raise passkey_taken() from None
        return Passkey(passkey_id, account_id, credential_id, public_key, sign_count, name, now)

    async def passkeys_of(self, account_id: int) -> list[Passkey]:
        return await self._passkeys(f"SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE "
                                    "account_id = ? ORDER BY id", account_id)

    async def passkey_holder(self, credential_id: bytes) -> tuple[Passkey, Account] | None:
        found = await self._passkeys(f"SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE "
                                     "credential_id = ?", credential_id)
        if not found:
            return None
        account = await self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ? AND "
                                  "deleted_at IS NULL", found[0].account_id)
        return None if account is None else (found[0], account)

    async def passkey_used(self, passkey_id: int, old_count: int, new_count: int,
                           now: datetime) -> bool:
        return await self._changed("UPDATE passkeys SET sign_count = ?, last_used_at = ? "
                                   "WHERE id = ? AND sign_count = ?",
                                   new_count, now.isoformat(), passkey_id, old_count)

    async def remove_passkey(self, account_id: int, passkey_id: int) -> bool:
        return await self._changed("DELETE FROM passkeys WHERE id = ? AND account_id = ?",
                                   passkey_id, account_id)

    async def _passkeys(self, query: str, *parameters: Any) -> list[Passkey]:
        def read(db: sqlite3.Connection) -> list[tuple[Any, ...]]:
            return db.execute(query, parameters).fetchall()
        return [Passkey(passkey_id, account_id, credential_id, public_key, count, name,
                        datetime.fromisoformat(created), datetime.fromisoformat(used) if used
                        else None)
                for passkey_id, account_id, credential_id, public_key, count, name, created, used
                in await self._run(read)]

    async def _changed(self, statement: str, *parameters: Any) -> bool:
        def write(db: sqlite3.Connection) -> bool:
            with db:
                return db.execute(statement, parameters).rowcount > 0
        return await self._run(write)

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
                     sanction.created_at.isoformat(), _text(sanction.expires_at),
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
                         account_id, prefix, _time(expires), _time(lifted), sanction_id)
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

    # -- the rating ledger (server/ratings/ledger.py) ------------------------------------

    async def apply_rated_game(self, game: RatedGame, now: datetime) -> bool:
        pool = game.pool

        def append(db: sqlite3.Connection) -> bool:
            with db:
                cursor = db.execute("INSERT OR IGNORE INTO rating_ledger (game_id, pool, "
                                    "finished_at, applied_at) VALUES (?, ?, ?, ?)",
                                    (game.game_id, pool.value, game.finished_at,
                                     now.isoformat()))
                if cursor.rowcount == 0:
                    return False  # the ledger has it: applied once already
                ids = accounts_of(game.seats)
                found = db.execute(
                    "SELECT account_id, mu, sigma, games FROM ratings WHERE pool = ? AND "
                    f"account_id IN ({', '.join('?' * len(ids))})", (pool.value, *ids))
                seats = ledger.apply(game, {account: Rating(mu, sigma, games)
                                            for account, mu, sigma, games in found})
                _append_seats(db, cursor.lastrowid, seats)
                _set_ratings(db, pool, seats)
            return True
        return await self._run(append)

    async def ratings_of(self, account_id: int) -> dict[Pool, Rating]:
        rows = await self._rows("SELECT pool, mu, sigma, games FROM ratings WHERE "
                                "account_id = ?", account_id)
        return {Pool(pool): Rating(mu, sigma, games) for pool, mu, sigma, games in rows}

    async def rating_history(self, account_id: int, pool: Pool, limit: int
                             ) -> list[HistoryPoint]:
        rows = await self._rows(ledger_sql.history_sql(sqlite_mark), account_id, pool.value,
                                limit)
        return ledger_sql.history(rows)

    async def record_against_bots(self, account_id: int, pool: Pool) -> list[BotRecord]:
        rows = await self._rows(ledger_sql.record_sql(sqlite_mark), account_id, pool.value)
        return [BotRecord(*row) for row in rows]

    async def leaderboard(self, pool: Pool, limit: int, offset: int
                          ) -> tuple[list[LeaderboardRow], int]:
        def read(db: sqlite3.Connection) -> tuple[list[LeaderboardRow], int]:
            games = dict(db.execute(ledger_sql.bot_games_sql(sqlite_mark), (pool.value,)))
            parameters = ledger_sql.leaderboard_parameters(pool, games, limit, offset)
            rows = db.execute(ledger_sql.leaderboard_sql(sqlite_mark, len(bot_ratings(pool))),
                              parameters).fetchall()
            total = db.execute(ledger_sql.board_total_sql(sqlite_mark),
                               (pool.value,)).fetchone()[0]
            return ledger_sql.board_rows(rows), int(total) + len(bot_ratings(pool))
        return await self._run(read)

    async def recompute_ratings(self) -> list[RatingChange]:
        def recompute(db: sqlite3.Connection) -> list[RatingChange]:
            with db:
                # read and rewritten as a whole: no game is applied meanwhile (sqlite3
                # would begin the transaction only at the first write)
                db.execute("BEGIN IMMEDIATE")
                games = ledger_sql.games_of(
                    db.execute(ledger_sql.LEDGER_GAMES_SQL).fetchall(),
                    db.execute(ledger_sql.LEDGER_SEATS_SQL).fetchall())
                before = {(account, Pool(pool)): Rating(mu, sigma, count)
                          for account, pool, mu, sigma, count in db.execute(
                              "SELECT account_id, pool, mu, sigma, games FROM ratings")}
                applied, after = ledger.replay(game for _, game in games)
                db.executemany(ledger_sql.rewrite_seat_sql(sqlite_mark),
                               ledger_sql.rewritten(games, applied))
                db.execute("DELETE FROM ratings")
                for pool, rated in after.items():
                    db.executemany("INSERT INTO ratings (account_id, pool, mu, sigma, games) "
                                   "VALUES (?, ?, ?, ?, ?)",
                                   [(account, pool.value, rating.mu, rating.sigma,
                                     rating.games) for account, rating in rated.items()])
                names = dict(db.execute("SELECT id, name FROM accounts").fetchall())
            return ledger.changes(before, after, names)
        return await self._run(recompute)

    async def ledger_entries(self) -> list[LedgerEntry]:
        return ledger_sql.entries(await self._rows(ledger_sql.LEDGER_ENTRIES_SQL))

    async def mark_records_lost(self, game_ids: Collection[str], now: datetime) -> int:
        def mark(db: sqlite3.Connection) -> int:
            with db:
                return db.executemany(ledger_sql.mark_lost_sql(sqlite_mark),
                                      [(now.isoformat(), game_id) for game_id in game_ids]
                                      ).rowcount
        return await self._run(mark)

    # -- the store itself ----------------------------------------------------------------

    def _open(self) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.create_function(FROM_HEX, 1, bytes.fromhex, deterministic=True)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for number, script in enumerate(migrations.SQLITE[version:], start=version + 1):
            started = time.perf_counter()
            # a script and its version number in one transaction: all of it or none
            db.executescript(f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;")
            migrations.log_step(str(self.path), "SQLITE", number,
                                time.perf_counter() - started)
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
    account_id, name, key, password_hash, created, deleted, bot = row
    return Account(account_id, name, key, password_hash, datetime.fromisoformat(created),
                   _time(deleted), bool(bot))


def _token(row: tuple[Any, ...]) -> AccessToken:
    token_id, account_id, description, scopes, created, expires, used = row
    return AccessToken(token_id, account_id, description, scopes_of(scopes),
                       datetime.fromisoformat(created), _time(expires), _time(used))


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _text(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _append_seats(db: sqlite3.Connection, ledger_id: int | None,
                  seats: list[ledger.LedgerSeat]) -> None:
    db.executemany("INSERT INTO rating_ledger_seats (ledger_id, seat, account_id, bot, rank, "
                   "mu_before, sigma_before, mu_after, sigma_after) VALUES "
                   "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [(ledger_id, *ledger_sql.seat_values(seat)) for seat in seats])


def _set_ratings(db: sqlite3.Connection, pool: Pool, seats: list[ledger.LedgerSeat]) -> None:
    db.executemany("INSERT INTO ratings (account_id, pool, mu, sigma, games) VALUES "
                   "(?, ?, ?, ?, ?) ON CONFLICT (account_id, pool) DO UPDATE SET "
                   "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
                   [(seat.seated.account_id, pool.value, seat.after.mu, seat.after.sigma,
                     seat.after.games) for seat in seats if seat.seated.account_id is not None])


def _audit(db: sqlite3.Connection, entry: AuditEntry) -> None:
    db.execute("INSERT INTO audit_log (at, admin_id, admin_name, action, target, reason) "
               "VALUES (?, ?, ?, ?, ?, ?)", (entry.at.isoformat(), entry.admin_id,
                                             entry.admin_name, entry.action.value,
                                             entry.target, entry.reason))
