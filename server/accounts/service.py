"""Accounts as the edge uses them: register, sign in and out, the account a session
cookie belongs to, deleting an account, and whether a guest's name is someone's.

A session is a random 256-bit secret handed to the browser once; the store keeps only its
SHA-256, so a copy of the store signs no one in. Sign-in answers the same, and takes as
long, for an unknown name as for a wrong password (a dummy hash is checked), and is
throttled (throttle.py): a stranger's attempts per account and address prefix together,
and per prefix; a known device's (a valid device cookie, devices.py) in its own bucket,
so that no stranger's failures lock the owner out. Passkey sign-ins have buckets of
their own (passkeys.py): failed passwords never block them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from dominion.protocol import ErrorCode

from ..refusal import Refusal
from .access_tokens import AccessTokens
from .devices import device_value, known_device, parse_device
from .hash_queue import Asker
from .names import MAX_LENGTH, check_account_name, name_key
from .passwords import MAX_LENGTH as MAX_PASSWORD_LENGTH
from .passwords import Hasher, check_new_password
from .store import Account, AccountStore, name_taken
from .throttle import Attempt, OnSuccess, Policy, Throttle, attempting, local_throttle

SESSION_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
"""What `new_session_secret` makes (32 bytes, URL-safe base64): anything else is no session."""
PER_ACCOUNT = Policy(free=5, first_wait=1.0, longest_wait=300.0)
"""An account's failures from one address prefix (a stranger's), or from one known device."""
PER_ADDRESS = Policy(free=20, first_wait=1.0, longest_wait=900.0)
REGISTRATIONS = Policy(free=5, first_wait=10.0, longest_wait=3600.0)
"""Each registration from an address counts like a failed sign-in: a few come free."""
REFUSAL_PAUSE_SECONDS = 1.0
MAX_NAME_INPUT = 4 * MAX_LENGTH
"""The longest name a sign-in looks up: room for what NFKC folds into a name's length."""


@contextlib.asynccontextmanager
async def refused_slowly() -> AsyncIterator[None]:
    """A `rate_limited` refusal is answered only after a pause (its wait, at most
    REFUSAL_PAUSE_SECONDS): a client that ignores `retry_after_ms` and asks again at once
    is refused once a pause per connection, not as fast as the server can say no."""
    try:
        yield
    except Refusal as refused:
        if refused.code is ErrorCode.RATE_LIMITED and refused.retry_after_ms:
            await asyncio.sleep(min(REFUSAL_PAUSE_SECONDS, refused.retry_after_ms / 1000))
        raise


@dataclass(frozen=True)
class Revoked:
    """What an account action ended: sessions (signed-in browsers) and access tokens."""

    sessions: int
    tokens: int


def new_session_secret() -> str:
    return secrets.token_urlsafe(32)


def session_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


