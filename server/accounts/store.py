"""Where accounts and sessions live: the `AccountStore` interface and its records (one
implementation, sql_store.py, over SQLite on one node or PostgreSQL for several;
`open_account_store` chooses).

Every method is a coroutine and every failure to reach the store is one typed error,
`accounts_unavailable` (503): games go on without it, sign-in waits for it.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from dominion.protocol import ErrorCode

from ..ratings import Pool, Rating
from ..ratings.ledger import (
    BotRecord,
    GameRatings,
    HistoryPoint,
    LeaderboardRow,
    LedgerEntry,
    PairRecord,
    RatedGame,
    RatingChange,
)
from ..refusal import Refusal

FIRST_RANDOM_ID = 2**32
"""Above every id the stores' old counters gave (accounts made before ids were random keep
theirs): a random id never meets one of those."""
LAST_ID = 2**53 - 1
"""The largest integer a JSON reader that holds numbers as doubles (JavaScript) reads
exactly."""
ID_DRAWS = 4
"""Draws of a new account id before giving up: each meets a taken one with a chance of
(accounts / 2^53), below one in a million with a billion accounts."""


def new_account_id() -> int:
    """A new account's id: random, never the next of a counter. A store restored from an
    older copy would count again from the copy's last id and hand a new account the id of
    one made after the copy, which the nodes' games and the ledger still name."""
    return FIRST_RANDOM_ID + secrets.randbelow(LAST_ID - FIRST_RANDOM_ID + 1)


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    """As registered (NFC); shown to people."""
    name_key: str
    """The name's look-alike key (names.name_key): unique."""
    password_hash: str | None
    """Argon2id; None once deleted."""
    created_at: datetime
    deleted_at: datetime | None = None
    bot: bool = False
    """A bot account: it plays only with `bot:play` tokens, and stays one (access_tokens.py)."""

    def __repr__(self) -> str:  # never the hash, even in a traceback's locals
        return f"Account(id={self.id}, name={self.name!r})"


# -- passkeys (WebAuthn) ----------------------------------------------------------------


class Ceremony(StrEnum):
    """What a passkey challenge was issued for: it is good for that alone."""

    REGISTER = "register"
    SIGN_IN = "sign_in"


@dataclass(frozen=True, slots=True)
class Challenge:
    """A live passkey challenge, taken from the store (so used up)."""

    ceremony: Ceremony
    account_id: int | None
    """Whose passkey it registers (None for a sign-in: anyone's)."""


@dataclass(frozen=True, slots=True)
class Passkey:
    id: int
    account_id: int
    credential_id: bytes
    public_key: bytes
    """COSE, as the authenticator gave it at registration."""
    sign_count: int
    name: str
    created_at: datetime
    last_used_at: datetime | None = None


# -- personal access tokens and bot accounts (access_tokens.py) -----------------------------


class Scope(StrEnum):
    """What a personal access token may be used for."""

    PLAY = "play"
    """Create, join and resume games as a person's account."""
    BOT_PLAY = "bot:play"
    """The same, as a bot account (the only way a bot account plays)."""
    READ = "read"
    """Read the account and its games."""


@dataclass(frozen=True, slots=True)
class AccessToken:
    """A personal access token as stored: never its secret, only the secret's hash."""

    id: int
    account_id: int
    description: str
    scopes: frozenset[Scope]
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None = None


def scopes_text(scopes: frozenset[Scope]) -> str:
    """The scopes as one column: sorted, space-separated."""
    return " ".join(sorted(scopes))


def scopes_of(text: str) -> frozenset[Scope]:
    return frozenset(Scope(scope) for scope in text.split())


# -- the store -------------------------------------------------------------------------


