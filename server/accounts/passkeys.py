"""Passkeys (WebAuthn, through py_webauthn): a signed-in account registers one, and
anyone signs in with one, without a name or a password (a discoverable credential: the
authenticator offers the accounts it holds keys for).

Each ceremony answers a challenge the server made: 32 random bytes kept in the account
store for CHALLENGE_SECONDS and taken out (deleted) by the answer that uses it, so that
it is good once, on whichever node the answer reaches (an answer that names no live
challenge is `passkey_challenge_expired`). Stored rather than signed into the options:
a signed challenge could be answered twice until it expired, unless the nodes shared a
list of used ones, which is a store again. The answer is then checked by the library:
the relying party's id (the host of the public URL), the page's origin, the signature
with the credential's public key, and the sign counter, which must grow (an
authenticator that counts nothing sends 0 each time). Failed passkey sign-ins are
throttled as failed password sign-ins are, in buckets of their own (never the
password's: a flood of wrong passwords does not block the owner's passkey): per address
prefix and, once the credential is known, per account and prefix.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import webauthn
from webauthn.helpers import parse_client_data_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from dominion.protocol import ErrorCode

from ..refusal import Refusal
from .service import Accounts, refused_slowly
from .store import Account, Ceremony, Challenge, Passkey
from .throttle import Attempt, OnSuccess, attempting, refuse_while_waiting

CHALLENGE_SECONDS = 120
"""How long a ceremony's challenge may be answered."""
CEREMONY_TIMEOUT_MS = 60_000
"""What the browser is told to give its person (less than the challenge lives)."""
MAX_PASSKEY_NAME = 40
MAX_CREDENTIAL_CHARS = 16_384
"""The longest credential (its JSON) read: attestations with certificates fit."""
FAILURES = frozenset(ErrorCode) - {ErrorCode.RATE_LIMITED, ErrorCode.ACCOUNTS_UNAVAILABLE}
"""Refusals of a passkey sign-in that count as the address's failure to sign in."""
MALFORMED = (WebAuthnException, ValueError, TypeError, KeyError, IndexError, OverflowError)
"""What the library raises for a credential it cannot read."""


@dataclass(frozen=True)
class RelyingParty:
    """The site passkeys are for: its id (a host name) and the one origin answers may
    come from."""

    id: str
    origin: str
    name: str


def user_handle(account: Account) -> bytes:
    """The WebAuthn user id of an account: its number, nothing personal."""
    return account.id.to_bytes(8, "big")


