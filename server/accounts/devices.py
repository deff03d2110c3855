"""Device cookies (OWASP's "device cookie" pattern): a browser that has signed in to an
account carries a value naming the account, signed so that no one else can make one,
and its sign-ins are then counted in a bucket of their own, not blocked by strangers'
failures, and hashed first (hash_queue.py).

The value is `ACCOUNT_ID.NONCE.SIGNATURE`: 16 random bytes and an HMAC-SHA256 of the id
and nonce keyed by the account's password hash, which only the account store holds (so
every node checks it, and nothing else need be stored or shared). A new password voids
every device cookie of the account; a cookie of another account, or a forged or damaged
one, is no device cookie: its sign-in is a stranger's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from .store import Account

SHAPE = re.compile(r"([0-9]{1,16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})")
"""What `device_value` makes: anything else is no device cookie (refused before any work)."""


@dataclass(frozen=True)
class Device:
    """A device cookie's parts, before it is checked against its account."""

    account_id: int
    nonce: str
    signature: str


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _signature(password_hash: str, account_id: int, nonce: str) -> str:
    mac = hmac.new(password_hash.encode(), f"{account_id}.{nonce}".encode(), hashlib.sha256)
    return _b64(mac.digest())


def device_value(account: Account) -> str | None:
    """A new device cookie's value for the account (None: it has no password to sign with,
    a deleted account)."""
    if account.password_hash is None:
        return None
    nonce = _b64(secrets.token_bytes(16))
    return f"{account.id}.{nonce}.{_signature(account.password_hash, account.id, nonce)}"


def parse_device(value: str | None) -> Device | None:
    """The parts of a well-formed device cookie, unchecked."""
    found = SHAPE.fullmatch(value) if value is not None else None
    if found is None:
        return None
    return Device(int(found[1]), found[2], found[3])


def known_device(device: Device | None, account: Account | None) -> bool:
    """Is `device` a cookie the server gave a browser at a sign-in to `account`, since its
    password last changed?"""
    if device is None or account is None or account.password_hash is None \
            or device.account_id != account.id:
        return False
    expected = _signature(account.password_hash, account.id, device.nonce)
    return hmac.compare_digest(expected, device.signature)