class AccountStore(Protocol):
    """Accounts and their sessions (kept by the hash of their secret, never the secret)."""

    async def start(self) -> None:
        """Open, and bring the schema to the latest version (or try again at first use,
        when the store cannot be reached now)."""

    async def close(self) -> None: ...

    async def ping(self) -> None:
        """A query that reads nothing; `accounts_unavailable` while the store cannot be
        reached (for the node's health)."""

    async def create_account(self, name: str, name_key: str, password_hash: str,
                             now: datetime) -> Account:
        """The new account; `name_taken` when its key is someone's already."""

    async def account_by_key(self, name_key: str) -> Account | None:
        """The account with this name key, a deleted one too (its name stays taken)."""

    async def set_password_hash(self, account_id: int, password_hash: str) -> None: ...

    async def change_password(self, account_id: int, password_hash: str, keeping: bytes
                              ) -> int:
        """The new hash stored and every other session (but `keeping`) ended, in one
        transaction (never one without the other): how many sessions ended."""

    async def delete_account(self, account_id: int, now: datetime) -> None:
        """Its sign-in goes (password hash, sessions, passkeys); its name stays taken."""

    async def add_session(self, token_hash: bytes, account_id: int, now: datetime,
                          expires_at: datetime) -> None:
        """A new session, and the account's expired ones gone (so sessions never pile up
        beyond what an account has signed in to lately)."""

    async def session_account(self, token_hash: bytes, now: datetime) -> Account | None:
        """The live account a session that has not expired belongs to."""

    async def end_session(self, token_hash: bytes) -> None: ...

    async def end_sessions(self, account_id: int, keeping: bytes | None = None) -> int:
        """End every session of the account (but `keeping`, if given), on every node at
        once: how many ended."""

    async def live_sessions(self, token_hashes: Collection[bytes], now: datetime) -> set[bytes]:
        """Which of these sessions have neither ended (signed out, here or everywhere, or
        gone with their account) nor expired by `now`: what a node's connections signed
        in with and may go on with (edge/tasks/moderation_watch.py). One query however many."""

    # personal access tokens and bot accounts (access_tokens.py)

    async def add_token(self, token_hash: bytes, account_id: int, description: str,
                        scopes: frozenset[Scope], now: datetime,
                        expires_at: datetime | None) -> AccessToken: ...

    async def tokens_of(self, account_id: int) -> list[AccessToken]:
        """The account's tokens, oldest first (expired ones too, until revoked)."""

    async def delete_token(self, account_id: int, token_id: int) -> bool:
        """Revoke one of the account's tokens: False when it has no such token."""

    async def delete_tokens(self, account_id: int) -> int:
        """Revoke every token of the account: how many there were."""

    async def token_account(self, token_hash: bytes, now: datetime
                            ) -> tuple[AccessToken, Account] | None:
        """The token with this hash and its live account (None: no such token, or its
        account is deleted); its last use becomes `now` unless it has expired."""

    async def live_tokens(self, token_ids: Collection[int]) -> set[int]:
        """Which of these tokens are not revoked (nor gone with their account): what a
        node's connections signed in with and may go on with (edge/tasks/moderation_watch.py)."""

    async def make_bot(self, account_id: int) -> None:
        """The account becomes a bot account, for ever."""
    # -- passkeys (WebAuthn): their challenges, and the credentials accounts register --

    async def add_passkey_challenge(self, challenge: bytes, ceremony: Ceremony,
                                    account_id: int | None, now: datetime,
                                    expires_at: datetime) -> None:
        """A new challenge, and the expired ones gone."""

    async def take_passkey_challenge(self, challenge: bytes, ceremony: Ceremony,
                                     now: datetime) -> Challenge | None:
        """The live challenge of this ceremony, removed at once (single use, on every
        node); None when there is none (never issued, used, expired, or another's)."""

    async def add_passkey(self, account_id: int, credential_id: bytes, public_key: bytes,
                          sign_count: int, name: str, now: datetime) -> Passkey:
        """The new passkey; `passkey_refused` when its credential is registered already."""

    async def passkeys_of(self, account_id: int) -> list[Passkey]:
        """The account's passkeys, oldest first."""

    async def passkey_holder(self, credential_id: bytes) -> tuple[Passkey, Account] | None:
        """The passkey with this credential id and its live account, if any."""

    async def passkey_used(self, passkey_id: int, old_count: int, new_count: int,
                           now: datetime) -> bool:
        """Record a sign-in with the passkey, only if its count is still `old_count`
        (False: another sign-in used it meanwhile)."""

    async def remove_passkey(self, account_id: int, passkey_id: int) -> bool:
        """False when the account has no such passkey."""


