"""A game's public summary, for the lobby's listings: live (`Room.summary`) or from storage."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from enum import StrEnum
from typing import Any

from dominion.bots import BotPace

from ..ratings import Rating
from ..storage import GameRecord, SeatRecord


class SeatLeft(StrEnum):
    """Why a bot played for a person's seat, as a summary says it (the seat stays theirs:
    it is never marked a bot's)."""

    RESIGNED = "resigned"
    TAKEN_OVER = "taken_over"
    """Its player stayed away past the grace period (they may have come back since)."""


def seat_left(seat: SeatRecord, resigned: Collection[int]) -> SeatLeft | None:
    if seat.seat in resigned:
        return SeatLeft.RESIGNED
    return SeatLeft.TAKEN_OVER if seat.taken_over_at is not None else None


def seat_of(seat: SeatRecord, resigned: Collection[int], connected: Collection[int],
            ratings: Mapping[int, Rating]) -> dict[str, Any]:
    """A seat as the listings show it; an account's rating at a rated table, as shown
    (docs/RATINGS.md), when the room read it."""
    shown: dict[str, Any] = {
        "seat": seat.seat, "name": seat.name, "bot": seat.bot,
        "bot_account": seat.bot_account, "left": seat_left(seat, resigned),
        "connected": seat.seat in connected, "account": seat.account_id is not None}
    rating = ratings.get(seat.account_id) if seat.account_id is not None else None
    if rating is not None:
        shown["rating"] = {"rating": rating.display, "provisional": rating.provisional}
    return shown


def summary_of(record: GameRecord, seats: Sequence[SeatRecord], *,
               connected: Collection[int] = (), turn: int | None = None,
               resigned: Collection[int] | None = None,
               ratings: Mapping[int, Rating] | None = None) -> dict[str, Any]:
    """A game's public summary, for the lobby's listings (live or from storage); the
    seats that resigned are the result's unless `resigned` (a running game's) says;
    `ratings`: a live rated table's accounts' ratings, by account."""
    if resigned is None:
        resigned = (record.result or {}).get("resigned", ())
    return {
        "id": record.id,
        "state": record.state,
        "edition": record.edition,
        "kingdom": list(record.kingdom),
        "kingdom_name": record.kingdom_name,
        "seats": [seat_of(s, resigned, connected, ratings or {}) for s in seats],
        "created_at": record.created_at,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
        "commitment": record.commitment,
        "spectator_chat": bool(record.options.get("spectator_chat", True)),
        "rated": record.rated,
        "time_control": record.options.get("time_control"),
        "bot_pace": record.options.get("bot_pace", BotPace.INSTANT),
        "turn": turn if turn is not None else sum((record.result or {}).get("turns", [])),
        "result": record.result,
    }
