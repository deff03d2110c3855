"""The accounts' schema, version by version, written once for both databases: a store at
version N runs the steps after N in order, each in the transaction that records its
number (how each database keeps its version: its driver, sqlite_store.py and
postgres_store.py).

A step names its column types (`{TIME}`, `{BYTES}`...) as `database.Dialect.types` spells
them for each database, and adds what only PostgreSQL needs in `postgres`. A new version
appends one step, never edits an old one: stores out there are at every version.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from .database import POSTGRES, Dialect

log = logging.getLogger("dominion.accounts")


@dataclass(frozen=True, slots=True)
class Step:
    sql: str
    """The step for both databases, its types named (`{TIME}`)."""
    postgres: str = ""
    """What PostgreSQL runs after it, where the databases differ beyond their types."""

    def script(self, dialect: Dialect) -> str:
        return self.sql.format_map(dialect.types) + (self.postgres if dialect is POSTGRES
                                                     else "")


STEPS: list[Step] = [
    Step("""
    CREATE TABLE accounts (
        id {KEY},
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        created_at {TIME} NOT NULL,
        deleted_at {TIME}
    );
    CREATE TABLE sessions (
        token_hash {BYTES} PRIMARY KEY,
        account_id {BIGINT} NOT NULL REFERENCES accounts (id),
        created_at {TIME} NOT NULL,
        expires_at {TIME} NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account_id);
    """),
    # personal access tokens and bot accounts (access_tokens.py)
    Step("""
    ALTER TABLE accounts ADD COLUMN bot {FLAG};
    CREATE TABLE access_tokens (
        id {KEY},
        token_hash {BYTES} NOT NULL UNIQUE,
        account_id {BIGINT} NOT NULL REFERENCES accounts (id),
        description TEXT NOT NULL,
        scopes TEXT NOT NULL,
        created_at {TIME} NOT NULL,
        expires_at {TIME},
        last_used_at {TIME}
    );
    CREATE INDEX access_tokens_by_account ON access_tokens (account_id);
    """),
    # passkeys (WebAuthn) and their ceremonies' challenges
    Step("""
    CREATE TABLE passkeys (
        id {KEY},
        account_id {BIGINT} NOT NULL REFERENCES accounts (id),
        credential_id {BYTES} NOT NULL UNIQUE,
        public_key {BYTES} NOT NULL,
        sign_count {BIGINT} NOT NULL,
        name TEXT NOT NULL,
        created_at {TIME} NOT NULL,
        last_used_at {TIME}
    );
    CREATE INDEX passkeys_by_account ON passkeys (account_id);
    CREATE TABLE passkey_challenges (
        challenge {BYTES} PRIMARY KEY,
        ceremony TEXT NOT NULL,
        account_id {BIGINT} REFERENCES accounts (id),
        expires_at {TIME} NOT NULL
    );
    CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at);
    """),
    # moderation (server/accounts/moderation.py): admins, sanctions, reports, the audit log
    Step("""
    CREATE TABLE admins (
        account_id {BIGINT} PRIMARY KEY REFERENCES accounts (id),
        granted_at {TIME} NOT NULL
    );
    CREATE TABLE sanctions (
        id {KEY},
        kind TEXT NOT NULL,
        account_id {BIGINT} REFERENCES accounts (id),
        prefix TEXT,
        reason TEXT NOT NULL,
        created_at {TIME} NOT NULL,
        expires_at {TIME},
        lifted_at {TIME},
        by_account_id {BIGINT} NOT NULL REFERENCES accounts (id)
    );
    CREATE INDEX sanctions_live ON sanctions (lifted_at, expires_at);
    CREATE TABLE reports (
        id {KEY},
        game_id TEXT NOT NULL,
        reporter_seat INTEGER NOT NULL,
        reporter_name TEXT NOT NULL,
        reporter_account_id {BIGINT},
        reported_seat INTEGER NOT NULL,
        reported_name TEXT NOT NULL,
        reported_account_id {BIGINT},
        reason TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at {TIME} NOT NULL,
        UNIQUE (game_id, reporter_seat, reported_seat)
    );
    CREATE TABLE audit_log (
        id {KEY},
        at {TIME} NOT NULL,
        admin_id {BIGINT},
        admin_name TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        reason TEXT NOT NULL
    );
    CREATE INDEX accounts_deleted ON accounts (deleted_at);
    """),
    # the rating ledger (server/ratings/ledger.py): every rated game once, append-only,
    # and each account's current rating per pool
    Step("""
    CREATE TABLE rating_ledger (
        id {KEY},
        game_id TEXT NOT NULL UNIQUE,
        pool TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        applied_at {TIME} NOT NULL
    );
    CREATE TABLE rating_ledger_seats (
        ledger_id {BIGINT} NOT NULL REFERENCES rating_ledger (id),
        seat INTEGER NOT NULL,
        account_id {BIGINT},
        bot TEXT,
        rank INTEGER NOT NULL,
        mu_before {FLOAT} NOT NULL,
        sigma_before {FLOAT} NOT NULL,
        mu_after {FLOAT} NOT NULL,
        sigma_after {FLOAT} NOT NULL,
        PRIMARY KEY (ledger_id, seat)
    );
    CREATE INDEX rating_ledger_seats_by_account ON rating_ledger_seats (account_id, ledger_id);
    CREATE INDEX rating_ledger_seats_by_bot ON rating_ledger_seats (bot, ledger_id);
    CREATE TABLE ratings (
        account_id {BIGINT} NOT NULL,
        pool TEXT NOT NULL,
        mu {FLOAT} NOT NULL,
        sigma {FLOAT} NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (account_id, pool)
    );
    CREATE INDEX ratings_by_display ON ratings (pool, (mu - 3 * sigma));
    """),
    # account ids are random from now on (store.new_account_id), never a counter's that a
    # restored copy would start again; the existing accounts keep theirs. SQLite's INTEGER
    # PRIMARY KEY takes them as they are; PostgreSQL's identity goes, and its default
    # draws one too, in the same range, for a node not yet upgraded during a rolling
    # upgrade (it names no id). A ledger game whose record its node lost is marked.
    Step("""
    ALTER TABLE rating_ledger ADD COLUMN record_lost_at {TIME};
    """, postgres="""
    ALTER TABLE accounts ALTER COLUMN id DROP IDENTITY IF EXISTS;
    ALTER TABLE accounts ALTER COLUMN id SET DEFAULT
        4294967296 + floor(random() * (9007199254740992 - 4294967296))::bigint;
    """),
    # the per-day pair limit (`rated_games_per_pair_per_day`): a game over it is kept in
    # the ledger, marked, and changes no rating; the games before it all counted. The
    # moderators' pairs read the last days' games by their finish.
    Step("""
    ALTER TABLE rating_ledger ADD COLUMN uncounted {FLAG};
    CREATE INDEX rating_ledger_by_finish ON rating_ledger (finished_at);
    """),
    # a rated table's game given up before `rated_min_turns`: kept in the ledger (uncounted,
    # changing no rating) so that moderators see a pair's early resignations
    Step("""
    ALTER TABLE rating_ledger ADD COLUMN aborted {FLAG};
    """),
    # the archive of ended games every node reads (sql_archive.py): each game once, by its
    # id; its seats' names and accounts, its Kingdom and its chat beside it, so that the
    # listings' filters are index look-ups and a rename or a removed line is one update
    Step("""
    CREATE TABLE archived_games (
        game_id TEXT PRIMARY KEY,
        finished_at TEXT NOT NULL,
        state TEXT NOT NULL,
        edition INTEGER NOT NULL,
        players INTEGER NOT NULL,
        rated {FLAG},
        people {FLAG},
        takeovers {FLAG},
        body {BYTES} NOT NULL,
        archived_at {TIME} NOT NULL
    );
    CREATE INDEX archived_games_by_finish ON archived_games (finished_at, game_id);
    CREATE TABLE archived_seats (
        game_id TEXT NOT NULL REFERENCES archived_games (game_id),
        seat INTEGER NOT NULL,
        name TEXT,
        account_id {BIGINT},
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX archived_seats_by_name ON archived_seats (name, game_id);
    CREATE INDEX archived_seats_by_account ON archived_seats (account_id, game_id);
    CREATE TABLE archived_cards (
        card TEXT NOT NULL,
        game_id TEXT NOT NULL REFERENCES archived_games (game_id),
        PRIMARY KEY (card, game_id)
    );
    CREATE TABLE archived_chat (
        game_id TEXT NOT NULL REFERENCES archived_games (game_id),
        line {BIGINT} NOT NULL,
        at TEXT NOT NULL,
        seat INTEGER,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        removed_at TEXT,
        PRIMARY KEY (game_id, line)
    );
    """),
    # each archived game's events, derived once from its answers when it is archived
    # (sql_archive.py), so that a dump or an export reads them instead of playing the game
    # back; NULL for the games archived before, which their readers play back
    Step("""
    ALTER TABLE archived_games ADD COLUMN events {BYTES};
    """),
    # each archived game's replay as dumps and exports splice it in (its fixed bytes and
    # its rows of the dumps' tables), under the version it was made by, so that a row made
    # by another is made again when read; new rows keep no `events`: the replay has them
    Step("""
    ALTER TABLE archived_games ADD COLUMN replay {BYTES};
    ALTER TABLE archived_games ADD COLUMN replay_version INTEGER;
    """),
]

LATEST = len(STEPS)


def scripts(dialect: Dialect) -> list[str]:
    """Each version's script in the dialect (the first is version 1's)."""
    return [step.script(dialect) for step in STEPS]


def log_step(db: str, dialect: Dialect, version: int, seconds: float) -> None:
    """Say, once it is committed, that the step to `version` (in the dialect's script:
    `SQLITE[3]` is version 4's for SQLite) brought the store `db` from the version before:
    the same line as the games' database says for each of its steps."""
    log.info("schema migrated", extra={
        "store": "accounts", "db": db, "from_version": version - 1, "to_version": version,
        "migration": f"{dialect.name}[{version - 1}]", "seconds": round(seconds, 3)})