class RatingStore(Protocol):
    """The rating ledger and the current ratings (server/ratings/ledger.py; the account
    store implements it beside `AccountStore`: sql_ledger.py)."""

    async def apply_rated_game(self, game: RatedGame, now: datetime, pair_limit: int = 0
                               ) -> bool:
        """In one transaction: the game appended to the ledger (each seat's rating before
        and after) and its accounts' ratings updated. False, changing nothing, when the
        ledger has the game already (a second delivery of it). When two of its accounts
        have had `pair_limit` counted games together in the day before it finished (0: no
        limit), it is appended marked uncounted and changes no rating."""

    async def game_ratings(self, game_ids: Collection[str]) -> dict[str, GameRatings]:
        """What the ledger did to each of these games' players' ratings (a game it lacks:
        not yet applied, or never rated, is left out)."""

    async def ratings_of(self, account_id: int) -> dict[Pool, Rating]:
        """The account's current rating in each pool it has played rated games in."""

    async def rating_history(self, account_id: int, pool: Pool, limit: int
                             ) -> list[HistoryPoint]:
        """The account's rating after each of its latest `limit` games in the pool, oldest
        first."""

    async def record_against_bots(self, account_id: int, pool: Pool) -> list[BotRecord]:
        """Its rated games against each in-server bot in the pool, by the bot's name."""

    async def leaderboard(self, pool: Pool, limit: int, offset: int
                          ) -> tuple[list[LeaderboardRow], int]:
        """A page of the pool's live accounts and in-server bots, highest shown rating
        first, and how many there are in all."""

    async def recompute_ratings(self) -> list[RatingChange]:
        """In one transaction: the ledger applied again in order with today's parameters
        (its games, seats and ranks unchanged; each seat's before and after rewritten),
        and the current ratings replaced by the result; what changed."""

    async def suspicious_pairs(self, since: str, limit: int, offset: int
                               ) -> list[PairRecord]:
        """A page of the pairs of accounts that played rated games together since `since`
        (as the ledger spells times), by `PairRecord.score`, then games, highest first."""

    async def ledger_entries(self) -> list[LedgerEntry]:
        """Every game the ledger has, in the order it was applied (a reconcile compares
        them with the nodes' games: server/edge/tasks/reconcile.py)."""

    async def mark_records_lost(self, game_ids: Collection[str], now: datetime) -> int:
        """These ledger games' records are gone from their node (restored from an older
        copy): marked so, their ratings kept. How many were not marked before."""


def too_many_draws() -> Refusal:
    return unavailable(f"{ID_DRAWS} random account ids in a row were taken")


def unavailable(why: str) -> Refusal:
    return Refusal(ErrorCode.ACCOUNTS_UNAVAILABLE, f"accounts cannot be reached now ({why}); "
                                                    "games go on, try signing in later")


def name_taken(name: str) -> Refusal:
    return Refusal(ErrorCode.NAME_TAKEN, f"{name!r} (or a name that looks like it) is taken")


def passkey_taken() -> Refusal:
    return Refusal(ErrorCode.PASSKEY_REFUSED, "this passkey is registered already")


def sqlite_path_beside(games_db: str) -> Path:
    """The accounts' SQLite file beside the games' one: `games.sqlite3` ->
    `games.accounts.sqlite3`."""
    path = Path(games_db)
    return path.with_name(f"{path.stem}.accounts{path.suffix or '.sqlite3'}")
