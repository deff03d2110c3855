"""The account store's columns, and its rows as records (sql_store.py)."""

from __future__ import annotations

from .database import Row, moment, moment_or_none
from .store import AccessToken, Account, Passkey, scopes_of

ACCOUNT_COLUMNS = ("id", "name", "name_key", "password_hash", "created_at", "deleted_at",
                   "bot")
TOKEN_COLUMNS = ("id", "account_id", "description", "scopes", "created_at", "expires_at",
                 "last_used_at")
PASSKEY_COLUMNS = ("id", "account_id", "credential_id", "public_key", "sign_count", "name",
                   "created_at", "last_used_at")


def columns(names: tuple[str, ...], table: str = "") -> str:
    """`a, b` or, of a table's alias, `t.a, t.b`."""
    return ", ".join(f"{table}.{name}" if table else name for name in names)


def account_of(row: Row) -> Account:
    account_id, name, key, password_hash, created, deleted, bot = row
    return Account(account_id, name, key, password_hash, moment(created),
                   moment_or_none(deleted), bool(bot))


def token_of(row: Row) -> AccessToken:
    token_id, account_id, description, scopes, created, expires, used = row
    return AccessToken(token_id, account_id, description, scopes_of(scopes), moment(created),
                       moment_or_none(expires), moment_or_none(used))


def passkey_of(row: Row) -> Passkey:
    passkey_id, account_id, credential_id, public_key, count, name, created, used = row
    return Passkey(passkey_id, account_id, bytes(credential_id), bytes(public_key), count,
                   name, moment(created), moment_or_none(used))
