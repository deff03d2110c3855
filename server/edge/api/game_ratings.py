"""What the rating ledger did to a game's players, as they see it: pushed when the node's
outbox applies the game (`rating_changed`), and read again in the game's summary (its
`ratings`) and a player's games (each one's `rating_change`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aiohttp import web

from dominion.protocol import RatingChanged, SeatRatingChange, Unrated
from dominion.protocol.spec import write_fields

from ...ratings.ledger import GameRatings, LedgerSeat
from ...refusal import Refusal
from ..state import STATE


def rating_changed(ratings: GameRatings) -> RatingChanged:
    """The accounts' seats (the in-server bots' ratings never move)."""
    return RatingChanged(ratings.game_id, tuple(
        seat_change(seat) for seat in ratings.seats if seat.seated.account_id is not None),
        unrated_because(ratings))


def unrated_because(ratings: GameRatings) -> Unrated | None:
    if ratings.aborted:
        return Unrated.TOO_SHORT
    return None if ratings.counted else Unrated.PAIR_LIMIT


def seat_change(seat: LedgerSeat) -> SeatRatingChange:
    return SeatRatingChange(seat.seated.seat, seat.before.display, seat.after.display,
                            seat.after.provisional)


def summary_ratings(ratings: GameRatings) -> dict[str, Any]:
    """A summary's `ratings`: as `rating_changed` says it."""
    told = rating_changed(ratings)
    return {"changes": [write_fields(change) for change in told.changes],
            "unrated": told.unrated}


async def rated_games(request: web.Request, summaries: Sequence[dict[str, Any]]
                      ) -> dict[str, GameRatings]:
    """The ledger's entries of the finished rated games among `summaries`; none while the
    account store cannot be reached (the summaries are worth having without them)."""
    wanted = [summary["id"] for summary in summaries
              if summary.get("rated") and summary.get("state") == "finished"]
    if not wanted:
        return {}
    try:
        return await request.config_dict[STATE].rating_store.game_ratings(wanted)
    except Refusal:
        return {}
