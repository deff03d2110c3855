"""The token an `Authorization: Bearer` header carries: read by the WebSocket's hello
(connection.py) and by every REST request (api/bearer.py), so it lives below both."""

from __future__ import annotations

from ...accounts.access_tokens import invalid

BEARER = "bearer "


def bearer_of(header: str | None) -> str | None:
    """The token an `Authorization` header carries (None without the header; a header of
    another kind is no token: `token_invalid`)."""
    if header is None:
        return None
    if header[:len(BEARER)].lower() != BEARER:
        raise invalid()
    return header[len(BEARER):].strip()
