"""Accounts: names, passwords, sessions, and the store they live in (SQLite on one
node, PostgreSQL for several). Below `play` and `edge`; knows nothing of games."""

from __future__ import annotations

from .moderation import FullStore
from .passwords import Hasher
from .service import Accounts
from .sqlite_store import SqliteAccountStore
from .store import Account, AccountStore, sqlite_path_beside

__all__ = ["Account", "AccountStore", "Accounts", "Hasher", "open_account_store"]


def open_account_store(accounts_url: str, games_db: str) -> FullStore:
    """PostgreSQL when a URL is given (several nodes), else SQLite beside the games."""
    if accounts_url:
        from .postgres_store import PostgresAccountStore  # asyncpg only when configured

        return PostgresAccountStore(accounts_url)
    return SqliteAccountStore(sqlite_path_beside(games_db))
