"""An export's cursor: the keyset (end time, game id) of the last game a page held, as an
opaque URL-safe token, and read back checked (a token the server did not write is
refused rather than guessed at)."""

from __future__ import annotations

import base64
import binascii
import json
import re

Keyset = tuple[str, str]
"""(finished_at, game id): the games after it, newest first, come next."""
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_GAME_ID = re.compile(r"g-(?:[a-z0-9]{1,32}-)?[0-9a-f]{12}")


def encode_keyset(key: Keyset) -> str:
    text = json.dumps(list(key), separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_keyset(token: str) -> Keyset:
    """The keyset a token holds; ValueError for one the server did not write."""
    try:
        key = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise ValueError(token) from None
    if (not isinstance(key, list) or len(key) != 2
            or not all(isinstance(part, str) for part in key)
            or not _TIME.fullmatch(key[0]) or not _GAME_ID.fullmatch(key[1])):
        raise ValueError(token)
    return key[0], key[1]
