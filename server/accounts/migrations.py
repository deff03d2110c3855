"""The accounts' schema, version by version, for each store: a store at version N runs
the scripts after N in order, each in the transaction that records its number.

A new version appends one script to both lists (SQLite and PostgreSQL), never edits an
old one: stores out there are at every version.
"""

from __future__ import annotations

import logging

log = logging.getLogger("dominion.accounts")

SQLITE: list[str] = [
    """
    CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        created_at TEXT NOT NULL,
        deleted_at TEXT
    );
    CREATE TABLE sessions (
        token_hash BLOB PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account_id);
    """,
    # personal access tokens and bot accounts (tokens.py)
    """
    ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE access_tokens (
        id INTEGER PRIMARY KEY,
        token_hash BLOB NOT NULL UNIQUE,
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        description TEXT NOT NULL,
        scopes TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        last_used_at TEXT
    );
    CREATE INDEX access_tokens_by_account ON access_tokens (account_id);
    """,
    # passkeys (WebAuthn) and their ceremonies' challenges
    """
    CREATE TABLE passkeys (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts (id),
        credential_id BLOB NOT NULL UNIQUE,
        public_key BLOB NOT NULL,
        sign_count INTEGER NOT NULL,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_used_at TEXT
    );
    CREATE INDEX passkeys_by_account ON passkeys (account_id);
    CREATE TABLE passkey_challenges (
        challenge BLOB PRIMARY KEY,
        ceremony TEXT NOT NULL,
        account_id INTEGER REFERENCES accounts (id),
        expires_at TEXT NOT NULL
    );
    CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at);
    """,
    # moderation (server/accounts/moderation.py): admins, sanctions, reports, the audit log
    """
    CREATE TABLE admins (
        account_id INTEGER PRIMARY KEY REFERENCES accounts (id),
        granted_at TEXT NOT NULL
    );
    CREATE TABLE sanctions (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        account_id INTEGER REFERENCES accounts (id),
        prefix TEXT,
        reason TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        lifted_at TEXT,
        by_account_id INTEGER NOT NULL REFERENCES accounts (id)
    );
    CREATE INDEX sanctions_live ON sanctions (lifted_at, expires_at);
    CREATE TABLE reports (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        reporter_seat INTEGER NOT NULL,
        reporter_name TEXT NOT NULL,
        reporter_account_id INTEGER,
        reported_seat INTEGER NOT NULL,
        reported_name TEXT NOT NULL,
        reported_account_id INTEGER,
        reason TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (game_id, reporter_seat, reported_seat)
    );
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        admin_id INTEGER,
        admin_name TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        reason TEXT NOT NULL
    );
    CREATE INDEX accounts_deleted ON accounts (deleted_at);
    """,
    # the rating ledger (server/ratings/ledger.py): every rated game once, append-only,
    # and each account's current rating per pool
    """
    CREATE TABLE rating_ledger (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL UNIQUE,
        pool TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        applied_at TEXT NOT NULL
    );
    CREATE TABLE rating_ledger_seats (
        ledger_id INTEGER NOT NULL REFERENCES rating_ledger (id),
        seat INTEGER NOT NULL,
        account_id INTEGER,
        bot TEXT,
        rank INTEGER NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        PRIMARY KEY (ledger_id, seat)
    );
    CREATE INDEX rating_ledger_seats_by_account ON rating_ledger_seats (account_id, ledger_id);
    CREATE INDEX rating_ledger_seats_by_bot ON rating_ledger_seats (bot, ledger_id);
    CREATE TABLE ratings (
        account_id INTEGER NOT NULL,
        pool TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (account_id, pool)
    );
    CREATE INDEX ratings_by_display ON ratings (pool, (mu - 3 * sigma));
    """,
    # account ids are random from now on (store.new_account_id; SQLite's INTEGER PRIMARY
    # KEY takes them as they are), and a ledger game whose record its node lost is marked
    """
    ALTER TABLE rating_ledger ADD COLUMN record_lost_at TEXT;
    """,
]
POSTGRES: list[str] = [
    """
    CREATE TABLE accounts (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        deleted_at TIMESTAMPTZ
    );
    CREATE TABLE sessions (
        token_hash BYTEA PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts (id),
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account_id);
    """,
    # personal access tokens and bot accounts (tokens.py)
    """
    ALTER TABLE accounts ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
    CREATE TABLE access_tokens (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        token_hash BYTEA NOT NULL UNIQUE,
        account_id BIGINT NOT NULL REFERENCES accounts (id),
        description TEXT NOT NULL,
        scopes TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ,
        last_used_at TIMESTAMPTZ
    );
    CREATE INDEX access_tokens_by_account ON access_tokens (account_id);
    """,
    # passkeys (WebAuthn) and their ceremonies' challenges
    """
    CREATE TABLE passkeys (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id BIGINT NOT NULL REFERENCES accounts (id),
        credential_id BYTEA NOT NULL UNIQUE,
        public_key BYTEA NOT NULL,
        sign_count BIGINT NOT NULL,
        name TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        last_used_at TIMESTAMPTZ
    );
    CREATE INDEX passkeys_by_account ON passkeys (account_id);
    CREATE TABLE passkey_challenges (
        challenge BYTEA PRIMARY KEY,
        ceremony TEXT NOT NULL,
        account_id BIGINT REFERENCES accounts (id),
        expires_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at);
    """,
    # moderation (server/accounts/moderation.py): admins, sanctions, reports, the audit log
    """
    CREATE TABLE admins (
        account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
        granted_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE sanctions (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind TEXT NOT NULL,
        account_id BIGINT REFERENCES accounts (id),
        prefix TEXT,
        reason TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ,
        lifted_at TIMESTAMPTZ,
        by_account_id BIGINT NOT NULL REFERENCES accounts (id)
    );
    CREATE INDEX sanctions_live ON sanctions (lifted_at, expires_at);
    CREATE TABLE reports (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game_id TEXT NOT NULL,
        reporter_seat INTEGER NOT NULL,
        reporter_name TEXT NOT NULL,
        reporter_account_id BIGINT,
        reported_seat INTEGER NOT NULL,
        reported_name TEXT NOT NULL,
        reported_account_id BIGINT,
        reason TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        UNIQUE (game_id, reporter_seat, reported_seat)
    );
    CREATE TABLE audit_log (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at TIMESTAMPTZ NOT NULL,
        admin_id BIGINT,
        admin_name TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        reason TEXT NOT NULL
    );
    CREATE INDEX accounts_deleted ON accounts (deleted_at);
    """,
    # the rating ledger (server/ratings/ledger.py): every rated game once, append-only,
    # and each account's current rating per pool
    """
    CREATE TABLE rating_ledger (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game_id TEXT NOT NULL UNIQUE,
        pool TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        applied_at TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE rating_ledger_seats (
        ledger_id BIGINT NOT NULL REFERENCES rating_ledger (id),
        seat INTEGER NOT NULL,
        account_id BIGINT,
        bot TEXT,
        rank INTEGER NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu_after DOUBLE PRECISION NOT NULL,
        sigma_after DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (ledger_id, seat)
    );
    CREATE INDEX rating_ledger_seats_by_account ON rating_ledger_seats (account_id, ledger_id);
    CREATE INDEX rating_ledger_seats_by_bot ON rating_ledger_seats (bot, ledger_id);
    CREATE TABLE ratings (
        account_id BIGINT NOT NULL,
        pool TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (account_id, pool)
    );
    CREATE INDEX ratings_by_display ON ratings (pool, (mu - 3 * sigma));
    """,
    # account ids are random from now on (store.new_account_id), never a counter's that a
    # restored dump would start again; the existing accounts keep theirs. The default
    # draws one too, in the same range, for a node not yet upgraded during a rolling
    # upgrade (it names no id). A ledger game whose record its node lost is marked.
    """
    ALTER TABLE accounts ALTER COLUMN id DROP IDENTITY IF EXISTS;
    ALTER TABLE accounts ALTER COLUMN id SET DEFAULT
        4294967296 + floor(random() * (9007199254740992 - 4294967296))::bigint;
    ALTER TABLE rating_ledger ADD COLUMN record_lost_at TIMESTAMPTZ;
    """,
]
assert len(SQLITE) == len(POSTGRES), "each version is written for both stores"
LATEST = len(SQLITE)


def log_step(db: str, scripts: str, version: int, seconds: float) -> None:
    """Say, once it is committed, that script `version` of `scripts` ("SQLITE" or
    "POSTGRES") brought the store `db` from the version before to `version`: the same
    line as the games' database says for each of its steps."""
    log.info("schema migrated", extra={
        "store": "accounts", "db": db, "from_version": version - 1, "to_version": version,
        "migration": f"{scripts}[{version - 1}]", "seconds": round(seconds, 3)})
