"""An account's seats as REST answers them: its own list, and one node's part of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .lobby_models import MAX_SEAT, GameSummary
from .models import encode, member, model, ref

if TYPE_CHECKING:
    from ...play.room import Room
    from ...play.seats import Seat


@model()
class AccountSeat:
    """One of an account's seats: its game's summary and the seat's number."""

    game: dict[str, Any] = member(ref(GameSummary))
    seat: int = member({"type": "integer", "minimum": 0, "maximum": MAX_SEAT})


def seats_body(seats: list[tuple[Room, Seat]]) -> list[dict[str, Any]]:
    """As JSON: a node's part crosses to the node that gathers the account's list."""
    return [encode(AccountSeat(room.summary(), seat.index)) for room, seat in seats]
