"""The accounts in PostgreSQL (asyncpg), shared by every node of a cluster: a session
made on one node is valid on all, and ended on one it is ended on all at once.

When the server cannot be reached, every call is `accounts_unavailable` after at most
`TIMEOUT_SECONDS`, and the pool connects again by itself once it is back; the schema is
brought up to date at start, or at the first call that reaches the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

import asyncpg

from ..ratings import INITIAL, Pool, Rating, ledger
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
from .ledger_sql import postgres_mark
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
TIMEOUT_SECONDS = 5.0
"""The longest a sign-in waits for PostgreSQL before it is told accounts are unavailable."""
MIGRATION_LOCK = 0x444F4D4E
"""The advisory lock nodes starting together take to migrate one at a time ("DOMN")."""
ACCOUNT_COLUMNS = "id, name, name_key, password_hash, created_at, deleted_at, bot"
TOKEN_COLUMNS = "id, account_id, description, scopes, created_at, expires_at, last_used_at"
PASSKEY_COLUMNS = ("id, account_id, credential_id, public_key, sign_count, name, created_at, "
                   "last_used_at")
SANCTION_COLUMNS = ("id, kind, account_id, prefix, reason, created_at, expires_at, lifted_at, "
                    "by_account_id")
REPORT_COLUMNS = ("game_id, reporter_seat, reporter_name, reporter_account_id, reported_seat, "
                  "reported_name, reported_account_id, reason, text, created_at")
UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.PostgresConnectionError,
               asyncpg.InterfaceError, asyncpg.CannotConnectNowError)
"""What asyncpg raises when the server is down, restarting or unreachable."""


class PostgresAccountStore:
    def __init__(self, url: str) -> None:
        self._url = url
        self._pool: asyncpg.Pool | None = None
        self._migrated = False
        self._migrating = asyncio.Lock()

    async def start(self) -> None:
        # min_size=0: the pool is made without reaching the server, which may be down
        self._pool = await asyncpg.create_pool(self._url, min_size=0, max_size=10,
                                               timeout=TIMEOUT_SECONDS,
                                               command_timeout=TIMEOUT_SECONDS)
        with contextlib.suppress(*UNREACHABLE):  # unreachable now: the first call tries again
            await self._ready()

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()

    async def ping(self) -> None:
        await self._call(lambda db: db.fetchval("SELECT 1"))

    async def create_account(self, name: str, name_key: str, password_hash: str,
                             now: datetime) -> Account:
        async def insert(db: asyncpg.Connection) -> int | None:
            """The new account's id; None when the id drawn is taken."""
            account_id = new_account_id()
            try:
                await db.execute("INSERT INTO accounts (id, name, name_key, password_hash, "
                                 "created_at) VALUES ($1, $2, $3, $4, $5)", account_id, name,
                                 name_key, password_hash, now)
            except asyncpg.UniqueViolationError as error:
                if error.constraint_name != "accounts_pkey":  # the name's key: taken
                    raise name_taken(name) from None
                return None
            return account_id
        for _ in range(ID_DRAWS):
            if (account_id := await self._call(insert)) is not None:
                return Account(account_id, name, name_key, password_hash, now)
        raise too_many_draws()

    async def account_by_key(self, name_key: str) -> Account | None:
        return await self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1",
                               name_key)

    async def set_password_hash(self, account_id: int, password_hash: str) -> None:
        await self._call(lambda db: db.execute(
            "UPDATE accounts SET password_hash = $1 WHERE id = $2", password_hash, account_id))

    async def delete_account(self, account_id: int, now: datetime) -> None:
        async def delete(db: asyncpg.Connection) -> None:
            async with db.transaction():
                for table in ("sessions", "access_tokens", "passkeys", "passkey_challenges"):
                    await db.execute(f"DELETE FROM {table} WHERE account_id = $1", account_id)
                await db.execute("UPDATE accounts SET password_hash = NULL, deleted_at = $1 "
                                 "WHERE id = $2", now, account_id)
        await self._call(delete)

    async def add_session(self, token_hash: bytes, account_id: int, now: datetime,
                          expires_at: datetime) -> None:
        async def add(db: asyncpg.Connection) -> None:
            async with db.transaction():
                await db.execute("DELETE FROM sessions WHERE account_id = $1 AND "
                                 "expires_at <= $2", account_id, now)
                await db.execute("INSERT INTO sessions (token_hash, account_id, created_at, "
                                 "expires_at) VALUES ($1, $2, $3, $4)", token_hash,
                                 account_id, now, expires_at)
        await self._call(add)

    async def session_account(self, token_hash: bytes, now: datetime) -> Account | None:
        columns = ", ".join(f"a.{column}" for column in ACCOUNT_COLUMNS.split(", "))
        return await self._one(
            f"SELECT {columns} FROM sessions s JOIN accounts a ON a.id = s.account_id "
            "WHERE s.token_hash = $1 AND s.expires_at > $2 AND a.deleted_at IS NULL",
            token_hash, now)

    async def end_session(self, token_hash: bytes) -> None:
        await self._call(lambda db: db.execute(
            "DELETE FROM sessions WHERE token_hash = $1", token_hash))

    async def end_sessions(self, account_id: int) -> None:
        await self._call(lambda db: db.execute(
            "DELETE FROM sessions WHERE account_id = $1", account_id))

    async def live_sessions(self, token_hashes: Collection[bytes], now: datetime) -> set[bytes]:
        rows = await self._call(lambda db: db.fetch(
            "SELECT token_hash FROM sessions WHERE token_hash = ANY($1::bytea[]) AND "
            "expires_at > $2", list(token_hashes), now))
        return {bytes(row[0]) for row in rows}

    # personal access tokens and bot accounts (tokens.py)

    async def add_token(self, token_hash: bytes, account_id: int, description: str,
                        scopes: frozenset[Scope], now: datetime,
                        expires_at: datetime | None) -> AccessToken:
        token_id = await self._call(lambda db: db.fetchval(
            "INSERT INTO access_tokens (token_hash, account_id, description, scopes, "
            "created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            token_hash, account_id, description, scopes_text(scopes), now, expires_at))
        return AccessToken(token_id, account_id, description, scopes, now, expires_at)

    async def tokens_of(self, account_id: int) -> list[AccessToken]:
        rows = await self._call(lambda db: db.fetch(
            f"SELECT {TOKEN_COLUMNS} FROM access_tokens WHERE account_id = $1 ORDER BY id",
            account_id))
        return [_token(tuple(row)) for row in rows]

    async def delete_token(self, account_id: int, token_id: int) -> bool:
        status: str = await self._call(lambda db: db.execute(
            "DELETE FROM access_tokens WHERE id = $1 AND account_id = $2",
            token_id, account_id))
        return status != "DELETE 0"

    async def token_account(self, token_hash: bytes, now: datetime
                            ) -> tuple[AccessToken, Account] | None:
        tokens = ", ".join(f"t.{column}" for column in TOKEN_COLUMNS.split(", "))
        accounts = ", ".join(f"a.{column}" for column in ACCOUNT_COLUMNS.split(", "))

        async def use(db: asyncpg.Connection) -> Any:
            async with db.transaction():
                row = await db.fetchrow(
                    f"SELECT {tokens}, {accounts} FROM access_tokens t JOIN accounts a ON "
                    "a.id = t.account_id WHERE t.token_hash = $1 AND a.deleted_at IS NULL",
                    token_hash)
                if row is not None:
                    await db.execute("UPDATE access_tokens SET last_used_at = $1 WHERE "
                                     "token_hash = $2 AND (expires_at IS NULL OR "
                                     "expires_at > $1)", now, token_hash)
            return row
        row = await self._call(use)
        if row is None:
            return None
        values = tuple(row)
        width = len(TOKEN_COLUMNS.split(", "))
        return _token(values[:width]), Account(*values[width:])

    async def live_tokens(self, token_ids: Collection[int]) -> set[int]:
        rows = await self._call(lambda db: db.fetch(
            "SELECT id FROM access_tokens WHERE id = ANY($1::bigint[])", list(token_ids)))
        return {row[0] for row in rows}

    async def make_bot(self, account_id: int) -> None:
        await self._call(lambda db: db.execute(
            "UPDATE accounts SET bot = TRUE WHERE id = $1", account_id))

    # -- passkeys (WebAuthn): their challenges, and the credentials accounts register --

    async def add_passkey_challenge(self, challenge: bytes, ceremony: Ceremony,
                                    account_id: int | None, now: datetime,
                                    expires_at: datetime) -> None:
        async def add(db: asyncpg.Connection) -> None:
            async with db.transaction():
                await db.execute("DELETE FROM passkey_challenges WHERE expires_at <= $1", now)
                await db.execute("INSERT INTO passkey_challenges (challenge, ceremony, "
                                 "account_id, expires_at) VALUES ($1, $2, $3, $4)",
                                 challenge, str(ceremony), account_id, expires_at)
        await self._call(add)

    async def take_passkey_challenge(self, challenge: bytes, ceremony: Ceremony,
                                     now: datetime) -> Challenge | None:
        row = await self._call(lambda db: db.fetchrow(
            "DELETE FROM passkey_challenges WHERE challenge = $1 AND ceremony = $2 "
            "RETURNING account_id, expires_at", challenge, str(ceremony)))
        if row is None or row["expires_at"] <= now:
            return None
        return Challenge(ceremony, row["account_id"])

    async def add_passkey(self, account_id: int, credential_id: bytes, public_key: bytes,
                          sign_count: int, name: str, now: datetime) -> Passkey:
        try:
            passkey_id = await self._call(lambda db: db.fetchval(
                "INSERT INTO passkeys (account_id, credential_id, public_key, sign_count, name, "
                "created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id", account_id,
                credential_id, public_key, sign_count, name, now))
        except asyncpg.UniqueViolationError:
            raise passkey_taken() from None
        return Passkey(passkey_id, account_id, credential_id, public_key, sign_count, name, now)

    async def passkeys_of(self, account_id: int) -> list[Passkey]:
        rows = await self._call(lambda db: db.fetch(
            f"SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE account_id = $1 ORDER BY id",
            account_id))
        return [Passkey(*row) for row in rows]

    async def passkey_holder(self, credential_id: bytes) -> tuple[Passkey, Account] | None:
        row = await self._call(lambda db: db.fetchrow(
            f"SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = $1", credential_id))
        if row is None:
            return None
        account = await self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1 AND "
                                  "deleted_at IS NULL", row["account_id"])
        return None if account is None else (Passkey(*row), account)

    async def passkey_used(self, passkey_id: int, old_count: int, new_count: int,
                           now: datetime) -> bool:
        status = await self._call(lambda db: db.execute(
            "UPDATE passkeys SET sign_count = $1, last_used_at = $2 WHERE id = $3 AND "
            "sign_count = $4", new_count, now, passkey_id, old_count))
        return bool(status != "UPDATE 0")

    async def remove_passkey(self, account_id: int, passkey_id: int) -> bool:
        status = await self._call(lambda db: db.execute(
            "DELETE FROM passkeys WHERE id = $1 AND account_id = $2", passkey_id, account_id))
        return bool(status != "DELETE 0")

    # -- moderation (server/accounts/moderation.py): admins, sanctions, reports, audit --

    async def set_admin(self, account_id: int, granted_at: datetime | None) -> bool:
        if granted_at is None:
            status = await self._call(lambda db: db.execute(
                "DELETE FROM admins WHERE account_id = $1", account_id))
        else:
            status = await self._call(lambda db: db.execute(
                "INSERT INTO admins (account_id, granted_at) VALUES ($1, $2) "
                "ON CONFLICT DO NOTHING", account_id, granted_at))
        return str(status).endswith(" 1")

    async def is_admin(self, account_id: int) -> bool:
        found = await self._call(lambda db: db.fetchval(
            "SELECT 1 FROM admins JOIN accounts a ON a.id = account_id "
            "WHERE account_id = $1 AND a.deleted_at IS NULL", account_id))
        return found is not None

    async def admins(self) -> list[Account]:
        columns = ", ".join(f"a.{column}" for column in ACCOUNT_COLUMNS.split(", "))
        rows = await self._call(lambda db: db.fetch(
            f"SELECT {columns} FROM admins JOIN accounts a ON a.id = account_id "
            "ORDER BY a.name_key"))
        return [Account(*row) for row in rows]

    async def add_sanction(self, sanction: Sanction, audit: AuditEntry) -> Sanction:
        async def add(db: asyncpg.Connection) -> int:
            async with db.transaction():
                sanction_id: int = await db.fetchval(
                    "INSERT INTO sanctions (kind, account_id, prefix, reason, created_at, "
                    "expires_at, by_account_id) VALUES ($1, $2, $3, $4, $5, $6, $7) "
                    "RETURNING id", sanction.kind.value, sanction.account_id, sanction.prefix,
                    sanction.reason, sanction.created_at, sanction.expires_at,
                    sanction.by_account_id)
                await _audit(db, audit)
            return sanction_id
        return replace(sanction, id=await self._call(add))

    async def lift_sanction(self, sanction_id: int, now: datetime, audit: AuditEntry
                            ) -> bool:
        async def lift(db: asyncpg.Connection) -> bool:
            async with db.transaction():
                status = await db.execute(
                    "UPDATE sanctions SET lifted_at = $1 WHERE id = $2 AND lifted_at IS NULL "
                    "AND (expires_at IS NULL OR expires_at > $1)", now, sanction_id)
                lifted = str(status).endswith(" 1")
                if lifted:
                    await _audit(db, audit)
            return lifted
        return await self._call(lift)

    async def live_sanctions(self, now: datetime) -> list[Sanction]:
        rows = await self._call(lambda db: db.fetch(
            f"SELECT {SANCTION_COLUMNS} FROM sanctions WHERE lifted_at IS NULL AND "
            "(expires_at IS NULL OR expires_at > $1) ORDER BY id", now))
        return [Sanction(SanctionKind(kind), reason, created, by, account_id, prefix, expires,
                         lifted, sanction_id)
                for (sanction_id, kind, account_id, prefix, reason, created, expires, lifted,
                     by) in rows]

    async def add_report(self, report: Report) -> Report:
        try:
            report_id = await self._call(lambda db: db.fetchval(
                f"INSERT INTO reports ({REPORT_COLUMNS}) VALUES "
                "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
                report.game_id, report.reporter_seat, report.reporter_name,
                report.reporter_account_id, report.reported_seat, report.reported_name,
                report.reported_account_id, report.reason.value, report.text,
                report.created_at))
        except asyncpg.UniqueViolationError:
            raise already_reported() from None
        return replace(report, id=report_id)

    async def reports(self, limit: int, offset: int) -> list[Report]:
        rows = await self._call(lambda db: db.fetch(
            f"SELECT {REPORT_COLUMNS}, id FROM reports ORDER BY id DESC LIMIT $1 OFFSET $2",
            limit, offset))
        return [report_of(tuple(row), row[9]) for row in rows]

    async def append_audit(self, entry: AuditEntry) -> None:
        async def append(db: asyncpg.Connection) -> None:
            await _audit(db, entry)
        await self._call(append)

    async def audit_log(self, limit: int, offset: int) -> list[AuditEntry]:
        rows = await self._call(lambda db: db.fetch(
            "SELECT at, admin_id, admin_name, action, target, reason, id FROM audit_log "
            "ORDER BY id DESC LIMIT $1 OFFSET $2", limit, offset))
        return [AuditEntry(at, admin_id, name, AdminAction(action), target, reason, entry_id)
                for at, admin_id, name, action, target, reason, entry_id in rows]

    async def latest_audit_id(self) -> int:
        latest = await self._call(lambda db: db.fetchval(
            "SELECT coalesce(max(id), 0) FROM audit_log"))
        return int(latest)

    async def deleted_since(self, moment: datetime) -> list[int]:
        rows = await self._call(lambda db: db.fetch(
            "SELECT id FROM accounts WHERE deleted_at >= $1", moment))
        return [row[0] for row in rows]

    # -- the rating ledger (server/ratings/ledger.py) ------------------------------------

    async def apply_rated_game(self, game: RatedGame, now: datetime) -> bool:
        pool = game.pool

        async def append(db: asyncpg.Connection) -> bool:
            async with db.transaction():
                ledger_id = await db.fetchval(
                    "INSERT INTO rating_ledger (game_id, pool, finished_at, applied_at) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO NOTHING RETURNING id",
                    game.game_id, pool.value, game.finished_at, now)
                if ledger_id is None:
                    return False  # the ledger has it: applied once already
                ids = accounts_of(game.seats)
                # every account's row exists, then is locked in id order: another node's
                # game with the same players waits for this one (and never deadlocks)
                await db.executemany(
                    "INSERT INTO ratings (account_id, pool, mu, sigma, games) VALUES "
                    "($1, $2, $3, $4, 0) ON CONFLICT DO NOTHING",
                    [(account, pool.value, INITIAL.mu, INITIAL.sigma) for account in ids])
                found = await db.fetch(
                    "SELECT account_id, mu, sigma, games FROM ratings WHERE pool = $1 AND "
                    "account_id = ANY($2::bigint[]) ORDER BY account_id FOR UPDATE",
                    pool.value, ids)
                seats = ledger.apply(game, {row[0]: Rating(row[1], row[2], row[3])
                                            for row in found})
                await _append_seats(db, ledger_id, seats)
                await db.executemany(
                    "UPDATE ratings SET mu = $1, sigma = $2, games = $3 WHERE "
                    "account_id = $4 AND pool = $5",
                    [(seat.after.mu, seat.after.sigma, seat.after.games,
                      seat.seated.account_id, pool.value)
                     for seat in seats if seat.seated.account_id is not None])
            return True
        return await self._call(append)

    async def ratings_of(self, account_id: int) -> dict[Pool, Rating]:
        rows = await self._call(lambda db: db.fetch(
            "SELECT pool, mu, sigma, games FROM ratings WHERE account_id = $1", account_id))
        return {Pool(pool): Rating(mu, sigma, games) for pool, mu, sigma, games in rows}

    async def rating_history(self, account_id: int, pool: Pool, limit: int
                             ) -> list[HistoryPoint]:
        rows = await self._call(lambda db: db.fetch(
            ledger_sql.history_sql(postgres_mark), account_id, pool.value, limit))
        return ledger_sql.history(rows)

    async def record_against_bots(self, account_id: int, pool: Pool) -> list[BotRecord]:
        rows = await self._call(lambda db: db.fetch(
            ledger_sql.record_sql(postgres_mark), account_id, pool.value))
        return [BotRecord(*row) for row in rows]

    async def leaderboard(self, pool: Pool, limit: int, offset: int
                          ) -> tuple[list[LeaderboardRow], int]:
        bots = len(bot_ratings(pool))

        async def read(db: asyncpg.Connection) -> tuple[list[LeaderboardRow], int]:
            async with db.transaction(isolation="repeatable_read", readonly=True):
                games = dict(await db.fetch(ledger_sql.bot_games_sql(postgres_mark),
                                            pool.value))
                rows = await db.fetch(ledger_sql.leaderboard_sql(postgres_mark, bots),
                                      *ledger_sql.leaderboard_parameters(pool, games, limit,
                                                                         offset))
                total = await db.fetchval(ledger_sql.board_total_sql(postgres_mark),
                                          pool.value)
            return ledger_sql.board_rows(rows), int(total) + bots
        return await self._call(read)

    async def recompute_ratings(self) -> list[RatingChange]:
        async def recompute(db: asyncpg.Connection) -> list[RatingChange]:
            async with db.transaction():
                # no game is applied meanwhile: the ledger is read and rewritten as a whole
                await db.execute("LOCK TABLE rating_ledger, ratings IN EXCLUSIVE MODE")
                games = ledger_sql.games_of(
                    await db.fetch(ledger_sql.LEDGER_GAMES_SQL),
                    await db.fetch(ledger_sql.LEDGER_SEATS_SQL))
                before = {(row[0], Pool(row[1])): Rating(row[2], row[3], row[4])
                          for row in await db.fetch(
                              "SELECT account_id, pool, mu, sigma, games FROM ratings")}
                applied, after = ledger.replay(game for _, game in games)
                await db.executemany(ledger_sql.rewrite_seat_sql(postgres_mark),
                                     ledger_sql.rewritten(games, applied))
                await db.execute("DELETE FROM ratings")
                await db.executemany(
                    "INSERT INTO ratings (account_id, pool, mu, sigma, games) VALUES "
                    "($1, $2, $3, $4, $5)",
                    [(account, pool.value, rating.mu, rating.sigma, rating.games)
                     for pool, rated in after.items() for account, rating in rated.items()])
                names = dict(await db.fetch("SELECT id, name FROM accounts"))
            return ledger.changes(before, after, names)
        return await self._call(recompute)

    async def ledger_entries(self) -> list[LedgerEntry]:
        return ledger_sql.entries(await self._call(lambda db: db.fetch(
            ledger_sql.LEDGER_ENTRIES_SQL)))

    async def mark_records_lost(self, game_ids: Collection[str], now: datetime) -> int:
        async def mark(db: asyncpg.Connection) -> int:
            async with db.transaction():
                marked = [await db.execute(ledger_sql.mark_lost_sql(postgres_mark), now, game)
                          for game in game_ids]
            return sum(status.endswith(" 1") for status in marked)
        return await self._call(mark)

    # -- the store itself ----------------------------------------------------------------

    async def _one(self, query: str, *parameters: Any) -> Account | None:
        row = await self._call(lambda db: db.fetchrow(query, *parameters))
        return None if row is None else Account(*row)

    async def _ready(self) -> asyncpg.Pool:
        """The pool, once the schema is at the latest version."""
        if self._pool is None:
            raise unavailable("the store is not started")
        if not self._migrated:
            async with self._migrating:
                if not self._migrated:
                    async with self._pool.acquire() as db:
                        await _migrate(db)
                    self._migrated = True
        return self._pool

    async def _call(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        try:
            pool = await self._ready()
            async with pool.acquire() as db:
                return await work(db)
        except UNREACHABLE as error:
            raise unavailable(type(error).__name__) from None


def _token(row: tuple[Any, ...]) -> AccessToken:
    token_id, account_id, description, scopes, created, expires, used = row
    return AccessToken(token_id, account_id, description, scopes_of(scopes), created, expires,
                       used)


async def _migrate(db: asyncpg.Connection) -> None:
    """Bring the schema to the latest version; nodes starting at once take turns."""
    took: dict[int, float] = {}  # each version's seconds
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await db.execute("CREATE TABLE IF NOT EXISTS accounts_schema (version INTEGER NOT NULL)")
        version = await db.fetchval("SELECT max(version) FROM accounts_schema") or 0
        for number, script in enumerate(migrations.POSTGRES[version:], start=version + 1):
            started = time.perf_counter()
            await db.execute(script)
            await db.execute("INSERT INTO accounts_schema (version) VALUES ($1)", number)
            took[number] = time.perf_counter() - started
        database = f"postgresql database {await db.fetchval('SELECT current_database()')}"
    # said once committed: every step or none of them took effect
    for number, seconds in took.items():
        migrations.log_step(database, "POSTGRES", number, seconds)


async def _append_seats(db: asyncpg.Connection, ledger_id: int,
                        seats: list[ledger.LedgerSeat]) -> None:
    await db.executemany(
        "INSERT INTO rating_ledger_seats (ledger_id, seat, account_id, bot, rank, mu_before, "
        "sigma_before, mu_after, sigma_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        [(ledger_id, *ledger_sql.seat_values(seat)) for seat in seats])


async def _audit(db: asyncpg.Connection, entry: AuditEntry) -> None:
    await db.execute("INSERT INTO audit_log (at, admin_id, admin_name, action, target, reason) "
                     "VALUES ($1, $2, $3, $4, $5, $6)", entry.at, entry.admin_id,
                     entry.admin_name, entry.action.value, entry.target, entry.reason)
