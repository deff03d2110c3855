"""What a room sends a game to: a connection, as the room sees it (`Subscriber`), and the
room's connections with the seat each views (`Subscriptions`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from .frames import Audience


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


class Subscriptions:
    """The connections a game is sent to, each with the seat it views (None: it watches),
    and the delivery of frames to them: one concern apart from the room's change path."""

    __slots__ = ("_viewers",)

    def __init__(self) -> None:
        self._viewers: dict[Subscriber, int | None] = {}

    def __contains__(self, subscriber: Subscriber) -> bool:
        return subscriber in self._viewers

    def viewer(self, subscriber: Subscriber) -> int | None:
        """The seat `subscriber` views (None: it watches, or it is not subscribed)."""
        return self._viewers.get(subscriber)

    def add(self, subscriber: Subscriber, viewer: int | None) -> None:
        self._viewers[subscriber] = viewer

    def remove(self, subscriber: Subscriber) -> int | None:
        """Stop sending to `subscriber`; the seat it viewed (None: it watched, or was not
        subscribed)."""
        return self._viewers.pop(subscriber, None)

    def remove_holders(self, seat: int) -> list[Subscriber]:
        """Stop sending to every connection viewing `seat`; those connections."""
        holders = [s for s, viewer in self._viewers.items() if viewer == seat]
        for holder in holders:
            del self._viewers[holder]
        return holders

    def items(self) -> list[tuple[Subscriber, int | None]]:
        return list(self._viewers.items())

    def audiences(self) -> set[Audience]:
        """Who needs its own copy of a change: each seat viewed, per protocol version."""
        return {(viewer, subscriber.version) for subscriber, viewer in self._viewers.items()}

    def deliver(self, frames: Mapping[Audience, list[bytes]]) -> None:
        """Each subscriber's copy of a change, made once per audience."""
        for subscriber, viewer in list(self._viewers.items()):
            for frame in frames[viewer, subscriber.version]:
                subscriber.push(frame)

    def broadcast(self, frame: bytes) -> None:
        for subscriber in list(self._viewers):
            subscriber.push(frame)