def check_passkey_name(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_PASSKEY_NAME \
            or not raw.isprintable():
        raise Refusal(ErrorCode.BAD_PASSKEY_NAME,
                        f"a passkey's name is 1 to {MAX_PASSKEY_NAME} printable characters")
    return raw.strip()


def _credential(raw: object) -> dict[str, Any]:
    """The credential as the browser's `toJSON()` gives it, or `bad_credential`."""
    if not isinstance(raw, dict) or len(json.dumps(raw)) > MAX_CREDENTIAL_CHARS:
        raise Refusal(ErrorCode.BAD_CREDENTIAL, "credential is a WebAuthn credential's JSON "
                                                  f"(at most {MAX_CREDENTIAL_CHARS} characters)")
    return raw


def _challenge_of(credential: dict[str, Any]) -> bytes:
    """The challenge a credential answers (read from its client data, unchecked)."""
    try:
        client_data = webauthn.base64url_to_bytes(credential["response"]["clientDataJSON"])
        challenge: bytes = parse_client_data_json(client_data).challenge
    except MALFORMED:
        raise Refusal(ErrorCode.BAD_CREDENTIAL, "the credential's client data cannot be "
                                                  "read") from None
    return challenge


def _refusal(why: str) -> Refusal:
    return Refusal(ErrorCode.PASSKEY_REFUSED, f"the passkey's answer does not verify ({why})")


class Passkeys:
    def __init__(self, accounts: Accounts,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._accounts = accounts
        self._store = accounts.store
        self._clock = clock

    async def registration_options(self, account: Account, party: RelyingParty
                                   ) -> dict[str, Any]:
        """What `navigator.credentials.create` needs to make a passkey for the account."""
        challenge = await self._new_challenge(Ceremony.REGISTER, account.id)
        held = await self._store.passkeys_of(account.id)
        options = webauthn.generate_registration_options(
            rp_id=party.id, rp_name=party.name, user_name=account.name,
            user_id=user_handle(account), challenge=challenge, timeout=CEREMONY_TIMEOUT_MS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=key.credential_id)
                                 for key in held])
        return dict(json.loads(webauthn.options_to_json(options)))

    async def register(self, account: Account, party: RelyingParty, name: object,
                       raw_credential: object) -> Passkey:
        chosen = check_passkey_name(name)
        credential = _credential(raw_credential)
        challenge = await self._take(credential, Ceremony.REGISTER)
        if challenge.account_id != account.id:
            raise _expired_refusal()  # another account's ceremony: not this one's to finish
        try:
            verified = webauthn.verify_registration_response(
                credential=credential, expected_challenge=_challenge_of(credential),
                expected_rp_id=party.id, expected_origin=party.origin)
        except MALFORMED as error:
            raise _refusal(str(error)) from None
        return await self._store.add_passkey(
            account.id, verified.credential_id, verified.credential_public_key,
            verified.sign_count, chosen, self._clock())

    async def of(self, account: Account) -> list[Passkey]:
        return await self._store.passkeys_of(account.id)

    async def remove(self, account: Account, passkey_id: int) -> None:
        if not await self._store.remove_passkey(account.id, passkey_id):
            raise Refusal(ErrorCode.UNKNOWN_PASSKEY, "this account has no such passkey")

    async def sign_in_options(self, party: RelyingParty, address: str) -> dict[str, Any]:
        """What `navigator.credentials.get` needs: no credentials named, so the
        authenticator offers the accounts it holds passkeys for."""
        waited = await self._accounts.passkey_failures_by_address.wait(address)
        refuse_while_waiting((waited, "your address"))
        challenge = await self._new_challenge(Ceremony.SIGN_IN, None)
        options = webauthn.generate_authentication_options(
            rp_id=party.id, challenge=challenge, timeout=CEREMONY_TIMEOUT_MS,
            user_verification=UserVerificationRequirement.PREFERRED)
        return dict(json.loads(webauthn.options_to_json(options)))

    async def sign_in(self, party: RelyingParty, raw_credential: object, address: str,
                      old_secret: str | None) -> tuple[Account, str]:
        """The account whose passkey answered, and a new session secret for it."""
        async with refused_slowly():
            credential = _credential(raw_credential)
            async with attempting(Attempt(self._accounts.passkey_failures_by_address, address,
                                          "your address", OnSuccess.REFUND),
                                  failures=FAILURES):
                account = await self._verify_sign_in(party, credential, address)
        if old_secret is not None:
            await self._accounts.sign_out(old_secret)
        return account, await self._accounts.open_session(account)

    async def _verify_sign_in(self, party: RelyingParty, credential: dict[str, Any],
                              address: str) -> Account:
        await self._take(credential, Ceremony.SIGN_IN)
        try:
            credential_id = webauthn.base64url_to_bytes(credential["rawId"])
        except MALFORMED:
            raise Refusal(ErrorCode.BAD_CREDENTIAL, "the credential has no rawId") from None
        holder = await self._store.passkey_holder(credential_id)
        if holder is None:
            raise _refusal("no account has this passkey")
        passkey, account = holder
        handle = credential["response"].get("userHandle")
        if handle is not None and handle != webauthn.helpers.bytes_to_base64url(
                user_handle(account)):
            raise _refusal("the passkey names another account")
        async with attempting(Attempt(self._accounts.passkey_failures_by_account,
                                      f"{account.name_key} {address}",
                                      "this account's passkeys from your address",
                                      OnSuccess.FORGET),
                              failures=[ErrorCode.PASSKEY_REFUSED]):
            try:
                verified = webauthn.verify_authentication_response(
                    credential=credential, expected_challenge=_challenge_of(credential),
                    expected_rp_id=party.id, expected_origin=party.origin,
                    credential_public_key=passkey.public_key,
                    credential_current_sign_count=passkey.sign_count)
            except MALFORMED as error:
                raise _refusal(str(error)) from None
        if not await self._store.passkey_used(passkey.id, passkey.sign_count,
                                              verified.new_sign_count, self._clock()):
            raise _refusal("the passkey was used by another sign-in at the same moment")
        return account

    async def _new_challenge(self, ceremony: Ceremony, account_id: int | None) -> bytes:
        challenge = secrets.token_bytes(32)
        now = self._clock()
        await self._store.add_passkey_challenge(challenge, ceremony, account_id, now,
                                                now + timedelta(seconds=CHALLENGE_SECONDS))
        return challenge

    async def _take(self, credential: dict[str, Any], ceremony: Ceremony) -> Challenge:
        """The live challenge the credential answers, used up now."""
        taken = await self._store.take_passkey_challenge(_challenge_of(credential), ceremony,
                                                         self._clock())
        if taken is None:
            raise _expired_refusal()
        return taken


def _expired_refusal() -> Refusal:
    return Refusal(ErrorCode.PASSKEY_CHALLENGE_EXPIRED,
                     "this passkey request is used up, expired or another's: ask for new "
                     "options")
