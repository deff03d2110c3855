"""An account's seats as REST answers them: its own list, and one node's part of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...play.room import Room
    from ...play.seats import Seat


def seats_body(seats: list[tuple[Room, Seat]]) -> list[dict[str, Any]]:
    return [{"game": room.summary(), "seat": seat.index} for room, seat in seats]
