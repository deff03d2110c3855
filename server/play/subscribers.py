"""What a room sends a game to: a connection, as the room sees it."""

from __future__ import annotations

from typing import Protocol


class Subscriber(Protocol):
    """A connection that receives a game's frames."""

    @property
    def version(self) -> int:
        """The protocol version the connection speaks (it decides how changes are sent)."""

    def push(self, frame: bytes) -> None:
        """Queue a frame; never blocks (a connection that cannot keep up is closed)."""

    def replaced(self, reason: str) -> None:
        """The seat this connection held is no longer its own (a newer connection took it,
        or its token was given up): it may no longer act for the seat."""
