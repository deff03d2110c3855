"""`Refusal`: a request the server refuses, with a stable code for REST and WebSocket."""

from __future__ import annotations

from dominion.protocol.errors import ErrorCode


class Refusal(Exception):
    """A refused request; nothing was changed. `code` is stable, `message` is for people."""

    def __init__(self, code: ErrorCode, message: str, *, retry_after_ms: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after_ms = retry_after_ms
        """With `rate_limited`: how long until the request would be carried out."""