class Accounts:
    def __init__(self, store: AccountStore, hasher: Hasher, session_days: float,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 throttle: Callable[[Policy, str], Throttle] = local_throttle) -> None:
        """`throttle`: where failures are counted, by policy and name (several nodes: in
        their Redis, throttle.RedisThrottle)."""
        self.store = store
        self._hasher = hasher
        self._session_lifetime = timedelta(days=session_days)
        self._clock = clock
        self.failures_by_account = throttle(PER_ACCOUNT, "account")
        """Keyed by the account's name key and an address prefix: strangers are throttled
        where they are, and cannot lock the owner out from elsewhere."""
        self.failures_by_device = throttle(PER_ACCOUNT, "device")
        """Keyed by the account's name key and a known device's nonce."""
        self.failures_by_address = throttle(PER_ADDRESS, "address")
        self.passkey_failures_by_account = throttle(PER_ACCOUNT, "passkey-account")
        self.passkey_failures_by_address = throttle(PER_ADDRESS, "passkey-address")
        self.registrations = throttle(REGISTRATIONS, "registration")
        self.access_tokens = AccessTokens(store, clock)

    async def close(self) -> None:
        self._hasher.close()
        await self.store.close()

    async def register(self, name: object, password: object, address: str
                       ) -> tuple[Account, str]:
        """The new account and a session secret for it."""
        async with refused_slowly():
            return await self._register(name, password, address)

    async def sign_in(self, name: object, password: object, address: str,
                      old_secret: str | None, device: str | None = None
                      ) -> tuple[Account, str]:
        """The account and a new session secret (the one the browser held, if any, is
        ended: a session is never one the client chose). `device`: the browser's device
        cookie, if any."""
        async with refused_slowly():
            return await self._sign_in(name, password, address, old_secret, device)

    @staticmethod
    def device_for(account: Account) -> str | None:
        """A new device cookie's value for a browser that has just signed in as `account`
        (None: the account has no password to sign it with)."""
        return device_value(account)

    async def _register(self, name: object, password: object, address: str
                        ) -> tuple[Account, str]:
        display, key = check_account_name(name)
        chosen = check_new_password(password, display)
        if await self.store.account_by_key(key) is not None:  # before the costly hash
            raise name_taken(display)
        async with attempting(Attempt(self.registrations, address, "your address",
                                      OnSuccess.KEEP)):  # each account made counts
            password_hash = await self._hasher.hash(chosen, Asker(address, known=False))
            account = await self.store.create_account(display, key, password_hash,
                                                      self._clock())
        return account, await self.open_session(account)

    async def _sign_in(self, name: object, password: object, address: str,
                       old_secret: str | None, device: str | None) -> tuple[Account, str]:
        # no account has such a name or password: refused before any work
        if not isinstance(name, str) or not isinstance(password, str) or not name \
                or len(name) > MAX_NAME_INPUT or len(password) > MAX_PASSWORD_LENGTH:
            raise Refusal(ErrorCode.WRONG_CREDENTIALS, "no account has this name and password")
        key = name_key(name)
        # read first (a cheap query), to tell the owner's known device from a stranger
        account = await self.store.account_by_key(key)
        parsed = parse_device(device)
        known = parsed is not None and known_device(parsed, account)
        if parsed is not None and known:
            attempts = [Attempt(self.failures_by_device, f"{key} {parsed.nonce}",
                                "this device", OnSuccess.FORGET)]
        else:
            attempts = [Attempt(self.failures_by_account, f"{key} {address}",
                                "this account from your address", OnSuccess.FORGET),
                        Attempt(self.failures_by_address, address, "your address",
                                OnSuccess.REFUND)]
        async with attempting(*attempts, failures=[ErrorCode.WRONG_CREDENTIALS]):
            matches, new_hash = await self._hasher.verify(
                account.password_hash if account is not None else None, password,
                Asker(address, known))
            if account is None or not matches:
                raise Refusal(ErrorCode.WRONG_CREDENTIALS,
                                "no account has this name and password")
        if new_hash is not None:  # the hashing parameters changed since
            await self.store.set_password_hash(account.id, new_hash)
            account = replace(account, password_hash=new_hash)  # device cookies sign by it
        if old_secret is not None:
            await self.sign_out(old_secret)
        return account, await self.open_session(account)

    async def account_of(self, secret: str | None) -> Account | None:
        """The account a session secret signs in, if it is a live session's."""
        session = await self.session_of(secret)
        return None if session is None else session[1]

    async def session_of(self, secret: str | None) -> tuple[bytes, Account] | None:
        """The hash of a live session's secret (what may be remembered of it: never the
        secret) and the account it signs in."""
        if secret is None or SESSION_SHAPE.fullmatch(secret) is None:
            return None
        token_hash = session_hash(secret)
        account = await self.store.session_account(token_hash, self._clock())
        return None if account is None else (token_hash, account)

    async def sign_out(self, secret: str) -> bytes | None:
        """End the session; its hash (None: no session could have this secret)."""
        if SESSION_SHAPE.fullmatch(secret) is None:
            return None
        token_hash = session_hash(secret)
        await self.store.end_session(token_hash)
        return token_hash

    async def sign_out_everywhere(self, account: Account) -> Revoked:
        """End every session and revoke every access token of the account: what is asked
        for after a compromise, when any of them may be in other hands."""
        return Revoked(sessions=await self.store.end_sessions(account.id),
                       tokens=await self.store.delete_tokens(account.id))

    async def change_password(self, account: Account, kept_session: bytes, old: object,
                              new: object, address: str) -> tuple[Revoked, Account]:
        """A new password, once the old one is given (`wrong_old_password`; guesses cost
        as failed sign-ins do); every other session ends, since one may be whoever learnt
        the old password, in the same transaction as the new hash is stored. Its tokens
        stay: each was made by a signed-in owner, and is revoked on its own or by signing
        out everywhere. Also the account as it is now (its device cookies sign by the new
        hash)."""
        async with refused_slowly():
            chosen = check_new_password(new, account.name)
            await self._confirm_password(account, old, address, ErrorCode.WRONG_OLD_PASSWORD)
            new_hash = await self._hasher.hash(chosen, Asker(address, known=True))
            ended = await self.store.change_password(account.id, new_hash, kept_session)
        return Revoked(sessions=ended, tokens=0), replace(account, password_hash=new_hash)

    async def delete(self, account: Account, password: object, address: str) -> None:
        """Delete the account, once its password is given again (a session left open on a
        shared computer is not enough; guesses here cost as failed sign-ins do)."""
        async with refused_slowly():
            await self._confirm_password(account, password, address,
                                         ErrorCode.WRONG_CREDENTIALS)
        await self.store.delete_account(account.id, self._clock())

    async def _confirm_password(self, account: Account, password: object, address: str,
                                wrong: ErrorCode) -> None:
        """`wrong` unless `password` is the account's; each failure counts against the
        account from this address prefix, and against the prefix, as a sign-in's does.
        The signed-in owner asks: hashed in the known devices' lane."""
        async with attempting(
                Attempt(self.failures_by_account, f"{account.name_key} {address}",
                        "this account from your address", OnSuccess.FORGET),
                Attempt(self.failures_by_address, address, "your address", OnSuccess.REFUND),
                failures=[wrong]):
            matches, _ = await self._hasher.verify(
                account.password_hash, password if isinstance(password, str) else "",
                Asker(address, known=True))
            if not matches:
                raise Refusal(wrong, "the password is not this account's")

    async def holder_of(self, name: str) -> Account | None:
        """The account (deleted ones too) whose name looks like `name`, if any."""
        return await self.store.account_by_key(name_key(name))

    async def open_session(self, account: Account) -> str:
        secret = new_session_secret()
        now = self._clock()
        await self.store.add_session(session_hash(secret), account.id, now,
                                     now + self._session_lifetime)
        return secret
