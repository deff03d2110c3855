"""Personal access tokens (as Lichess has) and bot accounts: what a third-party client
or a bot signs in with, without a password or a browser.

A token is "dom_" and a random 256-bit secret (URL-safe base64), shown to its owner once;
the store keeps only its SHA-256, so a copy of the store signs no one in. The prefix lets
secret scanners spot a token pasted where it should not be. Looking one up costs the same
whatever it is: its shape is checked first (anything else is refused before any work),
then the store is asked for its SHA-256. What the time of that lookup could tell is how
much of a stored hash the guess's hash shares, which says nothing of any secret: a guesser
cannot steer a hash (tests/adversarial/test_secret_checks.py measures it).

An account becomes a bot account by its owner's choice, for ever, and only before it has
played; a bot account plays only with `bot:play` tokens, a person's only with `play`.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from dominion.protocol import ErrorCode

from ..refusal import Refusal
from .store import AccessToken, Account, AccountStore, Scope

PREFIX = "dom_"
TOKEN_SHAPE = re.compile(r"dom_[A-Za-z0-9_-]{43}")
"""What `new_token_secret` makes: anything else is no token, refused before any lookup."""
MAX_TOKEN_INPUT = 200
"""The longest text looked at for a token's shape: longer is refused unread."""
MAX_DESCRIPTION = 100
MAX_EXPIRY_DAYS = 3650
MAX_TOKENS = 50
"""Tokens an account may hold at once."""


def new_token_secret() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def token_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def play_scope(account: Account) -> Scope:
    """The scope an account's token needs to play: a bot's plays only as a bot."""
    return Scope.BOT_PLAY if account.bot else Scope.PLAY


def invalid() -> Refusal:
    return Refusal(ErrorCode.TOKEN_INVALID, "the access token is not valid (mistyped, "
                                              "revoked, or its account deleted)")


class AccessTokens:
    """Tokens created, listed, revoked and checked; bot accounts made."""

    def __init__(self, store: AccountStore,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._store = store
        self._clock = clock
        self._creating = asyncio.Lock()
        """Held while a token is counted and added (creations are rare: one lock serves
        every account): requests sent together each counted the same tokens, and 120 at
        once left 64 against a cap of 50. Each node counts in its own process."""

    async def create(self, account: Account, description: object, scopes: object,
                     expires_in_days: object = None) -> tuple[AccessToken, str]:
        """The new token and its secret (to be shown once, and never again)."""
        if not isinstance(description, str) or len(description) > MAX_DESCRIPTION \
                or not description.isprintable():
            raise Refusal(ErrorCode.BAD_TOKEN_REQUEST, "description: a line of at most "
                                                         f"{MAX_DESCRIPTION} characters")
        chosen = _scopes(scopes, account)
        now = self._clock()
        expires_at = None
        if expires_in_days is not None:
            if isinstance(expires_in_days, bool) or not isinstance(expires_in_days, int) \
                    or not 1 <= expires_in_days <= MAX_EXPIRY_DAYS:
                raise Refusal(ErrorCode.BAD_TOKEN_REQUEST, "expires_in_days: a whole "
                                f"number of days from 1 to {MAX_EXPIRY_DAYS}, or none")
            expires_at = now + timedelta(days=expires_in_days)
        async with self._creating:
            if len(await self._store.tokens_of(account.id)) >= MAX_TOKENS:
                raise Refusal(ErrorCode.TOO_MANY_TOKENS, f"an account holds at most "
                                f"{MAX_TOKENS} tokens: revoke one first")
            secret = new_token_secret()
            token = await self._store.add_token(token_hash(secret), account.id, description,
                                                chosen, now, expires_at)
        return token, secret

    async def of(self, account: Account) -> list[AccessToken]:
        return await self._store.tokens_of(account.id)

    async def revoke(self, account: Account, token_id: int) -> None:
        if not await self._store.delete_token(account.id, token_id):
            raise Refusal(ErrorCode.NOT_FOUND, f"you have no token {token_id}")

    async def check(self, secret: object, needed: Callable[[Account], Scope]
                    ) -> tuple[AccessToken, Account]:
        """The token and the account it signs in, if the token has the scope `needed` says
        that account needs; typed refusals otherwise, none of which repeats the token."""
        if not isinstance(secret, str) or len(secret) > MAX_TOKEN_INPUT \
                or TOKEN_SHAPE.fullmatch(secret) is None:
            raise invalid()
        wanted = token_hash(secret)
        found = await self._store.token_account(wanted, self._clock())
        if found is None:
            raise invalid()
        token, account = found
        if self.expired(token):
            raise Refusal(ErrorCode.TOKEN_EXPIRED, "the access token has expired: its owner "
                                                     "may create another")
        scope = needed(account)
        if scope not in token.scopes:
            raise Refusal(ErrorCode.SCOPE_MISSING, f"this needs a token with scope {scope}")
        return token, account

    def expired(self, token: AccessToken) -> bool:
        return token.expires_at is not None and token.expires_at <= self._clock()

    async def make_bot(self, account: Account, has_played: bool) -> Account:
        """The account as a bot account (again, if it was one already)."""
        if account.bot:
            return account
        if has_played:
            raise Refusal(ErrorCode.ALREADY_PLAYED, "an account that has played cannot "
                                                      "become a bot account")
        await self._store.make_bot(account.id)
        return replace(account, bot=True)


def _scopes(scopes: object, account: Account) -> frozenset[Scope]:
    known = ", ".join(scope.value for scope in Scope)
    if not isinstance(scopes, list) or not scopes or len(scopes) > len(Scope) \
            or not all(isinstance(scope, str) for scope in scopes) \
            or len(set(scopes)) != len(scopes) or not set(scopes) <= set(Scope):
        raise Refusal(ErrorCode.BAD_SCOPES, f"scopes: a list of distinct scopes of {known}")
    chosen = frozenset(Scope(scope) for scope in scopes)
    if account.bot and Scope.PLAY in chosen:
        raise Refusal(ErrorCode.BAD_SCOPES, "a bot account plays with bot:play, not play")
    return chosen
