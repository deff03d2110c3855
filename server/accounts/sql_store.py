"""The account store, written once over a `Database` (database.py): SQLite on one node,
PostgreSQL shared by the nodes of a cluster; their drivers (sqlite_store.py,
postgres_store.py) hold what differs in how they run, their `Dialect` what differs in
how they are spelled. Moderation (sql_moderation.py), the rating ledger
(sql_ledger.py) and the archive of ended games (sql_archive.py) are written over the same
database.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from .database import Database, Duplicate, Listed, moment
from .sql_archive import ArchiveQueries
from .sql_ledger import LedgerQueries
from .sql_moderation import ModerationQueries
from .sql_rows import (
    ACCOUNT_COLUMNS,
    PASSKEY_COLUMNS,
    TOKEN_COLUMNS,
    account_of,
    columns,
    passkey_of,
    token_of,
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
    scopes_text,
    too_many_draws,
)

OWNED = ("sessions", "access_tokens", "passkeys", "passkey_challenges")
"""What an account's deletion removes with its sign-in."""


class SqlAccountStore(ModerationQueries, LedgerQueries, ArchiveQueries):
    """`AccountStore`, `ModerationStore`, `RatingStore` and `ArchiveStore`
    (moderation.FullStore) over one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def start(self) -> None:
        await self.db.start()

    async def close(self) -> None:
        await self.db.close()

    async def ping(self) -> None:
        await self.db.fetch("SELECT 1")

    async def create_account(self, name: str, name_key: str, password_hash: str,
                             now: datetime) -> Account:
        for _ in range(ID_DRAWS):
            account_id = new_account_id()
            try:
                # an id drawn before is no error: no row, and another draw
                inserted = await self.db.fetchrow(
                    "INSERT INTO accounts (id, name, name_key, password_hash, created_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
                    account_id, name, name_key, password_hash, now)
            except Duplicate:  # the name's key
                raise name_taken(name) from None
            if inserted is not None:
                return Account(account_id, name, name_key, password_hash, now)
        raise too_many_draws()

    async def account_by_key(self, name_key: str) -> Account | None:
        return await self._account(f"SELECT {columns(ACCOUNT_COLUMNS)} FROM accounts WHERE "
                                   "name_key = ?", name_key)

    async def set_password_hash(self, account_id: int, password_hash: str) -> None:
        await self.db.execute("UPDATE accounts SET password_hash = ? WHERE id = ?",
                              password_hash, account_id)

    async def change_password(self, account_id: int, password_hash: str, keeping: bytes
                              ) -> int:
        async with self.db.transaction() as tx:
            await tx.execute("UPDATE accounts SET password_hash = ? WHERE id = ?",
                             password_hash, account_id)
            return await tx.execute("DELETE FROM sessions WHERE account_id = ? AND "
                                    "token_hash <> ?", account_id, keeping)

    async def delete_account(self, account_id: int, now: datetime) -> None:
        async with self.db.transaction() as tx:
            for table in OWNED:
                await tx.execute(f"DELETE FROM {table} WHERE account_id = ?", account_id)
            await tx.execute("UPDATE accounts SET password_hash = NULL, deleted_at = ? "
                             "WHERE id = ?", now, account_id)

    async def add_session(self, token_hash: bytes, account_id: int, now: datetime,
                          expires_at: datetime) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("DELETE FROM sessions WHERE account_id = ? AND expires_at <= ?",
                             account_id, now)
            await tx.execute("INSERT INTO sessions (token_hash, account_id, created_at, "
                             "expires_at) VALUES (?, ?, ?, ?)", token_hash, account_id, now,
                             expires_at)

    async def session_account(self, token_hash: bytes, now: datetime) -> Account | None:
        return await self._account(
            f"SELECT {columns(ACCOUNT_COLUMNS, 'a')} FROM sessions s JOIN accounts a ON "
            "a.id = s.account_id WHERE s.token_hash = ? AND s.expires_at > ? AND "
            "a.deleted_at IS NULL", token_hash, now)

    async def end_session(self, token_hash: bytes) -> None:
        await self.db.execute("DELETE FROM sessions WHERE token_hash = ?", token_hash)

    async def end_sessions(self, account_id: int, keeping: bytes | None = None) -> int:
        if keeping is None:
            return await self.db.execute("DELETE FROM sessions WHERE account_id = ?",
                                         account_id)
        return await self.db.execute("DELETE FROM sessions WHERE account_id = ? AND "
                                     "token_hash <> ?", account_id, keeping)

    async def live_sessions(self, token_hashes: Collection[bytes], now: datetime) -> set[bytes]:
        dialect = self.db.dialect
        rows = await self.db.fetch(
            f"SELECT token_hash FROM sessions WHERE token_hash {dialect.among(Listed.BYTES)} "
            "AND expires_at > ?", dialect.listed(token_hashes, Listed.BYTES), now)
        return {bytes(row[0]) for row in rows}

    # personal access tokens and bot accounts (access_tokens.py)

    async def add_token(self, token_hash: bytes, account_id: int, description: str,
                        scopes: frozenset[Scope], now: datetime,
                        expires_at: datetime | None) -> AccessToken:
        row = await self.db.fetchrow(
            "INSERT INTO access_tokens (token_hash, account_id, description, scopes, "
            "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            token_hash, account_id, description, scopes_text(scopes), now, expires_at)
        assert row is not None
        return AccessToken(row[0], account_id, description, scopes, now, expires_at)

    async def tokens_of(self, account_id: int) -> list[AccessToken]:
        rows = await self.db.fetch(f"SELECT {columns(TOKEN_COLUMNS)} FROM access_tokens WHERE "
                                   "account_id = ? ORDER BY id", account_id)
        return [token_of(row) for row in rows]

    async def delete_token(self, account_id: int, token_id: int) -> bool:
        return await self.db.execute("DELETE FROM access_tokens WHERE id = ? AND "
                                     "account_id = ?", token_id, account_id) > 0

    async def delete_tokens(self, account_id: int) -> int:
        return await self.db.execute("DELETE FROM access_tokens WHERE account_id = ?",
                                     account_id)

    async def token_account(self, token_hash: bytes, now: datetime
                            ) -> tuple[AccessToken, Account] | None:
        async with self.db.transaction() as tx:
            row = await tx.fetchrow(
                f"SELECT {columns(TOKEN_COLUMNS, 't')}, {columns(ACCOUNT_COLUMNS, 'a')} FROM "
                "access_tokens t JOIN accounts a ON a.id = t.account_id WHERE "
                "t.token_hash = ? AND a.deleted_at IS NULL", token_hash)
            if row is not None:
                await tx.execute("UPDATE access_tokens SET last_used_at = ? WHERE "
                                 "token_hash = ? AND (expires_at IS NULL OR expires_at > ?)",
                                 now, token_hash, now)
        if row is None:
            return None
        width = len(TOKEN_COLUMNS)
        return token_of(row[:width]), account_of(row[width:])

    async def live_tokens(self, token_ids: Collection[int]) -> set[int]:
        dialect = self.db.dialect
        rows = await self.db.fetch(f"SELECT id FROM access_tokens WHERE id "
                                   f"{dialect.among(Listed.IDS)}",
                                   dialect.listed(token_ids, Listed.IDS))
        return {row[0] for row in rows}

    async def make_bot(self, account_id: int) -> None:
        await self.db.execute("UPDATE accounts SET bot = TRUE WHERE id = ?", account_id)

    # -- passkeys (WebAuthn): their challenges, and the credentials accounts register --

    async def add_passkey_challenge(self, challenge: bytes, ceremony: Ceremony,
                                    account_id: int | None, now: datetime,
                                    expires_at: datetime) -> None:
        async with self.db.transaction() as tx:
            await tx.execute("DELETE FROM passkey_challenges WHERE expires_at <= ?", now)
            await tx.execute("INSERT INTO passkey_challenges (challenge, ceremony, account_id, "
                             "expires_at) VALUES (?, ?, ?, ?)", challenge, ceremony.value,
                             account_id, expires_at)

    async def take_passkey_challenge(self, challenge: bytes, ceremony: Ceremony,
                                     now: datetime) -> Challenge | None:
        row = await self.db.fetchrow(
            "DELETE FROM passkey_challenges WHERE challenge = ? AND ceremony = ? "
            "RETURNING account_id, expires_at", challenge, ceremony.value)
        if row is None or moment(row[1]) <= now:
            return None
        return Challenge(ceremony, row[0])

    async def add_passkey(self, account_id: int, credential_id: bytes, public_key: bytes,
                          sign_count: int, name: str, now: datetime) -> Passkey:
        try:
            row = await self.db.fetchrow(
                "INSERT INTO passkeys (account_id, credential_id, public_key, sign_count, "
                "name, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                account_id, credential_id, public_key, sign_count, name, now)
        except Duplicate:
            raise passkey_taken() from None
        assert row is not None
        return Passkey(row[0], account_id, credential_id, public_key, sign_count, name, now)

    async def passkeys_of(self, account_id: int) -> list[Passkey]:
        rows = await self.db.fetch(f"SELECT {columns(PASSKEY_COLUMNS)} FROM passkeys WHERE "
                                   "account_id = ? ORDER BY id", account_id)
        return [passkey_of(row) for row in rows]

    async def passkey_holder(self, credential_id: bytes) -> tuple[Passkey, Account] | None:
        row = await self.db.fetchrow(f"SELECT {columns(PASSKEY_COLUMNS)} FROM passkeys WHERE "
                                     "credential_id = ?", credential_id)
        if row is None:
            return None
        passkey = passkey_of(row)
        account = await self._account(f"SELECT {columns(ACCOUNT_COLUMNS)} FROM accounts "
                                      "WHERE id = ? AND deleted_at IS NULL",
                                      passkey.account_id)
        return None if account is None else (passkey, account)

    async def passkey_used(self, passkey_id: int, old_count: int, new_count: int,
                           now: datetime) -> bool:
        return await self.db.execute("UPDATE passkeys SET sign_count = ?, last_used_at = ? "
                                     "WHERE id = ? AND sign_count = ?",
                                     new_count, now, passkey_id, old_count) > 0

    async def remove_passkey(self, account_id: int, passkey_id: int) -> bool:
        return await self.db.execute("DELETE FROM passkeys WHERE id = ? AND account_id = ?",
                                     passkey_id, account_id) > 0

    async def _account(self, query: str, *parameters: object) -> Account | None:
        row = await self.db.fetchrow(query, *parameters)
        return None if row is None else account_of(row)
