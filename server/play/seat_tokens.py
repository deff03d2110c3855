"""Seat tokens: 192 random bits, kept only as hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24


def new_token() -> str:
    """A fresh seat token: URL-safe base64 that never starts with `-` (a command line
    would take it for an option). One in 64 is drawn again: 5.98 bits of 192 lost."""
    while (token := secrets.token_urlsafe(TOKEN_BYTES)).startswith("-"):
        pass
    return token


def hash_token(token: str) -> str:
    """What is stored for a seat token: its hex SHA-256, so a leaked file leaks no tokens."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if token_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def new_game_id(node: str = "") -> str:
    """A fresh game id: "g-", the owning node's name and "-" when there are several
    nodes, and 12 random hex digits (48 bits; ids are not secrets)."""
    return f"g-{node}-{secrets.token_hex(6)}" if node else "g-" + secrets.token_hex(6)
